"""Column roles (direct identifier, quasi-identifier, sensitive, sampling weight, other).

:class:`ColumnRoles` is the validated, frozen assignment a user confirms;
:func:`suggest_roles` proposes one role per column from the column's name and
a sample of its values, with a reason a person can check: direct identifiers
as on the HIPAA Safe Harbor list, the smallest defensible quasi-identifier set,
and only one of two quasi-identifiers when one is a function of the other.
The same rule serves the built-in demo and every upload.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Self

import numpy as np
import numpy.typing as npt
import pandas as pd

from riskcore._results import NOT_IN_JSON, Result
from riskcore.errors import RolesError

__all__ = ["ROLES", "ColumnRoles", "RoleSuggestion", "luhn_valid", "suggest_roles"]

Role = Literal["identifier", "quasi_identifier", "sensitive", "weight", "other"]
#: The five roles, in display order.
ROLES: tuple[str, ...] = ("identifier", "quasi_identifier", "sensitive", "weight", "other")


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
    "weight": "weights",
    "other": "other",
}
_LABEL = {
    "identifier": "a direct identifier",
    "quasi_identifier": "a quasi-identifier",
    "sensitive": "a sensitive attribute",
    "weight": "the sampling weight",
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

#: Reasons citing the HIPAA Safe Harbor list, 45 CFR 164.514(b)(2)(i)(A)-(R).
_SH = "HIPAA Safe Harbor identifier (45 CFR 164.514(b)(2)(i)({}) {})"
_SH_GEO = _SH.format("B", "geographic subdivision smaller than a state")
_SH_DATE = _SH.format("C", "all elements of dates except the year")
_NOT_MINIMAL = (
    "outside the smallest quasi-identifier set (Sweeney: date of birth, sex, ZIP; "
    "HIPAA Safe Harbor); tag it to model a better-informed attacker"
)

_NAME_RULES: list[tuple[str, str, str, str]] = [
    # (regex on the normalised column name, role, kind, reason); the first match wins
    (
        r"^(ssn|social ?security( ?number| ?no)?|sin|nino|national ?(id|insurance)( ?number)?)$",
        "identifier",
        "ssn",
        "a national identification number: " + _SH.format("G", "Social Security number"),
    ),
    (
        r"(^|\b)(e ?mail|email ?address)(\b|$)",
        "identifier",
        "email",
        "e-mail addresses: " + _SH.format("F", "e-mail address"),
    ),
    (
        r"(^|\b)(phone|telephone|mobile|cell|fax)( ?(number|no))?(\b|$)",
        "identifier",
        "phone",
        "phone numbers: " + _SH.format("D", "telephone number"),
    ),
    (
        r"(^|\b)(credit ?card|card ?number|cc ?num(ber)?|iban|account ?(number|no))(\b|$)",
        "identifier",
        "account",
        "account or card numbers: " + _SH.format("J", "account number"),
    ),
    (
        r"(^|\b)(ip|ip ?address)(\b|$)",
        "identifier",
        "ip",
        "IP addresses: " + _SH.format("O", "IP address"),
    ),
    (
        r"(^|\b)(url|website|web ?page)(\b|$)",
        "identifier",
        "url",
        "URLs: " + _SH.format("N", "web URL"),
    ),
    (
        r"^(full ?name|name|first ?name|last ?name|surname|given ?name|family ?name|patient ?name"
        r"|person ?name|forename|middle ?name)$",
        "identifier",
        "name",
        "person names: " + _SH.format("A", "name"),
    ),
    (
        r"(^|\b)(mrn|medical ?record( ?number)?|record ?(id|number|no)|patient ?id|person ?id"
        r"|customer ?id|member ?id|employee ?id|license ?(number|no)|licence ?(number|no)"
        r"|passport( ?number)?|hashed ?name|id|uuid|guid)(\b|$)",
        "identifier",
        "record_id",
        "a record number or identifier: " + _SH.format("H", "record number"),
    ),
    (
        r"^(birth ?year|year ?of ?birth|yob)$",
        "quasi_identifier",
        "birth_year",
        "year of birth: a demographic quasi-identifier; Safe Harbor keeps the year",
    ),
    (
        r"(^|\b)(dob|date ?of ?birth|birth ?date|birthdate|birthday|born)(\b|$)",
        "identifier",
        "dob",
        "full date of birth: " + _SH_DATE,
    ),
    (
        r"^(zip ?3|3 ?digit ?zip( ?code)?|zip ?(code ?)?prefix)$",
        "quasi_identifier",
        "zip3",
        "3-digit ZIP area: a geographic quasi-identifier (Safe Harbor keeps it where the area "
        "holds more than 20,000 people)",
    ),
    (
        r"(^|\b)(zip|zip ?code|zipcode|postcode|postal ?code|post ?code|plz|postal)(\b|$)",
        "identifier",
        "zip",
        "5-digit ZIP / postcode: " + _SH_GEO,
    ),
    (
        r"(^|\b)(street|address|addr|city|town|county|district|municipality|precinct"
        r"|neighbou?rhood|geo ?code|geo|latitude|longitude|lat|lon|lng|census ?tract|tract"
        r"|block ?group)(\b|$)",
        "identifier",
        "geo_fine",
        "a place smaller than a state: " + _SH_GEO,
    ),
    (
        r"^(age|age ?years|age ?at ?.*|years ?old|age ?(group|band|range|bracket|class|cat"
        r"|category))$",
        "quasi_identifier",
        "age",
        "age: a demographic quasi-identifier (Sweeney; El Emam); Safe Harbor keeps it, with "
        "ages over 89 grouped",
    ),
    (
        r"^(sex|gender)$",
        "quasi_identifier",
        "sex",
        "sex / gender: a demographic quasi-identifier (Sweeney: ZIP, date of birth and sex "
        "single out most Americans)",
    ),
    (
        r"(^|\b)(race|ethnicity|ethnic ?group|ancestry)(\b|$)",
        "quasi_identifier",
        "race",
        "race / ethnicity: a demographic quasi-identifier, published in census tables",
    ),
    (
        r"(^|\b)(marital( ?status)?|civil ?status)(\b|$)",
        "quasi_identifier",
        "marital",
        "marital status: a demographic quasi-identifier, public in many records",
    ),
    (
        r"(^|\b)(education|degree|school)(\b|$)",
        "quasi_identifier",
        "education",
        "education: a demographic quasi-identifier, often public (professional profiles)",
    ),
    (
        r"(^|\b)(state|province|region|country|native ?country|nationality|citizenship"
        r"|country ?of ?birth|birthplace)(\b|$)",
        "quasi_identifier",
        "geo",
        "geography of a state or larger: a quasi-identifier Safe Harbor keeps",
    ),
    (
        r"(^|\b)(relationship|household ?role)(\b|$)",
        "other",
        "relationship",
        "household relationship (husband, own child ...): it follows largely from marital "
        "status and sex; " + _NOT_MINIMAL,
    ),
    (
        r"(^|\b)(occupation|job|job ?title|title|profession|employer|workclass|work ?class"
        r"|industry|job ?code)(\b|$)",
        "other",
        "occupation",
        "occupation / employment: colleagues may know it, but it is " + _NOT_MINIMAL,
    ),
    (
        r"(^|\b)(date|admission|discharge|visit|death|dod|service ?date)(\b|$)",
        "identifier",
        "date",
        "dates of events: " + _SH_DATE,
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
    (
        r"^(fnlwgt|final ?weight|weight|wgt|[a-z]* ?wgt|survey ?weight|sampling ?weight"
        r"|sample ?weight|design ?weight|person ?weight|weights?)$",
        "weight",
        "weight",
        "a sampling weight: each record stands for this many people of the population, used to "
        "estimate population class sizes for the individual risk (sdcMicro's weightVar), never "
        "a quasi-identifier; tag it other if it is a measurement such as body weight",
    ),
    (
        r"^(hours|hrs|hours ?per ?week|hours ?worked)$",
        "other",
        "measurement",
        "a measurement (hours) an outside attacker rarely knows exactly: not a quasi-identifier",
    ),
]
_NAME_RULES_C = [(re.compile(p), r, k, why) for p, r, k, why in _NAME_RULES]

#: Value patterns of direct identifiers, tried before the column name (step 1).
_VALUE_RULES: list[tuple[str, str, str, str]] = [
    (
        r"^\d{3}-\d{2}-\d{4}$",
        "identifier",
        "ssn",
        "values look like US Social Security numbers: " + _SH.format("G", "Social Security number"),
    ),
    (
        r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$",
        "identifier",
        "email",
        "values look like e-mail addresses: " + _SH.format("F", "e-mail address"),
    ),
    (
        r"^(https?://|www\.)\S+$",
        "identifier",
        "url",
        "values look like URLs: " + _SH.format("N", "web URL"),
    ),
    (
        r"^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$",
        "identifier",
        "ip",
        "values look like IPv4 addresses: " + _SH.format("O", "IP address"),
    ),
    (
        r"^(\+?1[ .-]?)?\(?\d{3}\)?[ .-]?\d{3}[ .-]?\d{4}$|^\+\d{1,3}[ .-]?\d[\d .-]{6,14}\d$",
        "identifier",
        "phone",
        "values look like phone numbers: " + _SH.format("D", "telephone number"),
    ),
]
#: Value patterns tried after the column name (step 3); ZIP codes only in text columns.
_LATE_VALUE_RULES: list[tuple[str, str, str, str]] = [
    (
        r"^\d{5}(-\d{4})?$",
        "identifier",
        "zip",
        "values look like 5-digit ZIP codes: " + _SH_GEO,
    ),
    (
        r"^\d{1,2}/\d{1,2}/\d{4}$|^\d{4}-\d{2}-\d{2}([ T].*)?$|^\d{1,2}\.\d{1,2}\.\d{4}$",
        "identifier",
        "date",
        "values look like full dates: " + _SH_DATE,
    ),
]
_LATE_VALUE_RULES_C = [(re.compile(p), r, k, why) for p, r, k, why in _LATE_VALUE_RULES]
#: Values that are years only (a date column Safe Harbor lets through) and 3-digit ZIP areas.
_YEAR_RE = re.compile(r"^(1[89]|20)\d\d(\.0)?$")
_ZIP3_RE = re.compile(r"^\d{1,3}(\.0)?$")
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
                f"values look like payment-card numbers ({luhn:.0%} pass the Luhn check): "
                + _SH.format("J", "account number"),
                "card",
            )
    return None


def _by_name(
    name: str, nonnull: pd.Series, text: pd.Series, is_numeric: bool
) -> RoleSuggestion | None:
    """Step 2: the column name, refined by the values for dates and ZIP codes."""
    norm = _normalise_name(name)
    for pattern, role, kind, why in _NAME_RULES_C:
        if not pattern.search(norm):
            continue
        if kind == "record_id" and is_numeric and nonnull.nunique() < 0.5 * max(len(nonnull), 1):
            continue  # "id"-like name but many repeats: not a record key
        if kind in ("dob", "date") and len(text) and _share(text, _YEAR_RE) >= 0.9:
            role, kind = "quasi_identifier", "birth_year" if kind == "dob" else "year"
            why = "years only: a quasi-identifier Safe Harbor keeps (it removes finer dates)"
        elif kind == "zip" and len(text) and _share(text, _ZIP3_RE) >= 0.9:
            role, kind = "quasi_identifier", "zip3"
            why = "values of at most 3 digits: a ZIP area, a geographic quasi-identifier"
        elif kind == "weight" and not _weight_like(nonnull, is_numeric):
            role, kind = "other", "measurement"
            why = (
                "named like a weight, but its values are not all numbers of at least 1, so it "
                "cannot be a sampling weight (a record stands for at least itself)"
            )
        return RoleSuggestion(name, role, f"{why} (column name {str(name)!r})", kind)
    return None


def _weight_like(nonnull: pd.Series, is_numeric: bool) -> bool:
    """Return True when a column can be sampling weights: numbers of at least 1."""
    if not is_numeric or not len(nonnull):
        return False
    values = nonnull.to_numpy(dtype=np.float64)
    return bool(np.isfinite(values).all() and values.min() >= 1)


def _by_other_values(
    name: str, text: pd.Series, is_numeric: bool, is_datetime: bool
) -> RoleSuggestion | None:
    """Step 3: value patterns of ZIP codes (text only), full dates and person names."""
    if is_datetime:
        return RoleSuggestion(name, "identifier", "a column of dates: " + _SH_DATE, "date")
    if not len(text):
        return None
    for pattern, role, kind, why in _LATE_VALUE_RULES_C:
        if kind == "zip" and is_numeric:
            continue  # a number from 10000 to 99999 is as likely an amount as a ZIP code
        share = _share(text, pattern)
        if share >= 0.9:
            return RoleSuggestion(name, role, f"{why} ({share:.0%} of sampled values)", kind)
    share = _share(text, _NAME_VALUE_RE)
    if share >= 0.8 and text.nunique() >= 0.5 * len(text):
        return RoleSuggestion(
            name,
            "identifier",
            f"values look like person names ({share:.0%} are capitalised first + last names): "
            + _SH.format("A", "name"),
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
    is_datetime = pd.api.types.is_datetime64_any_dtype(col.dtype)
    found = (
        _by_identifier_values(name, text)
        or _by_name(name, nonnull, text, is_numeric)
        or _by_other_values(name, text, is_numeric, is_datetime)
    )
    if found is not None:
        return found
    # 4. a unique key: every value distinct on a sizeable table
    if n_rows >= 50 and len(nonnull) == n_rows and nonnull.nunique() == n_rows:
        if not (is_numeric and pd.api.types.is_float_dtype(col.dtype)):
            return RoleSuggestion(
                name,
                "identifier",
                "every value is different: it works as a record number / unique key ("
                + _SH.format("R", "any other unique identifying number")
                + ")",
                "record_id",
            )
    return RoleSuggestion(name, "other", "no identifying pattern in the name or the values", "")


# ------------------------------------------------------------ redundancy

#: Columns with more distinct values than this (or than a fifth of the rows) are left
#: out of the redundancy check: a near-unique column determines every other column.
MAX_LEVELS = 1_000
#: Rows of the evenly spaced sample that rules pairs out before the exact check.
_PAIR_SAMPLE = 20_000


@dataclass(frozen=True)
class RedundantPair(Result):
    """A quasi-identifier that is a function of another one.

    Attributes
    ----------
    column : str
        The column left out of the suggested quasi-identifiers.
    determined_by : str
        The quasi-identifier it is a function of (every value of
        ``determined_by`` occurs with exactly one value of ``column``).
    n_values : int
        Distinct values of ``column`` (missing counts as a value).
    n_values_by : int
        Distinct values of ``determined_by``.
    one_to_one : bool
        True when each column is a function of the other (the same partition).
    reason : str
        The sentence shown to the user.
    """

    column: str
    determined_by: str
    n_values: int
    n_values_by: int
    one_to_one: bool
    reason: str


def _codes(col: pd.Series) -> tuple[npt.NDArray[np.int64], int]:
    """Return dense integer codes of a column and their count; missing is one more value."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        raw = col.cat.codes.to_numpy().astype(np.int64) + 1  # -1 (missing) becomes 0
        present = np.bincount(raw, minlength=len(col.cat.categories) + 1) > 0
        remap = np.cumsum(present) - 1
        return remap[raw], int(present.sum())
    codes, uniques = pd.factorize(col, use_na_sentinel=False)
    return np.asarray(codes, dtype=np.int64), len(uniques)


def _n_pairs(a: npt.NDArray[np.int64], n_a: int, b: npt.NDArray[np.int64], n_b: int) -> int:
    """Return the number of distinct (a, b) value pairs (the non-empty contingency cells)."""
    key = a * n_b + b
    if n_a * n_b <= 1 << 22:
        return int(np.count_nonzero(np.bincount(key, minlength=n_a * n_b)))
    return len(np.unique(key))


def _functions(columns: dict[str, pd.Series], n: int) -> dict[tuple[str, str], tuple[int, int]]:
    """Return ``{(b, a): (n_b, n_a)}`` for every eligible pair where b is a function of a.

    b is a function of a when the a x b contingency has as many non-empty
    cells as a has values. Pairs are first ruled out on an evenly spaced
    sample of rows (a counter-example in the sample is one in the table) and
    the survivors are checked on every row, so the answer is exact.
    """
    cap = min(MAX_LEVELS, n // 5)
    if cap < 2 or len(columns) < 2:
        return {}
    full: dict[str, tuple[npt.NDArray[np.int64], int]] = {}

    def codes_full(c: str) -> tuple[npt.NDArray[np.int64], int]:
        if c not in full:
            full[c] = _codes(columns[c])
        return full[c]

    if n > _PAIR_SAMPLE:
        rows = np.linspace(0, n - 1, _PAIR_SAMPLE).astype(np.int64)
        coded = {c: _codes(col.iloc[rows]) for c, col in columns.items()}
    else:
        coded = {c: codes_full(c) for c in columns}
    cols = [c for c in columns if coded[c][1] <= cap]  # more values in a sample: more in all
    maybe: list[tuple[str, str]] = []
    for i, a in enumerate(cols):
        for b in cols[i + 1 :]:
            (ca, na), (cb, nb) = coded[a], coded[b]
            cells = _n_pairs(ca, na, cb, nb)
            if cells == na:
                maybe.append((b, a))
            if cells == nb:
                maybe.append((a, b))
    out: dict[tuple[str, str], tuple[int, int]] = {}
    for b, a in maybe:
        (ca, na), (cb, nb) = codes_full(a), codes_full(b)
        if not (2 <= na <= cap and 2 <= nb <= cap):
            continue  # near-unique (determines everything) or constant (determined by anything)
        if _n_pairs(ca, na, cb, nb) == na:
            out[(b, a)] = (nb, na)
    return out


def _redundant_pairs(columns: dict[str, pd.Series], n: int) -> list[RedundantPair]:
    """Choose which quasi-identifiers to keep when some are functions of others.

    Columns are visited finest first (most values), text before numbers, then
    in table order; a column is left out when a column already kept
    determines it. For a one-to-one pair the text column is kept (it reads
    more easily); when b is a function of a but not the reverse, a is kept:
    b splits no equivalence class that a does not.
    """
    funcs = _functions(columns, n)
    if not funcs:
        return []
    qis = list(columns)
    numeric = {c: pd.api.types.is_numeric_dtype(col.dtype) for c, col in columns.items()}
    n_values: dict[str, int] = {}
    for (b, a), (nb, na) in funcs.items():
        n_values[b], n_values[a] = nb, na
    order = sorted(n_values, key=lambda c: (-n_values[c], numeric[c], qis.index(c)))
    kept: list[str] = []
    pairs: list[RedundantPair] = []
    for b in order:
        by = next((a for a in kept if (b, a) in funcs), None)
        if by is None:
            kept.append(b)
            continue
        nb, na = funcs[(b, by)]
        one_to_one = (by, b) in funcs
        if one_to_one:
            why = (
                f"{b} is a function of {by} ({nb} values, one-to-one): keep one as a "
                f"quasi-identifier; {by} is suggested"
                + (" (text reads more easily)" if numeric[b] and not numeric[by] else "")
            )
        else:
            why = (
                f"{b} is a function of {by} (its {na} values map to {nb} of {b}): it splits no "
                f"equivalence class that {by} does not, so {by} is the quasi-identifier"
            )
        pairs.append(RedundantPair(b, by, nb, na, one_to_one, why))
    return sorted(pairs, key=lambda p: qis.index(p.column))


# ------------------------------------------------------------ suggestions


@dataclass(frozen=True)
class RoleSuggestions(Result, Mapping[str, RoleSuggestion]):
    """The suggested role of every column, and the redundant quasi-identifiers.

    A read-only mapping ``{column: RoleSuggestion}`` in column order.

    Attributes
    ----------
    suggestions : tuple of RoleSuggestion
        One per column, in column order.
    redundant : tuple of RedundantPair
        Quasi-identifier candidates that are a function of another one; each
        ``column`` here is suggested as "other", its ``determined_by`` as a
        quasi-identifier.
    """

    suggestions: tuple[RoleSuggestion, ...] = ()
    redundant: tuple[RedundantPair, ...] = ()
    _by_column: dict[str, RoleSuggestion] = field(
        init=False, repr=False, compare=False, metadata=NOT_IN_JSON
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "suggestions", tuple(self.suggestions))
        object.__setattr__(self, "redundant", tuple(self.redundant))
        object.__setattr__(self, "_by_column", {s.column: s for s in self.suggestions})

    def __getitem__(self, column: str) -> RoleSuggestion:
        return self._by_column[column]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_column)

    def __len__(self) -> int:
        return len(self._by_column)

    @property
    def pairs(self) -> tuple[tuple[str, str], ...]:
        """The redundant pairs as ``(column, determined_by)``."""
        return tuple((p.column, p.determined_by) for p in self.redundant)

    @property
    def roles(self) -> ColumnRoles:
        """The suggested roles as a :class:`ColumnRoles`."""
        return ColumnRoles.from_mapping({c: s.role for c, s in self.items()})


def suggest_roles(df: pd.DataFrame) -> RoleSuggestions:
    """Propose a role for every column, with a human-readable reason.

    One rule for every table (the demo included). In order:

    1. value patterns of direct identifiers (SSN, e-mail, URL, IPv4, phone,
       payment cards with a Luhn check);
    2. the column name. Direct identifiers are the HIPAA Safe Harbor list
       (45 CFR 164.514(b)(2)(i)(A)-(R)): names, SSNs, phone, e-mail, record
       numbers, *full dates* (a date of birth or of an event more specific
       than the year, (C)) and *geography smaller than a state* (5-digit
       ZIP, street, city, county, (B)); a date column holding years only and
       a ZIP column of 3-digit areas are quasi-identifiers instead.
       Quasi-identifiers are the smallest defensible set, the demographics a
       linkage attacker finds in voter rolls and census tables (Sweeney
       2000: date of birth, sex, ZIP; El Emam 2013): age or year of birth,
       sex, race, marital status, education, and geography of a state or
       larger. Occupation, workclass and household relationship are "other"
       (tag them to model a stronger attacker); measurements (hours per
       week) are "other"; a column named like a sampling weight (weight,
       wgt, fnlwgt, survey weight ...) holding numbers of at least 1 is the
       weight (the first such column only; a weight is never suggested
       otherwise); health, financial (income, capital gain) and
       special-category data are sensitive;
    3. value patterns of 5-digit ZIP codes (text columns only), full dates
       and person names;
    4. a column whose every value differs is a unique key (identifier).

    A column matching nothing is "other". Finally, when one suggested
    quasi-identifier is a function of another (every value of A occurs with
    exactly one value of B, missing values counting as a value), only one is
    kept: B adds no information to the equivalence classes. Columns with
    more than :data:`MAX_LEVELS` distinct values, or more than a fifth of the
    rows distinct, are left out of that check, since a near-unique column is
    trivially "a function of" nothing and determines every other column.

    Parameters
    ----------
    df : pandas.DataFrame

    Returns
    -------
    RoleSuggestions
        A mapping ``{column: RoleSuggestion}`` in column order, with the
        redundant pairs in ``redundant``.
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df must be a DataFrame, got {type(df).__name__}")
    n = len(df)
    names = [str(c) for c in df.columns]
    columns = {c: df.iloc[:, i] for i, c in enumerate(names)}
    sugg = {c: _suggest_one(c, col, n) for c, col in columns.items()}
    qis = [c for c, s in sugg.items() if s.role == "quasi_identifier"]
    pairs = _redundant_pairs({c: columns[c] for c in qis}, n)
    for p in pairs:
        sugg[p.column] = replace(sugg[p.column], role="other", reason=p.reason)
    weights = [c for c, s in sugg.items() if s.role == "weight"]
    for c in weights[1:]:
        sugg[c] = replace(
            sugg[c],
            role="other",
            kind="measurement",
            reason=f"named like a weight too, but {weights[0]} is suggested as the sampling "
            "weight (only one column can be)",
        )
    return RoleSuggestions(tuple(sugg.values()), tuple(pairs))


def roles_from_suggestions(suggestions: Mapping[str, RoleSuggestion]) -> ColumnRoles:
    """Turn suggestions into a :class:`ColumnRoles`."""
    return ColumnRoles.from_mapping({c: s.role for c, s in suggestions.items()})


__all__ += ["MAX_LEVELS", "RedundantPair", "RoleSuggestions", "roles_from_suggestions"]
