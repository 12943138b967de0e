"""Local suppression (riskcore.perturb.suppression) against sdcMicro and hand-worked tables."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from riskcore.errors import RiskcoreError
from riskcore.perturb import LocalSuppression, default_importance, local_suppression
from riskcore.perturb.steps import record_step, run_step
from tests.riskcore.sdc_reference import fk_any, suppress_like_sdcmicro

DATA = Path(__file__).resolve().parents[1] / "data" / "sdcmicro"
KEYS = ["urbrur", "roof", "walls", "water", "electcon", "relat", "sex"]


@pytest.fixture(scope="module")
def testdata2() -> pd.DataFrame:
    return pd.read_csv(DATA / "testdata2.csv")


def test_default_importance_is_sdcmicros_rank_of_distinct_values(testdata2):
    # distinct values: urbrur 2, roof 5, walls 3, water 8, electcon 2, relat 6, sex 2;
    # ranked fewest first, ties in column order: urbrur, electcon, sex, walls, roof, relat, water
    assert default_importance(testdata2, KEYS) == {
        "urbrur": 1,
        "electcon": 2,
        "sex": 3,
        "walls": 4,
        "roof": 5,
        "relat": 6,
        "water": 7,
    }


IMPORTANCES = {
    "default": None,  # sdcMicro's: [1, 5, 4, 7, 2, 6, 3] in KEYS order
    "column order": dict(zip(KEYS, range(1, 8), strict=True)),
    "reversed": dict(zip(KEYS, range(7, 0, -1), strict=True)),
}


@pytest.mark.parametrize("k", [2, 3, 4, 5])
@pytest.mark.parametrize("name", list(IMPORTANCES))
def test_testdata2_no_more_cells_than_sdcmicro(testdata2, k, name):
    # sdcMicro's count comes from the plain-loop re-implementation of its source
    # (tests/riskcore/sdc_reference.py), which reproduces its own test's 97 at k = 2
    importance = IMPORTANCES[name]
    imp = default_importance(testdata2, KEYS) if importance is None else importance
    reference = suppress_like_sdcmicro(testdata2[KEYS].to_numpy(), k, [imp[q] for q in KEYS])
    sdcmicro = int(np.isnan(reference).sum())
    res = local_suppression(testdata2, KEYS, k, importance=importance)
    after = res.data[KEYS].astype("float64").to_numpy()
    assert fk_any(after).min() >= k  # judged by the naive reference, NaN matching anything
    assert res.total_suppressed == int(np.isnan(after).sum())
    assert res.total_suppressed <= sdcmicro
    assert res.smallest_count >= k
    # restoring only ever takes cells back
    rounds_only = local_suppression(testdata2, KEYS, k, importance=importance, restore_cells=False)
    assert res.total_suppressed <= rounds_only.total_suppressed
    assert not (res.cells & ~rounds_only.cells).any()


def test_reference_reproduces_sdcmicros_97(testdata2):
    # sdcMicro's tests/testthat/test_localSuppression.R: newSupps == 97 (k = 2, default importance)
    out = suppress_like_sdcmicro(testdata2[KEYS].to_numpy(), 2, [1, 5, 4, 7, 2, 6, 3])
    assert int(np.isnan(out).sum()) == 97


@pytest.fixture(scope="module")
def testdata() -> pd.DataFrame:
    return pd.read_csv(DATA / "testdata.csv")


WATER_LAST = {
    # sdcMicro's default ranking of the other keys (fewest distinct values first), water at 1
    "default, water last": {
        "water": 1,
        "urbrur": 2,
        "sex": 3,
        "walls": 4,
        "electcon": 5,
        "roof": 6,
        "relat": 7,
    },
    "reversed, water last": {
        "water": 1,
        "sex": 2,
        "relat": 3,
        "electcon": 4,
        "walls": 5,
        "roof": 6,
        "urbrur": 7,
    },
}


@pytest.mark.parametrize("name", list(WATER_LAST))
def test_importance_one_is_suppressed_last_on_testdata(testdata, name):
    # Issue 38.3: with water at importance 1, sdcMicro 5.8.1 (R/localSuppression.R at
    # cf32510, re-implemented in sdc_reference.py) blanks no water value on its testdata at
    # k = 3; record 210 differs from each of its nearest records only in water, and sdcMicro
    # reaches it after other records' blanks brought a record differing in sex nearer.
    imp = WATER_LAST[name]
    reference = suppress_like_sdcmicro(testdata[KEYS].to_numpy(), 3, [imp[q] for q in KEYS])
    assert not np.isnan(reference[:, KEYS.index("water")]).any()
    for restore_cells in (True, False):
        res = local_suppression(testdata, KEYS, 3, importance=imp, restore_cells=restore_cells)
        assert res.suppressed["water"] == 0
        assert _smallest_fk(res.data[KEYS]) >= 3
        assert res.total_suppressed <= int(np.isnan(reference).sum())
    # the recipe step records it; a step recorded before replays the rounds as they were
    step = record_step(res).to_dict()
    assert step["params"]["lowest_last"] is True
    assert run_step(testdata, step).data.equals(res.data)
    legacy = {**step, "params": {k: v for k, v in step["params"].items() if k != "lowest_last"}}
    assert run_step(testdata, legacy).suppressed["water"] == 1


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 2), st.integers(0, 3), st.integers(0, 1)), min_size=4, max_size=30
    ),
    st.integers(2, 3),
    st.permutations([1, 2, 3]),
)
def test_property_never_more_cells_than_sdcmicros_loop(rows, k, importance):
    assume(len(rows) >= k)
    mat = np.array(rows)
    df = pd.DataFrame(mat, columns=["a", "b", "c"])
    imp = dict(zip(["a", "b", "c"], importance, strict=True))
    res = local_suppression(df, ["a", "b", "c"], k, importance=imp)
    sdcmicro = int(np.isnan(suppress_like_sdcmicro(mat, k, list(importance))).sum())
    assert res.total_suppressed <= sdcmicro
    assert fk_any(_matrix(res.data[["a", "b", "c"]])).min() >= k


def test_rows_order_and_other_columns_unchanged(testdata2):
    res = local_suppression(testdata2, KEYS, 2)
    others = [c for c in testdata2.columns if c not in KEYS]
    pd.testing.assert_frame_equal(res.data[others], testdata2[others])
    kept = ~res.cells
    for i, q in enumerate(KEYS):
        assert (res.data[q].to_numpy()[kept[:, i]] == testdata2[q].to_numpy()[kept[:, i]]).all()
        assert res.data[q].isna().sum() == res.suppressed[q]
    assert str(res.data["roof"].dtype) == "Int64"  # whole numbers stay whole


def _table() -> pd.DataFrame:
    # record 4 (1, 2, 1) is unique; it is at distance 1 from (1, 1, 1) (column b)
    # and from (2, 2, 1) (column a)
    return pd.DataFrame(
        {
            "a": [1, 1, 2, 2, 1],
            "b": [1, 1, 2, 2, 2],
            "c": [1, 1, 1, 1, 1],
            "other": list("vwxyz"),
        }
    )


def test_importance_decides_which_cell_goes():
    res = local_suppression(_table(), ["a", "b", "c"], 2, importance={"a": 1, "b": 2, "c": 3})
    # c: no nearest record differs on it; then b (importance 2) before a (importance 1)
    assert res.suppressed == {"a": 0, "b": 1, "c": 0}
    assert pd.isna(res.data.loc[4, "b"]) and res.records_touched == 1
    res = local_suppression(_table(), ["a", "b", "c"], 2, importance={"a": 2, "b": 1, "c": 3})
    assert res.suppressed == {"a": 1, "b": 0, "c": 0}
    assert pd.isna(res.data.loc[4, "a"])
    assert res.touched.tolist() == [4]


def test_k_anonymous_table_comes_back_unchanged():
    df = _table().iloc[:4]
    res = local_suppression(df, ["a", "b", "c"], 2)
    pd.testing.assert_frame_equal(res.data, df)
    assert res.rounds == 0 and res.total_suppressed == 0


def test_missing_values_match_any_value():
    # (1, NaN) matches (1, 1) and (1, 2): every record has f_k >= 2 under "any"
    # (under "own" each would be unique), so nothing is suppressed
    df = pd.DataFrame({"a": [1, 1, 1], "b": [1.0, 2.0, np.nan]})
    res = local_suppression(df, ["a", "b"], 2)
    assert res.total_suppressed == 0
    assert res.missing_before == {"a": 0, "b": 1}


def test_json_round_trip(testdata2):
    res = local_suppression(testdata2, KEYS, 3)
    back = LocalSuppression.from_dict(res.to_dict())
    assert back.suppressed == res.suppressed and back.importance == res.importance
    assert back.k == 3 and back.smallest_count >= 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"k": 6}, "k = 6 is more than the 5 records"),
        ({"k": 0}, "k"),
        ({"k": 2, "quasi_identifiers": ["a", "zz"]}, "no column 'zz'"),
        ({"k": 2, "importance": {"a": 1, "b": 2}}, "'c' has none"),
        ({"k": 2, "importance": {"a": 1, "b": 2, "c": 4}}, "between 1 and 3"),
        ({"k": 2, "importance": {"a": 1, "b": 2, "c": 3, "other": 1}}, "'other'"),
    ],
)
def test_bad_input_has_a_sentence(kwargs, message):
    args = {"quasi_identifiers": ["a", "b", "c"], **kwargs}
    with pytest.raises((RiskcoreError, ValueError), match=message):
        local_suppression(_table(), **args)


def test_match_counts_by_hand():
    from riskcore.perturb import match_counts

    # (1, NaN) matches both others; (1, 1) and (1, 2) match themselves and (1, NaN)
    df = pd.DataFrame({"a": [1, 1, 1], "b": [1.0, 2.0, np.nan]})
    assert match_counts(df, ["a", "b"]).tolist() == [2, 2, 3]


def _smallest_fk(frame: pd.DataFrame) -> int:
    """The smallest f_k of a frame by the naive rule, on its distinct rows weighted by count."""
    codes = np.nan_to_num(_matrix(frame), nan=-1.0)
    rows, counts = np.unique(codes, axis=0, return_counts=True)
    rows[rows < 0] = np.nan
    a, b = rows[:, None, :], rows[None, :, :]
    clash = ~np.isnan(a) & ~np.isnan(b) & (a != b)
    return int(((~clash.any(axis=2)).astype(np.int64) @ counts).min())


def _matrix(frame: pd.DataFrame) -> np.ndarray:
    """Codes of a frame as floats, NaN where a value is missing (for the naive f_k)."""
    out = np.array(frame.apply(lambda s: pd.factorize(s)[0]).to_numpy(), dtype=float)
    out[frame.isna().to_numpy()] = np.nan
    return out


@settings(max_examples=40)
@given(
    st.lists(
        st.tuples(st.sampled_from([1, 2, 3, None]), st.sampled_from("abc"), st.integers(0, 2)),
        min_size=3,
        max_size=25,
    ),
    st.integers(1, 3),
)
def test_property_k_reached_by_blanking_qi_cells_only(rows, k):
    cols = ["a", "b", "c"]
    df = pd.DataFrame(rows, columns=cols).assign(other=range(len(rows)))
    df.index = df.index * 3 + 7  # a non-range index plays no role
    res = local_suppression(df, cols, k)
    assert fk_any(_matrix(res.data[cols])).min() >= k  # the naive reference
    before, after = df[cols].isna().to_numpy(), res.data[cols].isna().to_numpy()
    assert (after >= before).all() and (res.cells == (after & ~before)).all()
    kept = ~after
    assert (res.data[cols].to_numpy()[kept] == df[cols].to_numpy()[kept]).all()
    assert res.data["other"].tolist() == list(range(len(rows)))
    if fk_any(_matrix(df[cols])).min() >= k:
        assert res.total_suppressed == 0


def test_a_recipe_step_replays_the_pass_it_was_made_with(testdata2):
    """A step recorded before the restoring pass existed (no ``restore_cells``) replays without
    it, byte for byte; a step made now records the pass and replays with it."""

    new = local_suppression(testdata2, KEYS, 3)
    old = local_suppression(testdata2, KEYS, 3, restore_cells=False, lowest_last=False)
    assert new.restore_cells and not old.restore_cells
    assert int(new.cells.sum()) < int(old.cells.sum())  # the pass put cells back
    step = record_step(new).to_dict()
    assert step["params"]["restore_cells"] is True
    assert run_step(testdata2, step).data.equals(new.data)
    legacy = {**step, "params": {"k": 3, "importance": step["params"]["importance"]}}
    assert run_step(testdata2, legacy).data.equals(old.data)


def test_sdcmicros_order_is_kept_when_it_blanks_fewer():
    """Found by hypothesis: on these four records the batched rounds and restoring blank 5
    cells, sdcMicro's one-record-after-another order 4; the fewer is kept."""
    rows = [(0, 0, 0), (0, 2, 1), (1, 2, 1), (2, 1, 0)]
    mat = np.array(rows)
    df = pd.DataFrame(mat, columns=["a", "b", "c"])
    imp = {"a": 1, "b": 3, "c": 2}
    sdcmicro = int(np.isnan(suppress_like_sdcmicro(mat, 2, [1, 3, 2])).sum())
    assert sdcmicro == 4
    res = local_suppression(df, ["a", "b", "c"], 2, importance=imp)
    assert res.total_suppressed <= sdcmicro
    assert fk_any(_matrix(res.data[["a", "b", "c"]])).min() >= 2
    alone = local_suppression(df, ["a", "b", "c"], 2, importance=imp, restore_cells=False)
    assert alone.total_suppressed > sdcmicro  # the rounds alone: more


def test_the_production_port_of_sdcmicros_order_equals_the_reference(testdata2):
    from riskcore.perturb._sdcmicro_order import sdcmicro_order
    from riskcore.perturb._suppression_core import fk
    from riskcore.perturb.suppression import _codes

    mat = _matrix(testdata2[KEYS])
    imp = default_importance(testdata2, KEYS)
    order = np.argsort(-np.array([imp[q] for q in KEYS]), kind="stable")
    ours = sdcmicro_order(_codes(testdata2, KEYS), 2, order, fk)
    ref = suppress_like_sdcmicro(mat, 2, [imp[q] for q in KEYS])
    assert ours is not None and int((ours < 0).sum()) == int(np.isnan(ref).sum()) == 97
    assert np.array_equal(ours < 0, np.isnan(ref))
    assert sdcmicro_order(_codes(testdata2, KEYS), 2, order, fk, max_work=10) is None
