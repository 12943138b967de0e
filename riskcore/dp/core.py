"""Differential privacy: noise, error, budgets and epsilon from a re-identification bound.

Everything here is closed-form or numpy *simulation* (for plots). Values
offered as differentially private releases go through OpenDP in
:mod:`riskcore.release`; the textbook ``numpy`` Laplace sample is open to
floating-point attacks (Mironov 2012) and is only used for simulated bands.

References
----------
.. [DR14] C. Dwork, A. Roth. The Algorithmic Foundations of Differential
   Privacy. Foundations and Trends in TCS 9(3-4), 2014.
.. [BW18] B. Balle, Y.-X. Wang. Improving the Gaussian Mechanism for
   Differential Privacy: Analytical Calibration and Optimal Denoising.
   ICML 2018.
.. [DRV10] C. Dwork, G. Rothblum, S. Vadhan. Boosting and Differential
   Privacy. FOCS 2010.
.. [BS16] M. Bun, T. Steinke. Concentrated Differential Privacy:
   Simplifications, Extensions, and Lower Bounds. TCC 2016.
.. [NRS07] K. Nissim, S. Raskhodnikova, A. Smith. Smooth Sensitivity and
   Sampling in Private Data Analysis. STOC 2007.
.. [LC12] J. Lee, C. Clifton. Differential Identifiability. KDD 2012.
.. [GRS12] A. Ghosh, T. Roughgarden, M. Sundararajan. Universally
   Utility-Maximizing Privacy Mechanisms. SIAM J. Comput. 41(6), 2012
   (the two-sided geometric, i.e. discrete Laplace, mechanism).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy import optimize, special

from riskcore._results import fields_dict
from riskcore.dp.local import grr_estimate
from riskcore.errors import PrivacyLeakWarning, RiskcoreError

__all__ = [
    "BudgetExceededError",
    "ClippingTradeoff",
    "CompositionCurves",
    "ErrorCurve",
    "IdentifiabilityResult",
    "LedgerEntry",
    "LedgerTotals",
    "NoiseError",
    "PrivacyLedger",
    "SampleAggregate",
    "Sensitivity",
    "accuracy_for_epsilon",
    "advanced_composition",
    "clipping_tradeoff",
    "composition_curves",
    "data_bounds",
    "epsilon_for_accuracy",
    "error_curve",
    "gaussian_delta",
    "gaussian_epsilon",
    "gaussian_sigma_analytic",
    "gaussian_sigma_classic",
    "grr_estimate",
    "identifiability",
    "identifiability_epsilon",
    "identifiability_risk",
    "identifiability_scale",
    "most_exposed_world",
    "noise_error",
    "noise_scale",
    "posterior_curve",
    "sample_and_aggregate",
    "sensitivity",
    "simulate_noise",
    "tight_identifiability_epsilon",
    "worst_case_identifiability_risk",
    "zcdp_of_gaussian",
    "zcdp_of_pure",
    "zcdp_to_approx",
]

Mechanism = Literal["laplace", "gaussian", "discrete_laplace"]
Neighbouring = Literal["add_remove", "change_one"]
QueryKind = Literal["count", "sum", "mean", "histogram"]

MECHANISM_LABELS: dict[str, str] = {
    "laplace": "Laplace",
    "gaussian": "Gaussian (analytic)",
    "discrete_laplace": "Discrete Laplace",
}
NEIGHBOURING_LABELS: dict[str, str] = {
    "add_remove": "add or remove one person's row",
    "change_one": "change one person's row",
}


class BudgetExceededError(RiskcoreError):
    """Raise when a release would take the ledger past its privacy budget."""


def _positive(name: str, value: float) -> None:
    if not (isinstance(value, (int, float, np.floating, np.integer)) and value > 0):
        raise ValueError(f"{name} must be positive, got {value!r}")
    if not math.isfinite(float(value)):
        raise ValueError(f"{name} must be finite, got {value!r}")


def _probability(name: str, value: float) -> None:
    if not 0 < value < 1:
        raise ValueError(f"{name} must be strictly between 0 and 1, got {value!r}")


# ------------------------------------------------------------------ sensitivity


@dataclass(frozen=True)
class Sensitivity:
    """Global sensitivity of a query under a neighbouring definition.

    Attributes
    ----------
    kind : {"count", "sum", "mean", "histogram"}
        The query.
    neighbouring : {"add_remove", "change_one"}
        Neighbouring datasets differ by adding/removing one row, or by
        changing one row's values (the row count then stays public).
    l1, l2 : float
        Sensitivities in the L1 norm (Laplace) and the L2 norm (Gaussian).
    reason : str
        One sentence: why this value.
    """

    kind: str
    neighbouring: str
    l1: float
    l2: float
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return fields_dict(self)


def sensitivity(
    kind: QueryKind,
    *,
    neighbouring: Neighbouring = "add_remove",
    bounds: tuple[float, float] | None = None,
    n: int | None = None,
) -> Sensitivity:
    """Compute the global sensitivity of a query [DR14]_ (Sections 3.3 and 3.4).

    ========== ======================== ======================
    query      add / remove one row     change one row
    ========== ======================== ======================
    count      1                        1
    histogram  L1 = L2 = 1              L1 = 2, L2 = sqrt(2)
    sum [L,U]  max(|L|, |U|)            U - L
    mean [L,U] (U - L) / n              (U - L) / n
    ========== ======================== ======================

    A count (optionally under a row filter) changes by at most one either
    way. Changing a row can move it from one histogram bar to another (two
    bars change by one). The mean needs a public row count n: under
    change-one n is public by definition; under add/remove OpenDP resizes
    the data to the public n first (``make_resize``), which again changes
    at most one value, so both give (U - L) / n.

    Parameters
    ----------
    kind : {"count", "sum", "mean", "histogram"}
        The query.
    neighbouring : {"add_remove", "change_one"}, keyword-only
        Neighbouring definition (the unit of privacy is one row).
    bounds : tuple of float, optional
        Clipping bounds (L, U) with L < U, required for sum and mean.
    n : int, optional
        Public row count, required for the mean.

    Returns
    -------
    Sensitivity
    """
    if neighbouring not in NEIGHBOURING_LABELS:
        raise ValueError(f"neighbouring must be 'add_remove' or 'change_one', got {neighbouring!r}")
    if kind in ("sum", "mean"):
        if bounds is None:
            raise ValueError(f"a {kind} needs clipping bounds (L, U)")
        lo, hi = float(bounds[0]), float(bounds[1])
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
            raise ValueError(f"clipping bounds must be finite with L < U, got {bounds!r}")
    if kind == "count":
        return Sensitivity(kind, neighbouring, 1.0, 1.0, "one row changes a count by at most 1")
    if kind == "histogram":
        if neighbouring == "add_remove":
            return Sensitivity(
                kind, neighbouring, 1.0, 1.0, "one row added or removed changes one bar by 1"
            )
        return Sensitivity(
            kind,
            neighbouring,
            2.0,
            math.sqrt(2.0),
            "a changed row leaves one bar and joins another: two bars change by 1",
        )
    if kind == "sum":
        if neighbouring == "add_remove":
            s = max(abs(lo), abs(hi))
            why = f"one clipped row adds or removes at most max(|L|, |U|) = {s:g}"
        else:
            s = hi - lo
            why = f"one clipped row changes by at most U - L = {s:g}"
        return Sensitivity(kind, neighbouring, s, s, why)
    if kind == "mean":
        if n is None or n < 1:
            raise ValueError("a mean needs the public row count n >= 1")
        s = (hi - lo) / n
        return Sensitivity(
            kind, neighbouring, s, s, f"one of n = {n:,} clipped values moves by at most U - L"
        )
    raise ValueError(f"unknown query kind {kind!r}")


def data_bounds(values: Sequence[float] | np.ndarray) -> tuple[float, float]:
    """Return the data's (min, max) as clipping bounds, warning that this leaks.

    Bounds must be public: the minimum and maximum of the data are
    themselves a function of single records (the largest salary is the
    CEO's), so noise calibrated to them is not differentially private.
    Mirrors diffprivlib's ``PrivacyLeakWarning``.

    Warns
    -----
    PrivacyLeakWarning
        Always.
    """
    arr = pd.to_numeric(pd.Series(values), errors="coerce").to_numpy(dtype=float)
    arr = arr[np.isfinite(arr)]
    if arr.size == 0:
        raise RiskcoreError("the column has no numeric values to take bounds from")
    warnings.warn(
        "Clipping bounds were taken from the data (its minimum and maximum). "
        "They reveal the most extreme records, so the result is not "
        "differentially private. Enter bounds known in advance instead.",
        PrivacyLeakWarning,
        stacklevel=2,
    )
    lo, hi = float(arr.min()), float(arr.max())
    if lo == hi:
        hi = lo + 1.0
    return lo, hi


# ------------------------------------------------------------------ Gaussian calibration


def gaussian_delta(sigma: float, l2: float, epsilon: float) -> float:
    """Compute the exact delta of the Gaussian mechanism at a given epsilon [BW18]_.

    Theorem 8 of [BW18]_: N(0, sigma^2) noise on a query with L2
    sensitivity Delta is (epsilon, delta)-DP iff

        delta >= Phi(Delta / (2 sigma) - epsilon sigma / Delta)
                 - e^epsilon Phi(-Delta / (2 sigma) - epsilon sigma / Delta).

    The second term is evaluated as ``exp(epsilon + log Phi(.))`` so large
    epsilons do not overflow.
    """
    _positive("sigma", sigma)
    _positive("l2", l2)
    a = l2 / (2.0 * sigma)
    b = epsilon * sigma / l2
    return float(special.ndtr(a - b) - np.exp(epsilon + special.log_ndtr(-a - b)))


def gaussian_sigma_analytic(l2: float, epsilon: float, delta: float) -> float:
    """Compute the smallest Gaussian sigma that is (epsilon, delta)-DP [BW18]_.

    Solves ``gaussian_delta(sigma, l2, epsilon) = delta`` for sigma (the
    left side decreases in sigma) by Brent's method on log sigma. Valid for
    every epsilon > 0, unlike the classical bound.
    """
    _positive("epsilon", epsilon)
    _probability("delta", delta)
    _positive("l2", l2)

    def gap(log_sigma: float) -> float:
        return gaussian_delta(math.exp(log_sigma), l2, epsilon) - delta

    lo, hi = math.log(l2) - 30.0, math.log(l2) + 30.0
    return float(math.exp(optimize.brentq(gap, lo, hi, xtol=1e-13, rtol=1e-13)))


def gaussian_sigma_classic(l2: float, epsilon: float, delta: float) -> float:
    """Compute the classical Gaussian sigma, Delta_2 sqrt(2 ln(1.25/delta)) / epsilon.

    Theorem A.1 of [DR14]_, proved only for epsilon < 1; larger epsilons
    raise ``ValueError`` (use :func:`gaussian_sigma_analytic`).
    """
    _positive("epsilon", epsilon)
    _probability("delta", delta)
    if epsilon >= 1:
        raise ValueError(
            "the classical Gaussian calibration holds only for epsilon < 1; "
            "use the analytic calibration"
        )
    return float(l2 * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon)


def gaussian_epsilon(sigma: float, l2: float, delta: float) -> float:
    """Compute the smallest epsilon for which N(0, sigma^2) noise is (epsilon, delta)-DP.

    Inverts :func:`gaussian_delta` in epsilon (it decreases in epsilon).
    """
    _positive("sigma", sigma)
    _probability("delta", delta)
    if gaussian_delta(sigma, l2, 0.0) <= delta:
        return 0.0

    def gap(eps: float) -> float:
        return gaussian_delta(sigma, l2, eps) - delta

    hi = 1.0
    while gap(hi) > 0:
        hi *= 2.0
    return float(optimize.brentq(gap, 0.0, hi, xtol=1e-13, rtol=1e-13))


# ------------------------------------------------------------------ noise and error


def noise_scale(
    mechanism: Mechanism, sens: Sensitivity, epsilon: float, *, delta: float | None = None
) -> float:
    """Compute the noise scale for a mechanism at a given epsilon.

    Laplace: b = Delta_1 / epsilon [DR14]_ (Theorem 3.6). Discrete Laplace
    (two-sided geometric) on integer queries: scale s = Delta_1 / epsilon,
    P(Y = y) proportional to e^{-|y|/s} [GRS12]_. Gaussian: the analytic
    sigma of [BW18]_ for the L2 sensitivity and ``delta``.
    """
    _positive("epsilon", epsilon)
    if mechanism == "laplace" or mechanism == "discrete_laplace":
        return sens.l1 / epsilon
    if mechanism == "gaussian":
        if delta is None:
            raise ValueError("the Gaussian mechanism needs delta")
        return gaussian_sigma_analytic(sens.l2, epsilon, delta)
    raise ValueError(f"unknown mechanism {mechanism!r}")


@dataclass(frozen=True)
class NoiseError:
    """Closed-form error of one noisy answer.

    Attributes
    ----------
    mechanism : str
    scale : float
        Laplace b, Gaussian sigma or discrete Laplace s.
    alpha : float
        ``half_width`` is exceeded with probability at most alpha.
    half_width : float
        P(|noise| >= half_width) = alpha: the answer is within
        +/- half_width of the truth with probability 1 - alpha.
    expected_abs : float
        E|noise|.
    std : float
        Standard deviation of the noise.
    """

    mechanism: str
    scale: float
    alpha: float
    half_width: float
    expected_abs: float
    std: float

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return fields_dict(self)


def _error_arrays(
    mechanism: Mechanism, scale: np.ndarray, alpha: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (half_width, expected_abs, std) for an array of scales."""
    s = np.asarray(scale, dtype=float)
    if mechanism == "laplace":
        # P(|Y| >= t) = exp(-t/b); E|Y| = b; Var = 2 b^2  [DR14] Fact 3.7
        return s * math.log(1.0 / alpha), s, math.sqrt(2.0) * s
    if mechanism == "gaussian":
        z = float(special.ndtri(1.0 - alpha / 2.0))
        return z * s, s * math.sqrt(2.0 / math.pi), s
    if mechanism == "discrete_laplace":
        # P(Y = y) = (1 - r)/(1 + r) r^|y|, r = e^{-1/s}:
        # P(|Y| >= k) = 2 r^k / (1 + r); E|Y| = 2r / (1 - r^2); Var = 2r / (1 - r)^2
        r = np.exp(-1.0 / s)
        half = s * np.log(2.0 / (alpha * (1.0 + r)))
        return np.maximum(half, 0.0), 2.0 * r / (1.0 - r * r), np.sqrt(2.0 * r) / (1.0 - r)
    raise ValueError(f"unknown mechanism {mechanism!r}")


def noise_error(mechanism: Mechanism, scale: float, *, alpha: float = 0.05) -> NoiseError:
    """Compute the closed-form error of a mechanism's noise at a given scale.

    Laplace(b): half-width b ln(1/alpha), E|Y| = b, sd = sqrt(2) b [DR14]_.
    Gaussian(sigma): half-width z_{1-alpha/2} sigma, E|Y| = sigma sqrt(2/pi).
    Discrete Laplace(s), r = e^{-1/s}: P(|Y| >= k) = 2 r^k / (1 + r), so the
    half-width is s ln(2 / (alpha (1 + r))); E|Y| = 2r / (1 - r^2).
    These agree with OpenDP's ``*_scale_to_accuracy`` helpers.
    """
    _positive("scale", scale)
    _probability("alpha", alpha)
    hw, ea, sd = _error_arrays(mechanism, np.array([scale]), alpha)
    return NoiseError(mechanism, float(scale), alpha, float(hw[0]), float(ea[0]), float(sd[0]))


def simulate_noise(
    mechanism: Mechanism, scale: float | np.ndarray, size: int | tuple[int, ...], rng: Any
) -> np.ndarray:
    """Draw noise with numpy for *simulated* plots only (not for releases).

    Discrete Laplace is drawn as the difference of two geometric variables
    on {0, 1, ...} with success probability 1 - e^{-1/s} [GRS12]_.
    """
    gen = np.random.default_rng(rng)
    if mechanism == "laplace":
        return gen.laplace(0.0, scale, size)
    if mechanism == "gaussian":
        return gen.normal(0.0, scale, size)
    if mechanism == "discrete_laplace":
        p = -np.expm1(-1.0 / np.asarray(scale, dtype=float))
        return (gen.geometric(p, size) - gen.geometric(p, size)).astype(float)
    raise ValueError(f"unknown mechanism {mechanism!r}")


@dataclass(frozen=True)
class ErrorCurve:
    """Error of one query's noisy answer over a grid of epsilons.

    Attributes
    ----------
    mechanism : str
    true_answer : float
    sensitivity : Sensitivity
    delta : float or None
        Gaussian delta.
    alpha : float
    epsilons : ndarray
    scale, half_width, expected_abs : ndarray
        Closed-form noise scale, (1 - alpha) half-width and E|error|.
    relative : ndarray
        half_width / |true_answer| (NaN when the answer is 0).
    sim_low, sim_high : ndarray
        alpha/2 and 1 - alpha/2 quantiles of the error over ``simulations``
        numpy draws (a simulation, labelled as such).
    simulations : int
    """

    mechanism: str
    true_answer: float
    sensitivity: Sensitivity
    delta: float | None
    alpha: float
    epsilons: np.ndarray
    scale: np.ndarray
    half_width: np.ndarray
    expected_abs: np.ndarray
    relative: np.ndarray
    sim_low: np.ndarray
    sim_high: np.ndarray
    simulations: int

    def at(self, epsilon: float) -> NoiseError:
        """Return the closed-form error at one epsilon (on or off the grid)."""
        scale = noise_scale(self.mechanism, self.sensitivity, epsilon, delta=self.delta)  # type: ignore[arg-type]
        return noise_error(self.mechanism, scale, alpha=self.alpha)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return fields_dict(self)


def epsilon_grid(lo: float = 0.01, hi: float = 10.0, points: int = 61) -> np.ndarray:
    """Return a log-spaced grid of epsilons (default 0.01 to 10)."""
    return np.geomspace(lo, hi, points)


def error_curve(
    true_answer: float,
    sens: Sensitivity,
    *,
    mechanism: Mechanism = "laplace",
    epsilons: np.ndarray | None = None,
    delta: float | None = None,
    alpha: float = 0.05,
    simulations: int = 400,
    seed: int = 0,
) -> ErrorCurve:
    """Compute closed-form and simulated error of a noisy answer over epsilons.

    Parameters
    ----------
    true_answer : float
        The exact answer (used for the relative error only).
    sens : Sensitivity
    mechanism : {"laplace", "gaussian", "discrete_laplace"}, keyword-only
    epsilons : ndarray, optional
        Defaults to :func:`epsilon_grid`.
    delta : float, optional
        Required for the Gaussian mechanism.
    alpha : float
        1 - confidence of the half-width (0.05 gives 95%).
    simulations : int
        numpy draws per epsilon for the simulated band.
    seed : int
        Seed of the simulation.

    Returns
    -------
    ErrorCurve
    """
    eps = epsilon_grid() if epsilons is None else np.asarray(epsilons, dtype=float)
    if eps.size == 0 or np.any(eps <= 0):
        raise ValueError("epsilons must be positive")
    if mechanism == "gaussian":
        scale = np.array([gaussian_sigma_analytic(sens.l2, float(e), float(delta)) for e in eps])  # type: ignore[arg-type]
    else:
        scale = sens.l1 / eps
    hw, ea, _ = _error_arrays(mechanism, scale, alpha)
    rel = hw / abs(true_answer) if true_answer != 0 else np.full_like(hw, np.nan)
    draws = simulate_noise(mechanism, scale[:, None], (eps.size, simulations), seed)
    lo, hi = np.quantile(draws, [alpha / 2.0, 1.0 - alpha / 2.0], axis=1)
    return ErrorCurve(
        mechanism,
        float(true_answer),
        sens,
        delta,
        alpha,
        eps,
        scale,
        hw,
        ea,
        rel,
        lo,
        hi,
        simulations,
    )


def accuracy_for_epsilon(
    epsilon: float,
    sens: Sensitivity,
    *,
    mechanism: Mechanism = "laplace",
    alpha: float = 0.05,
    delta: float | None = None,
) -> float:
    """Compute the +/- half-width (confidence 1 - alpha) a given epsilon buys."""
    scale = noise_scale(mechanism, sens, epsilon, delta=delta)
    return noise_error(mechanism, scale, alpha=alpha).half_width


def epsilon_for_accuracy(
    accuracy: float,
    sens: Sensitivity,
    *,
    mechanism: Mechanism = "laplace",
    alpha: float = 0.05,
    delta: float | None = None,
) -> float:
    """Compute the smallest epsilon whose answer is within +/- accuracy w.p. 1 - alpha.

    Laplace: epsilon = Delta_1 ln(1/alpha) / a. Discrete Laplace: solve
    s ln(2 / (alpha (1 + e^{-1/s}))) = a for s, then epsilon = Delta_1 / s.
    Gaussian: sigma = a / z_{1-alpha/2}, then the analytic epsilon of that
    sigma at ``delta`` [BW18]_.
    """
    _positive("accuracy", accuracy)
    _probability("alpha", alpha)
    if mechanism == "laplace":
        return sens.l1 * math.log(1.0 / alpha) / accuracy
    if mechanism == "gaussian":
        if delta is None:
            raise ValueError("the Gaussian mechanism needs delta")
        sigma = accuracy / float(special.ndtri(1.0 - alpha / 2.0))
        return gaussian_epsilon(sigma, sens.l2, delta)
    if mechanism == "discrete_laplace":

        def gap(log_s: float) -> float:
            return (
                float(_error_arrays(mechanism, np.array([math.exp(log_s)]), alpha)[0][0]) - accuracy
            )

        lo, hi = -30.0, math.log(accuracy) + 5.0
        if gap(lo) >= 0:  # even vanishing noise misses: cannot happen for accuracy > 0
            return float("inf")
        s = math.exp(optimize.brentq(gap, lo, hi, xtol=1e-13))
        return sens.l1 / s
    raise ValueError(f"unknown mechanism {mechanism!r}")


# ------------------------------------------------------------------ clipped mean


@dataclass(frozen=True)
class ClippingTradeoff:
    """Error of a DP mean against the upper clipping bound U (lower bound fixed).

    For values x_1..x_n and bounds [L, U] the DP mean is
    mean(clip(x, L, U)) + Laplace((U - L) / (n epsilon)). Its error against
    the population mean splits into three parts [DR14]_ (formulas.md):

    * clipping bias  = mean(clip(x, L, U)) - mean(x)
    * sampling sd    = sd(clip(x, L, U)) / sqrt(n)
    * privacy sd     = sqrt(2) (U - L) / (n epsilon)

    and the root-mean-square error is sqrt(bias^2 + sampling^2 + privacy^2).

    Attributes
    ----------
    lower : float
    uppers : ndarray
    bias, sampling_sd, noise_sd, rmse : ndarray
    best_upper : float
        The U of smallest RMSE on the grid.
    epsilon : float
    n : int
    true_mean : float
    """

    lower: float
    uppers: np.ndarray
    bias: np.ndarray
    sampling_sd: np.ndarray
    noise_sd: np.ndarray
    rmse: np.ndarray
    best_upper: float
    epsilon: float
    n: int
    true_mean: float

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return fields_dict(self)


def clipping_tradeoff(
    values: Sequence[float] | np.ndarray,
    *,
    lower: float,
    uppers: np.ndarray,
    epsilon: float,
) -> ClippingTradeoff:
    """Compute clipping bias, sampling noise and privacy noise against U.

    Vectorized over the grid of upper bounds: the values are sorted once and
    the clipped sums and sums of squares come from cumulative sums, so the
    cost is O(n log n + grid log n). See :class:`ClippingTradeoff`.

    Parameters
    ----------
    values : array-like of float
        The column (non-finite values are ignored).
    lower : float, keyword-only
        Fixed lower clipping bound L.
    uppers : ndarray
        Upper bounds to try (each > L).
    epsilon : float
        Epsilon of the mean (sensitivity (U - L) / n).
    """
    _positive("epsilon", epsilon)
    x = np.asarray(values, dtype=float)
    x = np.sort(x[np.isfinite(x)])
    n = x.size
    if n == 0:
        raise RiskcoreError("the column has no numeric values")
    u = np.asarray(uppers, dtype=float)
    if np.any(u <= lower):
        raise ValueError("every upper bound must exceed the lower bound")
    lo_clipped = np.maximum(x, lower)  # sorted, clip below once
    c1 = np.concatenate([[0.0], np.cumsum(lo_clipped)])
    c2 = np.concatenate([[0.0], np.cumsum(lo_clipped**2)])
    j = np.searchsorted(lo_clipped, u, side="left")  # values < U kept, the rest become U
    above = n - j
    s1 = c1[j] + above * u
    s2 = c2[j] + above * u * u
    mean_c = s1 / n
    var_c = np.maximum(s2 / n - mean_c**2, 0.0) * n / max(n - 1, 1)
    # s2/n - mean^2 cancels: below this floor the clipped values are all equal
    var_c[var_c < 1e-10 * np.maximum(mean_c**2, 1.0)] = 0.0
    true_mean = float(x.mean())
    bias = mean_c - true_mean
    sampling = np.sqrt(var_c / n)
    noise = math.sqrt(2.0) * (u - lower) / (n * epsilon)
    rmse = np.sqrt(bias**2 + sampling**2 + noise**2)
    best = float(u[int(np.argmin(rmse))])
    return ClippingTradeoff(
        float(lower), u, bias, sampling, noise, rmse, best, epsilon, n, true_mean
    )


# ------------------------------------------------------------------ composition


def advanced_composition(
    epsilon: float | Sequence[float], k: int | None = None, *, delta_prime: float
) -> float:
    """Compute the total epsilon of k epsilon-DP releases under advanced composition.

    [DRV10]_ Theorem III.3 ([DR14]_ Theorem 3.20): k releases, each
    epsilon-DP, are (epsilon', k delta + delta')-DP with

        epsilon' = epsilon sqrt(2 k ln(1/delta')) + k epsilon (e^epsilon - 1).

    Given a sequence of different epsilons, the same Azuma argument gives
    sqrt(2 ln(1/delta') sum eps_i^2) + sum eps_i (e^eps_i - 1).
    """
    _probability("delta_prime", delta_prime)
    if isinstance(epsilon, (int, float, np.floating)):
        if k is None:
            raise ValueError("give k with a single epsilon")
        eps = np.full(int(k), float(epsilon))
    else:
        eps = np.asarray(epsilon, dtype=float)
    if eps.size == 0:
        return 0.0
    return float(
        math.sqrt(2.0 * math.log(1.0 / delta_prime) * float(np.sum(eps**2)))
        + float(np.sum(eps * np.expm1(eps)))
    )


def zcdp_of_pure(epsilon: float) -> float:
    """Return rho = epsilon^2 / 2: an epsilon-DP release is rho-zCDP [BS16]_ (Prop. 1.4)."""
    return 0.5 * float(epsilon) ** 2


def zcdp_of_gaussian(l2: float, sigma: float) -> float:
    """Return rho = Delta_2^2 / (2 sigma^2) of the Gaussian mechanism [BS16]_ (Prop. 1.6)."""
    _positive("sigma", sigma)
    return float(l2) ** 2 / (2.0 * float(sigma) ** 2)


def zcdp_to_approx(rho: float, delta: float) -> float:
    """Return epsilon = rho + 2 sqrt(rho ln(1/delta)).

    rho-zCDP implies (epsilon, delta)-DP for this epsilon [BS16]_ (Prop. 1.3).
    """
    _probability("delta", delta)
    return float(rho + 2.0 * math.sqrt(rho * math.log(1.0 / delta)))


@dataclass(frozen=True)
class CompositionCurves:
    """Total epsilon of k releases of epsilon each, under three accountants.

    Attributes
    ----------
    epsilon : float
        Per-release epsilon (pure DP).
    delta_prime : float
        Extra delta spent by the advanced and zCDP bounds.
    k : ndarray
        1..k_max.
    basic, advanced, zcdp : ndarray
        k epsilon; [DRV10]_; rho = k epsilon^2 / 2 converted at delta'.
    best : ndarray
        The smallest of the three (each is a valid bound, at delta 0 or delta').
    """

    epsilon: float
    delta_prime: float
    k: np.ndarray
    basic: np.ndarray
    advanced: np.ndarray
    zcdp: np.ndarray
    best: np.ndarray

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return fields_dict(self)


def composition_curves(
    epsilon: float, k_max: int, *, delta_prime: float = 1e-6
) -> CompositionCurves:
    """Compute total epsilon against the number of releases k = 1..k_max.

    Basic composition ([DR14]_ Theorem 3.16): k epsilon, delta 0. Advanced
    composition ([DRV10]_): epsilon sqrt(2k ln(1/delta')) + k epsilon
    (e^epsilon - 1), delta'. zCDP ([BS16]_): rho = k epsilon^2 / 2, then
    rho + 2 sqrt(rho ln(1/delta')), delta'.
    """
    _positive("epsilon", epsilon)
    _probability("delta_prime", delta_prime)
    if k_max < 1:
        raise ValueError("k_max must be at least 1")
    k = np.arange(1, int(k_max) + 1, dtype=float)
    basic = k * epsilon
    advanced = epsilon * np.sqrt(2.0 * k * math.log(1.0 / delta_prime)) + k * epsilon * math.expm1(
        epsilon
    )
    rho = k * epsilon**2 / 2.0
    zcdp = rho + 2.0 * np.sqrt(rho * math.log(1.0 / delta_prime))
    best = np.minimum(basic, np.minimum(advanced, zcdp))
    return CompositionCurves(
        float(epsilon), float(delta_prime), k.astype(int), basic, advanced, zcdp, best
    )


@dataclass(frozen=True)
class LedgerEntry:
    """One release charged to a privacy ledger.

    Attributes
    ----------
    query : str
        Plain-language description.
    mechanism : str
    epsilon : float
        The epsilon the release costs (OpenDP's certified value).
    delta : float
    rho : float
        Its zCDP cost: epsilon^2 / 2 for pure DP, Delta^2 / (2 sigma^2)
        for the Gaussian mechanism [BS16]_.
    groups : int
        Disjoint groups answered at once (a histogram's bars). By parallel
        composition the release costs epsilon once, not ``groups`` times.
    """

    query: str
    mechanism: str
    epsilon: float
    delta: float = 0.0
    rho: float | None = None
    groups: int = 1

    def __post_init__(self) -> None:
        if not (self.epsilon >= 0 and math.isfinite(self.epsilon)):
            raise ValueError("epsilon must be finite and non-negative")
        if not 0 <= self.delta < 1:
            raise ValueError("delta must be in [0, 1)")
        if self.groups < 1:
            raise ValueError("groups must be at least 1")

    @property
    def zcdp(self) -> float:
        """Return the zCDP rho of this entry."""
        return zcdp_of_pure(self.epsilon) if self.rho is None else self.rho

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out = fields_dict(self)
        out["rho"] = self.zcdp
        return out


@dataclass(frozen=True)
class LedgerTotals:
    """Total privacy loss of a ledger under three composition theorems.

    Attributes
    ----------
    basic : tuple of float
        (sum epsilon, sum delta) [DR14]_ Theorem 3.16.
    advanced : tuple of float
        (heterogeneous [DRV10]_ bound, sum delta + delta').
    zcdp : tuple of float
        (rho + 2 sqrt(rho ln(1/delta')), delta') with rho = sum rho_i [BS16]_;
        ``None`` when an entry's delta is not from a Gaussian/zCDP mechanism.
    rho : float
    parallel_saving : float
        Epsilon saved by parallel composition: sum eps_i (groups_i - 1).
    releases : int
    """

    basic: tuple[float, float]
    advanced: tuple[float, float]
    zcdp: tuple[float, float]
    rho: float
    parallel_saving: float
    releases: int

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return fields_dict(self)


Accounting = Literal["basic", "zcdp"]


@dataclass(frozen=True)
class PrivacyLedger:
    """A session's privacy budget and the releases charged to it.

    A value object: :meth:`charge` returns a new ledger or raises
    :class:`BudgetExceededError`; the ledger itself never changes.

    Attributes
    ----------
    epsilon_budget : float
    delta_budget : float
    accounting : {"basic", "zcdp"}
        How the spent budget is counted against ``epsilon_budget``: basic
        composition (sum of epsilons and deltas) or zCDP (sum of rho,
        converted at ``delta_budget``).
    entries : tuple of LedgerEntry
    """

    epsilon_budget: float
    delta_budget: float = 1e-6
    accounting: Accounting = "basic"
    entries: tuple[LedgerEntry, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if not (self.epsilon_budget > 0 and math.isfinite(self.epsilon_budget)):
            raise ValueError("the epsilon budget must be positive and finite")
        if not 0 <= self.delta_budget < 1:
            raise ValueError("the delta budget must be in [0, 1)")
        if self.accounting not in ("basic", "zcdp"):
            raise ValueError("accounting must be 'basic' or 'zcdp'")
        if self.accounting == "zcdp" and self.delta_budget <= 0:
            raise ValueError("zCDP accounting needs a positive delta budget")

    def totals(self, *, delta_prime: float | None = None) -> LedgerTotals:
        """Return the total loss under basic, advanced and zCDP composition."""
        dp_ = self.delta_budget if delta_prime is None else delta_prime
        if not 0 < dp_ < 1:
            dp_ = 1e-6
        eps = np.array([e.epsilon for e in self.entries], dtype=float)
        dl = float(sum(e.delta for e in self.entries))
        rho = float(sum(e.zcdp for e in self.entries))
        basic = (float(eps.sum()), dl)
        adv = (advanced_composition(eps, delta_prime=dp_), dl + dp_)
        z = (zcdp_to_approx(rho, dp_) if rho > 0 else 0.0, dp_)
        saving = float(sum(e.epsilon * (e.groups - 1) for e in self.entries))
        return LedgerTotals(basic, adv, z, rho, saving, len(self.entries))

    def spent(self) -> tuple[float, float]:
        """Return (epsilon, delta) spent under this ledger's accounting."""
        t = self.totals()
        if self.accounting == "basic":
            return t.basic
        return t.zcdp if t.rho > 0 else (0.0, 0.0)

    def remaining(self) -> float:
        """Return the epsilon left under this ledger's accounting (never negative)."""
        return max(self.epsilon_budget - self.spent()[0], 0.0)

    def charge(self, entry: LedgerEntry) -> PrivacyLedger:
        """Return a new ledger with ``entry`` added, or refuse it.

        Raises
        ------
        BudgetExceededError
            When the total after this release would exceed the epsilon or
            delta budget; the message gives what is spent and what is left.
        """
        new = PrivacyLedger(
            self.epsilon_budget, self.delta_budget, self.accounting, (*self.entries, entry)
        )
        eps, dl = new.spent()
        tol = 1e-9
        if eps > self.epsilon_budget * (1 + tol):
            spent = self.spent()[0]
            raise BudgetExceededError(
                f"Refused: this release costs epsilon {entry.epsilon:.4g} and the session "
                f"has spent {spent:.4g} of its budget of {self.epsilon_budget:.4g} "
                f"({self.accounting} composition); it would bring the total to {eps:.4g}. "
                f"Only {self.remaining():.4g} is left. Ask a cheaper query (smaller "
                f"epsilon) or raise the budget before any release is published."
            )
        if self.accounting == "basic" and dl > self.delta_budget * (1 + tol):
            raise BudgetExceededError(
                f"Refused: this release's delta {entry.delta:.3g} would bring the total "
                f"delta to {dl:.3g}, above the budget of {self.delta_budget:.3g}."
            )
        return new

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "epsilon_budget": self.epsilon_budget,
            "delta_budget": self.delta_budget,
            "accounting": self.accounting,
            "entries": [e.to_dict() for e in self.entries],
            "spent": list(self.spent()),
            "totals": self.totals().to_dict(),
        }


# ------------------------------------------------------------------ sample and aggregate

Statistic = Literal["median", "slope"]


@dataclass(frozen=True)
class SampleAggregate:
    """The blocks of a sample-and-aggregate release [NRS07]_.

    Attributes
    ----------
    statistic : str
    k : int
        Number of disjoint blocks.
    block_size : int
    bounds : tuple of float
        Clamp [lo, hi] applied to each block's statistic.
    block_values : ndarray
        Each block's statistic before clamping.
    aggregate : float
        Mean of the clamped block statistics (before noise).
    full_data_value : float
        The statistic on all records (what a non-private analysis reports).
    epsilon : float
    scale : float
        Laplace scale (hi - lo) / (k epsilon).
    half_width : float
        95% half-width of the noise.
    """

    statistic: str
    k: int
    block_size: int
    bounds: tuple[float, float]
    block_values: np.ndarray
    aggregate: float
    full_data_value: float
    epsilon: float
    scale: float
    half_width: float

    @property
    def sensitivity(self) -> float:
        """Return (hi - lo) / k: one person changes one block's clamped value."""
        return (self.bounds[1] - self.bounds[0]) / self.k

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out = fields_dict(self)
        out["sensitivity"] = self.sensitivity
        return out


def _block_slopes(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least-squares slope of y on x per row of 2-D arrays (NaN when x is constant)."""
    xc = x - x.mean(axis=1, keepdims=True)
    yc = y - y.mean(axis=1, keepdims=True)
    sxx = (xc * xc).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(sxx > 0, (xc * yc).sum(axis=1) / sxx, np.nan)


def sample_and_aggregate(
    values: Sequence[float] | np.ndarray,
    *,
    k: int,
    bounds: tuple[float, float],
    epsilon: float,
    statistic: Statistic = "median",
    x: Sequence[float] | np.ndarray | None = None,
    seed: int = 0,
) -> SampleAggregate:
    """Split the records into k disjoint blocks and average the clamped block statistic.

    [NRS07]_: the statistic f (median, or the regression slope of
    ``values`` on ``x``) is computed on each of k disjoint random blocks,
    clamped to [lo, hi] and averaged. One person is in one block, so the
    average moves by at most (hi - lo) / k, and Laplace noise of scale
    (hi - lo) / (k epsilon) makes it epsilon-DP, whatever the statistic's own
    sensitivity. The noisy release itself is drawn by OpenDP in
    :func:`riskcore.release.release_sample_aggregate`. The random split is
    seeded (it is not noise). Records with a missing value are dropped.
    """
    _positive("epsilon", epsilon)
    lo, hi = float(bounds[0]), float(bounds[1])
    if not lo < hi:
        raise ValueError("bounds must satisfy lo < hi")
    y = np.asarray(values, dtype=float)
    if statistic == "slope":
        if x is None:
            raise ValueError("the slope needs x")
        xv = np.asarray(x, dtype=float)
        keep = np.isfinite(y) & np.isfinite(xv)
        y, xv = y[keep], xv[keep]
        full = float(_block_slopes(xv[None, :], y[None, :])[0])
    elif statistic == "median":
        y = y[np.isfinite(y)]
        xv = None
        full = float(np.median(y)) if y.size else float("nan")
    else:
        raise ValueError(f"unknown statistic {statistic!r}")
    n = y.size
    min_block = 3 if statistic == "slope" else 1
    if k < 2 or n < k * min_block:
        raise RiskcoreError(
            f"sample and aggregate needs at least {min_block} records per block: "
            f"{n:,} records cannot fill k = {k} blocks"
        )
    b = n // k
    order = np.random.default_rng(seed).permutation(n)[: k * b]
    yb = y[order].reshape(k, b)
    if statistic == "median":
        blocks = np.median(yb, axis=1)
    else:
        blocks = _block_slopes(xv[order].reshape(k, b), yb)  # type: ignore[index]
    clamped = np.clip(np.nan_to_num(blocks, nan=(lo + hi) / 2.0), lo, hi)
    scale = (hi - lo) / (k * epsilon)
    return SampleAggregate(
        statistic,
        int(k),
        int(b),
        (lo, hi),
        blocks,
        float(clamped.mean()),
        full,
        float(epsilon),
        scale,
        scale * math.log(20.0),
    )


# ------------------------------------------------------------------ differential identifiability


def identifiability_epsilon(m: int, rho: float) -> float:
    """Compute the epsilon equivalent to rho-differential identifiability [LC12]_.

    Theorem 1 of [LC12]_: with m possible worlds (the individual is one of
    m candidates, uniform prior) and Laplace noise of scale
    lambda = S(f) / ln((m - 1) rho / (1 - rho)), the adversary's posterior
    of the true world never exceeds rho. The equivalent

        epsilon = ln((m - 1) rho / (1 - rho)).

    Raises
    ------
    ValueError
        When rho <= 1/m: the prior alone is already 1/m, so no finite noise
        keeps the posterior at or below rho.
    """
    if not (isinstance(m, (int, np.integer)) and m >= 2):
        raise ValueError(f"m (the number of possible worlds) must be an integer >= 2, got {m!r}")
    _probability("rho", rho)
    if rho <= 1.0 / m:
        raise ValueError(
            f"rho = {rho:g} is not above 1/m = {1.0 / m:.4g}: with {m:,} equally likely "
            "candidates the attacker's prior is already 1/m, and no finite amount of noise "
            "brings the posterior to or below rho. Raise rho or widen the candidate set."
        )
    return float(math.log((m - 1) * rho / (1.0 - rho)))


def identifiability_scale(sensitive_range: float, m: int, rho: float) -> float:
    """Return the Laplace scale lambda = S(f) / epsilon of Theorem 1 in [LC12]_."""
    _positive("sensitive_range", sensitive_range)
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
    _positive("scale", scale)
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
    _positive("scale", scale)
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
    """
    _, total = _peak_log_totals(world_values, scale)
    return float(np.exp(-total.min()))


def most_exposed_world(world_values: Sequence[float] | np.ndarray, scale: float) -> float:
    """Return the world value whose posterior peak is highest (the most exposed candidate)."""
    f, total = _peak_log_totals(world_values, scale)
    return float(f[int(np.argmin(total))])


def tight_identifiability_epsilon(world_values: Sequence[float] | np.ndarray, rho: float) -> float:
    """Compute the exact epsilon = S(f) / lambda at which the worst posterior equals rho.

    The closed form of [LC12]_ assumes every other world sits at the full
    sensitive range S(f) from the true one; real worlds are closer together,
    so less noise (a larger epsilon) already keeps every posterior at or
    below rho. Bisection on log lambda over
    :func:`worst_case_identifiability_risk` (decreasing in lambda).

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
class IdentifiabilityResult:
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

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return fields_dict(self)


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
    """Return (responses, posterior of the true world) over a range around the worlds."""
    w = np.asarray(world_values, dtype=float)
    lo, hi = float(w.min()), float(w.max())
    pad = max(3.0 * scale, (hi - lo) * 0.25, 1e-9)
    r = np.linspace(lo - pad, hi + pad, points)
    return r, np.asarray(identifiability_risk(true_value, w, r, scale))
