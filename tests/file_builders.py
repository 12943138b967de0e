"""Builders of the odd, hostile and careless files the loader tests and the hostile-file table
(``tests/hostile_files.py``) share: every file is made in memory, nothing hostile is kept in
the repository."""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Iterable

#: Western names whose characters must survive every encoding.
NAMES = ["Muñoz", "São", "Åsa", "Zoë", "Ørsted"]

#: Column names that are markup, formulas, control or bidirectional characters.
ODD_NAMES = [
    "<script>alert(1)</script>",
    "![x](http://127.0.0.9/x.png)",
    "<b>bold</b> & <i>x</i>",
    "line\nbreak",
    "tab\there",
    "😀 emoji 👩‍👩‍👧",
    "‮right-to-left",
    '=HYPERLINK("http://x")',
]


def wide(n: int) -> bytes:
    """Return a CSV of one header and one row of ``n`` columns."""
    return (",".join(f"c{i}" for i in range(n)) + "\n" + ",".join("1" * n) + "\n").encode()


def distinct(n: int) -> bytes:
    """Return a CSV of ``n`` rows, each with its own id."""
    return ("id,sex\n" + "".join(f"p{i},{'FM'[i % 2]}\n" for i in range(n))).encode()


def odd_names_csv() -> bytes:
    """Return a CSV whose header is :data:`ODD_NAMES` and one row of values."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(ODD_NAMES)
    w.writerow([f"v{i}" for i in range(len(ODD_NAMES))])
    return buf.getvalue().encode()


# --- .xlsx written by hand, streaming (a workbook of one sheet) ---

_NS = "http://schemas.openxmlformats.org/"
CONTENT_TYPES = (
    f'<Types xmlns="{_NS}package/2006/content-types">'
    f'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
    'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.'
    'openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
)
RELS = (
    f'<Relationships xmlns="{_NS}package/2006/relationships"><Relationship Id="rId1" '
    f'Type="{_NS}officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
WORKBOOK = (
    f'<workbook xmlns="{_NS}spreadsheetml/2006/main" '
    f'xmlns:r="{_NS}officeDocument/2006/relationships">'
    '<sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
WORKBOOK_RELS = (
    f'<Relationships xmlns="{_NS}package/2006/relationships"><Relationship Id="rId1" '
    f'Type="{_NS}officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
    "</Relationships>"
)
SHEET_HEAD = f'<worksheet xmlns="{_NS}spreadsheetml/2006/main">'.encode()
HEADER_ROW = b'<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row>'


def workbook(sheet: Iterable[bytes]) -> bytes:
    """Return an .xlsx whose first sheet's XML is the concatenated chunks (written streaming)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("[Content_Types].xml", CONTENT_TYPES)
        z.writestr("_rels/.rels", RELS)
        z.writestr("xl/workbook.xml", WORKBOOK)
        z.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as f:
            for chunk in sheet:
                f.write(chunk)
    return buf.getvalue()


def sheet(rows: Iterable[bytes], head: bytes = b"") -> Iterable[bytes]:
    """Yield a worksheet's XML in chunks: the head, a header row ``a``, ``rows``, the end."""
    yield SHEET_HEAD + head + b"<sheetData>" + HEADER_ROW
    yield from rows
    yield b"</sheetData></worksheet>"


def repeat(piece: bytes, times: int, per_chunk: int = 100_000) -> Iterable[bytes]:
    """Yield ``piece`` ``times`` times, in chunks of at most ``per_chunk`` copies."""
    for start in range(0, times, per_chunk):
        yield piece * min(per_chunk, times - start)


def billion_laughs() -> bytes:
    """Return an .xlsx whose sheet's one cell is an entity expanding to 10^8 "a"s x 49."""
    lol = (
        b'<!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">'
        + b"".join(
            f'<!ENTITY {b} "{("&" + a + ";") * 10}">'.encode()
            for a, b in zip("abcdefgh", "bcdefghi", strict=True)
        )
        + b"]>"
    )
    body = b'<row r="2"><c r="A2" t="inlineStr"><is><t>&i;</t></is></c></row>'
    return workbook([lol, *sheet([body])])


def nested_parquet() -> bytes:
    """Return a Parquet file whose columns ``a`` (numbers) sit beside a list, a struct and a
    map column: cells no group-by can compare (issue 37)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table(
        {
            "a": [30, 40, 30],
            "tags": [[1, 2], [3], [1, 2]],
            "place": [{"zip": "02139"}, {"zip": "10001"}, {"zip": "02139"}],
            "extra": pa.array(
                [[("k", 1)], [("k", 2)], [("k", 1)]], type=pa.map_(pa.string(), pa.int64())
            ),
        }
    )
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()
