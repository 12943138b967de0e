"""People from grouped "person + QIs (+ value) -> rows": the person tabulation beyond memory.

An engine that never holds the rows (the Parquet stream, DuckDB, Spark) can
still group them by the person column with the quasi-identifiers, and with
one sensitive attribute: "person, q_1, ..., q_p (, s) -> rows". Built by the
engine's own row path over the columns ``(person, *qis)``, that is a
:class:`~riskcore.engine.contract.Tabulation` whose classes are the distinct
(person, QI tuple) *pairs*, their sizes the rows of each pair, and whose
cells count the rows of a pair holding a value, every value encoded by the
in-memory engine's rule (``NULL`` and ``NaN`` one missing value).
:func:`people_from_pairs` turns it into the tabulation the in-memory engine
builds from the rows (:func:`~riskcore.engine.partition.build_person_partition`):

- each person's signature is the set of the tuples of their pairs; people are
  grouped by signature exactly (:func:`riskcore.engine.people.group_sets`), a
  class's size counts people and :class:`~riskcore.engine.contract.Signatures`
  holds its tuples and rows;
- a contingency cell counts the people of a class holding a value, each person
  once per distinct value: the distinct (person, value) pairs of the cells.

A row whose person value is missing is a person of its own on the in-memory
engine. Such rows are grouped too, by their QI tuple (and value): a pair of
the missing person with tuple t holding c rows is c people, each holding
exactly {t}, so it enters :func:`~riskcore.engine.people.group_sets` as one
owner of weight c (it joins the class of the signature {t}), and its cell
(t, v) of c rows is c people holding v. No row number is needed: a lone row's
signature and values are those of its group.

Bounds: every group holds at least one row, so the pair tables have at most
``n_records`` rows each (one per distinct (person, tuple, value)); the work
here is one sort of the pairs' tuple keys, the set grouping (one sort of the
distinct (owner, tuple) pairs and one of the people's summaries) and, per
sensitive attribute, one sort of its distinct (person, value) pairs: O(P log P)
time and a few int64 arrays of P entries, P <= ``n_records``. Keys that would
overflow int64 are re-densified (:func:`~riskcore.engine.partition.pack_keys`)
or sorted as pairs (:func:`~riskcore.engine.people.distinct_pairs`): nothing is
hashed, no class can merge with another.
"""

from __future__ import annotations

import abc

import numpy as np

from riskcore.engine.contract import (
    ClassTable,
    Contingency,
    Engine,
    Names,
    Order,
    Signatures,
    Tabulation,
    check_person,
)
from riskcore.engine.partition import key_classes, pack_keys, people_contingency
from riskcore.engine.people import SetClasses, distinct_pairs, group_sets

__all__ = ["people_from_pairs", "person_keys"]


def person_keys(
    person: str, quasi_identifiers: tuple[str, ...], sensitive: tuple[str, ...] = ()
) -> tuple[str, ...]:
    """Return the columns the pairs are grouped by: the person column, then the QIs.

    Parameters
    ----------
    person : str
        The person column.
    quasi_identifiers : tuple of str
        The QIs.
    sensitive : tuple of str, optional
        The sensitive attributes.

    Returns
    -------
    tuple of str
        ``(person, *quasi_identifiers)``.

    Raises
    ------
    RolesError
        When the person column is a QI or a sensitive attribute too.
    """
    check_person(person, quasi_identifiers, sensitive)
    return (person, *quasi_identifiers)


def _tuples(keys: list[np.ndarray], cards: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Return (tuple id of each pair, first pair of each tuple), tuples in packed-key order."""
    return key_classes(*pack_keys(keys, cards))


def _owners(
    who: np.ndarray, rows: np.ndarray, lone_code: int | None, n_codes: int
) -> tuple[np.ndarray, int, np.ndarray, np.ndarray]:
    """Return (owner of each pair, number of owners, owner weights, lone mask of the pairs).

    People keep their codes ``[0, n_real)``; each pair of the missing person is
    one more owner, weighing its rows (each row a person holding that tuple).
    """
    if lone_code is None:
        return who, n_codes, np.ones(n_codes, dtype=np.int64), np.zeros(len(who), dtype=bool)
    lone = who == lone_code
    at = np.flatnonzero(lone)
    n_real = lone_code
    owner = who.copy()
    owner[at] = n_real + np.arange(len(at), dtype=np.int64)
    weights = np.ones(n_real + len(at), dtype=np.int64)
    weights[n_real:] = rows[at]
    return owner, n_real + len(at), weights, lone


def _people_cells(
    table: Contingency,
    who: np.ndarray,
    lone: np.ndarray,
    sets: SetClasses,
    pair_class: np.ndarray,
) -> Contingency:
    """Return a contingency of pairs counted in people: each person once per distinct value."""
    cc, cv, cn = table.cell_class, table.cell_value, table.cell_count
    lone_cell = lone[cc]
    real = np.flatnonzero(~lone_cell)
    alone = np.flatnonzero(lone_cell)
    person, value = distinct_pairs(who[cc[real]], cv[real], max(table.n_values, 1))
    cells: tuple[np.ndarray, np.ndarray, np.ndarray | None] = (
        sets.owner_class[person],
        value,
        None,
    )
    if len(alone):  # a missing person's cell of c rows: c people
        cells = (
            np.concatenate((cells[0], pair_class[cc[alone]])),
            np.concatenate((value, cv[alone])),
            np.concatenate((np.ones(len(person), dtype=np.int64), cn[alone])),
        )
    return people_contingency(
        table.attribute,
        cells,
        n_classes=sets.n_classes,
        labels=table.labels,
        ordered=table.ordered,
    )


def people_from_pairs(pairs: Tabulation, person: str, *, engine: str) -> Tabulation:
    """Return the person tabulation of a tabulation of (person, QI tuple) pairs.

    Parameters
    ----------
    pairs : Tabulation
        Over the columns ``(person, *qis)`` (:func:`person_keys`), counting
        rows, the person's missing value (if any) with the last code and the
        label ``None`` (:func:`~riskcore.engine.partition.encode_column`'s
        rule); one contingency per sensitive attribute, counting rows.
    person : str
        The person column (the first column of ``pairs``).
    engine : str
        Engine name, recorded in the result.

    Returns
    -------
    Tabulation
        Classes of people by QI signature (:class:`Signatures`), contingencies
        counting people: the in-memory engine's figures.

    Raises
    ------
    ValueError
        When ``pairs`` is not grouped by ``person`` first.
    """
    pc = pairs.classes
    if (
        not pc.quasi_identifiers
        or pc.quasi_identifiers[0] != person
        or len(pc.quasi_identifiers) < 2
    ):
        raise ValueError("the pairs must be grouped by the person column, then the QIs")
    who = np.asarray(pc.keys[0], dtype=np.int64)
    person_labels = pc.labels[0]
    n_codes = len(person_labels)
    lone_code = n_codes - 1 if n_codes and person_labels[-1] is None else None
    rows = pc.sizes.astype(np.int64, copy=False)
    qi_keys = [np.asarray(pc.keys[i], dtype=np.int64) for i in range(1, len(pc.quasi_identifiers))]
    tuple_of, first = _tuples(qi_keys, [len(lab) for lab in pc.labels[1:]])
    owner, n_owners, weights, lone = _owners(who, rows, lone_code, n_codes)
    sets = group_sets(owner, tuple_of, n_owners=n_owners, n_items=len(first), weights=weights)
    pair_class = sets.owner_class[owner]
    # float64 sums of whole numbers below 2**53: exact
    class_rows = np.bincount(pair_class, weights=rows, minlength=sets.n_classes).astype(np.int64)
    tuple_keys = tuple(k[first] for k in qi_keys)
    classes = ClassTable(
        pc.quasi_identifiers[1:],
        sets.sizes.astype(np.int64, copy=False),
        tuple(k[sets.first] for k in tuple_keys),
        pc.labels[1:],
        Signatures(person, sets.offsets, sets.members, tuple_keys, class_rows),
    )
    tables = {s: _people_cells(t, who, lone, sets, pair_class) for s, t in pairs.sensitive.items()}
    return Tabulation(classes, tables, engine=engine)


class PairsEngine(Engine):
    """Base of the engines that count rows where the data lie (Arrow's scan, DuckDB, Spark).

    A subclass implements :meth:`_tabulate_rows`, the tabulation counting rows
    over some key columns. With a person column those keys are "person, QIs"
    (:func:`person_keys`): the distinct (person, tuple, value) keys, at most one
    per row, come back and the people are grouped by their signatures on those
    pairs (:func:`people_from_pairs`), the in-memory engine's figures.
    """

    def _tabulate(self, qis: Names, sens: Names, ordered: Order, person: str | None) -> Tabulation:
        order = dict(ordered or {})
        if person is None:
            return self._tabulate_rows(qis, sens, order)
        keys = person_keys(person, qis, sens)
        return people_from_pairs(self._tabulate_rows(keys, sens, order), person, engine=self.name)

    @abc.abstractmethod
    def _tabulate_rows(
        self, keys: tuple[str, ...], sensitive: tuple[str, ...], ordered: dict[str, bool | None]
    ) -> Tabulation:
        """Return the tabulation counting rows over ``keys`` (the QIs, or the person and QIs)."""
