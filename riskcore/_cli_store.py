"""The command line's ``audit`` command: check or export the audit log (:mod:`riskcore.store`).

``python -m riskcore audit verify [--db PATH]`` checks the hash chain and names
the first broken entry (exit 1 when broken); ``audit export [--db PATH]
[--out FILE]`` writes the log as JSON lines.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from riskcore.errors import RiskcoreError

__all__ = ["add_parser", "run_audit"]


def add_parser(sub: Any) -> None:
    """Add the ``audit`` sub-command to the parser's sub-parsers."""
    a = sub.add_parser("audit", help="check or export the audit log of saved assessments")
    a.add_argument("action", choices=("verify", "export"))
    a.add_argument(
        "--db", default=None, help="the database (default RISKCORE_DB or the user data directory)"
    )
    a.add_argument("--out", default=None, help="export: the JSON-lines file (default stdout)")


def run_audit(args: argparse.Namespace) -> int:
    """Run ``audit``; return 0, 1 when the chain is broken, 2 on bad input."""
    from pathlib import Path

    from riskcore.store import Store, default_path

    path = Path(args.db) if args.db else default_path()
    try:
        if not path.exists():
            raise RiskcoreError(f"there is no database at {str(path)!r}")
        store = Store(path)
        if args.action == "verify":
            v = store.verify()
            if v.ok:
                print(f"The audit log is intact: {v.entries:,} entries, the hash chain holds.")
                return 0
            print(
                f"The audit log is BROKEN at entry {v.first_broken}: {v.reason}.",
                file=sys.stderr,
            )
            return 1
        if args.out:
            with open(args.out, "w", encoding="utf-8") as fh:
                n = store.export(fh)
            print(f"Wrote {n:,} audit entries to {args.out}")
        else:
            store.export(sys.stdout)
    except (RiskcoreError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
