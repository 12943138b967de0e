"""Plain-language readings and tables for the differential-privacy pages.

Pure functions from riskcore results to sentences and DataFrames, so the
pages only render. Numbers are formatted with thousands separators and
shares as percentages. The readings of composition and the ledger live in
:mod:`riskcore.report.readings.composition` and are re-exported here.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from riskcore import dp
from riskcore._deprecation import renamed_arguments
from riskcore.dp import local as ldp
from riskcore.engine import EncodedTable
from riskcore.report.readings.composition import (
    ACCOUNTANTS,
    accountant_crossings,
    accountant_totals_reading,
    coinciding_accountants,
    composition_reading,
    composition_window,
    ledger_table,
    queries_allowed,
)
from riskcore.report.readings.composition import COINCIDE_SHARE as COINCIDE_SHARE
from riskcore.report.readings.composition import LOG_SPREAD as LOG_SPREAD

__all__ = [
    "ACCOUNTANTS",
    "EPSILON_STEPS",
    "accountant_crossings",
    "accountant_totals_reading",
    "candidates_description",
    "categorical_columns",
    "coinciding_accountants",
    "composition_reading",
    "composition_window",
    "dp_intro",
    "error_reading",
    "error_table",
    "gaussian_reference_reading",
    "grr_reading",
    "grr_table",
    "identifiability_reading",
    "identifiability_worlds",
    "ldp_planning",
    "ledger_table",
    "mechanisms_for",
    "planning_reading",
    "preferred_first",
    "queries_allowed",
    "solver_table",
    "survey_columns",
]

EPSILON_STEPS: tuple[float, ...] = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)


def dp_intro() -> str:
    """Return the Differential privacy page's opening paragraph.

    Returns
    -------
    str
    """
    return (
        "Instead of publishing exact answers, add calibrated noise so no single person's row "
        "changes what comes out by much. Epsilon measures how much: smaller epsilon, more "
        "privacy, more noise. Every value offered here as a release is drawn by OpenDP; the "
        "bands on the plots are numpy simulations and are labelled as such."
    )


def mechanisms_for(kind: str) -> tuple[str, ...]:
    """Return the mechanisms compared for a query kind (the discrete ones for counts only).

    Parameters
    ----------
    kind : str
        The query kind ("count", "sum", "mean", "histogram").

    Returns
    -------
    tuple of str
    """
    if kind in ("count", "histogram"):
        return ("laplace", "gaussian", "discrete_laplace", "discrete_gaussian")
    return ("laplace", "gaussian")


def _num(x: float) -> str:
    if not math.isfinite(x):
        return "n/a"
    a = abs(x)
    if a >= 100:
        return f"{x:,.0f}"
    if a >= 1:
        return f"{x:,.2f}".rstrip("0").rstrip(".")
    return f"{x:.3g}"


def _pct(x: float) -> str:
    if not math.isfinite(x):
        return "n/a"
    if x >= 0.1:
        return f"{x:.0%}"
    if x >= 0.001:
        return f"{x:.2%}"
    return f"{x * 100:.2g}%"


def error_reading(curve: dp.ErrorCurve, epsilon: float, *, what: str) -> str:
    """Return "at epsilon = 1 this count is 7,161 +/- 3 (0.04%); at 0.01 it is +/- 300".

    Parameters
    ----------
    curve : dp.ErrorCurve
        The error curve of one mechanism.
    epsilon : float
        The privacy-loss parameter ε (> 0).
    what : str
        What is answered ("count").

    Returns
    -------
    str
    """
    here = curve.at(epsilon)
    low = curve.at(0.01)
    conf = f"{1 - curve.alpha:.0%}"
    rel = here.half_width / abs(curve.true_answer) if curve.true_answer else float("nan")
    rel_txt = f" ({_pct(rel)} of it)" if math.isfinite(rel) else ""
    return (
        f"At epsilon = {epsilon:g} this {what} is {_num(curve.true_answer)} +/- "
        f"{_num(here.half_width)}{rel_txt} with {conf} confidence using "
        f"{dp.MECHANISM_LABELS[curve.mechanism]} noise; at epsilon = 0.01 it is "
        f"+/- {_num(low.half_width)}."
    )


def error_table(curves: dict[str, dp.ErrorCurve], epsilon: float) -> pd.DataFrame:
    """Return one row per mechanism: scale, 95% half-width, E|error|, relative error.

    Parameters
    ----------
    curves : dict of str to dp.ErrorCurve
        Per mechanism, its error curve.
    epsilon : float
        The privacy-loss parameter ε (> 0).

    Returns
    -------
    pandas.DataFrame
    """
    rows = []
    for mech, c in curves.items():
        e = c.at(epsilon)
        rel = e.half_width / abs(c.true_answer) if c.true_answer else float("nan")
        rows.append(
            {
                "mechanism": dp.MECHANISM_LABELS[mech],
                "noise scale": e.scale,
                f"+/- ({1 - c.alpha:.0%})": e.half_width,
                "expected |error|": e.expected_abs,
                "relative error": rel,
            }
        )
    return pd.DataFrame(rows)


@renamed_arguments(sens="sensitivity")
def gaussian_reference_reading(sensitivity: dp.Sensitivity, epsilon: float, delta: float) -> str:
    """Return how much more noise OpenDP's certified Gaussian adds than the analytic optimum.

    OpenDP certifies the Gaussian through zCDP (Bun & Steinke 2016) converted
    to (epsilon, delta) (Canonne, Kamath & Steinke 2020); the analytic
    calibration of Balle & Wang (2018) is the smallest sigma that is
    (epsilon, delta)-DP. The page plans, releases and charges the first.

    Parameters
    ----------
    sensitivity : dp.Sensitivity
        The query's sensitivity (its L2 is used).
    epsilon : float
        The privacy-loss parameter ε (> 0).
    delta : float
        The δ both calibrations are made at, in (0, 1).

    Returns
    -------
    str
    """
    certified = dp.noise_scale("gaussian", sensitivity, epsilon, delta=delta)
    analytic = dp.gaussian_sigma_analytic(sensitivity.l2, epsilon, delta)
    return (
        f"OpenDP certifies the Gaussian through zCDP: at epsilon = {epsilon:g} and "
        f"delta = {delta:g} it adds noise of sigma {certified:,.3g}, and the plots, tables "
        f"and ledger use that. The analytic calibration (Balle & Wang 2018) would need "
        f"sigma {analytic:,.3g} instead: the certified release adds "
        f"{certified / analytic - 1:.1%} more noise than the analytic optimum."
    )


@renamed_arguments(sens="sensitivity")
def solver_table(
    sensitivity: dp.Sensitivity,
    mechanisms: tuple[str, ...],
    *,
    accuracy: float,
    epsilon: float,
    alpha: float,
    delta: float,
) -> pd.DataFrame:
    """Return, per mechanism, the epsilon a target accuracy needs and the accuracy epsilon buys.

    Parameters
    ----------
    sensitivity : dp.Sensitivity
        The query's sensitivity.
    mechanisms : tuple of str
        The mechanisms compared.
    accuracy : float
        The target accuracy: the (1 - alpha) half-width, in the answer's units.
    epsilon : float
        The privacy-loss parameter ε (> 0).
    alpha : float
        One minus the confidence level.
    delta : float
        The δ the Gaussian mechanisms are calibrated at, in (0, 1).

    Returns
    -------
    pandas.DataFrame
    """
    rows = []
    for m in mechanisms:
        rows.append(
            {
                "mechanism": dp.MECHANISM_LABELS[m],
                f"epsilon needed for +/- {accuracy:g}": dp.epsilon_for_accuracy(
                    accuracy, sensitivity, mechanism=m, alpha=alpha, delta=delta
                ),
                f"+/- bought by epsilon = {epsilon:g}": dp.accuracy_for_epsilon(
                    epsilon, sensitivity, mechanism=m, alpha=alpha, delta=delta
                ),
            }
        )
    return pd.DataFrame(rows)


@renamed_arguments(enc="data")
def categorical_columns(data: EncodedTable, *, max_values: int = 200) -> list[str]:
    """Return columns with 2..max_values distinct values (candidates for histograms and RR).

    Reads the cached per-column codes of ``data`` (a missing value counts as a value).

    Parameters
    ----------
    data : EncodedTable
        The encoded table.
    max_values : int, optional
        The most distinct values a column may have.

    Returns
    -------
    list of str
    """
    return [str(c) for c in data.df.columns if 2 <= len(data.column(str(c)).labels) <= max_values]


def survey_columns(data: EncodedTable, preferred: tuple[str, ...] | list[str]) -> list[str]:
    """Return the columns a randomized-response survey can ask, the likeliest question first.

    The ``preferred`` (sensitive) columns first, in their order, then text columns by fewest
    values, then numeric ones by fewest values (a number column of 119 amounts is a poor
    question: its categories are amounts).

    Parameters
    ----------
    data : EncodedTable
        The encoded table.
    preferred : tuple of str or list of str
        Columns to put first (the sensitive attributes), their order kept.

    Returns
    -------
    list of str
        :func:`categorical_columns` in that order.
    """
    columns = categorical_columns(data)

    def rank(c: str) -> tuple[bool, int]:
        numeric = pd.api.types.is_numeric_dtype(data.df[c].dtype)
        return numeric, len(data.column(c).labels)

    first = [c for c in preferred if c in columns]  # in the order they were tagged
    return first + sorted((c for c in columns if c not in first), key=rank)


def preferred_first(columns: list[str], preferred: tuple[str, ...] | list[str]) -> list[str]:
    """Return ``columns`` with those in ``preferred`` first (their order kept).

    Parameters
    ----------
    columns : list of str
        The columns.
    preferred : tuple of str or list of str
        The columns to put first, if present.

    Returns
    -------
    list of str
    """
    first = [c for c in columns if c in preferred]
    return first + [c for c in columns if c not in first]


@renamed_arguments(enc="data", qis="quasi_identifiers")
def identifiability_worlds(
    data: EncodedTable,
    column: str,
    *,
    source: str,
    quasi_identifiers: tuple[str, ...] = (),
    m: int | None = None,
    seed: int = 0,
    unit: dp.PrivacyUnit = dp.ONE_ROW,
) -> tuple[np.ndarray, str]:
    """Return the candidates' values of ``column`` (the possible worlds) and a description.

    The query is a sum of ``column`` over the release D' plus one unknown individual i;
    the worlds differ only in what i adds, so the candidates' contributions give the
    worlds up to a common shift [LC12]_: a row's value, or with a person unit the sum
    over the person's rows a release reads (at most c), the candidates being people
    (:func:`riskcore.dp.reidentification_bound.candidate_worlds`).

    "class": the candidates are the smallest equivalence class on ``quasi_identifiers``
    (the attacker narrowed the person down to it); "sample": m records (people, with a
    person unit) drawn at random (seeded) from the table.

    Parameters
    ----------
    data, column, source, quasi_identifiers, m, seed, unit
        As :func:`riskcore.dp.reidentification_bound.candidate_worlds`.

    Returns
    -------
    tuple of (numpy.ndarray, str)
        The worlds' values and :func:`candidates_description` of them.
    """
    worlds = dp.candidate_worlds(
        data, column, source=source, quasi_identifiers=quasi_identifiers, m=m, seed=seed,
        unit=unit,
    )  # fmt: skip
    return worlds.values, candidates_description(worlds)


def candidates_description(worlds: dp.CandidateWorlds) -> str:
    """Return who the attacker's candidates are and what a world adds.

    One row: "the 2 people of the smallest class with 2 or more records on age, zip",
    "200 people drawn at random from the table". A person: the people of the smallest
    class counted in people (or drawn from the table's people), and that a world adds
    one person's rows, at most c, so its value is their sum.

    Parameters
    ----------
    worlds : dp.CandidateWorlds
        The attacker's candidates and their worlds.

    Returns
    -------
    str
    """
    qis = ", ".join(worlds.quasi_identifiers)
    n = worlds.candidates
    if not worlds.unit.is_person:
        text = (
            f"the {n:,} people of the smallest class with 2 or more records on {qis}"
            if worlds.source == "class"
            else f"{n:,} people drawn at random from the table"
        )
    else:
        person, c = worlds.unit.person, worlds.unit.factor
        who = f"{n:,} {'person' if n == 1 else 'people'} ({person})"
        text = (
            f"the {who} of the smallest class with 2 or more people on {qis}"
            if worlds.source == "class"
            else f"{who} drawn at random from the table's {worlds.population:,} people"
        )
        most = "1 row" if c == 1 else f"{c:,} rows"
        text += (
            f"; a world adds one person's rows (at most {most}, {worlds.rows:,} rows in all), "
            f"so its value is that person's sum of {worlds.column}"
        )
    if worlds.without_number:
        k = worlds.without_number
        text += (
            f"; {k:,} of them {'has' if k == 1 else 'have'} no number of {worlds.column} "
            f"and {'is' if k == 1 else 'are'} left out (m = {worlds.m:,})"
        )
    return text


def identifiability_reading(
    res: dp.IdentifiabilityResult, *, unit: dp.PrivacyUnit = dp.ONE_ROW
) -> str:
    """Return the reading of an identifiability result.

    With a person unit the candidates are people, each world adds one person's rows (at
    most c), and the epsilon is per person (:mod:`riskcore.dp.reidentification_bound`).

    Parameters
    ----------
    res : dp.IdentifiabilityResult
        The identifiability result.
    unit : dp.PrivacyUnit, optional
        The unit the candidates' worlds were made with.

    Returns
    -------
    str
    """
    tight = ""
    if res.tight_epsilon is not None:
        tight = (
            " For these concrete candidates the exact epsilon is "
            + (
                "unbounded (they all give the same answer)"
                if not math.isfinite(res.tight_epsilon)
                else f"{res.tight_epsilon:.3g}"
            )
            + "; the closed form is the safe choice when the candidates are not known in advance."
        )
    if unit.is_person:
        c = unit.factor
        return (
            f"To keep the attacker's certainty about which of m = {res.m:,} candidate people "
            f"is in the data at or below {res.rho:.1%}, use epsilon = {res.epsilon:.3g} per "
            f"person: Laplace noise of scale {res.scale:,.4g} on a query whose answer ranges "
            f"over {res.sensitive_range:,.4g} across the candidates' worlds, each adding one "
            f"person's rows (at most {c:,}).{tight}"
        )
    return (
        f"To keep the attacker's certainty that a record is a given person at or below "
        f"{res.rho:.1%} among m = {res.m:,} candidates, use epsilon = {res.epsilon:.3g}: "
        f"Laplace noise of scale {res.scale:,.4g} on a query whose answer ranges over "
        f"{res.sensitive_range:,.4g} across the candidates.{tight}"
    )


def grr_table(r: ldp.GrrResult) -> pd.DataFrame:
    """Return true, observed and estimated counts per category with the 95% interval.

    Parameters
    ----------
    r : ldp.GrrResult
        The randomized-response simulation.

    Returns
    -------
    pandas.DataFrame
    """
    return pd.DataFrame(
        {
            "category": list(r.categories),
            "true": r.true_counts,
            "observed (randomized)": r.observed_counts,
            "estimated": r.estimated_counts,
            "95% low": r.ci_low,
            "95% high": r.ci_high,
        }
    )


def grr_reading(r: ldp.GrrResult) -> str:
    """Return the reading of a randomized-response simulation.

    Parameters
    ----------
    r : ldp.GrrResult
        The randomized-response simulation.

    Returns
    -------
    str
    """
    err = np.abs(r.estimated_counts - r.true_counts)
    worst = int(np.argmax(err))
    design = (
        "Warner's binary design" if r.k == 2 else f"k-ary randomized response over k = {r.k} values"
    )
    unary = (  # at the epsilon of one report (epsilon / c with c reports per person)
        " Optimized unary encoding would be more accurate here (k > 3e^epsilon + 2)."
        if ldp.unary_beats_grr(r.k, r.report_epsilon)
        else ""
    )
    at, who, counted = f"epsilon = {r.epsilon:g}", "each person reports their", "people"
    if r.unit.is_person:  # several reports per person: each at epsilon / c
        at = f"epsilon = {r.epsilon:g} per person ({r.report_epsilon:.3g} per report)"
        who, counted = "each report carries the", "reports"
    return (
        f"With {design} at {at}, {who} true value "
        f"with probability {r.p:.1%}. From {r.n:,} randomized reports the estimates are off "
        f"by at most {err.max():,.0f} {counted} (for {r.categories[worst]!r}).{unary}"
    )


def planning_reading(
    k: int, epsilon: float, margin: float, *, unit: dp.PrivacyUnit = dp.ONE_ROW
) -> tuple[str, str]:
    """Return (respondents needed for +/- margin points, which protocol to use).

    With a person unit each person sends c reports at epsilon / c
    (:func:`riskcore.dp.local.share_margin`): the people needed when each sends c, the
    reports that makes, and, for c > 1, the people one report each at epsilon would
    need; the protocols are compared at the epsilon of one report.

    Parameters
    ----------
    k : int
        The number of categories.
    epsilon : float
        The privacy-loss parameter ε (> 0), per person.
    margin : float
        The margin on a share, in percentage points.
    unit : dp.PrivacyUnit, optional
        One row, or one person sending at most c reports.

    Returns
    -------
    tuple of (str, str)
    """
    c = unit.factor  # 1 for the one-row unit
    per = epsilon / c
    needed = ldp.respondents_needed(margin / 100.0, epsilon, k, max_rows=c)
    if not unit.is_person:
        first = (
            f"At epsilon = {epsilon:g} with k = {k} categories, {needed:,} respondents give "
            f"each share to within +/- {margin:g} points (95%)."
        )
    else:
        sends = "one report" if c == 1 else f"{c:,} reports at epsilon {per:.3g} each"
        first = (
            f"At epsilon = {epsilon:g} per person with k = {k} categories, each person "
            f"sending {sends}, {needed:,} people ({needed * c:,} reports) give each share "
            f"of the reports to within +/- {margin:g} points (95%)."
        )
        if c > 1:
            one = ldp.respondents_needed(margin / 100.0, epsilon, k)
            first += f" With one report per person at epsilon {epsilon:g}, {one:,} people would."
    threshold = 3.0 * math.exp(per) + 2.0
    e_name = "e^epsilon" if c == 1 else f"e^(epsilon / {c:,})"
    if ldp.unary_beats_grr(k, per):
        second = (
            f"With k = {k} > 3{e_name} + 2 = {threshold:.1f}, optimized unary encoding has "
            "lower variance than k-ary randomized response (Wang et al. 2017): use it."
        )
    else:
        second = (
            "k-ary randomized response is the better protocol here: unary encoding only wins "
            f"when k > 3{e_name} + 2 = {threshold:.1f}."
        )
    return first, second


def ldp_planning(
    k: int,
    epsilons: np.ndarray,
    ns: tuple[int, ...],
    *,
    alpha: float = 0.05,
    unit: dp.PrivacyUnit = dp.ONE_ROW,
    reports: dict[int, int] | None = None,
) -> pd.DataFrame:
    """Return the 95% margin on a share against epsilon for several n (GRR), long format.

    One row per person: n respondents, one report each at epsilon. A person unit: n
    people, each sending c reports at epsilon / c (n c reports), except a crowd whose
    reports ``reports`` gives (the table's people, with fewer rows than c for some)
    (:func:`riskcore.dp.local.share_margin`).

    Parameters
    ----------
    k : int
        The number of categories.
    epsilons : numpy.ndarray
        Epsilons per person.
    ns : tuple of int
        Respondents (people).
    alpha : float, optional
        One minus the confidence level of the margin.
    unit : dp.PrivacyUnit, optional
        One row, or one person sending at most c reports.
    reports : dict of int to int, optional
        For some n of ``ns``, the reports those people send (default n c).

    Returns
    -------
    pandas.DataFrame
        Columns "epsilon", "n" (the line's label) and "margin".
    """
    c = unit.factor  # 1 for the one-row unit
    sent = reports or {}
    rows = []
    for n in ns:
        r = int(sent.get(n, n * c))
        margin = ldp.share_margin(np.asarray(epsilons, dtype=float), k, r, max_rows=c, alpha=alpha)
        label = f"n = {n:,}" if not unit.is_person else f"{n:,} people, {r:,} reports"
        rows.append(pd.DataFrame({"epsilon": epsilons, "n": label, "margin": margin}))
    return pd.concat(rows, ignore_index=True)
