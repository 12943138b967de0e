"""Error of noisy answers: closed forms, simulations, solvers and the clipped mean.

Each mechanism's formulas live in :mod:`riskcore.dp.mechanisms`; this module
applies them to a query's sensitivity and to grids of epsilons.

References
----------
.. [DR14] C. Dwork, A. Roth. The Algorithmic Foundations of Differential
   Privacy. Foundations and Trends in TCS 9(3-4), 2014.
.. [CKS20] C. Canonne, G. Kamath, T. Steinke. The Discrete Gaussian for
   Differential Privacy. NeurIPS 2020.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from riskcore._results import Result
from riskcore._validation import check_epsilon, check_positive, check_probability
from riskcore.dp.gaussian import opendp_gaussian_epsilon, opendp_gaussian_sigmas
from riskcore.dp.mechanisms import (
    Mechanism,
    as_mechanism,
    discrete_gaussian_tail,
    mechanism_error,
    mechanism_sample,
    mechanism_scale,
    normal_quantile,
)
from riskcore.dp.sensitivity import Sensitivity
from riskcore.errors import RiskcoreError

__all__ = [
    "ClippingTradeoff",
    "ErrorCurve",
    "NoiseError",
    "accuracy_for_epsilon",
    "clipping_tradeoff",
    "epsilon_for_accuracy",
    "epsilon_grid",
    "error_curve",
    "noise_error",
    "noise_scale",
    "simulate_noise",
]


def noise_scale(
    mechanism: Mechanism | str, sens: Sensitivity, epsilon: float, *, delta: float | None = None
) -> float:
    """Compute the noise scale for a mechanism at a given epsilon.

    Laplace and discrete Laplace: Delta_1 / epsilon; Gaussian and discrete
    Gaussian: the sigma OpenDP releases with for Delta_2 and ``delta``,
    certified through zCDP (see :func:`riskcore.dp.mechanisms.mechanism_scale`).

    Parameters
    ----------
    mechanism : Mechanism or str
        The mechanism, or its name.
    sens : Sensitivity
        The query's sensitivity.
    epsilon : float
        The privacy-loss parameter ε (> 0).
    delta : float, optional
        The δ of approximate differential privacy (0 for pure ε-DP).

    Returns
    -------
    float
    """
    return mechanism_scale(mechanism, sens.l1, sens.l2, epsilon, delta=delta)


@dataclass(frozen=True)
class NoiseError(Result):
    """Closed-form error of one noisy answer.

    Attributes
    ----------
    mechanism : str
        The mechanism, or its name.
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

    mechanism: Mechanism
    scale: float
    alpha: float
    half_width: float
    expected_abs: float
    std: float


def noise_error(mechanism: Mechanism | str, scale: float, *, alpha: float = 0.05) -> NoiseError:
    """Compute the closed-form error of a mechanism's noise at a given scale.

    Laplace(b): half-width b ln(1/alpha), E|Y| = b, sd = sqrt(2) b [DR14]_.
    Gaussian(sigma): half-width z_{1-alpha/2} sigma, E|Y| = sigma sqrt(2/pi).
    Discrete Laplace(s), r = e^{-1/s}: P(|Y| >= k) = 2 r^k / (1 + r), so the
    half-width is s ln(2 / (alpha (1 + r))); E|Y| = 2r / (1 - r^2).
    Discrete Gaussian(s): the smallest integer k with P(|Y| >= k) <= alpha
    [CKS20]_. These agree with OpenDP's ``*_scale_to_accuracy`` helpers.

    Parameters
    ----------
    mechanism : Mechanism or str
        The mechanism, or its name.
    scale : float
        The noise scale of the mechanism (Laplace b, Gaussian sigma).
    alpha : float, optional
        The probability that the noise exceeds the error.

    Returns
    -------
    NoiseError
    """
    mech = as_mechanism(mechanism)
    check_positive("scale", scale)
    check_probability("alpha", alpha)
    hw, ea, sd = mechanism_error(mech, np.array([scale]), alpha)
    return NoiseError(mech, float(scale), alpha, float(hw[0]), float(ea[0]), float(sd[0]))


#: Draw a mechanism's noise with numpy, for *simulated* plots only (not for releases):
#: :func:`riskcore.dp.mechanisms.mechanism_sample` under the name :mod:`riskcore.dp` exports.
simulate_noise = mechanism_sample


@dataclass(frozen=True)
class ErrorCurve(Result):
    """Error of one query's noisy answer over a grid of epsilons.

    Attributes
    ----------
    mechanism : str
        The mechanism, or its name.
    true_answer : float
    sensitivity : Sensitivity
    delta : float or None
        Gaussian delta.
    alpha : float
        The probability that the noise exceeds the error.
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

    mechanism: Mechanism
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
        """Return the closed-form error at one epsilon (on or off the grid).

        Parameters
        ----------
        epsilon : float
            The privacy-loss parameter ε (> 0).

        Returns
        -------
        NoiseError
            The closed-form error at one epsilon (on or off the grid).
        """
        scale = noise_scale(self.mechanism, self.sensitivity, epsilon, delta=self.delta)
        return noise_error(self.mechanism, scale, alpha=self.alpha)


#: The epsilons every error-against-epsilon chart is drawn on: 61 log-spaced points, 0.01 to 10.
EPSILON_GRID_RANGE: tuple[float, float, int] = (0.01, 10.0, 61)


def epsilon_grid(
    lo: float = EPSILON_GRID_RANGE[0],
    hi: float = EPSILON_GRID_RANGE[1],
    points: int = EPSILON_GRID_RANGE[2],
) -> np.ndarray:
    """Return the log-spaced grid of epsilons (default 61 points from 0.01 to 10).

    The one grid of the package: the DP page's error chart, the noise curve
    of the attacks page and the guided demo all use it.

    Parameters
    ----------
    lo : float, optional
        The smallest epsilon of the grid.
    hi : float, optional
        The largest epsilon of the grid.
    points : int, optional
        The number of epsilons on the grid.

    Returns
    -------
    numpy.ndarray
        The log-spaced grid of epsilons (default 61 points from 0.01 to 10).
    """
    return np.geomspace(lo, hi, points)


def error_curve(
    true_answer: float,
    sens: Sensitivity,
    *,
    mechanism: Mechanism | str = Mechanism.LAPLACE,
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
        The query's sensitivity.
    mechanism : {"laplace", "gaussian", "discrete_laplace", "discrete_gaussian"}, keyword-only
        The mechanism, or its name.
    epsilons : ndarray, optional
        Defaults to :func:`epsilon_grid`.
    delta : float, optional
        Required for the Gaussian mechanisms; their sigmas are OpenDP's
        (:func:`riskcore.dp.gaussian.opendp_gaussian_sigmas`).
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
    mech = as_mechanism(mechanism)
    check_probability("alpha", alpha)
    eps = epsilon_grid() if epsilons is None else np.asarray(epsilons, dtype=float)
    if eps.size == 0 or np.any(~(eps > 0)):
        raise ValueError(f"epsilons must be positive, got {epsilons!r}")
    if mech.is_gaussian:
        scale = opendp_gaussian_sigmas(sens.l2, eps, mech.required_delta(delta))
    else:
        scale = sens.l1 / eps
    hw, ea, _ = mechanism_error(mech, scale, alpha)
    rel = hw / abs(true_answer) if true_answer != 0 else np.full_like(hw, np.nan)
    draws = mechanism_sample(mech, scale[:, None], (eps.size, simulations), seed)
    lo, hi = np.quantile(draws, [alpha / 2.0, 1.0 - alpha / 2.0], axis=1)
    return ErrorCurve(
        mech,
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
    mechanism: Mechanism | str = Mechanism.LAPLACE,
    alpha: float = 0.05,
    delta: float | None = None,
) -> float:
    """Compute the +/- half-width (confidence 1 - alpha) a given epsilon buys.

    Parameters
    ----------
    epsilon : float
        The privacy-loss parameter ε (> 0).
    sens : Sensitivity
        The query's sensitivity.
    mechanism : Mechanism or str, optional
        The mechanism, or its name.
    alpha : float, optional
        The probability that the noise exceeds the error.
    delta : float, optional
        The δ of approximate differential privacy (0 for pure ε-DP).

    Returns
    -------
    float
    """
    scale = noise_scale(mechanism, sens, epsilon, delta=delta)
    return noise_error(mechanism, scale, alpha=alpha).half_width


def epsilon_for_accuracy(
    accuracy: float,
    sens: Sensitivity,
    *,
    mechanism: Mechanism | str = Mechanism.LAPLACE,
    alpha: float = 0.05,
    delta: float | None = None,
) -> float:
    """Compute the smallest epsilon whose answer is within +/- accuracy w.p. 1 - alpha.

    Laplace: epsilon = Delta_1 ln(1/alpha) / a. Discrete Laplace: solve
    s ln(2 / (alpha (1 + e^{-1/s}))) = a for s, then epsilon = Delta_1 / s.
    Gaussian: sigma = a / z_{1-alpha/2}; discrete Gaussian: the largest
    sigma with P(|Y| >= floor(a)) <= alpha [CKS20]_; then the epsilon OpenDP
    certifies for that sigma at ``delta``
    (:func:`riskcore.dp.gaussian.opendp_gaussian_epsilon`).

    Parameters
    ----------
    accuracy : float
        The error wanted, exceeded with probability ``alpha``.
    sens : Sensitivity
        The query's sensitivity.
    mechanism : Mechanism or str, optional
        The mechanism, or its name.
    alpha : float, optional
        The probability that the noise exceeds the error.
    delta : float, optional
        The δ of approximate differential privacy (0 for pure ε-DP).

    Returns
    -------
    float
    """
    mech = as_mechanism(mechanism)
    check_positive("accuracy", accuracy)
    check_probability("alpha", alpha)
    if mech is Mechanism.LAPLACE:
        return sens.l1 * math.log(1.0 / alpha) / accuracy
    if mech.is_gaussian:
        checked = mech.required_delta(delta)
        if mech is Mechanism.GAUSSIAN:
            sigma = accuracy / normal_quantile(1.0 - alpha / 2.0)
        else:
            sigma = _discrete_gaussian_scale_for(accuracy, alpha)
        return opendp_gaussian_epsilon(sigma, sens.l2, checked) if sigma > 0 else math.inf
    s = _discrete_laplace_scale_for(accuracy, alpha)
    return sens.l1 / s if s > 0 else math.inf


def _discrete_laplace_scale_for(accuracy: float, alpha: float) -> float:
    """Solve s ln(2 / (alpha (1 + e^{-1/s}))) = accuracy for the discrete Laplace scale s."""
    from scipy import optimize

    def gap(log_s: float) -> float:
        half = mechanism_error(Mechanism.DISCRETE_LAPLACE, np.array([math.exp(log_s)]), alpha)[0]
        return float(half[0]) - accuracy

    lo, hi = -30.0, math.log(accuracy) + 5.0
    if gap(lo) >= 0:  # even vanishing noise misses: cannot happen for accuracy > 0
        return 0.0
    return float(math.exp(optimize.brentq(gap, lo, hi, xtol=1e-13)))


def _discrete_gaussian_scale_for(accuracy: float, alpha: float) -> float:
    """Return the largest discrete Gaussian scale whose half-width is at most ``accuracy``.

    The half-width is an integer k (P(|Y| >= k) <= alpha), so it is at most
    ``accuracy`` iff P(|Y| >= floor(accuracy)) <= alpha; the tail grows with
    the scale, which is found by Brent's method on log scale. Returns 0 when
    no scale does (``accuracy`` < 1).
    """
    from scipy import optimize

    k = math.floor(accuracy * (1 + 1e-12))
    if k < 1:
        return 0.0

    def gap(log_s: float) -> float:
        return discrete_gaussian_tail(math.exp(log_s), k) - alpha

    lo, hi = math.log(1e-3), math.log(10.0 * k / min(alpha, 0.5))
    return float(math.exp(optimize.brentq(gap, lo, hi, xtol=1e-13)))


# ------------------------------------------------------------------ clipped mean


@dataclass(frozen=True)
class ClippingTradeoff(Result):
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
        The privacy-loss parameter epsilon (> 0).
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

    Returns
    -------
    ClippingTradeoff
    """
    check_epsilon(epsilon)
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
