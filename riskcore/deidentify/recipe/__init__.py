"""A release's recipe: what was done to the table, sealed, re-appliable byte for byte.

==================  =====================================================================
module              what
==================  =====================================================================
:mod:`.base`        :class:`Recipe`: levels, masking, Safe Harbor, date shift, perturbation
                    and the targets, versioned JSON; :func:`generalize_columns`
:mod:`.apply`       :func:`apply_recipe`: a recipe replayed on a table, judged again
:mod:`.check`       a recipe file read and checked before anything runs
:mod:`.seal`        the recipe's keyed seal (HMAC), so an edited recipe is refused
:mod:`.identifiers` direct identifiers no step treats: found, refused or allowed
:mod:`.steps`       the recipe's steps in words, in the order they run
:mod:`.parameters`  each step's parameters checked and named
==================  =====================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from riskcore._exports import lazy_exports

if TYPE_CHECKING:
    from riskcore.deidentify.recipe.apply import (
        PERSON_KEY,
        AppliedRecipe,
        apply_recipe,
        pinned_steering,
        with_person_key,
        with_unknown,
    )
    from riskcore.deidentify.recipe.base import (
        DATE_SHIFT,
        RECIPE_VERSION,
        MaskingStep,
        Recipe,
        generalize_columns,
        generalize_known,
        key_check,
        keyed_steps,
        mask_step,
        masking_steps,
        seal_recipe,
    )

_WHERE: dict[str, str] = {
    "DATE_SHIFT": "base",
    "RECIPE_VERSION": "base",
    "MaskingStep": "base",
    "Recipe": "base",
    "generalize_columns": "base",
    "generalize_known": "base",
    "key_check": "base",
    "keyed_steps": "base",
    "mask_step": "base",
    "masking_steps": "base",
    "seal_recipe": "base",
    "PERSON_KEY": "apply",
    "AppliedRecipe": "apply",
    "apply_recipe": "apply",
    "pinned_steering": "apply",
    "with_person_key": "apply",
    "with_unknown": "apply",
}

__all__ = [
    "DATE_SHIFT",
    "PERSON_KEY",
    "RECIPE_VERSION",
    "AppliedRecipe",
    "MaskingStep",
    "Recipe",
    "apply_recipe",
    "generalize_columns",
    "generalize_known",
    "key_check",
    "keyed_steps",
    "mask_step",
    "masking_steps",
    "pinned_steering",
    "seal_recipe",
    "with_person_key",
    "with_unknown",
]

__getattr__, __dir__ = lazy_exports(__name__, _WHERE)
