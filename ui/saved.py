"""Saved assessments in the session: the store, the user's name (asked once), restoring a
saved profile.

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
from ui.safe import md

__all__ = [
    "audit_head",
    "audit_user",
    "exists",
    "logged_as",
    "name_box",
    "os_user",
    "restore",
    "store",
]


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


def name_box(where: Any = st) -> None:
    """Draw the one "Your name (for the audit log)" box of the session (the sidebar's).

    Asked once per session: its value is kept under :data:`ui.keys.USER`, which
    every page's audit entry reads (:func:`audit_user`) and "Reset session" keeps.
    """
    if keys.USER_BOX not in st.session_state:
        st.session_state[keys.USER_BOX] = st.session_state.get(keys.USER, "")
    value = where.text_input(
        "Your name (for the audit log)",
        key=keys.USER_BOX,
        placeholder=f"blank: the system user, {os_user()}",
        help="Asked once for the session: written beside every save, reopening, comparison, "
        "deletion and privacy-budget change in the audit log.",
    )
    st.session_state[keys.USER] = value


def audit_user() -> str | None:
    """Return the name given in the sidebar for the audit log; None if blank (the system user).

    The box's value is read when it holds one: Streamlit sets it before the page
    runs, so an audit action on the run that follows the typing logs the new name.
    """
    value = st.session_state.get(keys.USER_BOX, st.session_state.get(keys.USER, ""))
    return str(value or "").strip() or None


def logged_as(where: Any = st) -> str | None:
    """Say under which name this page's audit entries are written; return that name."""
    who = audit_user()
    if who is None:
        where.caption(
            md(
                f"The audit log names the system user ({os_user()}): type your name once in "
                "the sidebar to be named instead."
            )
        )
    else:
        where.caption(md(f"The audit log names you as {who} (the name in the sidebar)."))
    return who


def restore(
    profile: dict[str, Any], dataset_key: str, columns: list[str], data: Any = None
) -> None:
    """Make a saved profile (any version) the session's: roles, targets and the recipe.

    Read by :meth:`riskcore.profile.Profile.read` and made the session's by
    :func:`ui.profile.restore`, the one place a profile enters the session.
    """
    ui_profile.restore(Profile.read(profile), dataset_key, columns, data)
