"""Cached wrappers of the attacks: linkage (simulated or uploaded auxiliary data, and the
curve against the number of known columns), homogeneity and differencing.

Every wrapper follows :mod:`ui.core.cached`'s rules: the dataset key and every parameter as
arguments, no hidden state, ``scope="session"`` with ``max_entries``. Pages reach them as
``cached.<name>`` (re-exported there).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import streamlit as st

from riskcore.attacks import (
    DifferencingResult,
    HomogeneityResult,
    differencing_attack,
    homogeneity_attack,
)
from riskcore.attacks.linkage import (
    LinkageCurve,
    LinkageResult,
    linkage_attack,
    linkage_curve,
    released_positions,
    row_number_truth,
    simulate_auxiliary,
)
from riskcore.deidentify.recipe.base import generalize_known
from riskcore.engine import EncodedTable
from ui.core import keys

__all__ = [
    "differencing",
    "homogeneity",
    "linkage_curve_simulated",
    "linkage_simulated",
    "linkage_uploaded",
]


def _attacker(
    data: pd.DataFrame,
    known: tuple[str, ...],
    n_targets: int | None,
    seed: int,
    recorded: tuple[pd.DataFrame, str, np.ndarray] | None,
    error_rate: float = 0.0,
    missing_rate: float = 0.0,
    person: str | None = None,
) -> tuple[pd.DataFrame, np.ndarray]:
    """Return the simulated attacker's table and, per target, its record's position in
    ``data`` (-1: suppressed, not released).

    On the table as recorded (``recorded`` None) the attacker knows the values of ``data``.
    On a generalized table, ``recorded`` is (the table as recorded, the recipe's JSON, the
    file position of each generalized row): the attacker knows the people's true values,
    with the same errors, and matches them into the released bands. With ``person`` the
    targets are people, one row each, released when any of their rows is.
    """
    source = data if recorded is None else recorded[0]
    aux, drawn = simulate_auxiliary(
        source,
        known,
        n=n_targets,
        error_rate=error_rate,
        missing_rate=missing_rate,
        seed=seed,
        person=person,
    )
    if recorded is None:
        return aux, drawn
    raw, recipe_json, rows = recorded
    aux = generalize_known(aux, raw, json.loads(recipe_json))
    who = None if person is None else raw[person]
    return aux, released_positions(drawn, rows, len(raw), person=who)


def _release(data: pd.DataFrame, columns: tuple[str, ...], person: str | None) -> pd.DataFrame:
    """Return the released columns, with the person column that links a person's rows."""
    return data[[*columns, *((person,) if person and person not in columns else ())]]


@st.cache_resource(scope="session", max_entries=3, show_spinner="Running the linkage attack ...")
def linkage_simulated(
    key: str,
    _data: pd.DataFrame,
    release_cols: tuple[str, ...],
    known: tuple[str, ...],
    n_targets: int,
    error_rate: float,
    missing_rate: float,
    seed: int,
    sensitive: tuple[str, ...],
    p: float,
    tolerance: tuple[tuple[str, float], ...],
    granularity: tuple[tuple[str, str], ...],
    _recorded: tuple[pd.DataFrame, str, np.ndarray] | None = None,
    person: str | None = None,
) -> LinkageResult:
    """Simulate the attacker's table from the data and join it to the release; on a
    generalized table (``_recorded``, keyed by ``key``) from the true values, matched into
    the released bands (see :func:`_attacker`); with ``person``, in people."""
    aux, truth = _attacker(
        _data, known, n_targets, seed, _recorded, error_rate, missing_rate, person
    )
    return linkage_attack(
        _release(_data, release_cols, person),
        aux,
        list(known),
        truth=truth,
        sensitive=sensitive,
        p=p,
        tolerance=dict(tolerance),
        granularity=dict(granularity),
        person=person,
    )


@st.cache_resource(scope="session", max_entries=2, show_spinner="Running the linkage attack ...")
def linkage_uploaded(
    key: str,
    aux_key: str,
    _data: pd.DataFrame,
    _aux: pd.DataFrame,
    release_cols: tuple[str, ...],
    mapping: tuple[tuple[str, str], ...],
    truth: tuple[str, str | None] | None,
    sensitive: tuple[str, ...],
    p: float,
    tolerance: tuple[tuple[str, float], ...],
    granularity: tuple[tuple[str, str], ...],
    person: str | None = None,
) -> LinkageResult:
    """Join an uploaded auxiliary table to the release (in people with ``person``).

    ``truth`` is (auxiliary id column, released id column), or (auxiliary
    column, None) when the auxiliary column holds release row numbers (1 =
    the first row), for an attacker's table drawn from the data itself.
    """
    release = _release(_data, release_cols, person)
    how: np.ndarray | tuple[str, str] | None = None
    if truth is not None and truth[1] is None:
        how = row_number_truth(_aux, truth[0], len(_data))
    elif truth is not None and truth[1] is not None:
        how = (truth[0], truth[1])
        if truth[1] not in release.columns:
            # the id column may be a direct identifier, left out of the release: add it back
            # under its own name, so that any message names the user's column
            release = release.assign(**{truth[1]: _data[truth[1]].to_numpy()})
    return linkage_attack(
        release,
        _aux,
        dict(mapping),
        truth=how,
        sensitive=sensitive,
        p=p,
        tolerance=dict(tolerance),
        granularity=dict(granularity),
        person=person,
    )


_CURVES_KEPT = 4


def linkage_curve_simulated(
    key: str,
    _data: pd.DataFrame,
    order: tuple[str, ...],
    n_targets: int,
    seed: int,
    _recorded: tuple[pd.DataFrame, str, np.ndarray] | None = None,
    person: str | None = None,
) -> LinkageCurve:
    """Return re-identification against the number of known QIs (error-free attacker).

    One attack per column, with a progress bar; the result (a few rates) is
    kept in session state for the last few settings, since a cached function
    could not draw the bar.
    """
    kept: dict = st.session_state.setdefault(keys.LINKAGE_CURVES, {})
    args = (key, order, n_targets, seed, person)
    if args in kept:
        return kept[args]
    bar = st.progress(0.0, text=f"Adding one column at a time: 0 of {len(order):,} attacks")

    def step(done: int, total: int) -> None:
        bar.progress(
            done / total, text=f"Adding one column at a time: {done:,} of {total:,} attacks"
        )

    aux, truth = _attacker(_data, order, n_targets, seed, _recorded, person=person)
    curve = linkage_curve(
        _release(_data, order, person), aux, order, truth=truth, progress=step, person=person
    )
    bar.empty()
    while len(kept) >= _CURVES_KEPT:
        kept.pop(next(iter(kept)))
    kept[args] = curve
    return curve


@st.cache_resource(scope="session", max_entries=4, show_spinner=False)
def homogeneity(
    key: str,
    _enc: EncodedTable,
    qis: tuple[str, ...],
    sensitive: str,
    p: float,
    c: float,
    person: str | None = None,
) -> HomogeneityResult:
    """Return the classes exposed by the homogeneity attack (of people with ``person``)."""
    return homogeneity_attack(_enc, qis, sensitive, p=p, c=c, person=person)


@st.cache_resource(scope="session", max_entries=16, show_spinner=False)
def differencing(
    key: str,
    _data: pd.DataFrame,
    target: int,
    known: tuple[str, ...],
    aggregate: str,
    column: str | None,
    condition: tuple[tuple[str, object], ...],
    person: str | None = None,
) -> DifferencingResult:
    """Return the differencing attack on one target (counting people with ``person``)."""
    return differencing_attack(
        _data,
        target,
        known,
        aggregate=aggregate,
        column=column,
        condition=dict(condition),
        person=person,
    )
