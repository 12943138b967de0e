"""``riskcore apply``: re-apply a recipe to a table and say what no longer fits (issue 13).

Heavy imports happen inside the handler.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from riskcore._files import read_regular
from riskcore.cli.engines import add_remediation_engine
from riskcore.cli.release import (
    add_allow_identifiers,
    add_population,
    allowed_columns,
    apply_remedy,
    population_reference,
    print_steps,
    read_key,
    released_steps,
    same_person,
    write_lookup,
)
from riskcore.errors import RiskcoreError

__all__ = ["add_parser", "run_apply"]


def add_parser(sub: Any) -> None:
    """Add the ``apply`` sub-command and its options to the parser's sub-parsers.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The sub-parsers of the ``riskcore`` parser (``add_subparsers``).
    """
    p = sub.add_parser("apply", help="re-apply a recipe to a table")
    p.add_argument("data", help="CSV, Parquet or .xlsx file")
    add_remediation_engine(p, "apply")
    p.add_argument("--recipe", required=True, help="a recipe written by anonymize")
    p.add_argument(
        "--person",
        default=None,
        metavar="COL",
        help="the column linking the rows of one person: must be the recipe's (a recipe made "
        "with --person counts people, and needs this column in the table)",
    )
    add_population(p)
    add_allow_identifiers(p)
    p.add_argument("--out", required=True, help="remediated table: .csv, .tsv, .parquet, .xlsx")
    p.add_argument(
        "--key-file",
        default=None,
        metavar="FILE",
        help="the key the recipe's keyed steps were made with (hexadecimal text)",
    )
    p.add_argument(
        "--lookup-out", default=None, metavar="FILE", help="the surrogates' lookup table (CSV)"
    )
    p.add_argument("--format", choices=("text", "json"), default="text")


def run_apply(args: argparse.Namespace) -> int:
    """Run ``apply``; return the exit code (2 with a message on bad input).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the command.

    Returns
    -------
    int
        The exit code: 0 written within the recipe's suppression limit, 1 written beyond
        it, 2 bad input or a recipe that does not verify (a message on stderr).
    """
    from riskcore._json import JSON_MAX_BYTES, read_json
    from riskcore._results import dumps
    from riskcore.cli.common import load as _load
    from riskcore.deidentify.recipe.apply import apply_recipe
    from riskcore.deidentify.recipe.base import keyed_steps
    from riskcore.deidentify.recipe.check import check_recipe, read_recipe
    from riskcore.deidentify.recipe.identifiers import check_identifiers
    from riskcore.deidentify.recipe.seal import SEAL_HMAC
    from riskcore.io.export import write_table

    try:
        spec = read_json(
            read_regular(args.recipe, what="the recipe", limit=JSON_MAX_BYTES),
            what=f"the recipe {Path(args.recipe).name!r}",
        )
        df = _load(args.data)
        try:
            rec = read_recipe(spec)  # known version, identifiers masked, sealed
            key = read_key(args.key_file, keyed_steps(rec), create=False)
            if args.key_file is not None and (rec.seal or {}).get("kind") != SEAL_HMAC:
                raise RiskcoreError(
                    "a key was given but the recipe is not sealed with one (its keyed steps "
                    "were removed): use the recipe anonymize wrote with this key"
                )
            check_recipe(rec, key, sealed=True)  # the HMAC, now that the key is read
            same_person(args.person, rec.person)
            population, _ = population_reference(args, rec.population)
        except (KeyError, TypeError, ValueError) as exc:
            raise RiskcoreError(f"the recipe {args.recipe!r} is not valid: {exc}") from None
        allowed = allowed_columns(args)
        identifiers = check_identifiers(df, rec, allowed, remedy=apply_remedy(rec, allowed))
        try:
            applied = apply_recipe(df, rec, key=key, population_table=population)
        except (KeyError, TypeError, ValueError) as exc:
            raise RiskcoreError(f"the recipe {args.recipe!r} is not valid: {exc}") from None
        write_table(applied.data, args.out)
        write_lookup(applied, args.lookup_out)
    except (RiskcoreError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.format == "json":
        print(
            dumps(
                {
                    **applied.to_dict(),
                    "rows_written": len(applied.data),
                    "out": args.out,
                    **released_steps(rec, identifiers),
                }
            )
        )
        return 0
    for q, values in applied.unknown_values.items():
        shown = ", ".join(repr(v) for v in values)
        n = applied.n_unknown[q]
        hold = "record holds a value" if n == 1 else "records hold values"
        print(
            f"{q}: {n:,} {hold} the recipe's hierarchy does not know ({shown}); generalized to '*'"
        )
    unit = "people (all of their rows)" if applied.person is not None else "records"
    print(
        f"Suppressed {applied.suppressed:,} {unit}; "
        + ("within" if applied.within_limit else "BEYOND")
        + " the recipe's limit"
    )
    print_steps(rec, identifiers)
    print(f"Wrote {len(applied.data):,} rows to {args.out}")
    return 0 if applied.within_limit else 1
