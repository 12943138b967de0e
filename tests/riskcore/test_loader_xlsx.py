""".xlsx: the work is bounded (issue 17), and normal workbooks load as pandas read them."""

from __future__ import annotations

import datetime as dt
import io
import time
import tracemalloc

import openpyxl
import pandas as pd
import pyarrow as pa
import pytest

from riskcore.errors import DataLoadError
from riskcore.io import MISSING_MARKERS, LoadLimits, load_table
from riskcore.io._typing import type_columns
from tests.file_builders import billion_laughs, repeat, sheet, workbook


def refused_quickly(
    raw: bytes, match: str, limits: LoadLimits | None = None, *, memory: bool = True
) -> None:
    """Assert the load is refused with ``match``, in little time and (traced) memory.

    The bounds are generous (the figures measured are in the report): the old reader
    took 73 s and 2.5 GB on the first of these files. Memory is traced in a second run,
    since tracing slows the reader several times. Time is the process's CPU time, which a
    shared machine's load does not stretch (wall time under load 17 did, 3x).
    """
    t0 = time.process_time()
    with pytest.raises(DataLoadError, match=match):
        load_table(raw, name="h.xlsx", limits=limits)
    elapsed = time.process_time() - t0
    assert elapsed < 15, f"took {elapsed:.1f} s of CPU"
    if not memory:
        return
    tracemalloc.start()
    try:
        with pytest.raises(DataLoadError, match=match):
            load_table(raw, name="h.xlsx", limits=limits)
        peak = tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()
    assert peak < 300, f"peak {peak:.0f} MB"


def test_a_small_file_with_a_huge_repetitive_sheet_is_refused_before_parsing():
    # 15 million empty rows: about 130 KB packed, 90 MB unpacked
    raw = workbook(sheet(repeat(b"<row/>", 15_000_000)))
    assert len(raw) < 300_000
    refused_quickly(raw, r"unpacks from .* KB to 90 MB, \d+ times its size")


def test_one_giant_row_is_refused_before_it_is_built():
    # 300,000 distinct cells in one row: packs under the ratio limit, but no sheet row can
    # hold more than 16,384 cells and the parser would build all of them in memory first
    cells = (f'<c r="A2"><v>{i}</v></c>'.encode() for i in range(300_000))
    raw = workbook(sheet([b'<row r="2">', *cells, b"</row>"]))
    refused_quickly(raw, r"a row of the sheet has more than 16,384 cells")
    # one cell of 60,000 rich-text runs: the parser would hold 240,000 elements at once
    runs = (f"<r><t>{i}</t></r>".encode() for i in range(60_000))
    cell = [b'<row r="2"><c r="A2" t="inlineStr"><is>', *runs, b"</is></c></row>"]
    refused_quickly(workbook(sheet(cell)), r"more than 200,000 XML elements in one row")


def test_more_row_elements_than_an_excel_sheet_holds_are_refused():
    rows = (
        "".join(f'<row r="{i}"/>' for i in range(start, start + 10_000)).encode()
        for start in range(2, 1_100_000, 10_000)
    )
    raw = workbook(sheet(rows))
    # (tracing memory would take 10 times longer here: the count runs once per row)
    refused_quickly(raw, r"more rows than an Excel sheet can hold \(1,048,576\)", memory=False)


def test_the_cell_and_time_limits_stop_the_reading():
    rows = (f'<row r="{i}"><c r="A{i}"><v>{i}</v></c></row>'.encode() for i in range(2, 50_002))
    raw = workbook(sheet(rows))
    refused_quickly(raw, r"more than 10,000 cells, the limit", LoadLimits(max_cells=10_000))
    refused_quickly(raw, r"took longer than 0.01 s", LoadLimits(max_seconds=0.01), memory=False)
    assert load_table(raw).n_rows == 50_000  # within the limits it loads


def test_a_value_far_right_is_refused_and_far_down_costs_nothing():
    far_right = workbook(sheet([b'<row r="2"><c r="XFD2"><v>1</v></c></row>']))
    refused_quickly(far_right, r"a value in column 16,384, above the limit of 1,000 columns")
    # a declared size of the whole sheet and a last row at the bottom: nothing is padded
    head = b'<dimension ref="A1:XFD1048576"/>'
    far_down = workbook(sheet([b'<row r="1048576"><c r="A1048576"><v>7</v></c></row>'], head=head))
    t0 = time.process_time()
    t = load_table(far_down, name="d.xlsx")
    assert time.process_time() - t0 < 5  # CPU seconds: not stretched by the machine's load
    assert t.data["a"].tolist() == [7]
    assert t.n_rows == 1
    assert any(n.startswith("1,048,574 empty row(s) between data rows") for n in t.notes)



def test_billion_laughs_is_refused():
    refused_quickly(billion_laughs(), r"cannot be read")


def _old_reader(raw: bytes) -> pd.DataFrame:
    """The previous reader: pandas' read_excel as text, typed by the same rules."""
    df = pd.read_excel(
        io.BytesIO(raw),
        sheet_name=0,
        dtype=str,
        engine="openpyxl",
        keep_default_na=False,
        na_values=list(MISSING_MARKERS),
    )
    arrays = [
        pa.array(df.iloc[:, i], type=pa.string(), from_pandas=True) for i in range(df.shape[1])
    ]
    return type_columns(pa.table(arrays, names=[str(c) for c in df.columns])).to_pandas()


def test_a_normal_workbook_loads_as_pandas_read_it(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["zip", "age", "share", "born", "member", "at", "big", "dx", "note", 2020])
    rows = [
        ["02139", 34, 1.5, dt.datetime(1990, 1, 2), True, dt.time(12, 30), 1e20, "flu", "NA", 1],
        ["10001", 40.0, 0.1, dt.date(1985, 3, 4), False, None, -0.0, "#N/A", " a ", 2],
        ["00501", 51, 1 / 3, dt.datetime(2020, 1, 2, 3, 4, 5, 600000), None, None, 3, None, "", 3],
        ["94110", 29, 2.0, None, True, dt.time(0, 0, 1), 12345678901234567890, "hiv", "x", 4],
    ]
    for r in rows:
        ws.append(r)
    ws["K3"] = "late column"
    path = tmp_path / "n.xlsx"
    wb.save(path)
    raw = path.read_bytes()
    new = load_table(raw, name="n.xlsx")
    old = _old_reader(raw)
    old.columns = list(new.data.columns)  # pandas names the unnamed column "Unnamed: 10"
    pd.testing.assert_frame_equal(new.data, old)
    # what matters, stated: leading zeros kept as text, numbers typed, error cells missing
    assert new.data["zip"].tolist() == ["02139", "10001", "00501", "94110"]
    assert new.data["age"].dtype.kind == "i" and new.data["share"].dtype.kind == "f"
    assert new.data["dx"].isna().tolist() == [False, True, True, False]
    assert new.data["born"].iloc[0] == "1990-01-02 00:00:00"
    assert list(new.data.columns)[-1] == "column 11"


def test_the_demo_table_loads_from_xlsx_as_pandas_read_it(tmp_path):
    from riskcore.demo import make_people

    path = tmp_path / "demo.xlsx"
    make_people(3_000, seed=1).to_excel(path, index=False)
    raw = path.read_bytes()
    new = load_table(raw, name="demo.xlsx")
    pd.testing.assert_frame_equal(new.data, _old_reader(raw))
    assert new.data["zip"].str.len().eq(5).all()


def test_empty_rows_between_records_are_skipped_and_said():
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["a", "b"])
    ws.append([1, "x"])
    ws.append([])
    ws["A5"] = 2
    ws["B5"] = "y"
    buf = io.BytesIO()
    wb.save(buf)
    t = load_table(buf.getvalue(), name="e.xlsx")
    assert t.data.values.tolist() == [[1, "x"], [2, "y"]]
    assert any(n.startswith("2 empty row(s) between data rows were skipped") for n in t.notes)
