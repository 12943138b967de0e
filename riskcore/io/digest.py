"""Fingerprint of a loaded file: the SHA-256 of its bytes.

A report quotes the fingerprint so a reader can check that the assessed
file is the one they hold (``sha256sum file.csv`` prints the same hex).
"""

from __future__ import annotations

import hashlib
import mmap

__all__ = ["fingerprint"]


def fingerprint(raw: bytes | bytearray | memoryview | mmap.mmap) -> str:
    """Return the SHA-256 of ``raw`` as 64 lowercase hex digits.

    Parameters
    ----------
    raw : bytes-like or mmap.mmap
        The file's bytes, exactly as read (before any decoding).

    Returns
    -------
    str

    Examples
    --------
    >>> fingerprint(b"abc")[:16]
    'ba7816bf8f01cfea'
    """
    if not isinstance(raw, (bytes, bytearray, memoryview, mmap.mmap)):
        raise TypeError(f"raw must be bytes, got {type(raw).__name__}")
    return hashlib.sha256(raw).hexdigest()
