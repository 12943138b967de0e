"""Re-applying a recipe: :func:`apply_recipe` redoes its steps on a table.

The steps run in the order :mod:`riskcore.deidentify.recipe.base` records them (Safe
Harbor, date shift, masking, generalization, suppression, then perturbation: every
perturbation works on the release the steps before it give); :func:`apply_levels`
generalizes a table to one node of its lattice and suppresses the failing classes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore._results import Result
from riskcore.deidentify.hierarchy import Hierarchy, rebuild
from riskcore.deidentify.masking import SecretKey
from riskcore.deidentify.recipe.base import (
    Recipe,
    key_check,
    keyed_steps,
    masking_steps,
)
from riskcore.deidentify.search.steering import Steering
from riskcore.errors import RiskcoreError
from riskcore.perturb.steps import PerturbStep, blanked_columns, numeric_columns, run_steps
from riskcore.utility.numeric import NumericRiskUtility, numeric_risk_utility

if TYPE_CHECKING:
    pass

__all__ = [
    "PERSON_KEY",
    "AppliedRecipe",
    "apply_recipe",
    "pinned_steering",
    "with_person_key",
    "with_unknown",
]

#: The name of the person column the lattice reads while a recipe runs: the person's
#: values as given, before any masking step (a token keeps people apart, a dropped or
#: redacted column would not). It never leaves :func:`apply_recipe`.
PERSON_KEY = "\x00riskcore:person"


def with_person_key(data: pd.DataFrame, values: Any) -> pd.DataFrame:
    """Return ``data`` with the people's values as given under :data:`PERSON_KEY`.

    Parameters
    ----------
    data : pandas.DataFrame
        The table after the steps before the generalization (same rows, same order).
    values : array-like
        The person column's values before those steps, one per row.

    Returns
    -------
    pandas.DataFrame
        A copy with one more column.
    """
    if len(values) != len(data):
        raise RiskcoreError("the steps before the generalization changed the number of rows")
    return data.assign(**{PERSON_KEY: np.asarray(values, dtype=object)})


@dataclass(frozen=True)
class AppliedRecipe(Result):
    """A recipe applied to a table: the result and what no longer fits.

    Attributes
    ----------
    data : pandas.DataFrame
        The generalized table, failing classes suppressed (not in JSON).
    unknown_values : dict of str to list
        Per QI, values the recipe's hierarchy does not hold (up to 20 shown),
        made ``"*"``.
    n_unknown : dict of str to int
        Per QI, records holding such a value.
    suppressed : int
        Records suppressed because their class breaks the targets.
    within_limit : bool
        Whether the suppressed records stay within the recipe's limit.
    skipped : tuple of str
        Keyed steps left out (``skip_keyed``), in words.
    lookup : pandas.DataFrame
        The surrogates' lookup table (``column``, ``original``, ``surrogate``),
        empty without surrogates (not in JSON: it re-identifies everyone).
    node : NodeResult or None
        The recipe's node of the lattice evaluated on this table (its losses
        and verdict); None when the recipe generalizes nothing (not in JSON).
    numeric : NumericRiskUtility or None
        dRisk and IL1s of the columns the recipe's microaggregation and noise steps
        change, the table right after its perturbation steps against the table as
        given (:func:`riskcore.utility.numeric.numeric_risk_utility`); None without
        such steps.
    person : str or None
        The recipe's person column: ``suppressed`` then counts people.
    suppressed_rows : int or None
        With a person column, the rows of the suppressed people.
    blanked : int
        Records (people, with a person column) of the release with a cell blanked by the
        recipe's local suppression; they count toward the suppression limit with
        ``suppressed`` (``within_limit`` and ``verdict`` judge both).
    verdict : Verdict or None
        The release's one verdict: the node's (:func:`riskcore.criteria.evaluate` with
        suppression) with every unit suppressed counted
        (:func:`riskcore.criteria.with_suppressed`); None when the recipe generalizes
        nothing (not in JSON).
    """

    unknown_values: dict[str, list[Any]]
    n_unknown: dict[str, int]
    suppressed: int
    within_limit: bool
    skipped: tuple[str, ...] = ()
    data: pd.DataFrame = field(default_factory=pd.DataFrame, metadata={"json": False})
    lookup: pd.DataFrame = field(default_factory=pd.DataFrame, metadata={"json": False})
    node: Any = field(default=None, compare=False, metadata={"json": False})
    numeric: NumericRiskUtility | None = None
    person: str | None = None
    suppressed_rows: int | None = None
    blanked: int = 0
    verdict: Any = field(default=None, compare=False, metadata={"json": False})


def _blanked(
    before: pd.DataFrame,
    after: pd.DataFrame,
    steps: Sequence[PerturbStep],
    persons: np.ndarray | None,
) -> int:
    """Return the records (people) with a cell local suppression blanked.

    ``persons``: the person of each row of ``before`` (a row without one is a person of
    its own), None to count records.
    """
    cols = blanked_columns(steps)
    if not cols or not len(before):
        return 0
    made = (after[cols].isna().to_numpy() & ~before[cols].isna().to_numpy()).any(axis=1)
    if persons is None:
        return int(made.sum())
    who = pd.Series(persons[made], dtype=object)
    return int(who.dropna().nunique() + who.isna().sum())


@renamed_arguments(population="population_table")
def apply_recipe(
    data: pd.DataFrame,
    recipe: Recipe | Mapping[str, Any],
    *,
    key: SecretKey | bytes | None = None,
    skip_keyed: bool = False,
    population_table: pd.DataFrame | None = None,
) -> AppliedRecipe:
    """Re-apply a recipe to a table (the same one, or new data of the same shape).

    The steps run in the recipe's order: Safe Harbor transforms, the date
    shift, the masking of direct identifiers, then generalization and
    suppression, then the perturbation steps on the release they give (the table
    the dashboard's Perturb tab starts from; local suppression's blanked records count
    toward the suppression limit). Hierarchies given by a builder (intervals, dates, prefixes,
    flat) are rebuilt on the new data, so new numbers and dates have a label;
    a hierarchy given as a table keeps its table, and values it does not hold
    are reported and made ``"*"``. Classes that break the recipe's targets are
    suppressed as the recipe says.

    Parameters
    ----------
    data : pandas.DataFrame
        The table: it holds every column the recipe names.
    recipe : Recipe or mapping
        The recipe, or its JSON form (:meth:`Recipe.to_dict`, older shapes read too).
    key : SecretKey or bytes, optional
        The key of the keyed steps; required when there is one (unless
        ``skip_keyed``), and checked against the recipe's ``key_check``.
    skip_keyed : bool, default False
        Leave the keyed steps out (named in ``skipped``): for a report that
        has no key and assesses the quasi-identifiers.
    population_table : pandas.DataFrame, optional
        The population table of the recipe's k-map and delta-presence targets.

    Returns
    -------
    AppliedRecipe

    Raises
    ------
    RiskcoreError
        When a column is missing, the key is missing or is not the recipe's.

    Examples
    --------
    The recipe of ages in bands of 10 (sex kept) for k = 3, applied to new
    data: the bands are rebuilt on it, so 58 finds its band 50-59; (40-49, M)
    now has 2 records and (50-59, M) 1, so those 3 records are suppressed, more
    than the recipe's limit (none).

    >>> import pandas as pd
    >>> from riskcore.criteria import Targets
    >>> from riskcore.deidentify.hierarchy import flat_hierarchy, interval_hierarchy
    >>> from riskcore.deidentify.recipe import Recipe
    >>> old = pd.DataFrame({"age": [31, 34, 38, 42, 45, 47], "sex": list("FFFMMM")})
    >>> h = {"age": interval_hierarchy(old["age"], [10, 20]), "sex": flat_hierarchy(old["sex"])}
    >>> recipe = Recipe.of(h, {"age": 1, "sex": 0}, Targets.of(k=3))
    >>> new = pd.DataFrame({"age": [33, 36, 39, 41, 44, 58], "sex": list("FFFMMM")})
    >>> applied = apply_recipe(new, recipe)
    >>> applied.data
         age sex
    0  30-39   F
    1  30-39   F
    2  30-39   F
    >>> applied.suppressed, applied.within_limit
    (3, False)
    """
    from riskcore.criteria import Targets, with_suppressed
    from riskcore.deidentify.recipe.check import check_recipe
    from riskcore.deidentify.safe_harbor import run_safe_harbor
    from riskcore.deidentify.search.lattice import Lattice

    rec = recipe if isinstance(recipe, Recipe) else Recipe.from_dict(recipe)
    check_recipe(rec, None if skip_keyed else key)
    named = [c for m in rec.masking for c in m.columns] + [x.column for x in rec.safe_harbor]
    if rec.date_shift is not None:
        named += [str(rec.date_shift.parameters["person"]), *rec.date_shift.columns]
    named += [rec.weights] if rec.weights else []
    if rec.person is not None and rec.person not in data.columns:
        raise RiskcoreError(
            f"the table has no column {rec.person!r}, which links the rows of one person in "
            "the recipe: its classes count people, and without that column a person's rows "
            "cannot be told apart from other people's"
        )
    absent = [c for c in (*rec.quasi_identifiers, *rec.sensitive, *named) if c not in data.columns]
    if absent:
        raise RiskcoreError(f"the table has no column {absent[0]!r}, which the recipe names")
    keyed = keyed_steps(rec)
    secret: SecretKey | None = None
    if keyed and not skip_keyed:
        if key is None:
            raise RiskcoreError(
                f"the recipe has keyed steps ({'; '.join(keyed)}): give the key they were made "
                "with (riskcore apply --key-file FILE)"
            )
        secret = SecretKey(key)
        if rec.key_check is not None and key_check(secret) != rec.key_check:
            raise RiskcoreError(
                "this key is not the one the recipe was made with (its check value differs): "
                "the tokens and shifted dates would not match the earlier release"
            )
    work = data
    people = None if rec.person is None else data[rec.person].to_numpy()
    if rec.safe_harbor:
        work = run_safe_harbor(work, rec.safe_harbor).data
    lookups: list[pd.DataFrame] = []
    for step in masking_steps(rec):
        if step.operator.needs_key and secret is None:
            continue
        done = step.operator.run(work, step.columns, step.parameters, secret)
        work = done.data
        if done.lookup is not None:
            lookups.append(done.lookup)
    lookup_table = (
        pd.concat(lookups, ignore_index=True)[["column", "original", "surrogate"]]
        if lookups
        else pd.DataFrame()
    )
    skipped = tuple(keyed) if secret is None else ()
    numeric: NumericRiskUtility | None = None
    if not rec.quasi_identifiers:
        if rec.perturb:
            before = work
            work = run_steps(work, rec.perturb)
            numeric = _numeric(before, work, rec.perturb)
        return AppliedRecipe({}, {}, 0, True, skipped, work.copy(), lookup_table, numeric=numeric)
    hierarchies: dict[str, Hierarchy] = {}
    unknown: dict[str, list[Any]] = {}
    n_unknown: dict[str, int] = {}
    for q in rec.quasi_identifiers:
        h = rebuild(work[q], rec.hierarchies[q])
        leaf = h.leaf_index(work[q])
        miss = leaf == -1
        if miss.any():
            vals = pd.unique(work[q][miss])
            unknown[q] = [v.item() if isinstance(v, np.generic) else v for v in vals[:20]]
            n_unknown[q] = int(miss.sum())
            h = with_unknown(h, vals)
        hierarchies[q] = h
    targets = Targets.from_dict(rec.targets)
    steering = pinned_steering(rec, hierarchies)
    if people is not None:
        work = with_person_key(work, people)
    lattice = Lattice(
        work,
        hierarchies,
        sensitive=rec.sensitive,
        targets=targets,
        distance=rec.distances,  # type: ignore[arg-type]
        order=rec.orders,
        sensitive_hierarchies=rec.sensitive_hierarchies,
        missing=rec.missing,
        sampling_fraction=rec.sampling_fraction,
        weights=rec.weights,
        steering=steering,
        population_table=population_table,
        person=None if people is None else PERSON_KEY,
        events=rec.events,
    )
    level = dict(zip(rec.quasi_identifiers, rec.levels, strict=True))
    levels = [
        level[q] for q in lattice.quasi_identifiers
    ]  # the lattice's order: the QIs, then the events
    node = lattice.evaluate(levels)
    out = lattice.apply(work, levels, suppression=rec.suppression)
    persons = None  # the person of each released row
    if people is not None:
        persons = out[PERSON_KEY].to_numpy()
        out = out.drop(columns=PERSON_KEY)
    blanked = 0
    if rec.perturb:  # on the release: the rows keep their labels (positions in the table)
        before = out
        out = run_steps(out, rec.perturb)
        numeric = _numeric(before, out, rec.perturb)
        blanked = _blanked(before, out, rec.perturb, persons)
    verdict = None
    if node.verdict is not None:  # the release: removed plus blanked, judged by the criteria
        gone = node.suppressed + blanked
        verdict = with_suppressed(node.verdict, targets, gone, node.verdict.n_records,
                                  node.verdict.n_records - node.suppressed)  # fmt: skip
    return AppliedRecipe(
        unknown_values=unknown,
        n_unknown=n_unknown,
        suppressed=node.suppressed,
        within_limit=node.anonymous if verdict is None else verdict.passed,
        skipped=skipped,
        data=out,
        lookup=lookup_table,
        node=node,
        numeric=numeric,
        person=rec.person,
        suppressed_rows=node.suppressed_rows,
        blanked=blanked,
        verdict=verdict,
    )


def _numeric(
    before: pd.DataFrame, after: pd.DataFrame, steps: Sequence[PerturbStep]
) -> NumericRiskUtility | None:
    """Return dRisk and IL1s of the columns the steps change as numbers (None without)."""
    changed = numeric_columns(steps)
    # perturbation keeps every row in its place: compare row by row
    return numeric_risk_utility(before, after, changed) if changed else None


def with_unknown(hierarchy: Hierarchy, values: Any) -> Hierarchy:
    """Return ``hierarchy`` with ``values`` it does not hold joined at the top.

    Each new value is its own label at level 0 and ``"*"`` at every level above.

    Parameters
    ----------
    hierarchy : Hierarchy
        The recipe's hierarchy rebuilt on the data.
    values : array-like
        Values the hierarchy does not hold (distinct).

    Returns
    -------
    Hierarchy
        The same levels, one more leaf per value.
    """
    h = hierarchy
    extra = np.asarray(values, dtype=object)
    tops = np.full(len(extra), "*", dtype=object)
    return Hierarchy(
        h.column,
        np.concatenate([h.leaves, extra]),
        tuple(np.concatenate([lab, extra if i == 0 else tops]) for i, lab in enumerate(h.levels)),
        kind=h.kind,
        params=h.params,
        numeric=h.numeric,
    )


def pinned_steering(rec: Recipe, hierarchies: Mapping[str, Hierarchy]) -> Steering:
    """Return the recipe's steering checked, its levels pinned to the recipe's node.

    The weights and bounds are checked against the QIs and the hierarchies'
    heights, and the recipe's levels must lie within the bounds; the lattice
    that re-applies the node then holds that one node.

    Parameters
    ----------
    rec : Recipe
        The recipe.
    hierarchies : mapping of str to Hierarchy
        The recipe's hierarchies rebuilt on the data.

    Returns
    -------
    Steering
        The recipe's weights, every QI's bounds its level.

    Raises
    ------
    RiskcoreError
        For a recipe level outside its bounds (or a steering that does not fit).
    """
    heights = [hierarchies[q].height for q in rec.quasi_identifiers]
    steering = Steering.from_dict(rec.steering or {}).check(rec.quasi_identifiers, heights)
    for q, lv, h in zip(rec.quasi_identifiers, rec.levels, heights, strict=True):
        lo, hi = steering.bounds(q, h)
        if not lo <= lv <= hi:
            raise RiskcoreError(
                f"the recipe's level {lv} of {q!r} lies outside its level bounds {lo}..{hi}"
            )
    pins = {q: (lv, lv) for q, lv in zip(rec.quasi_identifiers, rec.levels, strict=True)}
    return Steering(steering.weights, pins)
