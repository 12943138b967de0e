"""Who uses this session: an OpenID Connect login when the operator configured one, else a
name typed in the sidebar (not proven).

The login is Streamlit's (``st.login`` / ``st.user``, with Authlib), configured
by the ``[auth]`` table of ``.streamlit/secrets.toml``; the roles come from
``[riskcore.roles]`` there (:class:`riskcore.store.identity.RoleConfig`).
With ``[auth]`` every page waits for a login (:func:`gate`) and the name box
is gone: the audit log, the saves, the releases and the reports name the
login (:func:`current`). How to configure it: docs/identity.md.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from riskcore.errors import RiskcoreError
from riskcore.report.readings.identity import identity_reading, login_reading
from riskcore.store.identity import Identity, RoleConfig
from ui.core import keys
from ui.core.safe import md

__all__ = ["configured", "current", "gate", "log_in_again", "role_config", "sidebar"]


def _secrets(name: str) -> Any:
    """Return the secrets' table ``name``; None without a secrets file or that table."""
    try:
        return st.secrets.get(name)
    except FileNotFoundError:  # no secrets.toml at all (StreamlitSecretNotFoundError)
        return None


def configured() -> bool:
    """Return whether the operator configured a login (an ``[auth]`` table in the secrets)."""
    return bool(_secrets("auth"))


def role_config() -> RoleConfig:
    """Return where roles come from: ``[riskcore.roles]`` of the secrets (default: the claim
    ``roles``).

    Raises
    ------
    RiskcoreError
        When ``[riskcore.roles]`` is malformed.
    """
    table = _secrets("riskcore")
    roles = table.get("roles") if table else None
    return RoleConfig.from_mapping(dict(roles) if roles else None)


def current() -> Identity:
    """Return who acts in this session: the login, or the name typed (unauthenticated).

    With a login configured but nobody logged in (a page is never drawn then,
    :func:`gate`), an unauthenticated identity without a name.
    """
    if configured():
        if not st.user.is_logged_in:
            return Identity.unauthenticated(None)
        return Identity.from_claims(st.user.to_dict(), role_config())
    typed = st.session_state.get(keys.USER_BOX, st.session_state.get(keys.USER, ""))
    return Identity.unauthenticated(str(typed or ""))


def log_in_again(reason: str) -> None:
    """Offer "Log in again" when a decision refused a login as too old (``login_stale``).

    The login's claims, its roles among them, are those of Streamlit's cookie (kept 30 days;
    Streamlit cannot ask the provider again without a new login): a new login reads the
    provider's current roles (:func:`riskcore.store.identity.may_approve`).

    Parameters
    ----------
    reason : str
        The decision's reason; nothing is drawn unless it is ``"login_stale"``.
    """
    if reason == "login_stale" and st.button("Log in again", key=keys.LOGIN_AGAIN):
        st.login()


def _login_page() -> None:
    """The one page of a session nobody has logged in to: what the login is for, and it."""
    st.title("Privacy-risk assessment")
    st.write(md(login_reading()))
    if st.button("Log in", type="primary", key=keys.LOGIN):
        st.login()


def gate() -> None:
    """With a login configured, stop the run of anyone not logged in, offering the login.

    The run still calls ``st.navigation`` (with the login page alone, hidden),
    so no page of the ``pages/`` folder is listed or reachable before the login.
    """
    if not configured() or st.user.is_logged_in:
        return
    st.navigation([st.Page(_login_page, title="Log in", default=True)], position="hidden").run()
    st.stop()


def sidebar(name_box: Any) -> None:
    """Show who the session's entries name: the login with a Log out button, or the name box.

    Parameters
    ----------
    name_box : callable
        Draws the "Your name (for the audit log)" box (:func:`ui.core.saved.name_box`),
        shown only without a login.
    """
    if not configured():
        name_box()
        return
    try:
        who = current()
    except RiskcoreError as exc:  # a token without sub / iss, a malformed [riskcore.roles]
        st.error(md(exc))
        return
    st.caption(md(identity_reading(who.label, who.authenticated, who.roles)))
    if st.button("Log out", key=keys.LOGOUT):
        st.logout()
