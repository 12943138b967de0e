"""People in the generalization lattice: a node's classes of people, from its classes of tuples.

With a person column, the lattice's privacy models judge classes of people:
the people sharing one signature, the set of the QI tuples of their rows
(:mod:`riskcore.engine.people`). Generalization maps each tuple up the
hierarchies, so a node's signature of a person is the set of the generalized
tuples of their base signature: people with equal base signatures stay
together at every node, and two base signatures merge when their generalized
sets are equal. The classes of a node are therefore a coarsening of those of
every node below it, so k in people is monotone over the lattice as k in rows
is (the search's pruning holds).

The lattice works on *units*: the distinct (base signature, QI tuple) pairs
(:class:`PersonBase`). A unit's codes are its tuple's, its weight its rows;
the existing roll-up (:mod:`riskcore.deidentify.search.rollup`) groups units into a
node's classes of generalized tuples, and :meth:`PersonBase.node_people`
groups each base signature's set of those classes exactly
(:func:`riskcore.engine.people.group_sets`). When every person holds one
tuple at the bottom (QIs constant per person), units and base signatures are
one to one and a node's classes of people are its classes of tuples, counted
in people.

A suppressed class of people loses all of its people's rows; the losses
(NCP, precision, ARX's Loss, entropy) are measured on the rows of the release
(each unit's rows), the class figures (k, suppression, AECS, discernibility)
in people.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from riskcore.engine import EncodedTable
from riskcore.engine.contract import ClassTable, Contingency
from riskcore.engine.partition import people_contingency
from riskcore.engine.people import group_sets
from riskcore.errors import RiskcoreError

__all__ = ["PersonBase", "person_base", "regroup_people"]


@dataclass(frozen=True, eq=False)
class PersonBase:
    """The units of a lattice with a person column, and the people of each base signature.

    Attributes
    ----------
    person : str
        The person column.
    units : ClassTable
        One row per distinct (base signature, QI tuple): the tuple's codes,
        ``sizes`` the rows of the unit.
    unit_owner : numpy.ndarray
        The base signature class of each unit.
    owner_people : numpy.ndarray
        The people of each base signature class.
    row_unit : numpy.ndarray
        The unit of every row (positional).
    single : bool
        Every base signature holds one tuple (units and signatures one to one).
    row_person : numpy.ndarray
        The person of every row.
    person_owner : numpy.ndarray
        The base signature class of every person.
    """

    person: str
    units: ClassTable
    unit_owner: np.ndarray
    owner_people: np.ndarray
    row_unit: np.ndarray
    single: bool
    row_person: np.ndarray
    person_owner: np.ndarray

    @property
    def n_people(self) -> int:
        """Return the number of people."""
        return int(self.owner_people.sum())

    def node_people(self, unit_class: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return (the node's class of people of every base signature, people per class).

        Parameters
        ----------
        unit_class : numpy.ndarray
            The node's class of generalized tuples of every unit.

        Returns
        -------
        tuple of numpy.ndarray
            Each base signature's class at the node, and the people of each
            class. When every base signature is one unit, the node's classes
            of people are its classes of tuples (same numbering).
        """
        if self.single:
            n = int(unit_class.max()) + 1 if len(unit_class) else 0
            sizes = np.bincount(unit_class, weights=self.owner_people, minlength=n)
            return unit_class, sizes.astype(np.int64)
        sets = group_sets(
            self.unit_owner,
            unit_class,
            n_owners=len(self.owner_people),
            n_items=int(unit_class.max()) + 1 if len(unit_class) else 1,
            weights=self.owner_people,
        )
        return sets.owner_class, sets.sizes

    def unit_classes(self, owner_class: np.ndarray) -> np.ndarray:
        """Return the class of people of every unit (its base signature's).

        Parameters
        ----------
        owner_class : numpy.ndarray
            Each base signature's class.

        Returns
        -------
        numpy.ndarray
        """
        out: np.ndarray = owner_class[self.unit_owner]
        return out

    def owner_weights(self, weights: np.ndarray) -> np.ndarray:
        """Return, per base signature, the sum of its people's sampling weights.

        A person's weight is read on their first row (a survey weight belongs
        to the person; it repeats on their rows).

        Parameters
        ----------
        weights : numpy.ndarray
            One weight per row.

        Returns
        -------
        numpy.ndarray
            float64 sums, one per base signature class.
        """
        _, first = np.unique(self.row_person, return_index=True)
        out: np.ndarray = np.bincount(
            self.person_owner,
            weights=np.asarray(weights, dtype=np.float64)[first],
            minlength=len(self.owner_people),
        )
        return out


def person_base(enc: EncodedTable, qis: tuple[str, ...], person: str) -> PersonBase:
    """Return the units of a lattice over ``qis`` whose rows belong to people of ``person``.

    Parameters
    ----------
    enc : EncodedTable
        The table.
    qis : tuple of str
        The quasi-identifiers.
    person : str
        The person column.

    Returns
    -------
    PersonBase

    Raises
    ------
    RiskcoreError
        When the person column is missing or is a quasi-identifier.
    """
    if person not in enc.columns:
        raise RiskcoreError(f"the table has no person column {person!r}")
    if person in qis:
        raise RiskcoreError(f"the person column {person!r} cannot be a quasi-identifier too")
    part = enc.partition(qis, person=person)
    people, tuples = part.people, part.tuples
    assert people is not None and tuples is not None  # noqa: S101 - a person partition
    # the units are each base signature's tuples, in order (signatures ascending, their
    # tuples ascending): the sorted keys a row's (class, tuple) is looked up in
    sets = people.classes
    n_tuples = max(tuples.n_classes, 1)
    unit_owner = np.repeat(np.arange(sets.n_classes, dtype=np.int64), sets.lengths)
    unit_tuple = sets.members.astype(np.int64)
    keys = unit_owner * n_tuples + unit_tuple
    row_unit = np.searchsorted(keys, people.row_class * n_tuples + people.tuple_id)
    rows = np.bincount(row_unit, minlength=len(keys))
    first = tuples.first_row[unit_tuple]
    columns = [enc.column(q) for q in qis]
    units = ClassTable(
        qis,
        rows.astype(np.int64),
        tuple(c.codes[first] for c in columns),
        tuple(c.labels for c in columns),
    )
    return PersonBase(
        person,
        units,
        unit_owner,
        part.sizes.astype(np.int64),
        row_unit.astype(np.int64),
        people.single,
        people.person,
        people.classes.owner_class,
    )


def regroup_people(table: Contingency, owner_class: np.ndarray, n_classes: int) -> Contingency:
    """Return a contingency of base signatures regrouped into a node's classes of people.

    A cell counts people (each once per distinct value), so the cells of the
    base signatures merged into one class add up; the class sizes of the
    table are the sums of its cells (people-value pairs), as the engine's.

    Parameters
    ----------
    table : Contingency
        Over the base signature classes.
    owner_class : numpy.ndarray
        The node's class of every base signature.
    n_classes : int
        The node's classes.

    Returns
    -------
    Contingency
    """
    return people_contingency(  # counted per cell, not sorted again, at every node
        table.attribute,
        (owner_class[table.cell_class], table.cell_value, table.cell_count),
        n_classes=n_classes,
        labels=table.labels,
        ordered=table.ordered,
    )
