"""The kernels of local suppression (riskcore.perturb._suppression_core) against plain loops."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from riskcore.perturb import _suppression_core as core
from tests.riskcore.sdc_reference import fk_any

codes_tables = st.integers(0, 10_000).map(
    lambda seed: np.random.default_rng(seed).integers(-1, 3, size=(12 + seed % 30, 2 + seed % 4))
)


def _naive_choice(problem: np.ndarray, keys: np.ndarray, order: np.ndarray):
    """cpp_calcSuppInds + suppSubset's column rule, one problem row and one key at a time."""
    cols, dists = [], []
    for p in problem:
        d = [
            sum(1 for c in range(len(p)) if p[c] >= 0 and q[c] >= 0 and p[c] != q[c]) for q in keys
        ]
        nearest = min(x for x in d if x > 0)
        ids = [j for j, x in enumerate(d) if x == nearest]
        col = next(
            c
            for c in order
            if any(p[c] >= 0 and keys[j][c] >= 0 and p[c] != keys[j][c] for j in ids)
        )
        cols.append(col)
        dists.append(nearest)
    return np.array(cols), np.array(dists)


@settings(max_examples=40, deadline=None)
@given(codes_tables, st.integers(0, 100))
def test_counted_choice_is_sdcmicros_rule(codes, seed):
    keys, _, sizes = core.distinct(codes)
    fk = core.fk(codes)
    problem, _, _ = core.distinct(codes[fk < 3])
    # a problem row needs a record at non-zero distance (f_k < n)
    problem = problem[core.compatible(problem, keys, sizes) < len(codes)]
    if not len(problem):
        return
    order = np.random.default_rng(seed).permutation(codes.shape[1])
    want_col, want_dist = _naive_choice(problem, keys, order)
    old = core.CHOOSE_PAIRWISE
    try:
        for threshold in (0, 10**12):  # counted by inclusion-exclusion, then pair by pair
            core.CHOOSE_PAIRWISE = threshold
            col, dist = core.choose(problem, keys, sizes, order)
            assert col.tolist() == want_col.tolist()
            assert dist.tolist() == want_dist.tolist()
    finally:
        core.CHOOSE_PAIRWISE = old


@settings(max_examples=30, deadline=None)
@given(codes_tables)
def test_fk_both_paths_match_the_naive_count(codes):
    mat = np.where(codes < 0, np.nan, codes.astype(float))
    want = fk_any(mat).tolist()
    old = core.PAIRWISE
    try:
        for threshold in (0, 10**12):  # class-table join, then pairs
            core.PAIRWISE = threshold
            assert core.fk(codes).tolist() == want
            keys, inverse, sizes = core.distinct(codes)
            assert np.rint(core.compatible(keys, keys, sizes)[inverse]).tolist() == want
    finally:
        core.PAIRWISE = old


@settings(max_examples=30, deadline=None)
@given(codes_tables, st.integers(2, 3), st.integers(0, 100))
def test_restore_keeps_k_and_only_takes_cells_back(codes, k, seed):
    rng = np.random.default_rng(seed)
    original = np.abs(codes)  # nothing missing before
    blanked = np.where(rng.random(codes.shape) < 0.6, -1, original)
    if fk_any(np.where(blanked < 0, np.nan, blanked.astype(float))).min() < k:
        return
    rank = rng.permutation(codes.shape[1])
    out, _ = core.restore(blanked, original, k, rank)
    assert fk_any(np.where(out < 0, np.nan, out.astype(float))).min() >= k
    assert ((out < 0) <= (blanked < 0)).all()  # never blanks a cell
    assert (out[out >= 0] == original[out >= 0]).all()


def test_restore_by_hand():
    # two records blanked in b; each alone may come back (it still matches the other),
    # not both (they would differ); column b is the more important, so one value returns
    original = np.array([[0, 0], [0, 1], [1, 0], [1, 0]])
    blanked = np.array([[0, -1], [0, -1], [1, 0], [1, 0]])
    out, rounds = core.restore(blanked, original, 2, np.array([0, 1]))
    assert int((out < 0).sum()) == 1 and rounds >= 1
    assert out[2:].tolist() == [[1, 0], [1, 0]]


def test_restore_leaves_a_needed_blank_alone():
    # the blank record is what the two others match (f_k = 2 each); with its value back
    # it would match itself only, and the others would drop to 1
    original = np.array([[0, 0], [1, 0], [2, 0]])
    blanked = np.array([[-1, 0], [1, 0], [2, 0]])
    out, _ = core.restore(blanked, original, 2, np.array([0, 1]))
    assert (out == blanked).all()
