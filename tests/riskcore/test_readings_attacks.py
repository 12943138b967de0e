"""Readings of the attacks: linkage, homogeneity, differencing, noise and two releases.

Results are built by hand (or computed on an eight-row table whose classes
are counted by hand); every expected number is worked out in the comments.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest

from riskcore.attacks import differencing_attack, homogeneity_attack
from riskcore.attacks.linkage import LinkageCurve, Rate
from riskcore.engine import EncodedTable
from riskcore.report import readings as rd
from tests.riskcore.cases import differencing_case, linkage_case

PEOPLE = pd.DataFrame(
    {
        "age": [30, 30, 30, 40, 40, 50, 60, 60],
        "zip": ["100", "100", "100", "200", "200", "300", "400", "400"],
        "diag": ["flu", "flu", "cold", "flu", "flu", "cold", "flu", "cold"],
    }
)


def test_linkage_reading():
    assert rd.linkage_reading(linkage_case()) == (
        "4 of 10 targets (40.0%, 95% CI 16.8%-68.7%) match exactly one released record; "
        "for 3 (30.0%, 95% CI 10.8%-60.3%) it is their own (unique and correct). Picking one "
        "of the matching records at random, an attacker is right for an expected 45.0% of "
        "targets. As a baseline, a guess among all 8 released records is right 1 time in 8 "
        "(12.5%); 2 targets match nobody."
    )
    without_truth = rd.linkage_reading(linkage_case(correct=False))
    assert "unique and correct" not in without_truth and "at random" not in without_truth
    with_ci = dataclasses.replace(linkage_case(), expected_correct_ci=(0.1234, 0.5678))
    assert "an expected 45.0% of targets, 95% CI 12.3%-56.8%." in rd.linkage_reading(with_ci)
    assert rd.guess_phrase(dataclasses.replace(linkage_case(), n_release=32_561)) == (
        "a guess among all 32,561 released records is right 1 time in 32,561 (0.00307%)"
    )


def test_attribute_table():
    t = rd.attribute_table(linkage_case())
    row = t.iloc[0]
    assert row["attribute"] == "diag"
    assert row["learned with confidence >= p"] == 0.5
    assert row["95% CI"] == "23.7% - 76.3%"
    assert row["learned and correct"] == 0.4
    assert row["base rate (always guess the commonest)"] == 0.6
    assert row["commonest value"] == "flu"


def _rates(*rates: float) -> tuple[Rate, ...]:
    return tuple(Rate(0, 10, r, r - 0.05, r + 0.05, 0.1) for r in rates)


def test_curve_reading_names_the_biggest_jump():
    # steps: +10%, +40%, +10%: dob adds the most
    curve = LinkageCurve(("zip", "dob", "sex"), _rates(0.1, 0.5, 0.6), _rates(0.1, 0.5, 0.6))
    assert rd.curve_reading(curve) == (
        "Knowing all 3 columns re-identifies 60.0% of targets; the biggest jump comes from "
        "adding dob (+40.0%)."
    )
    assert rd.curve_reading(LinkageCurve((), (), ())) == ""


# ------------------------------------------------------------------ homogeneity


def test_homogeneity_reading_and_exposed_table():
    # p = 1: the homogeneous classes (40, 200) x2 flu and (50, 300) x1 cold: 3 people
    h = homogeneity_attack(PEOPLE, ["age", "zip"], "diag", p=1.0)
    assert rd.homogeneity_reading(h, ["age", "zip"]) == (
        "3 people (37.5%) sit in 2 classes where everyone has the same diag: anyone who "
        "knows their age + zip learns it."
    )
    # below p = 1 the share is a floor: (40, 200) x2 flu, (50, 300) cold, and 2 of 3 at p = 0.6
    h6 = homogeneity_attack(PEOPLE, ["age", "zip"], "diag", p=0.6)
    assert "where at least 60% share one diag" in rd.homogeneity_reading(h6, ["age", "zip"])
    t = rd.exposed_table(PEOPLE, EncodedTable(PEOPLE), ["age", "zip"], h)
    assert list(t["age"]) == [40, 50]  # largest first
    assert list(t["zip"]) == ["200", "300"]
    assert list(t["people"]) == [2, 1]
    assert list(t["leaked diag"]) == ["flu", "cold"]
    np.testing.assert_allclose(t["confidence"], [1.0, 1.0])


def test_homogeneity_reading_when_nothing_is_exposed():
    df = pd.DataFrame({"q": ["a", "a", "b", "b"], "s": ["x", "y", "x", "y"]})
    h = homogeneity_attack(df, ["q"], "s", p=0.9)
    assert rd.homogeneity_reading(h, ["q"]) == (
        "No class reveals s with confidence 90% or more: knowing someone's q does not pin "
        "down their s."
    )


# ------------------------------------------------------------------ differencing


def test_differencing_reading_exact_count():
    assert rd.differencing_reading(differencing_case()) == (
        "The difference 120 - 119 tells the attacker the target has diag = flu: 1 person "
        "shares the known values, so the difference is theirs. Both answers come from at "
        "least 11 people, so a minimum-cell-size rule would publish them."
    )
    no = rd.differencing_reading(
        differencing_case(recovered=0.0, q_rest=120.0, passes_cell_rule=False)
    )
    assert "the target does not have diag = flu" in no
    assert "(A cell-size rule of 11 would suppress at least one answer here" in no


def test_differencing_reading_sum_and_group():
    s = rd.differencing_reading(
        differencing_case(
            aggregate="sum",
            column="income",
            condition=(),
            q_all=952_000.0,
            q_rest=900_000.0,
            recovered=52_000.0,
        )
    )
    assert "The difference 952,000 - 900,000 tells the attacker the target has income = 52,000" in s
    g = rd.differencing_reading(differencing_case(exact=False, group_size=3, recovered=150_000.0))
    assert g == (
        "3 people share the target's known values, so the difference (150,000) is a total "
        "over those 3 people, not the target's own value."
    )


# ------------------------------------------------------------------ noise


def test_noise_reading():
    # b = 1 / 0.5 = 2: 95% error b ln 20 = 5.99; P(|D| <= 0.5) = 1 - e^-0.25 (1 + 0.125) = 12.4%
    assert rd.noise_reading(0.5, 1.0, 0.5) == (
        "At epsilon = 0.5 per query, each answer is off by up to +/- 6.0 (95%), and the "
        "attacker's difference lands within +/- 0.5 of the truth with probability 12.4%, "
        "computed exactly from the Laplace distribution (it was 100% without noise)."
    )


def test_noise_curve():
    c = rd.noise_curve(0.5, 2.0)
    assert len(c) == 61
    assert c["epsilon"].iloc[0] == pytest.approx(0.01)
    assert c["epsilon"].iloc[-1] == pytest.approx(10.0)
    at1 = c.iloc[40]  # 10^(-2 + 40 * 3 / 60) = 1
    assert at1["epsilon"] == pytest.approx(1.0)
    b = 2.0  # sensitivity 2 / epsilon 1
    assert at1["p within"] == pytest.approx(1 - math.exp(-0.5 / b) * (1 + 0.5 / (2 * b)))
    assert at1["error95"] == pytest.approx(b * math.log(20))


def test_estimate_reading():
    # |draw - 10| = 0.5, 0.2, 1, 4, 0: four of five within 1
    assert rd.estimate_reading(np.array([9.5, 10.2, 11.0, 14.0, 10.0]), 10.0, 1.0) == (
        "In this simulation 80.0% of the 5 attacker's estimates land within +/- 1 of the true "
        "value 10; the rest point to a wrong answer."
    )


# ------------------------------------------------------------------ two releases


def test_two_release_table_puts_exact_recoveries_first():
    # bands: [20,29] and [29,35] meet at 29 only; the other rows stay ranges
    df = pd.DataFrame(
        {"r1": ["30-39", "20-29", "20-29"], "r2": ["30-39", "20-25", "29-35"], "x": [1, 2, 3]}
    )
    res, table = rd.two_release_table(df, ["r1", "r2"])
    assert res.n_exact == 1
    assert list(table.index) == [2, 0, 1]
    assert list(table["exact"]) == [True, False, False]
    assert float(table["inferred"].iloc[0]) == 29.0


def test_queries_list():
    # _diff: count of people with diag = flu known on age, zip; answers 120 and 119
    d = differencing_case(q_all=1234.5, q_rest=1233.5)
    assert rd.queries_list(d) == (
        "1. how many people with diag = flu, over everyone: **1,234.5**\n"
        "2. how many people with diag = flu, over everyone except people with the target's "
        "age, zip: **1,233.5**"
    )
    counted = rd.queries_list(d, number_format=",.0f", escape=lambda v: f"<{v}>")
    assert counted.startswith("1. <how many people with diag = flu, over everyone>: **1,234**")


def test_needs_qis_reading_names_the_attack_and_the_ones_that_run_anyway():
    assert rd.needs_qis_reading("linkage") == (
        "Tag at least one quasi-identifier on the Data page: the linkage attack joins the "
        "attacker's table on them. The differencing and two-release attacks do not need them."
    )
    assert "reads the classes they form" in rd.needs_qis_reading("homogeneity")


def test_differencing_counts_on_a_million_rows_read_as_whole_numbers():
    # issue 12: a count of 1,000,000 rows read "1e+06" (format ",.6g")
    n = 1_000_000
    df = pd.DataFrame({"a": np.zeros(n, dtype=np.int64), "s": "x"})
    df.loc[7, "a"] = 1  # the target, alone on a = 1
    r = differencing_attack(df, 7, ["a"], condition={"s": "x"})
    assert (r.q_all, r.q_rest) == (1_000_000, 999_999)
    listed = rd.queries_list(r)
    assert "**1,000,000**" in listed and "**999,999**" in listed and "e+" not in listed
    assert "The difference 1,000,000 - 999,999 tells the attacker" in rd.differencing_reading(r)
    # a sum over a million people keeps its units, still without an exponent
    df["v"] = 2.0
    r = differencing_attack(df, 7, ["a"], aggregate="sum", column="v")
    assert rd.queries_list(r).startswith("1. ") and "**2,000,000**" in rd.queries_list(r)
    assert "true value 2" in rd.estimate_reading(np.array([2.0]), 2.0, 0.5)
    assert rd.estimate_reading(np.array([0.0]), 1_500_000.0, 0.5).endswith(
        "the true value 1,500,000; the rest point to a wrong answer."
    )


# ------------------------------------------------------------------ people


def test_linkage_reading_in_people():
    # the hand-made case, its 8 released units being people in 20 rows
    r = dataclasses.replace(linkage_case(), person="pid", release_rows=20)
    assert rd.linkage_reading(r) == (
        "4 of 10 target people (40.0%, 95% CI 16.8%-68.7%) match exactly one released person; "
        "for 3 (30.0%, 95% CI 10.8%-60.3%) it is their own (unique and correct). Picking one "
        "of the matching people at random, an attacker is right for an expected 45.0% of "
        "targets. As a baseline, a guess among all 8 released people (in 20 rows) is right 1 "
        "time in 8 (12.5%); 2 targets match nobody."
    )
    assert rd.targets_label(r) == "Targets (people)"
    assert rd.targets_label(linkage_case()) == "Targets"


def test_homogeneity_reading_in_people_states_the_rows():
    # one person per row but two rows for the person "b" of (40, 200): 8 rows, 7 people
    df = PEOPLE.assign(pid=["a1", "a2", "a3", "b", "b", "c", "d1", "d2"])
    h = homogeneity_attack(df, ["age", "zip"], "diag", p=1.0, person="pid")
    # exposed: (40, 200) is one person (b, flu on both rows) and (50, 300) one (cold):
    # 2 of 7 people, in 3 of 8 rows
    assert rd.homogeneity_reading(h, ["age", "zip"]) == (
        "2 people (28.6%; 3 of 8 rows) sit in 2 classes where every person has had the same "
        "diag on one of their rows: anyone who knows their age + zip learns it."
    )
    t = rd.exposed_table(df, EncodedTable(df), ["age", "zip"], h)
    assert list(t["people"]) == [1, 1] and list(t["rows"]) == [2, 1]
    assert list(t["age"]) == [40, 50]


def test_differencing_reading_in_people():
    exact = differencing_case(person="pid", rows=500)
    assert "1 person holds the known values on one of their rows, so the difference is theirs" in (
        rd.differencing_reading(exact)
    )
    group = differencing_case(person="pid", rows=500, group_size=3, exact=False, recovered=2.0)
    assert rd.differencing_reading(group).startswith(
        "3 people hold the target's known values on one of their rows, so the difference (2)"
    )


def test_people_note_and_recovered_metric():
    assert rd.people_note("patient_id", 2_500, 8_177).startswith(
        "Counted in people: patient_id links a person's rows, 2,500 people in 8,177 rows."
    )
    bands = pd.DataFrame(
        {"pid": ["a", "a", "b"], "r1": ["40-44", "40-44", "30-34"], "r2": ["44-48", "44-48", "35+"]}
    )
    res, table = rd.two_release_table(bands, ["r1", "r2"], person="pid")
    # rows 0 and 1 are 44 exactly, both a's: one person of two, two rows of three
    assert rd.recovered_metric(res) == (
        "People with a value recovered exactly",
        "1 of 2 (2 of 3 rows)",
    )
    assert list(table.columns) == ["r1", "r2", "inferred", "exact"]
    plain, _ = rd.two_release_table(bands, ["r1", "r2"])
    assert rd.recovered_metric(plain) == ("Values recovered exactly", "2 of 3")
