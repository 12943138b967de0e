"""l-diversity of a sensitive attribute, and the summary of its l-diversity and t-closeness.

Every function here takes the small tables of the engine contract (:mod:`riskcore.engine.contract`)
(class sizes, the sparse class x value contingency) and is vectorized with
numpy: no Python loop runs over records or classes. t-closeness (the
ordered and equal distances, value orders) is in
:mod:`riskcore.metrics.closeness`; :func:`sensitive_metrics` gathers both
into a :class:`DiversityResult`.

Notation (``shared/notes/formulas.md``): classes j = 1..J over the
quasi-identifiers, f_j records in class j, n = sum f_j; per class, p_i the
share of sensitive value i and q_i its share in the whole table.

References
----------
.. [M07] A. Machanavajjhala, D. Kifer, J. Gehrke, M. Venkitasubramaniam,
   "l-diversity: privacy beyond k-anonymity", ACM TKDD 1(1), 2007.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from riskcore._results import NOT_IN_JSON, Result
from riskcore._validation import check_one_of, check_positive
from riskcore.engine import Contingency

# t-closeness moved to riskcore.metrics.closeness; its public names stay importable from here
from riskcore.metrics.closeness import (
    DISTANCES,
    Distance,
    MissingRank,
    OrderKind,
    OrderSource,
    ValueHierarchy,
    _missing_mask,
    _ordered_t,
    has_natural_order,
    order_choices,
    order_values,
    t_closeness_per_class,
)

__all__ = [
    "Distance",
    "DiversityResult",
    "MissingRank",
    "OrderKind",
    "OrderSource",
    "class_majority",
    "distinct_l_per_class",
    "entropy_per_class",
    "has_natural_order",
    "order_choices",
    "order_values",
    "recursive_l_per_class",
    "sensitive_metrics",
    "t_closeness_per_class",
]

# ---------------------------------------------------------------- l-diversity


def distinct_l_per_class(table: Contingency) -> np.ndarray:
    """Count distinct sensitive values in each class [M07]_.

    Parameters
    ----------
    table : Contingency
        The class x value counts of one sensitive attribute (a missing value is a
        value).

    Returns
    -------
    numpy.ndarray
        Number of distinct values per class; distinct l is its minimum.
    """
    return table.class_cells  # read-only, shared with the table


def entropy_per_class(table: Contingency) -> np.ndarray:
    """Compute the entropy of the sensitive value in each class [M07]_.

    H_j = -sum_s p(s) ln p(s), p(s) the share of class j with value s.
    Entropy l-diversity is exp(min_j H_j); a class with m equally frequent
    values has H = ln m, hence entropy l = m.

    Parameters
    ----------
    table : Contingency
        The class x value counts of one sensitive attribute.

    Returns
    -------
    numpy.ndarray
        H_j in nats per class.
    """
    several = table.several  # a class of one value has H = 0
    cls_ = table.cell_class[several]
    p = table.cell_count[several] / np.take(table.class_sizes, cls_, mode="clip")
    h = np.bincount(cls_, weights=p * np.log(p), minlength=len(table.class_sizes))
    h = np.asarray(h, dtype=np.float64)  # float even without cells
    np.negative(h, out=h)
    return np.maximum(0.0, h, out=h)


def recursive_l_per_class(table: Contingency, c: float) -> np.ndarray:
    """Compute the largest l for which each class is recursive (c,l)-diverse [M07]_.

    With a class's counts sorted r_1 >= r_2 >= ... >= r_m, the class is
    (c,l)-diverse iff r_1 < c (r_l + r_{l+1} + ... + r_m). The tail sum falls
    as l grows, so the l that hold are 1..L_j; L_j is returned (1 at least:
    every class is trivially 1-diverse, so 1 means "no diversity").

    Parameters
    ----------
    table : Contingency
        The class x value counts of one sensitive attribute.
    c : float
        The constant c > 0 (default in the assessment: 2).

    Returns
    -------
    numpy.ndarray
        L_j per class.

    Notes
    -----
    A class of one cell has L_j = 1 whatever c, so only the cells of
    classes with two or more are sorted (by class, then count descending).
    """
    c = _check_c(c)
    n_classes = len(table.class_sizes)
    big_l = np.ones(n_classes, dtype=np.int64)
    several = table.several
    if not len(several):
        return big_l
    cls_, cnt = table.cell_class[several], table.cell_count[several]
    # number those classes 0, 1, ... (their cells are adjacent): every array below is as
    # long as these cells, not as the table's classes
    new_class = np.r_[True, cls_[1:] != cls_[:-1]]
    which = cls_[new_class]
    local = np.cumsum(new_class) - 1
    # sort by class, then count descending (ties do not matter: only sums do)
    local_s, cnt_s = _by_class_count_descending(local, cnt)
    class_cells = np.bincount(local_s, minlength=len(which)).astype(np.int64)
    starts = np.repeat(np.cumsum(class_cells) - class_cells, class_cells)  # each cell's start
    csum = np.cumsum(cnt_s)
    before = csum - cnt_s  # sum of counts before this cell, over all classes
    tail = table.class_sizes[which][local_s] - (before - before[starts])  # r_i + ... + r_m
    ok = cnt_s[starts] < c * tail
    counted = np.bincount(local_s, weights=ok, minlength=len(which)).astype(np.int64)
    big_l[which] = np.maximum(counted, 1)
    return big_l


def _by_class_count_descending(cls_: np.ndarray, cnt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return cells' classes and counts ordered by class, then count descending.

    (class, count) pairs are packed into one integer, class * B + (B - 1 -
    count) with B above every count, and sorted by value (numpy's vectorized
    sort, several times faster than a lexsort); a lexsort when the packed
    integer would not fit int64.
    """
    top = int(cnt.max()) + 1
    if (int(cls_.max()) + 1) * top < 2**63:
        packed = cls_ * top + (top - 1 - cnt)
        packed.sort()
        cls_s = packed // top
        return cls_s, top - 1 - (packed - cls_s * top)
    order = np.lexsort((-cnt, cls_))
    return cls_[order], cnt[order]


def class_majority(table: Contingency) -> tuple[np.ndarray, np.ndarray]:
    """Find the most frequent sensitive value of each class and its count.

    The majority of class j is argmax_s f_j(s); its share f_j(s) / f_j is
    the confidence of an attacker who knows the class (homogeneity attack
    [M07]_, attribute disclosure in a linkage attack). Ties go to the
    smallest value code, deterministically.

    Parameters
    ----------
    table : Contingency
        The class x value counts of one sensitive attribute.

    Returns
    -------
    count : numpy.ndarray
        max_s f_j(s) per class (int64; 0 for a class without cells).
    code : numpy.ndarray
        Value code of that majority per class (int64; -1 for a class
        without cells).

    Notes
    -----
    Cells are sorted by class, then value code (the contract), so the
    largest count of each class is a reduction over its run of cells and
    the first cell reaching it has the smallest code: O(cells), no sort.
    """
    n_classes = len(table.class_sizes)
    count = np.zeros(n_classes, dtype=np.int64)
    code = np.full(n_classes, -1, dtype=np.int64)
    if not len(table.cell_count):
        return count, code
    cells, starts = table.class_cells, table.class_starts
    if len(table.cell_count) == n_classes and not len(table.several):  # one cell per class
        count[:] = table.cell_count
        code[:] = table.cell_value
        return count, code
    first = np.minimum(starts, len(table.cell_count) - 1)  # a class without cells: fixed below
    np.take(table.cell_count, first, out=count, mode="clip")  # a class of one cell: that cell
    np.take(table.cell_value, first, out=code, mode="clip")
    if len(table.cell_count) < n_classes or len(table.several):
        empty = cells == 0
        count[empty], code[empty] = 0, -1
    several = table.several
    if len(several):
        multi = np.flatnonzero(cells > 1)
        cls_, cnt = table.cell_class[several], table.cell_count[several]
        run = np.cumsum(cells[multi]) - cells[multi]  # each class's first cell in ``several``
        count[multi] = np.maximum.reduceat(cnt, run)
        top = several[cnt == count[cls_]]
        cls_top = table.cell_class[top]
        first = top[np.r_[True, cls_top[1:] != cls_top[:-1]]]
        code[table.cell_class[first]] = table.cell_value[first]
    return count, code


def _check_c(c: float) -> float:
    return check_positive("c", c)


# ---------------------------------------------------------------- summary


@dataclass(frozen=True, eq=False)
class DiversityResult(Result):
    """l-diversity and t-closeness of one sensitive attribute.

    Attributes
    ----------
    attribute : str
        Sensitive attribute.
    n_values : int
        m, distinct values in the whole table (missing counted as a value).
    distinct_l : int
        min_j of distinct values per class (higher is safer).
    entropy_l : float
        exp(min_j H_j) (higher is safer).
    recursive_l : int
        Largest l with every class recursive (c,l)-diverse (higher is safer).
    c : float
        The c of recursive (c,l)-diversity.
    t_closeness : float
        max_j D[P_j, Q] (lower is safer).
    distance : {"ordered", "equal", "hierarchical"}
        Ground distance used for t.
    homogeneous_classes : int
        Classes whose records all share one value (the value is disclosed).
    homogeneous_records : int
        Records in those classes.
    n_missing : int
        Records whose value is missing (one more value of the attribute).
    order_source : {"value", "categories", "given"} or None
        Ordered distance only: where the order of the values came from (the
        values themselves, an ordered categorical, or the caller).
    missing_rank : {"lowest", "highest", "either"} or None
        Ordered distance with missing values only: where ranking the missing
        value gave the larger t, the one reported (see
        :func:`t_closeness_per_class`).
    per_class : dict of str to numpy.ndarray
        ``distinct``, ``entropy``, ``recursive_l``, ``t``, ``top_share``
        per class (not in :meth:`to_dict`; None for a result read back with
        :meth:`from_dict`). Which classes fail a target is judged by
        :mod:`riskcore.criteria`, never here.
    """

    attribute: str
    n_values: int
    distinct_l: int
    entropy_l: float
    recursive_l: int
    c: float
    t_closeness: float
    distance: str
    homogeneous_classes: int
    homogeneous_records: int
    n_missing: int = 0
    order_source: str | None = None
    missing_rank: str | None = None
    per_class: dict[str, np.ndarray] | None = field(default=None, repr=False, metadata=NOT_IN_JSON)


def sensitive_metrics(
    table: Contingency,
    *,
    c: float = 2.0,
    distance: Distance | None = None,
    order: Iterable[Any] | None = None,
    order_source: OrderSource = "given",
    records: np.ndarray | None = None,
    hierarchy: ValueHierarchy | None = None,
) -> DiversityResult:
    """Compute every l-diversity and t-closeness figure of one sensitive attribute.

    Parameters
    ----------
    table : Contingency
        From an engine's tabulation (:class:`riskcore.engine.Tabulation`).
    c : float, default 2
        The c of recursive (c,l)-diversity.
    distance : {"ordered", "equal", "hierarchical"}, optional
        Ground distance for t-closeness; default by attribute type.
    order : iterable, optional
        Ordered distance: the values, lowest first (required for text; see
        :func:`t_closeness_per_class` for the rule on missing values).
    order_source : {"given", "categories"}, default "given"
        Where ``order`` came from, stated in the result (ignored without it).
    records : numpy.ndarray, optional
        Records each class stands for when the classes overlap (the
        compatible sets of the missing-value policy "any",
        :func:`riskcore.metrics.missing.compatible_contingency`); default the
        class sizes. Only the count of records in homogeneous classes reads it.
    hierarchy : rows, optional
        The hierarchical distance's hierarchy, ``(value, level 1, ..., top)``
        per value (required by it).

    Returns
    -------
    DiversityResult

    Raises
    ------
    RiskcoreError
        When the ordered distance is asked of text without an order, or the
        order leaves out a value.
    """
    c = _check_c(c)
    if distance is None:
        distance = "ordered" if table.ordered or order is not None else "equal"
    check_one_of("distance", distance, DISTANCES)
    distinct = distinct_l_per_class(table)
    entropy = entropy_per_class(table)
    rec = recursive_l_per_class(table, c)
    empty = len(table.class_sizes) == 0
    source: str | None = None
    missing_rank: str | None = None
    if distance == "ordered":
        source = "value" if order is None else order_source
        t, missing_rank = _ordered_t(table, order)
    else:
        t = t_closeness_per_class(table, distance, hierarchy=hierarchy)
    top = class_majority(table)[0].astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        top_share = top / table.class_sizes
    homog = distinct == 1
    return DiversityResult(
        attribute=table.attribute,
        n_values=table.n_values,
        distinct_l=0 if empty else int(distinct.min()),
        entropy_l=0.0 if empty else float(np.exp(entropy.min())),
        recursive_l=0 if empty else int(rec.min()),
        c=c,
        t_closeness=0.0 if empty else float(t.max()),
        distance=distance,
        homogeneous_classes=int(homog.sum()),
        homogeneous_records=int((table.class_sizes if records is None else records)[homog].sum()),
        n_missing=int(table.value_totals[_missing_mask(table.labels)].sum()),
        order_source=source,
        missing_rank=missing_rank,
        per_class={
            "distinct": distinct,
            "entropy": entropy,
            "recursive_l": rec,
            "t": t,
            "top_share": top_share,
        },
    )
