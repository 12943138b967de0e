"""l-diversity and t-closeness of a sensitive attribute, from the sparse contingency.

Every function here takes the small tables of the engine contract (:mod:`riskcore.engine.contract`)
(class sizes, the sparse class x value contingency) and is vectorized with
numpy: no Python loop runs over records or classes.

Notation (``shared/notes/formulas.md``): classes j = 1..J over the
quasi-identifiers, f_j records in class j, n = sum f_j; per class, p_i the
share of sensitive value i and q_i its share in the whole table.

References
----------
.. [M07] A. Machanavajjhala, D. Kifer, J. Gehrke, M. Venkitasubramaniam,
   "l-diversity: privacy beyond k-anonymity", ACM TKDD 1(1), 2007.
.. [L07] N. Li, T. Li, S. Venkatasubramanian, "t-closeness: privacy beyond
   k-anonymity and l-diversity", ICDE 2007.
"""

from __future__ import annotations

import datetime
import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
import pandas as pd

from riskcore._results import NOT_IN_JSON, Result
from riskcore._validation import check_one_of, check_positive
from riskcore.engine import Contingency
from riskcore.errors import RiskcoreError

Distance = Literal["ordered", "equal"]


# ---------------------------------------------------------------- l-diversity


def distinct_l_per_class(table: Contingency) -> np.ndarray:
    """Count distinct sensitive values in each class [M07]_.

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


# ---------------------------------------------------------------- t-closeness

#: Where the order of an ordered attribute came from (stated in reports).
OrderSource = Literal["value", "categories", "given"]
#: Where missing values were ranked to get the reported t: below the lowest
#: value, above the highest, or either (both give the same t).
MissingRank = Literal["lowest", "highest", "either"]

_SHOWN = 5  # values quoted in an error message


def _missing_mask(labels: np.ndarray) -> np.ndarray:
    return np.asarray(pd.isna(np.asarray(labels, dtype=object)), dtype=bool)


def _quote(values: Sequence[Any]) -> str:
    shown = ", ".join(repr(v) for v in values[:_SHOWN])
    more = len(values) - _SHOWN
    return shown + (f" and {more:,} more" if more > 0 else "")


def has_natural_order(labels: Iterable[Any]) -> bool:
    """Say whether values order themselves: numbers, booleans, dates and durations.

    Text has no order the data can be trusted with (sorting it gives the
    alphabet: 'Bachelors' < 'Doctorate' < 'HS-grad'), so text needs an order
    from the caller or from an ordered categorical. Missing values are ignored.

    Parameters
    ----------
    labels : sequence
        The distinct values of an attribute.

    Returns
    -------
    bool
    """
    kinds = (numbers.Real, np.datetime64, np.timedelta64, datetime.date, datetime.timedelta)
    return all(isinstance(v, kinds) for v in labels if not pd.isna(v))


#: Where an attribute's order can come from: its values, an ordered
#: categorical's categories, or nowhere in the data (the caller must give it).
OrderKind = Literal["value", "categories", "needed"]


def order_choices(dtype: Any, labels: Iterable[Any]) -> tuple[OrderKind, list[Any]]:
    """Say where an attribute's order comes from, and list the values to order by hand.

    Parameters
    ----------
    dtype : pandas or numpy dtype
        The column's dtype.
    labels : iterable
        Its distinct values (e.g. ``EncodedTable.column(name).labels``).

    Returns
    -------
    kind : {"value", "categories", "needed"}
        "value" for numbers, booleans and dates, "categories" for an ordered
        categorical, "needed" for text (an order must be given).
    values : list
        When an order is needed, the values without the missing one: in
        category order for a categorical, alphabetical otherwise (a starting
        point to pick from, not an order); empty otherwise.
    """
    if isinstance(dtype, pd.CategoricalDtype) and dtype.ordered:
        return "categories", []
    values = [v for v in labels if not pd.isna(v)]
    if has_natural_order(values):
        return "value", []
    if isinstance(dtype, pd.CategoricalDtype):
        present = set(values)
        return "needed", [v for v in dtype.categories if v in present]
    return "needed", sorted(values, key=str)


def order_values(table: Contingency, order: Iterable[Any] | None = None) -> Contingency:
    """Renumber a contingency's values so that code order is value order.

    The order is the one given (lowest first), or, without one, the natural
    order of numbers, booleans and dates. Only the values observed in the
    table are ranked (values of the order absent from the table are
    ignored); missing values, if any, become one value with the last code.

    Parameters
    ----------
    table : Contingency
    order : sequence, optional
        Every value of the attribute, lowest first. Needed for text.

    Returns
    -------
    Contingency
        The same cells with ``ordered=True`` and codes renumbered.

    Raises
    ------
    RiskcoreError
        When the values are text and no order is given, the order repeats a
        value, or values of the table are missing from it.
    """
    labels = np.asarray(table.labels, dtype=object)
    m = len(labels)
    missing = _missing_mask(labels)
    present = np.flatnonzero(~missing)
    name = table.attribute
    if order is None:
        if not has_natural_order(labels):
            raise RiskcoreError(
                f"ordered distance on {name!r} needs the order of its values, lowest first: "
                f"text has no order of its own (sorting it would give the alphabet). Give the "
                f"order (assess(..., order={{{name!r}: [lowest, ..., highest]}}), or "
                f"--order {name}=LOWEST,...,HIGHEST on the command line), make "
                f"the column an ordered pandas Categorical, or use the equal distance. "
                f"Its values: {_quote(list(labels[present]))}."
            )
        if table.ordered and (not missing.any() or np.flatnonzero(missing).tolist() == [m - 1]):
            return table  # the engine's codes already follow value order, missing last
        rank = np.argsort(pd.Index(list(labels[present])), kind="stable")
    else:
        if isinstance(order, str | bytes) or not isinstance(order, Iterable):
            raise RiskcoreError(f"the order of {name!r} must be a list of values, lowest first")
        position: dict[Any, int] = {}
        for i, v in enumerate(order):
            if v in position:
                raise RiskcoreError(f"the order of {name!r} lists {v!r} twice")
            position[v] = i
        absent = [v for v in labels[present] if v not in position]
        if absent:
            raise RiskcoreError(
                f"the order of {name!r} leaves out {len(absent):,} of its values: "
                f"{_quote(absent)}; list every value, lowest first"
            )
        rank = np.argsort([position[v] for v in labels[present]], kind="stable")
    new_code = np.full(m, len(present), dtype=np.int64)  # every missing label: one last code
    new_code[present[rank]] = np.arange(len(present))
    new_labels = np.empty(len(present) + int(missing.any()), dtype=object)
    new_labels[: len(present)] = labels[present[rank]]
    return _recoded(table, new_code, new_labels)


def _recoded(table: Contingency, new_code: np.ndarray, new_labels: np.ndarray) -> Contingency:
    """Return the table with value codes renumbered, its value totals carried over.

    The totals are renumbered, not re-summed from the cells: under the
    missing-value policy "any" the classes overlap and the cells add up to
    more than the table (:func:`riskcore.metrics.missing.compatible_contingency`).
    """
    out = Contingency.from_cells(
        table.attribute,
        table.cell_class,
        new_code[table.cell_value],
        table.cell_count,
        n_classes=len(table.class_sizes),
        labels=new_labels,
        ordered=True,
    )
    totals = np.bincount(new_code, weights=table.value_totals, minlength=len(new_labels))
    return replace(out, value_totals=totals.astype(np.int64))


def _missing_first(table: Contingency) -> Contingency:
    """Move the missing value of an ordered table (its last code) to the first code."""
    m = table.n_values
    code = np.r_[np.arange(1, m), 0]
    return _recoded(table, code, np.r_[table.labels[-1:], table.labels[:-1]])


def _ordered_emd(table: Contingency) -> np.ndarray:
    """Ordered-distance EMD per class of a table whose codes follow value order.

    D_j = (1/(m-1)) sum_i |CP_j(i) - CQ(i)|. A class's CP is a step
    function: 0 below its first value, then the share of the class reached
    at each of its values, 1 from its last value on. With pref(i) =
    sum_{t<i} CQ(t) and CQ non-decreasing, each step sums in closed form:
    the leading one to pref(v_1), the last one to (m - v_r) - (pref(m) -
    pref(v_r)), and a middle one at level c over [a, b) to
    c (k - a) - (pref(k) - pref(a)) + (pref(b) - pref(k)) - c (b - k), k the
    first i in [a, b] with CQ(i) >= c (a binary search over the m values).
    Only classes of two or more values have middle steps; shares are exact
    ratios of integer counts.
    """
    n_classes = len(table.class_sizes)
    m = table.n_values
    if m <= 1:
        return np.zeros(n_classes)
    if not len(table.cell_value):  # classes without records: no distribution to compare
        return np.zeros(n_classes)
    q = table.value_totals / table.value_totals.sum()
    cq = np.cumsum(q)  # CQ(i) for i = 0..m-1, non-decreasing
    pref = np.concatenate(([0.0], np.cumsum(cq)))  # pref[i] = sum_{t<i} CQ(t)
    cls_, val = table.cell_class, table.cell_value
    cells, starts = table.class_cells, table.class_starts
    inner = table.several  # the cells of classes with two values or more
    # every class as if of one value v (v_1 = v_r): pref(v) + (m - v) - (pref(m) - pref(v))
    v = np.take(val, np.minimum(starts, len(val) - 1), mode="clip")
    total = np.take(pref, v, mode="clip")
    total *= 2.0
    total -= v
    total += m - pref[m]
    if len(val) < n_classes or len(inner):  # classes without cells, or of several values
        empty = cells == 0
        total[empty] = 0.0
        multi = np.flatnonzero(cells > 1)
        last_val = val[starts[multi] + cells[multi] - 1]
        first_val = v[multi]
        total[multi] = pref[first_val] + (m - last_val) - (pref[m] - pref[last_val])
    if len(inner):
        sub_cls, sub_val = cls_[inner], val[inner]
        sub_cnt = table.cell_count[inner]
        new_class = np.r_[True, sub_cls[1:] != sub_cls[:-1]]
        csum = np.cumsum(sub_cnt)
        class_first = np.maximum.accumulate(np.where(new_class, np.arange(len(inner)), 0))
        reached = csum - (csum - sub_cnt)[class_first]  # records of the class up to this value
        mid = np.flatnonzero(~np.r_[new_class[1:], True])  # every cell but its class's last
        a, b = sub_val[mid], sub_val[mid + 1]
        level = reached[mid] / table.class_sizes[sub_cls[mid]]
        k = np.clip(np.searchsorted(cq, level, side="left"), a, b)
        steps = level * (k - a) - (pref[k] - pref[a]) + (pref[b] - pref[k]) - level * (b - k)
        total += np.bincount(sub_cls[mid], weights=steps, minlength=n_classes)
    total /= m - 1
    return _unit(total)


def _unit(x: np.ndarray) -> np.ndarray:
    """Clip to [0, 1] in place (rounding may step just outside)."""
    np.minimum(x, 1.0, out=x)
    np.maximum(x, 0.0, out=x)
    return x


def _ordered_t(
    table: Contingency, order: Iterable[Any] | None
) -> tuple[np.ndarray, MissingRank | None]:
    """Ordered distance per class with the missing-value rule; which end gave the larger t."""
    ranked = order_values(table, order)
    if len(ranked.class_sizes) == 0:
        return np.zeros(0), None
    if not _missing_mask(ranked.labels[-1:]).any() or ranked.n_values < 2:
        return _ordered_emd(ranked), None
    high = _ordered_emd(ranked)
    low = _ordered_emd(_missing_first(ranked))
    t_low, t_high = (float(d.max()) if len(d) else 0.0 for d in (low, high))
    rank: MissingRank = "either" if t_low == t_high else "lowest" if t_low > t_high else "highest"
    return np.maximum(low, high), rank


def t_closeness_per_class(
    table: Contingency,
    distance: Distance | None = None,
    *,
    order: Iterable[Any] | None = None,
) -> np.ndarray:
    """Compute the Earth Mover's Distance of each class to the whole table [L07]_.

    P = class distribution, Q = whole-table distribution over the m values,
    r_i = p_i - q_i.

    * equal distance (categorical): D = (1/2) sum_i |r_i|. Cells absent from
      a class contribute q_i and sum q = 1, so it is computed from the present
      cells only: D = (1/2) (1 + sum_present (|p_i - q_i| - q_i)). A missing
      value is one more category.
    * ordered distance (numeric or ordinal), over the m values observed in
      the table ranked lowest first:
      D = (1/(m-1)) sum_{i=1..m} |sum_{j<=i} r_j|.
      Numbers, booleans and dates are ranked by value; text needs ``order``
      (it is never sorted alphabetically). The class's cumulative
      distribution is constant between its present values and the table's
      is non-decreasing, so each constant run is summed in closed form with
      prefix sums and a binary search (no dense class x value matrix).

    Missing values under the ordered distance have no rank. They count as
    one more value (m includes it), ranked once below the lowest value and
    once above the highest, and each class keeps the larger distance:
    D_j = max(D_j^low, D_j^high), so t = max(t^low, t^high), the more
    conservative of the two rankings.

    Parameters
    ----------
    table : Contingency
    distance : {"ordered", "equal"}, optional
        Default: "ordered" when the attribute's codes are ordered (numeric),
        "equal" otherwise.
    order : sequence, optional
        For the ordered distance: every value, lowest first (required for
        text; numbers default to their own order).

    Returns
    -------
    numpy.ndarray
        D[P_j, Q] per class, in [0, 1]; t-closeness is the maximum.

    Raises
    ------
    RiskcoreError
        When the ordered distance is asked of text without an order, or the
        order leaves out a value (see :func:`order_values`).
    """
    if distance is None:
        distance = "ordered" if table.ordered else "equal"
    check_one_of("distance", distance, ("ordered", "equal"))
    n_classes = len(table.class_sizes)
    if n_classes == 0:
        return np.zeros(0)
    if distance == "ordered":
        return _ordered_t(table, order)[0]
    if not len(table.cell_count):  # classes without records: no distribution to compare
        return np.zeros(n_classes)
    q = table.value_totals / table.value_totals.sum()
    p = table.cell_count / np.take(table.class_sizes, table.cell_class, mode="clip")
    qv = np.take(q, table.cell_value, mode="clip")
    p -= qv
    np.abs(p, out=p)
    p -= qv
    s = np.asarray(
        np.bincount(table.cell_class, weights=p, minlength=n_classes), dtype=np.float64
    )  # float even without cells
    s += 1.0
    s *= 0.5
    return _unit(s)


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
    distance : {"ordered", "equal"}
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
        per class, for failing-class tables (not in :meth:`to_dict`; None
        for a result read back with :meth:`from_dict`).
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

    def failing_classes(
        self,
        *,
        l: int | None = None,  # noqa: E741 - the name used by the papers
        entropy_l: float | None = None,
        t: float | None = None,
    ) -> np.ndarray:
        """Return the ids of classes failing any of the given targets.

        Parameters
        ----------
        l : int, optional
            Target for distinct l and recursive (c,l) (a class fails when
            either is below it).
        entropy_l : float, optional
            Target for entropy l.
        t : float, optional
            Target for t-closeness (a class fails when its distance exceeds t).
        """
        pc = self.per_class
        if pc is None:
            raise ValueError(
                "this result has no per-class figures (it was read back from JSON); "
                "assess the data again to list failing classes"
            )
        bad = np.zeros(len(pc["distinct"]), dtype=bool)
        if l is not None:
            bad |= (pc["distinct"] < l) | (pc["recursive_l"] < l)
        if entropy_l is not None:
            bad |= np.exp(pc["entropy"]) < entropy_l * (1 - 1e-12)
        if t is not None:
            bad |= pc["t"] > t + 1e-12
        return np.flatnonzero(bad)


def sensitive_metrics(
    table: Contingency,
    *,
    c: float = 2.0,
    distance: Distance | None = None,
    order: Iterable[Any] | None = None,
    order_source: OrderSource = "given",
    records: np.ndarray | None = None,
) -> DiversityResult:
    """Compute every l-diversity and t-closeness figure of one sensitive attribute.

    Parameters
    ----------
    table : Contingency
        From an engine's tabulation (:class:`riskcore.engine.Tabulation`).
    c : float, default 2
        The c of recursive (c,l)-diversity.
    distance : {"ordered", "equal"}, optional
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
    check_one_of("distance", distance, ("ordered", "equal"))
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
        t = t_closeness_per_class(table, "equal")
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
