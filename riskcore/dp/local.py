"""Local differential privacy: randomized response and local Laplace noise.

Each respondent randomizes their own answer before it leaves their device,
so the collector never sees true values. The collector then de-biases the
aggregate. Simulations here use a seeded numpy generator and are labelled
as simulations: they model what respondents' devices would send.

With a person column (many rows per person) each person sends at most c
reports: their rows beyond c are left out by the seeded per-person sample of
:func:`riskcore.dp.contributions.person_ranks`, and each report is randomized
at epsilon / c, so a person's reports together are epsilon-LDP by basic
composition ([DR14]_ Theorem 3.16): the epsilon stated is per person. For
local Laplace this is the per-report scale c (U - L) / epsilon, c times a
row's sensitivity, as for the central releases.

References
----------
.. [War65] S. L. Warner. Randomized Response: A Survey Technique for
   Eliminating Evasive Answer Bias. JASA 60(309), 1965.
.. [WBLJ17] T. Wang, J. Blocki, N. Li, S. Jha. Locally Differentially
   Private Protocols for Frequency Estimation. USENIX Security 2017.
.. [DJW13] J. Duchi, M. Jordan, M. Wainwright. Local Privacy and
   Statistical Minimax Rates. FOCS 2013 (local Laplace on bounded values).
.. [DR14] C. Dwork, A. Roth. The Algorithmic Foundations of Differential
   Privacy. Foundations and Trends in TCS 9(3-4), 2014.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from riskcore._results import Result
from riskcore._validation import check_bounds, check_epsilon, check_positive_int, check_probability
from riskcore.dp.contributions import ONE_ROW, PrivacyUnit, bound_rows, person_mean_variance
from riskcore.dp.mechanisms import normal_quantile
from riskcore.errors import RiskcoreError

__all__ = [
    "GrrResult",
    "LaplaceLdpResult",
    "grr_estimate",
    "grr_probabilities",
    "grr_simulate",
    "grr_variance",
    "laplace_ldp_simulate",
    "oue_variance",
    "respondents_needed",
    "share_margin",
    "unary_beats_grr",
    "warner_estimate",
    "warner_keep_probability",
]

MISSING = "(missing)"


def _z95() -> float:
    """Return the two-sided 95% normal quantile z_0.975."""
    return normal_quantile(0.975)


def _eps(epsilon: float) -> float:
    return check_epsilon(epsilon)


def warner_keep_probability(epsilon: float) -> float:
    """Return p = e^epsilon / (1 + e^epsilon), the chance of a truthful answer [War65]_.

    Parameters
    ----------
    epsilon : float
        The ε of each person's randomized answer (> 0).

    Returns
    -------
    float
        Between 1/2 (epsilon 0) and 1.
    """
    from scipy import special

    return float(special.expit(_eps(epsilon)))


def warner_estimate(yes_share: float | np.ndarray, epsilon: float) -> float | np.ndarray:
    """Estimate the true share of "yes" from the observed share after randomized response.

    [War65]_: each person tells the truth with probability p and lies
    otherwise, so lambda_obs = p pi + (1 - p)(1 - pi) and the unbiased
    estimate is pi_hat = (lambda_obs - (1 - p)) / (2p - 1).

    Parameters
    ----------
    yes_share : float or numpy.ndarray
        The share of yes answers observed.
    epsilon : float
        The privacy-loss parameter ε (> 0).

    Returns
    -------
    float or numpy.ndarray
    """
    p = warner_keep_probability(epsilon)
    out = (np.asarray(yes_share, dtype=float) - (1.0 - p)) / (2.0 * p - 1.0)
    return float(out) if out.ndim == 0 else out


def grr_probabilities(epsilon: float, k: int) -> tuple[float, float]:
    """Return (p, q) of k-ary generalized randomized response [WBLJ17]_.

    The true value is kept with p = e^epsilon / (e^epsilon + k - 1) and each
    of the k - 1 other values is reported with q = 1 / (e^epsilon + k - 1);
    p / q = e^epsilon, which is epsilon-LDP.

    Parameters
    ----------
    epsilon : float
        The privacy-loss parameter ε (> 0).
    k : int
        The number of categories.

    Returns
    -------
    tuple of (float, float)
    """
    if k < 2:
        raise ValueError(f"randomized response needs at least 2 categories, got {k!r}")
    check_positive_int("k", k, minimum=2)
    e = math.exp(_eps(epsilon))
    return e / (e + k - 1), 1.0 / (e + k - 1)


def grr_estimate(observed_counts: Sequence[float] | np.ndarray, epsilon: float) -> np.ndarray:
    """Estimate the true counts from counts observed after k-ary randomized response.

    [WBLJ17]_: with n reports over k categories (k = len(observed_counts)),
    the unbiased frequency of v is (C_v / n - q) / (p - q); the count is n
    times that, in the input's order. Estimates can be negative for rare
    values (they are unbiased, not clipped).

    Parameters
    ----------
    observed_counts : sequence of float or numpy.ndarray
        The randomized answers' count per category.
    epsilon : float
        The privacy-loss parameter ε (> 0).

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    The job-code example of ``../shared/data/README.md`` (n = 5,469, k = 4,
    epsilon = 1):

    >>> grr_estimate([1057, 990, 1828, 1594], 1.0).round(2).tolist()
    [334.77, 111.8, 2900.58, 2121.85]
    """
    c = np.asarray(observed_counts, dtype=float)
    if c.ndim != 1 or c.size < 2:
        raise ValueError("observed_counts must list at least 2 categories")
    if np.any(c < 0) or not np.all(np.isfinite(c)):
        raise ValueError("observed_counts must be finite and non-negative")
    n = c.sum()
    p, q = grr_probabilities(epsilon, c.size)
    est: np.ndarray = (c - n * q) / (p - q)
    return est


def grr_variance(epsilon: float | np.ndarray, k: int, n: int | np.ndarray) -> float | np.ndarray:
    """Return the approximate variance of a GRR frequency estimate [WBLJ17]_.

    Var(f_hat) ~= (e^epsilon + k - 2) / (n (e^epsilon - 1)^2), the term that
    does not depend on the true frequency (exact when it is 0).

    Parameters
    ----------
    epsilon : float or numpy.ndarray
        The privacy-loss parameter ε (> 0).
    k : int
        The number of categories.
    n : int or numpy.ndarray
        The number of respondents.

    Returns
    -------
    float or numpy.ndarray
    """
    eps = np.asarray(epsilon, dtype=float)
    if np.any(~(eps > 0)) or np.any(~np.isfinite(eps)):
        raise ValueError(f"epsilon must be positive and finite, got {epsilon!r}")
    e = np.exp(eps)
    out = (e + k - 2) / (np.asarray(n, dtype=float) * (e - 1.0) ** 2)
    return float(out) if out.ndim == 0 else out


def oue_variance(epsilon: float, n: int | np.ndarray) -> float | np.ndarray:
    """Return the variance of optimized unary encoding [WBLJ17]_.

    Var = 4 e^epsilon / (n (e^epsilon - 1)^2), whatever the number of categories.

    Parameters
    ----------
    epsilon : float
        The privacy-loss parameter ε (> 0).
    n : int or numpy.ndarray
        The number of respondents.

    Returns
    -------
    float or numpy.ndarray
    """
    e = math.exp(_eps(epsilon))
    return 4.0 * e / (np.asarray(n, dtype=float) * (e - 1.0) ** 2)


def unary_beats_grr(k: int, epsilon: float) -> bool:
    """Return True when optimized unary encoding has lower variance than GRR: k > 3 e^epsilon + 2.

    Comparing :func:`grr_variance` with :func:`oue_variance`:
    e^epsilon + k - 2 > 4 e^epsilon iff k > 3 e^epsilon + 2 [WBLJ17]_.

    Parameters
    ----------
    k : int
        The number of categories.
    epsilon : float
        The privacy-loss parameter ε (> 0).

    Returns
    -------
    bool
    """
    return bool(k > 3.0 * math.exp(_eps(epsilon)) + 2.0)


def share_margin(
    epsilon: float | np.ndarray,
    k: int,
    reports: int | np.ndarray,
    *,
    max_rows: int = 1,
    alpha: float = 0.05,
) -> float | np.ndarray:
    """Return the (1 - alpha) margin on a GRR share when each report is at epsilon / c.

    z_{1-alpha/2} sqrt(Var) with the variance of :func:`grr_variance` at the epsilon of
    one report, epsilon / c: a person sends at most c = ``max_rows`` reports, each
    randomized at epsilon / c, so that together they are epsilon-LDP ([DR14]_ Theorem
    3.16). The reports' randomizations are independent, even two of one person's, so the
    variance of a share of the ``reports`` is that of ``reports`` independent reports
    at epsilon / c [WBLJ17]_ (it is the noise of the randomization, for the shares among
    the reports sent; c = 1 is one report per person).

    Parameters
    ----------
    epsilon : float or numpy.ndarray
        The privacy-loss parameter ε (> 0) per person.
    k : int
        The number of categories.
    reports : int or numpy.ndarray
        The reports sent (a person's count at most c times).
    max_rows : int, optional
        The most reports one person sends, c.
    alpha : float, optional
        One minus the confidence level of the margin.

    Returns
    -------
    float or numpy.ndarray
        The margin on a share (0.02 is +/- 2 percentage points).
    """
    c = check_positive_int("max_rows", max_rows)
    check_probability("alpha", alpha)
    z = normal_quantile(1.0 - alpha / 2.0)
    out = z * np.sqrt(grr_variance(np.asarray(epsilon, dtype=float) / c, k, reports))
    return float(out) if np.ndim(out) == 0 else out


def respondents_needed(
    margin: float, epsilon: float, k: int, *, alpha: float = 0.05, max_rows: int = 1
) -> int:
    """Return how many respondents make a GRR share accurate to +/- margin.

    Solves z_{1-alpha/2} sqrt(Var) = margin with the variance of
    :func:`grr_variance`: n = z^2 (e^epsilon + k - 2) / (margin^2 (e^epsilon - 1)^2)
    reports. With c = ``max_rows`` reports per person, each at epsilon / c
    (:func:`share_margin`), the people needed when each sends c reports are
    ceil(z^2 (e' + k - 2) / (margin^2 (e' - 1)^2 c)) with e' = e^{epsilon / c}.

    Parameters
    ----------
    margin : float
        Half-width on the share, e.g. 0.02 for +/- 2 percentage points.
    epsilon : float
        The privacy-loss parameter ε (> 0), per person.
    k : int
        The number of categories.
    alpha : float, optional
        One minus the confidence level of the margin.
    max_rows : int, optional
        The reports each person sends, c (1: one report per person).

    Returns
    -------
    int
        People, rounded up.
    """
    if not 0 < margin < 1:
        raise ValueError(f"margin is a share between 0 and 1, got {margin!r}")
    check_probability("alpha", alpha)
    c = check_positive_int("max_rows", max_rows)
    z = normal_quantile(1.0 - alpha / 2.0)
    e = math.exp(_eps(epsilon) / c)
    return math.ceil(z * z * (e + k - 2) / (margin * margin * (e - 1.0) ** 2 * c))


@dataclass(frozen=True)
class GrrResult(Result):
    """A simulated k-ary randomized-response survey of one column.

    Attributes
    ----------
    column : str
        The column's name, for the result.
    epsilon : float
        The privacy-loss parameter epsilon (> 0).
    n : int
        The number of respondents.
    categories : tuple of str
        Missing values form their own category.
    p, q : float
    true_counts, observed_counts : ndarray
    estimated_counts : ndarray
        :func:`grr_estimate` of the observed counts.
    ci_low, ci_high : ndarray
        95% normal intervals from the exact variance
        n [f p (1 - p) + (1 - f) q (1 - q)] / (p - q)^2 at the estimated f.
    seed : int
        Seed of the random generator.
    unit : PrivacyUnit
        One row, or one person sending at most c reports.
    left_out : int
        Rows not sent: beyond c per person, or without a person.
    """

    column: str
    epsilon: float
    n: int
    categories: tuple[str, ...]
    p: float
    q: float
    true_counts: np.ndarray
    observed_counts: np.ndarray
    estimated_counts: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    seed: int
    unit: PrivacyUnit = ONE_ROW
    left_out: int = 0

    @property
    def k(self) -> int:
        """Return the number of categories."""
        return len(self.categories)

    @property
    def report_epsilon(self) -> float:
        """Return the epsilon of one report: epsilon / c (c reports per person at most)."""
        return self.epsilon / self.unit.factor


def _reported(
    values: pd.Series, persons: pd.Series | None, max_rows: int, seed: int
) -> tuple[pd.Series, PrivacyUnit, int, np.ndarray | None]:
    """Return the values sent (at most ``max_rows`` per person), the unit, the rows left out
    and the person of each value sent (an integer code; None without persons).

    With ``persons`` the seeded per-person sample of
    :func:`riskcore.dp.contributions.bound_rows` keeps at most c rows of each person,
    ranked on the (person, value) pairs; without, every value is sent.
    """
    s = pd.Series(values)
    if persons is None:
        if max_rows != 1:
            raise ValueError("a bound on rows per person needs the persons")
        return s, ONE_ROW, 0, None
    if len(persons) != len(s):
        raise ValueError(f"persons has {len(persons):,} values for {len(s):,} rows")
    unit = PrivacyUnit(str(persons.name), max_rows)
    frame = pd.DataFrame({"person": np.asarray(persons), "value": s.to_numpy()})
    kept, bounded = bound_rows(frame, PrivacyUnit("person", max_rows), seed=seed)
    out = pd.Series(kept["value"].to_numpy(), name=s.name, dtype=s.dtype)
    codes, _ = pd.factorize(kept["person"])
    return out, unit, bounded.rows - bounded.kept, np.asarray(codes, dtype=np.int64)


def _grr_reports(codes: np.ndarray, k: int, epsilon: float, gen: np.random.Generator) -> np.ndarray:
    """Randomize integer codes in [0, k): keep w.p. p, else a uniform *other* value."""
    p, _ = grr_probabilities(epsilon, k)
    keep = gen.random(codes.size) < p
    other = gen.integers(0, k - 1, codes.size)
    other = other + (other >= codes)  # skip the true value: uniform over the k - 1 others
    return np.where(keep, codes, other)


def _categories(values: pd.Series) -> list[str]:
    """Return the distinct values as text in their own order: numbers and dates by value
    (2 before 10), text alphabetically; a missing value last, as :data:`MISSING`."""
    kind = values.dtype
    present = values.dropna()
    if pd.api.types.is_numeric_dtype(kind) or pd.api.types.is_datetime64_any_dtype(kind):
        ordered = pd.Series(np.sort(present.unique())).astype("string").tolist()
    else:
        ordered = sorted(pd.unique(present.astype("string")))
    return [*ordered, *([MISSING] if len(present) < len(values) else [])]


def grr_simulate(
    values: pd.Series,
    epsilon: float,
    *,
    seed: int = 0,
    max_categories: int = 200,
    persons: pd.Series | None = None,
    max_rows: int = 1,
) -> GrrResult:
    """Simulate every respondent answering ``values`` through k-ary randomized response.

    Vectorized: one uniform draw decides keep/replace, one integer draw picks
    the replacement among the other k - 1 categories. With ``persons``, each
    person sends at most ``max_rows`` = c reports (a seeded per-person sample of
    their rows), each randomized at epsilon / c (basic composition: epsilon per
    person); the categories are those of every row.

    Parameters
    ----------
    values : pandas.Series
        The column's values.
    epsilon : float
        The privacy-loss parameter ε (> 0).
    seed : int, optional
        Seed of the random generator (the same seed gives the same result).
    max_categories : int, optional
        At most this many categories (more are refused).
    persons : pandas.Series, optional
        The person of each value (its name is the person column); None when each row
        is a different person.
    max_rows : int, optional
        The most reports one person sends, c (public; 1 without ``persons``).

    Returns
    -------
    GrrResult
    """
    everyone = pd.Series(values)
    uniques = _categories(everyone)
    k = len(uniques)
    if len(everyone) == 0:
        raise RiskcoreError("the column is empty")
    if k < 2:
        raise RiskcoreError("randomized response needs a column with at least 2 different values")
    if k > max_categories:
        raise RiskcoreError(
            f"the column has {k:,} different values; randomized response over more than "
            f"{max_categories} categories leaves almost no signal. Choose a coarser column."
        )
    s, unit, left_out, _ = _reported(everyone, persons, max_rows, seed)
    if len(s) == 0:
        raise RiskcoreError("no row has a person to report it")
    codes = pd.Index(uniques).get_indexer(pd.Index(s.astype("string").fillna(MISSING)))
    per_report = _eps(epsilon) / unit.factor
    gen = np.random.default_rng(seed)
    reports = _grr_reports(codes.astype(np.int64), k, per_report, gen)
    true = np.bincount(codes, minlength=k).astype(float)
    obs = np.bincount(reports, minlength=k).astype(float)
    est = grr_estimate(obs, per_report)
    n = len(s)
    p, q = grr_probabilities(per_report, k)
    f = np.clip(est / n, 0.0, 1.0)
    var = n * (f * p * (1 - p) + (1 - f) * q * (1 - q)) / (p - q) ** 2
    half = _z95() * np.sqrt(var)
    return GrrResult(
        str(s.name),
        float(epsilon),
        n,
        tuple(str(u) for u in uniques),
        p,
        q,
        true,
        obs,
        est,
        est - half,
        est + half,
        int(seed),
        unit,
        left_out,
    )


@dataclass(frozen=True)
class LaplaceLdpResult(Result):
    """A simulated local-Laplace survey of a bounded numeric column [DJW13]_.

    Attributes
    ----------
    column : str
        The numeric column's name.
    epsilon : float
        The privacy-loss parameter epsilon (> 0).
    bounds : tuple of float
        The (lower, upper) bounds the values are clipped to.
    n : int
        Respondents with a value.
    true_mean : float
        Mean of the raw values.
    clipped_mean : float
        Mean of the clipped values sent (what the reports estimate without bias).
    estimated_mean : float
        Mean of the noisy reports.
    half_width : float
        95% half-width of the mean of the reports, 1.96 sqrt(V + 2 b^2 / n): V the
        sampling variance of the clipped mean, var(clipped) / n when each row is a
        person, clustered by person otherwise
        (:func:`riskcore.dp.contributions.person_mean_variance`), and 2 b^2 / n the
        noise's (independent per report).
    scale : float
        Per-report Laplace scale b.
    example_reports : ndarray
        The first few reports (what the collector sees).
    unit : PrivacyUnit
        One row, or one person sending at most c reports.
    left_out : int
        Rows with a number not sent: beyond c per person, or without a person.
    """

    column: str
    epsilon: float
    bounds: tuple[float, float]
    n: int
    true_mean: float
    clipped_mean: float
    estimated_mean: float
    half_width: float
    scale: float
    example_reports: np.ndarray
    unit: PrivacyUnit = ONE_ROW
    left_out: int = 0


def laplace_ldp_simulate(
    values: Sequence[float] | np.ndarray | pd.Series,
    epsilon: float,
    *,
    bounds: tuple[float, float],
    seed: int = 0,
    column: str = "value",
    persons: pd.Series | None = None,
    max_rows: int = 1,
) -> LaplaceLdpResult:
    """Simulate local Laplace reports: clip to [L, U], add Laplace(c (U - L) / epsilon) each.

    One value in [L, U] changes by at most U - L, so each report is
    (epsilon / c)-LDP and a person's at most c reports are epsilon-LDP together
    ([DR14]_ Theorem 3.16); c = 1 without ``persons``. The mean of the reports is
    unbiased for the clipped mean of the rows sent (formulas.md, Local DP).
    Rows without a number are not sent; of the others, at most c per person (a
    seeded per-person sample).

    Parameters
    ----------
    values : sequence of float or numpy.ndarray or pandas.Series
        The column's values.
    epsilon : float
        The privacy-loss parameter ε (> 0).
    bounds : tuple of (float, float)
        The (lower, upper) bounds the values are clipped to.
    seed : int, optional
        Seed of the random generator (the same seed gives the same result).
    column : str, optional
        The column's name, for the result.
    persons : pandas.Series, optional
        The person of each value (its name is the person column).
    max_rows : int, optional
        The most reports one person sends, c (public; 1 without ``persons``).

    Returns
    -------
    LaplaceLdpResult
    """
    lo, hi = check_bounds("bounds", bounds)
    everything = pd.to_numeric(pd.Series(values), errors="coerce").to_numpy(dtype=float)
    finite = np.isfinite(everything)
    if not finite.any():
        raise RiskcoreError("the column has no numeric values")
    who = None if persons is None else pd.Series(np.asarray(persons)[finite], name=persons.name)
    sent, unit, left_out, person = _reported(pd.Series(everything[finite]), who, max_rows, seed)
    x = sent.to_numpy(dtype=float)
    if x.size == 0:
        raise RiskcoreError("no row with a number has a person to report it")
    b = unit.factor * (hi - lo) / _eps(epsilon)
    clipped = np.clip(x, lo, hi)
    reports = clipped + np.random.default_rng(seed).laplace(0.0, b, x.size)
    if person is None:  # rows are people: s^2 / n
        sampling = float(clipped.var(ddof=1)) / x.size if x.size > 1 else 0.0
    else:  # a person's rows are not independent draws: clustered by person
        sampling = person_mean_variance(clipped, person)
    half = _z95() * math.sqrt(sampling + 2 * b * b / x.size)
    return LaplaceLdpResult(
        column,
        float(epsilon),
        (lo, hi),
        int(x.size),
        float(everything[finite].mean()),
        float(clipped.mean()),
        float(reports.mean()),
        half,
        b,
        reports[:10],
        unit,
        left_out,
    )
