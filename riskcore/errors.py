"""Exception and warning types raised by :mod:`riskcore`.

Every failure a user can cause (a bad file, an unknown column, a role
conflict) raises a subclass of :class:`RiskcoreError` whose message is a
plain-language sentence a privacy officer can act on. Programming errors
(wrong argument types) raise the usual ``TypeError`` / ``ValueError``.
"""

from __future__ import annotations

__all__ = ["DataLoadError", "PrivacyLeakWarning", "RiskcoreError", "RolesError"]


class RiskcoreError(ValueError):
    """Base class of the errors a user can cause; the message is for people."""


class DataLoadError(RiskcoreError):
    """Raise when a table cannot be read; the message says why and what to do."""


class RolesError(RiskcoreError):
    """Raise when column roles are inconsistent with each other or the table."""


class PrivacyLeakWarning(RuntimeWarning):
    """Warn when a computation leaks privacy silently (e.g. bounds taken from data)."""
