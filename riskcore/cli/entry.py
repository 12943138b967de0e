"""The command line's entry point: ``python -m riskcore assess DATA --qi COL [--qi COL ...] ...``.

Also ``anonymize`` / ``apply`` (remediation), ``records`` (the per-record
risk table), ``report`` (the HTML / JSON / PDF report; ``report verify`` checks
a signed one) and ``audit`` (the audit log's hash chain).

Exit codes: 0 success, 1 a target failed under ``--fail-on-targets`` or the
release is not ready under ``report --fail-unless-ready`` (the outputs are
written first), 2 bad input or usage (message on stderr, no traceback).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from riskcore.cli.common import DECIMAL, Escaped, Parser, load
from riskcore.errors import RiskcoreError

# pandas, numpy and the metrics are imported inside the commands, after the
# arguments are parsed, so `--help` and usage errors answer at once.

__all__ = ["build_parser", "main", "run"]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Return the parser: every sub-command, or ``assess`` alone when ``command`` is "assess".

    Each command's module adds its own sub-parser (``riskcore.cli.assess``,
    ``anonymize``, ``apply``, ``records``, ``report``, ``audit``, ``app``);
    ``assess`` alone spares its run the imports of the other sub-commands'
    options (the remediation code among them).

    Parameters
    ----------
    command : str, optional
        The sub-command about to run (its name, as typed), or None for all.

    Returns
    -------
    argparse.ArgumentParser
        A parser that exits 2 with a one-line message on a usage error.
    """
    from riskcore.cli import assess
    from riskcore.cli.args import add_decimal

    p = Parser(prog="riskcore", description="Privacy-risk assessment of a table.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    assess.add_parser(sub)
    if command == "assess":
        add_decimal(sub)
        return p
    from riskcore.cli import anonymize, app, apply, audit, records, report

    for command_module in (anonymize, apply, records, report, audit, app):
        command_module.add_parser(sub)
    add_decimal(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code.

    Everything printed (results and messages) has its control characters
    escaped (:func:`riskcore.cli.common.escape_controls`): a column name holding terminal escape
    codes cannot colour, move or hide text. ``audit`` writes its log as it is.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments without the program name (default ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success, 2 for bad input or usage (message on stderr).
    """
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["app"] and not {"-h", "--help"} & set(args_list[1:2]):
        from riskcore.cli.app import run_app  # everything after `app` goes to Streamlit

        return run_app(args_list[1:])
    if args_list[:1] == ["audit"]:
        return _main(args_list)
    with (
        contextlib.redirect_stdout(Escaped(sys.stdout)),
        contextlib.redirect_stderr(Escaped(sys.stderr)),
    ):
        return _main(args_list)


def _main(argv: list[str]) -> int:
    if argv[:2] == ["report", "verify"]:  # a sub-action of report, parsed on its own
        from riskcore.cli.report import run_verify

        return run_verify(argv[2:])
    args = build_parser(argv[0] if argv else None).parse_args(argv)
    decimal = getattr(args, "decimal", "auto")
    DECIMAL.set(None if decimal == "auto" else decimal)
    if args.command in ("anonymize", "apply", "records", "report"):
        from riskcore.engine.select import check_supported

        try:
            check_supported(args.command, args.engine)
        except RiskcoreError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    if args.command in ("anonymize", "apply"):
        from riskcore.cli.engines import run_engine_command

        on_engine = run_engine_command(args)  # None: the in-memory path
        if on_engine is not None:
            return on_engine
        if args.command == "anonymize":
            from riskcore.cli.anonymize import run_anonymize

            return run_anonymize(args)
        from riskcore.cli.apply import run_apply

        return run_apply(args)
    if args.command == "records":
        from riskcore.cli.records import run_records

        return run_records(args, load)
    if args.command == "audit":
        from riskcore.cli.audit import run_audit

        return run_audit(args)
    if args.command == "report":
        from riskcore.cli.report import run_report

        return run_report(args, load)
    from riskcore.cli.assess import run_assess

    return run_assess(args)


def run() -> NoReturn:
    """Run :func:`main` as a program (``riskcore`` and ``python -m riskcore``) and exit.

    Before exiting, every object alive is frozen out of the garbage collector
    (:func:`gc.freeze`): the interpreter's final collections would otherwise
    walk all of pandas' and pyarrow's module objects, about 0.15 s of a
    0.7 s run, to free memory the operating system reclaims anyway.
    """
    import gc
    import os

    code = main()
    if "duckdb" in sys.modules:
        # DuckDB's bindings report objects still alive at interpreter exit as
        # "leaks" on stderr; the work is done and flushed, so leave at once.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    gc.freeze()
    raise SystemExit(code)
