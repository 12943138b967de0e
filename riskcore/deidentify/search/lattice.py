"""Full-domain generalization with suppression: the lattice of nodes, each node judged.

A *node* of the generalization lattice is one level per quasi-identifier
(Samarati 2001; LeFevre et al. 2005): every value of a QI is replaced by its
label at that level of the QI's :class:`~riskcore.deidentify.hierarchy.Hierarchy`.
Records of classes that still break the privacy targets are suppressed
(removed from the release), and a node is *anonymous* when the suppressed
records stay within the limit (ARX's semantics, Prasser et al. 2014).

Evaluation never returns to the rows: the table is tabulated once over the
QIs at level 0 (the base classes, with one sparse contingency per sensitive
attribute); a node's classes are rolled up from an evaluated node below it
(:mod:`riskcore.deidentify.search.rollup`, ARX's snapshots) or regrouped from the
base classes. k-map and delta-presence read an identified population table
generalized alike (:mod:`riskcore.deidentify.search.population`).

Information loss (:mod:`riskcore.utility.loss`, every objective with its
source): a node's losses (:meth:`Lattice.evaluate`) and their lower bounds,
which the least-loss search (:func:`riskcore.deidentify.search.run.search`)
stops on (:meth:`Lattice.lower_bound_terms`, :meth:`Lattice.node_bound`),
come from :class:`~riskcore.deidentify.search.losses.LatticeLosses`,
mixed into :class:`Lattice`.

Steering (:class:`~riskcore.deidentify.search.steering.Steering`): per-QI weights
enter the multi-dimensional objectives, level bounds restrict the nodes
searched; both are given to the lattice, which checks its size against
:data:`~riskcore.deidentify.search.steering.MAX_NODES` before allocating anything.

Event columns (``events``, with a person column): quasi-identifiers that
change from visit to visit, judged by k^m-anonymity of each person's visits
(:class:`riskcore.criteria.KmAnonymity`) rather than by the classes. Each is
one more dimension of the lattice, after the QIs, generalized by its
hierarchy; the classes of people stay those of the QIs (their signatures), and
at each node the visits are the tuples of the event columns generalized to the
node's event levels (:func:`riskcore.metrics.longitudinal.visit_items`), their
least supports counted once per event levels and again on each release left
after suppression. The losses take the event columns as they take the QIs,
over the rows released.

Engines: in memory only (:class:`~riskcore.engine.EncodedTable`); the other
engines return class counts (:data:`riskcore.engine.select.SUPPORTED_ENGINES`).
"""

from __future__ import annotations

import itertools
import math
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Literal

import numpy as np
import pandas as pd

from riskcore._deprecation import renamed_arguments, renamed_attributes
from riskcore.criteria import Targets, Verdict, evaluate
from riskcore.deidentify.hierarchy import Hierarchy, at_leaves
from riskcore.deidentify.recipe.base import generalize_columns
from riskcore.deidentify.search.losses import LatticeLosses
from riskcore.deidentify.search.node import NodeResult
from riskcore.deidentify.search.node_losses import LossTables
from riskcore.deidentify.search.population import PopulationClasses
from riskcore.deidentify.search.rollup import ClassTables, NodeClasses, regroup
from riskcore.deidentify.search.signatures import PersonBase, person_base, regroup_people
from riskcore.deidentify.search.steering import Steering, check_size
from riskcore.engine import EncodedTable
from riskcore.engine.contract import ClassTable, Contingency
from riskcore.errors import RiskcoreError
from riskcore.metrics import closeness, longitudinal
from riskcore.metrics.evidence import (
    EventEvidence,
    Evidence,
    PopulationEvidence,
    SensitiveEvidence,
)
from riskcore.metrics.longitudinal import EventPairs, event_names, visit_items
from riskcore.metrics.missing import MissingPolicy, check_any_policy, check_missing
from riskcore.utility.loss import (
    Objective,
    column_entropy,
    column_penalties,
    column_shares,
)

__all__ = [
    "Lattice",
    "NodeResult",
    "Objective",
    "apply_levels",
]

#: Event levels whose (person, visit) pairs and least supports a lattice keeps at once.
_EVENT_CACHE = 16
#: Bytes of the classes of people a lattice with event columns keeps per QI levels (the nodes
#: that differ only in their event levels share them).
_PEOPLE_CACHE_BYTES = 64 * 2**20


def _event_dims(
    hierarchies: Mapping[str, Hierarchy], events: Sequence[str], person: str | None
) -> tuple[str, ...]:
    """Return the event columns, checked: each with a hierarchy, once, with a person column."""
    out = event_names(events)
    if out and person is None:
        raise RiskcoreError(
            "event columns need the person column: k^m-anonymity counts each person's visits"
        )
    for e in out:
        if e not in hierarchies:
            raise RiskcoreError(f"give the event column {e!r} a hierarchy (flat keeps it as is)")
    return out


@renamed_attributes(qis="quasi_identifiers", class_qis="class_quasi_identifiers")
class Lattice(LatticeLosses):
    """The generalization lattice of a table over its QIs, ready to evaluate nodes.

    Parameters
    ----------
    data : pandas.DataFrame or EncodedTable
        The table.
    hierarchies : mapping of str to Hierarchy
        One hierarchy per quasi-identifier (the QIs, in this order) and per
        event column. The lattice's dimensions (:attr:`quasi_identifiers`, the order of a
        node's levels) are the QIs in this order, then the event columns in
        the order of ``events``.
    sensitive : sequence of str
        Sensitive attributes (for l-diversity and t-closeness targets).
    targets : Targets
        The privacy models every released class must meet
        (:class:`riskcore.criteria.Targets`), judged by
        :func:`riskcore.criteria.evaluate` with suppression.
    distance : mapping of str to {"ordered", "equal", "hierarchical"}, optional
        t-closeness distance per sensitive attribute (default by type, as in
        the assessment).
    order : mapping of str to sequence, optional
        Per sensitive attribute, its values lowest first (the ordered distance
        of text).
    sensitive_hierarchies : mapping of str to Hierarchy or rows, optional
        Per sensitive attribute, its generalization hierarchy, for the
        hierarchical distance (required by it; rows as
        :func:`riskcore.metrics.closeness.check_value_hierarchy`), checked
        before any tabulation.
    missing : {"own", "any"}, default "own"
        The missing-value policy the classes are judged under (as in the
        assessment; :mod:`riskcore.metrics.missing`).
    sampling_fraction : float, optional
        pi, for a journalist record-risk target.
    weights : str, optional
        The sampling-weight column, for a journalist record-risk target.
    steering : Steering, optional
        Per-QI weights of the objectives and level bounds of the search
        (:mod:`riskcore.deidentify.search.steering`).
    population_table : pandas.DataFrame, optional
        The identified population table the data were drawn from (one row
        per person, with the QIs), for k-map and delta-presence targets
        (:mod:`riskcore.deidentify.search.population`: k-map prunes like k,
        delta-presence is checked at each node).
    person : str, optional
        The column linking the rows of one person: every class counts people
        (their QI signatures, :mod:`riskcore.deidentify.search.signatures`), the
        suppression limit counts people, and a suppressed class loses all of
        its people's rows. The losses are measured on the rows of the release.
    events : sequence of str, default ()
        Event columns (with ``person``): each has a hierarchy in
        ``hierarchies`` and is a dimension of the lattice after the QIs; the
        k^m-anonymity targets judge each node on the visits generalized to its
        event levels (see the module). Their itemsets at the lowest event
        levels searched are counted once here, so that a count above
        :data:`~riskcore.metrics.longitudinal.MAX_ITEMSET_OCCURRENCES` is
        refused before the search (coarser events and fewer people count
        fewer).

    Raises
    ------
    RiskcoreError
        When a hierarchy does not hold a value of its column or of the
        population table (named), a k-map or delta-presence target comes
        without a population table, under the missing-value policy "any",
        or the data are not a subset of the population table, the
        steering names a column that is not a QI or a level above a
        hierarchy's height, or the lattice within its level bounds has more
        than :data:`~riskcore.deidentify.search.steering.MAX_NODES` nodes (checked
        before anything is allocated); for event columns without a person
        column or a hierarchy, with a population table's targets, or whose
        itemsets exceed their limit.
    """

    @renamed_arguments(population="population_table")
    def __init__(
        self,
        data: pd.DataFrame | EncodedTable,
        hierarchies: Mapping[str, Hierarchy],
        *,
        sensitive: Sequence[str] = (),
        targets: Targets | None = None,
        distance: Mapping[str, Literal["ordered", "equal", "hierarchical"]] | None = None,
        order: Mapping[str, Sequence[object]] | None = None,
        missing: MissingPolicy = "own",
        sampling_fraction: float | None = None,
        weights: str | None = None,
        steering: Steering | None = None,
        population_table: pd.DataFrame | None = None,
        person: str | None = None,
        events: Sequence[str] = (),
        sensitive_hierarchies: Mapping[str, Hierarchy | closeness.ValueHierarchy] | None = None,
    ) -> None:
        #: The event columns (the last dimensions of the lattice).
        self.events: tuple[str, ...] = _event_dims(hierarchies, events, person)
        class_qis = tuple(q for q in hierarchies if q not in self.events)
        if not class_qis:
            raise RiskcoreError("generalization needs at least one quasi-identifier")
        #: Every dimension: the QIs that form the classes, then the event columns (the old
        #: name ``qis`` still reads, with a DeprecationWarning).
        self.quasi_identifiers: tuple[str, ...] = (*class_qis, *self.events)
        #: The QIs that form the classes (the first dimensions; the old name ``class_qis``
        #: still reads, with a DeprecationWarning).
        self.class_quasi_identifiers = class_qis
        nq = self._nq = len(class_qis)
        self.heights = tuple(hierarchies[q].height for q in self.quasi_identifiers)
        self.steering = (steering or Steering()).check(self.quasi_identifiers, self.heights)
        #: Lowest and highest level searched per QI.
        self.bounds: tuple[tuple[int, int], ...] = tuple(
            self.steering.bounds(q, h)
            for q, h in zip(self.quasi_identifiers, self.heights, strict=True)
        )
        check_size(
            self.quasi_identifiers, [hi - lo + 1 for lo, hi in self.bounds]
        )  # before any allocation
        enc = data if isinstance(data, EncodedTable) else EncodedTable(data)
        self._enc = enc  # its partition of the records serves apply()
        missing_cols = [c for c in (*self.quasi_identifiers, *sensitive) if c not in enc.columns]
        if missing_cols:
            raise RiskcoreError(f"the table has no column {missing_cols[0]!r}")
        #: The person column (None: each row is taken to be a different person).
        self.person = person
        self._people: PersonBase | None = None
        if person is not None:
            if person in sensitive:
                raise RiskcoreError(f"the person column {person!r} cannot be sensitive too")
            self._people = person_base(enc, class_qis, person)
        self.targets = targets if targets is not None else Targets.of(k=2)
        if self.events and self.targets.needs_population_table:
            raise RiskcoreError(
                "k-map and delta-presence match a population table of one row per person, "
                "and event columns are many values per person: search them apart"
            )
        if self.targets.needs_population_table and population_table is None:
            raise RiskcoreError(
                "k-map and delta-presence are judged against the identified population table "
                "the data were drawn from: give it to the search (--population FILE)"
            )
        self.hierarchies = dict(hierarchies)
        self.sensitive = tuple(sensitive)
        self.distance = dict(distance or {})
        self.order = {k: tuple(v) for k, v in (order or {}).items()}
        #: The hierarchy of each sensitive attribute that has one (hierarchical distance).
        self.sensitive_hierarchies = closeness.sensitive_hierarchies(
            self.sensitive,
            self.distance,
            {
                c: tuple(zip(*h.levels, strict=True)) if isinstance(h, Hierarchy) else h
                for c, h in (sensitive_hierarchies or {}).items()
            },
        )
        self.missing: MissingPolicy = check_missing(missing)
        if self.targets.needs_population_table and self.missing == "any":
            raise RiskcoreError(
                "k-map and delta-presence count a missing value as a value of its own; "
                "search them under the missing-value policy 'own'"
            )
        if sampling_fraction is not None and weights is not None:
            raise RiskcoreError("give a sampling fraction or sampling weights, not both")
        if self._people is not None and not self._people.single:
            if self.targets.needs_population_table:
                raise RiskcoreError(
                    "k-map and delta-presence match a population table of one row per person; "
                    "some people here have rows with different quasi-identifier values"
                )
        # base classes: the classes of the rows over the QIs, or with a person column the
        # units (base signature, tuple) whose sizes are rows; the contingencies count people
        tab = enc.tabulate(class_qis, self.sensitive, person=person)
        if self.missing == "any":  # refused before the search for people of several tuples
            check_any_policy(tab.classes)
        self.base = tab.classes if self._people is None else self._people.units
        self.contingencies: dict[str, Contingency] = dict(tab.sensitive)
        #: Rows of the table (what the losses are measured on).
        self.n_rows = int(self.base.n_records)
        #: The units the classes count: people with a person column, else rows.
        self.n = self.n_rows if self._people is None else self._people.n_people
        # per QI and level: generalized code of every column code, the number of codes,
        # and the certainty penalty of every column code
        self._maps: list[list[np.ndarray]] = []
        self._cards: list[list[int]] = []
        self._labels: list[list[np.ndarray]] = []
        self._ncp: list[list[np.ndarray]] = []
        self._share: list[list[np.ndarray]] = []
        self._domain: list[int] = []
        self._entropy: list[np.ndarray] = []
        self._single_top: list[bool] = []
        column_counts: list[np.ndarray] = []  # per dimension, the rows of each column code
        for i, q in enumerate(self.quasi_identifiers):
            h = self.hierarchies[q]
            labels = self.base.labels[i] if i < nq else enc.column(q).labels
            leaf = h.leaf_index(pd.Series(labels, dtype=object))
            if (leaf == -1).any():
                bad = labels[int(np.flatnonzero(leaf == -1)[0])]
                raise RiskcoreError(
                    f"the hierarchy of {q!r} does not hold its value {bad!r}; add it to the "
                    "hierarchy (or build the hierarchy from this table)"
                )
            maps, cards, names = [], [], []
            for level in range(h.height + 1):
                codes, lab = h.codes(level)
                gen = at_leaves(codes, leaf, len(lab))  # a missing value: one more code
                maps.append(gen.astype(np.int64))
                cards.append(len(lab) + 1)
                names.append(np.asarray([*lab, None], dtype=object))  # last code: missing
            self._maps.append(maps)
            self._cards.append(cards)
            self._labels.append(names)
            self._ncp.append(column_penalties(h, leaf))
            self._share.append(column_shares(h, leaf))
            self._domain.append(max(len(h.leaves), 1))
            counts = self._column_counts(enc, i, len(labels))
            column_counts.append(counts)
            self._entropy.append(column_entropy(maps, counts))
            self._single_top.append(len(h.codes(h.height)[1]) <= 1)
        self._population: PopulationEvidence | None = None
        self._weights: np.ndarray | None = None  # sampling weights summed per base class
        if sampling_fraction is not None:
            self._population = PopulationEvidence("fraction", sampling_fraction=sampling_fraction)
        elif weights is not None:
            from riskcore.metrics.records import sampling_weights

            if self._people is not None:  # per base signature, its people's weights
                self._weights = self._people.owner_weights(sampling_weights(enc, weights))
            else:
                self._weights = np.bincount(
                    enc.record_classes(class_qis),
                    weights=sampling_weights(enc, weights),
                    minlength=self.base.n_classes,
                )
        # gathered once per QI and level over the base classes (a few MB): a node only adds
        # arrays up, with no gather per node
        self._class_codes = [[gen[self.base.keys[i]] for gen in self._maps[i]] for i in range(nq)]
        # per QI and level, per generalized code: its NCP penalty and ARX domain share (they
        # depend on the generalized value only), for the losses of every node
        self._losses = LossTables(
            self._maps,
            self._cards,
            self._ncp,
            self._share,
            column_counts,
            self.heights,
            self._domain,
            self._entropy,
            self.n_rows,
        )
        # node class tables rolled up from evaluated nodes (ARX's snapshots); each node's
        # base-class map kept only for the sensitive contingencies and sampling weights
        self._tables = ClassTables(
            self._class_codes,
            self._maps[:nq],
            self._cards[:nq],
            self.base.sizes,
            track_ids=bool(self.sensitive) or self._weights is not None or person is not None,
        )
        self._event_base(enc)
        self._pop: PopulationClasses | None = None
        self._absent = any(c.judges_empty_classes for c in self.targets.criteria)
        if self.targets.needs_population_table and population_table is not None:
            self._pop = PopulationClasses(population_table, self.hierarchies, self._cards)
            self._pop.check_subset(self._tables.direct([0] * nq)[1])
        self._init_bounds()
        if self.events:  # the itemsets of the finest events searched, counted (or refused) now
            lowest = tuple(lo for lo, _ in self.bounds[nq:])
            for m in {int(getattr(c, "m", 2)) for c in self.targets.criteria if c.needs_events}:
                self._event_pairs(lowest).least_support(m)

    def _column_counts(self, enc: EncodedTable, i: int, n_codes: int) -> np.ndarray:
        """Return the rows holding each code of dimension ``i`` (a QI's or an event's)."""
        if i < self._nq:
            return np.bincount(
                self.base.keys[i], weights=self.base.sizes.astype(np.float64), minlength=n_codes
            )
        codes = enc.column(self.quasi_identifiers[i]).codes
        return np.bincount(codes, minlength=n_codes).astype(np.float64)

    def _event_base(self, enc: EncodedTable) -> None:
        """Set the event columns' codes per row and the units the losses are summed over.

        Without events the units are the base classes. With events a unit is a
        distinct (base unit, tuple of the event codes) with its rows: its QI
        codes are its base unit's, its event codes its tuple's.
        """
        #: Per event column, its code of every row.
        self._event_codes = [enc.column(e).codes.astype(np.int64) for e in self.events]
        self._pairs: OrderedDict[tuple[int, ...], EventPairs] = OrderedDict()
        self._people_cache: OrderedDict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = (
            OrderedDict()
        )
        if not self.events:
            self._unit_base = self._unit_rows = self._unit_events = None
            return
        assert self._people is not None  # noqa: S101 - events need a person column
        cards = [enc.column(e).n_values for e in self.events]
        row_event, _ = visit_items(self._event_codes, cards)
        n_ev = int(row_event.max()) + 1 if len(row_event) else 1
        key = self._people.row_unit * n_ev + row_event
        uniq, first, rows = np.unique(key, return_index=True, return_counts=True)
        self._unit_base: np.ndarray | None = (uniq // n_ev).astype(np.int64)
        self._unit_rows: np.ndarray | None = rows.astype(np.int64)
        self._unit_events: list[np.ndarray] | None = [c[first] for c in self._event_codes]

    def _node_people(
        self, levels: tuple[int, ...], ids: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Return :meth:`PersonBase.node_people` of the QI ``levels`` (kept for the nodes that
        differ only in their event levels, within :data:`_PEOPLE_CACHE_BYTES`)."""
        assert self._people is not None  # noqa: S101 - with a person column
        if not self.events:  # each QI node is judged once: nothing to keep
            return self._people.node_people(ids)
        found = self._people_cache.get(levels)
        if found is not None:
            self._people_cache.move_to_end(levels)
            return found
        found = self._people.node_people(ids)
        self._people_cache[levels] = found
        held = sum(a.nbytes + b.nbytes for a, b in self._people_cache.values())
        while held > _PEOPLE_CACHE_BYTES and len(self._people_cache) > 1:
            a, b = self._people_cache.popitem(last=False)[1]
            held -= a.nbytes + b.nbytes
        return found

    def _event_pairs(self, levels: Sequence[int]) -> EventPairs:
        """Return the (person, visit) pairs with the events at ``levels`` (a few kept)."""
        key = tuple(int(x) for x in levels)
        pairs = self._pairs.get(key)
        if pairs is None:
            assert self._people is not None  # noqa: S101 - events need a person column
            dims = range(self._nq, len(self.quasi_identifiers))
            codes = [
                self._maps[d][x][c] for d, x, c in zip(dims, key, self._event_codes, strict=True)
            ]
            cards = [self._cards[d][x] for d, x in zip(dims, key, strict=True)]
            item, n_items = visit_items(codes, cards)
            pairs = EventPairs(
                self._people.row_person,
                item,
                self._people.n_people,
                n_items,
                longitudinal.MAX_ITEMSET_OCCURRENCES,  # read now: the limit as it stands
            )
            self._pairs[key] = pairs
            if len(self._pairs) > _EVENT_CACHE:
                self._pairs.popitem(last=False)
        else:
            self._pairs.move_to_end(key)
        return pairs

    @property
    def people_base(self) -> PersonBase | None:
        """Return the people of the base classes (None without a person column)."""
        return self._people

    @property
    def has_missing(self) -> bool:
        """Return True when a record has a missing QI value (its own code at every level)."""
        pairs = zip(self._class_codes, self._cards[: self._nq], strict=True)
        return any(bool((codes[0] == cards[0] - 1).any()) for codes, cards in pairs)

    @property
    def size(self) -> int:
        """Return the number of nodes searched: the product of (max - min + 1) within bounds."""
        return math.prod(hi - lo + 1 for lo, hi in self.bounds)

    def removed(self, levels: Sequence[int]) -> tuple[str, ...]:
        """Return the QIs ``levels`` generalizes to a single top label (the column removed).

        Parameters
        ----------
        levels : sequence of int
            The node: one level per QI, in the lattice's order.

        Returns
        -------
        tuple of str
        """
        return tuple(
            q
            for q, x, h, one in zip(
                self.quasi_identifiers, levels, self.heights, self._single_top, strict=True
            )
            if x == h and one
        )

    def base_codes(self, qi: int, level: int) -> np.ndarray:
        """Return the code of every base class's value of QI number ``qi`` at ``level``.

        Two base classes share a value at that level exactly when their codes
        are equal (a missing value has a code of its own at every level). A
        QI of the classes only (not an event column).

        Parameters
        ----------
        qi : int
            The QI's position in the lattice's order.
        level : int
            A level of its hierarchy.

        Returns
        -------
        numpy.ndarray
        """
        codes: np.ndarray = self._class_codes[qi][level]
        return codes

    def record_base_classes(self) -> np.ndarray:
        """Return the base class of every record, in input order (numbered as :attr:`base`).

        With a person column the base classes are the units (base signature,
        tuple) of :mod:`riskcore.deidentify.search.signatures`.

        Returns
        -------
        numpy.ndarray
        """
        if self._people is not None:
            return self._people.row_unit
        return self._enc.record_classes(self.quasi_identifiers)

    def _check_levels(self, levels: Sequence[int]) -> tuple[int, ...]:
        lv = tuple(int(x) for x in levels)
        if len(lv) != len(self.quasi_identifiers):
            raise RiskcoreError(f"give one level per QI ({len(self.quasi_identifiers)})")
        for q, x, h in zip(self.quasi_identifiers, lv, self.heights, strict=True):
            if not 0 <= x <= h:
                raise RiskcoreError(f"level {x} of {q!r} is outside 0..{h}")
        return lv

    def classes(self, levels: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """Return (the node's class of every base class, the node's class sizes).

        Parameters
        ----------
        levels : sequence of int
            The node: one level per QI, in the lattice's order.

        Returns
        -------
        tuple of (numpy.ndarray, numpy.ndarray)
            (the node's class of every base class, the node's class sizes);
            with a person column, classes of people and their sizes in people.
        """
        ids, node = self._node(levels)
        if self._people is None:
            return ids, node.sizes
        owner, sizes = self._node_people(node.levels, ids)
        return self._people.unit_classes(owner), sizes

    def prepare(self, levels: Sequence[int]) -> None:
        """Tabulate the classes of ``levels`` (not judged) for its generalizations to roll up.

        The generalizations roll up from them (:mod:`riskcore.deidentify.search.rollup`).

        Parameters
        ----------
        levels : sequence of int
            The node: one level per QI, in the lattice's order.
        """
        self._tables.get(self._check_levels(levels)[: self._nq])

    def has_snapshot(self, low: Sequence[int], high: Sequence[int]) -> bool:
        """Return True when the classes of a node between ``low`` and ``high`` are cached.

        Parameters
        ----------
        low, high : sequence of int
            Levels per QI; a node lies between them when each of its levels does.

        Returns
        -------
        bool
            True when :meth:`prepare` (or an evaluation) left such a node's class
            table in the snapshot cache (:mod:`riskcore.deidentify.search.rollup`).
        """
        return self._tables.between(low[: self._nq], high[: self._nq])

    def _node(self, levels: Sequence[int]) -> tuple[np.ndarray, NodeClasses]:
        """Return (the node's class of every base class, the node's classes)."""
        lv = self._check_levels(levels)[: self._nq]
        node = self._tables.get(lv)
        return (node.ids, node) if node.ids is not None else self._tables.direct(lv)

    def evidence(self, levels: Sequence[int]) -> tuple[np.ndarray, Evidence]:
        """Return (the node's class of every base class, the node's classes as evidence).

        The evidence the privacy models judge (:class:`riskcore.metrics.evidence.Evidence`):
        the node's class sizes, its sensitive contingencies (when a target
        reads one), its class table (under the missing-value policy "any")
        and the population model of a journalist risk target.

        Parameters
        ----------
        levels : sequence of int
            The node: one level per QI, in the lattice's order.

        Returns
        -------
        tuple of (numpy.ndarray, Evidence)
        """
        ids, node = self._node(levels)
        if self._people is None:
            return ids, self._evidence(node, ids)
        owner, sizes = self._node_people(node.levels, ids)
        events = self._check_levels(levels)[self._nq :]
        return self._people.unit_classes(owner), self._evidence(node, owner, sizes, events)

    def _evidence(
        self,
        node: NodeClasses,
        ids: np.ndarray | None,
        people: np.ndarray | None = None,
        events: Sequence[int] = (),
    ) -> Evidence:
        """Return the node's evidence.

        ``ids``: the node's class of every base class, read by the sensitive
        contingencies and sampling weights (tracked when they exist). With a
        person column, ``ids`` is the node's class of people of every base
        signature, ``people`` the people of each class and ``events`` the
        node's levels of the event columns.
        """
        sizes, lv = (node.sizes if people is None else people), node.levels
        counts = None
        if self._pop is not None:  # F_j; delta-presence also judges the absent classes
            counts, absent, _ = self._pop.counts(node.codes, lv)
            if self._absent and len(absent):
                sizes = np.concatenate([sizes, np.zeros(len(absent), dtype=np.int64)])
                counts = np.concatenate([counts, absent])
        sens = {}
        if self.targets.needs_sensitive and ids is not None:
            for s in self.sensitive:
                table = (
                    regroup(self.contingencies[s], ids, sizes)
                    if people is None
                    else regroup_people(self.contingencies[s], ids, len(sizes))
                )
                d = self.distance.get(s) or ("ordered" if table.ordered else "equal")
                sens[s] = SensitiveEvidence(
                    table,
                    d,
                    self.order.get(s),
                    self.sensitive_hierarchies.get(s),
                )
        classes = None
        if self.missing == "any":
            classes = ClassTable(  # the classes are over the class QIs (not the events)
                self.class_quasi_identifiers,
                sizes,
                tuple(c.astype(np.int64) for c in node.codes),
                tuple(
                    self._labels[i][x]
                    for i, x in enumerate(lv[: len(self.class_quasi_identifiers)])
                ),
            )
        population = self._population
        if self._weights is not None and ids is not None:
            population = PopulationEvidence(
                "weights",
                weight_sums=np.bincount(ids, weights=self._weights, minlength=len(sizes)),
            )
        event_evidence = None
        if self.events and any(c.needs_events for c in self.targets.criteria):
            assert self._people is not None and ids is not None  # noqa: S101 - with people
            event_evidence = EventEvidence(
                self.events, ids[self._people.person_owner], self._event_pairs(events)
            )
        return Evidence(
            records=sizes,
            sensitive=sens,
            missing=self.missing,
            classes=classes,
            population_model=population,
            population_counts=counts,
            person=self.person,
            events=event_evidence,
        )

    def judge(self, levels: Sequence[int]) -> tuple[np.ndarray, Evidence, Verdict]:
        """Return (node class of every base class, the node's evidence, its verdict).

        The verdict is :func:`riskcore.criteria.evaluate` with suppression: the
        classes that break a target are suppressed within the limit, and the
        release is judged again (ARX's semantics, the release re-judged).

        Parameters
        ----------
        levels : sequence of int
            The node: one level per QI, in the lattice's order.

        Returns
        -------
        tuple of (numpy.ndarray, Evidence, Verdict)
        """
        ids, ev = self.evidence(levels)
        return ids, ev, evaluate(self.targets, ev, suppress=True)

    def failing(self, levels: Sequence[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return (node class of every base class, class sizes, which classes break a target).

        Parameters
        ----------
        levels : sequence of int
            The node: one level per QI, in the lattice's order.

        Returns
        -------
        tuple of (numpy.ndarray, numpy.ndarray, numpy.ndarray)
        """
        ids, ev, verdict = self.judge(levels)
        j = int(ids.max()) + 1 if len(ids) else 0  # (not the absent population classes)
        return ids, ev.records[:j], verdict.failing[:j]

    def nodes(self) -> list[tuple[int, ...]]:
        """Return every node within the level bounds, bottom first.

        By sum of levels, then lexicographically.

        Returns
        -------
        list of tuple of int
        """
        all_nodes = list(itertools.product(*(range(lo, hi + 1) for lo, hi in self.bounds)))
        return sorted(all_nodes, key=lambda n: (sum(n), n))

    def apply(
        self, data: pd.DataFrame, levels: Sequence[int], *, suppression: str = "drop"
    ) -> pd.DataFrame:
        """Return ``data`` generalized to ``levels``, the failing classes suppressed.

        As :func:`riskcore.deidentify.recipe.apply.apply_levels` does.

        Parameters
        ----------
        data : pandas.DataFrame
            The table: a DataFrame, or an EncodedTable already encoded.
        levels : sequence of int
            The node: one level per QI, in the lattice's order.
        suppression : str, optional
            ``"drop"`` the suppressed records, or ``"mask"`` their QIs with ``"*"``.

        Returns
        -------
        pandas.DataFrame
        """
        return apply_levels(self, data, levels, suppression=suppression)

    def record_failing(self, levels: Sequence[int]) -> np.ndarray:
        """Return, per record in input order, whether ``levels`` suppresses it.

        Parameters
        ----------
        levels : sequence of int
            The node: one level per QI, in the lattice's order.

        Returns
        -------
        numpy.ndarray
        """
        ids, _, bad = self.failing(self._check_levels(levels))
        out: np.ndarray = bad[ids][self.record_base_classes()]
        return out


def apply_levels(
    lattice: Lattice,
    data: pd.DataFrame,
    levels: Sequence[int],
    *,
    suppression: str = "drop",
    categorical: bool = False,
) -> pd.DataFrame:
    """Return ``data`` generalized to ``levels``, the failing classes suppressed.

    Parameters
    ----------
    lattice : Lattice
        The lattice built from ``data``.
    data : pandas.DataFrame
        The table the lattice was built from (same rows, same order).
    levels : sequence of int
        The node: one level per QI, in the lattice's QI order.
    suppression : {"drop", "mask"}
        Drop the suppressed records (default), or keep them with every QI
        set to ``"*"``.
    categorical : bool, default False
        Generalized columns of text labels as pandas Categoricals
        (:func:`~riskcore.deidentify.recipe.generalize_columns`): for a release
        that is only written (``riskcore anonymize``).

    Returns
    -------
    pandas.DataFrame
        Generalized QI columns (level 0 keeps the original values), other
        columns unchanged, index kept.

    Raises
    ------
    RiskcoreError
        For another table than the lattice's, or an unknown suppression.
    """
    if len(data) != lattice.n_rows:
        raise RiskcoreError("apply the node to the table the lattice was built from")
    drop = lattice.record_failing(levels)
    lv = [int(x) for x in levels]
    out = generalize_columns(
        data,
        lattice.hierarchies,
        dict(zip(lattice.quasi_identifiers, lv, strict=True)),
        categorical=categorical,
    )
    if suppression == "drop":
        if not drop.any():  # nothing suppressed: the generalized table is already a new one
            return out
        # a new frame already (copy-on-write): ``.copy()`` would only consolidate its
        # columns into one block, a quarter of a second on a million rows
        kept: pd.DataFrame = out.loc[~drop]
        return kept
    if suppression == "mask":
        for q in lattice.quasi_identifiers:
            out[q] = out[q].astype(object).where(~drop, "*")
        return out
    raise RiskcoreError("suppression is 'drop' or 'mask'")
