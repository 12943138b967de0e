"""CSV through pyarrow: typing on the whole file, nothing lost, old guarantees kept."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pandas as pd
import pytest

from riskcore._results import dumps
from riskcore.engine import encode_column
from riskcore.errors import DataLoadError
from riskcore.io import LoadInfo, LoadLimits, load_table

# pyarrow parses in blocks of 1 MB: these files are several blocks long, so a
# value in the last rows is far beyond the first block (and any sample).
N_LONG = 300_000


def _csv(header: str, rows: list[str]) -> bytes:
    return (header + "\n" + "\n".join(rows) + "\n").encode()


def test_late_leading_zero_keeps_the_whole_column_as_text():
    # pyarrow's own inference reads this column as int64 and 00501 as 501
    raw = _csv("area,n", ["12345,1"] * N_LONG + ["00501,2"])
    assert len(raw) > 2_000_000
    import io

    import pyarrow.csv

    assert pyarrow.csv.read_csv(io.BytesIO(raw)).column("area")[-1].as_py() == 501  # the trap
    t = load_table(raw, name="late.csv")
    assert t.data["area"].iloc[-1] == "00501"
    assert t.data["area"].iloc[0] == "12345"
    assert "area" in t.text_columns
    assert t.data["n"].dtype == np.int64 and t.data["n"].iloc[-1] == 2


def test_late_text_value_keeps_a_numeric_column_as_text_and_is_counted():
    rows = [f"{20 + i % 50},x" for i in range(N_LONG)] + ["unknown,y", "40,z", "n/k,z"]
    t = load_table(_csv("age,s", rows), name="ages.csv")
    age = t.data["age"]
    # nothing became missing: both words are still there, and the numbers as text
    assert age.isna().sum() == 0
    assert age.iloc[N_LONG] == "unknown" and age.iloc[N_LONG + 2] == "n/k"
    assert age.iloc[0] == "20"
    assert t.untyped == {"age": 2}
    assert t.info.untyped == {"age": 2}
    note = next(n for n in t.notes if "'age'" in n)
    assert "2 values" in note and f"data row {N_LONG + 1:,}" in note


def test_a_column_mostly_of_words_is_not_reported():
    t = load_table(b"dx,n\nflu,1\ncold,2\n3,3\n")
    assert t.untyped == {}
    assert list(t.data["dx"]) == ["flu", "cold", "3"]


def test_numbers_are_typed_like_before():
    raw = b"i,f,g,m,d,b\n1,1.5,1.0,1,2020-01-02,true\n2,2,2.0,,2021-03-04,false\n"
    t = load_table(raw)
    d = t.data
    assert d["i"].dtype == np.int64 and list(d["i"]) == [1, 2]
    assert d["f"].dtype == np.float64 and list(d["f"]) == [1.5, 2.0]
    assert d["g"].dtype == np.int64 and list(d["g"]) == [1, 2]  # whole floats, none missing
    assert d["m"].dtype == np.float64 and d["m"].isna().sum() == 1  # a missing value
    # dates and booleans stay text (pyarrow alone would type them)
    assert list(d["d"]) == ["2020-01-02", "2021-03-04"]
    assert list(d["b"]) == ["true", "false"]
    assert t.text_columns == ()


def test_hex_and_long_whole_numbers_stay_text():
    t = load_table(b"h,big\n0x1F,12345678901234567890\n0x20,2\n")
    assert list(t.data["h"]) == ["0x1F", "0x20"]
    assert list(t.data["big"]) == ["12345678901234567890", "2"]
    assert any("16 digits" in n for n in t.notes)


def test_spaces_around_numbers_and_after_delimiters():
    t = load_table(b"a, b, c\n1, x, 2 \n2, NA,3\n")
    assert list(t.data.columns) == ["a", "b", "c"]
    assert list(t.data["a"]) == [1, 2]
    assert t.data["b"].iloc[0] == "x" and pd.isna(t.data["b"].iloc[1])
    assert t.data["c"].dtype == np.int64 and list(t.data["c"]) == [2, 3]


def test_quoted_value_after_a_space_is_read_like_pandas():
    t = load_table(b'a, b\n1, "x,y"\n2, z\n')
    assert list(t.data["b"]) == ["x,y", "z"]


def test_quoted_values_with_delimiters_and_newlines():
    t = load_table(b'a,b\n1,"x\ny"\n2,"p,q"\n3,"say ""hi"""\n')
    assert list(t.data["b"]) == ["x\ny", "p,q", 'say "hi"']


def test_unclosed_quote_in_the_last_column_is_an_error():
    # an even number of quote characters, the last value runs to the end of the file
    with pytest.raises(DataLoadError, match=r"quoted value is never closed"):
        load_table(b'a,b\n5\'10",1\n2,"oops\n3,4\n')


def test_missing_markers_quoted_or_not():
    t = load_table(b'a,b\n1,NA\n2,"NULL"\n3,?\n4,ok\n5,N/A\n')
    assert t.missing == {"a": 0, "b": 4}
    assert t.info.n_missing == 4
    assert t.data["b"].iloc[3] == "ok"


def test_row_with_an_extra_field_late_in_a_large_file():
    raw = _csv("a,b,c", ["1,2,3"] * N_LONG + ["1,2,3,4"] + ["1,2,3"] * 10)
    with pytest.raises(DataLoadError, match=rf"line {N_LONG + 2} has 4 fields, the header has 3"):
        load_table(raw, name="r.csv")


def test_short_rows_are_filled_with_missing_and_reported():
    t = load_table(b"a,b,c\n1,2,3\n4,5\n6,7,8\n9\n")
    assert list(t.data["a"]) == [1, 4, 6, 9]
    assert t.data["c"].isna().tolist() == [False, True, False, True]
    assert t.data["b"].isna().tolist() == [False, False, False, True]
    note = next(n for n in t.notes if "fewer fields" in n)
    assert note.startswith("2 rows (lines 3, 5)")


def test_utf16_and_late_latin1_are_transcoded():
    t = load_table("name,city\nJosé,Málaga\n".encode("utf-16"))
    assert t.encoding == "utf-16" and list(t.data["city"]) == ["Málaga"]
    # ASCII for the first 2 MB (beyond the 1 MB head check), then a latin-1 byte
    rows = ["Anna,Torino"] * 200_000 + ["Zoë,Köln"]
    t2 = load_table(_csv("name,city", rows).decode().encode("latin-1"))
    assert t2.encoding is not None and t2.encoding.lower().replace("_", "-") != "utf-8"
    assert t2.data["name"].iloc[-1] == "Zoë" and t2.data["city"].iloc[-1] == "Köln"


def test_utf8_bom_with_bad_bytes_later_is_an_error():
    raw = b"\xef\xbb\xbf" + _csv("a,b", ["x,1"] * 200_000) + b"\xff,2\n"
    with pytest.raises(DataLoadError, match=r"UTF-8 marker"):
        load_table(raw)


def test_row_limit_on_the_fast_path():
    with pytest.raises(DataLoadError, match=r"more than 5 rows"):
        load_table(_csv("a", ["1"] * 6), limits=LoadLimits(max_rows=5))
    assert load_table(_csv("a", ["1"] * 5), limits=LoadLimits(max_rows=5)).n_rows == 5


def test_low_cardinality_text_is_categorical_with_the_same_codes():
    words = ["flu", "cold", "asthma", None]
    rows = [f"{words[(i * 7) % 4] or ''},id{i}" for i in range(4000)]
    t = load_table(_csv("dx,pid", rows))
    dx, pid = t.data["dx"], t.data["pid"]
    assert isinstance(dx.dtype, pd.CategoricalDtype)
    assert list(dx.cat.categories) == ["flu", "asthma", "cold"]  # first appearance
    assert dx.isna().sum() == 1000
    assert not isinstance(pid.dtype, pd.CategoricalDtype)  # every value distinct
    # the engine's codes equal those of the same values as plain text
    as_text = pd.Series(dx.astype(object), dtype="str")
    a, b = encode_column(dx), encode_column(as_text)
    assert np.array_equal(a.codes, b.codes)
    assert list(a.labels) == list(b.labels) == ["flu", "asthma", "cold", None]


def test_load_info_round_trips_through_json():
    raw = b"zip,age,dx\n02139,34,flu\n10001,,NA\n"
    t = load_table(raw, name="z.csv")
    info = t.info
    assert isinstance(info, LoadInfo)
    assert (info.n_rows, info.n_columns, info.n_missing) == (2, 3, 2)
    assert info.n_bytes == len(raw)
    assert info.fingerprint == hashlib.sha256(raw).hexdigest()
    back = LoadInfo.from_dict(json.loads(dumps(info)))
    assert back == info
    d = t.to_dict()
    for key in ("name", "file_format", "encoding", "delimiter", "n_rows", "n_columns"):
        assert key in d
    assert d["missing"] == {"zip": 0, "age": 1, "dx": 1}


@pytest.mark.parametrize("n", [1_000, 600_000])
def test_both_parsing_paths_give_the_same_typing(n):
    # above 2 MB, columns with few distinct values in the first megabyte are
    # dictionary-encoded by the parser and typed on their distinct values
    from riskcore.io._csv import _few_distinct, _Layout

    rows = [f"{18 + i % 60}, {('M', 'F')[i % 2]},0{i % 9}1,{i}" for i in range(n)]
    rows += ["unknown, NA,00501,x"]
    raw = _csv("age,sex,area,pid", rows)
    guessed = _few_distinct(raw, _Layout(",", ["age", "sex", "area", "pid"], 1), False)
    assert guessed == ({"age", "sex", "area"} if len(raw) > 2 << 20 else set())
    t = load_table(raw)
    d = t.data
    assert d["age"].iloc[0] == "18" and d["age"].iloc[-1] == "unknown"
    assert t.untyped == {"age": 1, "pid": 1}
    assert isinstance(d["sex"].dtype, pd.CategoricalDtype)
    assert list(d["sex"].cat.categories) == ["M", "F"]  # no space; first appearance
    assert pd.isna(d["sex"].iloc[-1])  # " NA" is missing
    a, b = encode_column(d["sex"]), encode_column(pd.Series(d["sex"].astype(object), dtype="str"))
    assert np.array_equal(a.codes, b.codes) and list(a.labels) == list(b.labels)
    assert d["area"].iloc[1] == "011" and d["area"].iloc[-1] == "00501"
    assert t.text_columns == ("area",)
    assert d["pid"].iloc[-1] == "x" and d["pid"].iloc[5] == "5"
    assert t.missing == {"age": 0, "sex": 1, "area": 0, "pid": 0}


_FILES = {
    "plain": b"zip,age\n02139,34\n10001,40\n",
    "bom": "\ufeffname;città\nAnna;Torino\nLuca;NA\n".encode(),
    "utf16": "name,city\nJosé,Málaga\n".encode("utf-16"),
    "latin1": "name,city\nJosé,Málaga\nZoë,Köln\n".encode("latin-1"),
    "quotes": b'a,b\n1,"x\ny"\n2,"p,q"\n',
    "short": b"a,b,c\n1,2,3\n4,5\n",
    "large": _csv("k,v", [f"{i % 7},{('a', 'b')[i % 2]}" for i in range(700_000)]),
}


@pytest.mark.parametrize("kind", sorted(_FILES))
def test_a_path_reads_like_its_bytes(tmp_path, kind):
    # a path is memory-mapped, bytes are used as they are: same table, same record
    raw = _FILES[kind]
    path = tmp_path / "f.csv"
    path.write_bytes(raw)
    a, b = load_table(path, name="f.csv"), load_table(raw, name="f.csv")
    pd.testing.assert_frame_equal(a.data, b.data)
    assert a.info == b.info
    assert a.fingerprint == hashlib.sha256(raw).hexdigest()


def test_errors_from_a_path(tmp_path):
    for raw, msg in [
        (b"", r"is empty"),
        (b" \n", r"is empty"),
        (b'a,b\n1,"oops\n2,3\n', r"quote"),
        (b"a,b\n" + b"1,2\n" * 3 + b"1,2,3\n", r"line 5 has 3 fields"),
        (b"\x1f\x8b\x08rest", r"gzip"),
    ]:
        path = tmp_path / "bad.csv"
        path.write_bytes(raw)
        with pytest.raises(DataLoadError, match=msg):
            load_table(path)


# issue 38: an outpatient claims file, ';'-separated, UTF-8 with a BOM, decimal-comma amounts
CLAIMS = (
    "\ufeffclaim_id;service_date;zip;amount;rate;visits\n"
    "C1;05/10/2024;02139;1.234,56;2.5;3\n"
    "C2;15/08/2024;10001-1234;130,73;0.75;1\n"
    "C3;27/07/2024;60601;-12,5;1.25;2\n"
    "C4;01/02/2024;94105;1.000;3.5;4\n"
)


def test_a_semicolon_file_with_decimal_commas_reads_its_amounts_as_numbers():
    t = load_table(CLAIMS.encode(), name="claims.csv")
    assert (t.info.delimiter, t.info.encoding) == (";", "utf-8-sig")
    assert (t.info.decimal, t.info.decimal_detected) == (",", True)
    assert t.info.decimal_columns == ("amount",)
    # 1.234,56 is 1234.56; 1.000 in a decimal-comma column is a thousand
    assert t.data["amount"].tolist() == [1234.56, 130.73, -12.5, 1000.0]
    # a column written with decimal points keeps them; whole numbers stay whole
    assert t.data["rate"].tolist() == [2.5, 0.75, 1.25, 3.5]
    assert t.data["visits"].tolist() == [3, 1, 2, 4]
    assert t.data["zip"].tolist() == ["02139", "10001-1234", "60601", "94105"]
    # the caller can say the file writes decimal points: the amounts are then text
    dot = load_table(CLAIMS.encode(), name="claims.csv", decimal=".")
    assert (dot.info.decimal, dot.info.decimal_detected) == (".", False)
    assert dot.data["amount"].tolist() == ["1.234,56", "130,73", "-12,5", "1.000"]
    comma = load_table(CLAIMS.encode(), name="claims.csv", decimal=",")
    assert (comma.info.decimal, comma.info.decimal_detected) == (",", False)
    assert comma.data["amount"].tolist() == [1234.56, 130.73, -12.5, 1000.0]
    assert LoadInfo.from_dict(json.loads(dumps(t.info))) == t.info


def test_decimal_commas_beyond_the_sample_and_in_a_dictionary_column():
    # large (several parsing blocks, columns dictionary-encoded): typed on the whole column
    rows = [f"{i % 7};{i % 50},{i % 10}5;x" for i in range(N_LONG)]
    t = load_table(_csv("g;amount;c", rows), name="big.csv")
    assert t.info.decimal == "," and t.data["amount"].dtype == np.float64
    assert t.data["amount"].iloc[-1] == pytest.approx(
        float(f"{(N_LONG - 1) % 50}.{(N_LONG - 1) % 10}5")
    )
    # one value that is no number keeps the column as text, nothing lost
    t = load_table(_csv("g;amount", [f"{i};{i},5" for i in range(40)] + ["41;n/d"]), name="a.csv")
    assert t.info.decimal == "," and t.data["amount"].iloc[-1] == "n/d"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('id,amount\n1,"1,234"\n2,"2,345"\n3,"12,500"\n', "a comma file's 1,234 is thousands"),
        ("id;code\n1;12,5\n2;A7\n3;B9\n4;C1\n", "a ; file's 12,5 in a minority of values"),
        ("id;note\n1;see 3,4 and 5\n2;ok\n", "a digit, a comma and a digit inside text"),
        ("id;amount\n1;12.5\n2;3.25\n", "a ; file with decimal points"),
    ],
)
def test_no_decimal_comma_where_there_is_none(text, why):
    t = load_table(text.encode(), name="f.csv")
    assert t.info.decimal == ".", why
    assert t.info.decimal_columns == ()


def test_a_semicolon_file_of_codes_mostly_like_12_5_reads_them_with_the_comma():
    t = load_table(b"id;ref\n1;12,5\n2;13,1\n3;14,2\n4;7\n", name="f.csv")
    assert t.info.decimal == "," and t.data["ref"].tolist() == [12.5, 13.1, 14.2, 7.0]
    # named like an identifier, or with a leading zero, the column keeps its text, no note
    t = load_table(b"id;ref_id;z\n1;12,5;007\n2;13,1;1,5\n3;14,2;2,5\n", name="f.csv")
    assert t.data["ref_id"].tolist() == ["12,5", "13,1", "14,2"]
    assert t.data["z"].tolist() == ["007", "1,5", "2,5"]
    assert {"ref_id", "z"} <= set(t.info.text_columns) and t.info.untyped == {}


def test_a_wrong_decimal_mark_is_one_sentence():
    with pytest.raises(DataLoadError, match=r"^the decimal mark must be '\.' or ',', got ';'$"):
        load_table(CLAIMS.encode(), name="claims.csv", decimal=";")


def test_load_arrow_reads_decimal_commas_too(tmp_path):
    from riskcore.io import load_arrow

    path = tmp_path / "claims.csv"
    path.write_bytes(CLAIMS.encode())
    assert load_arrow(path).column("amount").to_pylist() == [1234.56, 130.73, -12.5, 1000.0]
    assert load_arrow(path, decimal=".").column("amount").to_pylist()[0] == "1.234,56"
