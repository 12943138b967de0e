"""Differencing, homogeneity and two-release attacks on the seed tables of the source texts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from riskcore.attacks import (
    difference_within_probability,
    differencing_attack,
    homogeneity_attack,
    simulate_noisy_difference,
    two_release_attack,
)
from riskcore.demo import make_people
from riskcore.errors import RiskcoreError
from tests.conftest import shared_file

KNOWN = ["Ethnicity", "Zip", "Marital status", "Sex"]


def health() -> pd.DataFrame:
    return pd.read_csv(shared_file("seed_examples/health_toy.csv"), dtype={"Zip": str})


def test_differencing_on_the_hospital_table():
    # the lecture's numbers: 4 people have obesity, 3 others than the neighbour (row 9)
    r = differencing_attack(health(), 9, KNOWN, condition={"Problem": "Obesity"})
    assert (r.q_all, r.q_rest) == (4, 3)
    assert r.recovered == 1 and r.true_value == 1 and r.exact and r.group_size == 1
    # a 10-row table cannot meet a cell-size rule of 11
    assert not r.passes_cell_rule
    q1, q2 = r.queries()
    assert "everyone" in q1 and "except" in q2
    # another target: row 8 (Single, Female, Chest pain) does not have obesity
    r8 = differencing_attack(health(), 8, KNOWN, condition={"Problem": "Obesity"})
    assert r8.recovered == 0 and r8.true_value == 0


def test_cell_size_rule_does_not_stop_large_groups():
    df = make_people(2000, seed=4)
    t = 17
    r = differencing_attack(
        df, t, ["date_of_birth", "zip", "sex"], condition={"diagnosis": df["diagnosis"].iloc[t]}
    )
    assert r.exact and r.recovered == 1
    assert r.q_all >= 11 and r.q_rest >= 11 and r.passes_cell_rule
    s = differencing_attack(
        df, t, ["date_of_birth", "zip", "sex"], aggregate="sum", column="hours_per_week"
    )
    assert s.recovered == pytest.approx(df["hours_per_week"].iloc[t])
    m = differencing_attack(
        df, t, ["date_of_birth", "zip", "sex"], aggregate="mean", column="hours_per_week"
    )
    assert m.recovered == pytest.approx(df["hours_per_week"].iloc[t])
    assert m.contributors_all == 2000 and m.contributors_rest == 1999


def test_group_of_several_gives_a_group_total_not_a_value():
    r = differencing_attack(
        health(), 4, ["Marital status", "Sex"], condition={"Problem": "Obesity"}
    )
    # Married men: rows 4, 5, 7 -> one of them (row 7) has obesity
    assert r.group_size == 3 and not r.exact and r.recovered == 1


def test_differencing_bad_input():
    with pytest.raises(RiskcoreError, match="filter"):
        differencing_attack(health(), 0, KNOWN)
    with pytest.raises(RiskcoreError, match="numeric"):
        differencing_attack(health(), 0, KNOWN, aggregate="sum", column="Problem")
    with pytest.raises(RiskcoreError, match="row"):
        differencing_attack(health(), 10, KNOWN, condition={"Problem": "Obesity"})


def test_difference_of_two_laplace_closed_form():
    # b = 1, x = 0.5: 1 - e^-0.5 * 1.25 = 0.241837 (hand computed)
    assert float(difference_within_probability(0.5, 1.0)) == pytest.approx(0.2418367, abs=1e-6)
    # x = 0: never exactly right
    assert float(difference_within_probability(0.0, 1.0)) == 0.0
    # more epsilon, more success
    p = difference_within_probability(0.5, np.array([0.01, 0.1, 1.0, 10.0]))
    assert np.all(np.diff(p) > 0) and p[-1] > 0.97
    # simulation agrees with the closed form (fixed seed, 20,000 draws)
    sim = simulate_noisy_difference(1.0, 0.5, draws=20_000, seed=1)
    emp = np.mean(np.abs(sim - 1.0) <= 0.5)
    assert emp == pytest.approx(float(difference_within_probability(0.5, 0.5)), abs=0.012)
    # variance of the difference: 2 * 2b^2 = 4 b^2 with b = 2
    assert np.var(sim) == pytest.approx(16.0, rel=0.06)


def test_homogeneity_on_the_iq_table():
    iq = pd.read_csv(shared_file("seed_examples/iq_limbs_3anonymous.csv"))
    h = homogeneity_attack(iq, ["Age", "Limbs"], "IQ")
    # everyone in their 50s with 3 limbs has Low IQ
    assert len(h.exposed) == 1 and h.exposed_records == 3
    assert h.top_value.tolist() == ["Low"] and h.top_share.tolist() == [1.0]
    crit = h.by_criterion.set_index(["criterion", "level"])["exposed records left"]
    assert crit[("distinct l", 1.0)] == 3 and crit[("distinct l", 2.0)] == 0
    # t of the Low class: equal distance 0.5 * (|1 - 3/5| + 1/5 + 1/5) = 0.4
    assert crit[("t-closeness", 0.5)] == 3 and crit[("t-closeness", 0.3)] == 0
    # merged cohort (Age [40,50], Limbs [3,4]) is 3-diverse: nothing exposed
    merged = iq.assign(Age="40-50", Limbs="3-4")
    assert homogeneity_attack(merged, ["Age", "Limbs"], "IQ").exposed_records == 0
    # at p = 0.5 the (40, 4) class (High, Medium) is also exposed
    assert homogeneity_attack(iq, ["Age", "Limbs"], "IQ", p=0.5).exposed_records == 5


def test_two_releases_reveal_doug_fulton():
    bmi = pd.read_csv(shared_file("seed_examples/bmi_two_schemes.csv"))
    r = two_release_attack(bmi[["k1_BMI", "k2_BMI"]])
    assert r.kind == "mean"
    assert np.flatnonzero(r.exact).tolist() == [3]  # Doug Fulton
    assert r.inferred[3] == pytest.approx(43, abs=0.02)  # means are rounded to 2 decimals
    # the source's inferred column
    assert np.allclose(r.inferred, bmi["Inferred_BMI"], atol=0.015)
    # one release alone reveals nobody
    with pytest.raises(RiskcoreError):
        two_release_attack(bmi[["k1_BMI"]])


def test_two_releases_of_bands():
    r = two_release_attack(
        pd.DataFrame({"r1": ["40-44", "40-44", "[30, 40)"], "r2": ["44-48", "41-48", "35+"]})
    )
    assert r.kind == "interval"
    assert r.exact.tolist() == [True, False, False]
    assert r.low.tolist() == [44, 41, 35] and r.high.tolist() == [44, 44, 40]
