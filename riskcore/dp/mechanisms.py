"""Noise mechanisms: each one's scale and closed-form error, in one place.

:class:`Mechanism` names a mechanism; :func:`mechanism_scale`,
:func:`mechanism_error` and :func:`mechanism_sample` hold each one's formulas
(the only place in :mod:`riskcore` that branches on the mechanism). The
Gaussian calibrations live here too. scipy is imported inside the functions
that need it, so importing :mod:`riskcore.dp` stays light.

References
----------
.. [DR14] C. Dwork, A. Roth. The Algorithmic Foundations of Differential
   Privacy. Foundations and Trends in TCS 9(3-4), 2014.
.. [BW18] B. Balle, Y.-X. Wang. Improving the Gaussian Mechanism for
   Differential Privacy: Analytical Calibration and Optimal Denoising.
   ICML 2018.
.. [GRS12] A. Ghosh, T. Roughgarden, M. Sundararajan. Universally
   Utility-Maximizing Privacy Mechanisms. SIAM J. Comput. 41(6), 2012
   (the two-sided geometric, i.e. discrete Laplace, mechanism).
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Any

import numpy as np

from riskcore._validation import check_delta, check_positive

__all__ = [
    "ANALYSED_MECHANISMS",
    "LAPLACE_95",
    "MECHANISM_LABELS",
    "Mechanism",
    "as_mechanism",
    "gaussian_delta",
    "gaussian_epsilon",
    "gaussian_sigma_analytic",
    "gaussian_sigma_classic",
    "laplace_half_width",
    "mechanism_error",
    "mechanism_sample",
    "mechanism_scale",
    "normal_quantile",
]


class Mechanism(StrEnum):
    """A noise mechanism; compares equal to its plain-string value (``"laplace"``)."""

    LAPLACE = "laplace"
    GAUSSIAN = "gaussian"
    DISCRETE_LAPLACE = "discrete_laplace"
    DISCRETE_GAUSSIAN = "discrete_gaussian"

    @property
    def label(self) -> str:
        """Return the name shown to people ("Gaussian (analytic)")."""
        return _LABELS[self]

    @property
    def is_gaussian(self) -> bool:
        """Return True for the (discrete) Gaussian: calibrated on L2 and needs delta."""
        return self in (Mechanism.GAUSSIAN, Mechanism.DISCRETE_GAUSSIAN)

    @property
    def is_discrete(self) -> bool:
        """Return True for the integer-valued mechanisms (counts and histograms only)."""
        return self in (Mechanism.DISCRETE_LAPLACE, Mechanism.DISCRETE_GAUSSIAN)


_LABELS: dict[Mechanism, str] = {
    Mechanism.LAPLACE: "Laplace",
    Mechanism.GAUSSIAN: "Gaussian (analytic)",
    Mechanism.DISCRETE_LAPLACE: "Discrete Laplace",
    Mechanism.DISCRETE_GAUSSIAN: "Discrete Gaussian",
}

#: The mechanisms with closed-form error here (the discrete Gaussian is released only).
ANALYSED_MECHANISMS: tuple[Mechanism, ...] = (
    Mechanism.LAPLACE,
    Mechanism.GAUSSIAN,
    Mechanism.DISCRETE_LAPLACE,
)

#: Label of each analysed mechanism, keyed by its plain-string value.
MECHANISM_LABELS: dict[str, str] = {m.value: m.label for m in ANALYSED_MECHANISMS}

#: ln 20: 95% of Laplace(b) noise lies within b ln 20, since P(|Y| >= t) = e^{-t/b} [DR14]_.
LAPLACE_95: float = math.log(20.0)


def as_mechanism(value: Any, *, allowed: tuple[Mechanism, ...] = ANALYSED_MECHANISMS) -> Mechanism:
    """Return ``value`` (a :class:`Mechanism` or its string) as a Mechanism.

    Raises
    ------
    ValueError
        When ``value`` is not one of ``allowed``; the message quotes it.
    """
    try:
        mech = Mechanism(value)
    except ValueError:
        raise ValueError(f"unknown mechanism {value!r}") from None
    if mech not in allowed:
        names = ", ".join(repr(m.value) for m in allowed)
        raise ValueError(f"unknown mechanism {value!r} here; use one of {names}")
    return mech


def laplace_half_width(scale: float | np.ndarray, alpha: float = 0.05) -> Any:
    """Return b ln(1/alpha): Laplace(b) noise exceeds it with probability alpha [DR14]_.

    P(|Y| >= t) = e^{-t/b}, so at alpha = 0.05 the half-width is b ln 20
    (:data:`LAPLACE_95`).
    """
    return scale * math.log(1.0 / alpha)


def normal_quantile(p: float) -> float:
    """Return the standard normal quantile z_p (``scipy.special.ndtri``)."""
    from scipy import special

    return float(special.ndtri(p))


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
    """
    from scipy import optimize

    check_positive("epsilon", epsilon)
    check_delta(delta)
    check_positive("l2", l2)

    def gap(log_sigma: float) -> float:
        return gaussian_delta(math.exp(log_sigma), l2, epsilon) - delta

    lo, hi = math.log(l2) - 30.0, math.log(l2) + 30.0
    return float(math.exp(optimize.brentq(gap, lo, hi, xtol=1e-13, rtol=1e-13)))


def gaussian_sigma_classic(l2: float, epsilon: float, delta: float) -> float:
    """Compute the classical Gaussian sigma, Delta_2 sqrt(2 ln(1.25/delta)) / epsilon.

    Theorem A.1 of [DR14]_, proved only for epsilon < 1; larger epsilons
    raise ``ValueError`` (use :func:`gaussian_sigma_analytic`).
    """
    check_positive("epsilon", epsilon)
    check_delta(delta)
    if epsilon >= 1:
        raise ValueError(
            "the classical Gaussian calibration holds only for epsilon < 1; "
            f"use the analytic calibration (got epsilon = {epsilon!r})"
        )
    return float(l2 * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon)


def gaussian_epsilon(sigma: float, l2: float, delta: float) -> float:
    """Compute the smallest epsilon for which N(0, sigma^2) noise is (epsilon, delta)-DP.

    Inverts :func:`gaussian_delta` in epsilon (it decreases in epsilon).
    """
    from scipy import optimize

    check_positive("sigma", sigma)
    check_delta(delta)
    if gaussian_delta(sigma, l2, 0.0) <= delta:
        return 0.0

    def gap(eps: float) -> float:
        return gaussian_delta(sigma, l2, eps) - delta

    hi = 1.0
    while gap(hi) > 0:
        hi *= 2.0
    return float(optimize.brentq(gap, 0.0, hi, xtol=1e-13, rtol=1e-13))


# ------------------------------------------------------------------ scale, error, samples


def mechanism_scale(
    mechanism: Mechanism | str,
    l1: float,
    l2: float,
    epsilon: float,
    *,
    delta: float | None = None,
) -> float:
    """Compute a mechanism's noise scale for sensitivities (l1, l2) at ``epsilon``.

    Laplace: b = Delta_1 / epsilon [DR14]_ (Theorem 3.6). Discrete Laplace
    (two-sided geometric) on integer queries: s = Delta_1 / epsilon,
    P(Y = y) proportional to e^{-|y|/s} [GRS12]_. Gaussian: the analytic
    sigma of [BW18]_ for the L2 sensitivity and ``delta``.
    """
    mech = as_mechanism(mechanism)
    check_positive("epsilon", epsilon)
    if mech is Mechanism.GAUSSIAN:
        if delta is None:
            raise ValueError("the Gaussian mechanism needs delta")
        return gaussian_sigma_analytic(l2, epsilon, delta)
    return l1 / epsilon


def mechanism_error(
    mechanism: Mechanism | str, scale: np.ndarray, alpha: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (half_width, expected_abs, std) of a mechanism's noise for an array of scales.

    Laplace(b): P(|Y| >= t) = e^{-t/b}, so the (1 - alpha) half-width is
    b ln(1/alpha); E|Y| = b; sd = sqrt(2) b [DR14]_ (Fact 3.7).
    Gaussian(sigma): half-width z_{1-alpha/2} sigma; E|Y| = sigma sqrt(2/pi).
    Discrete Laplace(s), r = e^{-1/s}: P(Y = y) = (1 - r)/(1 + r) r^|y|, so
    P(|Y| >= k) = 2 r^k / (1 + r) and the half-width is
    s ln(2 / (alpha (1 + r))); E|Y| = 2r / (1 - r^2); sd = sqrt(2r) / (1 - r).
    These agree with OpenDP's ``*_scale_to_accuracy`` helpers.
    """
    mech = as_mechanism(mechanism)
    s = np.asarray(scale, dtype=float)
    if mech is Mechanism.LAPLACE:
        return laplace_half_width(s, alpha), s, math.sqrt(2.0) * s
    if mech is Mechanism.GAUSSIAN:
        z = normal_quantile(1.0 - alpha / 2.0)
        return z * s, s * math.sqrt(2.0 / math.pi), s
    r = np.exp(-1.0 / s)
    half = s * np.log(2.0 / (alpha * (1.0 + r)))
    return np.maximum(half, 0.0), 2.0 * r / (1.0 - r * r), np.sqrt(2.0 * r) / (1.0 - r)


def mechanism_sample(
    mechanism: Mechanism | str, scale: float | np.ndarray, size: int | tuple[int, ...], rng: Any
) -> np.ndarray:
    """Draw a mechanism's noise with numpy, for *simulated* plots only (not for releases).

    The textbook numpy samplers are open to floating-point attacks (Mironov
    2012); releases go through OpenDP. Discrete Laplace is drawn as the
    difference of two geometric variables on {0, 1, ...} with success
    probability 1 - e^{-1/s} [GRS12]_.
    """
    mech = as_mechanism(mechanism)
    gen = np.random.default_rng(rng)
    if mech is Mechanism.LAPLACE:
        return gen.laplace(0.0, scale, size)
    if mech is Mechanism.GAUSSIAN:
        return gen.normal(0.0, scale, size)
    p = -np.expm1(-1.0 / np.asarray(scale, dtype=float))
    return (gen.geometric(p, size) - gen.geometric(p, size)).astype(float)
