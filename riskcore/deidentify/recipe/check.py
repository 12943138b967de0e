"""Checks of a recipe before it runs: not stripped, not altered, of a known version.

``riskcore apply`` once wrote raw SSNs with exit code 0 from a recipe whose
``masking`` section had been deleted, accepted any key when ``key_check`` was
removed, and read version -5. :func:`check_recipe` refuses each before any step
runs; :func:`read_recipe` also requires the seal
(:mod:`riskcore.deidentify.recipe.seal`) of a recipe read from a file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from riskcore.deidentify.masking import SecretKey
from riskcore.deidentify.recipe.base import (
    RECIPE_VERSION,
    Recipe,
    _masked_columns,
    _spec,
    key_check,
    keyed_steps,
)
from riskcore.deidentify.recipe.seal import SEAL_HMAC, seal_matches
from riskcore.errors import RiskcoreError

__all__ = ["check_recipe", "read_recipe"]


def check_recipe(
    recipe: Recipe, key: SecretKey | bytes | None = None, *, sealed: bool = False
) -> None:
    """Refuse a recipe that was stripped or altered, before any step runs.

    Checked: the version is a known one (1 to :data:`RECIPE_VERSION`); every
    direct identifier the recipe names (``identifiers``) has a masking or
    Safe Harbor ``dropped`` step; a written recipe (sealed, or read with
    ``sealed``) with keyed steps has its ``key_check``; and its seal, when
    it has one (or always, with ``sealed``), matches its content: the HMAC under ``key`` with keyed
    steps (not checked without the key: a report names the keyed steps and
    redoes none), the SHA-256 otherwise.

    Parameters
    ----------
    recipe : Recipe
        The recipe.
    key : SecretKey or bytes, optional
        The key of its keyed steps.
    sealed : bool, default False
        Require a seal (a recipe read from a file: ``riskcore apply``).

    Raises
    ------
    RiskcoreError
        Naming what is wrong and what to do.
    """
    v = recipe.version
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= RECIPE_VERSION:
        raise RiskcoreError(
            f"the recipe has version {v!r}; this riskcore reads versions 1 to {RECIPE_VERSION}"
        )
    bare = [c for c in recipe.identifiers if c not in set(_masked_columns(recipe))]
    if bare:
        raise RiskcoreError(
            f"the recipe names {bare[0]!r} as a direct identifier but has no masking step for "
            "it: it would be written as it is; use the recipe anonymize wrote"
        )
    keyed = keyed_steps(recipe)
    if keyed and recipe.key_check is None and (sealed or recipe.seal is not None):
        raise RiskcoreError(
            f"the recipe has keyed steps ({'; '.join(keyed)}) but no key_check: it cannot "
            "tell the right key from another; use the recipe anonymize wrote"
        )
    if recipe.seal is None and not sealed:
        return
    if recipe.seal is None:
        raise RiskcoreError(
            "the recipe has no seal (its HMAC or SHA-256), so a removed step cannot be "
            "detected: make it again with this riskcore (anonymize or the Remediate page)"
        )
    if keyed and key is not None and recipe.key_check not in (None, key_check(key)):
        raise RiskcoreError(
            "this key is not the one the recipe was made with (its check value differs): "
            "the tokens and shifted dates would not match the earlier release"
        )
    if keyed and key is None:
        return  # an HMAC needs the key; the steps it covers are not redone without it
    ok = (recipe.seal.get("kind") == SEAL_HMAC) == bool(keyed) and seal_matches(
        _spec(recipe), key if keyed else None
    )
    if not ok:
        raise RiskcoreError(
            "the recipe's seal does not match its content"
            + (" under this key" if keyed else "")
            + ": it was changed after it was written (a step removed or edited); use the "
            "recipe anonymize wrote"
        )


def read_recipe(spec: Mapping[str, Any], key: SecretKey | bytes | None = None) -> Recipe:
    """Return a recipe read from a file, refused unless sealed and intact (:func:`check_recipe`).

    Parameters
    ----------
    spec : mapping
        The recipe as read from JSON.
    key : SecretKey or bytes, optional
        The key of its keyed steps.

    Returns
    -------
    Recipe

    Raises
    ------
    RiskcoreError
        When the recipe is not valid, not sealed, or altered.
    """
    version = spec.get("version") if isinstance(spec, Mapping) else None
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise RiskcoreError(
            f"the recipe has version {version!r}; this riskcore reads versions 1 to "
            f"{RECIPE_VERSION}"
        )
    try:
        rec = Recipe.from_dict(spec)
    except (KeyError, TypeError, ValueError) as exc:
        raise RiskcoreError(f"the recipe is not valid: {exc}") from None
    check_recipe(rec, key, sealed=True)
    return rec
