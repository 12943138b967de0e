"""Loader: every bad input gets a plain-language DataLoadError; nothing is lost."""

from __future__ import annotations

import gzip
import io
import zipfile

import pandas as pd
import pytest

from riskcore.errors import DataLoadError
from riskcore.io import LoadLimits, load_table
from tests.conftest import shared_file


def test_leading_zeros_are_kept():
    t = load_table(b"zip,age\n02139,34\n10001,40\n", name="z.csv")
    assert list(t.data["zip"]) == ["02139", "10001"]
    assert t.data["age"].dtype.kind == "i"
    assert "zip" in t.text_columns


def test_zip_named_column_stays_text_even_without_leading_zero():
    t = load_table(b"Zip,x\n64152,1\n61523,2\n")
    assert list(t.data["Zip"]) == ["64152", "61523"]


def test_utf8_bom_and_semicolon():
    raw = "\ufeffname;città\nAnna;Torino\nLuca;Bari\n".encode()
    t = load_table(raw)
    assert list(t.data.columns) == ["name", "città"]
    assert t.delimiter == ";"
    assert t.encoding == "utf-8-sig"


def test_latin1_is_detected():
    raw = "name,city\nJosé,Málaga\nZoë,Köln\n".encode("latin-1")
    t = load_table(raw)
    assert list(t.data["name"]) == ["José", "Zoë"]
    assert t.encoding is not None and t.encoding.lower() != "utf-8"


def test_tab_delimited():
    t = load_table(b"a\tb\n1\tx\n2\ty\n")
    assert t.delimiter == "\t" and t.data.shape == (2, 2)


def test_ragged_row_message_names_line_and_counts():
    raw = b"a,b,c,d\n" + b"1,2,3,4\n" * 15 + b"1,2,3,4,5\n"
    with pytest.raises(DataLoadError, match=r"line 17 has 5 fields, the header has 4"):
        load_table(raw, name="r.csv")


@pytest.mark.parametrize(
    ("raw", "msg"),
    [
        (b"", r"is empty"),
        (b"   \n\n", r"is empty"),
        (b"a,b\n", r"has a header but no data rows"),
        (gzip.compress(b"a,b\n1,2\n", mtime=0), r"gzip-compressed file.*refused"),
        (b"\x00\x01\x02binary", r"binary data"),
        (b"%PDF-1.4 ...", r"a PDF document"),
    ],
)
def test_bad_inputs(raw, msg):
    with pytest.raises(DataLoadError, match=msg):
        load_table(raw, name="f")


def test_zip_archive_is_refused():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("data.csv", "a,b\n1,2\n")
    with pytest.raises(DataLoadError, match=r"zip archive, not an Excel workbook"):
        load_table(buf.getvalue(), name="x.zip")


def test_xlsx_bomb_is_refused():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", "<x/>")
        zf.writestr("xl/worksheets/sheet1.xml", "0" * 5_000_000)
    with pytest.raises(DataLoadError, match=r"zip bomb"):
        load_table(buf.getvalue(), name="b.xlsx", limits=LoadLimits(max_unzipped_bytes=1_000_000))


def test_limits_on_bytes_rows_columns():
    raw = b"a,b\n" + b"1,2\n" * 50
    with pytest.raises(DataLoadError, match=r"above the .* limit"):
        load_table(raw, limits=LoadLimits(max_bytes=10))
    with pytest.raises(DataLoadError, match=r"more than 10 rows"):
        load_table(raw, limits=LoadLimits(max_rows=10))
    with pytest.raises(DataLoadError, match=r"has 2 columns, above the limit of 1"):
        load_table(raw, limits=LoadLimits(max_columns=1))


def test_duplicate_names_are_renamed_not_lost():
    t = load_table(b"age,age,sex\n1,2,F\n3,4,M\n")
    assert list(t.data.columns) == ["age", "age (2)", "sex"]
    assert list(t.data["age (2)"]) == [2, 4]
    assert any("more than once" in n for n in t.notes)


def test_one_column_loads_with_a_note():
    t = load_table(b"only\n1\n2\n")
    assert t.n_columns == 1
    assert any("only one column" in n for n in t.notes)


def test_all_missing_column_is_counted():
    t = load_table(b"a,b\n1,\n2,NA\n3,?\n")
    assert t.missing == {"a": 0, "b": 3}
    assert t.data["b"].isna().all()


def test_unclosed_quote():
    with pytest.raises(DataLoadError, match=r"quote"):
        load_table(b'a,b\n1,"oops\n2,3\n')


def test_path_errors(tmp_path):
    with pytest.raises(DataLoadError, match=r"there is no file"):
        load_table(tmp_path / "missing.csv")
    with pytest.raises(DataLoadError, match=r"web address"):
        load_table("https://example.org/data.csv")
    with pytest.raises(DataLoadError, match=r"is a folder"):
        load_table(tmp_path)


def test_parquet_and_xlsx_round_trip(tmp_path):
    df = pd.DataFrame({"zip": ["02139", "10001"], "age": [34, 40], "dx": ["flu", None]})
    pq_bytes = io.BytesIO()
    df.to_parquet(pq_bytes)
    t = load_table(pq_bytes.getvalue(), name="d.parquet")
    assert t.file_format == "parquet" and list(t.data["zip"]) == ["02139", "10001"]
    assert t.missing["dx"] == 1
    xl = tmp_path / "d.xlsx"
    df.to_excel(xl, index=False)
    t2 = load_table(xl)
    assert t2.file_format == "xlsx"
    assert list(t2.data["zip"]) == ["02139", "10001"]
    assert list(t2.data["age"]) == [34, 40]
    assert t2.missing["dx"] == 1


def test_damaged_parquet():
    with pytest.raises(DataLoadError, match=r"looks like Parquet but cannot be read"):
        load_table(b"PAR1garbage", name="x.parquet")


def test_uci_adult_missing_counts():
    t = load_table(shared_file("adult.csv"))
    assert t.n_rows == 32561 and t.n_columns == 15
    # adult.names / shared README: workclass 1,836, occupation 1,843, native-country 583
    assert t.missing["workclass"] == 1836
    assert t.missing["occupation"] == 1843
    assert t.missing["native-country"] == 583
