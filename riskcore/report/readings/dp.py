"""Plain-language readings and tables for the differential-privacy pages.

Pure functions from riskcore results to sentences and DataFrames, so the
pages only render. Numbers are formatted with thousands separators and
shares as percentages.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd

from riskcore import dp
from riskcore._deprecation import renamed_arguments
from riskcore.dp import local as ldp
from riskcore.dp.mechanisms import normal_quantile
from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError
from riskcore.report.readings._format import format_number, mechanism_label, plural

__all__ = [
    "ACCOUNTANTS",
    "EPSILON_STEPS",
    "accountant_crossings",
    "accountant_totals_reading",
    "categorical_columns",
    "coinciding_accountants",
    "composition_reading",
    "composition_window",
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
]

EPSILON_STEPS: tuple[float, ...] = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)


def mechanisms_for(kind: str) -> tuple[str, ...]:
    """Return the mechanisms compared for a query kind (the discrete ones for counts only).

    Parameters
    ----------
    kind : str

    Returns
    -------
    tuple of str
        The mechanisms compared for a query kind (the discrete ones for counts only).
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
    epsilon : float
        The privacy-loss parameter ε (> 0).
    what : str

    Returns
    -------
    str
        "at epsilon = 1 this count is 7,161 +/- 3 (0.04%); at 0.01 it is +/- 300".
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
    epsilon : float
        The privacy-loss parameter ε (> 0).

    Returns
    -------
    pandas.DataFrame
        One row per mechanism: scale, 95% half-width, E|error|, relative error.
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


def gaussian_reference_reading(sens: dp.Sensitivity, epsilon: float, delta: float) -> str:
    """Return how much more noise OpenDP's certified Gaussian adds than the analytic optimum.

    OpenDP certifies the Gaussian through zCDP (Bun & Steinke 2016) converted
    to (epsilon, delta) (Canonne, Kamath & Steinke 2020); the analytic
    calibration of Balle & Wang (2018) is the smallest sigma that is
    (epsilon, delta)-DP. The page plans, releases and charges the first.

    Parameters
    ----------
    sens : dp.Sensitivity
    epsilon : float
        The privacy-loss parameter ε (> 0).
    delta : float
        The δ of approximate differential privacy (0 for pure ε-DP).

    Returns
    -------
    str
        How much more noise OpenDP's certified Gaussian adds than the analytic optimum.
    """
    certified = dp.noise_scale("gaussian", sens, epsilon, delta=delta)
    analytic = dp.gaussian_sigma_analytic(sens.l2, epsilon, delta)
    return (
        f"OpenDP certifies the Gaussian through zCDP: at epsilon = {epsilon:g} and "
        f"delta = {delta:g} it adds noise of sigma {certified:,.3g}, and the plots, tables "
        f"and ledger use that. The analytic calibration (Balle & Wang 2018) would need "
        f"sigma {analytic:,.3g} instead: the certified release adds "
        f"{certified / analytic - 1:.1%} more noise than the analytic optimum."
    )


def solver_table(
    sens: dp.Sensitivity,
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
    sens : dp.Sensitivity
    mechanisms : tuple of str
    accuracy : float
    epsilon : float
        The privacy-loss parameter ε (> 0).
    alpha : float
    delta : float
        The δ of approximate differential privacy (0 for pure ε-DP).

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
                    accuracy, sens, mechanism=m, alpha=alpha, delta=delta
                ),
                f"+/- bought by epsilon = {epsilon:g}": dp.accuracy_for_epsilon(
                    epsilon, sens, mechanism=m, alpha=alpha, delta=delta
                ),
            }
        )
    return pd.DataFrame(rows)


def queries_allowed(values: np.ndarray, budget: float) -> int:
    """Return how many releases a cumulative-loss curve allows within ``budget``.

    Parameters
    ----------
    values : numpy.ndarray
    budget : float

    Returns
    -------
    int
        How many releases a cumulative-loss curve allows within ``budget``.
    """
    return int(np.searchsorted(values, budget * (1 + 1e-12), side="right"))


#: The accountants of the composition chart: (field of ``CompositionCurves``, name).
ACCOUNTANTS: tuple[tuple[str, str], ...] = (
    ("basic", "basic composition"),
    ("advanced", "advanced composition"),
    ("zcdp", "zCDP"),
)

#: Two lines of the composition chart closer than this share of its height overlap.
COINCIDE_SHARE = 0.01
#: The composition chart's epsilon axis turns logarithmic when one accountant's first query
#: costs more than this many times another's: at epsilon = 10 per query (delta' = 1e-6),
#: advanced composition starts at 220,307 (its k eps (e^eps - 1) term) and basic
#: composition at 10, and a linear axis up to there flattened the other lines onto zero.
LOG_SPREAD = 10.0


def composition_window(
    curves: dp.CompositionCurves, budget: float
) -> tuple[float, float, int, bool]:
    """Return (bottom, top, last k shown, log axis) of the composition chart.

    The chart runs over every query plotted (the page's "Queries to plot", the
    curves' last k), so that the control changes it. On a linear axis from 0 to
    three budgets (or higher when an accountant's first query already costs
    more) while every line stays below that; otherwise, or when the accountants'
    first queries differ by more than :data:`LOG_SPREAD` times, the axis is
    logarithmic, from below the budget and the cheapest first query to above
    every line's last value: no line leaves the plot.

    Parameters
    ----------
    curves : dp.CompositionCurves
    budget : float

    Returns
    -------
    tuple of (float, float, int, bool)
        (bottom, top, last k shown, log axis) of the composition chart.
    """
    firsts = [float(curves.basic[0]), float(curves.advanced[0]), float(curves.zcdp[0])]
    k_end = int(curves.k[-1])
    highest = max(float(np.max(getattr(curves, f))) for f, _ in ACCOUNTANTS)
    linear_top = max(budget * 3.0, max(firsts) * 1.15)
    if max(firsts) <= LOG_SPREAD * min(firsts) and highest <= linear_top:
        return 0.0, linear_top, k_end, False
    return min(min(firsts), budget) / 1.5, highest * 1.5, k_end, True


def accountant_crossings(curves: dp.CompositionCurves) -> list[tuple[str, str, int]]:
    """Return where an accountant's total falls below basic composition's for good.

    Advanced composition and zCDP pay a fixed price (a term in ln(1/delta')) that
    grows like the square root of k, where basic composition grows like k: they start
    above it and cross it once. Each entry is (accountant, "basic composition", the
    first k from which it totals less), for the crossings within the k plotted.

    Parameters
    ----------
    curves : dp.CompositionCurves

    Returns
    -------
    list of tuple of (str, str, int)
        Where an accountant's total falls below basic composition's for good.
    """
    out = []
    for field, name in ACCOUNTANTS[1:]:
        y = np.asarray(getattr(curves, field), dtype=float)
        cheaper = y < np.asarray(curves.basic, dtype=float)
        if cheaper.all() or not cheaper.any():
            continue
        # the last k where it is not cheaper; from the next one on it stays cheaper
        first = int(np.flatnonzero(~cheaper)[-1]) + 1
        if first < len(y):
            out.append((name, ACCOUNTANTS[0][1], int(curves.k[first])))
    return out


def accountant_totals_reading(totals: dp.LedgerTotals, accounting: str) -> str:
    """Return what the releases so far total under each accountant, and which one spends.

    Only the ledger's own accounting spends the budget; the others are what the same
    releases would total if counted their way. For a few releases advanced composition
    and zCDP total more than basic composition (their fixed price in ln(1/delta')):
    that is not a spend.

    Parameters
    ----------
    totals : dp.LedgerTotals
    accounting : str

    Returns
    -------
    str
        What the releases so far total under each accountant, and which one spends.
    """
    n = totals.releases
    if not n:
        return "No release yet: nothing is spent under any accountant."
    spends = "basic composition" if accounting == "basic" else "zCDP"
    z = format_number(totals.zcdp[0], digits=4)
    text = (
        f"The {n:,} {plural(n, 'release', 'releases')} so far would total epsilon "
        f"{format_number(totals.basic[0], digits=4)} under basic composition, "
        f"{format_number(totals.advanced[0], digits=4)} under advanced composition and {z} "
        f"under zCDP; this ledger counts by {spends}, and only that is spent."
    )
    if totals.advanced[0] > totals.basic[0]:
        text += (
            " Advanced composition totals more than basic here: it adds a fixed price that "
            "pays off only over many queries (the chart below shows where)."
        )
    return text


def coinciding_accountants(
    curves: dp.CompositionCurves, budget: float
) -> list[tuple[str, str, float]]:
    """Return the pairs of accountants whose lines overlap on the composition chart.

    Two lines overlap when, over the k shown (:func:`composition_window`),
    they are never more than 1% of the chart's height apart (values above
    the top clipped to it; heights in log10 units on a log axis). Each pair
    comes with its largest gap in epsilon.

    Parameters
    ----------
    curves : dp.CompositionCurves
    budget : float

    Returns
    -------
    list of tuple of (str, str, float)
        The pairs of accountants whose lines overlap on the composition chart.
    """
    bottom, top, k_end, log = composition_window(curves, budget)
    shown = curves.k <= k_end
    pairs = []
    for (a, name_a), (b, name_b) in itertools.combinations(ACCOUNTANTS, 2):
        ya = np.minimum(getattr(curves, a)[shown], top)
        yb = np.minimum(getattr(curves, b)[shown], top)
        gap = float(np.max(np.abs(ya - yb)))
        if log:
            apart = float(np.max(np.abs(np.log10(ya) - np.log10(yb))))
            close = apart <= COINCIDE_SHARE * (math.log10(top) - math.log10(bottom))
        else:
            close = gap <= COINCIDE_SHARE * top
        if close:
            pairs.append((name_a, name_b, gap))
    return pairs


def composition_reading(curves: dp.CompositionCurves, budget: float) -> str:
    """Return how many queries each accountant allows within the budget.

    When two accountants' lines overlap on the chart
    (:func:`coinciding_accountants`), a sentence says so.

    Parameters
    ----------
    curves : dp.CompositionCurves
    budget : float

    Returns
    -------
    str
        How many queries each accountant allows within the budget.
    """
    b = queries_allowed(curves.basic, budget)
    a = queries_allowed(curves.advanced, budget)
    z = queries_allowed(curves.zcdp, budget)
    cap = len(curves.k)

    def fmt(x: int) -> str:
        return f"{cap:,}+" if x >= cap else f"{x:,}"

    text = (
        f"At epsilon = {curves.epsilon:g} per query and a budget of {budget:g}, basic "
        f"composition allows {fmt(b)} {plural(b, 'query', 'queries')}, advanced "
        f"composition {fmt(a)} and zCDP "
        f"{fmt(z)} (the last two spend delta' = {curves.delta_prime:g})."
    )
    for name, other, k in accountant_crossings(curves):
        text += f" From k = {k:,} queries on, {name} totals less than {other}."
    if composition_window(curves, budget)[3]:
        firsts = {n: float(getattr(curves, f)[0]) for f, n in ACCOUNTANTS}
        top, low = max(firsts, key=firsts.__getitem__), min(firsts, key=firsts.__getitem__)
        if firsts[top] > LOG_SPREAD * firsts[low]:
            text += (
                f" The chart's epsilon axis is logarithmic: one query already costs "
                f"{format_number(firsts[top], digits=3)} under {top} and "
                f"{format_number(firsts[low], digits=3)} under {low}."
            )
        else:
            text += (
                " The chart's epsilon axis is logarithmic, so that every line stays in view "
                f"up to k = {int(curves.k[-1]):,}."
            )
    pairs = coinciding_accountants(curves, budget)
    if pairs:
        up_to = min(composition_window(curves, budget)[2], cap)
        groups = (
            [([n for _, n in ACCOUNTANTS], max(g for *_, g in pairs))]
            if len(pairs) == len(ACCOUNTANTS)
            else [([a, b], g) for a, b, g in pairs]
        )
        for names, gap in groups:
            who = ", ".join(names[:-1]) + f" and {names[-1]}"
            text += (
                f" {who[0].upper()}{who[1:]} coincide on this chart (at most {gap:.3g} "
                f"apart up to k = {up_to:,}, under 1% of its height): their lines lie on "
                "each other; the markers tell them apart."
            )
    return text


def ledger_table(ledger: dp.PrivacyLedger) -> pd.DataFrame:
    """Return the ledger as a table (one row per release).

    Parameters
    ----------
    ledger : dp.PrivacyLedger

    Returns
    -------
    pandas.DataFrame
        The ledger as a table (one row per release).
    """
    return pd.DataFrame(
        [
            {
                "#": i + 1,
                "query": e.query,
                "mechanism": mechanism_label(e.mechanism),
                "epsilon": e.epsilon,
                "delta": e.delta,
                "zCDP rho": e.zcdp,
                "bars (parallel)": e.groups,
            }
            for i, e in enumerate(ledger.entries)
        ],
        columns=["#", "query", "mechanism", "epsilon", "delta", "zCDP rho", "bars (parallel)"],
    )


@renamed_arguments(enc="data")
def categorical_columns(data: EncodedTable, *, max_values: int = 200) -> list[str]:
    """Return columns with 2..max_values distinct values (candidates for histograms and RR).

    Reads the cached per-column codes of ``data`` (a missing value counts as a value).

    Parameters
    ----------
    data : EncodedTable
        The encoded table.
    max_values : int, optional

    Returns
    -------
    list of str
        Columns with 2..max_values distinct values (candidates for histograms and RR).
    """
    return [str(c) for c in data.df.columns if 2 <= len(data.column(str(c)).labels) <= max_values]


def preferred_first(columns: list[str], preferred: tuple[str, ...] | list[str]) -> list[str]:
    """Return ``columns`` with those in ``preferred`` first (their order kept).

    Parameters
    ----------
    columns : list of str
    preferred : tuple of str or list of str

    Returns
    -------
    list of str
        ``columns`` with those in ``preferred`` first (their order kept).
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
) -> tuple[np.ndarray, str]:
    """Return the candidates' values of ``column`` (the possible worlds) and a description.

    The query is a sum (or mean) of ``column`` over the release D' plus one
    unknown individual i; the worlds differ only in i's value, so the
    candidates' own values give the worlds up to a common shift [LC12]_.

    Parameters
    ----------
    data : EncodedTable
        The encoded table.
    column : str
        The column's name.
    source : {"class", "sample"}
        "class": the candidates are the smallest equivalence class on
        ``quasi_identifiers`` (the attacker narrowed the person down to it); "sample": m
        records drawn at random (seeded) from the table.
    quasi_identifiers : tuple of str, optional
        The quasi-identifier columns.
    m : int, optional
    seed : int, optional
        Seed of the random generator (the same seed gives the same result).

    Returns
    -------
    tuple of (numpy.ndarray, str)
        The candidates' values of ``column`` (the possible worlds) and a description.
    """
    values = pd.to_numeric(data.df[column], errors="coerce").to_numpy(dtype=float)
    if source == "class":
        if not quasi_identifiers:
            raise RiskcoreError("tag quasi-identifiers to take m from the smallest class")
        sizes = data.classes(quasi_identifiers).sizes
        smallest = int(np.argmin(np.where(sizes >= 2, sizes, np.iinfo(np.int64).max)))
        if sizes[smallest] < 2:
            raise RiskcoreError("every class is a single record: there is no candidate set")
        rows = np.flatnonzero(data.record_classes(quasi_identifiers) == smallest)
        desc = (
            f"the {len(rows):,} people of the smallest class with 2 or more records on "
            + ", ".join(quasi_identifiers)
        )
    else:
        if m is None or m < 2:
            raise RiskcoreError("m must be at least 2")
        n = len(values)
        rows = np.random.default_rng(seed).choice(n, size=min(m, n), replace=False)
        desc = f"{len(rows):,} people drawn at random from the table"
    w = values[rows]
    w = w[np.isfinite(w)]
    if w.size < 2:
        raise RiskcoreError(f"the candidates have fewer than 2 numeric values of {column!r}")
    return w, desc


def identifiability_reading(res: dp.IdentifiabilityResult) -> str:
    """Return the reading of an identifiability result.

    Parameters
    ----------
    res : dp.IdentifiabilityResult

    Returns
    -------
    str
        The reading of an identifiability result.
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

    Returns
    -------
    pandas.DataFrame
        True, observed and estimated counts per category with the 95% interval.
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

    Returns
    -------
    str
        The reading of a randomized-response simulation.
    """
    err = np.abs(r.estimated_counts - r.true_counts)
    worst = int(np.argmax(err))
    design = (
        "Warner's binary design" if r.k == 2 else f"k-ary randomized response over k = {r.k} values"
    )
    unary = (
        " Optimized unary encoding would be more accurate here (k > 3e^epsilon + 2)."
        if ldp.unary_beats_grr(r.k, r.epsilon)
        else ""
    )
    return (
        f"With {design} at epsilon = {r.epsilon:g}, each person reports their true value "
        f"with probability {r.p:.1%}. From {r.n:,} randomized reports the estimates are off "
        f"by at most {err.max():,.0f} people (for {r.categories[worst]!r}).{unary}"
    )


def planning_reading(k: int, epsilon: float, margin: float) -> tuple[str, str]:
    """Return (respondents needed for +/- margin points, which protocol to use).

    Parameters
    ----------
    k : int
    epsilon : float
        The privacy-loss parameter ε (> 0).
    margin : float

    Returns
    -------
    tuple of (str, str)
        (respondents needed for +/- margin points, which protocol to use).
    """
    needed = ldp.respondents_needed(margin / 100.0, epsilon, k)
    first = (
        f"At epsilon = {epsilon:g} with k = {k} categories, {needed:,} respondents give "
        f"each share to within +/- {margin:g} points (95%)."
    )
    threshold = 3.0 * math.exp(epsilon) + 2.0
    if ldp.unary_beats_grr(k, epsilon):
        second = (
            f"With k = {k} > 3e^epsilon + 2 = {threshold:.1f}, optimized unary encoding has "
            "lower variance than k-ary randomized response (Wang et al. 2017): use it."
        )
    else:
        second = (
            "k-ary randomized response is the better protocol here: unary encoding only wins "
            f"when k > 3e^epsilon + 2 = {threshold:.1f}."
        )
    return first, second


def ldp_planning(
    k: int, epsilons: np.ndarray, ns: tuple[int, ...], *, alpha: float = 0.05
) -> pd.DataFrame:
    """Return the 95% margin on a share against epsilon for several n (GRR), long format.

    Parameters
    ----------
    k : int
    epsilons : numpy.ndarray
    ns : tuple of int
    alpha : float, optional

    Returns
    -------
    pandas.DataFrame
        The 95% margin on a share against epsilon for several n (GRR), long format.
    """
    z = normal_quantile(1.0 - alpha / 2.0)
    rows = []
    for n in ns:
        sd = np.sqrt(ldp.grr_variance(np.asarray(epsilons, dtype=float), k, n))
        rows.append(pd.DataFrame({"epsilon": epsilons, "n": f"n = {n:,}", "margin": z * sd}))
    return pd.concat(rows, ignore_index=True)
