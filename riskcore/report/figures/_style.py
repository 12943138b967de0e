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
    "GREEN",
    "LABEL_WIDTH",
    "MAX_CATEGORIES",
    "MECH_COLORS",
    "MECH_DASHES",
    "NEUTRAL",
    "PURPLE",
    "YELLOW",
    "category_axis",
    "layout",
    "more_note",
    "plain",
    "tick_label",
    "top_categories",
]

ACCENT = "#d1495b"  # risk
NEUTRAL = "#2e86ab"  # everything else
YELLOW = "#edae49"  # a second series
GREEN = "#66a182"  # a third series, or the truth
PURPLE = "#7b4b94"  # a fourth series

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


def layout(fig: go.Figure, title: str, x: str, y: str) -> go.Figure:
    """Give ``fig`` its title (left-aligned), axis titles, margins and height; no legend.

    Every builder calls this, so every figure has a title and both axis
    titles (state the unit in them: "records (people)", "epsilon (log scale)").
    It also makes every text of the figure plain (:func:`plain`): the titles,
    and the traces' categories, texts, names and custom data, which plotly
    would otherwise read as its HTML subset (a column named
    ``<a href="http://host">x</a>`` would be a link in the title and the hover).
    Call it after the traces are added.
    """
    fig.update_layout(
        title={"text": plain(title), "x": 0.0},
        xaxis_title=plain(x),
        yaxis_title=plain(y),
        margin={"l": 10, "r": 10, "t": 60, "b": 10},
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
    5) or turn to exponents ("1e+6"); these read "0.01", "1", "1,000,000".
    """
    from riskcore.report.readings._format import format_number

    first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
    values = [10.0**e for e in range(first, last + 1)]
    text = [format_number(v, integer=v >= 1) for v in values]
    fig.update_layout({f"{axis}axis": {"tickvals": values, "ticktext": text}})
