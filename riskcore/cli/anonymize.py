"""``riskcore anonymize``: search the generalization lattice for the least-loss node that
meets the targets (:func:`riskcore.deidentify.search.run.search`), write the remediated table
and the recipe (issue 13). Heavy imports happen inside the handler.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from riskcore.cli.args import (
    DATA_HELP,
    add_missing,
    add_targets,
    parse_threshold,
)
from riskcore.cli.engines import add_remediation_engine
from riskcore.cli.perturb import add_perturb_arguments, perturbing, run_perturb
from riskcore.cli.release import (
    ANONYMIZE_REMEDY,
    add_allow_identifiers,
    add_population,
    before_steps,
    hierarchies_of,
    no_node_error,
    search_recipe,
    steering_of,
    write_release,
)
from riskcore.errors import RiskcoreError
from riskcore.utility.objectives import OBJECTIVES

__all__ = ["add_parser", "run_anonymize"]


def add_parser(sub: Any) -> None:
    """Add the ``anonymize`` sub-command and its options to the parser's sub-parsers.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The sub-parsers of the ``riskcore`` parser (``add_subparsers``).
    """
    a = sub.add_parser(
        "anonymize",
        help="generalize and suppress to meet k (l, t, risk) with the least information loss",
    )
    a.add_argument("data", help=DATA_HELP)
    add_remediation_engine(a, "anonymize")
    a.add_argument("--qi", action="append", default=[], metavar="COL", help="(or the --profile's)")
    add_targets(a)
    a.add_argument(
        "--max-risk",
        type=parse_threshold,
        default=None,
        help="the same as --threshold (kept for older scripts)",
    )
    add_missing(a)
    a.add_argument(
        "--hierarchy",
        action="append",
        default=[],
        metavar="COL=SPEC",
        help="the hierarchy of one QI (or of a sensitive attribute, for --distance "
        "COL=hierarchical): a file in ARX's CSV format (value;level 1;...;*) or "
        "a builder string: interval:W1,W2,...[;start=S][;bottom=B][;top=T]"
        "[;labels=range|interval] (nested bands, e.g. 'age=interval:5,10,20;top=90'), "
        "date:LEVELS from day, week, month, quarter, year, 5y, 10y (e.g. "
        "'admitted=date:month,year,5y'; ISO, US MM/DD/YYYY and DD.MM.YYYY detected), "
        "mask:N1,N2,...[;width=W][;from=left] (N characters masked from the right, or left, "
        "per level, leading zeros kept, e.g. 'zip=mask:1,2,3'), keep:N1,N2,... (the first N "
        "characters kept, codes of any length: 'zip=keep:5,3' for ZIP5 beside ZIP+4), or "
        "flat; quote it in the shell "
        "(docs/hierarchy-builder.md)",
    )
    a.add_argument(
        "--distance",
        action="append",
        default=[],
        metavar="COL=ordered|equal|hierarchical",
        help="t-closeness ground distance of a sensitive attribute (as in assess); "
        "hierarchical reads that attribute's --hierarchy COL=SPEC",
    )
    a.add_argument(
        "--intervals",
        action="append",
        default=[],
        metavar="COL=W1,W2,...",
        help="numeric bands of these nested widths for one QI",
    )
    a.add_argument(
        "--clip",
        action="append",
        default=[],
        metavar="COL=LOW,HIGH",
        help="outlier clipping of a numeric QI: numbers below LOW and at or above HIGH share "
        "one band each (bottom and top coding; leave one side empty: COL=,90)",
    )
    a.add_argument(
        "--safe-harbor",
        action="store_true",
        help="apply the HIPAA Safe Harbor transforms first (ZIP to 3 digits, ages 90+, "
        "dates to year, other direct identifiers dropped)",
    )
    a.add_argument(
        "--mask",
        action="append",
        default=[],
        metavar="COL=OPERATOR",
        help="mask a direct identifier: drop, redact, mask_digits, keep_initials, substitute, "
        "hmac_tokens, reversible_tokens or surrogates:KIND (keyed ones need --key-file); "
        "for free text, redact_found[:removed] keeps the text and replaces the identifiers "
        "found in it by [PHONE], [EMAIL] ... (or removes them)",
    )
    a.add_argument(
        "--shift-dates",
        action="append",
        default=[],
        metavar="COL",
        help="shift this date column by one keyed random offset per --person (needs --key-file)",
    )
    a.add_argument("--max-days", type=int, default=180, help="largest date shift (default 180)")
    add_allow_identifiers(a)
    a.add_argument(
        "--key-file",
        default=None,
        metavar="FILE",
        help="the key of keyed steps, as hexadecimal text; a new key is written there if the "
        "file does not exist (never printed, never in the recipe)",
    )
    a.add_argument(
        "--lookup-out", default=None, metavar="FILE", help="the surrogates' lookup table (CSV)"
    )
    a.add_argument(
        "--objective",
        choices=tuple(OBJECTIVES),
        default="ncp",
        help="the loss the search minimizes: "
        + "; ".join(f"{o.name}: {o.label}" for o in OBJECTIVES.values()),
    )
    a.add_argument(
        "--weight",
        action="append",
        default=[],
        metavar="COL=W",
        help="weight of a QI in the objective (default 1; 0 generalizes it for free; "
        "multi-dimensional objectives only)",
    )
    a.add_argument(
        "--levels",
        action="append",
        default=[],
        metavar="COL=MIN:MAX",
        help="search only levels MIN to MAX of a QI's hierarchy (MAX below the top keeps it)",
    )
    a.add_argument(
        "--k-map", type=int, default=None, metavar="K",
        help="k-map: every released class matches at least K people of --population",
    )  # fmt: skip
    a.add_argument(
        "--delta", default=None, metavar="MIN:MAX",
        help="delta-presence: every population class has a share in [MIN, MAX] released",
    )  # fmt: skip
    add_population(a)
    a.add_argument("--suppression", choices=("drop", "mask"), default="drop")
    a.add_argument("--out", required=True, help="remediated table: .csv, .tsv, .parquet, .xlsx")
    a.add_argument("--recipe-out", required=True, help="the recipe as JSON")
    a.add_argument(
        "--profile-out",
        default=None,
        metavar="P.json",
        help="the assessment profile with this recipe (for riskcore report --profile)",
    )
    a.add_argument("--format", choices=("text", "json"), default="text")
    add_perturb_arguments(a)


def run_anonymize(args: argparse.Namespace) -> int:
    """Run ``anonymize``; return the exit code (2 with a message on bad input).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the command.

    Returns
    -------
    int
        The exit code: 0 the release, its recipe (and profile) written, 2 bad input or
        no node meeting the targets (a message on stderr, nothing written).
    """
    from riskcore._results import dumps
    from riskcore.cli.args import anonymize_inputs, distance_options
    from riskcore.cli.common import load as _load
    from riskcore.deidentify.recipe.apply import PERSON_KEY, with_person_key
    from riskcore.deidentify.recipe.identifiers import check_identifiers
    from riskcore.deidentify.search.lattice import Lattice, apply_levels
    from riskcore.deidentify.search.run import search
    from riskcore.report.readings import removed_column_warnings, suppression_line

    if perturbing(args):
        return run_perturb(args)
    try:
        profile, targets, sensitive, population, reference = anonymize_inputs(args)
        args.qi = list(profile.roles.quasi_identifiers)
        raw = _load(args.data)
        person = profile.roles.person
        before = before_steps(args, raw, profile.roles, targets)
        df = before.applied.data
        if person is not None:  # the people as given, whatever the masking did to the column
            df = with_person_key(df, raw[person].to_numpy())
        hierarchies = hierarchies_of(df, args, profile.events, sensitive)
        profile = distance_options(args, profile, df.__getitem__)
        steering = steering_of(args)
        # before the search: the QIs and event columns may yet be generalized
        check_identifiers(
            raw,
            before.recipe,
            before.allowed,
            detected=before.found,
            pending=hierarchies,
            remedy=ANONYMIZE_REMEDY,
        )
        lattice = Lattice(
            df,
            hierarchies,
            sensitive=sensitive,
            targets=targets,
            distance=profile.distances,
            order=profile.orders,
            sensitive_hierarchies=profile.sensitive_hierarchies,
            missing=profile.missing,
            sampling_fraction=profile.sampling_fraction,
            weights=profile.roles.weight,
            steering=steering,
            population_table=population,
            person=None if person is None else PERSON_KEY,
            events=profile.events,
        )
        result = search(lattice, objective=args.objective)
        best = result.best
        if best is None:
            raise no_node_error(targets)
        # a CSV or TSV is written from the labels' codes (the same bytes, no string hashing)
        written_as_text = Path(args.out).suffix.lower() in (".csv", ".tsv")
        out = apply_levels(
            lattice, df, best.levels, suppression=args.suppression, categorical=written_as_text
        )
        if person is not None:
            out = out.drop(columns=PERSON_KEY)
        levels = dict(zip(lattice.quasi_identifiers, best.levels, strict=True))
        recipe = search_recipe(
            args,
            profile,
            hierarchies,
            levels,
            targets,
            sensitive=sensitive,
            steering=steering,
            reference=reference,
            before=before,
        )
        # after it: a direct identifier the search left at level 0 is written as it is
        written = write_release(args, raw, before, out, recipe, profile)
    except (RiskcoreError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    summary = {
        "levels": levels,
        "hierarchies": {q: h.kind for q, h in hierarchies.items()},
        "events": list(lattice.events),
        "heights": dict(zip(lattice.quasi_identifiers, lattice.heights, strict=True)),
        "best": best.to_dict(),
        "lattice_size": result.lattice_size,
        "evaluated": result.evaluated,
        "needed": result.needed,
        "objective": args.objective,
        "loss": best.loss(args.objective),
        "steering": steering.to_dict(),
        "removed": list(result.removed),
        "keeping": {q: None if r is None else r.to_dict() for q, r in result.keeping.items()},
        "warnings": removed_column_warnings(result, lattice.quasi_identifiers),
        "seconds": result.seconds,
        **written.summary(),
    }
    for warning in summary["warnings"]:
        print(f"warning: {warning}", file=sys.stderr)
    if args.format == "json":
        print(dumps(summary))
        return 0
    print(
        "Levels: "
        + ", ".join(
            f"{q} {lv} of {h}" for (q, lv), h in zip(levels.items(), lattice.heights, strict=True)
        )
    )
    print(suppression_line(best, lattice.n, lattice.n_rows, person=lattice.person))
    for check in best.verdict.checks if best.verdict is not None else ():
        if check.kind == "km-anonymity":  # the events, judged on the release
            print(
                f"{check.label} of {', '.join(lattice.events)}: every set of visits held by "
                f"at least {check.achieved:,.0f} people (required {check.target:,.0f})"
            )
    print(
        f"Loss: NCP {best.ncp:.4f}, precision {best.precision:.4f}, discernibility "
        f"{best.discernibility:,.0f}, LeFevre's C_avg {best.avg_class_size:.2f}, "
        f"ARX's AECS {best.aecs:,.2f}, ARX's Loss {best.loss_arithmetic:.4f} (arithmetic) / "
        f"{best.loss_geometric:.4f} (geometric), DM* {best.dm_star:,.0f}, non-uniform entropy "
        f"{best.entropy:,.1f} bits"
    )
    print(
        f"Searched {result.evaluated:,} of {result.lattice_size:,} nodes in "
        f"{result.seconds:.2f} s (exact least {OBJECTIVES[args.objective].label}"
        + (", weighted" if any(w != 1 for w in steering.weights.values()) else "")
        + ")"
    )
    written.print()
    return 0
