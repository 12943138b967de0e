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

import codecs
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
        The table to export.

    Returns
    -------
    bytes
        CSV text with a byte-order mark, so that Excel reads UTF-8 correctly.
    """
    return _csv_bytes(data, ",")


def _csv_bytes(data: pd.DataFrame, sep: str) -> bytes:
    """Return ``data`` as formula-safe UTF-8 CSV with a byte-order mark.

    The bytes of ``formula_safe(data).to_csv(index=False, sep=sep)``: text,
    categorical, integer and boolean columns take the fast path
    (:func:`_fast_csv`); a table with another column type (floats, dates,
    mixed objects) is written by pandas.
    """
    return b"".join(_csv_chunks(data, sep))


def _csv_chunks(data: pd.DataFrame, sep: str) -> list[Any]:
    """Return the bytes of :func:`_csv_bytes` as consecutive chunks (bytes-like).

    The body of the fast path stays in pyarrow's buffer: a writer writes the chunks
    one after the other, with no copy of a release of tens of megabytes.
    """
    fast = _fast_csv(data, sep)
    if fast is not None:
        return [codecs.BOM_UTF8, *fast]
    return [str(formula_safe(data).to_csv(index=False, sep=sep)).encode("utf-8-sig")]


def _csv_field(writer: Any, buf: io.StringIO, value: str) -> str:
    """Return one field as pandas' CSV writer writes it (csv.QUOTE_MINIMAL; "" for empty)."""
    if not value:
        return ""
    buf.seek(0)
    buf.truncate()
    writer.writerow([value])
    return buf.getvalue()[: -len(os.linesep)]


def _column_fields(col: pd.Series, encode: Any) -> tuple[list[str], Any] | None:
    """Return a column's distinct CSV fields and each row's position among them.

    The last field is the empty one of a missing value. None for a column
    type pandas formats otherwise (floats, dates, mixed objects).
    """
    import numpy as np

    if pd.api.types.is_bool_dtype(col.dtype) and not col.hasnans:
        return ["False", "True", ""], col.to_numpy(dtype=bool).astype(np.int64)
    if isinstance(col.dtype, pd.CategoricalDtype):
        categories = col.cat.categories
        if pd.api.types.is_integer_dtype(categories.dtype):
            uniques = pd.Series(categories)
        elif pd.api.types.infer_dtype(categories, skipna=True) in ("string", "empty"):
            uniques = pd.Series(categories)
        else:
            return None  # floats, dates: written as pandas writes them
        codes = col.cat.codes.to_numpy()
    elif pd.api.types.is_integer_dtype(col.dtype):
        codes, found = pd.factorize(col, use_na_sentinel=True)
        # a number, not text: never an apostrophe, never a quote
        fields = [str(int(v)) for v in found] + [""]
        return fields, np.asarray(codes, dtype=np.int64)
    elif pd.api.types.is_string_dtype(col.dtype):
        codes, found = pd.factorize(col, use_na_sentinel=True)
        uniques = pd.Series(found, dtype=object)
        if pd.api.types.infer_dtype(uniques, skipna=True) not in ("string", "empty"):
            return None  # an object column of mixed values
    else:
        return None
    text = uniques.astype("string").tolist()  # the text formula_safe gives each value
    fields = [encode("'" + t if t.startswith(FORMULA_PREFIXES) else t) for t in text]
    return [*fields, ""], np.asarray(codes, dtype=np.int64)


def _fast_csv(data: pd.DataFrame, sep: str) -> tuple[bytes, Any] | None:
    """Return ``formula_safe(data).to_csv(index=False, sep=sep)`` as UTF-8, made per distinct value.

    Each distinct value of a column is made formula-safe and quoted once by
    Python's CSV writer (pandas' own rule: ``csv.QUOTE_MINIMAL``, the line
    terminator ``os.linesep``); each distinct row is joined once by pyarrow
    (a generalized release of a million rows holds a few thousand), then the
    rows are laid out in order. The header line as bytes and the rows as a
    bytes-like pyarrow buffer (not copied); None when a column is not text,
    categorical, integer or boolean, or the table has fewer than two or
    duplicate column names (then pandas writes it).
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

    parts = []
    for name in data.columns:
        part = _column_fields(data[name], encode)
        if part is None:
            return None
        parts.append(part)
    names = [str(c) for c in data.columns]
    header = sep.join(encode("'" + c if c.startswith(FORMULA_PREFIXES) else c) for c in names)
    newline = os.linesep
    head = (header + newline).encode("utf-8")
    if not len(data):
        return head, b""
    positions = [np.where(codes < 0, len(fields) - 1, codes) for fields, codes in parts]
    rows, distinct = _distinct_rows(positions, [len(fields) for fields, _ in parts])
    columns = []
    for i, ((fields, _), at) in enumerate(zip(parts, distinct, strict=True)):
        if i == len(parts) - 1:  # the last field of a row carries the line's end
            fields = [f + newline for f in fields]
        # large_string: 64-bit offsets, so a release over 2 GB of text still joins
        columns.append(pa.array(fields, type=pa.large_string()).take(pa.array(at)))
    lines = pc.binary_join_element_wise(*columns, pa.scalar(sep, pa.large_string()))
    if rows is not None:
        lines = lines.take(pa.array(rows))
    # each line ends with the newline: the values buffer holds the lines back to back
    offsets = np.frombuffer(lines.buffers()[1], dtype=np.int64)[lines.offset :]
    start, end = int(offsets[0]), int(offsets[len(lines)])
    return head, lines.buffers()[2][start:end]  # a slice of the buffer, not a copy


def _distinct_rows(positions: list[Any], sizes: list[int]) -> tuple[Any | None, list[Any]]:
    """Return each row's distinct row, and the distinct rows' positions per column.

    A row is keyed by its columns' positions in mixed radix (``sizes``); None
    and the positions themselves when the key would not fit in 62 bits.
    """
    import math

    import numpy as np

    if math.prod(sizes) >= 1 << 62:
        return None, positions
    key = np.zeros(len(positions[0]), dtype=np.int64)
    for at, size in zip(positions, sizes, strict=True):
        key *= size
        key += at
    rows, keys = pd.factorize(key)
    distinct = []
    rest = np.asarray(keys, dtype=np.int64)
    for size in reversed(sizes):
        rest, at = np.divmod(rest, size)
        distinct.append(at)
    return np.asarray(rows, dtype=np.int64), distinct[::-1]


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
        The table to export.

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
        The table to write.
    path : str or Path
        The file.

    Raises
    ------
    RiskcoreError
        For another suffix.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in (".csv", ".tsv"):
        with p.open("wb") as f:
            for chunk in _csv_chunks(data, "," if suffix == ".csv" else "\t"):
                f.write(chunk)
    elif suffix == ".parquet":
        data.reset_index(drop=True).to_parquet(p, index=False)
    elif suffix == ".xlsx":
        p.write_bytes(to_xlsx_bytes(data))
    else:
        raise RiskcoreError(f"{p.name}: write .csv, .tsv, .parquet or .xlsx")
