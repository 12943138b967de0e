"""Saved assessments in the session: the store, the user's name, restoring a saved profile.

The database is :class:`riskcore.store.Store` at ``RISKCORE_DB`` (else the
user's data directory), opened afresh on each run, so every session and
every page sees what the others saved.
"""

from __future__ import annotations

import getpass
from typing import Any

import streamlit as st

from riskcore.errors import RiskcoreError
from riskcore.profile import Profile
from riskcore.store import Store, default_path, read_head
from ui import keys
from ui import profile as ui_profile

__all__ = ["audit_head", "exists", "os_user", "restore", "store", "user_name"]


def store() -> Store:
    """Return the database of saved assessments (``RISKCORE_DB`` or the user data directory)."""
    return Store()


def audit_head() -> dict[str, Any] | None:
    """Return the audit log's head ``{"seq", "hash"}`` now, read-only; None without a log."""
    try:
        head = read_head(default_path())
    except RiskcoreError:
        return None
    return None if head is None else head.to_dict()


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

    The name is kept across pages under :data:`ui.keys.USER`; each page's box has its
    own ``key`` (a widget keyed alike on two pages is a new widget on the
    second, which would start blank and forget the name).
    """
    if key not in st.session_state:
        st.session_state[key] = st.session_state.get(keys.USER, "")
    value = where.text_input(
        "Your name (for the audit log)",
        key=key,
        placeholder=f"blank: the system user, {os_user()}",
        help="Written beside every save, reopening, comparison and deletion in the audit log.",
    )
    st.session_state[keys.USER] = value
    return value.strip() or None


def restore(profile: dict[str, Any], dataset_key: str, columns: list[str]) -> None:
    """Make a saved profile (any version) the session's: roles, targets and the recipe.

    Read by :meth:`riskcore.profile.Profile.read` and made the session's by
    :func:`ui.profile.restore`, the one place a profile enters the session.
    """
    ui_profile.restore(Profile.read(profile), dataset_key, columns)
