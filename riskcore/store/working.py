"""The work kept for a reload: each session's working profile, keyed by the data's SHA-256.

A browser reload starts a new session and drops the upload (it is never written to disk).
What the user chose on it survives here, in a table of its own in the one database
(:mod:`riskcore.store.database`): the roles, targets, missing-value policy, sampling fraction,
distances and value orders, the recipe in use, the Remediate page's levels and hierarchies
and the masking choices, as one JSON document per (file fingerprint, session). Never the
data, never a key: a document holding a value that is not plain JSON (a
:class:`~riskcore.deidentify.masking.SecretKey`) is refused, and the recipe records only
the key's check value. When the same file is uploaded again, the newest document of
another session is offered back; restoring is the user's choice.

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
from riskcore.store.database import Database, default_path, utc_now

__all__ = ["KEEP", "SCHEMA", "KeptWork", "WorkStore", "holds_work"]

#: Documents kept per file fingerprint (the newest; older ones are deleted on each write).
KEEP = 5

#: The table of kept work (one row per file fingerprint and session).
SCHEMA = """
CREATE TABLE IF NOT EXISTS working_profiles (
    fingerprint TEXT NOT NULL,
    session TEXT NOT NULL,
    saved TEXT NOT NULL,
    work TEXT NOT NULL,
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
    """

    fingerprint: str
    session: str
    saved: str
    work: dict[str, Any]


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
    if not p.is_file():
        return False
    try:
        with closing(sqlite3.connect(f"file:{p}?mode=ro", uri=True)) as con:
            row = con.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'working_profiles'"
            ).fetchone()
    except sqlite3.Error as exc:
        raise RiskcoreError(f"the kept work in {str(p)!r} could not be read: {exc}") from None
    return row is not None


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
        try:
            db = Database(self.path)
            with db._transaction() as con:
                con.execute(SCHEMA)  # one statement (executescript would commit first)
                yield con
        except sqlite3.Error as exc:
            raise RiskcoreError(
                f"the work could not be kept in {str(self.path)!r}: {exc}"
            ) from None

    def keep(self, fingerprint: str, session: str, work: Mapping[str, Any]) -> KeptWork:
        """Keep ``work`` as this session's on the file ``fingerprint`` (replacing its last).

        Parameters
        ----------
        fingerprint : str
            SHA-256 of the file's bytes.
        session : str
            The session's random id.
        work : Mapping
            Plain JSON: the working profile.

        Returns
        -------
        KeptWork

        Raises
        ------
        RiskcoreError
            When ``work`` is not plain JSON, or the database cannot be written.
        """
        text = _document(work)
        now = utc_now()
        with self._write() as con:
            con.execute(
                "INSERT INTO working_profiles (fingerprint, session, saved, work) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (fingerprint, session) "
                "DO UPDATE SET saved = excluded.saved, work = excluded.work",
                (fingerprint, session, now, text),
            )
            con.execute(
                "DELETE FROM working_profiles WHERE fingerprint = ? AND session NOT IN "
                "(SELECT session FROM working_profiles WHERE fingerprint = ? "
                "ORDER BY saved DESC LIMIT ?)",
                (fingerprint, fingerprint, KEEP),
            )
        return KeptWork(fingerprint, session, now, json.loads(text))

    def latest(self, fingerprint: str, *, other_than: str | None = None) -> KeptWork | None:
        """Return the newest work kept on ``fingerprint``, None when there is none.

        Work by another session than ``other_than``; reads only.

        Parameters
        ----------
        fingerprint : str
        other_than : str, optional
            A session whose own work is not offered back to it.

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
            with closing(sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)) as con:
                row = con.execute(
                    "SELECT fingerprint, session, saved, work FROM working_profiles "
                    "WHERE fingerprint = ? AND session != ? ORDER BY saved DESC LIMIT 1",
                    (fingerprint, other_than or ""),
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
        return KeptWork(row[0], row[1], row[2], work if isinstance(work, dict) else {})
