"""The command line's ``records`` command: the per-record risk table (issue 15).

``python -m riskcore records DATA --qi COL ... [--weights COL] --out RISK.csv``
writes one row per input record, in input order, with the columns of
:data:`riskcore.criteria.records.RECORD_COLUMNS` (``failing_targets`` judged by the
profile's targets through :mod:`riskcore.criteria`; with ``--household`` also
``household_risk`` beside ``individual_risk``), formula-safe
(:func:`riskcore.io.export.write_table`), and prints the expected number of
re-identifications. Heavy imports happen inside the handler.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from riskcore.cli.args import DATA_HELP, add_memory_engine, add_missing, add_targets
from riskcore.errors import RiskcoreError

__all__ = ["add_parser", "run_records"]


def add_parser(sub: Any) -> None:
    """Add the ``records`` sub-command to the parser's sub-parsers.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The sub-parsers of the ``riskcore`` parser (``add_subparsers``).
    """
    r = sub.add_parser(
        "records",
        help="per-record risk table: class size, prosecutor / individual risk, SUDA, targets",
    )
    r.add_argument("data", help=DATA_HELP)
    add_memory_engine(r, "records")
    r.add_argument("--qi", action="append", default=[], metavar="COL", help="(or the --profile's)")
    r.add_argument(
        "--weights", default=None, metavar="COL", help="sampling-weight column (numbers >= 1)"
    )
    r.add_argument(
        "--sampling-fraction",
        type=float,
        default=None,
        metavar="PI",
        help="n/N when every record has the weight 1/PI (not with --weights)",
    )
    r.add_argument(
        "--method",
        choices=("exact", "approx"),
        default="exact",
        help="individual risk: E[1/F|f] (exact) or sdcMicro's default approximation",
    )
    add_targets(r)
    r.add_argument("--max-msu-size", type=int, default=None, help="largest MSU searched")
    r.add_argument(
        "--dis-fraction",
        type=float,
        default=None,
        help="sampling fraction of DIS-SUDA (default --sampling-fraction, else 0.01)",
    )
    add_missing(r)
    r.add_argument("--out", required=True, help="the table: .csv, .tsv, .parquet or .xlsx")


def run_records(args: argparse.Namespace, load: Any) -> int:
    """Run ``records``: compute the table, write it, print the summary; return the exit code.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the command.
    load : callable
        Reads a table from a path or a demo name (:func:`riskcore.cli.common.load`).

    Returns
    -------
    int
        The exit code: 0 the table written (a record failing a target is a row, not an
        error), 2 bad input (a message on stderr).
    """
    from riskcore.cli.args import profile_from_args
    from riskcore.criteria.records import record_table
    from riskcore.engine import EncodedTable
    from riskcore.io.export import write_table
    from riskcore.metrics.missing import count_missing
    from riskcore.metrics.records import record_individual_risk
    from riskcore.report.readings import missing_reading
    from riskcore.report.readings.records import individual_risk_reading

    try:
        profile = profile_from_args(args, quasi_identifiers=args.qi)
        qis = list(profile.roles.quasi_identifiers)
        if not qis:
            raise RiskcoreError("give the quasi-identifiers: --qi COL (or a --profile with them)")
        if args.sampling_fraction is not None and not 0 < args.sampling_fraction <= 1:
            raise RiskcoreError("--sampling-fraction must be in (0, 1]")
        if args.dis_fraction is not None and not 0 < args.dis_fraction <= 1:
            raise RiskcoreError("--dis-fraction must be in (0, 1]")
        if args.weights is not None and args.sampling_fraction is not None:
            raise RiskcoreError("give sampling weights or a sampling fraction, not both")
        table = EncodedTable(load(args.data))
        model: dict[str, Any] = {
            "weights": profile.roles.weight,
            "sampling_fraction": profile.sampling_fraction,
            "method": args.method,
            "missing": profile.missing,
            "person": profile.roles.person,
        }
        ir = record_individual_risk(table, qis, threshold=profile.threshold, **model)
        out = record_table(
            table,
            qis,
            targets=profile.targets,
            sensitive=profile.roles.sensitive,
            distance=profile.distances,
            order=profile.orders,
            hierarchy=profile.sensitive_hierarchies,
            max_msu_size=args.max_msu_size,
            dis_fraction=args.dis_fraction,
            events=profile.events,
            household=profile.household,
            **model,
        )
        write_table(out, args.out)
    except (RiskcoreError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    failing = int((out["failing_targets"] != "").sum())
    person = profile.roles.person
    print(individual_risk_reading(ir))
    print(
        missing_reading(
            profile.missing,
            count_missing(table.classes(qis, person=person)),
            people=person is not None,
        )
    )
    print(f"{failing:,} of {len(out):,} records are in a class failing a target.")
    if profile.household is not None:
        print(
            f"Household risk ({profile.household}): the highest is "
            f"{float(out['household_risk'].max()):.4g}; each row's is in household_risk, beside "
            "its individual_risk."
        )
    print(f"Wrote {len(out):,} rows to {args.out}.")
    return 0
