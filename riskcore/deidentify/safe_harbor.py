"""HIPAA Safe Harbor (45 CFR 164.514(b)(2)): the 18-category checklist and the standard transforms.

:func:`safe_harbor_check` lists, for each of the 18 identifier categories
(A)-(R) of 164.514(b)(2)(i), the columns of a table that hold it and how they
were found, and gives a verdict: pass, or what remains. Columns are
recognised by the one rule of :func:`riskcore.roles.suggest_roles` (its
reasons cite the category letter), plus the columns the user tagged as direct
identifiers; nothing here is a second rule.

The standard transforms keep what Safe Harbor allows:

- :func:`zip_to_zip3`: the first 3 digits of a ZIP code, ``000`` for the
  areas of 20,000 people or fewer (:data:`RESTRICTED_ZIP3`);
- :func:`ages_to_90_plus`: ages over 89 become one category ``"90+"``;
- :func:`dates_to_year`: dates become their year; birth years implying an
  age over 89 become one category.

:func:`apply_safe_harbor` applies them to every column the rule recognises and
drops the other identifier columns. The checklist cannot see (ii), the
requirement that the covered entity have no actual knowledge that the rest
could identify someone, nor identifiers that look like nothing in particular
(device serials, photographs); the verdict says so.
"""

from __future__ import annotations

import datetime as _dt
import functools
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from riskcore._results import Result
from riskcore.deidentify.masking import distinct_text, take_back
from riskcore.errors import RiskcoreError
from riskcore.roles import ColumnRoles, RoleSuggestions, suggest_roles

__all__ = [
    "CATEGORIES",
    "PRESIDIO_CATEGORY",
    "PRESIDIO_MISSING",
    "RESTRICTED_ZIP3",
    "CategoryFinding",
    "PiiFinding",
    "PiiScan",
    "SafeHarborCheck",
    "SafeHarborTransform",
    "TransformStep",
    "ages_to_90_plus",
    "apply_safe_harbor",
    "dates_to_year",
    "presidio_available",
    "run_safe_harbor",
    "safe_harbor_check",
    "safe_harbor_plan",
    "scan_free_text",
    "zip_to_zip3",
]

#: The 18 identifier categories of 45 CFR 164.514(b)(2)(i), by paragraph letter.
CATEGORIES: dict[str, str] = {
    "A": "Names",
    "B": "Geographic subdivisions smaller than a state (street, city, county, ZIP code; "
    "the first 3 ZIP digits may stay where the area holds more than 20,000 people)",
    "C": "All elements of dates (except year) related to an individual, and ages over 89 "
    "(grouped as 90 or older)",
    "D": "Telephone numbers",
    "E": "Fax numbers",
    "F": "E-mail addresses",
    "G": "Social Security numbers",
    "H": "Medical record numbers",
    "I": "Health plan beneficiary numbers",
    "J": "Account numbers",
    "K": "Certificate / license numbers",
    "L": "Vehicle identifiers and serial numbers, including license plates",
    "M": "Device identifiers and serial numbers",
    "N": "Web URLs",
    "O": "IP addresses",
    "P": "Biometric identifiers, including finger and voice prints",
    "Q": "Full-face photographs and comparable images",
    "R": "Any other unique identifying number, characteristic or code",
}

#: Three-digit ZIP areas (ZCTAs) of 20,000 people or fewer in the 2000 Census, whose
#: first 3 digits Safe Harbor replaces by ``000``. Source: U.S. Department of Health and
#: Human Services, Office for Civil Rights, "Guidance Regarding Methods for
#: De-identification of Protected Health Information in Accordance with the HIPAA
#: Privacy Rule" (26 November 2012), "When can ZIP codes be included in de-identified
#: information?" (2000 Census; the guidance asks for more current Census data when
#: published).
RESTRICTED_ZIP3: frozenset[str] = frozenset(
    {
        "036",
        "059",
        "063",
        "102",
        "203",
        "556",
        "692",
        "790",
        "821",
        "823",
        "830",
        "831",
        "878",
        "879",
        "884",
        "890",
        "893",
    }
)
#: Census year of :data:`RESTRICTED_ZIP3`.
RESTRICTED_ZIP3_YEAR = 2000

#: Categories :func:`suggest_roles` cannot recognise from names or values alone.
_UNSEEN = ("I", "K", "L", "M", "P", "Q")
_LETTER_RE = re.compile(r"164\.514\(b\)\(2\)\(i\)\(([A-R])\)")
_ZIP_RE = re.compile(r"^(\d{1,5})(?:-?\d{4})?$")
_YEAR_RE = re.compile(r"^\d{4}$")
_NUMBER_RE = re.compile(r"^\d+(\.\d+)?$")
_LOWER_BOUND_RE = re.compile(r"^\D{0,2}(\d+)")


@dataclass(frozen=True)
class TransformStep(Result):
    """One Safe Harbor transform applied to one column.

    Attributes
    ----------
    column : str
    action : str
        ``"dropped"``, ``"zip3"``, ``"age_90_plus"`` or ``"date_year"``.
    n_changed : int
        Non-missing values the step changed (all of them for ``"dropped"``).
    note : str
        What was done, in a sentence (padded ZIP codes, restricted areas,
        values that could not be read).
    """

    column: str
    action: str
    n_changed: int
    note: str


class SafeHarborTransform(NamedTuple):
    """A table transformed by :func:`apply_safe_harbor` and the steps taken.

    Attributes
    ----------
    data : pandas.DataFrame
    steps : tuple of TransformStep
        One per column changed or dropped, in column order.
    """

    data: pd.DataFrame
    steps: tuple[TransformStep, ...]


@dataclass(frozen=True)
class CategoryFinding(Result):
    """What a table holds for one Safe Harbor category.

    Attributes
    ----------
    letter : str
        Paragraph letter, ``"A"`` to ``"R"``.
    category : str
        The category as the rule names it.
    columns : tuple of str
        Columns holding identifiers of this category.
    detected : tuple of str
        For each column, how it was found (the role rule's reason, or "tagged
        as a direct identifier").
    remains : tuple of str
        For each column, what must still be done.
    checkable : bool
        False for categories no name or value pattern recognises (I, K, L, M,
        P, Q); they are found only when a column's name matches a rule or the
        user tags it.
    """

    letter: str
    category: str
    columns: tuple[str, ...] = ()
    detected: tuple[str, ...] = ()
    remains: tuple[str, ...] = ()
    checkable: bool = True

    @property
    def present(self) -> bool:
        """True when some column still holds this category."""
        return bool(self.columns)


@dataclass(frozen=True)
class SafeHarborCheck(Result):
    """The Safe Harbor checklist of a table and its verdict.

    Attributes
    ----------
    findings : tuple of CategoryFinding
        The 18 categories, (A) to (R).
    passed : bool
        True when no column holds any category.
    remains : tuple of str
        What remains, one sentence per column and category (empty when passed).
    as_of : int
        The year ages are counted to (birth years implying an age over 89).
    notes : tuple of str
        What the check cannot see.
    """

    findings: tuple[CategoryFinding, ...]
    passed: bool
    remains: tuple[str, ...]
    as_of: int
    notes: tuple[str, ...] = ()

    @property
    def verdict(self) -> str:
        """One sentence: pass, or how many columns and categories remain."""
        if self.passed:
            return (
                "Passes the Safe Harbor checklist: no column holds any of the 18 identifier "
                "categories it can recognise."
            )
        present = [f for f in self.findings if f.present]
        cols = {c for f in present for c in f.columns}
        return (
            f"Does not pass Safe Harbor: {len(cols)} column{'s' if len(cols) != 1 else ''} "
            f"still hold{'s' if len(cols) == 1 else ''} identifiers of "
            f"{len(present)} categor{'ies' if len(present) != 1 else 'y'} "
            f"({', '.join(f.letter for f in present)})."
        )


# ------------------------------------------------------------------ transforms


def _year(as_of: int | None) -> int:
    if as_of is None:
        return _dt.date.today().year
    if isinstance(as_of, bool) or not isinstance(as_of, int) or not 1800 <= as_of <= 2200:
        raise ValueError(f"as_of must be a year, got {as_of!r}")
    return as_of


def _rows(codes: np.ndarray, which: Sequence[bool]) -> int:
    """Rows whose distinct value is flagged in ``which``."""
    if not len(which):
        return 0
    flags = np.append(np.asarray(which, dtype=bool), False)
    return int(flags[codes].sum())


def zip_to_zip3(series: pd.Series) -> tuple[pd.Series, TransformStep]:
    """Keep the first 3 digits of each ZIP code; ``000`` for the restricted areas.

    45 CFR 164.514(b)(2)(i)(B): the initial three digits may stay when the
    area they cover holds more than 20,000 people; the others
    (:data:`RESTRICTED_ZIP3`, 2000 Census) become ``000``. The result is text,
    so leading zeros stay (``"02139"`` -> ``"021"``). ZIP codes that lost
    their leading zeros (a column read as numbers: 2139) are padded to 5
    digits first, and the step's note says how many. ZIP+4 (``02139-4307``)
    keeps its first 3 digits; a value that is not a ZIP code becomes missing
    (counted in the note). A column whose every value has at most 3 digits
    already holds areas: they are padded to 3 digits (21 -> ``"021"``) and
    the restricted ones set to ``000``.

    Parameters
    ----------
    series : pandas.Series
        ZIP codes as text or numbers.

    Returns
    -------
    zip3 : pandas.Series
        3-digit text; missing stays missing.
    step : TransformStep
    """
    codes, texts = distinct_text(series)
    matches = [_ZIP_RE.match(t) for t in texts]
    # a column whose every value has at most 3 digits holds areas already (021, or 21 read as
    # a number), not ZIP codes that lost their leading zeros
    areas = bool(texts) and all(m is not None and len(m.group(0)) <= 3 for m in matches)
    width = 3 if areas else 5
    out: list[object] = []
    padded: list[bool] = []  # flags per distinct value
    restricted: list[bool] = []
    invalid: list[bool] = []
    for match in matches:
        digits = match.group(1) if match else ""
        zip3 = digits.zfill(width)[:3]
        padded.append(bool(match) and len(digits) < width)
        restricted.append(bool(match) and zip3 in RESTRICTED_ZIP3)
        invalid.append(not match)
        out.append(np.nan if not match else "000" if restricted[-1] else zip3)
    n_padded, n_restricted, n_invalid = (_rows(codes, f) for f in (padded, restricted, invalid))
    what = "3-digit ZIP areas" if areas else "ZIP codes"
    note = [
        f"kept the first 3 digits of {int((codes >= 0).sum()) - n_invalid:,} {what}"
        if not areas
        else f"read {int((codes >= 0).sum()) - n_invalid:,} values as {what}"
    ]
    if n_padded:
        note.append(
            f"{n_padded:,} had lost their leading zeros (the column was read as numbers) and "
            f"were padded to {width} digits first"
        )
    note.append(
        f"{n_restricted:,} in the {len(RESTRICTED_ZIP3)} areas of 20,000 people or fewer "
        f"({RESTRICTED_ZIP3_YEAR} Census) became 000"
    )
    if n_invalid:
        note.append(f"{n_invalid:,} values that are not ZIP codes became missing")
    name = str(series.name)
    step = TransformStep(name, "zip3", int((codes >= 0).sum()), "; ".join(note) + ".")
    return take_back(series, codes, out), step


def ages_to_90_plus(series: pd.Series) -> tuple[pd.Series, TransformStep]:
    """Group every age over 89 into one category, ``"90+"``.

    45 CFR 164.514(b)(2)(i)(C): "all ages over 89 ... may be aggregated into
    a single category of age 90 or older". Numeric ages are written as text
    (``"34"``); when every value is a number the result is an ordered
    categorical (numeric order, ``"90+"`` last), so ordered t-closeness still
    ranks it. Text that is not a number (bands such as ``"30-39"``) is kept
    as it is.

    Parameters
    ----------
    series : pandas.Series
        Ages as numbers or text.

    Returns
    -------
    ages : pandas.Series
        Missing stays missing.
    step : TransformStep
    """
    codes, texts = distinct_text(series)
    numbers = pd.to_numeric(pd.Series(texts, dtype=object), errors="coerce").to_numpy(float)
    over = numbers > 89
    out = ["90+" if o else t for t, o in zip(texts, over, strict=True)]
    n_over = _rows(codes, list(over))
    result = take_back(series, codes, out)
    if len(texts) and not np.isnan(numbers).any():
        under = sorted({(x, t) for x, t, o in zip(numbers, texts, over, strict=True) if not o})
        cats = [t for _, t in under] + (["90+"] if over.any() else [])
        result = result.astype(pd.CategoricalDtype(cats, ordered=True))
    step = TransformStep(
        str(series.name),
        "age_90_plus",
        n_over,
        f"{n_over:,} ages over 89 became one category, 90+.",
    )
    return result, step


def _birth_year_label(as_of: int) -> str:
    return f"{as_of - 90} or earlier"


def dates_to_year(
    series: pd.Series, *, birth: bool = False, as_of: int | None = None
) -> tuple[pd.Series, TransformStep]:
    """Keep only the year of each date.

    45 CFR 164.514(b)(2)(i)(C) removes every element of a date except the
    year. For birth dates (``birth=True``) the year too goes when it implies
    an age over 89: years up to ``as_of - 90`` become one category,
    ``"1936 or earlier"`` for ``as_of=2026`` (someone born in 1936 is 89 or
    90 during 2026; someone born in 1937 at most 89). A column of years
    (numbers such as 1987) is read as years.

    Parameters
    ----------
    series : pandas.Series
        Dates, text that parses as dates, or years.
    birth : bool, default False
        The dates are birth dates.
    as_of : int, optional
        The year ages are counted to; default this year.

    Returns
    -------
    years : pandas.Series
        Text years; missing stays missing; a value that is not a date becomes
        missing (counted in the note).
    step : TransformStep
    """
    year_now = _year(as_of)
    codes, texts = distinct_text(series)
    text = pd.Series(texts, dtype=object)
    is_year = np.array([bool(_YEAR_RE.match(t)) for t in texts], dtype=bool)
    parsed = pd.to_datetime(text.where(~is_year), errors="coerce", format="mixed")
    years = np.where(is_year, pd.to_numeric(text, errors="coerce"), parsed.dt.year)
    years = np.asarray(years, dtype=float)
    bad = np.isnan(years)
    old = birth & (years <= year_now - 90)
    out: list[object] = [
        np.nan if b else _birth_year_label(year_now) if o else str(int(y))
        for y, b, o in zip(years, bad, old, strict=True)
    ]
    n_old, n_bad = _rows(codes, list(old)), _rows(codes, list(bad))
    note = [f"kept the year of {int((codes >= 0).sum()) - n_bad:,} dates"]
    if birth:
        note.append(
            f"{n_old:,} birth years implying an age over 89 in {year_now} became "
            f"{_birth_year_label(year_now)!r}"
        )
    if n_bad:
        note.append(f"{n_bad:,} values that are not dates became missing")
    step = TransformStep(
        str(series.name), "date_year", int((codes >= 0).sum()), "; ".join(note) + "."
    )
    return take_back(series, codes, out), step


# ------------------------------------------------------------------ the rule, reused


def _letter(reason: str) -> str | None:
    match = _LETTER_RE.search(reason)
    return match.group(1) if match else None


def _zip3_remaining(col: pd.Series) -> str | None:
    codes, texts = distinct_text(col)
    found = sorted({t.zfill(3) for t in texts if t.zfill(3) in RESTRICTED_ZIP3})
    if not found:
        return None
    rows = _rows(codes, [t.zfill(3) in RESTRICTED_ZIP3 for t in texts])
    return (
        f"{rows:,} rows hold 3-digit ZIP areas of 20,000 people or fewer "
        f"({', '.join(found)}): set them to 000"
    )


def _ages_remaining(col: pd.Series) -> str | None:
    codes, texts = distinct_text(col)
    numbers = [float(t) if _NUMBER_RE.match(t) else None for t in texts]
    over = [x is not None and x > 89 for x in numbers]
    bounds = [
        int(m.group(1)) if x is None and (m := _LOWER_BOUND_RE.match(t)) else None
        for t, x in zip(texts, numbers, strict=True)
    ]
    old_labels = [b is not None and b >= 90 for b in bounds]
    if sum(old_labels) > 1:  # several categories above 89 instead of one
        over = [o or lbl for o, lbl in zip(over, old_labels, strict=True)]
    rows = _rows(codes, over)
    if not rows:
        return None
    return f"{rows:,} rows hold ages over 89 not grouped into one category: group them as 90+"


def _birth_years_remaining(col: pd.Series, as_of: int) -> str | None:
    codes, texts = distinct_text(col)
    old = [bool(_NUMBER_RE.match(t)) and float(t) <= as_of - 90 for t in texts]
    rows = _rows(codes, old)
    if not rows:
        return None
    return (
        f"{rows:,} rows hold birth years implying an age over 89 in {as_of}: group them as "
        f"{_birth_year_label(as_of)!r}"
    )


def _inputs(
    data: pd.DataFrame,
    roles: ColumnRoles | None,
    as_of: int | None,
    suggestions: RoleSuggestions | None,
) -> tuple[int, RoleSuggestions, set[str]]:
    """Return the year, the role rule's suggestions and the user's direct identifiers."""
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a pandas DataFrame, got {type(data).__name__}")
    sugg = suggest_roles(data) if suggestions is None else suggestions
    tagged = set(roles.identifiers) if roles is not None else set()
    return _year(as_of), sugg, tagged


def safe_harbor_check(
    data: pd.DataFrame,
    roles: ColumnRoles | None = None,
    *,
    as_of: int | None = None,
    suggestions: RoleSuggestions | None = None,
) -> SafeHarborCheck:
    """List what the table holds for each of the 18 Safe Harbor categories, and a verdict.

    A column is counted under a category when

    - :func:`riskcore.roles.suggest_roles` calls it a direct identifier: its
      reason cites the category's letter (value patterns such as SSNs and
      e-mails, column names, full dates, 5-digit ZIP codes);
    - it is a 3-digit ZIP area holding one of :data:`RESTRICTED_ZIP3` (B);
    - it is an age with a number over 89, or more than one band above 89 (C);
    - it is a year of birth implying an age over 89 in ``as_of`` (C);
    - the user tagged it as a direct identifier (``roles``) and the rule
      names no category: (R), any other unique identifying code.

    Safe Harbor is about what the released columns hold, not about their
    roles: a ZIP column re-tagged as a quasi-identifier is still listed.

    Parameters
    ----------
    data : pandas.DataFrame
        The table as it would be released.
    roles : ColumnRoles, optional
        The user's roles; their direct identifiers are listed too.
    as_of : int, optional
        The year ages are counted to; default this year.
    suggestions : RoleSuggestions, optional
        ``suggest_roles(data)`` when already computed.

    Returns
    -------
    SafeHarborCheck
        18 findings, the verdict and what remains.
    """
    year_now, sugg, tagged = _inputs(data, roles, as_of, suggestions)
    found: dict[str, list[tuple[str, str, str]]] = {letter: [] for letter in CATEGORIES}
    for name, s in sugg.items():
        col = data[name]
        if s.role == "identifier":
            letter = _letter(s.reason) or "R"
            todo = _REMEDY.get(s.kind, "remove the column or replace it by a random code")
            found[letter].append((name, s.reason, todo))
        elif s.kind == "zip3" and (todo_zip := _zip3_remaining(col)):
            found["B"].append((name, s.reason, todo_zip))
        elif s.kind == "age" and (todo_age := _ages_remaining(col)):
            found["C"].append((name, s.reason, todo_age))
        elif s.kind == "birth_year" and (todo_yob := _birth_years_remaining(col, year_now)):
            found["C"].append((name, s.reason, todo_yob))
        elif name in tagged:
            found["R"].append(
                (
                    name,
                    "tagged as a direct identifier",
                    "remove the column or replace it by a random code",
                )
            )
    findings = tuple(
        CategoryFinding(
            letter=letter,
            category=label,
            columns=tuple(c for c, _, _ in found[letter]),
            detected=tuple(d for _, d, _ in found[letter]),
            remains=tuple(r for _, _, r in found[letter]),
            checkable=letter not in _UNSEEN,
        )
        for letter, label in CATEGORIES.items()
    )
    remains = tuple(
        f"({f.letter}) {c}: {r}"
        for f in findings
        for c, r in zip(f.columns, f.remains, strict=True)
    )
    notes = (
        "Categories (I), (K), (L), (M), (P) and (Q) are found only by a column's name or your "
        "tags: no value pattern recognises them.",
        "Safe Harbor also requires that you have no actual knowledge that the remaining "
        "information could identify a person (164.514(b)(2)(ii)); no check of the data can "
        "decide that.",
        f"Restricted 3-digit ZIP areas are those of the {RESTRICTED_ZIP3_YEAR} Census (HHS "
        "guidance, 2012); use newer Census counts when they are published.",
    )
    return SafeHarborCheck(findings, not remains, remains, year_now, notes)


_REMEDY = {
    "zip": "keep the first 3 digits, 000 for areas of 20,000 people or fewer",
    "dob": "keep the year, grouping birth years that imply an age over 89",
    "date": "keep the year only",
}


def safe_harbor_plan(
    data: pd.DataFrame,
    roles: ColumnRoles | None = None,
    *,
    as_of: int | None = None,
    suggestions: RoleSuggestions | None = None,
) -> list[dict[str, Any]]:
    """Return the Safe Harbor transform each column needs, as recipe steps.

    Using the same rule as :func:`safe_harbor_check`: 5-digit ZIP codes and
    3-digit areas get ``zip3`` (:func:`zip_to_zip3`); ages ``age_90_plus``
    (:func:`ages_to_90_plus`); full dates ``date_year`` (:func:`dates_to_year`,
    with ``birth`` for birth dates and years of birth, and the reference year
    ``as_of``); every other direct identifier (names, SSNs, streets, cities,
    record numbers, and the columns tagged as direct identifiers in ``roles``)
    ``dropped``. Columns that need nothing have no step.

    Returns
    -------
    list of dict
        ``{"column", "action", ...}`` in column order; :func:`run_safe_harbor`
        applies them (to this table or next month's).
    """
    year_now, sugg, tagged = _inputs(data, roles, as_of, suggestions)
    plan: list[dict[str, Any]] = []
    for name, s in sugg.items():
        if s.kind in ("zip", "zip3"):
            plan.append({"column": name, "action": "zip3"})
        elif s.kind == "age":
            plan.append({"column": name, "action": "age_90_plus"})
        elif s.kind in ("dob", "birth_year"):
            plan.append({"column": name, "action": "date_year", "birth": True, "as_of": year_now})
        elif s.kind == "date" or (s.kind == "year" and s.role == "identifier"):
            plan.append({"column": name, "action": "date_year", "birth": False, "as_of": year_now})
        elif s.role == "identifier" or name in tagged:
            why = s.reason if s.role == "identifier" else "tagged as a direct identifier"
            plan.append({"column": name, "action": "dropped", "why": why})
    return plan


def run_safe_harbor(data: pd.DataFrame, plan: Sequence[Mapping[str, Any]]) -> SafeHarborTransform:
    """Apply Safe Harbor steps (from :func:`safe_harbor_plan` or a recipe) to a table.

    Raises
    ------
    RiskcoreError
        For a column the table does not have, or an unknown action.
    """
    out = data.copy()
    steps: list[TransformStep] = []
    drop: list[str] = []
    for spec in plan:
        name, action = str(spec["column"]), str(spec["action"])
        if name not in data.columns:
            raise RiskcoreError(f"the table has no column {name!r}, which a Safe Harbor step names")
        col = data[name]
        if action == "zip3":
            out[name], step = zip_to_zip3(col)
        elif action == "age_90_plus":
            out[name], step = ages_to_90_plus(col)
        elif action == "date_year":
            out[name], step = dates_to_year(
                col, birth=bool(spec.get("birth", False)), as_of=spec.get("as_of")
            )
        elif action == "dropped":
            drop.append(name)
            why = spec.get("why") or "a direct identifier"
            step = TransformStep(name, "dropped", int(col.notna().sum()), f"Dropped: {why}.")
        else:
            raise RiskcoreError(f"unknown Safe Harbor action {action!r} for {name!r}")
        steps.append(step)
    return SafeHarborTransform(out.drop(columns=drop), tuple(steps))


def apply_safe_harbor(
    data: pd.DataFrame,
    roles: ColumnRoles | None = None,
    *,
    as_of: int | None = None,
    suggestions: RoleSuggestions | None = None,
) -> SafeHarborTransform:
    """Apply the standard Safe Harbor transforms to every column that needs one.

    :func:`safe_harbor_plan` (the rule of :func:`safe_harbor_check`) run by
    :func:`run_safe_harbor`. Columns that need nothing are left as they are.

    Parameters
    ----------
    data, roles, as_of, suggestions
        As in :func:`safe_harbor_check`.

    Returns
    -------
    SafeHarborTransform
        The new table (``data`` is not changed) and one step per column
        changed or dropped.
    """
    return run_safe_harbor(
        data, safe_harbor_plan(data, roles, as_of=as_of, suggestions=suggestions)
    )


# ------------------------------------------------------------------ free text (optional Presidio)

#: Safe Harbor category of each Presidio entity type (None: not one of the 18).
PRESIDIO_CATEGORY: dict[str, str | None] = {
    "PERSON": "A",
    "LOCATION": "B",
    "DATE_TIME": "C",
    "AGE": "C",
    "PHONE_NUMBER": "D",
    "EMAIL_ADDRESS": "F",
    "EMAIL": "F",
    "US_SSN": "G",
    "CREDIT_CARD": "J",
    "IBAN_CODE": "J",
    "US_BANK_NUMBER": "J",
    "CRYPTO": "J",
    "MEDICAL_LICENSE": "K",
    "US_DRIVER_LICENSE": "K",
    "MAC_ADDRESS": "M",
    "URL": "N",
    "IP_ADDRESS": "O",
    "US_PASSPORT": "R",
    "US_ITIN": "R",
    "UK_NHS": "R",
    "ID": "R",
    "UUID": "R",
    "ORGANIZATION": None,
    "NRP": None,
}


@dataclass(frozen=True)
class PiiFinding(Result):
    """One entity type Presidio found in one column's free text.

    Attributes
    ----------
    column : str
    entity : str
        Presidio's entity type (``"EMAIL_ADDRESS"``, ``"CREDIT_CARD"`` ...).
    n_values : int
        Sampled values in which it was found at least once.
    n_sampled : int
        Distinct values of the column scanned.
    max_score : float
        Presidio's highest confidence for it, in [0, 1].
    letter : str or None
        Its Safe Harbor category, None when it is none of the 18.
    """

    column: str
    entity: str
    n_values: int
    n_sampled: int
    max_score: float
    letter: str | None = None


@dataclass(frozen=True)
class PiiScan(Result):
    """What Presidio found in the free text of some columns.

    Attributes
    ----------
    findings : tuple of PiiFinding
        By column, then by number of values, most first.
    columns : tuple of str
        Columns scanned.
    note : str
        What the scan can and cannot see.
    """

    findings: tuple[PiiFinding, ...]
    columns: tuple[str, ...]
    note: str


def presidio_available() -> bool:
    """Return True when presidio-analyzer and spaCy can be imported (the optional ``pii`` extra)."""
    import importlib.util

    try:
        return all(importlib.util.find_spec(m) is not None for m in ("presidio_analyzer", "spacy"))
    except (ImportError, ValueError):  # a module set to None in sys.modules: absent
        return False


#: What to do when Presidio is absent (the page shows it).
PRESIDIO_MISSING = (
    "free-text PII detection needs the optional package presidio-analyzer: "
    "pip install 'presidio-analyzer>=2.2,<2.3' (or pip install -e '.[pii]'), then restart "
    "the app. It runs offline with spaCy's blank English pipeline, no model download. Column "
    "roles and the Safe Harbor checklist work without it."
)


@functools.cache
def _analyzer() -> Any:
    """Return a Presidio analyzer on spaCy's blank English pipeline (built once, ~2 s)."""
    # no download of the public-suffix list (tldextract) and no spaCy model: fully offline
    os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")
    try:
        import spacy
        from presidio_analyzer import AnalyzerEngine
        from presidio_analyzer.nlp_engine import SpacyNlpEngine
    except ImportError:
        raise RiskcoreError(PRESIDIO_MISSING) from None
    engine = SpacyNlpEngine()
    engine.nlp = {"en": spacy.blank("en")}
    return AnalyzerEngine(nlp_engine=engine, supported_languages=["en"])


def scan_free_text(
    data: pd.DataFrame,
    columns: Sequence[str] | None = None,
    *,
    sample: int = 200,
    min_score: float = 0.4,
) -> PiiScan:
    """Look for identifiers inside free text with Presidio (optional).

    Presidio's pattern recognizers (with spaCy's blank English pipeline, so
    offline and without a language model) find e-mail addresses, phone
    numbers, card, IBAN and bank numbers, IP addresses, URLs and some
    national numbers inside longer text; without a trained model they do not
    find names or places, and they do not look at column names. So the scan
    runs beside :func:`riskcore.roles.suggest_roles`, never instead of it.

    Parameters
    ----------
    data : pandas.DataFrame
    columns : sequence of str, optional
        Columns to scan; default every text column the role rule does not
        already call a direct identifier.
    sample : int, default 200
        Distinct values scanned per column (the first ones, in row order).
    min_score : float, default 0.4
        Findings with a lower Presidio score are left out.

    Returns
    -------
    PiiScan
        Entity, number of values and highest score per column; the text
        found is never copied into the result.

    Raises
    ------
    RiskcoreError
        When presidio-analyzer is not installed, saying how to install it.
    """
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a pandas DataFrame, got {type(data).__name__}")
    if isinstance(sample, bool) or not isinstance(sample, int) or sample < 1:
        raise ValueError(f"sample must be an integer >= 1, got {sample!r}")
    analyzer = _analyzer()
    if columns is None:
        sugg = suggest_roles(data)
        columns = [
            str(c)
            for c in data.columns
            if sugg[str(c)].role != "identifier"
            and not pd.api.types.is_numeric_dtype(data[c].dtype)
            and not pd.api.types.is_datetime64_any_dtype(data[c].dtype)
            and not pd.api.types.is_bool_dtype(data[c].dtype)
        ]
    findings: list[PiiFinding] = []
    for col in columns:
        if col not in data.columns:
            raise RiskcoreError(f"column {col!r} is not in the table")
        _, texts = distinct_text(data[col])
        texts = texts[:sample]
        counts: dict[str, int] = {}
        scores: dict[str, float] = {}
        for text in texts:
            seen: set[str] = set()
            for hit in analyzer.analyze(text=text, language="en"):
                if hit.score < min_score:
                    continue
                scores[hit.entity_type] = max(scores.get(hit.entity_type, 0.0), float(hit.score))
                seen.add(hit.entity_type)
            for entity in seen:
                counts[entity] = counts.get(entity, 0) + 1
        for entity in sorted(counts, key=lambda e: (-counts[e], e)):
            findings.append(
                PiiFinding(
                    col,
                    entity,
                    counts[entity],
                    len(texts),
                    scores[entity],
                    PRESIDIO_CATEGORY.get(entity),
                )
            )
    note = (
        f"Presidio's pattern recognizers on up to {sample} distinct values per column "
        "(spaCy's blank English pipeline: no names or places are recognised); column names "
        "and the role rule are not used."
    )
    return PiiScan(tuple(findings), tuple(columns), note)
