"""The session's assessment profile: one :class:`riskcore.profile.Profile`, read by every page.

The widgets keep what they set (the targets, the missing-value policy, the sampling
fraction, the t-closeness distances, value orders and hierarchies of every column ever
chosen, the release context) in one frozen :class:`SessionSettings` under
``keys.TARGETS``, and the roles of the table in use as a frozen
:class:`riskcore.roles.ColumnRoles` under ``keys.ROLES`` (for the dataset
``keys.ROLES_FOR``); the recipe in use lives in :mod:`ui.core.remediation`. A widget
replaces them through the functions here (:func:`update`, :func:`set_targets`,
:func:`set_distance`, :func:`set_order`, :func:`load_sensitive_hierarchy`,
:func:`set_roles`), never changes them in place. :func:`current` is the one function that
makes them the profile every page judges by (Anonymity, Remediate, Records, Report and
Saved assessments): the session keeps that frozen ``Profile`` itself under
``keys.PROFILE``, made again (a new object, with a new
:attr:`~riskcore.profile.Profile.cache_key`) only when a widget changed what it is made
of, so a rerun that changes nothing builds, writes and parses no profile, and the cached
wrappers key on its ``cache_key``. :func:`derived` keeps the profiles a page makes from it
the same way. :func:`restore` is the one function that makes a saved profile the session's.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import streamlit as st

from riskcore.criteria import Targets
from riskcore.criteria.context import Context as ReleaseContext
from riskcore.deidentify.recipe.base import Recipe
from riskcore.errors import RiskcoreError
from riskcore.profile import DEFAULT_TARGETS, Profile
from riskcore.roles import ROLES as ROLE_NAMES
from riskcore.roles import ColumnRoles
from ui.core import keys, remediation

if TYPE_CHECKING:
    from collections.abc import Callable

    import pandas as pd

    from ui.core.context import Context

__all__ = [
    "SessionSettings",
    "column_key",
    "current",
    "derived",
    "load_sensitive_hierarchy",
    "missing",
    "restore",
    "role_mapping",
    "roles",
    "seed",
    "sensitive_hierarchy",
    "set_distance",
    "set_order",
    "set_roles",
    "set_targets",
    "settings",
    "targets",
    "threshold",
    "update",
]


def column_key(dataset_key: str, column: str) -> str:
    """Return the key of a column's own settings (its t-closeness distance, value order and
    hierarchy): ``"dataset key:column"``, so each table keeps its own."""
    return f"{dataset_key}:{column}"


def _frozen(
    mapping: Mapping[str, Any], value: Callable[[Any], Any] = lambda v: v
) -> Mapping[str, Any]:
    """Return a read-only copy of ``mapping``, each value made by ``value``."""
    return MappingProxyType({str(k): value(v) for k, v in mapping.items()})


def _new_token() -> str:
    return secrets.token_hex(4)


@dataclass(frozen=True)
class SessionSettings:
    """What the widgets set for the session's profile, frozen: a widget replaces it
    (:func:`update`), never changes it in place.

    Attributes
    ----------
    targets : Targets
        The targets every page judges by (the k = 11 preset in a new session).
    missing : str
        The missing-value policy: "own" (a value of its own) or "any" (matches any value).
    sampling_fraction : float
        n / N of a sample; 0 when the table is the whole population.
    distances : Mapping of str to str
        The t-closeness distance chosen for each column (:func:`column_key`), read-only.
    orders : Mapping of str to tuple
        The value order of each column with the ordered distance, read-only.
    hierarchies : Mapping of str to tuple of tuples
        The hierarchy rows of each sensitive column with the hierarchical distance
        (uploaded or restored), read-only.
    context : riskcore.criteria.context.Context or None
        The release context the targets were chosen from.
    widget_token : str
        Part of every target widget's key: new settings (a reset, a restored profile) or
        targets changed outside the editor bring a new token, so the widgets start again
        from these values.
    drawn : Targets or None
        The targets the editor drew last (targets that differ were changed elsewhere).
    """

    targets: Targets = DEFAULT_TARGETS
    missing: str = "own"
    sampling_fraction: float = 0.0
    distances: Mapping[str, str] = field(default_factory=dict)
    orders: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    hierarchies: Mapping[str, tuple[tuple[Any, ...], ...]] = field(default_factory=dict)
    context: ReleaseContext | None = None
    widget_token: str = field(default_factory=_new_token)
    drawn: Targets | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.targets, Targets):
            raise TypeError(f"targets must be Targets, not {type(self.targets).__name__}")
        object.__setattr__(self, "sampling_fraction", float(self.sampling_fraction))
        object.__setattr__(self, "distances", _frozen(self.distances, str))
        object.__setattr__(self, "orders", _frozen(self.orders, tuple))
        rows = _frozen(self.hierarchies, lambda h: tuple(tuple(r) for r in h))
        object.__setattr__(self, "hierarchies", rows)

    def attributes(
        self, dataset_key: str, sensitive: tuple[str, ...]
    ) -> tuple[dict[str, str], dict[str, tuple[Any, ...]], dict[str, Any]]:
        """Return the distances, value orders and hierarchies of ``sensitive`` in the table
        ``dataset_key`` as a profile holds them: an order only with the ordered distance, the
        hierarchical distance only once its hierarchy is given.

        Parameters
        ----------
        dataset_key : str
            The table's key.
        sensitive : tuple of str
            Its sensitive attributes.

        Returns
        -------
        tuple of dict
            ``(distances, orders, hierarchies)`` keyed by attribute.
        """
        distances, orders, trees = {}, {}, {}
        for s in sensitive:
            col = column_key(dataset_key, s)
            if col in self.distances:
                distances[s] = self.distances[col]
            if distances.get(s) == "ordered" and self.orders.get(col):
                orders[s] = self.orders[col]
            if col in self.hierarchies:
                trees[s] = self.hierarchies[col]
            elif distances.get(s) == "hierarchical":  # chosen, its hierarchy not given yet
                del distances[s]
        return distances, orders, trees


def settings() -> SessionSettings:
    """Return the session's profile settings (a new session's: the k = 11 preset, the table
    as the population)."""
    found = st.session_state.get(keys.TARGETS)
    if not isinstance(found, SessionSettings):  # a new session (or an older session's dict)
        found = st.session_state[keys.TARGETS] = SessionSettings()
    return found


def update(**changes: Any) -> SessionSettings:
    """Replace the session's settings by a copy with ``changes`` (fields of
    :class:`SessionSettings`); the same object when nothing changed, so the profile is not
    made again.

    Parameters
    ----------
    **changes
        New values of fields of :class:`SessionSettings`.

    Returns
    -------
    SessionSettings
        The session's settings after the change.
    """
    now = settings()
    if all(getattr(now, name) == value for name, value in changes.items()):
        return now
    new = st.session_state[keys.TARGETS] = dataclasses.replace(now, **changes)
    return new


def seed(key: str, value: object) -> str:
    """Return the widget key ``key``, its value seeded with ``value`` when it has none.

    Keyed widgets forget their value on a page switch, and a widget whose default follows
    its own last value gets a new identity on every change and drops every second edit; so
    a widget of the settings is keyed and seeded from them. Its key carries the settings'
    :attr:`~SessionSettings.widget_token`, so new settings (a reset, a restored profile) or
    targets changed elsewhere start it again from them.

    Parameters
    ----------
    key : str
        The widget's key, the widget token in it.
    value : object
        Its value when it has none.

    Returns
    -------
    str
    """
    if key not in st.session_state:
        st.session_state[key] = value
    return key


def targets() -> Targets:
    """Return the session's targets."""
    return settings().targets


def threshold() -> float:
    """Return the record-risk threshold the figures count records at risk by (1/11 by default)."""
    crit = targets().find("record-risk")
    return float(getattr(crit, "threshold", 1 / 11))


def missing() -> str:
    """Return the session's missing-value policy ("own" or "any")."""
    return settings().missing


def set_targets(new: Targets) -> None:
    """Make ``new`` the session's targets (every page judges by them)."""
    update(targets=new)


def set_distance(dataset_key: str, column: str, distance: str) -> None:
    """Make ``distance`` the t-closeness distance of ``column`` of the table ``dataset_key``."""
    now = settings().distances
    update(distances={**now, column_key(dataset_key, column): distance})


def set_order(dataset_key: str, column: str, order: list[Any] | tuple[Any, ...]) -> None:
    """Make ``order`` the value order of ``column`` of the table ``dataset_key`` (the ordered
    t-closeness distance)."""
    now = settings().orders
    update(orders={**now, column_key(dataset_key, column): tuple(order)})


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
    update(hierarchies={**settings().hierarchies, column_key(dataset_key, column): rows})


def sensitive_hierarchy(dataset_key: str, column: str) -> Any:
    """Return the session's hierarchy rows of a sensitive column (hierarchical t-closeness
    distance, from a restored profile), or None."""
    return settings().hierarchies.get(column_key(dataset_key, column))


def roles(dataset_key: str) -> ColumnRoles | None:
    """Return the session's roles of the table ``dataset_key``, None when it has none yet.

    Parameters
    ----------
    dataset_key : str
        The table's key.

    Returns
    -------
    ColumnRoles or None
    """
    found = st.session_state.get(keys.ROLES)
    if st.session_state.get(keys.ROLES_FOR) != dataset_key or not isinstance(found, ColumnRoles):
        return None
    return found


def role_mapping() -> dict[str, str]:
    """Return the session's roles as ``{column: role}`` (a new dict; empty when none)."""
    found = st.session_state.get(keys.ROLES)
    return found.to_mapping() if isinstance(found, ColumnRoles) else {}


def set_roles(dataset_key: str, mapping: Mapping[str, str]) -> ColumnRoles:
    """Make ``{column: role}`` the session's roles of the table ``dataset_key`` (a role not
    among :data:`riskcore.roles.ROLES` is left out).

    Parameters
    ----------
    dataset_key : str
        The table's key.
    mapping : Mapping of str to str
        The role of each column.

    Returns
    -------
    ColumnRoles
        The session's roles, the same object when they did not change.
    """
    new = ColumnRoles.from_mapping({c: r for c, r in mapping.items() if r in ROLE_NAMES})
    if roles(dataset_key) != new:
        st.session_state[keys.ROLES] = new
        st.session_state[keys.ROLES_FOR] = dataset_key
    found: ColumnRoles = st.session_state[keys.ROLES]
    return found


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
    sf = tg.sampling_fraction
    distances, orders, trees = tg.attributes(ctx.key, ctx.roles.sensitive)
    spec = remediation.active(ctx.key)
    steps = remediation.history(ctx.key)
    fields: dict[str, Any] = {
        "history": steps if steps.steps else None,
        "roles": ctx.roles,
        "targets": tg.targets,
        "missing": tg.missing,
        "sampling_fraction": sf if sf > 0 and weights is None else None,
        "distances": distances,
        "orders": orders,
        "context": tg.context,
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
    target widgets start again from the restored values (new settings, a new widget token),
    and the Remediate page's levels, hierarchies and masking choices show the
    recipe (:func:`ui.core.remediation.show_on_page`; ``data``, the table, tells its
    own hierarchies from the defaults).
    """
    mapping = {str(c): "other" for c in columns}
    mapping.update(profile.roles.to_mapping())
    set_roles(dataset_key, mapping)
    st.session_state[keys.TARGETS] = SessionSettings(  # a new widget token: widgets reseed
        targets=profile.targets,
        missing=profile.missing,
        sampling_fraction=float(profile.sampling_fraction or 0.0),
        distances={column_key(dataset_key, s): d for s, d in profile.distances.items()},
        orders={column_key(dataset_key, s): o for s, o in profile.orders.items()},
        hierarchies={
            column_key(dataset_key, s): rows for s, rows in profile.sensitive_hierarchies.items()
        },
        context=profile.context,  # the release context the targets were chosen from
    )
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
