"""Microaggregation (riskcore.perturb.microaggregation): MDAV as sdcMicro runs it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from riskcore.errors import RiskcoreError
from riskcore.perturb.microaggregation import Microaggregation, microaggregate
from tests.riskcore.sdc_reference import mdav_like_sdcmicro, mdav_like_sdcmicro_missing

DATA = Path(__file__).resolve().parents[1] / "data" / "sdcmicro"


def test_hand_worked_three_clusters():
    # centroid 11; rows 0 (value 0) and 8 (22) are equally far: the first, row 0, is r.
    # Group 1: the 3 closest to 0; s = 22, group 2: the 3 closest to 22; the rest is group 3.
    v = [0, 1, 2, 10, 11, 12, 20, 21, 22]
    df = pd.DataFrame({"a": v, "b": v, "other": list("abcdefghi")})
    res = microaggregate(df, ["a", "b"], 3)
    assert res.data["a"].tolist() == [1.0] * 3 + [11.0] * 3 + [21.0] * 3
    assert res.groups.tolist() == [0, 0, 0, 2, 2, 2, 1, 1, 1]
    assert (res.n_groups, res.smallest_group, res.largest_group) == (3, 3, 3)
    assert res.data["other"].tolist() == list("abcdefghi")


def test_standardized_distance_by_hand_and_scale_free():
    # a: var 0.25; b: var 666,666.7 (values 0, 1000, 2000). Standardized distances from
    # row 0 (the first of the rows farthest from the centroid (0.5, 1000), at 2.5):
    # row 1: 1.5, row 3: 4, row 4: 5.5, row 2: 6, row 5: 10 -> group {0, 1, 3}.
    # Unstandardized, b decides: {0, 3, 1} too, but rescaled b (x 1e-6) the groups
    # would follow a alone; standardized, a rescaling changes nothing.
    df = pd.DataFrame({"a": [0, 0, 0, 1, 1, 1], "b": [0, 1000, 2000, 0, 1000, 2000]})
    res = microaggregate(df, ["a", "b"], 3)
    assert res.groups.tolist() == [0, 0, 1, 0, 1, 1]
    small = df.assign(b=df["b"] * 1e-6)
    assert microaggregate(small, ["a", "b"], 3).groups.tolist() == res.groups.tolist()
    big = pd.read_csv(DATA / "testdata.csv").iloc[:300]
    cols = ["expend", "income", "savings"]
    base = microaggregate(big, cols, 3).groups
    scaled = big.assign(income=big["income"] * 1e-4, savings=big["savings"] * 50)
    assert (microaggregate(scaled, cols, 3).groups == base).all()


@pytest.mark.parametrize("k", [2, 3])
def test_francdat_matches_the_reference(k):
    df = pd.read_csv(DATA / "francdat.csv")
    cols = ["Num1", "Num2", "Num3"]
    res = microaggregate(df, cols, k)
    expected = mdav_like_sdcmicro(df[cols].to_numpy(dtype=float), k)
    np.testing.assert_allclose(res.data[cols].to_numpy(), expected, rtol=1e-12)
    assert res.smallest_group >= k


def test_testdata_matches_the_reference():
    df = pd.read_csv(DATA / "testdata.csv").iloc[:600]
    cols = ["expend", "income", "savings"]
    res = microaggregate(df, cols, 3)
    expected = mdav_like_sdcmicro(df[cols].to_numpy(dtype=float), 3)
    np.testing.assert_allclose(res.data[cols].to_numpy(), expected, rtol=1e-12)
    sizes = np.bincount(res.groups)
    assert sizes.min() >= 3 and sizes.max() <= 5
    # the means of the groups keep every column's total
    np.testing.assert_allclose(res.data[cols].sum(), df[cols].sum(), rtol=1e-12)


def test_single_variable_is_sdcmicros_fast_method():
    # sorted 1, 2, 3 | 4, 5, 6, 7 (the last group takes the remainder)
    df = pd.DataFrame({"x": [7, 1, 4, 2, 6, 3, 5]})
    res = microaggregate(df, ["x"], 3)
    assert res.method == "single"
    assert res.data["x"].tolist() == [5.5, 2.0, 5.5, 2.0, 5.5, 2.0, 5.5]


def test_json_round_trip():
    df = pd.DataFrame({"a": range(10), "b": range(10)})
    res = microaggregate(df, ["a", "b"], 3)
    back = Microaggregation.from_dict(res.to_dict())
    assert back.n_groups == res.n_groups and back.columns == ("a", "b")


@pytest.mark.parametrize(
    ("columns", "k", "message"),
    [
        (["a", "zz"], 2, "no column 'zz'"),
        (["a", "d"], 2, "needs numbers in 'd'; 1 rows hold something else"),
        (["a", "e"], 2, "'e' has no value to aggregate"),
        (["a", "b"], 9, "k = 9 is more than the 4 records"),
    ],
)
def test_bad_input(columns, k, message):
    df = pd.DataFrame(
        {"a": [1, 2, 3, 4], "b": [1, 2, 3, 4], "d": [1, "x", 3, 4], "e": [None] * 4}
    )
    with pytest.raises(RiskcoreError, match=message):
        microaggregate(df, columns, k)


def test_ties_take_the_later_row_first():
    # n = 5, k = 2: one group around r = 9 (row 4), the farthest from the centroid 2.4.
    # The three 1s (rows 1-3) are equally close to 9: sdcMicro's hash sort takes row 3.
    df = pd.DataFrame({"a": [0, 1, 1, 1, 9], "b": [0, 1, 1, 1, 9]})
    assert microaggregate(df, ["a", "b"], 2).groups.tolist() == [1, 1, 1, 0, 0]


def test_mdav_past_its_row_limit_is_refused_before_it_starts(monkeypatch):
    from riskcore.errors import RiskcoreError
    from riskcore.perturb import microaggregation as ma

    def never(*args, **kwargs):
        raise AssertionError("MDAV started")

    monkeypatch.setattr(ma, "MDAV_MAX_ROWS", 5)
    monkeypatch.setattr(ma, "mdav_groups", never)
    df = pd.DataFrame({"a": range(6), "b": range(6)})
    with pytest.raises(RiskcoreError, match="MDAV on 6 records is past its limit of 5"):
        microaggregate(df, ["a", "b"], 2)
    # one column: the single-variable method, a sort, has no limit
    assert microaggregate(df, ["a"], 2).n_groups == 3


def _same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    pairs = set(zip(a.tolist(), b.tolist(), strict=True))
    return len(pairs) == len(set(a.tolist())) == len(set(b.tolist()))


def test_missing_values_as_sdcmicros_mdav():
    df = pd.read_csv(DATA / "testdata.csv").iloc[:120].copy()
    rng = np.random.default_rng(7)
    for c in ["expend", "income", "savings"]:
        df.loc[rng.random(len(df)) < 0.15, c] = np.nan
    res = microaggregate(df, ["expend", "income", "savings"], 3)
    x = df[["expend", "income", "savings"]].to_numpy(dtype=float)
    want = mdav_like_sdcmicro_missing(x, 3)
    assert _same_partition(res.groups, want)
    out = res.data[["expend", "income", "savings"]].to_numpy()
    assert (np.isnan(out) == np.isnan(x)).all()  # a missing value stays missing
    for g in np.unique(want):  # each group's known values become their mean
        rows = want == g
        for j in range(3):
            known = rows & ~np.isnan(x[:, j])
            if known.any():
                assert np.allclose(out[known, j], x[known, j].mean())


def test_missing_values_by_hand():
    # k = 2, one variable with a missing value (so MDAV, not the single method). Known
    # values 0, 1, 10, 11: centre 5.5, variance 25.25; the missing row is 11^2 / 25.25 =
    # 4.79 from the centre (the others at most 30.25 / 25.25 = 1.2), so it is r. Its
    # nearest: itself (both missing: 0), then all four at 4.79, the later row first: row 3.
    # Group {4, 3} (mean of its known value 11); the rest {0, 1, 2} (mean 11 / 3).
    df = pd.DataFrame({"v": [0.0, 1.0, 10.0, 11.0, None]})
    res = microaggregate(df, ["v"], 2)
    assert res.method == "mdav"
    assert np.allclose(res.data["v"].tolist()[:4], [11 / 3, 11 / 3, 11 / 3, 11.0])
    assert np.isnan(res.data["v"].iloc[4])
    with pytest.raises(RiskcoreError, match="single-variable method needs a value"):
        microaggregate(df, ["v"], 2, method="single")
