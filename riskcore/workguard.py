"""Runtime budgets: a memory ceiling for the serving process and deadlines for long work.

The limits checked before work starts (QIs, levels, nodes, rows, JSON depth) refuse
requests that are sure to be too large. Two budgets cover what an estimate cannot:

* **Memory.** :func:`apply_memory_ceiling` lowers the process's soft ``RLIMIT_DATA``
  (Linux counts the heap and every private writable mapping in it since 4.7, so numpy's
  and pandas' arrays count, reserved but untouched address space does not). An
  allocation beyond it raises ``MemoryError`` in the request that asked for it, which
  the dashboard shows as :func:`memory_message`; without the ceiling the kernel's
  out-of-memory killer ends the whole server, and every session with it. The ceiling
  comes from ``RISKCORE_MEMORY_LIMIT`` (``"6G"``, ``"512M"``, ``"off"``), by default
  :data:`DEFAULT_SHARE` of the memory the machine (or its cgroup) grants.
* **Time.** A :class:`Deadline` is checked by work that reports progress (the
  least-loss search every 64 nodes): past it, :class:`WorkTooLongError` stops the work
  with a message that names the limit and what to do. Its length comes from
  ``RISKCORE_TIME_LIMIT`` in seconds (default :data:`DEFAULT_SECONDS`).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from riskcore.errors import RiskcoreError

__all__ = [
    "DEFAULT_SECONDS",
    "DEFAULT_SHARE",
    "Deadline",
    "WorkTooLongError",
    "apply_memory_ceiling",
    "available_memory",
    "format_size",
    "memory_ceiling",
    "memory_message",
    "parse_size",
    "time_limit",
]

#: Share of the machine's (or cgroup's) memory one serving process may hold.
DEFAULT_SHARE = 0.75
#: Seconds a long computation may run in the dashboard unless RISKCORE_TIME_LIMIT says.
DEFAULT_SECONDS = 300.0
#: The smallest ceiling accepted (below it the interpreter and Streamlit cannot run).
MIN_CEILING = 256 << 20

_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", re.IGNORECASE)


class WorkTooLongError(RiskcoreError):
    """Raised when a computation passes its :class:`Deadline`."""


def parse_size(text: str) -> int:
    """Return the number of bytes in ``"6G"``, ``"512M"``, ``"1.5GiB"`` or ``"1048576"``.

    Parameters
    ----------
    text : str
        A number, then optionally K, M, G or T (any case, with or without ``B`` /
        ``iB``).

    Returns
    -------
    int
        Binary units: ``"1K"`` is 1024 bytes; fractions rounded down.

    Raises
    ------
    RiskcoreError
        For anything else, naming the text.
    """
    m = _SIZE.fullmatch(text)
    if m is None:
        raise RiskcoreError(
            f"{text!r} is not a memory size: write e.g. 6G, 512M or a number of bytes"
        )
    return int(float(m.group(1)) * _UNITS[m.group(2).lower()])


def format_size(n: int) -> str:
    """Return ``n`` bytes in words: ``"6.0 GB"``, ``"512 MB"`` (binary units).

    Parameters
    ----------
    n : int
        A number of bytes.

    Returns
    -------
    str
        GB with one decimal from 1 GiB up, else whole MB.
    """
    if n >= 1 << 30:
        return f"{n / (1 << 30):.1f} GB"
    return f"{n / (1 << 20):.0f} MB"


def available_memory(cgroup_root: Path = Path("/sys/fs/cgroup")) -> int | None:
    """Return the memory this process may use: the cgroup's limit, else physical memory.

    Parameters
    ----------
    cgroup_root : Path
        Where cgroup v2 (``memory.max``) or v1 (``memory/memory.limit_in_bytes``) is
        mounted.

    Returns
    -------
    int or None
        Bytes; None where neither can be read.
    """
    physical: int | None = None
    try:
        physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        physical = None
    for name in ("memory.max", "memory/memory.limit_in_bytes"):
        try:
            raw = (cgroup_root / name).read_text(encoding="ascii").strip()
        except OSError:
            continue
        if raw.isdigit():
            limit = int(raw)
            return limit if physical is None else min(limit, physical)
    return physical


def memory_ceiling(environ: Mapping[str, str] | None = None) -> int | None:
    """Return the ceiling asked for by ``RISKCORE_MEMORY_LIMIT``, or the default one.

    Parameters
    ----------
    environ : mapping, optional
        The environment (default ``os.environ``).

    Returns
    -------
    int or None
        Bytes, at least :data:`MIN_CEILING`; None for ``"off"`` or when the
        machine's memory cannot be read.

    Raises
    ------
    RiskcoreError
        For a value that is not a size, or below :data:`MIN_CEILING`.
    """
    env = os.environ if environ is None else environ
    raw = env.get("RISKCORE_MEMORY_LIMIT", "").strip()
    if raw.lower() in ("off", "none", "0"):
        return None
    if raw:
        size = parse_size(raw)
        if size < MIN_CEILING:
            raise RiskcoreError(
                f"RISKCORE_MEMORY_LIMIT={raw} is below {format_size(MIN_CEILING)}, too little "
                "for the dashboard to run: raise it, or write 'off' for no ceiling"
            )
        return size
    total = available_memory()
    return None if total is None else max(MIN_CEILING, int(total * DEFAULT_SHARE))


def apply_memory_ceiling(limit: int | None) -> int | None:
    """Lower this process's soft data limit to ``limit`` bytes; return the limit in force.

    Never raises the limit above the hard limit or a lower soft limit already set.

    Parameters
    ----------
    limit : int or None
        The memory ceiling in bytes (None: none).

    Returns
    -------
    int or None
        The soft limit now in force; None where there is none or ``resource`` is
        missing (Windows).
    """
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows has no resource module
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    unlimited = resource.RLIM_INFINITY
    if limit is not None:
        new = limit if hard == unlimited else min(limit, hard)
        if soft == unlimited or new < soft:
            resource.setrlimit(resource.RLIMIT_DATA, (new, hard))
            soft = new
    return None if soft == unlimited else int(soft)


def memory_message(limit: int | None) -> str:
    """Return the sentence shown when a request ran out of its memory budget.

    Parameters
    ----------
    limit : int or None
        The memory ceiling in bytes (None: none).

    Returns
    -------
    str
        It names the budget and what to try instead.
    """
    budget = "the memory this machine has" if limit is None else f"{format_size(limit)}"
    return (
        f"This step needed more memory than the server's budget ({budget}) and was "
        "stopped; nothing else was affected. Try fewer quasi-identifiers, a sample of the "
        "rows, or the command line (riskcore assess / anonymize) on a larger machine; the "
        "operator sets the budget with RISKCORE_MEMORY_LIMIT."
    )


def time_limit(environ: Mapping[str, str] | None = None) -> float:
    """Return the seconds of ``RISKCORE_TIME_LIMIT`` (default :data:`DEFAULT_SECONDS`).

    Parameters
    ----------
    environ : mapping of str to str, optional
        The environment read (default :data:`os.environ`).

    Returns
    -------
    float

    Raises
    ------
    RiskcoreError
        For a value that is not a positive number.
    """
    env = os.environ if environ is None else environ
    raw = env.get("RISKCORE_TIME_LIMIT", "").strip()
    if not raw:
        return DEFAULT_SECONDS
    try:
        seconds = float(raw)
    except ValueError:
        seconds = -1.0
    if not seconds > 0:
        raise RiskcoreError(f"RISKCORE_TIME_LIMIT={raw} is not a positive number of seconds")
    return seconds


class Deadline:
    """A time budget that long work checks as it goes.

    Parameters
    ----------
    seconds : float
        The budget.
    what : str
        The work, in words ("the least-loss search").
    advice : str
        What to do when it runs out ("pin some levels or use fewer QIs").
    clock : callable, optional
        Monotonic seconds (``time.monotonic``); given in tests.
    """

    def __init__(
        self,
        seconds: float,
        what: str,
        advice: str,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.seconds = float(seconds)
        self.what = what
        self.advice = advice
        self._clock = clock
        self._end = clock() + self.seconds

    def check(self) -> None:
        """Raise :class:`WorkTooLongError` once the budget is spent."""
        if self._clock() > self._end:
            raise WorkTooLongError(
                f"{self.what} was stopped after its time budget of {self.seconds:g} s: "
                f"{self.advice} (the operator sets the budget with RISKCORE_TIME_LIMIT)"
            )

    def watch(
        self, progress: Callable[[int, int], None] | None = None
    ) -> Callable[[int, int], None]:
        """Return a progress callback that checks the deadline, then calls ``progress``.

        Parameters
        ----------
        progress : callable, optional
            Called as ``progress(done, total)`` after each check.

        Returns
        -------
        callable
            Raises :class:`WorkTooLongError` once the deadline has passed.
        """

        def step(done: int, total: int) -> None:
            self.check()
            if progress is not None:
                progress(done, total)

        return step
