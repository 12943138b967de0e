"""The append-only, hash-chained audit log.

The ``audit`` table is append-only: triggers refuse every UPDATE and DELETE
(``RAISE(ABORT, ...)``), and each entry holds the SHA-256 of the previous one
(a hash chain):

.. math:: h_i = \\mathrm{SHA256}(\\mathrm{json}(i, t_i, u_i, a_i, f_i, v_i, h_{i-1})),
   \\quad h_0 = 0^{64}

so an entry changed or removed below the triggers (by dropping them, or by
editing the file) breaks the chain at that entry, which
:meth:`AuditLog.verify` names.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TextIO

from riskcore._results import Result
from riskcore.store.database import Database, user_name, utc_now

__all__ = ["GENESIS", "AuditEntry", "AuditLog", "AuditVerification", "entry_hash"]

#: The "previous hash" of the first audit entry.
GENESIS = "0" * 64


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


class AuditLog(Database):
    """The audit log of the database: append (inside a transaction), read, verify, export.

    Parameters
    ----------
    path : str or Path, optional
        Default :func:`~riskcore.store.database.default_path`.
    timeout : float, default 30
        Seconds a writer waits for another's transaction before giving up.
    """

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
        time, who = utc_now(), user_name(user)
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
