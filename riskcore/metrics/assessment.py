"""One assessment: one tabulation by the engine, every metric from it.

:func:`assess` is the public entry point used by the command line and the
app. The engine (by default the in-memory :class:`~riskcore.engine.EncodedTable`)
returns the class table over the quasi-identifiers and one sparse class x
value contingency per sensitive attribute (:mod:`riskcore.engine.contract`);
k-anonymity, prosecutor (and, with population sizes, journalist and marketer)
risk, population uniqueness and l-diversity / t-closeness are computed from
those tables alone. The population model (:class:`Population`, re-exported
here) is :mod:`riskcore.metrics.population_model`; the value orders of the
ordered distance are read by :mod:`riskcore.metrics.closeness`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Self

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

    from riskcore.metrics.household import HouseholdRisk
    from riskcore.metrics.longitudinal import KmAnonymity
else:
    from riskcore._lazy import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore._results import NOT_IN_JSON, Result, plain
from riskcore.engine import ClassTable, EncodedTable, Engine
from riskcore.errors import RiskcoreError, RolesError
from riskcore.metrics.anonymity import (
    ClassSizeDistribution,
    KAnonymityResult,
    RiskResult,
    k_anonymity,
    reidentification_risk,
)
from riskcore.metrics.closeness import ValueHierarchy, _value_orders, sensitive_hierarchies
from riskcore.metrics.diversity import DiversityResult, sensitive_metrics
from riskcore.metrics.evidence import EventEvidence, Evidence
from riskcore.metrics.missing import (
    MissingPolicy,
    check_missing,
    count_missing,
)
from riskcore.metrics.population import (
    PopulationUniqueness,
    population_uniqueness,
)
from riskcore.metrics.population_model import Population, _population_evidence

__all__ = [
    "MISSING_POLICY",
    "MISSING_POLICY_TEXT",
    "Assessment",
    "Population",
    "assess",
    "class_table",
]

#: How missing quasi-identifier values are treated under each policy (stated in every report).
MISSING_POLICY_TEXT: dict[str, str] = {
    "own": "missing quasi-identifier values count as one more value of their column; "
    "no record is dropped",
    "any": "a missing quasi-identifier value matches any value of its column (sdcMicro's "
    "convention): each record is counted with every record that agrees with it wherever "
    "both are known, so k, risk, l and t are those of each record's compatible records; "
    "no record is dropped",
}
#: The default policy's text.
MISSING_POLICY = MISSING_POLICY_TEXT["own"]


@dataclass(frozen=True, eq=False)
class Assessment(Result):
    """Every figure of one assessment, derived from the engine's tabulation.

    Attributes
    ----------
    quasi_identifiers : tuple of str
        The quasi-identifier columns.
    anonymity : KAnonymityResult
        k, classes, unique records, class-size distribution.
    prosecutor : RiskResult
    journalist, marketer : RiskResult or None
        Only when population sizes were given.
    sensitive : dict of str to DiversityResult
        l-diversity and t-closeness per sensitive attribute.
    threshold : float
        Record-risk threshold used.
    missing_policy : str
        How missing QI values were treated, in words.
    population_note : str
        How population sizes were obtained, if at all.
    population_uniqueness : PopulationUniqueness or None
        Zayatz / Pitman / SNB estimates, when a sampling fraction was given.
    engine : str
        The engine that built the tabulation.
    classes : ClassTable or None
        The equivalence classes (sizes and QI values; not in :meth:`to_dict`,
        None after :meth:`from_dict`). Per-record questions go to the engine
        (:meth:`riskcore.engine.EncodedTable.record_classes`), never here.
        Under either policy these are the classes of ``"own"`` (a missing
        value one more value), which partition the records.
    missing : {"own", "any"}
        The missing-value policy (:mod:`riskcore.metrics.missing`).
    missing_records : int
        Records with at least one missing QI value.
    matching : numpy.ndarray or None
        Policy "any" only: f_k of the records of each class (the records
        compatible with them, :func:`~riskcore.metrics.missing.compatible_sizes`),
        what k and the risks are computed from (not in :meth:`to_dict`).
    evidence : Evidence or None
        The classes as the privacy models judge them
        (:mod:`riskcore.criteria`: ``evaluate(targets, assessment.evidence)``);
        not in :meth:`to_dict`, None after :meth:`from_dict`.
    person : str or None
        The column linking the rows of one person. When set, the unit of
        privacy is the person: every class counts distinct people (their QI
        signatures, :mod:`riskcore.engine.people`), so k, the class sizes,
        uniques, the risks and l / t are in people; None: each row is taken
        to be a different person.
    rows : int or None
        The rows of the table (None: as many as the people, one row each).
    km_anonymity : KmAnonymity or None
        k^m-anonymity of each person's events (visits of the event columns),
        when event columns were given (:func:`riskcore.metrics.longitudinal.km_anonymity`).
    household : HouseholdRisk or None
        sdcMicro's household risk of every record from its individual risk,
        when a household column was given (:func:`riskcore.metrics.household.household_risk`).
    """

    quasi_identifiers: tuple[str, ...]
    anonymity: KAnonymityResult
    prosecutor: RiskResult
    journalist: RiskResult | None
    marketer: RiskResult | None
    sensitive: dict[str, DiversityResult]
    threshold: float
    missing_policy: str
    population_note: str
    population_uniqueness: PopulationUniqueness | None
    engine: str = "memory"
    classes: ClassTable | None = field(default=None, repr=False, metadata=NOT_IN_JSON)
    missing: str = "own"
    missing_records: int = 0
    matching: np.ndarray | None = field(default=None, repr=False, metadata=NOT_IN_JSON)
    evidence: Evidence | None = field(default=None, repr=False, metadata=NOT_IN_JSON)
    person: str | None = None
    rows: int | None = None
    km_anonymity: KmAnonymity | None = None
    household: HouseholdRisk | None = None

    @property
    def k(self) -> int:
        """Return k (in people when a person column is set)."""
        return self.anonymity.k

    @property
    def n_records(self) -> int:
        """Return the number of rows (records) of the table."""
        return self.anonymity.n_records if self.rows is None else int(self.rows)

    @property
    def n_people(self) -> int:
        """Return the number of people: the units every class-based figure counts.

        With a person column, the distinct people; without one, each row is
        taken to be a different person (so this equals :attr:`n_records`).
        """
        return self.anonymity.n_records

    @property
    def unit(self) -> str:
        """Return what the figures count: "person" (a person column is set) or "record"."""
        return "record" if self.person is None else "person"

    @property
    def n_classes(self) -> int:
        """Return J."""
        return self.anonymity.n_classes

    @property
    def unique_records(self) -> int:
        """Return the number of records unique on the QIs."""
        return self.anonymity.unique_records

    def to_dict(self) -> dict[str, Any]:
        """Return the public JSON structure (documented in the README).

        Returns
        -------
        dict
            Flat headline figures (``n_records`` the rows, ``n_people``,
            ``person`` and ``unit``, ``k`` in people when a person column is
            set, ...) first, then the
            risk models, per-attribute diversity and the class-size
            distribution; ``journalist`` / ``marketer`` / population keys only
            when population sizes were given.
        """
        out: dict[str, Any] = {
            "schema_version": self.schema_version,
            "n_records": self.n_records,
            "n_people": self.n_people,
            "person": self.person,
            "unit": self.unit,
            "n_classes": self.n_classes,
            "k": self.k,
            "unique_records": self.unique_records,
            "quasi_identifiers": list(self.quasi_identifiers),
            "threshold": self.threshold,
            "prosecutor": self.prosecutor.to_dict(),
            "sensitive": {a: r.to_dict() for a, r in self.sensitive.items()},
            "class_size_distribution": self.anonymity.distribution.to_dict(),
            "missing_policy": self.missing_policy,
            "missing": self.missing,
            "missing_records": self.missing_records,
            "engine": self.engine,
        }
        if self.journalist is not None:
            out["journalist"] = self.journalist.to_dict()
        if self.marketer is not None:
            out["marketer"] = self.marketer.to_dict()
        if self.population_note:
            out["population_note"] = self.population_note
        if self.population_uniqueness is not None:
            out["population_uniqueness"] = self.population_uniqueness.to_dict()
        if self.km_anonymity is not None:
            out["km_anonymity"] = self.km_anonymity.to_dict()
        if self.household is not None:
            out["household"] = self.household.to_dict()
        return plain(out)  # type: ignore[no-any-return]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild an assessment from :meth:`to_dict` output (without per-class arrays).

        Parameters
        ----------
        data : mapping
            As written by :meth:`to_dict`.

        Returns
        -------
        Assessment
        """
        data = cls.upgrade(data)
        n_people = int(data.get("n_people", data["n_records"]))
        anonymity = KAnonymityResult(
            k=int(data["k"]),
            n_records=n_people,
            n_classes=int(data["n_classes"]),
            unique_records=int(data["unique_records"]),
            distribution=ClassSizeDistribution.from_dict(data["class_size_distribution"]),
        )

        def risk(key: str) -> RiskResult | None:
            return RiskResult.from_dict(data[key]) if data.get(key) is not None else None

        prosecutor = risk("prosecutor")
        if prosecutor is None:
            raise ValueError("an assessment's JSON needs its prosecutor risk")
        pu = data.get("population_uniqueness")
        km = hh = None
        if data.get("km_anonymity") is not None:
            from riskcore.metrics.longitudinal import KmAnonymity

            km = KmAnonymity.from_dict(data["km_anonymity"])
        if data.get("household") is not None:
            from riskcore.metrics.household import HouseholdRisk

            hh = HouseholdRisk.from_dict(data["household"])
        return cls(
            quasi_identifiers=tuple(data["quasi_identifiers"]),
            anonymity=anonymity,
            prosecutor=prosecutor,
            journalist=risk("journalist"),
            marketer=risk("marketer"),
            sensitive={a: DiversityResult.from_dict(r) for a, r in data["sensitive"].items()},
            threshold=float(data["threshold"]),
            missing_policy=str(data["missing_policy"]),
            population_note=str(data.get("population_note", "")),
            population_uniqueness=None if pu is None else PopulationUniqueness.from_dict(pu),
            engine=str(data.get("engine", "memory")),
            missing=str(data.get("missing", "own")),
            missing_records=int(data.get("missing_records", 0)),
            person=None if data.get("person") is None else str(data["person"]),
            rows=None if data.get("person") is None else int(data["n_records"]),
            km_anonymity=km,
            household=hh,
        )


@renamed_arguments(population="population_model")
def assess(
    data: pd.DataFrame | Engine,
    *,
    quasi_identifiers: Iterable[str],
    sensitive: Iterable[str] = (),
    c: float = 2.0,
    threshold: float = 1 / 11,
    distance: str | Mapping[str, str] | None = None,
    order: Mapping[str, Iterable[Any]] | None = None,
    population_model: Population | None = None,
    missing: MissingPolicy = "own",
    hierarchy: Mapping[str, ValueHierarchy] | None = None,
    person: str | None = None,
    events: Sequence[str] = (),
    m: int = 2,
    event_k: int | None = None,
    household: str | None = None,
) -> Assessment:
    """Assess a table: k-anonymity, risk, l-diversity and t-closeness.

    The engine tabulates the table once over the quasi-identifiers (class
    sizes and one sparse class x value table per sensitive attribute); every
    figure is derived from that tabulation alone. See :mod:`riskcore.metrics`
    for the definitions and citations.

    Parameters
    ----------
    data : pandas.DataFrame or Engine
        The table, or an engine over it (an :class:`~riskcore.engine.EncodedTable`
        reuses cached codes; any object with the engine contract's
        ``tabulate`` works, see :mod:`riskcore.engine.contract`).
    quasi_identifiers : iterable of str
        At least one column.
    sensitive : iterable of str, default ()
        Sensitive attributes.
    c : float, default 2
        c of recursive (c,l)-diversity.
    threshold : float, default 1/11
        Record-risk threshold (1/11 = k of 11, the US public-release
        precedent; see :data:`riskcore.metrics.THRESHOLDS`).
    distance : str or mapping, optional
        Ground distance for t-closeness, "ordered", "equal" or
        "hierarchical", for all attributes or per attribute. Default: ordered
        for numeric attributes, ordered categoricals and attributes given an
        ``order``, equal for the others. "hierarchical" needs ``hierarchy``.
    order : mapping of str to iterable, optional
        Per sensitive attribute, its values lowest first, for the ordered
        distance. Text needs one: it is never sorted alphabetically. An
        ordered pandas Categorical gives its category order without it;
        numbers, booleans and dates are ordered by value. Missing values are
        ranked at both ends and the larger t kept
        (:func:`~riskcore.metrics.t_closeness_per_class`).
    population_model : Population, optional
        The population model (population sizes), for journalist and marketer
        risk: a sampling fraction, a sampling-weight column or a population
        table (``population`` before, still accepted with a DeprecationWarning;
        passing both is refused).
    missing : {"own", "any"}, default "own"
        The missing-value policy of every class-based figure
        (:mod:`riskcore.metrics.missing`): a missing QI value is a value of
        its own, or matches any value (sdcMicro's convention), each record
        then being judged on the records compatible with it: k = min f_k,
        prosecutor risk 1/f_k, l and t over its compatible records, and with
        a population the compatible population count. Population uniqueness
        (Zayatz, Pitman, SNB) needs disjoint classes and is computed on the
        ``"own"`` classes under both policies (the population note says so).
    hierarchy : mapping of str to rows, optional
        Per sensitive attribute, its generalization hierarchy for the
        hierarchical distance, ``(value, level 1, ..., top)`` per value with
        one top label (ARX's CSV rows; ``Hierarchy.levels`` zipped); at most
        :data:`~riskcore.metrics.closeness.MAX_HIERARCHY_VALUES` rows and
        :data:`~riskcore.metrics.closeness.MAX_HIERARCHY_HEIGHT` levels,
        checked before the tabulation.
    person : str, optional
        The column linking the rows of one person (a patient id on claims).
        The unit of privacy is then the person: a class is the people sharing
        one QI signature (the set of their rows' QI tuples,
        :mod:`riskcore.engine.people`), so k, uniques, every risk and the
        population estimates count people, and l-diversity and t-closeness
        count each person once per distinct sensitive value they hold. A row
        with no person value is a person of its own.
    events : sequence of str, default ()
        Event columns (QIs that change from visit to visit: visit date,
        diagnosis, provider), with ``person``: k^m-anonymity of each person's
        visits (:func:`riskcore.metrics.longitudinal.km_anonymity`, visits as
        items, a missing value a value of its own) in ``km_anonymity``, and
        the evidence of the k^m-anonymity criterion. In memory only.
    m : int, default 2
        The most visits the k^m attacker knows.
    event_k : int, optional
        People holding a set of at most m visits held by fewer than this many
        people are at risk (default: the k of ``threshold``, the smallest
        class size whose risk 1/k is within it; 11 for 1/11).
    household : str, optional
        The household column: sdcMicro's household risk
        (:func:`riskcore.metrics.household.household_risk`) of every record
        from its individual risk (the journalist's record risk of its class:
        E[1/F_j | f_j] with a population model, else 1/f_j), members being
        people with ``person``. In memory only.

    Returns
    -------
    Assessment

    Raises
    ------
    RolesError
        When a column is unknown, the QIs are empty, or a column is both a QI
        and sensitive.
    RiskcoreError
        When the ordered distance is asked of text without an order, an order
        leaves out a value or names an attribute that is not sensitive; when
        events or a household are asked of an engine other than the in-memory
        one, or the events' itemsets exceed their limit
        (:data:`riskcore.metrics.longitudinal.MAX_ITEMSET_OCCURRENCES`).

    Examples
    --------
    Six people in three classes on (age, sex): (30, F) of 3, (40, M) of 2 and
    (50, F) of 1, so k = 1 and one record is unique; the success rate is J/n =
    3/6. Class (40, M) is all flu (distinct l = 1). Against the table's
    (flu 4/6, cold 2/6), class (50, F) is all cold: equal distance
    1/2 (4/6 + 4/6) = 2/3, the largest, so t = 0.667.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"age": [30, 30, 30, 40, 40, 50], "sex": list("FFFMMF"),
    ...                    "diagnosis": ["flu", "flu", "cold", "flu", "flu", "cold"]})
    >>> a = assess(df, quasi_identifiers=["age", "sex"], sensitive=["diagnosis"])
    >>> a.k, a.unique_records, a.n_classes, a.prosecutor.success_rate
    (1, 1, 3, 0.5)
    >>> a.sensitive["diagnosis"].distinct_l, round(a.sensitive["diagnosis"].t_closeness, 3)
    (1, 0.667)
    """
    engine: Engine = data if isinstance(data, Engine) else EncodedTable(data)
    qis, sens = _check_roles(engine, quasi_identifiers, sensitive, person)
    event_cols = _check_events(engine, qis, sens, person, events, household)
    if isinstance(distance, str) or distance is None:
        dist = {s: distance for s in sens}
    else:
        dist = {s: distance.get(s) for s in sens}
    orders, sources = _value_orders(engine, sens, dist, order or {})
    hierarchies = sensitive_hierarchies(sens, dist, hierarchy or {})
    policy = check_missing(missing)
    tab = (
        engine.tabulate(qis, sens) if person is None else engine.tabulate(qis, sens, person=person)
    )
    own = tab.classes.sizes
    missing_records = count_missing(tab.classes)
    evidence = Evidence.of(
        tab.classes,
        tab.sensitive,
        missing=policy,
        distance={s: d for s, d in dist.items() if d is not None},
        order={s: list(o) for s, o in orders.items()},
        hierarchy=hierarchies,
    )
    km = None
    if event_cols:
        assert isinstance(engine, EncodedTable) and person is not None  # noqa: S101 - checked
        km, events_of = _events(engine, qis, person, event_cols, m, event_k, threshold)
        evidence = replace(evidence, events=events_of)
    records: np.ndarray | None = None
    sizes = own
    if policy == "any" and missing_records:
        records, sizes = own, evidence.sizes
    journalist = marketer = pop_unique = None
    note = ""
    if population_model is not None:
        if population_model.sampling_fraction is not None:
            pop_unique = population_uniqueness(own, population_model.sampling_fraction)
        pop, note = _population_evidence(
            tab.classes, population_model, engine, None if records is None else sizes
        )
        evidence = replace(evidence, population_model=pop)
        if records is not None and pop_unique is not None:
            note += (
                "; population uniqueness needs disjoint classes and is estimated on the "
                "classes with a missing value as a value of its own"
            )
        big_f = evidence.population_sizes()
        record_risk = None if pop.model == "table" else evidence.record_risk("journalist")
        journalist, marketer = (
            reidentification_risk(
                sizes,
                population_sizes=big_f,
                record_risk=record_risk,
                threshold=threshold,
                model=model,
                records=records,
            )
            for model in ("journalist", "marketer")
        )
    diversity = {}
    for s in sens:
        result = sensitive_metrics(
            evidence.table(s),
            c=c,
            distance=dist[s],  # type: ignore[arg-type]
            order=orders.get(s),
            order_source=sources.get(s, "given"),
            records=records,
            hierarchy=hierarchies.get(s),
        )
        if result.per_class is not None:
            evidence.seed(s, result.per_class, c=result.c, distance=result.distance)
        diversity[s] = result
    households = None
    if household is not None:
        from riskcore.metrics.household import household_risk

        assert isinstance(engine, EncodedTable)  # noqa: S101 - checked
        row_risk = evidence.record_risk("journalist")[engine.record_classes(qis, person=person)]
        households = household_risk(engine, household, row_risk, person=person, threshold=threshold)
    return Assessment(
        quasi_identifiers=qis,
        anonymity=k_anonymity(sizes, records=records),
        prosecutor=reidentification_risk(sizes, threshold=threshold, records=records),
        journalist=journalist,
        marketer=marketer,
        sensitive=diversity,
        threshold=float(threshold),
        missing_policy=MISSING_POLICY_TEXT[policy],
        population_note=note,
        population_uniqueness=pop_unique,
        engine=tab.engine,
        classes=tab.classes,
        missing=policy,
        missing_records=missing_records,
        matching=sizes if policy == "any" else None,
        evidence=evidence,
        person=person,
        rows=None if person is None else tab.classes.n_rows,
        km_anonymity=km,
        household=households,
    )


def _check_events(
    engine: Engine,
    qis: tuple[str, ...],
    sens: tuple[str, ...],
    person: str | None,
    events: Sequence[str],
    household: str | None,
) -> tuple[str, ...]:
    """Return the event columns as a tuple, checked with the household, or raise."""
    from riskcore.roles.assignment import event_names

    cols = event_names(events)
    if (cols or household is not None) and not isinstance(engine, EncodedTable):
        raise RiskcoreError(
            "k^m-anonymity and household risk read each row: assess them in memory "
            "(--engine pandas)"
        )
    if cols and person is None:
        raise RolesError(
            "k^m-anonymity counts each person's events: give the person column too (--person)"
        )
    for col in cols:
        if col in qis or col in sens:
            raise RolesError(
                f"the event column {col!r} cannot be a quasi-identifier or sensitive attribute "
                "too (its values change from visit to visit: k^m-anonymity judges it)"
            )
    if household is not None and (household in qis or household in sens or household in cols):
        raise RolesError(
            f"the household column {household!r} cannot be a quasi-identifier, sensitive "
            "attribute or event column too"
        )
    for col in (*cols, *([household] if household is not None else [])):
        if col not in set(engine.columns):
            raise RolesError(f"the table has no column {col!r}")
    return cols


def _events(
    table: EncodedTable,
    qis: tuple[str, ...],
    person: str,
    events: tuple[str, ...],
    m: int,
    event_k: int | None,
    threshold: float,
) -> tuple[KmAnonymity, EventEvidence]:
    """Return k^m-anonymity of the events and the evidence the criterion judges on.

    The evidence's least supports of ``m`` are the result's (the same people
    and items: :func:`riskcore.metrics.longitudinal.event_pairs`), kept rather
    than counted twice.
    """
    from riskcore.metrics.longitudinal import event_pairs, km_anonymity

    k = event_k if event_k is not None else max(math.ceil(1.0 / threshold - 1e-9), 1)
    result = km_anonymity(table, person, events, k=k, m=m)
    _, pairs = event_pairs(table, person, events)
    pairs.seed(m, result.person_support)
    people = table.partition(qis, person=person).people
    assert people is not None  # noqa: S101 - a person partition
    return result, EventEvidence(events, people.classes.owner_class, pairs)


def _check_roles(
    engine: Engine,
    quasi_identifiers: Iterable[str],
    sensitive: Iterable[str],
    person: str | None = None,
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Return the QIs and sensitive attributes as tuples, or raise RolesError."""
    qis = tuple(str(q) for q in quasi_identifiers)
    sens = tuple(str(s) for s in sensitive)
    if person is not None:
        if not isinstance(person, str):
            raise RolesError(f"the person column must be a column name, not {person!r}")
        if person in qis or person in sens:
            raise RolesError(
                f"the person column {person!r} links a person's rows; it cannot be a "
                "quasi-identifier or sensitive attribute too"
            )
        if person not in set(engine.columns):
            raise RolesError(f"the table has no person column {person!r}")
    if not qis:
        raise RolesError("choose at least one quasi-identifier")
    for group, label in ((qis, "quasi-identifier"), (sens, "sensitive attribute")):
        if len(set(group)) != len(group):
            raise RolesError(f"a {label} is listed twice")
    both = set(qis) & set(sens)
    if both:
        raise RolesError(
            f"column {sorted(both)[0]!r} cannot be both a quasi-identifier and sensitive"
        )
    known = set(engine.columns)
    for col in (*qis, *sens):
        if col not in known:
            raise RolesError(f"the table has no column {col!r}")
    return qis, sens


def class_table(
    assessment: Assessment,
    class_ids: np.ndarray | None = None,
    *,
    limit: int | None = 1000,
) -> pd.DataFrame:
    """Describe equivalence classes: their QI values, size and sensitive figures.

    Parameters
    ----------
    assessment : Assessment
        As returned by :func:`assess` (not read back from JSON: the class
        table is not in the JSON).
    class_ids : numpy.ndarray, optional
        Which classes (default all), e.g. from
        :meth:`~riskcore.metrics.DiversityResult.failing_classes`.
    limit : int or None, default 1000
        Most rows returned, smallest classes first; classes of one size in
        the engine's class numbering, which the contract leaves to each
        engine (the Parquet stream numbers them as it meets them), so two
        engines may list different classes of the same size at the cut.

    Returns
    -------
    pandas.DataFrame
        One row per class: the QI values, ``records`` (with a person column,
        ``people`` and their ``rows``; a class whose people hold several QI
        tuples lists each QI's values joined by " | "), ``risk`` (1/f_j) and,
        per sensitive attribute, distinct values, entropy l, recursive l,
        t and the share of the most frequent value. Under the missing-value
        policy "any", also ``compatible records`` (f_k), the risk being 1/f_k
        and the sensitive figures those of the compatible records.
    """
    classes = assessment.classes
    if classes is None:
        raise ValueError("this assessment has no class table (it was read back from JSON)")
    sizes = classes.sizes if assessment.matching is None else assessment.matching
    ids = np.arange(len(sizes)) if class_ids is None else np.asarray(class_ids, dtype=np.int64)
    ids = ids[np.argsort(sizes[ids], kind="stable")]
    if limit is not None:
        ids = ids[:limit]
    out = classes.values(ids)
    out.insert(0, "class", ids)
    if classes.signatures is None:
        out["records"] = classes.sizes[ids]
    else:  # the classes count people
        out["people"] = classes.sizes[ids]
        out["rows"] = classes.rows[ids]
    if assessment.matching is not None:
        out["compatible records"] = sizes[ids]
    out["risk"] = 1.0 / sizes[ids]
    for name, r in assessment.sensitive.items():
        pc = r.per_class
        if pc is None:
            raise ValueError("this assessment has no per-class figures (read back from JSON)")
        out[f"{name}: distinct"] = pc["distinct"][ids]
        out[f"{name}: entropy l"] = np.exp(pc["entropy"][ids])
        out[f"{name}: recursive l"] = pc["recursive_l"][ids]
        out[f"{name}: t"] = pc["t"][ids]
        out[f"{name}: top share"] = pc["top_share"][ids]
    return out
