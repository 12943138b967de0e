"""Population uniqueness estimated from a sample (Zayatz, Pitman, SNB, Dankar et al.).

When the table is a sample of a population of known size N (sampling fraction
pi = n/N), a record unique in the sample need not be unique in the
population. These models estimate the number of population uniques from the
sample's class-size histogram only: c_i = number of sample classes of size i,
u = number of sample classes.

References
----------
.. [Z91] L. Zayatz, "Estimation of the percent of unique population elements
   on a microdata file using the sample", US Census Bureau SRD Report
   RR-91/08, 1991.
.. [H01] N. Hoshino, "Applying Pitman's sampling formula to microdata
   disclosure risk assessment", J. Official Statistics 17(4), 2001.
.. [CK98] G. Chen, S. Keller-McNulty, "Estimation of identification disclosure
   risk in microdata", J. Official Statistics 14(1), 1998.
.. [H95] P. Haas, J. Naughton, S. Seshadri, L. Stokes, "Sampling-based
   estimation of the number of distinct values of an attribute", VLDB 1995
   (the Shlosser-type estimator D_Sh3 used for K in the SNB model).
.. [BF98] R. Benedetti, L. Franconi, "Statistical and technological solutions
   for controlled data dissemination", Pre-proceedings of New Techniques and
   Technologies for Statistics, 1998 (the individual-risk model).
.. [FP04] L. Franconi, S. Polettini, "Individual risk estimation in
   mu-Argus: a review", Privacy in Statistical Databases, LNCS 3050, 2004
   (closed forms; sdcMicro ``indivRisk``).
.. [D12] F. Dankar, K. El Emam, A. Neisa, T. Roffey, "Estimating the
   re-identification risk of clinical data sets", BMC Medical Informatics and
   Decision Making 12:66, 2012 (the model-selection rule).

The structure follows ARX (``risk/ModelZayatz.java``, ``ModelPitman.java``,
``ModelSNB.java``); two places where ARX's code departs from the
mathematics are computed here as derived in the docstrings (the D_Sh3
denominator, and the sign of the (1 - d) exponent in the SNB c_2 equation).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from riskcore._results import Result
from riskcore._validation import check_fraction

__all__ = [
    "PopulationUniqueness",
    "individual_risk",
    "pitman_uniques",
    "population_uniqueness",
    "snb_uniques",
    "weighted_individual_risk",
    "zayatz_uniques",
]


FloatArray = npt.NDArray[np.float64]


def _histogram(sizes: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    sizes = np.asarray(sizes, dtype=np.int64)
    if sizes.ndim != 1 or len(sizes) == 0 or sizes.min() <= 0:
        raise ValueError("class sizes must be a non-empty array of positive integers")
    i, c = np.unique(sizes, return_counts=True)
    return i.astype(np.float64), c.astype(np.float64)


def _check_pi(pi: float) -> float:
    return check_fraction("sampling_fraction", pi)


def one_drawn(big_n: int, sizes: np.ndarray, n: int) -> np.ndarray:
    """Return H(1; N, i, n), the chance a class of i of N members leaves exactly one in n drawn.

    H(1; N, i, n) = i C(N - i, n - 1) / C(N, n)
                  = (i n / N) prod_{j=1}^{i-1} (N - n - j + 1) / (N - j),

    the hypergeometric probability (scipy's ``hypergeom.pmf(1, N, i, n)``)
    written as a product whose logarithms are summed once up to the largest
    i: exact to about 1e-15 relative, where scipy's takes about 0.8 s per
    call at N = 100,000 and n = 30,162 (the search evaluates it at every
    node). A factor with N - n - j + 1 <= 0 makes the chance 0.

    Parameters
    ----------
    big_n : int
        N, the population.
    sizes : numpy.ndarray
        int64 class sizes i (each at least 1).
    n : int
        The sample drawn.

    Returns
    -------
    numpy.ndarray
        float per size.
    """
    i = np.asarray(sizes, dtype=np.int64)
    if not len(i):
        return np.zeros(0)
    j = np.arange(1, int(i.max()), dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(big_n - n - j + 1 > 0, np.log1p(-(n - 1) / (big_n - j)), -np.inf)
    logs = np.concatenate([[0.0], np.cumsum(terms)])  # logs[k]: the sum over j = 1..k
    result: np.ndarray = i * n / big_n * np.exp(logs[i - 1])
    return result


def zayatz_uniques(sizes: npt.ArrayLike, sampling_fraction: float) -> float:
    """Estimate the number of population uniques with Zayatz's model [Z91]_.

    With n records, N = n / pi and H(1; N, i, n) the hypergeometric
    probability that a population class of size i leaves exactly one record
    in a sample of n::

        P(pop. unique | sample unique) = (c_1/u) H(1; N, 1, n)
                                         / sum_i (c_i/u) H(1; N, i, n)
        population uniques = c_1 P(...) / pi

    Parameters
    ----------
    sizes : numpy.ndarray
        Sample class sizes f_j.
    sampling_fraction : float
        pi in (0, 1].

    Returns
    -------
    float
        Estimated number of population uniques (0 when the sample has none).
    """
    pi = _check_pi(sampling_fraction)
    i, c = _histogram(sizes)
    n = int((i * c).sum())
    big_n = max(round(n / pi), n)
    c1 = float(c[i == 1].sum())
    if c1 == 0:
        return 0.0
    u = c.sum()
    h = one_drawn(big_n, i.astype(np.int64), n)
    denom = float(((c / u) * h).sum())
    h1 = float(one_drawn(big_n, np.array([1], dtype=np.int64), n)[0])
    if denom <= 0:
        return float("nan")
    return float(c1 * ((c1 / u) * h1 / denom) / pi)


def pitman_uniques(sizes: npt.ArrayLike, sampling_fraction: float) -> float:
    """Estimate the number of population uniques with Pitman's model [H01]_.

    The sample follows Pitman's sampling formula with parameters
    (theta, alpha); their maximum-likelihood estimates solve (u classes,
    n records)::

        sum_{i=1}^{u-1} 1/(theta + i alpha) = sum_{i=1}^{n-1} 1/(theta + i)
        sum_{i=1}^{u-1} i/(theta + i alpha) = sum_{k>=2} c_k sum_{j=1}^{k-1} 1/(j - alpha)

    (written with digamma functions), and the population uniques are
    Gamma(theta + 1) / Gamma(theta + alpha) N^alpha. The starting point is
    ARX's moment-type guess.

    Parameters
    ----------
    sizes : npt.ArrayLike
        The sample's class sizes f_j.
    sampling_fraction : float
        n / N, when the data are a sample of a population of N.

    Returns
    -------
    float
        Estimated population uniques, or NaN when the equations have no
        admissible solution (0 < alpha < 1, theta > -alpha) or the estimate
        falls outside [0, N].
    """
    from scipy import optimize, special  # heavy: imported only when used

    pi = _check_pi(sampling_fraction)
    i, c = _histogram(sizes)
    n = float((i * c).sum())
    u = float(c.sum())
    big_n = n / pi
    c1 = float(c[i == 1].sum())
    c2 = float(c[i == 2].sum()) or 1.0
    if c1 == 0:
        return 0.0
    if u < 2 or n < 2:
        return float("nan")
    cc = c1 * (c1 - 1) / c2
    den = 2 * c1 * u + c1 * cc - n * cc  # 0 for some histograms (3 uniques and a class of 4)
    t0 = (n * u * cc - c1 * (n - 1) * (2 * u + cc)) / den if den else float("nan")
    a0 = (t0 * (c1 - n) + (n - 1) * c1) / (n * u)
    big = i > 1

    def equations(x: FloatArray) -> FloatArray:
        t, a = x
        o1 = (special.digamma(t / a + u) - special.digamma(t / a + 1)) / a
        o2 = special.digamma(t + n) - special.digamma(t + 1)
        o3 = (u - 1) / a - (t / a) * o1
        o4 = float((c[big] * (special.digamma(i[big] - a) - special.digamma(1 - a))).sum())
        return np.array([o1 - o2, o3 - o4])

    starts = [(t0, a0), (max(t0, 1.0), 0.5), (10.0, 0.3), (100.0, 0.8)]
    for t_start, a_start in starts:
        if not (np.isfinite(t_start) and np.isfinite(a_start)) or not 0 < a_start < 1:
            continue
        with np.errstate(all="ignore"):
            sol = optimize.root(equations, x0=[t_start, a_start], method="hybr")
        t, a = sol.x
        if not sol.success or not 0 < a < 1 or t <= -a:
            continue
        if np.max(np.abs(equations(sol.x))) > 1e-6:
            continue
        est = math.exp(special.gammaln(t + 1) - special.gammaln(t + a) + a * math.log(big_n))
        if 0 <= est <= big_n:
            return est
    return float("nan")


def _shlosser_k(i: FloatArray, c: FloatArray, f: float) -> float:
    """Estimate K, the non-empty population classes (Shlosser-type D_Sh3 [H95]_).

    K = u + c_1 [sum_i i f^2 (1-f^2)^(i-1) c_i] / [sum_i (1-f)^i ((1+f)^i - 1) c_i]
            * ([sum_i (1-f)^i c_i] / [sum_i i f (1-f)^(i-1) c_i])^2
    """
    u = c.sum()
    c1 = float(c[i == 1].sum())
    var1 = float((i * f * f * (1 - f * f) ** (i - 1) * c).sum())
    var2 = float((((1 - f * f) ** i - (1 - f) ** i) * c).sum())  # = (1-f)^i ((1+f)^i - 1)
    var3 = float(((1 - f) ** i * c).sum())
    var4 = float((i * f * (1 - f) ** (i - 1) * c).sum())
    if var2 <= 0 or var4 <= 0:
        return float(u)
    return float(u + c1 * (var1 / var2) * (var3 / var4) ** 2)


def snb_uniques(sizes: npt.ArrayLike, sampling_fraction: float) -> float:
    """Estimate the number of population uniques with the SNB model [CK98]_.

    Population class sizes are F = 1 + X with X ~ NegBin(alpha, beta)
    (P(X = x) = C(x + alpha - 1, x) beta^alpha (1 - beta)^x), thinned by
    sampling with fraction f. With d = (1 - f)(1 - beta) the probability
    generating function G(z) = z (beta / (1 - (1 - beta) z))^alpha gives
    P(sample count = k) = f^k / k! G^(k)(1 - f), hence (K the number of
    non-empty population classes, from :func:`_shlosser_k`)::

        E c_1 = K f (beta / (1 - d))^alpha (1 + alpha d / (1 - d))
        E c_2 = K f^2 / 2 alpha beta^alpha (1 - beta) (1 - d)^-(alpha + 2)
                (2 - (1 - alpha) d)

    (alpha, beta) solve E c_1 = c_1, E c_2 = c_2, and the population uniques
    are K P(X = 0) = K beta^alpha.

    Parameters
    ----------
    sizes : npt.ArrayLike
        The sample's class sizes f_j.
    sampling_fraction : float
        n / N, when the data are a sample of a population of N.

    Returns
    -------
    float
        Estimated population uniques, or NaN when no admissible solution exists.
    """
    from scipy import optimize, special  # heavy: imported only when used

    f = _check_pi(sampling_fraction)
    i, c = _histogram(sizes)
    c1 = float(c[i == 1].sum())
    c2 = float(c[i == 2].sum())
    if c1 == 0:
        return 0.0
    if f >= 1:
        return c1
    k = _shlosser_k(i, c, f)

    def equations(x: FloatArray) -> FloatArray:
        a = math.exp(x[0])
        b = special.expit(x[1])
        d = (1 - f) * (1 - b)
        e1 = k * f * (b / (1 - d)) ** a * (1 + a * d / (1 - d))
        e2 = k * f * f / 2 * a * b**a * (1 - b) * (1 - d) ** (-(a + 2)) * (2 - (1 - a) * d)
        return np.array([e1 / c1 - 1, (e2 - c2) / max(c2, 1.0)])

    for a0, b0 in ((1.0, 0.5), (0.1, 0.1), (5.0, 0.9), (0.5, 0.01)):
        with np.errstate(all="ignore"):
            sol = optimize.root(equations, x0=[math.log(a0), special.logit(b0)], method="hybr")
        if sol.success and np.max(np.abs(equations(sol.x))) < 1e-6:
            a, b = math.exp(sol.x[0]), float(special.expit(sol.x[1]))
            est = k * b**a
            if 0 <= est <= k:
                return float(est)
    return float("nan")


@functools.cache
def _laguerre() -> tuple[FloatArray, FloatArray]:
    """Return the 100 Gauss-Laguerre nodes and weights (computed once)."""
    nodes, weights = np.polynomial.laguerre.laggauss(100)
    return nodes, weights


def individual_risk(sizes: npt.ArrayLike, sampling_fraction: float) -> FloatArray:
    """Return each class's record risk E[1/F_j | f_j] under the individual-risk model.

    Benedetti and Franconi's model [BF98]_ [FP04]_ with sampling weights 1/pi
    (a simple random sample): F^_j = f_j / pi, p_j = f_j / F^_j = pi,
    q = 1 - p, and F_j - f_j ~ NegBin(f_j, p), so::

        r_j = E[1/F_j | f_j] = sum_{h >= f} (1/h) C(h-1, f-1) p^f q^(h-f)

    Writing 1/h = int_0^1 t^(h-1) dt, summing the series under the integral
    and substituting u = p t / (1 - q t), then u = exp(-s / f)::

        r_j = p int_0^1 u^(f-1) / (p + q u) du
            = (p / f) int_0^inf exp(-s) / (p + q exp(-s / f)) ds

    The last integral is taken by 100-point Gauss-Laguerre quadrature (its
    integrand is smooth and bounded by 1/p; relative error under 1e-8 from
    f = 1 to 20,000 and pi = 0.001 to 0.999 against the series). Classes of
    size 1 and 2 use the closed forms (p/q) ln(1/p) and (p/q^2)(p ln p + q).
    With pi = 1 the sample is the population and r_j = 1/f_j.

    Unlike F_j = f_j / pi plugged into 1/F_j (which gives every record a risk
    of at most pi, so no record can be a population unique), this gives a
    sample unique at pi = 0.05 a risk of 0.158.

    Parameters
    ----------
    sizes : array_like
        Sample class sizes f_j (positive integers).
    sampling_fraction : float
        pi in (0, 1].

    Returns
    -------
    numpy.ndarray
        r_j per class, in the order of ``sizes``.
    """
    pi = _check_pi(sampling_fraction)
    f = np.asarray(sizes, dtype=np.float64)
    if f.ndim != 1 or (f.size and f.min() < 1):
        raise ValueError("class sizes must be a one-dimensional array of positive integers")
    if pi == 1.0:
        return 1.0 / f
    values, inverse = np.unique(f, return_inverse=True)
    p = np.full(len(values), pi)
    return _expected_inverse(values, p, 1.0 - p)[inverse]


#: Below this q = 1 - p the closed forms for f = 1, 2 lose digits to
#: cancellation and the quadrature (stable there) is used instead.
_SMALL_Q = 1e-3
#: Classes per block of the quadrature (a block holds block x 100 floats).
_QUAD_BLOCK = 65_536


def _expected_inverse(f: FloatArray, p: FloatArray, q: FloatArray) -> FloatArray:
    """Return E[1/F | f] under F - f ~ NegBin(f, p), elementwise (0 < p < 1, q = 1 - p).

    f = 1 and 2 use the closed forms (p/q) ln(1/p) and p/q - (p/q)^2 ln(1/p)
    (Franconi and Polettini 2004) unless q is tiny; everything else the
    Gauss-Laguerre form of :func:`individual_risk`.
    """
    r = np.empty(len(f))
    one = (f == 1) & (q >= _SMALL_Q)
    two = (f == 2) & (q >= _SMALL_Q)
    pq, qq = p[one | two], q[one | two]
    # ln(1/p) from whichever of p and q is known to full relative precision
    ln_inv_p = np.where(qq < 0.5, -np.log1p(-qq), -np.log(pq))
    ratio = pq / qq
    is_two = f[one | two] == 2
    r[one | two] = np.where(is_two, ratio - ratio**2 * ln_inv_p, ratio * ln_inv_p)
    rest = np.flatnonzero(~(one | two))
    nodes, weights = _laguerre()
    for a in range(0, len(rest), _QUAD_BLOCK):
        idx = rest[a : a + _QUAD_BLOCK]
        v, pp, qq = f[idx][:, None], p[idx][:, None], q[idx][:, None]
        r[idx] = (pp[:, 0] / v[:, 0]) * (weights / (pp + qq * np.exp(-nodes / v))).sum(axis=1)
    return r


def weighted_individual_risk(
    sizes: npt.ArrayLike,
    weight_sums: npt.ArrayLike,
    *,
    method: str = "exact",
) -> FloatArray:
    r"""Return each class's individual risk from its size and the sum of its sampling weights.

    The individual-risk model of Benedetti and Franconi [BF98]_ as reviewed by
    Franconi and Polettini [FP04]_ and computed by sdcMicro's ``indivRisk``
    (``R/indivRisk.R``; ``measure_risk`` calls it with the weights ``w``):
    with f_j the sample size of class j and w_i the sampling weight of
    record i (the number of population members it stands for, 1/pi_i),

    .. math::

        \hat F_j = \sum_{i \in j} w_i, \quad p_j = f_j / \hat F_j,
        \quad q_j = 1 - p_j,

    and under F_j - f_j ~ NegBin(f_j, p_j) the risk of each record of the
    class is :math:`r_j = E[1/F_j \mid f_j] = \sum_{h \ge f} \frac{1}{h}
    \binom{h-1}{f-1} p^f q^{h-f}`.

    - ``method="exact"``: that expectation. Closed forms for f = 1 and 2,

      .. math:: r = \frac{p}{q} \ln\frac{1}{p} \; (f = 1), \qquad
                r = \frac{p}{q} - \left(\frac{p}{q}\right)^2 \ln\frac{1}{p} \; (f = 2),

      and for f >= 3 sdcMicro's "exact" formula (Franconi and Polettini
      2004, fixed in sdcMicro 2.6.5)

      .. math::

          r = \left(\frac{p}{q}\right)^f \Big[A \big(1 + \sum_{m=0}^{f-3}
              (-1)^{m+1} \prod_{i=0}^{m} B_i\big) + (-1)^f \ln p\Big],
          \quad A = \frac{p^{1-f} - 1}{f - 1},
          \quad B_i = \frac{(f-1-i)^2}{(i+1)(f-2-i)}
                       \frac{p^{i+2-f} - 1}{p^{i+1-f} - 1},

      which equals the series but, as an alternating sum of terms growing
      like p^{-f}, loses every digit once p f is large (at p = 0.7 it is off
      by 2% at f = 20 and negative at f = 30). It is therefore evaluated as
      the integral of :func:`individual_risk`,
      r = (p/f) int_0^inf e^{-s} / (p + q e^{-s/f}) ds, by 100-point
      Gauss-Laguerre quadrature: equal to sdcMicro's formula to 1e-12 where
      that formula is stable (e.g. p = 3/108, f = 3: 0.0135529684, sdcMicro's
      own test value), and correct where it is not.
    - ``method="approx"`` (sdcMicro's default): the same for f = 1 and 2,
      and :math:`r = p / (f - q)` for f >= 3 (Franconi and Polettini 2004).

    When :math:`\hat F_j = f_j` (every weight of the class is 1, the class is
    the population class) r_j = 1/f_j, as in sdcMicro. sdcMicro's older C++
    (``src/Measure_Risk.h``, ``compute_risk``, now used only without weights)
    shifts p by -0.0001; ``indivRisk`` and this function do not.

    Parameters
    ----------
    sizes : array_like
        f_j per class (positive integers).
    weight_sums : array_like
        :math:`\hat F_j` per class, at least f_j (each weight is at least 1).
    method : {"exact", "approx"}, default "exact"
        The formula for f >= 3 (above); both agree for f = 1 and 2.

    Returns
    -------
    numpy.ndarray
        r_j per class (higher is riskier), in the order of ``sizes``.

    Raises
    ------
    ValueError
        When the arrays differ in length, a size is not positive, a weight
        sum is below its class size, or ``method`` is unknown.
    """
    if method not in ("exact", "approx"):
        raise ValueError(f"method must be 'exact' or 'approx', not {method!r}")
    f = np.asarray(sizes, dtype=np.float64)
    big_f = np.asarray(weight_sums, dtype=np.float64)
    if f.ndim != 1 or big_f.shape != f.shape:
        raise ValueError("sizes and weight sums must be one-dimensional arrays of equal length")
    if f.size and (f.min() < 1 or not np.isfinite(big_f).all()):
        raise ValueError("class sizes must be positive and weight sums finite")
    if np.any(big_f < f * (1 - 1e-12)):
        raise ValueError(
            "a class's weights add up to less than its number of records: sampling weights "
            "must be at least 1 (a record stands for at least itself)"
        )
    r = 1.0 / np.where(f > 0, f, 1.0)
    model = big_f > f
    if not model.any():
        return r
    fm, wm = f[model], big_f[model]
    p = fm / wm
    q = (wm - fm) / wm
    if method == "approx":
        big = fm >= 3
        rm = np.empty(len(fm))
        rm[big] = p[big] / (fm[big] - q[big])
        rm[~big] = _expected_inverse(fm[~big], p[~big], q[~big])
    else:
        rm = _expected_inverse(fm, p, q)
    r[model] = rm
    return r


@dataclass(frozen=True)
class PopulationUniqueness(Result):
    """Estimated population uniques under each model, and the Dankar et al. choice.

    Attributes
    ----------
    sampling_fraction : float
        pi = n / N.
    population_size : float
        N.
    sample_uniques : int
        c_1.
    zayatz, pitman, snb : float
        Estimated number of population uniques (NaN when a model fails).
    model : str
        The model chosen by Dankar et al. (2012): pi <= 0.1 -> Pitman
        (Zayatz if Pitman fails), otherwise the smaller of Zayatz and SNB.
    uniques : float
        The chosen estimate of population uniques.
    uniqueness : float
        uniques / N: the estimated share of the population that is unique
        (lower is safer).
    """

    sampling_fraction: float
    population_size: float
    sample_uniques: int
    zayatz: float
    pitman: float
    snb: float
    model: str
    uniques: float
    uniqueness: float


def population_uniqueness(sizes: npt.ArrayLike, sampling_fraction: float) -> PopulationUniqueness:
    """Estimate population uniqueness with every model and the Dankar et al. rule.

    Parameters
    ----------
    sizes : numpy.ndarray
        Sample class sizes f_j (from the partition).
    sampling_fraction : float
        pi = n / N in (0, 1].

    Returns
    -------
    PopulationUniqueness
    """
    pi = _check_pi(sampling_fraction)
    i, c = _histogram(sizes)
    n = float((i * c).sum())
    z = zayatz_uniques(sizes, pi)
    p = pitman_uniques(sizes, pi)
    s = snb_uniques(sizes, pi)
    if pi <= 0.1:
        model, value = ("Pitman", p) if not math.isnan(p) else ("Zayatz", z)
    else:
        options = [(name, v) for name, v in (("Zayatz", z), ("SNB", s)) if not math.isnan(v)]
        model, value = min(options, key=lambda t: t[1]) if options else ("none", float("nan"))
    big_n = n / pi
    return PopulationUniqueness(
        sampling_fraction=pi,
        population_size=big_n,
        sample_uniques=int(c[i == 1].sum()),
        zayatz=z,
        pitman=p,
        snb=s,
        model=model,
        uniques=value,
        uniqueness=value / big_n if not math.isnan(value) else float("nan"),
    )
