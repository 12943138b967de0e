"""CSV / TSV / delimited text: pyarrow's multi-threaded reader, pandas for odd files.

The fast path hands the UTF-8 bytes to ``pyarrow.csv.read_csv`` with every
column read as text (null for an empty cell or one of
:data:`~riskcore.io.table.MISSING_MARKERS`), then types the columns in
Arrow (:mod:`riskcore.io._typing`). Reading every column as text first is
what keeps leading zeros everywhere in the file: Arrow's own inference
would read ``00501`` as the integer 501 (and ``2020-01-02`` as a date).
In files over 2 MB, the columns with few distinct values in the first
megabyte are read as dictionary-encoded text, so the parser builds the
categories in parallel and typing looks at distinct values only. Spaces
after a delimiter are dropped, as pandas' ``skipinitialspace`` did.

Files the fast path cannot read exactly as the old pandas reader did go
through pandas' C reader instead (the previous loader, same messages):
rows with more or fewer fields than the header (a short row is filled with
missing values, which is then reported), an odd number of quote characters
(a quote never closed, or quotes inside unquoted values), and a space
followed by a quote after a delimiter. Every parser error and warning
becomes a :class:`~riskcore.errors.DataLoadError`. The lines it names are
the physical lines a text editor shows, found by Python's CSV reader (a
quoted value may span lines, so a line and a record number can differ).

The header is read as a CSV record, so a quoted column name may hold the
delimiter or a newline; empty lines before it are skipped.
"""

from __future__ import annotations

import csv
import io
import os
import re
import warnings
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore.errors import DataLoadError
from riskcore.io._source import Raw, count_byte
from riskcore.io._text import (
    HEAD_BYTES,
    dedupe_header,
    is_guess,
    read_header,
    sniff_decimal,
    sniff_delimiter,
    transcode,
    utf8_body,
)
from riskcore.io._typing import CATEGORICAL_SHARE, Typed, type_columns
from riskcore.io.table import MISSING_MARKERS, LoadedTable, LoadLimits

__all__ = ["ParsedCsv", "load_csv", "parse_csv"]

#: Bytes per parsing block: fewer, larger chunks than pyarrow's 1 MB default
#: make the per-column steps after parsing cheaper, at the same parse speed.
_BLOCK = 4 << 20


class _FallbackError(Exception):
    """The fast reader cannot read this file exactly; use pandas."""


class _NotUtf8Error(Exception):
    """The file has bytes that are not UTF-8 beyond its first megabyte."""


@dataclass(frozen=True)
class _Layout:
    """How the text is laid out: delimiter, column names, records up to the header's end."""

    delimiter: str
    columns: list[str]
    #: Records to skip to pass the header: the empty lines before it, and the header.
    skip: int
    #: The only columns to convert (None: all), in the file's order.
    include: list[str] | None = None


@dataclass(frozen=True)
class ParsedCsv:
    """A delimited text file read into a typed Arrow table, and how it was read.

    Attributes
    ----------
    typed : Typed
        The typed ``pyarrow.Table`` and what typing did.
    notes : list of str
        Notes on repairs (renamed headers, short rows, missing markers).
    encoding : str
        The text encoding used.
    guessed : bool
        Whether the encoding was assumed.
    delimiter : str
        The field delimiter.
    decimal : str
        The decimal mark, "." or ",".
    decimal_detected : bool
        Whether the decimal comma was found in the file rather than given.
    """

    typed: Typed
    notes: list[str]
    encoding: str
    guessed: bool
    delimiter: str
    decimal: str = "."
    decimal_detected: bool = False


def parse_csv(
    raw: Raw,
    name: str,
    limits: LoadLimits,
    encoding: str | None = None,
    *,
    columns: Sequence[str] | None = None,
    decimal: str | None = None,
) -> ParsedCsv:
    """Read a delimited text table into a typed Arrow table (pandas only for odd files).

    With ``columns``, only those columns are converted and typed (the parser
    still reads every field of every row, so a ragged row or a byte that is
    not UTF-8 anywhere in the file is found as in a full read); each column
    is typed on its own, so it is the column a full read gives.

    Parameters
    ----------
    raw : bytes or mmap.mmap
        The file.
    name : str
        File name for messages.
    limits : LoadLimits
        Row and column limits.
    encoding : str, optional
        The file's text encoding; default: the rule of :mod:`riskcore.io._text`.
    columns : sequence of str, optional
        The columns wanted (names after repair of the header); names the file
        does not have are left out. Default: every column.
    decimal : {".", ","}, optional
        The decimal mark of the numbers; default: found in the file's start
        (:func:`riskcore.io._text.sniff_decimal`).

    Returns
    -------
    ParsedCsv

    Raises
    ------
    DataLoadError
        For a file that cannot be read as a table, or beyond the limits.
    """
    check_decimal(decimal)
    body, used, head = utf8_body(raw, name, encoding)
    delimiter = sniff_delimiter(head)
    mark = decimal or sniff_decimal(head, delimiter)
    header, blank = read_header(head, delimiter, name)
    if len(header) > limits.max_columns:
        raise DataLoadError(
            f"{name} has {len(header):,} columns, above the limit of {limits.max_columns:,}"
        )
    names, notes = dedupe_header(header)
    wanted = None if columns is None else [c for c in names if c in set(columns)]
    layout = _Layout(delimiter, names, blank + 1, wanted)
    table, used, more = _parse(raw, body, used, layout, name, limits)
    if wanted is not None and table.column_names != wanted:  # read whole (quotes, pandas)
        table = table.select(wanted)
    notes += more
    guessed = encoding is None and is_guess(used)
    if table.num_rows > limits.max_rows:
        raise DataLoadError(
            f"{name} has more than {limits.max_rows:,} rows, the limit. Load a sample."
        )
    if table.num_rows == 0:
        raise DataLoadError(f"{name} has a header but no data rows")
    if table.num_columns == 1:
        notes.append(
            "only one column was found: if the file uses another delimiter than "
            f"{delimiter!r}, check it; an assessment needs at least one quasi-identifier"
        )
    typed = type_columns(table, mark)
    if any(c.null_count for c in table.columns):
        notes.append(
            "cells that were empty or one of "
            + ", ".join(repr(m) for m in MISSING_MARKERS if m)
            + " were read as missing"
        )
    return ParsedCsv(typed, notes, used, guessed, delimiter, mark, decimal is None and mark == ",")


def check_decimal(decimal: object) -> None:
    """Raise a one-sentence error for a decimal mark that is neither "." nor "," (None: find it).

    Parameters
    ----------
    decimal : object
        The decimal mark a caller gave.

    Raises
    ------
    DataLoadError
        For anything but None, "." and ",".
    """
    if decimal not in (None, ".", ","):
        raise DataLoadError(f"the decimal mark must be '.' or ',', got {decimal!r}")


def load_csv(
    raw: Raw, name: str, limits: LoadLimits, encoding: str | None = None, decimal: str | None = None
) -> LoadedTable:
    """Read a delimited text table.

    Parameters
    ----------
    raw : bytes or mmap.mmap
        The file.
    name : str
        File name for messages.
    limits : LoadLimits
        Row and column limits.
    encoding : str, optional
        The file's text encoding; default: the rule of :mod:`riskcore.io._text`.
    decimal : {".", ","}, optional
        The decimal mark; default: found in the file (:func:`parse_csv`).

    Returns
    -------
    LoadedTable
    """
    parsed = parse_csv(raw, name, limits, encoding, decimal=decimal)
    typed = parsed.typed
    return LoadedTable.from_frame(
        typed.to_pandas(),
        name=name,
        file_format="csv",
        encoding=parsed.encoding,
        encoding_guessed=parsed.guessed,
        delimiter=parsed.delimiter,
        text_columns=typed.text_columns,
        untyped=typed.untyped,
        notes=[*parsed.notes, *typed.notes],
        n_bytes=len(raw),
        decimal=parsed.decimal,
        decimal_detected=parsed.decimal_detected,
        decimal_columns=typed.decimal_columns,
    )


def _parse(
    raw: Raw, body: Raw, encoding: str, layout: _Layout, name: str, limits: LoadLimits
) -> tuple[Any, str, list[str]]:
    """Return the text table, the encoding and notes: pyarrow, else transcoded, else pandas."""
    try:
        try:
            return _read_arrow(body, layout), encoding, []
        except _NotUtf8Error:
            body, encoding, _ = transcode(raw, name)
            return _read_arrow(body, layout), encoding, []
    except _FallbackError as why:
        table, notes = _read_pandas(body, layout, name, limits, str(why))
        return table, encoding, notes


def _read_arrow(body: Raw, layout: _Layout) -> Any:
    """Parse with pyarrow, every column as nullable text; raise _FallbackError for odd files."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    quotes = count_byte(body, ord('"')) if body.find(b'"') >= 0 else 0
    if quotes % 2:
        raise _FallbackError("quotes")
    invalid: list[int] = []

    def on_invalid(row: Any) -> str:
        invalid.append(int(row.actual_columns))
        return "skip"

    columns = layout.columns
    # only the wanted columns are converted, unless quotes ask for the checks on the last one
    include = layout.include if not quotes else None
    if include is not None and not _valid_utf8(body):
        raise _NotUtf8Error  # a column left out would have failed its conversion
    text_type = pa.dictionary(pa.int32(), pa.string())
    few = _few_distinct(body, layout, bool(quotes))
    try:
        table = pacsv.read_csv(
            pa.BufferReader(pa.py_buffer(body)),
            read_options=pacsv.ReadOptions(
                column_names=columns,
                skip_rows_after_names=layout.skip,
                use_threads=True,
                block_size=_BLOCK,
            ),
            parse_options=pacsv.ParseOptions(
                delimiter=layout.delimiter,
                newlines_in_values=bool(quotes),
                invalid_row_handler=on_invalid,
            ),
            convert_options=_convert_options(
                {c: text_type if c in few else pa.string() for c in columns}, include
            ),
        )
    except pa.ArrowInvalid as exc:
        if "UTF8" in str(exc) or "UTF-8" in str(exc):
            raise _NotUtf8Error from None
        raise _FallbackError(str(exc)) from None
    if invalid:
        raise _FallbackError("ragged")
    tail = body[max(0, len(body) - 4096) :].rstrip()
    if quotes and not tail.endswith(b'"') and table.num_rows:
        last = table.column(table.num_columns - 1)[-1].as_py()
        if last is not None and ("\n" in last or "\r" in last):
            raise _FallbackError("quote never closed")
    return _strip_initial_space(table)


def _convert_options(column_types: dict[str, Any], include: list[str] | None = None) -> Any:
    """Return pyarrow's conversion options: the given text types, the missing-value markers."""
    import pyarrow.csv as pacsv

    return pacsv.ConvertOptions(
        column_types=column_types,
        null_values=list(MISSING_MARKERS),
        strings_can_be_null=True,
        quoted_strings_can_be_null=True,
        include_columns=include,
    )


def _valid_utf8(body: Raw) -> bool:
    """Return whether the whole body is UTF-8 (decoded in 16 MB pieces, nothing kept)."""
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")()
    step = 16 << 20
    try:
        for start in range(0, len(body), step):
            decoder.decode(body[start : start + step])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def _few_distinct(body: Raw, layout: _Layout, quotes: bool) -> set[str]:
    """Return the columns with few distinct values in the first megabyte (large files only).

    The parser dictionary-encodes these while parsing, in parallel, so typing
    and the Categorical work on the distinct values only. A wrong guess
    costs time, not correctness: typing reads every value either way.
    """
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pacsv

    if len(body) <= 2 * HEAD_BYTES:
        return set()
    columns = layout.columns
    head = body[: body.rfind(b"\n", 0, HEAD_BYTES) + 1]
    try:
        table = pacsv.read_csv(
            io.BytesIO(head),
            read_options=pacsv.ReadOptions(
                column_names=columns, skip_rows_after_names=layout.skip, use_threads=False
            ),
            parse_options=pacsv.ParseOptions(
                delimiter=layout.delimiter, newlines_in_values=quotes, invalid_row_handler=_skip
            ),
            convert_options=_convert_options({c: pa.string() for c in columns}, layout.include),
        )
    except (pa.ArrowInvalid, ValueError):
        return set()
    few = set()
    for c, col in zip(table.column_names, table.columns, strict=True):
        present = len(col) - col.null_count
        if present >= 50 and len(pc.unique(col.drop_null())) <= CATEGORICAL_SHARE * present:
            few.add(c)
    return few


def _skip(row: Any) -> str:
    return "skip"


def _strip_initial_space(table: Any) -> Any:
    """Drop spaces after delimiters (pandas' ``skipinitialspace``); fall back on ' "'."""
    import pyarrow as pa

    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        arrays = list(pool.map(_strip_column, table.columns))
    return pa.table(arrays, names=table.column_names)


def _strip_column(col: Any) -> Any:
    """Return one text column without leading spaces (unified if dictionary-encoded)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_dictionary(col.type):
        col = col.unify_dictionaries()
        if not col.num_chunks or not pc.any(pc.starts_with(col.chunk(0).dictionary, " ")).as_py():
            return col
        col = col.cast(pa.string())
    if not pc.any(pc.starts_with(col, " ")).as_py():
        return col
    if pc.any(pc.starts_with(col, ' "')).as_py():
        raise _FallbackError("space before a quote")
    stripped = pc.utf8_ltrim(col, characters=" ")
    markers = pa.array(list(MISSING_MARKERS))
    return pc.if_else(pc.is_in(stripped, value_set=markers), None, stripped)


def _read_pandas(
    body: Raw, layout: _Layout, name: str, limits: LoadLimits, why: str
) -> tuple[Any, list[str]]:
    """Parse with pandas' C reader (the previous loader); return an Arrow table and notes."""
    import pyarrow as pa

    text = str(body, "utf-8")
    columns = layout.columns
    try:
        with warnings.catch_warnings():
            # pandas warns (and drops data) when a row has more fields than the header
            warnings.simplefilter("error", pd.errors.ParserWarning)
            warnings.simplefilter("error", pd.errors.DtypeWarning)
            df = pd.read_csv(
                io.StringIO(text),
                sep=layout.delimiter,
                header=0,
                names=columns,
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
    except (pd.errors.ParserWarning, pd.errors.ParserError) as exc:
        raise DataLoadError(_parser_message(text, layout, name, str(exc))) from None
    except pd.errors.EmptyDataError:
        raise DataLoadError(f"{name} has no columns") from None
    except (ValueError, MemoryError, Warning) as exc:
        raise DataLoadError(f"{name} could not be read as a table ({exc})") from None
    notes = _short_row_notes(text, layout) if why == "ragged" else []
    arrays = [pa.array(df[c], type=pa.string(), from_pandas=True) for c in df.columns]
    return pa.table(arrays, names=columns), notes


@dataclass
class _Ragged:
    """Rows whose field count differs from the header's, by physical line."""

    #: The first row with more fields: (line, data row, fields), or None.
    long: tuple[int, int, int] | None = None
    #: Lines of the first rows with fewer fields, and how many such rows there are.
    short_lines: list[int] = field(default_factory=list)
    n_short: int = 0


def _scan_rows(text: str, layout: _Layout, *, stop_at_long: bool) -> _Ragged | None:
    """Find rows with more or fewer fields than the header with Python's CSV reader.

    Records are read as pandas reads them (quotes, spaces after a delimiter,
    empty lines skipped); a record's line is the physical line it starts on.
    Return None when the reader cannot read the text (a field beyond its size limit).
    """
    found = _Ragged()
    reader = csv.reader(io.StringIO(text), delimiter=layout.delimiter, skipinitialspace=True)
    n = len(layout.columns)
    header_seen = False
    row = 0
    try:
        line = 1
        for record in reader:
            start, line = line, reader.line_num + 1
            if not record:
                continue
            if not header_seen:
                header_seen = True
                continue
            row += 1
            if len(record) > n and found.long is None:
                found.long = (start, row, len(record))
                if stop_at_long:
                    return found
            elif len(record) < n:
                found.n_short += 1
                if len(found.short_lines) < 5:
                    found.short_lines.append(start)
    except csv.Error:
        return None
    return found


def _parser_message(text: str, layout: _Layout, name: str, msg: str) -> str:
    """Return a parser error or warning as a sentence naming the line it is about."""
    n = len(layout.columns)
    if "EOF" not in msg:
        found = _scan_rows(text, layout, stop_at_long=True)
        if found is not None and found.long is not None:
            line, row, fields = found.long
            return (
                f"{name}: line {line} has {fields} fields, the header has {n}: data row {row} "
                "has more fields than the header. A value may contain an unquoted delimiter; "
                "quote it or fix that line."
            )
    return _explain_parser_error(msg, name, n)


def _short_row_notes(text: str, layout: _Layout) -> list[str]:
    """Return a note naming the lines with fewer fields than the header."""
    found = _scan_rows(text, layout, stop_at_long=False)
    if found is None:
        return [
            "some rows have fewer fields than the header; the fields they lack were read as missing"
        ]
    lines = found.short_lines
    if not found.n_short:
        return []
    shown = ", ".join(str(x) for x in lines) + (", ..." if found.n_short > len(lines) else "")
    if found.n_short == 1:
        return [
            f"1 row (line {shown}) has fewer fields than the header; the fields it lacks "
            "were read as missing"
        ]
    return [
        f"{found.n_short:,} rows (lines {shown}) have fewer fields than the header; the fields "
        "they lack were read as missing"
    ]


def _explain_parser_error(msg: str, name: str, n_header: int) -> str:
    """Return pandas' parser error or warning as a plain-language sentence."""
    m = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", msg)
    if m:
        _, line, saw = (int(x) for x in m.groups())
        return (
            f"{name}: line {line} has {saw} fields, the header has {n_header}. "
            "A value may contain an unquoted delimiter; quote it or fix that line."
        )
    if "EOF" in msg:
        m2 = re.search(r"starting at row (\d+)", msg)
        where = f" starting at row {m2.group(1)}" if m2 else ""
        return f"{name}: a quoted value is never closed{where}; a quote character is missing"
    if "does not match length of data" in msg:
        return (
            f"{name}: a data row has more fields than the header, which has {n_header}. "
            "A value may contain an unquoted delimiter; quote it or fix that line."
        )
    return f"{name} could not be parsed as a delimited table ({msg.splitlines()[0]})"
