"""The person column: a direct identifier whose values repeat, each value one person's rows.

:func:`riskcore.roles.persons.find_persons` and the person suggestion of
:func:`riskcore.roles.suggest_roles`, on the claims demo (an independent count by pandas
as the oracle), the people demo, and hand-made tables, each test one part of the rule.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from riskcore._results import dumps
from riskcore.demo import make_people
from riskcore.demo.claims import make_claims
from riskcore.roles import ColumnRoles, RoleSuggestions, suggest_roles
from riskcore.roles import persons as persons_module
from riskcore.roles.persons import (
    PersonCandidates,
    RowsNotPeople,
    find_persons,
    person_facts,
    rows_not_people,
)


@pytest.fixture(scope="module")
def claims() -> pd.DataFrame:
    return make_claims(2_500, seed=0)


@pytest.fixture(scope="module")
def claims_suggested(claims) -> RoleSuggestions:
    return suggest_roles(claims)


def _visits(n_people: int, rows_each: list[int], **extra) -> pd.DataFrame:
    """Return a table of ``n_people`` people, person i on ``rows_each[i % len]`` rows, each
    row with its own visit number; ``extra`` columns are functions of the person's number."""
    sizes = np.array([rows_each[i % len(rows_each)] for i in range(n_people)])
    person = np.repeat(np.arange(n_people), sizes)
    out = pd.DataFrame({"patient_id": [f"P{i:05d}" for i in person]})
    for name, f in extra.items():
        out[name] = [f(i) for i in person]
    out["visit"] = np.arange(len(out))
    return out


# ------------------------------------------------------------------ the claims demo


def test_the_claims_demo_suggests_patient_id_as_the_person(claims, claims_suggested):
    s = claims_suggested
    counts = claims["patient_id"].value_counts()  # the oracle: pandas' own count
    best = s.persons.best
    assert best is not None and best.column == "patient_id"
    assert best.n_people == len(counts) == 2_500
    assert best.n_rows == len(claims) and best.n_missing == 0
    assert (best.min_rows, best.max_rows) == (int(counts.min()), int(counts.max())) == (1, 10)
    assert best.median_rows == float(counts.median())
    assert best.repeated == pytest.approx(float((counts >= 2).mean()))
    assert best.same_person == 1.0 and best.traits == ("date_of_birth", "sex")
    assert best.varying == 1.0 and best.named
    assert s["patient_id"].role == "person"
    assert s["patient_id"].letters == ("H",)  # a record number: a direct identifier too
    assert f"2,500 people in {len(claims):,} rows, 1-10 rows each" in s["patient_id"].reason
    assert "agree on date_of_birth and sex" in s["patient_id"].reason
    assert s.roles.person == "patient_id"


def test_claim_id_is_unique_and_stays_a_direct_identifier(claims, claims_suggested):
    s = claims_suggested
    assert claims["claim_id"].is_unique
    assert s["claim_id"].role == "identifier" and s["claim_id"].kind == "record_id"
    found = s.persons
    assert "claim_id" not in {c.column for c in (*found.candidates, *found.mixed)}


def test_household_id_repeats_but_mixes_people_so_it_is_not_the_person(claims, claims_suggested):
    """The rule: a person's rows agree on the traits fixed for a person (date of birth, sex);
    a household's rows do not."""
    s = claims_suggested
    assert s["household_id"].role == "identifier"
    (household,) = s.persons.mixed
    assert household.column == "household_id" and household.mixed
    # the oracle: the households of 2+ rows whose rows agree on both traits
    groups = claims.groupby("household_id")
    sizes = groups.size()
    agree = (groups["date_of_birth"].nunique() == 1) & (groups["sex"].nunique() == 1)
    assert household.same_person == pytest.approx(float(agree[sizes >= 2].mean()))
    assert household.same_person < persons_module.SAME_PERSON_SHARE
    assert household.n_people == claims["household_id"].nunique()


def test_ssn_links_the_same_rows_but_the_column_named_as_a_person_is_preferred(claims_suggested):
    s = claims_suggested
    assert [c.column for c in s.persons.candidates] == ["patient_id", "ssn"]
    assert s["ssn"].role == "identifier"  # only one column can be the person
    # without the patient id, the SSN links the rows
    again = suggest_roles(make_claims(200, seed=1).drop(columns=["patient_id"]))
    assert again["ssn"].role == "person" and again["ssn"].letters == ("G",)


def test_rows_shuffled_and_a_non_range_index_give_the_same_facts(claims, claims_suggested):
    shuffled = claims.sample(frac=1.0, random_state=7)
    shuffled.index = [f"r{i}" for i in range(len(shuffled))]
    best = find_persons(shuffled).best
    want = claims_suggested.persons.best
    assert best is not None and want is not None
    assert (best.column, best.n_people, best.n_rows, best.min_rows, best.max_rows) == (
        want.column, want.n_people, want.n_rows, want.min_rows, want.max_rows
    )  # fmt: skip
    assert best.median_rows == want.median_rows and best.same_person == want.same_person


# ------------------------------------------------------------------ the people demo


def test_the_people_demo_has_no_person_column():
    df = make_people(32_561, seed=0)  # the demo of the app: one row per person
    s = suggest_roles(df)
    assert s.persons.candidates == () and s.persons.mixed == ()
    assert "person" not in {x.role for x in s.values()}
    assert s.roles.persons == ()
    # without the text scan's counts the SSN is counted, and its few repeats are not a person
    found = find_persons(df)
    assert found.checked == ("ssn",) and found.best is None


# ------------------------------------------------------------------ hand-made tables


def test_missing_ids_belong_to_nobody_and_are_counted():
    df = _visits(30, [3])
    df.loc[[0, 10, 20, 30, 40], "patient_id"] = np.nan
    best = find_persons(df).best
    assert best is not None
    assert (best.n_people, best.n_rows, best.n_missing) == (30, 85, 5)
    assert (best.min_rows, best.max_rows) == (2, 3)
    s = suggest_roles(df)
    assert s["patient_id"].role == "person"
    assert "30 people in 85 rows, 2-3 rows each (5 rows without a value)" in s["patient_id"].reason


def test_a_constant_or_a_category_is_not_a_person():
    constant = pd.DataFrame({"patient_id": ["P1"] * 200, "visit": range(200)})
    assert find_persons(constant).best is None
    few = pd.DataFrame({"patient_id": [f"P{i % 5}" for i in range(1_000)], "visit": range(1_000)})
    assert find_persons(few).best is None  # 5 values: under MIN_PEOPLE
    # 20 values over 10,000 rows: fewer than the square root of the rows (100), a category
    ward = pd.DataFrame({"member_id": [f"M{i % 20}" for i in range(10_000)], "x": range(10_000)})
    assert find_persons(ward).best is None
    ward_ok = ward.iloc[:400]  # 20 values over 400 rows: the square root is 20
    assert find_persons(ward_ok).best is not None


def test_a_unique_column_of_100_000_values_is_a_key_not_a_person():
    df = pd.DataFrame({"patient_id": [f"P{i:06d}" for i in range(100_000)], "x": 1})
    assert find_persons(df).best is None
    s = suggest_roles(df)
    assert s["patient_id"].role == "identifier" and s.persons.best is None


def test_100_000_people_on_two_rows_each_within_the_check_limit(monkeypatch):
    n = 100_000
    df = pd.DataFrame(
        {
            "patient_id": np.repeat(np.arange(n), 2),  # numbers: the name makes it eligible
            "sex": np.repeat(np.where(np.arange(n) % 2 == 0, "F", "M"), 2),
            "visit": np.arange(2 * n),
        }
    )
    best = find_persons(df).best
    assert best is not None and (best.n_people, best.n_rows) == (n, 2 * n)
    assert best.groups_checked == n and best.same_person == 1.0
    # beyond the limit, whole groups are checked, every k-th value: the counts stay exact
    monkeypatch.setattr(persons_module, "MAX_CHECK_ROWS", 1_000)
    capped = find_persons(df).best
    assert capped is not None and (capped.n_people, capped.n_rows) == (n, 2 * n)
    assert capped.groups_checked == 500  # 1,000 rows of whole groups of 2
    assert capped.same_person == 1.0 and capped.varying == 1.0


def test_copies_of_rows_are_not_several_records_of_a_person():
    once = _visits(40, [1], sex=lambda i: "FM"[i % 2])
    twice = pd.concat([once, once]).drop(columns="visit")  # every column equal in a group
    assert find_persons(twice).best is None
    assert find_persons(_visits(40, [2])).best is not None  # the visit number differs


@pytest.mark.parametrize(("multi", "found"), [(40, False), (50, True)])
def test_at_least_half_the_values_on_two_rows(multi, found):
    # 100 people, ``multi`` of them on 2 rows and the rest on 1
    df = _visits(100, [2] * multi + [1] * (100 - multi))
    assert (find_persons(df).best is not None) is found


@pytest.mark.parametrize(("mixed_groups", "is_person"), [(4, True), (6, False)])
def test_a_persons_rows_agree_on_sex_in_95_percent_of_the_groups(mixed_groups, is_person):
    """100 people on 2 rows; in ``mixed_groups`` of them the two rows disagree on sex."""
    df = _visits(100, [2])
    second = df["patient_id"].duplicated()
    df["sex"] = "F"
    df.loc[second & df["patient_id"].isin([f"P{i:05d}" for i in range(mixed_groups)]), "sex"] = "M"
    found = find_persons(df)
    c = (found.candidates + found.mixed)[0]
    assert c.same_person == pytest.approx(1 - mixed_groups / 100)
    assert (found.best is not None) is is_person and c.mixed is not is_person


def test_a_missing_trait_contradicts_nothing():
    df = _visits(30, [2], date_of_birth=lambda i: f"19{50 + i}-01-01")
    df.loc[df["patient_id"].duplicated(), "date_of_birth"] = np.nan
    best = find_persons(df).best
    assert best is not None and best.same_person == 1.0 and best.traits == ("date_of_birth",)


def test_without_a_trait_column_a_household_is_not_told_from_a_person():
    """Explicit: the household test needs a trait column (date of birth, sex); without one
    the grouping test is not made, and the finer grouping named like a person wins."""
    people = _visits(60, [2], household_id=lambda i: f"H{i // 3}")
    found = find_persons(people)
    assert [c.column for c in found.candidates] == ["patient_id", "household_id"]
    assert all(c.same_person is None for c in found.candidates)
    with_dob = people.assign(
        date_of_birth=[f"19{50 + int(p[1:]) % 40}" for p in people["patient_id"]]
    )
    found = find_persons(with_dob.rename(columns={"date_of_birth": "dob"}))
    assert [c.column for c in found.candidates] == ["patient_id"]
    assert [c.column for c in found.mixed] == ["household_id"]


def test_a_numeric_patient_id_is_suggested_as_the_person():
    df = _visits(50, [3])
    df["patient_id"] = df["patient_id"].str[1:].astype(int)
    s = suggest_roles(df)
    assert s["patient_id"].role == "person"
    assert s["patient_id"].kind == "record_id" and s["patient_id"].letters == ("H",)


def test_columns_that_are_not_keys_are_never_person_columns():
    # a date of birth and a ZIP code repeat and look like one person's, but two people share
    # a birthday or a ZIP: dates, places and names are not eligible
    df = _visits(40, [3], date_of_birth=lambda i: f"1980-01-{1 + i % 28:02d}",
                 zip=lambda i: f"{10000 + i:05d}", name=lambda i: f"Ann Lee{i}")  # fmt: skip
    found = find_persons(df.drop(columns="patient_id"))
    assert found.checked == () and found.best is None


def test_two_columns_of_one_name_are_left_alone():
    df = _visits(20, [2])
    df = pd.concat([df, df[["patient_id"]]], axis=1)
    assert find_persons(df) == PersonCandidates()


# ------------------------------------------------------------------ results and the caution


def test_person_facts_in_words():
    assert person_facts(2_500, 8_098, 1, 10) == "2,500 people in 8,098 rows, 1-10 rows each"
    assert person_facts(1, 3, 3, 3) == "1 person in 3 rows, 3 rows each"


def test_the_caution_when_no_column_is_tagged_as_the_person(claims_suggested):
    s = claims_suggested
    untagged = ColumnRoles.from_mapping({**s.roles.to_mapping(), "patient_id": "identifier"})
    caution = rows_not_people(s.persons, untagged)
    best = s.persons.best
    assert best is not None
    assert caution == RowsNotPeople("patient_id", 2_500, best.n_rows, 1, 10)
    assert rows_not_people(s.persons, s.roles) is None  # tagged: no caution
    assert rows_not_people(PersonCandidates(), untagged) is None  # no person column


def test_results_round_trip_through_json(claims_suggested):
    s = claims_suggested
    back = PersonCandidates.from_dict(json.loads(dumps(s.persons)))
    assert back == s.persons
    assert RoleSuggestions.from_dict(json.loads(dumps(s))).persons == s.persons


def test_the_person_column_reads_as_a_direct_identifier_where_only_those_are_known(
    claims_suggested,
):
    s = claims_suggested
    roles = s.roles.persons_as_identifiers()
    assert roles.persons == () and "patient_id" in roles.identifiers
    sugg = s.persons_as_identifiers()
    assert sugg["patient_id"].role == "identifier" and sugg["patient_id"].letters == ("H",)
    assert sugg["patient_id"].reason == s["patient_id"].reason
    assert sugg.persons == s.persons
    people = ColumnRoles(identifiers=("name",))
    assert people.persons_as_identifiers() is people


def test_the_best_is_named_as_a_person_then_a_record_number_then_the_finest():
    df = _visits(60, [2], household_id=lambda i: f"H{i // 3}")
    df["member_no"] = df["patient_id"]  # named like a person, no kind of its own
    df["ssn"] = [f"9{int(p[1:]):02d}-00-{int(p[1:]):04d}" for p in df["patient_id"]]
    df = df.drop(columns="patient_id")
    s = suggest_roles(df)
    assert s["ssn"].kind == "ssn" and s["member_no"].kind != "ssn"
    assert [c.column for c in s.persons.candidates] == ["member_no", "ssn", "household_id"]
    assert s["member_no"].role == "person"
    # of two record numbers neither named as a person, the finer grouping (more values)
    cases = _visits(60, [2], group_id=lambda i: f"G{i // 3}").rename(
        columns={"patient_id": "case_id"}
    )
    assert [c.column for c in find_persons(cases).candidates] == ["case_id", "group_id"]


def test_at_most_max_columns_are_counted_a_person_named_one_first():
    df = _visits(30, [2])
    kinds = {"patient_id": "record_id"}
    for j in range(persons_module.MAX_COLUMNS + 2):  # SSN-like columns before it
        df.insert(0, f"ref{j}", df["patient_id"])
        kinds[f"ref{j}"] = "ssn"
    found = find_persons(df, kinds=kinds)
    assert len(found.checked) == persons_module.MAX_COLUMNS
    assert found.checked[0] == "patient_id" and found.best.column == "patient_id"


def test_a_categorical_id_counts_only_the_values_present():
    df = _visits(20, [2])
    ids = [f"P{i:05d}" for i in range(100)]  # 80 categories no row holds
    df["patient_id"] = pd.Categorical(df["patient_id"], categories=ids)
    best = find_persons(df).best
    assert best is not None and (best.n_people, best.min_rows, best.max_rows) == (20, 2, 2)
