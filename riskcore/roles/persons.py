"""Person columns: a direct identifier whose values repeat, each value the rows of one person.

Claims, visits and prescriptions hold several rows per person, linked by an
identifier such as a patient id. :func:`find_persons` finds the columns that
look like that link, with the facts a sentence needs (people, rows, rows per
person); :func:`rows_not_people` is the caution of a table holding one while
no column is tagged as the person (every count is then of rows, not people).

The rule, each threshold a constant of this module:

1. *Eligible*: a column named like a person's identifier (patient id,
   member no, customer key, MRN ...: :data:`PERSON_NAME_RE`), or one whose
   suggested kind is a key held by one individual (an SSN, a record number,
   an account number, an e-mail address, a phone number: :data:`KEY_KINDS`).
   Dates, places and names are never eligible: two people share a birthday,
   a ZIP code or a name.
2. *It repeats*: at least :data:`MIN_PEOPLE` distinct values and at least the
   square root of its rows (fewer is a category: a ward, a provider), and at
   least :data:`REPEAT_SHARE` of its values on two rows or more. A missing
   value belongs to nobody: those rows are left out, and counted.
3. *Its rows differ*: in at least :data:`VARY_SHARE` of its groups of two
   rows or more, another column differs (otherwise the rows are copies, not
   several records of one person).
4. *Its groups look like one individual*: in at least
   :data:`SAME_PERSON_SHARE` of those groups, every column holding a trait
   fixed for a person (date or year of birth, sex: :data:`TRAIT_KINDS`)
   holds one value, missing values ignored. A column whose groups mix
   individuals (a household id: a household's members have different birth
   dates) is *mixed*, never a candidate. Without a trait column the test is
   not made (:attr:`PersonCandidate.same_person` is None).

The best candidate, the one suggested as the person, is the first of: named
like a person's identifier; then by kind (an SSN, which is one person's,
before a record number, which may number anything; then an account, an
e-mail address, a phone number); then the most people (the finest grouping:
a person rather than a household); then table order.

Limits: every row of at most :data:`MAX_COLUMNS` eligible columns is counted
(one ``factorize`` and one ``bincount`` each: the counts are exact); the
within-group tests read at most :data:`MAX_CELLS` cells (rows x other
columns), and at most :data:`MAX_CHECK_ROWS` rows, of whole groups: when a
column's groups of two rows or more hold more rows than that, every k-th
value in order of first appearance is checked with all its rows.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    import pandas as pd

    from riskcore.freetext import TextScan
else:
    from riskcore._lazy import pandas as pd

from riskcore._results import Result
from riskcore.roles.assignment import ColumnRoles
from riskcore.roles.rules import NAME_RULES, normalise_name

__all__ = [
    "KEY_KINDS",
    "MAX_CELLS",
    "MAX_CHECK_ROWS",
    "MAX_COLUMNS",
    "MIN_PEOPLE",
    "PERSON_NAME_RE",
    "REPEAT_SHARE",
    "SAME_PERSON_SHARE",
    "TRAIT_KINDS",
    "VARY_SHARE",
    "PersonCandidate",
    "PersonCandidates",
    "RowsNotPeople",
    "find_persons",
    "person_facts",
    "rows_not_people",
]

#: Column names (normalised: lower case, words split) of a person's identifier.
PERSON_NAME_RE = re.compile(
    r"^(patient|person|member|customer|client|subject|participant|beneficiary|enrol+ee"
    r"|respondent|individual|resident|employee|student|pat|pt|mbr|cust)s?"
    r"( ?(id|ids|identifier|number|no|nr|num|key|ref|code))?$"
    r"|^(mrn|medical ?record( ?(number|no|id))?)$"
)
#: Suggested kinds of a direct identifier held by one individual, in order of preference.
KEY_KINDS: tuple[str, ...] = ("ssn", "record_id", "account", "email", "phone")
#: Suggested kinds of a column holding a trait fixed for a person.
TRAIT_KINDS: frozenset[str] = frozenset({"dob", "birth_year", "sex"})
#: Fewest distinct values of a person column (fewer, or fewer than the square root of the
#: rows, is a category).
MIN_PEOPLE = 10
#: Least share of a person column's values found on two rows or more.
REPEAT_SHARE = 0.5
#: Least share of its groups of two rows or more in which another column differs.
VARY_SHARE = 0.5
#: Least share of its groups of two rows or more agreeing on every trait column.
SAME_PERSON_SHARE = 0.95
#: Most eligible columns counted.
MAX_COLUMNS = 8
#: Most cells (rows x other columns) the within-group tests of one column read.
MAX_CELLS = 4_000_000
#: Most rows the within-group tests of one column read.
MAX_CHECK_ROWS = 200_000


@dataclass(frozen=True)
class PersonCandidate(Result):
    """A column whose values repeat, each value the rows of one person (or of a group).

    Attributes
    ----------
    column : str
        The column's name.
    n_people : int
        Its distinct values (missing left out): the people, if it is the person.
    n_rows : int
        Rows holding a value.
    n_missing : int
        Rows where it is missing (linked to nobody).
    min_rows, max_rows : int
        The fewest and most rows of one value.
    median_rows : float
        The median rows of one value.
    repeated : float
        Share of its values on two rows or more.
    varying : float
        Share of the groups checked in which another column differs.
    same_person : float or None
        Share of the groups checked agreeing on every column of :attr:`traits`;
        None when the table holds no such column (the test is not made).
    traits : tuple of str
        The trait columns checked (date or year of birth, sex).
    groups_checked : int
        Groups of two rows or more the within-group tests read (all of them,
        or every k-th beyond :data:`MAX_CHECK_ROWS` rows).
    named : bool
        Whether the column is named like a person's identifier.
    kind : str
        Its suggested kind ("record_id", "ssn" ...), empty when none.
    """

    column: str
    n_people: int
    n_rows: int
    n_missing: int
    min_rows: int
    median_rows: float
    max_rows: int
    repeated: float
    varying: float
    same_person: float | None
    traits: tuple[str, ...]
    groups_checked: int
    named: bool
    kind: str = ""

    @property
    def mixed(self) -> bool:
        """Whether its groups mix individuals: they disagree on a trait (a household id)."""
        return self.same_person is not None and self.same_person < SAME_PERSON_SHARE


@dataclass(frozen=True)
class PersonCandidates(Result):
    """The columns that may link the rows of one person, best first.

    Attributes
    ----------
    candidates : tuple of PersonCandidate
        Columns passing every test, best first (:attr:`best`).
    mixed : tuple of PersonCandidate
        Columns that repeat and vary but whose groups mix individuals (a
        household id), in table order: never the person.
    checked : tuple of str
        The eligible columns counted, in the order they were (at most
        :data:`MAX_COLUMNS`).
    """

    candidates: tuple[PersonCandidate, ...] = ()
    mixed: tuple[PersonCandidate, ...] = ()
    checked: tuple[str, ...] = ()

    @property
    def best(self) -> PersonCandidate | None:
        """The column suggested as the person, or None."""
        return self.candidates[0] if self.candidates else None


@dataclass(frozen=True)
class RowsNotPeople(Result):
    """A caution: the table holds a person column, and no column is tagged as the person.

    Every count of the assessment is then of rows: a class of k rows can hold
    fewer than k people.

    Attributes
    ----------
    column : str
        The repeating identifier (the best candidate).
    n_people, n_rows, min_rows, max_rows : int
        As in :class:`PersonCandidate`.
    """

    column: str
    n_people: int
    n_rows: int
    min_rows: int
    max_rows: int


def person_facts(n_people: int, n_rows: int, min_rows: int, max_rows: int) -> str:
    """Return the facts of a person column in words: "2,500 people in 8,177 rows, 1-10 rows each".

    Parameters
    ----------
    n_people, n_rows, min_rows, max_rows : int
        As in :class:`PersonCandidate`.

    Returns
    -------
    str
    """
    each = f"{min_rows:,}" if min_rows == max_rows else f"{min_rows:,}-{max_rows:,}"
    people = "person" if n_people == 1 else "people"
    return f"{n_people:,} {people} in {n_rows:,} rows, {each} rows each"


def _name_kind(name: str) -> str:
    """Return the kind the first name rule matching a column's name gives, or ""."""
    norm = normalise_name(name)
    return next((r.kind for r in NAME_RULES if r.pattern.search(norm)), "")


def _eligible(
    names: list[str], kinds: Mapping[str, str], scan: TextScan | None
) -> tuple[list[str], set[str]]:
    """Return the eligible columns in the order they are counted, and those named as a person."""
    named = {c for c in names if PERSON_NAME_RE.match(normalise_name(c))}

    def rank(c: str) -> tuple[int, int, int]:
        kind = kinds.get(c, "")
        by_kind = KEY_KINDS.index(kind) if kind in KEY_KINDS else len(KEY_KINDS)
        return (c not in named, by_kind, names.index(c))

    out = []
    for c in sorted((c for c in names if c in named or kinds.get(c, "") in KEY_KINDS), key=rank):
        text = scan.get(c) if scan is not None else None
        # values on two rows or more for half the values need 1.5 rows a value: the text scan
        # counted the distinct values already, so a column with fewer rows is not counted again
        if text is not None and text.n_values and text.n_cells < 1.5 * text.n_values:
            continue
        out.append(c)
    return out[:MAX_COLUMNS], named


def _differ(group: npt.NDArray[np.int64], codes: npt.NDArray[np.int64], n: int) -> np.ndarray:
    """Return per group whether two of its rows hold different codes (rows sorted by group)."""
    change = (group[1:] == group[:-1]) & (codes[1:] != codes[:-1])
    return np.bincount(group[1:][change], minlength=n) > 0


def _codes(col: pd.Series) -> npt.NDArray[np.int64] | None:
    """Return integer codes of a column's values (-1 for missing), None when unhashable."""
    try:
        codes, _ = pd.factorize(col, use_na_sentinel=True)
    except TypeError:  # lists or dicts in the cells: not comparable here
        return None
    return np.asarray(codes, dtype=np.int64)


def _candidate(
    data: pd.DataFrame, at: int, traits: list[int], named: bool, kind: str
) -> PersonCandidate | None:
    """Count one eligible column and test its groups; None when it does not repeat."""
    name = str(data.columns[at])
    codes = _codes(data.iloc[:, at])
    if codes is None:
        return None
    valid = codes >= 0
    n_rows, n_missing = int(valid.sum()), int((~valid).sum())
    counts = np.bincount(codes[valid])
    n_people = len(counts)
    if n_people < max(MIN_PEOPLE, math.isqrt(n_rows)):
        return None  # constant, or a category (a ward, a provider)
    multi = counts >= 2
    repeated = float(multi.mean())
    if repeated < REPEAT_SHARE:
        return None
    # the within-group tests: whole groups of 2+ rows, every k-th beyond the limits
    others = [j for j in range(data.shape[1]) if j != at]
    cap = max(2, min(MAX_CHECK_ROWS, MAX_CELLS // max(len(others), 1)))
    in_multi = int(counts[multi].sum())
    step = -(-in_multi // cap)
    checked = multi & (np.arange(n_people) % step == 0) if step > 1 else multi
    if not checked.any():
        checked = multi  # pragma: no cover - the first group of 2+ rows is always kept
    rows = np.flatnonzero(valid)
    rows = rows[checked[codes[rows]]]
    rows = rows[np.argsort(codes[rows], kind="stable")]
    group = codes[rows]
    varies = np.zeros(n_people, dtype=bool)
    for j in others:
        other = _codes(data.iloc[rows, j])
        if other is not None:
            varies |= _differ(group, other, n_people)
        if varies[checked].all():
            break
    n_checked = int(checked.sum())
    same: float | None = None
    if traits:
        differs = np.zeros(n_people, dtype=bool)
        for j in traits:
            trait = _codes(data.iloc[rows, j])
            if trait is None:
                continue
            known = trait >= 0  # a missing trait contradicts nothing
            differs |= _differ(group[known], trait[known], n_people)
        same = 1.0 - float(differs[checked].sum()) / n_checked
    return PersonCandidate(
        column=name,
        n_people=n_people,
        n_rows=n_rows,
        n_missing=n_missing,
        min_rows=int(counts.min()),
        median_rows=float(np.median(counts)),
        max_rows=int(counts.max()),
        repeated=repeated,
        varying=float(varies[checked].sum()) / n_checked,
        same_person=same,
        traits=tuple(str(data.columns[j]) for j in traits),
        groups_checked=n_checked,
        named=named,
        kind=kind,
    )


def find_persons(
    data: pd.DataFrame,
    *,
    kinds: Mapping[str, str] | None = None,
    scan: TextScan | None = None,
) -> PersonCandidates:
    """Find the columns that link the rows of one person.

    The rule and its limits are those of :mod:`riskcore.roles.persons`.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    kinds : mapping of str to str, optional
        The suggested kind of each column (:attr:`RoleSuggestion.kind
        <riskcore.roles.RoleSuggestion.kind>`); by default the kind its name
        alone gives.
    scan : TextScan, optional
        The free-text scan of the table: its distinct-value counts spare a
        second count of a text column that cannot repeat enough.

    Returns
    -------
    PersonCandidates
        The candidates, best first, and the columns whose groups mix individuals.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({
    ...     "patient_id": [f"P{i // 2}" for i in range(40)],
    ...     "visit": range(40),
    ... })
    >>> found = find_persons(df)
    >>> found.best.column, found.best.n_people, found.best.max_rows
    ('patient_id', 20, 2)
    """
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a DataFrame, got {type(data).__name__}")
    names = [str(c) for c in data.columns]
    if len(set(names)) != len(names):
        return PersonCandidates()  # a column named twice cannot be told apart by name
    kinds = {c: _name_kind(c) for c in names} if kinds is None else dict(kinds)
    eligible, named = _eligible(names, kinds, scan)
    traits = [i for i, c in enumerate(names) if kinds.get(c, "") in TRAIT_KINDS]
    found = [
        _candidate(data, names.index(c), [j for j in traits if names[j] != c], c in named,
                   kinds.get(c, ""))
        for c in eligible
    ]  # fmt: skip
    kept = [c for c in found if c is not None and c.varying >= VARY_SHARE]

    def rank(c: PersonCandidate) -> tuple[bool, int, int, int]:
        by_kind = KEY_KINDS.index(c.kind) if c.kind in KEY_KINDS else len(KEY_KINDS)
        return (not c.named, by_kind, -c.n_people, names.index(c.column))

    return PersonCandidates(
        candidates=tuple(sorted((c for c in kept if not c.mixed), key=rank)),
        mixed=tuple(sorted((c for c in kept if c.mixed), key=lambda c: names.index(c.column))),
        checked=tuple(eligible),
    )


def rows_not_people(persons: PersonCandidates, roles: ColumnRoles) -> RowsNotPeople | None:
    """Return the caution of a table holding a person column that is not tagged as the person.

    Parameters
    ----------
    persons : PersonCandidates
        The table's person columns (:func:`find_persons`).
    roles : ColumnRoles
        The roles in use.

    Returns
    -------
    RowsNotPeople or None
        The best candidate's facts when no column is tagged as the person;
        None when one is, or when the table holds no candidate.
    """
    best = persons.best
    if best is None or roles.persons:
        return None
    return RowsNotPeople(best.column, best.n_people, best.n_rows, best.min_rows, best.max_rows)
