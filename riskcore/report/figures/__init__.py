"""Plotly figures: every chart the dashboard shows, one module per concern.

Each builder takes a display table from :mod:`riskcore.report.readings` (or
a riskcore result) and returns a ``plotly.graph_objects.Figure`` with a
title and axis titles that state their units (:func:`._style.layout`).
Importing this package imports plotly; :mod:`riskcore.report` does not
import it, so the command line never pays for plotly.
"""

from __future__ import annotations

from riskcore.report.figures._style import ACCENT, MECH_COLORS, NEUTRAL
from riskcore.report.figures.attacks import (
    candidates_bars,
    criterion_lines,
    estimate_histogram,
    exposure_bars,
    linkage_curve_chart,
    noise_success,
    two_queries,
)
from riskcore.report.figures.diversity import diversity_bars
from riskcore.report.figures.dp import (
    blocks_chart,
    clipping_chart,
    composition_chart,
    error_vs_epsilon,
    posterior_chart,
)
from riskcore.report.figures.dp_unit import bound_tradeoff_chart, rows_per_person_chart
from riskcore.report.figures.ldp import grr_bars, laplace_ldp_chart, margin_chart
from riskcore.report.figures.remediation import pareto_front, risk_loss_chart
from riskcore.report.figures.uniqueness import (
    candidates_curve,
    class_size_histogram,
    contribution_bars,
    delta_bars,
    share_bars,
    subset_bars,
)
from riskcore.report.figures.utility import (
    accuracy_bars,
    change_bars,
    column_ncp_bars,
    two_way_heatmap,
    value_bars,
)

__all__ = [
    "ACCENT",
    "MECH_COLORS",
    "NEUTRAL",
    "accuracy_bars",
    "blocks_chart",
    "bound_tradeoff_chart",
    "candidates_bars",
    "candidates_curve",
    "change_bars",
    "class_size_histogram",
    "clipping_chart",
    "column_ncp_bars",
    "composition_chart",
    "contribution_bars",
    "criterion_lines",
    "delta_bars",
    "diversity_bars",
    "error_vs_epsilon",
    "estimate_histogram",
    "exposure_bars",
    "grr_bars",
    "laplace_ldp_chart",
    "linkage_curve_chart",
    "margin_chart",
    "noise_success",
    "pareto_front",
    "posterior_chart",
    "risk_loss_chart",
    "rows_per_person_chart",
    "share_bars",
    "subset_bars",
    "two_queries",
    "two_way_heatmap",
    "value_bars",
]
