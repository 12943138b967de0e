"""Who acts: an identity proven by an OpenID Connect login, or a name typed without one.

When the operator configures OpenID Connect, the app (``st.login`` /
``st.user``, :mod:`ui.core.identity`) builds an :class:`Identity` from the ID
token's claims (:meth:`Identity.from_claims`): the subject ``sub`` and the
issuer ``iss`` identify the person (OpenID Connect Core 1.0, section 2: "sub
... locally unique and never reassigned identifier within the Issuer"; the
pair is the identity, neither alone), the name and e-mail only describe
them. Without it (one person on localhost) the identity is
:meth:`Identity.unauthenticated`: the typed name, marked as not proven.

Roles (:class:`RoleConfig`): ``analyst`` (builds and saves assessments) and
``reviewer`` (approves them), read from a claim of the token (``roles`` by
default; ``groups`` with many providers) and from lists in the configuration
naming subjects, or e-mail addresses the provider says are verified, of the one
issuer the configuration names (a subject is unique within its issuer only).

Approval follows the four-eyes principle (separation of duties, NIST SP
800-53 Rev. 5 control AC-5): :func:`may_approve` is the one decision. Only
an authenticated reviewer approves, never an assessment saved under their
own ``(iss, sub)``, never one whose author is not proven (saved without a
login), once per reviewer, and only with a login at most
:data:`MAX_LOGIN_AGE_MINUTES` old.

Why the last rule: the app keeps a login's claims (the roles claim among
them) in Streamlit's signed cookie for 30 days, and Streamlit offers no call
that asks the provider again (userinfo) and no setting for the cookie's
lifetime. A reviewer role withdrawn at the provider would otherwise keep
approving for a month. Approving and signing (:func:`may_sign`) therefore
need an ID token issued (``iat``) in the last :data:`MAX_LOGIN_AGE_MINUTES`
minutes: an older login is asked to log in again, which reads the
provider's current roles. The lists of ``[riskcore.roles]`` are read at each
action.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from riskcore._results import Result
from riskcore.errors import RiskcoreError

__all__ = [
    "ANALYST",
    "APPROVAL_REASONS",
    "MAX_LOGIN_AGE_MINUTES",
    "REVIEWER",
    "ROLES",
    "UNAUTHENTICATED",
    "ApprovalDecision",
    "ApprovalRefusedError",
    "Identity",
    "RoleConfig",
    "may_approve",
    "may_sign",
]

#: The role that builds and saves assessments.
ANALYST = "analyst"
#: The role that approves another person's saved assessment.
REVIEWER = "reviewer"
#: Every role riskcore knows, in the order they are shown.
ROLES = (ANALYST, REVIEWER)
#: What an audit entry names when nobody logged in.
UNAUTHENTICATED = "unauthenticated"

#: Longest text kept from one claim (a name, an e-mail, a subject).
_MAX_CLAIM = 200
#: Oldest login (minutes since its ID token was issued) that may approve or sign: its
#: roles are the provider's of that time.
MAX_LOGIN_AGE_MINUTES = 15
#: How far a token's issue time may lie ahead of this machine's clock (clock skew), seconds.
_CLOCK_SKEW = 300


def _now() -> datetime:
    """Return now, UTC (one place, so a test can hold the clock)."""
    return datetime.now(UTC)


def clean(text: object) -> str:
    """Return ``text`` as one line: control and format characters (bidi overrides) dropped.

    A claim is shown in the audit table, the report and the terminal, so a
    name holding U+202E or an escape sequence must not reorder or recolour
    what follows; whitespace runs become one space; at most 200 characters.

    Parameters
    ----------
    text : object
        Any value; it is converted with :class:`str` first.

    Returns
    -------
    str
    """
    s = "".join(
        " " if ch.isspace() else ch
        for ch in str(text)
        if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf")
    )
    return " ".join(s.split())[:_MAX_CLAIM]


@dataclass(frozen=True)
class Identity(Result):
    """Who acts: an OpenID Connect login, or a name typed without one.

    Attributes
    ----------
    subject : str
        The token's ``sub`` (empty when unauthenticated).
    name : str or None
        The display name: the ``name`` claim, or the name typed.
    email : str or None
        The ``email`` claim.
    issuer : str or None
        The token's ``iss`` (None when unauthenticated).
    roles : tuple of str
        Among :data:`ROLES`; empty when unauthenticated.
    authenticated : bool
        True only for an identity built from a login.
    login_at : str or None
        When the login's ID token was issued (its ``iat``, ISO 8601 UTC): the
        time its roles claim was read. None unauthenticated, or when the token
        gave no time.
    """

    subject: str
    name: str | None
    email: str | None
    issuer: str | None
    roles: tuple[str, ...]
    authenticated: bool
    login_at: str | None = None

    @classmethod
    def unauthenticated(cls, name: str | None = None) -> Identity:
        """Return the identity of a session without a login: the typed name, not proven.

        Parameters
        ----------
        name : str, optional
            The name typed; blank or None for none.

        Returns
        -------
        Identity
        """
        typed = clean(name or "") or None
        return cls("", typed, None, None, (), False)

    @classmethod
    def from_claims(cls, claims: Mapping[str, Any], config: RoleConfig | None = None) -> Identity:
        """Return the identity of a login from its ID token's claims.

        Parameters
        ----------
        claims : mapping
            The claims (``st.user`` in the app): ``sub`` and ``iss`` required,
            ``name``, ``email``, ``email_verified`` and the role claim read.
        config : RoleConfig, optional
            Where the roles come from; default :class:`RoleConfig` ().

        Returns
        -------
        Identity

        Raises
        ------
        RiskcoreError
            When ``sub`` or ``iss`` is missing: without them nobody is identified.
        """
        sub, iss = clean(claims.get("sub") or ""), clean(claims.get("iss") or "")
        if not sub or not iss:
            raise RiskcoreError(
                "the login gave no subject ('sub') or issuer ('iss'): the identity provider's "
                "ID token must carry both (see docs/identity.md)"
            )
        email = clean(claims.get("email") or "") or None
        name = clean(claims.get("name") or "") or None
        roles = (config or RoleConfig()).roles(claims)
        return cls(sub, name, email, iss, roles, True, _issued_at(claims.get("iat")))

    def fresh(self, now: datetime | None = None) -> bool:
        """Return whether this is a login at most :data:`MAX_LOGIN_AGE_MINUTES` old.

        Parameters
        ----------
        now : datetime, optional
            Default now (UTC).

        Returns
        -------
        bool
            False unauthenticated, without an issue time, older than the
            limit, or issued more than five minutes ahead of ``now`` (a clock
            that far off is not trusted).
        """
        if not self.authenticated or self.login_at is None:
            return False
        try:
            issued = datetime.fromisoformat(self.login_at)
            age = ((now or _now()) - issued).total_seconds()
        except (ValueError, TypeError):  # not an ISO time with its zone (a forged dict)
            return False
        return -_CLOCK_SKEW <= age <= MAX_LOGIN_AGE_MINUTES * 60

    @property
    def key(self) -> tuple[str, str] | None:
        """Return ``(issuer, subject)``, what identifies the person; None unauthenticated."""
        if not self.authenticated or self.issuer is None:
            return None
        return (self.issuer, self.subject)

    @property
    def label(self) -> str:
        """Return the identity as the audit log's user column and the report name it.

        ``Name <email> (subject SUB at ISSUER)`` for a login;
        ``unauthenticated: NAME`` (or ``unauthenticated``) without one.
        """
        if not self.authenticated:
            return f"{UNAUTHENTICATED}: {self.name}" if self.name else UNAUTHENTICATED
        shown = " ".join(p for p in (self.name, f"<{self.email}>" if self.email else None) if p)
        proof = f"subject {self.subject} at {self.issuer}"
        return f"{shown} ({proof})" if shown else proof

    def has(self, role: str) -> bool:
        """Return whether an authenticated identity holds ``role``.

        Parameters
        ----------
        role : str
            A role of :data:`ROLES`.

        Returns
        -------
        bool
        """
        return self.authenticated and role in self.roles


def _issued_at(iat: object) -> str | None:
    """Return the ID token's ``iat`` (seconds since 1970, RFC 7519 section 4.1.6) as ISO 8601
    UTC; None when it is missing or not a number of seconds."""
    if isinstance(iat, bool) or not isinstance(iat, int | float) or not math.isfinite(iat):
        return None
    try:
        when = datetime.fromtimestamp(iat, UTC)
    except (OverflowError, OSError, ValueError):
        return None
    return when.isoformat(timespec="seconds")


@dataclass(frozen=True)
class RoleConfig(Result):
    """Where roles come from: a claim of the ID token, and lists in the configuration.

    Attributes
    ----------
    claim : str
        The claim holding role names (a list, or one string split on spaces
        and commas); its values ``analyst`` / ``reviewer`` count.
    analysts, reviewers : tuple of str
        Subjects, or e-mail addresses (counted only when the token says
        ``email_verified: true``), given the role whatever the claim says,
        when the token comes from ``issuer``.
    issuer : str
        The ``iss`` whose subjects and e-mails the lists name (OpenID Connect
        Core 1.0, section 2: ``sub`` is unique within its issuer only); the
        lists count for no other issuer, and for none when this is empty.
    """

    claim: str = "roles"
    analysts: tuple[str, ...] = ()
    reviewers: tuple[str, ...] = ()
    issuer: str = ""

    @classmethod
    def from_mapping(cls, conf: Mapping[str, Any] | None) -> RoleConfig:
        """Return the configuration from ``[riskcore.roles]`` (secrets.toml) or similar.

        Parameters
        ----------
        conf : mapping or None
            ``claim`` (str), ``analysts`` and ``reviewers`` (lists of str), ``issuer``
            (str; needed when a list names anyone).

        Returns
        -------
        RoleConfig

        Raises
        ------
        RiskcoreError
            When a key is unknown or a value is of the wrong type, or a list names
            someone without ``issuer``.
        """
        if not conf:
            return cls()
        unknown = sorted(set(conf) - {"claim", "analysts", "reviewers", "issuer"})
        if unknown:
            raise RiskcoreError(
                f"[riskcore.roles] has unknown keys {unknown}: use claim, analysts, reviewers "
                "and issuer"
            )
        claim = conf.get("claim", "roles")
        if not isinstance(claim, str) or not claim.strip():
            raise RiskcoreError("[riskcore.roles] claim must be the name of a claim (a string)")
        lists = {}
        for k in ("analysts", "reviewers"):
            v = conf.get(k, [])
            if (
                isinstance(v, str)
                or not isinstance(v, Sequence)
                or not all(isinstance(x, str) for x in v)
            ):
                raise RiskcoreError(
                    f"[riskcore.roles] {k} must be a list of subjects or e-mail addresses"
                )
            lists[k] = tuple(x.strip() for x in v if x.strip())
        issuer = conf.get("issuer", "")
        if not isinstance(issuer, str):
            raise RiskcoreError("[riskcore.roles] issuer must be the provider's 'iss' (a string)")
        if (lists["analysts"] or lists["reviewers"]) and not issuer.strip():
            raise RiskcoreError(
                "[riskcore.roles] names analysts or reviewers but no issuer: a subject is "
                "unique only within its issuer, so set issuer to your provider's 'iss' (the "
                "issuer URL its discovery document gives; see docs/identity.md)"
            )
        return cls(claim.strip(), lists["analysts"], lists["reviewers"], issuer.strip())

    def roles(self, claims: Mapping[str, Any]) -> tuple[str, ...]:
        """Return the roles of a login's claims, in the order of :data:`ROLES`.

        Parameters
        ----------
        claims : mapping
            The ID token's claims.

        Returns
        -------
        tuple of str
        """
        raw = claims.get(self.claim)
        if isinstance(raw, str):
            named = set(raw.replace(",", " ").split())
        elif isinstance(raw, Sequence):
            named = {str(x).strip() for x in raw}
        else:
            named = set()
        who = {str(claims.get("sub") or "")}
        if claims.get("email_verified") is True and claims.get("email"):
            who.add(str(claims["email"]))
        if not self.issuer or clean(claims.get("iss") or "") != self.issuer:
            who = set()  # the lists name people of one issuer: none of another
        listed = {ANALYST: self.analysts, REVIEWER: self.reviewers}
        return tuple(r for r in ROLES if r in named or who & set(listed[r]))


#: Why an approval is refused or allowed: the reasons :func:`may_approve` returns.
APPROVAL_REASONS = (
    "allowed",
    "unauthenticated",
    "not_reviewer",
    "own",
    "author_unproven",
    "already",
    "login_stale",
)


@dataclass(frozen=True)
class ApprovalDecision(Result):
    """Whether an identity may approve a saved assessment, and why.

    Attributes
    ----------
    allowed : bool
    reason : str
        One of :data:`APPROVAL_REASONS`.
    """

    allowed: bool
    reason: str


class ApprovalRefusedError(RiskcoreError):
    """Raise when an approval is refused; ``decision`` says why."""

    def __init__(self, message: str, decision: ApprovalDecision) -> None:
        super().__init__(message)
        self.decision = decision


def may_approve(
    approver: Identity,
    author: Identity | None,
    approved_by: Sequence[Identity] = (),
    *,
    now: datetime | None = None,
) -> ApprovalDecision:
    """Decide whether ``approver`` may approve an assessment saved by ``author``.

    The four-eyes rule (separation of duties, NIST SP 800-53 Rev. 5 AC-5),
    checked in this order: the approver logged in (an unproven name could
    be anyone's, the author's included); holds the reviewer role; is not
    the author (same issuer and subject, whatever their roles); the author
    is proven (an assessment saved without a login has no author to be
    different from); has not approved it already; and logged in at most
    :data:`MAX_LOGIN_AGE_MINUTES` ago (:meth:`Identity.fresh`: the roles are
    the provider's of that login; an older one logs in again).

    Parameters
    ----------
    approver : Identity
        The identity asking to approve.
    author : Identity or None
        Who saved it (None: not recorded).
    approved_by : sequence of Identity
        Who approved it already.
    now : datetime, optional
        Default now (UTC).

    Returns
    -------
    ApprovalDecision
    """
    if not approver.authenticated:
        return ApprovalDecision(False, "unauthenticated")
    if REVIEWER not in approver.roles:
        return ApprovalDecision(False, "not_reviewer")
    if author is not None and author.key == approver.key:
        return ApprovalDecision(False, "own")
    if author is None or author.key is None:
        return ApprovalDecision(False, "author_unproven")
    if any(a.key == approver.key for a in approved_by):
        return ApprovalDecision(False, "already")
    if not approver.fresh(now):
        return ApprovalDecision(False, "login_stale")
    return ApprovalDecision(True, "allowed")


def may_sign(
    signer: Identity, *, login_required: bool, now: datetime | None = None
) -> ApprovalDecision:
    """Decide whether ``signer`` may sign a report in the dashboard.

    A signature says a reviewer vouches for the report, so once the operator has
    turned the login on, only a logged-in reviewer signs (the same role that
    approves, :func:`may_approve`). Without a login (one person on localhost) the
    key file itself is the proof: whoever holds it and its passphrase signs.

    Parameters
    ----------
    signer : Identity
        This session's identity.
    login_required : bool
        Whether the dashboard requires a login (OpenID Connect configured).
    now : datetime, optional
        Default now (UTC).

    Returns
    -------
    ApprovalDecision
        ``reason`` is ``"allowed"``, ``"unauthenticated"``, ``"not_reviewer"`` or
        ``"login_stale"`` (a login older than :data:`MAX_LOGIN_AGE_MINUTES`).
    """
    if not login_required:
        return ApprovalDecision(True, "allowed")
    if not signer.authenticated:
        return ApprovalDecision(False, "unauthenticated")
    if REVIEWER not in signer.roles:
        return ApprovalDecision(False, "not_reviewer")
    if not signer.fresh(now):
        return ApprovalDecision(False, "login_stale")
    return ApprovalDecision(True, "allowed")
