"""The people behind each ledger: keyed sketches in the database, and the key outside it.

Each file charged to a ledger leaves a :class:`riskcore.dp.people.PeopleSketch`
(keyed hashes only: no value and no plain hash of one) in the append-only
table ``dp_ledger_people``. A new file is charged by default to the ledger
whose people it holds (:func:`best_match`); starting a new ledger for it
instead is an explicit decision with a reason, kept in ``dp_ledger_splits``
and in the audit log (:meth:`riskcore.store.ledgers.BudgetStore.start_new_ledger`).

The key of the sketches is kept outside the database: the environment variable
``RISKCORE_POPULATION_KEY`` (hex, at least 32 digits), else the file
``<database>.people-key`` beside the database, made (mode 0600) at the first
sketch written. Without the key the sketches match nothing; a reader of the
database alone learns column names, row counts and keyed hashes.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import stat
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from riskcore.dp.people import PeopleMatch, PeopleSketch, TableProbe, match_people
from riskcore.dp.sources import (
    DEFAULT_DELTA_BUDGET,
    DEFAULT_EPSILON_BUDGET,
    DataSource,
    LedgerSplit,
    StoredLedger,
)
from riskcore.errors import RiskcoreError
from riskcore.store.assessments import Store
from riskcore.store.chain import append_only_sql
from riskcore.store.database import Who, user_name, utc_now

if TYPE_CHECKING:
    import pandas as pd

    from riskcore.store.ledgers import BudgetStore

__all__ = [
    "KEY_ENV",
    "SCHEMA",
    "best_match",
    "keep_sketch",
    "key_path",
    "people_key",
    "people_matches",
    "record_sketch",
    "record_split",
    "split_of",
    "start_new_ledger",
]

#: Environment variable holding the sketches' key (hex).
KEY_ENV = "RISKCORE_POPULATION_KEY"
_KEY_BYTES = 32

_TABLES = ("dp_ledger_people", "dp_ledger_splits")

#: The sketches of every file charged, and the ledgers begun despite a match; append-only.
SCHEMA = """
CREATE TABLE IF NOT EXISTS dp_ledger_people (
    fingerprint TEXT PRIMARY KEY,
    ledger INTEGER NOT NULL REFERENCES dp_ledgers(id),
    sketch TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS dp_ledger_splits (
    ledger INTEGER PRIMARY KEY REFERENCES dp_ledgers(id),
    resembles TEXT NOT NULL,
    match TEXT NOT NULL,
    reason TEXT NOT NULL,
    time TEXT NOT NULL,
    user TEXT NOT NULL
);
""" + append_only_sql(_TABLES)


def key_path(database: str | Path) -> Path:
    """Return the key file of the database at ``database``: ``<database>.people-key``.

    Parameters
    ----------
    database : str or Path
        The database file.

    Returns
    -------
    Path
    """
    p = Path(database)
    return p.with_name(p.name + ".people-key")


def people_key(database: str | Path, *, create: bool) -> bytes | None:
    """Return the key of the people sketches, from the environment or the key file.

    Parameters
    ----------
    database : str or Path
        The database the sketches are kept in.
    create : bool
        Make the key file (mode 0600) when there is none; else return None.

    Returns
    -------
    bytes or None

    Raises
    ------
    RiskcoreError
        When ``RISKCORE_POPULATION_KEY`` is not hex of at least 16 bytes, or the
        key file is not a regular file of the expected size.
    """
    env = os.environ.get(KEY_ENV, "").strip()
    if env:
        try:
            key = bytes.fromhex(env)
        except ValueError:
            key = b""
        if len(key) < 16:
            raise RiskcoreError(f"{KEY_ENV} must hold at least 32 hexadecimal digits")
        return key
    path = key_path(database)
    if not path.exists():
        if not create:
            return None
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it first: read theirs
            pass
        else:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_hex(_KEY_BYTES))
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > 4 * _KEY_BYTES:
            raise ValueError
        key = bytes.fromhex(path.read_text(encoding="ascii").strip())
    except (OSError, ValueError, UnicodeDecodeError):
        raise RiskcoreError(
            f"the key of the people sketches ({path}) is not a key file riskcore wrote"
        ) from None
    if len(key) < 16:
        raise RiskcoreError(
            f"the key of the people sketches ({path}) is not a key file riskcore wrote"
        )
    return key


def record_sketch(
    con: sqlite3.Connection, ledger: int, fingerprint: str, sketch: PeopleSketch
) -> bool:
    """Keep the sketch of the file ``fingerprint`` charged to ``ledger`` (once per file).

    Returns whether a sketch was written (False when the file had one): the row is in the
    audit chain (:data:`riskcore.store.chain.GUARDED`), so the caller's transaction must
    append an audit entry when it writes one.

    Parameters
    ----------
    con : sqlite3.Connection
        An open connection to the store's SQLite database.
    ledger : int
        The ledger's id (``dp_ledgers.id``).
    fingerprint : str
        The file's fingerprint.
    sketch : PeopleSketch
        The file's people sketch.

    Returns
    -------
    bool
    """
    cur = con.execute(
        "INSERT OR IGNORE INTO dp_ledger_people (fingerprint, ledger, sketch) VALUES (?, ?, ?)",
        (fingerprint, ledger, json.dumps(sketch.to_dict(), allow_nan=False)),
    )
    return cur.rowcount > 0


def keep_sketch(
    con: sqlite3.Connection,
    ledger: int,
    fingerprint: str,
    sketch: PeopleSketch,
    user: Who,
) -> None:
    """Keep the sketch of a file charged before sketches were kept, with its audit entry.

    The sketch decides which ledger a table's people are charged to, so its row is in the
    audit chain: an entry ``dp_ledger_sketch`` vouches for it (none when it was kept before).

    Parameters
    ----------
    con : sqlite3.Connection
        An open connection to the store's SQLite database.
    ledger : int
        The ledger's id (``dp_ledgers.id``).
    fingerprint : str
        The file's fingerprint.
    sketch : PeopleSketch
        The file's people sketch.
    user : Who
        Who acts: an Identity, a typed name, or None for the system user
        (:func:`~riskcore.store.database.user_name`).
    """
    if record_sketch(con, ledger, fingerprint, sketch):
        Store._append(
            con, "dp_ledger_sketch", user=user, fingerprint=fingerprint, changes={"ledger": ledger}
        )


def people_matches(
    con: sqlite3.Connection, probe: TableProbe
) -> tuple[tuple[int, PeopleMatch], ...]:
    """Return every ledger whose people the probed table holds, with its match, best first.

    Every stored sketch is matched (:func:`riskcore.dp.people.match_people`); a ledger
    with several sketches (files) counts once, by its best. Sorted by score, largest first
    (the oldest ledger first on a tie). A table pooling the people of several ledgers holds
    the people of each: every one of them is charged (issue 37, item 5).

    Parameters
    ----------
    con : sqlite3.Connection
        An open connection to the store's SQLite database.
    probe : TableProbe
        The keyed sketch of the table.

    Returns
    -------
    tuple of (int, PeopleMatch)
        The ledgers whose people the probed table holds, and each match; empty for none.
    """
    # the tables are append-only: their row count stamps what was matched against, so a page
    # rerun with the same table and no new sketch reuses the answer
    stamp = ("people_matches", con.execute("SELECT COUNT(*) FROM dp_ledger_people").fetchone()[0])
    if stamp in probe.matches:
        return probe.matches[stamp]  # type: ignore[return-value]
    rows = con.execute(
        "SELECT p.ledger, l.source, p.sketch FROM dp_ledger_people p "
        "JOIN dp_ledgers l ON l.id = p.ledger ORDER BY p.ledger, p.rowid"
    ).fetchall()
    best: dict[int, PeopleMatch] = {}
    mine = probe.sketch() if rows else None
    for lid, name, text in rows:
        m = match_people(probe, PeopleSketch.from_dict(json.loads(text)), table=mine)
        if m.matched and (int(lid) not in best or m.score > best[int(lid)].score):
            best[int(lid)] = replace(m, ledger=str(name))
    found = tuple(sorted(best.items(), key=lambda item: (-item[1].score, item[0])))
    probe.matches.clear()
    probe.matches[stamp] = found
    return found


def best_match(con: sqlite3.Connection, probe: TableProbe) -> tuple[int, PeopleMatch] | None:
    """Return the ledger whose people the probed table holds most, and the match.

    The first of :func:`people_matches`; None when no sketch matches.

    Parameters
    ----------
    con : sqlite3.Connection
        An open connection to the store's SQLite database.
    probe : TableProbe
        The keyed sketch of the table (:class:`~riskcore.dp.people.TableProbe`).

    Returns
    -------
    tuple of (int, PeopleMatch) or None
    """
    found = people_matches(con, probe)
    return found[0] if found else None


def record_split(
    con: sqlite3.Connection,
    ledger: int,
    match: PeopleMatch,
    reason: str,
    now: str,
    who: str,
) -> None:
    """Keep why ``ledger`` was begun although its file matched ``match.ledger``.

    Parameters
    ----------
    con : sqlite3.Connection
        An open connection to the store's SQLite database.
    ledger : int
        The new ledger's id (``dp_ledgers.id``).
    match : PeopleMatch
        The ledger its file matched.
    reason : str
        Why a ledger of its own.
    now : str
        The time, as :func:`~riskcore.store.database.utc_now` writes it.
    who : str
        Who decided, as the user column holds it.
    """
    con.execute(
        "INSERT INTO dp_ledger_splits (ledger, resembles, match, reason, time, user) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (ledger, match.ledger, json.dumps(match.to_dict(), allow_nan=False), reason, now, who),
    )


def split_of(con: sqlite3.Connection, ledger: int) -> LedgerSplit | None:
    """Return why ``ledger`` was begun despite a match, or None for an ordinary ledger.

    Parameters
    ----------
    con : sqlite3.Connection
        An open connection to the store's SQLite database.
    ledger : int
        The ledger's id (``dp_ledgers.id``).

    Returns
    -------
    LedgerSplit or None
    """
    try:
        row = con.execute(
            "SELECT resembles, match, reason, time, user FROM dp_ledger_splits WHERE ledger = ?",
            (ledger,),
        ).fetchone()
    except sqlite3.OperationalError:  # a database from before the sketches
        return None
    if row is None:
        return None
    return LedgerSplit(
        str(row[0]),
        PeopleMatch.from_dict(json.loads(row[1])),
        str(row[2]),
        str(row[3]),
        str(row[4]),
    )


def start_new_ledger(
    book: BudgetStore,
    source: DataSource,
    *,
    reason: str,
    data: pd.DataFrame | None = None,
    user: Who = None,
) -> StoredLedger:
    """Begin a ledger of its own for ``source``, a decision that needs a reason.

    For a file that holds the people of a ledgered table (so charged to
    that ledger by default): the new ledger, named ``source.name``, keeps
    the match and the reason (:class:`riskcore.dp.LedgerSplit`), and the
    audit log gets a ``dp_ledger_new`` entry with both.

    Parameters
    ----------
    book : BudgetStore
        The budget store writing the ledger.
    source : DataSource
        The data source: its fingerprint names the file whose ledger is charged.
    reason : str
        Why (not empty).
    data : pandas.DataFrame, optional
        The table.
    user : Who, optional
        Who acts: an Identity, a typed name, or None for the system user
        (:func:`~riskcore.store.database.user_name`).

    Returns
    -------
    StoredLedger

    Raises
    ------
    RiskcoreError
        When ``reason`` is blank, a ledger is already named ``source.name``,
        or the file is already charged to a ledger (a file's ledger never changes).
    """
    why = str(reason or "").strip()
    if not why:
        raise RiskcoreError(
            "A new ledger for a table that holds the people of another ledger needs a "
            "reason, which the audit log and the report keep."
        )
    probe = book._probe(source, data, create=True)
    with book._tx() as con:
        how, lid, match = book._locate(con, source, probe)
        if how == "fingerprint":
            name = book._ledger(con, int(lid or 0)).source
            raise RiskcoreError(
                f"this file is already charged to the ledger {name!r}; a file's ledger "
                "never changes"
            )
        if con.execute("SELECT 1 FROM dp_ledgers WHERE source = ?", (source.name,)).fetchone():
            raise RiskcoreError(
                f"a ledger is already named {source.name!r}: give the new ledger another name"
            )
        now, who = (utc_now(), user_name(user))
        cur = con.execute(
            "INSERT INTO dp_ledgers (source, created, user) VALUES (?, ?, ?)",
            (source.name, now, who),
        )
        new = int(cur.lastrowid or 0)
        con.execute(
            "INSERT INTO dp_ledger_budgets (ledger, time, user, epsilon_budget, "
            "delta_budget, accounting, reason) VALUES (?, ?, ?, ?, ?, 'basic', ?)",
            (new, now, who, DEFAULT_EPSILON_BUDGET, DEFAULT_DELTA_BUDGET, why),
        )
        book._add_file(con, new, source, now, who)
        if probe is not None:
            record_sketch(con, new, source.fingerprint, probe.sketch())
        if match is not None:
            record_split(con, new, match, why, now, who)
        Store._append(
            con,
            "dp_ledger_new",
            user=user,
            fingerprint=source.fingerprint,
            changes={
                "ledger": source.name,
                "columns": len(source.columns),
                "rows": source.n_rows,
                "reason": why,
                "instead_of": None if match is None else match.ledger,
                "match": None if match is None else match.to_dict(),
            },
        )
        return book._ledger(con, new)
