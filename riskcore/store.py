"""Saved assessments and an append-only, hash-chained audit log in a local SQLite database.

The database (stdlib :mod:`sqlite3`, WAL journal) lives under the user's data
directory, ``$XDG_DATA_HOME/riskcore/riskcore.db`` (``~/.local/share/...``;
``%LOCALAPPDATA%`` on Windows), or at the path in the ``RISKCORE_DB``
environment variable. Every write is one ``BEGIN IMMEDIATE`` transaction, so
parallel writers (threads or processes) queue instead of losing entries.

Audit log: the ``audit`` table is append-only, triggers refuse every UPDATE and
DELETE (``RAISE(ABORT, ...)``), and each entry holds the SHA-256 of the
previous one (a hash chain):

.. math:: h_i = \\mathrm{SHA256}(\\mathrm{json}(i, t_i, u_i, a_i, f_i, v_i, h_{i-1})),
   \\quad h_0 = 0^{64}

so an entry changed or removed below the triggers (by dropping them, or by
editing the file) breaks the chain at that entry, which :meth:`Store.verify`
names. An assessment holds its profile, results and rendered report, keyed
by the dataset's SHA-256; raw data only when the caller passes them
(``save(data=...)``, the Report page's unticked option), as Parquet in a
table of their own. Reopening (:meth:`Store.reopen`) checks a file against
the saved fingerprint; reopening, comparing and deleting are logged.
"""

from __future__ import annotations

import getpass
import hashlib
import json
import os
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from riskcore._results import Result
from riskcore.errors import RiskcoreError

if TYPE_CHECKING:
    import pandas as pd

    from riskcore.report.compare import Comparison, DatasetCheck

__all__ = [
    "DB_ENV",
    "GENESIS",
    "AuditEntry",
    "AuditVerification",
    "SavedAssessment",
    "SavedSummary",
    "Store",
    "default_path",
    "entry_hash",
]

#: Environment variable overriding the database path.
DB_ENV = "RISKCORE_DB"
#: The "previous hash" of the first audit entry.
GENESIS = "0" * 64

_SCHEMA = """
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


def entry_hash(
    seq: int,
    time: str,
    user: str,
    action: str,
    fingerprint: str | None,
    changes: str,
    prev_hash: str,
) -> str:
    """Return h_i, the SHA-256 of an audit entry's fields and the previous hash.

    The fields are written as a JSON array (UTF-8, no spaces), so no two
    different entries share the input.
    """
    text = json.dumps(
        [seq, time, user, action, fingerprint, changes, prev_hash],
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class AuditEntry(Result):
    """One entry of the audit log.

    Attributes
    ----------
    seq : int
        Position in the log, from 1, without gaps.
    time : str
        UTC time, ISO 8601.
    user : str
        The name the user typed, else the operating-system user.
    action : str
    fingerprint : str or None
        SHA-256 of the dataset concerned.
    changes : dict
        The changed values.
    prev_hash, hash : str
        h_{i-1} and h_i (:func:`entry_hash`).
    """

    seq: int
    time: str
    user: str
    action: str
    fingerprint: str | None
    changes: dict[str, Any]
    prev_hash: str
    hash: str


@dataclass(frozen=True)
class AuditVerification(Result):
    """The result of checking the audit chain.

    Attributes
    ----------
    ok : bool
    entries : int
        Entries read.
    first_broken : int or None
        ``seq`` of the first entry that breaks the chain (None when ``ok``).
    reason : str
        Why that entry breaks it ("" when ``ok``).
    """

    ok: bool
    entries: int
    first_broken: int | None = None
    reason: str = ""


@dataclass(frozen=True)
class SavedAssessment(Result):
    """A saved assessment: its profile, results and report, never the raw data.

    Attributes
    ----------
    id : int
    name : str
    created : str
    user : str
    fingerprint : str
        SHA-256 of the dataset assessed.
    profile : dict
        Roles, targets, recipe.
    results : dict
        The report's JSON twin (or any results as JSON).
    report : str or None
        The rendered report (HTML).
    """

    id: int
    name: str
    created: str
    user: str
    fingerprint: str
    profile: dict[str, Any]
    results: dict[str, Any]
    report: str | None = None


@dataclass(frozen=True)
class SavedSummary(Result):
    """A saved assessment as listed: no profile, results or report read.

    Attributes
    ----------
    id : int
    name, created, user, fingerprint : str
    dataset : str or None
        The dataset's name in the report.
    verdict : bool or None
        The report's pass / fail.
    has_data : bool
        The raw data were stored with it.
    """

    id: int
    name: str
    created: str
    user: str
    fingerprint: str
    dataset: str | None
    verdict: bool | None
    has_data: bool


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _user(user: str | None) -> str:
    if user and user.strip():
        return user.strip()
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "unknown"


def _verdict_of(results: Mapping[str, Any]) -> str | None:
    v = results.get("verdict")
    if not isinstance(v, Mapping) or "pass" not in v:
        return None
    return "pass" if v["pass"] else "fail"


def _parquet(data: pd.DataFrame) -> bytes:
    """Return the table as Parquet bytes (pyarrow), or say why it cannot be stored."""
    import io

    buf = io.BytesIO()
    try:
        data.to_parquet(buf, index=False)
    except (ValueError, TypeError, ImportError) as exc:
        raise RiskcoreError(f"the raw data cannot be stored as Parquet: {exc}") from None
    return buf.getvalue()


class Store:
    """Saved assessments and the audit log in one SQLite file.

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
            con.executescript(_SCHEMA)

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

    @staticmethod
    def _append(
        con: sqlite3.Connection,
        action: str,
        *,
        user: str | None,
        fingerprint: str | None,
        changes: Mapping[str, Any],
    ) -> AuditEntry:
        row = con.execute("SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1").fetchone()
        seq, prev = (1, GENESIS) if row is None else (int(row[0]) + 1, str(row[1]))
        time, who = _now(), _user(user)
        text = json.dumps(dict(changes), sort_keys=True, allow_nan=False, default=str)
        h = entry_hash(seq, time, who, action, fingerprint, text, prev)
        con.execute(
            "INSERT INTO audit (seq, time, user, action, fingerprint, changes, prev_hash, hash) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (seq, time, who, action, fingerprint, text, prev, h),
        )
        return AuditEntry(seq, time, who, action, fingerprint, json.loads(text), prev, h)

    def log(
        self,
        action: str,
        *,
        user: str | None = None,
        fingerprint: str | None = None,
        changes: Mapping[str, Any] | None = None,
    ) -> AuditEntry:
        """Append one entry to the audit log (one transaction) and return it.

        Parameters
        ----------
        action : str
            What was done ("save", "delete", "roles", ...).
        user : str, optional
            The name typed; default the operating-system user.
        fingerprint : str, optional
            SHA-256 of the dataset concerned.
        changes : mapping, optional
            The changed values (JSON-ready).
        """
        if not action:
            raise ValueError("action must not be empty")
        with self._transaction() as con:
            return self._append(
                con, action, user=user, fingerprint=fingerprint, changes=changes or {}
            )

    def save(
        self,
        name: str,
        *,
        fingerprint: str,
        profile: Mapping[str, Any],
        results: Mapping[str, Any],
        report: str | None = None,
        user: str | None = None,
        data: pd.DataFrame | None = None,
    ) -> int:
        """Save an assessment and log it, in one transaction; return its id.

        Parameters
        ----------
        name : str
        fingerprint : str
            SHA-256 of the dataset assessed.
        profile : mapping
            Roles, targets, recipe.
        results : mapping
            The report's JSON twin.
        report : str, optional
            The rendered report (HTML).
        user : str, optional
            The name typed; default the operating-system user.
        data : pandas.DataFrame, optional
            The raw data, stored (as Parquet) only when given.
        """
        if not str(name).strip():
            raise RiskcoreError("give the assessment a name")
        raw = None if data is None else _parquet(data)
        with self._transaction() as con:
            cur = con.execute(
                "INSERT INTO assessments (name, created, user, fingerprint, profile, results, "
                "report) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    name,
                    _now(),
                    _user(user),
                    fingerprint,
                    json.dumps(dict(profile), allow_nan=False),
                    json.dumps(dict(results), allow_nan=False),
                    report,
                ),
            )
            new_id = int(cur.lastrowid or 0)
            if raw is not None:
                con.execute(
                    "INSERT INTO assessment_data (id, format, bytes) VALUES (?, 'parquet', ?)",
                    (new_id, raw),
                )
            self._append(
                con,
                "save",
                user=user,
                fingerprint=fingerprint,
                changes={
                    "id": new_id,
                    "name": name,
                    "profile": dict(profile),
                    "verdict": _verdict_of(results),
                    "raw_data_stored": raw is not None,
                },
            )
        return new_id

    def summaries(self) -> list[SavedSummary]:
        """Return every saved assessment as listed (oldest first), without reading its report."""
        with self._connect() as con:
            rows = con.execute(
                "SELECT a.id, a.name, a.created, a.user, a.fingerprint, "
                "json_extract(a.results, '$.dataset.name'), "
                "json_extract(a.results, '$.verdict.pass'), d.id IS NOT NULL "
                "FROM assessments a LEFT JOIN assessment_data d ON d.id = a.id ORDER BY a.id"
            ).fetchall()
        return [
            SavedSummary(
                int(r[0]),
                r[1],
                r[2],
                r[3],
                r[4],
                r[5],
                None if r[6] is None else bool(r[6]),
                bool(r[7]),
            )
            for r in rows
        ]

    def report(self, assessment_id: int) -> str | None:
        """Return the rendered report (HTML) of a saved assessment, None if none was saved."""
        with self._connect() as con:
            row = con.execute(
                "SELECT report FROM assessments WHERE id = ?", (assessment_id,)
            ).fetchone()
        if row is None:
            raise RiskcoreError(f"no saved assessment has the id {assessment_id}")
        return None if row[0] is None else str(row[0])

    def data(self, assessment_id: int) -> pd.DataFrame | None:
        """Return the raw data stored with an assessment, None when they were not stored."""
        import io

        import pandas as pd

        with self._connect() as con:
            row = con.execute(
                "SELECT bytes FROM assessment_data WHERE id = ?", (assessment_id,)
            ).fetchone()
        return None if row is None else pd.read_parquet(io.BytesIO(row[0]))

    def assessments(self) -> list[SavedAssessment]:
        """Return every saved assessment, oldest first (reports included)."""
        return self._select("ORDER BY id")

    def _select(self, where: str, params: tuple[Any, ...] = ()) -> list[SavedAssessment]:
        with self._connect() as con:
            rows = con.execute(
                # S608: ``where`` is one of this module's literals; values are bound (?)
                "SELECT id, name, created, user, fingerprint, profile, results, report "  # noqa: S608
                f"FROM assessments {where}",
                params,
            ).fetchall()
        return [
            SavedAssessment(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), json.loads(r[6]), r[7])
            for r in rows
        ]

    def load(self, assessment_id: int) -> SavedAssessment:
        """Return one saved assessment.

        Raises
        ------
        RiskcoreError
            When there is none with this id.
        """
        found = self._select("WHERE id = ?", (int(assessment_id),))
        if not found:
            raise RiskcoreError(f"no saved assessment has the id {assessment_id}")
        return found[0]

    def reopen(
        self,
        assessment_id: int,
        current: Mapping[str, Any],
        *,
        columns: list[str] | tuple[str, ...] | None = None,
        user: str | None = None,
    ) -> tuple[SavedAssessment, DatasetCheck]:
        """Check a file against a saved assessment's dataset, and log the reopening.

        The file is accepted only when its SHA-256 is the saved one and it
        holds every column of the saved roles
        (:func:`riskcore.report.compare.check_dataset`); the entry ("reopen")
        says whether it was restored or refused, and how the file differs.

        Parameters
        ----------
        assessment_id : int
        current : mapping
            The file's :func:`riskcore.report.document.dataset_facts`.
        columns : sequence of str, optional
            The file's column names.
        user : str, optional

        Returns
        -------
        (SavedAssessment, DatasetCheck)
        """
        from riskcore.report.compare import check_dataset

        saved = self.load(assessment_id)
        check = check_dataset(
            saved.results.get("dataset") or {"sha256": saved.fingerprint},
            current,
            roles=saved.profile,
            columns=columns,
        )
        self.log(
            "reopen",
            user=user,
            fingerprint=saved.fingerprint,
            changes={
                "id": saved.id,
                "name": saved.name,
                "outcome": "restored" if check.matches else "refused",
                "file_sha256": current.get("sha256"),
                "differences": list(check.differences),
                "missing_columns": list(check.missing_columns),
            },
        )
        return saved, check

    def compare(self, id_a: int, id_b: int, *, user: str | None = None) -> Comparison:
        """Compare two saved assessments and log it.

        See :func:`riskcore.report.compare.compare_results`.
        """
        from riskcore.report.compare import compare_results

        a, b = self.load(id_a), self.load(id_b)
        cmp = compare_results(a.results, b.results, names=(a.name, b.name))
        self.log(
            "compare",
            user=user,
            fingerprint=a.fingerprint if a.fingerprint == b.fingerprint else None,
            changes={
                "ids": [a.id, b.id],
                "names": [a.name, b.name],
                "figures_differing": [f.figure for f in cmp.changed],
            },
        )
        return cmp

    def delete(self, assessment_id: int, *, user: str | None = None) -> None:
        """Delete a saved assessment; the deletion itself is logged (one transaction)."""
        with self._transaction() as con:
            row = con.execute(
                "SELECT name, fingerprint FROM assessments WHERE id = ?", (assessment_id,)
            ).fetchone()
            if row is None:
                raise RiskcoreError(f"no saved assessment has the id {assessment_id}")
            con.execute("DELETE FROM assessments WHERE id = ?", (assessment_id,))
            con.execute("DELETE FROM assessment_data WHERE id = ?", (assessment_id,))
            self._append(
                con,
                "delete",
                user=user,
                fingerprint=row[1],
                changes={"id": assessment_id, "name": row[0]},
            )

    def audit(self) -> list[AuditEntry]:
        """Return the audit log, first entry first."""
        return [
            AuditEntry(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6], r[7])
            for r in self._audit_rows()
        ]

    def _audit_rows(self) -> list[tuple[Any, ...]]:
        """Return the audit table's rows as stored, first entry first."""
        with self._connect() as con:
            return con.execute(
                "SELECT seq, time, user, action, fingerprint, changes, prev_hash, hash "
                "FROM audit ORDER BY seq"
            ).fetchall()

    def verify(self) -> AuditVerification:
        """Check the hash chain; name the first entry that breaks it.

        An entry breaks the chain when its ``seq`` is not the next number (an
        entry was removed), its ``prev_hash`` is not the previous entry's
        hash, or its ``hash`` is not :func:`entry_hash` of its own fields (it
        was changed).
        """
        rows = self._audit_rows()
        prev = GENESIS
        for i, (seq, time, user, action, fp, changes, prev_hash, h) in enumerate(rows, 1):
            reason = ""
            if seq != i:
                reason = f"entry {i} is missing (the next is {seq})"
            elif prev_hash != prev:
                reason = "its previous-hash does not match the entry before it"
            elif entry_hash(seq, time, user, action, fp, changes, prev_hash) != h:
                reason = "its contents do not match its hash (it was changed)"
            if reason:
                return AuditVerification(False, len(rows), int(seq), reason)
            prev = h
        return AuditVerification(True, len(rows))

    def export(self, out: TextIO) -> int:
        """Write the audit log to ``out`` as JSON lines; return the number of entries."""
        entries = self.audit()
        for e in entries:
            out.write(json.dumps(e.to_dict(), ensure_ascii=False, allow_nan=False) + "\n")
        return len(entries)
