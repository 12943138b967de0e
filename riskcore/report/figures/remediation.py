"""Figure of a remediation: risk against information loss of the nodes the search visited."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from riskcore._deprecation import renamed_arguments
from riskcore.deidentify.search.candidates import pareto_mask
from riskcore.deidentify.search.lattice import NodeResult
from riskcore.report.figures._style import ACCENT, NEUTRAL, layout, legend_below

__all__ = ["pareto_front", "risk_loss_chart"]


def _levels(qis: Sequence[str], levels: Sequence[int]) -> str:
    return ", ".join(f"{q} {lv}" for q, lv in zip(qis, levels, strict=True))


def pareto_front(nodes: Sequence[NodeResult]) -> list[int]:
    """Return the positions of the best trade-offs among the nodes that meet the targets.

    A node is on the front when it meets the targets and no other such node is lower on
    both information loss (NCP) and average risk; the front itself is
    :func:`riskcore.deidentify.search.candidates.pareto_mask`, the one home of that rule.

    Parameters
    ----------
    nodes : Sequence[NodeResult]
        The nodes the search visited.

    Returns
    -------
    list[int]
        Positions in ``nodes``, by increasing loss.
    """
    ok = np.array([i for i, r in enumerate(nodes) if r.anonymous and r.n_classes], dtype=np.int64)
    if not len(ok):
        return []
    loss = np.array([nodes[i].ncp for i in ok], dtype=np.float64)
    risk = np.array([nodes[i].success_rate for i in ok], dtype=np.float64)
    on = pareto_mask(loss, risk)
    front = ok[on]
    return [int(i) for i in front[np.lexsort((front, risk[on], loss[on]))]]


@renamed_arguments(qis="quasi_identifiers")
def risk_loss_chart(
    nodes: Sequence[NodeResult], chosen: Sequence[int] | None, quasi_identifiers: Sequence[str]
) -> go.Figure:
    """Average re-identification risk against information loss, one point per node.

    Nodes that meet the targets are blue, the others grey; the Pareto front
    (no node is better on both axes) is joined by a line; the chosen levels
    are marked in red. Each point carries its position in ``nodes``
    (``customdata``), so a click can pick it. Nodes of a lattice with a person
    column (their ``suppressed_rows`` set) give the risk of a released person.

    Parameters
    ----------
    nodes : sequence of NodeResult
        The lattice's evaluated nodes.
    chosen : sequence of int or None
        The chosen node's levels (None: none marked).
    quasi_identifiers : sequence of str
        The quasi-identifier columns.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = go.Figure()
    hover = "NCP %{x:.1%}, risk %{y:.2%}<br>levels %{text}<extra></extra>"
    for passing, color, name in (
        (False, "#b0b0b0", "breaks the targets (too much suppression)"),
        (True, NEUTRAL, "meets the targets"),
    ):
        idx = [i for i, r in enumerate(nodes) if r.anonymous == passing and r.n_classes]
        fig.add_trace(
            go.Scatter(
                x=[nodes[i].ncp for i in idx],
                y=[nodes[i].success_rate for i in idx],
                mode="markers",
                marker={"color": color, "size": 6, "opacity": 0.7},
                name=name,
                text=[_levels(quasi_identifiers, nodes[i].levels) for i in idx],
                customdata=idx,
                hovertemplate=hover,
            )
        )
    front = pareto_front(nodes)
    fig.add_trace(
        go.Scatter(
            x=[nodes[i].ncp for i in front],
            y=[nodes[i].success_rate for i in front],
            mode="lines",
            line={"color": NEUTRAL, "width": 1.5},
            name="best trade-offs (no node lower on both)",
            hoverinfo="skip",
        )
    )
    if chosen is not None:
        lv = tuple(chosen)
        hit = [r for r in nodes if r.levels == lv]
        if hit:
            fig.add_trace(
                go.Scatter(
                    x=[hit[0].ncp],
                    y=[hit[0].success_rate],
                    mode="markers",
                    marker={"color": ACCENT, "size": 14, "symbol": "diamond"},
                    name="the levels chosen",
                    hoverinfo="skip",
                )
            )
    fig = layout(
        fig,
        "Re-identification risk against information loss, one point per combination of levels",
        "information loss (normalized certainty penalty, share of precision lost)",
        "average re-identification risk of a released person"
        if any(r.suppressed_rows is not None for r in nodes)  # the lattice counts people
        else "average re-identification risk of a released record",
    )
    fig.update_xaxes(tickformat=".0%")
    fig.update_yaxes(tickformat=".1%", rangemode="tozero")
    legend_below(fig)
    fig.update_layout(height=460)
    return fig
