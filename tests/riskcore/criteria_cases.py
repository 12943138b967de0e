"""Random tables, profiles and the criteria's own decision, shared by the common test of the
targets' consumers (``test_criteria_common.py``) and the Anonymity page's (``tests/app``).

:data:`FACTORIES` holds one random instance maker per privacy model of
:data:`riskcore.criteria.REGISTRY`; :func:`random_case` draws a table and a profile (the
models of a population table or of a person's events apart); :func:`event_case` draws
visits of people with event columns and a k^m-anonymity target among others;
:func:`baseline` is the decision every consumer must agree with.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from riskcore.criteria import (
    REGISTRY,
    AverageRisk,
    BetaLikeness,
    Criterion,
    DeltaDisclosure,
    DeltaPresence,
    DistinctLDiversity,
    EntropyLDiversity,
    KAnonymity,
    KmAnonymity,
    KMap,
    PopulationUniqueness,
    RecordRisk,
    RecursiveCLDiversity,
    SampleUniqueness,
    Targets,
    TCloseness,
    evaluate,
)
from riskcore.engine import EncodedTable
from riskcore.metrics import Population, assess
from riskcore.profile import Profile
from riskcore.roles import ColumnRoles

Rng = np.random.Generator


#: One random instance maker per privacy model, by kind (parameters that make both outcomes
#: likely on the small random tables below).
FACTORIES: dict[str, Callable[[Rng], Criterion]] = {
    "k-anonymity": lambda r: KAnonymity(k=int(r.integers(1, 5))),
    "distinct-l-diversity": lambda r: DistinctLDiversity(l=int(r.integers(1, 4))),
    "entropy-l-diversity": lambda r: EntropyLDiversity(l=float(r.choice([1.0, 1.5, 2.0]))),
    "recursive-cl-diversity": lambda r: RecursiveCLDiversity(
        c=float(r.choice([1.5, 2.0, 3.0])), l=int(r.integers(1, 4))
    ),
    "t-closeness": lambda r: TCloseness(
        t=float(r.choice([0.15, 0.3, 0.5])), distance=r.choice([None, "equal", "hierarchical"])
    ),
    "beta-likeness": lambda r: BetaLikeness(
        beta=float(r.choice([0.5, 1.0, 2.0])),
        variant=str(r.choice(["basic", "enhanced"])),  # type: ignore[arg-type]
        reference=str(r.choice(["release", "input"])),  # type: ignore[arg-type]
    ),
    "delta-disclosure": lambda r: DeltaDisclosure(
        delta=float(r.choice([0.5, 1.0, 2.0])),
        reference=str(r.choice(["release", "input"])),  # type: ignore[arg-type]
    ),
    "sample-uniqueness": lambda r: SampleUniqueness(threshold=float(r.choice([0.0, 0.1, 0.3]))),
    "population-uniqueness": lambda r: PopulationUniqueness(
        threshold=float(r.choice([0.01, 0.05, 0.2])),
        model=str(r.choice(["dankar", "pitman", "zayatz", "snb"])),  # type: ignore[arg-type]
        sampling_fraction=float(r.choice([0.05, 0.3])),
    ),
    "record-risk": lambda r: RecordRisk(
        threshold=float(r.choice([1 / 2, 1 / 3, 1 / 5])),
        model=str(r.choice(["prosecutor", "journalist"])),  # type: ignore[arg-type]
    ),
    "average-risk": lambda r: AverageRisk(threshold=float(r.choice([0.3, 0.5, 0.8]))),
    "k-map": lambda r: KMap(k=int(r.integers(1, 5))),
    "delta-presence": lambda r: DeltaPresence(
        delta_min=float(r.choice([0.0, 0.2])), delta_max=float(r.choice([0.5, 1.0]))
    ),
    "km-anonymity": lambda r: KmAnonymity(k=int(r.integers(1, 4)), m=int(r.integers(1, 3))),
}


#: The hierarchies of the sensitive attributes ``s`` and ``v`` of the random tables, for the
#: hierarchical t-closeness distance: flu and cold are respiratory, hiv and gout are not;
#: the v values 0-1 and 2-4 form two groups (every profile carries them).
SENSITIVE_HIERARCHIES = {
    "s": (
        ("flu", "respiratory", "*"),
        ("cold", "respiratory", "*"),
        ("hiv", "chronic", "*"),
        ("gout", "chronic", "*"),
    ),
    "v": tuple((v, "low" if v < 2 else "high", "*") for v in range(5)),
}


#: The models judged against an identified population table (the population tab's).
POPULATION_KINDS = frozenset(k for k, c in REGISTRY.items() if c.needs_population_table)
#: The models of a person's events (k^m-anonymity): judged on :func:`event_case` tables.
EVENT_KINDS = frozenset(k for k, c in REGISTRY.items() if c.needs_events)


def random_table(r: Rng) -> pd.DataFrame:
    """Return 25 to 60 records: 2-3 QIs with missing values, two sensitive attributes, a weight."""
    n = int(r.integers(25, 61))
    df = pd.DataFrame(
        {
            "a": r.choice(["x", "y", "z"], n).astype(object),
            "b": r.choice(["p", "q"], n).astype(object),
            "c": r.integers(1, 4, n),
            "s": r.choice(["flu", "hiv", "cold", "gout"], n, p=[0.5, 0.2, 0.2, 0.1]),
            "v": r.integers(0, 5, n),
            "w": r.uniform(1.0, 8.0, n).round(2),
        }
    )
    for col in ("a", "b"):
        df.loc[r.random(n) < 0.08, col] = None
    return df


def random_person_table(r: Rng) -> pd.DataFrame:
    """Return 12 to 30 people of 1-3 rows each (column ``pid``), as :func:`random_table`.

    A person's quasi-identifiers and weight repeat on their rows, but for about one
    person in four whose ``c`` changes on a later row (a person of several QI tuples);
    the sensitive values are drawn per row. One row in twenty has no person id.
    """
    people = random_table(r)[: int(r.integers(12, 31))].reset_index(drop=True)
    rows = r.integers(1, 4, len(people))
    df = people.iloc[np.repeat(np.arange(len(people)), rows)].reset_index(drop=True)
    df.insert(0, "pid", np.repeat([f"p{i}" for i in range(len(people))], rows).astype(object))
    later = df["pid"].duplicated().to_numpy()
    change = later & (r.random(len(df)) < 0.25)
    df.loc[change, "c"] = r.integers(1, 4, int(change.sum()))
    df["s"] = r.choice(["flu", "hiv", "cold", "gout"], len(df), p=[0.5, 0.2, 0.2, 0.1])
    df["v"] = r.integers(0, 5, len(df))
    df.loc[r.random(len(df)) < 0.05, "pid"] = None
    return df.sample(frac=1.0, random_state=int(r.integers(1_000))).reset_index(drop=True)


def random_case(seed: int, *, person: bool = False) -> tuple[pd.DataFrame, Profile]:
    """Return a table and a profile whose targets hold 1-3 random table-level models.

    With ``person``, a table of people of several rows (:func:`random_person_table`)
    whose profile tags ``pid`` as the person: every consumer must count people.
    """
    r = np.random.default_rng(seed)
    df = random_person_table(r) if person else random_table(r)
    qis = ("a", "b") if r.random() < 0.5 else ("a", "b", "c")
    sens = ("s", "v")[: int(r.integers(1, 3))]
    kinds = [k for k in FACTORIES if k not in POPULATION_KINDS | EVENT_KINDS]
    chosen = r.choice(kinds, size=int(r.integers(1, 4)), replace=False)
    crit = tuple(FACTORIES[str(k)](r) for k in chosen)
    population = str(r.choice(["none", "weights", "fraction"]))
    roles = ColumnRoles(
        quasi_identifiers=qis,
        sensitive=sens,
        weights=("w",) if population == "weights" else (),
        persons=("pid",) if person else (),
        other=tuple(c for c in df.columns if c not in (*qis, *sens, "w", "pid"))
        + (("w",) if population != "weights" else ()),
    )
    missing = str(r.choice(["own", "any"]))
    if person and "c" in qis:  # "any" is not defined on people of several QI tuples
        missing = "own"
    profile = Profile(
        roles=roles,
        targets=Targets(criteria=crit),
        missing=missing,  # type: ignore[arg-type]
        sampling_fraction=0.2 if population == "fraction" else None,
        distances={"v": "ordered"} if "v" in sens else {},
        sensitive_hierarchies={s: SENSITIVE_HIERARCHIES[s] for s in sens},
    )
    return df, profile


def population_of(profile: Profile) -> Population | None:
    if profile.roles.weight is not None:
        return Population(weights=profile.roles.weight)
    if profile.sampling_fraction is not None:
        return Population(sampling_fraction=profile.sampling_fraction)
    return None


def event_case(seed: int) -> tuple[pd.DataFrame, Profile]:
    """Return visits of 8-20 people (1-4 rows each) and a profile with event columns.

    Columns: ``pid`` (the person, a few rows without one), QIs ``a`` and ``b`` (the
    same on a person's rows: the records table's SUDA refuses others), event columns
    ``dx`` and ``day`` (missing values too), a sensitive ``s`` and a household ``hh``.
    The targets: k^m-anonymity (random k and m, the profile's m) with 0-2 table-level
    models.
    """
    r = np.random.default_rng(2000 + seed)
    n_people = int(r.integers(8, 21))
    visits = r.integers(1, 5, n_people)
    pid = np.repeat(np.arange(n_people), visits)
    n = len(pid)
    df = pd.DataFrame(
        {
            "pid": pd.Series([f"p{i}" for i in pid], dtype=object),
            "a": r.choice(["x", "y"], n_people)[pid].astype(object),
            "b": r.choice(["p", "q"], n_people)[pid].astype(object),
            "dx": r.choice(["A", "B", "C", "D"], n, p=[0.4, 0.3, 0.2, 0.1]).astype(object),
            "day": r.integers(0, 3, n),
            "s": r.choice(["flu", "cold", "gout"], n),
            "hh": (pid // 2).astype(str).astype(object),
        }
    )
    df.loc[r.random(n) < 0.05, "pid"] = None
    df.loc[r.random(n) < 0.05, "dx"] = None
    df = df.sample(frac=1.0, random_state=seed).reset_index(drop=True)
    events = ("dx", "day") if r.random() < 0.5 else ("dx",)
    km = FACTORIES["km-anonymity"](r)
    assert isinstance(km, KmAnonymity)
    others = [k for k in FACTORIES if k not in POPULATION_KINDS | EVENT_KINDS]
    chosen = r.choice(others, size=int(r.integers(0, 3)), replace=False)
    crit = (*(FACTORIES[str(k)](r) for k in chosen), KmAnonymity(k=km.k, m=km.m, events=events))
    roles = ColumnRoles(
        quasi_identifiers=("a", "b"),
        sensitive=("s",),
        persons=("pid",),
        other=tuple(c for c in df.columns if c not in ("a", "b", "s", "pid")),
    )
    profile = Profile(
        roles=roles,
        targets=Targets(criteria=crit),
        events=events,
        m=km.m,
        sensitive_hierarchies={"s": SENSITIVE_HIERARCHIES["s"]},
    )
    return df, profile


Decision = tuple[np.ndarray | None, bool | None]


def baseline(df: pd.DataFrame, profile: Profile) -> Decision:
    """The assessment judged by the criteria: what every consumer must agree with."""
    enc = EncodedTable(df)
    person = profile.roles.person
    a = assess(
        enc,
        quasi_identifiers=profile.roles.quasi_identifiers,
        sensitive=profile.roles.sensitive,
        distance=profile.distances or None,
        population_model=population_of(profile),
        missing=profile.missing,
        person=person,
        events=profile.events,
        m=profile.m,
        hierarchy=profile.sensitive_hierarchies or None,
    )
    v = evaluate(profile.targets, a.evidence)
    rows = enc.record_classes(profile.roles.quasi_identifiers, person=person)
    return v.failing[rows], v.passed
