"""Cached wrappers of differential privacy: true answers, error curves, the clipping trade-off,
the possible worlds of differential identifiability, sample and aggregate, local DP, and the
person as the unit (rows per person, what a bound on them costs).

Every wrapper follows :mod:`ui.core.cached`'s rules: the dataset key and every parameter as
arguments, no hidden state, ``scope="session"`` with ``max_entries``. Pages reach them as
``cached.<name>`` (re-exported there).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from riskcore import dp as _dp
from riskcore.dp import local as _ldp
from riskcore.dp.release import Query, true_answer
from riskcore.engine import EncodedTable
from riskcore.report.readings import identifiability_worlds

__all__ = [
    "dp_bound_tradeoff",
    "dp_bounded_answer",
    "dp_clipping",
    "dp_curves",
    "dp_rows_per_person",
    "dp_sample_aggregate",
    "dp_true_answer",
    "dp_worlds",
    "ldp_grr",
    "ldp_laplace",
]


@st.cache_resource(scope="session", max_entries=32, show_spinner=False)
def dp_true_answer(key: str, _data: pd.DataFrame, query: Query):
    """Return the exact answer of a query (for comparison on the page)."""
    return true_answer(_data, query)


@st.cache_resource(scope="session", max_entries=32, show_spinner=False)
def dp_bounded_answer(key: str, _data: pd.DataFrame, query: Query, unit: _dp.PrivacyUnit):
    """Return the exact answer of a query on the rows a release reads (at most c per person)."""
    return _dp.bounded_answer(_data, query, unit)


@st.cache_resource(scope="session", max_entries=4, show_spinner=False)
def dp_rows_per_person(key: str, _data: pd.DataFrame, person: str) -> _dp.RowsPerPerson:
    """Return how many rows each person has (read from the data)."""
    return _dp.rows_per_person(_data, person)


@st.cache_resource(scope="session", max_entries=16, show_spinner=False)
def dp_bound_tradeoff(
    key: str,
    _data: pd.DataFrame,
    query: Query,
    sens: _dp.Sensitivity,
    person: str,
    epsilon: float,
    chosen: int,
) -> _dp.BoundTradeoff:
    """Return what each bound c on rows per person costs the query (Laplace noise).

    The bounds run from 1 to the most rows a person has (or the chosen c, if larger), at
    most :data:`riskcore.dp.MAX_ROWS_PER_PERSON`.
    """
    most = dp_rows_per_person(key, _data, person).most_rows
    top = min(max(chosen, most), _dp.MAX_ROWS_PER_PERSON)
    return _dp.bound_tradeoff(
        _data, query, sens, person=person, epsilon=epsilon, chosen=chosen, max_bound=top
    )


@st.cache_resource(scope="session", max_entries=32, show_spinner=False)
def dp_curves(
    key: str,
    answer: float,
    sens: _dp.Sensitivity,
    mechanisms: tuple[str, ...],
    delta: float,
    alpha: float,
) -> dict[str, _dp.ErrorCurve]:
    """Return the error curve of each mechanism over the default epsilon grid."""
    return {
        m: _dp.error_curve(answer, sens, mechanism=m, delta=delta, alpha=alpha) for m in mechanisms
    }


@st.cache_resource(scope="session", max_entries=16, show_spinner=False)
def dp_clipping(
    key: str,
    _data: pd.DataFrame,
    column: str,
    lower: float,
    top: float,
    epsilon: float,
    unit: _dp.PrivacyUnit = _dp.ONE_ROW,
) -> _dp.ClippingTradeoff:
    """Return the clipping trade-off of a column's mean over U in (lower, top].

    With a person unit, on the rows the release reads (at most c per person).
    """
    span = top - lower
    uppers = lower + np.geomspace(span / 1000.0, span, 120)
    return _dp.column_clipping_tradeoff(
        _data, column, lower=lower, uppers=uppers, epsilon=epsilon, unit=unit
    )


@st.cache_resource(scope="session", max_entries=16, show_spinner=False)
def dp_worlds(
    key: str,
    _enc: EncodedTable,
    column: str,
    source: str,
    qis: tuple[str, ...],
    m: int | None,
    seed: int,
    unit: _dp.PrivacyUnit = _dp.ONE_ROW,
) -> tuple[np.ndarray, str]:
    """Return the possible worlds (candidates' values) for differential identifiability.

    With a person unit the candidates are people and a world adds one person's rows.
    """
    return identifiability_worlds(
        _enc, column, source=source, quasi_identifiers=qis, m=m, seed=seed, unit=unit
    )


@st.cache_resource(scope="session", max_entries=16, show_spinner=False)
def dp_sample_aggregate(
    key: str,
    _data: pd.DataFrame,
    column: str,
    x_column: str | None,
    statistic: str,
    k: int,
    bounds: tuple[float, float],
    epsilon: float,
    person: str | None = None,
) -> _dp.SampleAggregate:
    """Return the blocks of a sample-and-aggregate estimate (blocks of people with ``person``)."""
    y = pd.to_numeric(_data[column], errors="coerce").to_numpy(dtype=float)
    x = (
        None
        if x_column is None
        else pd.to_numeric(_data[x_column], errors="coerce").to_numpy(dtype=float)
    )
    persons = None if person is None else _data[person]
    return _dp.sample_and_aggregate(
        y, x=x, statistic=statistic, k=k, bounds=bounds, epsilon=epsilon, persons=persons
    )


@st.cache_resource(scope="session", max_entries=4, show_spinner=False)
def ldp_grr(
    key: str,
    _data: pd.DataFrame,
    column: str,
    epsilon: float,
    seed: int,
    person: str | None = None,
    max_rows: int = 1,
) -> _ldp.GrrResult:
    """Return a simulated randomized-response survey of one column (c reports per person)."""
    persons = None if person is None else _data[person]
    return _ldp.grr_simulate(_data[column], epsilon, seed=seed, persons=persons, max_rows=max_rows)


@st.cache_resource(scope="session", max_entries=4, show_spinner=False)
def ldp_laplace(
    key: str,
    _data: pd.DataFrame,
    column: str,
    epsilon: float,
    bounds: tuple[float, float],
    seed: int,
    person: str | None = None,
    max_rows: int = 1,
) -> _ldp.LaplaceLdpResult:
    """Return a simulated local-Laplace survey of one numeric column (c reports per person)."""
    persons = None if person is None else _data[person]
    return _ldp.laplace_ldp_simulate(
        _data[column],
        epsilon,
        bounds=bounds,
        seed=seed,
        column=column,
        persons=persons,
        max_rows=max_rows,
    )
