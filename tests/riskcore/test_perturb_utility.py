"""dRisk and IL1s (riskcore.perturb.utility) against hand-worked values."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from riskcore.errors import RiskcoreError
from riskcore.perturb.utility import NumericRiskUtility, drisk, il1s, numeric_risk_utility

X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "y": [10.0, 20.0, 30.0, 40.0]})
XM = pd.DataFrame({"x": [1.5, 2.0, 2.5, 4.0], "y": [10.0, 25.0, 30.0, 40.0]})


def test_drisk_by_hand():
    # x': sd 1.0801, interval half-width 0.054: rows 1 and 3 keep x inside.
    assert drisk(X, XM, ["x"]) == 0.5
    # y': [10, 25, 30, 40], sd 12.5, half-width 0.625: row 1 (20 vs 25) falls out,
    # so on both columns only row 3 is inside everywhere.
    assert drisk(X, XM, ["x", "y"]) == 0.25
    # a wider interval (k = 1: half-widths 1.08 and 12.5) holds every record
    assert drisk(X, XM, ["x", "y"], k=1.0) == 1.0
    assert drisk(X, X, ["x", "y"]) == 1.0  # unperturbed: everyone at risk


def test_il1s_by_hand():
    # sd(x) = sqrt(5/3) = 1.29099; changes 0.5 + 0.5 = 1 -> 1 / (1.29099 * sqrt 2)
    assert il1s(X, XM, ["x"]) == pytest.approx(1 / (math.sqrt(5 / 3) * math.sqrt(2)))
    # y: sd 12.9099, change 5 -> 5 / (12.9099 * sqrt 2) = 0.273861
    both = 1 / (math.sqrt(5 / 3) * math.sqrt(2)) + 5 / (math.sqrt(500 / 3) * math.sqrt(2))
    assert il1s(X, XM, ["x", "y"]) == pytest.approx(both)
    assert il1s(X, X, ["x", "y"]) == 0.0


def test_together_and_json():
    res = numeric_risk_utility(X, XM, ["x", "y"])
    assert res.drisk == 0.25 and res.il1s_per_cell == pytest.approx(res.il1s / 8)
    back = NumericRiskUtility.from_dict(res.to_dict())
    assert back == res


def test_missing_values_are_ignored():
    xm = XM.assign(x=[np.nan, 2.0, 2.5, 4.0])
    # row 0: x missing, y equal: inside everywhere it is known
    assert drisk(X, xm, ["x", "y"]) == 0.5


def test_bad_input():
    with pytest.raises(RiskcoreError, match="perturbed table has 3 rows and the original 4"):
        drisk(X, XM.iloc[:3], ["x"])
    with pytest.raises(RiskcoreError, match="no column 'z'"):
        il1s(X, XM, ["z"])
