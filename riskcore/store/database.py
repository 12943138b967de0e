"""The local SQLite database: where it lives, its tables, connections and transactions.

The database (stdlib :mod:`sqlite3`, WAL journal) lives under the user's data
directory, ``$XDG_DATA_HOME/riskcore/riskcore.db`` (``~/.local/share/...``;
``%LOCALAPPDATA%`` on Windows), or at the path in the ``RISKCORE_DB``
environment variable. Every write is one ``BEGIN IMMEDIATE`` transaction, so
parallel writers (threads or processes) queue instead of losing entries.
"""

from __future__ import annotations

import getpass
import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime
from pathlib import Path

from riskcore.errors import RiskcoreError

__all__ = ["DB_ENV", "SCHEMA", "Database", "default_path", "user_name", "utc_now"]

#: Environment variable overriding the database path.
DB_ENV = "RISKCORE_DB"

#: The tables of saved assessments and of the audit log (its triggers refuse UPDATE and DELETE).
SCHEMA = """
CREATE TABLE IF NOT EXISTS assessments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    created TEXT NOT NULL,
    user TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    profile TEXT NOT NULL,
    results TEXT NOT NULL,
    report TEXT
);
CREATE TABLE IF NOT EXISTS assessment_data (
    id INTEGER PRIMARY KEY,
    format TEXT NOT NULL,
    bytes BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS audit (
    seq INTEGER PRIMARY KEY,
    time TEXT NOT NULL,
    user TEXT NOT NULL,
    action TEXT NOT NULL,
    fingerprint TEXT,
    changes TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: UPDATE refused'); END;
CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: DELETE refused'); END;
"""


def default_path() -> Path:
    """Return the database path: ``RISKCORE_DB``, else riskcore.db in the user's data directory."""
    env = os.environ.get(DB_ENV)
    if env:
        return Path(env).expanduser()
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "riskcore" / "riskcore.db"


def utc_now() -> str:
    """Return the time now in UTC, ISO 8601 with microseconds (the time of every row written)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def user_name(user: str | None) -> str:
    """Return the name typed (stripped), else the operating-system user, else "unknown"."""
    if user and user.strip():
        return user.strip()
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "unknown"


class Database:
    """One SQLite file with the store's tables: connections and ``BEGIN IMMEDIATE`` transactions.

    Parameters
    ----------
    path : str or Path, optional
        Default :func:`default_path` (``RISKCORE_DB`` or the user's data directory).
    timeout : float, default 30
        Seconds a writer waits for another's transaction before giving up.
    """

    def __init__(self, path: str | Path | None = None, *, timeout: float = 30.0) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.timeout = float(timeout)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as con:
            con.executescript(SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            con = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise RiskcoreError(f"cannot open the database {str(self.path)!r}: {exc}") from None
        with closing(con):
            con.execute("PRAGMA journal_mode=WAL")
            con.execute("PRAGMA synchronous=FULL")
            con.execute(f"PRAGMA busy_timeout={int(self.timeout * 1000)}")
            yield con

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """Yield a connection inside ``BEGIN IMMEDIATE``; commit, or roll back on error."""
        with self._connect() as con:
            con.execute("BEGIN IMMEDIATE")
            try:
                yield con
            except BaseException:
                con.execute("ROLLBACK")
                raise
            con.execute("COMMIT")
