"""Server memory: what a closed session held goes back to the operating system.

One Streamlit process serves every session. Two allocators keep freed memory
by default: pyarrow's mimalloc pool (it held 300 MB after parsing a 100 MB
CSV) and glibc's malloc arenas (one per script thread). So, once per process,
pyarrow is pointed at the system allocator, and a daemon thread hands free
heap pages back every :data:`TRIM_EVERY_S` seconds with glibc's
``malloc_trim`` (where it exists). Session caches are dropped by Streamlit
when a tab disconnects and session state after ``server.disconnectedSessionTTL``;
this makes their memory visible as free again (``benchmarks/bench_app.py``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
import time

__all__ = ["TRIM_EVERY_S", "release_memory", "start"]

#: Seconds between two returns of free memory to the system.
TRIM_EVERY_S = 20.0

_lock = threading.Lock()
_started = False


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


def release_memory() -> bool:
    """Hand free heap pages back to the system; return False where glibc is absent."""
    if _TRIM is None:
        return False
    _TRIM(0)  # type: ignore[operator]
    return True


def _loop() -> None:
    while True:
        time.sleep(TRIM_EVERY_S)
        release_memory()


def start() -> None:
    """Set up memory handling once per process (later calls do nothing)."""
    global _started
    with _lock:
        if _started:
            return
        _started = True
    import pyarrow as pa

    pa.set_memory_pool(pa.system_memory_pool())
    threading.Thread(target=_loop, name="riskcore-release-memory", daemon=True).start()
