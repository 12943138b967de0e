"""Reading a file named by a user, bounded: regular files only, within a stated size.

A FIFO blocks the reader forever, ``/dev/zero`` never ends and a huge file fills the
memory: :func:`read_regular` refuses each before reading (``os.stat`` and
``stat.S_ISREG``), then opens without blocking and checks the opened file again
(the path could be swapped in between) and reads at most the limit plus one byte.
"""

from __future__ import annotations

import os
import stat

from riskcore.errors import RiskcoreError

__all__ = ["KEY_FILE_MAX_BYTES", "read_regular"]

#: Largest key file read: a key is 64 hexadecimal digits and a newline.
KEY_FILE_MAX_BYTES = 4096


def read_regular(path: str | os.PathLike[str], *, what: str, limit: int) -> bytes:
    """Return the bytes of a regular file of at most ``limit`` bytes, or refuse it.

    Parameters
    ----------
    path : str or path
    what : str
        What the file is, for the message (``"--key-file"``, ``"the recipe"``).
    limit : int
        The largest size read, in bytes.

    Returns
    -------
    bytes

    Raises
    ------
    RiskcoreError
        When the file does not exist, is not a regular file (a directory, a
        FIFO, a device), is larger than ``limit``, or cannot be read. Only the
        file's name is shown, not its directory.
    """
    name = os.path.basename(os.fspath(path)) or os.fspath(path)

    def check(st: os.stat_result) -> None:
        if not stat.S_ISREG(st.st_mode):
            raise RiskcoreError(
                f"{what} {name!r} is not a regular file (a directory, pipe or device is "
                "never read): give a file"
            )
        if st.st_size > limit:
            raise RiskcoreError(
                f"{what} {name!r} is {st.st_size:,} bytes, over the limit of {limit:,}: "
                "give the file riskcore wrote"
            )

    try:
        check(os.stat(path))
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise RiskcoreError(f"{what} {name!r} does not exist") from None
    except OSError as exc:
        raise RiskcoreError(f"{what} {name!r} cannot be read ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as fh:
        check(os.fstat(fh.fileno()))
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise RiskcoreError(f"{what} {name!r} is over the limit of {limit:,} bytes")
    return data
