"""dRisk and IL1s (riskcore.perturb.utility) against hand-worked values."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from riskcore.errors import RiskcoreError
from riskcore.perturb.utility import (
    NumericRiskUtility,
    drisk,
    drisk_all_inside,
    il1s,
    numeric_risk_utility,
)

X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "y": [10.0, 20.0, 30.0, 40.0]})
XM = pd.DataFrame({"x": [1.5, 2.0, 2.5, 4.0], "y": [10.0, 25.0, 30.0, 40.0]})


def test_drisk_by_hand():
    # x': sd 1.0801, interval half-width 0.054: rows 0 and 2 fall out (1 vs 1.5, 3 vs 2.5).
    # On one column sdcMicro's rule (at most one value outside) counts every record;
    # every value inside: rows 1 and 3.
    assert drisk(X, XM, ["x"]) == 1.0
    assert drisk_all_inside(X, XM, ["x"]) == 0.5
    # y': [10, 25, 30, 40], sd 12.5, half-width 0.625: row 1 (20 vs 25) falls out, so
    # the counts of values outside are [1, 1, 1, 0]: all at most one, only row 3 at 0.
    assert drisk(X, XM, ["x", "y"]) == 1.0
    assert drisk_all_inside(X, XM, ["x", "y"]) == 0.25
    # z': [1, 0, 0, 0], sd 0.5, half-width 0.025: row 0 (0 vs 1) falls out too, so
    # row 0 has two values outside: counts [2, 1, 1, 0].
    x3, xm3 = X.assign(z=[0.0, 0.0, 0.0, 0.0]), XM.assign(z=[1.0, 0.0, 0.0, 0.0])
    assert drisk(x3, xm3, ["x", "y", "z"]) == 0.75
    assert drisk_all_inside(x3, xm3, ["x", "y", "z"]) == 0.25
    # a wider interval (k = 1: half-widths 1.08, 12.5 and 0.5) holds all but z of row 0
    assert drisk_all_inside(x3, xm3, ["x", "y", "z"], k=1.0) == 0.75
    assert drisk(X, X, ["x", "y"]) == drisk_all_inside(X, X, ["x", "y"]) == 1.0  # unperturbed


def test_il1s_by_hand():
    # sd(x) = sqrt(5/3) = 1.29099; changes 0.5 + 0.5 = 1 -> 1 / (1.29099 * sqrt 2)
    assert il1s(X, XM, ["x"]) == pytest.approx(1 / (math.sqrt(5 / 3) * math.sqrt(2)))
    # y: sd 12.9099, change 5 -> 5 / (12.9099 * sqrt 2) = 0.273861
    both = 1 / (math.sqrt(5 / 3) * math.sqrt(2)) + 5 / (math.sqrt(500 / 3) * math.sqrt(2))
    assert il1s(X, XM, ["x", "y"]) == pytest.approx(both)
    assert il1s(X, X, ["x", "y"]) == 0.0


def test_together_and_json():
    res = numeric_risk_utility(X, XM, ["x", "y"])
    assert res.drisk == 1.0 and res.drisk_all_inside == 0.25
    assert res.il1s_per_cell == pytest.approx(res.il1s / 8)
    back = NumericRiskUtility.from_dict(res.to_dict())
    assert back == res
    # a result written before drisk_all_inside existed still loads (NaN: not kept)
    old = {k: v for k, v in res.to_dict().items() if k != "drisk_all_inside"}
    assert math.isnan(NumericRiskUtility.from_dict(old).drisk_all_inside)


def test_missing_values_are_ignored():
    xm = XM.assign(x=[np.nan, 2.0, 2.5, 4.0])
    # x' sd over the known values 1.0408, half-width 0.052: row 0's missing x is ignored
    # (sdcMicro's na.rm = TRUE), row 2 falls out; y: row 1 falls out. Counts [0, 1, 1, 0].
    assert drisk(X, xm, ["x", "y"]) == 1.0
    assert drisk_all_inside(X, xm, ["x", "y"]) == 0.5


def test_bad_input():
    with pytest.raises(RiskcoreError, match="perturbed table has 3 rows and the original 4"):
        drisk(X, XM.iloc[:3], ["x"])
    with pytest.raises(RiskcoreError, match="no column 'z'"):
        il1s(X, XM, ["z"])
