"""Differential identifiability: epsilon from a bound on re-identification.

Lee and Clifton [LC12]_: the attacker knows the data D' without one individual and a
set of m candidates, one of whom completes it; the possible worlds are
Psi = {D' + {i} : i a candidate}, equally likely a priori, and a query f answered with
Laplace(lambda) noise is rho-differentially identifiable when the attacker's posterior
of the true world never exceeds rho.

With a person column the individual is a *person*, not a row (formulas.md, "Many rows
per person"): a world adds one person's rows, as a release reads them, at most c of
them by the seeded per-person sample of :mod:`riskcore.dp.contributions`, so the
query's value in a world is f(D') plus that person's bounded contribution, and the
candidates are people (:func:`candidate_worlds`). Theorem 1 of [LC12]_ uses the worlds
only through their values f(w) and their spread S(f) (the posterior of a world is at
most 1 / (1 + (m - 1) e^{-S(f) / lambda}) because |R - f(w)| <= |R - f(w*)| + S(f)), so
it holds unchanged with worlds of people: m counts people, S(f) is the spread of the
people's contributions, and the epsilon it gives is per person.

References
----------
.. [LC12] J. Lee, C. Clifton. Differential Identifiability. KDD 2012.
.. [WZLDSG20] R. J. Wilson, C. Y. Zhang, W. Lam, D. Desfontaines, D. Simmons-Marengo,
   B. Gipson. Differentially Private SQL with Bounded User Contribution. PoPETs
   2020(2), 230-250 (a person's contribution bounded to c rows).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from riskcore._results import Result
from riskcore._validation import check_positive, check_positive_int, check_probability
from riskcore.dp.contributions import ONE_ROW, PrivacyUnit, person_ranks
from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError

__all__ = [
    "CandidateWorlds",
    "IdentifiabilityResult",
    "candidate_worlds",
    "identifiability",
    "identifiability_epsilon",
    "identifiability_risk",
    "identifiability_scale",
    "most_exposed_world",
    "posterior_curve",
    "tight_identifiability_epsilon",
    "worst_case_identifiability_risk",
]


def identifiability_epsilon(m: int, rho: float) -> float:
    """Compute the epsilon equivalent to rho-differential identifiability [LC12]_.

    Theorem 1 of [LC12]_: with m possible worlds (the individual is one of
    m candidates, uniform prior) and Laplace noise of scale
    lambda = S(f) / ln((m - 1) rho / (1 - rho)), the adversary's posterior
    of the true world never exceeds rho. The equivalent

        epsilon = ln((m - 1) rho / (1 - rho)).

    Parameters
    ----------
    m : int
        The number of possible worlds (the individual is one of m candidates, uniform prior).
    rho : float
        The bound on the adversary's posterior of the true world.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        When rho <= 1/m: the prior alone is already 1/m, so no finite noise
        keeps the posterior at or below rho.

    Examples
    --------
    100 candidates and a posterior of at most 1.5%: ln(99 x 0.015 / 0.985).

    >>> round(identifiability_epsilon(100, 0.015), 4)
    0.4105
    >>> identifiability_epsilon(100, 0.01)
    Traceback (most recent call last):
    ...
    ValueError: rho = 0.01 is not above 1/m = 0.01: ...
    """
    check_positive_int("m (the number of possible worlds)", m, minimum=2)
    check_probability("rho", rho)
    if rho <= 1.0 / m:
        raise ValueError(
            f"rho = {rho:g} is not above 1/m = {1.0 / m:.4g}: with {m:,} equally likely "
            "candidates the attacker's prior is already 1/m, and no finite amount of noise "
            "brings the posterior to or below rho. Raise rho or widen the candidate set."
        )
    return float(math.log((m - 1) * rho / (1.0 - rho)))


def identifiability_scale(sensitive_range: float, m: int, rho: float) -> float:
    """Return the Laplace scale lambda = S(f) / epsilon of Theorem 1 in [LC12]_.

    Parameters
    ----------
    sensitive_range : float
        The sensitivity S(f) of the released statistic.
    m, rho
        As :func:`identifiability_epsilon`.

    Returns
    -------
    float
        In the units of the statistic.
    """
    check_positive("sensitive_range", sensitive_range)
    return float(sensitive_range / identifiability_epsilon(m, rho))


def identifiability_risk(
    true_value: float,
    world_values: Sequence[float] | np.ndarray,
    response: float | np.ndarray,
    scale: float,
) -> float | np.ndarray:
    """Compute the posterior of the true world given a Laplace response [LC12]_.

    With a uniform prior over the worlds and Laplace(scale) noise,

        Gamma = e^{-|R - f(D)| / lambda} / sum_w e^{-|R - f(w)| / lambda},

    computed as exp(a - logsumexp(b)) so it stays finite for tiny scales.

    Parameters
    ----------
    true_value : float
        f(D) on the true world.
    world_values : array-like
        f on every possible world, the true one included.
    response : float or ndarray
        The noisy answer(s) R.
    scale : float
        Laplace scale lambda.

    Returns
    -------
    float or ndarray
        The posterior, in [0, 1]; higher is riskier.
    """
    check_positive("scale", scale)
    from scipy import special

    w = np.asarray(world_values, dtype=float)
    if w.size == 0:
        raise ValueError("world_values must not be empty")
    r = np.asarray(response, dtype=float)
    num = -np.abs(r - true_value) / scale
    den = special.logsumexp(-np.abs(r[..., None] - w) / scale, axis=-1)
    out = np.exp(num - den)
    return float(out) if out.ndim == 0 else out


def _peak_log_totals(
    world_values: Sequence[float] | np.ndarray, scale: float
) -> tuple[np.ndarray, np.ndarray]:
    """Return (sorted values f, log sum_w e^{-|f_i - f_w| / lambda} per world).

    Prefix and suffix log-sum-exps over the sorted values: O(m log m).
    """
    check_positive("scale", scale)
    f = np.sort(np.asarray(world_values, dtype=float))
    m = f.size
    a = f / scale
    prefix = np.logaddexp.accumulate(a)  # log sum_{w <= j} e^{f_w / lambda}
    suffix = np.logaddexp.accumulate((-a)[::-1])[::-1]  # log sum_{w >= j} e^{-f_w / lambda}
    last_le = np.searchsorted(f, f, side="right") - 1
    left = prefix[last_le] - a
    first_gt = last_le + 1
    right = np.where(first_gt < m, suffix[np.minimum(first_gt, m - 1)] + a, -np.inf)
    return f, np.logaddexp(left, right)


def worst_case_identifiability_risk(
    world_values: Sequence[float] | np.ndarray, scale: float
) -> float:
    """Compute the largest posterior any world can reach, over all responses.

    For Laplace noise, world i's posterior
    1 / sum_w e^{(|R - f_i| - |R - f_w|)/lambda} is largest at R = f_i
    (moving R away from f_i only raises each exponent), so the worst case is
    max_i 1 / sum_w e^{-|f_i - f_w| / lambda}.

    Parameters
    ----------
    world_values : sequence of float or numpy.ndarray
        f on every possible world, the true one included.
    scale : float
        Laplace scale lambda.

    Returns
    -------
    float
    """
    _, total = _peak_log_totals(world_values, scale)
    return float(np.exp(-total.min()))


def most_exposed_world(world_values: Sequence[float] | np.ndarray, scale: float) -> float:
    """Return the world value whose posterior peak is highest (the most exposed candidate).

    Parameters
    ----------
    world_values, scale
        As :func:`worst_case_identifiability_risk`.

    Returns
    -------
    float
        One of ``world_values``.
    """
    f, total = _peak_log_totals(world_values, scale)
    return float(f[int(np.argmin(total))])


def tight_identifiability_epsilon(world_values: Sequence[float] | np.ndarray, rho: float) -> float:
    """Compute the exact epsilon = S(f) / lambda at which the worst posterior equals rho.

    The closed form of [LC12]_ assumes every other world sits at the full
    sensitive range S(f) from the true one; real worlds are closer together,
    so less noise (a larger epsilon) already keeps every posterior at or
    below rho. Bisection on log lambda over
    :func:`worst_case_identifiability_risk` (decreasing in lambda).

    Parameters
    ----------
    world_values : sequence of float or numpy.ndarray
        f on every possible world, the true one included.
    rho : float
        The bound on the adversary's posterior of the true world.

    Returns
    -------
    float
        The tight epsilon; ``inf`` when every world gives the same answer
        (the query cannot tell them apart, so no noise is needed).

    Raises
    ------
    ValueError
        When rho <= 1/m.
    """
    from scipy import optimize

    f = np.asarray(world_values, dtype=float)
    m = f.size
    identifiability_epsilon(m, rho)  # validates m and rho
    s = float(f.max() - f.min())
    if s == 0:
        return float("inf")
    # As lambda -> 0 the worst posterior tends to 1 / (fewest worlds sharing a value).
    if 1.0 / np.unique(f, return_counts=True)[1].min() <= rho:
        return float("inf")

    def gap(log_lam: float) -> float:
        return worst_case_identifiability_risk(f, math.exp(log_lam)) - rho

    lo, hi = math.log(s) - 40.0, math.log(s) + 40.0
    lam = math.exp(optimize.brentq(gap, lo, hi, xtol=1e-12))
    return s / lam


@dataclass(frozen=True)
class IdentifiabilityResult(Result):
    """Epsilon and noise from a re-identification bound [LC12]_.

    Attributes
    ----------
    m : int
        Number of possible worlds (candidates).
    rho : float
        Bound on the attacker's posterior.
    epsilon : float
        Closed form ln((m - 1) rho / (1 - rho)).
    sensitive_range : float
        S(f) = max f(w) - min f(w) over the worlds.
    scale : float
        Laplace lambda = S(f) / epsilon.
    tight_epsilon : float or None
        Exact epsilon for the given world values (None without them).
    worst_risk : float or None
        Worst posterior at ``scale`` (at most rho).
    """

    m: int
    rho: float
    epsilon: float
    sensitive_range: float
    scale: float
    tight_epsilon: float | None
    worst_risk: float | None


def identifiability(
    rho: float,
    *,
    m: int | None = None,
    world_values: Sequence[float] | np.ndarray | None = None,
    sensitive_range: float | None = None,
) -> IdentifiabilityResult:
    """Compute epsilon, noise and the tight epsilon for a re-identification bound.

    Give either ``world_values`` (m and S(f) follow) or ``m`` and
    ``sensitive_range``.

    Parameters
    ----------
    rho : float
        The bound on the adversary's posterior of the true world.
    m : int, optional
        The number of possible worlds (the individual is one of m candidates, uniform prior).
    world_values : sequence of float or numpy.ndarray, optional
        f on every possible world, the true one included.
    sensitive_range : float, optional
        The sensitivity S(f) of the released statistic.

    Returns
    -------
    IdentifiabilityResult
    """
    if world_values is not None:
        w = np.asarray(world_values, dtype=float)
        m_ = int(w.size)
        s = float(w.max() - w.min()) if w.size else 0.0
    else:
        if m is None or sensitive_range is None:
            raise ValueError("give world_values, or m and sensitive_range")
        m_, s, w = int(m), float(sensitive_range), None
    eps = identifiability_epsilon(m_, rho)
    if s <= 0:
        raise RiskcoreError("every possible world gives the same answer: the query reveals nothing")
    scale = s / eps
    tight = worst = None
    if w is not None:
        tight = tight_identifiability_epsilon(w, rho)
        worst = worst_case_identifiability_risk(w, scale)
    return IdentifiabilityResult(m_, float(rho), eps, s, scale, tight, worst)


def posterior_curve(
    true_value: float,
    world_values: Sequence[float] | np.ndarray,
    scale: float,
    *,
    points: int = 201,
) -> tuple[np.ndarray, np.ndarray]:
    """Return (responses, posterior of the true world) over a range around the worlds.

    Parameters
    ----------
    true_value : float
        f(D) on the true world.
    world_values : sequence of float or numpy.ndarray
        f on every possible world, the true one included.
    scale : float
        Laplace scale lambda.
    points : int, optional
        The number of points on the curve.

    Returns
    -------
    tuple of (numpy.ndarray, numpy.ndarray)
        ``points`` responses evenly spaced from the smallest world value minus a
        margin (at least 3 lambda) to the largest plus it, and the posterior at each.
    """
    w = np.asarray(world_values, dtype=float)
    lo, hi = float(w.min()), float(w.max())
    pad = max(3.0 * scale, (hi - lo) * 0.25, 1e-9)
    r = np.linspace(lo - pad, hi + pad, points)
    return r, np.asarray(identifiability_risk(true_value, w, r, scale))


@dataclass(frozen=True)
class CandidateWorlds(Result):
    """The attacker's candidates and the query's value in each possible world [LC12]_.

    The query sums a numeric column over D' plus one individual: the worlds differ only
    in what the individual adds, so each candidate's contribution is its world's value up
    to the common f(D').

    Attributes
    ----------
    column : str
        The column the query sums.
    values : numpy.ndarray
        f(D' + candidate) - f(D') for each candidate with a number: the candidate row's
        value (one row), or the sum of the values in the person's kept rows (a person).
    source : str
        "class" (the smallest equivalence class with 2 or more candidates on the QIs) or
        "sample" (drawn at random, seeded).
    unit : PrivacyUnit
        One row, or one person with at most c rows: what a world adds.
    candidates : int
        Candidates drawn (people with a person column, else rows), before those
        without a number are left out.
    population : int
        Whom they were drawn from: the table's people (with a person column) or rows.
    without_number : int
        Candidates left out because their (kept) rows hold no number of the column.
    rows : int
        The rows with a number the candidates' worlds add (``len(values)`` for one row).
    quasi_identifiers : tuple of str
        The QIs of the class (empty for a sample).
    """

    column: str
    values: np.ndarray
    source: str
    unit: PrivacyUnit
    candidates: int
    population: int
    without_number: int
    rows: int
    quasi_identifiers: tuple[str, ...] = ()

    @property
    def m(self) -> int:
        """Return m, the number of possible worlds (candidates with a number)."""
        return int(self.values.size)


def _smallest_class(sizes: np.ndarray, what: str) -> int:
    """Return the smallest class with 2 or more members, refusing when there is none."""
    smallest = int(np.argmin(np.where(sizes >= 2, sizes, np.iinfo(np.int64).max)))
    if sizes.size == 0 or sizes[smallest] < 2:
        raise RiskcoreError(f"every class is a single {what}: there is no candidate set")
    return smallest


def candidate_worlds(
    data: EncodedTable,
    column: str,
    *,
    source: str,
    quasi_identifiers: tuple[str, ...] = (),
    m: int | None = None,
    seed: int = 0,
    unit: PrivacyUnit = ONE_ROW,
    bound_seed: int = 0,
) -> CandidateWorlds:
    """Return the attacker's candidates and the query's value in each world [LC12]_.

    The worlds are Psi = {D' + {i}} for the m candidates i (module docstring). The
    query sums ``column``.

    *One row* (no person column): a candidate is a row and its world's value is the
    row's value. "class": the rows of the smallest equivalence class on the QIs with 2
    or more rows; "sample": m rows drawn at random.

    *A person* (``unit`` names the person column, c = ``unit.max_rows``): a candidate is
    a person and a world adds all of that person's rows a release reads: at most c, the
    seeded per-person sample of :func:`riskcore.dp.contributions.person_ranks` on the
    column (the release's sample for the same ``bound_seed``), so its value is the sum of
    the column over those rows [WZLDSG20]_. "class": the people of the smallest class
    with 2 or more *people* in the engine's person partition
    (:meth:`riskcore.engine.EncodedTable.record_classes` with ``person``: people grouped
    by the set of their rows' QI tuples); "sample": m people drawn at random. Rows
    without a person are left out of every release, so they are no candidate.

    Either way a candidate whose rows hold no number of the column is left out (and
    counted in ``without_number``).

    Parameters
    ----------
    data : EncodedTable
        The encoded table.
    column : str
        The numeric column the query sums.
    source : {"class", "sample"}
        Where the candidates come from.
    quasi_identifiers : tuple of str, optional
        The quasi-identifier columns (required for "class").
    m : int, optional
        The number of candidates drawn for "sample" (at least 2; at most everyone).
    seed : int, optional
        Seed of the draw of a sample (the same seed gives the same candidates).
    unit : PrivacyUnit, optional
        The unit of privacy: one row, or one person with at most c rows.
    bound_seed : int, optional
        The seed of the per-person sample of rows (the release's).

    Returns
    -------
    CandidateWorlds

    Raises
    ------
    RiskcoreError
        Without QIs for a class, with m < 2, when every class is a single candidate, or
        when fewer than 2 candidates have a number.
    """
    if source not in ("class", "sample"):
        raise ValueError(f"source must be 'class' or 'sample', got {source!r}")
    if source == "class" and not quasi_identifiers:
        raise RiskcoreError("tag quasi-identifiers to take m from the smallest class")
    if source == "sample" and (m is None or m < 2):
        raise RiskcoreError("m must be at least 2")
    df = data.df
    if column not in df.columns:
        raise RiskcoreError(f"the column {column!r} is not in the table")
    x = pd.to_numeric(df[column], errors="coerce").to_numpy(dtype=float)
    qis = tuple(quasi_identifiers) if source == "class" else ()
    rng = np.random.default_rng(seed)
    if not unit.is_person:
        if source == "class":
            smallest = _smallest_class(data.classes(qis).sizes, "record")
            chosen = np.flatnonzero(data.record_classes(qis) == smallest)
        else:
            chosen = rng.choice(x.size, size=min(int(m or 0), x.size), replace=False)
        values = x[chosen]
        values = values[np.isfinite(values)]
        population, rows = x.size, values.size
    else:
        person = str(unit.person)
        ranks = person_ranks(df, person, seed=bound_seed, columns=(column,))
        codes, uniques = pd.factorize(df[person], use_na_sentinel=True)
        population = len(uniques)
        has = codes >= 0
        if source == "class":
            row_class = data.record_classes(qis, person=person)
            person_class = np.zeros(population, dtype=np.int64)
            person_class[codes[has]] = row_class[has]  # a person's rows share their class
            smallest = _smallest_class(np.bincount(person_class), "person")
            chosen = np.flatnonzero(person_class == smallest)
        else:
            chosen = rng.choice(population, size=min(int(m or 0), population), replace=False)
        read = has & (ranks < unit.factor) & np.isfinite(x)  # the rows a release reads
        sums = np.bincount(codes[read], weights=x[read], minlength=population)
        counts = np.bincount(codes[read], minlength=population)
        chosen = np.asarray(chosen, dtype=np.int64)
        with_number = chosen[counts[chosen] > 0]
        values, rows = sums[with_number], int(counts[with_number].sum())
    if values.size < 2:
        raise RiskcoreError(f"the candidates have fewer than 2 numeric values of {column!r}")
    return CandidateWorlds(
        column,
        np.asarray(values, dtype=float),
        source,
        unit,
        len(chosen),
        int(population),
        int(len(chosen) - values.size),
        int(rows),
        qis,
    )
