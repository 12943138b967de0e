"""The session's assessment profile: one :class:`riskcore.profile.Profile`, read by every page.

The widgets keep what they set (the targets, the missing-value policy, the sampling
fraction, the t-closeness distances and value orders of every column ever chosen, the
release context) in ``st.session_state[keys.TARGETS]``, the roles under ``keys.ROLES`` and
the recipe in use in :mod:`ui.core.remediation`. :func:`current` is the one function that makes
them the profile every page judges by (Anonymity, Remediate, Records, Report and Saved
assessments): the session keeps that frozen ``Profile`` itself under ``keys.PROFILE``, made
again (a new object, with a new :attr:`~riskcore.profile.Profile.cache_key`) only when a
widget changed what it is made of, so a rerun that changes nothing builds, writes and
parses no profile, and the cached wrappers key on its ``cache_key``. :func:`derived` keeps
the profiles a page makes from it the same way. :func:`restore` is the one function that
makes a saved profile the session's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import streamlit as st

from riskcore.criteria import Targets
from riskcore.deidentify.recipe.base import Recipe
from riskcore.errors import RiskcoreError
from riskcore.profile import DEFAULT_TARGETS, Profile
from ui.core import keys, remediation, state

if TYPE_CHECKING:
    from collections.abc import Callable

    import pandas as pd

    from ui.core.context import Context

__all__ = [
    "current",
    "derived",
    "load_sensitive_hierarchy",
    "missing",
    "restore",
    "sensitive_hierarchy",
    "set_targets",
    "settings",
    "targets",
    "threshold",
]


def settings() -> dict[str, Any]:
    """Return the session's profile settings (targets, policy, fraction, distances, orders)."""
    tg: dict[str, Any] = st.session_state.setdefault(keys.TARGETS, state.default_targets())
    if not isinstance(tg.get("targets"), Targets):  # an older session's dict
        tg["targets"] = DEFAULT_TARGETS
    return tg


def targets() -> Targets:
    """Return the session's targets."""
    found: Targets = settings()["targets"]
    return found


def threshold() -> float:
    """Return the record-risk threshold the figures count records at risk by (1/11 by default)."""
    crit = targets().find("record-risk")
    return float(getattr(crit, "threshold", 1 / 11))


def missing() -> str:
    """Return the session's missing-value policy ("own" or "any")."""
    return str(settings().get("missing", "own"))


def set_targets(new: Targets) -> None:
    """Make ``new`` the session's targets (every page judges by them)."""
    settings()["targets"] = new


def _attribute_settings(
    dataset_key: str, sensitive: tuple[str, ...]
) -> tuple[dict[str, str], dict[str, tuple[Any, ...]], dict[str, Any]]:
    tg = settings()
    dist_all: dict[str, str] = tg.get("distance", {})
    order_all: dict[str, list[Any]] = tg.get("order", {})
    tree_all: dict[str, Any] = tg.get("hierarchy", {})
    distances, orders, trees = {}, {}, {}
    for s in sensitive:
        col = f"{dataset_key}:{s}"
        if col in dist_all:
            distances[s] = dist_all[col]
        if distances.get(s) == "ordered" and order_all.get(col):
            orders[s] = tuple(order_all[col])
        if col in tree_all:
            trees[s] = tree_all[col]
        elif distances.get(s) == "hierarchical":  # chosen, its hierarchy not given yet
            del distances[s]
    return distances, orders, trees


def load_sensitive_hierarchy(dataset_key: str, raw: bytes, series: pd.Series) -> None:
    """Read an uploaded hierarchy (ARX CSV) of a sensitive column and keep its rows in the
    session (the hierarchical t-closeness distance; saved with the profile).

    Raises
    ------
    RiskcoreError
        When the file cannot be read, leaves out a value, or fails the distance's checks.
    """
    from riskcore.deidentify.hierarchy import load_arx_hierarchy
    from riskcore.metrics.closeness import check_value_hierarchy

    column = str(series.name)
    h = load_arx_hierarchy(raw, series)
    rows = check_value_hierarchy(tuple(zip(*h.levels, strict=True)), column)
    settings().setdefault("hierarchy", {})[f"{dataset_key}:{column}"] = rows


def sensitive_hierarchy(dataset_key: str, column: str) -> Any:
    """Return the session's hierarchy rows of a sensitive column (hierarchical t-closeness
    distance, from a restored profile), or None."""
    return settings().get("hierarchy", {}).get(f"{dataset_key}:{column}")


def current(ctx: Context, *, with_recipe: bool = True) -> Profile:
    """Return the session's profile of the table in ``ctx``: roles, targets, policy, recipe,
    and the Remediate page's history (with the recipe).

    The same object as on the last call while nothing it is made of changed (the session
    keeps it, :data:`ui.core.keys.PROFILE`), so its :attr:`~riskcore.profile.Profile.cache_key`
    is computed once.

    Parameters
    ----------
    ctx : Context
        The page's table and roles.
    with_recipe : bool, default True
        Include the recipe in use for this dataset (every step, masking too) and the
        history of the steps (:func:`ui.core.remediation.history`).

    Returns
    -------
    Profile
    """
    tg = settings()
    weights = ctx.roles.weights[0] if len(ctx.roles.weights) == 1 else None
    sf = float(tg.get("sampling_fraction") or 0.0)
    distances, orders, trees = _attribute_settings(ctx.key, ctx.roles.sensitive)
    spec = remediation.active(ctx.key)
    steps = remediation.history(ctx.key)
    fields: dict[str, Any] = {
        "history": steps if steps.steps else None,
        "roles": ctx.roles,
        "targets": targets(),
        "missing": tg.get("missing", "own"),
        "sampling_fraction": sf if sf > 0 and weights is None else None,
        "distances": distances,
        "orders": orders,
        "context": tg.get("context"),
        "sensitive_hierarchies": trees,
    }
    made: dict[str, _Made] = st.session_state.setdefault(keys.PROFILES_MADE, {})
    # the recipe's JSON object, compared and read once: ui.core.remediation replaces it, never
    # changes it in place, so an unchanged recipe compares by identity (no walk of its levels)
    inputs = {**fields, "recipe": spec}
    kept = made.get(ctx.key)
    if kept is None or kept.inputs != inputs:  # something changed: a new profile
        while len(made) >= _PROFILES_KEPT:
            made.pop(next(iter(made)))
        kept = made[ctx.key] = _Made(inputs, Profile(**fields, recipe=_recipe(spec)))
    st.session_state[keys.PROFILE] = kept.profile
    if with_recipe:
        return kept.profile
    if kept.bare is None:  # the same profile without the recipe and history, made once
        p = kept.profile
        kept.bare = (
            p if p.recipe is None and p.history is None else p.with_(recipe=None, history=None)
        )
    return kept.bare


def derived(name: str, inputs: object, make: Callable[[], Profile]) -> Profile:
    """Return the profile ``make`` builds for one use of a page (the Report page's profile with
    its budget, the Uniqueness page's k-only one), the same object while ``inputs`` are equal.

    The session keeps one per ``name`` (:data:`ui.core.keys.PROFILES_DERIVED`), so a rerun
    that changes nothing neither makes it again nor writes it for its
    :attr:`~riskcore.profile.Profile.cache_key`.

    Parameters
    ----------
    name : str
        What the profile is for (one kept per name).
    inputs : object
        What ``make`` builds it from (a tuple); compared with the last call's by ``==``, a
        tuple's items by identity first, so the session's profile from :func:`current`
        compares at once.
    make : callable
        Builds the profile from ``inputs``; called only when they changed.

    Returns
    -------
    Profile
    """
    kept: dict[str, tuple[Any, Profile]] = st.session_state.setdefault(keys.PROFILES_DERIVED, {})
    found = kept.get(name)
    if found is None or found[0] != inputs:
        found = kept[name] = (inputs, make())
    return found[1]


@dataclass
class _Made:
    """A profile :func:`current` made, what it was made of, and the profile without its recipe."""

    inputs: dict[str, Any]
    profile: Profile
    bare: Profile | None = None


#: Tables the session keeps its profile made for (the table as recorded and generalized), so
#: that moving between pages does not make them again.
_PROFILES_KEPT = 4


def _recipe(spec: dict[str, Any] | None) -> Recipe | None:
    """Return the recipe in use read from its JSON object, None when there is none or it is
    not valid (the Remediate page says why)."""
    if spec is None:
        return None
    try:
        return Recipe.from_dict(spec)
    except (KeyError, TypeError, ValueError, RiskcoreError):
        return None


def restore(
    profile: Profile, dataset_key: str, columns: list[str], data: pd.DataFrame | None = None
) -> None:
    """Make a saved profile the session's: roles, targets, policy, the recipe and its history.

    Every page reads them from the session, so every page shows them. The
    target widgets start again from the restored values (a new settings dict),
    and the Remediate page's levels, hierarchies and masking choices show the
    recipe (:func:`ui.core.remediation.show_on_page`; ``data``, the table, tells its
    own hierarchies from the defaults).
    """
    mapping = {str(c): "other" for c in columns}
    mapping.update(profile.roles.to_mapping())
    st.session_state[keys.ROLES] = mapping
    st.session_state[keys.ROLES_FOR] = dataset_key
    tg = state.default_targets()
    tg["targets"] = profile.targets
    tg["sampling_fraction"] = float(profile.sampling_fraction or 0.0)
    tg["missing"] = profile.missing
    tg["distance"] = {f"{dataset_key}:{s}": d for s, d in profile.distances.items()}
    tg["order"] = {f"{dataset_key}:{s}": list(o) for s, o in profile.orders.items()}
    if profile.context is not None:  # the release context the targets were chosen from
        tg["context"] = profile.context
    tg["hierarchy"] = {
        f"{dataset_key}:{s}": rows for s, rows in profile.sensitive_hierarchies.items()
    }
    st.session_state[keys.TARGETS] = tg
    steps = profile.history
    if steps is None and profile.recipe is not None:  # an older profile: its recipe's steps
        from riskcore.deidentify.history.base import History

        try:
            steps = History.of_recipe(profile.recipe)
        except RiskcoreError:
            steps = None
    remediation.set_history(dataset_key, steps)  # the steps, undo and redo with them
    if profile.recipe is not None:
        recipe = profile.recipe.to_dict()
        remediation.set_recipe(dataset_key, recipe)
        remediation.show_on_page(dataset_key, recipe, data)
    else:
        remediation.clear()
        st.session_state.pop(keys.REM_STORE, None)  # the levels start again at 0
