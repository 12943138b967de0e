"""Figures of local differential privacy: randomized response, a local-Laplace survey and
the planning chart."""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go

from riskcore.dp.contributions import ONE_ROW, PrivacyUnit
from riskcore.dp.local import LaplaceLdpResult
from riskcore.report.figures import _style
from riskcore.report.figures._style import (
    GREEN,
    NEUTRAL,
    NOTE_PX,
    YELLOW,
    layout,
    legend_below,
    reference_line,
)

__all__ = ["grr_bars", "laplace_ldp_chart", "margin_chart"]


def grr_bars(df: pd.DataFrame, column: str, *, counted: str = "people") -> go.Figure:
    """True, randomized and estimated counts per category, with 95% intervals.

    More than :data:`._style.MAX_CATEGORIES` categories: those with the
    largest estimated count (what the collector can rank by), and the title
    says how many more there are.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per category: ``category``, ``true``, ``observed (randomized)``, ``estimated`` and
        its interval.
    column : str
        The column's name.
    counted : str, optional
        What the counts count, the x axis's title: "people" (one report each), or
        "reports" when a person sends several.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    df, more = _style.top_categories(df, "estimated")
    # horizontal bars, the categories on the y axis in words: on x, 16 diagnoses were
    # drawn at 90 degrees in the app's 564 px chart
    cats = df["category"]
    fig = go.Figure()
    fig.add_trace(go.Bar(y=cats, x=df["true"], name="true", orientation="h", marker_color=GREEN))
    fig.add_trace(
        go.Bar(
            y=cats,
            x=df["observed (randomized)"],
            name="observed (randomized reports)",
            orientation="h",
            marker_color=YELLOW,
        )
    )
    fig.add_trace(
        go.Bar(
            y=cats,
            x=df["estimated"],
            name="estimated (de-biased), 95% interval",
            orientation="h",
            marker_color=NEUTRAL,
            error_x={
                "type": "data",
                "symmetric": False,
                "array": df["95% high"] - df["estimated"],
                "arrayminus": df["estimated"] - df["95% low"],
            },
        )
    )
    _style.category_axis(fig, cats, axis="y")
    fig = layout(
        fig,
        f"Randomized response on {column}: what the collector sees and estimates"
        + _style.more_note(len(df), more),
        counted,
        column,
    )
    fig.update_xaxes(tickformat=",")
    fig.update_yaxes(autorange="reversed")  # the largest estimate on top
    legend_below(fig)
    rows = _style.row_height(fig.layout.yaxis.ticktext, row_px=48)  # three bars a category
    fig.update_layout(barmode="group", height=max(320, rows * len(df) + 200))
    return fig


def margin_chart(df: pd.DataFrame, epsilon: float, *, unit: PrivacyUnit = ONE_ROW) -> go.Figure:
    """95% margin on a share against epsilon for several numbers of respondents.

    With a person unit, epsilon is per person and each person sends up to c reports at
    epsilon / c (:func:`riskcore.report.readings.ldp_planning`): the title and the x
    axis say so.

    Parameters
    ----------
    df : pandas.DataFrame
        :func:`riskcore.report.readings.ldp_planning`'s table.
    epsilon : float
        The privacy-loss parameter ε (> 0).
    unit : PrivacyUnit, optional
        One row, or one person sending at most c reports.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure()
    for n, part in df.groupby("n", sort=False):
        fig.add_trace(
            go.Scatter(
                x=part["epsilon"],
                y=part["margin"] * 100,
                mode="lines",
                name=str(n),
                hovertemplate="epsilon %{x:.3g}: +/- %{y:.2f} points<extra>" + str(n) + "</extra>",
            )
        )
    reference_line(fig, f"chosen epsilon = {epsilon:g}", x=epsilon, log=True)
    fig.update_xaxes(type="log", dtick=1)
    # a share lies in 0-100%: a margin of 100 points or more says nothing, so the axis stops
    # there and a line says so (tiny crowds at small epsilon would otherwise stretch it)
    low = float((df["margin"] * 100).min()) if len(df) else 0.1
    fig.update_yaxes(type="log", dtick=1, range=[math.log10(max(min(low, 100.0), 1e-3)) - 0.1, 2])
    fig.add_hline(y=100, line_color=NEUTRAL, line_dash="dash")
    fig.add_annotation(  # on a log axis an annotation's y is log10 of the value
        x=1,
        xref="paper",
        xanchor="right",
        y=2,
        yanchor="top",
        text="+/- 100 points: the estimate says nothing",
        showarrow=False,
        font={"size": NOTE_PX, "color": NEUTRAL},
    )
    if unit.is_person:
        c = unit.factor
        reports = "1 report" if c == 1 else f"{c:,} reports"
        title = (
            "Local DP: accuracy of one category's share of the reports, by epsilon per "
            f"person and number of people (each sends up to {reports} at epsilon / {c:,})"
        )
        x_title = "epsilon per person (log scale)"
    else:
        title = "Local DP: accuracy of one category's share, by epsilon and number of respondents"
        x_title = "epsilon (log scale)"
    fig = layout(fig, title, x_title, "95% margin on a share (+/- percentage points, log)")
    legend_below(fig)
    fig.update_layout(height=420)
    return fig


def laplace_ldp_chart(r: LaplaceLdpResult) -> go.Figure:
    """One person's noisy report against the average of all reports, on the column's scale.

    Two 95% ranges around the clipped mean (what the reports estimate): the
    noise a single report carries, +/- b ln 20 for Laplace noise of scale b
    (P(|Y| > t) = e^{-t/b} = 0.05), and the interval of the average of the
    n reports (:attr:`LaplaceLdpResult.half_width`), with the true and the
    clipped mean as lines.

    Parameters
    ----------
    r : LaplaceLdpResult
        The local Laplace simulation: one report's noise and the average's interval.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    one = r.scale * math.log(20.0)
    person = r.unit.is_person
    rows = [
        (
            "one report (noise only)" if person else "one person's report (noise only)",
            r.clipped_mean,
            one,
            YELLOW,
        ),
        (f"average of {r.n:,} reports", r.estimated_mean, r.half_width, NEUTRAL),
    ]
    fig = go.Figure()
    for name, centre, half, color in rows:
        fig.add_trace(
            go.Scatter(
                x=[centre],
                y=[name],
                mode="markers",
                marker={"color": color, "size": 12},
                error_x={"type": "constant", "value": half, "thickness": 3, "width": 8},
                name=name,
                hovertemplate=f"{centre:,.4g} +/- {half:,.4g} (95%)<extra>{name}</extra>",
            )
        )
    # the labels on either side of their lines: the two means may coincide
    reference_line(
        fig, f"true mean {r.true_mean:,.4g}", x=r.true_mean, color=GREEN, dash="solid", side="left"
    )
    reference_line(fig, f"clipped mean {r.clipped_mean:,.4g}", x=r.clipped_mean, side="right")
    lo, hi = r.bounds
    fig.add_vrect(x0=lo, x1=hi, fillcolor=NEUTRAL, opacity=0.08, line_width=0)
    at = (
        f"epsilon = {r.epsilon:g} per person, {r.epsilon / r.unit.factor:.3g} per report"
        if person
        else f"epsilon = {r.epsilon:g}"
    )
    fig = layout(
        fig,
        f"Local Laplace on {r.column} ({at}): one report against the average",
        f"{r.column} (shaded: the clipping range [{lo:g}, {hi:g}]); bars are 95% ranges",
        "",
    )
    fig.update_layout(height=320)
    return fig
