"""t-closeness of a sensitive attribute, and the value orders its ordered distance reads.

The Earth Mover's Distance of each class's distribution to the whole table's
[L07]_, from the sparse class x value contingency of the engine contract
(:mod:`riskcore.engine.contract`), vectorized with numpy (no Python loop over
records or classes); the order of an attribute's values (its own for numbers,
booleans and dates, an ordered categorical's, or one given: text is never
sorted alphabetically) and the rule for missing values under the ordered
distance. l-diversity and the summary of both are in
:mod:`riskcore.metrics.diversity`.

Notation (``shared/notes/formulas.md``): classes j = 1..J over the
quasi-identifiers, f_j records in class j, n = sum f_j; per class, p_i the
share of sensitive value i and q_i its share in the whole table.

References
----------
.. [L07] N. Li, T. Li, S. Venkatasubramanian, "t-closeness: privacy beyond
   k-anonymity and l-diversity", ICDE 2007.
"""

from __future__ import annotations

import datetime
import functools
import numbers
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._lazy import is_frame, is_missing, missing_mask
from riskcore._validation import check_one_of
from riskcore.engine import Contingency, Engine
from riskcore.errors import RiskcoreError

__all__ = [
    "MAX_HIERARCHY_HEIGHT",
    "MAX_HIERARCHY_VALUES",
    "ValueHierarchy",
    "check_value_hierarchy",
    "has_natural_order",
    "order_choices",
    "order_values",
    "sensitive_hierarchies",
    "t_closeness_per_class",
]

#: The ground distance of t-closeness: ordered (numeric or ordinal values), equal
#: (categories) or hierarchical (categories under a generalization hierarchy).
Distance = Literal["ordered", "equal", "hierarchical"]
#: Every ground distance, in the order the CLI and the pages offer them.
DISTANCES: tuple[str, ...] = ("ordered", "equal", "hierarchical")

#: A sensitive attribute's generalization hierarchy for the hierarchical
#: distance, as ARX's CSV rows: ``(value, level 1, ..., top)`` per value, every
#: row of the same length, one label at the top.
ValueHierarchy = Sequence[Sequence[Any]]

#: The most levels above the values a hierarchy of the hierarchical distance
#: may have: the work is one equal-distance pass over the cells per level.
MAX_HIERARCHY_HEIGHT = 32
#: The most values (rows) a hierarchy of the hierarchical distance may list.
MAX_HIERARCHY_VALUES = 1_000_000

#: Where the order of an ordered attribute came from (stated in reports).
OrderSource = Literal["value", "categories", "given"]
#: Where missing values were ranked to get the reported t: below the lowest
#: value, above the highest, or either (both give the same t).
MissingRank = Literal["lowest", "highest", "either"]

_SHOWN = 5  # values quoted in an error message


def _missing_mask(labels: np.ndarray) -> np.ndarray:
    return missing_mask(labels)


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
    return all(isinstance(v, kinds) for v in labels if not is_missing(v))


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
    values = [v for v in labels if not is_missing(v)]
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
        The class x value counts of one sensitive attribute.
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


def check_value_hierarchy(rows: ValueHierarchy, attribute: str) -> tuple[tuple[Any, ...], ...]:
    """Check a hierarchy of the hierarchical distance and return it as a tuple of rows.

    Parameters
    ----------
    rows : sequence of sequences
        ``(value, level 1, ..., top)`` per value (ARX's CSV rows).
    attribute : str
        The sensitive attribute (named in messages).

    Returns
    -------
    tuple of tuples
        The rows, checked.

    Raises
    ------
    RiskcoreError
        When the rows are empty, of unequal length or without a level above
        the values, list a value twice, exceed :data:`MAX_HIERARCHY_VALUES`
        rows or :data:`MAX_HIERARCHY_HEIGHT` levels (checked before any
        work), have more than one label at the top, or give a label two
        parents at the level above.
    """
    if isinstance(rows, str | bytes) or not isinstance(rows, Iterable):
        raise RiskcoreError(f"the hierarchy of {attribute!r} must be rows of labels")
    out = tuple(tuple(r) for r in rows)
    if not out:
        raise RiskcoreError(f"the hierarchy of {attribute!r} has no row")
    if len(out) > MAX_HIERARCHY_VALUES:
        raise RiskcoreError(
            f"the hierarchy of {attribute!r} lists {len(out):,} values, more than the "
            f"{MAX_HIERARCHY_VALUES:,} the hierarchical distance allows"
        )
    width = len(out[0])
    if any(len(r) != width for r in out):
        raise RiskcoreError(f"every row of the hierarchy of {attribute!r} needs {width} labels")
    height = width - 1
    if height < 1:
        raise RiskcoreError(
            f"the hierarchy of {attribute!r} has no level above its values: the "
            "hierarchical distance needs at least one"
        )
    if height > MAX_HIERARCHY_HEIGHT:
        raise RiskcoreError(
            f"the hierarchy of {attribute!r} has {height} levels above its values, more than "
            f"the {MAX_HIERARCHY_HEIGHT} the hierarchical distance allows"
        )
    columns = [pd.Series([r[i] for r in out], dtype=object) for i in range(width)]
    if columns[0].duplicated().any():
        twice = columns[0][columns[0].duplicated()].iloc[0]
        raise RiskcoreError(f"the hierarchy of {attribute!r} lists the value {twice!r} twice")
    tops = columns[-1].drop_duplicates()
    if len(tops) > 1:
        raise RiskcoreError(
            f"the hierarchy of {attribute!r} has {len(tops):,} labels at its top level "
            f"({_quote(list(tops))}): the hierarchical distance needs one top (e.g. '*') "
            "so that every two values have a common ancestor"
        )
    for lo in range(1, height):
        pairs = pd.DataFrame({"a": columns[lo], "b": columns[lo + 1]}).drop_duplicates()
        split = pairs["a"].duplicated()
        if split.any():
            bad = pairs["a"][split].iloc[0]
            raise RiskcoreError(
                f"the hierarchy of {attribute!r} gives {bad!r} at level {lo} two parents at "
                f"level {lo + 1}: each group needs one parent"
            )
    return out


def sensitive_hierarchies(
    sensitive: Sequence[str],
    distance: Mapping[str, str | None],
    given: Mapping[str, ValueHierarchy],
) -> dict[str, tuple[tuple[Any, ...], ...]]:
    """Check the hierarchies of the sensitive attributes before any tabulation.

    Parameters
    ----------
    sensitive : sequence of str
        The sensitive attributes.
    distance : mapping of str to str or None
        Each one's ground distance (None: by type).
    given : mapping of str to rows
        The hierarchies given, ``(value, level 1, ..., top)`` per value.

    Returns
    -------
    dict of str to tuple of tuples
        The hierarchies, checked (:func:`check_value_hierarchy`).

    Raises
    ------
    RiskcoreError
        When a hierarchy names an attribute that is not sensitive, an
        attribute with the hierarchical distance has none, or one fails its
        checks.
    """
    unknown = sorted(set(map(str, given)) - set(sensitive))
    if unknown:
        raise RiskcoreError(f"a hierarchy is given for {unknown[0]!r}, not a sensitive attribute")
    for s in sensitive:
        if distance.get(s) == "hierarchical" and s not in given:
            raise RiskcoreError(
                f"the hierarchical distance of {s!r} needs its hierarchy "
                f"(assess(..., hierarchy={{{s!r}: rows}}), or --hierarchy {s}=FILE on the "
                "command line)"
            )
    return {s: check_value_hierarchy(rows, s) for s, rows in given.items()}


@functools.lru_cache(maxsize=8)
def _tree(
    rows: tuple[tuple[Any, ...], ...], attribute: str
) -> tuple[int, dict[Any, int], tuple[np.ndarray, ...]]:
    """Check a hierarchy once and return (H, the row of each value, the node of each row
    at each level 1..H-1): a lattice search judges many nodes with one hierarchy."""
    checked = check_value_hierarchy(rows, attribute)
    position: dict[Any, int] = {}
    for i, r in enumerate(checked):
        position.setdefault(r[0], i)
        position.setdefault(str(r[0]), i)
    nodes = tuple(
        pd.factorize(pd.Series([r[level] for r in checked], dtype=object))[0].astype(np.int64)
        for level in range(1, len(checked[0]) - 1)
    )
    return len(checked[0]) - 1, position, nodes


def _level_codes(
    table: Contingency, position: Mapping[Any, int], nodes: tuple[np.ndarray, ...]
) -> list[np.ndarray]:
    """Return, for each level 1..H-1, the node of each of the table's value codes.

    A missing value, which no hierarchy lists, is a leaf of its own joined to
    the others at the top only (an extra node at every level below it).
    """
    labels = np.asarray(table.labels, dtype=object)
    missing = _missing_mask(labels)
    row = np.full(len(labels), -1, dtype=np.int64)
    absent = []
    for code in np.flatnonzero(~missing):
        v = labels[code]
        at = position.get(v, position.get(str(v), -1))
        if at < 0:
            absent.append(v)
        row[code] = at
    if absent:
        raise RiskcoreError(
            f"the hierarchy of {table.attribute!r} leaves out {len(absent):,} of its values: "
            f"{_quote(absent)}; give every value a row"
        )
    out = []
    for level in nodes:
        n_nodes = int(level.max()) + 1 if len(level) else 0
        out.append(np.where(missing, n_nodes, level[np.maximum(row, 0)]).astype(np.int64))
    return out


def _hierarchical_emd(table: Contingency, rows: ValueHierarchy) -> np.ndarray:
    """Hierarchical-distance EMD per class [L07]_ (ARX ``HierarchicalDistanceTCloseness``).

    The ground distance of two values is the level of their lowest common
    ancestor over the height H. Li, Li and Venkatasubramanian (section 4.3)
    and ARX 3.9.2 compute D = sum over the inner nodes N of
    level(N)/H x min(pos_extra(N), neg_extra(N)), where extra(N) = sum of
    p_i - q_i over the values i below N and pos/neg_extra sum the positive
    and the negative extras of N's children. Since pos - neg = extra(N),
    min(pos, neg) = (sum_c |extra(c)| - |extra(N)|) / 2; summed over the
    tree, a node c at level l < H appears once as a child (level l + 1) and
    once as a parent (level l), and extra(root) = 0, so
    D = 1/(2H) sum_{l=0..H-1} sum_{N at level l} |extra(N)|: the mean, over
    the levels below the top, of the equal distance of the values
    generalized to that level. The values are ranked in the hierarchy's
    depth-first order and the cells sorted once by (class, rank): then the
    cells of one class under one node are a run at every level, summed with
    ``np.add.reduceat`` (no sort per level). Per level, as the equal
    distance: D_l = (1/2)(1 + sum over the (class, node) runs of
    (|P(N) - Q(N)| - Q(N))).
    """
    if not isinstance(rows, tuple) or not all(isinstance(r, tuple) for r in rows[:1]):
        rows = check_value_hierarchy(rows, table.attribute)  # hashable, for the cache
    try:
        height, position, nodes = _tree(rows, table.attribute)
    except TypeError:  # an unhashable label: checked without the cache
        height, position, nodes = _tree.__wrapped__(rows, table.attribute)
    n_classes = len(table.class_sizes)
    if not len(table.cell_count):  # classes without records: no distribution to compare
        return np.zeros(n_classes)
    levels = [np.arange(table.n_values, dtype=np.int64), *_level_codes(table, position, nodes)]
    rank = np.empty(table.n_values, dtype=np.int64)
    rank[np.lexsort(levels)] = np.arange(table.n_values)  # the top level is the primary key
    key = table.cell_class * np.int64(table.n_values) + rank[table.cell_value]
    order = np.argsort(key, kind="stable")  # cells come sorted by class: nearly sorted
    cls_, val = table.cell_class[order], table.cell_value[order]
    p = table.cell_count[order] / table.class_sizes[cls_]
    q = table.value_totals / table.value_totals.sum()
    new_class = np.r_[True, cls_[1:] != cls_[:-1]]
    total = np.zeros(n_classes)
    for codes in levels:
        node = codes[val]
        starts = np.flatnonzero(new_class | np.r_[True, node[1:] != node[:-1]])
        q_node = np.bincount(codes, weights=q, minlength=int(codes.max()) + 1)[node[starts]]
        gap = np.abs(np.add.reduceat(p, starts) - q_node) - q_node
        total += np.bincount(cls_[starts], weights=gap, minlength=n_classes)
    total += height
    total /= 2 * height
    return _unit(total)


def _equal_emd(table: Contingency) -> np.ndarray:
    """Equal-distance EMD per class: (1/2)(1 + sum_present(|p_i - q_i| - q_i))."""
    n_classes = len(table.class_sizes)
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
    return s


def t_closeness_per_class(
    table: Contingency,
    distance: Distance | None = None,
    *,
    order: Iterable[Any] | None = None,
    hierarchy: ValueHierarchy | None = None,
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
    * hierarchical distance (categories under a generalization hierarchy of
      height H, section 4.3 of [L07]_, ARX 3.9.2
      ``HierarchicalDistanceTCloseness``): two values are level(LCA)/H apart,
      LCA their lowest common ancestor, and
      D = sum_{inner N} level(N)/H min(pos_extra(N), neg_extra(N)),
      computed as 1/(2H) sum_{l=0..H-1} sum_{N at level l} |extra(N)| (see
      :func:`_hierarchical_emd`). A missing value, which no hierarchy lists,
      meets the other values at the top only (distance 1).

    Missing values under the ordered distance have no rank. They count as
    one more value (m includes it), ranked once below the lowest value and
    once above the highest, and each class keeps the larger distance:
    D_j = max(D_j^low, D_j^high), so t = max(t^low, t^high), the more
    conservative of the two rankings.

    Parameters
    ----------
    table : Contingency
        The class x value counts of one sensitive attribute; its class sizes give
        the whole table's distribution Q.
    distance : {"ordered", "equal", "hierarchical"}, optional
        Default: "ordered" when the attribute's codes are ordered (numeric),
        "equal" otherwise.
    order : sequence, optional
        For the ordered distance: every value, lowest first (required for
        text; numbers default to their own order).
    hierarchy : sequence of sequences, optional
        For the hierarchical distance (required): ``(value, level 1, ...,
        top)`` per value, one top label (:func:`check_value_hierarchy`).

    Returns
    -------
    numpy.ndarray
        D[P_j, Q] per class, in [0, 1]; t-closeness is the maximum.

    Raises
    ------
    RiskcoreError
        When the ordered distance is asked of text without an order, or the
        order leaves out a value (see :func:`order_values`); when the
        hierarchical distance has no hierarchy, or one that leaves out a
        value or fails :func:`check_value_hierarchy`.
    """
    if distance is None:
        distance = "ordered" if table.ordered else "equal"
    check_one_of("distance", distance, DISTANCES)
    n_classes = len(table.class_sizes)
    if n_classes == 0:
        return np.zeros(0)
    if distance == "ordered":
        return _ordered_t(table, order)[0]
    if distance == "hierarchical":
        if hierarchy is None:
            raise RiskcoreError(
                f"the hierarchical distance of {table.attribute!r} needs the attribute's "
                f"hierarchy (assess(..., hierarchy={{{table.attribute!r}: rows}}), or "
                f"--hierarchy {table.attribute}=FILE on the command line)"
            )
        return _hierarchical_emd(table, hierarchy)
    return _unit(_equal_emd(table))


def _value_orders(
    engine: Engine,
    sens: tuple[str, ...],
    dist: dict[str, str | None],
    given: Mapping[str, Iterable[Any]],
) -> tuple[dict[str, Iterable[Any]], dict[str, OrderSource]]:
    """Return the value order of each sensitive attribute that has one, and its source.

    A given order wins; otherwise an ordered pandas Categorical gives its
    categories (the engine must expose its DataFrame as ``df``, as
    :class:`~riskcore.engine.EncodedTable` does). An attribute with an order
    and no distance gets the ordered distance (``dist`` is updated).
    """
    unknown = sorted(set(map(str, given)) - set(sens))
    if unknown:
        raise RiskcoreError(f"an order is given for {unknown[0]!r}, not a sensitive attribute")
    frame = getattr(engine, "df", None)
    orders: dict[str, Iterable[Any]] = {}
    sources: dict[str, OrderSource] = {}
    for s in sens:
        if s in given:
            if dist[s] == "equal":
                raise RiskcoreError(
                    f"an order is given for {s!r} but its distance is 'equal'; "
                    "use the ordered distance or drop the order"
                )
            orders[s], sources[s] = given[s], "given"
        elif is_frame(frame) and s in frame.columns:
            dtype = frame[s].dtype
            if isinstance(dtype, pd.CategoricalDtype) and dtype.ordered:
                orders[s], sources[s] = list(dtype.categories), "categories"
        if s in orders and dist[s] is None:
            dist[s] = "ordered"
    return orders, sources
