"""Bounded loopback load: 8 browser sessions at once, each uploading UCI Adult (32,561 rows)
and opening every page, all complete with no error, and the server's memory comes back.

The server (``streamlit run app.py`` on a free loopback port) and Chromium run on this
machine only; the test is bounded (8 sessions, one pass over the pages, 300 s per step).
Idle memory is the server's process tree after one demo session opened every page and closed
(the libraries a page imports stay loaded for the process's life). After the 8 tabs close the
tree must come back within 300 MB of that idle; the test reads it every 5 s for up to 90 s
(the benchmark, ``benchmarks/bench_concurrent.py``, reads it 5 minutes after). Timings are
printed, not asserted: they depend on what else the 2 cores run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import live, load
from tests.conftest import shared_file

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SESSIONS = 8
ROWS = 32_561
MARGIN_MB = 300.0
WAIT_S = 90.0


def test_eight_concurrent_sessions_upload_adult_and_open_every_page(capsys) -> None:
    if not Path(load.CHROMIUM).exists():
        pytest.fail(f"Chromium is not installed at {load.CHROMIUM} (apt-get install chromium)")
    adult = shared_file("adult.csv")  # UCI Adult with a header; skips only outside CI
    assert sum(1 for _ in adult.open("rb")) - 1 == ROWS
    with live.serve() as (url, proc, _):
        result = load.run(url, proc.pid, adult, sessions=SESSIONS)
        after, waited = load.settled_rss(proc.pid, result.rss_idle + MARGIN_MB, WAIT_S)
        alive = proc.poll() is None
    figures = result.summary()
    with capsys.disabled():
        print(
            f"\n{SESSIONS} sessions in {result.wall:.0f} s; pages median "
            f"{figures['page median']:.1f} s, worst {figures['page worst']:.1f} s; upload "
            f"median {figures['upload median']:.1f} s, worst {figures['upload worst']:.1f} s; "
            f"server RSS cold {result.rss_cold:.0f} MB, idle {result.rss_idle:.0f} MB, peak "
            f"{result.rss_peak:.0f} MB, {after:.0f} MB {waited:.0f} s after the tabs closed"
        )
    errors = [f"session {s.index}: {e}" for s in result.sessions for e in s.errors]
    assert not errors, "\n".join(errors)
    assert len(result.sessions) == SESSIONS
    assert all(s.complete for s in result.sessions)
    assert alive, "the server died under the load"
    assert result.rss_peak > result.rss_idle  # the sampler saw the sessions' tables
    assert after <= result.rss_idle + MARGIN_MB, (
        f"{after:.0f} MB {waited:.0f} s after the tabs closed, idle was {result.rss_idle:.0f} MB"
    )
