"""Readings and figures of the clipped mean, differential identifiability and local DP with
a person as the unit: each states the unit (issue 36, item 7). Results are built by hand
where the sentence's numbers are the point; the planning numbers are worked from the
formulas of Wang et al. (2017) at epsilon / c."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from riskcore import dp
from riskcore.dp import local as ldp
from riskcore.dp.contributions import PrivacyUnit
from riskcore.report import figures as fg
from riskcore.report import readings as rd

Z975 = 1.959963984540054
UNIT = PrivacyUnit("patient_id", 4)


def _trade_off(**extra) -> dp.ClippingTradeoff:
    return dp.ClippingTradeoff(
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
        **extra,
    )


# ------------------------------------------------------------------ the query's unit


def test_a_count_counts_rows_with_a_person():
    assert rd.query_phrase("count", None, unit=UNIT) == ("count", "rows")
    bar = rd.query_phrase("histogram", "dx", unit=UNIT)
    assert bar == ("largest bar of the dx histogram", "rows")
    assert rd.query_phrase("sum", "amount", unit=UNIT) == ("sum of amount", "amount units")
    assert rd.query_phrase("count", None, unit=dp.ONE_ROW) == ("count", "people")


# ------------------------------------------------------------------ the clipped mean


def test_the_clipping_reading_states_the_person_unit():
    t = _trade_off(unit=UNIT, people=500, rows_left_out=66, every_row_mean=20.0)
    assert rd.clipping_reading(t) == (
        "At epsilon = 0.5 per person over the 1,234 values of 500 people kept (at most 4 rows "
        "each, a seeded sample; 66 rows left out), the smallest total error is at U = 40 (RMSE "
        "0.806 around a mean of 21.25 over the kept rows). The privacy noise is set for 4 rows "
        "per person, sensitivity 4 (U - L) / 1,234, and the sampling noise counts people, not "
        "rows. Leaving out the rows beyond 4 per person moved the mean from 20 (every row) to "
        "21.25 (read from the data; not in the total). Picking U from this plot uses the data "
        "itself: fix it in advance or spend a little budget on a private quantile."
    )
    # nothing left out: no shift to state
    kept = rd.clipping_reading(_trade_off(unit=UNIT, people=500, every_row_mean=21.25))
    assert "0 rows left out" in kept and "moved the mean" not in kept
    # one row per person: the sentence as it was
    assert rd.clipping_reading(_trade_off()).startswith("At epsilon = 0.5 over 1,234 values,")


def test_the_clipping_chart_states_the_person_unit_and_the_shift():
    t = _trade_off(unit=UNIT, people=500, rows_left_out=66, every_row_mean=20.0)
    fig = fg.clipping_chart(t, "amount units")
    assert fig.layout.title.text.replace("<br>", " ") == (
        "Error of the DP mean against the upper clipping bound U (epsilon = 0.5 per person, "
        "at most 4 rows each)"
    )
    names = [d.name for d in fig.data]
    assert names[:4] == [
        "|clipping bias|",
        "sampling noise (sd, by person)",
        "privacy noise (sd, for 4 rows per person)",
        "total error (RMSE)",
    ]
    # the shift 21.25 - 20 = 1.25 lies between 0.806 / 100 and 5.01 x 2: a line at 1.25
    line = next(s for s in fig.layout.shapes if s.y0 == s.y1)
    assert line.y0 == pytest.approx(1.25)
    assert any("the mean moves 1.25" in a.text for a in fig.layout.annotations)
    # one row per person: the title and names as they were, no line
    rows = fg.clipping_chart(_trade_off(), "amount units")
    assert rows.layout.title.text.replace("<br>", " ").endswith("(epsilon = 0.5)")
    assert [d.name for d in rows.data][1:3] == ["sampling noise (sd)", "privacy noise (sd)"]
    assert not any(s.y0 == s.y1 for s in rows.layout.shapes)


# ------------------------------------------------------------------ differential identifiability


def _worlds(source: str, **extra) -> dp.CandidateWorlds:
    fields = {
        "column": "amount",
        "values": np.array([12.0, 30.0, 7.0]),
        "source": source,
        "unit": UNIT,
        "candidates": 3,
        "population": 2_500,
        "without_number": 0,
        "rows": 8,
        "quasi_identifiers": ("zip", "sex") if source == "class" else (),
    }
    fields.update(extra)
    return dp.CandidateWorlds(**fields)


def test_the_candidates_are_described_as_people_and_what_a_world_adds():
    assert rd.candidates_description(_worlds("class")) == (
        "the 3 people (patient_id) of the smallest class with 2 or more people on zip, sex; a "
        "world adds one person's rows (at most 4 rows, 8 rows in all), so its value is that "
        "person's sum of amount"
    )
    sample = rd.candidates_description(_worlds("sample", candidates=4, without_number=1))
    assert sample == (
        "4 people (patient_id) drawn at random from the table's 2,500 people; a world adds one "
        "person's rows (at most 4 rows, 8 rows in all), so its value is that person's sum of "
        "amount; 1 of them has no number of amount and is left out (m = 3)"
    )
    rows = _worlds("sample", unit=dp.ONE_ROW)
    assert rd.candidates_description(rows) == "3 people drawn at random from the table"


def test_the_identifiability_and_posterior_readings_state_the_person():
    res = dp.IdentifiabilityResult(
        m=200, rho=0.015, epsilon=0.01234, sensitive_range=50.0, scale=4052.0,
        tight_epsilon=0.5, worst_risk=0.01,
    )  # fmt: skip
    assert rd.identifiability_reading(res, unit=UNIT).startswith(
        "To keep the attacker's certainty about which of m = 200 candidate people is in the "
        "data at or below 1.5%, use epsilon = 0.0123 per person: Laplace noise of scale 4,052 "
        "on a query whose answer ranges over 50 across the candidates' worlds, each adding "
        "one person's rows (at most 4). For these concrete candidates the exact epsilon is 0.5;"
    )
    assert rd.identifiability_reading(res).startswith(
        "To keep the attacker's certainty that a record is a given person"
    )
    assert rd.posterior_reading("amount", 52.5, 0.015, unit=UNIT) == (
        "The curve follows the most exposed candidate person (their amount summed over at most "
        "4 rows: 52.5): the attacker's certainty peaks when the noisy answer lands on that "
        "person's value and stays at or below 1.5%."
    )


# ------------------------------------------------------------------ local DP


def _people_needed(margin: float, epsilon: float, k: int, c: int) -> int:
    e = math.exp(epsilon / c)  # each of the c reports at epsilon / c
    return math.ceil(Z975**2 * (e + k - 2) / (margin**2 * (e - 1) ** 2 * c))


def test_the_planning_reading_plans_people_sending_c_reports_at_epsilon_over_c():
    needed, one = _people_needed(0.02, 1.0, 4, 4), _people_needed(0.02, 1.0, 4, 1)
    first, second = rd.planning_reading(4, 1.0, 2.0, unit=UNIT)
    assert first == (
        f"At epsilon = 1 per person with k = 4 categories, each person sending 4 reports at "
        f"epsilon 0.25 each, {needed:,} people ({4 * needed:,} reports) give each share of the "
        f"reports to within +/- 2 points (95%). With one report per person at epsilon 1, "
        f"{one:,} people would."
    )
    # the protocols compared at the epsilon of a report: 3 e^(1/4) + 2 = 5.85 < 7 = k
    assert second == (
        "k-ary randomized response is the better protocol here: unary encoding only wins when "
        "k > 3e^(epsilon / 4) + 2 = 5.9."
    )
    assert rd.planning_reading(7, 1.0, 2.0, unit=UNIT)[1].startswith(
        "With k = 7 > 3e^(epsilon / 4) + 2 = 5.9, optimized unary encoding"
    )
    single = rd.planning_reading(4, 1.0, 2.0, unit=PrivacyUnit("patient_id", 1))[0]
    assert single == (
        f"At epsilon = 1 per person with k = 4 categories, each person sending one report, "
        f"{one:,} people ({one:,} reports) give each share of the reports to within +/- 2 "
        "points (95%)."
    )


def test_the_planning_table_counts_people_and_their_reports():
    eps = np.array([0.5, 2.0])
    t = rd.ldp_planning(4, eps, (100, 2_500), unit=PrivacyUnit("p", 3), reports={2_500: 6_000})
    assert list(t["n"]) == ["100 people, 300 reports"] * 2 + ["2,500 people, 6,000 reports"] * 2
    for n, e, margin in zip([300, 300, 6_000, 6_000], [0.5, 2.0] * 2, t["margin"], strict=True):
        ep = math.exp(e / 3)
        assert margin == pytest.approx(Z975 * math.sqrt((ep + 2) / (n * (ep - 1) ** 2)))


def test_the_margin_chart_states_epsilon_per_person():
    eps = np.array([0.5, 1.0])
    unit = PrivacyUnit("p", 3)
    fig = fg.margin_chart(rd.ldp_planning(4, eps, (100,), unit=unit), 1.0, unit=unit)
    assert fig.layout.title.text.replace("<br>", " ") == (
        "Local DP: accuracy of one category's share of the reports, by epsilon per person and "
        "number of people (each sends up to 3 reports at epsilon / 3)"
    )
    assert fig.layout.xaxis.title.text == "epsilon per person (log scale)"
    assert [d.name for d in fig.data] == ["100 people, 300 reports"]


def test_the_local_figures_count_reports_with_a_person():
    r = ldp.grr_simulate(
        pd.Series(list("aabbbc") * 5, name="x"), 1.0,
        persons=pd.Series(np.arange(30) // 3, name="p"), max_rows=2,
    )  # fmt: skip
    fig = fg.grr_bars(rd.grr_table(r), "x", counted="reports")
    assert fig.layout.xaxis.title.text == "reports"
    lap = ldp.laplace_ldp_simulate(
        np.arange(30.0), 1.5, bounds=(0, 30), persons=pd.Series(np.arange(30) // 3, name="p"),
        max_rows=3,
    )  # fmt: skip
    chart = fg.laplace_ldp_chart(lap)
    assert chart.data[0].name == "one report (noise only)"
    assert "(epsilon = 1.5 per person, 0.5 per report)" in chart.layout.title.text.replace(
        "<br>", " "
    )
