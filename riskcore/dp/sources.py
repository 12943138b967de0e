"""Data sources and the persisted privacy ledgers charged for them (results only).

A privacy budget belongs to the people in the data, not to a browser session:
the ledger of a data source is kept in the local database
(:mod:`riskcore.store.ledgers` stores and reads these results) and is found again by
the file's fingerprint, by the people it holds (:mod:`riskcore.dp.people`: rows matched on
the columns two tables share, whatever their names, order or format), or by
the name the user gives the source. A file that
is new to every ledger but has the same columns and row count as a file whose
budget was spent is a *near duplicate* (one byte changed gives a new
fingerprint, not new people), which a page warns about.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Literal

from riskcore._results import Result
from riskcore.dp.accounting import PrivacyLedger
from riskcore.dp.people import PeopleMatch

__all__ = [
    "DEFAULT_DELTA_BUDGET",
    "DEFAULT_EPSILON_BUDGET",
    "BudgetSetting",
    "DataSource",
    "LedgerLookup",
    "LedgerSplit",
    "StoredLedger",
    "shape_of",
]

#: The budget of a new ledger until the user sets another.
DEFAULT_EPSILON_BUDGET = 1.0
DEFAULT_DELTA_BUDGET = 1e-6


def shape_of(columns: tuple[str, ...] | list[str], n_rows: int) -> str:
    """Return the shape two near-duplicate files share: sorted column names and row count.

    The names are sorted, so a file with its columns reordered (other bytes,
    the same people) has the same shape.

    Parameters
    ----------
    columns : tuple of str or list of str
        The table's columns.
    n_rows : int
        The table's number of rows.

    Returns
    -------
    str
        Compact JSON: ``[[sorted names], rows]``.

    Examples
    --------
    >>> shape_of(("b", "a"), 3)
    '[["a","b"],3]'
    """
    return json.dumps([sorted(str(c) for c in columns), int(n_rows)], separators=(",", ":"))


@dataclass(frozen=True)
class DataSource(Result):
    """The data a release is made from, as its ledger knows it.

    Attributes
    ----------
    name : str
        The name the user gives the source, by default the file name.
    fingerprint : str
        SHA-256 of the file's bytes (the demo's key for the demo).
    columns : tuple of str
        The table's columns.
    n_rows : int
        The table's number of rows.
    """

    name: str
    fingerprint: str
    columns: tuple[str, ...] = ()
    n_rows: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", str(self.name).strip())
        if not self.name:
            raise ValueError("the data source needs a name")
        if not self.fingerprint:
            raise ValueError("the data source needs a fingerprint")
        object.__setattr__(self, "columns", tuple(str(c) for c in self.columns))
        if int(self.n_rows) < 0:
            raise ValueError(f"n_rows must not be negative, got {self.n_rows!r}")

    @property
    def shape(self) -> str:
        """Return :func:`shape_of` its columns and rows."""
        return shape_of(self.columns, self.n_rows)


@dataclass(frozen=True)
class BudgetSetting(Result):
    """One budget a ledger was given, with who set it, when and why.

    Attributes
    ----------
    time : str
        UTC, ISO 8601.
    user : str
    epsilon_budget, delta_budget : float
    accounting : str
    reason : str
        Required when the change loosened a spent budget
        (:func:`riskcore.dp.change_needs_reason`); "" otherwise.
    """

    time: str
    user: str
    epsilon_budget: float
    delta_budget: float
    accounting: str
    reason: str = ""


@dataclass(frozen=True)
class LedgerSplit(Result):
    """Why a ledger was begun for a table that holds the people of another ledger.

    Attributes
    ----------
    resembles : str
        The ledger the table matched (and would have been charged to by default).
    match : PeopleMatch
        The match as it was when the decision was made.
    reason : str
        The reason typed (never empty).
    time : str
        UTC, ISO 8601.
    user : str
    """

    resembles: str
    match: PeopleMatch
    reason: str
    time: str
    user: str


@dataclass(frozen=True)
class StoredLedger(Result):
    """A persisted ledger: its source, the files charged to it, its budgets and releases.

    Attributes
    ----------
    id : int
    source : str
        The data source's name (unique).
    created : str
        UTC, ISO 8601.
    fingerprints : tuple of str
        Every file charged to this ledger, first first.
    shapes : tuple of str
        Their :func:`shape_of`, in the same order.
    ledger : PrivacyLedger
        The budget in force and every release, oldest first.
    budgets : tuple of BudgetSetting
        Every budget it was given, oldest first (the last is in force).
    split : LedgerSplit or None
        Why it was begun although its first file held another ledger's people;
        None for a ledger begun for new people.
    """

    id: int
    source: str
    created: str
    fingerprints: tuple[str, ...]
    shapes: tuple[str, ...]
    ledger: PrivacyLedger
    budgets: tuple[BudgetSetting, ...] = field(default_factory=tuple)
    split: LedgerSplit | None = None

    @property
    def spent(self) -> float:
        """Return the epsilon spent under the ledger's accounting."""
        return self.ledger.spent()[0]


@dataclass(frozen=True)
class LedgerLookup(Result):
    """Which ledger a data source's releases are charged to, and why.

    Attributes
    ----------
    source : DataSource
    how : {"fingerprint", "people", "name", "new"}
        The file is already charged to ``ledger``; or it is new but holds
        ``ledger``'s people (``match``), so it joins it at the first charge;
        or it is new but the source's name is ``ledger``'s, so it joins it at
        the first charge; or no ledger has any of these, and a new one is made
        at the first charge.
    ledger : StoredLedger or None
        None when ``how`` is "new".
    near : tuple of StoredLedger
        Other ledgers that have spent budget on a file of the same columns and
        row count as this one (a near duplicate), when this file is new.
    match : PeopleMatch or None
        When ``how`` is "people": which ledger's rows were found, what share,
        on which columns (:func:`riskcore.dp.people.match_people`).
    also : tuple of StoredLedger
        The other ledgers whose people the table also holds (a pooled table): each
        release is charged to, and checked against, every one of them as well.
    also_matches : tuple of PeopleMatch
        The match of each of ``also``, in the same order.
    """

    source: DataSource
    how: Literal["fingerprint", "people", "name", "new"]
    ledger: StoredLedger | None = None
    near: tuple[StoredLedger, ...] = ()
    match: PeopleMatch | None = None
    also: tuple[StoredLedger, ...] = ()
    also_matches: tuple[PeopleMatch, ...] = ()

    @property
    def charged(self) -> tuple[StoredLedger, ...]:
        """Return every ledger a release is charged to: ``ledger`` first, then ``also``."""
        return ((self.ledger,) if self.ledger is not None else ()) + self.also

    @property
    def remaining(self) -> float:
        """Return the epsilon a release may still spend: the least left of every ledger charged.

        Examples
        --------
        >>> src = DataSource("t.csv", "0" * 64, ("a",), 1)
        >>> LedgerLookup(src, "new").remaining  # a new ledger's default budget
        1.0
        """
        return min([s.ledger.remaining() for s in self.also] + [self.budget.remaining()])

    @property
    def budget(self) -> PrivacyLedger:
        """Return the ledger in force (a new ledger's default budget when ``how`` is "new")."""
        if self.ledger is not None:
            return self.ledger.ledger
        return PrivacyLedger(DEFAULT_EPSILON_BUDGET, DEFAULT_DELTA_BUDGET)

    @property
    def name(self) -> str:
        """Return the name of the ledger charged: the stored one, else the source's."""
        return self.ledger.source if self.ledger is not None else self.source.name
