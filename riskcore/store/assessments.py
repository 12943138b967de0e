"""Saved assessments: profile, results and rendered report, keyed by the dataset's SHA-256.

Raw data are stored only when the caller passes them (``save(data=...)``, the
Report page's unticked option), as Parquet in a table of their own.
Reopening (:meth:`Store.reopen`) checks a file against the saved
fingerprint; saving, reopening, comparing and deleting are logged in the
audit log (:mod:`riskcore.store.audit`), in the same transaction as the
change, and the rows saved or deleted are in the chain
(:mod:`riskcore.store.chain`). Each saved assessment keeps the audit log's
head when it was saved. Every entry carries who acted
(:mod:`riskcore.store.identity`); a reviewer approves another person's
saved assessment (:meth:`Store.approve`, the rule in
:func:`riskcore.store.identity.may_approve`), the approval and each refusal
logged.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from riskcore._results import Result
from riskcore.errors import RiskcoreError
from riskcore.store.audit import AuditLog
from riskcore.store.chain import GENESIS, table_digests
from riskcore.store.database import Who, user_name, utc_now
from riskcore.store.identity import (
    ApprovalDecision,
    ApprovalRefusedError,
    Identity,
    may_approve,
)

if TYPE_CHECKING:
    import pandas as pd

    from riskcore.report.compare import Comparison, DatasetCheck

__all__ = ["SavedAssessment", "SavedSummary", "Store"]


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
    audit_head : str or None
        ``SEQ:HASH`` of the audit log's last entry when it was saved (the
        save's own entry follows it); None for an assessment saved before
        the log was keyed.
    """

    id: int
    name: str
    created: str
    user: str
    fingerprint: str
    profile: dict[str, Any]
    results: dict[str, Any]
    report: str | None = None
    audit_head: str | None = None


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


def _verdict_of(results: Mapping[str, Any]) -> str | None:
    v = results.get("verdict")
    if not isinstance(v, Mapping):
        return None
    ok = v.get("passed", v.get("pass"))  # riskcore-report/2, /1
    if not isinstance(ok, bool):
        return None
    return "pass" if ok else "fail"


def _parquet(data: pd.DataFrame) -> bytes:
    """Return the table as Parquet bytes (pyarrow), or say why it cannot be stored."""
    import io

    buf = io.BytesIO()
    try:
        data.to_parquet(buf, index=False)
    except (ValueError, TypeError, ImportError) as exc:
        raise RiskcoreError(f"the raw data cannot be stored as Parquet: {exc}") from None
    return buf.getvalue()


class Store(AuditLog):
    """Saved assessments and the audit log in one SQLite file.

    Parameters
    ----------
    path : str or Path, optional
        Default :func:`~riskcore.store.database.default_path` (``RISKCORE_DB``
        or the user's data directory).
    timeout : float, default 30
        Seconds a writer waits for another's transaction before giving up.
    rekey : bool, default False
        Key an unkeyed log although an audit key exists (see
        :class:`~riskcore.store.database.Database`).
    """

    def save(
        self,
        name: str,
        *,
        fingerprint: str,
        profile: Mapping[str, Any],
        results: Mapping[str, Any],
        report: str | None = None,
        user: Who = None,
        data: pd.DataFrame | None = None,
    ) -> int:
        """Save an assessment and log it, in one transaction; return its id.

        Parameters
        ----------
        name : str
            The assessment's name, as listed.
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

        Returns
        -------
        int
        """
        if not str(name).strip():
            raise RiskcoreError("give the assessment a name")
        raw = None if data is None else _parquet(data)
        with self._transaction() as con:
            last = con.execute("SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1").fetchone()
            head = f"{last[0]}:{last[1]}" if last is not None else f"0:{GENESIS}"
            cur = con.execute(
                "INSERT INTO assessments (name, created, user, fingerprint, profile, results, "
                "report, audit_head) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    name,
                    utc_now(),
                    user_name(user),
                    fingerprint,
                    json.dumps(dict(profile), allow_nan=False),
                    json.dumps(dict(results), allow_nan=False),
                    report,
                    head,
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
                    "audit_head": head,
                },
            )
        return new_id

    def summaries(self) -> list[SavedSummary]:
        """Return every saved assessment as listed (oldest first), without reading its report.

        Returns
        -------
        list of SavedSummary
        """
        with self._connect() as con:
            rows = con.execute(
                "SELECT a.id, a.name, a.created, a.user, a.fingerprint, "
                "json_extract(a.results, '$.dataset.name'), "
                "COALESCE(json_extract(a.results, '$.verdict.passed'), "
                "json_extract(a.results, '$.verdict.pass')), d.id IS NOT NULL "
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
        """Return the rendered report (HTML) of a saved assessment, None if none was saved.

        Parameters
        ----------
        assessment_id : int
            The saved assessment's id.

        Returns
        -------
        str or None
        """
        with self._connect() as con:
            row = con.execute(
                "SELECT report FROM assessments WHERE id = ?", (assessment_id,)
            ).fetchone()
        if row is None:
            raise RiskcoreError(f"no saved assessment has the id {assessment_id}")
        return None if row[0] is None else str(row[0])

    def data(self, assessment_id: int) -> pd.DataFrame | None:
        """Return the raw data stored with an assessment, None when they were not stored.

        Parameters
        ----------
        assessment_id : int
            The saved assessment's id.

        Returns
        -------
        pandas.DataFrame or None
        """
        import io

        import pandas as pd

        with self._connect() as con:
            row = con.execute(
                "SELECT bytes FROM assessment_data WHERE id = ?", (assessment_id,)
            ).fetchone()
        return None if row is None else pd.read_parquet(io.BytesIO(row[0]))

    def assessments(self) -> list[SavedAssessment]:
        """Return every saved assessment, oldest first (reports included).

        Returns
        -------
        list of SavedAssessment
        """
        return self._select("ORDER BY id")

    def _select(self, where: str, params: tuple[Any, ...] = ()) -> list[SavedAssessment]:
        with self._connect() as con:
            rows = con.execute(
                # S608: ``where`` is one of this module's literals; values are bound (?)
                "SELECT id, name, created, user, fingerprint, profile, results, report, "  # noqa: S608
                "audit_head "
                f"FROM assessments {where}",
                params,
            ).fetchall()
        return [
            SavedAssessment(
                r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), json.loads(r[6]), r[7], r[8]
            )
            for r in rows
        ]

    def load(self, assessment_id: int) -> SavedAssessment:
        """Return one saved assessment.

        Parameters
        ----------
        assessment_id : int
            The saved assessment's id.

        Returns
        -------
        SavedAssessment

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
        user: Who = None,
    ) -> tuple[SavedAssessment, DatasetCheck]:
        """Check a file against a saved assessment's dataset, and log the reopening.

        The file is accepted only when its SHA-256 is the saved one and it
        holds every column of the saved roles
        (:func:`riskcore.report.compare.check_dataset`); the entry ("reopen")
        says whether it was restored or refused, and how the file differs.

        Parameters
        ----------
        assessment_id : int
            The saved assessment's id.
        current : mapping
            The file's :func:`riskcore.review.dataset_facts`.
        columns : sequence of str, optional
            The file's column names.
        user : str, optional
            Who acts: an Identity, a typed name, or None for the system user
            (:func:`~riskcore.store.database.user_name`).

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

    def compare(self, id_a: int, id_b: int, *, user: Who = None) -> Comparison:
        """Compare two saved assessments and log it.

        See :func:`riskcore.report.compare.compare_results`.

        Parameters
        ----------
        id_a : int
            The first saved assessment's id.
        id_b : int
            The second saved assessment's id.
        user : Who, optional
            Who acts: an Identity, a typed name, or None for the system user
            (:func:`~riskcore.store.database.user_name`).

        Returns
        -------
        Comparison
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

    def delete(self, assessment_id: int, *, user: Who = None) -> None:
        """Delete a saved assessment; the deletion itself is logged (one transaction).

        Parameters
        ----------
        assessment_id : int
            The saved assessment's id.
        user : Who, optional
            Who acts: an Identity, a typed name, or None for the system user
            (:func:`~riskcore.store.database.user_name`).
        """
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

    def _entries_of(
        self, con: Any, action: str, assessment_id: int, *, after: int = 0
    ) -> list[tuple[int, dict[str, Any], list[Any]]]:
        """Return ``(seq, changes, records)`` of one assessment's ``action`` entries after
        ``after``."""
        rows = con.execute(
            "SELECT seq, changes, records FROM audit WHERE action = ? AND "
            "json_extract(changes, '$.id') = ? AND seq > ? ORDER BY seq",
            (action, int(assessment_id), int(after)),
        ).fetchall()
        return [(int(r[0]), json.loads(r[1]), json.loads(r[2])) for r in rows]

    def _saved_by(self, con: Any, assessment_id: int) -> tuple[int, Identity | None] | None:
        """Return ``(seq, identity)`` of the entry that wrote the assessment's row as it is.

        The last ``save`` entry whose records hold the row with its present
        digest (:mod:`riskcore.store.chain`): the entry that wrote it, not any
        entry naming its id. None when no entry wrote the row as it is (an
        assessment saved before the log was keyed, or a row changed outside
        riskcore).
        """
        digest = table_digests(con, "assessments", key=int(assessment_id)).get(int(assessment_id))
        found = None
        for seq, changes, records in self._entries_of(con, "save", assessment_id):
            if ["assessments", int(assessment_id), digest] in records:
                found = (seq, _identity(changes))
        return None if digest is None else found

    def author(self, assessment_id: int) -> Identity | None:
        """Return who saved an assessment, as the "save" entry that wrote its row records it.

        None when the entry holds no identity (saved by a caller that gave a
        name, or before identities were recorded), or no entry wrote the row
        as it stands: its author is not proven.

        Parameters
        ----------
        assessment_id : int
            The saved assessment's id.

        Returns
        -------
        Identity or None
        """
        with self._connect() as con:
            saved = self._saved_by(con, assessment_id)
        return None if saved is None else saved[1]

    def approvals(self, assessment_id: int) -> list[Identity]:
        """Return who approved an assessment, oldest first (its "approve" entries).

        Only those after the entry that saved its row as it stands count.

        Parameters
        ----------
        assessment_id : int
            The saved assessment's id.

        Returns
        -------
        list of Identity
        """
        with self._connect() as con:
            return self._approvers(con, assessment_id)

    def approval(self, assessment_id: int, approver: Identity) -> ApprovalDecision:
        """Return whether ``approver`` may approve the assessment now (nothing is written).

        Parameters
        ----------
        assessment_id : int
            The saved assessment's id.
        approver : Identity
            The identity asking to approve.

        Returns
        -------
        ApprovalDecision
        """
        with self._connect() as con:
            return self._decide(con, assessment_id, approver)[0]

    def _decide(
        self, con: Any, assessment_id: int, approver: Identity
    ) -> tuple[ApprovalDecision, Identity | None, tuple[Any, ...]]:
        row = con.execute(
            "SELECT name, fingerprint FROM assessments WHERE id = ?", (int(assessment_id),)
        ).fetchone()
        if row is None:
            raise RiskcoreError(f"no saved assessment has the id {assessment_id}")
        saved = self._saved_by(con, assessment_id)
        author = None if saved is None else saved[1]
        done = self._approvers(con, assessment_id)
        return may_approve(approver, author, done), author, tuple(row)

    def _approvers(self, con: Any, assessment_id: int) -> list[Identity]:
        """Return who approved an assessment, oldest first, on an open connection.

        Only approvals after the entry that saved its row count (none when no entry did).
        """
        saved = self._saved_by(con, assessment_id)
        if saved is None:
            return []
        entries = self._entries_of(con, "approve", assessment_id, after=saved[0])
        found = (_identity(changes) for _seq, changes, _recs in entries)
        return [i for i in found if i is not None]

    def approve(self, assessment_id: int, approver: Identity) -> int:
        """Approve a saved assessment as ``approver``; return the approval's audit entry number.

        The rule is :func:`riskcore.store.identity.may_approve`, decided
        inside the write transaction (two reviewers at once cannot both
        pass a check the other's write changes). The approval ("approve") or
        the refusal ("approve_refused", with its reason) is logged with the
        approver's identity and the author's.

        Parameters
        ----------
        assessment_id : int
            The saved assessment's id.
        approver : Identity
            The identity approving (checked by :func:`~riskcore.store.identity.may_approve`).

        Returns
        -------
        int

        Raises
        ------
        ApprovalRefusedError
            When the rule refuses (after the refusal is logged); its
            ``decision`` says why.
        RiskcoreError
            When there is no saved assessment with this id.
        """
        from riskcore.report.readings.identity import approval_reading

        with self._transaction() as con:
            decision, author, (name, fp) = self._decide(con, assessment_id, approver)
            entry = self._append(
                con,
                "approve" if decision.allowed else "approve_refused",
                user=approver,
                fingerprint=fp,
                changes={
                    "id": int(assessment_id),
                    "name": name,
                    "author": None if author is None else author.label,
                    "reason": decision.reason,
                },
            )
        if not decision.allowed:
            raise ApprovalRefusedError(approval_reading(decision.reason), decision)
        return entry.seq


def _identity(changes: dict[str, Any]) -> Identity | None:
    """Return the identity recorded in an entry's ``changes``; None when there is none."""
    if not isinstance(changes, dict) or not isinstance(changes.get("identity"), dict):
        return None
    try:
        return Identity.from_dict(changes["identity"])
    except (KeyError, TypeError, ValueError):
        return None
