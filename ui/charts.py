"""Plotly figures: titles, axis labels with units, readable in light and dark themes."""

from __future__ import annotations

import math

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
