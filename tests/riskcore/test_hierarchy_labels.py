"""Hierarchy labels (issues 37, 38): bands whose labels hold their values; codes cut or masked.

Every band label is read back as numbers and checked against its value by hand
(``[a, b)`` holds x when a <= x < b; ``a-b`` when a <= x <= b), so a label that
does not contain its value fails whatever the builder's arithmetic.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from riskcore.deidentify.hierarchy import (
    builder_string,
    hierarchy_from_spec,
    level_words,
    parse_builder,
)
from riskcore.errors import RiskcoreError

AGES = pd.Series([30.0, 31.0, 47.0, 89.0, 0.3, 30.9], name="age")


def holds(label: str, x: float) -> bool:
    """Return whether a band label holds the value x (read from the label's text)."""
    m = re.fullmatch(r"\[(\S+), (\S+)\)", label)
    if m:
        return float(m.group(1)) <= x < float(m.group(2))
    m = re.fullmatch(r"(-?[\d.e+]+)-(-?[\d.e+]+)", label)
    if m:
        return float(m.group(1)) <= x <= float(m.group(2))
    m = re.fullmatch(r"<(\S+)", label)
    if m:
        return x < float(m.group(1))
    m = re.fullmatch(r"(?:>=(\S+)|(\S+)\+)", label)
    assert m, label
    return x >= float(m.group(1) or m.group(2))


def check_labels(series: pd.Series, spec: str) -> list[list[str]]:
    h = hierarchy_from_spec(series, parse_builder(spec))
    for level in h.levels[1:-1]:
        for x, label in zip(h.leaves, level, strict=True):
            assert holds(str(label), float(x)), (spec, x, label)
    return [list(level) for level in h.levels[1:-1]]


def test_a_width_finer_than_the_label_digits_is_written_with_enough_digits():
    # issue 37: interval:0.000001 labelled 30 "[30, 30)"
    levels = check_labels(AGES, "interval:0.000001")
    assert levels[0][:2] == ["[30, 30.000001)", "[31, 31.000001)"]
    # bands of 0.1 then 0.3 from 0: 30.9 lies in [30.9, 31.2) (103 bands of 0.3 is 30.9)
    levels = check_labels(AGES, "interval:0.1,0.3")
    assert levels[1][5] == "[30.9, 31.2)" and levels[0][4] == "[0.3, 0.4)"


def test_a_band_float64_cannot_tell_from_its_neighbour_is_refused_not_mislabelled():
    # near 1e17 float64 numbers are 16 apart: a band of width 1 has no right edge of its own
    big = pd.Series([1e17, 1e17 + 64], name="n")
    with pytest.raises(RiskcoreError, match=r"'n': numbers near 1e\+17 are 16 "
                       r"apart in float64, too coarse for bands of width 1"):  # fmt: skip
        hierarchy_from_spec(big, parse_builder("interval:1;start=1e17"))


@pytest.mark.parametrize(
    "spec",
    [
        "interval:5,10,20;top=90",
        "interval:2.5,5;start=0.1",
        "interval:0.05,0.1;bottom=17.5000001",
        "interval:0.001,0.002;start=-3.0007",
        "interval:7,14;start=-1000000",
    ],
)
def test_every_label_holds_its_value(spec):
    rng = np.random.default_rng(7)
    values = pd.Series([*np.round(rng.uniform(-5, 95, 500), 4).tolist(), 30.0, 17.5, 0.0],
                       name="x")  # fmt: skip
    check_labels(values, spec)


# --- ZIP+4 beside ZIP5 (issue 38): keep the first N characters, or mask from the left ---

MIXED = pd.Series(["02139", "02139-4307", "10001", "10001-2222", "02138-1111"], name="zip")


def test_keeping_the_first_characters_takes_codes_of_different_lengths():
    # issue 38: masking refused ZIP5 beside ZIP+4; keep:5,3 gives ZIP5 then ZIP3 groups
    with pytest.raises(RiskcoreError, match=r"codes of different lengths .* keep the first"):
        hierarchy_from_spec(MIXED, parse_builder("mask:5,7"))
    spec = parse_builder("keep:5,3")
    assert spec == {"kind": "prefix", "params": {"keep": [5, 3]}}
    h = hierarchy_from_spec(MIXED, spec)
    assert [list(level) for level in h.levels[1:]] == [
        ["02139*", "02139*", "10001*", "10001*", "02138*"],
        ["021*", "021*", "100*", "100*", "021*"],
        ["*"] * 5,
    ]
    assert builder_string(h.recipe()) == "keep:5,3;width=10"
    assert [level_words(h.recipe(), lv) for lv in (1, 2)] == [
        "first 5 characters kept",
        "first 3 characters kept",
    ]
    with pytest.raises(RiskcoreError, match=r"each level must keep fewer characters"):
        hierarchy_from_spec(MIXED, parse_builder("keep:3,5"))


def test_masking_from_the_left_keeps_the_last_characters():
    codes = pd.Series(["02139", "10001", "94139"], name="zip")
    spec = parse_builder("mask:2,4;from=left")
    h = hierarchy_from_spec(codes, spec)
    assert [list(level) for level in h.levels[1:-1]] == [
        ["**139", "**001", "**139"],
        ["****9", "****1", "****9"],
    ]
    assert builder_string(h.recipe()) == "mask:2,4;width=5;from=left"
    assert level_words(h, 1) == "last 3 characters kept"
    with pytest.raises(RiskcoreError, match=r"the option from='up' is not one of right, left"):
        parse_builder("mask:1;from=up")


def test_bands_finer_than_float64_can_tell_apart_near_the_values_are_refused():
    # near 1e15 float64 numbers are 0.125 apart: bands of 0.1 there were labelled
    # "[1e+15, 1e+15)" (and bands of 0.1 would be read as 0.125 or 0.25 wide)
    big = pd.Series([1e15 + k * 0.125 for k in range(16)], name="n")
    with pytest.raises(RiskcoreError, match=r"'n': numbers near 1e\+15 are 0.125 "
                       r"apart in float64, too coarse for bands of width 0.1"):  # fmt: skip
        hierarchy_from_spec(big, parse_builder("interval:0.1,0.2;start=1e15"))
    check_labels(big, "interval:1,2;start=1e15")  # whole bands there: the labels hold
