"""Formula-safe CSV export (OWASP CSV injection, CWE-1236); .xlsx text XML can hold."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
from openpyxl import load_workbook

from riskcore.io import load_table
from riskcore.io.export import formula_safe, to_csv_bytes, to_xlsx_bytes, write_table
from tests.file_builders import sheet, workbook


def test_text_cells_that_start_a_formula_are_neutralised():
    df = pd.DataFrame(
        {
            "name": ['=HYPERLINK("http://x")', "+1", "-2", "@SUM(A1)", "\tx", "\rx", "Ann", None],
            "n": [-5, 1, 2, 3, 4, 5, 6, 7],
        }
    )
    safe = formula_safe(df)
    assert list(safe["name"][:7]) == [
        '\'=HYPERLINK("http://x")',
        "'+1",
        "'-2",
        "'@SUM(A1)",
        "'\tx",
        "'\rx",
        "Ann",
    ]
    assert pd.isna(safe["name"].iloc[7])  # missing stays missing
    assert safe["n"].tolist() == df["n"].tolist() and safe["n"].dtype == df["n"].dtype
    assert df["name"].iloc[1] == "+1"  # the input is not changed


def test_categoricals_and_column_names():
    df = pd.DataFrame({"=cmd": pd.Categorical(["-x", "y"]), "ok": [1.5, np.nan]})
    safe = formula_safe(df)
    assert list(safe.columns) == ["'=cmd", "ok"]
    assert list(safe["'=cmd"]) == ["'-x", "y"]


def test_csv_bytes_read_back_as_text_not_formulas():
    df = pd.DataFrame({"zip": ["02139", "=1+1"], "k": [1, 2]})
    data = to_csv_bytes(df)
    assert data.startswith(b"\xef\xbb\xbf")  # UTF-8 byte-order mark for Excel
    back = pd.read_csv(io.BytesIO(data), dtype=str, encoding="utf-8-sig")
    assert back["zip"].tolist() == ["02139", "'=1+1"]  # leading zero kept, formula defused


#: Text XML cannot hold (a terminal escape sequence, a bell, a NUL, U+FFFE, a lone
#: surrogate) beside text that merely looks like an Office Open XML escape.
ODD_TEXT = ["red\x1b[31m", "bell\x07", "nul\x00", "\ufffe", "\ud800", "_x0041_", "plain"]


def test_xlsx_escapes_what_xml_cannot_hold_and_reads_it_back():
    # issue 37: control characters made the Excel export end in an IllegalCharacterError
    name = "age\x1b[32mPASS\x1b[0m"
    df = pd.DataFrame({name: pd.Series(ODD_TEXT, dtype=object), "n": range(len(ODD_TEXT))})
    data = to_xlsx_bytes(df)
    ws = load_workbook(io.BytesIO(data), read_only=True).active
    rows = list(ws.iter_rows(values_only=True))
    # the cells hold ECMA-376's escapes (22.9.2.19 ST_Xstring), worked out by hand
    assert rows[0] == ("age_x001B_[32mPASS_x001B_[0m", "n")
    assert [r[0] for r in rows[1:]] == [
        "red_x001B_[31m",
        "bell_x0007_",
        "nul_x0000_",
        "_xFFFE_",
        "_xD800_",
        "_x005F_x0041_",
        "plain",
    ]
    # read back by the loader as written, except the lone surrogate no text column can hold
    back = load_table(data, name="t.xlsx").data
    assert list(back.columns) == [name, "n"]
    assert back[name].tolist() == [*ODD_TEXT[:4], "_xD800_", *ODD_TEXT[5:]]


def test_the_loader_reads_excel_escapes_as_their_characters():
    # Excel writes a control character in a cell as _x0007_; the loader reads the character
    rows = b'<row r="2"><c r="A2" t="inlineStr"><is><t>a_x0007_b _x005F_x0041_</t></is></c></row>'
    back = load_table(workbook(sheet([rows])), name="w.xlsx").data
    assert back["a"].tolist() == ["a\x07b _x0041_"]


#: Cells that need a quote, an apostrophe or nothing, in every writer's rule.
_HOSTILE = ["a", "b,c", 'q"r', "x\ny", "\rz", "=1+1", "-2", "+3", "@x", "\tt", " s", ""]
_HOSTILE += ["é", "'=", "a;b", "a\tb", "007", "_x0041_"]


def _frames() -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(5)
    n = 400
    pick = list(rng.choice(_HOSTILE, n))
    return {
        "categorical": pd.DataFrame(
            {"c": pd.Categorical([*pick[:-1], None]), "i": rng.integers(-5, 5, n)}
        ),
        "text": pd.DataFrame(
            {"s": pd.Series(pick).mask(rng.random(n) < 0.1), "b": rng.random(n) < 0.5}
        ),
        "object": pd.DataFrame(
            {
                "=h": pd.Series(pick, dtype=object),
                "n": pd.array([*rng.integers(0, 9, n - 1), None], dtype="Int64"),
            }
        ),
        "integer categories": pd.DataFrame(
            {"ic": pd.Categorical(rng.integers(-3, 3, n)), "sd": pd.Series(pick, dtype="string")}
        ),
        "no rows": pd.DataFrame({"a": pd.Series([], dtype=object), "b": pd.Series([], dtype=int)}),
    }


def test_fast_csv_writes_what_pandas_writes_byte_for_byte():
    # the release writer joins each distinct value's field (issue 38): the same bytes as
    # pandas' writer on the formula-safe table, quotes, apostrophes and missing cells included
    from riskcore.io.export import _csv_bytes

    for what, df in _frames().items():
        for sep in (",", "\t"):
            expected = formula_safe(df).to_csv(index=False, sep=sep)
            assert _csv_bytes(df, sep) == expected.encode("utf-8-sig"), (what, sep)


def test_a_categorical_release_is_written_without_pandas_writer(monkeypatch):
    # a million-row release of categories was written cell by cell by pandas (3 s of 3.5 s)
    df = _frames()["categorical"]
    expected = to_csv_bytes(df)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("pandas' CSV writer was called")

    monkeypatch.setattr(pd.DataFrame, "to_csv", refuse)
    assert to_csv_bytes(df) == expected


def test_floats_and_one_column_tables_still_go_through_pandas():
    # floats keep pandas' formatting ("1.0"); a row of one empty field is quoted ("")
    df = pd.DataFrame({"x": [1.0, 0.1, None], "s": ["a", "=b", None]})
    assert to_csv_bytes(df).decode("utf-8-sig") == "x,s\n1.0,a\n0.1,'=b\n,\n"
    one = pd.DataFrame({"s": ["", "a"]})
    assert to_csv_bytes(one).decode("utf-8-sig") == 's\n""\na\n'


def test_writing_leaves_the_table_as_it_was():
    df = _frames()["categorical"]
    before = df.copy()
    to_csv_bytes(df)
    pd.testing.assert_frame_equal(df, before)


def test_a_table_too_varied_to_key_its_rows_is_written_the_same():
    # eight columns of 300 distinct values: a row's key would need 66 bits, so rows are not
    # grouped; the bytes are still pandas' (and when they are grouped: the tests above)
    rng = np.random.default_rng(9)
    df = pd.DataFrame({f"c{i}": [f"={v}" for v in rng.permutation(300)] for i in range(8)})
    assert to_csv_bytes(df) == formula_safe(df).to_csv(index=False).encode("utf-8-sig")


def test_a_release_generalized_as_categories_is_written_as_its_text_release():
    # issue 38, item 20: anonymize writes the generalized columns from their codes; the
    # values and the bytes are those of the object columns (formula-safe, quoted, "*" for a
    # value the hierarchy lacks, empty for a missing one)
    from riskcore.deidentify.hierarchy import Hierarchy
    from riskcore.deidentify.recipe import generalize_columns

    leaves = np.array(["Paris", "Lyon", "Nice", "=cmd"], dtype=object)
    city = Hierarchy(
        "city",
        leaves,
        (
            leaves,
            np.array(["=Nord", 'Sud, "x"', 'Sud, "x"', "=Nord"], dtype=object),
            np.array(["*"] * 4, dtype=object),
        ),
    )
    df = pd.DataFrame(
        {"city": ["Nice", "Atlantis", None, "=cmd", "Paris", "Lyon"], "n": [1, 2, 3, 4, 5, 6]},
        index=[10, 11, 12, 13, 14, 15],
    )
    for level in (1, 2):
        text = generalize_columns(df, {"city": city}, {"city": level})
        codes = generalize_columns(df, {"city": city}, {"city": level}, categorical=True)
        assert isinstance(codes["city"].dtype, pd.CategoricalDtype)
        assert codes["city"].cat.categories.is_unique
        assert codes.index.equals(df.index)
        back = codes["city"].astype(object).where(codes["city"].notna(), None)
        assert back.tolist() == text["city"].tolist()
        expected = formula_safe(text).to_csv(index=False).encode("utf-8-sig")
        assert to_csv_bytes(codes) == to_csv_bytes(text) == expected
    # labels that are not text stay an object column
    age = Hierarchy("n", np.arange(1, 7).astype(object), (np.arange(1, 7).astype(object),
                    np.array([0, 0, 0, 5, 5, 5], dtype=object)), numeric=True)  # fmt: skip
    kept = generalize_columns(df, {"n": age}, {"n": 1}, categorical=True)
    assert kept["n"].dtype == object
    assert kept["n"].tolist() == [0, 0, 0, 5, 5, 5]


def test_a_written_csv_is_the_bytes_of_to_csv_bytes(tmp_path):
    # write_table writes the fast path's chunks one after the other (no joined copy)
    df = _frames()["categorical"]
    for suffix, sep in ((".csv", ","), (".tsv", "\t")):
        path = tmp_path / f"t{suffix}"
        write_table(df, path)
        assert path.read_bytes() == formula_safe(df).to_csv(index=False, sep=sep).encode(
            "utf-8-sig"
        )
