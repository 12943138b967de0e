"""Readings of the differential-privacy and local-DP pages, checked against hand-worked numbers.

Laplace noise of scale b has a 95% half-width b ln 20 (P(|X| > x) = e^{-x/b});
for a count (sensitivity 1) at epsilon the scale is b = 1 / epsilon.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from riskcore import dp
from riskcore.dp import local as ldp
from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError
from riskcore.report import readings as rd

LN20 = math.log(20.0)
Z975 = 1.959963984540054  # standard normal 97.5% quantile


def test_mechanisms_for_and_epsilon_steps():
    every = ("laplace", "gaussian", "discrete_laplace", "discrete_gaussian")
    assert rd.mechanisms_for("count") == every
    assert rd.mechanisms_for("histogram") == every
    assert rd.mechanisms_for("mean") == ("laplace", "gaussian")
    assert rd.EPSILON_STEPS[0] == 0.01 and rd.EPSILON_STEPS[-1] == 10.0
    assert list(rd.EPSILON_STEPS) == sorted(rd.EPSILON_STEPS)


@pytest.fixture(scope="module")
def count_curve() -> dp.ErrorCurve:
    return dp.error_curve(1000.0, dp.sensitivity("count"), mechanism="laplace")


def test_error_reading(count_curve):
    # epsilon 1: b = 1, +/- ln 20 = 2.996 -> "3", 0.30% of 1,000; epsilon 0.01: +/- 299.6 -> "300"
    assert rd.error_reading(count_curve, 1.0, what="count") == (
        "At epsilon = 1 this count is 1,000 +/- 3 (0.30% of it) with 95% confidence using "
        "Laplace noise; at epsilon = 0.01 it is +/- 300."
    )


def test_error_table(count_curve):
    t = rd.error_table({"laplace": count_curve}, 2.0)
    row = t.iloc[0]
    assert row["mechanism"] == "Laplace"
    assert row["noise scale"] == pytest.approx(0.5)
    assert row["+/- (95%)"] == pytest.approx(0.5 * LN20)
    assert row["expected |error|"] == pytest.approx(0.5)  # E|Laplace(b)| = b
    assert row["relative error"] == pytest.approx(0.5 * LN20 / 1000.0)


def test_solver_table():
    t = rd.solver_table(
        dp.sensitivity("count"), ("laplace",), accuracy=3.0, epsilon=2.0, alpha=0.05, delta=1e-6
    )
    row = t.iloc[0]
    assert row["epsilon needed for +/- 3"] == pytest.approx(LN20 / 3.0, rel=1e-6)
    assert row["+/- bought by epsilon = 2"] == pytest.approx(LN20 / 2.0, rel=1e-6)


def test_queries_allowed():
    assert rd.queries_allowed(np.array([0.1, 0.2, 0.3, 0.4]), 0.3) == 3
    assert rd.queries_allowed(np.array([0.5, 1.0]), 0.1) == 0


def _largest_k(total, k_max: int, budget: float) -> int:
    ks = [k for k in range(1, k_max + 1) if total(k) <= budget * (1 + 1e-12)]
    return max(ks) if ks else 0


def test_composition_reading():
    eps, d = 0.1, 1e-6
    c = dp.composition_curves(eps, 300, delta_prime=d)
    # basic: k eps <= 1 -> 10; advanced (Dwork-Rothblum-Vadhan) and zCDP (Bun-Steinke)
    adv = _largest_k(
        lambda k: math.sqrt(2 * k * math.log(1 / d)) * eps + k * eps * (math.exp(eps) - 1), 300, 1
    )
    zc = _largest_k(
        lambda k: k * eps**2 / 2 + 2 * math.sqrt(k * eps**2 / 2 * math.log(1 / d)), 300, 1
    )
    # advanced composition falls below basic for good where sqrt(2 k ln(1/d)) < k (2 - e^eps)
    k_adv = math.floor(2 * math.log(1 / d) / (2 - math.exp(eps)) ** 2) + 1
    k_z = next(
        k for k in range(1, 301)
        if all(j * eps**2 / 2 + 2 * math.sqrt(j * eps**2 / 2 * math.log(1 / d)) < j * eps
               for j in range(k, 301))
    )  # fmt: skip
    assert rd.composition_reading(c, 1.0) == (
        f"At epsilon = 0.1 per query and a budget of 1, basic composition allows 10 queries, "
        f"advanced composition {adv} and zCDP {zc} (the last two spend delta' = 1e-06). "
        f"From k = {k_adv} queries on, advanced composition totals less than basic "
        f"composition. From k = {k_z} queries on, zCDP totals less than basic composition. "
        "The chart's epsilon axis is logarithmic, so that every line stays in view up to "
        "k = 300."
    )
    # a budget no accountant exhausts within the plotted queries reads "300+"
    assert "basic composition allows 300+ queries" in rd.composition_reading(c, 100.0)
    one = dp.composition_curves(1.0, 300, delta_prime=1e-6)
    # epsilon 1 against a budget of 1: one basic query; advanced (6.98) and zCDP exceed it at once
    assert "basic composition allows 1 query, advanced composition 0 and zCDP 0 " in (
        rd.composition_reading(one, 1.0)
    )


def test_composition_reading_says_when_lines_coincide():
    # epsilon 0.01, budget 1, 300 queries: the chart runs to k = 300 and up to 3. Advanced
    # composition and zCDP differ by k eps (e^eps - 1) - k eps^2 / 2, at most
    # 300 (0.01 (e^0.01 - 1) - 0.00005) = 0.01515 at k = 300: under 1% of 3, so they coincide
    c = dp.composition_curves(0.01, 300, delta_prime=1e-6)
    gap = 300 * (0.01 * math.expm1(0.01) - 0.01**2 / 2)
    assert rd.composition_window(c, 1.0) == (0.0, 3.0, 300, False)
    assert rd.coinciding_accountants(c, 1.0) == [
        ("advanced composition", "zCDP", pytest.approx(gap, rel=1e-9))
    ]
    assert rd.composition_reading(c, 1.0).endswith(
        "Advanced composition and zCDP coincide on this chart (at most 0.0152 apart up to "
        "k = 300, under 1% of its height): their lines lie on each other; the markers tell "
        "them apart."
    )
    # epsilon 1: basic 1 per query, advanced 7.0 and zCDP 5.75 at k = 1: no sentence
    one = dp.composition_curves(1.0, 300, delta_prime=1e-6)
    assert rd.coinciding_accountants(one, 1.0) == []
    assert "coincide" not in rd.composition_reading(one, 1.0)
    # all three within 1% of 15 over k <= 10 at epsilon 0.01: one sentence names all three
    three = rd.composition_reading(dp.composition_curves(0.01, 10, delta_prime=1e-6), 5.0)
    assert " Basic composition, advanced composition and zCDP coincide on this chart" in three


def test_ledger_table():
    ledger = dp.PrivacyLedger(
        1.0,
        1e-6,
        "basic",
        (
            dp.LedgerEntry(query="count", mechanism="laplace", epsilon=0.5),
            dp.LedgerEntry(query="histogram of sex", mechanism="laplace", epsilon=0.2, groups=2),
        ),
    )
    t = rd.ledger_table(ledger)
    assert list(t["#"]) == [1, 2]
    assert list(t["query"]) == ["count", "histogram of sex"]
    assert list(t["mechanism"]) == ["Laplace", "Laplace"]  # the label, not the enum value
    np.testing.assert_allclose(t["epsilon"], [0.5, 0.2])
    np.testing.assert_allclose(t["zCDP rho"], [0.5**2 / 2, 0.2**2 / 2])  # pure eps -> eps^2 / 2
    assert list(t["bars (parallel)"]) == [1, 2]
    assert rd.ledger_table(dp.PrivacyLedger(1.0)).empty


def test_categorical_columns_and_preferred_first():
    df = pd.DataFrame(
        {
            "one": ["a"] * 4,
            "two": ["a", "b", "a", "b"],
            "four": ["a", "b", "c", "d"],
            "gap": ["a", None, "a", None],  # a missing value counts as a value: 2 values
        }
    )
    assert rd.categorical_columns(EncodedTable(df), max_values=3) == ["two", "gap"]
    assert rd.preferred_first(["a", "b", "c", "d"], ("c", "a")) == ["a", "c", "b", "d"]


PEOPLE = pd.DataFrame(
    {
        "age": [30, 30, 30, 40, 40, 50, 60, 60],
        "zip": ["100", "100", "100", "200", "200", "300", "400", "400"],
        "income": [10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0],
    }
)


def test_identifiability_worlds():
    enc = EncodedTable(PEOPLE)
    # smallest class with 2 or more people: (40, 200), rows 3 and 4
    w, desc = rd.identifiability_worlds(
        enc, "income", source="class", quasi_identifiers=("age", "zip")
    )
    np.testing.assert_allclose(np.sort(w), [40.0, 50.0])
    assert desc == "the 2 people of the smallest class with 2 or more records on age, zip"
    w, desc = rd.identifiability_worlds(enc, "income", source="sample", m=5, seed=1)
    assert len(w) == 5 and set(w) <= set(PEOPLE["income"])
    assert desc == "5 people drawn at random from the table"
    with pytest.raises(RiskcoreError, match="tag quasi-identifiers"):
        rd.identifiability_worlds(enc, "income", source="class")
    with pytest.raises(RiskcoreError, match="m must be at least 2"):
        rd.identifiability_worlds(enc, "income", source="sample", m=1)


def test_identifiability_reading():
    res = dp.IdentifiabilityResult(
        m=200,
        rho=0.015,
        epsilon=0.01234,
        sensitive_range=50.0,
        scale=4052.0,
        tight_epsilon=0.5,
        worst_risk=None,
    )
    text = rd.identifiability_reading(res)
    assert text.startswith(
        "To keep the attacker's certainty that a record is a given person at or below 1.5% "
        "among m = 200 candidates, use epsilon = 0.0123: Laplace noise of scale 4,052 on a "
        "query whose answer ranges over 50 across the candidates."
    )
    assert "the exact epsilon is 0.5;" in text
    unbounded = rd.identifiability_reading(
        dp.IdentifiabilityResult(200, 0.015, 0.01, 0.0, 1.0, math.inf, None)
    )
    assert "unbounded (they all give the same answer)" in unbounded


def _grr(epsilon: float, categories: tuple[str, ...]) -> ldp.GrrResult:
    k = len(categories)
    p, q = ldp.grr_probabilities(epsilon, k)
    return ldp.GrrResult(
        column="sex",
        epsilon=epsilon,
        n=1000,
        categories=categories,
        p=p,
        q=q,
        true_counts=np.array([600.0, 400.0, 0.0][:k]),
        observed_counts=np.array([560.0, 440.0, 0.0][:k]),
        estimated_counts=np.array([612.0, 388.0, 0.0][:k]),
        ci_low=np.array([570.0, 346.0, 0.0][:k]),
        ci_high=np.array([654.0, 430.0, 0.0][:k]),
        seed=0,
    )


def test_grr_table_and_reading():
    r = _grr(1.0, ("f", "m"))
    t = rd.grr_table(r)
    assert list(t.columns) == [
        "category",
        "true",
        "observed (randomized)",
        "estimated",
        "95% low",
        "95% high",
    ]
    assert list(t["category"]) == ["f", "m"]
    assert list(t["estimated"]) == [612.0, 388.0]
    # binary: p = e / (e + 1) = 73.1%; worst error |612 - 600| = |388 - 400| = 12, first is 'f'
    assert rd.grr_reading(r) == (
        "With Warner's binary design at epsilon = 1, each person reports their true value with "
        "probability 73.1%. From 1,000 randomized reports the estimates are off by at most 12 "
        "people (for 'f')."
    )
    # k = 3 at epsilon 0.01: 3 > 3e^0.01 + 2 = 5.03 is false, so no unary advice
    r3 = _grr(0.01, ("a", "b", "c"))
    assert "k-ary randomized response over k = 3 values" in rd.grr_reading(r3)
    assert "unary" not in rd.grr_reading(r3)


def test_planning_reading():
    e = math.e
    needed = math.ceil(Z975**2 * (e + 4 - 2) / (0.02**2 * (e - 1) ** 2))
    first, second = rd.planning_reading(4, 1.0, 2.0)
    assert first == (
        f"At epsilon = 1 with k = 4 categories, {needed:,} respondents give each share to "
        "within +/- 2 points (95%)."
    )
    # 3e + 2 = 10.15: k = 4 stays with k-ary RR, k = 20 goes to unary encoding
    assert second.startswith("k-ary randomized response is the better protocol here")
    assert second.endswith("3e^epsilon + 2 = 10.2.")
    assert rd.planning_reading(20, 1.0, 2.0)[1].startswith(
        "With k = 20 > 3e^epsilon + 2 = 10.2, optimized unary encoding"
    )


def test_ldp_planning():
    eps = np.array([0.5, 1.0])
    t = rd.ldp_planning(4, eps, (100, 10_000))
    assert list(t["n"]) == ["n = 100", "n = 100", "n = 10,000", "n = 10,000"]
    for n, e, margin in zip([100, 100, 10_000, 10_000], [0.5, 1.0] * 2, t["margin"], strict=True):
        var = (math.exp(e) + 4 - 2) / (n * (math.exp(e) - 1) ** 2)
        assert margin == pytest.approx(Z975 * math.sqrt(var))


# ------------------------------------------------------------------ release, clipping, SA, LDP


def test_sensitivity_and_solver_caption():
    s = dp.sensitivity("count")
    assert rd.sensitivity_reading(s) == f"Sensitivity: {s.reason}."
    assert rd.solver_caption(0.95, 1e-6) == (
        "At 95% confidence. Gaussian: the sigma OpenDP certifies through zCDP "
        "(the one released), delta = 1e-06."
    )


def test_gaussian_reference_reading_states_the_extra_noise():
    # issue 12: a count at epsilon 1, delta 1e-5 is released with sigma 4.045 (OpenDP,
    # zCDP); Balle & Wang's analytic sigma is 3.731: 4.0451 / 3.7306 - 1 = 8.4% more
    assert rd.gaussian_reference_reading(dp.sensitivity("count"), 1.0, 1e-5) == (
        "OpenDP certifies the Gaussian through zCDP: at epsilon = 1 and delta = 1e-05 it "
        "adds noise of sigma 4.05, and the plots, tables and ledger use that. The analytic "
        "calibration (Balle & Wang 2018) would need sigma 3.73 instead: the certified "
        "release adds 8.4% more noise than the analytic optimum."
    )


def test_release_reading():
    from dataclasses import replace

    rel = replace(
        _release("count", "laplace", 1001.0),
        epsilon=0.5,
        scale=2.0,
        half_width=2.0 * LN20,
        notes=("the count is public", "rounded"),
    )
    assert rd.release_reading(rel) == (
        "Laplace noise of scale 2 (OpenDP); certified cost epsilon 0.5, delta 0; +/- 5.991 at "
        "95%. Note: the count is public. Note: rounded."
    )


def _release(kind, mechanism, value, labels=None):
    from riskcore.dp.release import Query, Release

    query = {
        "count": Query("count"),
        "histogram": Query("histogram", column="zip"),
        "mean": Query("mean", column="age", bounds=(0, 100)),
    }[kind]
    return Release(
        query=query,
        mechanism=dp.Mechanism(mechanism),
        neighbouring="add_remove",
        value=value,
        labels=labels,
        epsilon=1.0,
        delta=0.0,
        rho=None,
        scale=1.0,
        sensitivity=dp.sensitivity("count"),
        half_width=LN20,
        notes=(),
        entry=dp.LedgerEntry("q", mechanism, 1.0),
    )


def test_continuous_counts_are_shown_rounded_with_a_note():
    # issue 12: a Laplace count of 32,561.83 is shown as 32,562 (post-processing is free)
    rel = _release("count", "laplace", 32_561.83)
    assert rd.released_values(rel) == (32_562.0,)
    assert rd.rounding_note(rel) == (
        "Rounded to whole counts (OpenDP drew 32,561.83): rounding is post-processing of "
        "the release, so it costs no privacy."
    )
    hist = _release("histogram", "gaussian", (3.4, -0.6, 10.5), ("a", "b", "c"))
    assert rd.released_values(hist) == (3.0, -1.0, 10.0)  # half to even
    assert str(rd.released_values(_release("count", "laplace", -0.3))[0]) == "0.0"  # not -0.0
    assert rd.rounding_note(hist).startswith("Rounded to whole counts: rounding is post-")
    # integer mechanisms and sums are shown as drawn, without a note
    assert rd.released_values(_release("count", "discrete_laplace", 17.0)) == (17.0,)
    assert rd.rounding_note(_release("count", "discrete_gaussian", 17.0)) is None
    mean = _release("mean", "laplace", 38.123)
    assert rd.released_values(mean) == (38.123,) and rd.rounding_note(mean) is None


def test_slope_unit():
    assert rd.slope_unit("hours_per_week", "age") == "hours_per_week per year of age"
    assert rd.slope_unit("income", "hours") == "income per unit of hours"


def test_clipping_reading():
    t = dp.ClippingTradeoff(
        lower=0.0,
        uppers=np.array([10.0, 20.0, 40.0]),
        bias=np.array([-5.0, -1.0, 0.0]),
        sampling_sd=np.array([0.1, 0.1, 0.1]),
        noise_sd=np.array([0.2, 0.4, 0.8]),
        rmse=np.array([5.01, 1.0877, 0.806]),
        best_upper=40.0,
        epsilon=0.5,
        n=1234,
        true_mean=21.25,
    )
    assert rd.clipping_reading(t).startswith(
        "At epsilon = 0.5 over 1,234 values, the smallest total error is at U = 40 (RMSE 0.806 "
        "around a true mean of 21.25)."
    )


def test_parallel_worlds_and_posterior_readings():
    assert rd.parallel_reading(0.25).endswith("would have cost 0.25 more.")
    assert rd.worlds_reading("5 people drawn at random") == "Candidates: 5 people drawn at random."
    assert rd.posterior_reading("income", 52_000.0, 0.015) == (
        "The curve follows the most exposed candidate (income = 5.2e+04): the attacker's "
        "certainty peaks when the noisy answer lands on that person's value and stays at or "
        "below 1.5%."
    )


def test_sample_aggregate_readings():
    sa = dp.SampleAggregate(
        statistic="median",
        k=50,
        block_size=651,
        bounds=(0.0, 100.0),
        block_values=np.full(50, 38.0),
        aggregate=38.5,
        full_data_value=37.0,
        epsilon=1.0,
        scale=2.0,  # (100 - 0) / (50 * 1)
        half_width=2.0 * LN20,
    )
    assert rd.sample_aggregate_reading(sa) == (
        "k = 50 blocks of 651 people; the clamped average is 38.5 against 37 on all records. "
        "At epsilon = 1 the noise scale is 2, so the release is within +/- 5.991 with 95% "
        "confidence. More blocks: less noise, but each block's statistic is noisier."
    )
    sa_slope = dp.SampleAggregate(
        "slope", 50, 651, (-5.0, 5.0), np.full(50, 0.1), 0.12, 0.1, 1.0, 0.2, 0.2 * LN20
    )
    assert rd.sample_aggregate_reading(sa_slope, "hours per year of age").startswith(
        "k = 50 blocks of 651 people; the clamped average is 0.12 hours per year of age "
        "against 0.1 hours per year of age on all records."
    )
    assert rd.sample_aggregate_release_reading("median", 38.1234567, 1.0) == (
        "Released median: 38.1235 (certified epsilon 1)."
    )


def test_local_laplace_reading():
    r = ldp.LaplaceLdpResult(
        column="age",
        epsilon=1.0,
        bounds=(0.0, 100.0),
        n=2000,
        true_mean=41.3,
        clipped_mean=41.2,
        estimated_mean=43.0,
        half_width=6.2,
        scale=100.0,  # (U - L) / epsilon
        example_reports=np.zeros(10),
    )
    assert rd.local_laplace_reading(r) == (
        "Each of 2,000 people clips their age to [0, 100] and adds Laplace noise of scale 100, "
        "so a single report says almost nothing; the average of all reports is 43 +/- 6.2 "
        "(95%) for a clipped mean of 41.2."
    )


def test_query_phrase():
    assert rd.query_phrase("count", None) == ("count", "people")
    assert rd.query_phrase("sum", "income") == ("sum of income", "income units")
    assert rd.query_phrase("mean", "age") == ("mean of age", "age units")
    assert rd.query_phrase("histogram", "sex") == ("largest bar of the sex histogram", "people")


def test_format_number_never_writes_a_count_in_scientific_notation():
    # issue 12: a count of 1,000,000 rows read "1e+06" with :,.6g
    assert f"{1_000_000:,.6g}" == "1e+06"  # the defect being fixed
    assert rd.format_number(1_000_000.0, integer=True) == "1,000,000"
    assert rd.format_number(32_561.0, integer=True) == "32,561"
    assert rd.format_number(12_345_678.9) == "12,345,679"
    assert rd.format_number(1_234.567) == "1,234.57"
    assert rd.format_number(0.0123456789) == "0.0123457"
    assert rd.format_number(999_999.7) == "1,000,000"  # :,.6g would give "1e+06"
    # four significant digits (the Local DP means): an income mean of 39,512.3 read "3.951e+04"
    assert f"{39_512.3:,.4g}" == "3.951e+04"
    assert rd.format_number(39_512.3, digits=4) == "39,512"
    assert rd.format_number(38.5817, digits=4) == "38.58"


def test_stale_release_reading_names_the_settings():
    from riskcore.dp.query import Query

    text = rd.stale_release_reading(
        Query("sum", column="income", bounds=(0.0, 100.0)),
        0.5,
        "discrete_laplace",
        dp.NEIGHBOURING_LABELS["change_one"],
        1e-6,
    )
    assert text.startswith("The last release (sum of income clipped to [0, 100], epsilon 0.5,")
    assert "Discrete Laplace" in text and "change one person's row" in text
    assert "delta 1e-06" in text and "another dataset" not in text


def test_composition_reading_says_the_axis_is_logarithmic():
    # epsilon 10: advanced composition's first query costs 10 sqrt(2 ln 1e6) + 10 (e^10 - 1)
    c = dp.composition_curves(10.0, 300, delta_prime=1e-6)
    first = 10 * math.sqrt(2 * math.log(1e6)) + 10 * math.expm1(10)
    assert f"{first:,.0f}" == "220,307"
    assert rd.composition_reading(c, 10.0).endswith(
        "The chart's epsilon axis is logarithmic: one query already costs 220,307 under "
        "advanced composition and 10 under basic composition."
    )
    assert "logarithmic" not in rd.composition_reading(dp.composition_curves(0.01, 300), 1.0)


def test_accountant_totals_say_which_one_spends():
    ledger = dp.PrivacyLedger(1.0)
    assert rd.accountant_totals_reading(ledger.totals(), "basic").startswith("No release yet")
    tot = ledger.charge(dp.LedgerEntry(query="count", mechanism="laplace", epsilon=1.0)).totals()
    # one release of epsilon 1: advanced composition sqrt(2 ln 1e6) + (e - 1) = 7.0 > 1
    advanced = math.sqrt(2 * math.log(1e6)) + math.e - 1
    text = rd.accountant_totals_reading(tot, "basic")
    assert text.startswith(
        "The 1 release so far would total epsilon 1 under basic composition, "
        f"{advanced:.4g} under advanced composition"
    )
    assert "this ledger counts by basic composition, and only that is spent" in text
    assert "Advanced composition totals more than basic here" in text
