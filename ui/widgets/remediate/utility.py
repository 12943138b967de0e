"""The Remediate page's utility views: what the generalization at the chosen levels keeps.

Per column the shares of records unchanged, changed and suppressed, one column's values as
recorded and released, a two-way table of two columns, and a naive Bayes's accuracy trained
on each (:mod:`riskcore.utility.tables`; sentences from
:mod:`riskcore.report.readings.utility`, figures from :mod:`riskcore.report.figures.utility`).
Results are kept in session state (:func:`ui.widgets.remediate.candidates.kept`).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from riskcore.deidentify.recipe.base import generalize_columns
from riskcore.deidentify.search.lattice import Lattice
from riskcore.errors import RiskcoreError
from riskcore.report.figures.utility import (
    accuracy_bars,
    change_bars,
    two_way_heatmap,
    value_bars,
)
from riskcore.report.readings.utility import (
    change_table,
    classification_reading,
    two_way_reading,
    values_reading,
)
from riskcore.utility.tables import classification_utility, column_change, two_way, value_counts
from ui.core import keys
from ui.core.safe import md
from ui.widgets.remediate.candidates import kept

__all__ = ["utility_section"]


def _counts(
    data: pd.DataFrame, after: pd.DataFrame, lattice: Lattice, levels: tuple[int, ...], col: str
) -> pd.DataFrame:
    """Count ``col`` as recorded and released; a generalized QI's recorded values are
    counted in the labels of its level (the hierarchy's, not read back from text)."""
    at = dict(zip(lattice.quasi_identifiers, levels, strict=True))
    released_as = None
    if at.get(col, 0) > 0:
        released_as = generalize_columns(data[[col]], lattice.hierarchies, {col: at[col]})[col]
    return value_counts(data[col], after[col], released_as=released_as)


def utility_section(
    data: pd.DataFrame,
    lattice: Lattice,
    levels: Sequence[int],
    *,
    lattice_key: str,
    sensitive: Sequence[str] = (),
) -> None:
    """Draw the utility views of the table generalized to ``levels`` (suppression included).

    ``data`` is the table the lattice was built from, as recorded.
    """
    qis = list(lattice.quasi_identifiers)
    lv = tuple(int(x) for x in levels)
    base = f"{lattice_key}|{lv}"
    st.subheader("Utility: what the release keeps")
    if not st.toggle(
        "Show the utility views (each column before and after, a two-way table, a model's "
        "accuracy; computed once per combination of levels)",
        key=keys.REM_UTIL_SHOW,
    ):
        return
    after = kept("released", base, lambda: lattice.apply(data, lv), keep=1)  # a whole table
    if len(after) == 0:
        st.info("These levels suppress every record: nothing is released to compare.")
        return
    shown_cols = list(dict.fromkeys([*qis, *sensitive]))
    changes = kept("changes", base, lambda: [column_change(data, after, c) for c in shown_cols])
    st.plotly_chart(change_bars(change_table(changes)), key=keys.REM_UTIL_CHANGE_CHART)
    gone = len(data) - len(after)
    st.caption(
        md(
            "Quasi-identifiers and sensitive attributes; every other column keeps its values "
            + (
                f"and loses the {gone:,} suppressed records."
                if lattice.person is None
                else f"and loses the {gone:,} rows of the suppressed people."
            )
        )
    )
    col = st.selectbox("Column as recorded and released", shown_cols, key=keys.REM_UTIL_COLUMN)
    counts = kept(f"counts|{col}", base, lambda: _counts(data, after, lattice, lv, col))
    st.plotly_chart(value_bars(counts, col), key=keys.REM_UTIL_VALUES_CHART)
    st.caption(md(values_reading(changes[shown_cols.index(col)], counts)))

    columns = [str(c) for c in data.columns]
    r1, r2 = st.columns(2)
    default_b = sensitive[0] if sensitive and sensitive[0] != qis[0] else columns[-1]
    rows = r1.selectbox("Two-way table: down", columns, index=columns.index(qis[0]),
                        key=keys.REM_UTIL_ROWS)  # fmt: skip
    across = r2.selectbox("across", columns, index=columns.index(default_b),
                          key=keys.REM_UTIL_COLS)  # fmt: skip
    try:
        tw = kept(f"two|{rows}|{across}", base, lambda: two_way(data, after, rows, across))
    except RiskcoreError as exc:
        st.info(md(exc))
    else:
        top = max(tw.before.to_numpy().max(initial=0), tw.after.to_numpy().max(initial=0))
        h1, h2 = st.columns(2)
        h1.plotly_chart(two_way_heatmap(tw, after=False, zmax=top), key=keys.REM_UTIL_TWO_BEFORE)
        h2.plotly_chart(two_way_heatmap(tw, after=True, zmax=top), key=keys.REM_UTIL_TWO_AFTER)
        st.caption(md(two_way_reading(tw)))

    c1, c2 = st.columns([1, 2])
    target_default = sensitive[0] if sensitive else columns[-1]
    target = c1.selectbox("Predict", columns, index=columns.index(target_default),
                          key=keys.REM_UTIL_TARGET)  # fmt: skip
    features = c2.multiselect("from", [c for c in columns if c != target],
                              default=[q for q in qis if q != target],
                              key=keys.REM_UTIL_FEATURES)  # fmt: skip
    features = [f for f in features if f != target]
    try:
        cu = kept(
            f"model|{target}|{features}",
            base,
            # split by person with one: no patient's rows on both sides of the split
            lambda: classification_utility(data, after, target, features, person=lattice.person),
        )
    except RiskcoreError as exc:
        st.info(md(exc))
        return
    st.plotly_chart(accuracy_bars(cu), key=keys.REM_UTIL_ACCURACY_CHART)
    st.caption(md(classification_reading(cu)))
