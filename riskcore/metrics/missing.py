"""The missing-value policy of every class-based measure: own value, or matches any value.

Two policies for a missing quasi-identifier (QI) value:

``"own"`` (the default)
    A missing value is one more value of its column: records fall in the same
    equivalence class iff they agree on every QI, a missing value agreeing
    only with a missing value. Classes partition the records.
``"any"``
    A missing value matches any value, sdcMicro's convention
    ([TKM15]_, ``freqCalc``: "A missing value stands for any of the possible
    categories of the variable considered"). With K_r the QIs on which record r
    is known, record s is *compatible* with r when they agree wherever both are
    known, and r's frequency count is

    .. math:: f_k(r) = \\#\\{s : r_j = s_j \\ \\forall j \\in K_r \\cap K_s\\}

    (r itself included). The relation is symmetric but not transitive, so
    the compatible sets overlap and every figure is per record: k = min_r
    f_k(r), prosecutor risk 1/f_k(r), and the l-diversity and t-closeness of
    r are those of the sensitive values of its compatible set (the set an
    attacker who knows r's QI values, and that a missing value could be
    anything, cannot narrow further; Machanavajjhala et al. 2007 and Li, Li
    and Venkatasubramanian 2007 applied to that set instead of a class).

Under ``"any"`` a record's compatible set contains its class under ``"own"``
(records with the same values and the same missing positions), so f_k(r) is
never smaller than its ``"own"`` class size: the policy raises no record's
prosecutor risk and lowers no k. It lowers the risk of the records with
missing values (they match the records known where they are not), and also
of the complete records that records with missing values are compatible with
(sdcMicro counts those too: in its test data ``(2, 3, 1)`` and ``(2, 3, NA)``
give the complete record f_k = 3, not 2). Distinct l never falls either (a
larger set holds at least the same values); entropy l, recursive (c,l) and t
may move either way, since a larger set can be less even or further from the
table's distribution.

Equality with sdcMicro (``freqCalc``, ``alpha = 1``, its default; source
``sdcTools/sdcMicro`` ``R/freqCalc.r``): the numbers of its own tests
(``tests/testthat/test_freqCalc.R``) are reproduced, with one documented
exception. With two or more QIs, a record whose every QI is missing is
given f_k = n by sdcMicro, as here, but sdcMicro does not count it in the
f_k of the *complete* records (its ``addAllNAtoKeys = FALSE``, marked "TODO:
CHECK IF THIS IS NEEDED"), although it counts it in the f_k of the records
with some missing value, and with a single QI in every complete record's f_k
as well. riskcore follows the definition above, symmetric in every case, so
a complete record compatible with an all-missing record counts it. sdcMicro's
``ldiversity`` groups records with missing keys as values of their own
(its C++ ``items_match_safe``), so its l-diversity is the ``"own"`` policy.

Computation (vectorized): the classes of the ``"own"`` partition are grouped
by their *missing pattern* (which QIs are known; few in practice). For each
pair of patterns (A, B) the classes of pattern B are counted by their values
on the QIs known in both, and joined to the classes of pattern A on the same
values; a pattern A meets each distinct intersection once. The loops run over
patterns, never over records or classes.

References
----------
.. [TKM15] M. Templ, A. Kowarik, B. Meindl, "Statistical disclosure control
   for micro-data using the R package sdcMicro", Journal of Statistical
   Software 67(4), 2015; ``freqCalc`` in sdcMicro 5.x.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

import numpy as np

from riskcore._lazy import missing_mask
from riskcore._validation import check_one_of
from riskcore.engine import ClassTable, Contingency
from riskcore.engine.partition import pack_keys
from riskcore.errors import RiskcoreError

__all__ = [
    "MAX_QIS",
    "MISSING_POLICIES",
    "MissingPolicy",
    "check_missing",
    "compatible_contingency",
    "compatible_sizes",
    "compatible_sums",
    "count_missing",
    "count_unique_missing",
    "known_mask",
]

MissingPolicy = Literal["own", "any"]
#: The policies, default first.
MISSING_POLICIES: tuple[str, ...] = ("own", "any")


def check_missing(missing: object) -> MissingPolicy:
    """Return ``missing`` checked to be "own" or "any" (ValueError naming it otherwise).

    Parameters
    ----------
    missing : object
        The policy to check.

    Returns
    -------
    MissingPolicy
        ``missing`` itself.
    """
    value: MissingPolicy = check_one_of("missing", missing, MISSING_POLICIES)
    return value


def _missing_in(classes: ClassTable, qi: int, missing_codes: np.ndarray) -> np.ndarray:
    """Return, per class, whether its value of QI number ``qi`` is missing.

    A class of people whose signature holds several QI tuples has a missing
    value when one of its tuples does.
    """
    sig = classes.signatures
    if sig is None or sig.single:
        out: np.ndarray = np.isin(classes.keys[qi], missing_codes)
        return out
    per_tuple = np.isin(sig.tuple_keys[qi], missing_codes)
    hits = np.bincount(
        sig.member_classes(), weights=per_tuple[sig.members], minlength=classes.n_classes
    )
    return hits > 0


def known_mask(classes: ClassTable) -> np.ndarray:
    """Return, per class and QI, whether the class's value is known (not missing).

    Parameters
    ----------
    classes : ClassTable
        The classes over the QIs (with their signatures when they count people).

    Returns
    -------
    numpy.ndarray
        bool, shape (J, number of QIs).
    """
    cols = []
    for i, labels in enumerate(classes.labels):
        missing_codes = np.flatnonzero(missing_mask(labels))
        cols.append(~_missing_in(classes, i, missing_codes))
    if not cols:
        return np.zeros((classes.n_classes, 0), dtype=bool)
    return np.column_stack(cols)


def count_missing(classes: ClassTable) -> int:
    """Return the number of records with at least one missing QI value.

    Only the codes of QIs that have a missing value are read. When the
    classes count people, the number of people with a missing QI value on at
    least one of their rows.

    Parameters
    ----------
    classes : ClassTable
        The classes over the QIs, of records or of people.

    Returns
    -------
    int
        Records, or people when the classes count people; 0 when no QI has a missing value.
    """
    some = np.zeros(classes.n_classes, dtype=bool)
    for i, labels in enumerate(classes.labels):
        missing_codes = np.flatnonzero(missing_mask(labels))
        if len(missing_codes):
            some |= _missing_in(classes, i, missing_codes)
    return int(classes.sizes[some].sum())


def check_any_policy(classes: ClassTable) -> None:
    """Refuse the policy "any" on people whose rows carry different QI values.

    A missing value matching any value is defined between two records; a
    person whose rows carry several QI tuples is a set of tuples, and which
    sets are compatible is not defined by sdcMicro's convention. With a
    person column the policy "any" therefore needs each person's QIs to be
    one tuple (constant over their rows).

    Parameters
    ----------
    classes : ClassTable
        The classes over the QIs, of people when a person column is set.

    Raises
    ------
    RiskcoreError
        When a class of people holds several QI tuples.
    """
    sig = classes.signatures
    if sig is not None and not sig.single:
        many = classes.several_tuples
        raise RiskcoreError(
            f"a missing value matching any value is defined between records, and "
            f"{many:,} people have rows with different quasi-identifier values; "
            "judge missing values as a value of their own (missing 'own')"
        )


def count_unique_missing(classes: ClassTable) -> int:
    """Return the number of sample uniques with at least one missing QI value.

    A sample unique is a class of one record, a missing value counting as a value of its own.

    SUDA never uses a missing value in a minimal sample unique (sdcMicro's ``suda2``), so
    such a record is a special unique only when its known values alone single it out: these
    are the records the two counts can differ by.

    Parameters
    ----------
    classes : ClassTable
        The classes over the QIs.

    Returns
    -------
    int
        Classes of size 1 holding a missing value; 0 for no classes.
    """
    if not classes.n_classes:
        return 0
    one = classes.sizes == 1
    return int((one & ~known_mask(classes).all(axis=1)).sum())


#: Most QIs the policy "any" handles (a missing pattern is one int64 bit mask).
MAX_QIS = 62


def _patterns(known: np.ndarray) -> np.ndarray:
    """Return one integer per row: bit i set when QI i is known."""
    if known.shape[1] > MAX_QIS:
        raise RiskcoreError(
            f"a missing value matching any value is supported for up to {MAX_QIS} "
            f"quasi-identifiers, not {known.shape[1]}"
        )
    bits = np.left_shift(np.int64(1), np.arange(known.shape[1], dtype=np.int64))
    out: np.ndarray = (known.astype(np.int64) * bits).sum(axis=1, dtype=np.int64)
    return out


def compatible_sums(
    target_codes: list[np.ndarray],
    target_known: np.ndarray,
    source_codes: list[np.ndarray],
    source_known: np.ndarray,
    source_weight: np.ndarray,
    *,
    source_value: np.ndarray | None = None,
    n_values: int = 1,
    source_target: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sum, for every target row, the weights of the source rows compatible with it.

    A source row s is compatible with a target row r when they agree on every
    QI known in both (``target_known[r] & source_known[s]``); codes of unknown
    QIs are ignored. With ``source_value`` the sums are kept apart per value
    (a sparse target x value table).

    Parameters
    ----------
    target_codes, source_codes : list of numpy.ndarray
        One int64 code array per QI, codes shared by both sides.
    target_known, source_known : numpy.ndarray
        bool, shape (rows, QIs).
    source_weight : numpy.ndarray
        Weight of each source row.
    source_value : numpy.ndarray, optional
        Value code of each source row, in ``[0, n_values)``; default all 0.
    n_values : int, default 1
        The number of value codes of ``source_value``.
    source_target : numpy.ndarray, optional
        When the targets are distinct QI combinations (the classes of the
        ``"own"`` partition) and every source row belongs to one of them: the
        target of each source row. A source row of its target's own pattern
        is then compatible with that target alone and is added without a
        join (the largest join, complete records with complete records, is
        skipped).

    Returns
    -------
    target, value, weight : numpy.ndarray
        Sparse sums, one entry per present (target row, value), sorted by
        target then value.
    """
    n_s, m = len(source_known), target_known.shape[1]
    vals = (
        np.zeros(n_s, dtype=np.int64)
        if source_value is None
        else np.asarray(source_value, dtype=np.int64)
    )
    n_val = max(int(n_values), 1)
    w = np.asarray(source_weight, dtype=np.float64)
    cards = [
        int(max(t.max(initial=0), s.max(initial=0))) + 1
        for t, s in zip(target_codes, source_codes, strict=True)
    ]
    t_pat, s_pat = _patterns(target_known), _patterns(source_known)
    s_pats, s_inv = np.unique(s_pat, return_inverse=True)
    s_inv = s_inv.reshape(-1)
    out_t, out_v, out_w = [], [], []
    for a in np.unique(t_pat):
        t_rows = np.flatnonzero(t_pat == a)
        inter = s_pats & a
        for i in np.unique(inter):
            group = inter == i
            if source_target is not None and i == a and a in s_pats:
                own = s_inv == np.searchsorted(s_pats, a)
                out_t.append(source_target[own])
                out_v.append(vals[own])
                out_w.append(w[own])
                group &= s_pats != a
            s_rows = np.flatnonzero(group[s_inv])
            if len(s_rows):
                cols = [c for c in range(m) if int(i) >> c & 1]
                joined = _join(
                    len(t_rows),
                    [target_codes[c][t_rows] for c in cols],
                    [source_codes[c][s_rows] for c in cols],
                    [cards[c] for c in cols],
                    vals[s_rows] if n_val > 1 else None,
                    w[s_rows],
                    n_val,
                )
                if joined is not None:
                    out_t.append(t_rows[joined[0]])
                    out_v.append(joined[1])
                    out_w.append(joined[2])
    if not out_t:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0)
    key = np.concatenate(out_t) * n_val + np.concatenate(out_v)
    uniq, inv = np.unique(key, return_inverse=True)
    sums = np.bincount(inv.reshape(-1), weights=np.concatenate(out_w), minlength=len(uniq))
    return uniq // n_val, uniq % n_val, sums


def _join(
    n_t: int,
    t_codes: list[np.ndarray],
    s_codes: list[np.ndarray],
    cards: list[int],
    s_vals: np.ndarray | None,
    s_w: np.ndarray,
    n_val: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Join targets to sources on equal codes; return (target position, value, summed weight).

    The sources are counted per (key, value); each target is looked up among
    the sorted source keys (no sort of the target side).
    """
    if t_codes:
        key, _ = pack_keys([np.r_[t, s] for t, s in zip(t_codes, s_codes, strict=True)], cards)
        t_key, s_key = key[:n_t], key[n_t:]
    else:  # nothing known in common: every source row is compatible
        t_key = np.zeros(n_t, dtype=np.int64)
        s_key = np.zeros(len(s_w), dtype=np.int64)
    s_uniq, s_dense = np.unique(s_key, return_inverse=True)
    cell = s_dense.reshape(-1) * n_val + (0 if s_vals is None else s_vals)
    cells, inv = np.unique(cell, return_inverse=True)
    cell_w = np.bincount(inv.reshape(-1), weights=s_w, minlength=len(cells))
    pos = np.searchsorted(s_uniq, t_key)
    hit = np.flatnonzero(s_uniq[np.minimum(pos, len(s_uniq) - 1)] == t_key)
    owner = cells // n_val
    left = np.searchsorted(owner, pos[hit], side="left")
    count = np.searchsorted(owner, pos[hit], side="right") - left
    total = int(count.sum())
    if total == 0:
        return None
    ends = np.cumsum(count)
    idx = np.repeat(left, count) + np.arange(total) - np.repeat(ends - count, count)
    return np.repeat(hit, count), cells[idx] % n_val, cell_w[idx]


def compatible_sizes(classes: ClassTable, weights: np.ndarray | None = None) -> np.ndarray:
    """Return f_k of each class under "missing matches any value".

    Parameters
    ----------
    classes : ClassTable
        The classes of the ``"own"`` partition (every record of a class has
        the same f_k, so the classes stand for their records).
    weights : numpy.ndarray, optional
        A weight per class to sum instead of its size (the sum of the
        sampling weights of its records gives sdcMicro's F_k).

    Returns
    -------
    numpy.ndarray
        Per class, the sum over the classes compatible with it (itself
        included) of their sizes (int64), or of ``weights`` (float64).

    Raises
    ------
    RiskcoreError
        When the classes count people some of whom hold several QI tuples
        (:func:`check_any_policy`).
    """
    check_any_policy(classes)
    known = known_mask(classes)
    codes = list(classes.keys)
    w = classes.sizes if weights is None else np.asarray(weights, dtype=np.float64)
    t, _, s = compatible_sums(
        codes, known, codes, known, w, source_target=np.arange(classes.n_classes)
    )
    out = np.zeros(classes.n_classes, dtype=np.float64)
    out[t] = s
    if weights is None:
        return np.rint(out).astype(np.int64)
    return out


def compatible_contingency(classes: ClassTable, table: Contingency) -> Contingency:
    """Return each class's compatible set as a sparse class x sensitive-value table.

    Class j's cells count the sensitive values of every record compatible
    with j's records; ``class_sizes`` are their f_k. The sets overlap, so
    ``value_totals`` stay those of the whole table (the Q of t-closeness),
    not the sum of the cells.

    Parameters
    ----------
    classes : ClassTable
        The ``"own"`` classes ``table`` is numbered by.
    table : Contingency
        The ``"own"`` contingency of one sensitive attribute.

    Returns
    -------
    Contingency

    Raises
    ------
    RiskcoreError
        As :func:`compatible_sizes`.
    """
    check_any_policy(classes)
    known = known_mask(classes)
    codes = list(classes.keys)
    cc = table.cell_class
    t, v, s = compatible_sums(
        codes,
        known,
        [k[cc] for k in codes],
        known[cc],
        table.cell_count,
        source_value=table.cell_value,
        n_values=table.n_values,
        source_target=cc,
    )
    counts = np.rint(s).astype(np.int64)
    sizes = np.bincount(t, weights=counts, minlength=classes.n_classes).astype(np.int64)
    return replace(
        table,
        cell_class=t.astype(np.int64),
        cell_value=v.astype(np.int64),
        cell_count=counts,
        class_sizes=sizes,
    )
