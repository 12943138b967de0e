"""The report's utility section: what the remediation keeps, in tables, figures and readings.

The per-column change table, each released column's values before and after
(:func:`riskcore.report.figures.utility.value_bars` with
:func:`riskcore.report.readings.utility.values_reading`), a two-way table with Cramer's V
(:func:`~riskcore.report.figures.utility.two_way_heatmap`,
:func:`~riskcore.report.readings.utility.two_way_reading`), the classifier's reading and
the perturbation's dRisk and IL1s; read from :class:`riskcore.review.Remediation`, never
computed again. :func:`utility_figures` lists the figures in the order the context's
``figure`` indices refer to.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from riskcore.review import Remediation
from riskcore.review.utility import ValueCounts

__all__ = ["utility_context", "utility_figures"]


def _pct(x: float | None) -> str:
    return "\u2013" if x is None else f"{100 * x:.2f}%"


def _charted(rem: Remediation) -> list[tuple[ValueCounts, Any]]:
    """Return each charted column's counts with its change (columns without one left out)."""
    changes = {c.column: c for c in rem.column_changes}
    return [(v, changes[v.column]) for v in rem.value_counts if v.column in changes]


def utility_context(rem: Remediation, frame: Any) -> dict[str, Any]:
    """Return the remediation's utility for the document (tables and readings).

    Parameters
    ----------
    rem : Remediation
        The review's remediation.
    frame : callable
        The renderer's table builder: ``frame(headers, rows)``.

    Returns
    -------
    dict of str to Any
        ``utility`` (the change table), ``utility_reading`` (the classifier), ``value_charts``
        (per charted column its ``reading`` and ``figure`` index), ``values_left_out``,
        ``two_way_reading``, ``two_way_figures`` (indices), ``numeric`` and
        ``numeric_reading``.
    """
    from riskcore.report.readings.utility import (
        change_table,
        classification_reading,
        two_way_reading,
        values_not_charted,
        values_reading,
    )
    from riskcore.review.utility import REPORT_MAX_VALUE_COLUMNS

    out: dict[str, Any] = {"utility": None, "utility_reading": ""}
    if rem.column_changes:
        rows = change_table(rem.column_changes).to_dict("records")
        out["utility"] = frame(
            ["column", "value unchanged", "generalized or masked", "suppressed"],
            [[r["column"], _pct(r["unchanged"]), _pct(r["changed"]), _pct(r["suppressed"])]
             for r in rows],
        )  # fmt: skip
    if rem.classification is not None:
        out["utility_reading"] = classification_reading(rem.classification)
    charted = _charted(rem)
    out["value_charts"] = [
        {"column": v.column, "reading": values_reading(change, v.frame()), "figure": i}
        for i, (v, change) in enumerate(charted)
    ]
    shown = {v.column for v, _ in charted}
    left = [c.column for c in rem.column_changes if c.column not in shown]
    out["values_left_out"] = (
        values_not_charted(left, REPORT_MAX_VALUE_COLUMNS) if rem.value_counts else ""
    )
    out["two_way_reading"], out["two_way_figures"] = "", []
    if rem.two_way is not None:
        out["two_way_reading"] = two_way_reading(rem.two_way.two_way)
        out["two_way_figures"] = [len(charted), len(charted) + 1]
    out["numeric"], out["numeric_reading"] = None, ""
    if rem.numeric is not None:  # microaggregation or noise: sdcMicro's dRisk and IL1s
        from riskcore.report.readings.perturb import numeric_reading, numeric_table
        from riskcore.utility.numeric import unperturbed

        before = unperturbed(rem.numeric.columns, rem.numeric.k)
        numeric = numeric_table(before, rem.numeric)
        out["numeric"] = frame(
            ["measure", "before", "after", "better when"],
            [[r["Measure"], r["Before"], r["After"], r["Better when"]] for r in numeric],
        )
        out["numeric_reading"] = numeric_reading(before, rem.numeric)
    return out


def utility_figures(rem: Remediation | None) -> Sequence[Any]:
    """Return the utility section's plotly figures, in the order of the context's indices.

    Parameters
    ----------
    rem : Remediation or None
        The review's remediation (None: no figure).

    Returns
    -------
    list of plotly.graph_objects.Figure
        One value chart per charted column, then the two-way heatmaps as recorded and
        released (one colour scale).
    """
    if rem is None:
        return []
    from riskcore.report.figures.utility import two_way_heatmap, value_bars

    out = [value_bars(v.frame(), v.column) for v, _ in _charted(rem)]
    if rem.two_way is not None:
        tw = rem.two_way.full()
        top = float(max(tw.before.to_numpy().max(initial=0), tw.after.to_numpy().max(initial=0)))
        out += [two_way_heatmap(tw, after=side, zmax=top) for side in (False, True)]
    return out
