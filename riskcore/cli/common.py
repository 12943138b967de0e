"""What every command of the command line shares: the parser class, the ``--decimal``
of the running command, loading a table, and escaping control characters in output.
"""

from __future__ import annotations

import argparse
import contextvars
import io
import re
import sys
from typing import TYPE_CHECKING, NoReturn, TextIO

from riskcore.errors import RiskcoreError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["DECIMAL", "Escaped", "Parser", "column_pairs", "escape_controls", "load"]


class Parser(argparse.ArgumentParser):
    """An argument parser that exits 2 with a one-line message (no traceback)."""

    def error(self, message: str) -> NoReturn:  # exit 2 with a plain message
        self.print_usage(sys.stderr)
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)


#: The ``--decimal`` of the running command (None: found in each file), read by every load.
DECIMAL: contextvars.ContextVar[str | None] = contextvars.ContextVar("decimal", default=None)


def load(spec: str) -> pd.DataFrame:
    """Return the table at ``spec``: a file, or the demo data (``demo``, ``claims:N``).

    Parameters
    ----------
    spec : str
        A path, or a demo name.

    Returns
    -------
    pandas.DataFrame
        The table as read, with the running command's ``--decimal``.
    """
    from riskcore.demo import is_demo, load_demo

    if is_demo(spec):
        return load_demo(spec)
    from riskcore.io import load_table

    return load_table(spec, decimal=DECIMAL.get()).data


#: Characters never printed as they are: C0 controls but tab and newline (ESC starts a
#: terminal escape code: colours, a fake "PASS", a hidden link), DEL, C1 controls, and the
#: direction controls (U+202E reverses the text after it).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def escape_controls(text: str) -> str:
    r"""Return ``text`` with every control character written as an escape (``\x1b``, ``\u202e``).

    Parameters
    ----------
    text : str
        Text from a file or a user, about to be printed to a terminal.

    Returns
    -------
    str
    """
    return _CONTROL.sub(
        lambda m: f"\\x{ord(m[0]):02x}" if ord(m[0]) < 0x100 else f"\\u{ord(m[0]):04x}", text
    )


class Escaped(io.TextIOBase):
    """A text stream that writes through :func:`escape_controls` (the CLI's stdout, stderr).

    Parameters
    ----------
    stream : TextIO
        The stream written to (``sys.stdout`` or ``sys.stderr``).
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, s: str) -> int:
        self._stream.write(escape_controls(s))
        return len(s)

    def flush(self) -> None:
        self._stream.flush()


def column_pairs(items: list[str], flag: str, shape: str) -> dict[str, str]:
    """Return the ``COL=VALUE`` items of a repeated option as a mapping of column to value.

    Parameters
    ----------
    items : list of str
        The option's values, e.g. ``["age=2", "zip=0.5"]``.
    flag : str
        The option, for the message (``"--weight"``).
    shape : str
        What an item looks like, for the message (``"COL=W"``).

    Raises
    ------
    RiskcoreError
        For an item without ``=``, a column or a value.

    Returns
    -------
    dict of str to str
        Column to value, in the order given; a column given twice keeps its last value.
    """
    out: dict[str, str] = {}
    for item in items:
        col, sep, value = item.partition("=")
        if not sep or not col or not value:
            raise RiskcoreError(f"{flag} {item!r}: write {shape}")
        out[col] = value
    return out
