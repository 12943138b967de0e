"""Figures of uniqueness and k-anonymity: class sizes, candidates, QI subsets and contributions."""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go

from riskcore.report.figures._style import (
    ACCENT,
    GREY,
    NEUTRAL,
    category_axis,
    layout,
    log_ticks,
    more_note,
    reference_line,
    row_height,
    top_categories,
)
from riskcore.report.readings.anonymity import SIZE_BINS

__all__ = [
    "candidates_curve",
    "class_size_histogram",
    "contribution_bars",
    "delta_bars",
    "share_bars",
    "subset_bars",
]


def class_size_histogram(
    hist: pd.DataFrame, qis_label: str, *, suffix: str = "", k: int | None = None
) -> go.Figure:
    """Bar chart of records per class-size bin; the bins below the target k highlighted.

    Given ``k``, every bin that holds classes smaller than k (its smallest size below k,
    :data:`riskcore.report.readings.anonymity.SIZE_BINS`) is drawn in the accent colour, as
    the targets judge them; without it only the unique records are.

    ``suffix`` ends the title (" (after remediation)"), which then wraps as
    a whole; appended after the figure is built it could run off the figure.

    Parameters
    ----------
    hist : pandas.DataFrame
        :func:`riskcore.report.readings.anonymity.size_histogram`; with its
        ``people`` column (a person column set) the bars, title and axes count
        people.
    qis_label : str
        The quasi-identifiers, as the title names them.
    suffix : str, optional
        Ends the title.
    k : int, optional
        The target k: the bins with classes below it are highlighted.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    lowest = {label: lo for label, lo, _ in SIZE_BINS}
    below = [
        (lowest.get(str(b), 1) < k) if k is not None and k > 1 else i == 0
        for i, b in enumerate(hist["class size"])
    ]
    colors = [ACCENT if x else NEUTRAL for x in below]
    note = [f", below the target k = {k}" if x and k else "" for x in below]
    unit = "people" if "people" in hist.columns else "records"
    fig = go.Figure(
        go.Bar(
            x=hist["class size"],
            y=hist[unit],
            marker_color=colors,
            customdata=list(zip(hist["classes"], hist["share"], note, strict=True)),
            hovertemplate=f"class size %{{x}}<br>%{{y:,}} {unit} in %{{customdata[0]:,}} classes"
            f"<br>%{{customdata[1]:.1%}} of {unit}%{{customdata[2]}}<extra></extra>",
        )
    )
    category_axis(fig, hist["class size"], axis="x")
    fig.update_yaxes(tickformat=",", rangemode="tozero")  # "5,000", never "5k"
    if unit == "people":  # a class is the people whose rows carry one set of QI values
        return layout(
            fig,
            f"People by equivalence-class size on {qis_label}{suffix}",
            "class size (people whose rows share the same set of QI values)",
            "people",
        )
    return layout(
        fig,
        f"Records by equivalence-class size on {qis_label}{suffix}",
        "class size (records sharing the same QI values)",
        "records (people)",
    )


#: The US cell-size rule: published counts under 11 are suppressed (the candidates reading
#: counts the people left with fewer than 11 candidates).
CELL_SIZE = 11


def candidates_curve(cand: pd.DataFrame, *, k: int | None = None, suffix: str = "") -> go.Figure:
    """Cumulative share of records with at most x candidates, on a log axis.

    A labelled line marks the US cell-size rule of 11 (the reading under the
    figure counts the people with fewer than 11 candidates) and, given ``k``,
    a second one the target k ("target k = 5"); one line says both when
    k = 11. The axis is ticked at 1, 2, 5, 10, 20, ... in plain numbers.
    ``suffix`` ends the title (" (after remediation)") before it wraps.

    Parameters
    ----------
    cand : pandas.DataFrame
        :func:`riskcore.report.readings.anonymity.candidate_table`; with its
        ``people`` column (a person column set) the x axis counts people.
    k : int, optional
        The target k, drawn as a second line (none when None).
    suffix : str, optional
        Text ending the title (" (after remediation)").

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure(
        go.Scatter(
            x=cand["candidates"],
            y=cand["cumulative share"] * 100,
            mode="lines+markers",
            line={"shape": "hv", "color": NEUTRAL},
            hovertemplate="%{y:.1f}% of people have at most %{x:,} candidates<extra></extra>",
        )
    )
    top = max(float(cand["candidates"].max()), 30.0, 3.0 * (k or 0))
    right = math.log10(top) + 0.1
    fig.update_xaxes(type="log", range=[-0.05, right])
    log_ticks(fig, "x", 1.0, 10**right)
    fig.update_yaxes(range=[0, 102])
    # the rule in grey, the target in the risk colour; one line when they agree
    lines = [(CELL_SIZE, f"{CELL_SIZE}: US cell-size rule", GREY, "dot")]
    if k == CELL_SIZE:
        lines = [(CELL_SIZE, f"target k = {k} (also the US cell-size rule)", ACCENT, "dash")]
    elif k is not None:
        lines.append((k, f"target k = {k:,}", ACCENT, "dash"))
    for row, (x, text, color, dash) in enumerate(sorted(lines)):
        reference_line(fig, text, x=x, log=True, color=color, dash=dash, row=row)
    return layout(
        fig,
        f"How many people share each person's QI values{suffix}",
        "candidates per person (class size in people, log scale)"
        if "people" in cand.columns
        else "candidates per record (class size, log scale)",
        "people with at most this many candidates (%)",
    )


def subset_bars(df: pd.DataFrame) -> go.Figure:
    """Horizontal bars: share of records unique on each QI subset.

    At most :data:`._style.MAX_CATEGORIES` subsets, the most identifying; the
    title counts those left out (here, or by :func:`~riskcore.report.readings.subset_table`,
    which records them in ``df.attrs["more"]``).

    Parameters
    ----------
    df : pandas.DataFrame
        :func:`riskcore.report.readings.subset_table`; with its ``unique
        people`` column (a person column set) the axis counts people.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    earlier = int(df.attrs.get("more", 0))
    unit = "people" if "unique people" in df.columns else "records"
    df, more = top_categories(df, "unique %")
    fig = go.Figure(
        go.Bar(
            x=df["unique %"],
            y=df["columns"],
            orientation="h",
            marker_color=NEUTRAL,
            customdata=df[[f"unique {unit}"]],
            hovertemplate="%{y}: %{x:.2f}% unique (%{customdata[0]:,} people)<extra></extra>",
        )
    )
    category_axis(fig, df["columns"], axis="y")
    fig.update_yaxes(autorange="reversed")
    fig = layout(
        fig,
        "People unique on each combination of quasi-identifiers"
        + more_note(len(df), more + earlier),
        f"{unit} unique on the combination (%)",
        "quasi-identifiers",
    )
    # one bar row of 26 px per subset (more for wrapped labels): set after layout(), whose
    # fixed height would hide it
    fig.update_layout(height=max(300, row_height(fig.layout.yaxis.ticktext) * len(df) + 120))
    return fig


def contribution_bars(df: pd.DataFrame) -> go.Figure:
    """Bars: share of the unique records each QI is responsible for (the top 25 at most).

    Parameters
    ----------
    df : pandas.DataFrame
        Columns ``column``, ``drop`` and ``drop %``, one row per QI.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    df, more = top_categories(df, "drop %")
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
    category_axis(fig, df["column"], axis="x")
    return layout(
        fig,
        "Which column drives the risk" + more_note(len(df), more),
        "quasi-identifier removed",
        "unique people who would become non-unique (%)",
    )


def share_bars(
    df: pd.DataFrame, x: str, y: str, title: str, x_title: str, *, y_title: str
) -> go.Figure:
    """Horizontal percentage bars (one per row of ``df``): ``df[y]`` (a share) against ``df[x]``.

    More than :data:`._style.MAX_CATEGORIES` rows: the largest shares, and
    the title says how many more there are.

    Parameters
    ----------
    df : pandas.DataFrame
        One row per bar.
    x : str
        The column of the bars' labels.
    y : str
        The column of the shares, in [0, 1].
    title : str
        The chart's title.
    x_title : str
        The x axis's title (the shares' axis).
    y_title : str
        The y axis's title (the labels' axis).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    df, more = top_categories(df, y)
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
    category_axis(fig, df[x], axis="y")
    fig = layout(fig, title + more_note(len(df), more), x_title, y_title)
    rows = row_height(fig.layout.yaxis.ticktext, row_px=40)
    fig.update_layout(height=max(280, rows * len(df) + 120))  # after layout()'s fixed height
    return fig


def delta_bars(table: pd.DataFrame) -> go.Figure:
    """Return the bar chart of the population classes by delta-presence.

    From ``delta_table``: the classes with no released record first, then ten bins; bins
    with a class outside the allowed range in the risk colour. With its ``people`` column
    (the release matched in people) the released count is of people.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per delta: ``delta``, ``classes``, ``outside`` and ``records`` (or ``people``).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    colors = [ACCENT if o else NEUTRAL for o in table["outside"]]
    unit = "people" if "people" in table.columns else "records"
    fig = go.Figure(
        go.Bar(
            x=table["delta"],
            y=table["classes"],
            marker_color=colors,
            customdata=table[[unit, "outside"]],
            hovertemplate=f"delta %{{x}}: %{{y:,}} classes, %{{customdata[0]:,}} released {unit}"
            "<br>%{customdata[1]:,} classes outside the allowed range<extra></extra>",
        )
    )
    category_axis(fig, table["delta"], axis="x")
    return layout(
        fig,
        "Population classes by the chance a population member is in the table",
        f"delta = released {unit} / population members of the class (%)",
        "population classes",
    )
