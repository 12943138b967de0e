"""Column roles (direct identifier, person, quasi-identifier, sensitive, sampling weight, other).

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
persons
    :func:`find_persons`, :class:`PersonCandidate`, :class:`PersonCandidates`:
    a direct identifier whose values repeat, each value the rows of one
    person; :func:`rows_not_people` and :class:`RowsNotPeople`, the caution
    of a table holding one while no column is tagged as the person.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from riskcore._exports import lazy_exports

if TYPE_CHECKING:
    from riskcore.roles.assignment import ROLES, ColumnRoles, Role
    from riskcore.roles.persons import (
        PersonCandidate,
        PersonCandidates,
        RowsNotPeople,
        find_persons,
        rows_not_people,
    )
    from riskcore.roles.redundancy import MAX_LEVELS, RedundantPair
    from riskcore.roles.rules import Rule, luhn_valid, safe_harbor_reason
    from riskcore.roles.suggest import (
        READING_KINDS,
        READINGS,
        RoleSuggestion,
        RoleSuggestions,
        free_text_reason,
        roles_from_suggestions,
        suggest_roles,
    )

#: Each public name and the module that defines it. The modules are imported when a name
#: is first read (PEP 562), so a profile's ColumnRoles does not load the suggestion rules
#: (hundreds of regular expressions), which ``riskcore assess`` never uses.
_WHERE: dict[str, str] = {
    "ROLES": "assignment",
    "ColumnRoles": "assignment",
    "Role": "assignment",
    "MAX_LEVELS": "redundancy",
    "RedundantPair": "redundancy",
    "PersonCandidate": "persons",
    "PersonCandidates": "persons",
    "RowsNotPeople": "persons",
    "find_persons": "persons",
    "rows_not_people": "persons",
    "Rule": "rules",
    "luhn_valid": "rules",
    "safe_harbor_reason": "rules",
    "READINGS": "suggest",
    "READING_KINDS": "suggest",
    "RoleSuggestion": "suggest",
    "RoleSuggestions": "suggest",
    "free_text_reason": "suggest",
    "roles_from_suggestions": "suggest",
    "suggest_roles": "suggest",
}


__all__ = [
    "MAX_LEVELS",
    "READINGS",
    "READING_KINDS",
    "ROLES",
    "ColumnRoles",
    "PersonCandidate",
    "PersonCandidates",
    "RedundantPair",
    "Role",
    "RoleSuggestion",
    "RoleSuggestions",
    "RowsNotPeople",
    "Rule",
    "find_persons",
    "free_text_reason",
    "luhn_valid",
    "roles_from_suggestions",
    "rows_not_people",
    "safe_harbor_reason",
    "suggest_roles",
]

__getattr__, __dir__ = lazy_exports(__name__, _WHERE)
