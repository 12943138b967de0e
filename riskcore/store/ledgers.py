"""The privacy budget that cannot be undone: ledgers persisted in the local database.

A privacy ledger is kept per *data source*: the name the user gives it (by
default the file name) and the fingerprints (SHA-256) of the files charged to
it, in the same SQLite file as the saved assessments and the audit log
(:class:`riskcore.store.Store`, ``RISKCORE_DB``). So a page reload, a new
browser session, a server restart or "Reset session" finds the same budget,
and nothing resets it:

- every table here is append-only: triggers refuse UPDATE and DELETE (as on
  the audit table), and a ledger has no restart;
- a release *reserves* its cost before any noise is drawn, in one
  ``BEGIN IMMEDIATE`` transaction (read what is spent, refuse if the budget
  would be exceeded, insert the entry, log it, commit), so two sessions or
  processes can never overspend the same ledger between them;
- every release's entry keeps its unit of privacy (the person column and the
  bound c on rows per person, or one row): an entry written before units were
  kept reads as one row;
- after a release, a change of budget that could leave more to spend (a
  higher epsilon or delta, another accounting) needs a reason, which the
  audit log keeps with the change; lowering is always allowed;
- a file is found by its fingerprint, then by its people (rows matched by
  content: :mod:`riskcore.store.population`), then by the source name; a new
  file with the columns and row count of one whose budget was spent (a byte
  changed is a new fingerprint) is reported as a near duplicate, naming that
  ledger, which the user can continue (:meth:`BudgetStore.attach`).

Every ledger made, file added, release and budget change is an audit entry
(actions ``dp_ledger_new``, ``dp_ledger_join``, ``dp_release``, ``dp_budget``)
in the hash chain that ``riskcore audit verify`` checks.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from riskcore.dp.accounting import (
    BudgetChangeRefusedError,
    BudgetExceededError,
    LedgerEntry,
    PrivacyLedger,
    change_needs_reason,
)
from riskcore.dp.people import PeopleMatch, TableProbe, probe_table
from riskcore.dp.sources import (
    DEFAULT_DELTA_BUDGET,
    DEFAULT_EPSILON_BUDGET,
    BudgetSetting,
    DataSource,
    LedgerLookup,
    StoredLedger,
)
from riskcore.errors import RiskcoreError
from riskcore.store import population
from riskcore.store.assessments import Store
from riskcore.store.chain import append_only_sql
from riskcore.store.database import Who, holds_table, user_name, utc_now

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["SCHEMA", "BudgetStore", "LedgerHandle", "holds_ledgers"]

_TABLES = ("dp_ledgers", "dp_ledger_files", "dp_ledger_budgets", "dp_ledger_entries")

#: The ledgers' tables (beside the store's own), each append-only.
SCHEMA = """
CREATE TABLE IF NOT EXISTS dp_ledgers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL,
    user TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS dp_ledger_files (
    fingerprint TEXT PRIMARY KEY,
    ledger INTEGER NOT NULL REFERENCES dp_ledgers(id),
    shape TEXT NOT NULL,
    added TEXT NOT NULL,
    user TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS dp_ledger_files_shape ON dp_ledger_files(shape);
CREATE TABLE IF NOT EXISTS dp_ledger_budgets (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    ledger INTEGER NOT NULL REFERENCES dp_ledgers(id),
    time TEXT NOT NULL,
    user TEXT NOT NULL,
    epsilon_budget REAL NOT NULL,
    delta_budget REAL NOT NULL,
    accounting TEXT NOT NULL,
    reason TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS dp_ledger_entries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    ledger INTEGER NOT NULL REFERENCES dp_ledgers(id),
    fingerprint TEXT NOT NULL,
    time TEXT NOT NULL,
    user TEXT NOT NULL,
    entry TEXT NOT NULL
);
""" + append_only_sql(_TABLES)


def holds_ledgers(path: str | Path) -> bool:
    """Return whether the database at ``path`` exists and holds the ledgers' tables.

    Reads only: no file, table or journal is left behind, so that looking a ledger up
    never writes (the tables are made at the first charge or budget change).

    Parameters
    ----------
    path : str or Path
        The database file.

    Returns
    -------
    bool

    Raises
    ------
    RiskcoreError
        When the file exists but cannot be read as a database.
    """
    return holds_table(path, _TABLES[0], "the privacy ledger")


@dataclass(frozen=True)
class LedgerHandle:
    """The persisted ledger of one data source, to pass to a release as its ledger.

    :func:`riskcore.dp.release.release` calls :meth:`charge` before it draws
    any noise, so the cost is reserved in the database first.

    Attributes
    ----------
    store : BudgetStore
    source : DataSource
    user : str or None
        The name typed for the audit log; None for the operating-system user.
    data : pandas.DataFrame or None
        The table, to find the ledger of its people (never stored).
    """

    store: BudgetStore
    source: DataSource
    user: Who = None
    data: pd.DataFrame | None = field(default=None, compare=False, repr=False)

    def charge(self, entry: LedgerEntry) -> PrivacyLedger:
        """Reserve ``entry`` in the database (:meth:`BudgetStore.reserve`).

        Parameters
        ----------
        entry : LedgerEntry
            The release's cost.

        Returns
        -------
        PrivacyLedger
        """
        return self.store.reserve(self.source, entry, user=self.user, data=self.data)

    def current(self) -> PrivacyLedger:
        """Return the ledger in force now.

        Returns
        -------
        PrivacyLedger
        """
        return self.store.lookup(self.source).budget


def _budget_dict(ledger: PrivacyLedger) -> dict[str, Any]:
    return {
        "epsilon_budget": ledger.epsilon_budget,
        "delta_budget": ledger.delta_budget,
        "accounting": ledger.accounting,
    }


class BudgetStore:
    """Privacy ledgers per data source in the store's SQLite file.

    It writes through the store's own transaction and audit append
    (``Store._transaction``, ``Store._append``), so a ledger row and its audit
    entry commit together or not at all, in the one hash chain.

    Parameters
    ----------
    store : Store, optional
        Default ``Store()`` (``RISKCORE_DB`` or the user's data directory).
    """

    def __init__(self, store: Store | None = None) -> None:
        self.store = store if store is not None else Store()
        self._probes: dict[tuple[str, bytes], TableProbe] = {}
        with self._read() as con:
            con.executescript(SCHEMA + population.SCHEMA)

    @property
    def path(self) -> str:
        """Return the database file's path."""
        return str(self.store.path)

    # -- transactions -------------------------------------------------------------------
    @contextmanager
    def _opened(
        self, connection: AbstractContextManager[sqlite3.Connection], doing: str
    ) -> Iterator[sqlite3.Connection]:
        """Yield ``connection``'s connection; a database error becomes a RiskcoreError."""
        try:
            with connection as con:
                yield con
        except sqlite3.Error as exc:
            raise RiskcoreError(
                f"the privacy ledger in {self.path!r} could not be {doing}: {exc}"
            ) from None

    def _tx(self) -> AbstractContextManager[sqlite3.Connection]:
        """Return a connection inside ``BEGIN IMMEDIATE``, errors as RiskcoreError."""
        return self._opened(self.store._transaction(), "read or written")

    def _read(self) -> AbstractContextManager[sqlite3.Connection]:
        """Return a connection outside a transaction, errors as RiskcoreError."""
        return self._opened(self.store._connect(), "read")

    # -- reading: a file's ledger found (by fingerprint, people, name), rebuilt from rows --
    @staticmethod
    def _find(
        con: sqlite3.Connection, source: DataSource
    ) -> tuple[Literal["fingerprint", "name", "new"], int | None]:
        row = con.execute(
            "SELECT ledger FROM dp_ledger_files WHERE fingerprint = ?", (source.fingerprint,)
        ).fetchone()
        if row is not None:
            return "fingerprint", int(row[0])
        row = con.execute("SELECT id FROM dp_ledgers WHERE source = ?", (source.name,)).fetchone()
        if row is not None:
            return "name", int(row[0])
        return "new", None

    def _probe(
        self, source: DataSource, data: pd.DataFrame | None, *, create: bool
    ) -> TableProbe | None:
        """Return the keyed hashes of ``data`` (cached per file and key), None without either."""
        if data is None:
            return None
        key = population.people_key(self.path, create=create)
        if key is None:
            return None
        if (source.fingerprint, key) not in self._probes:  # one table at a time
            self._probes = {(source.fingerprint, key): probe_table(data, key=key)}
        return self._probes[(source.fingerprint, key)]

    def _locate(
        self, con: sqlite3.Connection, source: DataSource, probe: TableProbe | None
    ) -> tuple[Literal["fingerprint", "people", "name", "new"], int | None, PeopleMatch | None]:
        """Find the ledger of ``source``: by fingerprint, then by its people, then by name."""
        how, lid = self._find(con, source)
        if how == "fingerprint" or probe is None:
            return how, lid, None
        found = population.best_match(con, probe)
        if found is None:
            return how, lid, None
        return "people", found[0], found[1]

    @staticmethod
    def _also(
        con: sqlite3.Connection, ledger_id: int | None, probe: TableProbe | None
    ) -> tuple[tuple[int, PeopleMatch], ...]:
        """Return the other ledgers whose people the table holds, each charged too.

        Every ledger :func:`population.people_matches` finds, but ``ledger_id`` and the
        ledgers a split separates from it: a ledger begun with a reason for "other people"
        (:func:`population.start_new_ledger`) is not charged for the ledger it split from,
        nor that ledger for it.
        """
        if probe is None:
            return ()
        found = [(lid, m) for lid, m in population.people_matches(con, probe) if lid != ledger_id]
        if not found or ledger_id is None:
            return tuple(found)
        mine = con.execute("SELECT source FROM dp_ledgers WHERE id = ?", (ledger_id,)).fetchone()
        own = population.split_of(con, ledger_id)
        apart = {own.resembles} if own is not None else set()
        kept = []
        for lid, m in found:
            theirs = population.split_of(con, lid)
            if m.ledger in apart or (theirs is not None and mine and theirs.resembles == mine[0]):
                continue
            kept.append((lid, m))
        return tuple(kept)

    @staticmethod
    def _ledger(con: sqlite3.Connection, ledger_id: int) -> StoredLedger:
        row = con.execute(
            "SELECT id, source, created FROM dp_ledgers WHERE id = ?", (ledger_id,)
        ).fetchone()
        if row is None:
            raise RiskcoreError(f"there is no privacy ledger with the id {ledger_id}")
        files = con.execute(
            "SELECT fingerprint, shape FROM dp_ledger_files WHERE ledger = ? ORDER BY rowid",
            (ledger_id,),
        ).fetchall()
        budgets = tuple(
            BudgetSetting(*r)
            for r in con.execute(
                "SELECT time, user, epsilon_budget, delta_budget, accounting, reason "
                "FROM dp_ledger_budgets WHERE ledger = ? ORDER BY seq",
                (ledger_id,),
            )
        )
        entries = tuple(
            LedgerEntry.from_dict(json.loads(r[0]))
            for r in con.execute(
                "SELECT entry FROM dp_ledger_entries WHERE ledger = ? ORDER BY seq", (ledger_id,)
            )
        )
        last = budgets[-1] if budgets else None
        ledger = PrivacyLedger(
            last.epsilon_budget if last else DEFAULT_EPSILON_BUDGET,
            last.delta_budget if last else DEFAULT_DELTA_BUDGET,
            "zcdp" if last is not None and last.accounting == "zcdp" else "basic",
            entries,
        )
        return StoredLedger(
            int(row[0]),
            str(row[1]),
            str(row[2]),
            tuple(str(f[0]) for f in files),
            tuple(str(f[1]) for f in files),
            ledger,
            budgets,
            population.split_of(con, ledger_id),
        )

    def _near(
        self, con: sqlite3.Connection, source: DataSource, other_than: int | None
    ) -> tuple[StoredLedger, ...]:
        ids = [
            int(r[0])
            for r in con.execute(
                "SELECT DISTINCT ledger FROM dp_ledger_files WHERE shape = ? ORDER BY ledger",
                (source.shape,),
            )
            if r[0] != other_than
        ]
        near = (self._ledger(con, i) for i in ids)
        return tuple(s for s in near if s.ledger.entries)

    def lookup(self, source: DataSource, *, data: pd.DataFrame | None = None) -> LedgerLookup:
        """Return the ledger ``source``'s releases are charged to, and the near duplicates.

        Reads only: a new ledger, or a new file of a ledger, is written at the
        first charge or budget change. With ``data`` (the table), a new file
        holding a ledger's people is found (``how == "people"``, with the match), and every
        other ledger whose people it holds too (``also``: each is charged as well).

        Parameters
        ----------
        source : DataSource
            The data source: its fingerprint names the file whose ledger is charged.
        data : pandas.DataFrame, optional
            The table.

        Returns
        -------
        LedgerLookup
        """
        probe = self._probe(source, data, create=False)
        with self._read() as con:
            how, lid, match = self._locate(con, source, probe)
            stored = None if lid is None else self._ledger(con, lid)
            near = () if how in ("fingerprint", "people") else self._near(con, source, lid)
            also = self._also(con, lid, probe)
            others = tuple(self._ledger(con, i) for i, _m in also)
        return LedgerLookup(source, how, stored, near, match, others, tuple(m for _i, m in also))

    def ledgers(self) -> list[StoredLedger]:
        """Return every ledger, oldest first.

        Returns
        -------
        list of StoredLedger
        """
        with self._read() as con:
            ids = [int(r[0]) for r in con.execute("SELECT id FROM dp_ledgers ORDER BY id")]
            return [self._ledger(con, i) for i in ids]

    def handle(
        self, source: DataSource, *, user: Who = None, data: pd.DataFrame | None = None
    ) -> LedgerHandle:
        """Return the handle a release charges (:class:`LedgerHandle`).

        Parameters
        ----------
        source : DataSource
            The data source: its fingerprint names the file whose ledger is charged.
        user : Who, optional
            Who acts: an Identity, a typed name, or None for the system user
            (:func:`~riskcore.store.database.user_name`).
        data : pandas.DataFrame, optional
            The table.

        Returns
        -------
        LedgerHandle
        """
        return LedgerHandle(self, source, user, data)

    # -- writing (each in one transaction, with its audit entry) --------------------------
    def _ensure(
        self,
        con: sqlite3.Connection,
        source: DataSource,
        user: Who,
        probe: TableProbe | None = None,
    ) -> int:
        """Return the ledger id of ``source``, making the ledger or adding the file first."""
        how, lid, match = self._locate(con, source, probe)
        if how == "fingerprint" and lid is not None:
            if probe is not None:  # a file charged before sketches were kept
                population.keep_sketch(con, lid, source.fingerprint, probe.sketch(), user)
            return lid
        near = [] if how == "people" else [s.source for s in self._near(con, source, lid)]
        changes: dict[str, Any] = {
            "columns": len(source.columns),
            "rows": source.n_rows,
            "near_duplicate_of": near,
        }
        now, who = _now_user(user)
        if lid is None:
            cur = con.execute(
                "INSERT INTO dp_ledgers (source, created, user) VALUES (?, ?, ?)",
                (source.name, now, who),
            )
            lid = int(cur.lastrowid or 0)
            con.execute(
                "INSERT INTO dp_ledger_budgets (ledger, time, user, epsilon_budget, "
                "delta_budget, accounting, reason) VALUES (?, ?, ?, ?, ?, 'basic', '')",
                (lid, now, who, DEFAULT_EPSILON_BUDGET, DEFAULT_DELTA_BUDGET),
            )
            action = "dp_ledger_new"
        else:
            action = "dp_ledger_join"
            changes["how"] = "same source name" if match is None else "same people"
            if match is not None:
                changes["match"] = match.to_dict()
        self._add_file(con, lid, source, now, who)
        if probe is not None:
            population.record_sketch(con, lid, source.fingerprint, probe.sketch())
        Store._append(
            con,
            action,
            user=user,
            fingerprint=source.fingerprint,
            changes={"ledger": source.name, **changes},
        )
        return lid

    @staticmethod
    def _add_file(
        con: sqlite3.Connection, lid: int, source: DataSource, now: str, who: str
    ) -> None:
        con.execute(
            "INSERT INTO dp_ledger_files (fingerprint, ledger, shape, added, user) "
            "VALUES (?, ?, ?, ?, ?)",
            (source.fingerprint, lid, source.shape, now, who),
        )

    def attach(self, source: DataSource, ledger: str, *, user: Who = None) -> StoredLedger:
        """Charge the file of ``source`` to the existing ledger named ``ledger`` from now on.

        What the user chooses for a near duplicate: continue the ledger that
        spent its budget on (nearly) the same data. Logged as ``dp_ledger_join``.

        Parameters
        ----------
        source : DataSource
            The data source: its fingerprint names the file whose ledger is charged.
        ledger : str
            The existing ledger's name.
        user : Who, optional
            Who acts: an Identity, a typed name, or None for the system user
            (:func:`~riskcore.store.database.user_name`).

        Returns
        -------
        StoredLedger

        Raises
        ------
        RiskcoreError
            When there is no such ledger, or the file is already charged to
            another ledger (a file's ledger never changes).
        """
        with self._tx() as con:
            row = con.execute("SELECT id FROM dp_ledgers WHERE source = ?", (ledger,)).fetchone()
            if row is None:
                raise RiskcoreError(f"there is no privacy ledger named {ledger!r}")
            lid = int(row[0])
            how, current = self._find(con, source)
            if how == "fingerprint":
                if current != lid:
                    name = self._ledger(con, int(current or 0)).source
                    raise RiskcoreError(
                        f"this file is already charged to the ledger {name!r}; a file's "
                        "ledger never changes"
                    )
                return self._ledger(con, lid)
            now, who = _now_user(user)
            self._add_file(con, lid, source, now, who)
            Store._append(
                con,
                "dp_ledger_join",
                user=user,
                fingerprint=source.fingerprint,
                changes={
                    "ledger": ledger,
                    "how": "chosen by the user",
                    "columns": len(source.columns),
                    "rows": source.n_rows,
                },
            )
            return self._ledger(con, lid)

    def start_new_ledger(
        self,
        source: DataSource,
        *,
        reason: str,
        data: pd.DataFrame | None = None,
        user: Who = None,
    ) -> StoredLedger:
        """Begin a ledger for ``source``, with a reason (:func:`population.start_new_ledger`).

        Parameters
        ----------
        source : DataSource
            The data source: its fingerprint names the file whose ledger is charged.
        reason : str
            Why the file gets a ledger of its own although it matched one (not empty).
        data : pandas.DataFrame, optional
            The table.
        user : Who, optional
            Who acts: an Identity, a typed name, or None for the system user
            (:func:`~riskcore.store.database.user_name`).

        Returns
        -------
        StoredLedger
        """
        return population.start_new_ledger(self, source, reason=reason, data=data, user=user)

    def reserve(
        self,
        source: DataSource,
        entry: LedgerEntry,
        *,
        user: Who = None,
        data: pd.DataFrame | None = None,
    ) -> PrivacyLedger:
        """Charge ``entry`` to the ledger of ``source``, atomically, or refuse it.

        In one ``BEGIN IMMEDIATE`` transaction (which holds the database's
        write lock from its first statement): find or make the ledger, read
        the releases already charged, refuse when this one would exceed the
        budget (:meth:`PrivacyLedger.charge`), insert the entry and its audit
        entry, commit. Only then may the caller draw and show the noisy
        answer; if it fails after this, the budget stays spent (the safe side).
        With ``data``, a new file holding a ledger's people is charged to that
        ledger, and the file's keyed sketch is kept.

        Parameters
        ----------
        source : DataSource
            The data source: its fingerprint names the file whose ledger is charged.
        entry : LedgerEntry
            The release's cost.
        user : Who, optional
            Who acts: an Identity, a typed name, or None for the system user
            (:func:`~riskcore.store.database.user_name`).
        data : pandas.DataFrame, optional
            The table.

        Returns
        -------
        PrivacyLedger
            The ledger with ``entry`` charged.

        Raises
        ------
        BudgetExceededError
            When the budget would be exceeded; nothing is written.
        """
        probe = self._probe(source, data, create=True)
        with self._tx() as con:
            lid = self._ensure(con, source, user, probe)
            before = self._ledger(con, lid)
            after = before.ledger.charge(entry)
            also = [(self._ledger(con, i), m) for i, m in self._also(con, lid, probe)]
            for other, match in also:  # a pooled table: every ledger of its people, checked
                _charge_also(other, match, entry)
            now, who = _now_user(user)
            text = json.dumps(entry.to_dict(), allow_nan=False)
            # one row and its dp_release entry per ledger charged, this file's first: each
            # entry vouches for the row written just before it (riskcore.store.chain.VOUCHES)
            notes: list[tuple[StoredLedger, dict[str, Any]]] = [
                (before, {"also_charged": [other.source for other, _m in also]})
            ]
            notes += [
                (
                    other,
                    {
                        "how": "the table also holds this ledger's people",
                        "with": before.source,
                        "match": match.to_dict(),
                    },
                )
                for other, match in also
            ]
            for stored, extra in notes:
                con.execute(
                    "INSERT INTO dp_ledger_entries (ledger, fingerprint, time, user, entry) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (stored.id, source.fingerprint, now, who, text),
                )
                Store._append(
                    con,
                    "dp_release",
                    user=user,
                    fingerprint=source.fingerprint,
                    changes={**_release_changes(stored, entry), **extra},
                )
        return after

    def set_budget(
        self,
        source: DataSource,
        epsilon_budget: float,
        delta_budget: float,
        accounting: str = "basic",
        *,
        reason: str = "",
        user: Who = None,
        data: pd.DataFrame | None = None,
    ) -> PrivacyLedger:
        """Give the ledger of ``source`` a new budget, with a reason when one is needed.

        Lowering is always allowed. After a release, raising the epsilon or
        delta budget or changing the accounting needs a non-empty ``reason``
        (:func:`riskcore.dp.change_needs_reason`). Every change is kept (the
        old budgets stay in the ledger's history) and logged as ``dp_budget``
        with the old and new values and the reason.

        Parameters
        ----------
        source : DataSource
            The data source: its fingerprint names the file whose ledger is charged.
        epsilon_budget : float
            The new epsilon budget.
        delta_budget : float
            The new delta budget.
        accounting : str, optional
            "basic" or "zcdp".
        reason : str, optional
            Why (needed to raise a budget or change the accounting after a release).
        user : Who, optional
            Who acts: an Identity, a typed name, or None for the system user
            (:func:`~riskcore.store.database.user_name`).
        data : pandas.DataFrame, optional
            The table.

        Returns
        -------
        PrivacyLedger
            The ledger in force after the change.

        Raises
        ------
        BudgetChangeRefusedError
            When the change needs a reason and none is given; nothing is written.
        ValueError
            For a budget that is not valid (epsilon not positive, ...).
        """
        why = str(reason or "").strip()
        probe = self._probe(source, data, create=True)
        with self._tx() as con:
            _how, lid, _match = self._locate(con, source, probe)
            old = (
                PrivacyLedger(DEFAULT_EPSILON_BUDGET, DEFAULT_DELTA_BUDGET)
                if lid is None
                else self._ledger(con, lid).ledger
            )
            if accounting not in ("basic", "zcdp"):
                raise ValueError(f"accounting must be 'basic' or 'zcdp', got {accounting!r}")
            acc: Literal["basic", "zcdp"] = "zcdp" if accounting == "zcdp" else "basic"
            new = PrivacyLedger(float(epsilon_budget), float(delta_budget), acc, old.entries)
            if _budget_dict(new) == _budget_dict(old):
                return old
            if change_needs_reason(old, new) and not why:
                raise BudgetChangeRefusedError(
                    f"Refused: epsilon {old.spent()[0]:.4g} of this data's budget is already "
                    "spent, so raising the budget or changing how releases are counted needs a "
                    "reason, which is kept in the audit log. The budget stays epsilon "
                    f"{old.epsilon_budget:g}, delta {old.delta_budget:g} ({old.accounting})."
                )
            lid = self._ensure(con, source, user, probe)
            now, who = _now_user(user)
            con.execute(
                "INSERT INTO dp_ledger_budgets (ledger, time, user, epsilon_budget, "
                "delta_budget, accounting, reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (lid, now, who, new.epsilon_budget, new.delta_budget, new.accounting, why),
            )
            Store._append(
                con,
                "dp_budget",
                user=user,
                fingerprint=source.fingerprint,
                changes={
                    "ledger": self._ledger(con, lid).source,
                    "from": _budget_dict(old),
                    "to": _budget_dict(new),
                    "spent": old.spent()[0],
                    "reason": why,
                },
            )
        return new


def _release_changes(stored: StoredLedger, entry: LedgerEntry) -> dict[str, Any]:
    """Return a ``dp_release`` audit entry's changes: ``entry`` charged to ``stored``."""
    after = stored.ledger.charge(entry)
    return {
        "ledger": stored.source,
        "query": entry.query,
        "mechanism": entry.mechanism,
        "epsilon": entry.epsilon,
        "delta": entry.delta,
        "rho": entry.rho,
        # what the epsilon protects: the person column and c, or one row
        "unit": {"person": entry.unit.person, "max_rows": entry.unit.max_rows},
        "spent_before": stored.spent,
        "spent_after": after.spent()[0],
        **_budget_dict(after),
    }


def _charge_also(other: StoredLedger, match: PeopleMatch, entry: LedgerEntry) -> None:
    """Check ``entry`` against a ledger the table also holds the people of; refuse as it would."""
    try:
        other.ledger.charge(entry)
    except BudgetExceededError as exc:
        why = str(exc).removeprefix("Refused: ")
        raise BudgetExceededError(
            f"Refused: this table also holds the people of the ledger “{other.source}” "
            f"({100 * match.share_of_ledger:.1f}% of that ledger's rows), which every release "
            f"from it is charged to as well. For that ledger: {why}"
        ) from None


def _now_user(user: Who) -> tuple[str, str]:
    return utc_now(), user_name(user)
