"""ui.core.tables.fitted: the column widths that make a wide table fit the main column at 1024 px
(the browser check is tests/app/test_browser_layout.py)."""

from __future__ import annotations

import pandas as pd

from ui.core.safe import md
from ui.core.tables import CHAR_PX, MIN_PX, PAD_PX, drop_empty, fitted


def test_a_narrow_table_is_left_as_it_is():
    df = pd.DataFrame({"a": [1.0], "b": ["x"]})
    given = {"a": {"type_config": {"type": "number"}}}
    assert fitted(df, given) == given


def test_the_widest_columns_are_capped_so_that_the_sum_fits():
    # natural widths by hand: "id" 2 chars -> 2 * 7.5 + 22 = 37 px; "note" 100 chars -> 772 px;
    # "comment" 60 chars -> 472 px; within 300 px "id" keeps 37 (raised to MIN_PX = 60) and the
    # two others share 263: 131 px each
    df = pd.DataFrame({"id": ["1"], "note": ["n" * 100], "comment": ["c" * 60]})
    c = fitted(df, width=300)
    assert c["id"]["width"] == MIN_PX
    assert c["note"]["width"] == c["comment"]["width"] == int((300 - (2 * CHAR_PX + PAD_PX)) / 2)
    assert sum(v["width"] for v in c.values()) <= 300 + MIN_PX - (2 * CHAR_PX + PAD_PX)


def test_a_narrowed_header_keeps_its_name_in_the_tooltip_and_the_given_settings_stay():
    long = "base rate (always guess the commonest)"
    df = pd.DataFrame({long: [0.5], "x": ["y" * 80]})
    c = fitted(df, {long: {"type_config": {"type": "number", "format": "percent"}}}, width=200)
    assert c[long]["help"] == md(long) != long  # escaped: a tooltip is markdown
    assert c[long]["type_config"]["format"] == "percent"
    assert c["x"]["width"] <= 200 and c[long]["width"] <= 200


def test_a_label_given_as_a_string_is_kept():
    df = pd.DataFrame({"n": ["v" * 200]})
    assert fitted(df, {"n": "name"}, width=100)["n"]["label"] == "name"


def test_the_header_measured_is_the_label_shown():
    # "dis_suda" labelled "DIS-SUDA score of the record" (28 chars, 232 px) with 8-character
    # values: within 150 px the column is cut and its label is the tooltip
    df = pd.DataFrame({"dis_suda": [0.25]})
    labels = {"dis_suda": "DIS-SUDA score of the record"}
    assert fitted(df, labels, width=300) == labels  # 232 px fit in 300
    assert fitted(df, labels, width=150)["dis_suda"]["help"] == labels["dis_suda"]


def test_an_empty_column_is_dropped_and_a_filled_one_kept():
    df = pd.DataFrame({"target": ["k", "t"], "note": ["", None], "other": ["", "x"]})
    assert list(drop_empty(df, "note", "other", "absent").columns) == ["target", "other"]
