"""Plotly figures: titles, axis labels with units, readable in light and dark themes."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

ACCENT = "#d1495b"  # risk
NEUTRAL = "#2e86ab"  # everything else


def _layout(fig: go.Figure, title: str, x: str, y: str) -> go.Figure:
    fig.update_layout(
        title={"text": title, "x": 0.0},
        xaxis_title=x,
        yaxis_title=y,
        margin={"l": 10, "r": 10, "t": 60, "b": 10},
        height=380,
        showlegend=False,
    )
    return fig


def class_size_histogram(hist: pd.DataFrame, qis_label: str) -> go.Figure:
    """Bar chart of records per class-size bin; unique records highlighted."""
    colors = [ACCENT if i == 0 else NEUTRAL for i in range(len(hist))]
    fig = go.Figure(
        go.Bar(
            x=hist["class size"],
            y=hist["records"],
            marker_color=colors,
            customdata=hist[["classes", "share"]],
            hovertemplate="class size %{x}<br>%{y:,} records in %{customdata[0]:,} classes"
            "<br>%{customdata[1]:.1%} of records<extra></extra>",
        )
    )
    return _layout(
        fig,
        f"Records by equivalence-class size on {qis_label}",
        "class size (records sharing the same QI values)",
        "records (people)",
    )


def candidates_curve(cand: pd.DataFrame) -> go.Figure:
    """Cumulative share of records with at most x candidates."""
    fig = go.Figure(
        go.Scatter(
            x=cand["candidates"],
            y=cand["cumulative share"] * 100,
            mode="lines+markers",
            line={"shape": "hv", "color": NEUTRAL},
            hovertemplate="%{y:.1f}% of people have at most %{x:,} candidates<extra></extra>",
        )
    )
    top = max(float(cand["candidates"].max()), 30.0)
    fig.update_xaxes(type="log", range=[-0.05, math.log10(top) + 0.1])
    fig.update_yaxes(range=[0, 102])
    fig.add_vline(x=11, line_dash="dot", line_color=ACCENT, annotation_text="11 (cell-size rule)")
    return _layout(
        fig,
        "How many people share each person's QI values",
        "candidates per record (class size, log scale)",
        "people with at most this many candidates (%)",
    )


def subset_bars(df: pd.DataFrame) -> go.Figure:
    """Horizontal bars: share of records unique on each QI subset."""
    fig = go.Figure(
        go.Bar(
            x=df["unique %"],
            y=df["columns"],
            orientation="h",
            marker_color=NEUTRAL,
            customdata=df[["unique records"]],
            hovertemplate="%{y}: %{x:.2f}% unique (%{customdata[0]:,} people)<extra></extra>",
        )
    )
    fig.update_yaxes(autorange="reversed")
    fig.update_layout(height=max(300, 26 * len(df) + 120))
    return _layout(
        fig,
        "People unique on each combination of quasi-identifiers",
        "records unique on the combination (%)",
        "quasi-identifiers",
    )


def contribution_bars(df: pd.DataFrame) -> go.Figure:
    """Bars: share of the unique records each QI is responsible for."""
    fig = go.Figure(
        go.Bar(
            x=df["column"],
            y=df["drop %"],
            marker_color=ACCENT,
            customdata=df[["drop"]],
            hovertemplate="removing %{x}: %{y:.1f}% of uniques (%{customdata[0]:,} people) "
            "become non-unique<extra></extra>",
        )
    )
    return _layout(
        fig,
        "Which column drives the risk",
        "quasi-identifier removed",
        "unique people who would become non-unique (%)",
    )


def diversity_bars(df: pd.DataFrame, attribute: str) -> go.Figure:
    """Records by the number of distinct sensitive values in their class."""
    colors = [ACCENT if v == 1 else NEUTRAL for v in df["distinct values"]]
    fig = go.Figure(
        go.Bar(
            x=df["distinct values"].astype(str),
            y=df["records"],
            marker_color=colors,
            hovertemplate="%{y:,} people in classes with %{x} distinct values<extra></extra>",
        )
    )
    fig.update_xaxes(type="category")
    return _layout(
        fig,
        f"Diversity of {attribute} within equivalence classes",
        f"distinct values of {attribute} in the person's class",
        "records (people)",
    )


def candidates_bars(hist: pd.DataFrame, title: str) -> go.Figure:
    """Targets by candidate-set size; exactly one candidate highlighted."""
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
    return _layout(
        fig,
        title,
        "released records matching the target (candidate-set size)",
        "targets (%)",
    )


def linkage_curve_chart(curve: pd.DataFrame) -> go.Figure:
    """Re-identification rate with its 95% interval as the attacker knows more columns."""
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
    fig.update_xaxes(type="category")
    fig.update_yaxes(range=[0, 102])
    fig = _layout(
        fig,
        "Re-identification as the attacker learns one more column",
        "column added to what the attacker knows (cumulative, left to right)",
        "targets re-identified uniquely (%)",
    )
    return fig


def exposure_bars(df: pd.DataFrame, x: str, x_title: str, title: str) -> go.Figure:
    """Records exposed by the homogeneity attack against a parameter."""
    fig = go.Figure(
        go.Bar(
            x=df[x].astype(str),
            y=df["records"],
            marker_color=ACCENT,
            customdata=df[["classes"]],
            hovertemplate="%{x}: %{y:,} people in %{customdata[0]:,} classes<extra></extra>",
        )
    )
    fig.update_xaxes(type="category")
    return _layout(fig, title, x_title, "people whose value is exposed")


def criterion_lines(df: pd.DataFrame) -> go.Figure:
    """Exposed records left among the classes that satisfy each l-diversity level."""
    fig = go.Figure()
    palette = {"distinct l": NEUTRAL, "entropy l": "#edae49", "t-closeness": "#66a182"}
    for crit, part in df.groupby("criterion", sort=False):
        if crit == "t-closeness":
            continue
        fig.add_trace(
            go.Scatter(
                x=part["level"],
                y=part["exposed records left"],
                mode="lines+markers",
                name=str(crit),
                line={"color": palette.get(str(crit), ACCENT)},
                hovertemplate=f"{crit} >= %{{x}}: %{{y:,}} exposed people left<extra></extra>",
            )
        )
    fig = _layout(
        fig,
        "Exposed people left in classes that satisfy l-diversity",
        "required l",
        "exposed people in classes that pass",
    )
    fig.update_layout(showlegend=True, legend={"orientation": "h", "y": -0.25})
    fig.update_xaxes(dtick=1)
    return fig


def two_queries(labels: list[str], values: list[float], title: str, y: str) -> go.Figure:
    """Two query answers side by side, and their difference."""
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
    return _layout(fig, title, "query", y)


def noise_success(
    eps: np.ndarray, p_within: np.ndarray, error: np.ndarray, within: float
) -> go.Figure:
    """Attacker's success and the answer's error against epsilon (log scale)."""
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
    fig.update_xaxes(type="log", dtick=1)
    fig = _layout(
        fig,
        "Laplace noise: attacker's success against the cost in accuracy",
        "epsilon per query (log scale; smaller = more noise)",
        "attacker's success (%)",
    )
    fig.update_layout(
        yaxis={"range": [0, 102]},
        yaxis2={
            "title": "95% error of an answer (+/- people, log)",
            "overlaying": "y",
            "side": "right",
            "type": "log",
            "dtick": 1,
            "showgrid": False,
        },
        showlegend=True,
        legend={"orientation": "h", "y": -0.3},
        margin={"l": 10, "r": 60, "t": 60, "b": 10},
    )
    return fig


def estimate_histogram(draws: np.ndarray, truth: float, title: str) -> go.Figure:
    """Histogram of simulated attacker estimates (a simulation, not a release)."""
    fig = go.Figure(go.Histogram(x=draws, nbinsx=60, marker_color=NEUTRAL))
    fig.add_vline(x=truth, line_color=ACCENT, annotation_text="true value")
    return _layout(fig, title, "attacker's estimate of the target's value", "simulated draws")


def share_bars(df: pd.DataFrame, x: str, y: str, title: str, x_title: str) -> go.Figure:
    """Horizontal percentage bars (one per row of ``df``)."""
    fig = go.Figure(
        go.Bar(
            x=df[y] * 100,
            y=df[x],
            orientation="h",
            marker_color=ACCENT,
            hovertemplate="%{y}: %{x:.1f}%<extra></extra>",
        )
    )
    fig.update_xaxes(range=[0, 102])
    fig.update_layout(height=max(280, 40 * len(df) + 120))
    return _layout(fig, title, x_title, "")
