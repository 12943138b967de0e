"""The shared look of every figure: colours, title and axis labels, margins."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable
from typing import Literal

import numpy as np
import pandas as pd
import plotly.graph_objects as go

__all__ = [
    "ACCENT",
    "AXIS_TITLE_PX",
    "FONT_PX",
    "GREEN",
    "GREY",
    "LABEL_ROW_PX",
    "LABEL_WIDTH",
    "MAX_CATEGORIES",
    "MECH_COLORS",
    "MECH_DASHES",
    "NEUTRAL",
    "NOTE_PX",
    "PURPLE",
    "TITLE_PX",
    "TITLE_STANDOFF_PX",
    "YELLOW",
    "Y_TITLE_CHARS",
    "category_axis",
    "decade_ticks",
    "labels_above",
    "layout",
    "legend_below",
    "log_ticks",
    "more_note",
    "plain",
    "reference_line",
    "row_height",
    "tick_label",
    "top_categories",
    "wrap",
]

ACCENT = "#d1495b"  # risk
NEUTRAL = "#2e86ab"  # everything else
YELLOW = "#edae49"  # a second series
GREEN = "#66a182"  # a third series, or the truth
PURPLE = "#7b4b94"  # a fourth series
GREY = "#555555"  # a rule of thumb, not the user's target

#: Colour of each noise mechanism on the DP charts.
MECH_COLORS = {
    "laplace": NEUTRAL,
    "gaussian": YELLOW,
    "discrete_laplace": GREEN,
    "discrete_gaussian": PURPLE,
}
#: Dash of each noise mechanism's line (the Gaussian and discrete Gaussian nearly coincide).
MECH_DASHES = {
    "laplace": "solid",
    "gaussian": "dash",
    "discrete_laplace": "dashdot",
    "discrete_gaussian": "dot",
}


#: Font sizes in px. Figures are drawn 900 px wide and the PDF prints them at its text width
#: (182 mm), where 1 px is 0.57 pt: ticks at 14 px print at 8 pt (the size of the report's
#: tables), notes and legends at 13 px at 7.5 pt, titles at 18 px at 10 pt.
FONT_PX = 14
NOTE_PX = 13
AXIS_TITLE_PX = 15
TITLE_PX = 18
#: Characters per line of a figure's title, its x axis title and its y axis title, beyond
#: which they wrap at a word (about 480, 650 and 240 px at their sizes): plotly never wraps
#: a title, and a long column name in one ran off the figure. A title fits the app's chart at
#: a 1024 px window (564 px wide with the sidebar open); at 80 characters it was cut there.
TITLE_CHARS = 50
X_TITLE_CHARS = 90
Y_TITLE_CHARS = 34
#: Lines of an axis title at most; the rest is cut with an ellipsis.
TITLE_LINES = 3
#: Space (px) between the title and the plot area, more when labels sit there (labels_above).
TITLE_PAD_PX = 12
#: Space (px) between an axis's tick labels and its title (plotly's default left the y title
#: 3 px from "3,000" when the PDF draws the SVG with its own fonts).
TITLE_STANDOFF_PX = 12


def layout(fig: go.Figure, title: str, x: str, y: str) -> go.Figure:
    """Give ``fig`` its title (left-aligned), axis titles, fonts, margins and height; no legend.

    Every builder calls this, so every figure has a title and both axis
    titles (state the unit in them: "records (people)", "epsilon (log scale)").
    Titles wrap at a word (:func:`wrap`, :data:`TITLE_CHARS`, ...). The margins
    grow to fit the tick labels and titles (``automargin`` on both axes and
    on the title, set here rather than left to the template: the one
    Streamlit installs as plotly's default has none, and the y ticks of 5,000
    records were cut to "0"). The title sits above the plot area, so a note
    at the top of the plot (yanchor "top" at paper y = 1) never meets it.

    It also makes every text of the figure plain (:func:`plain`): the titles,
    and the traces' categories, texts, names and custom data, which plotly
    would otherwise read as its HTML subset (a column named
    ``<a href="http://host">x</a>`` would be a link in the title and the hover).
    Call it after the traces are added.
    """
    fig.update_layout(
        title={
            "text": wrap(title, TITLE_CHARS, lines=None),
            "x": 0.0,
            "xref": "container",
            "xanchor": "left",
            "y": 1.0,
            "yref": "paper",
            "yanchor": "bottom",
            "pad": {"l": 8, "b": max(TITLE_PAD_PX, fig.layout.title.pad.b or 0)},
            "automargin": True,
            "font": {"size": TITLE_PX},
        },
        font={"size": FONT_PX},
        xaxis={
            "title": {
                "text": wrap(x, X_TITLE_CHARS),
                "font": {"size": AXIS_TITLE_PX},
                "standoff": TITLE_STANDOFF_PX,
            },
            "automargin": True,
            # a little lower than plotly puts them: an x tick label at the plot's left edge
            # ("0.01" on a log axis) no longer touches the y tick label "0" in the corner
            "ticklabelstandoff": 6,
        },
        yaxis={
            "title": {
                "text": wrap(y, Y_TITLE_CHARS),
                "font": {"size": AXIS_TITLE_PX},
                "standoff": TITLE_STANDOFF_PX,
            },
            "automargin": True,
        },
        margin={"l": 10, "r": 16, "t": 10, "b": 10},
        height=380,
        showlegend=False,
    )
    for trace in fig.data:
        for prop in ("x", "y", "text", "hovertext", "customdata", "name"):
            if prop in trace:
                escaped = _plain_values(trace[prop])
                if escaped is not None:
                    trace[prop] = escaped
    for axis in (fig.layout.xaxis, fig.layout.yaxis):
        escaped = _plain_values(axis.tickvals)
        if escaped is not None:  # the categories' ticks sit at their escaped values
            axis.tickvals = escaped
    return fig


def legend_below(fig: go.Figure) -> None:
    """Show the legend in rows under the x axis title, left-aligned.

    Anchored to the bottom of the figure (``yref="container"``), the legend
    pushes the bottom margin, so it never lies over the x tick labels or
    the axis title however many lines they take.
    """
    fig.update_layout(
        showlegend=True,
        legend={
            "orientation": "h",
            "yref": "container",
            "y": 0.0,
            "yanchor": "bottom",
            "x": 0.0,
            "xanchor": "left",
            "font": {"size": NOTE_PX},
        },
    )


def wrap(text: object, width: int, *, lines: int | None = TITLE_LINES) -> str:
    """Return ``text`` made plain (:func:`plain`) and wrapped at words with ``<br>``.

    At most ``width`` characters a line (a longer word is broken) and at
    most ``lines`` lines (None: any number), the last cut with an ellipsis.
    """
    parts = textwrap.wrap(str(text), width, break_on_hyphens=False) or [""]
    if lines is not None and len(parts) > lines:
        parts = parts[:lines]
        parts[-1] = parts[-1][: width - 1].rstrip() + "\u2026"
    return "<br>".join(plain(p) for p in parts)


#: Height (px) of one row of labels above the plot area (NOTE_PX text and its padding).
LABEL_ROW_PX = 22


def reference_line(
    fig: go.Figure,
    text: str,
    *,
    x: float | None = None,
    y: float | None = None,
    log: bool = False,
    color: str = ACCENT,
    dash: str = "dot",
    side: Literal["left", "right"] = "right",
    row: int = 0,
) -> None:
    """Draw a line across the plot at ``x`` (vertical) or ``y`` (horizontal), labelled ``text``.

    A vertical line's label sits above the plot area, on the ``side`` of
    the line, in a strip the title leaves free (:func:`labels_above`), so it
    hides no data; ``row`` stacks it one row higher, for two lines whose
    labels would meet. A horizontal line's label sits just above the line
    inside the plot, at the ``side`` end (``row`` lifts it by a row).
    ``log``: the line's axis is logarithmic (an annotation's coordinate
    there is log10 of the value, where a shape's is the value itself:
    plotly's own ``annotation_text`` put the label of a line at 11 at
    10^11, where it was not drawn at all).
    """
    line = {"color": color, "dash": dash, "width": 2}
    note = {
        "text": plain(text),
        "showarrow": False,
        "font": {"size": NOTE_PX, "color": color},
    }
    if x is not None:
        fig.add_vline(x=x, line=line)
        fig.add_annotation(
            x=math.log10(x) if log else x,
            y=1.0,
            yref="paper",
            yanchor="bottom",
            xanchor="left" if side == "right" else "right",
            xshift=3 if side == "right" else -3,
            yshift=1 + LABEL_ROW_PX * row,
            **note,
        )
        labels_above(fig, row + 1)
    elif y is not None:
        fig.add_hline(y=y, line=line)
        fig.add_annotation(
            x=1.0 if side == "right" else 0.0,
            xref="paper",
            xanchor=side,
            y=math.log10(y) if log else y,
            yanchor="bottom",
            yshift=1 + LABEL_ROW_PX * row,
            bgcolor="rgba(255,255,255,0.8)",
            **note,
        )
    else:
        raise ValueError("a reference line needs x or y")


def labels_above(fig: go.Figure, rows: int) -> None:
    """Keep ``rows`` rows of labels free between the title and the plot area.

    Labels placed at paper y = 1 with ``yanchor="bottom"`` (the reference
    lines', a marker's) sit there; the title's bottom padding grows to
    leave them room (it only grows: two calls keep the larger).
    """
    pad = TITLE_PAD_PX + LABEL_ROW_PX * rows
    if (fig.layout.title.pad.b or 0) < pad:
        fig.update_layout(title_pad_b=pad)


_PLOTLY_MARKUP = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def plain(text: object) -> str:
    """Return ``text`` for a plotly text (title, tick, hover, legend), shown as written.

    Plotly reads ``<a href>``, ``<b>``, ``<br>`` and entities in every text;
    with ``&``, ``<`` and ``>`` written as entities it shows them as the
    characters they are, and no tag starts.
    """
    return str(text).translate(_PLOTLY_MARKUP)


def _plain_values(values: object) -> object | None:
    """Return ``values`` with every string made plain; None when nothing changes."""
    if isinstance(values, str):
        out = plain(values)
        return out if out != values else None
    if values is None or (isinstance(values, np.ndarray) and values.dtype.kind in "biufcmM"):
        return None
    if not isinstance(values, (list, tuple, np.ndarray)):
        return None
    arr = np.asarray(values, dtype=object)
    changed = False
    for idx, v in np.ndenumerate(arr):
        if isinstance(v, str) and plain(v) != v:
            arr[idx] = plain(v)
            changed = True
    return arr if changed else None


#: A categorical axis shows at most this many categories; beyond, the top ones and a note.
MAX_CATEGORIES = 25
#: Characters per line of a category's tick label, by the axis it sits on.
LABEL_WIDTH = {"x": 16, "y": 32}
#: Lines of a tick label; the rest is cut with an ellipsis (the hover keeps the full text).
LABEL_LINES = 2


def tick_label(text: object, width: int, lines: int = LABEL_LINES) -> str:
    """Return ``text`` wrapped at word boundaries with ``<br>``, at most ``lines`` lines.

    A word longer than ``width`` and text beyond the last line are cut with
    an ellipsis, so no label is longer than ``width`` characters per line
    ("hours_per_week + marital_status" -> "hours_per_week +<br>marital_status").
    Each line is made plain (:func:`plain`), so ``<br>`` is the only tag.
    """
    parts = textwrap.wrap(str(text), width, break_long_words=False, break_on_hyphens=False)
    parts = parts or [""]
    cut = len(parts) > lines
    parts = [p if len(p) <= width else p[: width - 1] + "\u2026" for p in parts[:lines]]
    if cut and not parts[-1].endswith("\u2026"):
        parts[-1] = parts[-1][: width - 1].rstrip() + "\u2026"
    return "<br>".join(plain(p) for p in parts)


def category_axis(fig: go.Figure, labels: Iterable[object], *, axis: Literal["x", "y"]) -> None:
    """Make ``axis`` categorical with a tick at every category, long labels wrapped.

    ``tickmode="array"`` with one tick value per category stops plotly from
    labelling only every other bar; ``automargin`` makes room for wrapped
    labels. Bars keep the full category as their value, so the hover shows it.
    """
    values = [str(v) for v in labels]
    settings = {
        "type": "category",
        "tickmode": "array",
        "tickvals": values,
        "ticktext": [tick_label(v, LABEL_WIDTH[axis]) for v in values],
        "automargin": True,
    }
    if axis == "x":
        fig.update_xaxes(**settings)
    else:
        fig.update_yaxes(**settings)


#: Height (px) of one bar of a horizontal bar chart whose label is one line, and what each
#: further line of a wrapped label adds (two lines of 14 px text need about 36 px).
ROW_PX = 26
LINE_PX = 18


def row_height(ticktext: Iterable[str], *, row_px: int = ROW_PX) -> int:
    """Return the px a horizontal bar needs so that its wrapped label (``<br>``) fits its row.

    ``row_px`` for a one-line label, :data:`LINE_PX` more for each further
    line of the longest; two-line labels in 26 px rows lay over each other.
    """
    lines = max((str(t).count("<br>") + 1 for t in ticktext), default=1)
    return max(row_px, ROW_PX + LINE_PX * (lines - 1))


def top_categories(df: pd.DataFrame, by: str, n: int = MAX_CATEGORIES) -> tuple[pd.DataFrame, int]:
    """Return the ``n`` rows of ``df`` with the largest ``by`` (largest first) and how many
    rows were left out; ``df`` unchanged and 0 when it has at most ``n`` rows."""
    if len(df) <= n:
        return df, 0
    top = df.sort_values(by, ascending=False, kind="stable").head(n)
    return top, len(df) - n


def more_note(shown: int, more: int) -> str:
    """Return the title suffix for a chart that shows only its top categories ("" if none left)."""
    return f" (top {shown}; {more:,} more)" if more else ""


def decade_ticks(fig: go.Figure, axis: Literal["x", "y"], low: float, high: float) -> None:
    """Tick a log axis at the powers of ten between ``low`` and ``high``, in plain numbers.

    Plotly's own labels on a log axis either crowd (minor ticks labelled 2 and
    5, in a smaller font) or turn to exponents ("1e+6"); these read "0.01",
    "1", "1,000,000".
    """
    log_ticks(fig, axis, low, high, steps=(1.0,))


def log_ticks(
    fig: go.Figure,
    axis: Literal["x", "y"],
    low: float,
    high: float,
    *,
    steps: tuple[float, ...] = (1.0, 2.0, 5.0),
) -> None:
    """Tick a log axis at ``steps`` times the powers of ten from ``low`` to ``high``.

    Every tick is labelled in plain numbers at the axis's font size ("1",
    "2", "5", "10", "20", ... "1,000"), where plotly labels the minor ticks
    "2", "3", ... in a smaller font that prints under 6 pt, and below the
    first decade a "9" for 0.9. Ticks beyond the axis's range are not drawn.
    """
    from riskcore.report.readings._format import format_number

    first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
    values = [s * 10.0**e for e in range(first, last + 1) for s in steps]
    text = [format_number(v, integer=v >= 1) for v in values]
    fig.update_layout({f"{axis}axis": {"tickmode": "array", "tickvals": values, "ticktext": text}})
