"""``riskcore assess``: k-anonymity, risk, l-diversity and t-closeness of a table, and the
verdict on the targets. pandas, numpy and the metrics are imported inside the handler,
so ``--help`` and usage errors answer at once.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from riskcore.cli.common import DECIMAL, load
from riskcore.errors import RiskcoreError

if TYPE_CHECKING:
    from riskcore.engine import Engine

__all__ = ["add_parser", "assess_engine", "run_assess"]


def add_parser(sub: Any) -> None:
    """Add the ``assess`` sub-command and its options.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The sub-parsers of the ``riskcore`` parser (``add_subparsers``).
    """
    from riskcore.cli.args import add_missing, add_targets

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


def assess_engine(
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

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the command.
    weights : bool
        Whether the run needs each record (weights, events, households): the pandas
        engine then reads the data.
    columns : sequence of str, optional
        The only columns the Arrow path reads (the QIs, sensitive attributes and the
        person).

    Returns
    -------
    riskcore.engine.Engine
        An ArrowTable for a CSV kept in memory, else the engine ``--engine`` names.
    """
    from riskcore.engine.select import open_engine, resolve_engine

    spec = args.data
    if args.engine == "auto" and not weights and resolve_engine(spec, "auto") == "pandas":
        from riskcore.demo import is_demo

        if not is_demo(spec):
            from riskcore.engine.columnar import ArrowTable
            from riskcore.io import load_arrow

            table = load_arrow(spec, columns=columns, decimal=DECIMAL.get())
            if table is not None:
                return ArrowTable(table)
    return open_engine(spec, args.engine, load=load)


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


def _distinct(engine: Engine, column: str) -> Any:
    """Return the distinct values of ``column`` as a pandas Series (to build a hierarchy on)."""
    import pandas as pd

    from riskcore.engine.select import distinct_values

    return pd.Series(distinct_values(engine, column), name=column)


def run_assess(args: argparse.Namespace) -> int:
    """Run ``assess``: the assessment, the verdict, the profile; return the exit code.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the command.

    Returns
    -------
    int
        The exit code: 0 success, 1 a target failed under ``--fail-on-targets`` (the
        output printed first), 2 bad input.
    """
    from riskcore._results import dumps
    from riskcore.cli.args import distance_options, profile_from_args
    from riskcore.criteria import evaluate
    from riskcore.metrics import Population, assess
    from riskcore.report.summary import assessment_text, verdict_text

    try:
        profile = profile_from_args(args, quasi_identifiers=args.qi)
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
        population = Population.of(
            weights=roles.weight, sampling_fraction=profile.sampling_fraction
        )
        recursive = profile.targets.find("recursive-cl-diversity")
        c = float(getattr(recursive, "c", args.c if args.c is not None else 2.0))
        per_row = bool(profile.events) or profile.household is not None
        engine = assess_engine(
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
            population_model=population,
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
