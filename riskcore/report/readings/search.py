"""Readings of the least-loss search: its outcome, the columns it removes, the nodes visited.

What :func:`riskcore.deidentify.search.run.search` did (how much of the lattice it
evaluated, the least-loss node), a warning per column its optimum generalizes
away with the best node that keeps it, and the nodes it evaluated as a table.
Re-exported by :mod:`riskcore.report.readings.remediation` (their old import
path).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore.deidentify.search.node import NodeResult
from riskcore.deidentify.search.run import SearchResult
from riskcore.report.readings._format import plural
from riskcore.utility.loss import OBJECTIVES

__all__ = ["removed_column_warnings", "search_reading", "visited_table"]


def _seconds(x: float) -> str:
    return "under 0.1 s" if x < 0.05 else f"{x:.1f} s"


def search_reading(result: SearchResult) -> str:
    """Return the outcome of the least-loss search in one or two sentences.

    Parameters
    ----------
    result : SearchResult
        The search: its optimum, or why there is none.

    Returns
    -------
    str
    """
    best = result.best
    if result.evaluated >= result.lattice_size:
        empty = sum(1 for v in result.visited if v.n_classes == 0)
        shown = result.lattice_size - empty
        head = (
            f"All {result.lattice_size:,} combinations of levels were evaluated"
            + (
                f" ({shown:,} shown; {empty:,} release no record and have no point)"
                if empty
                else " and are shown"
            )
            + f"; the search needed {result.needed:,} of them ({_seconds(result.seconds)}): "
            "the others cannot lose less."
        )
    else:
        head = (
            f"Searched {result.evaluated:,} of the {result.lattice_size:,} combinations of "
            f"levels in {_seconds(result.seconds)}; the rest cannot lose less (their loss without "
            "suppression already exceeds the best found) or cannot meet the targets (a more "
            "general combination already fails k or distinct l)."
        )
    if best is None:
        return head + " No combination meets the targets within the suppression limit."
    info = OBJECTIVES[result.objective]
    return (
        head + f" The least-loss one loses {_loss(best.loss(result.objective), result.objective)} "
        f"({info.label}) and suppresses {_suppressed(best)}."
    )


def _suppressed(node: NodeResult) -> str:
    """Return "12 records", or "3 people (their 9 rows)" when the node counts people."""
    if node.suppressed_rows is None:
        return f"{node.suppressed:,} {plural(node.suppressed, 'record', 'records')}"
    return (
        f"{node.suppressed:,} {plural(node.suppressed, 'person', 'people')} (their "
        f"{node.suppressed_rows:,} {plural(node.suppressed_rows, 'row', 'rows')})"
    )


def _loss(x: float, objective: str) -> str:
    if objective in ("ncp", "precision", "loss", "loss_geometric"):
        return f"{x:.1%}"
    return f"{x:,.4g}"


@renamed_arguments(qis="quasi_identifiers")
def removed_column_warnings(result: SearchResult, quasi_identifiers: Sequence[str]) -> list[str]:
    """Return one warning per column the search's optimum removes (generalized to ``*``).

    Each names the least-loss node that keeps the column
    (:attr:`~riskcore.deidentify.search.run.SearchResult.keeping`): its levels per
    QI, its loss and its suppression, or says that no combination within the
    targets and level bounds keeps it.

    Parameters
    ----------
    result : SearchResult
        The search whose optimum is read.
    quasi_identifiers : sequence of str
        The quasi-identifier columns.

    Returns
    -------
    list of str
    """
    out = []
    info = OBJECTIVES[result.objective]
    for q in result.removed:
        alt = result.keeping.get(q)
        head = f"The least-loss release removes {q} entirely (every value generalized to '*'). "
        if alt is None:
            out.append(
                head + f"No combination of levels that keeps {q} meets the targets within the "
                "suppression limit and the level bounds."
            )
            continue
        levels = ", ".join(f"{c} {lv}" for c, lv in zip(quasi_identifiers, alt.levels, strict=True))
        top = result.heights[list(result.quasi_identifiers).index(q)]
        low = result.steering.bounds(q, top)[0]
        out.append(
            head + f"The best combination that keeps it ({levels}) loses "
            f"{_loss(alt.loss(result.objective), result.objective)} ({info.label}) and "
            f"suppresses {_suppressed(alt)}; "
            f"to choose it, bound {q}'s level below its top (--levels {q}={low}:{top - 1} "
            "on the command line)."
        )
    return out


@renamed_arguments(qis="quasi_identifiers")
def visited_table(result: SearchResult, quasi_identifiers: Sequence[str]) -> pd.DataFrame:
    """Return one row per node the search evaluated: levels, whether it passes, risk and loss.

    Parameters
    ----------
    result : SearchResult
        The search: every node it evaluated.
    quasi_identifiers : sequence of str
        The quasi-identifier columns.

    Returns
    -------
    pandas.DataFrame
    """
    return pd.DataFrame(
        [
            {
                **{q: lv for q, lv in zip(quasi_identifiers, r.levels, strict=True)},
                "meets the targets": r.anonymous,
                "suppressed": r.suppressed,
                "k": r.k,
                "average risk": r.success_rate,
                "NCP": r.ncp,
            }
            for r in result.visited
        ]
    )
