"""Figures of the attacks: linkage, homogeneity, differencing and noise against them."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from riskcore.report.figures._style import (
    ACCENT,
    AXIS_TITLE_PX,
    GREEN,
    NEUTRAL,
    NOTE_PX,
    TITLE_STANDOFF_PX,
    Y_TITLE_CHARS,
    YELLOW,
    category_axis,
    labels_above,
    layout,
    legend_below,
    reference_line,
    wrap,
)
from riskcore.report.readings.attacks import noise_marker_label, noise_point

__all__ = [
    "candidates_bars",
    "criterion_lines",
    "estimate_histogram",
    "exposure_bars",
    "linkage_curve_chart",
    "noise_success",
    "two_queries",
]


def candidates_bars(hist: pd.DataFrame, title: str) -> go.Figure:
    """Targets by candidate-set size; exactly one candidate highlighted.

    Parameters
    ----------
    hist : pandas.DataFrame
        Columns ``candidates`` (the bins), ``share`` and ``targets``.
    title : str
        The chart's title.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    colors = [ACCENT if c == "1" else NEUTRAL for c in hist["candidates"]]
    fig = go.Figure(
        go.Bar(
            x=hist["candidates"],
            y=hist["share"] * 100,
            marker_color=colors,
            customdata=hist[["targets"]],
            hovertemplate="%{x} candidates: %{customdata[0]:,} targets (%{y:.1f}%)<extra></extra>",
        )
    )
    category_axis(fig, hist["candidates"], axis="x")
    return layout(
        fig,
        title,
        "released records matching the target (candidate-set size)",
        "targets (%)",
    )


def linkage_curve_chart(curve: pd.DataFrame) -> go.Figure:
    """Re-identification rate with its 95% interval as the attacker knows more columns.

    Parameters
    ----------
    curve : pandas.DataFrame
        :meth:`~riskcore.attacks.LinkageCurve.to_frame`: ``added``, ``unique`` and its bounds,
        ``correct``.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=list(curve["added"]) + list(curve["added"])[::-1],
            y=list(curve["unique high"] * 100) + list(curve["unique low"] * 100)[::-1],
            fill="toself",
            fillcolor="rgba(209,73,91,0.2)",
            line={"width": 0},
            hoverinfo="skip",
            name="95% interval",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=curve["added"],
            y=curve["unique"] * 100,
            mode="lines+markers",
            line={"color": ACCENT},
            name="re-identified uniquely",
            customdata=curve[["known"]],
            hovertemplate="knowing %{customdata[0]}: %{y:.1f}%<extra></extra>",
        )
    )
    category_axis(fig, curve["added"], axis="x")
    # each column in its own slot, as a bar's: the first and last labels stay over the plot
    fig.update_xaxes(range=[-0.5, len(curve) - 0.5])
    fig.update_yaxes(range=[0, 102])
    fig = layout(
        fig,
        "Re-identification as the attacker learns one more column",
        "column added to what the attacker knows (cumulative, left to right)",
        "targets re-identified uniquely (%)",
    )
    return fig


def exposure_bars(df: pd.DataFrame, x: str, x_title: str, title: str) -> go.Figure:
    """Records exposed by the homogeneity attack against a parameter.

    Parameters
    ----------
    df : pandas.DataFrame
        Columns ``x``, ``records`` and ``classes``.
    x : str
        The column of the parameter on the x axis.
    x_title : str
        The x axis's title.
    title : str
        The chart's title.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure(
        go.Bar(
            x=df[x].astype(str),
            y=df["records"],
            marker_color=ACCENT,
            customdata=df[["classes"]],
            hovertemplate="%{x}: %{y:,} people in %{customdata[0]:,} classes<extra></extra>",
        )
    )
    category_axis(fig, df[x].astype(str), axis="x")
    fig.update_yaxes(tickformat=",")
    return layout(fig, title, x_title, "people whose value is exposed")


def criterion_lines(df: pd.DataFrame) -> go.Figure:
    """Exposed people left among the classes that satisfy each l-diversity level.

    Plots ``exposed people left`` when the table has it (a person column:
    people, not their rows), else ``exposed records left`` (one row per
    person).

    Parameters
    ----------
    df : pandas.DataFrame
        :attr:`riskcore.attacks.HomogeneityResult.by_criterion`.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    left = "exposed people left" if "exposed people left" in df.columns else "exposed records left"
    fig = go.Figure()
    palette = {"distinct l": NEUTRAL, "entropy l": YELLOW, "t-closeness": GREEN}
    for crit, part in df.groupby("criterion", sort=False):
        if crit == "t-closeness":
            continue
        fig.add_trace(
            go.Scatter(
                x=part["level"],
                y=part[left],
                mode="lines+markers",
                name=str(crit),
                line={"color": palette.get(str(crit), ACCENT)},
                hovertemplate=f"{crit} >= %{{x}}: %{{y:,}} exposed people left<extra></extra>",
            )
        )
    fig = layout(
        fig,
        "Exposed people left in classes that satisfy l-diversity",
        "required l",
        "exposed people in classes that pass",
    )
    legend_below(fig)
    fig.update_xaxes(dtick=1)
    fig.update_yaxes(tickformat=",")
    return fig


def two_queries(labels: list[str], values: list[float], title: str, y: str) -> go.Figure:
    """Two query answers side by side, and their difference.

    Parameters
    ----------
    labels : list of str
        The bars' labels: the two queries, then their difference.
    values : list of float
        The three values, in the order of ``labels``.
    title : str
        The chart's title.
    y : str
        The y axis's title.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure(
        go.Bar(
            x=labels,
            y=values,
            marker_color=[NEUTRAL, NEUTRAL, ACCENT],
            text=[f"{v:,.2f}".rstrip("0").rstrip(".") for v in values],
            textposition="outside",
            hovertemplate="%{x}: %{y:,}<extra></extra>",
        )
    )
    category_axis(fig, labels, axis="x")
    fig.update_yaxes(tickformat=",")  # "1,500,000", never "1.5M"
    return layout(fig, title, "query", y)


def noise_success(
    eps: np.ndarray,
    p_within: np.ndarray,
    error: np.ndarray,
    within: float,
    *,
    epsilon: float | None = None,
    sensitivity: float = 1.0,
) -> go.Figure:
    """Attacker's success and the answer's error against epsilon (log scale).

    With ``epsilon``, a vertical marker at the chosen epsilon carries the
    label of :func:`riskcore.report.readings.attacks.noise_marker_label`
    (the numbers of the caption under the plot, for ``sensitivity``).

    Parameters
    ----------
    eps : numpy.ndarray
        The epsilons, increasing.
    p_within : numpy.ndarray
        Per epsilon, the chance that the attacker's estimate lands within ``within`` of the truth.
    error : numpy.ndarray
        Per epsilon, the answer's 95% error.
    within : float
        The distance the attacker's success is counted within.
    epsilon : float, optional
        The privacy-loss parameter ε (> 0).
    sensitivity : float, optional
        The query's sensitivity, for the marker's numbers.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=eps,
            y=p_within * 100,
            mode="lines",
            line={"color": ACCENT},
            name=f"attacker within +/- {within:g} of the truth (%)",
            hovertemplate="epsilon %{x:.3g}: %{y:.1f}%<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=eps,
            y=error,
            mode="lines",
            line={"color": NEUTRAL, "dash": "dash"},
            name="95% error of one noisy answer (+/-)",
            yaxis="y2",
            hovertemplate="epsilon %{x:.3g}: +/- %{y:,.1f}<extra></extra>",
        )
    )
    if epsilon is not None:
        p, _ = noise_point(epsilon, sensitivity, within)
        label = noise_marker_label(epsilon, sensitivity, within)
        fig.add_trace(  # a trace in data coordinates: exact on the log axis
            go.Scatter(
                x=[epsilon, epsilon],
                y=[0, 102],
                mode="lines",
                line={"color": YELLOW, "dash": "dot", "width": 2},
                name="chosen epsilon",
                hoverinfo="skip",
                showlegend=False,
            )
        )
        fig.add_trace(
            go.Scatter(
                x=[epsilon],
                y=[p * 100],
                mode="markers",
                marker={"color": ACCENT, "size": 10},
                name="chosen epsilon",
                hovertext=[label],
                hoverinfo="text",
                showlegend=False,
            )
        )
        left = math.log10(epsilon) > 0  # label on the side with room
        fig.add_annotation(  # above the plot, in the strip labels_above keeps free
            x=math.log10(epsilon),  # annotations on a log axis take log10 of the value
            y=1.0,
            yref="paper",
            text=label,
            showarrow=False,
            xanchor="right" if left else "left",
            yanchor="bottom",
            yshift=1,
            font={"size": NOTE_PX, "color": ACCENT},
        )
        labels_above(fig, 1)
    fig.update_xaxes(type="log", dtick=1)
    fig = layout(
        fig,
        "Laplace noise: attacker's success against the cost in accuracy",
        "epsilon per query (log scale; smaller = more noise)",
        "attacker's success (%)",
    )
    fig.update_layout(
        yaxis={"range": [0, 102]},
        yaxis2={
            "title": {
                "text": wrap("95% error of an answer (+/- people, log)", Y_TITLE_CHARS),
                "font": {"size": AXIS_TITLE_PX},
                "standoff": TITLE_STANDOFF_PX,
            },
            "overlaying": "y",
            "side": "right",
            "type": "log",
            "dtick": 1,
            "showgrid": False,
            "automargin": True,
        },
    )
    legend_below(fig)
    return fig


def estimate_histogram(draws: np.ndarray, truth: float, title: str, *, unit: str) -> go.Figure:
    """Histogram of simulated attacker estimates (a simulation, not a release), in ``unit``.

    Parameters
    ----------
    draws : numpy.ndarray
        The simulated estimates.
    truth : float
        The target's true value, drawn as a line.
    title : str
        The chart's title.
    unit : str
        The value's unit, in the x axis's title.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure(go.Histogram(x=draws, nbinsx=60, marker_color=NEUTRAL))
    reference_line(fig, f"true value {truth:,.4g}", x=truth, dash="solid")
    fig.update_yaxes(tickformat=",")
    return layout(
        fig, title, f"attacker's estimate of the target's value ({unit})", "simulated draws"
    )
