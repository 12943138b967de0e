"""The person as the unit of privacy: at most c rows per person, and what that does to noise.

Differential privacy protects the difference between *neighbouring* tables. When one
person can be many rows (claims, visits, prescriptions), tables that differ by one row
protect one visit, not one patient: a patient with m rows changes a count by up to m, so
the epsilon stated for a row is, for that patient, m times larger (group privacy,
[DR14]_ Theorem 2.2). Keeping the one-person unit takes a bound on each person's
contribution [WZLDSG20]_:

1. choose a public bound c, the most rows a person may contribute (never read from the
   data under the guarantee);
2. before the query, keep at most c rows of each person, a seeded sample of their rows
   (:func:`person_ranks`, :func:`bound_rows`), and leave out the rest;
3. calibrate the noise to c times a row's sensitivity (:func:`bounded_sensitivity`).

Then two tables that differ by one person differ, after step 2, by at most c rows, and
by the triangle inequality any query's answer moves by at most c times what one row
moves it: the epsilon stated is per person.

OpenDP
------
OpenDP's privacy units say the same: ``dp.unit_of(contributions=c)`` is the unit "at
most c rows" (the symmetric distance c), and its Polars API bounds contributions per
identifier (``unit_of(contributions=c, identifier=...)`` with
``LazyFrameQuery.truncate_per_group``). That API needs Polars, which this project does
not install, so the per-person sample is drawn here with numpy and pandas, and the
OpenDP measurement is built on the unit ``unit_of(contributions=c)`` of the bounded rows
(:meth:`PrivacyUnit.opendp_unit`): for a sum or mean OpenDP's own stability maps then
scale its sensitivity by c; a count or histogram is aggregated in numpy and measured on
``unit_of(absolute=...)`` / ``unit_of(l1=...)`` / ``unit_of(l2=...)`` at the
sensitivity of :func:`bounded_sensitivity` (the tests check it against the stability
maps of OpenDP's ``make_count`` and ``make_count_by_categories`` at d_in = c).

References
----------
.. [DR14] C. Dwork, A. Roth. The Algorithmic Foundations of Differential Privacy.
   Foundations and Trends in TCS 9(3-4), 2014 (Theorem 2.2, group privacy).
.. [WZLDSG20] R. J. Wilson, C. Y. Zhang, W. Lam, D. Desfontaines, D. Simmons-Marengo,
   B. Gipson. Differentially Private SQL with Bounded User Contribution. Proceedings on
   Privacy Enhancing Technologies 2020(2), 230-250 (per-user contribution bounding:
   reservoir-sample each user's rows, then scale the sensitivity by the bound).
.. [CM15] A. C. Cameron, D. L. Miller. A Practitioner's Guide to Cluster-Robust
   Inference. Journal of Human Resources 50(2), 317-372, 2015 (the CR1 variance).
.. [OpenDP] The OpenDP Library 0.16, https://docs.opendp.org: privacy units
   (``opendp.context.unit_of``) and ``make_count`` / ``make_count_by_categories``
   stability maps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore._results import Result
from riskcore._validation import check_epsilon, check_positive_int, check_probability
from riskcore.dp.global_sensitivity import Sensitivity
from riskcore.dp.mechanisms import Mechanism, as_mechanism, mechanism_error, mechanism_scale
from riskcore.dp.query import (
    MISSING,
    OTHER,
    Query,
    _bounds,
    _column,
    _filtered,
    _numeric,
    true_answer,
)
from riskcore.errors import RiskcoreError

__all__ = [
    "MAX_ROWS_PER_PERSON",
    "ONE_ROW",
    "BoundTradeoff",
    "BoundedRows",
    "PrivacyUnit",
    "RowsPerPerson",
    "bound_rows",
    "bound_tradeoff",
    "bounded_answer",
    "bounded_sensitivity",
    "person_mean_variance",
    "person_ranks",
    "rows_per_person",
]

#: The largest bound c accepted: a person contributing more rows than this is no longer
#: "one person" in any useful sense, and :func:`bound_tradeoff` computes one point per c
#: up to it.
MAX_ROWS_PER_PERSON = 1_000

#: The seed of the per-person sample is a 64-bit integer (it becomes SipHash's key).
_SEED_LIMIT = 2**64


@dataclass(frozen=True)
class PrivacyUnit(Result):
    """What neighbouring tables differ by: one row, or one person with at most c rows.

    Attributes
    ----------
    person : str or None
        The column linking the rows of one person; None when each row is taken to be a
        different person.
    max_rows : int or None
        The most rows a person contributes, c (public, chosen by the user). 1 when
        ``person`` is None. None only for sample and aggregate, where all of a person's
        rows go to one block, so no bound is needed.
    """

    person: str | None = None
    max_rows: int | None = 1

    def __post_init__(self) -> None:
        if self.person is None:
            if self.max_rows != 1:
                raise ValueError(
                    "without a person column each row is a person: max_rows must be 1, "
                    f"got {self.max_rows!r}"
                )
            return
        if not isinstance(self.person, str) or not self.person:
            raise TypeError(f"person must be a column name, got {self.person!r}")
        if self.max_rows is not None:
            c = check_positive_int("max_rows", self.max_rows)
            if c > MAX_ROWS_PER_PERSON:
                raise ValueError(
                    f"max_rows must be at most {MAX_ROWS_PER_PERSON:,}, got {self.max_rows!r}"
                )

    @property
    def is_person(self) -> bool:
        """Return True when a person column sets the unit."""
        return self.person is not None

    @property
    def factor(self) -> int:
        """Return c, the factor on a row's sensitivity (1 for the one-row unit).

        Raises
        ------
        ValueError
            For the unbounded unit of sample and aggregate (no factor applies).
        """
        if self.max_rows is None:
            raise ValueError("this unit has no bound on rows per person")
        return int(self.max_rows)

    def opendp_unit(self, neighbouring: str) -> tuple[Any, int]:
        """Return OpenDP's privacy unit of the bounded rows: (SymmetricDistance, d_in).

        ``dp.unit_of(contributions=c)`` [OpenDP]_: adding or removing one person adds or
        removes at most c bounded rows; changing one person's rows (their number kept)
        changes at most c rows, a symmetric distance of 2c.

        Parameters
        ----------
        neighbouring : {"add_remove", "change_one"}
            What neighbouring tables differ by.

        Returns
        -------
        tuple of (opendp.mod.Metric, int)
            The metric and the distance d_in the measurement is calibrated for.
        """
        import opendp.prelude as odp

        d_in = (2 if neighbouring == "change_one" else 1) * self.factor
        metric, _ = odp.unit_of(contributions=d_in)  # (SymmetricDistance(), d_in)
        return metric, d_in


#: The unit when no person column is set: one row, each taken to be a different person.
ONE_ROW = PrivacyUnit()


def _person_codes(data: pd.DataFrame, person: str) -> np.ndarray:
    """Return each row's person as an integer code (-1 where the person is missing)."""
    if person not in data.columns:
        raise RiskcoreError(f"the person column {person!r} is not in the table")
    codes, _ = pd.factorize(data[person], use_na_sentinel=True)
    return np.asarray(codes, dtype=np.int64)


def _check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an integer, got {seed!r}")
    if not 0 <= int(seed) < _SEED_LIMIT:
        raise ValueError(f"seed must be in [0, 2**64), got {seed!r}")
    return int(seed)


def person_ranks(
    data: pd.DataFrame,
    person: str,
    *,
    seed: int = 0,
    columns: Sequence[str] | None = None,
) -> np.ndarray:
    """Return each row's rank among its person's rows in a seeded random order.

    The order key of a row is a keyed 64-bit hash of the row's own values in
    ``columns`` (``pandas.util.hash_pandas_object``, SipHash-2-4 keyed by ``seed``); a
    person's rows are ranked 0, 1, ... by it, rows with equal values in ``columns``
    (equal for a query reading only those) in the table's order. Keeping the rows of
    rank < c is the seeded per-person sample of [WZLDSG20]_: c of a person's rows,
    uniformly at random over the key, and the same rows for the same table and seed,
    however its rows are ordered. The order of one person's rows depends on their own
    rows only, never on other people's, so adding or removing a person changes no one
    else's sample: bounded tables of neighbouring tables differ by at most c rows,
    whatever the seed. Vectorized: one hash per row, one ``numpy.lexsort``; O(n log n)
    in the rows (the table's size is capped where it is loaded).

    Parameters
    ----------
    data : pandas.DataFrame
        The rows (any index; positions are used).
    person : str
        The column linking the rows of one person.
    seed : int, keyword-only
        The seed of the sample, in [0, 2**64); it is public and does not affect the
        guarantee.
    columns : sequence of str, optional
        The columns whose values order a person's rows (default every column); a query
        passes the columns it reads (:attr:`riskcore.dp.query.Query.reads`), which
        hashes less and gives the same answers.

    Returns
    -------
    numpy.ndarray
        One int64 per row: 0 for the person's first row in the order, 1 for the next,
        ...; -1 for a row whose person is missing.

    Raises
    ------
    RiskcoreError
        When ``person`` is not a column of ``data``.
    """
    seed = _check_seed(seed)
    codes = _person_codes(data, person)
    n = codes.size
    ranks = np.full(n, -1, dtype=np.int64)
    if n == 0:
        return ranks
    hashed = data if columns is None else data[list(dict.fromkeys(columns))]
    h: np.ndarray = np.zeros(n, dtype=np.uint64)
    if hashed.shape[1]:
        key = f"{seed:016x}"  # SipHash's 16-byte key
        h = pd.util.hash_pandas_object(hashed, index=False, hash_key=key).to_numpy(np.uint64)
    order = np.lexsort((h, codes))  # by person, then by the keyed hash (stable on ties)
    sorted_codes = codes[order]
    new = np.r_[True, sorted_codes[1:] != sorted_codes[:-1]]
    starts = np.flatnonzero(new)
    lengths = np.diff(np.r_[starts, n])
    ranks[order] = np.arange(n) - np.repeat(starts, lengths)
    ranks[codes < 0] = -1
    return ranks


@dataclass(frozen=True)
class BoundedRows(Result):
    """What bounding each person's contribution left out of a query's rows.

    Attributes
    ----------
    unit : PrivacyUnit
        The unit the rows were bounded for.
    seed : int
        The seed of the per-person sample.
    rows : int
        Rows before bounding.
    kept : int
        Rows kept: at most c per person.
    people : int
        People among the rows (0 for the one-row unit).
    without_person : int
        Rows whose person is missing, left out: no bound can be kept for them.
    beyond_bound : int
        Rows beyond the bound c of their person, left out.
    """

    unit: PrivacyUnit
    seed: int
    rows: int
    kept: int
    people: int
    without_person: int
    beyond_bound: int


def bound_rows(
    data: pd.DataFrame,
    unit: PrivacyUnit,
    *,
    seed: int = 0,
    columns: Sequence[str] | None = None,
) -> tuple[pd.DataFrame, BoundedRows]:
    """Keep at most c rows of each person (a seeded sample); return them and what was left.

    Rows of rank < c by :func:`person_ranks` are kept, in their original order.
    Rows without a person are left out: they cannot be counted against anyone's bound
    (taken together as one person, one added row could displace another, which would
    double the distance). With the one-row unit the rows are returned as they are.

    Parameters
    ----------
    data : pandas.DataFrame
        The rows a query reads (after its filters).
    unit : PrivacyUnit
        The unit of privacy; its ``max_rows`` is the bound c.
    seed : int, keyword-only
        The seed of the per-person sample.
    columns : sequence of str, optional
        The columns ordering a person's rows (:func:`person_ranks`; default all).

    Returns
    -------
    tuple of (pandas.DataFrame, BoundedRows)
        The kept rows, and the counts of rows kept and left out.
    """
    seed = _check_seed(seed)
    n = len(data)
    if not unit.is_person:
        return data, BoundedRows(unit, seed, n, n, 0, 0, 0)
    c = unit.factor
    ranks = person_ranks(data, str(unit.person), seed=seed, columns=columns)
    keep = (ranks >= 0) & (ranks < c)
    people = int(np.count_nonzero(ranks == 0))
    without = int(np.count_nonzero(ranks < 0))
    kept = int(np.count_nonzero(keep))
    return data.iloc[np.flatnonzero(keep)], BoundedRows(
        unit, seed, n, kept, people, without, n - kept - without
    )


def bounded_answer(
    data: pd.DataFrame, query: Query, unit: PrivacyUnit, *, seed: int = 0
) -> float | tuple[tuple[str, ...], np.ndarray]:
    """Return a query's exact answer on the rows a release reads: filtered, then bounded.

    :func:`riskcore.dp.query.true_answer` of the rows :func:`bound_rows` keeps after the
    query's filters, as :func:`riskcore.dp.release.release` answers it before the noise
    (for comparison on the page only: it is not private).

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    query : Query
        The query.
    unit : PrivacyUnit
        The unit of privacy (the one-row unit gives ``true_answer``).
    seed : int, keyword-only
        The seed of the per-person sample.

    Returns
    -------
    float or tuple of (tuple of str, numpy.ndarray)
    """
    kept, _ = bound_rows(_filtered(data, query), unit, seed=seed, columns=query.reads)
    return true_answer(kept, query)


@renamed_arguments(sens="sensitivity")
def bounded_sensitivity(sensitivity: Sensitivity, unit: PrivacyUnit) -> Sensitivity:
    """Scale a row's sensitivity to the person as the unit: c times, in L1 and L2.

    After :func:`bound_rows`, tables that differ by one person differ by at most c
    rows added or removed (or, changing one person's rows with their number kept, c
    rows changed), so by the triangle inequality a query moves by at most c times what
    one row moves it [WZLDSG20]_: a count's sensitivity is c, a sum clipped to [L, U]
    c max(|L|, |U|) (add/remove) or c (U - L) (change one), a mean with public n
    c (U - L) / n. For a histogram under add/remove this gives L1 = L2 = c: a person's
    c rows may all fall in one bar, so c (not sqrt(c), which would hold only if a
    person touched each bar at most once) is the L2 sensitivity the Gaussian uses;
    under change-one, L1 = 2c and L2 = sqrt(2) c (c rows leave bars, c join others).
    Without the bound, the same noise would give only epsilon times the person's
    number of rows per person (group privacy, [DR14]_ Theorem 2.2).

    Parameters
    ----------
    sensitivity : Sensitivity
        A row's sensitivity (:func:`riskcore.dp.global_sensitivity.sensitivity`).
    unit : PrivacyUnit
        The unit of privacy; the one-row unit returns ``sensitivity`` unchanged.

    Returns
    -------
    Sensitivity
        ``sensitivity`` with ``l1`` and ``l2`` multiplied by c, ``max_rows`` c and a reason
        that says so.
    """
    c = unit.factor
    if not unit.is_person:
        return sensitivity
    rows = "1 row" if c == 1 else f"{c:,} rows"
    return replace(
        sensitivity,
        l1=c * sensitivity.l1,
        l2=c * sensitivity.l2,
        max_rows=c,
        reason=f"{sensitivity.reason}; a person contributes at most {rows}, so {c:,} times that",
    )


@dataclass(frozen=True)
class RowsPerPerson(Result):
    """How many rows the people of a table have (read from the data: not protected).

    Attributes
    ----------
    person : str
        The person column.
    people : int
        People (distinct values of ``person``).
    rows : int
        Rows with a person.
    without_person : int
        Rows whose person is missing.
    people_by_rows : numpy.ndarray
        ``people_by_rows[m]`` people have m rows (index 0 is 0).
    """

    person: str
    people: int
    rows: int
    without_person: int
    people_by_rows: np.ndarray

    @property
    def most_rows(self) -> int:
        """Return the most rows one person has (0 when there is no one)."""
        return int(self.people_by_rows.size - 1) if self.people else 0

    def kept(self, c: int) -> int:
        """Return the rows a bound of c keeps: the sum over people of min(rows, c).

        Parameters
        ----------
        c : int
            The bound on rows per person.

        Returns
        -------
        int
        """
        m = np.arange(self.people_by_rows.size)
        return int((np.minimum(m, check_positive_int("c", c)) * self.people_by_rows).sum())

    def people_within(self, c: int) -> int:
        """Return the people with at most c rows (a bound of c keeps all their rows).

        Parameters
        ----------
        c : int
            The bound on rows per person, as :meth:`kept`'s.

        Returns
        -------
        int
            Those whose rows the bound keeps whole.
        """
        return int(self.people_by_rows[: check_positive_int("c", c) + 1].sum())


def rows_per_person(data: pd.DataFrame, person: str) -> RowsPerPerson:
    """Count the rows of each person and how many people have each number of rows.

    Read from the data, so outside any guarantee: a page may show it to help choose the
    bound c only where that is acceptable (the bound is then no longer public in the
    strict sense). Two ``numpy.bincount`` calls.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    person : str
        The column linking the rows of one person.

    Returns
    -------
    RowsPerPerson
    """
    codes = _person_codes(data, person)
    with_person = codes[codes >= 0]
    per_person = np.bincount(with_person) if with_person.size else np.zeros(0, np.int64)
    by_rows = np.bincount(per_person) if per_person.size else np.zeros(1, np.int64)
    return RowsPerPerson(
        person,
        int(per_person.size),
        int(with_person.size),
        int(codes.size - with_person.size),
        by_rows.astype(np.int64),
    )


@dataclass(frozen=True)
class BoundTradeoff(Result):
    """What a bound c on rows per person costs a query: rows left out against noise saved.

    For c = 1 .. ``bounds[-1]``: the query's exact answer on the bounded rows (the same
    seeded sample as the release), its error against the answer on every row (the
    error from the rows left out; read from the data), the noise's (1 - alpha)
    half-width at c times a row's sensitivity, and their sum, a (1 - alpha) bound on the
    released answer's distance from the all-rows answer.

    Attributes
    ----------
    kind : str
        The query's kind.
    mechanism : Mechanism
        The noise the half-widths are of.
    epsilon : float
        The privacy-loss parameter epsilon (> 0).
    alpha : float
        The noise exceeds its half-width with probability alpha.
    chosen : int
        The bound c chosen on the page.
    truth : float
        The answer on every row (for a histogram, its largest bar).
    bounds : numpy.ndarray
        1, 2, ..., the bounds c tried.
    answer : numpy.ndarray
        The exact answer on the bounded rows, per c.
    dropped_error : numpy.ndarray
        answer - truth: the error from the rows left out (0 once c keeps every row).
    rows_left_out : numpy.ndarray
        The query's rows left out, per c.
    noise : numpy.ndarray
        The noise's half-width at c times a row's sensitivity.
    total : numpy.ndarray
        |dropped_error| + noise.
    keeps_all : int or None
        The smallest c that leaves no row out, None when it is beyond ``bounds``.
    """

    kind: str
    mechanism: Mechanism
    epsilon: float
    alpha: float
    chosen: int
    truth: float
    bounds: np.ndarray
    answer: np.ndarray
    dropped_error: np.ndarray
    rows_left_out: np.ndarray
    noise: np.ndarray
    total: np.ndarray
    keeps_all: int | None

    @property
    def best(self) -> int:
        """Return the c of the smallest total error on the grid (read from the data)."""
        return int(self.bounds[int(np.argmin(self.total))])

    def at(self, c: int) -> int:
        """Return the index of bound ``c`` on the grid.

        Parameters
        ----------
        c : int
            A bound on the grid.

        Returns
        -------
        int
        """
        if not 1 <= c <= self.bounds.size:
            raise ValueError(f"c = {c!r} is not on the grid 1 .. {self.bounds.size}")
        return int(c) - 1


def _by_rank(ranks: np.ndarray, weights: np.ndarray, size: int) -> np.ndarray:
    """Return, for c = 1 .. size, the sum of ``weights`` over the rows of rank < c."""
    inside = (ranks >= 0) & (ranks < size)
    per_rank = np.bincount(ranks[inside], weights=weights[inside], minlength=size)
    return np.cumsum(per_rank[:size])


@renamed_arguments(sens="sensitivity")
def bound_tradeoff(
    data: pd.DataFrame,
    query: Query,
    sensitivity: Sensitivity,
    *,
    person: str,
    epsilon: float,
    chosen: int,
    max_bound: int,
    mechanism: Mechanism | str = Mechanism.LAPLACE,
    delta: float | None = None,
    alpha: float = 0.05,
    seed: int = 0,
) -> BoundTradeoff:
    """Compute, for every bound c up to ``max_bound``, the error of rows left out and the noise.

    The bounded answer for every c at once: a row of rank r (:func:`person_ranks`, on
    the query's rows after its filters, as :func:`riskcore.dp.release.release` draws
    them) is kept by every bound c > r, so the answer for c is a cumulative sum over
    ranks (one ``numpy.bincount``). A count sums 1 per row, a sum the clipped values
    (rows without a number left out, as :func:`riskcore.dp.query.true_answer`), a mean
    divides the two, and a histogram counts the rows of its largest bar. The noise is
    the mechanism's (1 - alpha) half-width at scale c b_1, with b_1 the scale for a
    row's sensitivity: Laplace b = c Delta_1 / epsilon [DR14]_, and OpenDP's Gaussian
    sigma, linear in Delta_2 [OpenDP]_. Everything but the noise is read from the data:
    the plot shows what a bound costs, and choosing c from it is outside the guarantee.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    query : Query
        The query released.
    sensitivity : Sensitivity
        A row's sensitivity of the query (before the bound).
    person : str, keyword-only
        The person column.
    epsilon : float, keyword-only
        The privacy-loss parameter epsilon (> 0).
    chosen : int, keyword-only
        The bound chosen on the page (kept on the result for the figure's marker).
    max_bound : int, keyword-only
        The largest c computed, at most :data:`MAX_ROWS_PER_PERSON` (the limit is
        checked before anything is computed).
    mechanism : {"laplace", "gaussian"}, optional
        The noise; the discrete mechanisms are not offered here (their error is summed
        term by term, too slow for a thousand scales).
    delta : float, optional
        The Gaussian's delta.
    alpha : float, optional
        The noise exceeds its half-width with probability alpha.
    seed : int, optional
        The seed of the per-person sample (the release's).

    Returns
    -------
    BoundTradeoff
    """
    check_epsilon(epsilon)
    check_probability("alpha", alpha)
    mech = as_mechanism(mechanism, allowed=(Mechanism.LAPLACE, Mechanism.GAUSSIAN))
    size = check_positive_int("max_bound", max_bound)
    if size > MAX_ROWS_PER_PERSON:
        raise ValueError(f"max_bound must be at most {MAX_ROWS_PER_PERSON:,}, got {max_bound!r}")
    chosen = check_positive_int("chosen", chosen)
    if chosen > size:
        raise ValueError(f"the chosen bound {chosen} is above max_bound = {size}")
    rows = _filtered(data, query)
    ranks = person_ranks(rows, person, seed=seed, columns=query.reads)
    truth, reads, values = _query_rows(data, rows, query)
    read_ranks = np.where(reads, ranks, -1)
    kept_rows = _by_rank(read_ranks, np.ones(len(rows)), size)
    if query.kind == "mean":
        with np.errstate(invalid="ignore", divide="ignore"):
            answer = _by_rank(read_ranks, values, size) / kept_rows
    else:
        answer = _by_rank(read_ranks, values, size)
    left_out = float(np.count_nonzero(reads)) - kept_rows
    c = np.arange(1, size + 1)
    per_row = mechanism_scale(mech, sensitivity.l1, sensitivity.l2, epsilon, delta=delta)
    noise = mechanism_error(mech, c * per_row, alpha)[0]
    # no row left out: the answer is the truth (up to the order of a float sum)
    error = np.where(left_out == 0, 0.0, answer - truth)
    complete = np.flatnonzero(left_out == 0)
    return BoundTradeoff(
        query.kind,
        mech,
        float(epsilon),
        float(alpha),
        chosen,
        truth,
        c.astype(np.int64),
        answer,
        error,
        left_out,
        noise,
        np.abs(error) + noise,
        int(complete[0]) + 1 if complete.size else None,
    )


def _query_rows(
    data: pd.DataFrame, rows: pd.DataFrame, query: Query
) -> tuple[float, np.ndarray, np.ndarray]:
    """Return (the answer on every row, which filtered rows it reads, each row's value).

    A count reads every row (value 1); a histogram the rows of its largest bar (value
    1), which is its answer; a sum or mean the rows with a number (value: the number
    clipped to the bounds), as :func:`riskcore.dp.query.true_answer` reads them.
    """
    truth = true_answer(data, query)
    ones = np.ones(len(rows))
    if query.kind == "count":
        return float(truth), np.ones(len(rows), dtype=bool), ones  # type: ignore[arg-type]
    if query.kind == "histogram":
        labels, counts = truth  # type: ignore[misc]
        if len(counts) == 0:
            raise RiskcoreError(f"no rows of {query.column!r} match the query")
        top = int(np.argmax(counts))
        text = rows[_column(query)].astype("string").fillna(MISSING).to_numpy(dtype=object)
        bar = np.where(np.isin(text, np.asarray(labels, dtype=object)), text, OTHER)
        return float(counts[top]), bar == labels[top], ones
    x = _numeric(rows, _column(query))
    finite = np.isfinite(x)
    clipped = np.clip(np.where(finite, x, 0.0), *_bounds(query))
    return float(truth), finite, clipped  # type: ignore[arg-type]


def person_mean_variance(values: np.ndarray, person: np.ndarray) -> float:
    """Return the sampling variance of a mean of rows, clustered by person [CM15]_.

    A person's rows are not independent draws, so the variance of the mean ybar of n
    rows held by G people is the cluster-robust (CR1) variance of a mean (a regression
    on a constant)

        Var(ybar) = G / (G - 1) * sum_g (S_g - ybar n_g)^2 / n^2,

    with S_g the sum of person g's n_g values. With one row per person it is
    s^2 / n (s^2 with n - 1 in the denominator), the usual variance of a mean.

    Parameters
    ----------
    values : numpy.ndarray
        The n values (finite).
    person : numpy.ndarray
        Each value's person as an integer code in [0, G) (``pandas.factorize``).

    Returns
    -------
    float
        The variance (0 for a single person).

    Examples
    --------
    Person 0 holds 1 and 3, person 1 holds 8: ybar = 4, scores -4 and 4, so
    2 * (16 + 16) / 9.

    >>> person_mean_variance(np.array([1.0, 3.0, 8.0]), np.array([0, 0, 1]))
    7.111111111111111
    """
    y = np.asarray(values, dtype=float)
    n = y.size
    if n == 0:
        raise ValueError("no values")
    codes = np.asarray(person, dtype=np.int64)
    n_g = np.bincount(codes).astype(float)
    g = int(np.count_nonzero(n_g))
    if g < 2:
        return 0.0
    scores = np.bincount(codes, weights=y, minlength=n_g.size) - (y.sum() / n) * n_g
    return float(g / (g - 1) * float(scores @ scores) / (n * n))
