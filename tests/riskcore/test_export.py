"""Formula-safe CSV export (OWASP CSV injection, CWE-1236)."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd

from riskcore.io.export import formula_safe, to_csv_bytes


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
