"""The one reader of JSON that comes from outside: recipes, profiles, role profiles.

Python's parser recurses once per level of nesting: a recipe nested 100,000 deep
ends in ``RecursionError`` (or worse, on a small stack), and a huge text takes the
memory of several copies of itself. :func:`read_json` checks the size and the
depth before parsing, both limits stated here, and turns every failure into a
:class:`~riskcore.errors.RiskcoreError` that names the limit.
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np

from riskcore.errors import RiskcoreError

__all__ = ["JSON_MAX_BYTES", "JSON_MAX_DEPTH", "json_depth", "read_json"]

#: Deepest nesting of arrays and objects read. A profile with its recipe and ledger
#: nests 6 deep; 64 leaves room for any JSON riskcore writes.
JSON_MAX_DEPTH = 64
#: Largest JSON text read (bytes of UTF-8): a recipe holding every label of large
#: hierarchies stays far below.
JSON_MAX_BYTES = 64 * 2**20

_STRING = re.compile(r'"(?:[^"\\]+|\\.)*"', re.DOTALL)
_OPEN = np.frombuffer(b"[{", dtype=np.uint8)
_CLOSE = np.frombuffer(b"]}", dtype=np.uint8)


def json_depth(text: str) -> int:
    """Return the deepest nesting of arrays and objects in a JSON text, without parsing it.

    Brackets inside strings are not counted (the strings are blanked first);
    the depth is the running sum of openings minus closings (vectorized).

    Parameters
    ----------
    text : str

    Returns
    -------
    int
        0 for a scalar, 1 for ``[1]``, 2 for ``{"a": [1]}``.
    """
    raw = np.frombuffer(_STRING.sub('""', text).encode("utf-8"), dtype=np.uint8)
    step = np.isin(raw, _OPEN).astype(np.int64) - np.isin(raw, _CLOSE)
    return int(np.cumsum(step).max(initial=0))


def read_json(source: str | bytes, *, what: str) -> Any:
    """Parse JSON from outside, within :data:`JSON_MAX_BYTES` and :data:`JSON_MAX_DEPTH`.

    Parameters
    ----------
    source : str or bytes
        The text (bytes are read as UTF-8, a byte order mark allowed).
    what : str
        What the text is, for the message (``"the recipe"``, ``"the profile"``).

    Returns
    -------
    object
        The parsed value.

    Raises
    ------
    RiskcoreError
        When the text is too large, nested too deep, or not JSON.
    """
    if len(source) > JSON_MAX_BYTES:
        raise RiskcoreError(
            f"{what} is over {JSON_MAX_BYTES // 2**20} MB, the limit of JSON read "
            "(JSON_MAX_BYTES): riskcore writes nothing that large; check the file"
        )
    try:
        text = source.decode("utf-8-sig") if isinstance(source, bytes) else source
    except UnicodeDecodeError as exc:
        raise RiskcoreError(f"{what} is not valid JSON (not UTF-8: {exc.reason})") from None
    depth = json_depth(text)
    if depth > JSON_MAX_DEPTH:
        raise RiskcoreError(
            f"{what} nests {depth:,} levels deep, beyond the limit of {JSON_MAX_DEPTH} "
            "(JSON_MAX_DEPTH): riskcore writes nothing that deep; use a file riskcore wrote"
        )
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RiskcoreError(f"{what} is not valid JSON ({exc})") from None
