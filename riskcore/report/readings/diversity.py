"""Readings of l-diversity and t-closeness for one sensitive attribute."""

from __future__ import annotations

import numpy as np
import pandas as pd

from riskcore.metrics import Assessment
from riskcore.report.readings._format import join_names, plural

__all__ = ["diversity_distribution", "diversity_reading", "failing_reading"]


def diversity_distribution(assessment: Assessment, attribute: str) -> pd.DataFrame:
    """Return records by the number of distinct sensitive values in their class.

    Columns: ``distinct values``, ``classes``, ``records``.
    """
    r = assessment.sensitive[attribute]
    if r.per_class is None or assessment.classes is None:
        raise ValueError("this assessment has no per-class figures (read back from JSON)")
    distinct = r.per_class["distinct"]
    sizes = assessment.classes.sizes
    values, inverse = np.unique(distinct, return_inverse=True)
    return pd.DataFrame(
        {
            "distinct values": values,
            "classes": np.bincount(inverse, minlength=len(values)),
            "records": np.bincount(inverse, weights=sizes, minlength=len(values)).astype(np.int64),
        }
    )


def diversity_reading(assessment: Assessment, attribute: str) -> str:
    """Return the reading under the diversity chart: homogeneous classes, l and t."""
    r = assessment.sensitive[attribute]
    return (
        f"{r.homogeneous_records:,} people ({r.homogeneous_records / assessment.n_records:.1%}) "
        f"are in {r.homogeneous_classes:,} classes where everyone has the same {attribute}: "
        f"anyone who knows their {join_names(assessment.quasi_identifiers)} learns it. "
        f"Distinct l = {r.distinct_l}, entropy l = {r.entropy_l:.2f}, recursive ({r.c:g},l) "
        f"l = {r.recursive_l}, t = {r.t_closeness:.3f} ({r.distance} distance)."
    )


def failing_reading(
    n_failing: int,
    *,
    l: int,  # noqa: E741 - the papers' name
    t: float,
    shown: int | None = None,
) -> str:
    """Return the heading of the failing-class table (markdown, count in bold).

    ``shown`` is how many rows the table on screen holds; when it is fewer
    than ``n_failing`` the heading says so and points to the full download.
    """
    noun = plural(n_failing, "class fails", "classes fail")
    text = (
        f"**{n_failing:,} {noun}** l = {l} or t = {t:g} (highest risk first: smallest "
        "classes first; homogeneous classes have 1 distinct value)."
    )
    if shown is not None and shown < n_failing:
        text += f" Showing {shown:,} of {n_failing:,}; the download below has them all."
    return text
