"""Recipes: what was done to a table, as versioned JSON that re-applies to new data.

A recipe names, per quasi-identifier, its hierarchy (the builder and its
parameters, or the table of labels) and the level chosen, plus the targets
whose failing classes are suppressed. :func:`apply_recipe` redoes the same
generalization on the same or next month's table, suppresses the classes that
break the targets there, and says what no longer fits: values the hierarchy
does not hold (new categories), and numbers beyond top or bottom coding
bands. Keys of keyed operators are never part of a recipe.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from riskcore._results import Result
from riskcore.deidentify.hierarchy import Hierarchy, _rebuild
from riskcore.errors import RiskcoreError

__all__ = ["RECIPE_VERSION", "AppliedRecipe", "Recipe", "apply_recipe", "generalize_columns"]

#: Version of the recipe format; raise it when a field changes meaning.
RECIPE_VERSION = 1


def generalize_columns(
    data: pd.DataFrame, hierarchies: Mapping[str, Hierarchy], levels: Mapping[str, int]
) -> pd.DataFrame:
    """Return ``data`` with each QI replaced by its label at its level.

    Level 0 keeps the column as it is; above it the column holds the labels
    (text). Missing values stay missing. A value the hierarchy does not hold
    becomes ``"*"`` (reported by :func:`apply_recipe`).
    """
    out = data.copy()
    for q, level in levels.items():
        if level == 0:
            continue
        h = hierarchies[q]
        leaf = h.leaf_index(data[q])
        labels = np.asarray(h.levels[level], dtype=object)
        values = np.where(leaf >= 0, labels[np.maximum(leaf, 0)], "*").astype(object)
        values[leaf == -2] = None
        out[q] = pd.Series(values, index=data.index, dtype=object)
    return out


@dataclass(frozen=True)
class Recipe(Result):
    """A generalization and suppression that can be written, read and re-applied.

    Attributes
    ----------
    qis : tuple of str
    levels : tuple of int
        Level of each QI.
    hierarchies : dict
        Per QI, :meth:`Hierarchy.recipe` (builder and parameters, or the table).
    targets : dict
        :class:`~riskcore.deidentify.lattice.Targets` as a dict.
    sensitive : tuple of str
    suppression : {"drop", "mask"}
    version : int
        :data:`RECIPE_VERSION`.
    """

    qis: tuple[str, ...]
    levels: tuple[int, ...]
    hierarchies: dict[str, Any]
    targets: dict[str, Any]
    sensitive: tuple[str, ...] = ()
    suppression: str = "drop"
    version: int = RECIPE_VERSION

    @classmethod
    def of(
        cls,
        hierarchies: Mapping[str, Hierarchy],
        levels: Mapping[str, int],
        targets: Any,
        *,
        sensitive: tuple[str, ...] = (),
        suppression: str = "drop",
    ) -> Recipe:
        """Return the recipe of a chosen node (``targets`` a Targets)."""
        qis = tuple(hierarchies)
        return cls(
            qis=qis,
            levels=tuple(int(levels[q]) for q in qis),
            hierarchies={q: hierarchies[q].recipe() for q in qis},
            targets=targets.to_dict(),
            sensitive=tuple(sensitive),
            suppression=suppression,
        )


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
    """

    unknown_values: dict[str, list[Any]]
    n_unknown: dict[str, int]
    suppressed: int
    within_limit: bool
    data: pd.DataFrame = field(default_factory=pd.DataFrame, metadata={"json": False})


def apply_recipe(data: pd.DataFrame, recipe: Recipe | Mapping[str, Any]) -> AppliedRecipe:
    """Re-apply a recipe to a table (the same one, or new data of the same shape).

    Hierarchies given by a builder (intervals, dates, prefixes, flat) are
    rebuilt on the new data, so new numbers and dates have a label; a
    hierarchy given as a table keeps its table, and values it does not hold
    are reported and made ``"*"``. Classes that break the recipe's targets are
    suppressed as the recipe says.
    """
    from riskcore.deidentify.lattice import Lattice, Targets

    rec = recipe if isinstance(recipe, Recipe) else Recipe.from_dict(recipe)
    if rec.version > RECIPE_VERSION:
        raise RiskcoreError(
            f"the recipe has version {rec.version}; this riskcore reads up to {RECIPE_VERSION}"
        )
    absent = [c for c in (*rec.qis, *rec.sensitive) if c not in data.columns]
    if absent:
        raise RiskcoreError(f"the table has no column {absent[0]!r}, which the recipe names")
    hierarchies: dict[str, Hierarchy] = {}
    unknown: dict[str, list[Any]] = {}
    n_unknown: dict[str, int] = {}
    work = data.copy()
    for q in rec.qis:
        h = _rebuild(data[q], rec.hierarchies[q])
        leaf = h.leaf_index(data[q])
        miss = leaf == -1
        if miss.any():
            vals = pd.unique(data[q][miss])
            unknown[q] = [v.item() if isinstance(v, np.generic) else v for v in vals[:20]]
            n_unknown[q] = int(miss.sum())
            # the new values join the top of the hierarchy: "*" at every level but 0
            extra = np.asarray(vals, dtype=object)
            tops = np.full(len(extra), "*", dtype=object)
            h = Hierarchy(
                q,
                np.concatenate([h.leaves, extra]),
                tuple(
                    np.concatenate([lab, extra if i == 0 else tops])
                    for i, lab in enumerate(h.levels)
                ),
                kind=h.kind,
                params=h.params,
                numeric=h.numeric,
            )
        hierarchies[q] = h
    targets = Targets.from_dict(rec.targets)
    lattice = Lattice(work, hierarchies, sensitive=rec.sensitive, targets=targets)
    node = lattice.evaluate(rec.levels)
    out = lattice.apply(work, rec.levels, suppression=rec.suppression)
    return AppliedRecipe(
        unknown_values=unknown,
        n_unknown=n_unknown,
        suppressed=node.suppressed,
        within_limit=node.anonymous,
        data=out,
    )
