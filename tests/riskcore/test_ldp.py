"""riskcore.ldp against the published job-code example and hand-worked values."""

from __future__ import annotations

import csv
import math

import numpy as np
import pandas as pd
import pytest

from riskcore import dp
from riskcore.dp import local as ldp
from riskcore.errors import RiskcoreError
from tests.conftest import shared_file


def test_grr_estimate_reproduces_published_job_codes():
    # ../shared/data/README.md, ldp_jobs: n = 5,469, k = 4. The published
    # estimates imply p - q = 223 / 67 ... = (e - 1) / (e + 3), i.e. epsilon = 1.
    readme = shared_file("README.md").read_text()
    assert "1,057 / 990 / 1,828 / 1,594" in readme
    assert "334.77 / 111.80 / 2,900.58 / 2,121.85" in readme
    est = dp.grr_estimate([1057, 990, 1828, 1594], 1.0)
    assert est.round(2).tolist() == [334.77, 111.80, 2900.58, 2121.85]
    assert est.sum() == pytest.approx(5469)  # the estimates keep n


def test_grr_estimate_keeps_input_order_and_accepts_the_seed_rows():
    path = shared_file("seed_examples/ldp_jobs.csv")
    with path.open() as fh:
        rows = list(csv.DictReader(fh))
    observed = pd.Series([r["ldp_job_code"] for r in rows]).value_counts()
    order = ["staff", "administration", "athletics", "faculty"]
    est = dp.grr_estimate(observed.reindex(order, fill_value=0).to_numpy(), 1.0)
    rev = dp.grr_estimate(observed.reindex(order[::-1], fill_value=0).to_numpy(), 1.0)
    assert est.tolist() == pytest.approx(rev[::-1].tolist())
    assert est.sum() == pytest.approx(len(rows))


def test_warner_hand_value():
    # eps = ln 3: p = 3/4. Observed yes 40%: (0.40 - 0.25) / (1.5 - 1) = 0.30
    assert ldp.warner_keep_probability(math.log(3)) == pytest.approx(0.75)
    assert ldp.warner_estimate(0.40, math.log(3)) == pytest.approx(0.30)
    # GRR with k = 2 is Warner's design
    assert ldp.grr_probabilities(math.log(3), 2) == pytest.approx((0.75, 0.25))


def test_grr_probabilities_hand_value():
    # eps = 1, k = 4: e + 3 = 5.718282, p = 2.718282 / 5.718282 = 0.475367, q = 0.174878
    p, q = ldp.grr_probabilities(1.0, 4)
    assert (p, q) == pytest.approx((0.475367, 0.174878), abs=1e-6)
    assert p / q == pytest.approx(math.e)


def test_unary_encoding_threshold():
    # k > 3e^eps + 2: at eps = 1 the threshold is 10.15
    assert not ldp.unary_beats_grr(10, 1.0)
    assert ldp.unary_beats_grr(11, 1.0)
    assert ldp.grr_variance(1.0, 11, 1000) > ldp.oue_variance(1.0, 1000)
    assert ldp.grr_variance(1.0, 10, 1000) < ldp.oue_variance(1.0, 1000)


def test_respondents_needed_hand_value():
    # eps = 1, k = 4, +/- 2 points at 95%: 1.96^2 (e + 2) / (0.02^2 (e - 1)^2)
    # = 3.8415 * 4.7183 / (0.0004 * 2.9525) = 15,347.x -> 15,348
    assert ldp.respondents_needed(0.02, 1.0, 4) == 15348
    with pytest.raises(ValueError, match=r"^margin is a share"):
        ldp.respondents_needed(2.0, 1.0, 4)


def test_grr_simulation_is_unbiased_with_the_stated_variance():
    values = pd.Series(np.repeat(["a", "b", "c", "d", "e"], [500, 300, 100, 80, 20]))
    est_a = np.array(
        [ldp.grr_simulate(values, 1.0, seed=s).estimated_counts[0] for s in range(300)]
    )
    p, q = ldp.grr_probabilities(1.0, 5)
    n, f = 1000, 0.5
    var = n * (f * p * (1 - p) + (1 - f) * q * (1 - q)) / (p - q) ** 2
    assert est_a.mean() == pytest.approx(500, abs=4 * math.sqrt(var / 300))
    assert est_a.var(ddof=1) == pytest.approx(var, rel=0.25)


def test_grr_interval_coverage():
    values = pd.Series(np.repeat(["x", "y", "z"], [700, 200, 100]))
    hits = 0
    for s in range(200):
        r = ldp.grr_simulate(values, 2.0, seed=s)
        hits += int(np.all((r.ci_low <= r.true_counts) & (r.true_counts <= r.ci_high)))
    # three 95% intervals jointly: about 86% to 95%
    assert 0.78 <= hits / 200 <= 0.99


def test_grr_reports_satisfy_the_ldp_inequality():
    # the same respondent with true value a or b: P(report v | a) / P(report v | b) <= e^eps
    eps, k, n = 1.2, 4, 400_000
    gen = np.random.default_rng(21)
    ra = ldp._grr_reports(np.zeros(n, dtype=np.int64), k, eps, gen)
    rb = ldp._grr_reports(np.ones(n, dtype=np.int64), k, eps, gen)
    pa = np.bincount(ra, minlength=k) / n
    pb = np.bincount(rb, minlength=k) / n
    ratio = pa / pb
    assert ratio.max() == pytest.approx(math.exp(eps), rel=0.03)  # attained at v = a
    assert ratio.min() == pytest.approx(math.exp(-eps), rel=0.03)
    assert np.all(ratio <= math.exp(eps) * 1.03)


def test_grr_missing_values_are_a_category_and_limits():
    r = ldp.grr_simulate(pd.Series(["a", None, "a", "b"]), 1.0)
    assert "(missing)" in r.categories
    assert r.true_counts.sum() == 4
    with pytest.raises(RiskcoreError, match="at least 2 different values"):
        ldp.grr_simulate(pd.Series(["a", "a"]), 1.0)
    with pytest.raises(RiskcoreError, match="randomized response over more than 200"):
        ldp.grr_simulate(pd.Series(np.arange(500)), 1.0)


def test_laplace_ldp_coverage():
    x = np.random.default_rng(0).uniform(20_000, 400_000, 2000)
    hits = 0
    for s in range(200):
        r = ldp.laplace_ldp_simulate(x, 1.0, bounds=(0, 500_000), seed=s)
        hits += int(abs(r.estimated_mean - r.clipped_mean) <= r.half_width)
        assert r.scale == pytest.approx(500_000.0)
    assert 0.88 <= hits / 200 <= 1.0
