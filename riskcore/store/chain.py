"""The keyed hash chain: entry MACs, row digests, and the rows each entry vouches for.

Each audit entry *i* holds

.. math:: h_i = \\mathrm{HMAC\\text{-}SHA256}_K(\\mathrm{json}(i, t_i, u_i, a_i, f_i, v_i,
   r_i, h_{i-1})), \\quad h_0 = 0^{64}

(RFC 2104 HMAC over SHA-256, key *K* outside the database,
:mod:`riskcore.store.auditkey`), where :math:`r_i` lists the rows of the
guarded tables (:data:`GUARDED`: saved assessments, their raw data, the
privacy ledgers, their files, budgets and releases) that the entry's
transaction wrote or deleted, each with the SHA-256 of its contents
(:func:`row_digest`; null for a deleted row). Replaying the chain gives the
rows the tables must hold, each with its digest, so a release row deleted,
a budget row inserted, or any row edited outside riskcore is found.

The rows are captured, not declared: every write transaction of the store
puts TEMP triggers on the guarded tables (:func:`capture`), which exist on
that connection only and note each row it touches; the next entry takes
them (:func:`drain`). A connection of someone else (``sqlite3``, another
program) has no such triggers, so what it writes is in no entry.

Entries written before the chain was keyed (an old file) keep the unkeyed
SHA-256 of :func:`entry_hash`; the entry that keyed the file continues from
their last hash, so they are anchored too.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import sqlite3
from collections.abc import Sequence
from typing import Any

__all__ = [
    "APPEND_ONLY",
    "GENESIS",
    "GUARDED",
    "VOUCHES",
    "WORK_GUARDED",
    "append_only_sql",
    "capture",
    "drain",
    "entry_hash",
    "entry_mac",
    "foreign_schema",
    "missing_triggers",
    "pending",
    "row_digest",
    "table_digests",
    "trigger_sql",
    "unvouched",
]

#: The "previous hash" of the first audit entry.
GENESIS = "0" * 64

#: The tables whose rows are in the chain, with the column that names a row.
GUARDED: dict[str, str] = {
    "assessments": "id",
    "assessment_data": "id",
    "dp_ledgers": "id",
    "dp_ledger_files": "fingerprint",
    "dp_ledger_budgets": "seq",
    "dp_ledger_entries": "seq",
    "dp_ledger_people": "fingerprint",  # which ledger a table's people are charged to
    "dp_ledger_splits": "ledger",  # ledgers begun despite a match, with the reason
    "working_profiles": "rowid",  # work kept for a reload (key: fingerprint and session)
}

#: The action of the entry that put kept work (``working_profiles``) under the chain: the
#: table's rows count from the first such entry on (before it riskcore wrote them unlogged).
WORK_GUARDED = "work_guarded"

#: The actions whose entry must vouch for the row it wrote: action -> (table, key in changes).
#: A ``save`` writes the assessment ``changes["id"]``; a ``dp_release`` one release row; a
#: ``dp_budget`` one budget row (key None: any row of the table). A row hidden from the write
#: (a trigger ``RAISE(IGNORE)``, a conflict clause) leaves the entry without it.
VOUCHES: dict[str, tuple[str, str | None]] = {
    "save": ("assessments", "id"),
    "dp_release": ("dp_ledger_entries", None),
    "dp_budget": ("dp_ledger_budgets", None),
}

#: The append-only tables and the triggers that refuse UPDATE and DELETE on them.
APPEND_ONLY: dict[str, tuple[str, str]] = {
    t: (f"{t}_no_update", f"{t}_no_delete")
    for t in (
        "audit",
        "dp_ledgers",
        "dp_ledger_files",
        "dp_ledger_budgets",
        "dp_ledger_entries",
        "dp_ledger_people",
        "dp_ledger_splits",
    )
}


def _text(fields: list[Any]) -> bytes:
    return json.dumps(fields, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def entry_hash(
    seq: int,
    time: str,
    user: str,
    action: str,
    fingerprint: str | None,
    changes: str,
    prev_hash: str,
) -> str:
    """Return the unkeyed SHA-256 of an entry of an old (schema 1) log.

    The fields are written as a JSON array (UTF-8, no spaces), so no two
    different entries share the input. Anyone who can write the file can
    recompute it: it proves nothing alone, and is checked only for the
    entries before the chain was keyed.

    Parameters
    ----------
    seq : int
        The entry's number.
    time : str
        Its time, as stored.
    user : str
        Its user column.
    action : str
        Its action.
    fingerprint : str or None
        Its dataset fingerprint (None: none).
    changes : str
        Its changes, as the JSON text stored.
    prev_hash : str
        The hash of the entry before.

    Returns
    -------
    str
    """
    text = _text([seq, time, user, action, fingerprint, changes, prev_hash])
    return hashlib.sha256(text).hexdigest()


def entry_mac(
    key: bytes,
    seq: int,
    time: str,
    user: str,
    action: str,
    fingerprint: str | None,
    changes: str,
    records: str,
    prev_hash: str,
) -> str:
    """Return h_i, the HMAC-SHA256 under ``key`` of an entry's fields, its rows and h_{i-1}.

    Parameters
    ----------
    key : bytes
        The audit key (:func:`riskcore.store.auditkey.load_key`).
    seq, time, user, action, fingerprint, changes
        The entry's fields as stored (``changes`` as its JSON text).
    records : str
        The JSON text of the rows the entry vouches for.
    prev_hash : str
        h_{i-1}.

    Returns
    -------
    str
        64 hexadecimal digits.
    """
    msg = _text([seq, time, user, action, fingerprint, changes, records, prev_hash])
    return hmac.new(key, msg, hashlib.sha256).hexdigest()


def _cell(value: Any) -> list[str]:
    if value is None:
        return ["n", ""]
    if isinstance(value, bytes):
        return ["b", hashlib.sha256(value).hexdigest()]
    if isinstance(value, int):
        return ["i", str(value)]
    if isinstance(value, float):
        return ["r", value.hex()]
    return ["t", str(value)]


def row_digest(table: str, names: list[str] | tuple[str, ...], values: tuple[Any, ...]) -> str:
    """Return the SHA-256 of one row: its table and every non-NULL column, by name.

    Each value is typed (integer, real as :meth:`float.hex`, text, the SHA-256
    of a blob), so 1 and "1" differ; NULL columns are left out, so a column
    added later (NULL in old rows) leaves old rows' digests as they were,
    while setting or clearing any value changes the digest.

    Parameters
    ----------
    table : str
        The table's name.
    names : list of str or tuple of str
        The column names, in the row's order.
    values : tuple of Any
        The row's values (None for NULL).

    Returns
    -------
    str
    """
    cells = sorted((n, _cell(v)) for n, v in zip(names, values, strict=True) if v is not None)
    return hashlib.sha256(_text([table, cells])).hexdigest()


def _columns(table: str) -> str:
    """Return the columns a row digest covers: every column, and the rowid when it names rows."""
    return "rowid AS rowid, *" if GUARDED[table] == "rowid" else "*"


def table_digests(con: sqlite3.Connection, table: str, *, key: Any = None) -> dict[Any, str]:
    """Return every row of a guarded table: its key -> :func:`row_digest`.

    Parameters
    ----------
    con : sqlite3.Connection
        An open connection to the store's SQLite database.
    table : str
        A guarded table (a key of :data:`GUARDED`).
    key : Any, optional
        Only the row of this key (empty when there is none).

    Returns
    -------
    dict of Any to str
    """
    col = GUARDED[table]
    where = "" if key is None else f" WHERE {col} = ?"
    cur = con.execute(
        f"SELECT {_columns(table)} FROM main.{table}{where}",  # noqa: S608 (GUARDED names)
        () if key is None else (key,),
    )
    names = [d[0] for d in cur.description]
    at = names.index(col)
    return {row[at]: row_digest(table, names, row) for row in cur}


def _tables(con: sqlite3.Connection) -> set[str]:
    return {
        str(r[0]) for r in con.execute("SELECT name FROM main.sqlite_master WHERE type = 'table'")
    }


def missing_triggers(con: sqlite3.Connection) -> list[str]:
    """Return the append-only triggers missing on tables that exist (dropped outside riskcore).

    Parameters
    ----------
    con : sqlite3.Connection
        An open connection to the store's SQLite database.

    Returns
    -------
    list of str
    """
    have = {
        str(r[0]) for r in con.execute("SELECT name FROM main.sqlite_master WHERE type = 'trigger'")
    }
    tables = _tables(con)
    return [t for tab, pair in APPEND_ONLY.items() if tab in tables for t in pair if t not in have]


def _ours(name: str, sql: str | None) -> bool:
    """Return whether a trigger is one of :data:`APPEND_ONLY`, refusing what its name says."""
    for table, pair in APPEND_ONLY.items():
        for trigger in pair:
            if name == trigger:
                op = trigger.rsplit("_no_", 1)[1].upper()
                shape = (
                    rf"CREATE TRIGGER \"?{trigger}\"? BEFORE {op} ON \"?{table}\"? "
                    r"BEGIN SELECT RAISE\(ABORT, '[^']*'\); END"
                )
                return re.fullmatch(shape, " ".join(str(sql or "").split()), re.I) is not None
    return False


def foreign_schema(con: sqlite3.Connection) -> list[str]:
    """Return the triggers and views of the file that riskcore did not make, as "kind name".

    riskcore makes no view and only the append-only triggers (:data:`APPEND_ONLY`, each
    ``BEFORE UPDATE`` / ``BEFORE DELETE`` raising ``ABORT``); any other trigger can hide or
    change a write (``BEFORE INSERT ... RAISE(IGNORE)`` drops a release row while its entry
    is written), so a writer refuses a file holding one and ``verify`` names it.

    Parameters
    ----------
    con : sqlite3.Connection
        An open connection to the store's SQLite database.

    Returns
    -------
    list of str
        ``"trigger NAME"`` / ``"view NAME"``, sorted; empty when there is none.
    """
    rows = con.execute(
        "SELECT type, name, sql FROM main.sqlite_master WHERE type IN ('trigger', 'view')"
    ).fetchall()
    return sorted(
        f"{kind} {name}" for kind, name, sql in rows if kind == "view" or not _ours(name, sql)
    )


def unvouched(action: str, changes: Any, records: Any) -> str | None:
    """Return the row an entry of ``action`` should vouch for and does not; None when it does.

    See :data:`VOUCHES`: a ``save`` must list its assessment (``changes["id"]``), a
    ``dp_release`` a release row, a ``dp_budget`` a budget row, each with a digest (written,
    not deleted). Other actions vouch for nothing in particular.

    Parameters
    ----------
    action : str
        The entry's action.
    changes : Any
        Its changed values (decoded JSON).
    records : Any
        Its records (decoded JSON: ``[[table, key, digest or None], ...]``).

    Returns
    -------
    str or None
        ``"table TABLE"`` or ``"table TABLE, row KEY"`` when the row is not among the
        records; None when it is, or the action vouches for nothing.
    """
    if action not in VOUCHES:
        return None
    table, field = VOUCHES[action]
    key = changes.get(field) if field is not None and isinstance(changes, dict) else None
    for rec in records if isinstance(records, list) else []:
        if (
            isinstance(rec, list)
            and len(rec) == 3
            and rec[0] == table
            and rec[2] is not None
            and (field is None or rec[1] == key)
        ):
            return None
    return f"table {table}" if field is None else f"table {table}, row {key!r}"


def capture(con: sqlite3.Connection) -> None:
    """Put TEMP triggers on the guarded tables that note each row this connection touches.

    Call inside the write transaction, before any write; the triggers and
    their table live on this connection only.

    Parameters
    ----------
    con : sqlite3.Connection
        An open connection to the store's SQLite database.
    """
    con.execute(
        "CREATE TEMP TABLE IF NOT EXISTS riskcore_pending (tbl TEXT NOT NULL, key NOT NULL)"
    )
    for table in sorted(_tables(con) & GUARDED.keys()):
        col = GUARDED[table]
        for op, rows in (("INSERT", ("NEW",)), ("UPDATE", ("OLD", "NEW")), ("DELETE", ("OLD",))):
            # table and column names from GUARDED, no value of anyone's
            body = " ".join(
                f"INSERT INTO riskcore_pending VALUES ('{table}', {r}.{col});"  # noqa: S608
                for r in rows
            )
            con.execute(
                f"CREATE TEMP TRIGGER IF NOT EXISTS riskcore_{op.lower()}_{table} AFTER {op} "
                f"ON main.{table} BEGIN {body} END"
            )


def pending(con: sqlite3.Connection) -> int:
    """Return how many row writes of this connection no entry has taken yet.

    Parameters
    ----------
    con : sqlite3.Connection
        An open connection to the store's SQLite database.

    Returns
    -------
    int
    """
    try:
        return int(con.execute("SELECT count(*) FROM temp.riskcore_pending").fetchone()[0])
    except sqlite3.OperationalError:  # no capture on this connection
        return 0


def drain(con: sqlite3.Connection) -> str:
    """Return the rows this connection touched since the last entry, as the entry's records.

    Parameters
    ----------
    con : sqlite3.Connection
        An open connection to the store's SQLite database.

    Returns
    -------
    str
        JSON text of ``[[table, key, digest or null], ...]`` (each row once, in
        the order first touched; null when the row is gone), ``[]`` when none.
    """
    try:
        touched = con.execute(
            "SELECT tbl, key FROM temp.riskcore_pending GROUP BY tbl, key ORDER BY min(rowid)"
        ).fetchall()
    except sqlite3.OperationalError:  # no capture on this connection
        return "[]"
    con.execute("DELETE FROM temp.riskcore_pending")
    records = [[table, key, table_digests(con, table, key=key).get(key)] for table, key in touched]
    return json.dumps(records, separators=(",", ":"))


_TRIGGER_WHAT = {"audit": "the audit log"}


def trigger_sql(table: str, op: str) -> str:
    """Return the statement making the trigger that refuses ``op`` (UPDATE, DELETE) on ``table``.

    Parameters
    ----------
    table : str
        A guarded table.
    op : str
        "UPDATE" or "DELETE".

    Returns
    -------
    str
    """
    what = _TRIGGER_WHAT.get(table, "the privacy ledger")
    return (
        f"CREATE TRIGGER IF NOT EXISTS {table}_no_{op.lower()} BEFORE {op} ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{what} is append-only: {op} refused'); END"
    )


def append_only_sql(tables: Sequence[str]) -> str:
    """Return the statements making the triggers that refuse UPDATE and DELETE on ``tables``.

    Parameters
    ----------
    tables : sequence of str
        The append-only tables.

    Returns
    -------
    str
        One :func:`trigger_sql` statement per table and operation, each ending with ``;``
        and a new line (a script for ``executescript``).
    """
    return "".join(f"{trigger_sql(t, op)};\n" for t in tables for op in ("UPDATE", "DELETE"))
