"""The command line's remediation commands: ``anonymize`` and ``apply`` (issue 13).

``anonymize`` searches the generalization lattice for the least-loss node that
meets the targets (:func:`riskcore.deidentify.search.search`), writes the
remediated table and the recipe; ``apply`` re-applies a recipe to a table and
says what no longer fits. Heavy imports happen inside the handlers.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from riskcore._files import KEY_FILE_MAX_BYTES, read_regular
from riskcore.errors import RiskcoreError

if TYPE_CHECKING:
    import pandas as pd

    from riskcore.deidentify.hierarchy import Hierarchy
    from riskcore.deidentify.masking import SecretKey
    from riskcore.deidentify.recipe import Recipe
    from riskcore.deidentify.recipe_apply import AppliedRecipe
    from riskcore.deidentify.recipe_identifiers import IdentifierCheck
    from riskcore.deidentify.steering import Steering

from riskcore._cli_args import (
    DATA_HELP,
    add_missing,
    add_targets,
    column_pairs,
    parse_threshold,
)
from riskcore._cli_engine_remediate import add_remediation_engine
from riskcore._cli_perturb import add_perturb_arguments, perturbing, run_perturb
from riskcore.deidentify.objectives import OBJECTIVES

__all__ = [
    "ANONYMIZE_REMEDY",
    "BeforeSteps",
    "add_allow_identifiers",
    "add_parsers",
    "allowed_columns",
    "before_steps",
    "print_steps",
    "released_steps",
    "run_anonymize",
    "run_apply",
]

#: What ``anonymize`` offers for a direct identifier no step treats (issue 37).
ANONYMIZE_REMEDY = (
    "mask them (--mask COL=drop, redact, hmac_tokens or another operator, or --safe-harbor), "
    "or generalize them (--qi COL, with --levels COL=1:MAX to keep them above level 0)"
)


def add_allow_identifiers(parser: Any) -> None:
    """Add ``--allow-identifiers COL`` (a detected direct identifier released as it is)."""
    parser.add_argument(
        "--allow-identifiers",
        action="append",
        default=[],
        metavar="COL",
        help="release this column as it is although it looks like a direct identifier "
        "(a name, SSN, full date, ZIP code, identifiers in free text); without it, such a "
        "column that no step masks, drops or transforms stops the run (recorded in the "
        "recipe and the report)",
    )


def allowed_columns(args: argparse.Namespace) -> tuple[str, ...]:
    """Return the ``--allow-identifiers`` columns, each once, in order."""
    return tuple(dict.fromkeys(str(c) for c in args.allow_identifiers))


class BeforeSteps(NamedTuple):
    """The steps ``anonymize`` runs before generalizing or perturbing, and their result.

    Attributes
    ----------
    recipe : Recipe
        A recipe of those steps only (Safe Harbor, date shift, masking).
    key : SecretKey or None
        The key of the keyed ones.
    applied : AppliedRecipe
        The table after them.
    """

    recipe: Recipe
    key: SecretKey | None
    applied: AppliedRecipe


def before_steps(
    args: argparse.Namespace, raw: pd.DataFrame, person: str | None, targets: Any
) -> BeforeSteps:
    """Run ``--safe-harbor``, ``--shift-dates`` and ``--mask`` (the person as keyed tokens).

    Parameters
    ----------
    args : argparse.Namespace
        The ``anonymize`` options.
    raw : pandas.DataFrame
        The table as given.
    person : str or None
        The person column: masked as keyed HMAC tokens unless a ``--mask`` names it.
    targets : riskcore.criteria.Targets
        The targets (recorded in the recipe).

    Returns
    -------
    BeforeSteps
    """
    from riskcore.deidentify.recipe import Recipe, keyed_steps, mask_step
    from riskcore.deidentify.recipe_apply import apply_recipe
    from riskcore.deidentify.safe_harbor import safe_harbor_plan

    sh = safe_harbor_plan(raw) if args.safe_harbor else []
    masks = [mask_step(c, op) for c, op in column_pairs(args.mask, "--mask", "COL=OP").items()]
    if person is not None and person not in raw.columns:
        raise RiskcoreError(f"the table has no person column {person!r}")
    if person is not None and not any(m["column"] == person for m in masks):
        # the release keeps the person as a keyed token: an analyst can still link a
        # person's visits, and nobody without the key can read the identifier back
        masks.append(mask_step(person, "hmac_tokens"))
    shift: dict[str, Any] | None = None
    if args.shift_dates:
        if person is None:
            raise RiskcoreError("--shift-dates needs --person COL (whose dates move together)")
        shift = {"person": person, "columns": args.shift_dates, "max_days": args.max_days}
    # the steps before the generalization, to name the keyed ones and to run them
    plain = Recipe(
        (),
        (),
        {},
        targets.to_dict(),
        safe_harbor=tuple(sh),
        date_shift=shift,
        masking=tuple(masks),
    )
    key = _key(args.key_file, keyed_steps(plain), create=True)
    return BeforeSteps(plain, key, apply_recipe(raw, plain, key=key))


def released_steps(recipe: Recipe, identifiers: IdentifierCheck) -> dict[str, Any]:
    """Return the steps a run applied and the direct identifiers it found, as JSON values.

    Parameters
    ----------
    recipe : Recipe
        The recipe the run applied.
    identifiers : IdentifierCheck
        What :func:`~riskcore.deidentify.recipe_identifiers.check_identifiers` found.

    Returns
    -------
    dict
        ``steps`` (:func:`~riskcore.deidentify.steps.recipe_steps`) and ``identifiers``.
    """
    from riskcore.deidentify.steps import recipe_steps

    return {
        "steps": [s.to_dict() for s in recipe_steps(recipe)],
        "identifiers": identifiers.to_dict(),
    }


def print_steps(recipe: Recipe, identifiers: IdentifierCheck) -> None:
    """Print the steps a run applied, one a line, and warn of each identifier allowed as is.

    Parameters
    ----------
    recipe : Recipe
        The recipe the run applied.
    identifiers : IdentifierCheck
        What :func:`~riskcore.deidentify.recipe_identifiers.check_identifiers` found.
    """
    from riskcore.deidentify.steps import recipe_steps

    why = {d.column: d.reason for d in identifiers.detected}
    for col in identifiers.allowed:
        print(
            f"warning: {col!r} looks like a direct identifier ({why[col]}) and is written as "
            "it is (--allow-identifiers)",
            file=sys.stderr,
        )
    steps = recipe_steps(recipe)
    print("Steps applied:" if steps else "Steps applied: none (the table is written as read)")
    for s in steps:
        print(f"  - {s.words}")


def add_parsers(sub: Any) -> None:
    """Add the ``anonymize`` and ``apply`` sub-commands to the parser's sub-parsers."""
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


def _same_person(given: str | None, recorded: str | None) -> None:
    """Refuse ``apply --person`` naming another column than the recipe's person.

    A recipe judges its classes in the unit it was made in: people of its person column,
    or rows. Replaying it in another unit would release a table judged by other rules.
    """
    if given is None or given == recorded:
        return
    if recorded is None:
        raise RiskcoreError(
            f"the recipe was made counting rows, not people of {given!r}: make it again with "
            f"riskcore anonymize --person {given}"
        )
    raise RiskcoreError(
        f"the recipe counts people of {recorded!r}, not of {given!r}: give --person {recorded}"
    )


def _key(path: str | None, needed: list[str], *, create: bool) -> SecretKey | None:
    """Return the key in ``path`` when a step needs one; with ``create``, make a new one there.

    The key is never printed: only the file's name is.
    """
    from riskcore.deidentify.masking import SecretKey

    if not needed:
        return None
    if path is None:
        raise RiskcoreError(
            f"{needed[0]} needs a key: give --key-file FILE (hexadecimal text"
            + ("; a new key is written there if the file does not exist)" if create else ")")
        )
    p = Path(path)
    if not p.exists() and not p.is_symlink():
        if not create:
            raise RiskcoreError(f"--key-file {p.name!r} does not exist")
        key = SecretKey.generate()
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(key.reveal_hex() + "\n")
        print(
            f"A new key was written to {path} (readable by you only): keep it apart from the "
            "data; apply needs it to give the same tokens and shifts.",
            file=sys.stderr,
        )
        return key
    # a FIFO or /dev/zero would block or fill the memory: a regular file of a key's size only
    raw = read_regular(p, what="--key-file", limit=KEY_FILE_MAX_BYTES)
    try:
        return SecretKey.from_hex(raw.decode("ascii", errors="replace"))
    except ValueError as exc:
        raise RiskcoreError(f"--key-file {p.name!r}: {exc}") from None


def _write_lookup(applied: AppliedRecipe, path: str | None) -> None:
    from riskcore.io.export import write_table

    if path is not None and not applied.lookup.empty:
        write_table(applied.lookup, path)


def add_population(parser: Any) -> None:
    """Add ``--population FILE`` (the table of k-map and delta-presence targets)."""
    parser.add_argument(
        "--population", default=None, metavar="FILE",
        help="the identified population table the data were drawn from (CSV, Parquet or "
        ".xlsx, one row per person, with the QI columns): k-map and delta-presence",
    )  # fmt: skip


def _population(
    args: argparse.Namespace, named: Any
) -> tuple[pd.DataFrame | None, dict[str, Any] | None]:
    """Return (the --population table, its reference), checked against ``named`` (the
    profile's or the recipe's reference, a dict or None)."""
    import hashlib

    from riskcore.cli import _load
    from riskcore.profile import PopulationReference

    if args.population is None:
        return None, None
    table = _load(args.population)  # (a sentence for a file that cannot be read)
    with open(args.population, "rb") as fh:
        sha = hashlib.file_digest(fh, "sha256").hexdigest()
    if named is not None and named.get("sha256") != sha:
        raise RiskcoreError(
            f"the population table {Path(args.population).name!r} is not the one the profile "
            f"or recipe names ({named.get('name')!r}): give that table"
        )
    ref = PopulationReference(Path(args.population).name, sha)
    return table, ref.to_dict()


def _with_population_targets(targets: Any, args: argparse.Namespace) -> Any:
    """Return ``targets`` with --k-map and --delta added (replacing the profile's)."""
    from riskcore.criteria import DeltaPresence, KMap, Targets

    added: list[Any] = []
    if args.k_map is not None:
        added.append(KMap(k=args.k_map))
    if args.delta is not None:
        low, sep, high = str(args.delta).partition(":")
        try:
            added.append(DeltaPresence(delta_min=float(low), delta_max=float(high)))
        except ValueError:
            raise RiskcoreError("--delta is MIN:MAX, two shares: 0:0.5") from None
        if not sep:
            raise RiskcoreError("--delta is MIN:MAX, two shares: 0:0.5")
    if not added:
        return targets
    kinds = {c.kind for c in added}
    kept = tuple(c for c in targets.criteria if c.kind not in kinds)
    return Targets(criteria=kept + tuple(added), max_suppression=targets.max_suppression)


def _steering(args: argparse.Namespace) -> Steering:
    """Return the ``--weight`` and ``--levels`` options as a steering (checked by the lattice)."""
    from riskcore.deidentify.steering import Steering

    weights: dict[str, float] = {}
    for col, text in column_pairs(args.weight, "--weight", "COL=W").items():
        try:
            weights[col] = float(text)
        except ValueError:
            raise RiskcoreError(
                f"--weight {col}: the weight must be a number, not {text!r}"
            ) from None
    levels: dict[str, tuple[int, int]] = {}
    for col, text in column_pairs(args.levels, "--levels", "COL=MIN:MAX").items():
        low, sep, high = text.partition(":")
        try:
            levels[col] = (int(low), int(high))
        except ValueError:
            raise RiskcoreError(
                f"--levels {col}: write COL=MIN:MAX with whole numbers, not {text!r}"
            ) from None
        if not sep:
            raise RiskcoreError(f"--levels {col}: write COL=MIN:MAX, not {text!r}")
    return Steering(weights, levels)


def _clip(col: str, text: str) -> dict[str, float | None]:
    """Return the bottom and top codes of ``--clip COL=LOW,HIGH`` (either side may be empty)."""
    low, sep, high = text.partition(",")
    try:
        codes = {
            "bottom": float(low) if low.strip() else None,
            "top": float(high) if high.strip() else None,
        }
    except ValueError:
        raise RiskcoreError(f"--clip {col}: LOW and HIGH must be numbers") from None
    if not sep or codes == {"bottom": None, "top": None}:
        raise RiskcoreError(f"--clip {col}: write COLUMN=LOW,HIGH (one side may be empty)")
    return codes


def _hierarchy_option(series: pd.Series, text: str) -> Hierarchy:
    """Return the hierarchy of ``--hierarchy COL=SPEC``: a builder string built on the
    column (:func:`~riskcore.deidentify.hierarchy.parse_builder`), else an ARX CSV file."""
    import pandas as pd

    from riskcore.deidentify.hierarchy import (
        check_covers,
        parse_builder,
        read_arx_hierarchy,
        rebuild,
    )

    q = str(series.name)
    try:
        spec = parse_builder(text)
        if spec is not None:
            return rebuild(series, spec)
    except RiskcoreError as exc:
        raise RiskcoreError(f"--hierarchy {q}: {exc}") from None
    try:
        raw = Path(text).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise RiskcoreError(
            f"--hierarchy {q}: cannot read {text!r} ({exc}); a builder string starts with "
            "interval:, date:, mask or flat"
        ) from None
    numeric = bool(pd.api.types.is_numeric_dtype(series.dtype))
    return check_covers(read_arx_hierarchy(raw, q, numeric=numeric), series)


def _hierarchies(
    df: pd.DataFrame | dict[str, pd.Series],
    args: Any,
    events: tuple[str, ...] = (),
    sensitive: Sequence[str] = (),
) -> dict[str, Hierarchy]:
    """Return the hierarchy of every QI, then of every event column (``--event``).

    Each from ``--hierarchy``, ``--intervals`` or ``--clip`` when given, else the
    column's default hierarchy (:func:`~riskcore.deidentify.hierarchy.default_hierarchy`).
    A ``--hierarchy`` of a ``sensitive`` column is the hierarchical t-closeness
    distance's (read by :func:`riskcore._cli_args.distance_options`), not a dimension.
    """
    from riskcore.deidentify.hierarchy import (
        banded_hierarchy,
        default_hierarchy,
        interval_hierarchy,
    )

    files = column_pairs(args.hierarchy, "--hierarchy", "COLUMN=SPEC (a file or a builder string)")
    files = {c: f for c, f in files.items() if c not in sensitive}
    bands = column_pairs(args.intervals, "--intervals", "COLUMN=W1,W2,...")
    clip_pairs = column_pairs(args.clip, "--clip", "COLUMN=LOW,HIGH")
    clips = {c: _clip(c, v) for c, v in clip_pairs.items()}
    dims = [*args.qi, *events]
    for col in (*files, *bands, *clips):
        if col not in dims:
            raise RiskcoreError(
                f"{col!r} is given a hierarchy but is not a --qi, --event or --sensitive column"
            )
    absent = [c for c in (*dims, *args.sensitive) if c not in df]
    if absent:
        raise RiskcoreError(f"the table has no column {absent[0]!r}")
    out: dict[str, Hierarchy] = {}
    for q in dims:
        if q in files:
            out[q] = _hierarchy_option(df[q], files[q])
        elif q in bands:
            try:
                widths = [float(w) for w in bands[q].split(",")]
            except ValueError:
                raise RiskcoreError(f"--intervals {q}: widths must be numbers") from None
            codes = clips.get(q, {})
            out[q] = interval_hierarchy(
                df[q], widths, bottom=codes.get("bottom"), top=codes.get("top")
            )
        elif q in clips:
            out[q] = banded_hierarchy(df[q], **clips[q])
        else:
            out[q] = default_hierarchy(df[q])
    return out


def run_anonymize(args: argparse.Namespace) -> int:
    """Run ``anonymize``; return the exit code (2 with a message on bad input)."""
    from riskcore._cli_args import anonymize_inputs, distance_options
    from riskcore._results import dumps
    from riskcore.cli import _load
    from riskcore.deidentify.lattice import Lattice
    from riskcore.deidentify.recipe import Recipe
    from riskcore.deidentify.recipe_apply import PERSON_KEY, apply_levels, with_person_key
    from riskcore.deidentify.recipe_identifiers import (
        check_identifiers,
        detect_identifiers,
        record_allowed,
    )
    from riskcore.deidentify.search import search
    from riskcore.io.export import write_table
    from riskcore.report.readings import removed_column_warnings, suppression_line

    if perturbing(args):
        return run_perturb(args)
    try:
        profile, targets, sensitive, population, reference = anonymize_inputs(args)
        args.qi = list(profile.roles.quasi_identifiers)
        raw = _load(args.data)
        person = profile.roles.person
        allowed = allowed_columns(args)
        found = detect_identifiers(raw, tagged=(*profile.roles.identifiers, *profile.roles.persons))
        before = before_steps(args, raw, person, targets)
        key, pre = before.key, before.applied
        df = pre.data
        if person is not None:  # the people as given, whatever the masking did to the column
            df = with_person_key(df, raw[person].to_numpy())
        hierarchies = _hierarchies(df, args, profile.events, sensitive)
        profile = distance_options(args, profile, df.__getitem__)
        steering = _steering(args)
        # before the search: the QIs and event columns may yet be generalized
        check_identifiers(
            raw,
            before.recipe,
            allowed,
            detected=found,
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
            population=population,
            person=None if person is None else PERSON_KEY,
            events=profile.events,
        )
        result = search(lattice, objective=args.objective)
        best = result.best
        if best is None:
            raise RiskcoreError(
                f"no generalization meets the targets within {targets.max_suppression:.1%} "
                "suppression, even the most general one: allow more suppression or lower "
                "the targets"
            )
        # a CSV or TSV is written from the labels' codes (the same bytes, no string hashing)
        written_as_text = Path(args.out).suffix.lower() in (".csv", ".tsv")
        out = apply_levels(
            lattice, df, best.levels, suppression=args.suppression, categorical=written_as_text
        )
        if person is not None:
            out = out.drop(columns=PERSON_KEY)
        levels = dict(zip(lattice.qis, best.levels, strict=True))
        recipe = Recipe.of(
            hierarchies,
            levels,
            targets,
            sensitive=sensitive,
            suppression=args.suppression,
            safe_harbor=before.recipe.safe_harbor,
            date_shift=before.recipe.date_shift,
            masking=before.recipe.masking,
            key=key,
            missing=profile.missing,
            distances=profile.distances,
            orders=profile.orders,
            sensitive_hierarchies=profile.sensitive_hierarchies,
            sampling_fraction=profile.sampling_fraction,
            weights=profile.roles.weight,
            steering=steering,
            objective=args.objective,
            population=reference,
            person=person,
            events=profile.events,
        )
        # after it: a direct identifier the search left at level 0 is written as it is
        identifiers = check_identifiers(
            raw, recipe, allowed, detected=found, remedy=ANONYMIZE_REMEDY
        )
        recipe = record_allowed(recipe, identifiers, key)
        write_table(out, args.out)
        _write_lookup(pre, args.lookup_out)
        Path(args.recipe_out).write_text(json.dumps(recipe.to_dict(), indent=2) + "\n")
        if args.profile_out:
            done = profile.with_(recipe=recipe)
            Path(args.profile_out).write_text(done.to_json() + "\n", encoding="utf-8")
    except (RiskcoreError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    summary = {
        "levels": levels,
        "hierarchies": {q: h.kind for q, h in hierarchies.items()},
        "events": list(lattice.events),
        "heights": dict(zip(lattice.qis, lattice.heights, strict=True)),
        "best": best.to_dict(),
        "lattice_size": result.lattice_size,
        "evaluated": result.evaluated,
        "needed": result.needed,
        "objective": args.objective,
        "loss": best.loss(args.objective),
        "steering": steering.to_dict(),
        "removed": list(result.removed),
        "keeping": {q: None if r is None else r.to_dict() for q, r in result.keeping.items()},
        "warnings": removed_column_warnings(result, lattice.qis),
        "seconds": result.seconds,
        "rows_written": len(out),
        "out": str(args.out),
        "recipe": str(args.recipe_out),
        **released_steps(recipe, identifiers),
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
    print_steps(recipe, identifiers)
    print(f"Wrote {len(out):,} rows to {args.out} and the recipe to {args.recipe_out}")
    return 0


def run_apply(args: argparse.Namespace) -> int:
    """Run ``apply``; return the exit code (2 with a message on bad input)."""
    from riskcore._json import JSON_MAX_BYTES, read_json
    from riskcore._results import dumps
    from riskcore.cli import _load
    from riskcore.deidentify._recipe_seal import SEAL_HMAC
    from riskcore.deidentify.recipe import keyed_steps
    from riskcore.deidentify.recipe_apply import apply_recipe
    from riskcore.deidentify.recipe_check import check_recipe, read_recipe
    from riskcore.deidentify.recipe_identifiers import check_identifiers
    from riskcore.io.export import write_table

    try:
        spec = read_json(
            read_regular(args.recipe, what="the recipe", limit=JSON_MAX_BYTES),
            what=f"the recipe {Path(args.recipe).name!r}",
        )
        df = _load(args.data)
        try:
            rec = read_recipe(spec)  # known version, identifiers masked, sealed
            key = _key(args.key_file, keyed_steps(rec), create=False)
            if args.key_file is not None and (rec.seal or {}).get("kind") != SEAL_HMAC:
                raise RiskcoreError(
                    "a key was given but the recipe is not sealed with one (its keyed steps "
                    "were removed): use the recipe anonymize wrote with this key"
                )
            check_recipe(rec, key, sealed=True)  # the HMAC, now that the key is read
            _same_person(args.person, rec.person)
            population, _ = _population(args, rec.population)
        except (KeyError, TypeError, ValueError) as exc:
            raise RiskcoreError(f"the recipe {args.recipe!r} is not valid: {exc}") from None
        allowed = allowed_columns(args)
        identifiers = check_identifiers(df, rec, allowed, remedy=_apply_remedy(rec, allowed))
        try:
            applied = apply_recipe(df, rec, key=key, population=population)
        except (KeyError, TypeError, ValueError) as exc:
            raise RiskcoreError(f"the recipe {args.recipe!r} is not valid: {exc}") from None
        write_table(applied.data, args.out)
        _write_lookup(applied, args.lookup_out)
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


def _apply_remedy(rec: Recipe, allowed: tuple[str, ...]) -> str:
    """Return what ``apply`` offers for an untreated direct identifier."""
    remedy = "apply a recipe that masks them (riskcore anonymize --mask COL=OP)"
    recorded = [c for c in rec.allowed_identifiers if c not in allowed]
    if recorded:
        remedy += (
            f" (the recipe was made with --allow-identifiers {', '.join(recorded)}, but a "
            "recipe file cannot allow a column by itself: give the option to apply too)"
        )
    return remedy
