"""People, not rows: the quasi-identifier signature of each person and its classes.

When a table has several rows per person (claims, visits, prescriptions), the
unit of privacy is the person. A person P with rows r_1..r_m has the
*signature*

    sig(P) = {(q_1(r), ..., q_p(r)) : r in P},

the set of their distinct quasi-identifier tuples; an equivalence class is the
set of people with equal signatures, its size f_j counts people, and k is the
least class size in people (``shared/notes/formulas.md``, "Many rows per
person"). A person whose QIs are constant over their rows has a one-tuple
signature, so on one row per person this is the usual partition of the rows.
This is the "1:M" view of microdata with several records per individual
(Gong, Luo, Yang, Ni and Li, "Anonymizing 1:M microdata with high utility",
Knowledge-Based Systems 115, 2017): an individual is indistinguishable from
those whose whole set of records is the same; a signature that is a superset
of another is a different class (an attacker who knows more of a person's
records tells them apart).

:func:`group_sets` is the one kernel: it groups *owners* (people, or classes
of people being regrouped by the lattice search) by the set of *items*
(tuple ids) they hold, exactly. Each set is summarized by its length, first
item and two sums of random 64-bit item hashes (wrapping, order-free), the
owners sorted and grouped on that summary, and every owner's items then
compared with its group's first owner's, item by item: when a summary is
shared by two different sets (a chance of about 2^-128 per pair), the groups
are formed again by an exact refinement over the items' positions. No Python
loop runs over rows, people or classes.

Rows whose person value is missing each count as a person of their own (a row
that nothing links to another row).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "PersonGroups",
    "SetClasses",
    "distinct_pairs",
    "group_sets",
    "person_codes",
    "person_groups",
    "sorted_unique",
]

_INT64_MAX = np.iinfo(np.int64).max

#: Pairs are told apart in a boolean array of their key space (no sort) while that space
#: is at most this many times their number (a byte per key: 8 bytes per pair at most).
PRESENCE_PER_PAIR = 8
_HASH_SEED = 0x5EED_36


@dataclass(frozen=True, eq=False)
class SetClasses:
    """Owners grouped by the set of items they hold (the result of :func:`group_sets`).

    Attributes
    ----------
    owner_class : numpy.ndarray
        int64 class of each owner, in ``[0, n_classes)``.
    sizes : numpy.ndarray
        Per class, the sum of its owners' weights (the number of owners
        without weights).
    offsets : numpy.ndarray
        ``n_classes + 1`` offsets into :attr:`members`.
    members : numpy.ndarray
        The items of each class's set, ascending:
        ``members[offsets[j]:offsets[j + 1]]``.
    """

    owner_class: np.ndarray
    sizes: np.ndarray
    offsets: np.ndarray
    members: np.ndarray

    @property
    def n_classes(self) -> int:
        """Return the number of classes."""
        return len(self.sizes)

    @property
    def lengths(self) -> np.ndarray:
        """Return the number of items in each class's set."""
        out: np.ndarray = np.diff(self.offsets)
        return out

    @property
    def first(self) -> np.ndarray:
        """Return the smallest item of each class's set."""
        out: np.ndarray = self.members[self.offsets[:-1]]
        return out


def distinct_pairs(
    owner: np.ndarray, item: np.ndarray, n_items: int
) -> tuple[np.ndarray, np.ndarray]:
    """Return the distinct (owner, item) pairs, sorted by owner then item.

    The pairs' key ``owner * n_items + item`` is marked in a boolean array
    when the key space is at most :data:`PRESENCE_PER_PAIR` times the number
    of pairs (no sort: a person's distinct sensitive values), else sorted once
    (``np.sort``; ``np.unique`` hashes first since numpy 2.3, twenty times
    slower on ten million keys). Exact: when the key would overflow int64 the
    pairs are sorted as pairs instead.

    Parameters
    ----------
    owner : numpy.ndarray
        int64 owner of each pair (non-negative).
    item : numpy.ndarray
        int64 item of each pair, in ``[0, n_items)``.
    n_items : int
        The number of items.

    Returns
    -------
    owner, item : numpy.ndarray
        int64, one entry per distinct pair.
    """
    n_items = max(int(n_items), 1)
    n_owners = int(owner.max()) + 1 if len(owner) else 0
    if n_owners and n_owners > _INT64_MAX // n_items:  # pragma: no cover - beyond every limit
        order = np.lexsort((item, owner))
        o, i = owner[order], item[order]
        keep = np.r_[True, (o[1:] != o[:-1]) | (i[1:] != i[:-1])]
        return o[keep], i[keep]
    key = owner * n_items + item
    space = n_owners * n_items
    if space <= PRESENCE_PER_PAIR * len(key) + 1024:
        seen = np.zeros(space, dtype=bool)
        seen[key] = True
        key = np.flatnonzero(seen)
    else:
        key = sorted_unique(key)
    return key // n_items, key % n_items


def sorted_unique(values: np.ndarray) -> np.ndarray:
    """Return the distinct values of an integer array, ascending: one ``np.sort``, then a mask.

    What ``np.unique(values)`` returns, without its hash table (numpy 2.3 and
    later), which is far slower than a sort on millions of distinct keys.

    Parameters
    ----------
    values : numpy.ndarray
        Integers.

    Returns
    -------
    numpy.ndarray
        Of the dtype of ``values``.
    """
    out = np.sort(values)
    if len(out) < 2:
        return out
    keep = np.empty(len(out), dtype=bool)
    keep[0] = True
    np.not_equal(out[1:], out[:-1], out=keep[1:])
    return out[keep]


def _hashes(n_items: int) -> tuple[np.ndarray, np.ndarray]:
    """Return two seeded random uint64 hashes per item (fixed: equal sets, equal sums)."""
    rng = np.random.default_rng(_HASH_SEED)
    hi = np.iinfo(np.uint64).max
    return (
        rng.integers(0, hi, n_items, dtype=np.uint64, endpoint=True),
        rng.integers(0, hi, n_items, dtype=np.uint64, endpoint=True),
    )


def _runs_of(*columns: np.ndarray) -> np.ndarray:
    """Return, for rows already sorted on ``columns``, where a new run starts (bool)."""
    n = len(columns[0])
    start = np.zeros(n, dtype=bool)
    if n:
        start[0] = True
        for c in columns:
            start[1:] |= c[1:] != c[:-1]
    return start


def _classes_by_summary(
    lengths: np.ndarray, first: np.ndarray, s1: np.ndarray, s2: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Return (order of owners, class of each owner in that order) grouping equal summaries."""
    order = np.lexsort((s2, s1, lengths, first))
    start = _runs_of(first[order], lengths[order], s1[order], s2[order])
    return order, np.cumsum(start) - 1


def _refine(
    lengths: np.ndarray, starts: np.ndarray, items: np.ndarray, first: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Return (order, class in that order) grouping owners by their item sequences, exactly.

    Ranks are refined one item position at a time over the owners that still
    have items there (as many passes as the longest set, each over fewer
    owners; the fallback when a hash summary is shared by different sets).
    """
    n = len(lengths)
    rank = np.zeros(n, dtype=np.int64)
    longest = int(lengths.max()) if n else 0
    for pos in range(longest):
        sel = np.flatnonzero(lengths > pos)
        key = rank[sel] * (len(items) + 1) + items[starts[sel] + pos]
        _, inv = np.unique(key, return_inverse=True)
        rank[sel] = inv.reshape(-1)
    order = np.lexsort((rank, lengths, first))
    start = _runs_of(first[order], lengths[order], rank[order])
    return order, np.cumsum(start) - 1


def group_sets(
    owner: np.ndarray,
    item: np.ndarray,
    *,
    n_owners: int,
    n_items: int,
    weights: np.ndarray | None = None,
) -> SetClasses:
    """Group owners by the set of items they hold, exactly.

    Two owners fall in one class iff they hold the same set of items (a
    repeated (owner, item) pair counts once). Classes are numbered by their
    smallest item, then by the number of items (so owners holding one item
    each are numbered in item order), then by the hash summary.

    Parameters
    ----------
    owner : numpy.ndarray
        int64 owner of each (owner, item) pair, in ``[0, n_owners)``; every
        owner must hold at least one item.
    item : numpy.ndarray
        int64 item of each pair, in ``[0, n_items)``.
    n_owners : int
        The number of owners.
    n_items : int
        The number of items.
    weights : numpy.ndarray, optional
        Per owner, what it adds to its class's size (default 1: the classes
        count owners).

    Returns
    -------
    SetClasses

    Raises
    ------
    ValueError
        When an owner holds no item, or the arrays disagree in length.

    Examples
    --------
    People 0 and 2 hold the tuples {1, 3}; person 1 holds {1}; person 3 {3}:

    >>> import numpy as np
    >>> g = group_sets(np.array([0, 0, 1, 2, 2, 2, 3]), np.array([3, 1, 1, 1, 3, 3, 3]),
    ...                n_owners=4, n_items=4)
    >>> g.owner_class.tolist(), g.sizes.tolist(), g.lengths.tolist()
    ([1, 0, 1, 2], [1, 2, 1], [1, 2, 1])
    """
    owner = np.asarray(owner, dtype=np.int64).reshape(-1)
    item = np.asarray(item, dtype=np.int64).reshape(-1)
    if len(owner) != len(item):
        raise ValueError("owner and item need one entry per pair")
    n_owners = int(n_owners)
    if n_owners == 0:
        empty = np.zeros(0, dtype=np.int64)
        return SetClasses(empty, empty, np.zeros(1, dtype=np.int64), empty)
    po, pi = distinct_pairs(owner, item, n_items)
    lengths = np.bincount(po, minlength=n_owners).astype(np.int64)
    if len(lengths) != n_owners or not bool(lengths.all()):
        raise ValueError("every owner must hold at least one item")
    starts = np.cumsum(lengths) - lengths
    first = pi[starts]
    if len(pi) == n_owners:  # one item each: the item is the class (the common case)
        order = np.argsort(first, kind="stable")
        cls_sorted = np.cumsum(_runs_of(first[order])) - 1
    else:
        h1, h2 = _hashes(max(int(n_items), 1))
        s1 = np.add.reduceat(h1[pi], starts)
        s2 = np.add.reduceat(h2[pi], starts)
        order, cls_sorted = _classes_by_summary(lengths, first, s1, s2)
        if not _verified(order, cls_sorted, lengths, starts, pi, po):
            order, cls_sorted = _refine(lengths, starts, pi, first)
    owner_class = np.empty(n_owners, dtype=np.int64)
    owner_class[order] = cls_sorted
    n_classes = int(cls_sorted[-1]) + 1
    w = None if weights is None else np.asarray(weights, dtype=np.float64)
    sizes = np.bincount(owner_class, weights=w, minlength=n_classes)
    if weights is None or np.issubdtype(np.asarray(weights).dtype, np.integer):
        sizes = sizes.astype(np.int64)
    # each class's set: the items of its first owner in the sorted order
    rep = order[np.flatnonzero(_runs_of(cls_sorted))]
    rep_len = lengths[rep]
    offsets = np.concatenate(([0], np.cumsum(rep_len))).astype(np.int64)
    take = np.repeat(starts[rep] - offsets[:-1], rep_len) + np.arange(offsets[-1])
    return SetClasses(owner_class, sizes, offsets, pi[take])


def _verified(
    order: np.ndarray,
    cls_sorted: np.ndarray,
    lengths: np.ndarray,
    starts: np.ndarray,
    items: np.ndarray,
    pair_owner: np.ndarray,
) -> bool:
    """Return True when every owner holds exactly its group's first owner's items."""
    rep_sorted = order[np.flatnonzero(_runs_of(cls_sorted))]
    owner_class = np.empty(len(order), dtype=np.int64)
    owner_class[order] = cls_sorted
    rep = rep_sorted[owner_class]  # the first owner of each owner's group
    if not np.array_equal(lengths[rep], lengths):  # pragma: no cover - lengths are in the key
        return False
    within = np.arange(len(items), dtype=np.int64) - starts[pair_owner]
    return bool(np.array_equal(items, items[starts[rep[pair_owner]] + within]))


def person_codes(codes: np.ndarray, missing_code: int | None) -> tuple[np.ndarray, int]:
    """Return dense person numbers of rows, each row with a missing person a person of its own.

    Parameters
    ----------
    codes : numpy.ndarray
        The person column's codes (one per row).
    missing_code : int or None
        The code of a missing value, None when no value is missing.

    Returns
    -------
    person : numpy.ndarray
        int64 person of each row, in ``[0, n_people)``.
    n_people : int
        The number of people.

    Notes
    -----
    The rows of the missing value are numbered after every code, in row
    order. An encoder's codes are dense (every code in ``[0, n)`` used, the
    missing value last), and then so are these numbers: they are returned
    as they are, after one count (no sort of the rows). Other codes are
    made dense by ``np.unique``.
    """
    codes = np.asarray(codes, dtype=np.int64)
    if not len(codes):
        return codes.copy(), 0
    if missing_code is not None:
        lone = np.flatnonzero(codes == missing_code)
        if len(lone):
            top = int(codes.max())
            # from the missing code itself when it is the last one (the encoder's rule)
            start = missing_code if missing_code >= top else top + 1
            codes = codes.copy()
            codes[lone] = start + np.arange(len(lone), dtype=np.int64)
    top = int(codes.max())
    if int(codes.min()) >= 0 and top < len(codes) and bool(np.bincount(codes).all()):
        return codes, top + 1  # dense already
    uniq, inv = np.unique(codes, return_inverse=True)
    return inv.reshape(-1).astype(np.int64), len(uniq)


@dataclass(frozen=True, eq=False)
class PersonGroups:
    """The people of a table grouped by their signatures over some QIs.

    Attributes
    ----------
    person : numpy.ndarray
        int64 person of each row.
    n_people : int
        The number of people.
    tuple_id : numpy.ndarray
        int64 QI tuple of each row (the row-level class).
    n_tuples : int
        The number of distinct QI tuples.
    classes : SetClasses
        The people grouped by their sets of tuples: ``classes.sizes`` counts
        people, ``classes.owner_class[p]`` is person p's class.
    rows : numpy.ndarray
        The rows of each class.
    """

    person: np.ndarray
    n_people: int
    tuple_id: np.ndarray
    n_tuples: int
    classes: SetClasses
    rows: np.ndarray

    @property
    def row_class(self) -> np.ndarray:
        """Return the class of every row: its person's class."""
        out: np.ndarray = self.classes.owner_class[self.person]
        return out

    @property
    def single(self) -> bool:
        """Return True when every class's people hold a single QI tuple."""
        return bool((self.classes.lengths == 1).all())

    @property
    def several(self) -> int:
        """Return the people whose rows carry several QI tuples."""
        return int(self.classes.sizes[self.classes.lengths > 1].sum())


def person_groups(
    person: np.ndarray, n_people: int, tuple_id: np.ndarray, n_tuples: int
) -> PersonGroups:
    """Group people by their QI signature (the set of their rows' QI tuples).

    Parameters
    ----------
    person : numpy.ndarray
        int64 person of each row (:func:`person_codes`).
    n_people : int
        The number of people.
    tuple_id : numpy.ndarray
        int64 QI tuple of each row (the row partition's class id).
    n_tuples : int
        The number of tuples.

    Returns
    -------
    PersonGroups
    """
    classes = group_sets(person, tuple_id, n_owners=n_people, n_items=n_tuples)
    rows = np.bincount(classes.owner_class[person], minlength=classes.n_classes).astype(np.int64)
    return PersonGroups(person, int(n_people), tuple_id, int(n_tuples), classes, rows)
