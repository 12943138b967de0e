"""Readings of l-diversity and t-closeness for one sensitive attribute."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore.metrics import Assessment, DiversityResult
from riskcore.report.readings._format import join_names, plural

__all__ = [
    "DISTANCE_LABELS",
    "MAX_HAND_ORDER",
    "ORDER_HELP",
    "diversity_distribution",
    "diversity_reading",
    "failing_reading",
    "hierarchy_prompt",
    "hierarchy_refusal",
    "order_pending",
    "order_prompt",
    "order_refusal",
    "t_rule_reading",
]

#: How the ground distances of t-closeness read in a chooser (hierarchical only where the
#: attribute has a hierarchy).
DISTANCE_LABELS = {
    "equal": "equal: the values are categories (any two differ by 1)",
    "ordered": "ordered: the values have a rank (near values differ less)",
    "hierarchical": "hierarchical: values in one group of the hierarchy differ less",
}
#: Most values of a text column the page lets people order by hand.
MAX_HAND_ORDER = 60
#: The note beside the order editor.
ORDER_HELP = (
    "Click the values from lowest to highest. To move a value, remove it and pick it again. "
    "Missing values are not listed: t ranks them at both ends and keeps the larger."
)
_ORDER_FROM = {
    "value": "by value",
    "categories": "in the column's category order",
    "given": "in the order given",
}
_QUOTED = 5  # values quoted in a sentence


def diversity_distribution(assessment: Assessment, attribute: str) -> pd.DataFrame:
    """Return records by the number of distinct sensitive values in their class.

    Columns: ``distinct values``, ``classes``, ``records`` (``people`` when the
    assessment counts people: a person column is set).

    Parameters
    ----------
    assessment : Assessment
        The assessment, as :func:`riskcore.metrics.assess` returns it.
    attribute : str
        A sensitive attribute of the assessment.

    Returns
    -------
    pandas.DataFrame
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
            "records" if assessment.person is None else "people": np.bincount(
                inverse, weights=sizes, minlength=len(values)
            ).astype(np.int64),
        }
    )


def diversity_reading(assessment: Assessment, attribute: str) -> str:
    """Return the reading under the diversity chart: homogeneous classes, l and t.

    Parameters
    ----------
    assessment : Assessment
        The assessment, as :func:`riskcore.metrics.assess` returns it.
    attribute : str
        A sensitive attribute of the assessment: its l and t are read.

    Returns
    -------
    str
    """
    r = assessment.sensitive[attribute]
    head = (
        f"{r.homogeneous_records:,} people ({r.homogeneous_records / assessment.n_people:.1%}) "
        f"are in {r.homogeneous_classes:,} "
        f"{plural(r.homogeneous_classes, 'class', 'classes')} where everyone has the same "
        f"{attribute}: anyone who knows their {join_names(assessment.quasi_identifiers)} "
        "learns it."
        if r.homogeneous_records
        else f"No class has a single {attribute}: knowing someone's "
        f"{join_names(assessment.quasi_identifiers)} never reveals it outright."
    )
    return (
        f"{head} Distinct l = {r.distinct_l}, entropy l = {r.entropy_l:.2f}, recursive ({r.c:g},l) "
        f"l = {r.recursive_l}, t = {r.t_closeness:.3f} ({r.distance} distance)." + t_rule_reading(r)
    )


def t_rule_reading(r: DiversityResult) -> str:
    """Return how t ranked the values and treated missing ones ("" when there is nothing to say).

    Starts with a space, to follow another sentence. Under the ordered
    distance a missing value has no rank: t is the larger of the two
    distances with it ranked lowest and highest
    (:func:`riskcore.metrics.t_closeness_per_class`).

    Parameters
    ----------
    r : DiversityResult
        One sensitive attribute's diversity result.

    Returns
    -------
    str
    """
    text = ""
    if r.distance == "ordered" and r.order_source in _ORDER_FROM:
        text += f" The values are ranked {_ORDER_FROM[str(r.order_source)]}."
    if r.n_missing:
        records = plural(r.n_missing, "record", "records")
        who = f"Missing {r.attribute} ({r.n_missing:,} {records})"
        if r.distance != "ordered":
            text += f" {who} counts as one more value."
        else:
            where = {
                "lowest": "ranking it lowest gives the larger t",
                "highest": "ranking it highest gives the larger t",
            }.get(str(r.missing_rank), "both give the same t")
            text += (
                f" {who} has no rank: t is computed with it below the lowest value and again "
                f"above the highest, and the larger is kept ({where})."
            )
    return text


def order_pending(attribute: str, distance: str = "ordered") -> str:
    """Return the note in place of an attribute's figures while its distance waits for input.

    Parameters
    ----------
    attribute : str
        The sensitive attribute.
    distance : {"ordered", "hierarchical"}, default "ordered"
        Its distance: the ordered one waits for the order of the values, the
        hierarchical one for the attribute's hierarchy.

    Returns
    -------
    str
        The note in place of an attribute's figures while its order or hierarchy is missing.
    """
    if distance == "hierarchical":
        return (
            f"No l or t for {attribute} yet: its hierarchical distance waits for its hierarchy "
            "(under 't-closeness: distance between values' above), or choose another distance."
        )
    return (
        f"No l or t for {attribute} yet: its ordered distance waits for the order of its values "
        "(under 't-closeness: distance between values' above), or choose the equal distance."
    )


def order_prompt(attribute: str, n_values: int) -> str:
    """Return the label of the order editor of a text attribute.

    Parameters
    ----------
    attribute : str
        The text sensitive attribute whose values are ordered.
    n_values : int
        Its distinct values.

    Returns
    -------
    str
    """
    return f"Order of {attribute}: pick all {n_values:,} values, lowest first"


def _quote(values: Sequence[Any]) -> str:
    shown = ", ".join(f"'{v}'" for v in values[:_QUOTED])
    more = len(values) - _QUOTED
    return shown + (f" and {more:,} more" if more > 0 else "")


def hierarchy_prompt(attribute: str) -> str:
    """Return the label of the uploader of a sensitive attribute's hierarchy.

    Parameters
    ----------
    attribute : str
        The sensitive attribute whose hierarchy is asked for.

    Returns
    -------
    str
        The label of the uploader of its hierarchy (ARX's CSV format).
    """
    return f"{attribute}: its hierarchy, a CSV file in ARX's format (value;level 1;...;*)"


def hierarchy_refusal(attribute: str) -> str:
    """Return why t of an attribute under the hierarchical distance is not computed yet.

    Parameters
    ----------
    attribute : str
        The sensitive attribute t-closeness is not computed for.

    Returns
    -------
    str
        The sentence shown until its hierarchy is given.
    """
    return (
        f"t-closeness of {attribute} is not computed: the hierarchical distance needs its "
        "hierarchy (two values of one group are closer than two of different groups). Give "
        "it above, or choose another distance."
    )


def order_refusal(attribute: str, values: Sequence[Any], picked: Sequence[Any]) -> str | None:
    """Return why t of a text attribute cannot be computed yet; None once the order is complete.

    Parameters
    ----------
    attribute : str
        The sensitive attribute.
    values : sequence
        Its values (without the missing one).
    picked : sequence
        The values ordered so far, lowest first.

    Returns
    -------
    str or None
    """
    if len(values) > MAX_HAND_ORDER:
        return (
            f"t-closeness of {attribute} is not computed: the ordered distance needs its "
            f"{len(values):,} values in order, too many to order by hand here. Choose the equal "
            "distance, or give the order to riskcore.assess(order=...)."
        )
    chosen = set(picked)
    left = [v for v in values if v not in chosen]
    if not left:
        return None
    return (
        f"t-closeness of {attribute} is not computed yet: the ordered distance needs every "
        "value in order, and text has no order of its own (sorted alphabetically, "
        "'Bachelors' < 'Doctorate' < 'HS-grad'). "
        f"Still to place: {len(left):,} of {len(values):,} ({_quote(left)}). "
        "Or choose the equal distance."
    )


def failing_reading(
    n_failing: int,
    *,
    targets: list[str] | tuple[str, ...],
    shown: int | None = None,
    escape: Callable[[str], str] = str,
) -> str:
    """Return the heading of the failing-class table (markdown, count in bold).

    ``targets`` are the checks the classes fail, in words ("distinct
    l-diversity of income", each passed through ``escape``: they name a
    column); ``shown`` is how many rows the table on screen
    holds; when it is fewer than ``n_failing`` the heading says so and points
    to the full download.

    Parameters
    ----------
    n_failing : int
        The number of classes that fail.
    targets : list of str or tuple of str
        The checks they fail, in words.
    shown : int, optional
        The rows the table on screen holds (None: all).
    escape : callable, optional
        Escapes user-supplied text (column names, values) for where it is shown.

    Returns
    -------
    str
    """
    if not targets:
        return "No target reads this attribute: set an l or t target to list its failing classes."
    noun = plural(n_failing, "class fails", "classes fail")
    what = " or ".join(escape(t) for t in targets)
    if n_failing == 0:
        return f"No class fails {what}."
    text = (
        f"**{n_failing:,} {noun}** {what} (highest risk first: smallest classes first; "
        "homogeneous classes have 1 distinct value)."
    )
    if shown is not None and shown < n_failing:
        text += f" Showing {shown:,} of {n_failing:,}; the download below has them all."
    return text
