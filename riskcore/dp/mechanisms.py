"""Noise mechanisms: each one's scale and closed-form error, in one place.

:class:`Mechanism` names a mechanism; :func:`mechanism_scale`,
:func:`mechanism_error` and :func:`mechanism_sample` hold each one's formulas
(the only place in :mod:`riskcore` that branches on the mechanism).

The scale planned here is the scale OpenDP releases with
(:mod:`riskcore.dp.release`): Laplace and discrete Laplace at
Delta_1 / epsilon, the (discrete) Gaussian at the sigma OpenDP certifies
through zCDP [BS16]_, converted to (epsilon, delta) [CKS20]_
(:func:`riskcore.dp.gaussian.opendp_gaussian_sigma`, OpenDP's own privacy map
and ``binary_search_param``). The Gaussian calibrations live in
:mod:`riskcore.dp.gaussian` and are re-exported here (their old import path).
scipy and opendp are imported inside the functions that need them, so
importing :mod:`riskcore.dp` stays light.

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
.. [BS16] M. Bun, T. Steinke. Concentrated Differential Privacy:
   Simplifications, Extensions, and Lower Bounds. TCC 2016.
.. [CKS20] C. Canonne, G. Kamath, T. Steinke. The Discrete Gaussian for
   Differential Privacy. NeurIPS 2020 (the discrete Gaussian, and the
   zCDP to (epsilon, delta) conversion OpenDP uses).
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Any

import numpy as np

from riskcore._validation import check_positive
from riskcore.dp.gaussian import (
    gaussian_delta,
    gaussian_epsilon,
    gaussian_sigma_analytic,
    gaussian_sigma_classic,
    opendp_gaussian_epsilon,
    opendp_gaussian_sigma,
    opendp_gaussian_sigmas,
)

__all__ = [
    "ANALYSED_MECHANISMS",
    "LAPLACE_95",
    "MECHANISM_LABELS",
    "Mechanism",
    "as_mechanism",
    "discrete_gaussian_tail",
    "gaussian_delta",
    "gaussian_epsilon",
    "gaussian_sigma_analytic",
    "gaussian_sigma_classic",
    "laplace_half_width",
    "mechanism_error",
    "mechanism_sample",
    "mechanism_scale",
    "normal_quantile",
    "opendp_gaussian_epsilon",
    "opendp_gaussian_sigma",
    "opendp_gaussian_sigmas",
]


class Mechanism(StrEnum):
    """A noise mechanism; compares equal to its plain-string value (``"laplace"``)."""

    LAPLACE = "laplace"
    GAUSSIAN = "gaussian"
    DISCRETE_LAPLACE = "discrete_laplace"
    DISCRETE_GAUSSIAN = "discrete_gaussian"

    @property
    def label(self) -> str:
        """Return the name shown to people ("Gaussian (zCDP, OpenDP)")."""
        return _LABELS[self]

    @property
    def is_gaussian(self) -> bool:
        """Return True for the (discrete) Gaussian: calibrated on L2 and needs delta."""
        return self in (Mechanism.GAUSSIAN, Mechanism.DISCRETE_GAUSSIAN)

    @property
    def is_discrete(self) -> bool:
        """Return True for the integer-valued mechanisms (counts and histograms only)."""
        return self in (Mechanism.DISCRETE_LAPLACE, Mechanism.DISCRETE_GAUSSIAN)

    def required_delta(self, delta: float | None) -> float:
        """Return the delta a (discrete) Gaussian mechanism is calibrated at, refusing None.

        Parameters
        ----------
        delta : float or None
            The δ of approximate differential privacy given by the caller.

        Returns
        -------
        float
            ``delta``, as a float.

        Raises
        ------
        ValueError
            When ``delta`` is None: the Gaussian mechanisms need one.
        """
        if delta is None:
            raise ValueError("the Gaussian mechanism needs delta")
        return float(delta)


_LABELS: dict[Mechanism, str] = {
    Mechanism.LAPLACE: "Laplace",
    Mechanism.GAUSSIAN: "Gaussian (zCDP, OpenDP)",
    Mechanism.DISCRETE_LAPLACE: "Discrete Laplace",
    Mechanism.DISCRETE_GAUSSIAN: "Discrete Gaussian (zCDP, OpenDP)",
}

#: The mechanisms planned here: every mechanism OpenDP releases with.
ANALYSED_MECHANISMS: tuple[Mechanism, ...] = tuple(Mechanism)

#: Label of each mechanism, keyed by its plain-string value.
MECHANISM_LABELS: dict[str, str] = {m.value: m.label for m in ANALYSED_MECHANISMS}

#: ln 20: 95% of Laplace(b) noise lies within b ln 20, since P(|Y| >= t) = e^{-t/b} [DR14]_.
LAPLACE_95: float = math.log(20.0)


def as_mechanism(value: Any, *, allowed: tuple[Mechanism, ...] = ANALYSED_MECHANISMS) -> Mechanism:
    """Return ``value`` (a :class:`Mechanism` or its string) as a Mechanism.

    Parameters
    ----------
    value : Any
        A Mechanism or its name.
    allowed : tuple of Mechanism, optional
        The mechanisms accepted.

    Returns
    -------
    Mechanism

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

    Parameters
    ----------
    scale : float or numpy.ndarray
        The noise scale of the mechanism (Laplace b, Gaussian sigma).
    alpha : float, optional
        The probability that the noise exceeds the error.

    Returns
    -------
    Any
        A float or an array, as ``scale``.
    """
    return scale * math.log(1.0 / alpha)


def normal_quantile(p: float) -> float:
    """Return the standard normal quantile z_p (``scipy.special.ndtri``).

    Parameters
    ----------
    p : float
        A probability, 0 < p < 1.

    Returns
    -------
    float
    """
    from scipy import special

    return float(special.ndtri(p))


# ------------------------------------------------------------------ discrete Gaussian

#: Above this scale the discrete Gaussian's error is read from the normal distribution
#: with a continuity correction (the direct sums would need millions of terms).
_DG_DIRECT_MAX = 2e5


def _dg_weights(scale: float) -> np.ndarray:
    """Return e^{-y^2 / (2 s^2)} for y = 0 .. ceil(12 s) + 2 (the rest is below e^-72)."""
    y = np.arange(0, math.ceil(12.0 * scale) + 3, dtype=float)
    return np.exp(-(y * y) / (2.0 * scale * scale))


def discrete_gaussian_tail(scale: float, k: int) -> float:
    """Return P(|Y| >= k) for the discrete Gaussian, P(Y = y) proportional to e^{-y^2/(2 s^2)}.

    Summed directly over the mass function [CKS20]_; above scale 2e5 the
    continuity-corrected normal tail 2 (1 - Phi((k - 1/2) / s)).

    Parameters
    ----------
    scale : float
        The noise scale of the mechanism (Laplace b, Gaussian sigma).
    k : int
        The integer threshold.

    Returns
    -------
    float
    """
    if k <= 0:
        return 1.0
    if scale > _DG_DIRECT_MAX:
        from scipy import special

        return float(2.0 * special.ndtr(-(k - 0.5) / scale))
    w = _dg_weights(scale)
    total = w[0] + 2.0 * w[1:].sum()
    return float(2.0 * w[k:].sum() / total) if k < w.size else 0.0


def _discrete_gaussian_error(scale: float, alpha: float) -> tuple[float, float, float]:
    """Return (half_width, E|Y|, sd) of the discrete Gaussian of scale ``scale`` [CKS20]_.

    The half-width is the smallest integer k with P(|Y| >= k) <= alpha (the
    definition of OpenDP's ``discrete_gaussian_scale_to_accuracy``, which the
    tests compare it with); E|Y| and sd are direct sums over the mass function.
    """
    if scale > _DG_DIRECT_MAX:
        z = normal_quantile(1.0 - alpha / 2.0)
        return float(math.ceil(z * scale + 0.5)), scale * math.sqrt(2.0 / math.pi), scale
    w = _dg_weights(scale)
    y = np.arange(w.size, dtype=float)
    total = w[0] + 2.0 * w[1:].sum()
    tail = 2.0 * np.cumsum(w[::-1])[::-1] / total  # tail[k] = P(|Y| >= k) for k >= 1
    tail[0] = 1.0
    half = float(np.argmax(tail <= alpha))
    return (
        half,
        float(2.0 * (y * w).sum() / total),
        math.sqrt(float(2.0 * (y * y * w).sum() / total)),
    )


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
    P(Y = y) proportional to e^{-|y|/s} [GRS12]_. Gaussian and discrete
    Gaussian: the sigma OpenDP releases with, certified through zCDP
    (:func:`riskcore.dp.gaussian.opendp_gaussian_sigma`), for the L2 sensitivity and ``delta``;
    not the smaller analytic sigma of [BW18]_, which OpenDP does not certify.

    Parameters
    ----------
    mechanism : Mechanism or str
        The mechanism, or its name.
    l1 : float
        The L1 sensitivity of the query.
    l2 : float
        The L2 sensitivity of the query.
    epsilon : float
        The privacy-loss parameter ε (> 0).
    delta : float, optional
        The δ of approximate differential privacy, in (0, 1): needed by the Gaussian
        mechanisms, unused by the Laplace ones.

    Returns
    -------
    float
    """
    mech = as_mechanism(mechanism)
    check_positive("epsilon", epsilon)
    if mech.is_gaussian:
        return opendp_gaussian_sigma(float(l2), float(epsilon), mech.required_delta(delta))
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
    Discrete Gaussian(s), P(Y = y) proportional to e^{-y^2/(2 s^2)}
    [CKS20]_: the smallest integer k with P(|Y| >= k) <= alpha, and E|Y| and
    sd summed over the mass function. These agree with OpenDP's
    ``*_scale_to_accuracy`` helpers, which the release reports.

    Parameters
    ----------
    mechanism : Mechanism or str
        The mechanism, or its name.
    scale : numpy.ndarray
        The noise scale of the mechanism (Laplace b, Gaussian sigma).
    alpha : float
        The probability that the noise exceeds the error.

    Returns
    -------
    tuple of (numpy.ndarray, numpy.ndarray, numpy.ndarray)
        Each shaped as ``scale``, in the units of the answer: the (1 - alpha) half-width,
        E|Y| and the standard deviation.
    """
    mech = as_mechanism(mechanism)
    s = np.asarray(scale, dtype=float)
    if mech is Mechanism.LAPLACE:
        return laplace_half_width(s, alpha), s, math.sqrt(2.0) * s
    if mech is Mechanism.GAUSSIAN:
        z = normal_quantile(1.0 - alpha / 2.0)
        return z * s, s * math.sqrt(2.0 / math.pi), s
    if mech is Mechanism.DISCRETE_GAUSSIAN:
        flat = [_discrete_gaussian_error(float(x), alpha) for x in s.ravel()]
        err = np.array(flat, dtype=float).reshape(*s.shape, 3)
        return err[..., 0], err[..., 1], err[..., 2]
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
    probability 1 - e^{-1/s} [GRS12]_; the discrete Gaussian by inverting
    its cumulative distribution over |y| <= 12 s + 2 (rounded normal draws
    above scale 2e5).

    Parameters
    ----------
    mechanism : Mechanism or str
        The mechanism, or its name.
    scale : float or numpy.ndarray
        The noise scale of the mechanism (Laplace b, Gaussian sigma).
    size : int or tuple of int
        The shape of the noise drawn.
    rng : Any
        The random generator.

    Returns
    -------
    numpy.ndarray
    """
    mech = as_mechanism(mechanism)
    gen = np.random.default_rng(rng)
    if mech is Mechanism.LAPLACE:
        return gen.laplace(0.0, scale, size)
    if mech is Mechanism.GAUSSIAN:
        return gen.normal(0.0, scale, size)
    if mech is Mechanism.DISCRETE_GAUSSIAN:
        return _discrete_gaussian_sample(scale, size, gen)
    p = -np.expm1(-1.0 / np.asarray(scale, dtype=float))
    return (gen.geometric(p, size) - gen.geometric(p, size)).astype(float)


def _discrete_gaussian_sample(
    scale: float | np.ndarray, size: int | tuple[int, ...], gen: np.random.Generator
) -> np.ndarray:
    """Draw discrete Gaussian noise by inverse CDF (``scale`` broadcast to ``size``)."""
    scales = np.broadcast_to(np.asarray(scale, dtype=float), size)
    u = gen.random(size)
    out = np.empty(size, dtype=float)
    for s in np.unique(scales):
        mask = scales == s
        if s > _DG_DIRECT_MAX:
            out[mask] = np.round(gen.normal(0.0, s, int(mask.sum())))
            continue
        w = _dg_weights(float(s))
        pmf = np.r_[w[:0:-1], w]
        cdf = np.cumsum(pmf / pmf.sum())
        idx = np.minimum(np.searchsorted(cdf, u[mask], side="right"), cdf.size - 1)
        out[mask] = idx - (w.size - 1)
    return out
