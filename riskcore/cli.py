"""Command line: ``python -m riskcore assess DATA --qi COL [--qi COL ...] ...``.

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
import contextvars
import functools
import io
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from riskcore.errors import RiskcoreError

if TYPE_CHECKING:
    import pandas as pd

    from riskcore.engine import Engine

# pandas, numpy and the metrics are imported inside main(), after the
# arguments are parsed, so `--help` and usage errors answer at once.

__all__ = ["main", "run"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # exit 2 with a plain message
        self.print_usage(sys.stderr)
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Return the parser: every sub-command, or ``assess`` alone when ``command`` is "assess".

    ``assess`` alone spares its run the imports of the other sub-commands'
    options (the remediation code among them).
    """
    p = _Parser(prog="riskcore", description="Privacy-risk assessment of a table.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _add_assess(sub)
    from riskcore._cli_args import add_decimal

    if command == "assess":
        add_decimal(sub)
        return p
    from riskcore._cli_app import add_parser as add_app
    from riskcore._cli_deidentify import add_parsers
    from riskcore._cli_records import add_parser as add_records
    from riskcore._cli_report import add_parser as add_report
    from riskcore._cli_store import add_parser as add_audit

    add_parsers(sub)
    add_records(sub)
    add_report(sub)
    add_audit(sub)
    add_app(sub)
    add_decimal(sub)
    return p


def _add_assess(sub: Any) -> None:
    """Add the ``assess`` sub-command and its options."""
    from riskcore._cli_args import add_missing, add_targets

    a = sub.add_parser("assess", help="k-anonymity, risk, l-diversity and t-closeness")
    a.add_argument(
        "data",
        help=(
            "CSV, Parquet or .xlsx file, or 'demo' / 'demo:N' (people) or 'claims' / "
            "'claims:N' (patients' visits) for demo data; with --engine "
            "arrow / duckdb / spark also a directory or a glob of Parquet (or CSV) files"
        ),
    )
    a.add_argument(
        "--qi",
        action="append",
        default=[],
        metavar="COL",
        help="a quasi-identifier column (repeat for each; or the --profile's)",
    )
    add_targets(a)
    a.add_argument(
        "--fail-on-targets",
        action="store_true",
        help="exit 1 when a target fails (after writing the output), for pipelines",
    )
    a.add_argument(
        "--profile-out",
        default=None,
        metavar="P.json",
        help="write the assessment profile of these options (roles, targets, policy)",
    )
    a.add_argument(
        "--distance",
        action="append",
        default=[],
        metavar="COL=ordered|equal|hierarchical",
        help="t-closeness ground distance for one attribute (default by type); hierarchical "
        "needs --hierarchy COL=SPEC",
    )
    a.add_argument(
        "--hierarchy",
        action="append",
        default=[],
        metavar="COL=SPEC",
        help="the hierarchy of a sensitive attribute for the hierarchical t-closeness "
        "distance: a file in ARX's CSV format (value;level 1;...;*) or a builder string "
        "(docs/hierarchy-builder.md); kept in --profile-out",
    )
    a.add_argument(
        "--order",
        action="append",
        default=[],
        metavar="COL=LOWEST,...,HIGHEST",
        help=(
            "order of a sensitive attribute's values for the ordered t-closeness distance "
            "(needed for text; implies --distance COL=ordered); values are split at commas"
        ),
    )
    a.add_argument(
        "--sampling-fraction",
        type=float,
        default=None,
        help="n/N when the data are a sample: adds journalist and marketer risk",
    )
    a.add_argument(
        "--weights",
        default=None,
        metavar="COL",
        help="sampling-weight column (numbers >= 1): journalist and marketer risk with the "
        "population class sizes estimated as the weight sums (not with --sampling-fraction)",
    )
    add_missing(a)
    a.add_argument(
        "--engine",
        choices=("auto", "pandas", "arrow", "duckdb", "spark"),
        default="auto",
        help=(
            "what reads the data: pandas (in memory), arrow (Parquet streamed), duckdb, "
            "spark; auto keeps a file under 1 GiB in memory (a CSV read by pyarrow, without "
            "pandas: the same figures) and streams larger files, directories and globs "
            "(default auto)"
        ),
    )
    a.add_argument("--format", choices=("text", "json"), default="text")


#: The ``--decimal`` of the running command (None: found in each file), read by every load.
_DECIMAL: contextvars.ContextVar[str | None] = contextvars.ContextVar("decimal", default=None)


def _load(spec: str) -> pd.DataFrame:
    from riskcore.demo import is_demo, load_demo

    if is_demo(spec):
        return load_demo(spec)
    from riskcore.io import load_table

    return load_table(spec, decimal=_DECIMAL.get()).data


def _assess_engine(
    args: argparse.Namespace, *, weights: bool, columns: Sequence[str] | None = None
) -> Engine:
    """Return the engine ``assess`` reads the data with: without pandas wherever it can.

    A CSV / TSV file that ``--engine auto`` keeps in memory is read by
    :func:`riskcore.io.load_arrow` into an :class:`~riskcore.engine.columnar.ArrowTable`
    (pyarrow and numpy: the same figures as the pandas engine, without
    importing pandas). The pandas engine reads everything else: Parquet and
    ``.xlsx`` files, the demo data, ``--engine pandas``, and ``--weights``, event
    columns or a household column (``weights``: the weight sums, the visits and
    the households need each record, which only
    :class:`~riskcore.engine.EncodedTable` answers). ``columns``: the only
    columns the Arrow path reads (the QIs and sensitive attributes).
    """
    from riskcore.engine.select import open_engine, resolve_engine

    spec = args.data
    if args.engine == "auto" and not weights and resolve_engine(spec, "auto") == "pandas":
        from riskcore.demo import is_demo

        if not is_demo(spec):
            from riskcore.engine.columnar import ArrowTable
            from riskcore.io import load_arrow

            table = load_arrow(spec, columns=columns, decimal=_DECIMAL.get())
            if table is not None:
                return ArrowTable(table)
    return open_engine(spec, args.engine, load=_load)


def _typed_order(engine: Engine, column: str, values: list[str]) -> list[object]:
    """Return the values of ``--order`` as the column holds them (a CSV's 1 is a number).

    Each value given is matched to the column's value with the same text;
    a value the column does not hold is an error, so a typo cannot drop a
    value from the order unnoticed.
    """
    if column not in engine.columns:
        raise RiskcoreError(f"--order names {column!r}, which is not a column of the data")
    from riskcore.engine.select import distinct_values

    held = {str(v): v for v in distinct_values(engine, column)}
    absent = [v for v in values if v not in held]
    if absent:
        raise RiskcoreError(
            f"--order {column}: {absent[0]!r} is not a value of the column "
            f"(its values: {', '.join(sorted(held)[:20])}{' ...' if len(held) > 20 else ''})"
        )
    return [held[v] for v in values]


#: Characters never printed as they are: C0 controls but tab and newline (ESC starts a
#: terminal escape code: colours, a fake "PASS", a hidden link), DEL, C1 controls, and the
#: direction controls (U+202E reverses the text after it).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def escape_controls(text: str) -> str:
    r"""Return ``text`` with every control character written as an escape (``\x1b``, ``\u202e``).

    Parameters
    ----------
    text : str
        Text from a file or a user, about to be printed to a terminal.

    Returns
    -------
    str
    """
    return _CONTROL.sub(
        lambda m: f"\\x{ord(m[0]):02x}" if ord(m[0]) < 0x100 else f"\\u{ord(m[0]):04x}", text
    )


class _Escaped(io.TextIOBase):
    """A text stream that writes through :func:`escape_controls` (the CLI's stdout, stderr)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, s: str) -> int:
        self._stream.write(escape_controls(s))
        return len(s)

    def flush(self) -> None:
        self._stream.flush()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code.

    Everything printed (results and messages) has its control characters
    escaped (:func:`escape_controls`): a column name holding terminal escape
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
        from riskcore._cli_app import run_app  # everything after `app` goes to Streamlit

        return run_app(args_list[1:])
    if args_list[:1] == ["audit"]:
        return _main(args_list)
    with (
        contextlib.redirect_stdout(_Escaped(sys.stdout)),
        contextlib.redirect_stderr(_Escaped(sys.stderr)),
    ):
        return _main(args_list)


def _main(argv: list[str]) -> int:
    if argv[:2] == ["report", "verify"]:  # a sub-action of report, parsed on its own
        from riskcore._cli_report import run_verify

        return run_verify(argv[2:])
    args = _build_parser(argv[0] if argv else None).parse_args(argv)
    decimal = getattr(args, "decimal", "auto")
    _DECIMAL.set(None if decimal == "auto" else decimal)
    if args.command in ("anonymize", "apply", "records", "report"):
        from riskcore.engine.select import check_supported

        try:
            check_supported(args.command, args.engine)
        except RiskcoreError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    if args.command in ("anonymize", "apply"):
        from riskcore import _cli_deidentify
        from riskcore._cli_engine_remediate import run_engine_command

        on_engine = run_engine_command(args)  # None: the in-memory path
        if on_engine is not None:
            return on_engine

        run_cmd = (
            _cli_deidentify.run_anonymize
            if args.command == "anonymize"
            else _cli_deidentify.run_apply
        )
        return run_cmd(args)
    if args.command == "records":
        from riskcore._cli_records import run_records

        return run_records(args, _load)
    if args.command == "audit":
        from riskcore._cli_store import run_audit

        return run_audit(args)
    if args.command == "report":
        from riskcore._cli_report import run_report

        return run_report(args, _load)
    return _run_assess(args)


def _distinct(engine: Engine, column: str) -> Any:
    """Return the distinct values of ``column`` as a pandas Series (to build a hierarchy on)."""
    import pandas as pd

    from riskcore.engine.select import distinct_values

    return pd.Series(distinct_values(engine, column), name=column)


def _run_assess(args: argparse.Namespace) -> int:
    """Run ``assess``: the assessment, the verdict, the profile; return the exit code."""
    from riskcore._cli_args import distance_options, profile_from_args
    from riskcore._results import dumps
    from riskcore.criteria import evaluate
    from riskcore.metrics import Population, assess
    from riskcore.report.summary import assessment_text, verdict_text

    try:
        profile = profile_from_args(args, qis=args.qi)
        roles = profile.roles
        if not roles.quasi_identifiers:
            raise RiskcoreError("give the quasi-identifiers: --qi COL (or a --profile with them)")
        for item in args.hierarchy:
            col = item.partition("=")[0]
            if col not in roles.sensitive:
                raise RiskcoreError(
                    f"--hierarchy {item!r}: assess takes the hierarchy of a --sensitive column "
                    "(for --distance COL=hierarchical)"
                )
        orders: dict[str, list[str]] = {}
        for item in args.order:
            col, sep, values = item.partition("=")
            if not sep or not col or not values:
                raise RiskcoreError(f"--order {item!r}: write COLUMN=LOWEST,...,HIGHEST")
            orders[col] = values.split(",")
        unknown = set(orders) - set(roles.sensitive)
        if unknown:
            raise RiskcoreError(f"--order names {sorted(unknown)[0]!r}, not a --sensitive column")
        if args.weights is not None and args.sampling_fraction is not None:
            raise RiskcoreError("give --weights or --sampling-fraction, not both")
        if args.sampling_fraction is not None and not 0 < args.sampling_fraction <= 1:
            raise RiskcoreError("--sampling-fraction must be in (0, 1]")
        population = None
        if roles.weight is not None:
            population = Population(weights=roles.weight)
        elif profile.sampling_fraction is not None:
            population = Population(sampling_fraction=profile.sampling_fraction)
        recursive = profile.targets.find("recursive-cl-diversity")
        c = float(getattr(recursive, "c", args.c if args.c is not None else 2.0))
        per_row = bool(profile.events) or profile.household is not None
        engine = _assess_engine(
            args,
            weights=roles.weight is not None or per_row,
            columns=[
                *roles.quasi_identifiers,
                *roles.sensitive,
                *([roles.person] if roles.person else []),
            ],
        )
        profile = distance_options(args, profile, functools.partial(_distinct, engine))
        distance: dict[str, str] = dict(profile.distances)
        order: dict[str, list[object]] = {c_: list(v) for c_, v in profile.orders.items()}
        order.update({col: _typed_order(engine, col, v) for col, v in orders.items()})
        result = assess(
            engine,
            quasi_identifiers=roles.quasi_identifiers,
            sensitive=roles.sensitive,
            c=c,
            threshold=profile.threshold,
            distance=distance or None,
            order=order or None,
            population=population,
            missing=profile.missing,
            person=roles.person,
            events=profile.events,
            m=profile.m,
            event_k=profile.event_k,
            household=profile.household,
            hierarchy=profile.sensitive_hierarchies or None,
        )
        if result.evidence is None:
            raise RiskcoreError("the assessment gave no evidence to judge the targets on")
        verdict = evaluate(profile.targets, result.evidence)
        if args.profile_out:
            from pathlib import Path

            saved = profile.with_(
                distances=distance,
                orders={c_: tuple(map(str, v)) for c_, v in orders.items()}
                | {c_: v for c_, v in profile.orders.items() if c_ not in orders},
            )
            Path(args.profile_out).write_text(saved.to_json() + "\n", encoding="utf-8")
    except (RiskcoreError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.format == "json":
        print(
            dumps(
                {
                    **result.to_dict(),
                    "targets": profile.targets.to_dict(),
                    "context": None if profile.context is None else profile.context.to_dict(),
                    "verdict": verdict.to_dict(),
                }
            )
        )
    else:
        print(assessment_text(result))
        print(verdict_text(verdict, profile.targets))
        if profile.context is not None:  # the threshold's context, and the overall risk
            from riskcore.report.readings.context import context_reading, overall_reading

            c = profile.context
            print("Context: " + context_reading(c, carried=c.carried_by(profile.targets)))
            overall = overall_reading(c, verdict.checks)
            if overall:
                print(overall)
    return 1 if args.fail_on_targets and not verdict.passed else 0


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
