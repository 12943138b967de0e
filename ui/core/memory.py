"""Server memory: what a closed session held goes back to the operating system.

One Streamlit process serves every session. Two allocators keep freed memory
by default: pyarrow's mimalloc pool (it held 300 MB after parsing a 100 MB
CSV) and glibc's malloc arenas (one per script thread). So, once per process,
pyarrow is pointed at the system allocator, glibc's mmap threshold is pinned
so that column-sized arrays are mapped and unmapped on their own, and a
daemon thread hands free heap pages back every :data:`TRIM_EVERY_S` seconds
with glibc's ``malloc_trim`` (where it exists). Session caches are dropped by Streamlit
when a tab disconnects; each session ends with its tab (:func:`end_with_tab`), and the
same thread empties the state of every session that has ended
(:func:`release_ended_sessions`): Streamlit keeps the last session it served
reachable after its end, and with its state its widgets' callbacks and the table
they were handed. This makes their memory free again (``benchmarks/bench_app.py``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import sys
import threading
import time
from typing import Any

import streamlit as st

from riskcore.errors import RiskcoreError
from riskcore.workguard import apply_memory_ceiling, memory_ceiling
from ui.core import keys

__all__ = [
    "TRIM_EVERY_S",
    "ceiling",
    "end_with_tab",
    "release_ended_sessions",
    "release_memory",
    "start",
]

#: Seconds between two returns of free memory to the system.
TRIM_EVERY_S = 20.0

_lock = threading.Lock()
_started = False
_ceiling: int | None = None
#: The state of each session marked to end with its tab, by session id, with the number
#: of sweeps that have emptied it since it ended (:func:`release_ended_sessions`).
_sessions: dict[str, tuple[Any, int]] = {}


def _malloc_trim() -> object | None:
    """Return glibc's ``malloc_trim`` or None (musl, macOS, Windows)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return getattr(ctypes.CDLL(name), "malloc_trim", None)
    except OSError:
        return None


_TRIM = _malloc_trim()

#: glibc's mallopt parameter of the size from which a block is mapped on its own.
M_MMAP_THRESHOLD = -3
#: Blocks of this size or more are mapped on their own and unmapped when freed.
MMAP_THRESHOLD = 4 << 20


def _fix_mmap_threshold() -> bool:
    """Pin glibc's mmap threshold at :data:`MMAP_THRESHOLD` (4 MiB); False where absent.

    glibc raises the threshold (up to 32 MB) each time a mapped block is
    freed, so after the first large table every column-sized array (8 MB per
    million rows) comes from the heap arenas, where a few surviving small
    blocks keep freed pages from going back: one 1M-row session left about
    300 MB behind after its tab closed. A fixed threshold keeps large arrays
    mapped, so freeing them returns their memory at once. 4 MiB, not less:
    the demo's small arrays stay in the heap (at 1 MiB the first page took
    about 0.5 s longer, every small array paying a map and an unmap).
    """
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        mallopt = getattr(ctypes.CDLL(name), "mallopt", None)
    except OSError:
        return False
    return bool(mallopt is not None and mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1)


def release_memory() -> bool:
    """Hand free heap pages back to the system; return False where glibc is absent."""
    if _TRIM is None:
        return False
    _TRIM(0)  # type: ignore[operator]
    return True


def _forget(state: Any) -> None:
    """Empty an ended session's state: its values and its widgets' callbacks.

    ``state`` is the session's ``SessionState`` (Streamlit 1.67): it is cleared
    (``SessionState.clear``) and its widgets' metadata (each widget's callback, ``args``
    and ``format_func``), which ``clear`` leaves, dropped. Attributes Streamlit no longer
    has are skipped.
    """
    clear = getattr(state, "clear", None)
    if callable(clear):
        clear()
    widgets = getattr(state, "_new_widget_state", None)
    metadata = getattr(widgets, "widget_metadata", None)
    if isinstance(metadata, dict):
        metadata.clear()


def release_ended_sessions() -> int:
    """Empty the state of every session that has ended; return how many were emptied.

    A closed tab's session is shut down (:func:`end_with_tab`), but Streamlit's runtime
    loop keeps the last session it sent messages to in a local variable until another
    session is served (``Runtime._loop_coroutine``, Streamlit 1.67). Through that
    session's state, the callbacks its widgets were given (a page's context as ``args``)
    hold its table, its codes and its partitions (166 MB of arrays after a 1,000,000-row
    session).
    Each session no longer active is emptied on two sweeps (the second catches what a
    script run still stopping wrote after the first) and then forgotten. Runs on the
    memory thread every :data:`TRIM_EVERY_S` seconds; does nothing without a runtime.
    """
    rt = _runtime()
    if rt is None:
        return 0
    with _lock:
        ended = [(sid, s, n) for sid, (s, n) in _sessions.items() if not rt.is_active_session(sid)]
    for sid, state, sweeps in ended:
        _forget(state)
        with _lock:
            if sweeps >= 1:
                _sessions.pop(sid, None)
            else:
                _sessions[sid] = (state, sweeps + 1)
    if ended:
        gc.collect()  # a context and its table may sit in a reference cycle
    return len(ended)


def _loop() -> None:
    while True:
        time.sleep(TRIM_EVERY_S)
        try:
            release_ended_sessions()
        except Exception as exc:  # the thread must live on; say why once per sweep
            print(f"riskcore: an ended session could not be emptied: {exc!r}", file=sys.stderr)
        release_memory()


def start() -> None:
    """Set up memory handling once per process (later calls do nothing).

    Also puts the process under its memory ceiling (:mod:`riskcore.workguard`:
    ``RISKCORE_MEMORY_LIMIT``, by default 3/4 of the machine's memory), so that a
    request asking for too much gets ``MemoryError`` (shown by ``app.py``) instead of
    the kernel ending the server; a ceiling that cannot be read is reported on stderr
    and the default one applies.
    """
    global _started, _ceiling
    with _lock:
        if _started:
            return
        _started = True
    import pyarrow as pa

    _fix_mmap_threshold()
    pa.set_memory_pool(pa.system_memory_pool())
    try:
        wanted = memory_ceiling()
    except RiskcoreError as exc:
        print(f"riskcore: {exc}; using the default memory ceiling", file=sys.stderr)
        wanted = memory_ceiling({})
    _ceiling = apply_memory_ceiling(wanted)
    threading.Thread(target=_loop, name="riskcore-release-memory", daemon=True).start()


def ceiling() -> int | None:
    """Return the process's memory ceiling in bytes (None: none set)."""
    return _ceiling


def end_with_tab() -> None:
    """Make this session end when its tab disconnects, not wait to be resumed.

    By default Streamlit keeps a disconnected session for a reconnect and
    shuts it down only when its stored entry is next swept, so everything the
    session holds (its state, its widgets' callbacks, a page's deferred
    downloads, and through them its table) outlives the tab. The table
    itself is gone at once anyway (session caches are dropped on
    disconnect), so resuming gains nothing here: the session is marked
    non-resumable (``Runtime.mark_session_nonresumable``), and Streamlit shuts
    it down when the tab goes; its state is noted for :func:`release_ended_sessions`,
    which empties it once the session has ended. Called once per session; does
    nothing without a runtime (tests, bare mode).
    """
    if st.session_state.get(keys.SESSION_ENDS_WITH_TAB):
        return
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    rt = _runtime()
    if ctx is None or rt is None:
        return
    rt.mark_session_nonresumable(ctx.session_id)
    state = getattr(ctx.session_state, "_state", None)  # the SessionState itself
    if state is not None:
        with _lock:
            _sessions[ctx.session_id] = (state, 0)
    st.session_state[keys.SESSION_ENDS_WITH_TAB] = True


def _runtime() -> Any:
    """Return Streamlit's runtime, or None without one (AppTest, bare mode)."""
    from streamlit import runtime

    return runtime.get_instance() if runtime.exists() else None
