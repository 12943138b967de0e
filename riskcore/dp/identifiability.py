"""Differential identifiability: epsilon from a bound on re-identification.

References
----------
.. [LC12] J. Lee, C. Clifton. Differential Identifiability. KDD 2012.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from riskcore._results import Result
from riskcore._validation import check_positive, check_positive_int, check_probability
from riskcore.errors import RiskcoreError

__all__ = [
    "IdentifiabilityResult",
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
    m : int
        The number of possible worlds (the individual is one of m candidates, uniform prior).
    rho : float
        The bound on the adversary's posterior of the true world.

    Returns
    -------
    float
        The Laplace scale lambda = S(f) / epsilon of Theorem 1 in [LC12]_.
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
    world_values : sequence of float or numpy.ndarray
        f on every possible world, the true one included.
    scale : float
        Laplace scale lambda.

    Returns
    -------
    float
        The world value whose posterior peak is highest (the most exposed candidate).
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
        (responses, posterior of the true world) over a range around the worlds.
    """
    w = np.asarray(world_values, dtype=float)
    lo, hi = float(w.min()), float(w.max())
    pad = max(3.0 * scale, (hi - lo) * 0.25, 1e-9)
    r = np.linspace(lo - pad, hi + pad, points)
    return r, np.asarray(identifiability_risk(true_value, w, r, scale))
