"""Reading the persisted privacy ledgers: a file's ledger found, rebuilt from its rows.

:class:`LedgerReader` is the reading half of
:class:`~riskcore.store.ledgers.BudgetStore`, which mixes it in: a file's
ledger is found by its fingerprint, then by its people (rows matched by
content, :mod:`riskcore.store.population`), then by the source name
(:meth:`LedgerReader.lookup`); a ledger is rebuilt from its append-only rows
(its files, budgets and releases) with the ledgers whose files have the same
columns and row count (near duplicates). Nothing here writes: the tables, the
transactions and every change live in :mod:`riskcore.store.ledgers`.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Literal

from riskcore.dp.accounting import LedgerEntry, PrivacyLedger
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

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["LedgerReader"]


class LedgerReader:
    """Find and read the persisted ledgers (mixed into the store's BudgetStore).

    The store sets ``_probes`` (the keyed hashes of the last table looked
    up) and provides ``path`` and ``_read`` (a connection outside a
    transaction).
    """

    _probes: dict[tuple[str, bytes], TableProbe]

    if TYPE_CHECKING:  # defined by the store

        @property
        def path(self) -> str: ...

        def _read(self) -> AbstractContextManager[sqlite3.Connection]: ...

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
