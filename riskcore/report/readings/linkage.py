"""Readings of the linkage attack: candidate sets, attribute disclosure, the curve."""

from __future__ import annotations

import numpy as np
import pandas as pd

from riskcore.attacks.linkage import LinkageCurve, LinkageResult

__all__ = ["attribute_table", "curve_reading", "linkage_reading"]


def linkage_reading(result: LinkageResult) -> str:
    """Return the one-line reading under the candidate-set chart."""
    u = result.unique
    text = (
        f"{u.successes:,} of {result.n_targets:,} targets ({u.rate:.1%}, 95% CI "
        f"{u.low:.1%}-{u.high:.1%}) match exactly one released record"
    )
    if result.correct is not None:
        c = result.correct
        text += f"; {c.successes:,} ({c.rate:.1%}) are re-identified correctly"
    text += (
        f". A random guess would be right for 1 in {result.n_release:,} "
        f"({u.baseline:.4%}); {result.no_match:,} targets match nobody."
    )
    return text


def attribute_table(result: LinkageResult) -> pd.DataFrame:
    """Return one row per sensitive attribute: what the attacker learns through the join."""
    rows = []
    for a in result.attributes:
        rows.append(
            {
                "attribute": a.attribute,
                "learned with confidence >= p": a.confident.rate,
                "95% CI": f"{a.confident.low:.1%} - {a.confident.high:.1%}",
                "learned and correct": None if a.correct is None else a.correct.rate,
                "base rate (always guess the commonest)": a.base_rate,
                "commonest value": a.base_value,
            }
        )
    return pd.DataFrame(rows)


def curve_reading(curve: LinkageCurve) -> str:
    """Return the reading under the re-identification curve."""
    rates = [r.rate for r in curve.unique]
    if not rates:
        return ""
    steps = np.diff([0.0, *rates])
    i = int(np.argmax(steps))
    return (
        f"Knowing all {len(rates)} columns re-identifies {rates[-1]:.1%} of targets; the "
        f"biggest jump comes from adding {curve.columns[i]} (+{steps[i]:.1%})."
    )
