"""Individual risk per record with sampling weights (riskcore.metrics.records).

Expected values come from outside riskcore: sdcMicro's own test expectations
(``tests/testthat/test_indivRisk.R`` and ``test_freqCalc.R``, sdcTools/sdcMicro),
values worked by hand from Franconi and Polettini's (2004) formulas in the
comments, and an independent implementation below (a pandas group-by for the
weight sums and a direct summation of the defining series
E[1/F | f] = sum_{h >= f} (1/h) C(h-1, f-1) p^f q^(h-f)).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from riskcore._results import dumps
from riskcore.errors import RiskcoreError, RolesError
from riskcore.metrics.population import individual_risk, weighted_individual_risk
from riskcore.metrics.records import record_individual_risk, sampling_weights
from tests.riskcore.reference import negbin_expected_inverse

# sdcMicro's test table (test_indivRisk.R, "without missing, weighted"): key variables
# A, B, C and the weights; freqCalc gives fk and Fk, indivRisk the risks.
SDC = pd.DataFrame(
    {
        "A": [2, 3, 2, 2, 3, 3, 1, 2],
        "B": [3, 3, 3, 3, 3, 3, 4, 3],
        "C": [1, 3, 1, 2, 1, 1, 1, 1],
        "weight": [18.0, 45.5, 39.0, 17.0, 92.0, 8.0, 123.5, 51.0],
    }
)
SDC_FK = [3, 1, 3, 1, 2, 2, 1, 3]
SDC_BIG_FK = [108.0, 45.5, 108.0, 17.0, 100.0, 100.0, 123.5, 108.0]
SDC_APPROX = [
    0.01369863,
    0.08579129,
    0.01369863,
    0.17707583,
    0.01877883,
    0.01877883,
    0.03931625,
    0.01369863,
]
SDC_EXACT = [
    0.01355297,
    0.08579129,
    0.01355297,
    0.17707583,
    0.01877883,
    0.01877883,
    0.03931625,
    0.01355297,
]


series = negbin_expected_inverse


def approx(f: int, p: float) -> float:
    """sdcMicro's approximation (Franconi and Polettini 2004), written from the paper."""
    if p >= 1:
        return 1.0 / f
    q = 1 - p
    if f == 1:
        return (p / q) * math.log(1 / p)
    if f == 2:
        return p / q - (p / q) ** 2 * math.log(1 / p)
    return p / (f - q)


def oracle(df: pd.DataFrame, qis: list[str], weight: str, method: str) -> np.ndarray:
    """Independent per-record risk: pandas group-by of the weights, then the formulas above."""
    g = df.groupby(qis, dropna=False, observed=True, sort=False)
    f = g[weight].transform("size").to_numpy()
    big_f = g[weight].transform("sum").to_numpy()
    fn = series if method == "exact" else approx
    cache: dict[tuple[int, float], float] = {}
    out = []
    for fi, wi in zip(f, big_f, strict=True):
        key = (int(fi), float(wi))
        if key not in cache:
            cache[key] = fn(int(fi), fi / wi)
        out.append(cache[key])
    return np.array(out)


def test_sdcmicro_test_table_approx_and_exact():
    for method, expected in (("approx", SDC_APPROX), ("exact", SDC_EXACT)):
        r = record_individual_risk(SDC, ["A", "B", "C"], weights="weight", method=method)
        np.testing.assert_allclose(r.risk, expected, atol=5e-9)
        np.testing.assert_array_equal(r.class_size, SDC_FK)
        np.testing.assert_allclose(r.population_size, SDC_BIG_FK)
        # measure_risk: global_risk_ER = sum of the risks, global_risk = ER / n
        assert r.expected_reidentifications == pytest.approx(sum(expected), abs=4e-8)
        assert r.global_risk == pytest.approx(sum(expected) / 8, abs=5e-9)
        assert r.population_estimate == pytest.approx(SDC.weight.sum())


def test_hand_worked_values():
    # f = 1, F^ = 45.5: p = 1/45.5, q = 44.5/45.5, (p/q) ln(1/p) = ln(45.5)/44.5
    r = weighted_individual_risk([1], [45.5])
    assert r[0] == pytest.approx(math.log(45.5) / 44.5, rel=1e-13)
    # f = 3, F^ = 108 (approx): p = 1/36, q = 35/36, p / (f - q) = (1/36) / (73/36) = 1/73
    assert weighted_individual_risk([3], [108.0], method="approx")[0] == pytest.approx(1 / 73)
    # f = 2, F^ = 100: p = 1/50, p/q = 1/49, 1/49 - ln(50)/49^2
    r2 = 1 / 49 - math.log(50) / 49**2
    for method in ("approx", "exact"):
        assert weighted_individual_risk([2], [100.0], method=method)[0] == pytest.approx(r2)
    # a sample unique of weight 338409 (p near 0): ln(W) / (W - 1) to full precision
    w = 338_409.0
    assert weighted_individual_risk([1], [w])[0] == pytest.approx(
        math.log(w) / (w - 1), rel=1e-14, abs=0
    )
    # every weight 1: the class is its population class, r = 1/f (sdcMicro's fk == Fk rule)
    np.testing.assert_allclose(weighted_individual_risk([1, 4], [1.0, 4.0]), [1.0, 0.25])


def test_threshold_counts_records_above_it():
    # SDC_APPROX: above 0.05 are records 2 (0.0858) and 4 (0.1771); highest 0.1771
    r = record_individual_risk(
        SDC, ["A", "B", "C"], weights="weight", method="approx", threshold=0.05
    )
    assert (r.records_above, r.share_above) == (2, 0.25)
    assert r.highest_risk == pytest.approx(0.17707583, abs=5e-9)
    assert r.model == "weights" and r.weight_column == "weight"
    d = json.loads(dumps(r))
    assert d["records_above"] == 2 and "risk" not in d


@pytest.mark.parametrize("method", ["exact", "approx"])
def test_random_tables_match_the_independent_implementation(method):
    rng = np.random.default_rng(7)
    n = 600
    df = pd.DataFrame(
        {
            "a": rng.integers(0, 4, n),
            "b": rng.choice(["x", "y", "z", None], n),
            "c": rng.integers(0, 3, n),
            "w": rng.uniform(1, 40, n),
        }
    )
    df.loc[rng.choice(n, 30, replace=False), "w"] = 1.0
    got = record_individual_risk(df, ["a", "b", "c"], weights="w", method=method)
    np.testing.assert_allclose(got.risk, oracle(df, ["a", "b", "c"], "w", method), rtol=1e-8)


def test_large_classes_where_sdcmicro_exact_formula_fails():
    # p = 0.7, f = 30: sdcMicro's alternating-sum "exact" formula gives -13922; the
    # series gives 0.0235635 and so must we (the approximation p / (f - q) is 0.0235)
    r = weighted_individual_risk([30, 200], [30 / 0.7, 200 / 0.7])
    assert r[0] == pytest.approx(series(30, 0.7), rel=1e-8)
    assert r[1] == pytest.approx(series(200, 0.7), rel=1e-8)


def test_without_weights_and_with_a_sampling_fraction():
    qis = ["A", "B", "C"]
    none = record_individual_risk(SDC, qis)
    np.testing.assert_allclose(none.risk, 1 / np.array(SDC_FK))
    assert none.model == "none"
    assert none.expected_reidentifications == pytest.approx(5.0)  # one per class: 5 classes
    frac = record_individual_risk(SDC, qis, sampling_fraction=0.1)
    np.testing.assert_allclose(frac.risk, individual_risk(np.array(SDC_FK), 0.1))
    same = SDC.assign(w=10.0)  # weights 1/pi give the same as the fraction
    np.testing.assert_allclose(record_individual_risk(same, qis, weights="w").risk, frac.risk)


def test_row_order_plays_no_role():
    rng = np.random.default_rng(3)
    perm = rng.permutation(len(SDC))
    shuffled = SDC.iloc[perm].set_index(pd.Index(list("abcdefgh")))
    r = record_individual_risk(shuffled, ["A", "B", "C"], weights="weight")
    np.testing.assert_allclose(r.risk, np.array(SDC_EXACT)[perm], atol=5e-9)


def test_bad_weights_are_clear_errors():
    qis = ["A", "B"]
    with pytest.raises(
        RolesError, match=r"^the weight column 'w' has 1 value\(s\) below 1 \(row 2"
    ):
        sampling_weights(SDC.assign(w=[3.0, 0.5, 2, 2, 2, 2, 2, 2]), "w")
    with pytest.raises(RolesError, match=r"1 missing or infinite value\(s\), the first in row 3"):
        record_individual_risk(SDC.assign(w=[3.0, 2, None, 2, 2, 2, 2, 2]), qis, weights="w")
    with pytest.raises(RolesError, match=r"must hold numbers"):
        record_individual_risk(SDC.assign(w="x"), qis, weights="w")
    with pytest.raises(RolesError, match=r"'nope' is not in the table"):
        record_individual_risk(SDC, qis, weights="nope")
    with pytest.raises(RolesError, match=r"cannot also be a quasi-identifier"):
        record_individual_risk(SDC, ["A", "weight"], weights="weight")
    with pytest.raises(RiskcoreError, match=r"not both"):
        record_individual_risk(SDC, qis, weights="weight", sampling_fraction=0.1)
    with pytest.raises(ValueError, match=r"less than its number of records"):
        weighted_individual_risk([3], [2.0])
    with pytest.raises(ValueError, match=r"method must be"):
        weighted_individual_risk([3], [5.0], method="fast")
