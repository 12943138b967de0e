"""The command line's ``audit`` command: check, key or export the audit log (:mod:`riskcore.store`).

``python -m riskcore audit verify [--db PATH] [--expect-head SEQ:HASH]`` checks
the log read-only (:func:`riskcore.store.verify_file`, which also compares the
head file ``<database>.head`` when it is there) and prints its head with what
only a head kept elsewhere finds; exit 0 intact, 1 broken (or an old unkeyed
log, which proves nothing), 2 when the file cannot be checked (missing, empty,
not SQLite, not an audit log, a newer schema, the key missing, a head file or
``keyed_from`` that is not one). ``audit migrate [--db PATH]`` keys an old log
(one entry, ``audit_keyed``, saying it was asked for) and prints the head;
``audit export [--db PATH] [--out FILE]`` writes the log as JSON lines, read-only.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from riskcore.errors import RiskcoreError

__all__ = ["add_parser", "run_audit"]


def add_parser(sub: Any) -> None:
    """Add the ``audit`` sub-command to the parser's sub-parsers.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The sub-parsers of the ``riskcore`` parser (``add_subparsers``).
    """
    a = sub.add_parser(
        "audit", help="check, key or export the audit log of saved assessments and ledgers"
    )
    a.add_argument("action", choices=("verify", "migrate", "export"))
    a.add_argument(
        "--db", default=None, help="the database (default RISKCORE_DB or the user data directory)"
    )
    a.add_argument(
        "--expect-head",
        default=None,
        metavar="SEQ:HASH",
        help="verify: a head printed earlier and kept elsewhere; the log must still hold it "
        "(finds a log cut back or replaced)",
    )
    a.add_argument("--out", default=None, help="export: the JSON-lines file (default stdout)")


def _verify(path: Any, expect: str | None) -> int:
    from riskcore.report.readings.saved import (
        audit_head_reading,
        audit_verify_reading,
        head_kept_reading,
    )
    from riskcore.store import AuditHead, verify_file

    head = AuditHead.parse(expect) if expect is not None else None
    v = verify_file(path, expect_head=head)
    text = audit_verify_reading(v.ok, v.entries, v.first_broken, v.reason, keyed=v.keyed)
    print(text, file=sys.stdout if v.ok else sys.stderr)
    if v.head is not None:
        print(audit_head_reading(v.head.to_dict()))
        print(head_kept_reading())
    return 0 if v.ok else 1


def _migrate(path: Any) -> int:
    import sqlite3

    from riskcore.report.readings.saved import head_kept_reading
    from riskcore.store import SCHEMA_VERSION, AuditUnreadableError, Store
    from riskcore.store.verify import open_readonly

    try:
        with open_readonly(path) as con:  # refuses a missing / empty file: nothing is made
            before = int(con.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.Error as exc:  # not a database at all
        raise AuditUnreadableError(f"cannot read the audit log {str(path)!r}: {exc}") from None
    store = Store(path, rekey=True)  # asked for: keyed even when a key already exists
    head = store.head()
    if before >= SCHEMA_VERSION:
        print(f"The audit log is already keyed (schema version {before}); its head is {head}.")
    else:
        print(
            f"The audit log is now keyed (schema version {before} to {SCHEMA_VERSION}, entry "
            f"{head.seq} 'audit_keyed' continues the old chain); its head is {head}."
        )
    print(head_kept_reading())
    return 0


def run_audit(args: argparse.Namespace) -> int:
    """Run ``audit``; return 0, 1 when the log is broken or unproven, 2 when it cannot be read.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the command.

    Returns
    -------
    int
        The exit code: 0 the chain holds (or the export was written), 1 it is broken, 2
        bad input.
    """
    from pathlib import Path

    from riskcore.store import default_path

    path = Path(args.db) if args.db else default_path()
    try:
        if args.action == "verify":
            return _verify(path, args.expect_head)
        if args.action == "migrate":
            return _migrate(path)
        from riskcore.store.audit import read_entries, write_json_lines

        entries = read_entries(path)
        if args.out:
            with open(args.out, "w", encoding="utf-8") as fh:
                n = write_json_lines(entries, fh)
            print(f"Wrote {n:,} audit entries to {args.out}")
        else:
            write_json_lines(entries, sys.stdout)
    except (RiskcoreError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
