"""Saved assessments in the session: the store, the user's name, restoring a saved profile.

The database is :class:`riskcore.store.Store` at ``RISKCORE_DB`` (else the
user's data directory), opened afresh on each run, so every session and
every page sees what the others saved.
"""

from __future__ import annotations

import getpass
from typing import Any

import streamlit as st

from riskcore.roles import ColumnRoles
from riskcore.store import Store, default_path
from ui import remediation, state

__all__ = ["REOPENED", "USER", "exists", "os_user", "restore", "store", "user_name"]

#: The name the user typed for the audit log (a plain key: kept across pages).
USER = "rc_user"
#: Outcome of the last reopening: {"id", "name", "check": DatasetCheck, "profile"}.
REOPENED = "rc_saved_reopened"


def store() -> Store:
    """Return the database of saved assessments (``RISKCORE_DB`` or the user data directory)."""
    return Store()


def exists() -> bool:
    """Return whether the database exists (it is made at the first save, never by a look)."""
    return default_path().is_file()


def os_user() -> str:
    """Return the operating-system user, the name logged when none is typed."""
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "unknown"


def user_name(key: str, where: Any = st) -> str | None:
    """Draw the "your name" box; return the name typed, None if blank.

    The name is kept across pages under :data:`USER`; each page's box has its
    own ``key`` (a widget keyed alike on two pages is a new widget on the
    second, which would start blank and forget the name).
    """
    if key not in st.session_state:
        st.session_state[key] = st.session_state.get(USER, "")
    value = where.text_input(
        "Your name (for the audit log)",
        key=key,
        placeholder=f"blank: the system user, {os_user()}",
        help="Written beside every save, reopening, comparison and deletion in the audit log.",
    )
    st.session_state[USER] = value
    return value.strip() or None


def restore(profile: dict[str, Any], dataset_key: str, columns: list[str]) -> None:
    """Make a saved profile the session's: roles, targets and the generalization.

    Every page reads them from the session, so every page shows them. The
    target widgets start again from the restored values (a new targets dict).
    """
    mapping = {str(c): "other" for c in columns}
    mapping.update(ColumnRoles.from_dict(profile).to_mapping())
    st.session_state[state.ROLES] = mapping
    st.session_state[state.ROLES_FOR] = dataset_key
    targets = dict(state.DEFAULT_TARGETS)
    for name, value in (profile.get("targets") or {}).items():
        if value is not None and name in targets:
            targets[name] = value
    if profile.get("c") is not None:
        targets["c"] = float(profile["c"])
    targets["sampling_fraction"] = float(profile.get("sampling_fraction") or 0.0)
    if profile.get("missing") in ("own", "any"):  # the missing-value policy the report used
        targets["missing"] = profile["missing"]
    st.session_state[state.TARGETS] = targets
    recipe = profile.get("recipe")
    if recipe:
        remediation.set_recipe(dataset_key, recipe)
    else:
        remediation.clear()
