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
  (:func:`riskcore.dp.sensitivity`);
* sums and means: an OpenDP pipeline clamp >> (resize) >> sum / mean >>
  noise, so OpenDP also accounts for floating-point rounding in the sum
  (Casacuberta et al., CCS 2022);
* sample and aggregate: OpenDP Laplace on the mean of clamped block values.

References
----------
.. [OpenDP] The OpenDP Library, https://docs.opendp.org (version 0.16).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import opendp.prelude as odp
import pandas as pd

from riskcore._results import fields_dict
from riskcore.dp.core import (
    LedgerEntry,
    PrivacyLedger,
    SampleAggregate,
    Sensitivity,
    sensitivity,
)
from riskcore.errors import PrivacyLeakWarning, RiskcoreError

odp.enable_features("contrib")

__all__ = [
    "Query",
    "Release",
    "ReleaseMechanism",
    "release",
    "release_sample_aggregate",
    "true_answer",
]

ReleaseMechanism = Literal["laplace", "gaussian", "discrete_laplace", "discrete_gaussian"]
OTHER = "(other)"
MISSING = "(missing)"
MAX_BARS = 500


@dataclass(frozen=True)
class Query:
    """A query on the loaded table.

    Attributes
    ----------
    kind : {"count", "sum", "mean", "histogram"}
    column : str or None
        Summed / averaged / histogrammed column (None for a count).
    filters : tuple of (str, tuple of str)
        Rows kept: for each (column, values), the column's text is one of
        the values. Filters apply to every kind of query.
    bounds : tuple of float or None
        Clipping bounds (L, U) of a sum or mean; must be public.
    categories : tuple of str or None
        Public categories of a histogram; values outside fall in
        "(other)", missing values in "(missing)".
    n_public : int or None
        Public row count for a mean under add/remove neighbours.
    """

    kind: Literal["count", "sum", "mean", "histogram"]
    column: str | None = None
    filters: tuple[tuple[str, tuple[str, ...]], ...] = ()
    bounds: tuple[float, float] | None = None
    categories: tuple[str, ...] | None = None
    n_public: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("count", "sum", "mean", "histogram"):
            raise ValueError(f"unknown query kind {self.kind!r}")
        if self.kind != "count" and not self.column:
            raise ValueError(f"a {self.kind} needs a column")
        if self.kind in ("sum", "mean") and self.bounds is None:
            raise ValueError(f"a {self.kind} needs clipping bounds")

    def describe(self) -> str:
        """Return the query in plain words."""
        where = " and ".join(
            f"{c} is {' or '.join(v) if v else '(nothing)'}" for c, v in self.filters
        )
        cond = f" where {where}" if where else ""
        if self.kind == "count":
            return f"count of rows{cond}"
        if self.kind == "histogram":
            return f"histogram of {self.column}{cond}"
        lo, hi = self.bounds  # type: ignore[misc]
        return f"{self.kind} of {self.column} clipped to [{lo:g}, {hi:g}]{cond}"

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out = fields_dict(self)
        out["description"] = self.describe()
        return out


def _filtered(data: pd.DataFrame, query: Query) -> pd.DataFrame:
    mask = np.ones(len(data), dtype=bool)
    for col, values in query.filters:
        if col not in data.columns:
            raise RiskcoreError(f"the filter column {col!r} is not in the table")
        text = data[col].astype("string").fillna(MISSING)
        mask &= text.isin(list(values)).to_numpy(dtype=bool)
    if query.column is not None and query.column not in data.columns:
        raise RiskcoreError(f"the column {query.column!r} is not in the table")
    return data.loc[mask]


def _numeric(rows: pd.DataFrame, column: str) -> np.ndarray:
    values = pd.to_numeric(rows[column], errors="coerce").to_numpy(dtype=float)
    return values


def _histogram(rows: pd.DataFrame, query: Query) -> tuple[tuple[str, ...], np.ndarray]:
    text = rows[query.column].astype("string").fillna(MISSING)
    counts = text.value_counts(sort=False)
    if query.categories is None:
        labels = tuple(sorted(str(v) for v in counts.index))
    else:
        labels = tuple(dict.fromkeys(str(c) for c in query.categories))
        extra = counts.index.difference(pd.Index(labels))
        if len(extra):
            labels = (*labels, OTHER) if OTHER not in labels else labels
    if len(labels) > MAX_BARS:
        raise RiskcoreError(
            f"{query.column!r} has {len(labels):,} different values; a DP histogram of more "
            f"than {MAX_BARS} bars is mostly noise. Generalize the column first."
        )
    idx = pd.Index(labels)
    mapped = counts.index.where(counts.index.isin(idx), OTHER)
    totals = pd.Series(counts.to_numpy(), index=mapped).groupby(level=0, sort=False).sum()
    return labels, totals.reindex(idx, fill_value=0).to_numpy(dtype=np.int64)


def true_answer(data: pd.DataFrame, query: Query) -> float | tuple[tuple[str, ...], np.ndarray]:
    """Compute the exact, non-private answer (for comparison on the page only).

    Missing values are left out of a sum or mean; a histogram returns
    (labels, counts).
    """
    rows = _filtered(data, query)
    if query.kind == "count":
        return float(len(rows))
    if query.kind == "histogram":
        return _histogram(rows, query)
    x = _numeric(rows, query.column)  # type: ignore[arg-type]
    x = np.clip(x[np.isfinite(x)], *query.bounds)  # type: ignore[misc]
    if query.kind == "sum":
        return float(x.sum())
    return float(x.mean()) if x.size else float("nan")


@dataclass(frozen=True)
class Release:
    """A differentially private answer drawn by OpenDP.

    Attributes
    ----------
    query : Query
    mechanism : str
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
    """

    query: Query
    mechanism: str
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

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out = fields_dict(self)
        out["query"] = self.query.to_dict()
        return out


def _accuracy(mechanism: str, scale: float) -> float:
    if mechanism == "laplace":
        return float(odp.laplacian_scale_to_accuracy(scale, 0.05))
    if mechanism == "discrete_laplace":
        return float(odp.discrete_laplacian_scale_to_accuracy(scale, 0.05))
    if mechanism == "gaussian":
        return float(odp.gaussian_scale_to_accuracy(scale, 0.05))
    return float(odp.discrete_gaussian_scale_to_accuracy(scale, 0.05))


def _noise_builder(mechanism: str, delta: float | None) -> tuple[Any, bool]:
    """Return (build(domain, metric, scale, zcdp=False), is_gaussian).

    ``build`` makes OpenDP's Laplace (pure DP) or Gaussian measurement; a
    Gaussian is converted from zCDP to (epsilon, delta) at ``delta`` unless
    ``zcdp=True`` asks for the zCDP measurement itself (for the ledger's rho).
    """
    gaussian = mechanism in ("gaussian", "discrete_gaussian")
    if gaussian and not (delta is not None and 0 < delta < 1):
        raise ValueError("a Gaussian release needs 0 < delta < 1")

    def build(domain: Any, metric: Any, scale: float, zcdp: bool = False) -> Any:
        if gaussian:
            meas = odp.m.make_gaussian(domain, metric, scale=scale)
            return meas if zcdp else odp.c.make_fix_delta(odp.c.make_zCDP_to_approxDP(meas), delta)
        return odp.m.make_laplace(domain, metric, scale=scale)

    return build, gaussian


def _calibrate(
    make_chain: Any, d_in: Any, epsilon: float, delta: float | None, gaussian: bool
) -> float:
    """Find the smallest scale whose OpenDP-certified cost is within (epsilon, delta)."""
    d_out = (epsilon, delta) if gaussian else epsilon
    try:
        return float(odp.binary_search_param(make_chain, d_in=d_in, d_out=d_out, T=float))
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
    sens: Sensitivity
    labels: tuple[str, ...] | None
    notes: tuple[str, ...]


def _plan_counts(rows: pd.DataFrame, query: Query, neighbouring: str, mechanism: str) -> _Plan:
    notes: list[str] = []
    labels: tuple[str, ...] | None = None
    if query.kind == "count":
        answer: Any = len(rows)
        sens = sensitivity("count", neighbouring=neighbouring)  # type: ignore[arg-type]
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
        sens = sensitivity("histogram", neighbouring=neighbouring)  # type: ignore[arg-type]
    gaussian = mechanism in ("gaussian", "discrete_gaussian")
    discrete = mechanism.startswith("discrete")
    T: type = int if discrete else float
    atom = odp.atom_domain(T=T) if discrete else odp.atom_domain(T=T, nan=False)
    norm = sens.l2 if gaussian else sens.l1
    if query.kind == "count":
        domain, metric, arg = atom, odp.absolute_distance(T=T), T(answer)
        d_in: Any = T(norm)
    else:
        domain, arg = odp.vector_domain(atom), [T(v) for v in answer]
        if gaussian:  # an f64 L2 metric takes the sqrt(2) of change-one exactly
            metric, d_in = odp.l2_distance(T=float), float(norm)
        else:
            metric, d_in = odp.l1_distance(T=T), T(norm)
    return _Plan(None, domain, metric, d_in, arg, sens, labels, tuple(notes))


def _plan_numeric(rows: pd.DataFrame, query: Query, neighbouring: str) -> _Plan:
    x = _numeric(rows, query.column)  # type: ignore[arg-type]
    lo, hi = (float(b) for b in query.bounds)  # type: ignore[union-attr]
    finite = np.isfinite(x)
    missing = int((~finite).sum())
    notes: list[str] = []
    free = odp.vector_domain(odp.atom_domain(T=float, nan=False))
    if neighbouring == "add_remove":
        x = x[finite]
        if missing:
            notes.append(f"{missing:,} rows without a number were left out")
        d_in = 1
    else:
        x = np.where(finite, x, (lo + hi) / 2.0)
        if missing:
            notes.append(
                f"{missing:,} rows without a number count as the midpoint {(lo + hi) / 2:g}"
            )
        d_in = 2  # changing one row is symmetric distance 2
    if x.size == 0:
        raise RiskcoreError(f"no numeric values of {query.column!r} match the query")
    sized = odp.vector_domain(odp.atom_domain(T=float, nan=False), size=int(x.size))
    sym = odp.symmetric_distance()
    if query.kind == "sum":
        sens = sensitivity("sum", neighbouring=neighbouring, bounds=(lo, hi))  # type: ignore[arg-type]
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
        sens = sensitivity("mean", neighbouring="add_remove", bounds=(lo, hi), n=n_pub)
        pre = (
            odp.t.make_clamp(free, sym, bounds=(lo, hi))
            >> odp.t.then_resize(size=n_pub, constant=(lo + hi) / 2.0)
            >> odp.t.then_mean()
        )
    else:
        sens = sensitivity("mean", neighbouring="change_one", bounds=(lo, hi), n=int(x.size))
        pre = odp.t.make_clamp(sized, sym, bounds=(lo, hi)) >> odp.t.then_mean()
    return _Plan(
        pre, pre.output_domain, pre.output_metric, d_in, x.tolist(), sens, None, tuple(notes)
    )


def release(
    data: pd.DataFrame,
    query: Query,
    *,
    epsilon: float,
    mechanism: ReleaseMechanism = "laplace",
    neighbouring: Literal["add_remove", "change_one"] = "add_remove",
    delta: float | None = None,
    ledger: PrivacyLedger,
) -> tuple[Release, PrivacyLedger]:
    """Release a differentially private answer through OpenDP and charge the ledger.

    Parameters
    ----------
    data : DataFrame
    query : Query
    epsilon : float, keyword-only
        Requested epsilon; OpenDP's certified cost never exceeds it.
    mechanism : {"laplace", "gaussian", "discrete_laplace", "discrete_gaussian"}
        Discrete mechanisms apply to counts and histograms only.
    neighbouring : {"add_remove", "change_one"}
    delta : float, optional
        Required by the Gaussian mechanisms.
    ledger : PrivacyLedger
        The session's ledger; the release is refused (before any noise is
        drawn) when it would exceed the budget.

    Returns
    -------
    (Release, PrivacyLedger)
        The release and the ledger with it charged.

    Raises
    ------
    BudgetExceededError
        When the budget would be exceeded.
    RiskcoreError
        For queries that cannot be answered (unknown column, no values).
    """
    if not (epsilon > 0 and math.isfinite(epsilon)):
        raise ValueError("epsilon must be positive and finite")
    if mechanism not in ("laplace", "gaussian", "discrete_laplace", "discrete_gaussian"):
        raise ValueError(f"unknown mechanism {mechanism!r}")
    if mechanism.startswith("discrete") and query.kind not in ("count", "histogram"):
        raise RiskcoreError(
            "discrete mechanisms release integer counts: use Laplace or Gaussian for a sum or mean"
        )
    build, gaussian = _noise_builder(mechanism, delta)
    rows = _filtered(data, query)
    if query.kind in ("count", "histogram"):
        plan = _plan_counts(rows, query, neighbouring, mechanism)
    else:
        plan = _plan_numeric(rows, query, neighbouring)

    def chain(scale: float, zcdp: bool = False) -> Any:
        noise = build(plan.domain, plan.metric, scale, zcdp)
        return noise if plan.pre is None else plan.pre >> noise

    scale = _calibrate(chain, plan.d_in, epsilon, delta, gaussian)
    meas = chain(scale)
    cost = meas.map(plan.d_in)
    if gaussian:
        eps_c, delta_c = float(cost[0]), float(cost[1])
        rho: float | None = float(chain(scale, zcdp=True).map(plan.d_in))
    else:
        eps_c, delta_c, rho = float(cost), 0.0, None
    groups = len(plan.labels) if plan.labels else 1
    # Charge first: a refused release must not draw (or reveal) any noise.
    new_ledger = ledger.charge(
        LedgerEntry(query.describe(), mechanism, eps_c, delta_c, rho, groups)
    )
    raw = meas(plan.arg)
    value: float | tuple[float, ...] = (
        tuple(float(v) for v in raw) if isinstance(raw, (list, tuple)) else float(raw)
    )
    rel = Release(
        query,
        mechanism,
        neighbouring,
        value,
        plan.labels,
        eps_c,
        delta_c,
        rho,
        scale,
        plan.sens,
        _accuracy(mechanism, scale),
        plan.notes,
    )
    return rel, new_ledger


def release_sample_aggregate(
    result: SampleAggregate, *, ledger: PrivacyLedger
) -> tuple[float, float, PrivacyLedger]:
    """Release a sample-and-aggregate estimate with OpenDP Laplace noise.

    The mean of k clamped block values moves by at most (hi - lo) / k when
    one person changes (they sit in one block), so OpenDP's Laplace on that
    scalar, at d_in = (hi - lo) / k, is calibrated to ``result.epsilon``.

    Returns
    -------
    (value, epsilon, ledger)
        The noisy estimate, OpenDP's certified epsilon, the charged ledger.
    """
    d_in = float(result.sensitivity)
    atom = odp.atom_domain(T=float, nan=False)

    def chain(scale: float) -> Any:
        return odp.m.make_laplace(atom, odp.absolute_distance(T=float), scale=scale)

    scale = _calibrate(chain, d_in, result.epsilon, None, False)
    meas = chain(scale)
    eps_c = float(meas.map(d_in))
    new = ledger.charge(
        LedgerEntry(f"sample-and-aggregate {result.statistic} (k = {result.k})", "laplace", eps_c)
    )
    return float(meas(float(result.aggregate))), eps_c, new
