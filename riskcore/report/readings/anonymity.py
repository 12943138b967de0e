"""Readings of k-anonymity and re-identification risk: class sizes, candidates, targets.

Pure functions over :class:`riskcore.metrics.Assessment`: the binned
class-size histogram, the "candidates per record" distribution, the risk and
target tables, and the one-line readings printed under each of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore.metrics import Assessment, ClassSizeDistribution
from riskcore.metrics.anonymity import threshold_meaning
from riskcore.report.readings._format import join_names

__all__ = [
    "MISSING_LABELS",
    "SIZE_BINS",
    "candidate_table",
    "candidates_reading",
    "histogram_reading",
    "missing_reading",
    "risk_reading",
    "risk_table",
    "size_histogram",
]

#: Class-size bins of the histogram: (label, lowest size, highest size).
SIZE_BINS: tuple[tuple[str, int, float], ...] = (
    ("1 (unique)", 1, 1),
    ("2", 2, 2),
    ("3-4", 3, 4),
    ("5-10", 5, 10),
    ("11-19", 11, 19),
    ("20-49", 20, 49),
    ("50-99", 50, 99),
    ("100+", 100, np.inf),
)


#: The missing-value policies (:mod:`riskcore.metrics.missing`), as offered to the user.
MISSING_LABELS: dict[str, str] = {
    "own": "a value of its own",
    "any": "matches any value (sdcMicro)",
}


def missing_reading(policy: str, missing_records: int, *, people: bool = False) -> str:
    """Return the "Missing values: ..." line shown beside every class-based figure.

    Parameters
    ----------
    policy : {"own", "any"}
        The missing-value policy the figures were computed under.
    missing_records : int
        Records with at least one missing quasi-identifier value (people with
        one on a row, with a person column).
    people : bool, default False
        The figures count people (a person column is set).

    Returns
    -------
    str
    """
    if policy not in MISSING_LABELS:
        raise ValueError(f"unknown missing-value policy {policy!r}")
    if missing_records == 0:
        return (
            "Missing values: no quasi-identifier value is missing, so both policies (a value "
            "of its own, or matches any value) give the same figures."
        )
    if people:
        who = f"{missing_records:,} {'person' if missing_records == 1 else 'people'}"
    else:
        who = f"{missing_records:,} record{'s' if missing_records != 1 else ''}"
    if policy == "own":
        return (
            f"Missing values: a missing quasi-identifier value counts as a value of its own "
            f"({who} {'has' if missing_records == 1 else 'have'} one); under sdcMicro's "
            "convention (matches any value) each would count with every record it could be, "
            "and no record's risk would be higher."
        )
    return (
        f"Missing values match any value (sdcMicro's convention): each record counts every "
        f"record that agrees with it wherever both are known. This lowers the risk of the "
        f"{who} with a missing quasi-identifier value and of the records they match, and raises "
        "no one's; classes then overlap, so k, risk, l and t are per record."
    )


def size_histogram(dist: ClassSizeDistribution, *, people: bool = False) -> pd.DataFrame:
    """Bin records by the size of their equivalence class.

    Parameters
    ----------
    dist : ClassSizeDistribution
        The class-size distribution of the assessment.
    people : bool, default False
        The classes count people (a person column is set): the count column
        is then ``people``.

    Returns
    -------
    pandas.DataFrame
        Columns ``class size`` (bin label), ``records`` (``people`` with a
        person column), ``classes``, ``share`` (of records, or people); one
        row per bin of :data:`SIZE_BINS`, empty bins included so the axis is
        stable.
    """
    size = np.asarray(dist.size, dtype=np.int64)
    recs = np.asarray(dist.n_records, dtype=np.int64)
    cls = np.asarray(dist.n_classes, dtype=np.int64)
    total = recs.sum()
    rows = []
    for label, lo, hi in SIZE_BINS:
        m = (size >= lo) & (size <= hi)
        r = int(recs[m].sum())
        rows.append(
            {
                "class size": label,
                "people" if people else "records": r,
                "classes": int(cls[m].sum()),
                "share": r / total if total else 0.0,
            }
        )
    return pd.DataFrame(rows)


def candidate_table(dist: ClassSizeDistribution, *, people: bool = False) -> pd.DataFrame:
    """Cumulative share of records by how many candidates share their QI values.

    A record in a class of size f has f candidates (itself included): an
    attacker who knows its QI values must pick among f people.

    Parameters
    ----------
    dist : ClassSizeDistribution
        The class-size distribution of the assessment.
    people : bool, default False
        The classes count people (a person column is set): the count column
        is then ``people`` and a candidate is a person.

    Returns
    -------
    pandas.DataFrame
        Columns ``candidates`` (class size), ``records`` (``people`` with a
        person column), ``cumulative share`` (share of records, or people,
        with at most that many candidates).
    """
    size = np.asarray(dist.size, dtype=np.int64)
    recs = np.asarray(dist.n_records, dtype=np.int64)
    total = recs.sum()
    cum = np.cumsum(recs) / total if total else np.zeros(len(recs))
    return pd.DataFrame(
        {"candidates": size, "people" if people else "records": recs, "cumulative share": cum}
    )


def _records_below_11(dist: ClassSizeDistribution) -> int:
    """Return the records in classes of fewer than 11 (the US cell-size rule)."""
    return int(sum(r for s, r in zip(dist.size, dist.n_records, strict=True) if s < 11))


def histogram_reading(assessment: Assessment) -> str:
    """Return the one-line reading under the class-size histogram.

    Parameters
    ----------
    assessment : Assessment
        The assessment (:func:`riskcore.metrics.assess`): its uniques, class sizes and k.

    Returns
    -------
    str
    """
    n = assessment.n_people  # the units the classes count (the rows without a person column)
    u = assessment.unique_records
    qis = join_names(assessment.quasi_identifiers)
    below = _records_below_11(assessment.anonymity.distribution)
    return (
        f"{u:,} people ({u / n:.1%}) are unique on {qis}; {below:,} ({below / n:.1%}) share "
        f"their values with fewer than 10 others (class size under 11, the US public-release "
        f"cell-size rule). k = {assessment.k}."
    )


def candidates_reading(assessment: Assessment) -> str:
    """Return the reading under the candidates-per-record curve.

    Parameters
    ----------
    assessment : Assessment
        The assessment: its class sizes and its share of uniques.

    Returns
    -------
    str
    """
    n = assessment.n_people  # the units the classes count (the rows without a person column)
    below = _records_below_11(assessment.anonymity.distribution)
    return (
        f"An attacker who knows someone's {join_names(assessment.quasi_identifiers)} is left "
        f"with fewer than 11 candidates for {below / n if n else 0.0:.1%} of people, and with "
        f"exactly one for {assessment.anonymity.unique_share:.1%}."
    )


def risk_table(assessment: Assessment) -> pd.DataFrame:
    """Return prosecutor / journalist / marketer risk as one table (rows = models).

    Parameters
    ----------
    assessment : Assessment
        The assessment: its prosecutor's, journalist's and marketer's risks.

    Returns
    -------
    pandas.DataFrame
        Prosecutor / journalist / marketer risk as one table (rows = models);
        the share at risk is of "people" when a person column is set, else of
        "records".
    """
    unit = "records" if assessment.person is None else "people"
    rows = []
    for r in (assessment.prosecutor, assessment.journalist, assessment.marketer):
        if r is None:
            continue
        rows.append(
            {
                "attacker model": r.model,
                "highest record risk" if unit == "records" else "highest person risk": (
                    r.highest_risk
                ),
                f"{unit} with risk > {r.threshold:g}": r.records_at_risk,
                "expected share re-identified": r.success_rate,
                "mean class risk": r.mean_class_risk,
            }
        )
    return pd.DataFrame(rows)


def risk_reading(assessment: Assessment) -> str:
    """Return the reading under the risk table: what prosecutor risk and the threshold mean.

    Parameters
    ----------
    assessment : Assessment
        The assessment: its threshold and how the population was modelled.

    Returns
    -------
    str
    """
    a = assessment
    at_risk = (
        "Records at risk = share of people whose record risk 1/(class size) exceeds"
        if a.person is None
        else "People at risk = share of people whose risk 1/(class size in people) exceeds"
    )
    return (
        f"Prosecutor: the attacker knows the person is in the table. {at_risk} "
        f"{a.threshold:.4g} ({threshold_meaning(a.threshold)}; El Emam 2013)."
        + (
            f" Journalist and marketer: {a.population_note}."
            if a.journalist
            else " Give a sampling fraction or a sampling-weight column for journalist and "
            "marketer risk."
        )
    )
