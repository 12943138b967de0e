"""Column roles (direct identifier, quasi-identifier, sensitive, sampling weight, other).

:class:`ColumnRoles` is the validated, frozen assignment a user confirms;
:func:`suggest_roles` proposes one role per column from the column's name, a
sample of its values and the identifiers found inside its text, with a reason
a person can check: direct identifiers as on the HIPAA Safe Harbor list (each
suggestion carrying its category letters as data), the smallest defensible
quasi-identifier set, and only one of two quasi-identifiers when one is a
function of the other. The same rule serves the built-in demo and every upload.

assignment
    :data:`ROLES` and :class:`ColumnRoles`.
rules
    The name and value rules (:class:`Rule`, each identifier rule with its
    Safe Harbor letter), :func:`luhn_valid`.
suggest
    :func:`suggest_roles`, :class:`RoleSuggestion`, :class:`RoleSuggestions`.
redundancy
    :class:`RedundantPair`, :data:`MAX_LEVELS`: quasi-identifiers that are a
    function of another one.
"""

from __future__ import annotations

from riskcore.roles.assignment import ROLES, ColumnRoles, Role
from riskcore.roles.redundancy import MAX_LEVELS, RedundantPair
from riskcore.roles.rules import Rule, luhn_valid, safe_harbor_reason
from riskcore.roles.suggest import (
    RoleSuggestion,
    RoleSuggestions,
    free_text_reason,
    roles_from_suggestions,
    suggest_roles,
)

__all__ = [
    "MAX_LEVELS",
    "ROLES",
    "ColumnRoles",
    "RedundantPair",
    "Role",
    "RoleSuggestion",
    "RoleSuggestions",
    "Rule",
    "free_text_reason",
    "luhn_valid",
    "roles_from_suggestions",
    "safe_harbor_reason",
    "suggest_roles",
]
