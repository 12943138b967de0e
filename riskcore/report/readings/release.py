"""Readings of the differential-privacy page beyond the noise curves of :mod:`.dp`.

Sensitivity, OpenDP releases, the clipped mean, parallel composition,
differential identifiability's candidates and posterior, and sample and
aggregate. Pure functions from :mod:`riskcore.dp` results to sentences.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from riskcore._deprecation import renamed_arguments
from riskcore.report.readings._format import format_number, mechanism_label

if TYPE_CHECKING:  # riskcore.dp.release imports opendp: only its types are needed here
    from riskcore import dp
    from riskcore.dp.query import Query
    from riskcore.dp.release import Release

__all__ = [
    "clipping_reading",
    "parallel_reading",
    "posterior_reading",
    "query_phrase",
    "release_reading",
    "released_values",
    "rounding_note",
    "sample_aggregate_reading",
    "sample_aggregate_release_reading",
    "sensitivity_reading",
    "slope_unit",
    "solver_caption",
    "stale_release_reading",
    "worlds_reading",
]


def query_phrase(
    kind: str, column: str | None, *, unit: dp.PrivacyUnit | None = None
) -> tuple[str, str]:
    """Return (what the query answers, its unit) in words, as the readings quote them.

    ``("count", None)`` -> ("count", "people"); ``("sum", "income")`` ->
    ("sum of income", "income units"); a histogram is read through its
    largest bar, a count of people. With a person unit a count counts rows (a person
    may be several), so its unit is "rows".

    Parameters
    ----------
    kind : str
        The query kind ("count", "sum", "mean", "histogram").
    column : str or None
        The column (None for a count).
    unit : dp.PrivacyUnit, optional
        The unit of privacy; a person unit makes a count's unit "rows".

    Returns
    -------
    tuple of (str, str)
    """
    counted = "rows" if unit is not None and unit.is_person else "people"
    if kind == "histogram":
        return f"largest bar of the {column} histogram", counted
    what = {"count": "count", "sum": f"sum of {column}", "mean": f"mean of {column}"}[kind]
    return what, counted if kind == "count" else f"{column} units"


@renamed_arguments(sens="sensitivity")
def sensitivity_reading(sensitivity: dp.Sensitivity) -> str:
    """Return why the query has the sensitivity it has.

    Parameters
    ----------
    sensitivity : dp.Sensitivity
        The query's sensitivity and its reason.

    Returns
    -------
    str
    """
    return f"Sensitivity: {sensitivity.reason}."


def solver_caption(confidence: float, delta: float) -> str:
    """Return the caption of the solver table (its confidence and Gaussian delta).

    Parameters
    ----------
    confidence : float
        The confidence level, in (0, 1).
    delta : float
        The δ of approximate differential privacy (0 for pure ε-DP).

    Returns
    -------
    str
    """
    return (
        f"At {confidence:.0%} confidence. Gaussian: the sigma OpenDP certifies through zCDP "
        f"(the one released), delta = {delta:g}."
    )


def release_reading(rel: Release) -> str:
    """Return what an OpenDP release cost and how accurate it is, with its notes.

    Parameters
    ----------
    rel : Release
        The OpenDP release: its cost, accuracy and notes.

    Returns
    -------
    str
    """
    return (
        f"{mechanism_label(rel.mechanism)} noise of scale {rel.scale:,.4g} (OpenDP); certified "
        f"cost epsilon {rel.epsilon:.4g}, delta {rel.delta:g}; "
        f"+/- {rel.half_width:,.4g} at 95%. " + " ".join(f"Note: {n}." for n in rel.notes)
    )


def stale_release_reading(
    query: Query,
    epsilon: float,
    mechanism: str,
    neighbours: str,
    delta: float,
    *,
    other_data: bool = False,
) -> str:
    """Return the note that replaces a release made with settings other than those shown.

    The value is not repeated next to controls it does not belong to; the
    note names the settings it was made for and where it is recorded.

    Parameters
    ----------
    query : Query
        The query the release answered.
    epsilon : float
        The privacy-loss parameter ε (> 0).
    mechanism : str
        Its mechanism.
    neighbours : str
        Its definition of neighbouring tables.
    delta : float
        The δ of approximate differential privacy (0 for pure ε-DP).
    other_data : bool, optional
        It was made on another table.

    Returns
    -------
    str
    """
    data = " on another dataset" if other_data else ""
    return (
        f"The last release ({query.describe()}, epsilon {epsilon:g}, "
        f"{mechanism_label(mechanism)}, neighbouring datasets: {neighbours}, "
        f"delta {delta:g}){data} was made with other settings than those above, so its value "
        "is not shown here. It stays published and charged: see the ledger on the Budget tab."
    )


def _rounds(rel: Release) -> bool:
    """Return True when a release is a count drawn with continuous (Laplace, Gaussian) noise."""
    return rel.query.kind in ("count", "histogram") and not rel.mechanism.is_discrete


def released_values(rel: Release) -> tuple[float, ...]:
    """Return the values to show: counts with continuous noise rounded to whole numbers.

    A count drawn with Laplace or Gaussian noise comes out fractional
    (32,561.8); rounding it is post-processing, which costs no privacy
    (Dwork & Roth 2014, Proposition 2.1). Other releases are shown as drawn.

    Parameters
    ----------
    rel : Release
        The OpenDP release whose values are shown.

    Returns
    -------
    tuple of float
    """
    values = rel.value if isinstance(rel.value, tuple) else (rel.value,)
    return tuple(float(np.round(v)) + 0.0 for v in values) if _rounds(rel) else tuple(values)


def rounding_note(rel: Release) -> str | None:
    """Return the note under a rounded count (``None`` when nothing was rounded).

    Parameters
    ----------
    rel : Release
        The OpenDP release, rounded as :func:`released_values` rounds it.

    Returns
    -------
    str or None
    """
    if not _rounds(rel):
        return None
    drawn = f" (OpenDP drew {rel.value:,.2f})" if not isinstance(rel.value, tuple) else ""
    return (
        f"Rounded to whole counts{drawn}: rounding is post-processing of the release, "
        "so it costs no privacy."
    )


def slope_unit(y: str, x: str) -> str:
    """Return the unit of the slope of ``y`` on ``x``: "hours_per_week per year of age".

    A column named "age" is read in years; any other predictor in its own units.

    Parameters
    ----------
    y : str
        The regressed column.
    x : str
        The regressor column.

    Returns
    -------
    str
    """
    per = "per year of age" if x.strip().lower() == "age" else f"per unit of {x}"
    return f"{y} {per}"


def clipping_reading(t: dp.ClippingTradeoff) -> str:
    """Return the reading under the clipping chart: the best upper bound and its error.

    With a person unit it states the unit: the values are the rows kept (at most c per
    person), the noise is for c rows (sensitivity c (U - L) / n), the sampling error is
    counted by person, and how far leaving the other rows out moved the mean (read from
    the data).

    Parameters
    ----------
    t : dp.ClippingTradeoff
        The clipping trade-off per upper bound.

    Returns
    -------
    str
    """
    leak = (
        " Picking U from this plot uses the data itself: fix it in advance or spend a "
        "little budget on a private quantile."
    )
    best = (
        f"the smallest total error is at U = {t.best_upper:,.4g} (RMSE "
        f"{float(np.min(t.rmse)):,.3g} around a"
    )
    if not t.unit.is_person:
        return (
            f"At epsilon = {t.epsilon:g} over {t.n:,} values, {best} true mean of "
            f"{t.true_mean:,.4g}).{leak}"
        )
    c = t.unit.factor
    rows = "1 row" if c == 1 else f"{c:,} rows"
    out = f"{t.rows_left_out:,} {'row' if t.rows_left_out == 1 else 'rows'} left out"
    text = (
        f"At epsilon = {t.epsilon:g} per person over the {t.n:,} values of {t.people:,} "
        f"people kept (at most {rows} each, a seeded sample; {out}), "
        f"{best} mean of {t.true_mean:,.4g} over the kept rows). The privacy noise is set "
        f"for {rows} per person, sensitivity {c:,} (U - L) / {t.n:,}, and the sampling "
        "noise counts people, not rows."
    )
    if t.rows_left_out and t.every_row_mean is not None:
        text += (
            f" Leaving out the rows beyond {c:,} per person moved the mean from "
            f"{t.every_row_mean:,.4g} (every row) to {t.true_mean:,.4g} (read from the data; "
            "not in the total)."
        )
    return text + leak


def parallel_reading(saving: float) -> str:
    """Return what parallel composition saved the ledger (``LedgerTotals.parallel_saving``).

    Parameters
    ----------
    saving : float
        The epsilon parallel composition saved.

    Returns
    -------
    str
    """
    return (
        f"Parallel composition: the histograms cover disjoint groups of people, so each "
        f"costs its epsilon once. Counting every bar separately would have cost "
        f"{saving:.4g} more."
    )


def worlds_reading(description: str) -> str:
    """Return who the attacker's candidates are (``identifiability_worlds``' description).

    Parameters
    ----------
    description : str
        ``identifiability_worlds``' description.

    Returns
    -------
    str
    """
    return f"Candidates: {description}."


def posterior_reading(
    column: str, true_value: float, rho: float, *, unit: dp.PrivacyUnit | None = None
) -> str:
    """Return the reading under the posterior chart (the most exposed candidate).

    Parameters
    ----------
    column : str
        The column's name.
    true_value : float
        The most exposed candidate's contribution to the sum.
    rho : float
        The bound on the attacker's certainty, in (0, 1).
    unit : dp.PrivacyUnit, optional
        With a person unit, the value is the person's sum over their kept rows.

    Returns
    -------
    str
    """
    if unit is not None and unit.is_person:
        most = "1 row" if unit.factor == 1 else f"{unit.factor:,} rows"
        who = (
            f"the most exposed candidate person (their {column} summed over at most "
            f"{most}: {true_value:,.4g})"
        )
    else:
        who = f"the most exposed candidate ({column} = {true_value:,.4g})"
    return (
        f"The curve follows {who}: "
        "the attacker's certainty peaks when the noisy answer lands on that person's "
        f"value and stays at or below {rho:.1%}."
    )


def sample_aggregate_reading(sa: dp.SampleAggregate, unit: str = "") -> str:
    """Return the reading under the block chart: estimate, noise and its 95% half-width.

    ``unit`` (say "hours_per_week per year of age") follows the two estimates.

    Parameters
    ----------
    sa : dp.SampleAggregate
        The sample-and-aggregate result.
    unit : str, optional
        The column's unit (none by default).

    Returns
    -------
    str
    """
    u = f" {unit}" if unit else ""
    return (
        f"k = {sa.k} blocks of {sa.block_size:,} people; the clamped average is "
        f"{sa.aggregate:,.4g}{u} against {sa.full_data_value:,.4g}{u} on all records. At "
        f"epsilon = {sa.epsilon:g} the noise scale is {sa.scale:,.4g}, so the release is "
        f"within +/- {sa.half_width:,.4g} with 95% confidence. More blocks: less "
        "noise, but each block's statistic is noisier."
    )


def sample_aggregate_release_reading(statistic: str, value: float, epsilon: float) -> str:
    """Return the message after a sample-and-aggregate release through OpenDP.

    Parameters
    ----------
    statistic : str
        "median" or "slope".
    value : float
        The released value.
    epsilon : float
        The privacy-loss parameter ε (> 0).

    Returns
    -------
    str
    """
    return f"Released {statistic}: {format_number(value)} (certified epsilon {epsilon:.4g})."
