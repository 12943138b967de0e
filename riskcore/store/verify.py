"""Checking the audit log read-only: the keyed chain, the rows it vouches for, the head.

:func:`verify_file` opens the file read-only (SQLite URI ``mode=ro``, or
``immutable=1`` when no write-ahead log exists, so that not even a ``-wal``
or ``-shm`` file is left behind) and changes nothing: it creates no schema,
restores no trigger and never makes a key. It finds, in this order:

- a file it cannot check (:class:`AuditUnreadableError`): missing, empty, not
  SQLite, without an audit table, of a newer schema, or whose key is missing;
- the chain broken: an entry missing (``seq`` not the next number), its
  previous hash not the hash of the entry before it, or its HMAC not the
  HMAC of its fields under the key (it was changed, or re-hashed without the
  key); entries before the chain was keyed are checked as unkeyed SHA-256 and
  anchored by the keyed entry after them;
- the key not the one the log was written with (the file was replaced);
- a guarded row (saved assessment, its data, a ledger, a ledger file, a
  budget, a release) missing, changed, or in no entry;
- an append-only trigger dropped;
- with an expected head ``(seq, hash)`` kept elsewhere: fewer entries than
  ``seq`` (the log was cut back) or another hash at ``seq`` (it was
  replaced or rewritten).

An old unkeyed log (schema 1) is never reported intact: anyone who can
write the file can rebuild its chain, so it proves nothing until it is
keyed (``riskcore audit migrate``, or any write by riskcore).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from riskcore._results import Result
from riskcore.errors import RiskcoreError
from riskcore.store.auditkey import AuditKeyError, key_check, load_key
from riskcore.store.chain import (
    GENESIS,
    GUARDED,
    WORK_GUARDED,
    entry_hash,
    entry_mac,
    foreign_schema,
    missing_triggers,
    table_digests,
    unvouched,
)
from riskcore.store.database import (
    SCHEMA_VERSION,
    head_path,
    key_place,
    newer_message,
    sqlite_uri,
)

__all__ = [
    "AuditHead",
    "AuditUnreadableError",
    "AuditVerification",
    "open_readonly",
    "read_head",
    "read_head_file",
    "read_rows",
    "verify_file",
]

#: What each guarded table's rows are, in words.
ROW_LABELS = {
    "assessments": "saved assessment",
    "assessment_data": "saved raw data",
    "dp_ledgers": "privacy ledger",
    "dp_ledger_files": "ledger file",
    "dp_ledger_budgets": "privacy budget",
    "dp_ledger_entries": "release",
    "dp_ledger_people": "people sketch",
    "dp_ledger_splits": "new-ledger decision",
    "working_profiles": "kept work",
}


class AuditUnreadableError(RiskcoreError):
    """The audit log cannot be checked: no file, not SQLite, not an audit log, no key."""


@dataclass(frozen=True)
class AuditHead(Result):
    """The last entry of the audit log: its number and hash, to keep elsewhere.

    Attributes
    ----------
    seq : int
        The entry's number (0: an empty log).
    hash : str
        Its HMAC-SHA256 (64 hexadecimal digits; :data:`GENESIS` for an empty log).
    """

    seq: int
    hash: str

    def __str__(self) -> str:
        """Return ``SEQ:HASH``, as ``--expect-head`` reads it."""
        return f"{self.seq}:{self.hash}"

    @classmethod
    def parse(cls, text: str) -> Self:
        """Read ``SEQ:HASH`` (as :meth:`__str__` writes it).

        Parameters
        ----------
        text : str
            ``SEQ:HASH``, SEQ a number.

        Returns
        -------
        Self

        Raises
        ------
        RiskcoreError
            When it is not a number, a colon and 64 hexadecimal digits.
        """
        m = re.fullmatch(r"\s*(\d{1,18}):([0-9a-fA-F]{64})\s*", str(text))
        if m is None:
            raise RiskcoreError(
                "the expected head must be SEQ:HASH, the entry number and its 64 hexadecimal "
                "digits as `riskcore audit verify` prints them"
            )
        return cls(int(m.group(1)), m.group(2).lower())


@dataclass(frozen=True)
class AuditVerification(Result):
    """The result of checking the audit log.

    Attributes
    ----------
    ok : bool
        True only for a keyed chain that holds, with every guarded row vouched
        for, every trigger in place and the expected head (when given) found.
    entries : int
        Entries read.
    first_broken : int or None
        ``seq`` of the first entry that breaks the chain or whose row was
        tampered with (None when ``ok``, or when no entry can be named).
    reason : str
        Why the log does not prove what it says ("" when ``ok``).
    head : AuditHead or None
        The last entry read (None when the chain was not read to its end).
    keyed : bool
        False for an old unkeyed log (never ``ok``).
    """

    ok: bool
    entries: int
    first_broken: int | None = None
    reason: str = ""
    head: AuditHead | None = None
    keyed: bool = True


@contextmanager
def open_readonly(path: str | Path) -> Iterator[sqlite3.Connection]:
    """Yield a read-only connection to an existing, non-empty file; nothing is written.

    Parameters
    ----------
    path : str or Path
        The file.

    Returns
    -------
    Iterator[sqlite3.Connection]

    Raises
    ------
    AuditUnreadableError
        When there is no such file, it is empty or not a file, or SQLite cannot open it.
    """
    path = Path(path)
    if not path.exists():
        raise AuditUnreadableError(f"cannot read the audit log: there is no file {str(path)!r}")
    if not path.is_file():
        raise AuditUnreadableError(f"cannot read the audit log: {str(path)!r} is not a file")
    if path.stat().st_size == 0:
        raise AuditUnreadableError(f"cannot read the audit log: {str(path)!r} is empty")
    wal = path.with_name(path.name + "-wal")
    # without a write-ahead log the file alone is the database: immutable leaves no -shm
    mode = "mode=ro" if wal.exists() else "immutable=1"
    try:
        con = sqlite3.connect(sqlite_uri(path, mode), uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise AuditUnreadableError(f"cannot read the audit log {str(path)!r}: {exc}") from None
    with closing(con):
        yield con


def _read(
    con: sqlite3.Connection, path: Path, *, last_only: bool = False
) -> tuple[int, list[tuple[Any, ...]], dict[str, str]]:
    """Return the schema version, the audit rows (or the last) and the key-check table."""
    version = int(con.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise AuditUnreadableError("cannot read the audit log: " + newer_message(path, version))
    tables = {str(r[0]) for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "audit" not in tables:
        raise AuditUnreadableError(f"cannot read the audit log: {str(path)!r} holds no audit log")
    cols = {str(r[1]) for r in con.execute("PRAGMA table_info(audit)")}
    records = "records" if "records" in cols else "'[]'"
    rows = con.execute(
        "SELECT seq, time, user, action, fingerprint, changes, prev_hash, hash, "  # noqa: S608
        f"{records} FROM audit ORDER BY seq" + (" DESC LIMIT 1" if last_only else "")
    ).fetchall()
    meta: dict[str, str] = {}
    if "audit_meta" in tables:
        meta = {str(k): str(v) for k, v in con.execute("SELECT name, value FROM audit_meta")}
    return version, rows, meta


def read_rows(con: sqlite3.Connection, path: Path) -> list[tuple[Any, ...]]:
    """Return the audit rows of a read-only connection (``records`` "[]" in an old file).

    Parameters
    ----------
    con : sqlite3.Connection
        An open connection to the store's SQLite database.
    path : Path
        The database file.

    Returns
    -------
    list of tuple of Any

    Raises
    ------
    AuditUnreadableError
        When the file holds no audit log or is of a newer schema.
    """
    return _read(con, path)[1]


def _rows_problem(
    con: sqlite3.Connection,
    expected: dict[tuple[str, Any], tuple[str, int]],
    *,
    work: bool,
) -> tuple[int | None, str] | None:
    """Compare the guarded tables with the rows the chain vouches for; return the first problem.

    Kept work counts only once an entry put it under the chain (``work``): before that
    riskcore wrote it outside the chain.
    """
    tables = {str(r[0]) for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    actual: dict[tuple[str, Any], str] = {}
    for table in GUARDED:
        if table == "working_profiles" and not work:
            continue
        if table in tables:
            actual.update(((table, k), d) for k, d in table_digests(con, table).items())
    problems: list[tuple[int, str]] = []
    for (table, k), (digest, seq) in expected.items():
        what = f"the {ROW_LABELS[table]} row {k!r} (table {table}) that entry {seq} vouches for"
        if (table, k) not in actual:
            problems.append((seq, f"{what} is missing: it was deleted outside riskcore"))
        elif actual[(table, k)] != digest:
            problems.append((seq, f"{what} was changed outside riskcore"))
    problems.sort()
    extra = [tk for tk in actual if tk not in expected]
    n = len(problems) + len(extra)
    if not n:
        return None
    more = f" (and {n - 1} more rows)" if n > 1 else ""
    if problems:
        return problems[0][0], problems[0][1] + more
    table, k = extra[0]
    return None, (
        f"the {ROW_LABELS[table]} row {k!r} (table {table}) is in no audit entry: it was "
        f"written outside riskcore{more}"
    )


_NOT_KEYING = (
    "the log says it was keyed at this entry (audit_meta keyed_from), but this is not the "
    "entry that keyed it: the older entries' plain SHA-256 proves nothing"
)


def _json(text: Any) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return None


def _keyed_from(meta: dict[str, str], keyed: bool, n: int) -> int:
    """Return the first keyed entry's number from the meta table (``n + 1`` for an old log)."""
    if not keyed:
        return n + 1
    text = meta.get("keyed_from", "1")
    if not text.isdigit() or len(text) > 18 or int(text) < 1:
        raise AuditUnreadableError(
            f"cannot check the audit log: its first keyed entry (audit_meta keyed_from = "
            f"{text[:40]!r}) is not an entry number"
        )
    return int(text)


def _head_problem(
    rows: list[tuple[Any, ...]], expect: AuditHead, name: str, kept: str = ""
) -> tuple[int | None, str] | None:
    """Return why the log does not hold the head ``expect`` (``name``, ``kept`` say which)."""
    if expect.seq > len(rows):
        return None, (
            f"it ends at entry {len(rows)}, before {name} {expect.seq}{kept}: entries were "
            "removed from its end, or the file was replaced"
        )
    if expect.seq > 0 and rows[expect.seq - 1][7] != expect.hash:
        return expect.seq, (
            f"entry {expect.seq} does not have {name}'s hash{kept}: the log was replaced or "
            "rewritten"
        )
    return None


def read_head_file(path: str | Path) -> AuditHead | None:
    """Return the head left beside the database (:func:`.database.head_path`); None if none.

    Parameters
    ----------
    path : str or Path
        The database file.

    Returns
    -------
    AuditHead or None
        The head in ``<database>.head``; None when there is no such file.

    Raises
    ------
    AuditUnreadableError
        When the file cannot be read or is not ``SEQ:HASH``.
    """
    place = head_path(path)
    try:
        with open(place, "rb") as fh:
            raw = fh.read(200)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise AuditUnreadableError(
            f"cannot check the audit log: its head file {str(place)!r} cannot be read: "
            f"{exc.strerror}"
        ) from None
    try:
        return AuditHead.parse(raw.decode("ascii"))
    except (UnicodeDecodeError, RiskcoreError):
        raise AuditUnreadableError(
            f"cannot check the audit log: its head file {str(place)!r} does not hold SEQ:HASH "
            "(the last entry's number and hash)"
        ) from None


def _walk(
    rows: list[tuple[Any, ...]], key: bytes | None, keyed_from: int
) -> tuple[int | None, str, dict[tuple[str, Any], tuple[str, int]]]:
    """Check each entry's number, link and hash; return (first broken, reason, vouched rows)."""
    prev = GENESIS
    expected: dict[tuple[str, Any], tuple[str, int]] = {}
    for i, (seq, time, user, action, fp, changes, prev_hash, h, recs) in enumerate(rows, 1):
        if seq != i:
            return int(seq), f"entry {i} is missing (the next is {seq})", expected
        if prev_hash != prev:
            return int(seq), "its previous-hash does not match the entry before it", expected
        if key is None or seq < keyed_from:
            good = entry_hash(seq, time, user, action, fp, changes, prev_hash) == h
        else:
            good = entry_mac(key, seq, time, user, action, fp, changes, recs, prev_hash) == h
        if not good:
            return int(seq), "its contents do not match its hash (it was changed)", expected
        if key is not None and seq >= keyed_from:
            if seq == keyed_from > 1 and action != "audit_keyed":
                return int(seq), _NOT_KEYING, expected
            lack = unvouched(action, _json(changes), _json(recs))
            if lack is not None:
                return (
                    int(seq),
                    (
                        f"it is a '{action}' entry that vouches for no row it wrote ({lack}): the "
                        "row was hidden from the write (a trigger or rule riskcore did not make), "
                        "or riskcore did not write the entry"
                    ),
                    expected,
                )
            for table, k, digest in json.loads(recs):
                if digest is None:
                    expected.pop((table, k), None)
                else:
                    expected[(table, k)] = (digest, int(seq))
        prev = h
    return None, "", expected


def verify_file(path: str | Path, *, expect_head: AuditHead | None = None) -> AuditVerification:
    """Check the audit log in ``path`` read-only; say whether it proves what it holds.

    Parameters
    ----------
    path : str or Path
        The database file.
    expect_head : AuditHead, optional
        A head printed earlier and kept elsewhere: the log must still hold
        that entry with that hash.

    Returns
    -------
    AuditVerification

    Raises
    ------
    AuditUnreadableError
        When the file cannot be checked (see the module's docstring); the
        message is one sentence.
    """
    path = Path(path)
    wal = path.with_name(path.name + "-wal")
    had_wal = wal.exists()
    result = _verify(path, expect_head)
    if not had_wal and wal.exists():  # a writer began during an immutable read: read again
        result = _verify(path, expect_head)
    return result


def _verify(path: Path, expect_head: AuditHead | None) -> AuditVerification:
    try:
        with open_readonly(path) as con:
            version, rows, meta = _read(con, path)
            keyed = version >= 2
            key = None
            if keyed:
                try:
                    key = load_key(path)
                except AuditKeyError as exc:
                    raise AuditUnreadableError(f"cannot check the audit log: {exc}") from None
                if key is None:
                    raise AuditUnreadableError(
                        f"cannot check the audit log: its key is missing ({key_place(path)})"
                    )
            head = AuditHead(int(rows[-1][0]), str(rows[-1][7])) if rows else AuditHead(0, GENESIS)
            if keyed and (key is None or meta.get("key_check") != key_check(key)):
                return AuditVerification(
                    False,
                    len(rows),
                    None,
                    "it was not written under this key: the file was replaced, or the key "
                    f"({key_place(path)}) is not its own",
                    head,
                )
            keyed_from = _keyed_from(meta, keyed, len(rows))
            broken, reason, expected = _walk(rows, key, keyed_from)
            if broken is None and keyed and 1 < keyed_from and len(rows) < keyed_from:
                broken, reason = keyed_from, f"entry {keyed_from} is missing ({_NOT_KEYING})"
            foreign = foreign_schema(con)
            also = (
                f" (the file also holds {', '.join(foreign[:10])}, which riskcore did not make)"
                if foreign
                else ""
            )
            if broken is not None:
                return AuditVerification(False, len(rows), broken, reason + also, None, keyed)
            if not keyed:
                return AuditVerification(
                    False,
                    len(rows),
                    None,
                    "it is in the old unkeyed format, a SHA-256 chain that anyone able to write "
                    "the file can rebuild, so it proves nothing; key it with `riskcore audit "
                    "migrate` (its chain holds so far)",
                    head,
                    False,
                )
            work = any(r[3] == WORK_GUARDED for r in rows[keyed_from - 1 :])
            problem = _rows_problem(con, expected, work=work)
            gone = missing_triggers(con)
            if problem is None and gone:
                problem = (
                    None,
                    f"the append-only trigger {gone[0]} is missing: it was dropped outside "
                    "riskcore",
                )
            if problem is None and foreign:
                problem = (
                    None,
                    f"the file holds {', '.join(foreign[:10])}"
                    + (f" and {len(foreign) - 10} more" if len(foreign) > 10 else "")
                    + ", which riskcore did not make and which could hide or change what it "
                    "writes",
                )
            elif problem is not None:
                problem = (problem[0], problem[1] + also)
    except sqlite3.Error as exc:
        raise AuditUnreadableError(f"cannot read the audit log {str(path)!r}: {exc}") from None
    if problem is None and expect_head is not None:
        problem = _head_problem(rows, expect_head, "the expected head")
    kept = read_head_file(path)
    if problem is None and kept is not None:
        problem = _head_problem(rows, kept, "the head", f" kept in {head_path(path).name!r}")
    if problem is not None:
        return AuditVerification(False, len(rows), problem[0], problem[1], head)
    return AuditVerification(True, len(rows), head=head)


def read_head(path: str | Path) -> AuditHead | None:
    """Return the last entry's ``(seq, hash)`` read-only, without checking the chain.

    What a report or a saved assessment records: the state of the log when
    it was made. None when there is no database file yet.

    Parameters
    ----------
    path : str or Path
        The file.

    Returns
    -------
    AuditHead or None

    Raises
    ------
    AuditUnreadableError
        When the file exists but is not a readable audit log.
    """
    path = Path(path)
    if not path.exists():
        return None
    try:
        with open_readonly(path) as con:
            _version, rows, _meta = _read(con, path, last_only=True)
    except sqlite3.Error as exc:
        raise AuditUnreadableError(f"cannot read the audit log {str(path)!r}: {exc}") from None
    return AuditHead(int(rows[-1][0]), str(rows[-1][7])) if rows else AuditHead(0, GENESIS)
