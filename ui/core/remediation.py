"""The session's remediation: the recipe in use and whether pages show the generalized table.

Kept apart from :mod:`ui.core.state` so that the before / after switch has one
home. ``Reset session`` forgets it with every other session key.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import streamlit as st

from ui.core import keys

if TYPE_CHECKING:
    import pandas as pd

    from riskcore.deidentify.history.base import History
    from riskcore.deidentify.recipe.base import Recipe
    from ui.core.context import Context

__all__ = [
    "active",
    "after_key",
    "clear",
    "history",
    "menu_choice",
    "raw_identifiers_warning",
    "recipe_json",
    "set_history",
    "set_recipe",
    "show_on_page",
    "showing_after",
]


def active(dataset_key: str) -> dict[str, Any] | None:
    """Return the recipe chosen for this dataset, or None."""
    rem = st.session_state.get(keys.REMEDIATION)
    if rem is None or rem["for"] != dataset_key:
        return None
    recipe: dict[str, Any] = rem["recipe"]
    return recipe


def history(dataset_key: str) -> History:
    """Return the dataset's history of remediation steps (empty when none was applied).

    Parameters
    ----------
    dataset_key : str

    Returns
    -------
    History
    """
    from riskcore.deidentify.history.base import History

    kept = st.session_state.get(keys.REM_HISTORY)
    if kept is None or kept["for"] != dataset_key or not isinstance(kept["history"], History):
        return History()
    found: History = kept["history"]
    return found


def set_history(dataset_key: str, value: History | None) -> None:
    """Make ``value`` the dataset's history (None forgets it).

    Parameters
    ----------
    dataset_key : str
    value : History or None
    """
    if value is None:
        st.session_state.pop(keys.REM_HISTORY, None)
    else:
        st.session_state[keys.REM_HISTORY] = {"for": dataset_key, "history": value}


def set_recipe(dataset_key: str, recipe: dict[str, Any]) -> None:
    """Make ``recipe`` the dataset's remediation and show the generalized table everywhere."""
    st.session_state[keys.REMEDIATION] = {"for": dataset_key, "recipe": recipe}
    st.session_state[keys.VIEW_AFTER] = True


def clear() -> None:
    """Forget the remediation (pages show the table as recorded)."""
    st.session_state.pop(keys.REMEDIATION, None)
    st.session_state[keys.VIEW_AFTER] = False


def showing_after(dataset_key: str) -> bool:
    """Return True when the pages assess the generalized table of this dataset."""
    return active(dataset_key) is not None and bool(st.session_state.get(keys.VIEW_AFTER, False))


def recipe_json(recipe: dict[str, Any]) -> str:
    """Return the recipe as canonical JSON (the cache key of the generalized table)."""
    return json.dumps(recipe, sort_keys=True)


def after_key(dataset_key: str, recipe: dict[str, Any]) -> str:
    """Return the dataset key of the generalized table: the dataset's and the recipe's."""
    digest = hashlib.sha256(recipe_json(recipe).encode()).hexdigest()[:16]
    return f"{dataset_key}-generalized-{digest}"


def menu_choice(step: Mapping[str, Any]) -> str:
    """Return the Direct identifiers tab's menu choice of a recipe's masking step
    (``"hmac_tokens"``, ``"surrogates:name"``)."""
    from riskcore.deidentify.masking import get_operator

    op = get_operator(str(step["operator"]))
    params = step.get("params") or {}
    if op.variant and op.variant in params:
        return f"{op.name}:{params[op.variant]}"
    return op.name


def show_on_page(dataset_key: str, recipe: Mapping[str, Any], data: pd.DataFrame | None) -> None:
    """Make the Remediate page show ``recipe``: its levels, hierarchies and masking choices.

    Without this a reopened assessment left the level sliders at 0 while every other
    page assessed the recipe's levels. The page's store (:data:`ui.core.keys.REM_STORE`) gets
    the recipe's levels and its hierarchies (only those that are not the column's default,
    when ``data`` is given), and the widgets are seeded afresh from it; the Direct
    identifiers tab's choices are set from the recipe's masking and date-shift steps.
    """
    from riskcore.deidentify.hierarchy import default_hierarchy

    # "qis" in a recipe of version 7 or before (saved before the rename)
    qis = [str(q) for q in recipe.get("quasi_identifiers", recipe.get("qis", ()))]
    levels = [int(v) for v in recipe.get("levels", ())]
    specs = dict(recipe.get("hierarchies") or {})
    if data is not None:
        specs = {
            q: spec
            for q, spec in specs.items()
            if q not in data.columns or default_hierarchy(data[q]).recipe() != spec
        }
    store: dict[str, Any] = {"for": dataset_key, "hier": specs}
    for q, lv in zip(qis, levels, strict=False):
        store[f"level_{q}"] = lv
        st.session_state.pop(keys.rem_level(q), None)  # seeded again from the store
    store["hier_ver"] = int(st.session_state.get(keys.REM_STORE, {}).get("hier_ver", 0)) + 1
    st.session_state[keys.REM_STORE] = store
    # the choices the Remediate page seeds its widgets from (ui.core.work.choices): a widget key
    # set here, where no widget is drawn, would outlive the widget
    masking = {str(m["column"]): menu_choice(m) for m in recipe.get("masking") or ()}
    for col in masking:
        st.session_state.pop(keys.rem_operator(col), None)
    shift = recipe.get("date_shift")
    for widget in (keys.REM_SHIFT_COLS, keys.REM_SHIFT_PERSON, keys.REM_SHIFT_DAYS):
        st.session_state.pop(widget, None)
    st.session_state[keys.work("choices")] = {
        "for": dataset_key,
        "masking": masking,
        "shift": None
        if not shift
        else {
            "columns": [str(c) for c in shift["columns"]],
            "person": str(shift["person"]),
            "max_days": int(shift["max_days"]),
        },
    }


def raw_identifiers_warning(ctx: Context, recipe: Recipe) -> tuple[str, ...]:
    """Warn that a download carries detected direct identifiers as they are (issue 37).

    The detection is the Data page's suggestions (cached) and the columns tagged as direct
    identifiers or the person; a column the recipe masks, drops or transforms is not named.

    Parameters
    ----------
    ctx : Context
        The page's context (the table as recorded, its suggestions and roles).
    recipe : Recipe
        What the download applies.

    Returns
    -------
    tuple of str
        The columns named (``--allow-identifiers`` of the command script); empty when none.
    """
    from riskcore.deidentify.recipe.identifiers import detect_identifiers, untreated_identifiers
    from riskcore.report.readings import raw_identifiers_note
    from ui.core.safe import md

    tagged = (*ctx.roles.identifiers, *ctx.roles.persons)
    found = detect_identifiers(ctx.table.data, tagged=tagged, suggestions=ctx.suggestions)
    bare = untreated_identifiers(recipe, found)
    if bare:
        st.warning(md(raw_identifiers_note(bare)))
    return tuple(d.column for d in bare)
