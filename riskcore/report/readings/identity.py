"""Readings of who acts: the login, the name typed without one, and the approval rule.

The rule itself is :func:`riskcore.store.identity.may_approve`; these are its
sentences, keyed by the reason it returns (plain strings here: the report
layer sits below the store and does not import it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "APPROVAL_SENTENCES",
    "UNAUTHENTICATED_NAME",
    "approval_reading",
    "approval_status_reading",
    "approved_reading",
    "built_by_note",
    "identity_reading",
    "login_reading",
    "sign_refused_reading",
]

#: What a report built without a name or a login says built it (as an entry's user column).
UNAUTHENTICATED_NAME = "unauthenticated"

#: One sentence per reason of :func:`riskcore.store.identity.may_approve`.
APPROVAL_SENTENCES = {
    "allowed": "You may approve it: you are a reviewer and someone else saved it.",
    "unauthenticated": (
        "Nobody can approve without a login: a name typed in the sidebar proves nobody, so "
        "it could be the author's own. The operator turns the login on (OpenID Connect, "
        "docs/identity.md)."
    ),
    "not_reviewer": (
        "Only a reviewer approves: your login has no reviewer role (from the identity "
        "provider's role claim or the [riskcore.roles] reviewers list)."
    ),
    "own": (
        "You saved this assessment: an analyst cannot approve their own work; another "
        "person, a reviewer, approves it (four-eyes rule)."
    ),
    "author_unproven": (
        "It was saved without a login, so who made it is not proven and nobody can approve "
        "it as someone else's: save it again while logged in."
    ),
    "already": "You have approved it already; the approval is in the audit log.",
    "login_stale": (
        "Log in again to approve: your login is more than 15 minutes old, and the roles it "
        "carries are those your identity provider gave then (a reviewer role withdrawn since "
        "would still show). Logging in again reads your current roles."
    ),
}


def approval_reading(reason: str) -> str:
    """Return the sentence of an approval decision's reason.

    Parameters
    ----------
    reason : str
        One of :data:`riskcore.store.identity.APPROVAL_REASONS`.

    Returns
    -------
    str

    Raises
    ------
    KeyError
        For a reason the rule never returns.
    """
    return APPROVAL_SENTENCES[reason]


def identity_reading(label: str, authenticated: bool, roles: Sequence[str]) -> str:
    """Return who this session's audit entries, saves, releases and reports name.

    Parameters
    ----------
    label : str
        :attr:`riskcore.store.identity.Identity.label`.
    authenticated : bool
        Whether it comes from a login.
    roles : sequence of str
        The login's roles.

    Returns
    -------
    str
    """
    if authenticated:
        held = ", ".join(roles) if roles else "no role (you may save, not approve)"
        return (
            f"Logged in as {label}; roles: {held}. Every audit entry, save, budget release "
            "and report of this session names you."
        )
    return (
        f"Not logged in: the audit log, saves, releases and reports name you "
        f"'{label}', which proves nobody's identity, and nobody can approve an assessment."
    )


def approval_status_reading(author: str | None, approvers: Sequence[str]) -> str:
    """Return who saved an assessment and who approved it.

    Parameters
    ----------
    author : str or None
        The author's label; None when the save recorded no identity.
    approvers : sequence of str
        The approvers' labels, oldest first.

    Returns
    -------
    str
    """
    made = f"Saved by {author}." if author else "Saved without a recorded identity."
    if not approvers:
        return f"{made} Not approved yet."
    return f"{made} Approved by {'; '.join(approvers)}."


def login_reading() -> str:
    """Return what the login page says before anyone has logged in.

    Returns
    -------
    str
    """
    return (
        "This dashboard requires a login: every audit entry, saved assessment, privacy-budget "
        "release and report names who made it, and a reviewer approves another person's "
        "saved assessment."
    )


def approved_reading(name: str, seq: int) -> str:
    """Return what an approval made says: which assessment, and the audit entry naming you.

    Parameters
    ----------
    name : str
        The assessment's name.
    seq : int
        The audit entry number of the approval.

    Returns
    -------
    str
    """
    return f"Approved {name}: audit entry {seq} records it under your login."


def built_by_note(built_by: str | None, identity: Mapping[str, Any] | None) -> str:
    """Return what follows the report's "built by NAME": whether a login proves the name.

    ``" (logged in; roles: ...)"`` for a login; ``""`` when the name already
    says ``unauthenticated`` (the app's label without a login); else
    ``" (unauthenticated)"`` (a name given on the command line, which no
    login checks).

    Parameters
    ----------
    built_by : str or None
        The report's ``built_by``.
    identity : mapping or None
        The report's ``identity`` (``Identity.to_dict()``).

    Returns
    -------
    str
    """
    if identity is not None and identity.get("authenticated") is True:
        roles = identity.get("roles") or []
        return f" (logged in; roles: {', '.join(map(str, roles)) if roles else 'none'})"
    if not built_by or built_by.startswith(UNAUTHENTICATED_NAME):
        return ""
    return f" ({UNAUTHENTICATED_NAME})"


def sign_refused_reading(reason: str) -> str:
    """Return why the Sign control is closed to this session.

    Parameters
    ----------
    reason : str
        A refusing reason of :func:`riskcore.store.identity.may_sign`.

    Returns
    -------
    str

    Raises
    ------
    KeyError
        For a reason the rule never returns when it refuses.
    """
    return {
        "unauthenticated": "Signing needs a login: log in as a reviewer to sign the report.",
        "not_reviewer": (
            "Only a reviewer signs: your login has no reviewer role (from the identity "
            "provider's role claim or the [riskcore.roles] reviewers list). A reviewer "
            "signs this report once it is saved and approved."
        ),
        "login_stale": (
            "Log in again to sign: your login is more than 15 minutes old, and the roles it "
            "carries are those your identity provider gave then. Logging in again reads your "
            "current roles."
        ),
    }[reason]
