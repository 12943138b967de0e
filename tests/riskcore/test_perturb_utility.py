"""dRisk and IL1s (riskcore.utility.numeric) against hand-worked values."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from riskcore.errors import RiskcoreError
from riskcore.utility.numeric import (
    NumericRiskUtility,
    drisk,
    drisk_all_inside,
    il1s,
    numeric_risk_utility,
)

X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "y": [10.0, 20.0, 30.0, 40.0]})
XM = pd.DataFrame({"x": [1.5, 2.0, 2.5, 4.0], "y": [10.0, 25.0, 30.0, 40.0]})


def test_drisk_by_hand():
    # sdcMicro 5.8.1's dRiskWORK (R/dRisk.R at cf32510, unchanged since c2022f6 of
    # 2020-09-30): w <- rowSums(x < mi | x > ma, na.rm = TRUE) == 0; mean(w), a record
    # counted only when every value lies inside its interval.
    # x': sd 1.0801, interval half-width 0.054: rows 0 and 2 fall out (1 vs 1.5, 3 vs 2.5);
    # rows 1 and 3 are inside.
    assert drisk(X, XM, ["x"]) == 0.5
    # y': [10, 25, 30, 40], sd 12.5, half-width 0.625: row 1 (20 vs 25) falls out, so
    # the counts of values outside are [1, 1, 1, 0]: only row 3 has none (the rule of
    # sdcMicro 5.5.1 and before, at most one outside, gave 1.0).
    assert drisk(X, XM, ["x", "y"]) == 0.25
    # z': [1, 0, 0, 0], sd 0.5, half-width 0.025: row 0 (0 vs 1) falls out too:
    # counts [2, 1, 1, 0].
    x3, xm3 = X.assign(z=[0.0, 0.0, 0.0, 0.0]), XM.assign(z=[1.0, 0.0, 0.0, 0.0])
    assert drisk(x3, xm3, ["x", "y", "z"]) == 0.25
    # a wider interval (k = 1: half-widths 1.08, 12.5 and 0.5) holds all but z of row 0
    assert drisk(x3, xm3, ["x", "y", "z"], k=1.0) == 0.75
    assert drisk(X, X, ["x", "y"]) == 1.0  # unperturbed


def test_il1s_by_hand():
    # sd(x) = sqrt(5/3) = 1.29099; changes 0.5 + 0.5 = 1 -> 1 / (1.29099 * sqrt 2)
    assert il1s(X, XM, ["x"]) == pytest.approx(1 / (math.sqrt(5 / 3) * math.sqrt(2)))
    # y: sd 12.9099, change 5 -> 5 / (12.9099 * sqrt 2) = 0.273861
    both = 1 / (math.sqrt(5 / 3) * math.sqrt(2)) + 5 / (math.sqrt(500 / 3) * math.sqrt(2))
    assert il1s(X, XM, ["x", "y"]) == pytest.approx(both)
    assert il1s(X, X, ["x", "y"]) == 0.0


def test_together_and_json():
    res = numeric_risk_utility(X, XM, ["x", "y"])
    assert res.drisk == 0.25
    assert res.il1s_per_cell == pytest.approx(res.il1s / 8)
    back = NumericRiskUtility.from_dict(res.to_dict())
    assert back == res
    assert "drisk_all_inside" not in res.to_dict()
    # riskcore 0.2.0's drisk followed the pre-2020 rule and kept today's figure as
    # drisk_all_inside: such a result is read back with that as drisk
    old = {**res.to_dict(), "schema_version": 1, "drisk": 1.0, "drisk_all_inside": 0.25}
    assert NumericRiskUtility.from_dict(old) == res
    # the old name still answers, with a warning
    with pytest.warns(DeprecationWarning, match="drisk_all_inside is deprecated"):
        assert res.drisk_all_inside == res.drisk
    with pytest.warns(DeprecationWarning, match="drisk_all_inside is deprecated"):
        assert drisk_all_inside(X, XM, ["x", "y"]) == 0.25


def test_missing_values_are_ignored():
    xm = XM.assign(x=[np.nan, 2.0, 2.5, 4.0])
    # x' sd over the known values 1.0408, half-width 0.052: row 0's missing x is ignored
    # (sdcMicro's na.rm = TRUE), row 2 falls out; y: row 1 falls out. Counts [0, 1, 1, 0].
    assert drisk(X, xm, ["x", "y"]) == 0.5


def test_bad_input():
    with pytest.raises(RiskcoreError, match="perturbed table has 3 rows and the original 4"):
        drisk(X, XM.iloc[:3], ["x"])
    with pytest.raises(RiskcoreError, match="no column 'z'"):
        il1s(X, XM, ["z"])


def test_a_0_2_0_result_reads_with_todays_drisk():
    """dRisk and IL1s as riskcore 0.2.0 wrote them (version 1, by hand): ``drisk`` by the
    pre-2020 rule, today's figure as ``drisk_all_inside``; read as version 2's ``drisk``."""
    old = json.loads(
        '{"schema_version": 1, "columns": ["x", "y"], "drisk": 1.0, "il1s": 1.5,'
        ' "il1s_per_cell": 0.1875, "k": 0.05, "drisk_all_inside": 0.25}'
    )
    back = NumericRiskUtility.from_dict(old)
    assert (back.drisk, back.il1s, back.columns) == (0.25, 1.5, ("x", "y"))
    assert back.to_dict()["schema_version"] == 2 and "drisk_all_inside" not in back.to_dict()
    # a version-2 result is read as written
    assert NumericRiskUtility.from_dict(back.to_dict()) == back
