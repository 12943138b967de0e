"""The Safe Harbor checklist: what a table holds for each of the 18 categories, and a verdict."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pandas as pd

from riskcore._results import Result
from riskcore.deidentify.masking import distinct_text
from riskcore.deidentify.safe_harbor.categories import (
    CATEGORIES,
    RESTRICTED_ZIP3,
    RESTRICTED_ZIP3_YEAR,
    UNSEEN,
)
from riskcore.deidentify.safe_harbor.transforms import birth_year_label, rows_of, year_of
from riskcore.freetext import MAX_CHARS, ColumnScan, TextScan, scan_text, text_columns
from riskcore.roles import ColumnRoles, RoleSuggestions, suggest_roles

__all__ = ["CategoryFinding", "SafeHarborCheck", "safe_harbor_check"]

_NUMBER_RE = re.compile(r"^\d+(\.\d+)?$")
_LOWER_BOUND_RE = re.compile(r"^\D{0,2}(\d+)")
#: Most columns the verdict names (the table below it lists every one).
_NAMED_COLUMNS = 10


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
        For each column, how it was found (the role rule's reason, the
        free-text scan's counts, or "tagged as a direct identifier").
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
        True when no column holds any category and the text of every text
        column was scanned.
    remains : tuple of str
        What remains, one sentence per column and category, then one per text
        column not fully scanned (empty when passed).
    as_of : int
        The year ages are counted to (birth years implying an age over 89).
    notes : tuple of str
        What the check cannot see.
    text : tuple of ColumnScan
        The status of each text column's free text: scanned clean, found
        (with counts and categories), scanned partly or not scanned (and why).
    """

    findings: tuple[CategoryFinding, ...]
    passed: bool
    remains: tuple[str, ...]
    as_of: int
    notes: tuple[str, ...] = ()
    text: tuple[ColumnScan, ...] = ()

    @property
    def unchecked(self) -> tuple[ColumnScan, ...]:
        """The text columns whose text was not fully scanned."""
        return tuple(c for c in self.text if not c.checked)

    @property
    def verdict(self) -> str:
        """One sentence: pass, or which columns still hold which categories, and what was not read.

        The columns are named with their category letters, ``date_of_birth (C)``, up to
        :data:`_NAMED_COLUMNS` of them (then how many more).
        """
        n_text = len(self.text)
        if self.passed:
            scanned = (
                f", and the text of the {n_text} text column{'s' if n_text != 1 else ''} was "
                "scanned with nothing found"
                if n_text
                else ""
            )
            return (
                "Passes the Safe Harbor checklist: no column holds any of the 18 identifier "
                f"categories it can recognise{scanned}."
            )
        present = [f for f in self.findings if f.present]
        cols: dict[str, list[str]] = {}  # each column with its letters, in the findings' order
        for f in present:
            for c in f.columns:
                cols.setdefault(c, []).append(f.letter)
        parts = []
        if present:
            named = [f"{c} ({', '.join(letters)})" for c, letters in cols.items()]
            more = len(named) - _NAMED_COLUMNS
            listed = ", ".join(named[:_NAMED_COLUMNS]) + (f" and {more:,} more" if more > 0 else "")
            parts.append(
                f"{len(cols)} column{'s' if len(cols) != 1 else ''} "
                f"still hold{'s' if len(cols) == 1 else ''} identifiers of "
                f"{len(present)} categor{'ies' if len(present) != 1 else 'y'} "
                f"({', '.join(f.letter for f in present)}): {listed}"
            )
        if self.unchecked:
            names = ", ".join(c.column for c in self.unchecked)
            n = len(self.unchecked)
            parts.append(
                f"the text of {n} column{'s' if n != 1 else ''} ({names}) was not fully "
                "scanned, so identifiers written in it may remain"
            )
        return "Does not pass Safe Harbor: " + "; ".join(parts) + "."


# ------------------------------------------------------------------ what remains per column


def _zip3_remaining(col: pd.Series) -> str | None:
    codes, texts = distinct_text(col)
    found = sorted({t.zfill(3) for t in texts if t.zfill(3) in RESTRICTED_ZIP3})
    if not found:
        return None
    rows = rows_of(codes, [t.zfill(3) in RESTRICTED_ZIP3 for t in texts])
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
    rows = rows_of(codes, over)
    if not rows:
        return None
    return f"{rows:,} rows hold ages over 89 not grouped into one category: group them as 90+"


def _birth_years_remaining(col: pd.Series, as_of: int) -> str | None:
    codes, texts = distinct_text(col)
    old = [bool(_NUMBER_RE.match(t)) and float(t) <= as_of - 90 for t in texts]
    rows = rows_of(codes, old)
    if not rows:
        return None
    return (
        f"{rows:,} rows hold birth years implying an age over 89 in {as_of}: group them as "
        f"{birth_year_label(as_of)!r}"
    )


_REMEDY = {
    "zip": "keep the first 3 digits, 000 for areas of 20,000 people or fewer",
    "dob": "keep the year, grouping birth years that imply an age over 89",
    "date": "keep the year only",
    "free_text": "replace the identifiers written in the text by placeholders, or drop the column",
}
_TEXT_REMEDY = "replace the identifiers written in the text by placeholders, or drop the column"


def inputs(
    data: pd.DataFrame,
    roles: ColumnRoles | None,
    as_of: int | None,
    suggestions: RoleSuggestions | None,
    text: TextScan | None = None,
    max_chars: int = MAX_CHARS,
) -> tuple[int, RoleSuggestions, set[str], tuple[ColumnScan, ...]]:
    """Return what the Safe Harbor check reads: the year, the roles and the free text.

    That is the year, the role rule's suggestions, the user's direct identifiers and the
    status of every text column's free text.

    The scan is ``text`` when given, else the one the suggestions were made
    from, else a new one (:func:`riskcore.freetext.scan_text`). A text column
    the scan does not cover is "not scanned".

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    roles : ColumnRoles or None
        The user's roles (None: none tagged).
    as_of : int or None
        The year ages are counted to (None: this year).
    suggestions : RoleSuggestions or None
        The role rule's suggestions (None: made here).
    text : TextScan, optional
        A free-text scan of ``data`` (default the suggestions', else a new one).
    max_chars : int, optional
        The scan's character limit per column.

    Returns
    -------
    tuple of (int, RoleSuggestions, set of str, tuple of ColumnScan)
        The year, the role rule's suggestions, the user's direct identifiers and the
        scan of every text column.
    """
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a pandas DataFrame, got {type(data).__name__}")
    sugg = suggest_roles(data, max_chars=max_chars) if suggestions is None else suggestions
    sugg = sugg.persons_as_identifiers()  # the person column is a direct identifier too
    scan = text if text is not None else sugg.text
    if scan is None:
        scan = scan_text(data, max_chars=max_chars)
    status = tuple(
        scan.get(c)
        or ColumnScan(
            c,
            "not_scanned",
            int(data[c].notna().sum()),
            int(data[c].nunique()),
            why="the free-text scan given did not cover this column",
        )
        for c in text_columns(data)
    )
    tagged = set(roles.identifiers) | set(roles.persons) if roles is not None else set()
    return year_of(as_of), sugg, tagged, status


def _text_detected(scan: ColumnScan, letter: str) -> str:
    """Return how a category was found inside a column's text, with its counts."""
    return "; ".join(
        f"free text: {f.label}, {f.n_found:,} in {f.n_cells:,} of {scan.n_cells:,} cells"
        + (" (Presidio, on a sample)" if f.source == "presidio" else "")
        for f in scan.identifiers
        if f.letter == letter
    )


def safe_harbor_check(
    data: pd.DataFrame,
    roles: ColumnRoles | None = None,
    *,
    as_of: int | None = None,
    suggestions: RoleSuggestions | None = None,
    text: TextScan | None = None,
    max_chars: int = MAX_CHARS,
) -> SafeHarborCheck:
    """List what the table holds for each of the 18 Safe Harbor categories, and a verdict.

    A column is counted under a category when

    - :func:`riskcore.roles.suggest_roles` calls it a direct identifier: the
      suggestion's category letters (:attr:`RoleSuggestion.letters`, value
      patterns such as SSNs and e-mails, column names, full dates, 5-digit
      ZIP codes, identifiers written in free text); a direct identifier
      without a letter is (R);
    - identifiers are written inside its text (the built-in free-text scan,
      :func:`riskcore.freetext.scan_text`, over every text column whatever its
      role), under each category found;
    - it is a 3-digit ZIP area holding one of :data:`RESTRICTED_ZIP3` (B);
    - it is an age with a number over 89, or more than one band above 89 (C);
    - it is a year of birth implying an age over 89 in ``as_of`` (C);
    - the user tagged it as a direct identifier (``roles``) and the rule
      names no category: (R), any other unique identifying code.

    Safe Harbor is about what the released columns hold, not about their
    roles: a ZIP column re-tagged as a quasi-identifier is still listed, and
    so is a note holding phone numbers tagged "other". The check never
    passes while the text of a text column was not fully scanned (longer
    than ``max_chars`` characters of distinct values, or not covered by the
    scan given): unscanned is not clean.

    Parameters
    ----------
    data : pandas.DataFrame
        The table as it would be released.
    roles : ColumnRoles, optional
        The user's roles; their direct identifiers are listed too.
    as_of : int, optional
        The year ages are counted to; default this year.
    suggestions : RoleSuggestions, optional
        ``suggest_roles(data)`` when already computed (its free-text scan is
        reused).
    text : TextScan, optional
        The free-text scan to use instead of the suggestions' own.
    max_chars : int, default :data:`riskcore.freetext.MAX_CHARS`
        The free-text scan's limit per column, when the check scans.

    Returns
    -------
    SafeHarborCheck
        18 findings, the status of every text column, the verdict and what
        remains.
    """
    year_now, sugg, tagged, status = inputs(data, roles, as_of, suggestions, text, max_chars)
    found: dict[str, list[tuple[str, str, str]]] = {letter: [] for letter in CATEGORIES}
    for name, s in sugg.items():
        if name not in data.columns:
            continue
        col = data[name]
        if s.role == "identifier":
            todo = _REMEDY.get(s.kind, "remove the column or replace it by a random code")
            for letter in s.letters or ("R",):
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
    for scan in status:  # identifiers written in text, where the role rule did not list them
        for letter in scan.letters:
            if all(c != scan.column for c, _, _ in found[letter]):
                found[letter].append((scan.column, _text_detected(scan, letter), _TEXT_REMEDY))
    findings = tuple(
        CategoryFinding(
            letter=letter,
            category=label,
            columns=tuple(c for c, _, _ in found[letter]),
            detected=tuple(d for _, d, _ in found[letter]),
            remains=tuple(r for _, _, r in found[letter]),
            checkable=letter not in UNSEEN,
        )
        for letter, label in CATEGORIES.items()
    )
    remains = tuple(
        f"({f.letter}) {c}: {r}"
        for f in findings
        for c, r in zip(f.columns, f.remains, strict=True)
    ) + tuple(
        f"(free text) {c.column}: not fully scanned ({c.why}); scan all of it, or replace the "
        "column's text or drop the column"
        for c in status
        if not c.checked
    )
    notes = (
        "Free text is read by built-in patterns (phone and fax numbers, e-mail addresses, SSNs, "
        "URLs, IP addresses, dates, record, card and long numbers, ZIP codes written in text); "
        "names and places written in free text are not recognised by them (Presidio adds "
        "names when it is installed).",
        "Categories (I), (K), (L), (M), (P) and (Q) are found only by a column's name or your "
        "tags: no value pattern recognises them.",
        "Safe Harbor also requires that you have no actual knowledge that the remaining "
        "information could identify a person (164.514(b)(2)(ii)); no check of the data can "
        "decide that.",
        f"Restricted 3-digit ZIP areas are those of the {RESTRICTED_ZIP3_YEAR} Census (HHS "
        "guidance, 2012); use newer Census counts when they are published.",
    )
    return SafeHarborCheck(findings, not remains, remains, year_now, notes, status)
