"""Column roles: the validated, frozen assignment a user confirms (:class:`ColumnRoles`)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Self

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._json import read_json
from riskcore._results import Result
from riskcore.errors import RiskcoreError, RolesError

__all__ = ["ROLES", "ColumnRoles", "Role", "event_names"]

Role = Literal["identifier", "person", "quasi_identifier", "sensitive", "weight", "other"]
#: The six roles, in display order.
ROLES: tuple[str, ...] = (
    "identifier", "person", "quasi_identifier", "sensitive", "weight", "other"
)  # fmt: skip


@dataclass(frozen=True)
class ColumnRoles(Result):
    """Which columns are direct identifiers, quasi-identifiers, sensitive, the weight or other.

    Attributes
    ----------
    identifiers : tuple of str
        Direct identifiers (name, SSN, e-mail ...): removed or masked before release.
    quasi_identifiers : tuple of str
        Columns an attacker can know from other sources (ZIP, date of birth,
        sex ...): they define the equivalence classes.
    sensitive : tuple of str
        Attributes to protect (diagnosis, income ...).
    other : tuple of str
        Everything else.
    weights : tuple of str
        The sampling-weight column, at most one (sdcMicro's ``weightVar``;
        :attr:`weight` raises when there are more):
        how many population members each record stands for. When present,
        population class sizes are estimated as the sum of the weights of a
        class's records (see :mod:`riskcore.metrics.records`).
    persons : tuple of str
        The person column, at most one (:attr:`person` raises when there are
        more): the column whose equal values are the rows of one individual
        (a patient id on claims or visits). When present, the unit of privacy
        is the person, not the row: every class counts distinct people
        (:mod:`riskcore.engine.people`). It is a direct identifier too, masked
        as a keyed token in a release.

    Raises
    ------
    RolesError
        When a column is given two roles, or twice in one role.
    """

    identifiers: tuple[str, ...] = ()
    quasi_identifiers: tuple[str, ...] = ()
    sensitive: tuple[str, ...] = ()
    other: tuple[str, ...] = ()
    weights: tuple[str, ...] = ()
    persons: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        seen: dict[str, str] = {}
        for role in ROLES:
            cols = getattr(self, _FIELD[role])
            if isinstance(cols, str):
                raise TypeError(f"{_FIELD[role]} must be a sequence of column names, not a string")
            cols = tuple(str(c) for c in cols)
            object.__setattr__(self, _FIELD[role], cols)
            for col in cols:
                if col in seen:
                    if seen[col] == role:
                        raise RolesError(f"column {col!r} is listed twice as {_LABEL[role]}")
                    raise RolesError(
                        f"column {col!r} cannot be both {_LABEL[seen[col]]} and {_LABEL[role]}"
                    )
                seen[col] = role

    @property
    def weight(self) -> str | None:
        """Return the sampling-weight column, or None when there is none.

        Raises
        ------
        RolesError
            When two or more columns are tagged as the weight. (The check is
            here, where the weight is used, rather than at construction, so
            that roles being edited column by column stay readable.)
        """
        if len(self.weights) > 1:
            raise RolesError(
                "only one column can be the sampling weight; "
                f"{self.weights[0]!r} and {self.weights[1]!r} are both tagged"
            )
        return self.weights[0] if self.weights else None

    @property
    def person(self) -> str | None:
        """Return the person column (the rows of one individual), or None when there is none.

        Raises
        ------
        RolesError
            When two or more columns are tagged as the person (checked where it is
            used, as for :attr:`weight`).
        """
        if len(self.persons) > 1:
            raise RolesError(
                "only one column can link the rows of one person; "
                f"{self.persons[0]!r} and {self.persons[1]!r} are both tagged"
            )
        return self.persons[0] if self.persons else None

    def persons_as_identifiers(self) -> ColumnRoles:
        """Return these roles with the person column listed among the direct identifiers.

        The person column is a direct identifier too: a consumer that knows direct
        identifiers only (the Safe Harbor check) reads it as one.

        Returns
        -------
        ColumnRoles
            Self when no column is tagged as the person.
        """
        if not self.persons:
            return self
        return dataclasses.replace(self, identifiers=(*self.identifiers, *self.persons), persons=())

    def role_of(self, column: str) -> str | None:
        """Return the role of a column, or None when it has none.

        Parameters
        ----------
        column : str
            The column's name.

        Returns
        -------
        str or None
            One of :data:`ROLES`.
        """
        for role in ROLES:
            if column in getattr(self, _FIELD[role]):
                return role
        return None

    def validate_against(self, columns: list[str] | pd.Index) -> ColumnRoles:
        """Check that every named column exists in the table; return self.

        Parameters
        ----------
        columns : list of str or pd.Index
            The table's column names.

        Returns
        -------
        ColumnRoles

        Raises
        ------
        RolesError
            Naming the first unknown column.
        """
        present = set(map(str, columns))
        for role in ROLES:
            for col in getattr(self, _FIELD[role]):
                if col not in present:
                    raise RolesError(
                        f"the {_LABEL[role]} column {col!r} is not in the table "
                        f"(its columns are: {', '.join(map(repr, list(present)[:20]))})"
                    )
        return self

    @classmethod
    def from_mapping(cls, mapping: dict[str, str]) -> ColumnRoles:
        """Build roles from ``{column: role}``; roles as in :data:`ROLES`.

        Parameters
        ----------
        mapping : dict of str to str
            The role of each column, in table order.

        Returns
        -------
        ColumnRoles
        """
        groups: dict[str, list[str]] = {r: [] for r in ROLES}
        for col, role in mapping.items():
            if role not in groups:
                raise RolesError(
                    f"unknown role {role!r} for column {col!r}; use one of {', '.join(ROLES)}"
                )
            groups[role].append(col)
        return cls(**{_FIELD[r]: tuple(v) for r, v in groups.items()})

    def to_mapping(self) -> dict[str, str]:
        """Return ``{column: role}``.

        Returns
        -------
        dict of str to str
            The columns by role, in the order of :data:`ROLES`; a column without a role is
            absent.
        """
        return {c: r for r in ROLES for c in getattr(self, _FIELD[r])}

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dictionary (the saved role profile format).

        Returns
        -------
        dict of str to Any
            ``schema_version`` and one list of columns per role; ``persons`` only when set,
            so a profile without one reads as before.
        """
        out = {
            "schema_version": self.schema_version,
            **{_FIELD[r]: list(getattr(self, _FIELD[r])) for r in ROLES},
        }
        if not self.persons:  # written only when set: a profile without one reads as before
            del out["persons"]
        return out

    def to_json(self) -> str:
        """Return the role profile as JSON text.

        Returns
        -------
        str
            :meth:`to_dict` under the marker ``"riskcore_roles": 1``, indented by 2.
        """
        return json.dumps({"riskcore_roles": 1, **self.to_dict()}, indent=2, allow_nan=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> ColumnRoles:
        """Read a role profile written by :meth:`to_json`.

        Parameters
        ----------
        text : str or bytes
            The JSON text.

        Returns
        -------
        ColumnRoles

        Raises
        ------
        RolesError
            When the text is not a role profile, or tags two weight columns.
        """
        try:
            obj = read_json(text, what="the role profile")
        except RiskcoreError as exc:
            raise RolesError(str(exc)) from None
        w = obj.get("weights") if isinstance(obj, dict) else None
        if isinstance(w, list) and len(w) > 1:
            raise RolesError(
                f"only one column can be the sampling weight; {w[0]!r} and {w[1]!r} are both "
                "tagged in the role profile: keep one in its 'weights'"
            )
        if not isinstance(obj, dict):
            raise RolesError(
                "the file is not a role profile: expected keys "
                + ", ".join(_FIELD[r] for r in ROLES)
            )
        return cls.from_dict(obj)

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> Self:
        """Read roles from :meth:`to_dict` output (a role profile).

        Parameters
        ----------
        obj : mapping of str to Any
            A role profile: each role's columns, as :meth:`to_dict` wrote them.

        Returns
        -------
        Self

        Raises
        ------
        RolesError
            When the mapping is not a role profile.
        """
        if not isinstance(obj, Mapping) or not any(_FIELD[r] in obj for r in ROLES):
            raise RolesError(
                "the file is not a role profile: expected keys "
                + ", ".join(_FIELD[r] for r in ROLES)
            )
        kwargs = {}
        for r in ROLES:
            v = obj.get(_FIELD[r], [])  # a profile written before a role existed lacks it
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise RolesError(f"{_FIELD[r]!r} in the role profile must be a list of names")
            kwargs[_FIELD[r]] = tuple(v)
        return cls(**kwargs)


_FIELD = {
    "identifier": "identifiers",
    "quasi_identifier": "quasi_identifiers",
    "sensitive": "sensitive",
    "weight": "weights",
    "person": "persons",
    "other": "other",
}
_LABEL = {
    "identifier": "a direct identifier",
    "quasi_identifier": "a quasi-identifier",
    "sensitive": "a sensitive attribute",
    "weight": "the sampling weight",
    "person": "the person",
    "other": "other",
}


def event_names(events: object) -> tuple[str, ...]:
    """Return the event columns as a tuple of names, each once (the one check of them).

    Parameters
    ----------
    events : sequence of str
        The event columns.

    Returns
    -------
    tuple of str

    Raises
    ------
    RolesError
        For one string instead of a list, a name that is not text, or a
        column listed twice.
    """
    if isinstance(events, str) or not isinstance(events, Sequence):
        raise RolesError(f"the event columns are a list of column names, not {events!r}")
    if not all(isinstance(e, str) for e in events):
        raise RolesError(f"the event columns are a list of column names, not {events!r}")
    names = tuple(events)
    if len(set(names)) != len(names):
        raise RolesError("an event column is listed twice")
    return names
