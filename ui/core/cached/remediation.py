"""Cached wrappers of remediation: hierarchies, the generalization lattice and its search, the
generalized table, HIPAA Safe Harbor, masking, date shifts and the free-text scan.

Every wrapper follows :mod:`ui.core.cached`'s rules: the dataset key and every parameter as
arguments, no hidden state, ``scope="session"`` with ``max_entries``. Pages reach them as
``cached.<name>`` (re-exported there).

The least-loss search is kept in session state (:data:`ui.core.keys.REM_SEARCHES`), not in a
cache: a cached function could not draw its progress bar.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import streamlit as st

from riskcore.criteria import Verdict
from riskcore.deidentify.hierarchy import Hierarchy, default_hierarchy, hierarchy_from_spec
from riskcore.deidentify.masking import (
    EnumerationResult,
    SecretKey,
    enumeration_attack,
    parse_choice,
    shift_dates,
)
from riskcore.deidentify.recipe.apply import AppliedRecipe, apply_recipe
from riskcore.deidentify.safe_harbor import (
    SafeHarborCheck,
    SafeHarborTransform,
    apply_safe_harbor,
    safe_harbor_check,
)
from riskcore.deidentify.search.lattice import Lattice, NodeResult
from riskcore.deidentify.search.run import SearchResult, evaluate_all, search
from riskcore.deidentify.search.steering import Steering
from riskcore.engine import EncodedTable
from riskcore.freetext import MAX_CHARS, PiiScan, scan_free_text, scan_text
from riskcore.io import LoadedTable
from riskcore.profile import Profile
from riskcore.roles import ColumnRoles, RoleSuggestions
from riskcore.utility.objectives import Objective
from riskcore.workguard import Deadline, time_limit
from ui.core import keys

__all__ = [
    "ALL_NODES_UP_TO",
    "applied",
    "enumeration",
    "hierarchies",
    "lattice",
    "lattice_search",
    "masked",
    "node",
    "pii_scan",
    "release_verdict",
    "remediated",
    "remediated_view",
    "safe_harbor",
    "safe_harbor_applied",
    "searched",
    "shifted",
]


@st.cache_resource(scope="session", max_entries=4, show_spinner=False)
def hierarchies(
    key: str, _table: LoadedTable, qis: tuple[str, ...], specs_json: str = "{}"
) -> dict[str, Hierarchy]:
    """Return the hierarchy of each QI: the user's (``specs_json``: QI to
    ``Hierarchy.recipe()``, checked when it was given), else the default one."""
    specs = json.loads(specs_json)
    return {
        q: hierarchy_from_spec(_table.data[q], specs[q])
        if q in specs
        else default_hierarchy(_table.data[q])
        for q in qis
    }


@st.cache_resource(scope="session", max_entries=3, show_spinner="Tabulating the classes ...")
def lattice(
    key: str,
    _enc: EncodedTable,
    _hierarchies: dict[str, Hierarchy],
    qis: tuple[str, ...],
    profile_key: str,
    _profile: Profile,
    specs_json: str = "{}",
    steering_json: str = "{}",
    population_key: str = "",
    _population: pd.DataFrame | None = None,
) -> Lattice:
    """Return the generalization lattice of the QIs for one profile and set of hierarchies.

    ``_profile`` is the session's :class:`~riskcore.profile.Profile` (its roles, the person
    among them, targets, missing-value policy, distances, orders and population model) and
    ``profile_key`` its :attr:`~riskcore.profile.Profile.cache_key` (the profile is neither
    hashed nor written and read again as JSON on a call): the lattice judges every node by
    the same criteria as every other page, in people when the roles have a person (every
    node's classes, k and suppression).
    ``steering_json`` is the search's weights and level bounds
    (:class:`~riskcore.deidentify.search.steering.Steering`).
    ``_population`` is the population table k-map and delta-presence targets are judged
    against (matched on the Records page), ``population_key`` its cache key.
    """
    p = _profile
    steer = json.loads(steering_json)
    return Lattice(
        _enc,
        {q: _hierarchies[q] for q in qis},
        sensitive=p.roles.sensitive,
        targets=p.targets,
        distance=p.distances,  # type: ignore[arg-type]
        order=p.orders,
        sensitive_hierarchies=p.sensitive_hierarchies,
        missing=p.missing,
        sampling_fraction=p.sampling_fraction,
        weights=p.roles.weight,
        steering=Steering.from_dict(steer) if steer else None,
        population_table=_population if p.targets.needs_population_table else None,
        person=p.roles.person,
    )


@st.cache_resource(scope="session", max_entries=16, show_spinner=False)
def node(key: str, _lattice: Lattice, lattice_key: str, levels: tuple[int, ...]) -> NodeResult:
    """Return one node's evaluation (a regrouping of the classes: milliseconds)."""
    return _lattice.evaluate(levels)


#: Lattices up to this many nodes are evaluated whole for the risk-loss plot (about 1 ms a
#: node on 32,561 rows), so the plot shows every trade-off, not only the nodes the search
#: needed.
ALL_NODES_UP_TO = 3_000


#: What to do when the search runs past its time budget (riskcore.workguard.Deadline).
SEARCH_ADVICE = (
    "pin some levels or narrow their bounds under Steering, use fewer quasi-identifiers or "
    "shorter hierarchies, or run riskcore anonymize on the command line"
)


def lattice_search(
    lattice_key: str, _lattice: Lattice, objective: Objective = "ncp"
) -> SearchResult:
    """Return the least-loss search over the lattice, with a progress bar.

    Kept in session state for the last two lattices (a cached function could
    not draw the bar).
    """
    kept: dict = st.session_state.setdefault(keys.REM_SEARCHES, {})
    if lattice_key in kept:
        return kept[lattice_key]
    bar = st.progress(0.0, text=f"Searching {_lattice.size:,} combinations of levels ...")

    def step(done: int, total: int) -> None:
        bar.progress(
            min(done / total, 1.0),
            text=f"Evaluated {done:,} of at most {total:,} combinations of levels",
        )

    deadline = Deadline(time_limit(), "The least-loss search", SEARCH_ADVICE)
    try:
        result = search(_lattice, objective=objective, progress=deadline.watch(step))
        if _lattice.size <= ALL_NODES_UP_TO:  # small: every node on the plot
            everything = evaluate_all(_lattice, known=result.visited, progress=deadline.watch(step))
            result = dataclasses.replace(result, visited=everything)
    finally:
        bar.empty()
    while len(kept) >= 2:
        kept.pop(next(iter(kept)))
    kept[lattice_key] = result
    return result


def searched(lattice_key: str) -> SearchResult | None:
    """Return the search already run on this lattice in this session, if any."""
    found: SearchResult | None = st.session_state.get(keys.REM_SEARCHES, {}).get(lattice_key)
    return found


@st.cache_resource(scope="session", max_entries=2, show_spinner="Generalizing the table ...")
def _release(
    key: str, recipe_json: str, _table: LoadedTable
) -> tuple[LoadedTable, np.ndarray, Verdict | None]:
    """Return the table with a recipe applied, the file position of each of its rows, and
    the release's one verdict (see :func:`remediated_view` and :func:`release_verdict`)."""
    applied = apply_recipe(
        _table.data.reset_index(drop=True), json.loads(recipe_json), skip_keyed=True
    )
    rows = applied.data.index.to_numpy(dtype=np.int64)
    table = LoadedTable.from_frame(
        applied.data.reset_index(drop=True),
        name=f"{_table.name}, generalized",
        file_format="remediated",
        notes=(f"{applied.suppressed:,} records suppressed by the recipe",),
    )
    return table, rows, applied.verdict


def remediated_view(
    key: str, recipe_json: str, _table: LoadedTable
) -> tuple[LoadedTable, np.ndarray]:
    """Return the table with a recipe applied (the generalized table every page shows) and,
    per row of it, the position of its record in the file (0-based; suppressed rows are
    gone, so row 41 there is not row 41 of the file).

    Keyed steps (tokens, date shifts) are left out: they change direct identifiers, which no
    risk figure reads, and the session's key is not needed to assess the table.
    """
    table, rows, _ = _release(key, recipe_json, _table)
    return table, rows


def release_verdict(key: str, recipe_json: str, _table: LoadedTable) -> Verdict | None:
    """Return the one verdict of the release a recipe gives: the generalization's, with the
    records (people) it removed and those local suppression blanked counted against the
    limit (:attr:`riskcore.deidentify.recipe.apply.AppliedRecipe.verdict`); None when the
    recipe generalizes nothing."""
    return _release(key, recipe_json, _table)[2]


def remediated(key: str, recipe_json: str, _table: LoadedTable) -> LoadedTable:
    """Return the table with a recipe applied (see :func:`remediated_view`)."""
    return remediated_view(key, recipe_json, _table)[0]


def applied(
    key: str, _data: pd.DataFrame, recipe_json: str, _secret: SecretKey | None
) -> AppliedRecipe:
    """Return a recipe (every step, keyed ones with the session's key) applied to the table:
    what the downloads hold, as ``riskcore apply`` would write it. Not cached: it runs on a
    download's click, and a kept copy of a large table would outlive it."""
    return apply_recipe(_data, json.loads(recipe_json), key=_secret)


@st.cache_resource(scope="session", max_entries=2, show_spinner="Checking Safe Harbor ...")
def safe_harbor(
    key: str,
    _table: LoadedTable,
    _roles: ColumnRoles,
    roles_key: tuple,
    _sugg: RoleSuggestions,
    max_chars: int = MAX_CHARS,
) -> SafeHarborCheck:
    """Return the Safe Harbor checklist of the table (the suggestions' free-text scan reused;
    scanned again when ``max_chars`` is not the default limit)."""
    text = None if max_chars == MAX_CHARS else scan_text(_table.data, max_chars=max_chars)
    return safe_harbor_check(_table.data, _roles, suggestions=_sugg, text=text)


@st.cache_resource(scope="session", max_entries=2, show_spinner="Applying Safe Harbor ...")
def safe_harbor_applied(
    key: str,
    _table: LoadedTable,
    _roles: ColumnRoles,
    roles_key: tuple,
    _sugg: RoleSuggestions,
    max_chars: int = MAX_CHARS,
) -> tuple[SafeHarborTransform, SafeHarborCheck]:
    """Return the table's Safe Harbor transform and the transform's own check (0.7 s per
    million rows, and the free-text scan of what remains)."""
    text = None if max_chars == MAX_CHARS else scan_text(_table.data, max_chars=max_chars)
    done = apply_safe_harbor(_table.data, _roles, suggestions=_sugg, text=text)
    return done, safe_harbor_check(done.data, max_chars=max_chars)


@st.cache_resource(scope="session", max_entries=4, show_spinner="Hashing candidates ...")
def enumeration(key: str, _data: pd.DataFrame, column: str, kind: str) -> EnumerationResult:
    """Return the enumeration attack on a plain SHA-256 of one column."""
    return enumeration_attack(_data[column], kind)


@st.cache_resource(scope="session", max_entries=8, show_spinner="Masking ...")
def masked(
    key: str,
    _data: pd.DataFrame,
    column: str,
    operator: str,
    _secret: SecretKey | None,
    seed: int,
    key_id: str = "",
) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """Return a column masked by one menu choice of the masking registry (a table of that
    column, or of none when the choice drops it), and the surrogates' lookup table (or None).
    ``key_id`` is the key's check value: a new or uploaded key masks again."""
    op, params = parse_choice(operator)
    if any(p.name == "seed" for p in op.params):
        params["seed"] = seed
    done = op.run(_data[[column]], [column], params, _secret)
    return done.data, done.lookup


@st.cache_resource(scope="session", max_entries=4, show_spinner="Shifting dates ...")
def shifted(
    key: str,
    _data: pd.DataFrame,
    person: str,
    columns: tuple[str, ...],
    max_days: int,
    _secret: SecretKey,
    key_id: str,
) -> pd.DataFrame:
    """Return the date columns shifted per person by the session key (``key_id``: its check)."""
    moved = shift_dates(_data, person=person, columns=columns, max_days=max_days, key=_secret)
    return moved[list(columns)]


@st.cache_resource(scope="session", max_entries=2, show_spinner="Scanning free text (Presidio) ...")
def pii_scan(key: str, _data: pd.DataFrame) -> PiiScan:
    """Return Presidio's findings in the table's free-text columns (a few seconds)."""
    return scan_free_text(_data)
