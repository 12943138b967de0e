"""What ``anonymize`` and ``apply`` share: identifier checks, the steps before
generalizing, keys, the population table, steering and hierarchy options.

Heavy imports happen inside the functions.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from riskcore._files import KEY_FILE_MAX_BYTES, read_regular
from riskcore.errors import RiskcoreError

if TYPE_CHECKING:
    import pandas as pd

    from riskcore.deidentify.hierarchy import Hierarchy
    from riskcore.deidentify.masking import SecretKey
    from riskcore.deidentify.recipe.apply import AppliedRecipe
    from riskcore.deidentify.recipe.base import Recipe
    from riskcore.deidentify.recipe.identifiers import DetectedIdentifier, IdentifierCheck
    from riskcore.deidentify.search.steering import Steering
    from riskcore.profile import Profile
    from riskcore.roles import ColumnRoles

from riskcore.cli.common import column_pairs

__all__ = [
    "ANONYMIZE_REMEDY",
    "BeforeSteps",
    "Written",
    "add_allow_identifiers",
    "add_population",
    "allowed_columns",
    "apply_remedy",
    "before_steps",
    "hierarchies_of",
    "hierarchy_option",
    "no_node_error",
    "population_reference",
    "print_steps",
    "read_key",
    "released_steps",
    "same_person",
    "search_recipe",
    "steering_of",
    "with_population_targets",
    "write_lookup",
    "write_recipe",
    "write_release",
]

#: What ``anonymize`` offers for a direct identifier no step treats (issue 37).
ANONYMIZE_REMEDY = (
    "mask them (--mask COL=drop, redact, hmac_tokens or another operator, or --safe-harbor), "
    "or generalize them (--qi COL, with --levels COL=1:MAX to keep them above level 0)"
)


def add_allow_identifiers(parser: Any) -> None:
    """Add ``--allow-identifiers COL`` (a detected direct identifier released as it is).

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The sub-command's parser.
    """
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
    """Return the columns ``--allow-identifiers`` names.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the command.

    Returns
    -------
    tuple of str
        Each column once, in the order given.
    """
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
    allowed : tuple of str
        The ``--allow-identifiers`` columns (:func:`allowed_columns`).
    found : tuple of DetectedIdentifier
        The direct identifiers of the table as given, the profile's tagged ones included.
    """

    recipe: Recipe
    key: SecretKey | None
    applied: AppliedRecipe
    allowed: tuple[str, ...] = ()
    found: tuple[DetectedIdentifier, ...] = ()


def before_steps(
    args: argparse.Namespace, raw: pd.DataFrame, roles: ColumnRoles | str | None, targets: Any
) -> BeforeSteps:
    """Find the direct identifiers, then run ``--safe-harbor``, ``--shift-dates`` and ``--mask``.

    The person column is masked as keyed tokens unless a ``--mask`` names it.

    Parameters
    ----------
    args : argparse.Namespace
        The ``anonymize`` options.
    raw : pandas.DataFrame
        The table as given.
    roles : riskcore.roles.ColumnRoles
        The profile's column roles: its person, and its identifiers and persons (each
        a direct identifier whatever the detection finds). The person column's name (or
        None), as this argument was before, is still taken, with a DeprecationWarning.
    targets : riskcore.criteria.Targets
        The targets (recorded in the recipe).

    Returns
    -------
    BeforeSteps
    """
    from riskcore.deidentify.recipe.apply import apply_recipe
    from riskcore.deidentify.recipe.base import Recipe, keyed_steps, mask_step, masking_step
    from riskcore.deidentify.recipe.identifiers import detect_identifiers
    from riskcore.deidentify.safe_harbor import safe_harbor_plan, safe_harbor_step

    if roles is None or isinstance(roles, str):  # the person column, as it was before
        warnings.warn(
            "before_steps(args, raw, person, targets) is deprecated; pass the profile's "
            "ColumnRoles (its person, identifiers and persons)",
            DeprecationWarning,
            stacklevel=2,
        )
        from riskcore.roles import ColumnRoles

        roles = ColumnRoles(persons=() if roles is None else (roles,))
    person = roles.person
    allowed = allowed_columns(args)
    found = detect_identifiers(raw, tagged=(*roles.identifiers, *roles.persons))
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
        safe_harbor=tuple(map(safe_harbor_step, sh)),
        date_shift=None if shift is None else masking_step(shift, "date_shift"),
        masking=tuple(map(masking_step, masks)),
    )
    key = read_key(args.key_file, keyed_steps(plain), create=True)
    return BeforeSteps(plain, key, apply_recipe(raw, plain, key=key), allowed, found)


class Written(NamedTuple):
    """What ``anonymize`` wrote: the recipe, its identifier check, the table's rows and files.

    Attributes
    ----------
    recipe : Recipe
        The recipe written, recording the identifiers allowed as they are.
    identifiers : IdentifierCheck
        What :func:`~riskcore.deidentify.recipe.identifiers.check_identifiers` found.
    rows : int
        The rows of the table written.
    out : str
        The ``--out`` file.
    recipe_out : str
        The ``--recipe-out`` file.
    """

    recipe: Recipe
    identifiers: IdentifierCheck
    rows: int
    out: str
    recipe_out: str

    def summary(self) -> dict[str, Any]:
        """Return the JSON summary's part about what was written.

        Returns
        -------
        dict
            ``rows_written``, ``out``, ``recipe`` and :func:`released_steps`.
        """
        return {
            "rows_written": self.rows,
            "out": self.out,
            "recipe": self.recipe_out,
            **released_steps(self.recipe, self.identifiers),
        }

    def print(self) -> None:
        """Print the steps applied (:func:`print_steps`) and the files written."""
        print_steps(self.recipe, self.identifiers)
        print(f"Wrote {self.rows:,} rows to {self.out} and the recipe to {self.recipe_out}")


def no_node_error(targets: Any) -> RiskcoreError:
    """Return the error of a search that found no node meeting the targets.

    Parameters
    ----------
    targets : riskcore.criteria.Targets
        The targets the search judged by (their suppression limit is named).

    Returns
    -------
    RiskcoreError
    """
    return RiskcoreError(
        f"no generalization meets the targets within {targets.max_suppression:.1%} "
        "suppression, even the most general one: allow more suppression or lower the targets"
    )


def search_recipe(
    args: argparse.Namespace,
    profile: Profile,
    hierarchies: Mapping[str, Hierarchy],
    levels: Mapping[str, int],
    targets: Any,
    *,
    sensitive: tuple[str, ...],
    steering: Steering,
    reference: dict[str, Any] | None,
    before: BeforeSteps | None = None,
) -> Recipe:
    """Return the recipe of the node the search chose, with the profile's settings.

    Parameters
    ----------
    args : argparse.Namespace
        The ``anonymize`` options (``--suppression``, ``--objective``).
    profile : riskcore.profile.Profile
        The profile of the run: its missing-value policy, distances, orders, sampling
        fraction, weight column, person and event columns.
    hierarchies : mapping of str to Hierarchy
        The hierarchy of each QI and event column.
    levels : mapping of str to int
        The node: the level of each.
    targets : riskcore.criteria.Targets
        The targets the search judged by.
    sensitive : tuple of str
        The sensitive attributes.
    steering : Steering
        The ``--weight`` and ``--levels`` options.
    reference : dict or None
        The population table's reference (:func:`population_reference`).
    before : BeforeSteps, optional
        The steps run before the search (:func:`before_steps`) and their key; none on an
        engine.

    Returns
    -------
    Recipe
    """
    from riskcore.deidentify.recipe.base import Recipe

    steps: dict[str, Any] = {}
    if before is not None:
        steps = {
            "safe_harbor": before.recipe.safe_harbor,
            "date_shift": before.recipe.date_shift,
            "masking": before.recipe.masking,
            "key": before.key,
        }
    return Recipe.of(
        hierarchies,
        levels,
        targets,
        sensitive=sensitive,
        suppression=args.suppression,
        missing=profile.missing,
        distances=profile.distances,
        orders=profile.orders,
        sensitive_hierarchies=profile.sensitive_hierarchies,
        sampling_fraction=profile.sampling_fraction,
        weights=profile.roles.weight,
        steering=steering,
        objective=args.objective,
        population=reference,
        person=profile.roles.person,
        events=profile.events,
        **steps,
    )


def write_recipe(
    args: argparse.Namespace, recipe: Recipe, profile: Profile, **changes: Any
) -> None:
    """Write the recipe to ``--recipe-out`` and, with ``--profile-out``, the profile with it.

    Parameters
    ----------
    args : argparse.Namespace
        The ``anonymize`` options.
    recipe : Recipe
        The recipe of the run, as released.
    profile : riskcore.profile.Profile
        The profile written to ``--profile-out``, with the recipe recorded.
    **changes : Any
        Other fields of the profile written (``missing="any"``).
    """
    Path(args.recipe_out).write_text(json.dumps(recipe.to_dict(), indent=2) + "\n")
    if args.profile_out:
        done = profile.with_(recipe=recipe, **changes)
        Path(args.profile_out).write_text(done.to_json() + "\n", encoding="utf-8")


def write_release(
    args: argparse.Namespace,
    raw: pd.DataFrame,
    before: BeforeSteps,
    table: pd.DataFrame,
    recipe: Recipe,
    profile: Profile,
    **changes: Any,
) -> Written:
    """Refuse an untreated direct identifier, then write the table, lookup, recipe and profile.

    Parameters
    ----------
    args : argparse.Namespace
        The ``anonymize`` options (``--out``, ``--lookup-out``, ``--recipe-out``,
        ``--profile-out``).
    raw : pandas.DataFrame
        The table as given (its direct identifiers are checked against the recipe).
    before : BeforeSteps
        The steps run before generalizing or perturbing (:func:`before_steps`).
    table : pandas.DataFrame
        The released table.
    recipe : Recipe
        The whole recipe of the run, sealed under ``before.key`` when a step is keyed.
    profile : riskcore.profile.Profile
        The profile written to ``--profile-out``, with the recipe recorded.
    **changes : Any
        Other fields of the profile written (``missing="any"``).

    Returns
    -------
    Written
    """
    from riskcore.deidentify.recipe.identifiers import check_identifiers, record_allowed
    from riskcore.io.export import write_table

    # after the run: a direct identifier no step treated is written as it is
    identifiers = check_identifiers(
        raw, recipe, before.allowed, detected=before.found, remedy=ANONYMIZE_REMEDY
    )
    recipe = record_allowed(recipe, identifiers, before.key)
    write_table(table, args.out)
    write_lookup(before.applied, args.lookup_out)
    write_recipe(args, recipe, profile, **changes)
    return Written(recipe, identifiers, len(table), str(args.out), str(args.recipe_out))


def released_steps(recipe: Recipe, identifiers: IdentifierCheck) -> dict[str, Any]:
    """Return the steps a run applied and the direct identifiers it found, as JSON values.

    Parameters
    ----------
    recipe : Recipe
        The recipe the run applied.
    identifiers : IdentifierCheck
        What :func:`~riskcore.deidentify.recipe.identifiers.check_identifiers` found.

    Returns
    -------
    dict
        ``steps`` (:func:`~riskcore.deidentify.recipe.steps.recipe_steps`) and ``identifiers``.
    """
    from riskcore.deidentify.recipe.steps import recipe_steps

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
        What :func:`~riskcore.deidentify.recipe.identifiers.check_identifiers` found.
    """
    from riskcore.deidentify.recipe.steps import recipe_steps

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


def same_person(given: str | None, recorded: str | None) -> None:
    """Refuse ``apply --person`` naming another column than the recipe's person.

    A recipe judges its classes in the unit it was made in: people of its person column,
    or rows. Replaying it in another unit would release a table judged by other rules.

    Parameters
    ----------
    given : str or None
        The ``--person`` of ``apply``.
    recorded : str or None
        The recipe's person column.
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


def read_key(path: str | None, needed: list[str], *, create: bool) -> SecretKey | None:
    """Return the key in ``path`` when a step needs one; with ``create``, make a new one there.

    The key is never printed: only the file's name is.

    Parameters
    ----------
    path : str or None
        The ``--key-file``.
    needed : list of str
        The steps that need a key (for the message); empty: no key is read.
    create : bool
        Write a new key to ``path`` when the file does not exist.

    Returns
    -------
    SecretKey or None
        None when no step needs a key.
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


def write_lookup(applied: AppliedRecipe, path: str | None) -> None:
    """Write the surrogates' lookup table to ``path`` (nothing when None or empty).

    Parameters
    ----------
    applied : AppliedRecipe
        The applied recipe, with its surrogates' lookup table.
    path : str or None
        The ``--lookup-out`` file; None writes nothing.
    """
    from riskcore.io.export import write_table

    if path is not None and not applied.lookup.empty:
        write_table(applied.lookup, path)


def add_population(parser: Any) -> None:
    """Add ``--population FILE`` (the table of k-map and delta-presence targets).

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The sub-command's parser.
    """
    parser.add_argument(
        "--population", default=None, metavar="FILE",
        help="the identified population table the data were drawn from (CSV, Parquet or "
        ".xlsx, one row per person, with the QI columns): k-map and delta-presence",
    )  # fmt: skip


def population_reference(
    args: argparse.Namespace, named: Any
) -> tuple[pd.DataFrame | None, dict[str, Any] | None]:
    """Return the ``--population`` table and its reference, checked against ``named``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the command.
    named : dict or None
        The profile's or the recipe's population reference, to check the file against.

    Returns
    -------
    tuple of (pandas.DataFrame or None, dict or None)
        The population table and its reference (name, rows, SHA-256); (None, None)
        without ``--population``.
    """
    import hashlib

    from riskcore.cli.common import load as _load
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


def with_population_targets(targets: Any, args: argparse.Namespace) -> Any:
    """Return ``targets`` with --k-map and --delta added (replacing the profile's).

    Parameters
    ----------
    targets : riskcore.criteria.Targets
        The targets of the options.
    args : argparse.Namespace
        The parsed options of the command.

    Returns
    -------
    riskcore.criteria.Targets
        The targets with ``--km`` / ``--delta-presence`` made from the population table.
    """
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


def steering_of(args: argparse.Namespace) -> Steering:
    """Return the ``--weight`` and ``--levels`` options as a steering (checked by the lattice).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of the command.

    Returns
    -------
    Steering
        The ``--weight`` column weights and ``--levels`` bounds.
    """
    from riskcore.deidentify.search.steering import Steering

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


def hierarchy_option(series: pd.Series, text: str) -> Hierarchy:
    """Return the hierarchy of ``--hierarchy COL=SPEC``.

    A builder string built on the column (:func:`~riskcore.deidentify.hierarchy.parse_builder`),
    else an ARX CSV file.

    Parameters
    ----------
    series : pandas.Series
        The column (its name is the option's column).
    text : str
        The option's SPEC: a builder string or a file path.

    Returns
    -------
    Hierarchy
        A hierarchy that covers every value of the column.
    """
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


def hierarchies_of(
    df: pd.DataFrame | dict[str, pd.Series],
    args: Any,
    events: tuple[str, ...] = (),
    sensitive: Sequence[str] = (),
) -> dict[str, Hierarchy]:
    """Return the hierarchy of every QI, then of every event column (``--event``).

    Each from ``--hierarchy``, ``--intervals`` or ``--clip`` when given, else the
    column's default hierarchy (:func:`~riskcore.deidentify.hierarchy.default_hierarchy`).
    A ``--hierarchy`` of a ``sensitive`` column is the hierarchical t-closeness
    distance's (read by :func:`riskcore.cli.args.distance_options`), not a dimension.

    Parameters
    ----------
    df : pandas.DataFrame or dict of str to pandas.Series
        The columns to build hierarchies on.
    args : argparse.Namespace
        The parsed options of the command.
    events : tuple of str, optional
        The event columns (``--event``), after the QIs.
    sensitive : sequence of str, optional
        The sensitive attributes: their ``--hierarchy`` is skipped here.

    Returns
    -------
    dict of str to Hierarchy
        The QIs' then the event columns' hierarchies, by column.
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
            out[q] = hierarchy_option(df[q], files[q])
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


def apply_remedy(rec: Recipe, allowed: tuple[str, ...]) -> str:
    """Return what ``apply`` offers for an untreated direct identifier.

    Parameters
    ----------
    rec : Recipe
        The recipe being applied.
    allowed : tuple of str
        The ``--allow-identifiers`` columns of this run.

    Returns
    -------
    str
        The advice printed after the refusal, naming the columns the recipe allowed but
        this run does not.
    """
    remedy = "apply a recipe that masks them (riskcore anonymize --mask COL=OP)"
    recorded = [c for c in rec.allowed_identifiers if c not in allowed]
    if recorded:
        remedy += (
            f" (the recipe was made with --allow-identifiers {', '.join(recorded)}, but a "
            "recipe file cannot allow a column by itself: give the option to apply too)"
        )
    return remedy
