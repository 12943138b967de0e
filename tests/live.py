"""A live server of the app for the browser tests and ``benchmarks/bench_app.py``.

:func:`serve` starts the dashboard with the README's command (``riskcore app``,
which runs ``streamlit run app.py``) on a free port in its own process group and
stops it; :data:`BUSY` is the script that tells whether the page is
still working.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# While a script runs, the app's root says so (data-test-script-state), Streamlit marks the
# previous run's elements stale and shows spinners (its header status widget is hidden by
# toolbarMode = "minimal"), and a skeleton stands where a chart waits for plotly.js (loaded
# by the browser once per tab). A page that computes for seconds after drawing its first
# elements has nothing stale: the root's state is what catches it.
BUSY = (
    '() => !!document.querySelector(\'[data-test-script-state="running"], '
    '[data-stale="true"], [data-testid="stStatusWidget"], [data-testid="stSpinner"], '
    '[data-testid="stSkeleton"]\')'
)


def free_port() -> int:
    """Return a TCP port free on the loopback interface."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve(
    timeout: float = 60.0,
    *,
    env: dict[str, str] | None = None,
    log: Path | None = None,
    port: int | None = None,
    options: Sequence[str] = (),
) -> Iterator[tuple[str, subprocess.Popen[bytes], float]]:
    """Run the app; yield (URL, process, seconds until it answered its health check).

    ``env`` adds to (or overrides) the environment of the server; its standard output and
    error go to the file ``log`` when one is given; ``port`` (default a free one) is where
    it listens, ``options`` more Streamlit options (``--secrets.files PATH``).

    Raises
    ------
    RuntimeError
        When the server does not answer within ``timeout`` seconds.
    """
    port = free_port() if port is None else port
    command = [sys.executable, "-m", "riskcore", "app"]
    command += ["--server.port", str(port), "--server.headless", "true", *options]
    environ = {**os.environ, **(env or {})}
    # never the user's own database: a benchmark or test server saves into a temporary one
    scratch = tempfile.TemporaryDirectory(prefix="riskcore-live-")
    environ.setdefault("RISKCORE_DB", str(Path(scratch.name) / "r.db"))
    with scratch, open(log if log is not None else os.devnull, "wb") as out:
        proc = subprocess.Popen(
            command,
            cwd=ROOT,
            env=environ,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        url = f"http://localhost:{port}"
        try:
            t0 = time.perf_counter()
            while True:
                try:
                    if urllib.request.urlopen(f"{url}/_stcore/health", timeout=1).read() == b"ok":
                        break
                except OSError:
                    time.sleep(0.05)
                if time.perf_counter() - t0 > timeout:
                    raise RuntimeError(f"the Streamlit server did not start within {timeout:g} s")
            yield url, proc, time.perf_counter() - t0
        finally:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
