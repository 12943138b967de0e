"""Readings of the hierarchy builder: the date form stated, the preview in a sentence, the
command-line equivalent quoted for the shell."""

from __future__ import annotations

import pandas as pd

from riskcore.deidentify.hierarchy import (
    detect_date_format,
    interval_hierarchy,
    parse_builder,
    preview,
)
from riskcore.report.readings.hierarchy import (
    cli_equivalent,
    date_format_reading,
    preview_reading,
)


def test_the_date_form_is_stated_with_an_example_of_its_order():
    us = detect_date_format(pd.Series(["12/31/1999"]))
    eu = detect_date_format(pd.Series(["31/12/1999"]))
    assert date_format_reading("admitted", us, stored_as_dates=False) == (
        "admitted is read as US MM/DD/YYYY dates (03/04/2024 is 4 March 2024)."
    )
    assert date_format_reading("admitted", eu, stored_as_dates=False) == (
        "admitted is read as DD/MM/YYYY dates (03/04/2024 is 3 April 2024)."
    )
    assert "not written one common way" in date_format_reading("d", None, stored_as_dates=False)
    assert "stored as dates" in date_format_reading("d", None, stored_as_dates=True)


def test_the_preview_sentence_counts_groups_missing_and_unknown_values():
    ages = pd.Series([23, 27, 34, None], name="age")
    h = interval_hierarchy(ages, [10])
    # by hand: level 1 is 20-29 (2 records) and 30-39 (1); level 2 is * (3)
    assert preview_reading(preview(h, ages)) == (
        "Level 1 makes 2 groups (the smallest holds 1 record); level 2 makes 1 group (the "
        "smallest holds 3 records). Missing values (1 record) stay missing at every level."
    )
    other = pd.Series([23, 55, 56], name="age")
    assert preview_reading(preview(h, other)).endswith(
        "Values the hierarchy does not know: 2 records."
    )


def test_the_command_line_equivalent_is_quoted_for_the_shell_and_parses_back():
    assert cli_equivalent("age", "interval:5,10;top=90") == (
        "--hierarchy 'age=interval:5,10;top=90'"
    )
    assert cli_equivalent("o'clock", "flat") == "--hierarchy 'o'\\''clock=flat'"
    assert cli_equivalent("x", None) is None
    assert parse_builder("interval:5,10;top=90")["params"]["top"] == 90
