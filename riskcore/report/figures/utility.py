"""Figures of a remediation's utility and of two candidate solutions compared.

Every chart takes a display table or a result (:mod:`riskcore.utility.tables`,
:mod:`riskcore.deidentify.search.candidates`) and states its units in the axis titles.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from riskcore.deidentify.search.candidates import Comparison
from riskcore.report.figures._style import (
    ACCENT,
    GREY,
    NEUTRAL,
    YELLOW,
    category_axis,
    layout,
    legend_below,
    row_height,
    tick_label,
)
from riskcore.utility.tables import ClassificationUtility, TwoWay

__all__ = [
    "accuracy_bars",
    "change_bars",
    "column_ncp_bars",
    "two_way_heatmap",
    "value_bars",
]


def value_bars(counts: pd.DataFrame, column: str) -> go.Figure:
    """Records per value of a column as recorded and released, on one axis (horizontal bars).

    ``counts`` is :func:`riskcore.utility.tables.value_counts`. Values found
    on both sides stand side by side; a generalized column's values (bins
    or categories as recorded, then its labels released) follow each other
    on the same axis and the same scale of records. Horizontal, so that
    every label has a row of its own however many there are.

    Parameters
    ----------
    counts : pandas.DataFrame
        One row per value: ``value``, ``before`` and ``after`` counts.
    column : str
        The column's name.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    both = bool(((counts["before"] > 0) & (counts["after"] > 0)).any())
    fig = go.Figure()
    for side, name, color in (("before", "as recorded", GREY), ("after", "released", NEUTRAL)):
        fig.add_trace(
            go.Bar(
                y=counts["value"],
                x=counts[side],
                orientation="h",
                name=name,
                marker_color=color,
                hovertemplate=f"%{{y}}: %{{x:,}} records {name}<extra></extra>",
            )
        )
    category_axis(fig, counts["value"], axis="y")
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(tickformat=",", rangemode="tozero")
    fig.update_layout(barmode="group" if both else "overlay", legend_traceorder="normal")
    layout(
        fig,
        f"Values of {column}, as recorded and released",
        "records (people)",
        f"value of {column} (a generalized column's labels after its values)",
    )
    legend_below(fig)
    texts = [tick_label(v, 32) for v in counts["value"]]
    per_row = row_height(texts) * (1.6 if both else 1.0)  # two bars a row when grouped
    # at least 340 px: the axis title (two lines) stays within the plot of a two-value column
    fig.update_layout(height=max(340, 180 + int(per_row * max(len(counts), 1))))
    return fig


def change_bars(table: pd.DataFrame) -> go.Figure:
    """Share of records per column that keep their value, have it changed or suppressed.

    ``table`` is :func:`riskcore.report.readings.utility.change_table`; one
    stacked horizontal bar per column, summing to 100%.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per column: ``column``, ``unchanged``, ``changed``, ``suppressed`` (shares).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure()
    for part, color in (("unchanged", NEUTRAL), ("changed", YELLOW), ("suppressed", ACCENT)):
        fig.add_trace(
            go.Bar(
                y=table["column"],
                x=table[part] * 100,
                orientation="h",
                name=part,
                marker_color=color,
                hovertemplate=f"%{{y}}: %{{x:.1f}}% {part}<extra></extra>",
            )
        )
    category_axis(fig, table["column"], axis="y")
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(range=[0, 100], ticksuffix="%")
    fig.update_layout(barmode="stack", legend_traceorder="normal")
    layout(
        fig,
        "What the remediation did to each column's values",
        "share of the records (%): unchanged, generalized or masked, suppressed",
        "column",
    )
    legend_below(fig)
    texts = [tick_label(c, 32) for c in table["column"]]
    fig.update_layout(height=160 + row_height(texts) * max(len(table), 1))
    return fig


def two_way_heatmap(tw: TwoWay, *, after: bool, zmax: float | None = None) -> go.Figure:
    """Records per pair of values of two columns, as recorded or released (a heatmap).

    ``zmax`` sets the top of the colour scale (give both figures the larger
    of their maxima, so that a colour is the same count in both).

    Parameters
    ----------
    tw : TwoWay
        The two-way tables as recorded and released.
    after : bool
        Draw the released table (else the one as recorded).
    zmax : float, optional
        The top of the colour scale (default the table's largest count).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    table = tw.after if after else tw.before
    which = "released" if after else "as recorded"
    fig = go.Figure(
        go.Heatmap(
            z=table.to_numpy(),
            x=[str(c) for c in table.columns],
            y=[str(r) for r in table.index],
            colorscale="Blues",
            zmin=0,
            zmax=zmax,
            text=table.to_numpy(),
            texttemplate="%{text:,}",
            colorbar={"title": {"text": "records"}},
            hovertemplate="%{y} and %{x}: %{z:,} records<extra></extra>",
        )
    )
    category_axis(fig, table.columns, axis="x")
    category_axis(fig, table.index, axis="y")
    fig.update_yaxes(autorange="reversed")
    layout(
        fig,
        f"{tw.rows} against {tw.columns}, {which} (records per pair of values)",
        f"{tw.columns} (value)",
        f"{tw.rows} (value)",
    )
    fig.update_layout(height=max(380, 140 + 28 * len(table)))
    return fig


def accuracy_bars(cu: ClassificationUtility) -> go.Figure:
    """A naive Bayes's accuracy as recorded and released, beside the most-common-value guess.

    Parameters
    ----------
    cu : ClassificationUtility
        The accuracies before and after, and the guess's.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    x = ["as recorded", "released"]
    fig = go.Figure()
    for name, values, color in (
        ("naive Bayes", [cu.accuracy_before, cu.accuracy_after], NEUTRAL),
        ("always the most common value", [cu.baseline_before, cu.baseline_after], GREY),
    ):
        fig.add_trace(
            go.Bar(
                x=x,
                y=[v * 100 for v in values],
                name=name,
                marker_color=color,
                text=[f"{v:.1%}" for v in values],
                textposition="outside",
                hovertemplate=f"%{{x}}: {name} right for %{{y:.1f}}%<extra></extra>",
            )
        )
    fig.update_layout(barmode="group")
    fig.update_yaxes(range=[0, 105], ticksuffix="%")
    layout(
        fig,
        f"Predicting {cu.target}: accuracy on the same held-out records",
        "table the classifier was trained and tested on",
        "held-out records predicted right (%)",
    )
    legend_below(fig)
    return fig


def column_ncp_bars(cmp: Comparison) -> go.Figure:
    """Each QI's information loss (NCP) under two candidates A and B, side by side.

    Parameters
    ----------
    cmp : Comparison
        The two candidates compared, with each QI's NCP.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    qis = list(cmp.quasi_identifiers)
    fig = go.Figure()
    for name, values, color in (
        ("A", cmp.column_ncp_a, NEUTRAL),
        ("B", cmp.column_ncp_b, YELLOW),
    ):
        fig.add_trace(
            go.Bar(
                y=qis,
                x=[values[q] * 100 for q in qis],
                orientation="h",
                name=name,
                marker_color=color,
                hovertemplate=f"%{{y}}: NCP %{{x:.1f}}% under {name}<extra></extra>",
            )
        )
    category_axis(fig, qis, axis="y")
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(range=[0, 100], ticksuffix="%")
    fig.update_layout(barmode="group")
    layout(
        fig,
        "Information lost per quasi-identifier, candidate A against B",
        "information lost in the column (NCP, %)",
        "quasi-identifier",
    )
    legend_below(fig)
    texts = [tick_label(q, 32) for q in qis]
    fig.update_layout(height=160 + 2 * row_height(texts) * max(len(qis), 1))
    return fig
