"""k after local suppression judged through riskcore.criteria (riskcore.perturb.k_verdict)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from riskcore.errors import RiskcoreError
from riskcore.perturb import k_verdict, local_suppression
from tests.riskcore.sdc_reference import fk_any


def test_by_hand():
    # f_k, a blank matching any value: (1,1) 2, (1,2) 2, (1,NaN) 3, (2,3) 1
    df = pd.DataFrame({"a": [1, 1, 1, 2], "b": [1.0, 2.0, np.nan, 3.0]})
    v = k_verdict(df, ["a", "b"], 2)
    assert not v.passed and v.needed == 1 and v.checks[0].achieved == 1.0
    assert v.checks[0].kind == "k-anonymity"
    v = k_verdict(df.iloc[:3], ["a", "b"], 2)
    assert v.passed and v.needed == 0 and v.checks[0].achieved == 2.0


def test_after_local_suppression_agrees_with_the_naive_count():
    rng = np.random.default_rng(3)
    df = pd.DataFrame(rng.integers(0, 4, size=(60, 3)), columns=["a", "b", "c"])
    mat = df.to_numpy(dtype=float)
    assert k_verdict(df, ["a", "b", "c"], 3).needed == int((fk_any(mat) < 3).sum()) > 0
    res = local_suppression(df, ["a", "b", "c"], 3)
    v = k_verdict(res.data, ["a", "b", "c"], 3)
    assert v.passed and v.needed == 0
    assert v.checks[0].achieved == res.smallest_count


def test_bad_input():
    with pytest.raises(RiskcoreError, match="no column 'z'"):
        k_verdict(pd.DataFrame({"a": [1]}), ["z"], 2)
