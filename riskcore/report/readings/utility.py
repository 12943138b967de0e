"""Readings of a remediation's utility: per-column change, two-way tables, a model's accuracy."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from riskcore.report.readings._format import plural, short_share
from riskcore.utility.tables import ClassificationUtility, ColumnChange, TwoWay

__all__ = [
    "change_reading",
    "change_table",
    "classification_reading",
    "two_way_reading",
    "values_not_charted",
    "values_reading",
]

#: A change of Cramer's V at most this large reads as "keeps" the association.
V_KEPT = 0.05


def change_reading(change: ColumnChange) -> str:
    """Return one column's change in one line: the shares unchanged, changed and suppressed.

    Parameters
    ----------
    change : ColumnChange
        One column's change.

    Returns
    -------
    str
    """
    c = change
    if not c.records:
        return f"{c.column}: the table has no record."
    unchanged = c.unchanged / c.records
    return (
        f"{c.column}: {short_share(unchanged)} of the records keep their value, "
        f"{short_share(c.share_changed)} have it generalized or masked, "
        f"{short_share(c.share_suppressed)} have it suppressed."
    )


def values_reading(change: ColumnChange, counts: pd.DataFrame) -> str:
    """Return the reading under a column's before / after chart: its change and the bars.

    ``counts`` is :func:`riskcore.utility.tables.value_counts` of the column.

    Parameters
    ----------
    change : ColumnChange
        The column's change.
    counts : pandas.DataFrame
        Records per value before and after (``value``, ``before``, ``after``).

    Returns
    -------
    str
    """
    kinds_before = int((counts["before"] > 0).sum())
    kinds_after = int((counts["after"] > 0).sum())
    return (
        change_reading(change)
        + f" The chart shows {kinds_before:,} {plural(kinds_before, 'bar', 'bars')} as "
        f"recorded and {kinds_after:,} released."
    )


def change_table(changes: Sequence[ColumnChange]) -> pd.DataFrame:
    """Return one row per column: the shares of records unchanged, changed and suppressed.

    Columns ``column``, ``unchanged``, ``changed``, ``suppressed`` (shares, numbers).

    Parameters
    ----------
    changes : sequence of ColumnChange
        One per column.

    Returns
    -------
    pandas.DataFrame
    """
    return pd.DataFrame(
        [
            {
                "column": c.column,
                "unchanged": c.unchanged / c.records if c.records else math.nan,
                "changed": c.share_changed,
                "suppressed": c.share_suppressed,
            }
            for c in changes
        ],
        columns=["column", "unchanged", "changed", "suppressed"],
    )


def _v(x: float) -> str:
    return "undefined (one value on a side)" if math.isnan(x) else f"{x:.2f}"


def two_way_reading(tw: TwoWay) -> str:
    """Return a two-way table before and after in one line: its size and Cramer's V.

    Parameters
    ----------
    tw : TwoWay
        The two-way tables before and after.

    Returns
    -------
    str
    """
    (rb, cb), (ra, ca) = tw.shape_before, tw.shape_after
    text = (
        f"{tw.rows} against {tw.columns}: {rb:,} x {cb:,} values as recorded "
        f"({tw.cells_before:,} non-empty cells), {ra:,} x {ca:,} released "
        f"({tw.cells_after:,}). Their association (Cramer's V, 0 none to 1 complete) was "
        f"{_v(tw.v_before)} and is {_v(tw.v_after)}"
    )
    if math.isnan(tw.v_before) or math.isnan(tw.v_after):
        return text + "."
    delta = tw.v_after - tw.v_before
    if abs(delta) <= V_KEPT:
        return text + ": the release keeps it."
    return text + (": the release weakens it." if delta < 0 else ": the release strengthens it.")


def _pct(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{x:.1%}"


def classification_reading(cu: ClassificationUtility) -> str:
    """Return the classifier's accuracy before and after in one or two sentences.

    Parameters
    ----------
    cu : ClassificationUtility
        The accuracies before and after, and the guess's.

    Returns
    -------
    str
    """
    n = len(cu.features)
    trained, held = f"{cu.train:,} records", f"{cu.test:,} held-out records"
    if cu.person is not None and cu.train_people is not None and cu.test_people is not None:
        trained += f" of {cu.train_people:,} {plural(cu.train_people, 'person', 'people')}"
        held += (
            f" (of {cu.test_people:,} other {plural(cu.test_people, 'person', 'people')}: "
            f"split by {cu.person}, no person on both sides)"
        )
    text = (
        f"Predicting {cu.target} from {n:,} {plural(n, 'column', 'columns')}, a naive Bayes "
        f"classifier trained on {trained} is right for "
        f"{_pct(cu.accuracy_before)} of {held} as recorded and for "
        f"{_pct(cu.accuracy_after)} of the {cu.test_released:,} of them released (always "
        f"guessing the most common value: {_pct(cu.baseline_before)} and "
        f"{_pct(cu.baseline_after)})."
    )
    if not (math.isnan(cu.accuracy_before) or math.isnan(cu.accuracy_after)):
        drop = cu.accuracy_before - cu.accuracy_after
        if drop > 0.005:
            text += f" The remediation costs the model {drop:.1%} points of accuracy."
        elif drop < -0.005:
            text += f" The model does {-drop:.1%} points better on the release."
        else:
            text += " The remediation leaves the model's accuracy as it was."
    return text


def values_not_charted(columns: Sequence[str], limit: int) -> str:
    """Return the sentence naming the columns whose values a report does not chart.

    Parameters
    ----------
    columns : sequence of str
        The columns left out (empty: none).
    limit : int
        Columns charted at most.

    Returns
    -------
    str
        Empty when none is left out.
    """
    if not columns:
        return ""
    return (
        f"The report charts the values of {limit:,} columns at most; "
        f"{len(columns):,} more {plural(len(columns), 'is', 'are')} not charted: "
        + ", ".join(columns)
        + "."
    )
