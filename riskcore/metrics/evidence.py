"""What every privacy model decides on: the classes of one grouping, from the engine contract.

An :class:`Evidence` is ARX's "groupify" in riskcore's terms: one entry per
equivalence class over the quasi-identifiers, holding what the privacy models
(:mod:`riskcore.criteria.models`) read and nothing about rows:

- ``records``: the records of each class (the classes of the ``"own"``
  partition, disjoint; records of a failing class are what suppression
  removes);
- the size each class is *judged* by: f_j, or f_k under the missing-value
  policy ``"any"`` (:mod:`riskcore.metrics.missing`: a record is judged with
  every record compatible with it);
- per sensitive attribute, the sparse class x value contingency (of the
  compatible sets under ``"any"``), with the ground distance and value order
  of its t-closeness;
- optionally the population: F_j estimated from a sampling fraction or
  sampling weights (record risk E[1/F_j | f_j], Benedetti and Franconi
  1998), or counted in a population table (record risk 1/F_j); and the
  counts of an identified population table over the same classes (k-map,
  delta-presence), with the population classes that have no released record;
- optionally the events of a table with several rows per person
  (:class:`EventEvidence`): each person's class and the (person, item) pairs
  of their visits, from which k^m-anonymity reads, per class, the least
  support of its people's itemsets (:meth:`Evidence.event_support`).

The same object comes from :func:`riskcore.metrics.assess` (a table as it is),
from a lattice node (:mod:`riskcore.deidentify.search.lattice`, the classes of a
generalization) and from the records table; :meth:`Evidence.restrict` keeps
some classes (the release after suppression) and recomputes what depends on
the whole release: the table-wide distribution Q of t-closeness, under
``"any"`` the compatible sets (a suppressed record no longer matches anyone),
and the itemset supports of the events (a suppressed person no longer holds
their itemsets, so the supports of the people left can only fall).

Per-class figures are computed once per evidence and kept (a model asked
again, or two models reading the same figure, reuse them).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from riskcore._deprecation import renamed_arguments, renamed_attributes
from riskcore.engine import ClassTable, Contingency
from riskcore.errors import RiskcoreError
from riskcore.metrics.closeness import (
    DISTANCES,
    ValueHierarchy,
    check_value_hierarchy,
    t_closeness_per_class,
)
from riskcore.metrics.diversity import (
    distinct_l_per_class,
    entropy_per_class,
    recursive_l_per_class,
)
from riskcore.metrics.missing import (
    MissingPolicy,
    check_missing,
    compatible_contingency,
    compatible_sizes,
    known_mask,
)
from riskcore.metrics.population import individual_risk, weighted_individual_risk

if TYPE_CHECKING:
    from riskcore.metrics.longitudinal import EventPairs

__all__ = [
    "EventEvidence",
    "Evidence",
    "PopulationEvidence",
    "SensitiveEvidence",
    "sensitive_evidence",
]


def _same(value: np.ndarray) -> np.ndarray:
    return value


PopulationModel = Literal["fraction", "weights", "table"]


@dataclass(frozen=True, eq=False)
class SensitiveEvidence:
    """One sensitive attribute's contingency with how its t-closeness is measured.

    Attributes
    ----------
    table : Contingency
        The ``"own"`` classes x values table.
    distance : {"ordered", "equal", "hierarchical"}
        Ground distance of t-closeness.
    order : tuple or None
        The values lowest first, for the ordered distance of text.
    hierarchy : tuple of tuples or None
        The attribute's hierarchy, ``(value, level 1, ..., top)`` per value,
        for the hierarchical distance
        (:func:`riskcore.metrics.closeness.check_value_hierarchy`).
    """

    table: Contingency
    distance: Literal["ordered", "equal", "hierarchical"]
    order: tuple[Any, ...] | None = None
    hierarchy: tuple[tuple[Any, ...], ...] | None = None


def sensitive_evidence(
    table: Contingency,
    distance: str,
    order: Sequence[Any] | None = None,
    hierarchy: ValueHierarchy | None = None,
) -> SensitiveEvidence:
    """Check a sensitive attribute's distance and return its evidence.

    Parameters
    ----------
    table : Contingency
        The attribute's classes x values table.
    distance : {"ordered", "equal", "hierarchical"}
        Its ground distance.
    order : sequence, optional
        Its values lowest first (ordered distance of text).
    hierarchy : rows, optional
        Its hierarchy, required by the hierarchical distance (kept with
        another distance, for a model that asks for the hierarchical one) and
        checked (:func:`riskcore.metrics.closeness.check_value_hierarchy`)
        before any work.

    Returns
    -------
    SensitiveEvidence

    Raises
    ------
    RiskcoreError
        When the distance is unknown, or hierarchical without a valid hierarchy.
    """
    a = table.attribute
    if distance not in DISTANCES:
        raise RiskcoreError(
            f"the distance of {a!r} is 'ordered', 'equal' or 'hierarchical', not {distance!r}"
        )
    if distance == "hierarchical" and hierarchy is None:
        raise RiskcoreError(
            f"the hierarchical distance of {a!r} needs the attribute's hierarchy "
            f"(--hierarchy {a}=FILE on the command line)"
        )
    rows = None if hierarchy is None else check_value_hierarchy(hierarchy, a)
    return SensitiveEvidence(
        table,
        distance,  # type: ignore[arg-type]
        None if order is None else tuple(order),
        rows,
    )


@dataclass(frozen=True, eq=False)
class PopulationEvidence:
    """The population model of the journalist's record risk, per ``"own"`` class.

    Attributes
    ----------
    model : {"fraction", "weights", "table"}
        F_j estimated as f_j / pi (a sampling fraction), as the sum of the
        sampling weights of the class's records, or counted in a population
        table.
    sampling_fraction : float or None
        pi, for ``"fraction"``.
    weight_sums : numpy.ndarray or None
        Sum of the sampling weights of each class's records, for ``"weights"``.
    table_counts : numpy.ndarray or None
        F_j of each class counted in the population table (compatible rows
        under ``"any"``), for ``"table"``; suppression does not change them.
    """

    model: PopulationModel
    sampling_fraction: float | None = None
    weight_sums: np.ndarray | None = None
    table_counts: np.ndarray | None = None

    def restrict(self, keep: np.ndarray) -> PopulationEvidence:
        """Return the model for the classes ``keep`` (a boolean mask).

        Parameters
        ----------
        keep : numpy.ndarray
            bool per class.

        Returns
        -------
        PopulationEvidence
            The same model; the weight sums and population-table counts of the kept
            classes only, in order.
        """
        return replace(
            self,
            weight_sums=None if self.weight_sums is None else self.weight_sums[keep],
            table_counts=None if self.table_counts is None else self.table_counts[keep],
        )


@dataclass(frozen=True, eq=False)
class EventEvidence:
    """The events of a table with several rows per person, as k^m-anonymity reads them.

    Attributes
    ----------
    columns : tuple of str
        The event columns (visits of their values together are the items).
    person_class : numpy.ndarray
        int64 class of each person of ``pairs`` in the evidence, -1 for a
        person no longer released.
    pairs : EventPairs
        The (person, item) pairs (:class:`riskcore.metrics.longitudinal.EventPairs`),
        with each person's least support per m.
    """

    columns: tuple[str, ...]
    person_class: np.ndarray
    pairs: EventPairs

    def class_support(self, m: int, n_classes: int) -> np.ndarray:
        """Return, per class, the least support of its people's itemsets of at most m items.

        min over the people p of the class holding an item of min over their
        itemsets I, 1 <= |I| <= m, of support(I) (Terrovitis, Mamoulis and
        Kalnis 2008); infinity for a class none of whose people holds an item.

        Parameters
        ----------
        m : int
            The most items (visits) an attacker knows.
        n_classes : int
            The number of classes (the length of the result).

        Returns
        -------
        numpy.ndarray
            float64 per class.
        """
        support = self.pairs.least_support(m)
        who = np.flatnonzero((support > 0) & (self.person_class >= 0))
        out = np.full(n_classes, np.inf)
        np.minimum.at(out, self.person_class[who], support[who].astype(np.float64))
        return out

    def restrict(self, keep: np.ndarray, new_id: np.ndarray) -> EventEvidence:
        """Return the events of the people of the kept classes (their supports counted anew).

        Parameters
        ----------
        keep : numpy.ndarray
            bool per class.
        new_id : numpy.ndarray
            The new number of each kept class.

        Returns
        -------
        EventEvidence
        """
        inside = self.person_class >= 0
        kept = inside.copy()
        kept[inside] = keep[self.person_class[inside]]
        person_class = np.where(kept, new_id[np.maximum(self.person_class, 0)], -1)
        return EventEvidence(self.columns, person_class.astype(np.int64), self.pairs.keep(kept))


def _restrict_table(table: Contingency, keep: np.ndarray, new_id: np.ndarray) -> Contingency:
    """Return ``table`` over the kept classes, renumbered, with Q the kept records' totals."""
    cells = keep[table.cell_class]
    cc, cv, cn = table.cell_class[cells], table.cell_value[cells], table.cell_count[cells]
    totals = np.bincount(cv, weights=cn, minlength=len(table.value_totals)).astype(np.int64)
    return Contingency(
        table.attribute,
        new_id[cc],
        cv,
        cn,
        table.class_sizes[keep],
        totals,
        table.ordered,
        table.labels,
    )


@renamed_attributes(population="population_model")
@dataclass(frozen=True, eq=False)
class Evidence:
    """The classes of one grouping, as the privacy models read them.

    Attributes
    ----------
    records : numpy.ndarray
        int64 records per class (the ``"own"`` classes, disjoint; 0 for a
        population class with no released record, which only delta-presence
        judges and which no suppression can remove).
    sensitive : mapping of str to SensitiveEvidence
    missing : {"own", "any"}
        The missing-value policy the classes are judged under.
    classes : ClassTable or None
        The ``"own"`` class table (QI codes); needed under ``"any"`` only.
    population_model : PopulationEvidence or None
        The population model of the journalist's risk (None: the data are
        taken as the population, F_j = f_j; the old name ``population`` still
        reads, with a DeprecationWarning).
    population_counts : numpy.ndarray or None
        Per class, its members in an identified population table (k-map,
        delta-presence).
    person : str or None
        The column linking the rows of one person: ``records`` then counts
        people (the unit every decision and its words are in).
    events : EventEvidence or None
        The events of each person, for k^m-anonymity (with a person column).
    """

    records: np.ndarray
    sensitive: Mapping[str, SensitiveEvidence] = field(default_factory=dict)
    missing: MissingPolicy = "own"
    classes: ClassTable | None = None
    population_model: PopulationEvidence | None = None
    population_counts: np.ndarray | None = None
    person: str | None = None
    events: EventEvidence | None = None
    _cache: dict[Hashable, Any] = field(default_factory=dict, repr=False, init=False)

    def __post_init__(self) -> None:
        check_missing(self.missing)
        if self.missing == "any" and self.classes is None:
            raise RiskcoreError("the missing-value policy 'any' needs the class table")
        n = len(self.records)
        for s in self.sensitive.values():
            if len(s.table.class_sizes) != n:
                raise ValueError("every contingency needs one class per class of the evidence")
        if self.population_counts is not None and len(self.population_counts) != n:
            raise ValueError("population_counts needs one entry per class")
        if self.events is not None and len(self.events.person_class) != self.events.pairs.n_people:
            raise ValueError("the events need one class per person")

    # ------------------------------------------------------------------ facts

    @property
    def n_classes(self) -> int:
        """Return the number of classes."""
        return len(self.records)

    @property
    def n_records(self) -> int:
        """Return n, the records of every class."""
        return int(self.records.sum())

    @property
    def present(self) -> np.ndarray:
        """Return, per class, whether it has a record (False: a population class with none)."""
        return self._array("present", lambda: self.records > 0)

    @property
    def absent_classes(self) -> int:
        """Return the number of classes with no record (population classes not released)."""
        return int(self.n_classes - np.count_nonzero(self.present))

    @property
    def attributes(self) -> tuple[str, ...]:
        """Return the sensitive attributes, in order."""
        return tuple(self.sensitive)

    def cached(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """Return the figure under ``key``, computing it once (per-class arrays, read-only).

        Parameters
        ----------
        key : Hashable
            The figure's name and its arguments (``("t", attribute, distance)``).
        compute : callable
            Called without arguments when ``key`` is not cached yet.

        Returns
        -------
        Any
            The cached value; a numpy array is made read-only before it is cached.
        """
        if key not in self._cache:
            value = compute()
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
            self._cache[key] = value
        return self._cache[key]

    def _array(self, key: Hashable, compute: Callable[[], np.ndarray]) -> np.ndarray:
        """Return :meth:`cached` typed as the per-class array ``compute`` gives."""
        result: np.ndarray = self.cached(key, compute)
        return result

    def _matching(self) -> bool:
        """Return True when the classes are judged by their compatible sets ("any" with a
        missing value somewhere)."""
        classes = self.classes
        if self.missing != "any" or classes is None:
            return False
        return bool(self.cached("has_missing", lambda: not known_mask(classes).all()))

    @property
    def sizes(self) -> np.ndarray:
        """Return the size each class is judged by: f_j, or f_k under ``"any"``."""
        if not self._matching():
            return self.records
        classes = self.classes
        assert classes is not None  # noqa: S101 - _matching checked it
        return self._array("sizes", lambda: compatible_sizes(classes))

    def table(self, attribute: str) -> Contingency:
        """Return the contingency each class of ``attribute`` is judged by.

        Under the ``"any"`` missing-value policy, the compatible sets.

        Parameters
        ----------
        attribute : str
            A sensitive attribute of the evidence (a key of ``sensitive``).

        Returns
        -------
        Contingency
            The attribute's own table, or under ``"any"`` with a missing QI value the
            sums over each class's compatible records (cached).

        Raises
        ------
        RiskcoreError
            When ``attribute`` is not a sensitive attribute of the assessment.
        """
        if attribute not in self.sensitive:
            raise RiskcoreError(f"{attribute!r} is not a sensitive attribute of this assessment")
        own = self.sensitive[attribute].table
        if not self._matching():
            return own
        classes = self.classes
        assert classes is not None  # noqa: S101
        result: Contingency = self.cached(
            ("table", attribute), lambda: compatible_contingency(classes, own)
        )
        return result

    def population_sizes(self) -> np.ndarray | None:
        """Return F_j per class for the journalist (None without a population model).

        Returns
        -------
        numpy.ndarray or None
            float64, one per class, never below f_j: f_j / pi, the weight sums, or the
            population table's counts.
        """
        pop = self.population_model
        if pop is None:
            return None

        def compute() -> np.ndarray:
            f = self.sizes.astype(np.float64)
            if pop.model == "fraction":
                assert pop.sampling_fraction is not None  # noqa: S101
                return np.maximum(f / pop.sampling_fraction, f)
            if pop.model == "weights":
                assert pop.weight_sums is not None  # noqa: S101
                w = pop.weight_sums
                if self._matching():
                    assert self.classes is not None  # noqa: S101
                    w = compatible_sizes(self.classes, w)
                out: np.ndarray = np.maximum(w, f)
                return out
            assert pop.table_counts is not None  # noqa: S101
            counted: np.ndarray = np.maximum(pop.table_counts, f)
            return counted

        return self._array("population_sizes", compute)

    def record_risk(self, model: Literal["prosecutor", "journalist"]) -> np.ndarray:
        """Return each class's record re-identification risk under the attacker ``model``.

        Prosecutor: 1/f_j (the judged size). Journalist: 1/F_j from a population
        table, or E[1/F_j | f_j] of the individual-risk model with a sampling
        fraction or sampling weights (Benedetti and Franconi 1998), never
        1/(f_j / pi); without a population model it equals the prosecutor's.

        Parameters
        ----------
        model : {"prosecutor", "journalist"}
            The attacker model.

        Returns
        -------
        numpy.ndarray
            float64 in [0, 1], one per class (0 for a class of no record).
        """

        def compute() -> np.ndarray:
            f = self.sizes.astype(np.float64)
            pop = self.population_model
            if model == "prosecutor" or pop is None:
                with np.errstate(divide="ignore"):
                    return np.where(f > 0, 1.0 / np.maximum(f, 1.0), 0.0)
            big_f = self.population_sizes()
            assert big_f is not None  # noqa: S101
            if pop.model == "fraction":
                assert pop.sampling_fraction is not None  # noqa: S101
                return np.asarray(individual_risk(self.sizes, pop.sampling_fraction))
            if pop.model == "weights":
                return np.asarray(weighted_individual_risk(self.sizes, big_f, method="exact"))
            return 1.0 / big_f

        return self._array(("risk", model), compute)

    def event_support(self, m: int) -> np.ndarray:
        """Return, per class, the least support of its people's sets of at most m events.

        See :meth:`EventEvidence.class_support` (infinity: no person of the
        class holds an event).

        Parameters
        ----------
        m : int
            The most events an attacker knows.

        Returns
        -------
        numpy.ndarray
            float64 per class.

        Raises
        ------
        RiskcoreError
            When the evidence holds no events (no event or person column).
        """
        events = self.events
        if events is None:
            raise RiskcoreError(
                "k^m-anonymity counts each person's events: give the event columns and the "
                "person column (--event COL --person COL)"
            )
        return self._array(("events", int(m)), lambda: events.class_support(int(m), self.n_classes))

    # ------------------------------------------------------------------ per-class figures

    def distinct(self, attribute: str) -> np.ndarray:
        """Return the distinct sensitive values of each class (Machanavajjhala et al. 2007).

        Parameters
        ----------
        attribute : str
            A sensitive attribute of the evidence, as :meth:`table`'s.

        Returns
        -------
        numpy.ndarray
            int64 counts, one per class (cached).
        """
        return self._array(
            ("distinct", attribute), lambda: distinct_l_per_class(self.table(attribute))
        )

    def entropy(self, attribute: str) -> np.ndarray:
        """Return each class's entropy H_j = -sum_s p(s) ln p(s), in nats.

        Parameters
        ----------
        attribute : str
            The sensitive attribute whose shares enter H_j (as :meth:`table`).

        Returns
        -------
        numpy.ndarray
            float64 >= 0, one per class; entropy l-diversity is exp of its minimum.
        """
        return self._array(("entropy", attribute), lambda: entropy_per_class(self.table(attribute)))

    def recursive(self, attribute: str, c: float) -> np.ndarray:
        """Return the largest l each class is recursive (c,l)-diverse for.

        Parameters
        ----------
        attribute : str
            The sensitive attribute whose sorted counts are read (as :meth:`table`).
        c : float
            The constant c > 0.

        Returns
        -------
        numpy.ndarray
            L_j >= 1, one per class (1: no diversity).
        """
        return self._array(
            ("recursive", attribute, float(c)),
            lambda: recursive_l_per_class(self.table(attribute), float(c)),
        )

    def t(self, attribute: str, distance: str | None = None) -> np.ndarray:
        """Return each class's t-closeness distance from the table's distribution.

        ``distance`` defaults to the attribute's (:class:`SensitiveEvidence`);
        the ordered distance uses the attribute's value order, the
        hierarchical one its hierarchy.

        Parameters
        ----------
        attribute : str
            The sensitive attribute whose distributions are compared (as :meth:`table`).
        distance : str, optional
            "ordered", "equal" or "hierarchical"; default the attribute's.

        Returns
        -------
        numpy.ndarray
            float64 in [0, 1], one per class; t is its maximum.
        """
        s = self.sensitive[attribute]
        d = distance or s.distance

        def compute() -> np.ndarray:
            order = s.order if d == "ordered" else None
            return t_closeness_per_class(
                self.table(attribute),
                d,  # type: ignore[arg-type]
                order=order,
                hierarchy=s.hierarchy,
            )

        return self._array(("t", attribute, d), compute)

    def seed(
        self, attribute: str, per_class: Mapping[str, np.ndarray], *, c: float, distance: str
    ) -> None:
        """Keep per-class figures an assessment already computed on these classes.

        ``per_class`` as :attr:`riskcore.metrics.DiversityResult.per_class`:
        ``distinct``, ``entropy``, ``recursive_l`` (for ``c``) and ``t`` (for
        ``distance``), computed on :meth:`table` of ``attribute``.

        Parameters
        ----------
        attribute : str
            The sensitive attribute the figures were computed on (as :meth:`table`).
        per_class : mapping of str to numpy.ndarray
            The arrays ``distinct``, ``entropy``, ``recursive_l`` and ``t``, one value per
            class.
        c : float
            The c ``recursive_l`` was computed for.
        distance : str
            The distance ``t`` was computed with.
        """
        for key, name in (
            (("distinct", attribute), "distinct"),
            (("entropy", attribute), "entropy"),
            (("recursive", attribute, float(c)), "recursive_l"),
            (("t", attribute, distance), "t"),
        ):
            value: np.ndarray = per_class[name]
            self.cached(key, functools.partial(_same, value))

    # ------------------------------------------------------------------ the release

    def restrict(self, keep: np.ndarray) -> Evidence:
        """Return the evidence of the kept classes: the release after suppression.

        Classes are renumbered in order. The table-wide distribution of each
        sensitive attribute (Q of t-closeness) becomes that of the kept
        records, under ``"any"`` the compatible sets are those within the
        kept records, and the itemset supports of the events are counted
        again over the people kept: what a reader of the release sees.
        Population counts (fixed by the population) are kept as they are.

        Parameters
        ----------
        keep : numpy.ndarray
            bool per class.

        Returns
        -------
        Evidence
        """
        keep = np.asarray(keep, dtype=bool)
        if len(keep) != self.n_classes:
            raise ValueError("keep needs one entry per class")
        new_id = np.cumsum(keep) - 1
        classes = None
        if self.classes is not None:
            c = self.classes
            classes = ClassTable(
                c.quasi_identifiers,
                c.sizes[keep],
                tuple(np.asarray(k)[keep] for k in c.keys),
                c.labels,
            )
        return Evidence(
            records=self.records[keep],
            sensitive={
                a: replace(s, table=_restrict_table(s.table, keep, new_id))
                for a, s in self.sensitive.items()
            },
            missing=self.missing,
            classes=classes,
            population_model=(
                None if self.population_model is None else self.population_model.restrict(keep)
            ),
            population_counts=None
            if self.population_counts is None
            else self.population_counts[keep],
            person=self.person,
            events=None if self.events is None else self.events.restrict(keep, new_id),
        )

    @classmethod
    @renamed_arguments(population="population_model")
    def of(
        cls,
        classes: ClassTable,
        tables: Mapping[str, Contingency] | None = None,
        *,
        missing: MissingPolicy = "own",
        distance: Mapping[str, str] | None = None,
        order: Mapping[str, Sequence[Any] | None] | None = None,
        population_model: PopulationEvidence | None = None,
        hierarchy: Mapping[str, ValueHierarchy] | None = None,
    ) -> Evidence:
        """Build the evidence of a tabulation (the engine contract's class table and tables).

        Parameters
        ----------
        classes : ClassTable
            The ``"own"`` classes.
        tables : mapping of str to Contingency, optional
            One per sensitive attribute, numbered as ``classes``.
        missing : {"own", "any"}, default "own"
            The missing-value policy the classes are judged by (:mod:`riskcore.metrics.missing`).
        distance : mapping of str to {"ordered", "equal", "hierarchical"}, optional
            Per attribute; default ordered when the table's codes are ordered.
        order : mapping of str to sequence, optional
            Per attribute, its values lowest first (ordered distance of text).
        population_model : PopulationEvidence, optional
            The population model of the journalist's F_j (none: F_j = f_j;
            ``population`` before, still accepted with a DeprecationWarning).
        hierarchy : mapping of str to rows, optional
            Per attribute, its hierarchy (hierarchical distance; required for it).

        Returns
        -------
        Evidence
        """
        dist = dict(distance or {})
        orders = dict(order or {})
        sens = {}
        for a, t in (tables or {}).items():
            d = dist.get(a) or ("ordered" if t.ordered or orders.get(a) is not None else "equal")
            o = orders.get(a)
            sens[a] = sensitive_evidence(t, d, o, (hierarchy or {}).get(a))
        return cls(
            records=np.asarray(classes.sizes, dtype=np.int64),
            sensitive=sens,
            missing=check_missing(missing),
            classes=classes,
            population_model=population_model,
            person=classes.person,
        )
