"""PRAM and additive noise (riskcore.perturb.random): matrix by hand, invariance, noise scale."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from riskcore.errors import RiskcoreError
from riskcore.perturb.random import Noise, Pram, add_noise, invariant_matrix, pram


class _FixedDiagonal:
    """Stands in for a Generator: the diagonal drawn is the one given."""

    def __init__(self, diag):
        self.diag = np.asarray(diag, dtype=float)

    def uniform(self, low, high, size):
        assert size == len(self.diag) and (self.diag >= low).all()
        return self.diag


def test_invariant_matrix_by_hand():
    # p = (0.75, 0.25), P = [[.8, .2], [.4, .6]]; p P = (0.7, 0.3);
    # Q = [[6/7, 1/7], [1/2, 1/2]]; R = P Q = [[11/14, 3/14], [9/14, 5/14]];
    # R_s = (R + I) / 2 = [[25/28, 3/28], [9/28, 19/28]]
    rs = invariant_matrix(np.array([3, 1]), 0.5, rng=_FixedDiagonal([0.8, 0.6]))
    np.testing.assert_allclose(rs, [[25 / 28, 3 / 28], [9 / 28, 19 / 28]], rtol=1e-12)
    np.testing.assert_allclose(np.array([0.75, 0.25]) @ rs, [0.75, 0.25], rtol=1e-12)


def test_matrix_is_invariant_and_stochastic():
    counts = np.array([50, 30, 15, 5])
    rs = invariant_matrix(counts, 0.3, alpha=0.7, rng=np.random.default_rng(1))
    p = counts / counts.sum()
    np.testing.assert_allclose(p @ rs, p, atol=1e-12)
    np.testing.assert_allclose(rs.sum(axis=1), 1.0, atol=1e-12)
    assert (rs >= 0).all()


def _table(n=3000):
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        {"cat": rng.choice(["a", "b", "c"], size=n, p=[0.6, 0.3, 0.1]), "x": np.arange(n)}
    )


def test_pram_keeps_frequencies_in_expectation():
    df = _table()
    before = df["cat"].value_counts().reindex(["a", "b", "c"]).to_numpy()
    after = np.array(
        [
            pram(df, "cat", diagonal=0.5, seed=s)
            .data["cat"]
            .value_counts()
            .reindex(["a", "b", "c"])
            for s in range(30)
        ]
    )
    mean, se = after.mean(axis=0), after.std(axis=0, ddof=1) / np.sqrt(len(after))
    assert (np.abs(mean - before) < 4 * se + 1).all()
    # values do change: with pd = 0.5 and alpha = 0.5 about a fifth of the records
    changed = pram(df, "cat", diagonal=0.5, seed=3).changed
    assert 0.05 * len(df) < changed < 0.5 * len(df)


def test_pram_is_seeded_and_replayable():
    df = _table(500)
    a, b = pram(df, "cat", diagonal=0.6, seed=7), pram(df, "cat", diagonal=0.6, seed=7)
    pd.testing.assert_frame_equal(a.data, b.data)
    assert not pram(df, "cat", diagonal=0.6, seed=8).data["cat"].equals(a.data["cat"])
    replay = pram(df, "cat", seed=7, matrix=a.matrix, categories=a.categories)
    pd.testing.assert_frame_equal(replay.data, a.data)
    assert a.data["x"].equals(df["x"])
    assert Pram.from_dict(a.to_dict()).matrix == a.matrix


def test_pram_with_pd_one_changes_nothing_and_keeps_missing():
    df = pd.DataFrame({"cat": ["a", None, "b", "a"]})
    res = pram(df, "cat", diagonal=1.0, seed=0)
    assert res.changed == 0
    assert res.data["cat"].isna().tolist() == [False, True, False, False]
    assert res.data["cat"].dropna().tolist() == ["a", "b", "a"]


def test_noise_scale_by_simulation():
    rng = np.random.default_rng(5)
    df = pd.DataFrame({"x": rng.normal(100, 20, size=20000), "y": np.arange(20000.0)})
    res = add_noise(df, {"x": 10, "y": 150}, seed=11)
    for col, pct in (("x", 10), ("y", 150)):
        target = pct / 100 * df[col].std(ddof=1)
        assert res.sd[col] == pytest.approx(target)
        noise = res.data[col] - df[col]
        assert noise.std() == pytest.approx(target, rel=0.03)
        assert abs(noise.mean()) < 4 * target / np.sqrt(len(df))


def test_noise_is_seeded_and_keeps_missing():
    df = pd.DataFrame({"x": [1.0, np.nan, 3.0, 4.0], "s": list("abcd")})
    a, b = add_noise(df, {"x": 50}, seed=1), add_noise(df, {"x": 50}, seed=1)
    pd.testing.assert_frame_equal(a.data, b.data)
    assert np.isnan(a.data["x"][1]) and a.data["s"].equals(df["s"])
    assert not a.data["x"].equals(add_noise(df, {"x": 50}, seed=2).data["x"])
    assert Noise.from_dict(a.to_dict()).sd == a.sd


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda df: pram(df, "zz", seed=1), "no column 'zz'"),
        (lambda df: pram(df, "cat", diagonal=1.5, seed=1), "pd"),
        (lambda df: pram(df, "cat", seed=-1), "seed must be a whole number"),
        (lambda df: add_noise(df, {"cat": 10}, seed=1), "'cat' is not numeric"),
        (lambda df: add_noise(df, {"x": 0}, seed=1), "noise of 'x'"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises((RiskcoreError, ValueError), match=message):
        call(_table(10))
