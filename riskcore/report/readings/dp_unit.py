"""Readings of the unit of privacy: one row, or one person with at most c rows.

The sentences the DP and Local DP pages and the ledger show about what an epsilon
protects (:mod:`riskcore.dp.contributions`): the unit, how many rows people have (read
from the data, outside the guarantee), what a bound on rows per person costs a query,
the rows a release left out, and the ledger's releases made with another unit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from riskcore.report.readings._format import format_number, mechanism_label, plural

if TYPE_CHECKING:
    from riskcore import dp
    from riskcore.dp.contributions import BoundedRows, BoundTradeoff, PrivacyUnit, RowsPerPerson
    from riskcore.dp.local import GrrResult, LaplaceLdpResult

__all__ = [
    "bound_tradeoff_reading",
    "bounded_rows_reading",
    "ledger_unit_reading",
    "local_unit_reading",
    "release_unit_reading",
    "rows_per_person_reading",
    "unit_phrase",
]


def _rows(n: int) -> str:
    return f"{n:,} {plural(n, 'row', 'rows')}"


def _share(part: float, whole: float) -> str:
    return f"{part / whole:.0%}" if whole else "0%"


def unit_phrase(unit: PrivacyUnit) -> str:
    """Return what one epsilon protects, in a few words.

    "one person, at most 4 rows each"; "one row (each row is taken to be a different
    person)"; for sample and aggregate, "one person (all of their rows in one block)".

    Parameters
    ----------
    unit : PrivacyUnit
        The unit of privacy.

    Returns
    -------
    str
    """
    if not unit.is_person:
        return "one row (each row is taken to be a different person)"
    if unit.max_rows is None:
        return "one person (all of their rows in one block)"
    return f"one person, at most {_rows(unit.factor)} each"


def release_unit_reading(unit: PrivacyUnit) -> str:
    """Return the sentence stating the unit of privacy of the page's releases.

    With a person column: the bound c, that rows beyond it are left out by a seeded
    sample before the query, and that the noise is set for c rows, so the epsilon is
    per person (Wilson et al. 2020). Without: that each row is taken to be a different
    person, and what that means when it is not so (group privacy, Dwork & Roth 2014,
    Theorem 2.2).

    Parameters
    ----------
    unit : PrivacyUnit
        The unit of privacy of the page's releases: a person (with its bound c) or a row.

    Returns
    -------
    str
    """
    if not unit.is_person:
        return (
            f"Unit of privacy: {unit_phrase(unit)}. If one person can have several rows "
            "(visits, claims), tag the column that links them as the person on the Data "
            "page: otherwise a person with m rows is protected only at m times the epsilon "
            "stated."
        )
    if unit.max_rows is None:
        return (
            f"Unit of privacy: {unit_phrase(unit)}, linked by {unit.person}. Each block "
            "holds whole people, so one person changes one block whatever their number of "
            "rows, and the epsilon is per person."
        )
    c = unit.factor
    return (
        f"Unit of privacy: {unit_phrase(unit)}, linked by {unit.person}. Before each "
        f"query, a person's rows beyond {c:,} are left out (a seeded sample of their rows), "
        f"and the noise is set for {_rows(c)}, {c:,} times what one row needs: every "
        "epsilon here is per person."
    )


def rows_per_person_reading(rows: RowsPerPerson, c: int) -> str:
    """Return how many rows people have and what a bound of c keeps, marked as read from the data.

    Parameters
    ----------
    rows : RowsPerPerson
        How many people have each number of rows, read from the data.
    c : int
        The bound on rows per person.

    Returns
    -------
    str
    """
    if not rows.people:
        return f"Read from the data: no row has a {rows.person}."
    most = rows.most_rows
    span = f"1 to {most:,} rows each" if most > 1 else "1 row each"
    left = rows.rows - rows.kept(c)
    within = rows.people_within(c)
    text = (
        f"Read from the data, so not protected: {rows.people:,} people have {span} "
        f"({_rows(rows.rows)}). A bound of c = {c:,} keeps every row of {within:,} "
        f"{plural(within, 'person', 'people')} ({_share(within, rows.people)}) and leaves "
        f"out {left:,} of the {_rows(rows.rows)} ({_share(left, rows.rows)})."
    )
    if rows.without_person:
        text += (
            f" {_rows(rows.without_person)} {plural(rows.without_person, 'has', 'have')} no "
            f"{rows.person}: they are left out of every release."
        )
    return text + (
        " Choosing c from these figures uses the data itself; a bound fixed in advance "
        "(from how the data were collected) keeps the guarantee exact."
    )


def bound_tradeoff_reading(t: BoundTradeoff, *, what: str, unit: str) -> str:
    """Return the one-line reading under the bound's trade-off: rows left out against noise.

    Parameters
    ----------
    t : BoundTradeoff
        The error from rows left out, the noise and their total per bound c.
    what : str
        What the query answers ("count", "sum of amount").
    unit : str
        Its unit ("rows", "amount units").

    Returns
    -------
    str
    """
    i = t.at(t.chosen)
    conf = f"{1 - t.alpha:.0%}"
    moved = format_number(float(t.dropped_error[i]), digits=4)
    noise = format_number(float(t.noise[i]), digits=4)
    total = format_number(float(t.total[i]), digits=4)
    text = (
        f"At c = {t.chosen:,} rows per person, leaving out the rows beyond it changes the "
        f"{what} by {moved} {unit} (read from the data), and the "
        f"{mechanism_label(t.mechanism)} noise is +/- {noise} at {conf}: the release is "
        f"within +/- {total} of the {what} over every row."
    )
    if t.keeps_all is not None and t.keeps_all != t.chosen:
        j = t.at(t.keeps_all)
        text += (
            f" c = {t.keeps_all:,} would leave no row out, with noise of "
            f"+/- {format_number(float(t.noise[j]), digits=4)}."
        )
    elif t.keeps_all is None:
        text += f" Every bound up to c = {int(t.bounds[-1]):,} leaves some rows out."
    return text + (
        f" The smallest total on this plot is at c = {t.best:,}; picking c from it reads "
        "the data, so fix c in advance where the guarantee must be exact."
    )


def bounded_rows_reading(bounded: BoundedRows | None) -> str | None:
    """Return what a release's bound on rows per person left out (None for one row).

    Parameters
    ----------
    bounded : BoundedRows or None
        ``Release.bounded``.

    Returns
    -------
    str or None
    """
    if bounded is None or not bounded.unit.is_person:
        return None
    c = bounded.unit.factor
    text = (
        f"Before the query, each person's rows beyond {c:,} were left out: "
        f"{bounded.beyond_bound:,} of the query's {_rows(bounded.rows)} (a seeded sample of "
        f"each person's rows, seed {bounded.seed}). The query read the other "
        f"{_rows(bounded.kept)}, of {bounded.people:,} "
        f"{plural(bounded.people, 'person', 'people')}."
    )
    if bounded.without_person:
        text += (
            f" {_rows(bounded.without_person)} without a {bounded.unit.person} "
            f"{plural(bounded.without_person, 'was', 'were')} left out too."
        )
    return text


def local_unit_reading(result: GrrResult | LaplaceLdpResult) -> str | None:
    """Return how a local-DP survey bounds each person's reports (None for one row).

    Each person sends at most c reports, each at epsilon / c: together epsilon per
    person (basic composition, Dwork & Roth 2014, Theorem 3.16).

    Parameters
    ----------
    result : GrrResult or LaplaceLdpResult
        The local-DP simulation.

    Returns
    -------
    str or None
    """
    unit = result.unit
    if not unit.is_person:
        return None
    c = unit.factor
    per = format_number(result.epsilon / c, digits=3)
    text = (
        f"Each person sends at most {c:,} {plural(c, 'report', 'reports')}, each "
        f"randomized at epsilon {format_number(result.epsilon, digits=3)} / {c:,} = {per}, "
        f"so together they cost epsilon {format_number(result.epsilon, digits=3)} per "
        f"person; {result.n:,} reports were sent."
    )
    if result.left_out:
        text += (
            f" {_rows(result.left_out)} (beyond {c:,} per person, or without a "
            f"{unit.person}) {plural(result.left_out, 'was', 'were')} not sent."
        )
    return text


def ledger_unit_reading(ledger: dp.PrivacyLedger, person: str | None) -> str | None:
    """Return the warning about a ledger's releases made with another unit (None if none).

    With a person column, a release made with one row as the unit (or with another
    person column) protects less than the person: for a person with m rows it costs up
    to m times its epsilon (group privacy, Dwork & Roth 2014, Theorem 2.2), so its
    epsilon does not add up per person with the others.

    Parameters
    ----------
    ledger : dp.PrivacyLedger
        The ledger and its entries.
    person : str or None
        The person column of the data now.

    Returns
    -------
    str or None
    """
    if person is None or not ledger.entries:
        return None
    other = [e for e in ledger.entries if e.unit.person != person]
    if not other:
        return None
    n, total = len(other), len(ledger.entries)
    eps = format_number(float(np.sum([e.epsilon for e in other])), digits=4)
    return (
        f"{n:,} of the {total:,} {plural(total, 'release', 'releases')} in this ledger "
        f"(epsilon {eps} in all) {plural(n, 'was', 'were')} made with another unit than one "
        f"person ({person}): for a person with m rows {plural(n, 'it costs', 'they cost')} "
        "up to m times the epsilon recorded (group privacy, Dwork & Roth 2014, Theorem 2.2)."
    )
