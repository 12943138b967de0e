"""Figure of l-diversity: records by the number of distinct sensitive values in their class."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from riskcore.report.figures._style import ACCENT, NEUTRAL, layout

__all__ = ["diversity_bars"]


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
    return layout(
        fig,
        f"Diversity of {attribute} within equivalence classes",
        f"distinct values of {attribute} in the person's class",
        "records (people)",
    )
