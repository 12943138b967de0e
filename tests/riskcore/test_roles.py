"""Column roles: validation and suggestions on the reference files."""

from __future__ import annotations

import pandas as pd
import pytest

from riskcore.errors import RolesError
from riskcore.roles import ColumnRoles, luhn_valid, suggest_roles
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


def test_uci_adult_roles():
    df = pd.read_csv(shared_file("adult.csv"))
    r = roles_of(df)
    for qi in (
        "age",
        "workclass",
        "education",
        "marital-status",
        "occupation",
        "relationship",
        "race",
        "sex",
        "native-country",
    ):
        assert r[qi] == "quasi_identifier", qi
    assert r["income"] == "sensitive"
    assert r["capital-gain"] == "sensitive"
    assert not any(v == "identifier" for v in r.values())


def test_adult_with_pii_roles():
    df = pd.read_csv(shared_file("adult_with_pii_head.csv"), dtype=str)
    s = suggest_roles(df)
    assert s["Name"].role == "identifier"
    assert s["SSN"].role == "identifier" and "Social Security" in s["SSN"].reason
    for qi in ("DOB", "Zip", "Age", "Sex", "Race", "Marital Status", "Occupation", "Country"):
        assert s[qi].role == "quasi_identifier", qi
    assert s["Target"].role == "sensitive"


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
    assert s["c8"].role == "quasi_identifier" and s["c8"].kind == "zip"
    assert s["c9"].role == "quasi_identifier" and s["c9"].kind == "date"
    assert s["c10"].role == "other"
    assert all(x.reason for x in s.values())


def test_roles_and_suggestions_round_trip_through_json():
    import json

    from riskcore._results import dumps
    from riskcore.roles import RoleSuggestion

    r = ColumnRoles(identifiers=("name",), quasi_identifiers=("zip", "age"), sensitive=("dx",))
    assert ColumnRoles.from_dict(json.loads(dumps(r))) == r
    s = RoleSuggestion("zip", "quasi_identifier", "values look like ZIP codes", "zip")
    assert RoleSuggestion.from_dict(json.loads(dumps(s))) == s
    with pytest.raises(RolesError, match="not a role profile"):
        ColumnRoles.from_dict({"columns": ["a"]})
