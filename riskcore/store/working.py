"""The work kept for a reload: each session's working profile, keyed by the data's SHA-256.

A browser reload starts a new session and drops the upload (it is never written to disk).
What the user chose on it survives here, in a table of its own in the one database
(:mod:`riskcore.store.database`): the roles, targets, missing-value policy, sampling fraction,
distances and value orders, the recipe in use, the Remediate page's levels and hierarchies
and the masking choices, as one JSON document per (file fingerprint, session). Never the
data, never a key: a document holding a value that is not plain JSON (a
:class:`~riskcore.deidentify.masking.SecretKey`) is refused, and the recipe records only
the key's check value. When the same file is uploaded again, the newest document of
another session of the same owner is offered back; restoring is the user's choice.

Owner: with a login, the identity's ``(iss, sub)``; without one, nobody (``""``): then any
session that uploads the same bytes is offered the work (one person on localhost; SECURITY.md
says so). Work kept under a login is offered only to that login, never to a session without
one, and the reverse.

In the chain: each write is one transaction with its audit entry, ``work_kept`` (the rows it
wrote or pruned are in the entry's records, :mod:`riskcore.store.chain`), so a kept document
added or changed outside riskcore is found by ``riskcore audit verify``. The first write of
this version puts the rows already there under the chain with one entry, ``work_guarded``.

Looking writes nothing: :func:`holds_work` and :meth:`WorkStore.latest` on a path that has
no database (or no table) make none. Only the :data:`KEEP` newest documents of a file are
kept.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from riskcore._results import Result
from riskcore.errors import RiskcoreError
from riskcore.store.chain import WORK_GUARDED, capture, table_digests
from riskcore.store.database import (
    Database,
    Who,
    append_entry,
    default_path,
    holds_table,
    sqlite_uri,
    utc_now,
)
from riskcore.store.identity import Identity

__all__ = ["KEEP", "SCHEMA", "KeptWork", "WorkStore", "holds_work", "owner_of"]

#: Documents kept per file fingerprint and owner (the newest; older ones are deleted on each
#: write).
KEEP = 5

#: The table of kept work (one row per file fingerprint and session).
SCHEMA = """
CREATE TABLE IF NOT EXISTS working_profiles (
    fingerprint TEXT NOT NULL,
    session TEXT NOT NULL,
    saved TEXT NOT NULL,
    work TEXT NOT NULL,
    owner TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (fingerprint, session)
);
"""


@dataclass(frozen=True)
class KeptWork(Result):
    """One session's work on one file.

    Attributes
    ----------
    fingerprint : str
        SHA-256 of the file's bytes.
    session : str
        The session that kept it (a random id, not a person).
    saved : str
        When it was last kept (ISO 8601, UTC).
    work : dict
        The working profile (roles, targets, recipe, levels, masking choices; no data, no key).
    owner : str
        Whose it is: :func:`owner_of` the identity that kept it ("" without a login).
    """

    fingerprint: str
    session: str
    saved: str
    work: dict[str, Any]
    owner: str = ""


def owner_of(user: Who) -> str:
    """Return the owner kept with work: a login's ``["iss", "sub"]`` as JSON, else "".

    Parameters
    ----------
    user : Who
        Who keeps or asks for the work.

    Returns
    -------
    str
        The JSON array of the identity's issuer and subject when it is a login; "" for a
        name typed, a system user or nobody (not proven, so not an owner).
    """
    if isinstance(user, Identity) and user.key is not None:
        return json.dumps(list(user.key), ensure_ascii=False)
    return ""


def _has_owner(con: sqlite3.Connection) -> bool:
    return any(str(r[1]) == "owner" for r in con.execute("PRAGMA table_info(working_profiles)"))


def holds_work(path: str | Path | None = None) -> bool:
    """Return whether the database at ``path`` exists and holds the kept-work table.

    Reads only: no file, table or journal is made.

    Parameters
    ----------
    path : str or Path, optional
        Default :func:`~riskcore.store.database.default_path`.

    Returns
    -------
    bool

    Raises
    ------
    RiskcoreError
        When the file exists but cannot be read as a database.
    """
    p = Path(path) if path is not None else default_path()
    return holds_table(p, "working_profiles", "the kept work")


def _document(work: Mapping[str, Any]) -> str:
    """Return the work as canonical JSON; refuse what is not plain JSON (a key object)."""
    try:
        return json.dumps(work, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise RiskcoreError(
            f"the working profile holds a value that is not plain JSON ({type(exc).__name__}): "
            "it is not kept (a key or the data never is)"
        ) from None


class WorkStore:
    """The kept work of every session, in the database at ``path``.

    Parameters
    ----------
    path : str or Path, optional
        Default :func:`~riskcore.store.database.default_path` (``RISKCORE_DB`` or the user's
        data directory). Opening makes nothing; the first :meth:`keep` makes the table.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """Yield a store transaction with the table ready, its rows under the chain."""
        try:
            db = Database(self.path)
            with db._transaction() as con:
                con.execute(SCHEMA)  # one statement (executescript would commit first)
                if not _has_owner(con):  # kept by an earlier version
                    con.execute(
                        "ALTER TABLE working_profiles ADD COLUMN owner TEXT NOT NULL DEFAULT ''"
                    )
                if (
                    con.execute(
                        "SELECT 1 FROM audit WHERE action = ? LIMIT 1", (WORK_GUARDED,)
                    ).fetchone()
                    is None
                ):
                    rows = table_digests(con, "working_profiles")
                    append_entry(
                        con,
                        WORK_GUARDED,
                        user=None,
                        fingerprint=None,
                        changes={"rows_adopted": len(rows)},
                        records=json.dumps(
                            [["working_profiles", k, d] for k, d in rows.items()],
                            separators=(",", ":"),
                        ),
                    )
                capture(con)  # the table may be new: its writes are noted from here
                yield con
        except sqlite3.Error as exc:
            raise RiskcoreError(
                f"the work could not be kept in {str(self.path)!r}: {exc}"
            ) from None

    def keep(
        self, fingerprint: str, session: str, work: Mapping[str, Any], *, user: Who = None
    ) -> KeptWork:
        """Keep ``work`` as this session's on the file ``fingerprint`` (replacing its last).

        One transaction with its audit entry, ``work_kept``; the owner is the login of
        ``user`` (:func:`owner_of`).

        Parameters
        ----------
        fingerprint : str
            SHA-256 of the file's bytes.
        session : str
            The session's random id.
        work : Mapping
            Plain JSON: the working profile.
        user : Who, optional
            Who keeps it: with a login its identity, which owns the work.

        Returns
        -------
        KeptWork

        Raises
        ------
        RiskcoreError
            When ``work`` is not plain JSON, or the database cannot be written.
        """
        text = _document(work)
        now, owner = utc_now(), owner_of(user)
        with self._write() as con:
            con.execute(
                "INSERT INTO working_profiles (fingerprint, session, saved, work, owner) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (fingerprint, session) "
                "DO UPDATE SET saved = excluded.saved, work = excluded.work, "
                "owner = excluded.owner",
                (fingerprint, session, now, text, owner),
            )
            con.execute(
                "DELETE FROM working_profiles WHERE fingerprint = ? AND owner = ? AND session "
                "NOT IN (SELECT session FROM working_profiles WHERE fingerprint = ? AND "
                "owner = ? ORDER BY saved DESC LIMIT ?)",
                (fingerprint, owner, fingerprint, owner, KEEP),
            )
            append_entry(
                con,
                "work_kept",
                user=user,
                fingerprint=fingerprint,
                changes={"session": session},
            )
        return KeptWork(fingerprint, session, now, json.loads(text), owner)

    def latest(
        self, fingerprint: str, *, other_than: str | None = None, user: Who = None
    ) -> KeptWork | None:
        """Return the newest work kept on ``fingerprint``, None when there is none.

        Work by another session than ``other_than``, of the same owner as ``user``
        (:func:`owner_of`: a login sees its own work only; without one, the work kept
        without one); reads only.

        Parameters
        ----------
        fingerprint : str
            The SHA-256 of the file the work was done on.
        other_than : str, optional
            A session whose own work is not offered back to it.
        user : Who, optional
            Who asks: with a login its identity.

        Returns
        -------
        KeptWork or None
            The newest work kept on ``fingerprint`` by another session.

        Raises
        ------
        RiskcoreError
            When the database cannot be read.
        """
        if not holds_work(self.path):
            return None
        try:
            with closing(sqlite3.connect(sqlite_uri(Path(self.path), "mode=ro"), uri=True)) as con:
                owner = "owner" if _has_owner(con) else "''"  # a table of an earlier version
                row = con.execute(
                    f"SELECT fingerprint, session, saved, work, {owner} "  # noqa: S608
                    f"FROM working_profiles WHERE fingerprint = ? AND session != ? "
                    f"AND {owner} = ? ORDER BY saved DESC LIMIT 1",
                    (fingerprint, other_than or "", owner_of(user)),
                ).fetchone()
        except sqlite3.Error as exc:
            raise RiskcoreError(
                f"the kept work in {str(self.path)!r} could not be read: {exc}"
            ) from None
        if row is None:
            return None
        try:
            work = json.loads(row[3])
        except ValueError:
            return None
        return KeptWork(row[0], row[1], row[2], work if isinstance(work, dict) else {}, row[4])
