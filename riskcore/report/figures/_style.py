"""The shared look of every figure: colours, title and axis labels, margins."""

from __future__ import annotations

import plotly.graph_objects as go

__all__ = ["ACCENT", "GREEN", "MECH_COLORS", "MECH_DASHES", "NEUTRAL", "PURPLE", "YELLOW", "layout"]

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
    """
    fig.update_layout(
        title={"text": title, "x": 0.0},
        xaxis_title=x,
        yaxis_title=y,
        margin={"l": 10, "r": 10, "t": 60, "b": 10},
        height=380,
        showlegend=False,
    )
    return fig
