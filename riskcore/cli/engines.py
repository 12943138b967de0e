"""``anonymize`` and ``apply`` with ``--engine arrow|duckdb|spark``: remediation beyond memory.

The options are the in-memory commands' (:mod:`riskcore.cli.release`), plus
``--partition-by`` and ``--memory-limit``; the work is
:mod:`riskcore.deidentify.on_engine`: the engine's level-0 class table, the exact
search on it, the release written by the engine as Parquet. ``--engine auto``
takes this path for Parquet directories, globs and files over 1 GiB
(:func:`riskcore.engine.select.resolve_engine`); CSV stays in memory. The steps
that work on each record are refused with a sentence.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from riskcore.errors import RiskcoreError

__all__ = ["ENGINE_REMEDY", "add_remediation_engine", "run_engine_command"]

#: What ``anonymize`` on an engine offers for a direct identifier no step treats.
ENGINE_REMEDY = (
    "drop them from the Parquet data, generalize them (--qi COL, with --levels COL=1:MAX to "
    "keep them above level 0), or mask them in memory (--engine pandas --mask COL=OP)"
)


def add_remediation_engine(parser: Any, command: str) -> None:
    """Add ``--engine``, ``--partition-by`` and ``--memory-limit`` to ``anonymize`` / ``apply``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The sub-command's parser.
    command : str
        Its name, for the help.
    """
    parser.add_argument(
        "--engine",
        choices=("auto", "pandas", "arrow", "duckdb", "spark"),
        default="auto",
        help=f"where {command} runs: pandas (in memory, every step) or arrow / duckdb / spark "
        "over Parquet files, directories and globs (the class table and the release computed "
        "by the engine, written as Parquet; generalization and suppression only); default "
        "auto: Parquet directories, globs and files over 1 GiB on arrow, the rest in memory",
    )
    parser.add_argument(
        "--partition-by",
        action="append",
        default=[],
        metavar="COL",
        help="engines: write the release as a directory of Parquet files partitioned by COL "
        "(Hive style, COL=value/); --out is then a new or empty directory",
    )
    parser.add_argument(
        "--memory-limit",
        default=None,
        metavar="SIZE",
        help="duckdb: its memory limit, e.g. 3GB (above it DuckDB spills to a temporary directory)",
    )


def _engine(args: argparse.Namespace) -> str | None:
    """Return the engine ``args`` asks for, or None for the in-memory path."""
    from riskcore.engine.grouped import CSV_SUFFIXES
    from riskcore.engine.select import resolve_engine

    name = resolve_engine(str(args.data), args.engine)
    if name == "pandas":
        return None
    if args.engine == "auto" and str(args.data).lower().endswith(CSV_SUFFIXES):
        return None  # a large CSV: loaded, as before engines remediated
    return name


def run_engine_command(args: argparse.Namespace) -> int | None:
    """Run ``anonymize`` or ``apply`` on an engine; None when the in-memory path applies.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int or None
        The exit code (2 with a message on bad input; ``apply``: 1 when the
        recipe's node no longer meets its targets), or None.
    """
    try:
        engine = _engine(args)
        if engine is None:
            if args.partition_by or args.memory_limit:
                raise RiskcoreError(
                    "--partition-by and --memory-limit apply to --engine arrow, duckdb or "
                    "spark (Parquet); this table is remediated in memory"
                )
            return None
        if args.command == "anonymize":
            return _anonymize(args, engine)
        return _apply(args, engine)
    except (RiskcoreError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _refuse(args: argparse.Namespace, engine: str, options: dict[str, Any]) -> None:
    given = [flag for flag, value in options.items() if value]
    if given:
        raise RiskcoreError(
            f"{given[0]} works on each record, which the {engine} engine does not hold: run it "
            "in memory (--engine pandas), or remediate on the engine without it"
        )


def _table(args: argparse.Namespace, engine: str) -> Any:
    from riskcore.deidentify.on_engine import SourceTable

    return SourceTable(args.data, engine, memory_limit=args.memory_limit)


def _anonymize(args: argparse.Namespace, engine: str) -> int:
    import pandas as pd

    from riskcore._results import dumps
    from riskcore.cli.args import anonymize_inputs, distance_options
    from riskcore.cli.perturb import perturbing
    from riskcore.cli.release import (
        allowed_columns,
        hierarchies_of,
        no_node_error,
        print_steps,
        released_steps,
        search_recipe,
        steering_of,
        write_recipe,
    )
    from riskcore.deidentify.on_engine import anonymize_source, check_out, hierarchy_values
    from riskcore.deidentify.recipe.base import Recipe
    from riskcore.deidentify.recipe.identifiers import (
        check_identifiers,
        detect_identifiers,
        record_allowed,
    )
    from riskcore.report.readings import removed_column_warnings
    from riskcore.utility.objectives import OBJECTIVES

    _refuse(args, engine, {
        "perturbation": perturbing(args), "--safe-harbor": args.safe_harbor,
        "--mask": args.mask, "--shift-dates": args.shift_dates,
        "--lookup-out": args.lookup_out, "--key-file": args.key_file,
    })  # fmt: skip
    profile, targets, sensitive, population, reference = anonymize_inputs(args)
    if profile.roles.weight:
        _refuse(args, engine, {f"the sampling-weight column {profile.roles.weight!r}": True})
    # the engines count rows: people, their visits and households are counted in memory
    _refuse(args, engine, {
        f"the person column {profile.roles.person!r}": profile.roles.person,
        "--event": profile.events, "--household": profile.household,
    })  # fmt: skip
    args.qi = list(profile.roles.quasi_identifiers)
    table = _table(args, engine)
    table.check_columns((*args.qi, *sensitive, *args.sensitive))
    check_out(args.out, args.partition_by, table.columns)  # its sentence first, as before
    # the direct identifiers, detected on the first records (the engine never holds them all)
    sample = table.head()
    allowed = allowed_columns(args)
    found = detect_identifiers(sample, tagged=profile.roles.identifiers)
    nothing = Recipe((), (), {}, targets.to_dict())
    check_identifiers(
        sample, nothing, allowed, detected=found, pending=args.qi, remedy=ENGINE_REMEDY
    )

    def chosen(levels: dict[str, int]) -> None:
        """Refuse, before anything is written, a direct identifier the search kept at level 0."""
        node = Recipe(tuple(levels), tuple(levels.values()), {}, targets.to_dict())
        check_identifiers(sample, node, allowed, detected=found, remedy=ENGINE_REMEDY)

    values: dict[str, pd.Series] = hierarchy_values(table, args.qi, sensitive)
    for s in args.sensitive:  # present (checked above); only their names are read
        values.setdefault(s, pd.Series([], dtype=object, name=s))
    hierarchies = hierarchies_of(values, args, sensitive=sensitive)
    profile = distance_options(args, profile, values.__getitem__)
    steering = steering_of(args)
    result, lattice, release = anonymize_source(
        table,
        hierarchies,
        args.out,
        sensitive=sensitive,
        targets=targets,
        distance=profile.distances,
        order=profile.orders,
        sensitive_hierarchies=profile.sensitive_hierarchies,
        missing=profile.missing,
        sampling_fraction=profile.sampling_fraction,
        steering=steering,
        population_table=population,
        objective=args.objective,
        suppression=args.suppression,
        partition_by=args.partition_by,
        before_write=chosen,
    )
    best = result.best
    if best is None or release is None:
        raise no_node_error(targets)
    recipe = search_recipe(
        args,
        profile,
        hierarchies,
        release.levels,
        targets,
        sensitive=sensitive,
        steering=steering,
        reference=reference,
    )
    identifiers = check_identifiers(sample, recipe, allowed, detected=found)  # checked before
    recipe = record_allowed(recipe, identifiers)
    write_recipe(args, recipe, profile)
    warnings = removed_column_warnings(result, lattice.quasi_identifiers)
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if args.format == "json":
        print(dumps({
            "engine": engine, "levels": release.levels,
            "hierarchies": {q: h.kind for q, h in hierarchies.items()},
            "heights": dict(zip(lattice.quasi_identifiers, lattice.heights, strict=True)),
            "best": best.to_dict(), "lattice_size": result.lattice_size,
            "evaluated": result.evaluated, "objective": args.objective,
            "loss": best.loss(args.objective), "removed": list(result.removed),
            "warnings": warnings, "seconds": release.seconds,
            "rows_written": release.rows_written, "out": release.out,
            "recipe": str(args.recipe_out), **released_steps(recipe, identifiers),
        }))  # fmt: skip
        return 0
    heights = dict(zip(lattice.quasi_identifiers, lattice.heights, strict=True))
    print("Levels: " + ", ".join(f"{q} {lv} of {heights[q]}" for q, lv in release.levels.items()))
    print(
        f"k = {best.k:,}; suppressed {best.suppressed:,} of {lattice.n:,} records "
        f"({best.suppressed / max(lattice.n, 1):.2%}); {best.n_classes:,} classes released"
    )
    print(
        f"Searched {result.evaluated:,} of {result.lattice_size:,} nodes (exact least "
        f"{OBJECTIVES[args.objective].label}, {best.loss(args.objective):.4f}) on the {engine} "
        f"engine's class table; " + _times(release.seconds)
    )
    print_steps(recipe, identifiers)
    print(
        f"Wrote {release.rows_written:,} rows to {release.out} and the recipe to {args.recipe_out}"
    )
    return 0


def _times(seconds: dict[str, float]) -> str:
    return ", ".join(f"{k} {v:.2f} s" for k, v in seconds.items())


def _apply(args: argparse.Namespace, engine: str) -> int:
    from riskcore._files import read_regular
    from riskcore._json import JSON_MAX_BYTES, read_json
    from riskcore._results import dumps
    from riskcore.cli.release import (
        allowed_columns,
        apply_remedy,
        population_reference,
        print_steps,
        released_steps,
    )
    from riskcore.deidentify.on_engine import apply_recipe_to_source, record_steps
    from riskcore.deidentify.recipe.check import check_recipe, read_recipe
    from riskcore.deidentify.recipe.identifiers import check_identifiers

    _refuse(args, engine, {"--lookup-out": args.lookup_out, "--key-file": args.key_file})
    spec = read_json(
        read_regular(args.recipe, what="the recipe", limit=JSON_MAX_BYTES),
        what=f"the recipe {Path(args.recipe).name!r}",
    )
    try:
        rec = read_recipe(spec)  # known version, identifiers masked, sealed
        steps = record_steps(rec)
        if steps:
            raise RiskcoreError(
                f"the recipe has steps that work on each record ({'; '.join(steps)}), which "
                f"the {engine} engine does not run: apply it in memory (--engine pandas)"
            )
        check_recipe(rec, None, sealed=True)
    except (KeyError, TypeError, ValueError) as exc:
        raise RiskcoreError(f"the recipe {args.recipe!r} is not valid: {exc}") from None
    population, _ = population_reference(args, rec.population)
    table = _table(args, engine)
    allowed = allowed_columns(args)
    identifiers = check_identifiers(table.head(), rec, allowed, remedy=apply_remedy(rec, allowed))
    release = apply_recipe_to_source(
        table, rec, args.out, population_table=population, partition_by=args.partition_by
    )
    if args.format == "json":
        print(dumps({**release.to_dict(), **released_steps(rec, identifiers)}))
        return 0 if release.within_limit else 1
    for q, shown in release.unknown_values.items():
        n = release.n_unknown[q]
        hold = "record holds a value" if n == 1 else "records hold values"
        listed = ", ".join(repr(v) for v in shown)
        print(f"{q}: {n:,} {hold} the recipe's hierarchy does not know ({listed}); made '*'")
    print(
        f"Suppressed {release.suppressed:,} records; "
        + ("within" if release.within_limit else "BEYOND")
        + " the recipe's limit"
    )
    times = _times(release.seconds)
    print_steps(rec, identifiers)
    print(f"Wrote {release.rows_written:,} rows to {release.out} ({engine}; {times})")
    return 0 if release.within_limit else 1
