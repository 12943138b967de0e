"""Differentially private releases through OpenDP.

Every value this module returns as a release is drawn by OpenDP's
floating-point-safe samplers, and its privacy cost is OpenDP's own privacy
map, not a formula typed here: the noise scale is found with
``opendp.binary_search_param`` so the certified cost does not exceed the
requested epsilon (and delta). The ledger is charged *before* any noise is
drawn, so a refused release reveals nothing.

* counts and histograms: the exact integer aggregate, then an OpenDP
  measurement on integers (discrete Laplace, discrete Gaussian) or floats
  (Laplace, Gaussian) at the query's sensitivity
  (:func:`riskcore.dp.global_sensitivity.sensitivity`);
* sums and means: an OpenDP pipeline clamp >> (resize) >> sum / mean >>
  noise, so OpenDP also accounts for floating-point rounding in the sum
  (Casacuberta et al., CCS 2022);
* sample and aggregate: OpenDP Laplace on the mean of clamped block values.

With a person column (:class:`riskcore.dp.contributions.PrivacyUnit`) every release
keeps at most c rows of each person (a seeded per-person sample, after the query's
filters and before it is answered: :func:`riskcore.dp.contributions.bound_rows`) and
is calibrated to OpenDP's unit ``unit_of(contributions=c)`` of those rows: sums and
means through OpenDP's own stability maps, counts and histograms at c times a row's
sensitivity on OpenDP's aggregate units ``unit_of(absolute=...)``, ``unit_of(l1=...)``,
``unit_of(l2=...)``. The epsilon charged is then per person, and the ledger entry
records the unit.

References
----------
.. [OpenDP] The OpenDP Library, https://docs.opendp.org (version 0.16).
.. [WZLDSG20] R. J. Wilson, C. Y. Zhang, W. Lam, D. Desfontaines, D. Simmons-Marengo,
   B. Gipson. Differentially Private SQL with Bounded User Contribution. PoPETs
   2020(2), 230-250.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from riskcore._results import NOT_IN_JSON, Result
from riskcore._validation import check_delta, check_epsilon, check_one_of
from riskcore.dp.accounting import Charger, LedgerEntry, PrivacyLedger
from riskcore.dp.contributions import (
    ONE_ROW,
    BoundedRows,
    PrivacyUnit,
    bound_rows,
    bounded_sensitivity,
)
from riskcore.dp.gaussian import gaussian_search_bounds
from riskcore.dp.global_sensitivity import NEIGHBOURING_LABELS, Neighbouring, Sensitivity
from riskcore.dp.global_sensitivity import sensitivity as global_sensitivity
from riskcore.dp.mechanisms import Mechanism, as_mechanism
from riskcore.dp.query import Query, _bounds, _column, _filtered, _histogram, _numeric, true_answer
from riskcore.dp.sample_aggregate import SampleAggregate
from riskcore.errors import PrivacyLeakWarning, RiskcoreError

__all__ = [
    "RELEASE_MECHANISMS",
    "Query",
    "Release",
    "ReleaseMechanism",
    "SampleAggregateRelease",
    "release",
    "release_sample_aggregate",
    "true_answer",
]

ReleaseMechanism = Literal["laplace", "gaussian", "discrete_laplace", "discrete_gaussian"]
#: Every mechanism OpenDP releases with here (the discrete ones for counts only).
RELEASE_MECHANISMS: tuple[Mechanism, ...] = tuple(Mechanism)


def _odp() -> Any:
    """Return ``opendp.prelude`` with the contrib features on (imported on first use)."""
    import opendp.prelude as odp

    odp.enable_features("contrib")
    return odp


@dataclass(frozen=True)
class Release(Result):
    """A differentially private answer drawn by OpenDP, with what it cost.

    Attributes
    ----------
    query : Query
    mechanism : Mechanism
    neighbouring : str
    value : float or tuple of float
        The noisy answer (one value per bar for a histogram).
    labels : tuple of str or None
        Histogram bars.
    epsilon, delta : float
        Privacy cost certified by OpenDP's privacy map.
    rho : float or None
        zCDP cost of a Gaussian release (OpenDP's map).
    scale : float
        Noise scale OpenDP used (Laplace b, Gaussian sigma).
    sensitivity : Sensitivity
    half_width : float
        95% accuracy of each value (OpenDP's scale-to-accuracy helper).
    notes : tuple of str
        What a reader must know (missing values, public n, categories).
    entry : LedgerEntry
        What the release charged to the ledger.
    ledger : PrivacyLedger or None
        The session's ledger with ``entry`` charged (keep it: it replaces the
        ledger passed in). Not written to JSON; ``None`` when read back.
    unit : PrivacyUnit
        The unit of privacy: one row, or one person with at most c rows.
    bounded : BoundedRows or None
        The rows kept and left out by the bound on rows per person (None for one row).
    """

    query: Query
    mechanism: Mechanism
    neighbouring: str
    value: float | tuple[float, ...]
    labels: tuple[str, ...] | None
    epsilon: float
    delta: float
    rho: float | None
    scale: float
    sensitivity: Sensitivity
    half_width: float
    notes: tuple[str, ...]
    entry: LedgerEntry
    ledger: PrivacyLedger | None = field(
        default=None, metadata=NOT_IN_JSON, compare=False, repr=False
    )
    unit: PrivacyUnit = ONE_ROW
    bounded: BoundedRows | None = None


@dataclass(frozen=True)
class SampleAggregateRelease(Result):
    """A sample-and-aggregate estimate released with OpenDP Laplace noise.

    Attributes
    ----------
    statistic : str
    k : int
        Number of blocks.
    value : float
        The noisy estimate.
    epsilon : float
        OpenDP's certified epsilon.
    scale : float
        Laplace scale OpenDP used.
    entry : LedgerEntry
        What the release charged to the ledger.
    ledger : PrivacyLedger or None
        The ledger with ``entry`` charged; not written to JSON.
    """

    statistic: str
    k: int
    value: float
    epsilon: float
    scale: float
    entry: LedgerEntry
    ledger: PrivacyLedger | None = field(
        default=None, metadata=NOT_IN_JSON, compare=False, repr=False
    )


#: OpenDP's scale-to-accuracy helper of each mechanism.
_ACCURACY_HELPERS: dict[Mechanism, str] = {
    Mechanism.LAPLACE: "laplacian_scale_to_accuracy",
    Mechanism.DISCRETE_LAPLACE: "discrete_laplacian_scale_to_accuracy",
    Mechanism.GAUSSIAN: "gaussian_scale_to_accuracy",
    Mechanism.DISCRETE_GAUSSIAN: "discrete_gaussian_scale_to_accuracy",
}


def _accuracy(mechanism: Mechanism, scale: float) -> float:
    """Return the 95% half-width of the noise at ``scale`` (OpenDP's helper)."""
    return float(getattr(_odp(), _ACCURACY_HELPERS[mechanism])(scale, 0.05))


def _noise_builder(mechanism: Mechanism, delta: float | None) -> Any:
    """Return build(domain, metric, scale, zcdp=False) for the mechanism's OpenDP measurement.

    ``build`` makes OpenDP's Laplace (pure DP) or Gaussian measurement (OpenDP
    picks the discrete sampler for integer domains); a Gaussian is converted
    from zCDP to (epsilon, delta) at ``delta`` unless ``zcdp=True`` asks for
    the zCDP measurement itself (for the ledger's rho).
    """
    odp = _odp()
    gaussian = mechanism.is_gaussian
    if gaussian:
        if delta is None:
            raise ValueError("a Gaussian release needs 0 < delta < 1, got None")
        check_delta(delta)

    def build(domain: Any, metric: Any, scale: float, zcdp: bool = False) -> Any:
        if gaussian:
            meas = odp.m.make_gaussian(domain, metric, scale=scale)
            return meas if zcdp else odp.c.make_fix_delta(odp.c.make_zCDP_to_approxDP(meas), delta)
        return odp.m.make_laplace(domain, metric, scale=scale)

    return build


def _calibrate(
    make_chain: Any, d_in: Any, epsilon: float, delta: float | None, l2: float | None
) -> float:
    """Find the smallest scale whose OpenDP-certified cost is within (epsilon, delta).

    ``l2``: the L2 sensitivity of a Gaussian (None for Laplace), whose search is
    bracketed (:func:`riskcore.dp.gaussian.gaussian_search_bounds`).
    """
    gaussian = l2 is not None
    d_out = (epsilon, delta) if gaussian else epsilon
    bounds: Any = (None, None)
    if l2 is not None and delta is not None:
        bounds = gaussian_search_bounds(l2, epsilon, delta)
    try:
        return float(
            _odp().binary_search_param(make_chain, d_in=d_in, d_out=d_out, bounds=bounds, T=float)
        )
    except Exception as exc:  # OpenDP raises its own error types
        raise RiskcoreError(f"OpenDP could not calibrate the noise: {exc}") from exc


@dataclass(frozen=True)
class _Plan:
    """What OpenDP is asked to do: optional pre-processing, the noise's input space, the data."""

    pre: Any
    domain: Any
    metric: Any
    d_in: Any
    arg: Any
    sensitivity: Sensitivity
    labels: tuple[str, ...] | None
    notes: tuple[str, ...]


def _plan_counts(
    rows: pd.DataFrame,
    query: Query,
    neighbouring: Neighbouring,
    mechanism: Mechanism,
    unit: PrivacyUnit,
) -> _Plan:
    odp = _odp()
    notes: list[str] = []
    labels: tuple[str, ...] | None = None
    if query.kind == "count":
        answer: Any = len(rows)
        sensitivity = bounded_sensitivity(
            global_sensitivity("count", neighbouring=neighbouring), unit
        )
    else:
        if query.categories is None:
            warnings.warn(
                f"The histogram's categories were read from the data: a rare value of "
                f"{query.column!r} is revealed just by having a bar. List the public "
                f"categories instead.",
                PrivacyLeakWarning,
                stacklevel=3,
            )
            notes.append("categories were read from the data (not private)")
        labels, answer = _histogram(rows, query)
        sensitivity = bounded_sensitivity(
            global_sensitivity("histogram", neighbouring=neighbouring), unit
        )
    T: type = int if mechanism.is_discrete else float
    atom = odp.atom_domain(T=T) if mechanism.is_discrete else odp.atom_domain(T=T, nan=False)
    norm = sensitivity.l2 if mechanism.is_gaussian else sensitivity.l1
    # the aggregate's privacy unit: how far one person (c rows) moves it [OpenDP]_
    if query.kind == "count":
        domain, arg = atom, T(answer)
        metric, d_in = odp.unit_of(absolute=T(norm), U=T)
    else:
        domain, arg = odp.vector_domain(atom), [T(v) for v in answer]
        if mechanism.is_gaussian:  # an f64 L2 metric takes the sqrt(2) of change-one exactly
            metric, d_in = odp.unit_of(l2=float(norm))
        else:
            metric, d_in = odp.unit_of(l1=T(norm), U=T)
    return _Plan(None, domain, metric, d_in, arg, sensitivity, labels, tuple(notes))


def _plan_numeric(
    rows: pd.DataFrame, query: Query, neighbouring: Neighbouring, unit: PrivacyUnit
) -> _Plan:
    odp = _odp()
    x = _numeric(rows, _column(query))
    lo, hi = _bounds(query)
    finite = np.isfinite(x)
    missing = int((~finite).sum())
    notes: list[str] = []
    free = odp.vector_domain(odp.atom_domain(T=float, nan=False))
    if neighbouring == "add_remove":
        x = x[finite]
        if missing:
            notes.append(f"{missing:,} rows without a number were left out")
    else:
        x = np.where(finite, x, (lo + hi) / 2.0)
        if missing:
            notes.append(
                f"{missing:,} rows without a number count as the midpoint {(lo + hi) / 2:g}"
            )
    if x.size == 0:
        raise RiskcoreError(f"no numeric values of {query.column!r} match the query")
    sized = odp.vector_domain(odp.atom_domain(T=float, nan=False), size=int(x.size))
    # OpenDP's privacy unit: one person adds or removes at most c rows (symmetric
    # distance c), or changes at most c rows (2c); its stability maps scale the noise
    sym, d_in = unit.opendp_unit(neighbouring)
    if query.kind == "sum":
        sensitivity = global_sensitivity("sum", neighbouring=neighbouring, bounds=(lo, hi))
        sensitivity = bounded_sensitivity(sensitivity, unit)
        domain = free if neighbouring == "add_remove" else sized
        pre = odp.t.make_clamp(domain, sym, bounds=(lo, hi)) >> odp.t.then_sum()
    elif neighbouring == "add_remove":
        n_pub = query.n_public
        if n_pub is None:
            warnings.warn(
                "The mean's row count was read from the data; under add/remove neighbours "
                "the count is itself private. Enter a public n.",
                PrivacyLeakWarning,
                stacklevel=3,
            )
            n_pub = int(x.size)
            notes.append("n was read from the data (not private)")
        notes.append(f"the data are resized to the public n = {n_pub:,} (OpenDP make_resize)")
        sensitivity = bounded_sensitivity(
            global_sensitivity("mean", neighbouring="add_remove", bounds=(lo, hi), n=n_pub), unit
        )
        pre = (
            odp.t.make_clamp(free, sym, bounds=(lo, hi))
            >> odp.t.then_resize(size=n_pub, constant=(lo + hi) / 2.0)
            >> odp.t.then_mean()
        )
    else:
        sensitivity = bounded_sensitivity(
            global_sensitivity("mean", neighbouring="change_one", bounds=(lo, hi), n=int(x.size)),
            unit,
        )
        pre = odp.t.make_clamp(sized, sym, bounds=(lo, hi)) >> odp.t.then_mean()
    return _Plan(
        pre, pre.output_domain, pre.output_metric, d_in, x.tolist(), sensitivity, None, tuple(notes)
    )


def _measure(
    plan: _Plan, build: Any, mechanism: Mechanism, epsilon: float, delta: float | None
) -> tuple[Any, float, tuple[float, float, float | None]]:
    """Calibrate the plan's measurement; return (measurement, scale, (epsilon, delta, rho)).

    The cost is OpenDP's own privacy map at the calibrated scale; rho is the
    zCDP cost of a Gaussian (None for Laplace).
    """

    def chain(scale: float, zcdp: bool = False) -> Any:
        noise = build(plan.domain, plan.metric, scale, zcdp)
        return noise if plan.pre is None else plan.pre >> noise

    scale = _calibrate(
        chain, plan.d_in, epsilon, delta, plan.sensitivity.l2 if mechanism.is_gaussian else None
    )
    meas = chain(scale)
    cost = meas.map(plan.d_in)
    if mechanism.is_gaussian:
        rho = float(chain(scale, zcdp=True).map(plan.d_in))
        return meas, scale, (float(cost[0]), float(cost[1]), rho)
    return meas, scale, (float(cost), 0.0, None)


def release(
    data: pd.DataFrame,
    query: Query,
    *,
    epsilon: float,
    mechanism: Mechanism | ReleaseMechanism = Mechanism.LAPLACE,
    neighbouring: Neighbouring = "add_remove",
    delta: float | None = None,
    ledger: Charger,
    unit: PrivacyUnit = ONE_ROW,
    seed: int = 0,
) -> Release:
    """Release a differentially private answer through OpenDP and charge the ledger.

    With a person as the unit, the rows the query's filters select are bounded to at
    most c per person (:func:`riskcore.dp.contributions.bound_rows`, a seeded sample)
    before the query is answered, and the noise is calibrated to c times a row's
    sensitivity (OpenDP's ``unit_of(contributions=c)``): the epsilon charged is per
    person [WZLDSG20]_.

    Parameters
    ----------
    data : DataFrame
        The table the query reads (its filters select rows by their text).
    query : Query
        What is released: a count, sum, mean or histogram, with its filters,
        public clipping bounds or categories.
    epsilon : float, keyword-only
        Requested epsilon; OpenDP's certified cost never exceeds it.
    mechanism : Mechanism or {"laplace", "gaussian", "discrete_laplace", "discrete_gaussian"}
        Discrete mechanisms apply to counts and histograms only.
    neighbouring : {"add_remove", "change_one"}
        What a neighbouring table is: one row (or person) added or removed, or
        one changed; it sets the sensitivity.
    delta : float, optional
        Required by the Gaussian mechanisms.
    ledger : PrivacyLedger or LedgerHandle
        The ledger charged; the release is refused (before any noise is
        drawn) when it would exceed the budget. A persisted ledger's handle
        (:class:`riskcore.store.ledgers.LedgerHandle`) reserves the cost in the
        database, atomically, before the noise is drawn.
    unit : PrivacyUnit, optional
        The unit of privacy: one row (the default), or one person with at most c
        rows (c public, chosen by the user).
    seed : int, optional
        The seed of the per-person sample (public; it does not affect the guarantee).

    Returns
    -------
    Release
        The release; its ``entry`` is what it cost and its ``ledger`` the
        ledger with that entry charged.

    Raises
    ------
    BudgetExceededError
        When the budget would be exceeded.
    RiskcoreError
        For queries that cannot be answered (unknown column, no values).

    Examples
    --------
    A count changes by at most 1 when a row is added or removed, so Laplace
    noise at epsilon 0.5 has scale 1 / 0.5 = 2, and 95% of draws land within
    2 ln 20 = 5.99 of the true count (4 rows of flu here). The noise itself is
    random; the cost is not: a second release of 0.6 would overspend a budget
    of 1 and is refused before any noise is drawn.

    >>> import pandas as pd
    >>> from riskcore.dp.accounting import PrivacyLedger
    >>> from riskcore.dp.query import Query
    >>> df = pd.DataFrame({"diagnosis": ["flu", "flu", "cold", "flu", "flu", "cold"]})
    >>> flu = Query("count", filters=(("diagnosis", ("flu",)),))
    >>> r = release(df, flu, epsilon=0.5, ledger=PrivacyLedger(epsilon_budget=1.0))
    >>> r.epsilon, r.scale, round(r.half_width, 2), r.ledger.spent()
    (0.5, 2.0, 5.99, (0.5, 0.0))
    >>> release(df, Query("count"), epsilon=0.6, ledger=r.ledger)
    Traceback (most recent call last):
    ...
    riskcore.dp.accounting.BudgetExceededError: Refused: this release costs epsilon 0.6 ...
    """
    check_epsilon(epsilon)
    mech = as_mechanism(mechanism, allowed=RELEASE_MECHANISMS)
    check_one_of("neighbouring", neighbouring, NEIGHBOURING_LABELS)
    if mech.is_discrete and query.kind not in ("count", "histogram"):
        raise RiskcoreError(
            "discrete mechanisms release integer counts: use Laplace or Gaussian for a sum or mean"
        )
    if unit.max_rows is None:
        raise ValueError("a release needs a bound on rows per person (max_rows)")
    build = _noise_builder(mech, delta)
    rows, bounded = bound_rows(_filtered(data, query), unit, seed=seed, columns=query.reads)
    if query.kind in ("count", "histogram"):
        plan = _plan_counts(rows, query, neighbouring, mech, unit)
    else:
        plan = _plan_numeric(rows, query, neighbouring, unit)

    meas, scale, (eps_c, delta_c, rho) = _measure(plan, build, mech, epsilon, delta)
    groups = len(plan.labels) if plan.labels else 1
    entry = LedgerEntry(query.describe(), mech.value, eps_c, delta_c, rho, groups, unit)
    # Charge first: a refused release must not draw (or reveal) any noise.
    new_ledger = ledger.charge(entry)
    raw = meas(plan.arg)
    value: float | tuple[float, ...] = (
        tuple(float(v) for v in raw) if isinstance(raw, (list, tuple)) else float(raw)
    )
    return Release(
        query,
        mech,
        neighbouring,
        value,
        plan.labels,
        eps_c,
        delta_c,
        rho,
        scale,
        plan.sensitivity,
        _accuracy(mech, scale),
        plan.notes,
        entry,
        new_ledger,
        unit,
        bounded if unit.is_person else None,
    )


def release_sample_aggregate(result: SampleAggregate, *, ledger: Charger) -> SampleAggregateRelease:
    """Release a sample-and-aggregate estimate with OpenDP Laplace noise.

    The mean of k clamped block values moves by at most (hi - lo) / k when
    one person changes (they sit in one block), so OpenDP's Laplace on that
    scalar, at d_in = (hi - lo) / k, is calibrated to ``result.epsilon``.

    Parameters
    ----------
    result : SampleAggregate
        The result to describe.
    ledger : Charger
        The ledger charged before the noise is drawn (:class:`Charger`).

    Returns
    -------
    SampleAggregateRelease
        The noisy estimate, OpenDP's certified epsilon, the ledger entry and
        the charged ledger.

    Examples
    --------
    The median of 1..60 from 6 blocks of 10, clamped to [0, 60]: one person
    moves the mean of the block medians by at most 60 / 6 = 10, so Laplace
    noise at epsilon 1 has scale 10 and the whole epsilon is charged.

    >>> from riskcore.dp.accounting import PrivacyLedger
    >>> from riskcore.dp.sample_aggregate import sample_and_aggregate
    >>> sa = sample_and_aggregate(range(1, 61), k=6, bounds=(0, 60), epsilon=1.0)
    >>> r = release_sample_aggregate(sa, ledger=PrivacyLedger(epsilon_budget=1.0))
    >>> r.statistic, r.k, r.scale, r.epsilon, r.entry.query
    ('median', 6, 10.0, 1.0, 'sample-and-aggregate median (k = 6)')
    """
    odp = _odp()
    d_in = float(result.sensitivity)
    atom = odp.atom_domain(T=float, nan=False)

    def chain(scale: float) -> Any:
        return odp.m.make_laplace(atom, odp.absolute_distance(T=float), scale=scale)

    scale = _calibrate(chain, d_in, result.epsilon, None, None)
    meas = chain(scale)
    eps_c = float(meas.map(d_in))
    entry = LedgerEntry(
        f"sample-and-aggregate {result.statistic} (k = {result.k})",
        Mechanism.LAPLACE.value,
        eps_c,
        unit=result.unit,
    )
    new = ledger.charge(entry)
    value = float(meas(float(result.aggregate)))
    return SampleAggregateRelease(result.statistic, result.k, value, eps_c, scale, entry, new)
