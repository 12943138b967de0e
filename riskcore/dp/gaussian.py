"""Gaussian calibration: the sigma for (epsilon, delta), and the epsilon of a sigma.

Two calibrations of N(0, sigma^2) noise on a query of L2 sensitivity Delta_2:
the one OpenDP releases with, certified through zCDP [BS16]_ and converted to
(epsilon, delta) [CKS20]_ (:func:`opendp_gaussian_sigma`, its inverse
:func:`opendp_gaussian_epsilon` and the grid version
:func:`opendp_gaussian_sigmas` for plots), which
:func:`riskcore.dp.mechanisms.mechanism_scale` plans with; and the exact
(epsilon, delta) curve of [BW18]_ (:func:`gaussian_delta`,
:func:`gaussian_sigma_analytic`, :func:`gaussian_epsilon`) with the classical
bound of [DR14]_ (:func:`gaussian_sigma_classic`), kept as references. scipy
and opendp are imported inside the functions that need them, so importing
:mod:`riskcore.dp` stays light.

References
----------
.. [DR14] C. Dwork, A. Roth. The Algorithmic Foundations of Differential
   Privacy. Foundations and Trends in TCS 9(3-4), 2014.
.. [BW18] B. Balle, Y.-X. Wang. Improving the Gaussian Mechanism for
   Differential Privacy: Analytical Calibration and Optimal Denoising.
   ICML 2018.
.. [BS16] M. Bun, T. Steinke. Concentrated Differential Privacy:
   Simplifications, Extensions, and Lower Bounds. TCC 2016.
.. [CKS20] C. Canonne, G. Kamath, T. Steinke. The Discrete Gaussian for
   Differential Privacy. NeurIPS 2020 (the zCDP to (epsilon, delta)
   conversion OpenDP uses).
.. [OpenDP] The OpenDP Library, https://docs.opendp.org (version 0.16):
   ``make_gaussian >> make_zCDP_to_approxDP >> make_fix_delta``.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from riskcore._validation import check_delta, check_positive

__all__ = [
    "gaussian_delta",
    "gaussian_epsilon",
    "gaussian_search_bounds",
    "gaussian_sigma_analytic",
    "gaussian_sigma_classic",
    "opendp_gaussian_epsilon",
    "opendp_gaussian_sigma",
    "opendp_gaussian_sigmas",
]


def _check_calibration(l2: float, epsilon: float, delta: float) -> None:
    """Refuse a calibration's bad arguments: l2 and epsilon positive, delta in (0, 1)."""
    check_positive("l2", l2)
    check_positive("epsilon", epsilon)
    check_delta(delta)


def _check_profile(sigma: float, l2: float, delta: float) -> None:
    """Refuse a privacy profile's bad arguments: sigma and l2 positive, delta in (0, 1)."""
    check_positive("sigma", sigma)
    check_positive("l2", l2)
    check_delta(delta)


def gaussian_delta(sigma: float, l2: float, epsilon: float) -> float:
    """Compute the exact delta of the Gaussian mechanism at a given epsilon [BW18]_.

    Theorem 8 of [BW18]_: N(0, sigma^2) noise on a query with L2
    sensitivity Delta is (epsilon, delta)-DP iff

        delta >= Phi(Delta / (2 sigma) - epsilon sigma / Delta)
                 - e^epsilon Phi(-Delta / (2 sigma) - epsilon sigma / Delta).

    The second term is evaluated as ``exp(epsilon + log Phi(.))`` so large
    epsilons do not overflow.

    Parameters
    ----------
    sigma : float
        Standard deviation of the Gaussian noise (> 0).
    l2 : float
        The L2 sensitivity Delta of the query (> 0).
    epsilon : float
        The privacy-loss parameter ε (>= 0).

    Returns
    -------
    float
        The smallest delta: the noise is (epsilon, delta)-DP for it and every larger one.
    """
    from scipy import special

    check_positive("sigma", sigma)
    check_positive("l2", l2)
    a = l2 / (2.0 * sigma)
    b = epsilon * sigma / l2
    return float(special.ndtr(a - b) - np.exp(epsilon + special.log_ndtr(-a - b)))


def gaussian_sigma_analytic(l2: float, epsilon: float, delta: float) -> float:
    """Compute the smallest Gaussian sigma that is (epsilon, delta)-DP [BW18]_.

    Solves ``gaussian_delta(sigma, l2, epsilon) = delta`` for sigma (the
    left side decreases in sigma) by Brent's method on log sigma. Valid for
    every epsilon > 0, unlike the classical bound.

    Parameters
    ----------
    l2, epsilon : float
        As :func:`gaussian_delta` (epsilon > 0).
    delta : float
        The δ of approximate differential privacy to meet, in (0, 1).

    Returns
    -------
    float
        Sigma, in the units of the query's answer.
    """
    from scipy import optimize

    _check_calibration(l2, epsilon, delta)

    def gap(log_sigma: float) -> float:
        return gaussian_delta(math.exp(log_sigma), l2, epsilon) - delta

    lo, hi = math.log(l2) - 30.0, math.log(l2) + 30.0
    return float(math.exp(optimize.brentq(gap, lo, hi, xtol=1e-13, rtol=1e-13)))


def gaussian_sigma_classic(l2: float, epsilon: float, delta: float) -> float:
    """Compute the classical Gaussian sigma, Delta_2 sqrt(2 ln(1.25/delta)) / epsilon.

    Theorem A.1 of [DR14]_, proved only for epsilon < 1; larger epsilons
    raise ``ValueError`` (use :func:`gaussian_sigma_analytic`).

    Parameters
    ----------
    l2, epsilon, delta : float
        As :func:`gaussian_sigma_analytic`, with epsilon < 1.

    Returns
    -------
    float
        At least the analytic sigma, which is the smallest.
    """
    _check_calibration(l2, epsilon, delta)
    if epsilon >= 1:
        raise ValueError(
            "the classical Gaussian calibration holds only for epsilon < 1; "
            f"use the analytic calibration (got epsilon = {epsilon!r})"
        )
    return float(l2 * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon)


def gaussian_epsilon(sigma: float, l2: float, delta: float) -> float:
    """Compute the smallest epsilon for which N(0, sigma^2) noise is (epsilon, delta)-DP.

    Inverts :func:`gaussian_delta` in epsilon (it decreases in epsilon).

    Parameters
    ----------
    sigma, l2 : float
        As :func:`gaussian_delta`.
    delta : float
        The δ of approximate differential privacy, in (0, 1).

    Returns
    -------
    float
        0 when the noise is (0, delta)-DP already.
    """
    from scipy import optimize

    _check_profile(sigma, l2, delta)
    if gaussian_delta(sigma, l2, 0.0) <= delta:
        return 0.0

    def gap(eps: float) -> float:
        return gaussian_delta(sigma, l2, eps) - delta

    hi = 1.0
    while gap(hi) > 0:
        hi *= 2.0
    return float(optimize.brentq(gap, 0.0, hi, xtol=1e-13, rtol=1e-13))


def _opendp() -> Any:
    """Return ``opendp.prelude`` with the contrib features on (imported on first use)."""
    import opendp.prelude as odp

    odp.enable_features("contrib")
    return odp


def _gaussian_space(odp: Any) -> tuple[Any, Any]:
    """Return the (domain, metric) the Gaussian is certified on: float vectors, L2 distance.

    OpenDP's zCDP map of the Gaussian, rho = (d_in / sigma)^2 / 2, is the
    same for a count (absolute distance) and for the integer (discrete
    Gaussian) domain, which the tests check against :mod:`riskcore.dp.release`.
    """
    return odp.vector_domain(odp.atom_domain(T=float, nan=False)), odp.l2_distance(T=float)


def gaussian_search_bounds(l2: float, epsilon: float, delta: float) -> tuple[float, float]:
    """Return (low, high) bracketing the sigma OpenDP certifies, for its binary search.

    Left to itself, ``opendp.binary_search_param`` tries sigmas so small that the zCDP
    to (epsilon, delta) conversion overflows (``inf_exp() is not finite``) once Delta_2
    is in the hundreds, and the release failed: a sum clipped to [0, 500] with the
    Gaussian, or a count whose bound on rows per person is several hundred. The bracket:
    below, half the analytic sigma of [BW18]_ (no Gaussian with a smaller sigma is
    (epsilon, delta)-DP); above, twice the sigma of [BS16]_ Proposition 1.3,
    rho + 2 sqrt(rho ln(1/delta)) = epsilon, so rho = (sqrt(ln(1/delta) + epsilon) -
    sqrt(ln(1/delta)))^2 and sigma = Delta_2 / sqrt(2 rho), which OpenDP's tighter
    conversion [CKS20]_ certifies too.

    Parameters
    ----------
    l2, epsilon, delta : float
        As :func:`gaussian_sigma_analytic`.

    Returns
    -------
    tuple of (float, float)
        Sigmas below and above the one OpenDP certifies.
    """
    _check_calibration(l2, epsilon, delta)
    log_inv = math.log(1.0 / delta)
    rho = (math.sqrt(log_inv + epsilon) - math.sqrt(log_inv)) ** 2
    return 0.5 * gaussian_sigma_analytic(l2, epsilon, delta), 2.0 * l2 / math.sqrt(2.0 * rho)


@functools.lru_cache(maxsize=1024)
def opendp_gaussian_sigma(l2: float, epsilon: float, delta: float) -> float:
    """Return the sigma OpenDP releases a Gaussian with at (epsilon, delta) [OpenDP]_.

    The smallest float sigma whose certified cost, OpenDP's zCDP map
    rho = Delta_2^2 / (2 sigma^2) [BS16]_ converted to (epsilon, delta) by
    ``make_zCDP_to_approxDP`` and fixed at ``delta`` [CKS20]_, is within
    (epsilon, delta), found by ``opendp.binary_search_param`` exactly as a
    release calibrates it. For a count at epsilon 1, delta 1e-5 this is
    4.045, where the analytic optimum of [BW18]_ is 3.731. The same sigma
    serves the discrete Gaussian (OpenDP's map is the same).
    """
    _check_calibration(l2, epsilon, delta)
    odp = _opendp()
    domain, metric = _gaussian_space(odp)

    def chain(scale: float) -> Any:
        meas = odp.m.make_gaussian(domain, metric, scale=scale)
        return odp.c.make_fix_delta(odp.c.make_zCDP_to_approxDP(meas), delta)

    d_out = (float(epsilon), float(delta))
    bounds = gaussian_search_bounds(l2, epsilon, delta)
    return float(
        odp.binary_search_param(chain, d_in=float(l2), d_out=d_out, bounds=bounds, T=float)
    )


def opendp_gaussian_epsilon(sigma: float, l2: float, delta: float) -> float:
    """Return the epsilon OpenDP certifies for N(0, sigma^2) noise at ``delta`` [CKS20]_.

    The privacy profile of OpenDP's zCDP Gaussian (``make_zCDP_to_approxDP``)
    read at ``delta``: the inverse of :func:`opendp_gaussian_sigma`.

    Parameters
    ----------
    sigma, l2, delta : float
        As :func:`gaussian_epsilon`.

    Returns
    -------
    float
        At least :func:`gaussian_epsilon`'s: the zCDP conversion bounds the exact curve.
    """
    _check_profile(sigma, l2, delta)
    odp = _opendp()
    domain, metric = _gaussian_space(odp)
    meas = odp.c.make_zCDP_to_approxDP(odp.m.make_gaussian(domain, metric, scale=float(sigma)))
    return float(meas.map(float(l2)).epsilon(float(delta)))


@functools.lru_cache(maxsize=16)
def _unit_profile(delta: float) -> tuple[np.ndarray, np.ndarray]:
    """Return (log epsilon, log sigma) of OpenDP's Gaussian at Delta_2 = 1, over a sigma grid.

    241 sigmas from 10^-1.5 to 10^4.5, each certified by OpenDP at ``delta``
    (a few milliseconds each, once per delta); sigmas so large that they
    cost epsilon 0 at ``delta`` are left out.
    """
    sigmas = np.logspace(-1.5, 4.5, 241)
    eps = np.array([opendp_gaussian_epsilon(float(s), 1.0, delta) for s in sigmas])
    # a large sigma is (0, delta)-DP already: keep the strictly decreasing positive part
    keep = (eps > 0) & (np.r_[eps[:-1] > eps[1:], True])
    return np.log(eps[keep][::-1]), np.log(sigmas[keep][::-1])


def opendp_gaussian_sigmas(l2: float, epsilons: np.ndarray, delta: float) -> np.ndarray:
    """Return OpenDP's Gaussian sigma over a grid of epsilons, for plots.

    OpenDP's certified cost depends on Delta_2 / sigma only, so the sigmas
    are Delta_2 times those of unit sensitivity, read off OpenDP's privacy
    profile (:func:`opendp_gaussian_epsilon` on a grid of 241 sigmas) by
    monotone cubic interpolation of log sigma in log epsilon; they agree
    with :func:`opendp_gaussian_sigma` to about 1e-6 (tested). Epsilons
    outside the profile (below about 1e-4 or above 600) are calibrated one
    by one.

    Parameters
    ----------
    l2 : float
        The L2 sensitivity of the query (> 0).
    epsilons : numpy.ndarray
        The privacy-loss parameters, one per sigma.
    delta : float
        The δ of approximate differential privacy, in (0, 1).

    Returns
    -------
    numpy.ndarray
        One sigma per epsilon, in the units of the query's answer.
    """
    from scipy import interpolate

    check_positive("l2", l2)
    check_delta(delta)
    eps = np.asarray(epsilons, dtype=float)
    log_eps, log_sigma = _unit_profile(float(delta))
    inside = (np.log(eps) >= log_eps[0]) & (np.log(eps) <= log_eps[-1])
    out = np.empty_like(eps)
    out[inside] = l2 * np.exp(
        interpolate.PchipInterpolator(log_eps, log_sigma)(np.log(eps[inside]))
    )
    for i in np.flatnonzero(~inside):
        out[i] = opendp_gaussian_sigma(float(l2), float(eps[i]), float(delta))
    return out
