"""Column roles: validation and suggestions on the reference files."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from riskcore._results import dumps
from riskcore.demo import make_people
from riskcore.errors import RolesError
from riskcore.io import load_table
from riskcore.roles import MAX_LEVELS, ColumnRoles, RoleSuggestions, luhn_valid, suggest_roles
from tests.conftest import shared_file


def test_roles_reject_two_roles_and_duplicates():
    with pytest.raises(RolesError, match=r"^column 'zip' cannot be both a quasi-identifier"):
        ColumnRoles(quasi_identifiers=("zip",), sensitive=("zip",))
    with pytest.raises(RolesError, match=r"listed twice"):
        ColumnRoles(quasi_identifiers=("a", "a"))


def test_roles_unknown_column():
    r = ColumnRoles(quasi_identifiers=("zip",))
    with pytest.raises(RolesError, match=r"'zip' is not in the table"):
        r.validate_against(["age"])


def test_roles_json_round_trip():
    r = ColumnRoles(identifiers=("name",), quasi_identifiers=("zip", "age"), sensitive=("dx",))
    assert ColumnRoles.from_json(r.to_json()) == r
    with pytest.raises(RolesError, match=r"not valid JSON"):
        ColumnRoles.from_json("{")
    with pytest.raises(RolesError, match=r"not a role profile"):
        ColumnRoles.from_json('{"x": 1}')


def test_luhn():
    assert luhn_valid("4111 1111 1111 1111")
    assert not luhn_valid("4111 1111 1111 1112")


def roles_of(df):
    return {c: s.role for c, s in suggest_roles(df).items()}


def qis_of(df):
    return [c for c, s in suggest_roles(df).items() if s.role == "quasi_identifier"]


@pytest.mark.parametrize("loader", ["pandas", "riskcore"])
def test_uci_adult_suggests_a_small_qi_set_without_redundant_education(loader):
    path = shared_file("adult.csv")
    df = pd.read_csv(path) if loader == "pandas" else load_table(path).data
    s = suggest_roles(df)
    qis = [c for c, x in s.items() if x.role == "quasi_identifier"]
    assert len(qis) <= 6, qis
    assert {"age", "sex", "race"} <= set(qis)
    assert ("education" in qis) != ("education-num" in qis), qis  # one of the pair, not both
    assert s.pairs == (("education-num", "education"),)
    assert "education-num is a function of education (16 values, one-to-one)" in (
        s["education-num"].reason
    )
    # measurements are not QIs; fnlwgt is the Census sampling weight; income and capital
    # gains are sensitive
    for col in ("hours-per-week", "workclass", "occupation", "relationship"):
        assert s[col].role == "other", col
    assert s["fnlwgt"].role == "weight" and "sampling weight" in s["fnlwgt"].reason
    assert s.roles.weight == "fnlwgt"
    for col in ("income", "capital-gain", "capital-loss"):
        assert s[col].role == "sensitive", col
    assert not any(x.role == "identifier" for x in s.values())
    assert all(x.reason for x in s.values())


def test_adult_with_pii_roles_follow_safe_harbor():
    df = pd.read_csv(shared_file("adult_with_pii_head.csv"), dtype=str)
    s = suggest_roles(df)
    assert s["Name"].role == "identifier"
    assert s["SSN"].role == "identifier" and "Social Security" in s["SSN"].reason
    # full dates of birth and 5-digit ZIPs are on the Safe Harbor list, as in the demo
    assert s["DOB"].role == "identifier" and "164.514(b)(2)(i)(C)" in s["DOB"].reason
    assert s["Zip"].role == "identifier"
    assert "164.514(b)(2)(i)(B) geographic subdivision smaller than a state" in s["Zip"].reason
    for qi in ("Age", "Sex", "Race", "Marital Status", "Country"):
        assert s[qi].role == "quasi_identifier", qi
    assert ("Education" in qis_of(df)) != ("Education-Num" in qis_of(df))
    assert s["Occupation"].role == "other" and s["Workclass"].role == "other"
    assert s["Target"].role == "sensitive"


def test_demo_roles_are_the_upload_rule():
    """The demo has no roles of its own: suggest_roles gives its release view."""
    s = suggest_roles(make_people(2_000, seed=3))
    assert s.roles == ColumnRoles(
        identifiers=("name", "ssn", "date_of_birth", "zip"),
        quasi_identifiers=("age", "sex", "race", "marital_status", "education"),
        sensitive=("diagnosis", "income"),
        other=("workclass", "occupation", "hours_per_week"),
    )
    assert "Safe Harbor" in s["zip"].reason and "Safe Harbor" in s["date_of_birth"].reason
    assert s.redundant == ()


def test_dates_and_zips_coarse_enough_for_safe_harbor_are_qis():
    n = 60
    df = pd.DataFrame(
        {
            "birth_year": [1950 + i % 40 for i in range(n)],
            "dob": [1950 + i % 40 for i in range(n)],  # years only despite the name
            "zip": [str(100 + i % 9) for i in range(n)],  # 3-digit areas
            "zip3": ["021", "100"] * (n // 2),
            "admission_date": pd.date_range("2020-01-01", periods=n, freq="D"),
            "when": pd.date_range("2020-01-01", periods=n, freq="h"),  # datetime, no hint
            "amount": [10_000 + 997 * (i % 20) for i in range(n)],  # 5-digit numbers are not ZIPs
            "city": ["Boston", "Austin"] * (n // 2),
            "state": ["MA", "TX", "CA", "MA", "CA"] * (n // 5),  # no function of zip or zip3
        }
    )
    s = suggest_roles(df)
    assert [s[c].role for c in ("birth_year", "dob", "zip", "zip3", "state")] == [
        "quasi_identifier"
    ] * 5
    assert s["admission_date"].role == "identifier" and s["when"].role == "identifier"
    assert "(C) all elements of dates except the year" in s["when"].reason
    assert s["city"].role == "identifier" and "smaller than a state" in s["city"].reason
    assert s["amount"].role == "other"


def test_value_patterns_without_helpful_names():
    n = 60
    df = pd.DataFrame(
        {
            "c1": [f"user{i}@example.org" for i in range(n)],
            "c2": ["4111 1111 1111 1111", "5500 0000 0000 0004"] * (n // 2),
            "c3": [f"10.0.{i}.1" for i in range(n)],
            "c4": [f"https://site.org/u/{i}" for i in range(n)],
            "c5": ["(617) 555-0100"] * n,
            "c6": [f"REC-{i:05d}" for i in range(n)],
            "c7": [
                f"{first} {last}"
                for first in ("Alice", "Bob", "Carol", "Dan", "Eve", "Frank")
                for last in (
                    "Smith",
                    "Jones",
                    "White",
                    "Brown",
                    "Green",
                    "Black",
                    "Hill",
                    "Stone",
                    "Young",
                    "King",
                )
            ],
            "c8": ["02139", "10001"] * (n // 2),
            "c9": ["1990-01-02", "1985-05-06"] * (n // 2),
            "c10": [1, 2] * (n // 2),
        }
    )
    s = suggest_roles(df)
    assert [s[c].kind for c in ("c1", "c2", "c3", "c4", "c5", "c6", "c7")] == [
        "email",
        "card",
        "ip",
        "url",
        "phone",
        "record_id",
        "name",
    ]
    # text 5-digit ZIPs and full dates: HIPAA Safe Harbor identifiers (B) and (C)
    assert s["c8"].role == "identifier" and s["c8"].kind == "zip"
    assert s["c9"].role == "identifier" and s["c9"].kind == "date"
    assert s["c10"].role == "other"
    assert all(x.reason for x in s.values())


def test_roles_and_suggestions_round_trip_through_json():
    from riskcore.roles import RoleSuggestion

    r = ColumnRoles(identifiers=("name",), quasi_identifiers=("zip", "age"), sensitive=("dx",))
    assert ColumnRoles.from_dict(json.loads(dumps(r))) == r
    s = RoleSuggestion("zip", "quasi_identifier", "values look like ZIP codes", "zip")
    assert RoleSuggestion.from_dict(json.loads(dumps(s))) == s
    with pytest.raises(RolesError, match="not a role profile"):
        ColumnRoles.from_dict({"columns": ["a"]})


# --------------------------------------------------------------- redundant pairs


def test_redundant_pairs_hand_worked():
    """A 10-row block (repeated 4 times, so each value recurs) with two functions.

    Worked by hand: age_band is "<35" for ages 20 and 30, "35+" for 40, 50
    and 60, so it is a function of age (5 values -> 2) but not the reverse;
    education_num is HS 9, BA 13, MA 14, PhD 16, one-to-one with education.
    Age does not determine education (50 occurs with HS and BA), sex
    alternates within every age, and no other column determines another.
    """
    block = pd.DataFrame(
        {
            "age": [20, 20, 30, 30, 40, 40, 50, 50, 60, 60],
            "age_band": ["<35"] * 4 + ["35+"] * 6,
            "education_num": [9, 9, 13, 13, 14, 14, 9, 13, 16, 16],
            "education": ["HS", "HS", "BA", "BA", "MA", "MA", "HS", "BA", "PhD", "PhD"],
            "sex": ["F", "M"] * 5,
        }
    )
    df = pd.concat([block] * 4, ignore_index=True)
    s = suggest_roles(df)
    assert s.pairs == (("age_band", "age"), ("education_num", "education"))
    band, edu = s.redundant
    assert (band.n_values, band.n_values_by, band.one_to_one) == (2, 5, False)
    assert (edu.n_values, edu.n_values_by, edu.one_to_one) == (4, 4, True)
    assert qis_of(df) == ["age", "education", "sex"]  # the text one of the pair, the finer age
    assert s["education_num"].role == "other"
    assert s["education_num"].reason.startswith(
        "education_num is a function of education (4 values, one-to-one)"
    )
    assert "age_band is a function of age" in s["age_band"].reason
    # the whole result, pairs included, survives JSON
    back = RoleSuggestions.from_dict(json.loads(dumps(s)))
    assert back == s and back.pairs == s.pairs and dict(back) == dict(s)
    assert s.to_dict()["redundant"][0]["determined_by"] == "age"


def test_missing_values_are_a_value_in_the_redundancy_check():
    """groupby drops NaN keys and nunique drops NaN values by default; neither may happen here.

    education: NaN occurs with 10 and with 11, so education_num is not a function
    of education (a NaN-dropping groupby would call them one-to-one); education
    is a function of education_num (9 HS, 10 NaN, 11 NaN, 13 BA: 4 values -> 3).
    race "x" occurs with ethnicity "a" and with a missing value, "y" with "b" and
    a missing value, so neither determines the other (a NaN-dropping nunique would
    say race determines ethnicity).
    """
    edu = pd.DataFrame(
        {
            "education": ["HS", "HS", None, None, "BA", "BA"],
            "education_num": [9, 9, 10, 11, 13, 13],
        }
    )
    edu = pd.concat([edu] * 5, ignore_index=True)
    assert edu.groupby("education")["education_num"].nunique().max() == 1  # the trap
    s = suggest_roles(edu)
    assert s.pairs == (("education", "education_num"),)
    assert (s.redundant[0].n_values, s.redundant[0].n_values_by) == (3, 4)
    assert not s.redundant[0].one_to_one

    race = pd.DataFrame(
        {
            "race": ["x", "x", "y", "y", "z", "z"],
            "ethnicity": ["a", None, "b", None, "c", "c"],
        }
    )
    race = pd.concat([race] * 5, ignore_index=True)
    assert race.groupby("race")["ethnicity"].nunique().max() == 1  # the trap
    s = suggest_roles(race)
    assert s.redundant == ()
    assert s["race"].role == s["ethnicity"].role == "quasi_identifier"


def test_near_unique_and_constant_columns_are_left_out_of_the_redundancy_check():
    """A column with 100,000 distinct values determines every column, trivially."""
    n = 100_000
    rng = np.random.default_rng(0)
    df = pd.DataFrame(
        {
            "region": [f"r{i}" for i in range(n)],  # a QI by name, every value distinct
            "sex": rng.choice(["F", "M"], n),
            "race": rng.choice(["a", "b", "c"], n),
            "country": ["US"] * n,  # constant: a function of everything
            "state": rng.integers(0, MAX_LEVELS + 1, n).astype(str),  # just above the cap
        }
    )
    df["state_code"] = df["state"]  # one-to-one with state, but past the cap
    s = suggest_roles(df)
    assert s.redundant == ()
    assert qis_of(df) == list(df.columns)
    # below the cap the same pair is found
    small = df.assign(state=df["state"].str[:2], state_code=df["state"].str[:2])
    assert suggest_roles(small).pairs == (("state_code", "state"),)


def test_redundancy_is_exact_beyond_the_sample():
    """One counter-example row outside the evenly spaced sample breaks a function."""
    n = 300_007
    edu = np.array(["HS", "BA", "MA"])[np.arange(n) % 3]
    num = np.array([9, 13, 14])[np.arange(n) % 3]
    num[1] = 99  # row 1 is not in the sample (rows 0, ~15, ~30 ... are)
    df = pd.DataFrame({"education": edu, "education_num": num})
    s = suggest_roles(df)
    assert s.pairs == (("education", "education_num"),)  # 4 values -> 3, not one-to-one
    assert not s.redundant[0].one_to_one


# --------------------------------------------------------------- sampling weight


def test_weight_role_round_trips_and_only_one_is_allowed():
    r = ColumnRoles(quasi_identifiers=("age",), weights=("w",))
    assert r.weight == "w" and r.role_of("w") == "weight"
    assert ColumnRoles.from_json(r.to_json()) == r
    assert ColumnRoles.from_mapping({"age": "quasi_identifier", "w": "weight"}) == r
    assert ColumnRoles().weight is None
    two = ColumnRoles.from_mapping({"a": "weight", "b": "weight"})  # readable while edited
    with pytest.raises(RolesError, match=r"^only one column can be the sampling weight; 'a' and"):
        _ = two.weight
    with pytest.raises(RolesError, match=r"'w' cannot be both a quasi-identifier and the sampling"):
        ColumnRoles(quasi_identifiers=("w",), weights=("w",))
    # a profile saved before the weight role existed still reads
    assert ColumnRoles.from_dict({"quasi_identifiers": ["age"]}).weight is None


def test_weight_is_suggested_only_for_weight_names_with_weight_values():
    rng = np.random.default_rng(0)
    n = 200
    df = pd.DataFrame(
        {
            "age": rng.integers(18, 90, n),
            "wgt": rng.uniform(1, 500, n),  # a weight by name and values
            "final weight": rng.uniform(1, 500, n),  # a second one: other
            "amount": rng.uniform(1, 500, n),  # weight-like values, not the name: other
        }
    )
    s = suggest_roles(df)
    assert s["wgt"].role == "weight" and s["wgt"].kind == "weight"
    assert s["final weight"].role == "other" and "wgt is suggested" in s["final weight"].reason
    assert s["amount"].role == "other"
    # named "weight" but fractions (normalised weights, or not a weight at all): other
    s = suggest_roles(pd.DataFrame({"weight": rng.uniform(0.1, 0.9, n)}))
    assert s["weight"].role == "other" and "not all numbers of at least 1" in s["weight"].reason
    s = suggest_roles(pd.DataFrame({"weight": ["heavy", "light"] * 100}))
    assert s["weight"].role == "other"


def test_free_text_holding_phone_numbers_is_a_direct_identifier():
    from tests.hospital import hospital_table

    df = hospital_table()
    s = suggest_roles(df)["note"]
    n = int(df["note"].str.startswith("Call back on (").sum())  # the generator's own sentence
    assert (s.role, s.kind, s.letters) == ("identifier", "free_text", ("D",))
    assert s.reason == (
        "free text holding HIPAA Safe Harbor identifiers (45 CFR 164.514(b)(2)(i)(D)): "
        f"phone numbers, {n:,} in {n:,} of 5,000 cells"
    )
    # a name the rule calls "other" does not hide identifiers written in the values
    jobs = pd.DataFrame({"occupation": ["nurse", "clerk, fax 212 555 0100", "nurse"] * 20})
    job = suggest_roles(jobs)["occupation"]
    assert (job.role, job.letters) == ("identifier", ("E",))
    # a sensitive column keeps its role (Safe Harbor still lists what its text holds)
    dx = pd.DataFrame({"diagnosis": ["flu", "flu, seen 2024-03-14"] * 20})
    assert suggest_roles(dx)["diagnosis"].role == "sensitive"
    assert suggest_roles(dx).text.get("diagnosis").letters == ("C",)


def test_identifier_rules_carry_their_safe_harbor_letter_as_data():
    from riskcore.roles.rules import LATE_VALUE_RULES, NAME_RULES, VALUE_RULES

    rules = NAME_RULES + VALUE_RULES + LATE_VALUE_RULES
    for rule in rules:
        assert (rule.letter is not None) == (rule.role == "identifier"), rule.kind
        if rule.letter is not None:  # the sentence is derived from the letter
            assert f"164.514(b)(2)(i)({rule.letter})" in rule.reason, rule.kind
    by_kind = {r.kind: r.letter for r in rules if r.letter}
    assert by_kind == {"ssn": "G", "email": "F", "phone": "D", "account": "J", "ip": "O",
                       "url": "N", "name": "A", "record_id": "H", "dob": "C", "zip": "B",
                       "geo_fine": "B", "date": "C"}  # fmt: skip
    # suggestions carry the letters; years and 3-digit areas are not identifiers and have none
    s = suggest_roles(make_people(500, seed=1))
    assert {c: x.letters for c, x in s.items() if x.letters} == {
        "name": ("A",), "ssn": ("G",), "date_of_birth": ("C",), "zip": ("B",),
    }  # fmt: skip
    years = suggest_roles(pd.DataFrame({"dob": [1950 + i % 40 for i in range(60)]}))["dob"]
    assert years.role == "quasi_identifier" and years.letters == ()


def test_a_column_of_unicode_e_mail_addresses_is_an_identifier():
    n = 60
    df = pd.DataFrame({"contact": [f"fatima.lópez{i}@gmail.com" for i in range(n)]})
    s = suggest_roles(df)["contact"]
    assert (s.role, s.kind, s.letters) == ("identifier", "email", ("F",))


def test_diagnosis_procedure_and_drug_codes_are_sensitive_whatever_the_name():
    df = pd.DataFrame(
        {
            "c1": ["F32.1", "B20", "Z21", "E11.9", "S72.001A", "I10"] * 10,  # ICD-10 (issue 38)
            "c2": ["F321", "E119", "J45909", "I10", "Z8673", "O0901"] * 10,  # without the dot
            "c3": ["250.00", "V22.0", "486", "042", "401.9", "E880.9"] * 10,  # ICD-9-CM
            "c4": ["99213", "99214-25", "J1100", "G0008", "1234F", "0001T"] * 10,  # CPT / HCPCS
            "c5": ["0002-3227-30", "50090-3096-0", "12345-6789-01"] * 20,  # NDC
            "icd10": ["B20", "F32.1", "Z21"] * 20,  # the name says it too
            "dx1": ["x", "y", "z"] * 20,
            # look-alikes: bare 3-digit numbers, 5-digit text (ZIP codes), decimal amounts
            "c6": ["617", "212", "415"] * 20,
            "c7": ["02139", "10001"] * 30,
            "c8": [250.0, 401.9, 486.0] * 20,
        }
    )
    s = suggest_roles(df)
    kinds = {c: (s[c].role, s[c].kind) for c in ("c1", "c2", "c3", "c4", "c5")}
    assert kinds == {
        "c1": ("sensitive", "icd10"), "c2": ("sensitive", "icd10"), "c3": ("sensitive", "icd9"),
        "c4": ("sensitive", "cpt"), "c5": ("sensitive", "ndc"),
    }  # fmt: skip
    assert "ICD-10 diagnosis codes" in s["c1"].reason and s["c1"].letters == ()
    assert s["icd10"].role == "sensitive" and s["dx1"].role == "sensitive"
    assert [s[c].role for c in ("c6", "c7", "c8")] == ["other", "identifier", "other"]
    assert s["c7"].kind == "zip"


def test_the_reading_switches_full_dates_and_zip5_between_identifier_and_qi_at_once():
    from riskcore.report.readings import suggestion_reading

    n = 60
    df = pd.DataFrame(
        {
            "dob": [f"{1 + i % 28:02d}/{1 + i % 12:02d}/19{50 + i % 40}" for i in range(n)],
            "service_date": [f"2024-03-{1 + i % 28:02d}" for i in range(n)],
            "zip": ["02139", "10001-1234", "60601"] * (n // 3),
            "zip3": ["021", "100"] * (n // 2),
            "name": ["Ann Lee", "Bo Kim", "Cy Park"] * (n // 3),
            "age": [30 + i % 40 for i in range(n)],
        }
    )
    harbor, expert = suggest_roles(df), suggest_roles(df, reading="expert")
    assert harbor.reading == "safe_harbor" and expert.reading == "expert"
    assert harbor.by_reading == expert.by_reading == ("dob", "service_date", "zip")
    for c in ("dob", "service_date", "zip"):
        assert harbor[c].role == "identifier" and harbor[c].letters
        assert expert[c].role == "quasi_identifier" and expert[c].letters == ()
        assert "HIPAA Safe Harbor identifier" in harbor[c].reason
        assert "expert determination (45 CFR 164.514(b)(1))" in expert[c].reason
    # the rest does not depend on the reading
    for c in ("zip3", "name", "age"):
        assert harbor[c] == expert[c]
    assert RoleSuggestions.from_dict(json.loads(dumps(expert))) == expert
    assert suggestion_reading(harbor).startswith("The suggestions follow Safe Harbor")
    assert "(dob, service_date, zip)" in suggestion_reading(expert)
    assert suggestion_reading(suggest_roles(df[["age", "zip3"]])) is None
    with pytest.raises(ValueError, match=r"^reading must be one of safe_harbor, expert"):
        suggest_roles(df, reading="limited")


def test_value_rules_match_each_distinct_value_once_with_the_same_share():
    # issue 38, item 20: a sample's repeated values are matched once each; the share is the
    # one of matching every value (the mean over values, repeats counted)
    import re

    from riskcore.roles.rules import matches, share

    pattern = re.compile(r"\d{3}-\d{2}-\d{4}$")
    rng = np.random.default_rng(20)
    pool = ["123-45-6789", "987-65-4321", "n/a", "", "12-345-6789"]
    values = pd.Series(rng.choice(pool, 2_000)).astype(str)
    expected = np.array([bool(pattern.match(v)) for v in values])
    assert np.array_equal(matches(values, pattern), expected)
    assert share(values, pattern) == float(expected.mean())
    calls = []

    class Counting:
        def match(self, v: str) -> re.Match[str] | None:
            calls.append(v)
            return pattern.match(v)

    assert share(values, Counting()) == float(expected.mean())  # type: ignore[arg-type]
    assert sorted(calls) == sorted(set(values))
