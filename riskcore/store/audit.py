"""The append-only audit log, chained with HMAC-SHA256 under a key kept outside the database.

The ``audit`` table is append-only: triggers refuse every UPDATE and DELETE
(``RAISE(ABORT, ...)``), and each entry holds the HMAC-SHA256, under the
audit key (:mod:`riskcore.store.auditkey`), of its fields, of the rows it
wrote or deleted in the guarded tables and of the previous entry's hash
(:mod:`riskcore.store.chain`):

.. math:: h_i = \\mathrm{HMAC\\text{-}SHA256}_K(\\mathrm{json}(i, t_i, u_i, a_i, f_i, v_i,
   r_i, h_{i-1})), \\quad h_0 = 0^{64}

so an entry changed, removed or re-hashed without the key, and a guarded row
deleted, added or edited outside riskcore, are found by
:meth:`AuditLog.verify` (read-only, :func:`riskcore.store.verify.verify_file`);
the last entry's ``(seq, hash)`` (:meth:`AuditLog.head`), kept elsewhere,
also finds a log cut back or replaced.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from riskcore._results import Result
from riskcore.store.chain import GENESIS, entry_hash
from riskcore.store.database import Database, Who, append_entry
from riskcore.store.verify import (
    AuditHead,
    AuditUnreadableError,
    AuditVerification,
    open_readonly,
    read_head,
    read_rows,
    verify_file,
)

__all__ = [
    "GENESIS",
    "AuditEntry",
    "AuditHead",
    "AuditLog",
    "AuditVerification",
    "entry_hash",
    "read_entries",
    "write_json_lines",
]


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
        h_{i-1} and h_i (:func:`riskcore.store.chain.entry_mac`; the SHA-256
        of :func:`~riskcore.store.chain.entry_hash` for entries written
        before the log was keyed).
    records : list
        The guarded rows the entry wrote or deleted: ``[table, key, digest]``
        (digest None for a deleted row).
    """

    seq: int
    time: str
    user: str
    action: str
    fingerprint: str | None
    changes: dict[str, Any]
    prev_hash: str
    hash: str
    records: list[list[Any]] = field(default_factory=list)


class AuditLog(Database):
    """The audit log of the database: append (inside a transaction), read, verify, export.

    Parameters
    ----------
    path : str or Path, optional
        Default :func:`~riskcore.store.database.default_path`.
    timeout : float, default 30
        Seconds a writer waits for another's transaction before giving up.
    rekey : bool, default False
        Key an unkeyed log although an audit key exists (see
        :class:`~riskcore.store.database.Database`).
    """

    @staticmethod
    def _append(
        con: sqlite3.Connection,
        action: str,
        *,
        user: Who,
        fingerprint: str | None,
        changes: Mapping[str, Any],
    ) -> AuditEntry:
        """Append one entry inside a store transaction (:func:`.database.append_entry`)."""
        seq, time, who, act, fp, text, prev, h, recs = append_entry(
            con, action, user=user, fingerprint=fingerprint, changes=changes
        )
        return AuditEntry(seq, time, who, act, fp, json.loads(text), prev, h, json.loads(recs))

    def log(
        self,
        action: str,
        *,
        user: Who = None,
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

        Returns
        -------
        AuditEntry
        """
        if not action:
            raise ValueError("action must not be empty")
        with self._transaction() as con:
            return self._append(
                con, action, user=user, fingerprint=fingerprint, changes=changes or {}
            )

    def audit(self) -> list[AuditEntry]:
        """Return the audit log, first entry first.

        Returns
        -------
        list of AuditEntry
        """
        return [_entry(r) for r in self._audit_rows()]

    def _audit_rows(self) -> list[tuple[Any, ...]]:
        """Return the audit table's rows as stored, first entry first."""
        with self._connect() as con:
            return con.execute(
                "SELECT seq, time, user, action, fingerprint, changes, prev_hash, hash, records "
                "FROM audit ORDER BY seq"
            ).fetchall()

    def head(self) -> AuditHead:
        """Return the last entry's ``(seq, hash)``: ``(0, GENESIS)`` for an empty log.

        Returns
        -------
        AuditHead
        """
        found = read_head(self.path)
        return found if found is not None else AuditHead(0, GENESIS)

    def verify(self, *, expect_head: AuditHead | None = None) -> AuditVerification:
        """Check the log read-only; name the first entry that breaks it.

        See :func:`riskcore.store.verify.verify_file`.

        Parameters
        ----------
        expect_head : AuditHead, optional
            A head kept elsewhere that the log must still hold.

        Returns
        -------
        AuditVerification

        Raises
        ------
        riskcore.store.verify.AuditUnreadableError
            When the file cannot be checked.
        """
        return verify_file(self.path, expect_head=expect_head)

    def export(self, out: TextIO) -> int:
        """Write the audit log to ``out`` as JSON lines; return the number of entries.

        Parameters
        ----------
        out : TextIO
            A text stream open for writing.

        Returns
        -------
        int
        """
        return write_json_lines(self.audit(), out)


def _entry(r: tuple[Any, ...]) -> AuditEntry:
    return AuditEntry(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6], r[7], json.loads(r[8]))


def read_entries(path: str | Path) -> list[AuditEntry]:
    """Return the audit log in ``path``, first entry first, read-only (nothing is migrated).

    Parameters
    ----------
    path : str or Path
        The file.

    Returns
    -------
    list of AuditEntry

    Raises
    ------
    riskcore.store.verify.AuditUnreadableError
        When the file is not a readable audit log.
    """
    try:
        with open_readonly(path) as con:
            return [_entry(r) for r in read_rows(con, Path(path))]
    except sqlite3.Error as exc:
        raise AuditUnreadableError(f"cannot read the audit log {str(path)!r}: {exc}") from None


def write_json_lines(entries: list[AuditEntry], out: TextIO) -> int:
    """Write entries to ``out`` as JSON lines; return how many.

    Parameters
    ----------
    entries : list of AuditEntry
        The entries, in the order written.
    out : TextIO
        A text stream open for writing.

    Returns
    -------
    int
    """
    for e in entries:
        out.write(json.dumps(e.to_dict(), ensure_ascii=False, allow_nan=False) + "\n")
    return len(entries)
