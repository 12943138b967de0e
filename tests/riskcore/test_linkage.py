"""Linkage attack: hand-worked tables, a naive reference, and properties."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from riskcore.attacks.linkage import (
    linkage_attack,
    linkage_curve,
    parse_interval,
    simulate_auxiliary,
    wilson_interval,
)
from riskcore.deidentify.generalize import band_numeric, date_part, mask_trailing
from riskcore.errors import RiskcoreError

RELEASE = pd.DataFrame(
    {
        "age": [34, 34, 35, 50],
        "zip": ["02139", "02139", "02139", "02141"],
        "sex": ["F", "F", "M", "M"],
        "dx": ["flu", "cold", "flu", "flu"],
    }
)
# voter roll: ZIPs read as numbers, sex in other case with spaces, one unknown age
AUX = pd.DataFrame(
    {
        "name": ["Ann", "Bob", "Cal", "Dan", "Eve"],
        "age": [34, 35, 50, 60, np.nan],
        "zip": [2139, 2139, 2141, 2141, 2139],
        "sex": [" f", "M", "m", "M", "M"],
    }
)
TRUTH = np.array([0, 2, 3, -1, -1])  # Eve is not in the release


def test_wilson_interval_published_values():
    # Wilson (1927) / Newcombe (1998) Table I: 1 of 10 -> 0.0179 to 0.4042; 0 of 10 -> 0 to 0.2775
    lo, hi = wilson_interval(1, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.0179, 0.4042)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def test_hand_worked_linkage():
    r = linkage_attack(RELEASE, AUX, ["age", "zip", "sex"], truth=TRUTH, sensitive=["dx"], p=1.0)
    # Ann: rows 0,1; Bob: row 2; Cal: row 3; Dan: none; Eve (age unknown): row 2
    assert r.candidates.tolist() == [2, 1, 1, 0, 1]
    assert (r.unique.successes, r.unique.n) == (3, 5)
    assert r.correct.successes == 2  # Bob and Cal; Eve's single candidate is not her
    assert r.expected_correct == pytest.approx((0.5 + 1 + 1) / 5)
    # per-target values (0.5, 1, 1, 0, 0): mean 0.5, sample sd 0.5, so 0.5 -/+ 1.96 * 0.5 / sqrt 5
    half = 1.959963984540054 * 0.5 / 5**0.5
    assert r.expected_correct_ci == pytest.approx((0.5 - half, 0.5 + half))
    assert r.to_dict()["expected_correct_ci"] == pytest.approx([0.5 - half, 0.5 + half])
    assert r.in_candidates.successes == 3
    assert r.no_match == 1
    assert r.unique.baseline == pytest.approx(1 / 4)
    (dx,) = r.attributes
    assert dx.base_rate == pytest.approx(0.75) and dx.base_value == "flu"
    assert dx.confident.successes == 3  # Bob, Cal, Eve (Ann's set is half flu, half cold)
    assert dx.correct.successes == 2
    hist = r.candidate_histogram().set_index("candidates")["targets"]
    assert hist["0 (no match)"] == 1 and hist["1"] == 3 and hist["2"] == 1
    assert r.to_dict()["unique"]["ci95"][0] < 0.6 < r.to_dict()["unique"]["ci95"][1]


def test_truth_from_shared_id_columns():
    rel = RELEASE.assign(id=["a1", "a2", "a3", "a4"])
    aux = AUX.assign(id=["A1", "a3", "a4", "zz", "q"])  # ids case-folded too
    r = linkage_attack(rel, aux, ["age", "zip", "sex"], truth=("id", "id"))
    assert r.correct.successes == 2


def test_generalized_release_matches_values_inside_bands():
    rel = RELEASE.assign(age=band_numeric(RELEASE["age"], 10), zip=mask_trailing(RELEASE["zip"], 3))
    assert rel["age"].tolist() == ["30-39", "30-39", "30-39", "50-59"]
    assert rel["zip"].tolist() == ["021**"] * 4
    r = linkage_attack(rel, AUX, ["age", "zip", "sex"], truth=TRUTH)
    # Ann: F in 30s -> rows 0,1; Bob: M 30s -> row 2; Cal -> row 3; Dan: 60 in no band;
    # Eve (age unknown, M, 021**): rows 2 and 3 now that both ZIPs read 021**
    assert r.candidates.tolist() == [2, 1, 1, 0, 2]
    assert any("bands" in n for n in r.notes) and any("prefix" in n for n in r.notes)


def test_other_band_formats():
    assert parse_interval("[30, 40)") == (30.0, 40.0, True, False)
    assert parse_interval("(30;40]") == (30.0, 40.0, False, True)
    assert parse_interval("90+") == (90.0, np.inf, True, False)
    assert parse_interval("<18") == (-np.inf, 18.0, False, False)
    assert parse_interval("Married") is None
    rel = pd.DataFrame({"age": ["<18", "[18, 65)", "65+"]})
    aux = pd.DataFrame({"age": [17.9, 18, 64.99, 65, 90]})
    r = linkage_attack(rel, aux, ["age"])
    assert r.candidates.tolist() == [1, 1, 1, 1, 1]


def test_numeric_tolerance_window():
    aux = pd.DataFrame({"age": [33, 36, 49, 34], "zip": ["02139"] * 3 + ["99999"]})
    r = linkage_attack(RELEASE, aux, ["age", "zip"], tolerance={"age": 1})
    # 33 -> 34,34 ; 36 -> 35 ; 49 -> none in 02139 (50 is 02141) ; 34 in 99999 -> none
    assert r.candidates.tolist() == [2, 1, 0, 0]
    with pytest.raises(RiskcoreError):
        linkage_attack(RELEASE, aux, ["age", "zip"], tolerance={"age": 1, "zip": 1})


def test_dates_by_granularity():
    rel = pd.DataFrame({"dob": ["1987-03-05", "1987-07-01", "1990-01-02"]})
    aux = pd.DataFrame({"dob": ["3/5/1987", "7/30/1987", "1/2/1990"]})
    assert linkage_attack(rel, aux, ["dob"]).candidates.tolist() == [1, 0, 1]
    assert linkage_attack(rel, aux, ["dob"], granularity={"dob": "month"}).candidates.tolist() == [
        1,
        1,
        1,
    ]
    years = rel.assign(dob=date_part(rel["dob"], "year"))
    assert linkage_attack(years, aux, ["dob"], granularity={"dob": "year"}).candidates.tolist() == [
        2,
        2,
        1,
    ]


def test_bad_input_is_a_clear_error():
    with pytest.raises(RiskcoreError, match="no column"):
        linkage_attack(RELEASE, AUX, ["nope"])
    with pytest.raises(RiskcoreError, match="at least one"):
        linkage_attack(RELEASE, AUX, [])
    with pytest.raises(RiskcoreError, match="empty"):
        linkage_attack(RELEASE.iloc[:0], AUX, ["age"])


def _naive_candidates(release: pd.DataFrame, aux: pd.DataFrame, cols: list[str]) -> list[int]:
    """Reference: compare every target with every released record (missing = unknown)."""
    out = []
    for _, t in aux.iterrows():
        n = 0
        for _, r in release.iterrows():
            ok = True
            for c in cols:
                if pd.isna(t[c]):
                    continue
                if pd.isna(r[c]) or r[c] != t[c]:
                    ok = False
                    break
            n += ok
        out.append(n)
    return out


tables = st.integers(5, 40).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 3), min_size=n, max_size=n),
        st.lists(st.sampled_from(["a", "b", "c"]), min_size=n, max_size=n),
        st.lists(st.integers(0, 2), min_size=n, max_size=n),
        st.lists(st.sampled_from(["x", "y"]), min_size=n, max_size=n),
    )
)


@given(tables, st.floats(0, 0.5), st.integers(0, 10_000))
def test_matches_naive_reference_with_unknown_values(cols, missing, seed):
    a, b, c, s = cols
    df = pd.DataFrame({"a": a, "b": b, "c": c, "s": s})
    aux, truth = simulate_auxiliary(df, ["a", "b", "c"], missing_rate=missing, seed=seed)
    r = linkage_attack(df, aux, ["a", "b", "c"], truth=truth, sensitive=["s"], p=0.6)
    assert r.candidates.tolist() == _naive_candidates(df, aux, ["a", "b", "c"])
    # no errors: the own record is always a candidate
    assert r.in_candidates.successes == len(df)


@given(tables, st.integers(0, 10_000))
def test_knowing_one_more_qi_never_lowers_unique_rate(cols, seed):
    a, b, c, _ = cols
    df = pd.DataFrame({"a": a, "b": b, "c": c})
    order = list(np.random.default_rng(seed).permutation(["a", "b", "c"]))
    aux, truth = simulate_auxiliary(df, order)
    curve = linkage_curve(df, aux, order, truth=truth)
    rates = [r.rate for r in curve.unique]
    assert all(x <= y + 1e-12 for x, y in pairwise(rates))
    assert [r.rate for r in curve.correct] == rates  # error-free: unique means correct


@given(tables, st.integers(2, 4), st.integers(1, 3))
def test_k_anonymous_release_never_gives_fewer_than_k_candidates(cols, k, n_known):
    a, b, c, _ = cols
    df = pd.DataFrame({"a": a, "b": b, "c": c})
    sizes = df.groupby(["a", "b", "c"])["a"].transform("size")
    release = df[sizes >= k].reset_index(drop=True)  # suppress small classes
    if release.empty:
        return
    known = ["a", "b", "c"][:n_known]
    aux, truth = simulate_auxiliary(release, known, error_rate=0.3, seed=k)
    r = linkage_attack(release, aux, known, truth=truth)
    matched = r.candidates[r.candidates > 0]
    assert (matched >= k).all()


def test_simulated_errors_remove_own_record_sometimes():
    from riskcore.demo import make_people

    df = make_people(3000, seed=1)
    aux, truth = simulate_auxiliary(df, ["date_of_birth", "zip"], error_rate=0.2, seed=3)
    r = linkage_attack(df, aux, ["date_of_birth", "zip"], truth=truth)
    # P(both values kept) = 0.8^2 = 0.64 (plus rare chance coincidences)
    assert 0.6 < r.in_candidates.rate < 0.7
    with pytest.raises(RiskcoreError):
        simulate_auxiliary(df, ["zip"], error_rate=0.7, missing_rate=0.5)


def test_an_attacker_of_a_generalized_release_matches_true_values_into_its_bands():
    from riskcore.criteria import Targets
    from riskcore.deidentify.hierarchy import date_hierarchy, flat_hierarchy
    from riskcore.deidentify.recipe.apply import apply_recipe
    from riskcore.deidentify.recipe.base import Recipe, generalize_known

    raw = pd.DataFrame(
        {
            "dob": ["1934-05-21", "1938-01-25", "1964-06-23", "1961-02-02", "1999-12-31"],
            "sex": ["F", "F", "M", "M", "F"],
        }
    )
    recipe = Recipe.of(
        {"dob": date_hierarchy(raw["dob"]), "sex": flat_hierarchy(raw["sex"])},
        {"dob": 3, "sex": 0},  # decade
        Targets.of(k=2, max_suppression=0.5),
    )
    # the attacker knows true dates (one of them wrong, one unknown) and the published decades
    known = pd.DataFrame({"dob": ["1934-05-21", "1961-02-02", None], "sex": ["F", "M", "F"]})
    banded = generalize_known(known, raw, recipe)
    # the second target is 1964-06-23: another person's date, yet the right decade
    assert banded["dob"].tolist() == ["1930s", "1960s", None]
    assert banded["sex"].tolist() == ["F", "M", "F"]  # level 0: kept
    # joined to the release: the 1999 woman is suppressed (a class of one) and matches nobody
    release = apply_recipe(raw, recipe).data
    assert release["dob"].tolist() == ["1930s", "1930s", "1960s", "1960s"]
    everyone = generalize_known(raw, raw, recipe)
    truth = np.array([0, 1, 2, 3, -1])
    res = linkage_attack(release.reset_index(drop=True), everyone, ["dob", "sex"], truth=truth)
    assert res.candidates.tolist() == [2, 2, 2, 2, 0]
    assert res.expected_correct == pytest.approx((4 * 0.5) / 5)
