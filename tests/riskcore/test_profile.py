"""The one assessment profile: validated once, versioned JSON, older profiles load."""

from __future__ import annotations

import json
import os

import pytest

from riskcore.criteria import (
    DistinctLDiversity,
    KAnonymity,
    RecordRisk,
    RecursiveCLDiversity,
    Targets,
)
from riskcore.errors import RiskcoreError
from riskcore.profile import DEFAULT_TARGETS, PROFILE_VERSION, PopulationReference, Profile
from riskcore.roles import ColumnRoles

ROLES = ColumnRoles(
    identifiers=("name",), quasi_identifiers=("age", "zip"), sensitive=("dx",), other=("note",)
)


def test_a_profile_survives_its_json():
    p = Profile(
        roles=ROLES,
        targets=Targets.of(
            k=5, l=3, l_kind="recursive", c=3.0, t=0.3, threshold=0.2, max_suppression=0.04
        ),
        missing="any",
        sampling_fraction=0.1,
        distances={"dx": "equal"},
        orders={"dx": ("a", "b", "c")},
        population=PopulationReference(name="pop.csv", sha256="ab" * 32, count_column="n"),
    )
    text = p.to_json()
    assert json.loads(text)["riskcore_profile"] == PROFILE_VERSION
    assert Profile.read(text) == p
    assert Profile.read(text.encode()) == p


def test_a_new_profile_has_the_k_11_preset():
    p = Profile()
    assert p.targets == DEFAULT_TARGETS
    assert p.targets.find("k-anonymity") == KAnonymity(k=11)
    assert p.targets.find("record-risk") == RecordRisk(threshold=1 / 11)
    assert p.targets.max_suppression == 0.02
    assert p.threshold == 1 / 11


def test_a_version_1_profile_loads():
    # the Data page's role profile with the report's optional keys, as riskcore 0.2 wrote it
    old = {
        "riskcore_roles": 1,
        "schema_version": 1,
        **{k: list(v) for k, v in ROLES.to_dict().items() if k != "schema_version"},
        "targets": {"k": 11, "l": 2},
        "c": 3.0,
        "missing": "any",
        "sampling_fraction": 0.5,
    }
    p = Profile.read(json.dumps(old))
    assert p.roles == ROLES
    assert p.missing == "any" and p.sampling_fraction == 0.5
    # l was distinct l; the default threshold 0.09 stood for k = 11: now the exact 1/11
    assert p.targets.criteria == (
        KAnonymity(k=11),
        DistinctLDiversity(l=2),
        RecordRisk(threshold=1 / 11),
    )


def test_the_lattice_targets_of_older_recipes_load():
    t = Targets.from_dict({"k": 5, "l": 2, "l_kind": "recursive", "c": 3.0, "t": None,
                           "max_risk": None, "max_suppression": 0.02})  # fmt: skip
    assert t.criteria == (KAnonymity(k=5), RecursiveCLDiversity(c=3.0, l=2))
    assert t.max_suppression == 0.02


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ("{", "^the profile is not valid JSON"),
        ("[]", "^the profile must be a JSON object$"),
        ({"riskcore_profile": 5}, "version 5; this riskcore reads versions up to 4"),
        ({"riskcore_profile": 2, "rolez": {}}, "unknown key 'rolez'"),
        ({"quasi_identifiers": ["a"], "colour": 1}, "unknown key 'colour'"),
        ({"riskcore_profile": 2, "missing": "some"}, "missing must be 'own' or 'any'"),
        ({"riskcore_profile": 2, "sampling_fraction": 0}, r"sampling_fraction must be in \(0, 1\]"),
        (
            {"riskcore_profile": 2, "roles": {"sensitive": ["dx"]}, "distances": {"dx": "far"}},
            "'ordered', 'equal' or 'hierarchical'",
        ),
        (
            {
                "riskcore_profile": 2,
                "roles": {"quasi_identifiers": ["a"]},
                "distances": {"a": "equal"},
            },
            "'a', which is not sensitive",
        ),
        ({"riskcore_profile": 2, "recipe": [1]}, "'recipe' in the profile must be an object"),
        ({"riskcore_profile": 2, "recipe": {}}, "^the recipe in the profile is not valid: "),
        ({"riskcore_profile": 2, "history": 3}, "^'history' in the profile must be an object$"),
        ({"riskcore_profile": 2, "population": []}, "^'population' in the profile must be an obj"),
        (
            {"riskcore_profile": 2, "population": {"name": "p.csv"}},
            "^the population table in the profile is not valid: .*'sha256'",
        ),
        ({"riskcore_profile": 2, "targets": {"criteria": [{"kind": "k-x"}]}}, "unknown privacy"),
    ],
)
def test_bad_profiles_are_refused_with_a_message(obj, message):
    text = obj if isinstance(obj, str) else json.dumps(obj)
    with pytest.raises(RiskcoreError, match=message):
        Profile.read(text)


def test_a_profile_names_only_columns_of_the_table():
    with pytest.raises(RiskcoreError, match="'zip' is not in the table"):
        Profile(roles=ROLES).validate_against(["name", "age", "dx", "note"])


def test_reading_a_file(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(Profile(roles=ROLES).to_json())
    assert Profile.read(path).roles == ROLES
    with pytest.raises(RiskcoreError, match="cannot read the profile"):
        Profile.read(tmp_path / "absent.json")
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    with pytest.raises(RiskcoreError, match="not a regular file"):
        Profile.read(fifo)  # refused at once, never opened (it would block)


# ------------------------------------------------------------------ events, m and household

PEOPLE = ColumnRoles(
    quasi_identifiers=("age", "zip"), persons=("pid",), other=("visit", "dx", "hh")
)


def test_events_m_and_the_household_survive_the_json():
    from riskcore.criteria import KmAnonymity

    p = Profile(
        roles=PEOPLE,
        targets=Targets(criteria=(KAnonymity(k=5), KmAnonymity(k=5, m=3, events=("visit", "dx")))),
        events=("visit", "dx"),
        m=3,
        household="hh",
    )
    data = json.loads(p.to_json())
    assert (data["riskcore_profile"], data["events"], data["m"], data["household"]) == (
        PROFILE_VERSION,
        ["visit", "dx"],
        3,
        "hh",
    )
    assert Profile.read(p.to_json()) == p
    assert p.event_k == 5  # the target's k
    assert Profile(roles=PEOPLE, events=("dx",)).event_k == 11  # the k of the threshold 1/11


def test_a_version_2_profile_reads_without_events():
    old = json.loads(Profile(roles=ROLES).to_json())
    for key in ("events", "m", "household", "context"):
        del old[key]
    old["riskcore_profile"] = 2
    p = Profile.read(json.dumps(old))
    assert (p.events, p.m, p.household) == ((), 2, None)
    old["events"] = ["dx"]  # a key version 2 did not have
    with pytest.raises(RiskcoreError, match="unknown key 'events'"):
        Profile.read(json.dumps(old))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"events": ("age",)}, "^the event column 'age' cannot be a quasi-identifier too$"),
        ({"events": ("dx", "dx")}, "^an event column is listed twice$"),
        ({"events": ("dx",), "m": 0}, "^m must be a whole number of at least 1, not 0$"),
        ({"household": "pid"}, "^the household column 'pid' cannot be the person too$"),
        ({"events": ("dx",), "household": "dx"}, "cannot be an event column too$"),
        ({"targets": Targets.of(km=5)}, "^a k\\^m-anonymity target needs event columns"),
        (
            {"events": ("dx",), "targets": Targets.of(km=5, m=3)},
            "^the k\\^m-anonymity target has m = 3; the profile's m is 2$",
        ),
        (
            {"events": ("dx",), "targets": Targets.of(km=5, events=("visit",))},
            "names the event columns visit; the profile's are dx$",
        ),
    ],
)
def test_inconsistent_events_are_refused(changes, message):
    with pytest.raises(RiskcoreError, match=message):
        Profile(roles=PEOPLE, **changes)


def test_events_need_the_person():
    with pytest.raises(RiskcoreError, match="event columns need the person column"):
        Profile(roles=ROLES, events=("note",))
    with pytest.raises(RiskcoreError, match=r"^the event column 'dx' is not in the table$"):
        Profile(
            roles=ColumnRoles(quasi_identifiers=("age",), persons=("pid",)), events=("dx",)
        ).validate_against(["age", "pid"])


def test_the_cache_key_is_of_the_profile_and_computed_once(monkeypatch):
    p = Profile(roles=ROLES, targets=Targets.of(k=5), distances={"dx": "equal"})
    same = Profile.read(p.to_json())  # another object, read back: the same key
    other = p.with_(missing="any")
    writes = []
    to_dict = Profile.to_dict
    monkeypatch.setattr(Profile, "to_dict", lambda self: writes.append(1) or to_dict(self))
    key = p.cache_key
    assert p.cache_key is key and len(writes) == 1  # written once, however often it is asked
    assert len(key) == 64 and set(key) <= set("0123456789abcdef")
    assert same.cache_key == key and other.cache_key != key
