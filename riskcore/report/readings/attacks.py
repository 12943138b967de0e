"""Readings of the homogeneity, differencing and two-release attacks, and of noise against them."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore.attacks import DifferencingResult, HomogeneityResult, TwoReleaseResult
from riskcore.engine import EncodedTable
from riskcore.report.readings._format import format_number, join_names

__all__ = [
    "attacks_intro",
    "differencing_reading",
    "estimate_reading",
    "exposed_table",
    "homogeneity_reading",
    "needs_qis_reading",
    "noise_curve",
    "noise_marker_label",
    "noise_point",
    "noise_reading",
    "people_note",
    "queries_list",
    "recovered_metric",
    "two_release_table",
]


def attacks_intro() -> str:
    """Return the Attacks page's opening paragraph.

    Returns
    -------
    str
    """
    return (
        "What an attacker can actually do with this table once names and other direct "
        "identifiers are removed: join it to a voter roll, subtract two published counts, or "
        "read a sensitive value off a class where everyone shares it."
    )


def people_note(person: str, n_people: int, n_rows: int) -> str:
    """Return the line that says the attacks count people, and how many in how many rows.

    Parameters
    ----------
    person : str
        The column linking a person's rows.
    n_people, n_rows : int
        The table's people and rows.

    Returns
    -------
    str
        For example "Counted in people: patient_id links a person's rows, 2,500 people in
        8,177 rows. ..."
    """
    return (
        f"Counted in people: {person} links a person's rows, {n_people:,} people in "
        f"{n_rows:,} rows. Every target, match, group and class below is a person, counted "
        "once however many rows they have."
    )


@renamed_arguments(qis="quasi_identifiers")
def homogeneity_reading(
    h: HomogeneityResult, quasi_identifiers: tuple[str, ...] | list[str]
) -> str:
    """Return the reading under the homogeneity results.

    Parameters
    ----------
    h : HomogeneityResult
        The homogeneity attack's result.
    quasi_identifiers : tuple of str or list of str
        The quasi-identifier columns.

    Returns
    -------
    str
    """
    if not len(h.exposed):
        how = "for certain" if h.p >= 1 else f"with confidence {h.p:.0%} or more"
        return (
            f"No class reveals {h.attribute} {how}: knowing "
            f"someone's {join_names(quasi_identifiers)} does not pin down their {h.attribute}."
        )
    share = h.exposed_people / max(h.n_people, 1)
    if h.person is None:
        where = (
            f"everyone has the same {h.attribute}"
            if h.p >= 1.0
            else f"at least {h.p:.0%} share one {h.attribute}"
        )
        rows = ""
    else:
        where = (
            f"every person has had the same {h.attribute} on one of their rows"
            if h.p >= 1.0
            else f"at least {h.p:.0%} of the people have had one {h.attribute}"
        )
        rows = f"; {h.exposed_records:,} of {h.n_records:,} rows"
    return (
        f"{h.exposed_people:,} people ({share:.1%}{rows}) sit in {len(h.exposed):,} classes "
        f"where {where}: anyone who knows their {join_names(quasi_identifiers)} learns it."
    )


@renamed_arguments(df="data", qis="quasi_identifiers")
def exposed_table(
    data: pd.DataFrame,
    enc: EncodedTable,
    quasi_identifiers: list[str] | tuple[str, ...],
    h: HomogeneityResult,
    limit: int = 200,
) -> pd.DataFrame:
    """Return the exposed classes (largest first) with their QI values and leaked value.

    With a person column (``h.person``) the classes are people's signatures
    (a class of several QI tuples shows its values joined by " | "), and a
    ``rows`` column gives their people's rows.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    enc : EncodedTable
        ``data`` encoded (the codes the attack used).
    quasi_identifiers : list of str or tuple of str
        The quasi-identifier columns.
    h : HomogeneityResult
        The homogeneity attack's result.
    limit : int, optional
        At most this many rows.

    Returns
    -------
    pandas.DataFrame
    """
    ids = h.exposed[:limit]
    rows = enc.classes(list(quasi_identifiers), person=h.person).values(ids)
    rows.insert(0, "class", ids)
    rows["people"] = h.sizes[:limit]
    if h.person is not None:
        rows["rows"] = h.class_rows[:limit]
    rows[f"leaked {h.attribute}"] = h.top_value[:limit]
    rows["confidence"] = h.top_share[:limit]
    return rows


def queries_list(
    r: DifferencingResult,
    *,
    number_format: str | None = None,
    escape: Callable[[object], str] = str,
    labels: Mapping[str, str] | None = None,
) -> str:
    """Return the two published queries and their answers as a numbered markdown list.

    ``number_format`` formats the answers; by default :func:`._format.format_number`
    (a count as a whole number with thousands separators, never "1e+06").
    ``escape`` escapes the query texts (they quote column names and values);
    ``labels`` gives readers' names for columns (see ``DifferencingResult.queries``).

    Parameters
    ----------
    r : DifferencingResult
        The differencing attack's result.
    number_format : str, optional
        A format spec for the answers (default :func:`._format.format_number`).
    escape : callable, optional
        Escapes user-supplied text (column names, values) for where it is shown.
    labels : mapping of str to str, optional
        Readers' names for columns.

    Returns
    -------
    str
    """
    q1, q2 = r.queries(labels)
    return (
        f"1. {escape(q1)}: **{_answer(r, r.q_all, number_format)}**\n"
        f"2. {escape(q2)}: **{_answer(r, r.q_rest, number_format)}**"
    )


def _answer(r: DifferencingResult, x: float, number_format: str | None = None) -> str:
    """Format one answer of the differencing attack: counts whole, nothing in exponents."""
    if number_format is not None:
        return format(x, number_format)
    return format_number(x, integer=r.aggregate == "count" and float(x).is_integer())


def differencing_reading(r: DifferencingResult) -> str:
    """Return the reading under the two queries.

    Parameters
    ----------
    r : DifferencingResult
        The differencing attack's result.

    Returns
    -------
    str
    """
    holds = "shares" if r.person is None else "holds"
    held = "" if r.person is None else " on one of their rows"
    if r.exact:
        what = (
            ("has" if r.recovered == 1 else "does not have")
            + f" {' and '.join(f'{c} = {v}' for c, v in r.condition)}"
            if r.aggregate == "count"
            else f"has {r.column} = {_answer(r, r.recovered)}"
        )
        rule = (
            f" Both answers come from at least {r.min_cell} people, so a minimum-cell-size "
            "rule would publish them."
            if r.passes_cell_rule
            else f" (A cell-size rule of {r.min_cell} would suppress at least one answer here; "
            "with larger groups it would not.)"
        )
        return (
            f"The difference {_answer(r, r.q_all)} - {_answer(r, r.q_rest)} tells the attacker "
            "the target "
            f"{what}: {r.group_size} person {holds} the known values{held}, so the difference is "
            "theirs." + rule
        )
    return (
        f"{r.group_size:,} people {'share' if r.person is None else 'hold'} the target's known "
        f"values{held}, so the difference ({_answer(r, r.recovered)}) is a total over those "
        f"{r.group_size:,} people, not the target's own value."
    )


def noise_point(epsilon: float, sensitivity: float, within: float) -> tuple[float, float]:
    """Return (attacker's success, 95% error of one answer) at ``epsilon``.

    The success is :func:`riskcore.attacks.difference_within_probability`,
    P(|D| <= x) = 1 - e^{-x/b} (1 + x / (2b)) for the difference D of two
    Laplace(b) noises, b = sensitivity / epsilon; the error is the Laplace
    95% half-width b ln 20 (P(|X| > x) = e^{-x/b}).

    Parameters
    ----------
    epsilon : float
        The privacy-loss parameter ε (> 0).
    sensitivity : float
        The query's sensitivity.
    within : float
        The distance the attacker's success is counted within.

    Returns
    -------
    tuple of (float, float)
    """
    from riskcore.attacks import difference_within_probability
    from riskcore.dp import laplace_half_width

    p = float(difference_within_probability(within, epsilon, sensitivity))
    return p, float(laplace_half_width(sensitivity / epsilon))


def noise_reading(epsilon: float, sensitivity: float, within: float) -> str:
    """Return the reading under the noise plot at the chosen epsilon.

    Parameters
    ----------
    epsilon, sensitivity, within : float
        The point the reading describes, as :func:`noise_point`'s.

    Returns
    -------
    str
    """
    p, half = noise_point(epsilon, sensitivity, within)
    return (
        f"At epsilon = {epsilon:g} per query, each answer is off by up to +/- "
        f"{half:,.1f} (95%), and the attacker's difference lands within "
        f"+/- {within:g} of the truth with probability {p:.1%}, computed exactly from the "
        "Laplace distribution (it was 100% without noise)."
    )


def noise_marker_label(epsilon: float, sensitivity: float, within: float) -> str:
    """Return the label of the chosen-epsilon marker on the noise plot.

    The same numbers as :func:`noise_reading` (both from :func:`noise_point`).

    Parameters
    ----------
    epsilon, sensitivity, within : float
        As :func:`noise_reading`.

    Returns
    -------
    str
        One line, short enough for the plot.
    """
    p, half = noise_point(epsilon, sensitivity, within)
    return (
        f"epsilon = {epsilon:g}: attacker within +/- {within:g} in {p:.1%} of tries; "
        f"error +/- {half:,.1f}"
    )


def estimate_reading(draws: np.ndarray, truth: float, within: float) -> str:
    """Return the reading under the histogram of simulated attacker estimates.

    The share is counted on the simulated ``draws`` (|draw - truth| <= within).

    Parameters
    ----------
    draws : numpy.ndarray
        The simulated attacker's estimates.
    truth : float
        The target's true value.
    within : float
        The distance from the truth an estimate counts as a success within.

    Returns
    -------
    str
    """
    d = np.asarray(draws, dtype=float)
    share = float(np.mean(np.abs(d - truth) <= within)) if d.size else 0.0
    return (
        f"In this simulation {share:.1%} of the {d.size:,} attacker's estimates land within "
        f"+/- {within:g} of the true value {format_number(truth)}; the rest point to a wrong "
        "answer."
    )


def noise_curve(within: float, sensitivity: float = 1.0) -> pd.DataFrame:
    """Attacker's success and the answer's 95% error over epsilon = 0.01 .. 10 (log grid).

    ``p within`` is :func:`riskcore.attacks.difference_within_probability`;
    ``error95`` = b ln 20 with b = sensitivity / epsilon, since
    P(|Laplace(b)| > x) = e^{-x/b}.

    Parameters
    ----------
    within : float
        The distance from the truth the attacker's success is counted within.
    sensitivity : float, optional
        The query's sensitivity (the Laplace scale is sensitivity / epsilon).

    Returns
    -------
    pandas.DataFrame
    """
    from riskcore.attacks import difference_within_probability
    from riskcore.dp import LAPLACE_95, epsilon_grid

    eps = epsilon_grid()
    return pd.DataFrame(
        {
            "epsilon": eps,
            "p within": difference_within_probability(within, eps, sensitivity),
            "error95": sensitivity * LAPLACE_95 / eps,
        }
    )


@renamed_arguments(df="data")
def two_release_table(
    data: pd.DataFrame, columns: list[str], limit: int = 5_000, *, person: str | None = None
) -> tuple[TwoReleaseResult, pd.DataFrame]:
    """Combine released columns (first ``limit`` rows) and tabulate, exact recoveries first.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    columns : list of str
        The released columns combined.
    limit : int, optional
        At most this many rows.
    person : str, optional
        The column linking a person's rows: the result counts people too
        (the table shows the released columns only).

    Returns
    -------
    tuple of (TwoReleaseResult, pandas.DataFrame)
    """
    from riskcore.attacks import two_release_attack

    part = data[list(columns)].head(limit)
    if person is None or person in columns:
        res = two_release_attack(part)
    else:
        res = two_release_attack(data[[*columns, person]].head(limit), person=person)
    table = part.assign(inferred=res.inferred, exact=res.exact).sort_values(
        "exact", ascending=False, kind="stable"
    )
    return res, table


def recovered_metric(result: TwoReleaseResult) -> tuple[str, str]:
    """Return the label and value of the two-release metric: records, or people, recovered.

    Parameters
    ----------
    result : TwoReleaseResult
        The two-release attack's result.

    Returns
    -------
    tuple of (str, str)
        ("Values recovered exactly", "3 of 40") without a person column;
        ("People with a value recovered exactly", "2 of 12 (3 of 40 rows)") with one.
    """
    if result.person is None:
        return "Values recovered exactly", f"{result.n_exact:,} of {len(result.exact):,}"
    return (
        "People with a value recovered exactly",
        f"{result.n_exact_people:,} of {result.n_people:,} "
        f"({result.n_exact:,} of {len(result.exact):,} rows)",
    )


_NEEDS_QIS = {
    "linkage": "the linkage attack joins the attacker's table on them",
    "homogeneity": "the homogeneity attack reads the classes they form",
}


def needs_qis_reading(attack: str) -> str:
    """Return why an attack tab waits for quasi-identifiers (the other attacks do not).

    Parameters
    ----------
    attack : str
        "linkage" or "homogeneity".

    Returns
    -------
    str
    """
    return (
        f"Tag at least one quasi-identifier on the Data page: {_NEEDS_QIS[attack]}. The "
        "differencing and two-release attacks do not need them."
    )
