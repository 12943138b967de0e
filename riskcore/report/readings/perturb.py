"""Readings of the perturbative methods: each method's strength and weakness, a run in words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from riskcore.perturb import LocalSuppression, Microaggregation, Noise, NumericRiskUtility, Pram
from riskcore.perturb.steps import get_method

__all__ = [
    "IN_USE_NOTE",
    "METHOD_NOTES",
    "PERTURB_INTRO",
    "PRAM_MATRIX_CAPTION",
    "method_notes",
    "numeric_reading",
    "numeric_table",
    "perturb_lines",
    "suppression_reading",
]

#: Per method: its name, one line on its strength and one on its weakness.
METHOD_NOTES: dict[str, tuple[str, str, str]] = {
    "local_suppression": (
        "Local suppression",
        "Blanks only the few cells that make a record stand out; every record and every "
        "other value is kept.",
        "Blank cells are visible, and records with blanks are those that were rare.",
    ),
    "microaggregation": (
        "Microaggregation (MDAV)",
        "Numbers stay numbers, and each group of k similar records shares its means, so "
        "totals and means are kept.",
        "Spread, extremes and correlations within a group are lost.",
    ),
    "pram": (
        "PRAM",
        "Categories change at random with an invariant matrix: the expected frequencies are "
        "those of the data, and no one can be sure a value is true.",
        "Individual values may be false, and relations with other columns weaken.",
    ),
    "noise": (
        "Additive noise",
        "Every number moves a little; means are kept on average.",
        "Small noise protects little against someone who knows a value roughly; large "
        "noise blurs relations.",
    ),
}


def method_notes(name: str) -> tuple[str, str, str]:
    """Return a method's name, strength and weakness in words, for a registered one too.

    Parameters
    ----------
    name : str
        A method of :data:`riskcore.perturb.steps.METHODS`.

    Returns
    -------
    tuple of str
        Its :data:`METHOD_NOTES` entry; for a method registered without one, its name in
        words, what it does to values (its ``changed``) and that its weakness is not
        written yet.

    Raises
    ------
    RiskcoreError
        For a name the registry does not hold.
    """
    if name in METHOD_NOTES:
        return METHOD_NOTES[name]
    method = get_method(name)
    return (
        name.replace("_", " ").capitalize(),
        f"A registered perturbation method: {method.changed}.",
        "Its strength and weakness are not written yet.",
    )


#: Where the Perturb tab starts from once a step is applied (issue 38).
IN_USE_NOTE = (
    "Perturbation works on the table in use (the history's applied steps, generalization "
    "first); the records local suppression blanks count toward the suppression limit with "
    "those the generalization removed."
)

#: The Perturb tab's opening sentence.
PERTURB_INTRO = (
    "Instead of coarsening whole columns, change single cells or values, as statistical "
    "offices do with sdcMicro: every record is kept. Each method below changes values, so "
    "a release says which; the recipe records every step with its seed."
)


#: What the PRAM matrix's rows and columns are.
PRAM_MATRIX_CAPTION = (
    "Each row is a value as recorded, each column a value as released: the chance that "
    "one becomes the other (rows sum to 1)."
)


def suppression_reading(
    k: int, below_before: int, below_after: int, n: int, *, people: bool = False
) -> str:
    """Return the re-scoring of local suppression: records below k before and after.

    Parameters
    ----------
    k : int
        The k local suppression targets.
    below_before, below_after : int
        Records matching fewer than k records, a missing value matching any value.
    n : int
        Records in the table.
    people : bool, default False
        The counts are of people (a person column is set).

    Returns
    -------
    str
    """
    who = "People" if people else "Records"
    of = "people" if people else "records"
    return (
        f"{who} matching fewer than {k:,} {of} (a blank matching any value): "
        f"{below_before:,} of {n:,} before, {below_after:,} after."
    )


def numeric_table(before: NumericRiskUtility, after: NumericRiskUtility) -> list[dict[str, Any]]:
    """Return dRisk and IL1s before and after as display rows.

    Parameters
    ----------
    before, after : NumericRiskUtility
        dRisk and IL1s of the table as given and after perturbation (``before``, ``after``).

    Returns
    -------
    list of dict
        One row per measure: "Measure", "Before", "After", "Better when".
    """
    return [
        {
            "Measure": f"Interval disclosure risk (sdcMicro's dRisk, k = {after.k:g}): "
            "records with every value inside its interval",
            "Before": f"{before.drisk:.1%}",
            "After": f"{after.drisk:.1%}",
            "Better when": "lower",
        },
        {
            "Measure": "Information loss IL1s (per cell)",
            "Before": f"{before.il1s_per_cell:.3f}",
            "After": f"{after.il1s_per_cell:.3f}",
            "Better when": "lower",
        },
    ]


def _one(result: Any) -> str:
    if isinstance(result, LocalSuppression):
        per = ", ".join(f"{q} {n:,}" for q, n in result.suppressed.items() if n)
        return (
            f"Local suppression: {result.total_suppressed:,} cells blanked in "
            f"{result.records_touched:,} records ({per or 'none'}); every record now matches "
            f"at least {result.k:,} records, a missing value matching any value."
        )
    if isinstance(result, Microaggregation):
        return (
            f"Microaggregation ({result.method}) of {', '.join(result.columns)}: "
            f"{result.n_groups:,} groups of {result.smallest_group:,} to "
            f"{result.largest_group:,} records share their means."
        )
    if isinstance(result, Pram):
        return (
            f"PRAM of {result.column}: {result.changed:,} values changed "
            f"(pd {result.diagonal:g}, alpha {result.alpha:g}, seed {result.seed}).{_stays(result)}"
        )
    if isinstance(result, Noise):
        parts = ", ".join(f"{c} {p:g}%" for c, p in result.percent.items())
        return f"Noise added to {parts} of each column's standard deviation (seed {result.seed})."
    return str(result)


def _stays(result: Pram) -> str:
    """Return the chance a value stays itself in the matrix applied, and why it is not pd."""
    diag = [row[i] for i, row in enumerate(result.matrix)]
    if not diag:
        return ""
    low, high = min(diag), max(diag)
    span = f"{low:.2f}" if f"{low:.2f}" == f"{high:.2f}" else f"{low:.2f} to {high:.2f}"
    return (
        f" A value stays itself with probability {span} (the diagonal of the matrix applied); "
        f"pd {result.diagonal:g} is the least diagonal drawn for the basic matrix, which the "
        f"invariant step (it keeps the frequencies) and alpha {result.alpha:g} (the identity's "
        "share) mix, so the chance can fall below pd."
    )


def perturb_lines(
    results: Sequence[Any],
    before: NumericRiskUtility | None = None,
    after: NumericRiskUtility | None = None,
) -> list[str]:
    """Return one sentence per perturbation run, then dRisk and IL1s before and after.

    Parameters
    ----------
    results : sequence
        LocalSuppression, Microaggregation, Pram or Noise results, in order.
    before, after : NumericRiskUtility, optional
        dRisk and IL1s of the numeric columns before and after.

    Returns
    -------
    list of str
    """
    lines = [_one(r) for r in results]
    if before is not None and after is not None:
        lines.append(numeric_reading(before, after))
    return lines


def numeric_reading(before: NumericRiskUtility, after: NumericRiskUtility) -> str:
    """Return dRisk and IL1s before and after in one sentence.

    Parameters
    ----------
    before, after : NumericRiskUtility
        dRisk and IL1s of the numeric columns before and after.

    Returns
    -------
    str
        "Interval disclosure risk (sdcMicro's dRisk, ...) of age: 100.0% of records
        before, ..."
    """
    return (
        f"Interval disclosure risk (sdcMicro's dRisk, k = {after.k:g}: every value inside "
        f"its interval) of {', '.join(after.columns)}: "
        f"{before.drisk:.1%} of records before, {after.drisk:.1%} after (lower is safer); "
        f"information loss IL1s {before.il1s:,.2f} before, {after.il1s:,.2f} after "
        f"({after.il1s_per_cell:.3f} per cell)."
    )
