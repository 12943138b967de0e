"""Simple operators: drop a column, redact, keep the last digits or the initials, number.

Each is a pure function of a pandas Series (the table for
:func:`drop_columns`) returning a new one with the same index and name;
missing values stay missing. The work is done once per distinct value
(:mod:`riskcore.deidentify.masking.values`).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from riskcore.deidentify.masking.values import per_value
from riskcore.errors import RiskcoreError

__all__ = ["drop_columns", "keep_initials", "mask_digits", "redact", "substitute"]


def drop_columns(data: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """Return the table without the given columns.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    columns : sequence of str
        Columns to remove; each must exist.

    Returns
    -------
    pandas.DataFrame
        A new table; ``data`` is not changed.

    Raises
    ------
    RiskcoreError
        Naming the first column that is not in the table.
    """
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a pandas DataFrame, got {type(data).__name__}")
    if isinstance(columns, str):
        raise TypeError("columns must be a sequence of column names, not a string")
    present = [str(c) for c in data.columns]
    for col in columns:
        if col not in present:
            raise RiskcoreError(f"cannot drop column {col!r}: it is not in the table")
    return data.drop(columns=list(columns))


def redact(series: pd.Series, *, text: str = "[REDACTED]") -> pd.Series:
    """Replace every non-missing value by one constant text.

    Parameters
    ----------
    series : pandas.Series
        The column's values.
    text : str, default "[REDACTED]"
        The text every value becomes.

    Returns
    -------
    pandas.Series
        ``text`` where the input has a value, missing where it is missing.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return per_value(series, lambda texts: [text] * len(texts))


def mask_digits(series: pd.Series, *, keep_last: int = 4, mask: str = "*") -> pd.Series:
    """Mask every digit except the last ``keep_last``, keeping other characters.

    ``"123-45-6789"`` becomes ``"***-**-6789"``; ``"0012"`` with
    ``keep_last=2`` becomes ``"**12"`` (leading zeros of text are digits like
    any other). A value with at most ``keep_last`` digits is masked entirely,
    since showing all of its digits would show the value.

    Parameters
    ----------
    series : pandas.Series
        The column's values.
    keep_last : int, default 4
        Digits kept at the end (>= 0).
    mask : str, default "*"
        One character written over each hidden digit.

    Returns
    -------
    pandas.Series
        Text; missing stays missing.
    """
    if isinstance(keep_last, bool) or not isinstance(keep_last, int) or keep_last < 0:
        raise ValueError(f"keep_last must be an integer >= 0, got {keep_last!r}")
    if not isinstance(mask, str) or len(mask) != 1:
        raise ValueError(f"mask must be one character, got {mask!r}")

    def one(text: str) -> str:
        n_digits = sum(ch.isdigit() for ch in text)
        keep = keep_last if n_digits > keep_last else 0
        out, seen = [], 0
        for ch in text:
            if ch.isdigit():
                seen += 1
                out.append(ch if seen > n_digits - keep else mask)
            else:
                out.append(ch)
        return "".join(out)

    return per_value(series, lambda texts: [one(t) for t in texts])


def keep_initials(series: pd.Series) -> pd.Series:
    """Replace each word of a name by its first letter and a full stop.

    ``"ada lovelace"`` becomes ``"A. L."``; words without a letter are left
    out; a value without any letter becomes ``""``.

    Parameters
    ----------
    series : pandas.Series
        The column's values.

    Returns
    -------
    pandas.Series
        Text; missing stays missing.
    """

    def one(text: str) -> str:
        initials = []
        for word in text.split():
            letter = next((ch for ch in word if ch.isalpha()), None)
            if letter is not None:
                initials.append(letter.upper() + ".")
        return " ".join(initials)

    return per_value(series, lambda texts: [one(t) for t in texts])


def substitute(series: pd.Series, *, prefix: str = "Person", width: int = 5) -> pd.Series:
    """Replace each distinct value by a numbered label, ``"Person 00017"``.

    Numbering is by first appearance: the value of the first non-missing row
    is ``Person 00001``, the next value not seen before ``Person 00002``, and
    so on; equal values get equal labels. The label is not derived from the
    value, so it cannot be reversed without the original table (a
    re-identification code as 45 CFR 164.514(c) allows); but the numbering
    depends on the row order, so two releases number people differently.

    Parameters
    ----------
    series : pandas.Series
        The column's values.
    prefix : str, default "Person"
        The label's text before the number.
    width : int, default 5
        Digits of the number, zero-padded (more when there are more values).

    Returns
    -------
    pandas.Series
        Text; missing stays missing.
    """
    if isinstance(width, bool) or not isinstance(width, int) or width < 1:
        raise ValueError(f"width must be an integer >= 1, got {width!r}")

    def labels(texts: list[str]) -> list[str]:
        digits = max(width, len(str(len(texts))))
        return [f"{prefix} {i:0{digits}d}" for i in range(1, len(texts) + 1)]

    return per_value(series, labels)
