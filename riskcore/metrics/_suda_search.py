"""The SUDA2 search for minimal sample uniques, level by level over all nodes at once.

The search tree of Manning, Haglin and Keane (2008) run on the engine's
integer codes, for :func:`riskcore.metrics.special_uniques.suda` (which documents the
method, its references and its scores). Internal: the arrays in and out are
described on :func:`find_msus`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from itertools import pairwise

import numpy as np

__all__ = ["find_msus"]

_no_ints = partial(np.zeros, 0, dtype=np.int64)


def _lookup(keys: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Return the position of each query in the sorted ``keys``, or -1 when absent."""
    if len(keys) == 0:
        return np.full(len(query), -1, dtype=np.int64)
    pos = np.minimum(np.searchsorted(keys, query), len(keys) - 1)
    return np.where(keys[pos] == query, pos, -1).astype(np.int64)


@dataclass(frozen=True)
class _Level:
    """The nodes of one depth of the SUDA2 search tree, sorted by (parent, item)."""

    keys: np.ndarray  # parent * n_items + item, sorted; node id = position
    parent: np.ndarray
    item: np.ndarray
    support: np.ndarray  # weighted support of the node's itemset


def find_msus(
    ranks: np.ndarray, weight: np.ndarray, unique: np.ndarray, n_items: int, max_size: int
) -> list[tuple[np.ndarray, list[np.ndarray]]]:
    """Run the SUDA2 search on the deduplicated rows; return MSUs of size >= 2.

    Parameters
    ----------
    ranks : numpy.ndarray
        ``(n_rows, m)``: the rank of each row's item on each QI among the
        searchable items (support >= 2 and below the total), -1 when the
        value is not searchable (missing, unique, or in every row).
    weight : numpy.ndarray
        Per row, min(f, 2) with f its count on all QIs: supports are sums of
        weights, and a support of 1 means unique.
    unique : numpy.ndarray
        Per row, True when f = 1 (only such rows can own an MSU).
    n_items : int
        Number of searchable items (ranks are in [0, n_items)).
    max_size : int
        Largest MSU size wanted.

    Returns
    -------
    list of (rows, items)
        Per block of the search: the owning row of each MSU found and its k
        item ranks (k arrays, 2 <= k <= max_size).
    """
    n_rows, m = ranks.shape
    found: list[tuple[np.ndarray, list[np.ndarray]]] = []
    levels: list[_Level] = []
    # Level 0: the root node 0 (the empty itemset) holds every row.
    ent_node = np.zeros(n_rows, dtype=np.int64)
    ent_row = np.arange(n_rows, dtype=np.int64)
    node_last = np.full(1, -1, dtype=np.int64)
    node_support = np.array([weight.sum()], dtype=np.int64)
    for depth in range(max_size):
        if len(ent_node) == 0:
            break
        want_children = depth + 2 <= max_size
        order = np.argsort(ent_node, kind="stable")
        ent_node, ent_row = ent_node[order], ent_row[order]
        keys, parents, items, supports, next_node, next_row = [], [], [], [], [], []
        n_children = 0
        # Blocks of whole nodes bound the memory of the (node, item, row) triples.
        for a, b in _blocks(ent_node, max(1, _BLOCK // m)):
            block = _expand(
                ent_node[a:b],
                ent_row[a:b],
                ranks,
                node_last,
                node_support,
                weight,
                unique,
                n_items,
            )
            node, item, row, inverse, group_key, support, child = block
            # Support 1 in the node's subtable: P + item is unique in the data, an
            # MSU candidate of size depth + 1 (a 1-MSU of the subtable in SUDA2).
            if depth >= 1:
                single = support[inverse] == 1
                _check_candidates(
                    found, levels, node[single], item[single], row[single], depth, n_items
                )
            if not want_children:
                continue
            child_id = np.full(len(group_key), -1, dtype=np.int64)
            child_id[child] = n_children + np.arange(int(child.sum()), dtype=np.int64)
            n_children += int(child.sum())
            keys.append(group_key[child])
            parents.append(group_key[child] // n_items)
            items.append(group_key[child] % n_items)
            supports.append(support[child])
            ent = child_id[inverse]
            next_node.append(ent[ent >= 0])
            next_row.append(row[ent >= 0])
        if not want_children:
            break
        lvl = _Level(*(_cat(x) for x in (keys, parents, items, supports)))
        levels.append(lvl)
        ent_node, ent_row = _cat(next_node), _cat(next_row)
        node_last, node_support = lvl.item, lvl.support
    return found


#: (node, item, record) triples built at once in one block of the search.
_BLOCK = 1 << 22


def _cat(parts: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(parts) if parts else _no_ints()


def _blocks(sorted_node: np.ndarray, size: int) -> list[tuple[int, int]]:
    """Return [start, stop) ranges of about ``size`` entries that never split a node."""
    n = len(sorted_node)
    cuts = [0]
    pos = size
    while pos < n:
        start = int(np.searchsorted(sorted_node, sorted_node[pos], side="left"))
        if start <= cuts[-1]:  # one node longer than a block: it is a block of its own
            start = int(np.searchsorted(sorted_node, sorted_node[pos], side="right"))
        if start >= n:
            break
        cuts.append(start)
        pos = start + size
    cuts.append(n)
    return list(pairwise(cuts))


def _expand(
    ent_node: np.ndarray,
    ent_row: np.ndarray,
    ranks: np.ndarray,
    node_last: np.ndarray,
    node_support: np.ndarray,
    weight: np.ndarray,
    unique: np.ndarray,
    n_items: int,
) -> tuple[np.ndarray, ...]:
    """Extend nodes by the items of their records ranked after their last item.

    Each itemset is reached once, along its items in rank order. Returns the
    triples (node, item, row), each triple's group, the groups (node * n_items
    + item, sorted), their weighted supports in the node's subtable, and which
    groups become nodes of the next level: non-unique, not in every record of
    the subtable (such an item makes every extension non-minimal), and holding
    a record that can own an MSU.
    """
    c_node, c_item, c_row = [], [], []
    last = node_last[ent_node]
    for v in range(ranks.shape[1]):
        r = ranks[ent_row, v]
        keep = r > last
        c_node.append(ent_node[keep])
        c_item.append(r[keep])
        c_row.append(ent_row[keep])
    node, item, row = _cat(c_node), _cat(c_item), _cat(c_row)
    group_key, inverse = np.unique(node * n_items + item, return_inverse=True)
    inverse = inverse.reshape(-1)
    support = np.bincount(inverse, weights=weight[row], minlength=len(group_key))
    support = support.astype(np.int64)
    has_unique = np.bincount(inverse, weights=unique[row], minlength=len(group_key)) > 0
    child = (support >= 2) & (support < node_support[group_key // n_items]) & has_unique
    return node, item, row, inverse, group_key, support, child


def _check_candidates(
    found: list[tuple[np.ndarray, list[np.ndarray]]],
    levels: list[_Level],
    node: np.ndarray,
    item: np.ndarray,
    row: np.ndarray,
    depth: int,
    n_items: int,
) -> None:
    """Keep the candidates P + j whose every subset P + j - x (x in P) is a tree node.

    ``node`` is at ``levels[depth - 1]``. A unique itemset I is an MSU iff every
    I - x is non-unique (Manning et al. 2008, the "special row" test: I - x
    occurs in a row outside the subtable of x). Every node of the tree is
    non-unique, and for an MSU every I - x is a node: its rank-ordered prefixes
    are non-unique, hold the MSU's row, and none was pruned for having the
    support of its parent (that would make I - y as rare as I for some y). So
    the test is a look-up of I - x along its items in rank order.
    """
    path: list[np.ndarray] = [_no_ints()] * depth  # items i_1 .. i_depth of P
    anc: list[np.ndarray] = [_no_ints()] * (depth + 1)  # ancestors at depths 0 .. depth
    anc[depth] = node
    cur = node
    for d in range(depth, 0, -1):
        lvl = levels[d - 1]
        path[d - 1] = lvl.item[cur]
        cur = lvl.parent[cur]
        anc[d - 1] = cur
    ok = np.ones(len(node), dtype=bool)
    for t in range(depth):  # drop i_{t+1} (0-based t)
        cur = anc[t].copy()
        for s, items in enumerate([*path[t + 1 :], item]):
            lvl = levels[t + s]
            pos = _lookup(lvl.keys, cur * n_items + items)
            ok &= pos >= 0
            cur = np.where(pos >= 0, pos, 0)
    found.append((row[ok], [p[ok] for p in path] + [item[ok]]))
