"""Figures of differential privacy: error by epsilon, clipping, composition, identifiability.

Also sample and aggregate.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from riskcore import dp
from riskcore.dp import MECHANISM_LABELS
from riskcore.report.figures._style import (
    ACCENT,
    GREEN,
    LABEL_ROW_PX,
    MECH_COLORS,
    MECH_DASHES,
    NEUTRAL,
    NOTE_PX,
    YELLOW,
    decade_ticks,
    labels_above,
    layout,
    legend_below,
    reference_line,
)
from riskcore.report.readings.composition import (
    ACCOUNTANTS,
    accountant_crossings,
    composition_window,
)

__all__ = [
    "blocks_chart",
    "clipping_chart",
    "composition_chart",
    "error_vs_epsilon",
    "posterior_chart",
]


def _simulated_band(c0: dp.ErrorCurve, scale: float) -> go.Scatter:
    """Return the band between the simulated error quantiles of ``c0`` (times ``scale``)."""
    band_hi = np.maximum(np.abs(c0.sim_low), np.abs(c0.sim_high)) * scale
    band_lo = np.minimum(np.abs(c0.sim_low), np.abs(c0.sim_high)) * scale
    return go.Scatter(
        x=np.r_[c0.epsilons, c0.epsilons[::-1]],
        y=np.r_[band_hi, band_lo[::-1]],
        fill="toself",
        fillcolor="rgba(46,134,171,0.18)",
        line={"width": 0},
        name=f"simulated ({c0.simulations} numpy draws per epsilon, Laplace)",
        hoverinfo="skip",
    )


def error_vs_epsilon(
    curves: dict[str, dp.ErrorCurve],
    epsilon: float,
    *,
    unit: str,
    what: str,
    relative: bool = False,
) -> go.Figure:
    """Return the 95% error of a noisy answer against epsilon per mechanism (log-log).

    With the simulated band of the first mechanism and a marker at the chosen epsilon.

    Parameters
    ----------
    curves : dict of str to dp.ErrorCurve
        Per mechanism, its error curve (the first also gives the simulated band).
    epsilon : float
        The privacy-loss parameter ε (> 0).
    unit : str
        The answer's unit, in the y axis's title.
    what : str
        What is answered ("count"), in the title.
    relative : bool, optional
        Show the error in percent of the true answer.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure()
    first = next(iter(curves))
    c0 = curves[first]
    scale = 100.0 / abs(c0.true_answer) if relative and c0.true_answer else 1.0
    fig.add_trace(_simulated_band(c0, scale))
    for mech, c in curves.items():
        fig.add_trace(
            go.Scatter(
                x=c.epsilons,
                y=c.half_width * scale,
                mode="lines",
                line={"color": MECH_COLORS[mech], "dash": MECH_DASHES[mech]},
                name=f"{MECHANISM_LABELS[mech]}, closed form",
                hovertemplate="epsilon %{x:.3g}: +/- %{y:,.4g}<extra>"
                + MECHANISM_LABELS[mech]
                + "</extra>",
            )
        )
    here = c0.at(epsilon).half_width * scale
    fig.add_trace(
        go.Scatter(
            x=[epsilon],
            y=[here],
            mode="markers",
            marker={"color": ACCENT, "size": 11},
            name="chosen epsilon",
            hoverinfo="skip",
        )
    )
    # the label above the plot area, on the side with room: beside the marker the
    # Gaussian's line ran through "+/- 2.996 at epsilon = 1"
    eps = np.asarray(c0.epsilons, dtype=float)
    middle = float(np.sqrt(eps.min() * eps.max())) if eps.size else epsilon
    reference_line(
        fig,
        f"+/- {here:,.4g}{'%' if relative else ''} at epsilon = {epsilon:g}",
        x=epsilon,
        log=True,
        side="right" if epsilon <= middle else "left",
    )
    fig.update_xaxes(type="log", dtick=1)
    fig.update_yaxes(type="log", dtick=1)
    y = f"95% error, +/- % of the true {what} (log)" if relative else f"95% error, +/- {unit} (log)"
    fig = layout(
        fig,
        f"How far the noisy {what} can be from the truth, by epsilon",
        "epsilon (log scale; smaller = more privacy, more noise)",
        y,
    )
    legend_below(fig)
    fig.update_layout(height=460)
    return fig


def clipping_chart(t: dp.ClippingTradeoff, unit: str) -> go.Figure:
    """Clipping bias, sampling and privacy noise, and total RMSE against the upper bound.

    With a person unit the title states it (epsilon per person, at most c rows each),
    the privacy noise is named for c rows and the sampling noise as counted by person,
    and the shift of the mean from the rows the bound left out (read from the data, not
    in the total) is a dotted horizontal line when it falls on the plot.

    Parameters
    ----------
    t : dp.ClippingTradeoff
        The clipping trade-off per upper bound: bias, sampling and privacy noise, RMSE.
    unit : str
        The column's unit ("amount units").

    Returns
    -------
    plotly.graph_objects.Figure
    """
    person = t.unit.is_person
    c = t.unit.factor if person else 1
    fig = go.Figure()
    for y, name, color, dash in (
        (np.abs(t.bias), "|clipping bias|", ACCENT, "dash"),
        (t.sampling_sd, "sampling noise (sd, by person)" if person else "sampling noise (sd)",
         GREEN, "dot"),
        (t.noise_sd, f"privacy noise (sd, for {c:,} rows per person)" if person
         else "privacy noise (sd)", YELLOW, "dash"),
        (t.rmse, "total error (RMSE)", NEUTRAL, "solid"),
    ):  # fmt: skip
        fig.add_trace(
            go.Scatter(
                x=t.uppers,
                y=y,
                mode="lines",
                name=name,
                line={"color": color, "dash": dash, "width": 3 if dash == "solid" else 2},
                hovertemplate="U = %{x:,.4g}: %{y:,.4g}<extra>" + name + "</extra>",
            )
        )
    best = int(np.argmin(t.rmse))
    fig.add_trace(
        go.Scatter(
            x=[t.best_upper],
            y=[float(t.rmse[best])],
            mode="markers",
            marker={"color": NEUTRAL, "size": 11, "symbol": "diamond"},
            name="best U (smallest total error)",
            hoverinfo="skip",
        )
    )
    u = np.asarray(t.uppers, dtype=float)
    low, high = math.log10(float(u.min())), math.log10(float(u.max()))
    # decades only, in plain numbers: minor ticks labelled 2 and 5 crowded both axes
    fig.update_xaxes(type="log", range=[low, high])
    decade_ticks(fig, "x", float(u.min()), float(u.max()))
    at = (math.log10(t.best_upper) - low) / (high - low) if high > low else 0.0
    reference_line(
        fig,
        f"best U = {t.best_upper:,.4g}: error {float(t.rmse[best]):,.3g}",
        x=t.best_upper,
        log=True,
        color=NEUTRAL,
        side="left" if at > 0.6 else "right",  # the label on the side with room
    )
    bottom, top = float(t.rmse.min()) / 100.0, float(np.nanmax(t.rmse)) * 2.0
    shift = abs(t.bound_shift)
    if person and bottom < shift < top:  # what the rows left out moved the mean
        reference_line(
            fig,
            f"rows beyond {c:,} per person left out: the mean moves {shift:,.3g} "
            "(read from the data, not in the total)",
            y=shift,
            log=True,
            color=ACCENT,
            side="left",
        )
    fig.update_yaxes(type="log", range=[math.log10(bottom), math.log10(top)])
    decade_ticks(fig, "y", bottom, top)
    at_eps = (
        f"epsilon = {t.epsilon:g} per person, at most {c:,} {'row' if c == 1 else 'rows'} each"
        if person
        else f"epsilon = {t.epsilon:g}"
    )
    fig = layout(
        fig,
        f"Error of the DP mean against the upper clipping bound U ({at_eps})",
        f"upper clipping bound U ({unit}, log scale)",
        f"error of the mean ({unit}, log)",
    )
    legend_below(fig)
    fig.update_layout(height=440)
    return fig


#: Look of each accountant's line: colour, dash, width and marker symbol, all distinct, the
#: widest drawn first so that a line lying on another still shows around it.
_ACCOUNTANT_STYLE: dict[str, tuple[str, str, float, str]] = {
    "basic": (ACCENT, "solid", 5.0, "circle"),
    "advanced": (YELLOW, "dash", 3.0, "square"),
    "zcdp": (GREEN, "dot", 2.0, "diamond"),
}

#: Formula shown in the legend after each accountant's name.
_ACCOUNTANT_DETAIL = {
    "basic": "k epsilon",
    "advanced": "Dwork-Rothblum-Vadhan",
    "zcdp": "Bun-Steinke",
}


def _marker_sizes(visible: np.ndarray, n_total: int, slot: int) -> list[float]:
    """Return marker sizes putting up to about 8 markers on a line's visible points.

    ``visible`` are the indices of the points inside the plot. With more than
    three of them the markers are spaced and offset by ``slot`` (a third of
    the spacing), so two accountants whose lines coincide still show both
    markers; with three or fewer every visible point is marked, the sizes
    (11, 9, 7 by slot) nesting the symbols where they fall together.
    """
    size = 11.0 - 2.0 * slot
    sizes = [0.0] * n_total
    if visible.size <= 3:
        chosen = visible
    else:
        step = max(visible.size // 8, 3)
        chosen = visible[(slot * step) // 3 :: step]
    for i in chosen:
        sizes[int(i)] = size
    return sizes


_FIELD_OF = {name: field for field, name in ACCOUNTANTS}
#: Height of the composition chart's plot area in px (420 less its margins), for labels.
_COMPOSITION_PLOT_PX = 260.0


def _end_labels(
    fig: go.Figure,
    ends: list[tuple[float, int, int, str, str]],
    bottom: float,
    top: float,
    log: bool,
    k: np.ndarray,
) -> None:
    """Label each line at its end, right-aligned, one label row apart where ends are close.

    The ends are placed by their height on the axis (log10 units on a log axis); a label
    closer than a label row to the one below it is lifted by the rows it needs, so two
    accountants ending together never print over each other.
    """

    def height(v: float) -> float:
        if log:
            return (math.log10(v) - math.log10(bottom)) / (math.log10(top) - math.log10(bottom))
        return (v - bottom) / (top - bottom)

    row_share = (LABEL_ROW_PX - 4) / _COMPOSITION_PLOT_PX
    last = -math.inf
    for value, j, _slot, name, color in sorted(ends):
        h = max(height(value), last + row_share)
        lift = (h - height(value)) * _COMPOSITION_PLOT_PX
        last = h
        fig.add_annotation(
            x=int(k[j]),
            y=math.log10(value) if log else value,
            text=name,
            showarrow=False,
            xanchor="right",
            yanchor="bottom",
            yshift=4 + lift,
            font={"color": color, "size": NOTE_PX},
        )


def composition_chart(c: dp.CompositionCurves, budget: float) -> go.Figure:
    """Total epsilon against the number of queries under three composition theorems.

    Each accountant has its own colour, dash, width and marker (markers at
    staggered k), a legend entry and a label at the end of its line (lifted a
    row where ends are close), so a line lying on another stays visible; the
    reading names such pairs
    (:func:`riskcore.report.readings.composition.coinciding_accountants`). A dotted line
    marks where advanced composition or zCDP falls below basic composition
    (:func:`riskcore.report.readings.composition.accountant_crossings`). The x axis runs
    over every query plotted.

    Parameters
    ----------
    c : dp.CompositionCurves
        Total epsilon per number of queries under each theorem.
    budget : float
        The epsilon budget, drawn as a line (it also sets the window shown).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    bottom, top, k_end, log = composition_window(c, budget)

    def at(value: float) -> float:  # an annotation's y is log10 of the value on a log axis
        return math.log10(value) if log else value

    fig = go.Figure()
    ends: list[tuple[float, int, int, str, str]] = []  # (last value, index, slot, name, colour)
    for slot, (field, name) in enumerate(ACCOUNTANTS):
        color, dash, width, symbol = _ACCOUNTANT_STYLE[field]
        y = np.asarray(getattr(c, field), dtype=float)
        visible = np.flatnonzero((c.k <= k_end) & (y <= top))
        fig.add_trace(
            go.Scatter(
                x=c.k,
                y=y,
                mode="lines+markers",
                name=f"{name} ({_ACCOUNTANT_DETAIL[field]})",
                line={"color": color, "dash": dash, "width": width},
                marker={
                    "symbol": symbol,
                    "color": color,
                    "size": _marker_sizes(visible, y.size, slot),
                    "line": {"color": "white", "width": 1},
                },
                hovertemplate="%{x} queries: epsilon %{y:.3g}<extra>" + name + "</extra>",
            )
        )
        if visible.size:  # a direct label at the end of the line (none leaves the plot)
            ends.append((float(y[int(visible[-1])]), int(visible[-1]), slot, name, color))
    _end_labels(fig, ends, bottom, top, log, c.k)
    # where an accountant's total falls below basic composition's for good
    for row, (name, other, k) in enumerate(accountant_crossings(c)):
        if k <= k_end:
            reference_line(
                fig,
                f"{name} below {other} from k = {k:,}",
                x=k,
                color=_ACCOUNTANT_STYLE[_FIELD_OF[name]][0],
                dash="dot",
                side="right" if k < 1 + (k_end - 1) / 2 else "left",
                row=row + 1,  # the first row above the plot is the end labels'
            )
    labels_above(fig, 1 + len(accountant_crossings(c)))
    fig.add_hline(y=budget, line_color=NEUTRAL)
    fig.add_annotation(
        x=1,
        xref="paper",
        xanchor="right",
        y=at(budget),
        yanchor="bottom",
        text=f"budget {budget:g}",
        showarrow=False,
        font={"color": NEUTRAL, "size": NOTE_PX},
    )
    fig = layout(
        fig,
        f"Total privacy loss of k queries at epsilon = {c.epsilon:g} each",
        "number of queries k",
        "total epsilon (log scale)" if log else "total epsilon",
    )
    if log:
        fig.update_yaxes(type="log", range=[math.log10(bottom), math.log10(top)])
        decade_ticks(fig, "y", bottom, top)
    else:
        fig.update_yaxes(range=[0, top])
    fig.update_xaxes(range=[1, k_end])
    legend_below(fig)
    fig.update_layout(legend_itemsizing="constant", height=420)
    return fig


def posterior_chart(
    r: np.ndarray, gamma: np.ndarray, rho: float, true_value: float, unit: str
) -> go.Figure:
    """Attacker's posterior of the true world against the noisy response.

    Parameters
    ----------
    r : numpy.ndarray
        The noisy responses (x).
    gamma : numpy.ndarray
        The posterior of the true world at each response, in [0, 1].
    rho : float
        The bound on the attacker's certainty, drawn as a line.
    true_value : float
        f on the true world, drawn as a line.
    unit : str
        The answer's unit, in the x axis's title.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure(
        go.Scatter(
            x=r,
            y=gamma * 100,
            mode="lines",
            line={"color": NEUTRAL},
            hovertemplate="response %{x:,.4g}: %{y:.2f}%<extra></extra>",
        )
    )
    reference_line(fig, f"rho = {rho:.1%}", y=rho * 100, dash="dash")
    reference_line(fig, f"true value {true_value:,.4g}", x=true_value, color=NEUTRAL)
    return layout(
        fig,
        "Attacker's certainty about the true person, by the noisy answer seen",
        f"noisy answer R ({unit})",
        "posterior of the true person (%)",
    )


def blocks_chart(sa: dp.SampleAggregate, unit: str) -> go.Figure:
    """Block statistics, clamp bounds, their average and the full-data value.

    Parameters
    ----------
    sa : dp.SampleAggregate
        The sample-and-aggregate result: its block values, bounds, average and full-data value.
    unit : str
        The column's unit, in the y axis's title.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure(
        go.Scatter(
            x=np.arange(1, sa.k + 1),
            y=sa.block_values,
            mode="markers",
            marker={"color": NEUTRAL, "size": 7},
            hovertemplate="block %{x}: %{y:,.4g}<extra></extra>",
        )
    )
    lo, hi = sa.bounds
    fig.add_hrect(y0=lo, y1=hi, fillcolor="rgba(46,134,171,0.08)", line_width=0)
    # the two labels at opposite ends: the values may be close
    reference_line(fig, "average of clamped blocks", y=sa.aggregate, dash="solid")
    reference_line(fig, "all records", y=sa.full_data_value, color=GREEN, side="left")
    return layout(
        fig,
        f"Sample and aggregate: the {sa.statistic} of each of k = {sa.k} blocks",
        "block",
        f"block {sa.statistic} ({unit})",
    )
