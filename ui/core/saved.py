"""Saved assessments in the session: the store, who acts (a login or a name asked once),
restoring a saved profile.

The database is :class:`riskcore.store.Store` at ``RISKCORE_DB`` (else the
user's data directory), opened afresh on each run, so every session and
every page sees what the others saved.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from riskcore.errors import RiskcoreError
from riskcore.profile import Profile
from riskcore.report.readings.identity import identity_reading
from riskcore.store import Store, default_path, read_head
from riskcore.store.identity import Identity
from ui.core import identity, keys
from ui.core import profile as ui_profile
from ui.core.safe import md

__all__ = [
    "audit_head",
    "audit_user",
    "exists",
    "logged_as",
    "name_box",
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


def name_box(where: Any = st) -> None:
    """Draw the one "Your name (for the audit log)" box of the session (the sidebar's).

    Shown only without a login (:func:`ui.core.identity.sidebar`). Asked once per
    session: its value is kept under :data:`ui.core.keys.USER`, which every page's
    audit entry reads (:func:`audit_user`) and "Reset session" keeps; it is
    logged as ``unauthenticated: NAME``.
    """
    if keys.USER_BOX not in st.session_state:
        st.session_state[keys.USER_BOX] = st.session_state.get(keys.USER, "")
    value = where.text_input(
        "Your name (for the audit log)",
        key=keys.USER_BOX,
        placeholder="blank: unauthenticated",
        help="Asked once for the session: written beside every save, reopening, comparison, "
        "deletion and privacy-budget change in the audit log, marked 'unauthenticated' (no "
        "login proves it; the operator can require one, docs/identity.md).",
    )
    st.session_state[keys.USER] = value


def audit_user() -> Identity:
    """Return who this session's audit entries, saves, releases and reports name.

    The login when one is configured, else the name typed in the sidebar
    (:func:`ui.core.identity.current`): the box's value is read when it holds one,
    since Streamlit sets it before the page runs, so an audit action on the
    run that follows the typing logs the new name.
    """
    return identity.current()


def logged_as(where: Any = st) -> Identity:
    """Say under which identity this page's audit entries are written; return it."""
    who = audit_user()
    where.caption(md(identity_reading(who.label, who.authenticated, who.roles)))
    return who


def restore(
    profile: dict[str, Any], dataset_key: str, columns: list[str], data: Any = None
) -> None:
    """Make a saved profile (any version) the session's: roles, targets and the recipe.

    Read by :meth:`riskcore.profile.Profile.read` and made the session's by
    :func:`ui.core.profile.restore`, the one place a profile enters the session.
    """
    ui_profile.restore(Profile.read(profile), dataset_key, columns, data)
