"""The perturbative options of ``anonymize`` (issue 30): cells, not classes, change.

``--local-suppression --k K [--importance COL=N ...]`` blanks single QI cells
(no generalization; same rows in the same order); ``--microaggregate
COL[,COL...] --aggregation-k K [--method mdav]`` replaces numbers by group
means; ``--pram COL --pram-p P --seed S`` randomizes a category; ``--noise
COL=PCT --seed S`` adds noise. Any of them makes ``anonymize`` perturb instead of
searching the generalization lattice; they run in the order microaggregation,
noise, PRAM, local suppression (so k holds on the released values), and the
recipe records each step with its seed (PRAM with its matrix).

Local suppression gets the dashboard's time budget (``RISKCORE_TIME_LIMIT`` seconds,
default :data:`riskcore.workguard.DEFAULT_SECONDS`), checked before each round: past it
the command stops with a sentence and exit code 2 (issue 37: just under its cell limit it
ran past 400 s with no budget).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from riskcore.cli.common import column_pairs
from riskcore.errors import RiskcoreError

__all__ = ["LOCAL_SUPPRESSION_ADVICE", "add_perturb_arguments", "perturbing", "run_perturb"]

#: What to do when local suppression runs past its time budget on the command line.
LOCAL_SUPPRESSION_ADVICE = (
    "use fewer quasi-identifiers, generalize them first (anonymize without "
    "--local-suppression), or work on a sample or on each stratum apart"
)


def add_perturb_arguments(a: Any) -> None:
    """Add the perturbative options to the ``anonymize`` parser.

    Parameters
    ----------
    a : argparse.ArgumentParser
        The ``anonymize`` parser.
    """
    g = a.add_argument_group("perturbation (instead of generalization)")
    g.add_argument(
        "--local-suppression",
        action="store_true",
        help="blank single QI cells until every record matches --k records, a missing value "
        "matching any value (sdcMicro's localSuppression)",
    )
    g.add_argument(
        "--importance",
        action="append",
        default=[],
        metavar="COL=N",
        help="importance of a QI for --local-suppression (1 = suppressed last); give every QI "
        "or none (default: sdcMicro's, by number of values)",
    )
    g.add_argument(
        "--microaggregate",
        action="append",
        default=[],
        metavar="COL[,COL...]",
        help="replace these numeric columns by the means of groups of --aggregation-k records",
    )
    g.add_argument("--aggregation-k", type=int, default=3, metavar="K", help="(default 3)")
    g.add_argument("--method", choices=("mdav", "single"), default="mdav")
    g.add_argument(
        "--pram", action="append", default=[], metavar="COL", help="randomize by invariant PRAM"
    )
    g.add_argument(
        "--pram-p",
        type=float,
        default=0.8,
        metavar="P",
        help="PRAM's pd, the least diagonal drawn for its basic matrix (default 0.8; the "
        "matrix applied can keep a value less often)",
    )
    g.add_argument(
        "--noise",
        action="append",
        default=[],
        metavar="COL=PCT",
        help="add normal noise with a standard deviation of PCT percent of the column's",
    )
    g.add_argument("--seed", type=int, default=None, help="the seed of --pram and --noise")


def perturbing(args: argparse.Namespace) -> bool:
    """Return whether any perturbative option was given.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the command.

    Returns
    -------
    bool
        True when a perturbative option (noise, microaggregation, PRAM, local
        suppression) is given.
    """
    return bool(
        getattr(args, "local_suppression", False)
        or getattr(args, "microaggregate", [])
        or getattr(args, "pram", [])
        or getattr(args, "noise", [])
    )


def _number(flag: str, col: str, text: str, kind: type) -> Any:
    try:
        return kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise RiskcoreError(f"{flag} {col}: write {what}, not {text!r}") from None


def _perturb(
    raw: Any, args: argparse.Namespace, qis: list[str], person: str | None = None
) -> tuple[Any, list[Any]]:
    """Run the options' steps in order, each by its registered method; return the table
    and the results (:data:`riskcore.perturb.steps.METHODS`)."""
    from riskcore.perturb.steps import get_method, perturb_step, run_step
    from riskcore.workguard import Deadline, time_limit

    if (args.pram or args.noise) and args.seed is None:
        raise RiskcoreError("--pram and --noise draw at random: give --seed S to repeat them")
    steps: list[dict[str, Any]] = []
    for spec in args.microaggregate:
        cols = [c.strip() for c in spec.split(",") if c.strip()]
        params = {"k": args.aggregation_k, "method": args.method}
        steps.append({"method": "microaggregation", "columns": cols, "params": params})
    if args.noise:
        pct = {
            c: _number("--noise", c, v, float)
            for c, v in column_pairs(args.noise, "--noise", "COL=PCT").items()
        }
        steps.append({"method": "noise", "columns": list(pct), "params": {"percent": pct},
                      "seed": args.seed})  # fmt: skip
    for i, col in enumerate(args.pram):
        steps.append({"method": "pram", "columns": [col], "params": {"pd": args.pram_p},
                      "seed": args.seed + i})  # fmt: skip
    if args.local_suppression:
        if args.k is None:
            raise RiskcoreError("--local-suppression needs --k K (every record matches K records)")
        if not qis:
            raise RiskcoreError("--local-suppression needs the quasi-identifiers: --qi COL")
        imp = {
            c: _number("--importance", c, v, int)
            for c, v in column_pairs(args.importance, "--importance", "COL=N").items()
        }
        params = {"k": args.k, "importance": imp or None, "restore_cells": True,
                  "lowest_last": True, "person": person}  # fmt: skip
        steps.append({"method": "local_suppression", "columns": qis, "params": params})
    elif args.importance:
        raise RiskcoreError("--importance goes with --local-suppression")
    results: list[Any] = []
    work = raw
    for step in map(perturb_step, steps):
        progress = None  # a budgeted method's (local suppression's) budget starts with it
        if get_method(step.operation).budgeted:
            label = step.operation.replace("_", " ").capitalize()
            progress = Deadline(time_limit(), label, LOCAL_SUPPRESSION_ADVICE).watch()
        results.append(run_step(work, step, progress=progress))
        work = results[-1].data
    return work, results


def run_perturb(args: argparse.Namespace) -> int:
    """Run ``anonymize`` with perturbative options; return the exit code (2 on bad input).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the command.

    Returns
    -------
    int
        The exit code: 0 the perturbed release and its recipe written, 2 bad input or
        local suppression past its time budget (a message on stderr).
    """
    from riskcore._results import dumps
    from riskcore.cli.args import profile_from_args
    from riskcore.cli.common import load as _load
    from riskcore.cli.release import before_steps, write_release
    from riskcore.deidentify.recipe.base import Recipe
    from riskcore.perturb import numeric_risk_utility
    from riskcore.perturb.steps import numeric_columns, record_step

    try:
        profile = profile_from_args(args, quasi_identifiers=args.qi)
        qis = list(profile.roles.quasi_identifiers)
        raw = _load(args.data)
        person = profile.roles.person
        # the masking steps run first, as apply runs them (they were once ignored here)
        before = before_steps(args, raw, profile.roles, profile.targets)
        out, results = _perturb(before.applied.data, args, qis, person)
        steps = [record_step(r) for r in results]
        recipe = Recipe.of(
            {},
            {},
            profile.targets,
            missing="any",
            safe_harbor=before.recipe.safe_harbor,
            date_shift=before.recipe.date_shift,
            masking=before.recipe.masking,
            key=before.key,
            perturb=steps,
            person=person,
        )
        numeric = numeric_columns(steps)
        given = before.applied.data  # the table the perturbation starts from
        unperturbed = numeric_risk_utility(given, given, numeric) if numeric else None
        after = numeric_risk_utility(given, out, numeric) if numeric else None
        # with the surrogates' lookup table too (--lookup-out was once ignored here)
        written = write_release(args, raw, before, out, recipe, profile, missing="any")
    except (RiskcoreError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    summary: dict[str, Any] = {
        **written.summary(),
        # each method's step and result under its own key (under "steps" it was once overwritten)
        "perturbation": [
            {**step.to_dict(), "result": r.to_dict()}
            for step, r in zip(steps, results, strict=True)
        ],
    }
    if after is not None and unperturbed is not None:
        summary |= {
            "numeric_columns": numeric,
            "drisk": after.drisk,
            "il1s": after.il1s,
            "il1s_per_cell": after.il1s_per_cell,
            "before": {
                "drisk": unperturbed.drisk,
                "il1s": unperturbed.il1s,
            },
        }
    if args.format == "json":
        print(dumps(summary))
        return 0
    from riskcore.report.readings.perturb import perturb_lines

    for line in perturb_lines(results, unperturbed, after):
        print(line)
    written.print()
    return 0
