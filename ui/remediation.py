"""The session's remediation: the recipe in use and whether pages show the generalized table.

Kept apart from :mod:`ui.state` so that the before / after switch has one
home. ``Reset session`` forgets it with every other session key.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import streamlit as st

from ui import keys

__all__ = [
    "active",
    "after_key",
    "clear",
    "recipe_json",
    "set_recipe",
    "showing_after",
]


def active(dataset_key: str) -> dict[str, Any] | None:
    """Return the recipe chosen for this dataset, or None."""
    rem = st.session_state.get(keys.REMEDIATION)
    if rem is None or rem["for"] != dataset_key:
        return None
    recipe: dict[str, Any] = rem["recipe"]
    return recipe


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
