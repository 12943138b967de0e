"""Column roles (direct identifier, quasi-identifier, sensitive, other) and suggestions.

:class:`ColumnRoles` is the validated, frozen assignment a user confirms;
:func:`suggest_roles` proposes one role per column from the column's name and
a sample of its values, with a reason a person can check.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Self

import pandas as pd

from riskcore._results import Result
from riskcore.errors import RolesError

__all__ = ["ROLES", "ColumnRoles", "RoleSuggestion", "luhn_valid", "suggest_roles"]

Role = Literal["identifier", "quasi_identifier", "sensitive", "other"]
#: The four roles, in display order.
ROLES: tuple[str, ...] = ("identifier", "quasi_identifier", "sensitive", "other")


@dataclass(frozen=True)
class ColumnRoles(Result):
    """Which columns are direct identifiers, quasi-identifiers, sensitive or other.

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

    Raises
    ------
    RolesError
        When a column is given two roles, or twice in one role.
    """

    identifiers: tuple[str, ...] = ()
    quasi_identifiers: tuple[str, ...] = ()
    sensitive: tuple[str, ...] = ()
    other: tuple[str, ...] = ()

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

    def role_of(self, column: str) -> str | None:
        """Return the role of a column, or None when it has none."""
        for role in ROLES:
            if column in getattr(self, _FIELD[role]):
                return role
        return None

    def validate_against(self, columns: list[str] | pd.Index) -> ColumnRoles:
        """Check that every named column exists in the table; return self.

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
        """Build roles from ``{column: role}``; roles as in :data:`ROLES`."""
        groups: dict[str, list[str]] = {r: [] for r in ROLES}
        for col, role in mapping.items():
            if role not in groups:
                raise RolesError(
                    f"unknown role {role!r} for column {col!r}; use one of {', '.join(ROLES)}"
                )
            groups[role].append(col)
        return cls(**{_FIELD[r]: tuple(v) for r, v in groups.items()})

    def to_mapping(self) -> dict[str, str]:
        """Return ``{column: role}``."""
        return {c: r for r in ROLES for c in getattr(self, _FIELD[r])}

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dictionary (the saved role profile format)."""
        return {
            "schema_version": self.schema_version,
            **{_FIELD[r]: list(getattr(self, _FIELD[r])) for r in ROLES},
        }

    def to_json(self) -> str:
        """Return the role profile as JSON text."""
        return json.dumps({"riskcore_roles": 1, **self.to_dict()}, indent=2, allow_nan=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> ColumnRoles:
        """Read a role profile written by :meth:`to_json`.

        Raises
        ------
        RolesError
            When the text is not a role profile.
        """
        try:
            obj = json.loads(text)
        except (ValueError, UnicodeDecodeError) as exc:
            raise RolesError(f"the role profile is not valid JSON ({exc})") from None
        if not isinstance(obj, dict):
            raise RolesError(
                "the file is not a role profile: expected keys "
                + ", ".join(_FIELD[r] for r in ROLES)
            )
        return cls.from_dict(obj)

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> Self:
        """Read roles from :meth:`to_dict` output (a role profile).

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
            v = obj.get(_FIELD[r], [])
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise RolesError(f"{_FIELD[r]!r} in the role profile must be a list of names")
            kwargs[_FIELD[r]] = tuple(v)
        return cls(**kwargs)


_FIELD = {
    "identifier": "identifiers",
    "quasi_identifier": "quasi_identifiers",
    "sensitive": "sensitive",
    "other": "other",
}
_LABEL = {
    "identifier": "a direct identifier",
    "quasi_identifier": "a quasi-identifier",
    "sensitive": "a sensitive attribute",
    "other": "other",
}


@dataclass(frozen=True)
class RoleSuggestion(Result):
    """A proposed role for one column and why.

    Attributes
    ----------
    column : str
    role : str
        One of :data:`ROLES`.
    reason : str
        Plain-language reason, e.g. "values look like US Social Security numbers".
    kind : str
        What the column appears to hold ("ssn", "zip", "age", ...).
    """

    column: str
    role: str
    reason: str
    kind: str = field(default="")


# ------------------------------------------------------------------ rules

_NAME_RULES: list[tuple[str, str, str, str]] = [
    # (regex on the normalised column name, role, kind, reason)
    (
        r"^(ssn|social ?security( ?number| ?no)?|sin|nino|national ?(id|insurance)( ?number)?)$",
        "identifier",
        "ssn",
        "the name says it holds a national identification number",
    ),
    (
        r"(^|\b)(e ?mail|email ?address)(\b|$)",
        "identifier",
        "email",
        "the name says it holds e-mail addresses",
    ),
    (
        r"(^|\b)(phone|telephone|mobile|cell|fax)( ?(number|no))?(\b|$)",
        "identifier",
        "phone",
        "the name says it holds phone numbers",
    ),
    (
        r"(^|\b)(credit ?card|card ?number|cc ?num(ber)?|iban|account ?(number|no))(\b|$)",
        "identifier",
        "account",
        "the name says it holds account or card numbers",
    ),
    (r"(^|\b)(ip|ip ?address)(\b|$)", "identifier", "ip", "the name says it holds IP addresses"),
    (r"(^|\b)(url|website|web ?page)(\b|$)", "identifier", "url", "the name says it holds URLs"),
    (
        r"^(full ?name|name|first ?name|last ?name|surname|given ?name|family ?name|patient ?name"
        r"|person ?name|forename|middle ?name)$",
        "identifier",
        "name",
        "the name says it holds person names",
    ),
    (
        r"(^|\b)(mrn|medical ?record( ?number)?|record ?(id|number|no)|patient ?id|person ?id"
        r"|customer ?id|member ?id|employee ?id|license ?(number|no)|licence ?(number|no)"
        r"|passport( ?number)?|hashed ?name|id|uuid|guid)(\b|$)",
        "identifier",
        "record_id",
        "the name says it is a record number or identifier",
    ),
    (
        r"(^|\b)(street|address|addr)(\b|$)",
        "identifier",
        "address",
        "the name says it holds street addresses",
    ),
    (
        r"(^|\b)(dob|date ?of ?birth|birth ?date|birthdate|birthday|born)(\b|$)",
        "quasi_identifier",
        "dob",
        "date of birth: with ZIP and sex it singles out most people",
    ),
    (
        r"(^|\b)(zip|zip ?code|zipcode|postcode|postal ?code|post ?code|plz|postal)(\b|$)",
        "quasi_identifier",
        "zip",
        "ZIP / postcode: a geographic quasi-identifier",
    ),
    (
        r"^(age|age ?years|age ?at ?.*|years ?old)$",
        "quasi_identifier",
        "age",
        "age is a demographic quasi-identifier",
    ),
    (
        r"^(sex|gender)$",
        "quasi_identifier",
        "sex",
        "sex / gender is a demographic quasi-identifier",
    ),
    (
        r"(^|\b)(race|ethnicity|ethnic ?group|ancestry)(\b|$)",
        "quasi_identifier",
        "race",
        "race / ethnicity is a demographic quasi-identifier",
    ),
    (
        r"(^|\b)(marital( ?status)?|civil ?status|relationship)(\b|$)",
        "quasi_identifier",
        "marital",
        "marital status / household relationship is a demographic quasi-identifier",
    ),
    (
        r"(^|\b)(city|town|county|state|province|region|country|native ?country|nationality"
        r"|country ?of ?birth|birthplace|district|municipality|geo|latitude|longitude|lat|lon"
        r"|census ?tract)(\b|$)",
        "quasi_identifier",
        "geo",
        "geography is a quasi-identifier",
    ),
    (
        r"(^|\b)(occupation|job|job ?title|title|profession|employer|workclass|work ?class"
        r"|industry|job ?code)(\b|$)",
        "quasi_identifier",
        "occupation",
        "occupation / employment is a quasi-identifier (often known to colleagues and on profiles)",
    ),
    (
        r"(^|\b)(education|degree|school)(\b|$)",
        "quasi_identifier",
        "education",
        "education is a demographic quasi-identifier",
    ),
    (
        r"(^|\b)(date|admission|discharge|visit|death|dod|service ?date)(\b|$)",
        "quasi_identifier",
        "date",
        "dates of events are quasi-identifiers (HIPAA: keep the year only)",
    ),
    (
        r"(^|\b)(diagnosis|diagnoses|dx|icd|condition|disease|problem|illness|medication|drug"
        r"|treatment|procedure|hiv|test ?result|result|symptom|disability|iq|bmi|mobility)(\b|$)",
        "sensitive",
        "health",
        "health information is sensitive",
    ),
    (
        r"(^|\b)(income|salary|wage|wages|earnings|pay|capital ?gain|capital ?loss|target"
        r"|class|net ?worth|debt|credit ?score)(\b|$)",
        "sensitive",
        "financial",
        "financial information is sensitive",
    ),
    (
        r"(^|\b)(religion|sexual ?orientation|political|union|criminal|conviction|sexuality)(\b|$)",
        "sensitive",
        "special_category",
        "a special category of personal data (GDPR art. 9)",
    ),
]
_NAME_RULES_C = [(re.compile(p), r, k, why) for p, r, k, why in _NAME_RULES]

_VALUE_RULES: list[tuple[str, str, str, str]] = [
    (r"^\d{3}-\d{2}-\d{4}$", "identifier", "ssn", "values look like US Social Security numbers"),
    (
        r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$",
        "identifier",
        "email",
        "values look like e-mail addresses",
    ),
    (r"^(https?://|www\.)\S+$", "identifier", "url", "values look like URLs"),
    (
        r"^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$",
        "identifier",
        "ip",
        "values look like IPv4 addresses",
    ),
    (
        r"^(\+?1[ .-]?)?\(?\d{3}\)?[ .-]?\d{3}[ .-]?\d{4}$|^\+\d{1,3}[ .-]?\d[\d .-]{6,14}\d$",
        "identifier",
        "phone",
        "values look like phone numbers",
    ),
    (r"^\d{5}(-\d{4})?$", "quasi_identifier", "zip", "values look like 5-digit ZIP codes"),
    (
        r"^\d{1,2}/\d{1,2}/\d{4}$|^\d{4}-\d{2}-\d{2}([ T].*)?$|^\d{1,2}\.\d{1,2}\.\d{4}$",
        "quasi_identifier",
        "date",
        "values look like dates",
    ),
]
_VALUE_RULES_C = [(re.compile(p), r, k, why) for p, r, k, why in _VALUE_RULES]
_CARD_RE = re.compile(r"^\d(?:[ -]?\d){12,18}$")
_NAME_VALUE_RE = re.compile(r"^[A-Z][a-z'\-]+(?: [A-Z][a-z'\-]+){1,2}$")


def luhn_valid(number: str) -> bool:
    """Return True when a digit string passes the Luhn checksum (ISO/IEC 7812-1)."""
    digits = [int(ch) for ch in str(number) if ch.isdigit()]
    if len(digits) < 2:
        return False
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _normalise_name(name: str) -> str:
    s = re.sub(r"([a-z])([A-Z])", r"\1 \2", str(name))
    s = re.sub(r"[^0-9A-Za-z]+", " ", s).strip().lower()
    return s


def _share(values: pd.Series, pattern: re.Pattern[str]) -> float:
    if values.empty:
        return 0.0
    return float(values.map(lambda v: bool(pattern.match(v))).mean())


def _by_identifier_values(name: str, text: pd.Series) -> RoleSuggestion | None:
    """Step 1: value patterns that are direct identifiers whatever the column name."""
    if not len(text):
        return None
    for pattern, role, kind, why in _VALUE_RULES_C:
        if role != "identifier":
            continue
        share = _share(text, pattern)
        if share >= 0.9:
            return RoleSuggestion(name, role, f"{why} ({share:.0%} of sampled values)", kind)
    card_like = text[text.map(lambda v: bool(_CARD_RE.match(v)))]
    if len(card_like) >= 0.9 * len(text):
        luhn = float(card_like.map(luhn_valid).mean())
        if luhn >= 0.9:
            return RoleSuggestion(
                name,
                "identifier",
                f"values look like payment-card numbers ({luhn:.0%} pass the Luhn check)",
                "card",
            )
    return None


def _by_name(name: str, nonnull: pd.Series, is_numeric: bool) -> RoleSuggestion | None:
    """Step 2: the column name."""
    norm = _normalise_name(name)
    for pattern, role, kind, why in _NAME_RULES_C:
        if pattern.search(norm):
            if (
                kind == "record_id"
                and is_numeric
                and nonnull.nunique() < 0.5 * max(len(nonnull), 1)
            ):
                continue  # "id"-like name but many repeats: not a record key
            return RoleSuggestion(name, role, f"{why} (column name {str(name)!r})", kind)
    return None


def _by_other_values(name: str, text: pd.Series) -> RoleSuggestion | None:
    """Step 3: value patterns of quasi-identifiers and of person names."""
    if not len(text):
        return None
    for pattern, role, kind, why in _VALUE_RULES_C:
        if role == "identifier":
            continue
        share = _share(text, pattern)
        if share >= 0.9:
            return RoleSuggestion(name, role, f"{why} ({share:.0%} of sampled values)", kind)
    share = _share(text, _NAME_VALUE_RE)
    if share >= 0.8 and text.nunique() >= 0.5 * len(text):
        return RoleSuggestion(
            name,
            "identifier",
            f"values look like person names ({share:.0%} are capitalised first + last names)",
            "name",
        )
    return None


def _suggest_one(name: str, col: pd.Series, n_rows: int) -> RoleSuggestion:
    """Suggest one column's role: the first of four steps that recognises it."""
    nonnull = col.dropna()
    sample = nonnull.iloc[:2000] if len(nonnull) > 2000 else nonnull
    text = sample.astype(str).str.strip()
    is_numeric = pd.api.types.is_numeric_dtype(col.dtype) and not pd.api.types.is_bool_dtype(
        col.dtype
    )
    found = (
        _by_identifier_values(name, text)
        or _by_name(name, nonnull, is_numeric)
        or _by_other_values(name, text)
    )
    if found is not None:
        return found
    # 4. a unique key: every value distinct on a sizeable table
    if n_rows >= 50 and len(nonnull) == n_rows and nonnull.nunique() == n_rows:
        if not (is_numeric and pd.api.types.is_float_dtype(col.dtype)):
            return RoleSuggestion(
                name,
                "identifier",
                "every value is different: it works as a record number / unique key",
                "record_id",
            )
    return RoleSuggestion(name, "other", "no identifying pattern in the name or the values", "")


def suggest_roles(df: pd.DataFrame) -> dict[str, RoleSuggestion]:
    """Propose a role for every column, with a human-readable reason.

    Rules, in order: value patterns of direct identifiers (SSN, e-mail, URL,
    IPv4, phone, payment cards with a Luhn check); the column name (direct
    identifiers, quasi-identifiers as listed by HIPAA Safe Harbor and
    El Emam 2013, sensitive attributes); value patterns of
    quasi-identifiers (ZIP codes, dates) and person names; finally columns
    whose every value differs (unique keys). A column matching nothing is
    "other".

    Parameters
    ----------
    df : pandas.DataFrame

    Returns
    -------
    dict of str to RoleSuggestion
        In column order.
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df must be a DataFrame, got {type(df).__name__}")
    n = len(df)
    return {str(c): _suggest_one(str(c), df.iloc[:, i], n) for i, c in enumerate(df.columns)}


def roles_from_suggestions(suggestions: dict[str, RoleSuggestion]) -> ColumnRoles:
    """Turn suggestions into a :class:`ColumnRoles`."""
    return ColumnRoles.from_mapping({c: s.role for c, s in suggestions.items()})


__all__ += ["roles_from_suggestions"]
