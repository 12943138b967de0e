"""Figure of l-diversity: records by the number of distinct sensitive values in their class."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from riskcore.report.figures._style import ACCENT, MAX_CATEGORIES, NEUTRAL, category_axis, layout

__all__ = ["diversity_bars"]


def diversity_bars(df: pd.DataFrame, attribute: str) -> go.Figure:
    """Records by the number of distinct sensitive values in their class.

    Up to :data:`._style.MAX_CATEGORIES` counts, one labelled bar each; more,
    and the axis is numeric (the counts are ordered, a skipped tick label
    cannot be misread).

    Parameters
    ----------
    df : pandas.DataFrame
        :func:`riskcore.report.readings.diversity_distribution`; with its ``people`` column
        the bars count people.
    attribute : str
        A sensitive attribute of the assessment.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    colors = [ACCENT if v == 1 else NEUTRAL for v in df["distinct values"]]
    people = "people" in df.columns  # a person column is set: the classes count people
    fig = go.Figure(
        go.Bar(
            x=df["distinct values"].astype(str),
            y=df["people" if people else "records"],
            marker_color=colors,
            hovertemplate="%{y:,} people in classes with %{x} distinct values<extra></extra>",
        )
    )
    if len(df) <= MAX_CATEGORIES:
        category_axis(fig, df["distinct values"], axis="x")
    else:
        fig.update_traces(x=df["distinct values"])
        fig.update_xaxes(type="linear")
    return layout(
        fig,
        f"Diversity of {attribute} within equivalence classes",
        f"distinct values of {attribute} in the person's class",
        "people" if people else "records (people)",
    )
