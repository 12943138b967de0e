"""Which generalization would cover one record: the least one under which its class reaches k.

A node of the generalization lattice (:mod:`riskcore.deidentify.search.lattice`) gives
every QI a level of its hierarchy. Under node x = (x_1, ..., x_m) record r
shares its class with every record whose value of each QI q has the same
label as r's at level x_q. Hierarchies are nested (two values with one label
at a level share a label at every higher level), so for each base class c
(a class of the table as recorded) and QI q there is a *first level*
L_q(c): the lowest level at which c's value of q has r's label (h_q + 1 when
none has). Then c falls in r's class under x exactly when L(c) <= x on every
QI, and the size of r's class under every node at once is a cumulative sum
over the lattice's grid:

.. math::

    F_r(x) = \\sum_{c : L(c) \\le x} f_c
           = \\sum_{y \\le x} G(y), \\qquad G(y) = \\sum_{c : L(c) = y} f_c .

G is one weighted count over the base classes (O(J0 m), never the rows) and
the cumulative sum one pass per QI over the grid (the lattice's size). A
node *covers* r when F_r(x) >= k; covering is monotone (a more general node
covers whenever a less general one does), and the answer is the covering
node of least loss, the loss being the lattice's objective without
suppression (the normalized certainty penalty of Xu et al. 2006, or
Sweeney's precision), ties broken by the fewest levels. It is the least
full-domain generalization of the table (Samarati 2001) that puts r in a
class of at least k; other records may still be in smaller classes.

With a person column the class counts people: the base classes are then the
people's one-tuple signatures (each person's QIs the same on all their rows)
and f_c counts the people of c, so F_r(x) is the people sharing r's person's
values at x. When a person's rows carry several QI tuples the class at x is
the people whose whole generalized signatures are equal, which no cumulative
sum gives: the cover is refused then.

References
----------
.. [S01] P. Samarati, "Protecting respondents' identities in microdata
   release", IEEE TKDE 13(6), 2001.
.. [X06] J. Xu, W. Wang, J. Pei, X. Wang, B. Shi, A. W.-C. Fu, "Utility-based
   anonymization using local recoding", KDD 2006.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from riskcore._results import Result
from riskcore._values import value_text
from riskcore.deidentify.search.lattice import Lattice
from riskcore.errors import RiskcoreError
from riskcore.metrics.explain import row_position

__all__ = ["MAX_GRID", "RecordCover", "cover_record"]

#: Largest lattice (nodes, with one spare level per QI) the cover is computed on: 4M nodes
#: hold 32 MB of counts.
MAX_GRID = 4_000_000
_MINIMAL_SHOWN = 10


@dataclass(frozen=True)
class RecordCover(Result):
    """The least generalization under which one record's class reaches k.

    Attributes
    ----------
    row : int
        Row number (the first data row is 1).
    quasi_identifiers : tuple of str
        The quasi-identifier columns.
    heights : tuple of int
        Height of each QI's hierarchy.
    k : int
        The class size wanted.
    objective : str
        "ncp" or "precision": the loss minimised.
    class_size : int
        The record's class as recorded (every QI at level 0).
    values : tuple of str or None
        The record's value of each QI as recorded (None when missing).
    levels : tuple of int or None
        The covering node of least loss; None when no node covers the
        record (the table has fewer than k records, or a hierarchy has no
        common top).
    covered_size : int
        The record's class size under ``levels`` (0 when none).
    generalized : tuple of str or None
        The record's label of each QI under ``levels`` (empty when none).
    loss : float
        The objective of ``levels`` for the whole table, without
        suppression (NaN when none).
    covering_nodes : int
        Nodes of the lattice under which the record's class reaches k.
    minimal_nodes : int
        Of those, the minimal ones (no less general node covers).
    minimal : tuple of tuple of int
        Up to 10 minimal covering nodes, least loss first (``levels`` first).
    minimal_loss : tuple of float
        Their losses.
    minimal_size : tuple of int
        The record's class size under each.
    minimal_labels : tuple of tuple of str or None
        The record's label of each QI under each.
    single_levels : tuple of int or None
        Per QI, the lowest level of that QI alone (the others as recorded)
        that covers the record; None when no level of it does.
    single_loss : tuple of float or None
        The loss of each of those nodes (None when none covers).
    single_labels : tuple of str or None
        The record's label of that QI at that level (None when no level
        covers, or the value is missing).
    person : str or None
        The person column: ``class_size`` and the sizes count people.
    """

    row: int
    quasi_identifiers: tuple[str, ...]
    heights: tuple[int, ...]
    k: int
    objective: str
    class_size: int
    values: tuple[str | None, ...]
    levels: tuple[int, ...] | None
    covered_size: int
    generalized: tuple[str | None, ...]
    loss: float
    covering_nodes: int
    minimal_nodes: int
    minimal: tuple[tuple[int, ...], ...]
    minimal_loss: tuple[float, ...]
    minimal_size: tuple[int, ...]
    minimal_labels: tuple[tuple[str | None, ...], ...]
    single_levels: tuple[int | None, ...]
    single_loss: tuple[float | None, ...]
    single_labels: tuple[str | None, ...]
    person: str | None = None


def _label(lattice: Lattice, i: int, base_class: int, level: int) -> str | None:
    """Return a base class's label of QI ``i`` at ``level`` (None for a missing value)."""
    value = lattice.base.labels[i][lattice.base.keys[i][base_class]]
    h = lattice.hierarchies[lattice.quasi_identifiers[i]]
    leaf = int(h.leaf_index(pd.Series([value], dtype=object))[0])
    if leaf < 0:
        return None
    return value_text(h.levels[level][leaf])


def _first_levels(lattice: Lattice, base_class: int) -> list[np.ndarray]:
    """Return, per QI, the first level at which each base class has the record's label."""
    out = []
    for i, h in enumerate(lattice.heights):
        first = np.full(len(lattice.base.sizes), h + 1, dtype=np.int64)
        for level in range(h, -1, -1):  # top down: the lowest matching level is written last
            codes = lattice.base_codes(i, level)
            first[codes == codes[base_class]] = level
        out.append(first)
    return out


def _weights(lattice: Lattice) -> np.ndarray:
    """Return what each base class adds to a class: its records, or its people."""
    people = lattice.people_base
    if people is None:
        return np.asarray(lattice.base.sizes, dtype=np.float64)
    if not people.single:
        several = int(people.owner_people[np.bincount(people.unit_owner) > 1].sum())
        raise RiskcoreError(
            f"a record's cover counts the people sharing its values, and {several:,} people "
            "have rows with different quasi-identifier values: their classes are sets of "
            "tuples, which the cover cannot sum; the Remediate page's search judges them"
        )
    return people.owner_people.astype(np.float64)  # units and people's signatures one to one


def cover_record(
    lattice: Lattice,
    row: int,
    *,
    k: int | None = None,
    objective: Literal["ncp", "precision"] = "ncp",
) -> RecordCover:
    """Find the least generalization of the QIs under which one record's class reaches k.

    See the module docstring for the method: the record's class size under
    every node of the lattice is one cumulative sum over the grid of first
    levels, F_r(x) = sum over y <= x of G(y), computed from the base classes.

    Parameters
    ----------
    lattice : Lattice
        The generalization lattice of the table over its QIs (one hierarchy
        per QI).
    row : int
        Row number, the first data row being 1.
    k : int, optional
        The class size wanted (default: the lattice's targets,
        ``k_effective``).
    objective : {"ncp", "precision"}, default "ncp"
        The loss minimised (the table's, without suppression); ties go to
        the fewest levels, then the lowest levels in QI order.

    Returns
    -------
    RecordCover

    Raises
    ------
    RiskcoreError
        When the row number is outside 1 .. n, k is not a positive integer,
        the objective is unknown, the lattice has event columns, people's rows
        carry several QI tuples (with a person column), or it has more than
        :data:`MAX_GRID` nodes.
    """
    if objective not in ("ncp", "precision"):
        raise RiskcoreError(f"objective is 'ncp' or 'precision', not {objective!r}")
    if lattice.events:
        raise RiskcoreError(
            "a record's cover generalizes the quasi-identifiers of its class: build the "
            "lattice without event columns"
        )
    if k is not None and (isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1):
        raise RiskcoreError(f"k must be a whole number of at least 1, not {k!r}")
    want = lattice.targets.k_required if k is None else int(k)
    records = lattice.record_base_classes()
    b = int(records[row_position(row, len(records))])
    heights = lattice.heights
    m = len(heights)
    shape = tuple(h + 2 for h in heights)  # one spare level: "never the record's label"
    cells = int(np.prod(shape, dtype=np.float64))
    if cells > MAX_GRID:
        raise RiskcoreError(
            f"the lattice has {lattice.size:,} nodes, too many to find the record's cover "
            f"(at most about {MAX_GRID:,}); use fewer QIs or shorter hierarchies"
        )
    first = _first_levels(lattice, b)
    flat = np.ravel_multi_index(tuple(first), shape)
    grid = np.bincount(flat, weights=_weights(lattice), minlength=cells).reshape(shape)
    for axis in range(m):
        grid = np.cumsum(grid, axis=axis)
    size = np.rint(grid[tuple(slice(0, h + 1) for h in heights)]).astype(np.int64)
    covered = size >= want
    terms = lattice.lower_bound_terms(objective)
    loss = functools.reduce(np.add.outer, terms) if m > 1 else terms[0]
    nlev = functools.reduce(np.add.outer, [np.arange(h + 1) for h in heights])
    below = np.zeros_like(covered)
    minimal = covered.copy()
    for axis in range(m):
        to = [slice(None)] * m
        frm = [slice(None)] * m
        to[axis], frm[axis] = slice(1, None), slice(None, -1)
        below[:] = False
        below[tuple(to)] = covered[tuple(frm)]
        minimal &= ~below
    single_levels: list[int | None] = []
    single_loss: list[float | None] = []
    single_labels: list[str | None] = []
    for i in range(m):
        line = size[tuple(slice(None) if j == i else 0 for j in range(m))]
        ok = np.flatnonzero(line >= want)
        if len(ok):
            node = tuple(int(ok[0]) if j == i else 0 for j in range(m))
            single_levels.append(int(ok[0]))
            single_loss.append(float(loss[node]))
            single_labels.append(_label(lattice, i, b, int(ok[0])))
        else:
            single_levels.append(None)
            single_loss.append(None)
            single_labels.append(None)
    levels: tuple[int, ...] | None = None
    ranked: list[tuple[int, ...]] = []
    if covered.any():
        # least loss, then fewest levels, then the lowest levels in QI order (the grid's C
        # order); the optimum is a minimal node, since the loss never falls up a hierarchy
        idx = np.flatnonzero(minimal.reshape(-1))
        order = np.lexsort((idx, nlev.reshape(-1)[idx], np.round(loss.reshape(-1)[idx], 12)))
        ranked = [tuple(int(x) for x in np.unravel_index(int(j), size.shape)) for j in idx[order]][
            :_MINIMAL_SHOWN
        ]
        levels = ranked[0]
    return RecordCover(
        row=int(row),
        quasi_identifiers=lattice.quasi_identifiers,
        heights=heights,
        k=want,
        objective=objective,
        class_size=int(size[(0,) * m]),
        values=tuple(_label(lattice, i, b, 0) for i in range(m)),
        levels=levels,
        covered_size=0 if levels is None else int(size[levels]),
        generalized=()
        if levels is None
        else tuple(_label(lattice, i, b, x) for i, x in enumerate(levels)),
        loss=float("nan") if levels is None else float(loss[levels]),
        covering_nodes=int(covered.sum()),
        minimal_nodes=int(minimal.sum()),
        minimal=tuple(ranked),
        minimal_loss=tuple(float(loss[node]) for node in ranked),
        minimal_size=tuple(int(size[node]) for node in ranked),
        minimal_labels=tuple(
            tuple(_label(lattice, i, b, x) for i, x in enumerate(node)) for node in ranked
        ),
        single_levels=tuple(single_levels),
        single_loss=tuple(single_loss),
        single_labels=tuple(single_labels),
        person=lattice.person,
    )
