"""The shared validators as the metrics use them: type errors, range errors, quoted values."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

from riskcore._validation import RANGES, check_fraction, check_range, check_unit_interval
from riskcore.metrics import Population, assess
from riskcore.metrics.population import population_uniqueness
from riskcore.metrics.uniqueness import subset_uniqueness

#: Each range of the validators' table: values inside it, on its open ends and outside it.
ENDS = {
    "positive": ([1e-300, math.inf], [0, -1e-300]),
    "finite": ([-1e300, 0], [math.inf, -math.inf]),
    "positive and finite": ([1e-300, 1e300], [0, math.inf]),
    "(0, 1)": ([1e-300, 0.5], [0, 1]),
    "(0, 1]": ([1e-300, 1], [0, 1.5]),
    "[0, 1]": ([0, 1], [-1e-300, 1.1]),
}


def test_every_range_of_the_table_is_checked_here():
    assert set(ENDS) == set(RANGES)


@pytest.mark.parametrize("key", sorted(ENDS))
def test_each_range_keeps_its_closed_ends_and_refuses_its_open_ends_and_nan(key):
    inside, outside = ENDS[key]
    for value in inside:
        assert check_range("x", value, key) == float(value)
    words = re.escape(RANGES[key][1])
    for value in [*outside, math.nan]:
        with pytest.raises(ValueError, match=rf"^x must be {words}, got "):
            check_range("x", value, key)


def test_the_first_range_failed_names_the_message():
    with pytest.raises(ValueError, match=r"^l2 must be positive, got -inf$"):
        check_range("l2", -math.inf, "positive", "finite")
    with pytest.raises(ValueError, match=r"^l2 must be finite, got inf$"):
        check_range("l2", math.inf, "positive", "finite")


@pytest.mark.parametrize("value", [1e-9, 0.5, 1, np.float32(0.25), np.int64(1)])
def test_fraction_accepts_the_half_open_unit_interval(value):
    assert check_fraction("pi", value) == pytest.approx(float(value))


@pytest.mark.parametrize("value", [0, -0.1, 1.0000001, math.nan, math.inf])
def test_fraction_refuses_values_outside_it(value):
    with pytest.raises(ValueError, match=r"^pi must be in \(0, 1\], got "):
        check_fraction("pi", value)


@pytest.mark.parametrize("value", [0, 0.0, 1, 0.09])
def test_unit_interval_includes_both_ends(value):
    assert check_unit_interval("threshold", value) == float(value)


@pytest.mark.parametrize("value", [-1e-12, 1.5, math.nan])
def test_unit_interval_refuses_nan_and_values_outside(value):
    with pytest.raises(ValueError, match=r"^threshold must be in \[0, 1\]"):
        check_unit_interval("threshold", value)


@pytest.mark.parametrize("value", [True, "0.5", None])
def test_wrong_types_are_type_errors_quoting_the_value(value):
    with pytest.raises(TypeError, match=rf"^pi must be a real number, got {value!r}$"):
        check_fraction("pi", value)


def test_metrics_validate_at_their_boundary():
    df = pd.DataFrame({"a": [1, 1, 2], "b": ["x", "y", "y"]})
    with pytest.raises(ValueError, match=r"^threshold must be in \[0, 1\], got nan$"):
        assess(df, quasi_identifiers=["a"], threshold=math.nan)
    with pytest.raises(ValueError, match=r"^sampling_fraction must be in \(0, 1\], got 2$"):
        Population(sampling_fraction=2)
    with pytest.raises(TypeError, match=r"^sampling_fraction must be a real number, got '0.1'$"):
        population_uniqueness([1, 2], "0.1")
    with pytest.raises(ValueError, match=r"^max_size must be an integer >= 1, got 0$"):
        subset_uniqueness(df, ["a", "b"], max_size=0)
