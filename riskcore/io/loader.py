"""Read a table from a path or from bytes, safely, with plain-language errors.

Formats: CSV / TSV / delimited text (delimiter detected; encoding UTF-8
with or without BOM, UTF-16 with BOM, else cp1252 / latin-1, or the one the
caller gives: :mod:`riskcore.io._text`), Parquet, Excel ``.xlsx``.
Archives and compressed files are refused (a small gzip can expand to
gigabytes); limits on bytes, rows and columns are checked before
and while parsing. Every failure raises :class:`~riskcore.errors.DataLoadError`
with a sentence a privacy officer can act on.

Identifier-like values keep their text: a column whose values have leading
zeros (``02139``, anywhere in the file), or whose name says ZIP / postcode /
SSN / phone / ID, is kept as text, so no leading zero is lost. Other columns
whose every value is a number become numeric. Nothing is silently dropped:
the result reports how many values are missing in each column, which
markers were read as missing, how many values kept a mostly-numeric column
as text, and any repair (renamed duplicate headers). Its metadata carries
the SHA-256 fingerprint of the file's bytes.

CSV and Parquet are read by pyarrow (multi-threaded; low-cardinality text
columns arrive as pandas Categoricals), see :mod:`riskcore.io._csv` and
:mod:`riskcore.io._parquet`; Excel by openpyxl (:mod:`riskcore.io._excel`).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from riskcore.errors import DataLoadError
from riskcore.io._source import Raw, is_blank, read_source
from riskcore.io.digest import fingerprint
from riskcore.io.table import MISSING_MARKERS, LoadedTable, LoadInfo, LoadLimits

__all__ = ["MISSING_MARKERS", "LoadInfo", "LoadLimits", "LoadedTable", "load_arrow", "load_table"]

_MAGIC: list[tuple[bytes, str]] = [
    (b"\x1f\x8b", "a gzip-compressed file"),
    (b"BZh", "a bzip2-compressed file"),
    (b"\xfd7zXZ\x00", "an xz-compressed file"),
    (b"\x28\xb5\x2f\xfd", "a zstd-compressed file"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Excel (.xls) or other OLE file"),
    (b"%PDF", "a PDF document"),
    (b"SQLite format 3\x00", "a SQLite database"),
]


def load_table(
    source: str | os.PathLike[str] | bytes | bytearray | memoryview,
    *,
    name: str | None = None,
    limits: LoadLimits | None = None,
    encoding: str | None = None,
    decimal: str | None = None,
) -> LoadedTable:
    """Load a CSV, Parquet or Excel table from a file path or from bytes.

    Parameters
    ----------
    source : path or bytes
        A local file path (never a URL) or the file's bytes (an upload).
    name : str, optional
        File name, used to pick the format when the bytes do not tell and in
        messages. Default: the path's name, or "data".
    limits : LoadLimits, optional
        Byte, row and column limits.
    encoding : str, optional
        Text encoding of a CSV / TSV file (any Python codec name, e.g.
        "cp1251"); default: a byte-order mark, else UTF-8 when every byte
        is valid UTF-8, else cp1252 (latin-1 when cp1252 cannot read a
        byte). Ignored for Parquet and Excel, which say their own.
    decimal : {".", ","}, optional
        Decimal mark of a CSV / TSV file's numbers: "," reads ``1.234,56``
        as 1234.56. Default: a comma when the file is not comma-separated
        and a column of its start is mostly such numbers
        (:func:`riskcore.io._text.sniff_decimal`), else a point.
        ``table.info.decimal`` says which was used. Ignored for Parquet and
        Excel, whose numbers are typed.

    Returns
    -------
    LoadedTable
        The data and its :class:`LoadInfo` (``table.info``).

    Raises
    ------
    DataLoadError
        With a plain-language message, for every unreadable input.
    """
    if limits is None:
        limits = LoadLimits()
    elif not isinstance(limits, LoadLimits):
        raise TypeError(f"limits must be a LoadLimits, got {type(limits).__name__}")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name must be a string, got {type(name).__name__}")
    raw, name = read_source(source, name, limits)
    if is_blank(raw):
        raise DataLoadError(f"{name} is empty: it has no header and no rows")
    start = raw[:16]
    for magic, what in _MAGIC:
        if start.startswith(magic):
            raise DataLoadError(
                f"{name} is {what}, not a table. Compressed files and archives are refused "
                "for safety; unpack it and load the CSV, Parquet or .xlsx file inside."
            )
    # the SHA-256 runs in a thread (hashlib releases the GIL) while the table is parsed
    with ThreadPoolExecutor(max_workers=1) as pool:
        fp = pool.submit(fingerprint, raw)
        table = _guarded(raw, name, limits, encoding, decimal)
        return LoadedTable(table.data, replace(table.info, fingerprint=fp.result()))


def load_arrow(
    source: str | os.PathLike[str],
    *,
    limits: LoadLimits | None = None,
    encoding: str | None = None,
    columns: Sequence[str] | None = None,
    decimal: str | None = None,
) -> Any | None:
    """Read a CSV / TSV file into a typed ``pyarrow.Table``, without pandas.

    The same reader, checks and typing as :func:`load_table` (leading zeros
    kept, numbers typed on the whole column, low-cardinality text
    dictionary-encoded, the same messages), stopping before the conversion
    to pandas: what ``riskcore assess`` needs (:class:`riskcore.engine.columnar.ArrowTable`).
    Only a file whose text the fast reader cannot parse exactly (ragged rows,
    odd quoting) goes through pandas' reader, as in :func:`load_table`.

    Parameters
    ----------
    source : path
        A local file path.
    limits : LoadLimits, optional
        Byte, row and column limits.
    encoding : str, optional
        Text encoding, as for :func:`load_table`.
    columns : sequence of str, optional
        Read only these columns (the others are parsed, never converted or
        typed); names the file lacks are left out. Default: every column.
    decimal : {".", ","}, optional
        Decimal mark, as for :func:`load_table`.

    Returns
    -------
    pyarrow.Table or None
        None when the file is Parquet or Excel (then use :func:`load_table`).

    Raises
    ------
    DataLoadError
        With a plain-language message, for every unreadable input.
    """
    limits = LoadLimits() if limits is None else limits
    raw, name = read_source(source, None, limits)
    if is_blank(raw):
        raise DataLoadError(f"{name} is empty: it has no header and no rows")
    start = raw[:16]
    for magic, what in _MAGIC:
        if start.startswith(magic):
            raise DataLoadError(
                f"{name} is {what}, not a table. Compressed files and archives are refused "
                "for safety; unpack it and load the CSV, Parquet or .xlsx file inside."
            )
    if raw[:4] in (b"PAR1", b"PK\x03\x04", b"PK\x05\x06"):
        return None
    from riskcore.io._csv import parse_csv

    try:
        return parse_csv(raw, name, limits, encoding, columns=columns, decimal=decimal).typed.table
    except DataLoadError:
        raise
    except Exception as exc:  # the net of _guarded, without importing pandas for it
        if not isinstance(exc, _parse_errors()):
            raise
        detail = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
        raise DataLoadError(
            f"{name} could not be read as a table ({type(exc).__name__}"
            + (f": {detail})" if detail else ")")
        ) from None


def _parse_errors() -> tuple[type[BaseException], ...]:
    """Return the parser errors turned into a DataLoadError (pandas' once pandas is loaded)."""
    import csv
    import sys
    import xml.etree.ElementTree as ET
    import zipfile
    import zlib

    import pyarrow as pa

    errors: tuple[type[BaseException], ...] = (
        pa.ArrowInvalid,
        csv.Error,
        UnicodeError,
        zipfile.BadZipFile,
        zlib.error,
        ET.ParseError,
        EOFError,
    )
    pd = sys.modules.get("pandas")
    if pd is not None:
        errors += (
            pd.errors.ParserError,
            pd.errors.ParserWarning,
            pd.errors.EmptyDataError,
        )
    return errors


def _guarded(
    raw: Raw, name: str, limits: LoadLimits, encoding: str | None, decimal: str | None = None
) -> LoadedTable:
    """Read the table; any parser error or warning a reader did not explain is a DataLoadError.

    The readers explain what they expect (with the line it is on); this is
    the net under them, so that no file can end a session with a traceback.
    """
    import csv
    import xml.etree.ElementTree as ET
    import zipfile
    import zlib

    import pandas as pd
    import pyarrow as pa

    parse_errors = (
        pa.ArrowInvalid,
        pd.errors.ParserError,
        pd.errors.ParserWarning,
        pd.errors.EmptyDataError,
        csv.Error,
        UnicodeError,
        zipfile.BadZipFile,
        zlib.error,
        ET.ParseError,
        EOFError,
    )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)
            return _load_format(raw, name, limits, encoding, decimal)
    except DataLoadError:
        raise
    except parse_errors as exc:
        detail = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
        raise DataLoadError(
            f"{name} could not be read as a table ({type(exc).__name__}"
            + (f": {detail})" if detail else ")")
        ) from None


def _load_format(
    raw: Raw, name: str, limits: LoadLimits, encoding: str | None, decimal: str | None = None
) -> LoadedTable:
    """Read the bytes with the reader of their format (magic bytes, else delimited text)."""
    start = raw[:4]
    if start == b"PAR1":
        from riskcore.io._parquet import load_parquet

        return load_parquet(raw, name, limits)
    if start in (b"PK\x03\x04", b"PK\x05\x06"):
        from riskcore.io._excel import load_xlsx

        return load_xlsx(raw, name, limits)
    from riskcore.io._csv import load_csv

    return load_csv(raw, name, limits, encoding, decimal)
