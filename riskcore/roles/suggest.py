"""Suggested roles: one rule for every table, each suggestion with its reason and its category.

:func:`suggest_roles` proposes one role per column from the column's name, a
sample of its values and what the built-in free-text scan
(:func:`riskcore.freetext.scan_text`) finds inside its text. A suggested
direct identifier carries its HIPAA Safe Harbor category letters as data
(:attr:`RoleSuggestion.letters`); the reason sentence is derived from them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore._results import NOT_IN_JSON, Result
from riskcore.freetext import MAX_CHARS, ColumnScan, TextScan, scan_text
from riskcore.roles.assignment import ColumnRoles
from riskcore.roles.persons import PersonCandidate, PersonCandidates, find_persons, person_facts
from riskcore.roles.redundancy import MAX_LEVELS, RedundantPair, redundant_pairs
from riskcore.roles.rules import (
    CARD_RE,
    HEALTH_CODE_RULES,
    ICD9_MARK,
    LATE_VALUE_RULES,
    NAME_RULES,
    NAME_VALUE_RE,
    VALUE_RULES,
    YEAR_RE,
    ZIP3_RE,
    expert_reason,
    luhn_valid,
    matches,
    normalise_name,
    safe_harbor_reason,
    share,
)

__all__ = [
    "READINGS",
    "READING_KINDS",
    "RoleSuggestion",
    "RoleSuggestions",
    "free_text_reason",
    "roles_from_suggestions",
    "suggest_roles",
]


#: The two readings of the Privacy Rule a suggestion can follow: ``"safe_harbor"``, where
#: full dates and 5-digit ZIP codes are direct identifiers to remove (45 CFR
#: 164.514(b)(2)), and ``"expert"``, an expert determination (45 CFR 164.514(b)(1)),
#: where they are quasi-identifiers to generalise and measure.
READINGS: tuple[str, ...] = ("safe_harbor", "expert")
#: The kinds of column whose suggested role depends on the reading: full dates of birth,
#: dates of events, 5-digit ZIP codes (and ZIP+4).
READING_KINDS: frozenset[str] = frozenset({"dob", "date", "zip"})


@dataclass(frozen=True)
class RoleSuggestion(Result):
    """A proposed role for one column and why.

    Attributes
    ----------
    column : str
        The column's name.
    role : str
        One of :data:`~riskcore.roles.ROLES`.
    reason : str
        Plain-language reason, e.g. "values look like US Social Security numbers".
    kind : str
        What the column appears to hold ("ssn", "zip", "age", "free_text" ...).
    letters : tuple of str
        The HIPAA Safe Harbor categories (45 CFR 164.514(b)(2)(i)(A)-(R)) the
        column holds as a direct identifier or as the person column (a
        direct identifier too), by paragraph letter; empty for every other
        role. Free text can hold several.
    """

    column: str
    role: str
    reason: str
    kind: str = field(default="")
    letters: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "letters", tuple(self.letters))


def _from_rule(
    name: str, rule_role: str, kind: str, reason: str, letter: str | None
) -> RoleSuggestion:
    return RoleSuggestion(name, rule_role, reason, kind, (letter,) if letter else ())


def _by_identifier_values(name: str, text: pd.Series) -> RoleSuggestion | None:
    """Step 1: value patterns that are direct identifiers whatever the column name."""
    if not len(text):
        return None
    for rule in VALUE_RULES:
        found = share(text, rule.pattern)
        if found >= 0.9:
            why = f"{rule.reason} ({found:.0%} of sampled values)"
            return _from_rule(name, rule.role, rule.kind, why, rule.letter)
    card_like = text[matches(text, CARD_RE)]
    if len(card_like) >= 0.9 * len(text):
        luhn = float(card_like.map(luhn_valid).mean())
        if luhn >= 0.9:
            why = (
                f"values look like payment-card numbers ({luhn:.0%} pass the Luhn check): "
                + safe_harbor_reason("J")
            )
            return RoleSuggestion(name, "identifier", why, "card", ("J",))
    return None


def _by_name(
    name: str, nonnull: pd.Series, text: pd.Series, is_numeric: bool
) -> RoleSuggestion | None:
    """Step 2: the column name, refined by the values for dates and ZIP codes."""
    norm = normalise_name(name)
    for rule in NAME_RULES:
        if not rule.pattern.search(norm):
            continue
        role, kind, why, letter = rule.role, rule.kind, rule.reason, rule.letter
        if kind == "record_id" and is_numeric and nonnull.nunique() < 0.5 * max(len(nonnull), 1):
            continue  # "id"-like name but many repeats: not a record key
        if kind in ("dob", "date") and len(text) and share(text, YEAR_RE) >= 0.9:
            role, kind = "quasi_identifier", "birth_year" if kind == "dob" else "year"
            why, letter = (
                "years only: a quasi-identifier Safe Harbor keeps (it removes finer dates)",
                None,
            )
        elif kind == "zip" and len(text) and share(text, ZIP3_RE) >= 0.9:
            role, kind = "quasi_identifier", "zip3"
            why, letter = (
                "values of at most 3 digits: a ZIP area, a geographic quasi-identifier",
                None,
            )
        elif kind == "weight" and not _weight_like(nonnull, is_numeric):
            role, kind = "other", "measurement"
            why = (
                "named like a weight, but its values are not all numbers of at least 1, so it "
                "cannot be a sampling weight (a record stands for at least itself)"
            )
        return _from_rule(name, role, kind, f"{why} (column name {str(name)!r})", letter)
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
        why = "a column of dates: " + safe_harbor_reason("C")
        return RoleSuggestion(name, "identifier", why, "date", ("C",))
    if not len(text):
        return None
    for rule in LATE_VALUE_RULES:
        if rule.kind == "zip" and is_numeric:
            continue  # a number from 10000 to 99999 is as likely an amount as a ZIP code
        found = share(text, rule.pattern)
        if found >= 0.9:
            why = f"{rule.reason} ({found:.0%} of sampled values)"
            return _from_rule(name, rule.role, rule.kind, why, rule.letter)
    if not is_numeric:
        for rule in HEALTH_CODE_RULES:
            found = share(text, rule.pattern)
            if found >= 0.9 and (rule.kind != "icd9" or share(text, ICD9_MARK) > 0):
                why = f"{rule.reason} ({found:.0%} of sampled values)"
                return _from_rule(name, rule.role, rule.kind, why, rule.letter)
    found = share(text, NAME_VALUE_RE)
    if found >= 0.8 and text.nunique() >= 0.5 * len(text):
        why = (
            f"values look like person names ({found:.0%} are capitalised first + last names): "
            + safe_harbor_reason("A")
        )
        return RoleSuggestion(name, "identifier", why, "name", ("A",))
    return None


def free_text_reason(scan: ColumnScan) -> str:
    """Return the reason a column whose text holds identifiers is a direct identifier.

    Derived from the scan's counts and letters: "free text holding HIPAA
    Safe Harbor identifiers (45 CFR 164.514(b)(2)(i)(D)): phone numbers,
    3,587 in 3,587 of 5,000 cells".

    Parameters
    ----------
    scan : ColumnScan
        The column's free-text scan.

    Returns
    -------
    str
    """
    parts = [
        f"{f.label}, {f.n_found:,} in {f.n_cells:,} of {scan.n_cells:,} cells"
        for f in scan.identifiers
    ]
    letters = ", ".join(f"({x})" for x in scan.letters)
    why = (
        f"free text holding HIPAA Safe Harbor identifiers (45 CFR 164.514(b)(2)(i){letters}): "
        + "; ".join(parts)
    )
    if scan.status == "partial":
        why += f" (only part of the text was scanned: {scan.why})"
    return why


def _by_free_text(name: str, scan: ColumnScan | None) -> RoleSuggestion | None:
    """Step 3b: identifiers the built-in scan found inside the column's text."""
    if scan is None or not scan.identifiers:
        return None
    return RoleSuggestion(name, "identifier", free_text_reason(scan), "free_text", scan.letters)


def _read_as(found: RoleSuggestion, reading: str) -> RoleSuggestion:
    """Return a full date or 5-digit ZIP suggestion as the reading has it (expert: a QI)."""
    if reading != "expert" or found.kind not in READING_KINDS or found.role != "identifier":
        return found
    why = found.reason
    for letter in found.letters:
        why = why.replace(safe_harbor_reason(letter), expert_reason(letter))
    return RoleSuggestion(found.column, "quasi_identifier", why, found.kind, ())


def _suggest_one(
    name: str, col: pd.Series, n_rows: int, scan: ColumnScan | None, reading: str = "safe_harbor"
) -> RoleSuggestion:
    """Suggest one column's role: the first of five steps that recognises it."""
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
    if found is None or found.role == "other":
        found = _by_free_text(name, scan) or found
    if found is not None:
        return _read_as(found, reading)
    # 4. a unique key: every value distinct on a sizeable table
    if n_rows >= 50 and len(nonnull) == n_rows:
        # a text column's distinct values were counted by the scan: no second count
        distinct = scan.n_values if scan is not None else nonnull.nunique()
        if distinct == n_rows and not (is_numeric and pd.api.types.is_float_dtype(col.dtype)):
            why = (
                "every value is different: it works as a record number / unique key ("
                + safe_harbor_reason("R")
                + ")"
            )
            return RoleSuggestion(name, "identifier", why, "record_id", ("R",))
    return RoleSuggestion(name, "other", "no identifying pattern in the name or the values", "")


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
    text : TextScan or None
        The built-in scan of the text columns the suggestions read (None
        when suggestions were made without one).
    persons : PersonCandidates
        The columns that may link the rows of one person
        (:func:`riskcore.roles.persons.find_persons`); the best is
        suggested as the person.
    reading : str
        The reading the suggestions follow, one of :data:`READINGS`.
    """

    suggestions: tuple[RoleSuggestion, ...] = ()
    redundant: tuple[RedundantPair, ...] = ()
    text: TextScan | None = None
    persons: PersonCandidates = field(default_factory=PersonCandidates)
    reading: str = "safe_harbor"
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
    def by_reading(self) -> tuple[str, ...]:
        """The columns whose suggested role depends on the reading (:data:`READING_KINDS`)."""
        return tuple(
            c
            for c, s in self.items()
            if s.kind in READING_KINDS and s.role in ("identifier", "quasi_identifier")
        )

    @property
    def roles(self) -> ColumnRoles:
        """The suggested roles as a :class:`ColumnRoles`."""
        return ColumnRoles.from_mapping({c: s.role for c, s in self.items()})

    def persons_as_identifiers(self) -> RoleSuggestions:
        """Return the suggestions with the person column suggested as a direct identifier.

        The person column is a direct identifier too (its kind, letters and reason are
        kept): a consumer that knows direct identifiers only (the Safe Harbor check)
        reads it as one.

        Returns
        -------
        RoleSuggestions
            Self when no column is suggested as the person.
        """
        if all(s.role != "person" for s in self.suggestions):
            return self
        return replace(
            self,
            suggestions=tuple(
                replace(s, role="identifier") if s.role == "person" else s for s in self.suggestions
            ),
        )


@renamed_arguments(df="data")
def suggest_roles(
    data: pd.DataFrame, *, max_chars: int = MAX_CHARS, reading: str = "safe_harbor"
) -> RoleSuggestions:
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
    3. value patterns of 5-digit ZIP codes (text columns only), full dates,
       diagnosis, procedure and drug codes (ICD-10, ICD-9, CPT / HCPCS, NDC;
       text columns only; sensitive: :data:`~riskcore.roles.rules.HEALTH_CODE_RULES`)
       and person names; then, for a column no step has placed or placed as
       "other", identifiers written inside its text
       (:func:`riskcore.freetext.scan_text`, every text column, whatever
       its name): a note holding phone numbers is a direct identifier, its
       reason naming the counts and categories found;
    4. a column whose every value differs is a unique key (identifier);
    5. the person: of the columns named like a person's identifier (patient
       id, member no ...) or suggested as a key held by one individual (a
       record number, SSN, account, e-mail, phone), the best whose values
       repeat, each value the rows of one individual, is suggested as the
       person, its reason stating the people, rows and rows per person
       (:func:`riskcore.roles.persons.find_persons`: the rule, and what it
       reads of a large table). A unique key (a claim number) stays a direct
       identifier; so does a column whose groups mix individuals (a
       household id: different dates of birth in one group).

    A column matching nothing is "other". Finally, when one suggested
    quasi-identifier is a function of another (every value of A occurs with
    exactly one value of B, missing values counting as a value), only one is
    kept: B adds no information to the equivalence classes. Columns with
    more than :data:`MAX_LEVELS` distinct values, or more than a fifth of the
    rows distinct, are left out of that check, since a near-unique column is
    trivially "a function of" nothing and determines every other column.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    max_chars : int, default :data:`riskcore.freetext.MAX_CHARS`
        Characters of distinct values the free-text scan reads per column.
    reading : {"safe_harbor", "expert"}, default "safe_harbor"
        Which reading of the Privacy Rule the suggestions follow
        (:data:`READINGS`): Safe Harbor (45 CFR 164.514(b)(2)) makes full
        dates (a date of birth, a date of service) and 5-digit ZIP codes
        direct identifiers to remove; an expert determination (45 CFR
        164.514(b)(1)) makes them quasi-identifiers, generalised and measured
        (each reason says which). Every other suggestion is the same in both.

    Returns
    -------
    RoleSuggestions
        A mapping ``{column: RoleSuggestion}`` in column order, with the
        redundant pairs in ``redundant``, the free-text scan in ``text`` and
        the person columns in ``persons``.
    """
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a DataFrame, got {type(data).__name__}")
    if reading not in READINGS:
        raise ValueError(f"reading must be one of {', '.join(READINGS)}, got {reading!r}")
    n = len(data)
    names = [str(c) for c in data.columns]
    columns = {c: data.iloc[:, i] for i, c in enumerate(names)}
    text = scan_text(data, max_chars=max_chars)
    sugg = {c: _suggest_one(c, col, n, text.get(c), reading) for c, col in columns.items()}
    qis = [c for c, s in sugg.items() if s.role == "quasi_identifier"]
    pairs = redundant_pairs({c: columns[c] for c in qis}, n)
    for p in pairs:
        sugg[p.column] = replace(sugg[p.column], role="other", reason=p.reason, letters=())
    weights = [c for c, s in sugg.items() if s.role == "weight"]
    for c in weights[1:]:
        sugg[c] = replace(
            sugg[c],
            role="other",
            kind="measurement",
            reason=f"named like a weight too, but {weights[0]} is suggested as the sampling "
            "weight (only one column can be)",
            letters=(),
        )
    persons = find_persons(data, kinds={c: s.kind for c, s in sugg.items()}, scan=text)
    if persons.best is not None:
        sugg[persons.best.column] = _person(persons.best, sugg[persons.best.column])
    return RoleSuggestions(tuple(sugg.values()), tuple(pairs), text, persons, reading)


def _person(best: PersonCandidate, before: RoleSuggestion) -> RoleSuggestion:
    """Return the suggestion of the person column, its reason from the candidate's facts."""
    kind, letters = (
        (before.kind, before.letters) if before.role == "identifier" else ("record_id", ("H",))
    )
    why = "its values repeat, each the rows of one person: " + person_facts(
        best.n_people, best.n_rows, best.min_rows, best.max_rows
    )
    if best.n_missing:
        why += f" ({best.n_missing:,} rows without a value)"
    if best.same_person is not None:
        traits = list(best.traits)
        names = traits[0] if len(traits) == 1 else ", ".join(traits[:-1]) + " and " + traits[-1]
        which = (
            "every repeated value"
            if best.same_person == 1
            else f"{best.same_person:.0%} of the repeated values"
        )
        why += f"; the rows of {which} agree on {names}"
    if letters:
        why += f"; a direct identifier too: {safe_harbor_reason(letters[0])}"
    return RoleSuggestion(before.column, "person", why, kind, letters)


def roles_from_suggestions(suggestions: Mapping[str, RoleSuggestion]) -> ColumnRoles:
    """Turn suggestions into a :class:`ColumnRoles`.

    Parameters
    ----------
    suggestions : mapping of str to RoleSuggestion
        The suggestion per column (:func:`suggest_roles`); each column gets its role.

    Returns
    -------
    ColumnRoles
    """
    return ColumnRoles.from_mapping({c: s.role for c, s in suggestions.items()})


__all__ += ["MAX_LEVELS", "RedundantPair"]
