"""Writing tables for people to open: CSV that a spreadsheet cannot execute.

A cell whose text starts with ``=``, ``+``, ``-``, ``@``, a tab, a carriage
return or a line feed is read by Excel, LibreOffice and Google Sheets as a
formula (CSV / formula injection, OWASP; CWE-1236). Every such text cell is
written with a leading apostrophe, which spreadsheets show as text and do not
evaluate. Numbers stay numbers (``-5`` in a numeric column is not text).
"""

from __future__ import annotations

import pandas as pd

__all__ = ["FORMULA_PREFIXES", "formula_safe", "to_csv_bytes"]

#: First characters that make a spreadsheet cell a formula.
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r", "\n")


def formula_safe(df: pd.DataFrame) -> pd.DataFrame:
    """Return a copy of ``df`` whose text cells cannot start a formula.

    Parameters
    ----------
    df : pandas.DataFrame
        Any table; numeric, boolean and date columns are left as they are.

    Returns
    -------
    pandas.DataFrame
        Text (object, string and categorical) columns as text, each cell that
        starts with one of :data:`FORMULA_PREFIXES` prefixed with ``'``;
        missing values stay missing. Column names are neutralised the same way.
    """
    out = df.copy()
    for name in out.columns:
        col = out[name]
        if not (
            pd.api.types.is_object_dtype(col)
            or pd.api.types.is_string_dtype(col)
            or isinstance(col.dtype, pd.CategoricalDtype)
        ):
            continue
        text = col.astype("string")
        risky = text.str.startswith(FORMULA_PREFIXES).fillna(False).to_numpy(dtype=bool)
        if risky.any():
            text = text.mask(risky, "'" + text)
        out[name] = text
    out.columns = [
        "'" + str(c) if str(c).startswith(FORMULA_PREFIXES) else str(c) for c in out.columns
    ]
    return out


def to_csv_bytes(df: pd.DataFrame) -> bytes:
    """Return ``df`` as formula-safe UTF-8 CSV (no index), for a download.

    Parameters
    ----------
    df : pandas.DataFrame

    Returns
    -------
    bytes
        CSV text with a byte-order mark, so that Excel reads UTF-8 correctly.
    """
    return formula_safe(df).to_csv(index=False).encode("utf-8-sig")
