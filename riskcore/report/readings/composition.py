"""Readings of many releases together: composition, the accountants compared, the ledger.

How basic composition, advanced composition and zCDP add up the privacy loss
of repeated releases (:func:`riskcore.dp.composition_curves`), where their
curves cross or coincide on the chart (shared with
:mod:`riskcore.report.figures.dp`), what a ledger's releases total under each,
and the ledger's releases as a table. Re-exported by
:mod:`riskcore.report.readings.dp` (their old import path).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd

from riskcore import dp
from riskcore.report.readings._format import format_number, mechanism_label, plural
from riskcore.report.readings.dp_unit import unit_phrase

__all__ = [
    "ACCOUNTANTS",
    "accountant_crossings",
    "accountant_totals_reading",
    "coinciding_accountants",
    "composition_reading",
    "composition_window",
    "ledger_table",
    "queries_allowed",
]


def queries_allowed(values: np.ndarray, budget: float) -> int:
    """Return how many releases a cumulative-loss curve allows within ``budget``.

    Parameters
    ----------
    values : numpy.ndarray
        The cumulative loss after 1, 2, ... releases.
    budget : float
        The epsilon budget.

    Returns
    -------
    int
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
        Total epsilon per number of queries under each accountant.
    budget : float
        The epsilon budget.

    Returns
    -------
    tuple of (float, float, int, bool)
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
        Total epsilon per number of queries under each accountant.

    Returns
    -------
    list of tuple of (str, str, int)
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
        The ledger's totals under each accountant.
    accounting : str
        The ledger's own accounting, "basic" or "zcdp".

    Returns
    -------
    str
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
        Total epsilon per number of queries under each accountant.
    budget : float
        The epsilon budget (it sets the chart's window).

    Returns
    -------
    list of tuple of (str, str, float)
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
        As :func:`composition_window`: the total epsilon per query count, by accountant.
    budget : float
        The epsilon budget.

    Returns
    -------
    str
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
    """Return the ledger as a table (one row per release), with what each epsilon protects.

    The "unit" column is :func:`riskcore.report.readings.dp_unit.unit_phrase` of the
    entry's unit; an entry written before units were kept reads "one row".

    Parameters
    ----------
    ledger : dp.PrivacyLedger
        The ledger and its entries.

    Returns
    -------
    pandas.DataFrame
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
                "unit": unit_phrase(e.unit),
            }
            for i, e in enumerate(ledger.entries)
        ],
        columns=[
            "#",
            "query",
            "mechanism",
            "epsilon",
            "delta",
            "zCDP rho",
            "bars (parallel)",
            "unit",
        ],
    )
