"""Utility of a remediated table: what changed per column, two-way tables, a model's accuracy.

Every function compares a table *before* (as recorded) with the same table
*after* a remediation, records matched by their index: the remediated table
keeps the index of every record it releases (:func:`riskcore.deidentify.recipe.apply.apply_recipe`),
so a record missing from it was suppressed.

* :func:`column_change` (per column): the shares of records whose value is
  unchanged, changed (generalized, masked) or suppressed (the record
  removed, or its value made missing or ``*`` where it was present).
* :func:`value_counts` (per column): the counts of each value before and
  after on one axis, numbers in shared histogram bins.
* :func:`two_way` (two columns): their contingency tables before and after,
  with Cramer's V (Cramer 1946), the strength of their association:
  V = sqrt(chi2 / (n (min(r, c) - 1))), chi2 = sum (O - E)^2 / E over the
  cells, E = row total x column total / n; 0 for independent columns, 1
  when one determines the other.
* :func:`classification_utility`: the same classifier trained on the
  records of a training split before and after, its accuracy on the same
  held-out records (ARX's "classification accuracy" view; Iyengar 2002 used
  a model's accuracy as the utility of a generalization). The model is a
  categorical naive Bayes with Laplace smoothing, written from its
  definition (Manning, Raghavan & Schuetze 2008, section 13.2, eq. 13.7;
  Mitchell 1997, section 6.9): predict argmax_c log P(c) + sum_j log P(x_j | c),
  P(c) = N_c / N, P(x_j = v | c) = (N_{c,j,v} + 1) / (N_c + V_j), V_j the
  values of feature j in the training and test records. Every value is a
  category (a number, a band, a ZIP prefix), so generalized labels are
  features as they are. No scikit-learn: the model is a few array
  operations, and scikit-learn 1.9 would break diffprivlib (notes/toolchain).
  When one person can be several records (claims, visits), the split is by
  person (:func:`held_out_rows` with ``person``): with a patient's near-copy
  rows on both sides the model would be scored on records it has in effect
  seen, and the accuracy "as recorded" would be inflated (the group split of
  scikit-learn's ``GroupShuffleSplit``; Kaufman, Rosset, Perlich & Stitelman
  2012 call this leakage).

Values are compared by their text form (:func:`riskcore._values.value_text`:
39, 39.0 and "39" are one value), computed once per distinct value.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from riskcore._results import NOT_IN_JSON, Result
from riskcore._values import value_text
from riskcore.engine import encode_column
from riskcore.engine.people import person_codes
from riskcore.errors import RiskcoreError

__all__ = [
    "ClassificationUtility",
    "ColumnChange",
    "TwoWay",
    "classification_utility",
    "column_change",
    "cramers_v",
    "held_out_rows",
    "naive_bayes_scores",
    "natural_order",
    "texts",
    "two_way",
    "value_counts",
]

#: Texts that mark a value removed by a generalization or a suppression.
SUPPRESSED_TEXTS = frozenset({"*"})
#: The bars of a value-count chart at most (the rest in one "other values" bar).
TOP_VALUES = 25
#: Categories per side of a two-way table shown at most (the rest in "other").
TOP_TWO_WAY = 12


def texts(values: pd.Series) -> pd.Series:
    """Return the text form of every value (None for a missing one), one call per distinct value.

    Parameters
    ----------
    values : pandas.Series
        The column's values.

    Returns
    -------
    pandas.Series
        object dtype, the same index.
    """
    codes, uniques = pd.factorize(values, use_na_sentinel=True)
    words = np.asarray([value_text(v) for v in uniques] + [None], dtype=object)
    return pd.Series(words[codes], index=values.index, dtype=object)


def _check_pair(before: pd.DataFrame, after: pd.DataFrame, columns: Sequence[str]) -> None:
    for c in columns:
        if c not in before.columns or c not in after.columns:
            raise RiskcoreError(f"both tables need the column {c!r}")
    if not after.index.isin(before.index).all() or not after.index.is_unique:
        raise RiskcoreError(
            "the remediated table's rows must keep the index of the records they came from "
            "(each at most once): records are matched by it"
        )


@dataclass(frozen=True)
class ColumnChange(Result):
    """What a remediation did to one column's values.

    Attributes
    ----------
    column : str
        The column's name.
    records : int
        Records before.
    unchanged : int
        Released records whose value reads the same.
    changed : int
        Released records whose value reads differently (generalized, masked).
    suppressed : int
        Records removed, or whose value became missing or ``*`` where it was present.
    """

    column: str
    records: int
    unchanged: int
    changed: int
    suppressed: int

    @property
    def share_changed(self) -> float:
        """Return changed / records (NaN for an empty table)."""
        return self.changed / self.records if self.records else float("nan")

    @property
    def share_suppressed(self) -> float:
        """Return suppressed / records (NaN for an empty table)."""
        return self.suppressed / self.records if self.records else float("nan")


def column_change(before: pd.DataFrame, after: pd.DataFrame, column: str) -> ColumnChange:
    """Return the records of ``column`` unchanged, changed and suppressed (see the module).

    Parameters
    ----------
    before, after : pandas.DataFrame
        The table as recorded and remediated (records matched by index).
    column : str
        The column's name.

    Returns
    -------
    ColumnChange

    Raises
    ------
    RiskcoreError
        When a table lacks the column, or the remediated rows do not keep their records'
        index.
    """
    _check_pair(before, after, [column])
    old = texts(before[column]).reindex(after.index)
    new = texts(after[column])
    gone = (new.isna() | new.isin(SUPPRESSED_TEXTS)) & old.notna() & ~old.isin(SUPPRESSED_TEXTS)
    same = (old == new) | (old.isna() & new.isna())
    removed = len(before) - len(after)
    return ColumnChange(
        column=column,
        records=len(before),
        unchanged=int((same & ~gone).sum()),
        changed=int((~same & ~gone).sum()),
        suppressed=int(gone.sum()) + removed,
    )


def _bins(values: pd.Series, edges: np.ndarray) -> pd.Series:
    """Return the records of ``values`` per bin of ``edges``, labelled "[a, b)" (last "]")."""
    x = values.dropna().to_numpy(dtype=np.float64)
    counts, _ = np.histogram(np.clip(x, edges[0], edges[-1]), edges)
    fmt = "{:,.4g}".format
    labels = [
        f"[{fmt(a)}, {fmt(b)}{']' if i == len(edges) - 2 else ')'}"
        for i, (a, b) in enumerate(itertools.pairwise(edges))
    ]
    out = pd.Series(counts, index=labels, dtype=np.int64)
    if values.isna().any():
        out["(missing)"] = int(values.isna().sum())
    return out


_LEADING_NUMBER = re.compile(r"^[\[(]?\s*(-?\d+(?:\.\d+)?)")


def natural_order(labels: Sequence[str]) -> list[str]:
    """Return ``labels`` in reading order.

    By their leading number when every label starts with one ("0-19", "[20, 40)", "100"),
    else as given; "other ..." and "(missing)" last.

    Parameters
    ----------
    labels : sequence of str
        Value labels (generalized bands, categories, "other ...", "(missing)").

    Returns
    -------
    list of str
    """
    tail = [x for x in labels if x.startswith("other") or x == "(missing)"]
    head = [x for x in labels if x not in tail]
    numbers = [_LEADING_NUMBER.match(x) for x in head]
    if head and all(numbers):
        head = [x for _, x in sorted(zip([float(m.group(1)) for m in numbers if m], head,
                                         strict=True), key=lambda p: p[0])]  # fmt: skip
    return head + tail


def _text_counts(values: pd.Series, top: int) -> pd.Series:
    """Return the records of each text value: the ``top`` largest, the rest summed, in
    reading order (:func:`natural_order`; else largest first)."""
    counts = texts(values).fillna("(missing)").value_counts()  # largest first
    if len(counts) > top:
        rest = counts.iloc[top:]
        counts = counts.iloc[:top].copy()
        counts[f"other values ({len(rest):,})"] = int(rest.sum())
    return counts.astype(np.int64).reindex(natural_order([str(x) for x in counts.index]))


def _released_counts(before: pd.Series, released_as: pd.Series) -> pd.Series:
    """Return the recorded records per released label: numbers' labels in the order of the
    smallest recorded value of each (bands read low to high), others in reading order
    (:func:`natural_order`); "(missing)" last."""
    labels = texts(released_as).fillna("(missing)")
    counts = labels.value_counts()
    if pd.api.types.is_numeric_dtype(before) and not pd.api.types.is_bool_dtype(before):
        lowest = pd.Series(before.to_numpy(), index=labels.to_numpy()).groupby(level=0).min()
        order = lowest.drop("(missing)", errors="ignore").sort_values(kind="stable").index
        head = order.tolist()
        order_all = head + [x for x in counts.index if x not in set(head)]
    else:
        order_all = natural_order([str(x) for x in counts.index])
    return counts.reindex(order_all).astype(np.int64)


def value_counts(
    before: pd.Series,
    after: pd.Series,
    *,
    released_as: pd.Series | None = None,
    top: int = TOP_VALUES,
    bins: int = 20,
) -> pd.DataFrame:
    """Return the count of each value before and after, on one axis.

    A generalized column (numbers in bands such as "30-39" or "90+", dates in
    decades, codes masked) is counted, when ``released_as`` gives every recorded
    record's label (the hierarchy at the released level, before suppression), in
    those labels on both sides, so the chart compares like with like; the labels
    come from the hierarchy, never read back from their text. Otherwise a numeric column with
    more than ``top`` values before is counted in histogram bins (numpy's edges
    of the values before, at most ``bins``), labelled "[a, b)" (the last bin
    closed); the values after share the bins when they are numbers too.
    Otherwise each text value is a category, the ``top`` largest of each side
    shown and the rest summed in one "other values (N)" row; a missing value is
    "(missing)". The rows of the values before come first, then the values only
    found after (such as "*" for suppressed records).

    Parameters
    ----------
    before : pandas.Series
        The column as recorded.
    after : pandas.Series
        The column as released.
    released_as : pandas.Series, optional
        The label of each recorded record (same index as ``before``) at the
        released level, e.g. :func:`riskcore.deidentify.recipe.base.generalize_columns`
        of the recorded table, for a generalized column.
    top : int, default :data:`TOP_VALUES`
        Categories shown per side before the rest is summed.
    bins : int, default 20
        Most histogram bins of a numeric column.

    Returns
    -------
    pandas.DataFrame
        Columns ``value`` (str), ``before``, ``after`` (counts; 0 where a side has no
        such value).

    Raises
    ------
    RiskcoreError
        When ``released_as`` does not have one label per recorded record.
    """
    num = pd.api.types.is_numeric_dtype
    numeric = num(before) and not pd.api.types.is_bool_dtype(before)
    if released_as is not None and len(released_as) != len(before):
        raise RiskcoreError("give one released label per recorded record")
    if released_as is not None:  # generalized: both sides in the released labels
        b = _released_counts(before, released_as)
        a = texts(after).fillna("(missing)").value_counts().astype(np.int64)
    elif numeric and before.nunique() > top:
        edges = np.histogram_bin_edges(before.dropna().to_numpy(dtype=np.float64), bins=bins)
        b = _bins(before, edges)
        a = _bins(after, edges) if num(after) else _text_counts(after, top)
    else:
        b, a = _text_counts(before, top), _text_counts(after, top)
    both = pd.DataFrame({"before": b, "after": a.reindex(b.index, fill_value=0)})
    only_after = a.loc[~a.index.isin(b.index)]
    both = pd.concat([both, pd.DataFrame({"before": 0, "after": only_after})])
    out = both.astype(np.int64).reset_index(names="value")
    out["value"] = out["value"].astype(str)
    return out


def cramers_v(table: np.ndarray) -> float:
    """Return Cramer's V of a contingency table (Cramer 1946; see the module).

    Rows or columns without any record are dropped first. NaN when fewer than two
    rows or columns are left (an association needs two values on each side).

    Parameters
    ----------
    table : numpy.ndarray
        Counts, rows by columns.

    Returns
    -------
    float
        In [0, 1]: 0 for no association, 1 when one column determines the other; NaN
        as above.
    """
    t = np.asarray(table, dtype=np.float64)
    t = t[t.sum(axis=1) > 0][:, t.sum(axis=0) > 0]
    r, c = t.shape
    if r < 2 or c < 2:
        return float("nan")
    n = t.sum()
    expected = np.outer(t.sum(axis=1), t.sum(axis=0)) / n
    chi2 = float(((t - expected) ** 2 / expected).sum())
    return float(np.sqrt(chi2 / (n * (min(r, c) - 1))))


def _crosstab(a: pd.Series, b: pd.Series) -> pd.DataFrame:
    return pd.crosstab(texts(a).fillna("(missing)"), texts(b).fillna("(missing)"))


def _top(table: pd.DataFrame, top: int) -> pd.DataFrame:
    """Return ``table`` with its ``top`` largest rows and columns, the rest summed in "other"."""
    out = table
    for axis in (0, 1):
        totals = (out.sum(axis=1) if axis == 0 else out.sum(axis=0)).sort_values(
            ascending=False, kind="stable"
        )
        if len(totals) > top:
            keep, rest = totals.index[:top], totals.index[top:]
            if axis == 0:
                other = out.loc[rest].sum(axis=0).rename(f"other ({len(rest):,})")
                out = pd.concat([out.loc[keep], other.to_frame().T])
            else:
                other = out[rest].sum(axis=1).rename(f"other ({len(rest):,})")
                out = pd.concat([out[keep], other], axis=1)
    out = out.loc[natural_order([str(x) for x in out.index])]
    out = out[natural_order([str(x) for x in out.columns])]
    return out


@dataclass(frozen=True)
class TwoWay(Result):
    """Two columns' contingency tables before and after a remediation.

    Attributes
    ----------
    rows, columns : str
        The two columns (down, across).
    v_before, v_after : float
        Cramer's V of the full tables (NaN with fewer than two values on a side).
    cells_before, cells_after : int
        Non-empty cells of the full tables.
    shape_before, shape_after : tuple of int
        Values down and across.
    before, after : pandas.DataFrame
        The tables shown: at most :data:`TOP_TWO_WAY` values a side, the rest in "other"
        (not in JSON).
    """

    rows: str
    columns: str
    v_before: float
    v_after: float
    cells_before: int
    cells_after: int
    shape_before: tuple[int, int]
    shape_after: tuple[int, int]
    before: pd.DataFrame = field(default_factory=pd.DataFrame, compare=False, metadata=NOT_IN_JSON)
    after: pd.DataFrame = field(default_factory=pd.DataFrame, compare=False, metadata=NOT_IN_JSON)


def two_way(
    before: pd.DataFrame, after: pd.DataFrame, rows: str, columns: str, *, top: int = TOP_TWO_WAY
) -> TwoWay:
    """Return the contingency tables of two columns before and after (see the module).

    Parameters
    ----------
    before : pandas.DataFrame
        The table as recorded.
    after : pandas.DataFrame
        The table remediated, its records keeping their index in ``before``.
    rows : str
        The column whose values are the rows.
    columns : str
        The column whose values are the columns (not ``rows``).
    top : int, optional
        The most values kept a side in the tables shown (the rest summed in "other");
        Cramer's V and the cell counts use every value.

    Returns
    -------
    TwoWay
        Cramer's V, the counts of non-empty cells and the shapes, before and after.

    Raises
    ------
    RiskcoreError
        When a table lacks a column, the two columns are one, or the remediated rows do not
        keep their records' index.
    """
    if rows == columns:
        raise RiskcoreError("a two-way table needs two different columns")
    _check_pair(before, after, [rows, columns])
    tb, ta = _crosstab(before[rows], before[columns]), _crosstab(after[rows], after[columns])
    return TwoWay(
        rows=rows,
        columns=columns,
        v_before=cramers_v(tb.to_numpy()),
        v_after=cramers_v(ta.to_numpy()),
        cells_before=int((tb.to_numpy() > 0).sum()),
        cells_after=int((ta.to_numpy() > 0).sum()),
        shape_before=(int(tb.shape[0]), int(tb.shape[1])),
        shape_after=(int(ta.shape[0]), int(ta.shape[1])),
        before=_top(tb, top),
        after=_top(ta, top),
    )


def naive_bayes_scores(
    train: pd.DataFrame, labels: pd.Series, test: pd.DataFrame
) -> tuple[np.ndarray, np.ndarray]:
    """Return a categorical naive Bayes's classes and log scores of the test records.

    The model of the module (Manning et al. 2008, eq. 13.7, Laplace smoothing):
    score(c) = log(N_c / N) + sum_j log((N_{c,j,v_j} + 1) / (N_c + V_j)).

    Parameters
    ----------
    train : pandas.DataFrame
        The training records' features.
    labels : pandas.Series
        Their classes (aligned with ``train`` by position).
    test : pandas.DataFrame
        The records to score (the same columns).

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        The classes (text, in order of first appearance in ``labels``) and the scores,
        one row per test record and one column per class; the prediction is the
        column of the highest score (the first on a tie).
    """
    y, classes = pd.factorize(texts(labels).fillna("(missing)"))
    n_c = np.bincount(y, minlength=len(classes)).astype(np.float64)
    with np.errstate(divide="ignore"):
        scores = np.tile(np.log(n_c / max(len(y), 1)), (len(test), 1))
    for col in train.columns:
        both = pd.concat([texts(train[col]), texts(test[col])], ignore_index=True)
        codes, values = pd.factorize(both.fillna("(missing)"))
        v = len(values)
        x_train, x_test = codes[: len(train)], codes[len(train) :]
        counts = np.bincount(y * v + x_train, minlength=len(classes) * v).reshape(-1, v)
        logp = np.log((counts + 1.0) / (n_c[:, None] + v))
        scores += logp[:, x_test].T
    return np.asarray(classes, dtype=object), scores


@dataclass(frozen=True)
class ClassificationUtility(Result):
    """One classifier trained before and after a remediation, scored on the same records.

    Attributes
    ----------
    target : str
        The column predicted.
    features : tuple of str
    train, test : int
        Records of the training and held-out splits (of the table as recorded).
    test_released : int
        Held-out records the remediation released (the accuracy after is on these).
    accuracy_before, accuracy_after : float
        Share of held-out records predicted right (NaN without a record to score).
    baseline_before, baseline_after : float
        The same for always predicting the training split's most common class.
    seed : int
        Seed of the split.
    person : str or None
        The person column the split grouped by (no person on both sides), or
        None (records split one by one).
    train_people, test_people : int or None
        With ``person``: the people of the training and held-out splits.
    """

    target: str
    features: tuple[str, ...]
    train: int
    test: int
    test_released: int
    accuracy_before: float
    accuracy_after: float
    baseline_before: float
    baseline_after: float
    seed: int = 0
    person: str | None = None
    train_people: int | None = None
    test_people: int | None = None


def _accuracy(
    train: pd.DataFrame, test: pd.DataFrame, target: str, features: list[str]
) -> tuple[float, float]:
    if len(train) == 0 or len(test) == 0:
        return float("nan"), float("nan")
    classes, scores = naive_bayes_scores(train[features], train[target], test[features])
    truth = texts(test[target]).fillna("(missing)").to_numpy(dtype=object)
    predicted = classes[np.argmax(scores, axis=1)]
    common = texts(train[target]).fillna("(missing)").value_counts().index[0]
    return float(np.mean(predicted == truth)), float(np.mean(truth == common))


def held_out_rows(
    data: pd.DataFrame,
    *,
    test_share: float = 0.3,
    seed: int = 0,
    person: str | None = None,
) -> tuple[np.ndarray, int, int]:
    """Return which rows a seeded split holds out, and how many people it holds out of how many.

    Without ``person``, the rows are split one by one:
    ``numpy.random.default_rng(seed).permutation(n)``, the first
    round(test_share * n) rows of it held out (at least 1, at most n - 1).
    With ``person``, the people are split the same way (a group split, as
    scikit-learn's ``GroupShuffleSplit``): the people, numbered by their
    value's order of first appearance (numbers: by value), permuted by the
    seed, the first round(test_share * P) of the P people held out with all
    of their rows, so no person has rows on both sides; a row without a
    person is a person of its own. With one row per person the two splits
    hold out the same rows.

    Parameters
    ----------
    data : pandas.DataFrame
        The table as recorded.
    test_share : float, default 0.3
        Share of the rows (or of the people) held out, in (0, 1).
    seed : int, default 0
        The seed of the permutation (the same seed holds out the same rows).
    person : str, optional
        The person column.

    Returns
    -------
    held_out : numpy.ndarray
        bool per row (by position).
    held_out_units : int
        The people held out (the rows, without ``person``).
    units : int
        The people (the rows, without ``person``).

    Raises
    ------
    RiskcoreError
        For a share outside (0, 1), fewer than 2 rows (or people), or an
        unknown person column.
    """
    if not 0 < test_share < 1:
        raise RiskcoreError(f"the share held out must be between 0 and 1, not {test_share!r}")
    if person is None:
        unit, n_units = np.arange(len(data), dtype=np.int64), len(data)
    elif person not in data.columns:
        raise RiskcoreError(f"the table has no person column {person!r}")
    else:
        col = encode_column(data[person])
        unit, n_units = person_codes(col.codes, col.n_values - 1 if col.n_missing else None)
    if n_units < 2:
        what = "records" if person is None else "people"
        raise RiskcoreError(f"a classifier needs at least 2 {what} (one to train, one to test)")
    order = np.random.default_rng(seed).permutation(n_units)
    n_test = min(max(round(test_share * n_units), 1), n_units - 1)
    chosen = np.zeros(n_units, dtype=bool)
    chosen[order[:n_test]] = True
    return chosen[unit], n_test, n_units


def classification_utility(
    before: pd.DataFrame,
    after: pd.DataFrame,
    target: str,
    features: Sequence[str],
    *,
    test_share: float = 0.3,
    seed: int = 0,
    person: str | None = None,
) -> ClassificationUtility:
    """Return a naive Bayes's accuracy trained before and after a remediation (see the module).

    The records of the table as recorded are split once at random (``seed``,
    :func:`held_out_rows`): ``test_share`` held out, the rest for training;
    with ``person``, the people are split, each with all of their records,
    so that no person is on both sides. Before: trained on the training
    records as recorded, scored on the held-out ones. After: trained on the
    training records the remediation released, as released, scored on the
    held-out records it released.

    Parameters
    ----------
    before, after : pandas.DataFrame
        The table as recorded and remediated (records matched by index).
    target : str
        The column to predict.
    features : sequence of str
        The columns it is predicted from (not the target).
    test_share : float, default 0.3
        Share held out, in (0, 1).
    seed : int, default 0
        The seed of the split (:func:`held_out_rows`).
    person : str, optional
        The person column of ``before`` (the remediated table need not keep
        it): split by person; the share held out is then a share of the
        people.

    Returns
    -------
    ClassificationUtility

    Raises
    ------
    RiskcoreError
        For a missing column, no feature, the target among the features, a share outside
        (0, 1), fewer than 2 records (or people), or rows that do not keep their records'
        index.
    """
    feats = list(dict.fromkeys(features))
    if not feats:
        raise RiskcoreError("choose at least one column to predict from")
    if target in feats:
        raise RiskcoreError(f"{target!r} is the column predicted: it cannot be a feature too")
    _check_pair(before, after, [target, *feats])
    held, people, everyone = held_out_rows(before, test_share=test_share, seed=seed, person=person)
    test_idx = before.index[held]
    n_test = len(test_idx)
    is_test = after.index.isin(test_idx)
    acc_b, base_b = _accuracy(before.drop(test_idx), before.loc[test_idx], target, feats)
    acc_a, base_a = _accuracy(after[~is_test], after[is_test], target, feats)
    return ClassificationUtility(
        target=target,
        features=tuple(feats),
        train=len(before) - n_test,
        test=n_test,
        test_released=int(is_test.sum()),
        accuracy_before=acc_b,
        accuracy_after=acc_a,
        baseline_before=base_b,
        baseline_after=base_a,
        seed=seed,
        person=person,
        train_people=None if person is None else everyone - people,
        test_people=None if person is None else people,
    )
