"""Error of noisy answers: closed forms, simulations, solvers and the clipped mean.

Each mechanism's formulas live in :mod:`riskcore.dp.mechanisms`; this module
applies them to a query's sensitivity and to grids of epsilons.

References
----------
.. [DR14] C. Dwork, A. Roth. The Algorithmic Foundations of Differential
   Privacy. Foundations and Trends in TCS 9(3-4), 2014.
.. [CKS20] C. Canonne, G. Kamath, T. Steinke. The Discrete Gaussian for
   Differential Privacy. NeurIPS 2020.
.. [WZLDSG20] R. J. Wilson, C. Y. Zhang, W. Lam, D. Desfontaines, D. Simmons-Marengo,
   B. Gipson. Differentially Private SQL with Bounded User Contribution. Proceedings on
   Privacy Enhancing Technologies 2020(2), 230-250 (each user's contribution bounded,
   the sensitivity scaled by the bound).
.. [CM15] A. C. Cameron, D. L. Miller. A Practitioner's Guide to Cluster-Robust
   Inference. Journal of Human Resources 50(2), 317-372, 2015 (the CR1 variance,
   G / (G - 1) times the sum of squared cluster scores).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore._results import Result
from riskcore._validation import check_epsilon, check_positive, check_probability
from riskcore.dp.contributions import ONE_ROW, PrivacyUnit, bound_rows, person_mean_variance
from riskcore.dp.gaussian import opendp_gaussian_epsilon, opendp_gaussian_sigmas
from riskcore.dp.global_sensitivity import Sensitivity
from riskcore.dp.mechanisms import (
    Mechanism,
    as_mechanism,
    discrete_gaussian_tail,
    mechanism_error,
    mechanism_sample,
    mechanism_scale,
    normal_quantile,
)
from riskcore.errors import RiskcoreError

__all__ = [
    "MAX_CLIPPING_CELLS",
    "ClippingTradeoff",
    "ErrorCurve",
    "NoiseError",
    "accuracy_for_epsilon",
    "clipping_tradeoff",
    "column_clipping_tradeoff",
    "epsilon_for_accuracy",
    "epsilon_grid",
    "error_curve",
    "noise_error",
    "noise_scale",
    "simulate_noise",
]


@renamed_arguments(sens="sensitivity")
def noise_scale(
    mechanism: Mechanism | str,
    sensitivity: Sensitivity,
    epsilon: float,
    *,
    delta: float | None = None,
) -> float:
    """Compute the noise scale for a mechanism at a given epsilon.

    Laplace and discrete Laplace: Delta_1 / epsilon; Gaussian and discrete
    Gaussian: the sigma OpenDP releases with for Delta_2 and ``delta``,
    certified through zCDP (see :func:`riskcore.dp.mechanisms.mechanism_scale`).

    Parameters
    ----------
    mechanism, epsilon, delta
        As :func:`~riskcore.dp.mechanisms.mechanism_scale`.
    sensitivity : Sensitivity
        The query's sensitivity: its L1 and L2 bounds.

    Returns
    -------
    float
        The Laplace scale b or the Gaussian sigma.
    """
    return mechanism_scale(mechanism, sensitivity.l1, sensitivity.l2, epsilon, delta=delta)


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
        The probability that the noise exceeds the half-width (1 - its confidence).

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
            The privacy-loss parameter ε (> 0), on the curve's grid or between its points.

        Returns
        -------
        NoiseError
            With the curve's mechanism, sensitivity, delta and alpha.
        """
        scale = noise_scale(self.mechanism, self.sensitivity, epsilon, delta=self.delta)
        return noise_error(self.mechanism, scale, alpha=self.alpha)


#: Most values x upper bounds the clustered trade-off of a clipped mean computes (one pass
#: over the values per upper bound, with a person column): 200 million.
MAX_CLIPPING_CELLS = 200_000_000

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
    """
    return np.geomspace(lo, hi, points)


@renamed_arguments(sens="sensitivity")
def error_curve(
    true_answer: float,
    sensitivity: Sensitivity,
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
    sensitivity : Sensitivity
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
        scale = opendp_gaussian_sigmas(sensitivity.l2, eps, mech.required_delta(delta))
    else:
        scale = sensitivity.l1 / eps
    hw, ea, _ = mechanism_error(mech, scale, alpha)
    rel = hw / abs(true_answer) if true_answer != 0 else np.full_like(hw, np.nan)
    draws = mechanism_sample(mech, scale[:, None], (eps.size, simulations), seed)
    lo, hi = np.quantile(draws, [alpha / 2.0, 1.0 - alpha / 2.0], axis=1)
    return ErrorCurve(
        mech,
        float(true_answer),
        sensitivity,
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


@renamed_arguments(sens="sensitivity")
def accuracy_for_epsilon(
    epsilon: float,
    sensitivity: Sensitivity,
    *,
    mechanism: Mechanism | str = Mechanism.LAPLACE,
    alpha: float = 0.05,
    delta: float | None = None,
) -> float:
    """Compute the +/- half-width (confidence 1 - alpha) a given epsilon buys.

    Parameters
    ----------
    epsilon : float
        The privacy-loss parameter ε (> 0) the noise is calibrated to.
    sensitivity : Sensitivity
        The query's sensitivity: its L1 bound for the Laplace mechanisms, L2 for the Gaussian.
    mechanism : Mechanism or str, optional
        The mechanism whose noise is measured, or its name.
    alpha : float, optional
        The probability that the noise exceeds the half-width returned.
    delta : float, optional
        Passed on to :func:`noise_scale` (the Gaussian mechanisms need it, in (0, 1)).

    Returns
    -------
    float
        In the units of the query's answer.
    """
    scale = noise_scale(mechanism, sensitivity, epsilon, delta=delta)
    return noise_error(mechanism, scale, alpha=alpha).half_width


@renamed_arguments(sens="sensitivity")
def epsilon_for_accuracy(
    accuracy: float,
    sensitivity: Sensitivity,
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
    sensitivity, mechanism, alpha, delta
        As :func:`accuracy_for_epsilon`.

    Returns
    -------
    float
        Infinite when no noise is small enough.
    """
    mech = as_mechanism(mechanism)
    check_positive("accuracy", accuracy)
    check_probability("alpha", alpha)
    if mech is Mechanism.LAPLACE:
        return sensitivity.l1 * math.log(1.0 / alpha) / accuracy
    if mech.is_gaussian:
        checked = mech.required_delta(delta)
        if mech is Mechanism.GAUSSIAN:
            sigma = accuracy / normal_quantile(1.0 - alpha / 2.0)
        else:
            sigma = _discrete_gaussian_scale_for(accuracy, alpha)
        return opendp_gaussian_epsilon(sigma, sensitivity.l2, checked) if sigma > 0 else math.inf
    s = _discrete_laplace_scale_for(accuracy, alpha)
    return sensitivity.l1 / s if s > 0 else math.inf


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

    For the n values x_1..x_n the mean reads and bounds [L, U], the DP mean is
    mean(clip(x, L, U)) + Laplace(b), b = c (U - L) / (n epsilon), where c is the most
    rows a person contributes (1 when each row is taken to be a person; see
    :func:`clipping_tradeoff` for the sensitivity c (U - L) / n). Its error against the
    mean of the values it reads splits into three parts [DR14]_ (formulas.md):

    * clipping bias = mean(clip(x, L, U)) - mean(x)
    * sampling sd   = the standard error of mean(clip(x, L, U)): sd / sqrt(n) when each
      row is a person, the standard error clustered by person otherwise [CM15]_
    * privacy sd    = sqrt(2) b, the Laplace noise's standard deviation

    and the root-mean-square error is sqrt(bias^2 + sampling^2 + privacy^2).

    Attributes
    ----------
    lower : float
        The fixed lower clipping bound L.
    uppers : numpy.ndarray
        The upper bounds U tried.
    bias, sampling_sd, noise_sd, rmse : numpy.ndarray
        The three parts of the error and the RMSE, per U.
    best_upper : float
        The U of smallest RMSE on the grid.
    epsilon : float
        The privacy-loss parameter epsilon (> 0), per person with a person column.
    n : int
        The values the mean reads: with a person column, the rows with a number among
        the at most c kept per person.
    true_mean : float
        The mean of those n values (unclipped).
    unit : PrivacyUnit
        One row, or one person with at most c rows.
    people : int
        The people among the n values (0 when each row is taken to be a person).
    rows_left_out : int
        Rows with a number left out before the mean: beyond c per person, or without a
        person (0 for the one-row unit).
    every_row_mean : float or None
        The mean of every row with a number, before the bound (None: not computed, or the
        one-row unit, where it is ``true_mean``).
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
    unit: PrivacyUnit = ONE_ROW
    people: int = 0
    rows_left_out: int = 0
    every_row_mean: float | None = None

    @property
    def bound_shift(self) -> float:
        """Return how far the bound moved the mean: ``true_mean - every_row_mean``.

        Read from the data; 0 when nothing was left out or the mean of every row is unknown.
        """
        if self.every_row_mean is None or not self.rows_left_out:
            return 0.0
        return float(self.true_mean - self.every_row_mean)


def _person_numbers(persons: Sequence[object] | np.ndarray, n: int) -> np.ndarray:
    """Return each value's person as a dense integer, refusing a missing person."""
    codes, _ = pd.factorize(pd.Series(np.asarray(persons, dtype=object)), use_na_sentinel=True)
    if codes.size != n:
        raise ValueError(f"persons has {codes.size:,} values for {n:,} values")
    if np.any(codes < 0):
        raise ValueError(
            "every value needs its person: rows without one are left out of a release, "
            "leave them out here too"
        )
    return np.asarray(codes, dtype=np.int64)


def _clustered_sd(clipped_low: np.ndarray, person: np.ndarray, uppers: np.ndarray) -> np.ndarray:
    """Return, per U, the standard error of mean(clip(x, L, U)) clustered by person [CM15]_.

    :func:`riskcore.dp.contributions.person_mean_variance` of the values clipped at each
    U: one ``numpy.bincount`` per U.
    """
    _, codes = np.unique(person, return_inverse=True)
    var = [person_mean_variance(np.minimum(clipped_low, u), codes) for u in uppers]
    out: np.ndarray = np.sqrt(np.asarray(var, dtype=float))
    return out


def clipping_tradeoff(
    values: Sequence[float] | np.ndarray,
    *,
    lower: float,
    uppers: np.ndarray,
    epsilon: float,
    persons: Sequence[object] | np.ndarray | None = None,
    unit: PrivacyUnit = ONE_ROW,
) -> ClippingTradeoff:
    """Compute clipping bias, sampling noise and privacy noise against U.

    **Sensitivity.** The mean is released with a public n: the values are resized to n
    (OpenDP's ``make_resize`` pads with a constant in [L, U] or drops values) and their
    clipped sum divided by n. Adding or removing one row changes at most one of the n
    resized values, by at most U - L, so the mean moves by at most (U - L) / n [DR14]_.
    With a person as the unit, each person keeps at most c rows before the mean
    (:func:`riskcore.dp.contributions.bound_rows`), so tables that differ by one person
    differ by at most c rows, at most c resized values change, and by the triangle
    inequality the mean moves by at most c (U - L) / n [WZLDSG20]_ (group privacy over
    the c rows, [DR14]_ Theorem 2.2). The Laplace scale is b = c (U - L) / (n epsilon),
    its standard deviation sqrt(2) b, and epsilon is then per person.

    **Sampling.** When each row is a person, the standard error of the clipped mean is
    sd / sqrt(n) (sd with n - 1 in the denominator). A person's rows are not independent
    draws, so with ``persons`` it is the cluster-robust standard error of a mean over the
    G people [CM15]_: sqrt(G / (G - 1) sum_g (S_g - ybar n_g)^2) / n, with S_g the sum of
    person g's n_g clipped values and ybar their overall mean; with one value per person
    the two coincide.

    Vectorized over the grid of upper bounds: without persons the values are sorted
    once and the clipped sums and sums of squares come from cumulative sums,
    O(n log n + grid log n); with persons, one ``numpy.bincount`` per U, O(n grid).

    Parameters
    ----------
    values : array-like of float
        The values the mean reads (non-finite values are ignored): with a person
        column, the rows kept by the bound (at most c per person).
    lower : float, keyword-only
        Fixed lower clipping bound L.
    uppers : numpy.ndarray
        Upper bounds to try (each > L).
    epsilon : float
        Epsilon of the mean (per person with a person unit).
    persons : array-like, optional
        The person of each value (required with a person unit, refused without one);
        no person may be missing.
    unit : PrivacyUnit, optional
        The unit of privacy; its bound c scales the noise.

    Returns
    -------
    ClippingTradeoff

    Raises
    ------
    RiskcoreError
        With a person column, when the values times the upper bounds pass
        :data:`MAX_CLIPPING_CELLS` (checked before the passes).

    References
    ----------
    See the module's references; [CM15]_ for the clustered standard error.
    """
    check_epsilon(epsilon)
    x = np.asarray(values, dtype=float)
    if unit.is_person != (persons is not None):
        raise ValueError(
            "give the persons of the values with a person unit, and only then"
            f" (unit {unit.person!r}, persons {'given' if persons is not None else 'None'})"
        )
    person = None if persons is None else _person_numbers(persons, x.size)
    finite = np.isfinite(x)
    if person is not None:
        person = person[finite]
    x = x[finite]
    n = x.size
    if n == 0:
        raise RiskcoreError("the column has no numeric values")
    u = np.asarray(uppers, dtype=float)
    if np.any(u <= lower):
        raise ValueError("every upper bound must exceed the lower bound")
    if person is not None and n * u.size > MAX_CLIPPING_CELLS:  # before the passes
        raise RiskcoreError(
            f"the clipped mean's trade-off over {u.size:,} upper bounds reads the {n:,} values "
            f"once per bound ({n * u.size:,} cells), past its limit of "
            f"{MAX_CLIPPING_CELLS:,}: try fewer upper bounds"
        )
    order = np.argsort(x, kind="stable")
    lo_clipped = np.maximum(x[order], lower)  # sorted, clip below once
    c1 = np.concatenate([[0.0], np.cumsum(lo_clipped)])
    j = np.searchsorted(lo_clipped, u, side="left")  # values < U kept, the rest become U
    mean_c = (c1[j] + (n - j) * u) / n
    if person is None:
        c2 = np.concatenate([[0.0], np.cumsum(lo_clipped**2)])
        s2 = c2[j] + (n - j) * u * u
        var_c = np.maximum(s2 / n - mean_c**2, 0.0) * n / max(n - 1, 1)
        # s2/n - mean^2 cancels: below this floor the clipped values are all equal
        var_c[var_c < 1e-10 * np.maximum(mean_c**2, 1.0)] = 0.0
        sampling = np.sqrt(var_c / n)
        people = 0
    else:
        sampling = _clustered_sd(lo_clipped, person[order], u)
        people = int(np.unique(person).size)
    true_mean = float(x.mean())
    bias = mean_c - true_mean
    noise = math.sqrt(2.0) * unit.factor * (u - lower) / (n * epsilon)
    rmse = np.sqrt(bias**2 + sampling**2 + noise**2)
    best = float(u[int(np.argmin(rmse))])
    return ClippingTradeoff(
        float(lower), u, bias, sampling, noise, rmse, best, epsilon, n, true_mean, unit, people
    )


def column_clipping_tradeoff(
    data: pd.DataFrame,
    column: str,
    *,
    lower: float,
    uppers: np.ndarray,
    epsilon: float,
    unit: PrivacyUnit = ONE_ROW,
    seed: int = 0,
) -> ClippingTradeoff:
    """Compute the clipping trade-off of a column's mean on the rows a release reads.

    Without a person column, every row with a number. With one, the rows the release
    of the column's mean (:func:`riskcore.dp.release.release`) reads: at most c per
    person by the same seeded sample (:func:`riskcore.dp.contributions.bound_rows` on
    the column), rows without a person left out, then the rows with a number; the noise
    is c times a row's and the sampling error is clustered by person
    (:func:`clipping_tradeoff`). The mean of every row with a number is kept beside, so
    the figure can say how far the bound moved the mean (read from the data).

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    column : str
        The numeric column.
    lower : float, keyword-only
        Fixed lower clipping bound L.
    uppers : numpy.ndarray
        Upper bounds to try (each > L).
    epsilon : float
        Epsilon of the mean (per person with a person unit).
    unit : PrivacyUnit, optional
        The unit of privacy.
    seed : int, optional
        The seed of the per-person sample (the release's).

    Returns
    -------
    ClippingTradeoff

    Raises
    ------
    RiskcoreError
        When a column is not in the table, or no value is left to average.
    """
    for name in (column, unit.person) if unit.is_person else (column,):
        if name not in data.columns:
            raise RiskcoreError(f"the column {name!r} is not in the table")
    every = pd.to_numeric(data[column], errors="coerce").to_numpy(dtype=float)
    every = every[np.isfinite(every)]
    if not unit.is_person:
        return clipping_tradeoff(every, lower=lower, uppers=uppers, epsilon=epsilon)
    kept, _ = bound_rows(data, unit, seed=seed, columns=(column,))
    x = pd.to_numeric(kept[column], errors="coerce").to_numpy(dtype=float)
    has = np.isfinite(x)
    t = clipping_tradeoff(
        x[has],
        lower=lower,
        uppers=uppers,
        epsilon=epsilon,
        persons=kept[str(unit.person)].to_numpy()[has],
        unit=unit,
    )
    return replace(t, rows_left_out=int(every.size - t.n), every_row_mean=float(every.mean()))
