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
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riskcore.errors import DataLoadError
from riskcore.io import load_table
from riskcore.report.readings import encoding_reading
from tests.file_builders import NAMES, ODD_NAMES, distinct, odd_names_csv, wide

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


# --- a table of hostile and careless files: each a clear error or a correct load ----------



def _check_values(t, column, values):
    assert t.data[column].tolist() == values


def _check_distinct(t):
    assert t.n_rows == 1_000_000 and t.data["id"].nunique() == 1_000_000
    assert t.data["id"].iloc[-1] == "p999999"


def _check_odd_names(t):
    assert list(t.data.columns) == ODD_NAMES


def _check_empty_record(t):  # two unnamed columns, one row of missing values
    assert t.data.shape == (1, 2) and t.info.n_missing == 2


def _check_one_value(t):
    assert t.data["dx"].tolist() == ["flu"] * 3


def _check_big_field(t):
    assert t.n_rows == 2 and len(t.data["b"].iloc[0]) == 50_000_000
    assert t.data["b"].iloc[1] == "short"



HOSTILE: dict[str, tuple[object, object]] = {
    # name: (the file's bytes, or a function making them; a regex of the error, or a check)
    "random bytes": (bytes(range(256)) * 400, r"binary data \(NUL bytes\)"),
    "random bytes without NUL": (bytes(range(1, 256)) * 400, r"binary data \(.* control"),
    "PNG image": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 64, r"binary data"),
    "gzip bomb": (lambda: __import__("gzip").compress(b"\x00" * 100_000_000), r"gzip.*refused"),
    "100,000 columns": (lambda: wide(100_000), r"has 100,000 columns, above the limit"),
    "ragged first row": (b"a,b\n1,2,3\n", r"line 2 has 3 fields"),
    "header and one empty line": (b"a,b\n\n", r"header but no data rows"),
    "only delimiters": (b",\n,\n", _check_empty_record),
    "a 50 MB field": (
        lambda: b'a,b\n1,"' + b"x" * 50_000_000 + b'"\n2,short\n',
        _check_big_field,
    ),
    "1,000,000 distinct values": (lambda: distinct(1_000_000), _check_distinct),
    "HTML, script, newline, emoji names": (odd_names_csv, _check_odd_names),
    "one-valued column": (b"sex,dx\nF,flu\nM,flu\nF,flu\n", _check_one_value),
    # a comma file whose quoted value holds semicolons and quotes: Python's sniffer said ";"
    "semicolons and quotes in a value": (
        b'id,note\n0,"A;"";0"\n1,ok\n',
        lambda t: _check_values(t, "note", ['A;";0', "ok"]),
    ),
}


@pytest.mark.parametrize("case", sorted(HOSTILE), ids=sorted(HOSTILE))
def test_hostile_input_is_a_clear_error_or_a_correct_load(case):
    made, expect = HOSTILE[case]
    raw = made() if callable(made) else made
    t0 = time.process_time()  # CPU seconds: not stretched by the machine's load
    if isinstance(expect, str):
        with pytest.raises(DataLoadError, match=expect):
            load_table(raw, name="h.csv")
    else:
        expect(load_table(raw, name="h.csv"))
    assert time.process_time() - t0 < 60  # generous: the figures are in the README


# --- hypothesis: random well-formed tables round-trip; random bytes never escape ---------

_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\x00")
    | st.sampled_from([",", ";", "\t", "|", '"', "\n", "\r", " "]),
    min_size=1,
    max_size=12,
).filter(lambda s: not s[0].isspace() and any(ch.isalpha() for ch in s))
# column names: no delimiter, quote or line break (a header of one "|" could be either)
_NAME = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp"), blacklist_characters=',;|"\t'
    ),
    min_size=1,
    max_size=10,
).filter(lambda s: not s.startswith("Unnamed:"))


@st.composite
def _tables(draw):
    names = draw(st.lists(_NAME, min_size=2, max_size=5, unique=True))
    n = draw(st.integers(min_value=1, max_value=30))
    columns = {}
    for name in names:
        if draw(st.booleans()):
            columns[name] = draw(st.lists(_TEXT, min_size=n, max_size=n))
        else:
            columns[name] = draw(st.lists(st.integers(-(10**12), 10**12), min_size=n, max_size=n))
    return columns


@given(table=_tables(), encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16"]))
def test_random_tables_round_trip_through_the_csv_loader(table, encoding):
    names = list(table)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")  # quotes every value holding CR or LF
    w.writerow(names)
    w.writerows(zip(*table.values(), strict=True))
    t = load_table(buf.getvalue().encode(encoding), name="r.csv")
    assert list(t.data.columns) == names
    for name, values in table.items():
        got = t.data[name].tolist()
        if isinstance(values[0], int) and name not in t.text_columns:
            assert got == values
        else:  # text (an identifier-like name keeps numbers as text)
            assert [str(v) for v in got] == [str(v) for v in values]


@given(raw=st.binary(max_size=2_000))
@settings(max_examples=3 * settings().max_examples)  # 300 in CI
def test_random_bytes_load_or_raise_a_load_error(raw):
    try:
        load_table(raw, name="b.csv")
    except DataLoadError:
        pass
