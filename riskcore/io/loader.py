"""Read a table from a path or from bytes, safely, with plain-language errors.

Formats: CSV / TSV / delimited text (delimiter and encoding detected: UTF-8
with or without BOM, UTF-16 with BOM, latin-1 / cp1252), Parquet, Excel
``.xlsx``. Archives and compressed files are refused (a small gzip can
expand to gigabytes); limits on bytes, rows and columns are checked before
and while parsing. Every failure raises :class:`~riskcore.errors.DataLoadError`
with a sentence a privacy officer can act on.

Identifier-like values keep their text: a column whose values have leading
zeros (``02139``), or whose name says ZIP / postcode / SSN / phone / ID, is
kept as text, so no leading zero is lost. Other columns whose every value is
a number become numeric. Nothing is silently dropped: the result reports how
many values are missing in each column, which markers were read as missing,
and any repair (renamed duplicate headers).
"""

from __future__ import annotations

import csv
import io
import os
import re
import warnings
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from riskcore.errors import DataLoadError

__all__ = ["MISSING_MARKERS", "LoadLimits", "LoadedTable", "load_table"]

#: Cell texts read as missing values (besides the empty cell).
MISSING_MARKERS: tuple[str, ...] = ("", "?", "NA", "N/A", "n/a", "NULL", "null", "NaN", "nan")

_KEEP_TEXT_NAME = re.compile(
    r"(zip|post ?code|postal|plz|ssn|social|phone|tel|fax|mobile|\bid\b|_id$|^id|code|mrn"
    r"|account|card|npi|record|number|no\.?$)",
    re.IGNORECASE,
)
_LEADING_ZERO = re.compile(r"^[+-]?0\d")
_EXTRA = "\x00riskcore-extra-field"

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


@dataclass(frozen=True)
class LoadLimits:
    """Limits checked while loading.

    Attributes
    ----------
    max_bytes : int
        Largest accepted file (default 2 GB).
    max_rows : int
        Most data rows (default 20,000,000).
    max_columns : int
        Most columns (default 1,000).
    max_unzipped_bytes : int
        Largest total uncompressed size of an ``.xlsx`` (a zip inside).
    """

    max_bytes: int = 2_000_000_000
    max_rows: int = 20_000_000
    max_columns: int = 1_000
    max_unzipped_bytes: int = 1_000_000_000

    def __post_init__(self) -> None:
        for name in ("max_bytes", "max_rows", "max_columns", "max_unzipped_bytes"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"{name} must be an integer, got {v!r}")
            if v <= 0:
                raise ValueError(f"{name} must be positive, got {v!r}")


@dataclass(frozen=True, eq=False)
class LoadedTable:
    """A loaded table and what the loader did to read it.

    Attributes
    ----------
    data : pandas.DataFrame
        The table, with a fresh RangeIndex.
    name : str
        File name (or "data").
    file_format : {"csv", "parquet", "xlsx"}
    encoding : str or None
        Text encoding used (CSV only).
    delimiter : str or None
        Field delimiter used (CSV only).
    missing : dict of str to int
        Missing values per column.
    text_columns : tuple of str
        Columns kept as text to preserve identifiers (leading zeros).
    notes : tuple of str
        Plain-language notes on repairs and choices.
    """

    data: pd.DataFrame
    name: str
    file_format: str
    encoding: str | None
    delimiter: str | None
    missing: dict[str, int]
    text_columns: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def n_rows(self) -> int:
        """Return the number of rows."""
        return len(self.data)

    @property
    def n_columns(self) -> int:
        """Return the number of columns."""
        return self.data.shape[1]

    def to_dict(self) -> dict[str, object]:
        """Return a JSON-ready summary (without the data)."""
        return {
            "name": self.name,
            "file_format": self.file_format,
            "encoding": self.encoding,
            "delimiter": self.delimiter,
            "n_rows": self.n_rows,
            "n_columns": self.n_columns,
            "missing": dict(self.missing),
            "text_columns": list(self.text_columns),
            "notes": list(self.notes),
        }


def load_table(
    source: str | os.PathLike[str] | bytes | bytearray | memoryview,
    *,
    name: str | None = None,
    limits: LoadLimits | None = None,
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

    Returns
    -------
    LoadedTable

    Raises
    ------
    DataLoadError
        With a plain-language message, for every unreadable input.
    """
    limits = limits or LoadLimits()
    if isinstance(source, (bytes, bytearray, memoryview)):
        raw = bytes(source)
        name = name or "data"
        if len(raw) > limits.max_bytes:
            raise DataLoadError(
                f"{name} is {len(raw) / 1e6:,.0f} MB, above the {limits.max_bytes / 1e6:,.0f} MB "
                "limit. Load a sample, or convert it to Parquet, which is smaller."
            )
    elif isinstance(source, (str, os.PathLike)):
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
            raise DataLoadError(
                f"{name} is {size / 1e6:,.0f} MB, above the {limits.max_bytes / 1e6:,.0f} MB "
                "limit. Load a sample, or convert it to Parquet, which is smaller."
            )
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise DataLoadError(f"the file {str(path)!r} cannot be read ({exc.strerror})") from None
    else:
        raise TypeError(f"source must be a path or bytes, got {type(source).__name__}")

    if not raw.strip():
        raise DataLoadError(f"{name} is empty: it has no header and no rows")
    for magic, what in _MAGIC:
        if raw.startswith(magic):
            raise DataLoadError(
                f"{name} is {what}, not a table. Compressed files and archives are refused "
                "for safety; unpack it and load the CSV, Parquet or .xlsx file inside."
            )
    if raw.startswith(b"PAR1"):
        return _load_parquet(raw, name, limits)
    if raw.startswith(b"PK\x03\x04") or raw.startswith(b"PK\x05\x06"):
        return _load_xlsx(raw, name, limits)
    return _load_csv(raw, name, limits)


# ------------------------------------------------------------------ CSV


def _decode(raw: bytes, name: str) -> tuple[str, str]:
    if raw.startswith(b"\xef\xbb\xbf"):
        try:
            return raw[3:].decode("utf-8"), "utf-8-sig"
        except UnicodeDecodeError as exc:
            raise DataLoadError(
                f"{name} starts with a UTF-8 marker but byte {exc.start} is not UTF-8; "
                "save it again as UTF-8"
            ) from None
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16"), "utf-16"
        except UnicodeDecodeError:
            raise DataLoadError(f"{name} starts with a UTF-16 marker but is not UTF-16") from None
    if b"\x00" in raw[:65536]:
        raise DataLoadError(
            f"{name} contains binary data (NUL bytes): it is not a text table. "
            "Load a CSV, Parquet or .xlsx file."
        )
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        from charset_normalizer import from_bytes

        best = from_bytes(raw[:1_000_000]).best()
        enc = best.encoding if best is not None else None
    except Exception:  # pragma: no cover - detection is best effort
        enc = None
    for candidate in [e for e in (enc, "cp1252", "latin-1") if e]:
        try:
            return raw.decode(candidate), candidate
        except (UnicodeDecodeError, LookupError):
            continue
    raise DataLoadError(f"{name} is not UTF-8 and its text encoding could not be recognised")


def _sniff_delimiter(text: str) -> str:
    head = text[:65536]
    lines = [ln for ln in head.splitlines() if ln.strip()][:50]
    if not lines:
        return ","
    try:
        return csv.Sniffer().sniff("\n".join(lines), delimiters=",;\t|").delimiter
    except csv.Error:
        counts = {d: lines[0].count(d) for d in ",;\t|"}
        best = max(counts, key=lambda d: counts[d])
        return best if counts[best] else ","


def _dedupe_header(cols: list[str]) -> tuple[list[str], list[str]]:
    out: list[str] = []
    notes: list[str] = []
    seen: dict[str, int] = {}
    for i, c in enumerate(cols):
        c = str(c).strip()
        if c == "" or c.startswith("Unnamed:"):
            c = f"column {i + 1}"
            notes.append(f"column {i + 1} has no name in the header; it is called {c!r}")
        if c in seen:
            seen[c] += 1
            new = f"{c} ({seen[c]})"
            while new in seen:
                seen[c] += 1
                new = f"{c} ({seen[c]})"
            notes.append(f"the header names {c!r} more than once; copy {seen[c]} is called {new!r}")
            seen[new] = 1
            out.append(new)
        else:
            seen[c] = 1
            out.append(c)
    return out, notes


def _load_csv(raw: bytes, name: str, limits: LoadLimits) -> LoadedTable:
    text, encoding = _decode(raw, name)
    delimiter = _sniff_delimiter(text)
    try:
        header = next(
            csv.reader(io.StringIO(text[: 1 << 20].split("\n", 1)[0]), delimiter=delimiter)
        )
    except (StopIteration, csv.Error):
        raise DataLoadError(f"{name} has no readable header row") from None
    if len(header) > limits.max_columns:
        raise DataLoadError(
            f"{name} has {len(header):,} columns, above the limit of {limits.max_columns:,}"
        )
    columns, notes = _dedupe_header(header)

    def read(names: list[str]) -> pd.DataFrame:
        with warnings.catch_warnings():
            # pandas warns (and drops data) when a row has more fields than the header
            warnings.simplefilter("error", pd.errors.ParserWarning)
            return pd.read_csv(
                io.StringIO(text),
                sep=delimiter,
                header=0,
                names=names,
                index_col=False,
                dtype=str,
                keep_default_na=False,
                na_values=list(MISSING_MARKERS),
                compression=None,
                nrows=limits.max_rows + 1,
                skipinitialspace=True,
                engine="c",
                on_bad_lines="error",
            )

    try:
        try:
            df = read(columns)
        except pd.errors.ParserWarning:
            # locate the first row with an extra field for the message
            extra = read([*columns, _EXTRA])[_EXTRA]
            row = int(np.flatnonzero(extra.notna().to_numpy())[0])
            raise DataLoadError(
                f"{name}: data row {row + 1} (line {row + 2}) has more fields than the header, "
                f"which has {len(columns)}. A value may contain an unquoted delimiter; quote "
                "it or fix that line."
            ) from None
    except pd.errors.ParserError as exc:
        raise DataLoadError(_explain_parser_error(str(exc), name, len(columns))) from None
    except pd.errors.EmptyDataError:
        raise DataLoadError(f"{name} has no columns") from None
    except (ValueError, MemoryError) as exc:
        if isinstance(exc, DataLoadError):
            raise
        raise DataLoadError(f"{name} could not be read as a table ({exc})") from None
    if len(df) > limits.max_rows:
        raise DataLoadError(
            f"{name} has more than {limits.max_rows:,} rows, the limit. Load a sample."
        )
    if len(df) == 0:
        raise DataLoadError(f"{name} has a header but no data rows")
    if df.shape[1] == 1:
        notes.append(
            "only one column was found: if the file uses another delimiter than "
            f"{delimiter!r}, check it; an assessment needs at least one quasi-identifier"
        )
    df, text_cols = _convert_types(df)
    if df.isna().to_numpy().any():
        notes.append(
            "cells that were empty or one of "
            + ", ".join(repr(m) for m in MISSING_MARKERS if m)
            + " were read as missing"
        )
    return _finish(df, name, "csv", encoding, delimiter, text_cols, notes)


def _explain_parser_error(msg: str, name: str, n_header: int) -> str:
    m = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", msg)
    if m:
        _, line, saw = (int(x) for x in m.groups())
        return (
            f"{name}: line {line} has {saw} fields, the header has {n_header}. "
            "A value may contain an unquoted delimiter; quote it or fix that line."
        )
    if "EOF inside string" in msg or "EOF" in msg:
        m2 = re.search(r"starting at row (\d+)", msg)
        where = f" starting at row {m2.group(1)}" if m2 else ""
        return f"{name}: a quoted value is never closed{where}; a quote character is missing"
    return f"{name} could not be parsed as a delimited table ({msg.splitlines()[0]})"


def _convert_types(df: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """Make numeric columns numeric unless they hold identifiers with leading zeros."""
    out = {}
    text_cols: list[str] = []
    for col in df.columns:
        s = df[col]
        nonnull = s.dropna()
        if nonnull.empty:
            out[col] = s.astype("float64")
            continue
        num = pd.to_numeric(nonnull, errors="coerce")
        if num.isna().any():
            out[col] = s
            continue
        has_leading_zero = bool(nonnull.str.match(_LEADING_ZERO).any())
        if has_leading_zero or _KEEP_TEXT_NAME.search(str(col)):
            out[col] = s
            text_cols.append(col)
            continue
        full = pd.to_numeric(s, errors="coerce")
        if (
            pd.api.types.is_float_dtype(full.dtype)
            and np.all(np.mod(full.dropna().to_numpy(), 1) == 0)
            and not full.isna().any()
        ):
            full = full.astype("int64")
        out[col] = full
    return pd.DataFrame(out, index=df.index), text_cols


def _finish(
    df: pd.DataFrame,
    name: str,
    fmt: str,
    encoding: str | None,
    delimiter: str | None,
    text_cols: list[str],
    notes: list[str],
) -> LoadedTable:
    df = df.reset_index(drop=True)
    missing = {str(c): int(v) for c, v in df.isna().sum().items()}
    return LoadedTable(df, name, fmt, encoding, delimiter, missing, tuple(text_cols), tuple(notes))


# ------------------------------------------------------------------ Parquet / Excel


def _load_parquet(raw: bytes, name: str, limits: LoadLimits) -> LoadedTable:
    try:
        import pyarrow.parquet as pq

        pf = pq.ParquetFile(io.BytesIO(raw))
        n_rows = pf.metadata.num_rows
        n_cols = pf.metadata.num_columns
    except Exception as exc:
        raise DataLoadError(f"{name} looks like Parquet but cannot be read ({exc})") from None
    if n_cols > limits.max_columns:
        raise DataLoadError(
            f"{name} has {n_cols:,} columns, above the limit of {limits.max_columns:,}"
        )
    if n_rows > limits.max_rows:
        raise DataLoadError(f"{name} has {n_rows:,} rows, above the limit of {limits.max_rows:,}")
    try:
        df = pf.read().to_pandas()
    except Exception as exc:
        raise DataLoadError(f"{name}: the Parquet data cannot be read ({exc})") from None
    if df.shape[1] == 0:
        raise DataLoadError(f"{name} has no columns")
    if len(df) == 0:
        raise DataLoadError(f"{name} has no data rows")
    cols, notes = _dedupe_header([str(c) for c in df.columns])
    df.columns = cols
    return _finish(df, name, "parquet", None, None, [], notes)


def _load_xlsx(raw: bytes, name: str, limits: LoadLimits) -> LoadedTable:
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as zf:
            infos = zf.infolist()
            members = {i.filename for i in infos}
            total = sum(i.file_size for i in infos)
    except zipfile.BadZipFile:
        raise DataLoadError(f"{name} starts like a zip archive but is damaged") from None
    if "[Content_Types].xml" not in members or not any(m.startswith("xl/") for m in members):
        raise DataLoadError(
            f"{name} is a zip archive, not an Excel workbook. Archives are refused for "
            "safety; unpack it and load the CSV, Parquet or .xlsx file inside."
        )
    if total > limits.max_unzipped_bytes:
        raise DataLoadError(
            f"{name} unpacks to {total / 1e6:,.0f} MB, above the "
            f"{limits.max_unzipped_bytes / 1e6:,.0f} MB limit (it may be a zip bomb)"
        )
    try:
        df = pd.read_excel(
            io.BytesIO(raw),
            sheet_name=0,
            dtype=str,
            engine="openpyxl",
            keep_default_na=False,
            na_values=list(MISSING_MARKERS),
            nrows=limits.max_rows + 1,
        )
    except Exception as exc:
        raise DataLoadError(f"{name}: the workbook cannot be read ({exc})") from None
    if df.shape[1] == 0:
        raise DataLoadError(f"{name}: the first sheet has no columns")
    if df.shape[1] > limits.max_columns:
        raise DataLoadError(
            f"{name} has {df.shape[1]:,} columns, above the limit of {limits.max_columns:,}"
        )
    if len(df) > limits.max_rows:
        raise DataLoadError(f"{name} has more than {limits.max_rows:,} rows, the limit")
    if len(df) == 0:
        raise DataLoadError(f"{name}: the first sheet has a header but no data rows")
    cols, notes = _dedupe_header([str(c) for c in df.columns])
    df.columns = cols
    df, text_cols = _convert_types(df)
    notes.append("only the first sheet was read")
    return _finish(df, name, "xlsx", None, None, text_cols, notes)
