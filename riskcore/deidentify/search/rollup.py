"""The classes of a lattice node, rolled up from an evaluated more specific node.

A node's equivalence classes group the table's base classes (its classes over
the QIs at their column codes) by their generalized codes. Computed directly
this costs O(J0 m) per node (J0 base classes, m QIs). ARX computes a node's
classes from a *snapshot* of an evaluated node below it instead (Kohlmayer
et al., "Flash: efficient, stable and optimal k-anonymity", 2012, section 5;
ARX's ``HashGroupify`` and ``Transformer.applyWithSnapshot``): when node c is
below node p (every level of c at most p's) and each QI's hierarchy is a
function from level c_i to level p_i, every class of p is a union of classes
of c, so p's classes are c's class table with its codes mapped up the
hierarchies and equal code tuples merged, their sizes summed: O(J_c m), J_c
the classes of c, usually far fewer than J0 above the bottom of the lattice.

:class:`ClassTables` keeps the class tables of the nodes evaluated last (a
bounded snapshot cache, oldest dropped first) and rolls each new node up from
the cached node below it with the fewest classes, or tabulates it from the
base classes when none is below it. The partition is the same either way (the
classes may be numbered differently); every figure computed from it is exact.
Whether a hierarchy maps level a to level b as a function is checked on the
column's values once (a hierarchy built by hand may not be a tree); a pair
that is not is never rolled up.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from riskcore.engine.contract import Contingency
from riskcore.engine.partition import pack_keys

__all__ = ["ClassTables", "NodeClasses", "group", "regroup"]

#: Bytes the snapshot cache may hold (class codes, sizes and base-class maps).
CACHE_BYTES = 128 * 2**20
#: Entries the snapshot cache may hold.
CACHE_ENTRIES = 4096


@dataclass(frozen=True)
class NodeClasses:
    """The classes of one node.

    Attributes
    ----------
    levels : tuple of int
    codes : numpy.ndarray
        One row per QI: each class's code at the node's level (int32).
    sizes : numpy.ndarray
        Records per class (int64).
    ids : numpy.ndarray or None
        The node's class of every base class (int64); None when the tables
        do not track them (:class:`ClassTables`, ``track_ids``).
    """

    levels: tuple[int, ...]
    codes: np.ndarray
    sizes: np.ndarray
    ids: np.ndarray | None

    @property
    def n_classes(self) -> int:
        """Return the number of classes."""
        return len(self.sizes)


def group(codes: Sequence[np.ndarray], cards: Sequence[int]) -> tuple[np.ndarray, int]:
    """Return (the group of each row of equal code tuples, the number of groups).

    Mixed-radix keys (:func:`riskcore.engine.partition.pack_keys`), numbered
    through a count per possible key when the key space is small, else a hash
    table (pandas' factorize): no sort.

    Parameters
    ----------
    codes : sequence of numpy.ndarray
        One code array per column, all of one length.
    cards : sequence of int
        The number of codes of each column.

    Returns
    -------
    tuple of (numpy.ndarray, int)
    """
    keep = [i for i, c in enumerate(cards) if c > 1]  # a constant column splits nothing
    if not keep:
        rows = len(codes[0])
        return np.zeros(rows, dtype=np.int64), int(rows > 0)
    key, card = pack_keys([codes[i] for i in keep], [cards[i] for i in keep])
    if card <= 8 * len(key) + 1024:
        counts = np.bincount(key, minlength=card)
        present = counts > 0
        remap = np.cumsum(present) - 1
        return remap[key], int(remap[-1] + 1) if card else 0
    ids = pd.factorize(key)[0].astype(np.int64, copy=False)
    return ids, int(ids.max()) + 1 if len(ids) else 0


class ClassTables:
    """Node class tables, each rolled up from a cached node below it (see the module).

    Parameters
    ----------
    class_codes : list of list of numpy.ndarray
        Per QI and level, the generalized code of every base class.
    column_maps : list of list of numpy.ndarray
        Per QI and level, the generalized code of every column code.
    cards : list of list of int
        Per QI and level, the number of generalized codes.
    base_sizes : numpy.ndarray
        Records per base class.
    track_ids : bool, default True
        Keep the node's class of every base class (O(J0) per node; needed by
        the sensitive contingencies, sampling weights and the missing-value
        policy "any"). :meth:`direct` always returns them.
    """

    def __init__(
        self,
        class_codes: list[list[np.ndarray]],
        column_maps: list[list[np.ndarray]],
        cards: list[list[int]],
        base_sizes: np.ndarray,
        *,
        track_ids: bool = True,
    ) -> None:
        self.track_ids = track_ids
        self._codes = class_codes
        # per QI and level, one more than the highest code of a base class: the codes that
        # occur (the code of a missing value only when one is), the width of the keys
        self._span = [[int(c.max()) + 1 if len(c) else 1 for c in per] for per in class_codes]
        self._sizes = base_sizes
        self._m = len(class_codes)
        # per QI, up[a][b]: the code at level b of every code at level a (None: not a function)
        self._up: list[list[list[np.ndarray | None]]] = []
        self.functional = True
        for maps, cc in zip(column_maps, cards, strict=True):
            table: list[list[np.ndarray | None]] = []
            for a, ga in enumerate(maps):
                row: list[np.ndarray | None] = []
                for b, gb in enumerate(maps):
                    up = np.zeros(cc[a], dtype=np.int32)
                    up[ga] = gb
                    ok = b >= a and bool(np.array_equal(up[ga], gb))
                    self.functional &= ok or b < a
                    row.append(up if ok else None)
                table.append(row)
            self._up.append(table)
        self.capacity = CACHE_ENTRIES
        self._bytes = 0
        self._levels = np.zeros((self._m, self.capacity), dtype=np.int64)  # one row per QI
        self._count = np.full(self.capacity, np.iinfo(np.int64).max, dtype=np.int64)
        self._entries: list[NodeClasses | None] = [None] * self.capacity
        self._order: deque[int] = deque()  # occupied slots, oldest first
        self._free = list(range(self.capacity - 1, -1, -1))  # lowest slots first
        self._top = 0  # slots below this one have been used (the rest are empty)
        self.rolled = 0  # nodes rolled up from a snapshot (the rest tabulated from the base)

    def _store(self, node: NodeClasses) -> None:
        """Cache ``node``, dropping the oldest entries while the cache is over its budget."""
        size = _nbytes(node)
        if size > CACHE_BYTES:
            return
        while self._order and (self._bytes + size > CACHE_BYTES or not self._free):
            old = self._order.popleft()
            entry = self._entries[old]
            self._bytes -= 0 if entry is None else _nbytes(entry)
            self._entries[old] = None
            self._count[old] = np.iinfo(np.int64).max
            self._free.append(old)
        slot = self._free.pop()
        self._top = max(self._top, slot + 1)
        self._entries[slot] = node
        self._levels[:, slot] = node.levels
        self._count[slot] = node.n_classes
        self._bytes += size
        self._order.append(slot)

    def _source(self, levels: tuple[int, ...]) -> NodeClasses | None:
        """Return the cached node below ``levels`` with the fewest classes (None: none)."""
        top = self._top
        below = self._count[:top] < np.iinfo(np.int64).max
        below &= (self._levels[:, :top] <= np.asarray(levels)[:, None]).all(axis=0)
        if not self.functional and below.any():
            for i in range(self._m):
                rows = np.flatnonzero(below)
                ok = np.asarray(
                    [self._up[i][int(a)][levels[i]] is not None for a in self._levels[i, rows]]
                )
                below[rows[~ok]] = False
        if not below.any():
            return None
        count = np.where(below, self._count[:top], np.iinfo(np.int64).max)
        return self._entries[int(np.argmin(count))]

    def between(self, low: Sequence[int], high: Sequence[int]) -> bool:
        """Return True when a cached node lies between ``low`` and ``high``.

        Between: every level of the cached node is within those of ``low`` and ``high``.

        Parameters
        ----------
        low, high : sequence of int
            Levels per QI.

        Returns
        -------
        bool
        """
        top = self._top
        inside = self._count[:top] < np.iinfo(np.int64).max
        held = self._levels[:, :top]
        inside &= ((held >= np.asarray(low)[:, None]) & (held <= np.asarray(high)[:, None])).all(0)
        return bool(inside.any())

    def get(self, levels: Sequence[int]) -> NodeClasses:
        """Return the classes of the node ``levels`` (rolled up when it can be).

        Parameters
        ----------
        levels : sequence of int
            The node: one level per QI, in the lattice's order.

        Returns
        -------
        NodeClasses
        """
        lv = tuple(int(x) for x in levels)
        src = self._source(lv)
        if src is not None and src.levels == lv:
            return src
        tables = [] if src is None else [self._up[i][a][lv[i]] for i, a in enumerate(src.levels)]
        if src is None or any(t is None for t in tables):  # (None: refused by _source)
            _, node = self.direct(lv)
            if not self.track_ids:
                node = NodeClasses(lv, node.codes, node.sizes, None)
            self._store(node)
            return node
        self.rolled += 1
        rows = list(src.codes)  # each QI's codes mapped up where its level rises (no copy)
        for i, (a, b, table) in enumerate(zip(src.levels, lv, tables, strict=True)):
            if a != b and table is not None:
                rows[i] = table[rows[i]]
        merged, n = group(rows, [self._span[i][x] for i, x in enumerate(lv)])
        sizes = np.bincount(merged, weights=src.sizes, minlength=n).astype(np.int64)
        rep = np.empty(n, dtype=np.int64)
        rep[merged] = np.arange(len(merged))
        codes = np.stack([row[rep] for row in rows])
        ids = None if src.ids is None else merged[src.ids]
        node = NodeClasses(lv, codes, sizes, ids)
        self._store(node)
        return node

    def direct(self, levels: Sequence[int]) -> tuple[np.ndarray, NodeClasses]:
        """Return the classes of the node ``levels`` tabulated from the base classes.

        Never cached.

        Parameters
        ----------
        levels : sequence of int
            The node: one level per QI, in the lattice's order.

        Returns
        -------
        tuple of (numpy.ndarray, NodeClasses)
            (the node's class of every base class, the classes of the node ``levels``).
        """
        lv = tuple(int(x) for x in levels)
        cards = [self._span[i][x] for i, x in enumerate(lv)]
        ids, n = group([self._codes[i][x] for i, x in enumerate(lv)], cards)
        sizes = np.bincount(ids, weights=self._sizes, minlength=n).astype(np.int64)
        rep = np.empty(n, dtype=np.int64)
        rep[ids] = np.arange(len(ids))
        codes = np.stack([self._codes[i][x][rep] for i, x in enumerate(lv)]).astype(np.int32)
        return ids, NodeClasses(lv, codes, sizes, ids)


def _nbytes(node: NodeClasses) -> int:
    ids = 0 if node.ids is None else node.ids.nbytes
    return int(ids + node.sizes.nbytes + node.codes.nbytes)


def regroup(table: Contingency, ids: np.ndarray, sizes: np.ndarray) -> Contingency:
    """Return a sensitive contingency of the base classes regrouped into a node's classes.

    ``ids`` holds the node's class of every base class, ``sizes`` the node's class sizes.

    Parameters
    ----------
    table : Contingency
        The sensitive attribute's counts over the base classes.
    ids : numpy.ndarray
        The node's class of each base class.
    sizes : numpy.ndarray
        The node's class sizes.

    Returns
    -------
    Contingency
    """
    m = max(len(table.value_totals), 1)
    key = ids[table.cell_class] * m + table.cell_value
    # cells sorted by class then value, as the contract wants: a count per possible cell
    # when there are few (the common case above the bottom), else a sort
    if len(sizes) * m <= 8 * len(key) + 1024:
        full = np.bincount(key, weights=table.cell_count, minlength=len(sizes) * m)
        cells = np.flatnonzero(full)
        counts = full[cells].astype(np.int64)
    else:
        cells, inv = np.unique(key, return_inverse=True)
        counts = np.bincount(inv.reshape(-1), weights=table.cell_count).astype(np.int64)
    return Contingency(
        table.attribute,
        cells // m,
        cells % m,
        counts,
        sizes,
        table.value_totals,
        table.ordered,
        table.labels,
    )
