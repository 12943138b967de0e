"""Readings of the free-text scan: each text column's status, in words and in a table."""

from __future__ import annotations

import pandas as pd

from riskcore.freetext import ColumnScan, TextFinding, scan_text
from riskcore.report.readings import free_text_reading, free_text_table, scan_all_label


def _scans():
    phone = TextFinding("note", "phone", "D", "phone numbers", 3, 2, 2, example="(***) ***-1292")
    return (
        ColumnScan("sex", "clean", 10, 2, 2, 10, 2, (), "", 2),
        ColumnScan("note", "found", 10, 4, 4, 10, 80, (phone,), "", 80),
        ColumnScan("memo", "partial", 10, 9, 3, 4, 50, (), "3 of 9 distinct values", 2_500_000),
    )


def test_table_states_each_column_with_counts_and_the_masked_example_only_when_asked():
    t = free_text_table(_scans())
    assert list(t.columns) == ["column", "status", "found", "read"]
    assert t["status"].tolist() == ["scanned: nothing found", "scanned: identifiers found",
                                    "scanned partly: unchecked"]  # fmt: skip
    assert t["found"].tolist()[1] == "phone numbers (D): 3 in 2 cells, 2 distinct values"
    assert t["read"].tolist()[:2] == ["all 10 cells (2 distinct values)",
                                      "all 10 cells (4 distinct values)"]  # fmt: skip
    assert t["read"].tolist()[2] == (
        "4 of 10 cells (3 of 9 distinct values): the limit of characters per column was reached"
    )
    none = ColumnScan("memo", "not_scanned", 10, 9, why="its first value alone is too long")
    assert free_text_table([none])["read"].tolist() == ["its first value alone is too long"]
    shown = free_text_table(_scans(), examples=True)
    assert list(shown.columns) == ["column", "status", "found", "example", "read"]
    assert shown["example"].tolist() == ["", "(***) ***-1292", ""]


def test_reading_names_the_columns_found_and_the_unchecked_ones():
    text = free_text_reading(_scans())
    assert "The text of the 3 text columns was read by the built-in patterns" in text
    assert "Identifiers are written inside 1 column: note." in text
    assert "1 column was not fully scanned (memo): unchecked, so Safe Harbor cannot pass" in text
    assert free_text_reading(()) is None
    clean = scan_text(pd.DataFrame({"sex": ["F", "M"]})).columns
    assert free_text_reading(clean).endswith("No identifier was found in the text read.")
    assert scan_all_label(_scans()) == "Scan all of the text (2,500,000 characters, about 2 s)"
