"""The hierarchy builders against ARX CSVs written by hand, the builder string, the preview.

The three files under ``tests/data/`` were typed from their definitions, not written by
the builders: Adult's ages 17-90 in 5-, 10- and 20-year bands from 0 with 90 and over
top-coded ("90+" at every level); Adult's 41 native countries by continent (the
Caribbean and Central America in North America; UCI's "South" taken as South Korea,
Asia; "Outlying-US(Guam-USVI-etc)" with the United States); nine US-format dates at
day, week (Monday to Sunday, cut at the month's ends), month, quarter, year, 5 years
and decade, their weekdays checked with the standard library's calendar.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from riskcore.deidentify.hierarchy import (
    Hierarchy,
    builder_string,
    date_hierarchy,
    detect_date_format,
    grouping_hierarchy,
    interval_hierarchy,
    level_words,
    parse_builder,
    prefix_hierarchy,
    preview,
    read_arx_hierarchy,
    rebuild,
)
from riskcore.deidentify.hierarchy.base import text_of
from riskcore.errors import RiskcoreError
from tests.conftest import shared_file
from tests.riskcore.cases import AGE_CSV, COUNTRY_CSV, DATES_CSV


def rows_of(h: Hierarchy, values: pd.Series) -> dict[str, tuple[str, ...]]:
    """Return {value: its labels at every level} for the values of ``values``."""
    distinct = values.dropna().drop_duplicates()
    leaf = h.leaf_index(distinct)
    assert (leaf >= 0).all(), "a value has no row"
    out = {}
    for v, i in zip(distinct, leaf, strict=True):
        out[text_of(v)] = tuple(text_of(lv[i]) for lv in h.levels[1:])
    return out


@pytest.fixture(scope="module")
def adult() -> pd.DataFrame:
    return pd.read_csv(shared_file("adult.csv"))


# ------------------------------------------------------------------ Adult, by hand


def test_age_bands_of_5_10_20_with_top_coding_match_the_hand_written_file(adult):
    hand = read_arx_hierarchy(AGE_CSV.read_text(), "age", numeric=True)
    built = interval_hierarchy(adult["age"], [5, 10, 20], top=90)
    assert built.height == hand.height == 4
    assert rows_of(built, adult["age"]) == rows_of(hand, adult["age"])
    # the builder string of the CLI gives the same
    spec = parse_builder("interval:5,10,20;top=90")
    assert rows_of(rebuild(adult["age"], spec), adult["age"]) == rows_of(hand, adult["age"])


def test_native_country_by_continent_matches_the_hand_written_file(adult):
    series = adult["native-country"]
    hand = read_arx_hierarchy(COUNTRY_CSV.read_text(), "native-country")
    continents = {  # a mapping table written the other way round: group -> members
        "North America": "United-States Canada Mexico Outlying-US(Guam-USVI-etc) Puerto-Rico "
        "Cuba Dominican-Republic Haiti Jamaica Trinadad&Tobago El-Salvador Guatemala Honduras "
        "Nicaragua",
        "South America": "Columbia Ecuador Peru",
        "Europe": "England Scotland Ireland France Germany Holand-Netherlands Italy Portugal "
        "Greece Hungary Poland Yugoslavia",
        "Asia": "China Hong Taiwan Japan South Philippines Vietnam Laos Cambodia Thailand "
        "India Iran",
    }
    mapping = {c: group for group, members in continents.items() for c in members.split()}
    built = grouping_hierarchy(series, [mapping])
    assert set(hand.leaves) == set(series.dropna())  # the file names every country, once
    assert rows_of(built, series) == rows_of(hand, series)
    assert rows_of(built, series)["South"] == ("Asia", "*")


def test_us_dates_match_the_hand_written_file_and_the_format_is_stated():
    hand = read_arx_hierarchy(DATES_CSV.read_text(), "admitted")
    values = pd.Series([*hand.leaves, None, "3/1/2024"], name="admitted")
    fmt = detect_date_format(values)
    assert fmt is not None and fmt.name == "US MM/DD/YYYY" and fmt.strptime == "%m/%d/%Y"
    levels = ["day", "week", "month", "quarter", "year", "5y", "decade"]
    built = date_hierarchy(values, levels)
    assert rows_of(built, values) == rows_of(hand, values)
    spec = parse_builder("date:day,week,month,quarter,year,5y,10y")
    assert rows_of(rebuild(values, spec), values) == rows_of(hand, values)


# ------------------------------------------------------------------ each builder


def test_intervals_start_offset_bottom_coding_and_label_styles():
    ages = pd.Series([3, 17, 18, 24, 25, 33, 67], name="age")
    h = interval_hierarchy(ages, [5, 10], start=3, bottom=18, labels="range")
    # by hand: bands [3 + 5j, 8 + 5j): 18 -> 18-22, 24 -> 23-27, 25 -> 23-27, 33 -> 33-37;
    # bands of 10 from 3: 18 -> 13-22, 24 -> 23-32, 33 -> 33-42; below 18: "<18"
    assert rows_of(h, ages) == {
        "3": ("<18", "<18", "*"), "17": ("<18", "<18", "*"), "18": ("18-22", "13-22", "*"),
        "24": ("23-27", "23-32", "*"), "25": ("23-27", "23-32", "*"),
        "33": ("33-37", "33-42", "*"), "67": ("63-67", "63-72", "*"),
    }  # fmt: skip
    half = interval_hierarchy(ages, [10], top=60, labels="interval")
    assert rows_of(half, ages)["24"] == ("[20, 30)", "*")
    assert rows_of(half, ages)["67"] == (">=60", "*")
    assert half.params["labels"] == "interval" and h.params["labels"] == "range"
    assert "labels" not in interval_hierarchy(ages, [5]).recipe()["params"]  # auto: as before
    with pytest.raises(RiskcoreError, match="range labels such as 30-39 need whole numbers"):
        interval_hierarchy(pd.Series([1.5], name="x"), [1], labels="range")
    with pytest.raises(RiskcoreError, match="label style must be one of"):
        interval_hierarchy(ages, [5], labels="roman")  # type: ignore[arg-type]


def test_masking_from_the_right_keeps_leading_zeros_and_takes_the_levels_given():
    zips = pd.Series(["02139", "02142", "10001", None], name="zip")
    h = prefix_hierarchy(zips, masked=[1, 2, 3])
    assert rows_of(h, zips) == {
        "02139": ("0213*", "021**", "02***", "*"),
        "02142": ("0214*", "021**", "02***", "*"),
        "10001": ("1000*", "100**", "10***", "*"),
    }
    assert [level_words(h, lv) for lv in range(5)] == [
        "kept as recorded", "first 4 characters kept", "first 3 characters kept",
        "first 2 characters kept", "removed (*)",
    ]  # fmt: skip
    # ZIP5 straight to ZIP3; a ZIP read as a number gets its zero back
    numeric = prefix_hierarchy(pd.Series([2139, 10001], name="zip"), masked=[2])
    assert [list(lv) for lv in numeric.levels[1:]] == [["021**", "100**"], ["*", "*"]]
    with pytest.raises(RiskcoreError, match=r"each level masks from 1 to 4 of its 5 characters"):
        prefix_hierarchy(zips, masked=[1, 5])
    with pytest.raises(RiskcoreError, match="more characters than the one below"):
        prefix_hierarchy(zips, masked=[2, 2])


@pytest.mark.parametrize(
    ("values", "name", "day"),
    [
        (["2024-03-04", "1999-12-31"], "ISO YYYY-MM-DD", "2024-03-04"),
        (["2024-03-04 13:45", "1999-12-31 08:00"], "ISO YYYY-MM-DD and time", "2024-03-04"),
        (["2024-03-04T13:45:10", "1999-12-31T08:00:00"], "ISO YYYY-MM-DD and time",
         "2024-03-04"),
        (["3/4/2024", "12/31/1999"], "US MM/DD/YYYY", "2024-03-04"),
        (["3/4/2024 13:45", "12/31/1999 8:00"], "US MM/DD/YYYY and time", "2024-03-04"),
        (["4/3/2024", "31/12/1999"], "DD/MM/YYYY", "2024-03-04"),
        (["04.03.2024", "31.12.1999"], "DD.MM.YYYY", "2024-03-04"),
    ],
)  # fmt: skip
def test_date_formats_are_detected_and_named(values, name, day):
    series = pd.Series(values, name="d")
    fmt = detect_date_format(series)
    assert fmt is not None and fmt.name == name
    h = date_hierarchy(series, ["day", "quarter"])
    assert h.levels[1][0] == day and h.levels[2][0] == "2024-Q1"


def test_mixed_or_not_date_text_is_no_format_and_date_levels_are_checked():
    assert detect_date_format(pd.Series(["2024-03-04", "3/4/2024"])) is None
    assert detect_date_format(pd.Series(["2024-03-04", "2024-03-04 10:00"])) is None
    assert detect_date_format(pd.Series(["soon"])) is None
    s = pd.Series(["2024-03-04"], name="d")
    with pytest.raises(RiskcoreError, match="'fortnight' is not one"):
        date_hierarchy(s, ["fortnight"])
    with pytest.raises(RiskcoreError, match="from fine to coarse"):
        date_hierarchy(s, ["year", "month"])


def test_weeks_nest_in_months_so_every_level_is_a_coarsening():
    days = pd.Series(pd.date_range("2023-12-01", "2025-01-31", freq="D").strftime("%Y-%m-%d"))
    h = date_hierarchy(days.rename("d"), ["day", "week", "month", "quarter", "year", "5y"])
    weeks = pd.Series(h.levels[2])
    # a week is at most 7 days and at least 1; 2024-03-01 (a Friday) starts a 3-day week
    sizes = weeks.value_counts()
    assert sizes.max() == 7 and sizes["2024-03-01 to 2024-03-03"] == 3


# ------------------------------------------------------------------ preview


def test_preview_counts_the_records_of_each_group_by_hand():
    ages = pd.Series([23, 27, 27, 34, 91, None, 23], name="age")
    h = interval_hierarchy(ages, [10], top=90)
    p = preview(h, ages)
    assert (p.records, p.missing, p.unmatched) == (6, 1, 0)
    assert p.levels[0].groups == ("23", "27", "34", "91")
    assert p.levels[0].records == (2, 2, 1, 1)
    assert p.levels[1].groups == ("20-29", "30-39", "90+")
    assert p.levels[1].records == (4, 1, 1)
    assert p.levels[2].groups == ("*",) and p.levels[2].records == (6,)
    summary = p.summary()
    assert summary["groups"].tolist() == [4, 3, 1]
    assert summary["smallest group"].tolist() == [1, 1, 6]
    assert p.groups(1)["records"].sum() == 6
    assert type(p).from_dict(p.to_dict()) == p
    # a value the hierarchy lacks is counted apart, in no group
    assert preview(h, pd.Series([23, 55], name="age")).unmatched == 1
    # groups without a record in the column are not listed
    assert preview(h, pd.Series([23], name="age")).levels[1].groups == ("20-29",)


def test_preview_of_adult_age_agrees_with_an_independent_count(adult):
    h = interval_hierarchy(adult["age"], [5, 10, 20], top=90)
    p = preview(h, adult["age"])
    age = adult["age"]
    twenty = np.where(age >= 90, "90+", (age // 20 * 20).astype(str) + "-"
                      + (age // 20 * 20 + 19).astype(str))  # fmt: skip
    expected = pd.Series(twenty).value_counts()
    got = dict(zip(p.levels[3].groups, p.levels[3].records, strict=True))
    assert got == expected.to_dict()
    assert sum(p.levels[1].records) == len(adult)


# ------------------------------------------------------------------ the builder string


def test_builder_strings_parse_to_the_recipe_spec_and_back():
    cases = {
        "interval:5,10,20;top=90": {"kind": "interval", "params": {
            "widths": [5.0, 10.0, 20.0], "start": 0.0, "bottom": None, "top": 90.0}},
        "date:month,year,5y": {"kind": "date", "params": {"levels": ["month", "year", "5y"]}},
        "mask:1,2,3": {"kind": "prefix", "params": {"masked": [1, 2, 3]}},
        "flat": {"kind": "flat", "params": {}},
    }  # fmt: skip
    for text, spec in cases.items():
        assert parse_builder(text) == spec
        assert builder_string(spec) == text
    assert parse_builder(" Interval: 5 ; start=3 ; labels=interval ")["params"] == {
        "widths": [5.0],
        "start": 3.0,
        "bottom": None,
        "top": None,
        "labels": "interval",
    }
    assert parse_builder("date:10y")["params"] == {"levels": ["decade"]}
    assert parse_builder("countries.csv") is None  # a file stays a file
    assert parse_builder("C:\\hierarchies\\zip.csv") is None
    assert builder_string({"kind": "table", "rows": []}) is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("interval:5,x", r"^in the hierarchy 'interval:5,x', the width 'x' is not a number$"),
        ("interval:5,,10", "write the widths separated by commas, with none empty"),
        ("interval:5;top=old", "the top 'old' is not a number"),
        ("interval:5;colour=red", r"'colour=red' is not an option of interval \(options: "
         "start=, bottom=, top=, labels=\\)"),
        ("interval:5;labels=roman", "labels='roman' is not one of auto, range, interval"),
        ("interval:5;top=", "the option top= has no value"),
        ("date:month,fortnight", "'fortnight' is not a date level"),
        ("mask:1,two", "the count of masked characters 'two' is not a number"),
        ("mask:0", "'0' is not a whole number of 1 or more"),
        ("flat:3", "flat takes no arguments"),
    ],
)  # fmt: skip
def test_a_bad_builder_string_is_a_sentence_naming_the_part(text, message):
    with pytest.raises(RiskcoreError, match=message):
        parse_builder(text)
