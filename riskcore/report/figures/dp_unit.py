"""Figures of the person as the unit of privacy: rows per person, and what a bound costs."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from riskcore.dp.contributions import BoundTradeoff, RowsPerPerson
from riskcore.report.figures._style import (
    ACCENT,
    GREEN,
    NEUTRAL,
    YELLOW,
    layout,
    legend_below,
    log_ticks,
    reference_line,
)
from riskcore.report.readings._format import format_number, mechanism_label, plural

__all__ = ["bound_tradeoff_chart", "rows_per_person_chart"]

#: Bars of the rows-per-person histogram: one per number of rows up to this, then one for
#: every person with more.
ROW_BARS = 40


def rows_per_person_chart(rows: RowsPerPerson, c: int) -> go.Figure:
    """Return the histogram of rows per person, the people a bound of c cuts in red.

    One bar per number of rows m (people with m rows), up to :data:`ROW_BARS`, then one
    bar for everyone with more; the people with more than c rows (who lose rows to the
    bound) in the risk colour, a dotted line at c. Read from the data: the title says so.

    Parameters
    ----------
    rows : RowsPerPerson
        How many people have each number of rows.
    c : int
        The bound on rows per person.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    counts = rows.people_by_rows[1:]
    m = np.arange(1, counts.size + 1)
    labels = [str(v) for v in m[:ROW_BARS]]
    people = counts[:ROW_BARS].tolist()
    if counts.size > ROW_BARS:
        labels.append(f"more than {ROW_BARS}")
        people.append(int(counts[ROW_BARS:].sum()))
        m = m[: ROW_BARS + 1]
    cut = m > c
    rows_c = f"{c:,} {plural(c, 'row', 'rows')}"
    fig = go.Figure()
    for mask, name, color in (
        (~cut, f"people with at most {rows_c}: every row kept", NEUTRAL),
        (cut, f"people with more than {rows_c}: {c:,} of their rows kept", ACCENT),
    ):
        if mask.any():
            fig.add_trace(
                go.Bar(
                    x=[labels[i] for i in np.flatnonzero(mask)],
                    y=[people[i] for i in np.flatnonzero(mask)],
                    name=name,
                    marker_color=color,
                    hovertemplate="%{x} rows: %{y:,} people<extra></extra>",
                )
            )
    if c < len(labels):  # the bound between the bars of c and c + 1 rows
        reference_line(fig, f"bound c = {c:,}", x=c - 0.5, side="right")
    fig.update_xaxes(type="category", categoryorder="array", categoryarray=labels)
    fig.update_yaxes(tickformat=",")
    fig = layout(
        fig,
        f"How many rows each person has ({rows.person}): read from the data, not protected",
        "rows per person",
        "people",
    )
    legend_below(fig)
    fig.update_layout(height=400, bargap=0.15)
    return fig


def bound_tradeoff_chart(t: BoundTradeoff, *, unit: str) -> go.Figure:
    """Return the error from rows left out, the noise and their sum against the bound c.

    The error from rows left out falls as c grows (read from the data); the noise's
    half-width grows in proportion to c; the total, their sum, is a (1 - alpha) bound on
    the distance from the answer over every row. A marker at the chosen c. The error
    axis is logarithmic: on a count the rows left out run to thousands while the noise
    is tens, and a linear axis flattened the noise onto zero (an error of exactly 0, once
    c keeps every row, is not drawn).

    Parameters
    ----------
    t : BoundTradeoff
        The error from rows left out, the noise and their total per bound c.
    unit : str
        The query's unit ("rows", "amount units").

    Returns
    -------
    plotly.graph_objects.Figure
    """
    conf = f"{1 - t.alpha:.0%}"
    # an error of 0 (every row kept) has no place on a log axis: a gap, not a plunge
    dropped = np.abs(t.dropped_error)
    dropped = np.where(dropped > 0, dropped, np.nan)
    fig = go.Figure()
    for y, name, color, dash in (
        (
            dropped,
            "|error from rows left out| (read from the data)",
            ACCENT,
            "dash",
        ),
        (t.noise, f"{mechanism_label(t.mechanism)} noise, {conf} half-width", YELLOW, "dot"),
        (t.total, f"total: the release within +/- this ({conf})", NEUTRAL, "solid"),
    ):
        fig.add_trace(
            go.Scatter(
                x=t.bounds,
                y=y,
                mode="lines",
                name=name,
                line={"color": color, "dash": dash, "width": 3 if dash == "solid" else 2},
                hovertemplate="c = %{x}: %{y:,.4g}<extra></extra>",
            )
        )
    i = t.at(t.chosen)
    fig.add_trace(
        go.Scatter(
            x=[t.chosen],
            y=[float(t.total[i])],
            mode="markers",
            marker={"color": GREEN, "size": 11, "symbol": "diamond"},
            name=f"chosen c = {t.chosen:,}",
            hoverinfo="skip",
        )
    )
    reference_line(
        fig,
        f"c = {t.chosen:,}: +/- {format_number(float(t.total[i]), digits=4)}",
        x=t.chosen,
        color=GREEN,
        side="right" if t.chosen <= (1 + t.bounds[-1]) / 2 else "left",
    )
    fig.update_xaxes(range=[0.5, float(t.bounds[-1]) + 0.5])
    shown = np.concatenate([np.abs(t.dropped_error), t.noise, t.total])
    shown = shown[np.isfinite(shown) & (shown > 0)]
    low = float(shown.min()) / 1.5 if shown.size else 0.1
    high = float(shown.max()) * 1.5 if shown.size else 10.0
    fig.update_yaxes(type="log", range=[math.log10(low), math.log10(high)])
    log_ticks(fig, "y", low, high)
    fig = layout(
        fig,
        f"Rows left out against noise, by the bound on rows per person (epsilon = {t.epsilon:g})",
        "c, the most rows kept per person",
        f"error ({unit}, log scale)",
    )
    legend_below(fig)
    fig.update_layout(height=440)
    return fig
