r"""Writing tables for people to open: CSV that a spreadsheet cannot execute.

A cell whose text starts with ``=``, ``+``, ``-``, ``@``, a tab, a carriage
return or a line feed is read by Excel, LibreOffice and Google Sheets as a
formula (CSV / formula injection, OWASP; CWE-1236). Every such text cell is
written with a leading apostrophe, which spreadsheets show as text and do not
evaluate. Numbers stay numbers (``-5`` in a numeric column is not text).

An .xlsx sheet is XML, which cannot hold most control characters (an
escape sequence ``\x1b[31m``, a bell ``\x07``, a NUL) nor a lone surrogate:
such a character in a column name or a cell is written as Office Open XML
writes it, ``_x001B_`` (ECMA-376 Part 1, 22.9.2.19 ``ST_Xstring``), which
Excel and :func:`riskcore.io.load_table` read back as the character; a
literal ``_x0041_`` in the text is written ``_x005F_x0041_`` so that it is
read back as written (:func:`xlsx_text`).
"""

from __future__ import annotations

import csv
import io
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore.errors import RiskcoreError

__all__ = [
    "FORMULA_PREFIXES",
    "formula_safe",
    "to_csv_bytes",
    "to_xlsx_bytes",
    "write_table",
    "xlsx_text",
]

#: First characters that make a spreadsheet cell a formula.
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r", "\n")
#: Characters XML 1.0 cannot hold (its ``Char`` production): C0 controls other than tab,
#: line feed and carriage return, surrogates, U+FFFE and U+FFFF.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
#: Text that reads as an ST_Xstring escape (``_x0041_``).
_ESCAPE_LIKE = re.compile("_(?=x[0-9A-Fa-f]{4}_)")


def xlsx_text(text: str) -> str:
    r"""Return text a worksheet's XML can hold, escaped as Office Open XML does.

    Each character XML 1.0 cannot hold becomes ``_xHHHH_`` (its code in
    hexadecimal), and the underscore of a literal ``_xHHHH_`` becomes
    ``_x005F_``: ECMA-376 Part 1, 22.9.2.19 ``ST_Xstring``. Excel, and
    :func:`riskcore.io.load_table`, read the result back as ``text``.

    Parameters
    ----------
    text : str
        A column name or a cell's text.

    Returns
    -------
    str
        ``text`` itself when it needs no escape.

    Examples
    --------
    >>> xlsx_text("age\x1b[31m")
    'age_x001B_[31m'
    >>> xlsx_text("_x0041_")
    '_x005F_x0041_'
    """
    if "_x" in text:
        text = _ESCAPE_LIKE.sub("_x005F_", text)
    return _NOT_XML.sub(lambda m: f"_x{ord(m.group()):04X}_", text)


@renamed_arguments(df="data")
def formula_safe(data: pd.DataFrame) -> pd.DataFrame:
    """Return a copy of ``data`` whose text cells cannot start a formula.

    Parameters
    ----------
    data : pandas.DataFrame
        Any table; numeric, boolean and date columns are left as they are.

    Returns
    -------
    pandas.DataFrame
        Text (object, string and categorical) columns as text, each cell that
        starts with one of :data:`FORMULA_PREFIXES` prefixed with ``'``;
        missing values stay missing. Column names are neutralised the same way.
    """
    out = data.copy()
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


@renamed_arguments(df="data")
def to_csv_bytes(data: pd.DataFrame) -> bytes:
    """Return ``data`` as formula-safe UTF-8 CSV (no index), for a download.

    Parameters
    ----------
    data : pandas.DataFrame

    Returns
    -------
    bytes
        CSV text with a byte-order mark, so that Excel reads UTF-8 correctly.
    """
    return _csv_text(data, ",").encode("utf-8-sig")


def _csv_text(data: pd.DataFrame, sep: str) -> str:
    """Return ``data`` as formula-safe CSV text, as ``formula_safe(data).to_csv(index=False)``.

    Text, categorical, integer and boolean columns take the fast path
    (:func:`_fast_csv`): each distinct value is made formula-safe and quoted
    once, then the rows are joined by pyarrow. A table with another column
    type (floats, dates, mixed objects) is written by pandas.
    """
    fast = _fast_csv(data, sep)
    if fast is not None:
        return fast
    return str(formula_safe(data).to_csv(index=False, sep=sep))


def _csv_field(writer: Any, buf: io.StringIO, value: str) -> str:
    """Return one field as pandas' CSV writer writes it (csv.QUOTE_MINIMAL; "" for empty)."""
    if not value:
        return ""
    buf.seek(0)
    buf.truncate()
    writer.writerow([value])
    return buf.getvalue()[: -len(os.linesep)]


def _column_fields(col: pd.Series, encode: Any) -> Any | None:
    """Return a column's CSV fields as a pyarrow string array, None for another column type."""
    import numpy as np
    import pyarrow as pa

    if pd.api.types.is_bool_dtype(col.dtype) and not col.hasnans:
        return pa.array(np.where(col.to_numpy(dtype=bool), "True", "False"), type=pa.string())
    if pd.api.types.is_integer_dtype(col.dtype) and not isinstance(col.dtype, pd.CategoricalDtype):
        values = pa.array(col, from_pandas=True).cast(pa.string())
        return values.fill_null("") if values.null_count else values
    if isinstance(col.dtype, pd.CategoricalDtype):
        categories = col.cat.categories
        if not (
            pd.api.types.is_integer_dtype(categories.dtype)
            or pd.api.types.infer_dtype(categories, skipna=True) in ("string", "empty")
        ):
            return None  # floats, dates: written as pandas writes them
        codes = col.cat.codes.to_numpy()
        uniques = pd.Series(categories)
    elif pd.api.types.is_string_dtype(col.dtype) and (
        not pd.api.types.is_object_dtype(col.dtype)
        or pd.api.types.infer_dtype(col, skipna=True) in ("string", "empty")
    ):
        codes, found = pd.factorize(col, use_na_sentinel=True)
        uniques = pd.Series(found, dtype=object)
    else:
        return None
    text = uniques.astype("string")
    fields = [encode("'" + t if t.startswith(FORMULA_PREFIXES) else t) for t in text.tolist()] + [
        ""
    ]  # the code -1 (missing) takes the last, empty field
    index = np.asarray(codes, dtype=np.int64)
    index[index < 0] = len(fields) - 1
    return pa.array(fields, type=pa.string()).take(pa.array(index))


def _fast_csv(data: pd.DataFrame, sep: str) -> str | None:
    """Return ``formula_safe(data).to_csv(index=False, sep=sep)`` made per distinct value.

    None when a column is not text, categorical, integer or boolean, or the
    column names are not unique (then pandas writes the table).
    """
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    if not data.columns.is_unique or len(data.columns) < 2:
        return None  # pandas quotes a row of one empty field: "" (csv.writer's rule)
    buf = io.StringIO()
    # pandas' writer: its line terminator decides which characters are quoted
    writer = csv.writer(buf, delimiter=sep, lineterminator=os.linesep, quoting=csv.QUOTE_MINIMAL)

    def encode(value: str) -> str:
        return _csv_field(writer, buf, value)

    columns = []
    for name in data.columns:
        fields = _column_fields(data[name], encode)
        if fields is None:
            return None
        columns.append(fields)
    names = [str(c) for c in data.columns]
    header = sep.join(encode("'" + c if c.startswith(FORMULA_PREFIXES) else c) for c in names)
    newline = os.linesep
    if not len(data):
        return header + newline
    # large_string: 64-bit offsets, so a release over 2 GB of text still joins
    wide = [c.cast(pa.large_string()) for c in columns]
    rows = pc.binary_join_element_wise(*wide, pa.scalar(sep, pa.large_string()))
    lines = pc.binary_join_element_wise(
        rows, pa.scalar(newline, pa.large_string()), pa.scalar("", pa.large_string())
    )
    # each line ends with the newline: the values buffer holds the lines back to back
    offsets = np.frombuffer(lines.buffers()[1], dtype=np.int64)[lines.offset :]
    body: str = lines.buffers()[2].to_pybytes()[offsets[0] : offsets[len(lines)]].decode("utf-8")
    return header + newline + body


@renamed_arguments(df="data")
def to_xlsx_bytes(data: pd.DataFrame) -> bytes:
    """Return ``data`` as an .xlsx workbook with no live formula, for a download.

    Every text cell is written as a string cell (``t="s"``): a text starting
    with ``=`` stays the text ``=...`` (Excel shows it, never evaluates it),
    with no apostrophe added. Numbers stay numbers, missing values are empty
    cells, column names are text. A character XML cannot hold (a control
    character, a lone surrogate) is escaped as ``_xHHHH_`` (:func:`xlsx_text`).

    Parameters
    ----------
    data : pandas.DataFrame

    Returns
    -------
    bytes
    """
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell

    wb = Workbook(write_only=True)
    ws = wb.create_sheet("data")

    def cell(value: object) -> WriteOnlyCell:
        if value is None or (not isinstance(value, str) and pd.isna(value)):  # type: ignore[call-overload]
            return WriteOnlyCell(ws, value=None)
        if isinstance(value, (bool, int, float)):
            return WriteOnlyCell(ws, value=value)
        c = WriteOnlyCell(ws, value=xlsx_text(str(value)))
        c.data_type = "s"  # text, even when it starts with "="
        return c

    ws.append([cell(str(c)) for c in data.columns])
    for row in data.itertuples(index=False, name=None):
        ws.append([cell(v.item() if hasattr(v, "item") else v) for v in row])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


@renamed_arguments(df="data")
def write_table(data: pd.DataFrame, path: str | Path) -> None:
    """Write ``data`` to ``path`` by its suffix: .csv / .tsv (formula-safe), .parquet, .xlsx.

    Parameters
    ----------
    data : pandas.DataFrame
    path : str or Path
        The file.

    Raises
    ------
    RiskcoreError
        For another suffix.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".csv":
        p.write_bytes(to_csv_bytes(data))
    elif suffix == ".tsv":
        p.write_bytes(_csv_text(data, "\t").encode("utf-8-sig"))
    elif suffix == ".parquet":
        data.reset_index(drop=True).to_parquet(p, index=False)
    elif suffix == ".xlsx":
        p.write_bytes(to_xlsx_bytes(data))
    else:
        raise RiskcoreError(f"{p.name}: write .csv, .tsv, .parquet or .xlsx")
