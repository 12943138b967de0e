"""Property tests over random tables with NaNs and shuffled, non-range indexes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riskcore.metrics import assess
from tests.riskcore.reference import reference_assessment

VALUES = {
    "a": st.sampled_from(["x", "y", "z", None]),
    "b": st.sampled_from([1.0, 2.0, np.nan]),
    "c": st.sampled_from(["p", "q"]),
    "s_cat": st.sampled_from(["flu", "hiv", "cold", None]),
    "s_num": st.sampled_from([10, 20, 30, 45, 70]),
    "s_ord": st.sampled_from(["low", "mid", "high", None]),
    "s_nan": st.sampled_from([1.5, 2.5, 4.0, np.nan]),
}
ORDER = ["low", "mid", "high"]


@st.composite
def tables(draw):
    n = draw(st.integers(min_value=1, max_value=40))
    data = {k: draw(st.lists(v, min_size=n, max_size=n)) for k, v in VALUES.items()}
    df = pd.DataFrame(data)
    df["s_num"] = df["s_num"].astype("int64")
    index = draw(st.sampled_from(["range", "shuffled", "strings"]))
    if index == "shuffled":
        df.index = np.random.default_rng(n).permutation(n) + 100
    elif index == "strings":
        df.index = [f"r{i}" for i in range(n)][::-1]
    return df


SETTINGS = settings()  # the profile of tests/conftest.py (100 examples in CI)


@SETTINGS
@given(tables(), st.sampled_from([1.5, 2.0, 3.0]))
def test_matches_independent_reference(df, c):
    qis = ["a", "b", "c"]
    sens = ["s_cat", "s_num", "s_ord", "s_nan"]
    got = assess(df, quasi_identifiers=qis, sensitive=sens, c=c, order={"s_ord": ORDER}).to_dict()
    ordered = {"s_num": None, "s_ord": ORDER, "s_nan": None}  # missing: both ends, larger t
    ref = reference_assessment(df, qis, sens, c=c, ordered=ordered)
    for key in ("n_records", "n_classes", "k", "unique_records"):
        assert got[key] == ref[key]
    for key, v in ref["prosecutor"].items():
        assert got["prosecutor"][key] == pytest.approx(v)
    for s, vals in ref["sensitive"].items():
        for key, v in vals.items():
            assert got["sensitive"][s][key] == pytest.approx(v, abs=1e-9), (s, key)


@SETTINGS
@given(tables())
def test_invariants(df):
    full = assess(df, quasi_identifiers=["a", "b", "c"], sensitive=["s_cat", "s_num"])
    d = full.to_dict()
    assert d["prosecutor"]["success_rate"] == pytest.approx(d["n_classes"] / d["n_records"])
    for s in d["sensitive"].values():
        assert s["entropy_l"] <= s["distinct_l"] + 1e-9
        assert 0.0 <= s["t_closeness"] <= 1.0
        assert 1 <= s["recursive_l"] <= s["distinct_l"]
    # k never drops when a QI is removed
    for drop in ("a", "b", "c"):
        rest = [q for q in ("a", "b", "c") if q != drop]
        assert assess(df, quasi_identifiers=rest).k >= full.k


@SETTINGS
@given(tables(), st.integers(min_value=0, max_value=2**31))
def test_shuffling_rows_changes_nothing(df, seed):
    shuffled = df.sample(frac=1.0, random_state=seed % (2**32 - 1))
    args = {"quasi_identifiers": ["a", "b", "c"], "sensitive": ["s_cat", "s_num"]}
    d1 = assess(df, **args).to_dict()
    d2 = assess(shuffled, **args).to_dict()
    assert d1.keys() == d2.keys()
    for key in ("n_records", "n_classes", "k", "unique_records", "class_size_distribution"):
        assert d1[key] == d2[key]
    for s in d1["sensitive"]:
        for key, v in d1["sensitive"][s].items():
            assert d2["sensitive"][s][key] == pytest.approx(v)


@SETTINGS
@given(tables(), st.sampled_from([["a"], ["a", "b"], ["a", "b", "c"], ["c", "b"]]))
def test_an_independent_engine_gives_identical_figures(df, qis):
    from tests.riskcore.reference import GroupbyEngine

    args = {"quasi_identifiers": qis, "sensitive": ["s_cat", "s_num"]}
    ours = assess(df, **args).to_dict()
    theirs = assess(GroupbyEngine(df), **args).to_dict()
    assert ours.pop("engine") == "memory" and theirs.pop("engine") == "groupby"
    _assert_close(ours, theirs)


def _assert_close(a, b, path="$"):
    """Compare two JSON values: floats to 1e-12, everything else exactly."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), path
        for k in a:
            _assert_close(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _assert_close(x, y, f"{path}[{i}]")
    elif isinstance(a, float):
        assert b == pytest.approx(a, abs=1e-12), path
    else:
        assert a == b, path
