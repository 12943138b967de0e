"""Readings of a remediation: what a node does to the table, and the search's outcome."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd

from riskcore.deidentify.hierarchy import Hierarchy
from riskcore.deidentify.lattice import NodeResult, SearchResult
from riskcore.report.readings._format import plural

__all__ = [
    "level_label",
    "node_reading",
    "node_table",
    "search_reading",
    "visited_table",
]


def _same(text: str) -> str:
    return text


def level_label(h: Hierarchy, level: int) -> str:
    """Return "level 1 of 5: 35-39, 40-44, ..." (a few labels of that level, as examples)."""
    labels = pd.unique(pd.Series(h.levels[level], dtype=object))
    shown = ", ".join(str(v) for v in labels[:4])
    more = f", ... ({len(labels):,} values)" if len(labels) > 4 else ""
    what = f"as recorded ({shown}{more})" if level == 0 else shown + more
    return f"level {level} of {h.height}: {what}"


def node_reading(
    before: NodeResult, after: NodeResult, n: int, *, escape: Callable[[str], str] = _same
) -> str:
    """Return what a generalization does: k, suppression and loss, before and after.

    ``before`` is the node with every QI at level 0 (the table as it is,
    the same targets); ``n`` is the number of records.
    """
    text = (
        f"As recorded, {before.suppressed:,} of {n:,} "
        f"{plural(n, 'record', 'records')} ({before.suppressed / n:.1%}) sit in classes that "
        f"break the targets. With these levels, {after.suppressed:,} "
        f"({after.suppressed / n:.1%}) do, and are suppressed; the {after.n_classes:,} "
        f"released {plural(after.n_classes, 'class', 'classes')} have at least "
        f"{after.k:,} {plural(after.k, 'record', 'records')}."
    )
    if after.n_classes:
        text += (
            f" An attacker who knows someone is in the release picks the right record with "
            f"probability {after.success_rate:.2%} on average (was {before.success_rate:.2%})."
        )
    text += (
        f" Information lost: {after.ncp:.1%} of the QI cells' precision (normalized certainty "
        "penalty, Xu et al. 2006, a suppressed cell counting as fully lost)."
    )
    if not after.anonymous:
        text += " That is more suppression than the limit allows: raise a level or the limit."
    return escape(text)


def node_table(before: NodeResult, after: NodeResult, targets_k: int) -> pd.DataFrame:
    """Return the before / after figures of a node as a small table."""
    rows = [
        ("smallest released class (k)", before.k, after.k),
        ("records suppressed", before.suppressed, after.suppressed),
        ("classes released", before.n_classes, after.n_classes),
        ("average re-identification risk", before.success_rate, after.success_rate),
        ("information loss (NCP)", before.ncp, after.ncp),
        ("precision loss", before.precision, after.precision),
        ("discernibility", before.discernibility, after.discernibility),
        (f"average class size / k ({targets_k})", before.avg_class_size, after.avg_class_size),
    ]
    return pd.DataFrame(rows, columns=["figure", "as recorded", "generalized"])


def search_reading(result: SearchResult) -> str:
    """Return the outcome of the least-loss search in one or two sentences."""
    best = result.best
    head = (
        f"Searched {result.evaluated:,} of the {result.lattice_size:,} combinations of levels "
        f"in {result.seconds:.1f} s; the rest cannot lose less (their loss without "
        "suppression already exceeds the best found)."
    )
    if best is None:
        return head + " No combination meets the targets within the suppression limit."
    return (
        head + f" The least-loss one loses {best.ncp:.1%} (NCP) and suppresses "
        f"{best.suppressed:,} {plural(best.suppressed, 'record', 'records')}."
    )


def visited_table(result: SearchResult, qis: Sequence[str]) -> pd.DataFrame:
    """Return one row per node the search evaluated: levels, whether it passes, risk and loss."""
    return pd.DataFrame(
        [
            {
                **{q: lv for q, lv in zip(qis, r.levels, strict=True)},
                "meets the targets": r.anonymous,
                "suppressed": r.suppressed,
                "k": r.k,
                "average risk": r.success_rate,
                "NCP": r.ncp,
            }
            for r in result.visited
        ]
    )
