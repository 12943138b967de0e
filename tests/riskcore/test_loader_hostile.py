"""Hostile and careless input to the loader (issue 17): a clear DataLoadError or a correct load.

Cases already covered elsewhere are not repeated here: empty, blank, header only, gzip,
binary garbage, PDF (``test_loader.py::test_bad_inputs``), a zip that is not a workbook,
an .xlsx whose declared size is a bomb, limits on bytes / rows / columns, duplicate names,
one column, an all-missing column, an unclosed quote, a ragged row late in a file and
short rows (``test_loader.py``, ``test_io_csv.py``).
"""

from __future__ import annotations

import csv
import io

import pytest

from riskcore.errors import DataLoadError
from riskcore.io import load_table
from riskcore.report.readings import encoding_reading

# --- parser warnings and errors are DataLoadErrors naming the line (issue 17) ---------


@pytest.mark.parametrize(
    ("raw", "line", "fields", "row"),
    [
        # the first data row has two or more fields beyond the header: pandas warned
        (b"a,b\n1,2,3,4\n5,6\n", 2, 4, 1),
        (b"a,b\n1,2,3,4,5,6\n", 2, 6, 1),
        # a quoted header holding a newline, then a row with more fields
        (b'"x\ny",sex\n1,2,3\n', 3, 3, 1),
        # a quoted value spanning two lines before the long row: the line is the physical one
        (b'a,b\n"p\nq",2\n3,4\n5,6,7\n', 5, 3, 3),
        # ... and an extra field in the middle or at the end of the file
        (b"a,b,c\n1,2,3\n4,5,6,7\n8,9,10\n", 3, 4, 2),
        (b"a,b,c\n1,2,3\n4,5,6\n8,9,10,11,12", 4, 5, 3),
    ],
)
def test_a_row_with_extra_fields_is_a_load_error_naming_its_line(raw, line, fields, row):
    with pytest.raises(DataLoadError) as err:
        load_table(raw, name="r.csv")
    assert str(err.value).startswith(f"r.csv: line {line} has {fields} fields, the header has")
    assert f"data row {row} has more fields than the header" in str(err.value)


def test_short_rows_are_named_by_their_physical_line():
    t = load_table(b'a,b,c\n"x\ny",2,3\n4,5\n6,7,8\n')
    assert t.data["c"].isna().tolist() == [False, True, False]
    assert any(n.startswith("1 row (line 4) has fewer fields") for n in t.notes)


# --- a header with a quoted newline is read as a CSV record (issue 18) ------------------


@pytest.mark.parametrize("n_rows", [2, 400_000])  # the fast reader and the multi-block one
def test_a_quoted_newline_in_the_header_round_trips(n_rows):
    names = ["x\ny", "sex", 'say "hi", then\r\nleave', "age"]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(names)
    w.writerows([[f"v{i % 7}", "FM"[i % 2], "ok", 20 + i % 50] for i in range(n_rows)])
    t = load_table(buf.getvalue().encode(), name="q.csv")
    assert list(t.data.columns) == names
    assert t.n_rows == n_rows
    assert t.data["sex"].iloc[1] == "M" and t.data["age"].iloc[-1] == 20 + (n_rows - 1) % 50


def test_empty_lines_before_the_header_are_skipped():
    t = load_table(b"\n\r\n\nzip,sex\n02139,F\n")
    assert list(t.data.columns) == ["zip", "sex"]
    assert t.data.values.tolist() == [["02139", "F"]]


# --- encodings: every character survives (issue 17) --------------------------------------

NAMES = ["Muñoz", "São", "Åsa", "Zoë", "Ørsted"]


@pytest.mark.parametrize(
    ("encoding", "expected"),
    [
        ("latin-1", "cp1252"),  # latin-1 text without bytes 0x80-0x9F reads the same in cp1252
        ("cp1252", "cp1252"),
        ("utf-8", "utf-8"),
        ("utf-8-sig", "utf-8-sig"),
        ("utf-16", "utf-16"),
    ],
)
def test_western_names_survive_character_by_character(encoding, expected):
    names = NAMES + (["€"] if encoding != "latin-1" else [])  # latin-1 has no euro sign
    text = "name,n\n" + "".join(f"{x},{i}\n" for i, x in enumerate(names))
    t = load_table(text.encode(encoding), name="n.csv")
    got = list(t.data["name"])
    for want, read in zip(names, got, strict=True):
        assert [hex(ord(c)) for c in read] == [hex(ord(c)) for c in want], (want, read)
    assert t.encoding == expected
    assert t.info.encoding_guessed == (expected == "cp1252")
    reading = encoding_reading(t.encoding, t.info.encoding_guessed)
    assert reading is not None
    if expected == "cp1252":
        assert "assumed" in reading and "choose the file's encoding" in reading


def test_a_byte_cp1252_leaves_undefined_means_latin1():
    # 0x81 is not a cp1252 character: the file is read as latin-1, where it is U+0081
    raw = "name\nMuñoz\nSão\n".encode("latin-1") + b"a\x81b\n"
    t = load_table(raw)
    assert t.encoding == "latin-1"
    assert list(t.data["name"]) == ["Muñoz", "São", "a\x81b"]


def test_the_caller_chooses_the_encoding():
    raw = "name,city\nИван,Москва\nПётр,Тверь\n".encode("cp1251")
    guessed = load_table(raw)
    assert guessed.encoding == "cp1252" and guessed.info.encoding_guessed
    assert guessed.data["name"].iloc[0] != "Иван"  # another alphabet: the guess is wrong ...
    chosen = load_table(raw, encoding="cp1251")  # ... and the user says which it is
    assert list(chosen.data["name"]) == ["Иван", "Пётр"]
    assert chosen.encoding == "cp1251" and not chosen.info.encoding_guessed
    assert encoding_reading(chosen.encoding, False) == (
        "Text encoding: Windows-1251 (Cyrillic), as chosen."
    )
    assert chosen.fingerprint == guessed.fingerprint  # the same bytes


@pytest.mark.parametrize(
    ("raw", "encoding", "msg"),
    [
        ("é".encode("latin-1") + b",b\n1,2\n", "utf-8", r"is not utf-8: byte 0 \(0xE9\)"),
        (b"a,b\n1,2\n", "no-such-codec", r"'no-such-codec' is not a text encoding"),
        ("a,b\n1,\x00\n".encode("utf-16-le"), "cp1252", r"binary data"),
    ],
)
def test_a_wrong_chosen_encoding_is_a_clear_error(raw, encoding, msg):
    with pytest.raises(DataLoadError, match=msg):
        load_table(raw, encoding=encoding)


def test_utf16_without_a_marker_reads_when_chosen():
    raw = "name,n\nZoë,1\n€,2\n".encode("utf-16-le")
    with pytest.raises(DataLoadError, match=r"binary data"):
        load_table(raw)
    t = load_table(raw, encoding="utf-16-le")
    assert list(t.data["name"]) == ["Zoë", "€"]


def test_the_encoding_round_trips_through_json():
    t = load_table("name\nZoë\n".encode("cp1252"))
    from riskcore.io import LoadInfo

    back = LoadInfo.from_dict(t.info.to_dict())
    assert back.encoding == "cp1252" and back.encoding_guessed
