"""Excel ``.xlsx``: the first sheet, streamed by openpyxl row by row, typed like a CSV.

A workbook is a zip archive of XML, and a small one can hold a huge sheet:
a 133 KB file whose sheet unpacks to 90 MB of empty rows took the previous
reader (pandas' ``read_excel``) 73 s and 2.5 GB. So the work is bounded,
not only the declared size:

- before parsing, the archive's total unpacked size (``max_unzipped_bytes``)
  and each large member's compression ratio (at most
  :data:`MAX_RATIO`; sheets written by Excel, LibreOffice or openpyxl
  compress about 5-15 to 1) are checked;
- before parsing, every sheet's row and cell tags are counted as it is
  inflated (hundreds of MB/s, against a few for parsing): more rows than
  an Excel sheet holds (:data:`EXCEL_MAX_ROWS`), a row of more cells than
  an Excel row holds (:data:`EXCEL_MAX_COLUMNS`) or more than
  ``max_cells`` cells are refused at once;
- while parsing, the sheet is streamed (openpyxl's read-only sheet parser,
  fed by a stream that counts what it hands over) and the reader stops at
  ``max_rows`` data rows, at a value beyond ``max_columns``, at
  :data:`MAX_TAGS_PER_ROW` XML tags without a complete row (nothing large
  is built in memory), and after ``max_seconds`` (the clock is also read
  while the zip is inflated, so shared strings and styles are bounded
  too). Nothing after the sheet's data (merged cells, hyperlinks) is parsed.

Cells become text as pandas' ``read_excel(dtype=str)`` made them: a whole
number without ".0", other numbers as Python writes them, a date as
"2020-01-02 00:00:00", a boolean as "True", an error cell (``#N/A``) and
the markers of :data:`~riskcore.io.table.MISSING_MARKERS` missing. The
first row with a value is the header. Two choices differ from pandas,
to match the CSV reader: a repeated header name becomes "age (2)" (pandas:
"age.1"), and an empty row between data rows is skipped and counted in a
note (pandas read it as a record with every value missing). Text is read
as Office Open XML escapes it: ``_x001B_`` is the control character
U+001B, ``_x005F_`` an underscore (ECMA-376 Part 1, 22.9.2.19
``ST_Xstring``; how Excel writes a character XML cannot hold), which
openpyxl leaves as written.
"""

from __future__ import annotations

import io
import re
import time
import zipfile
from typing import Any

from riskcore.errors import DataLoadError
from riskcore.io._source import Raw
from riskcore.io._text import dedupe_header
from riskcore.io._typing import type_columns
from riskcore.io.table import MISSING_MARKERS, LoadedTable, LoadLimits

__all__ = ["EXCEL_MAX_COLUMNS", "EXCEL_MAX_ROWS", "MAX_RATIO", "MAX_TAGS_PER_ROW", "load_xlsx"]

#: Rows and columns an Excel sheet can hold (Excel 2007 and later).
EXCEL_MAX_ROWS = 1_048_576
EXCEL_MAX_COLUMNS = 16_384
#: Highest unpacked / packed size of a zip member above :data:`_RATIO_FROM` bytes.
MAX_RATIO = 100
_RATIO_FROM = 10_000_000
#: XML tags the parser may take in without completing a row: a full row of
#: 16,384 cells with inline strings needs about 100,000.
MAX_TAGS_PER_ROW = 200_000
#: Rows converted to Arrow at a time (bounds the Python objects held).
_BATCH = 65_536
_MISSING = frozenset(MISSING_MARKERS)
_ROOT = re.compile(rb"<([A-Za-z_][\w.-]*:)?worksheet[\s>]")
_SHEET_DATA_END = re.compile(rb"</(?:[A-Za-z_][\w.-]*:)?sheetData\s*>")
_XSTRING_ESCAPE = re.compile(r"_x([0-9A-Fa-f]{4})_")


class _LimitError(Exception):
    """A cap was reached; the message says which."""


def load_xlsx(raw: Raw, name: str, limits: LoadLimits) -> LoadedTable:
    """Read the first sheet of an Excel workbook.

    Parameters
    ----------
    raw : bytes or mmap.mmap
        The file.
    name : str
        File name for messages.
    limits : LoadLimits
        Unpacked-size, row, column, cell and time limits.

    Returns
    -------
    LoadedTable

    Raises
    ------
    DataLoadError
        For a damaged or hostile workbook, or one beyond a limit.
    """
    data = raw[:]  # the zip reader needs a file object: one copy of a mapped file
    _check_archive(data, name, limits)
    clock = _Clock(time.monotonic() + limits.max_seconds, name, limits.max_seconds)
    try:
        table, notes = _read_first_sheet(data, clock, name, limits)
    except _LimitError as stop:
        raise DataLoadError(str(stop)) from None
    except DataLoadError:
        raise
    except Exception as exc:  # openpyxl raises many types on damaged workbooks
        raise DataLoadError(f"{name}: the workbook cannot be read ({exc})") from None
    typed = type_columns(table)
    notes.append("only the first sheet was read")
    return LoadedTable.from_frame(
        typed.to_pandas(),
        name=name,
        file_format="xlsx",
        text_columns=typed.text_columns,
        untyped=typed.untyped,
        notes=[*notes, *typed.notes],
        n_bytes=len(raw),
    )


class _Clock:
    """The reading's deadline."""

    def __init__(self, deadline: float, name: str, seconds: float) -> None:
        self.deadline = deadline
        self.name = name
        self.seconds = seconds

    def check(self) -> None:
        if time.monotonic() > self.deadline:
            raise _LimitError(
                f"{self.name}: reading the workbook took longer than {self.seconds:g} s, "
                "the limit. Save the sheet as CSV or Parquet, which load much faster."
            )


class _ClockedFile(io.BytesIO):
    """The workbook's bytes; every read by the zip reader checks the clock."""

    def __init__(self, data: bytes, clock: _Clock) -> None:
        super().__init__(data)
        self.clock = clock

    def read(self, size: int | None = -1) -> bytes:
        self.clock.check()
        return super().read(size)


class _SheetStream(io.RawIOBase):
    """The sheet's XML as the parser reads it: counted, and ended after the sheet's data."""

    def __init__(self, source: Any, clock: _Clock, name: str) -> None:
        self.source = source
        self.clock = clock
        self.name = name
        self.tags = 0  # tags handed over since the last complete row
        self.ended = False  # the end of sheetData has been handed over
        self._tail = b""

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        if self.ended:
            return b""
        self.clock.check()
        data: bytes = self.source.read(size)
        window = self._tail + data
        m = _SHEET_DATA_END.search(window)
        if m is not None:  # nothing after the data is needed: stop there
            data = data[: max(0, m.end() - len(self._tail))]
            self.ended = True
        self._tail = window[-64:]
        self.tags += data.count(b"<")
        if self.tags > MAX_TAGS_PER_ROW:
            raise _LimitError(
                f"{self.name}: the sheet has more than {MAX_TAGS_PER_ROW:,} XML elements in one "
                "row or block; it is damaged or built to exhaust the reader"
            )
        return data

    def close(self) -> None:
        self.source.close()
        super().close()


def _read_first_sheet(
    data: bytes, clock: _Clock, name: str, limits: LoadLimits
) -> tuple[Any, list[str]]:
    """Stream the first sheet into an Arrow table of text; return it and notes."""
    import xml.etree.ElementTree as ET

    import openpyxl
    from openpyxl.worksheet._read_only import ReadOnlyWorksheet
    from openpyxl.worksheet._reader import WorkSheetParser

    _scan_sheets(data, clock, name, limits)
    wb = openpyxl.load_workbook(
        _ClockedFile(data, clock), read_only=True, data_only=True, keep_links=False
    )
    try:
        if not wb.worksheets:
            raise DataLoadError(f"{name}: the workbook has no sheet")
        ws = wb.worksheets[0]
        if not isinstance(ws, ReadOnlyWorksheet):
            raise DataLoadError(f"{name}: the first sheet is a chart, not a table")
        # openpyxl's read-only sheet parser (what ws.iter_rows uses) on a counted stream;
        # iter_rows itself would pad every row to the widest and fill missing rows
        stream = _SheetStream(wb._archive.open(ws._worksheet_path), clock, name)
        parser = WorkSheetParser(
            stream,
            ws._shared_strings,
            data_only=True,
            epoch=wb.epoch,
            date_formats=wb._date_formats,
            timedelta_formats=wb._timedelta_formats,
        )
        builder = _Builder(name, limits, clock)
        try:
            for index, cells in parser.parse():
                stream.tags = 0
                builder.add(index, cells)
        except ET.ParseError:
            if not stream.ended:  # after the sheet's data the XML is cut short on purpose
                raise
        finally:
            stream.close()
    finally:
        wb.close()
    return builder.table(), builder.notes()


def _scan_sheets(data: bytes, clock: _Clock, name: str, limits: LoadLimits) -> None:
    """Count every sheet's rows and cells before any XML is parsed; refuse one beyond the caps.

    openpyxl parses a sheet that declares no size in full while it opens
    the workbook, so this runs first, on every sheet. Inflating and
    counting runs at hundreds of MB/s, parsing at a few: a sheet with too
    many rows or cells, or a row wider than a sheet, is refused in seconds.
    """
    with zipfile.ZipFile(_ClockedFile(data, clock)) as zf:
        for info in zf.infolist():
            if info.filename.startswith("xl/worksheets/") and info.filename.endswith(".xml"):
                with zf.open(info) as src:
                    _scan_sheet(src, clock, name, limits)


def _scan_sheet(src: Any, clock: _Clock, name: str, limits: LoadLimits) -> None:
    """Count one sheet's row and cell tags (see :func:`_scan_sheets`)."""
    rows = cells = row_cells = 0
    prefix: bytes | None = None
    carry = b""
    while True:
        chunk = src.read(1 << 20)
        clock.check()
        data = carry + chunk
        if prefix is None:
            m = _ROOT.search(data)
            prefix = (m.group(1) or b"") if m else b""
            row_tag = b"<" + prefix + b"row"
            cell_tags = [b"<" + prefix + b"c" + end for end in (b" ", b">", b"/")]
        # count only whole tags: keep the last one (it may be cut) for the next round
        cut = data.rfind(b"<", max(0, len(data) - 4096)) if chunk else len(data)
        if cut < 0:
            cut = len(data)
        body, carry = data[:cut], data[cut:]
        pos = 0
        while True:
            i = body.find(row_tag, pos)
            end = i if i >= 0 else len(body)
            n = sum(body.count(t, pos, end) for t in cell_tags)
            row_cells += n
            cells += n
            if row_cells > EXCEL_MAX_COLUMNS:
                raise _LimitError(
                    f"{name}: a row of the sheet has more than {EXCEL_MAX_COLUMNS:,} cells, more "
                    "than an Excel row can hold; it is damaged or built to exhaust the reader"
                )
            if cells > limits.max_cells:
                raise _LimitError(
                    f"{name} has more than {limits.max_cells:,} cells, the limit. "
                    "Save the sheet as CSV or Parquet, or load a sample."
                )
            if i < 0:
                break
            pos = i + len(row_tag)
            if body[pos : pos + 1] in (b" ", b">", b"/", b"\t", b"\n", b"\r"):  # not rowBreaks
                rows += 1
                row_cells = 0
                if rows > EXCEL_MAX_ROWS:
                    raise _LimitError(
                        f"{name}: the sheet has more rows than an Excel sheet can hold "
                        f"({EXCEL_MAX_ROWS:,}); it is damaged or built to exhaust the reader"
                    )
        if not chunk:
            return


class _Builder:
    """Collect the rows' text column by column, in Arrow batches."""

    def __init__(self, name: str, limits: LoadLimits, clock: _Clock) -> None:
        self.name = name
        self.limits = limits
        self.clock = clock
        self.header: dict[int, str] | None = None
        self.batch: dict[int, list[str | None]] = {}
        self.chunks: dict[int, list[Any]] = {}
        self.first_row: dict[int, int] = {}  # rows already flushed when a column appeared
        self.n_rows = 0  # data rows kept
        self.n_batch = 0  # data rows in the batch
        self.n_elements = 0  # row elements read
        self.n_cells = 0
        self.last_index = 0
        self.pending_empty = 0  # empty rows not yet known to lie between data rows
        self.skipped = 0
        self.header_notes: list[str] = []

    def add(self, index: int, cells: list[dict[str, Any]]) -> None:
        """Add one row element (its number in the sheet and its cells)."""
        self.n_elements += 1
        self.n_cells += len(cells)
        if self.n_elements > EXCEL_MAX_ROWS:
            raise _LimitError(
                f"{self.name}: the sheet has more rows than an Excel sheet can hold "
                f"({EXCEL_MAX_ROWS:,}); it is damaged or built to exhaust the reader"
            )
        if self.n_cells > self.limits.max_cells:
            raise _LimitError(
                f"{self.name} has more than {self.limits.max_cells:,} cells, the limit. "
                "Save the sheet as CSV or Parquet, or load a sample."
            )
        if self.n_elements % 1024 == 0:
            self.clock.check()
        gap = max(0, index - self.last_index - 1)
        self.last_index = max(self.last_index, index)
        values = {}
        for cell in cells:
            value = cell["value"]
            if value is None:
                continue
            column = int(cell["column"])
            if column > self.limits.max_columns:
                raise _LimitError(
                    f"{self.name} has a value in column {column:,}, above the limit of "
                    f"{self.limits.max_columns:,} columns"
                )
            values[column] = _text(value, cell["data_type"])
        if not values:
            if self.header is not None:
                self.pending_empty += 1 + gap
            return
        if self.header is None:
            self.header = {c: (v if v is not None else "") for c, v in values.items()}
            return
        self.skipped += self.pending_empty + gap
        self.pending_empty = 0
        self._append(values)

    def _append(self, values: dict[int, str | None]) -> None:
        self.n_rows += 1
        if self.n_rows > self.limits.max_rows:
            raise _LimitError(f"{self.name} has more than {self.limits.max_rows:,} rows, the limit")
        for column in values.keys() - self.batch.keys():
            self.batch[column] = [None] * self.n_batch
            self.first_row[column] = self.n_rows - 1 - self.n_batch
        for column, items in self.batch.items():
            v = values.get(column)
            items.append(None if v in _MISSING else v)
        self.n_batch += 1
        if self.n_batch == _BATCH:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa

        for column, items in self.batch.items():
            self.chunks.setdefault(column, []).append(pa.array(items, type=pa.string()))
            items.clear()
        self.n_batch = 0

    def table(self) -> Any:
        """Return the data rows as an Arrow table of text, named by the header."""
        import pyarrow as pa

        if self.header is None:
            raise DataLoadError(f"{self.name}: the first sheet is empty")
        if self.n_rows == 0:
            raise DataLoadError(f"{self.name}: the first sheet has a header but no data rows")
        self._flush()
        width = max([*self.header, *self.chunks])
        if width > self.limits.max_columns:
            raise DataLoadError(
                f"{self.name} has {width:,} columns, above the limit of {self.limits.max_columns:,}"
            )
        names, self.header_notes = dedupe_header(
            [self.header.get(c, "") for c in range(1, width + 1)]
        )
        arrays = []
        for column in range(1, width + 1):
            parts = self.chunks.get(column)
            if parts is None:
                arrays.append(pa.chunked_array([pa.nulls(self.n_rows, pa.string())]))
                continue
            before = self.first_row[column]
            prefix = [pa.nulls(before, pa.string())] if before else []
            arrays.append(pa.chunked_array(prefix + parts, type=pa.string()))
        return pa.table(arrays, names=names)

    def notes(self) -> list[str]:
        """Return the header repairs and the empty rows skipped."""
        notes = list(self.header_notes)
        if self.skipped:
            notes.append(
                f"{self.skipped:,} empty row(s) between data rows were skipped, not read as records"
            )
        return notes


def _text(value: Any, data_type: str) -> str | None:
    """Return a cell's value as text, as pandas' ``read_excel(dtype=str)`` wrote it."""
    if data_type == "e":  # an error cell: #N/A, #DIV/0!, #VALUE! ...
        return None
    if data_type == "n" and isinstance(value, (int, float)) and not isinstance(value, bool):
        whole = int(value)
        return str(whole) if whole == value else str(float(value))
    text = str(value)
    if "_x" in text and data_type in ("s", "inlineStr", "str"):  # ST_Xstring escapes
        return _XSTRING_ESCAPE.sub(_unescape, text)
    return text


def _unescape(m: re.Match[str]) -> str:
    """Return the character of one ``_xHHHH_`` escape (a surrogate is left as written)."""
    code = int(m.group(1), 16)
    return m.group(0) if 0xD800 <= code <= 0xDFFF else chr(code)


def _check_archive(data: bytes, name: str, limits: LoadLimits) -> None:
    """Refuse a damaged zip, a zip that is not a workbook, and a zip bomb."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
    except zipfile.BadZipFile:
        raise DataLoadError(f"{name} starts like a zip archive but is damaged") from None
    members = {i.filename for i in infos}
    total = sum(i.file_size for i in infos)
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
    for info in infos:
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > _RATIO_FROM and ratio > MAX_RATIO:
            raise DataLoadError(
                f"{name}: {info.filename} unpacks from {info.compress_size / 1e3:,.0f} KB to "
                f"{info.file_size / 1e6:,.0f} MB, {ratio:,.0f} times its size (a spreadsheet "
                f"packs about 10 to 1; at most {MAX_RATIO} to 1 is read): it is a zip bomb or "
                "a sheet built to exhaust the reader"
            )
