"""k^m-anonymity: an attacker who knows m of a person's events (visits, diagnoses, dates).

When a table holds several rows per person (claims, encounters,
prescriptions), the columns that change from row to row (the visit date, the
diagnosis, the provider) are *events*. Each person holds a set of *items*
built from their events, and an attacker who knows some of a person's items
looks for the people holding all of them. The model is Terrovitis, Mamoulis
and Kalnis's k^m-anonymity for set-valued data [TMK08]_ with one set per
person, which is also El Emam's longitudinal attacker who knows a number of a
patient's visits or claims ([EAK12]_; [E13]_, chapters on longitudinal data):

    support(I) = the number of people whose set holds every item of I
    a table is k^m-anonymous iff support(I) >= k for every itemset I with
    |I| <= m that some person holds (support(I) > 0)

Figures (:class:`KmAnonymity`): the achieved k, min over the itemsets of size
<= m held by someone of their support; each person's *least support*, min
over their own itemsets of size <= m (1 / least support is the chance of
singling them out from the m items an attacker knows best); the people at
risk, those whose least support is below k; and the rarest itemsets behind
them.

**What an item is** (``items``):

``"visit"`` (default)
    The tuple of the event columns' values on one row: one visit. An attacker
    knowing a visit knows all of its event values together ("a visit on
    2023-05-02 to PRV007 for E11"). With one event column this is that
    column's value.
``"value"``
    Each event column's value on its own, as a (column, value) pair: an
    attacker who knows m values, from any of the person's rows ("E11 and
    PRV007", without knowing they were on one visit).

**Missing event values** (``missing``): ``"own"`` (default) keeps a missing
value as a value of its own (the project's rule for QIs, ``formulas.md``):
"a visit with no diagnosis recorded" is an item like any other. ``"skip"``
holds that a missing value is nothing an attacker can know: a missing cell is
not an item (``"value"``), and a row with a missing event value is not a visit
item (``"visit"``). "own" never understates the risk: its sets are supersets
of "skip"'s, the support of an itemset without missing values is the same
under both, so each person's least support under "own" is at most that
under "skip". Rows with a missing person value are each a person of their
own (:func:`riskcore.engine.people.person_codes`).

**Generalized events.** ``generalized`` replaces an event column by values
the caller already generalized (a date as its month), one per row; the kernel
:func:`itemset_support` takes the (person, item) codes directly, for a
search over generalization levels. Generalizing never lowers a person's
least support: an itemset maps to a coarser one of at most the same size
whose holders include the original's.

**Computation** (no Python loop over rows, people or itemsets). The distinct
(person, item) pairs are sorted by person then item, each person's items a
run of length L_p. Size-1 supports are a ``bincount`` over the items. The
itemsets of size j are generated from those of size j-1 by extending each
with every later item of the same person (``np.repeat`` of the extension
counts and an offset ``arange``; each person's j-itemsets are the
C(L_p, j) increasing position tuples, each generated once), and counted on an
exact packed key ``id_{j-1} * n_items + item`` re-densified at each size, so
the number of occurrences of an itemset is its support. A loop runs over the
sizes j = 1..m only. Since support can only drop when an itemset grows, a
person's least support is that of their itemsets of size min(m, L_p); the
other sizes give the smallest itemset with that support (the *witness*, the
least an attacker must know).

**Limit.** The work is the number of itemset occurrences,
sum_p sum_{j <= m} C(L_p, j); it is computed from the L_p before any itemset
is generated and refused above :data:`MAX_ITEMSET_OCCURRENCES` (20 million;
measured at 18 million, 400,000 people of 9 items with m = 2: 1.3 GB of
working arrays at the peak and 15 s on a loaded 2-core machine), with a
message naming the figure and suggesting a smaller m or coarser events.

References
----------
.. [TMK08] M. Terrovitis, N. Mamoulis, P. Kalnis, "Privacy-preserving
   anonymization of set-valued data", PVLDB 1(1), 115-125, 2008 (VLDB 2008),
   definition of k^m-anonymity.
.. [EAK12] K. El Emam, L. Arbuckle, G. Koru, B. Eze, L. Gaudette, E. Neri,
   S. Rose, J. Howard, J. Gluck, "De-identification methods for open health
   data: the case of the Heritage Health Prize claims dataset", Journal of
   Medical Internet Research 14(1), e33, 2012.
.. [E13] K. El Emam, *Guide to the De-Identification of Personal Health
   Information*, CRC Press, 2013.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._results import NOT_IN_JSON, Result
from riskcore._validation import check_one_of, check_positive_int
from riskcore._values import value_text
from riskcore.engine import EncodedColumn, EncodedTable, encode_column, pack_keys
from riskcore.engine.people import person_codes
from riskcore.errors import RiskcoreError, RolesError
from riskcore.roles.assignment import event_names

__all__ = [
    "MAX_ITEMSET_OCCURRENCES",
    "TOP_ITEMSETS",
    "EventItems",
    "EventPairs",
    "ItemsetLevel",
    "ItemsetSupport",
    "KmAnonymity",
    "RareItemset",
    "event_items",
    "event_names",
    "event_pairs",
    "itemset_occurrences",
    "itemset_support",
    "km_anonymity",
    "visit_items",
]

ItemKind = Literal["visit", "value"]
MissingEvents = Literal["own", "skip"]

#: The most itemset occurrences (sum over people of C(L_p, j), j = 1..m) counted at once.
MAX_ITEMSET_OCCURRENCES = 20_000_000
#: The rarest itemsets a result lists at most.
TOP_ITEMSETS = 20

_no_ints = np.zeros(0, dtype=np.int64)


# ---------------------------------------------------------------- items of the events


@dataclass(frozen=True, eq=False)
class EventItems:
    """The items of a table's events: one (row, item) pair per occurrence.

    Attributes
    ----------
    row : numpy.ndarray
        int64 row of each occurrence (a row occurs once per event column
        with ``"value"`` items, once with ``"visit"`` items; rows whose
        items are skipped do not occur).
    item : numpy.ndarray
        int64 item of each occurrence, in ``[0, n_items)``.
    n_items : int
        The number of distinct items.
    codes : numpy.ndarray
        ``(n_items, n_columns)`` int64: the code of each event column in each
        item, -1 where the item does not involve the column (``"value"``
        items involve one column).
    """

    row: np.ndarray
    item: np.ndarray
    n_items: int
    codes: np.ndarray


def _missing_code(column: EncodedColumn) -> int | None:
    """Return the code of a missing value of an encoded column (None when none is missing)."""
    return column.n_values - 1 if column.n_missing else None


def event_items(
    columns: Sequence[EncodedColumn],
    *,
    items: ItemKind = "visit",
    missing: MissingEvents = "own",
) -> EventItems:
    """Return the items of the event columns (see the module for the two kinds).

    ``"visit"``: the item of row r is the tuple (e_1(r), ..., e_c(r)) of the
    event columns' codes, packed into one exact key
    (:func:`riskcore.engine.pack_keys`) and numbered densely.
    ``"value"``: row r holds the item (column i, e_i(r)) for each event
    column i, numbered ``offset_i + code`` and then densely.

    Parameters
    ----------
    columns : sequence of EncodedColumn
        The event columns, all of one length (already generalized, if at all).
    items : {"visit", "value"}, default "visit"
        What an item is.
    missing : {"own", "skip"}, default "own"
        A missing value is a value of its own, or not an item.

    Returns
    -------
    EventItems

    Raises
    ------
    ValueError
        Without a column, or for an unknown ``items`` or ``missing``.

    Examples
    --------
    >>> import pandas as pd
    >>> from riskcore.engine import encode_column
    >>> date = encode_column(pd.Series(["d1", "d1", "d2"], name="date"))
    >>> dx = encode_column(pd.Series(["A", "B", "A"], name="dx"))
    >>> event_items([date, dx]).item.tolist()
    [0, 1, 2]
    >>> event_items([date, dx], items="value").item.tolist()
    [0, 0, 1, 2, 3, 2]
    """
    check_one_of("items", items, ("visit", "value"))
    check_one_of("missing", missing, ("own", "skip"))
    cols = list(columns)
    if not cols:
        raise ValueError("at least one event column is needed")
    n = len(cols[0].codes)
    skipped = [
        c.codes == code if missing == "skip" and code is not None else None
        for c, code in ((c, _missing_code(c)) for c in cols)
    ]
    if items == "visit":
        key, _ = pack_keys([c.codes for c in cols], [c.n_values for c in cols])
        keep = np.ones(n, dtype=bool)
        for s in skipped:
            if s is not None:
                keep &= ~s
        row = np.flatnonzero(keep).astype(np.int64)
        item, rep = _numbered(key[row])
        codes = np.stack([c.codes[row[rep]] for c in cols], axis=1).astype(np.int64)
        return EventItems(row, item, len(rep), codes)
    offsets = np.concatenate(([0], np.cumsum([c.n_values for c in cols]))).astype(np.int64)
    rows, raw = [], []
    for i, (c, s) in enumerate(zip(cols, skipped, strict=True)):  # a loop over the columns
        r = np.arange(n, dtype=np.int64) if s is None else np.flatnonzero(~s).astype(np.int64)
        rows.append(r)
        raw.append(offsets[i] + c.codes[r])
    row, flat = np.concatenate(rows), np.concatenate(raw)
    item, rep = _numbered(flat)
    uniq = flat[rep]
    col = np.searchsorted(offsets, uniq, side="right") - 1
    codes = np.full((len(uniq), len(cols)), -1, dtype=np.int64)
    codes[np.arange(len(uniq)), col] = uniq - offsets[col]
    return EventItems(row, item, len(uniq), codes)


def _numbered(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (dense number of each key, in increasing key order; one position of each)."""
    ids, counts = _dense(key)
    rep = np.empty(len(counts), dtype=np.int64)
    rep[ids] = np.arange(len(key), dtype=np.int64)  # any position of a key will do
    return ids, rep


# ---------------------------------------------------------------- the kernel


@dataclass(frozen=True)
class ItemsetLevel(Result):
    """The itemsets of one size j held by the people.

    Attributes
    ----------
    size : int
        j, the number of items.
    itemsets : int
        Distinct itemsets of size j held by someone.
    occurrences : int
        (person, itemset) pairs: sum_p C(L_p, j).
    people : int
        People holding at least j items.
    least_support : int
        The smallest support of an itemset of size j (0 when none is held).
    rare : int
        Distinct itemsets of size j held by fewer than k people.
    """

    size: int
    itemsets: int
    occurrences: int
    people: int
    least_support: int
    rare: int


@dataclass(frozen=True, eq=False)
class ItemsetSupport:
    """Each person's least support over their itemsets of size <= m (:func:`itemset_support`).

    Attributes
    ----------
    person_support : numpy.ndarray
        int64 per person: min over their itemsets I with 1 <= |I| <= m of
        support(I); 0 for a person holding no item.
    witness : numpy.ndarray
        ``(n_people, width)`` int64, width = min(m, most items of a person):
        per person, the items of their smallest itemset of least support
        (ascending item numbers, -1 after its last item and for a person
        holding no item).
    witness_size : numpy.ndarray
        int64 per person: the number of items of the witness (0: no item).
    items_held : numpy.ndarray
        int64 per person: L_p, their distinct items.
    levels : tuple of ItemsetLevel
        Per size j = 1..width.
    n_items : int
        The number of items.
    """

    person_support: np.ndarray
    witness: np.ndarray
    witness_size: np.ndarray
    items_held: np.ndarray
    levels: tuple[ItemsetLevel, ...]
    n_items: int


def itemset_occurrences(items_held: np.ndarray, m: int) -> np.ndarray:
    """Return, per size j = 1..m, the itemset occurrences sum_p C(L_p, j).

    C(L, j) = C(L, j-1) (L - j + 1) / j, computed for every person at once
    in float64 (exact below 2^53; beyond, a refusal does not need the units).

    Parameters
    ----------
    items_held : numpy.ndarray
        L_p, the number of distinct items of each person.
    m : int
        The largest itemset size.

    Returns
    -------
    numpy.ndarray
        float64, ``m`` entries.

    Examples
    --------
    >>> itemset_occurrences(np.array([1, 3, 4]), 3).tolist()
    [8.0, 9.0, 5.0]
    """
    length = np.asarray(items_held, dtype=np.float64)
    c = np.ones_like(length)
    out = np.zeros(m, dtype=np.float64)
    for j in range(1, m + 1):  # a loop over the itemset sizes
        c = np.maximum(c * (length - j + 1) / j, 0.0)
        out[j - 1] = c.sum()
    return out


def _distinct(key: np.ndarray) -> np.ndarray:
    """Return the distinct keys, ascending (a sort: numpy 2.4's hashing ``unique`` is slower)."""
    ordered = np.sort(key)
    out: np.ndarray = ordered[np.r_[True, ordered[1:] != ordered[:-1]]] if len(key) else ordered
    return out


def _dense(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (dense id of each key, in increasing key order; count of each id)."""
    order = np.argsort(key)
    ordered = key[order]
    start = np.ones(len(key), dtype=bool)
    start[1:] = ordered[1:] != ordered[:-1]
    ids = np.empty(len(key), dtype=np.int64)
    ids[order] = np.cumsum(start) - 1
    counts = np.diff(np.append(np.flatnonzero(start), len(key))).astype(np.int64)
    return ids, counts


def _extend(last: np.ndarray, pair_end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the itemsets one item larger: (the itemset each extends, its new last pair).

    An itemset whose last item is pair ``l`` of its person (whose pairs end
    before ``pair_end[l]``) is extended by each later pair l + 1, ...,
    pair_end[l] - 1, in order: ``np.repeat`` of the extension counts and an
    offset ``arange`` restarting at each itemset.
    """
    ext = pair_end[last] - last - 1
    parent = np.repeat(np.arange(len(last), dtype=np.int64), ext)
    new_last = last[parent] + 1 + np.arange(len(parent), dtype=np.int64)
    new_last -= np.repeat(np.cumsum(ext) - ext, ext)
    return parent, new_last


def _check_limit(items_held: np.ndarray, m: int, width: int, max_itemsets: int) -> np.ndarray:
    """Return the occurrences per size, refusing a count above ``max_itemsets`` first."""
    per_size = itemset_occurrences(items_held, width)
    total = float(per_size.sum())
    if total > max_itemsets:
        longest = int(items_held.max())
        raise RiskcoreError(
            f"k^m-anonymity with m = {m} would count {total:,.0f} itemset occurrences (every "
            f"set of at most {m} events of every person; the person with the most holds "
            f"{longest:,} distinct events), above the limit of {max_itemsets:,} "
            "(MAX_ITEMSET_OCCURRENCES); choose a smaller m, or coarser events (a date as its "
            "month, a diagnosis as its chapter), or fewer event columns"
        )
    return per_size


def itemset_support(
    person: np.ndarray,
    item: np.ndarray,
    *,
    n_people: int,
    n_items: int,
    m: int = 2,
    k: int = 11,
    max_itemsets: int = MAX_ITEMSET_OCCURRENCES,
) -> ItemsetSupport:
    """Compute each person's least itemset support over their itemsets of size <= m.

    A person p holds the set S_p of the items of their (person, item) pairs
    (a repeated pair counts once). support(I) = |{p : I subset of S_p}|;
    person p's least support is min over I subset of S_p, 1 <= |I| <= m, of
    support(I) (Terrovitis, Mamoulis and Kalnis 2008: the table is
    k^m-anonymous iff every person's least support is >= k). The algorithm
    and its limit are in the module's docstring.

    Parameters
    ----------
    person : numpy.ndarray
        int64 person of each pair, in ``[0, n_people)``.
    item : numpy.ndarray
        int64 item of each pair, in ``[0, n_items)``.
    n_people : int
        The number of people (a person may hold no item).
    n_items : int
        The number of items.
    m : int, default 2
        The most items an attacker knows (at least 1).
    k : int, default 11
        Itemsets held by fewer than k people are counted as rare (per size).
    max_itemsets : int, default :data:`MAX_ITEMSET_OCCURRENCES`
        The most itemset occurrences counted.

    Returns
    -------
    ItemsetSupport

    Raises
    ------
    RiskcoreError
        When the itemset occurrences exceed ``max_itemsets`` (checked before
        any itemset is generated).
    ValueError
        When the arrays differ in length or hold numbers out of range.

    Examples
    --------
    Person 0 holds {0, 1}, person 1 {0, 1, 2}, person 2 {2}. Every itemset of
    person 0 is held by 2 people (the smallest: {0}); person 1's {0, 2} by 1:

    >>> s = itemset_support(np.array([0, 0, 1, 1, 1, 2]), np.array([0, 1, 0, 1, 2, 2]),
    ...                     n_people=3, n_items=3, m=2, k=2)
    >>> s.person_support.tolist(), s.witness.tolist()
    ([2, 1, 2], [[0, -1], [0, 2], [2, -1]])
    """
    m = check_positive_int("m", m)
    k = check_positive_int("k", k)
    max_itemsets = check_positive_int("max_itemsets", max_itemsets)
    person = np.asarray(person, dtype=np.int64).reshape(-1)
    item = np.asarray(item, dtype=np.int64).reshape(-1)
    n_people, n_items = int(n_people), max(int(n_items), 1)
    if len(person) != len(item):
        raise ValueError("person and item need one entry per pair")
    if len(person) and (
        person.min() < 0 or person.max() >= n_people or item.min() < 0 or item.max() >= n_items
    ):
        raise ValueError("a person or item number is out of range")
    # distinct pairs, by person then item; person * n_items + item < n_rows^2 fits int64
    pair = _distinct(person * n_items + item)
    pp, pi = pair // n_items, pair % n_items
    held = np.bincount(pp, minlength=n_people).astype(np.int64)
    width = min(m, int(held.max()) if len(held) else 0)
    per_size = _check_limit(held, m, width, max_itemsets)
    pair_end = np.cumsum(held)[pp]  # one past the last pair of the pair's person
    best = np.zeros(n_people, dtype=np.int64)
    best_size = np.zeros(n_people, dtype=np.int64)
    best_occ = np.zeros(n_people, dtype=np.int64)
    levels: list[ItemsetLevel] = []
    last = np.arange(len(pi), dtype=np.int64)  # the last pair of each occurrence
    ids = pi
    parents: list[np.ndarray] = []  # per size j >= 2: the (j-1)-occurrence each extends
    lasts: list[np.ndarray] = [last]
    c = np.ones(n_people, dtype=np.float64)
    for j in range(1, width + 1):  # a loop over the itemset sizes
        if j > 1:
            parent, last = _extend(last, pair_end)
            ids, support = _dense(ids[parent] * n_items + pi[last])
            parents.append(parent)
            lasts.append(last)
        else:
            support = np.bincount(ids, minlength=n_items)
            present = support > 0
            ids = (np.cumsum(present) - 1)[ids]
            support = support[present].astype(np.int64)
        c = np.maximum(c * (held - j + 1) / j, 0.0)
        count = np.rint(c).astype(np.int64)  # C(L_p, j) occurrences of each person, in order
        who = np.flatnonzero(count)
        start = (np.cumsum(count) - count)[who]
        occ_support = support[ids]
        low = np.minimum.reduceat(occ_support, start)
        better = (best[who] == 0) | (low < best[who])
        # the first occurrence of each person at their least support of this size
        at_low = np.flatnonzero(occ_support == np.repeat(low, count[who]))
        first = at_low[
            np.unique(np.searchsorted(start, at_low, side="right") - 1, return_index=True)[1]
        ]
        upd = who[better]
        best[upd], best_size[upd], best_occ[upd] = low[better], j, first[better]
        levels.append(
            ItemsetLevel(
                size=j,
                itemsets=len(support),
                occurrences=int(per_size[j - 1]),
                people=len(who),
                least_support=int(support.min()) if len(support) else 0,
                rare=int((support < k).sum()),
            )
        )
    witness = np.full((n_people, width), -1, dtype=np.int64)
    for j in range(1, width + 1):  # the witnesses of size j, their items from the last back
        who = np.flatnonzero(best_size == j)
        occ = best_occ[who]
        for pos in range(j - 1, -1, -1):
            witness[who, pos] = pi[lasts[pos][occ]]
            if pos:
                occ = parents[pos - 1][occ]
    return ItemsetSupport(best, witness, best_size, held, tuple(levels), n_items)


# ---------------------------------------------------------------- the pairs a verdict reads


def visit_items(codes: Sequence[np.ndarray], cards: Sequence[int]) -> tuple[np.ndarray, int]:
    """Return each row's visit item (its tuple of event codes, numbered densely) and their count.

    The ``"visit"`` items of :func:`event_items` with a missing value a value of
    its own, from code arrays the caller may have generalized (a lattice node's
    codes of each event column: equal codes, equal labels at that level).

    Parameters
    ----------
    codes : sequence of numpy.ndarray
        One int64 code array per event column, one code per row.
    cards : sequence of int
        The number of codes of each column (codes lie in ``[0, card)``).

    Returns
    -------
    item : numpy.ndarray
        int64 item of every row, in ``[0, n_items)``, in increasing tuple order.
    n_items : int

    Examples
    --------
    >>> visit_items([np.array([0, 0, 1]), np.array([1, 0, 1])], [2, 2])
    (array([1, 0, 2]), 3)
    """
    key, _ = pack_keys([np.asarray(c, dtype=np.int64) for c in codes], list(cards))
    item, rep = _numbered(key)
    return item, len(rep)


@dataclass(frozen=True, eq=False)
class EventPairs:
    """The (person, item) pairs of a table's events, with each person's least support.

    What :class:`riskcore.metrics.evidence.Evidence` keeps of the events for the
    k^m-anonymity criterion: no rows, only who holds which item. People keep
    their numbers when some are removed (:meth:`keep`); a person holding no
    item has least support 0 (nothing to single them out by).

    Attributes
    ----------
    person : numpy.ndarray
        int64 person of each pair, in ``[0, n_people)``.
    item : numpy.ndarray
        int64 item of each pair, in ``[0, n_items)``.
    n_people : int
    n_items : int
    max_itemsets : int
        The most itemset occurrences counted (:data:`MAX_ITEMSET_OCCURRENCES`).
    """

    person: np.ndarray
    item: np.ndarray
    n_people: int
    n_items: int
    max_itemsets: int = MAX_ITEMSET_OCCURRENCES
    _support: dict[int, np.ndarray] = field(default_factory=dict, init=False, repr=False)

    def least_support(self, m: int) -> np.ndarray:
        """Return each person's least support over their itemsets of at most ``m`` items.

        :func:`itemset_support`'s ``person_support``, computed once per m
        (the occurrences checked against :attr:`max_itemsets` first).

        Parameters
        ----------
        m : int
            The most items an attacker knows.

        Returns
        -------
        numpy.ndarray
            int64 per person (0: the person holds no item); read-only.
        """
        m = check_positive_int("m", m)
        if m not in self._support:
            found = itemset_support(
                self.person,
                self.item,
                n_people=self.n_people,
                n_items=self.n_items,
                m=m,
                max_itemsets=self.max_itemsets,
            ).person_support
            self.seed(m, found)
        return self._support[m]

    def seed(self, m: int, support: np.ndarray) -> None:
        """Keep the least supports of ``m`` computed elsewhere on these very pairs.

        Parameters
        ----------
        m : int
            The most items of the itemsets the supports were counted over.
        support : numpy.ndarray
            One least support per person (:attr:`ItemsetSupport.person_support`).
        """
        if len(support) != self.n_people:
            raise ValueError("give one least support per person")
        kept = np.asarray(support, dtype=np.int64).copy()
        kept.flags.writeable = False
        self._support[int(m)] = kept

    def keep(self, people: np.ndarray) -> EventPairs:
        """Return the pairs of the people kept (a boolean mask), numbered as before.

        The least supports are not carried over: removing people can only
        lower a support, so they are counted again on what remains.

        Parameters
        ----------
        people : numpy.ndarray
            bool per person.

        Returns
        -------
        EventPairs
        """
        take = np.asarray(people, dtype=bool)[self.person]
        return EventPairs(
            self.person[take], self.item[take], self.n_people, self.n_items, self.max_itemsets
        )


def event_pairs(
    table: EncodedTable,
    person: str,
    events: Sequence[str],
    *,
    max_itemsets: int = MAX_ITEMSET_OCCURRENCES,
) -> tuple[np.ndarray, EventPairs]:
    """Return the person of every row and the (person, visit item) pairs of the events.

    Visits as items and a missing value a value of its own (the defaults of
    :func:`km_anonymity`, whose people and items these are); a row without a
    person is a person of its own.

    Parameters
    ----------
    table : EncodedTable
        The table.
    person : str
        The person column.
    events : sequence of str
        The event columns.
    max_itemsets : int, default :data:`MAX_ITEMSET_OCCURRENCES`
        The limit on itemset occurrences the pairs' supports are later counted under.

    Returns
    -------
    row_person : numpy.ndarray
        int64 person of every row (:func:`riskcore.engine.people.person_codes`).
    pairs : EventPairs

    Raises
    ------
    RolesError
        For an unknown or repeated column, or the person among the events.
    """
    _, cols, _ = _event_columns(table, person, events, None)
    pcol = table.column(person)
    row_person, n_people = person_codes(pcol.codes, _missing_code(pcol))
    ev = event_items(cols)
    pairs = EventPairs(row_person[ev.row], ev.item, n_people, ev.n_items, max_itemsets)
    return row_person, pairs


# ---------------------------------------------------------------- the public figure


@dataclass(frozen=True)
class RareItemset(Result):
    """One itemset behind people at risk: the smallest itemset of least support of some person.

    Attributes
    ----------
    items : tuple
        The items, each a tuple of (event column, value text) pairs: every
        event column for a visit, one for a value; a missing value's text is
        None.
    size : int
        The number of items.
    support : int
        The people holding every item.
    people : int
        The people whose least support it gives (their witness, at most
        ``support`` of them).
    """

    items: tuple[tuple[tuple[str, str | None], ...], ...]
    size: int
    support: int
    people: int


@dataclass(frozen=True)
class KmAnonymity(Result):
    """k^m-anonymity of a table with several rows per person (see the module).

    Attributes
    ----------
    person : str
        The person column.
    events : tuple of str
        The event columns.
    items : {"visit", "value"}
        What an item is.
    missing : {"own", "skip"}
        The rule for a missing event value.
    generalized : tuple of str
        The event columns whose values the caller replaced (generalized).
    k : int
        People at risk hold an itemset of support below k.
    m : int
        The most items an attacker knows.
    n_records : int
    n_people : int
    n_items : int
        Distinct items.
    people_without_items : int
        People holding no item (every event value missing, with "skip").
    k_achieved : int
        min over the itemsets I held by someone, |I| <= m, of support(I):
        the table is k^m-anonymous for every k up to this.
    people_at_risk : int
        People whose least support is below k (holding an itemset of at most
        m items that fewer than k people hold).
    share_at_risk : float
        people_at_risk / n_people.
    itemsets : tuple of ItemsetLevel
        Per itemset size 1..min(m, most items of a person).
    rarest : tuple of RareItemset
        The witnesses of the people at risk (each person's smallest itemset
        of least support), rarest first (support, then size), at most
        ``top`` of them.
    person_support : numpy.ndarray
        Per person (numbered as in ``row_person``) the least support (0: no
        item); not in JSON.
    person_values : numpy.ndarray
        Per person their value in the person column (None for a row without
        one); not in JSON.
    row_person : numpy.ndarray
        The person of every row; not in JSON.
    """

    person: str
    events: tuple[str, ...]
    items: str
    missing: str
    generalized: tuple[str, ...]
    k: int
    m: int
    n_records: int
    n_people: int
    n_items: int
    people_without_items: int
    k_achieved: int
    people_at_risk: int
    share_at_risk: float
    itemsets: tuple[ItemsetLevel, ...]
    rarest: tuple[RareItemset, ...]
    person_support: np.ndarray = field(
        default_factory=lambda: _no_ints, repr=False, compare=False, metadata=NOT_IN_JSON
    )
    person_values: np.ndarray = field(
        default_factory=lambda: np.zeros(0, dtype=object),
        repr=False,
        compare=False,
        metadata=NOT_IN_JSON,
    )
    row_person: np.ndarray = field(
        default_factory=lambda: _no_ints, repr=False, compare=False, metadata=NOT_IN_JSON
    )

    def record_support(self) -> np.ndarray:
        """Return every row's least support: that of its person.

        Returns
        -------
        numpy.ndarray
            int64, one per row (0 for a row whose person holds no item).
        """
        out: np.ndarray = self.person_support[self.row_person]
        return out


def _event_columns(
    table: EncodedTable,
    person: str,
    events: Sequence[str],
    generalized: Mapping[str, object] | None,
) -> tuple[tuple[str, ...], list[EncodedColumn], tuple[str, ...]]:
    """Return the event names, their encoded columns (generalized where given), the replaced."""
    if person not in table.columns:
        raise RolesError(f"the table has no person column {person!r}")
    if isinstance(events, str) or not tuple(events):
        raise RolesError("choose at least one event column (a list of column names)")
    names = event_names(events)
    if person in names:
        raise RolesError(f"{person!r} is the person column: it cannot be an event column too")
    given = dict(generalized or {})
    unknown = [c for c in given if c not in names]
    if unknown:
        raise RolesError(f"generalized values are given for {unknown[0]!r}, not an event column")
    cols = []
    for name in names:
        if name not in given:
            cols.append(table.column(name))
            continue
        values = pd.Series(np.asarray(given[name], dtype=object), name=name)
        if len(values) != table.n_records:
            raise RolesError(
                f"the generalized values of {name!r} number {len(values):,}; the table has "
                f"{table.n_records:,} rows (give one value per row, in row order)"
            )
        cols.append(encode_column(values))
    return names, cols, tuple(c for c in names if c in given)


def _item_text(
    item: int, ev: EventItems, cols: list[EncodedColumn], names: tuple[str, ...]
) -> tuple[tuple[str, str | None], ...]:
    return tuple(
        (names[i], value_text(cols[i].labels[code]))
        for i, code in enumerate(ev.codes[item].tolist())
        if code >= 0
    )


def _rarest(
    support: ItemsetSupport,
    at_risk: np.ndarray,
    ev: EventItems,
    cols: list[EncodedColumn],
    names: tuple[str, ...],
    top: int,
) -> tuple[RareItemset, ...]:
    """Return the distinct witnesses of the people at risk, rarest first, at most ``top``."""
    who = np.flatnonzero(at_risk)
    if not len(who) or not top:
        return ()
    rows = np.column_stack(
        (support.person_support[who], support.witness_size[who], support.witness[who])
    )
    rows = rows[np.lexsort(rows.T[::-1])]  # by support, then size, then items
    start = np.r_[True, (rows[1:] != rows[:-1]).any(axis=1)]
    distinct = rows[start]
    people = np.diff(np.append(np.flatnonzero(start), len(rows)))
    out = []
    for row, n in zip(distinct[:top].tolist(), people[:top].tolist(), strict=True):  # <= top
        size = int(row[1])
        out.append(
            RareItemset(
                items=tuple(_item_text(i, ev, cols, names) for i in row[2 : 2 + size]),
                size=size,
                support=int(row[0]),
                people=int(n),
            )
        )
    return tuple(out)


def km_anonymity(
    data: EncodedTable | pd.DataFrame,
    person: str,
    events: Sequence[str],
    *,
    k: int = 11,
    m: int = 2,
    items: ItemKind = "visit",
    missing: MissingEvents = "own",
    generalized: Mapping[str, object] | None = None,
    top: int = TOP_ITEMSETS,
    max_itemsets: int = MAX_ITEMSET_OCCURRENCES,
) -> KmAnonymity:
    """Compute k^m-anonymity over a person's events: the least support of what m events reveal.

    Each person p holds the set S_p of the items of their rows (a visit: the
    tuple of the event columns' values on one row; or each value alone, see
    ``items``). With support(I) = |{p : I subset of S_p}|, the table is
    k^m-anonymous iff support(I) >= k for every I with 1 <= |I| <= m held by
    someone (Terrovitis, Mamoulis and Kalnis, VLDB 2008); El Emam's
    longitudinal attacker knowing m of a patient's visits is this model with
    visit items. ``k_achieved`` = min over held I of support(I); a person is
    at risk when one of their itemsets of at most m items has support < k.
    The choices (items, missing values, the limit) are stated in the module.

    Parameters
    ----------
    data : EncodedTable or pandas.DataFrame
        The table, one row per event (visit, claim); its codes are reused
        when an EncodedTable is given.
    person : str
        The column naming the person of each row (a row without one is a
        person of its own).
    events : sequence of str
        The event columns: QIs that change from row to row (visit date,
        diagnosis, provider).
    k : int, default 11
        People holding an itemset held by fewer than k people are at risk
        (11: the US public-release cell size, as the record-risk threshold
        1/11; El Emam 2013).
    m : int, default 2
        The most items an attacker knows.
    items : {"visit", "value"}, default "visit"
        An item is one row's tuple of event values (a visit), or one event
        column's value (a (column, value) pair).
    missing : {"own", "skip"}, default "own"
        A missing event value is a value of its own, or nothing an attacker
        can know (no item; a visit with a missing value is no item).
    generalized : mapping of str to array-like, optional
        For some event columns, the values to use instead, already
        generalized (a date as its month), one per row in row order.
    top : int, default :data:`TOP_ITEMSETS`
        The most rare itemsets listed.
    max_itemsets : int, default :data:`MAX_ITEMSET_OCCURRENCES`
        The most itemset occurrences, sum_p sum_{j <= m} C(L_p, j), counted.

    Returns
    -------
    KmAnonymity

    Raises
    ------
    RolesError
        For an unknown or repeated column, the person among the events, or
        generalized values of the wrong length or for a column that is not an
        event.
    RiskcoreError
        For an empty table, no item at all (every event value missing with
        "skip"), or more itemset occurrences than ``max_itemsets`` (before
        counting).

    Examples
    --------
    Three patients; an attacker who knows two of a patient's diagnoses:

    >>> import pandas as pd
    >>> claims = pd.DataFrame({"patient": ["a", "a", "b", "b", "b", "c"],
    ...                        "dx": ["E11", "I10", "E11", "I10", "C50", "E11"]})
    >>> r = km_anonymity(claims, "patient", ["dx"], k=2, m=2)
    >>> r.k_achieved, r.people_at_risk, r.person_support.tolist()
    (1, 1, [2, 1, 3])
    >>> r.rarest[0].items, r.rarest[0].support
    (((('dx', 'C50'),),), 1)
    """
    table = data if isinstance(data, EncodedTable) else EncodedTable(data)
    k = check_positive_int("k", k)
    m = check_positive_int("m", m)
    top = check_positive_int("top", top, minimum=0)
    check_one_of("items", items, ("visit", "value"))
    check_one_of("missing", missing, ("own", "skip"))
    names, cols, replaced = _event_columns(table, person, events, generalized)
    if table.n_records == 0:
        raise RiskcoreError("the table has no rows")
    pcol = table.column(person)
    row_person, n_people = person_codes(pcol.codes, _missing_code(pcol))
    ev = event_items(cols, items=items, missing=missing)
    if not len(ev.item):
        raise RiskcoreError(
            "no event value to count: every event value is missing and missing values are "
            "skipped (missing='skip')"
        )
    sup = itemset_support(
        row_person[ev.row],
        ev.item,
        n_people=n_people,
        n_items=ev.n_items,
        m=m,
        k=k,
        max_itemsets=max_itemsets,
    )
    held = sup.person_support > 0
    at_risk = held & (sup.person_support < k)
    first_row = np.full(n_people, table.n_records, dtype=np.int64)
    np.minimum.at(first_row, row_person, np.arange(table.n_records, dtype=np.int64))
    n_risk = int(at_risk.sum())
    return KmAnonymity(
        person=person,
        events=names,
        items=items,
        missing=missing,
        generalized=replaced,
        k=k,
        m=m,
        n_records=table.n_records,
        n_people=n_people,
        n_items=ev.n_items,
        people_without_items=int((~held).sum()),
        k_achieved=int(sup.person_support[held].min()),
        people_at_risk=n_risk,
        share_at_risk=n_risk / n_people,
        itemsets=sup.levels,
        rarest=_rarest(sup, at_risk, ev, cols, names, top),
        person_support=sup.person_support,
        person_values=pcol.labels[pcol.codes[first_row]],
        row_person=row_person,
    )
