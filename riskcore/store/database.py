"""The local SQLite database: where it lives, its tables and schema version, its transactions.

The database (stdlib :mod:`sqlite3`, WAL journal) lives under the user's data
directory, ``$XDG_DATA_HOME/riskcore/riskcore.db`` (``~/.local/share/...``;
``%LOCALAPPDATA%`` on Windows), or at the path in the ``RISKCORE_DB``
environment variable. Every write is one ``BEGIN IMMEDIATE`` transaction, so
parallel writers (threads or processes) queue instead of losing entries.
Every connection sets ``PRAGMA secure_delete=ON``: a deleted assessment is
overwritten with zeros in the file, whatever SQLite's build default.

Schema version (``PRAGMA user_version``): 0 or 1 is the old layout with an
unkeyed SHA-256 chain; :data:`SCHEMA_VERSION` (2) is the keyed chain
(:mod:`riskcore.store.chain`). Opening an older file for writing migrates it
once, in one transaction: the new columns and the key-check table are added,
the key is made if there is none (:mod:`riskcore.store.auditkey`), and one
entry, ``audit_keyed``, continues the old chain from its last hash and vouches
for every row already in the guarded tables. An older file that holds any
table while its key already exists, or whose meta still holds a key check,
is keyed only when asked (``rekey``, ``riskcore audit migrate``, logged in
that entry): it may be a keyed log emptied and set back. A file of a newer
version is refused. Opening a current file checks the key against the file's
key check and, if an append-only trigger was dropped, restores it and logs
``audit_triggers_restored`` (the evidence stays in the chain).

No write touches a file holding a trigger or a view riskcore did not make
(:func:`refuse_foreign`), and an entry that should vouch for the row it
wrote (a save, a release, a budget) is refused without it. After each
commit the log's head, ``SEQ:HASH``, is left in ``<database>.head``
(:func:`head_path`), which ``verify`` compares with when it is there.
"""

from __future__ import annotations

import getpass
import json
import os
import re
import secrets
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeAlias

from riskcore.errors import RiskcoreError
from riskcore.store.auditkey import AuditKeyError, create_key, key_check, key_source, load_key
from riskcore.store.chain import (
    APPEND_ONLY,
    GENESIS,
    GUARDED,
    capture,
    drain,
    entry_hash,
    entry_mac,
    foreign_schema,
    missing_triggers,
    pending,
    table_digests,
    trigger_sql,
    unvouched,
)
from riskcore.store.identity import UNAUTHENTICATED, Identity

__all__ = [
    "DB_ENV",
    "SCHEMA",
    "SCHEMA_VERSION",
    "Database",
    "Who",
    "append_entry",
    "default_path",
    "head_path",
    "holds_table",
    "identity_changes",
    "key_place",
    "newer_message",
    "refuse_foreign",
    "sqlite_uri",
    "user_name",
    "utc_now",
]

#: Who an entry names: an :class:`~riskcore.store.identity.Identity`, a name, or None.
Who: TypeAlias = str | Identity | None

#: Environment variable overriding the database path.
DB_ENV = "RISKCORE_DB"

#: ``PRAGMA user_version`` of a file this riskcore writes: 2, the keyed chain.
SCHEMA_VERSION = 2

_TABLES = (
    """CREATE TABLE IF NOT EXISTS assessments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    created TEXT NOT NULL,
    user TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    profile TEXT NOT NULL,
    results TEXT NOT NULL,
    report TEXT,
    audit_head TEXT
)""",
    """CREATE TABLE IF NOT EXISTS assessment_data (
    id INTEGER PRIMARY KEY,
    format TEXT NOT NULL,
    bytes BLOB NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS audit (
    seq INTEGER PRIMARY KEY,
    time TEXT NOT NULL,
    user TEXT NOT NULL,
    action TEXT NOT NULL,
    fingerprint TEXT,
    changes TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    records TEXT NOT NULL DEFAULT '[]'
)""",
    """CREATE TABLE IF NOT EXISTS audit_meta (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
)""",
)

#: Columns added since schema 1: (table, column, declaration).
_ADDED = (
    ("audit", "records", "TEXT NOT NULL DEFAULT '[]'"),
    ("assessments", "audit_head", "TEXT"),
)

#: The tables of saved assessments and of the audit log (its triggers refuse UPDATE and DELETE).
SCHEMA = (
    ";\n".join((*_TABLES, trigger_sql("audit", "UPDATE"), trigger_sql("audit", "DELETE"))) + ";\n"
)

#: The audit key of each connection inside a store transaction (read by :func:`append_entry`).
_KEYS: dict[sqlite3.Connection, bytes] = {}


@contextmanager
def _committed(con: sqlite3.Connection, path: Path, key: bytes | None = None) -> Iterator[None]:
    """Run the block in ``BEGIN IMMEDIATE`` (under ``key``); commit and keep the log's head.

    On any error, the transaction is rolled back and the head file is left as it was
    (:func:`head_path`); the key is the connection's only inside the block.
    """
    con.execute("BEGIN IMMEDIATE")
    if key is not None:
        _KEYS[con] = key
    try:
        yield
        head = _head_of(con, path)
    except BaseException:
        con.execute("ROLLBACK")
        raise
    finally:
        _KEYS.pop(con, None)
    con.execute("COMMIT")
    _keep_head(path, head)


def sqlite_uri(path: Path, mode: str) -> str:
    """Return the SQLite URI of the file at ``path`` with its query (``mode=ro``).

    The path is percent-encoded: a ``#``, ``?`` or ``%`` in a file name is the file's,
    never the URI's fragment, query or an escape.

    Parameters
    ----------
    path : Path
        The database file.
    mode : str
        The URI's query, e.g. ``"mode=ro"`` or ``"immutable=1"``.

    Returns
    -------
    str
        A ``file:`` URI, for ``sqlite3.connect(uri, uri=True)``.
    """
    return path.resolve().as_uri() + f"?{mode}"


def holds_table(path: str | Path, table: str, what: str) -> bool:
    """Return whether the database at ``path`` exists and holds ``table``, writing no row.

    No file, table or journal is made: the file is opened read-write as a URI
    (:func:`sqlite_uri`, ``mode=rw``) that never creates it, and closed, which removes the
    write-ahead log's files a read-only connection would leave (closing the last connection
    checkpoints the log into the file, as any connection's close does).

    Parameters
    ----------
    path : str or Path
        The database file.
    table : str
        The table looked for.
    what : str
        What the table keeps, for the message (``"the kept work"``).

    Returns
    -------
    bool

    Raises
    ------
    RiskcoreError
        When the file exists but cannot be read as a database.
    """
    path = Path(path)
    if not path.is_file():
        return False
    try:
        with closing(sqlite3.connect(sqlite_uri(path, "mode=rw"), uri=True)) as con:
            row = con.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
            ).fetchone()
    except sqlite3.Error as exc:
        raise RiskcoreError(f"{what} in {str(path)!r} could not be read: {exc}") from None
    return row is not None


def default_path() -> Path:
    """Return the database path: ``RISKCORE_DB``, else riskcore.db in the user's data directory.

    Returns
    -------
    Path
    """
    env = os.environ.get(DB_ENV)
    if env:
        return Path(env).expanduser()
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "riskcore" / "riskcore.db"


def utc_now() -> str:
    """Return the time now in UTC, ISO 8601 with microseconds (the time of every row written).

    Returns
    -------
    str
    """
    return datetime.now(UTC).isoformat(timespec="microseconds")


def user_name(user: Who) -> str:
    """Return who an entry names, as the user column holds it.

    An :class:`~riskcore.store.identity.Identity` gives its
    :attr:`~riskcore.store.identity.Identity.label` (``unauthenticated: ...``
    without a login); a name is kept as given (stripped); None or blank is
    ``unauthenticated: <operating-system user> (system user)``, never a bare
    system name that would pass for a proven one.

    Parameters
    ----------
    user : Who
        An Identity, a typed name (blank counts as none), or None.

    Returns
    -------
    str
    """
    if isinstance(user, Identity):
        return user.label
    if user and user.strip():
        return user.strip()
    try:
        system = getpass.getuser()
    except (OSError, KeyError):
        return UNAUTHENTICATED
    return f"{UNAUTHENTICATED}: {system} (system user)"


def identity_changes(user: Who, changes: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``changes`` with the identity's every field under ``"identity"`` (in the chain).

    The user column holds a label; the entry's changes, covered by its MAC,
    hold the subject, issuer, roles and whether it was proven, which
    :meth:`riskcore.store.Store.approve` reads back.

    Parameters
    ----------
    user : Who
        Who acts: an Identity, a typed name, or None for the system user
        (:func:`~riskcore.store.database.user_name`).
    changes : mapping of str to Any
        The entry's changes.

    Returns
    -------
    dict of str to Any
    """
    out = dict(changes)
    if isinstance(user, Identity):
        out["identity"] = user.to_dict()
    return out


def head_path(db_path: str | Path) -> Path:
    """Return the head file beside the database, ``<database>.head`` (``riskcore.db.head``).

    Every write of riskcore leaves the log's last ``SEQ:HASH`` in it (after the commit), and
    :func:`riskcore.store.verify.verify_file` checks that the log still holds that entry
    when the file is there. Beside the database, it is as easy to change as the database:
    it finds a cut made without it in mind; a copy kept elsewhere finds the rest.

    Parameters
    ----------
    db_path : str or Path
        The database file.

    Returns
    -------
    Path
        ``<db_path>.head``.
    """
    db = Path(db_path)
    return db.with_name(db.name + ".head")


def _head_of(con: sqlite3.Connection, db_path: Path) -> tuple[int, str] | None:
    """Return the head to leave in the head file after this commit; None to leave it as it is.

    Read inside the write transaction (its lock held). The file is left alone when the log
    does not hold the entry it names (the log was cut back or replaced: the evidence stays
    for ``verify``, and later writes do not overwrite it), when it is not ``SEQ:HASH``, or
    when it already names this entry or a later one.
    """
    row = con.execute("SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1").fetchone()
    if row is None:
        return None
    try:
        raw = head_path(db_path).read_bytes()[:200].decode("ascii")
    except FileNotFoundError:
        return (int(row[0]), str(row[1]))
    except (OSError, UnicodeDecodeError):
        return None
    m = re.fullmatch(r"\s*(\d{1,18}):([0-9a-f]{64})\s*", raw)
    if m is None or int(m.group(1)) >= int(row[0]):
        return None
    held = con.execute("SELECT hash FROM audit WHERE seq = ?", (int(m.group(1)),)).fetchone()
    if int(m.group(1)) > 0 and (held is None or str(held[0]) != m.group(2)):
        return None
    return (int(row[0]), str(row[1]))


def _keep_head(db_path: Path, head: tuple[int, str] | None) -> None:
    """Write ``SEQ:HASH`` to the head file atomically (after the commit; see :func:`_head_of`).

    A writer racing another may leave the earlier head, which the log still holds. A head
    file that cannot be written is left as it was: the write itself is done.
    """
    if head is None:
        return
    path = head_path(db_path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        tmp.write_text(f"{head[0]}:{head[1]}\n", encoding="ascii")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


def refuse_foreign(con: sqlite3.Connection, path: str | Path) -> None:
    """Refuse to write a file holding a trigger or view riskcore did not make.

    Parameters
    ----------
    con : sqlite3.Connection
        A connection inside the write transaction (``BEGIN IMMEDIATE`` holds the lock, so
        no trigger can be added between this check and the writes).
    path : str or Path
        The database file, for the message.

    Raises
    ------
    RiskcoreError
        Naming the first such object (:func:`riskcore.store.chain.foreign_schema`).
    """
    found = foreign_schema(con)
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise RiskcoreError(
            f"the database {str(path)!r} holds the {found[0]}{more}, which riskcore did not "
            "make and which could hide or change what is written, so nothing was written: "
            "check the log with `riskcore audit verify` and remove it (SECURITY.md, 'The "
            "audit log')"
        )


def key_place(db_path: str | Path) -> str:
    """Return where the audit key of ``db_path`` is read from, in words (never the key).

    Parameters
    ----------
    db_path : str or Path
        The database file.

    Returns
    -------
    str
    """
    path = key_source(db_path)
    return "the environment variable RISKCORE_AUDIT_KEY" if path is None else repr(str(path))


def append_entry(
    con: sqlite3.Connection,
    action: str,
    *,
    user: Who,
    fingerprint: str | None,
    changes: Mapping[str, Any],
    records: str | None = None,
) -> tuple[Any, ...]:
    """Append one entry, chained under the transaction's key, with the rows written since the last.

    Parameters
    ----------
    con : sqlite3.Connection
        A connection inside :meth:`Database._transaction`.
    action : str
        What was done ("save", "dp_release", ...).
    user : str or None
        Who acts: an Identity, a typed name, or None for the system user
        (:func:`~riskcore.store.database.user_name`).
    fingerprint : str or None
        The SHA-256 of the dataset the entry concerns (None: none).
    changes : mapping
        JSON-ready values.
    records : str, optional
        The rows vouched for, as JSON text; default those this connection
        wrote since the last entry (:func:`riskcore.store.chain.drain`).

    Returns
    -------
    tuple
        ``(seq, time, user, action, fingerprint, changes_text, prev_hash, hash, records_text)``.

    Raises
    ------
    RiskcoreError
        When ``con`` is not inside a store transaction (no key), or the entry's action
        vouches for a row (:data:`riskcore.store.chain.VOUCHES`) that its records lack.
    """
    key = _KEYS.get(con)
    if key is None:
        raise RiskcoreError("an audit entry can only be written inside a store transaction")
    row = con.execute("SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1").fetchone()
    seq, prev = (1, GENESIS) if row is None else (int(row[0]) + 1, str(row[1]))
    time, who = utc_now(), user_name(user)
    text = json.dumps(identity_changes(user, changes), sort_keys=True, allow_nan=False, default=str)
    recs = drain(con) if records is None else records
    missing = unvouched(action, json.loads(text), json.loads(recs))
    if missing is not None:
        raise RiskcoreError(
            f"the '{action}' entry's row ({missing}) was not written: something in the "
            "database hid it, so nothing was written"
        )
    h = entry_mac(key, seq, time, who, action, fingerprint, text, recs, prev)
    con.execute(
        "INSERT INTO audit (seq, time, user, action, fingerprint, changes, prev_hash, hash, "
        "records) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (seq, time, who, action, fingerprint, text, prev, h, recs),
    )
    return (seq, time, who, action, fingerprint, text, prev, h, recs)


def _version(con: sqlite3.Connection) -> int:
    return int(con.execute("PRAGMA user_version").fetchone()[0])


def newer_message(path: str | Path, version: int) -> str:
    """Return the refusal of a file written by a newer riskcore.

    Parameters
    ----------
    path : str or Path
        The file.
    version : int
        The file's ``PRAGMA user_version``.

    Returns
    -------
    str
    """
    return (
        f"the database {str(path)!r} was written by a newer riskcore (schema version {version}; "
        f"this one knows up to {SCHEMA_VERSION}): upgrade riskcore to open it"
    )


class Database:
    """One SQLite file with the store's tables: connections and ``BEGIN IMMEDIATE`` transactions.

    Opening migrates an older file once and checks the audit key
    (see the module's docstring).

    Parameters
    ----------
    path : str or Path, optional
        Default :func:`default_path` (``RISKCORE_DB`` or the user's data directory).
    timeout : float, default 30
        Seconds a writer waits for another's transaction before giving up.
    rekey : bool, default False
        Key an unkeyed log with entries even though an audit key already
        exists (``riskcore audit migrate``): without it that is refused, as
        a keyed log rewritten to look old would otherwise be keyed again.

    Raises
    ------
    RiskcoreError
        When the file cannot be opened as a database, was written by a newer
        riskcore, holds an unkeyed log while a key exists (without
        ``rekey``), or its audit key is missing or not its own
        (:class:`~riskcore.store.auditkey.AuditKeyError`).
    """

    def __init__(
        self, path: str | Path | None = None, *, timeout: float = 30.0, rekey: bool = False
    ) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.timeout = float(timeout)
        self._rekey = bool(rekey)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._key = self._open()
        except sqlite3.Error as exc:
            raise RiskcoreError(f"cannot open the database {str(self.path)!r}: {exc}") from None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            con = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise RiskcoreError(f"cannot open the database {str(self.path)!r}: {exc}") from None
        with closing(con):
            con.execute("PRAGMA journal_mode=WAL")
            con.execute("PRAGMA synchronous=FULL")
            con.execute("PRAGMA secure_delete=ON")
            con.execute(f"PRAGMA busy_timeout={int(self.timeout * 1000)}")
            yield con

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """Yield a connection inside ``BEGIN IMMEDIATE``; commit, or roll back on error.

        The rows the transaction writes to the guarded tables are captured
        for the next audit entry (:func:`riskcore.store.chain.capture`); a
        transaction that writes such a row and no entry after it is rolled back.
        A file holding a trigger or view riskcore did not make is refused
        (:func:`refuse_foreign`). After the commit the log's head is left in
        the head file (:func:`head_path`).
        """
        with self._connect() as con, _committed(con, self.path, self._key):
            version = _version(con)
            if version != SCHEMA_VERSION:  # set back (or on) since this process opened it
                raise RiskcoreError(
                    f"the database {str(self.path)!r} is no longer at schema version "
                    f"{SCHEMA_VERSION} (it is {version}) though it was when opened: it was "
                    "changed outside riskcore, so nothing was written; check it with "
                    "`riskcore audit verify`"
                )
            refuse_foreign(con, self.path)
            capture(con)
            yield con
            if pending(con):
                raise RiskcoreError(
                    "rows were written without an audit entry, so nothing was written"
                )

    # -- opening: schema version, migration, key --------------------------------------------
    def _open(self) -> bytes:
        with self._connect() as con:
            version = _version(con)
            if version == SCHEMA_VERSION:
                return self._current(con)
            if version > SCHEMA_VERSION:
                raise RiskcoreError(newer_message(self.path, version))
            with _committed(con, self.path):
                version = _version(con)  # another process may have migrated it meanwhile
                if version > SCHEMA_VERSION:
                    raise RiskcoreError(newer_message(self.path, version))
                if version < SCHEMA_VERSION:
                    refuse_foreign(con, self.path)
                    self._migrate(con, version)
            return self._current(con)

    def _current(self, con: sqlite3.Connection) -> bytes:
        """Return the key of a current file; restore (and log) dropped triggers."""
        key = load_key(self.path)
        where = key_place(self.path)
        if key is None:
            raise AuditKeyError(
                f"the audit key of {str(self.path)!r} is missing ({where}): the log was written "
                "under it, so nothing can be written or checked without it; restore it from its "
                "backup (SECURITY.md, 'The audit log')"
            )
        row = con.execute("SELECT value FROM audit_meta WHERE name = 'key_check'").fetchone()
        if row is None or row[0] != key_check(key):
            raise AuditKeyError(
                f"the audit key ({where}) is not the key the database {str(self.path)!r} was "
                "written with: restore its own key from the backup, or the file was replaced"
            )
        if missing_triggers(con):
            with _committed(con, self.path, key):
                refuse_foreign(con, self.path)
                missing = missing_triggers(con)
                for name in missing:
                    table, op = name.rsplit("_no_", 1)
                    con.execute(trigger_sql(table, op.upper()))
                if missing:
                    append_entry(
                        con,
                        "audit_triggers_restored",
                        user=None,
                        fingerprint=None,
                        changes={"missing": missing},
                        records="[]",
                    )
        return key

    def _refuse_rekey(self, con: sqlite3.Connection, version: int, existed: set[str]) -> None:
        """Refuse to key an old file that may be a keyed one rewritten to look old.

        A file that holds any table (it is not new) while the audit key already
        exists, or whose ``audit_meta`` still holds a key check, was keyed before
        or belongs with that key: emptied and set back to schema 1, it would
        otherwise be keyed again silently, its budget rows adopted.
        """
        why = None
        if (
            "audit_meta" in existed
            and con.execute("SELECT 1 FROM audit_meta WHERE name = 'key_check'").fetchone()
        ):
            why = "its key check shows it was keyed before"
        elif existed and load_key(self.path) is not None:
            why = f"its audit key already exists ({key_place(self.path)})"
        if why is not None:
            raise RiskcoreError(
                f"the database {str(self.path)!r} is in the old unkeyed format (schema version "
                f"{version}), yet {why}: a keyed log may have been rewritten to look old or "
                "emptied; check it with `riskcore audit verify --expect-head`, then key it "
                "explicitly with `riskcore audit migrate` (which logs that it did)"
            )

    def _migrate(self, con: sqlite3.Connection, version: int) -> None:
        """Bring an old (schema 0 / 1) or new file to :data:`SCHEMA_VERSION`, in a transaction."""
        existed = {
            str(r[0]) for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        missing = missing_triggers(con)  # on the tables of an old file: dropped before this
        for statement in _TABLES:
            con.execute(statement)
        for table, column, decl in _ADDED:
            have = {str(r[1]) for r in con.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                con.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")
        tables = {
            str(r[0]) for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        for table in APPEND_ONLY:
            if table in tables:
                for op in ("UPDATE", "DELETE"):
                    con.execute(trigger_sql(table, op))
        rows = con.execute(
            "SELECT seq, time, user, action, fingerprint, changes, prev_hash, hash "
            "FROM audit ORDER BY seq"
        ).fetchall()
        if not self._rekey:
            self._refuse_rekey(con, version, existed)
        key = create_key(self.path)
        broken, prev = None, GENESIS
        for i, (seq, time, user, action, fp, changes, prev_hash, h) in enumerate(rows, 1):
            if (
                seq != i
                or prev_hash != prev
                or entry_hash(seq, time, user, action, fp, changes, prev_hash) != h
            ):
                broken = i
                break
            prev = h
        adopted = [
            [table, k, digest]
            for table in GUARDED
            if table in existed
            for k, digest in table_digests(con, table).items()
        ]
        con.executemany(
            "INSERT OR REPLACE INTO audit_meta (name, value) VALUES (?, ?)",
            [
                ("key_check", key_check(key)),
                ("keyed_from", str((int(rows[-1][0]) if rows else 0) + 1)),
                ("migrated_from", str(version)),
            ],
        )
        if rows or adopted or missing or self._rekey:
            _KEYS[con] = key
            try:
                append_entry(
                    con,
                    "audit_keyed",
                    user=None,
                    fingerprint=None,
                    changes={
                        "schema_from": max(version, 1),
                        "schema_to": SCHEMA_VERSION,
                        "unkeyed_entries": len(rows),
                        "unkeyed_head": rows[-1][7] if rows else None,
                        "unkeyed_chain": "intact"
                        if broken is None
                        else f"broken at entry {broken}",
                        "rows_adopted": len(adopted),
                        "triggers_missing": missing,
                        # keyed by `riskcore audit migrate`, despite a key that existed
                        "explicit": self._rekey,
                    },
                    records=json.dumps(adopted, separators=(",", ":")),
                )
            finally:
                _KEYS.pop(con, None)
        con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
