"""The bytes of a source: an upload's bytes, or a local file mapped into memory.

A file is memory-mapped read-only rather than copied (``read_bytes`` of a
100 MB file costs about as much as parsing it, for the allocation and the
copy). The map is never closed explicitly: pyarrow buffers made from it
hold a reference, so it lives exactly as long as something reads it.
Everything downstream uses only what ``bytes`` and ``mmap`` share: slicing
(which copies a slice into ``bytes``), ``find`` / ``rfind``, ``len``, and
the buffer protocol (hashlib, numpy, pyarrow).
"""

from __future__ import annotations

import mmap
import os
import re
from pathlib import Path
from typing import TypeAlias

from riskcore.errors import DataLoadError
from riskcore.io.table import LoadLimits

__all__ = ["Raw", "count_byte", "is_blank", "is_demo", "read_source"]

#: The file's bytes: ``bytes`` (an upload) or a read-only memory map (a path).
Raw: TypeAlias = bytes | mmap.mmap


def is_demo(spec: str) -> bool:
    """Return True when a data argument names generated demo data, not a file.

    Parameters
    ----------
    spec : str
        The command line's data argument.

    Returns
    -------
    bool
        For ``demo``, ``demo:N``, ``claims`` and ``claims:N`` (:mod:`riskcore.demo`).
    """
    head = spec.split(":", 1)[0]
    return head in ("demo", "claims") and (spec == head or spec.startswith(head + ":"))


def read_source(
    source: str | os.PathLike[str] | bytes | bytearray | memoryview,
    name: str | None,
    limits: LoadLimits,
) -> tuple[Raw, str]:
    """Return the bytes of a path or bytes-like source and the name to use.

    Parameters
    ----------
    source : path or bytes
        A local file path (never a URL) or the file's bytes.
    name : str or None
        File name; default the path's name, or "data".
    limits : LoadLimits
        The byte limit is checked before anything is read.

    Returns
    -------
    raw : bytes or mmap.mmap
    name : str

    Raises
    ------
    DataLoadError
        For a URL, a missing file, a folder, an unreadable or too large file.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        name = name or "data"
        if len(data) > limits.max_bytes:
            raise _too_big(name, len(data), limits)
        return data, name
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"source must be a path or bytes, got {type(source).__name__}")
    path = Path(source)
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", str(source)):
        raise DataLoadError(f"{str(source)!r} looks like a web address; give a local file")
    name = name or path.name
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise DataLoadError(f"there is no file at {str(path)!r}") from None
    except OSError as exc:
        raise DataLoadError(f"the file {str(path)!r} cannot be read ({exc.strerror})") from None
    if path.is_dir():
        raise DataLoadError(f"{str(path)!r} is a folder, not a file")
    if size > limits.max_bytes:
        raise _too_big(name, size, limits)
    try:
        raw = _map(path)
    except OSError as exc:
        raise DataLoadError(f"the file {str(path)!r} cannot be read ({exc.strerror})") from None
    if len(raw) > limits.max_bytes:  # it grew since it was measured
        raise _too_big(name, len(raw), limits)
    return raw, name


def _map(path: Path) -> Raw:
    """Return the file mapped read-only (its bytes when it is empty or cannot be mapped)."""
    with path.open("rb") as f:
        if os.fstat(f.fileno()).st_size == 0:
            return b""
        try:
            if os.name == "posix":
                flags = mmap.MAP_PRIVATE | getattr(mmap, "MAP_POPULATE", 0)
                return mmap.mmap(f.fileno(), 0, flags=flags, prot=mmap.PROT_READ)
            return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)  # pragma: no cover
        except (OSError, ValueError):  # pragma: no cover - e.g. a pipe or special file
            return f.read()


def _too_big(name: str, size: int, limits: LoadLimits) -> DataLoadError:
    return DataLoadError(
        f"{name} is {size / 1e6:,.0f} MB, above the {limits.max_bytes / 1e6:,.0f} MB "
        "limit. Load a sample, or convert it to Parquet, which is smaller."
    )


def is_blank(raw: Raw) -> bool:
    """Return True when the file holds nothing but white space."""
    if raw[:65536].strip():
        return False
    return not raw[:].strip()


def count_byte(raw: Raw, byte: int) -> int:
    """Return how many times the byte value ``byte`` occurs in ``raw``."""
    if isinstance(raw, bytes):
        return raw.count(bytes([byte]))
    import numpy as np

    return int(np.count_nonzero(np.frombuffer(raw, dtype=np.uint8) == byte))
