"""Every step of a recipe, in order and in words, derived from the recipe's data.

:func:`recipe_steps` lists what a :class:`~riskcore.deidentify.recipe.base.Recipe`
does, in the order :func:`~riskcore.deidentify.recipe.apply.apply_recipe` does it:

1. the HIPAA Safe Harbor transforms ("zip: first 3 digits kept, 000 for areas
   of 20,000 people or fewer (Safe Harbor)");
2. the keyed date shift, one step per date column ("admitted: shifted by one
   keyed random number of days per ssn, at most 180 days either way, key
   check 1a2b...");
3. each masking step, in the words of its operator in the masking registry
   (:data:`~riskcore.deidentify.masking.registry.OPERATORS`: "ssn: last 4
   digits kept", "mrn: keyed HMAC-SHA256 token (16 hex characters, 64 bits),
   key check 1a2b...", "name: surrogate names (Faker)", "note: redacted",
   "fax: column dropped");
   then each detected direct identifier the operator released as it is
   (``--allow-identifiers``: "name: released as it is, a direct identifier allowed
   by --allow-identifiers");
4. each perturbation step (local suppression, microaggregation, PRAM, noise:
   "income: replaced by the means of groups of at least 3 records (MDAV over
   income, savings)");
5. each quasi-identifier's (and event column's) generalization level, in the
   words of its hierarchy's kind (:func:`~riskcore.deidentify.hierarchy.level_words`:
   "date_of_birth: removed (*)", "date_of_birth: year", "age: 10-year bands",
   "zip: first 3 characters kept", "sex: kept as recorded");
6. the suppression ("records of classes that break the targets removed, up
   to 2% allowed");
7. the key's check value (never the key).

Each step is a :class:`RecipeStep`, the one typed :class:`~riskcore._steps.Step` with its
words (JSON-ready); its words are derived from its data and never read back into data.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from riskcore._results import NOT_IN_JSON
from riskcore._steps import Step
from riskcore.deidentify.hierarchy import level_words
from riskcore.deidentify.recipe.base import Recipe, masking_steps
from riskcore.errors import RiskcoreError
from riskcore.perturb.steps import METHODS, PerturbStep, perturb_step

__all__ = ["SAFE_HARBOR_WORDS", "STEP_KINDS", "RecipeStep", "recipe_steps"]

#: The kinds of step, in the order a recipe applies them, with their labels.
STEP_KINDS: Mapping[str, str] = types.MappingProxyType(
    {
        "safe_harbor": "Safe Harbor",
        "date_shift": "date shift",
        "masking": "masking",
        "kept": "kept as it is",
        "perturbation": "perturbation",
        "generalization": "generalization",
        "suppression": "suppression",
        "key": "key",
    }
)


@dataclass(frozen=True, init=False)
class RecipeStep(Step):
    """One step of a recipe, with what it does in words: a :class:`~riskcore._steps.Step`.

    Made as it always was, ``RecipeStep(kind, column, operation, parameters, effect,
    words)``, and written as before (``column``, not ``columns``): its ``columns`` are
    ``(column,)``, or none for the suppression and the key.

    Attributes
    ----------
    kind : str
        One of :data:`STEP_KINDS`.
    column : str
        The column it changes; ``""`` for the suppression and the key.
    operation : str
        What is done, as the recipe names it: the Safe Harbor action
        (``"zip3"``), the masking operator (``"mask_digits"``,
        ``"shift_dates"``), the perturbation method (``"pram"``), the hierarchy's kind
        (``"interval"``, ``"table"``), the suppression (``"drop"``, ``"mask"``), or
        ``"key_check"``.
    parameters : dict
        Its parameters (a generalization's ``level`` and its hierarchy's
        builder parameters; a masking step's every parameter, defaults filled in; a
        perturbation step's ``params`` and ``seed`` as its recipe entry holds them).
    effect : str
        What it does to the column, in words ("last 4 digits kept").
    words : str
        The step in one line: ``"column: effect"`` ("ssn: last 4 digits
        kept"), or the effect alone for a step without a column.
    columns : tuple of str
        ``(column,)``, or ``()`` without one (derived, not written).
    """

    columns: tuple[str, ...] = field(
        default=(), init=False, repr=False, compare=False, metadata=NOT_IN_JSON
    )
    column: str = ""
    effect: str = ""
    words: str = ""

    def __init__(
        self,
        kind: str,
        column: str,
        operation: str,
        parameters: dict[str, Any],
        effect: str,
        words: str,
    ) -> None:
        self._made(kind=kind, column=column, operation=operation, parameters=parameters,
                   effect=effect, words=words, columns=(column,) if column else ())  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """Return the step as JSON values, in the order it was always written.

        Returns
        -------
        dict of str to Any
            ``schema_version``, ``kind``, ``column``, ``operation``, ``parameters``,
            ``effect`` and ``words``.
        """
        out = super().to_dict()
        order = ("schema_version", "kind", "column", "operation", "parameters", "effect", "words")
        return {k: out[k] for k in order}


def _step(
    kind: str, column: str, operation: str, parameters: dict[str, Any], effect: str
) -> RecipeStep:
    words = f"{column}: {effect}" if column else effect
    return RecipeStep(kind, column, operation, parameters, effect, words)


def _birth_years(spec: Mapping[str, Any]) -> str:
    if not spec.get("birth"):
        return "year kept (Safe Harbor)"
    as_of = spec.get("as_of")
    if as_of is None:
        return "year kept, birth years implying an age over 89 grouped (Safe Harbor)"
    last = int(as_of) - 90
    return f'year kept, birth years up to {last} grouped as "{last} or earlier" (Safe Harbor)'


#: Words of each Safe Harbor action a recipe records
#: (:func:`~riskcore.deidentify.safe_harbor.run_safe_harbor`).
SAFE_HARBOR_WORDS: Mapping[str, Callable[[Mapping[str, Any]], str]] = types.MappingProxyType(
    {
        "zip3": lambda s: (
            "first 3 digits kept, 000 for areas of 20,000 people or fewer (Safe Harbor)"
        ),
        "age_90_plus": lambda s: "ages over 89 grouped as 90+ (Safe Harbor)",
        "date_year": _birth_years,
        "dropped": lambda s: "column dropped (Safe Harbor)",
    }
)


def _share(x: float) -> str:
    return f"{100 * x:.4g}%"


def _suppression(how: str, max_suppression: float) -> str:
    limit = f"up to {_share(max_suppression)} allowed" if max_suppression > 0 else "none allowed"
    if how == "mask":
        return (
            "quasi-identifiers of the records of classes that break the targets replaced "
            f"by *, {limit}"
        )
    return f"records of classes that break the targets removed, {limit}"


def _perturb_words(step: PerturbStep | Mapping[str, Any]) -> list[tuple[str, str]]:
    """Return (column, effect) pairs of one ``perturb`` step, from its registered method."""
    step = perturb_step(step)
    method = METHODS.get(step.operation)
    if method is None:
        raise RiskcoreError(f"unknown perturbation method {step.operation!r} in the recipe")
    return method.describe(list(step.columns), step.params, step.seed)


def recipe_steps(
    recipe: Recipe | Mapping[str, Any], *, units: Mapping[str, str] | None = None
) -> tuple[RecipeStep, ...]:
    """Return every step of a recipe, in the order it applies them, each in words.

    Parameters
    ----------
    recipe : Recipe or mapping
        A recipe, or its JSON (:meth:`Recipe.to_dict`; older versions read).
    units : mapping of str to str, optional
        What the numbers of a quasi-identifier count (``{"age": "year"}``):
        its bands then read "10-year bands" instead of "bands of 10".

    Returns
    -------
    tuple of RecipeStep
        Safe Harbor transforms, the date shift (one step per date column), the
        masking steps, the direct identifiers allowed as they are, the perturbation
        steps, one generalization step per quasi-identifier, the
        suppression (when there are quasi-identifiers), and the key's check
        value (when a step is keyed). The key itself is never in a recipe.

    Raises
    ------
    RiskcoreError
        For a step the recipe names that riskcore does not know (an operator,
        a Safe Harbor action, a hierarchy kind) or with bad parameters.
    """
    rec = recipe if isinstance(recipe, Recipe) else Recipe.from_dict(recipe)
    units = dict(units or {})
    out: list[RecipeStep] = []
    for spec in rec.safe_harbor:
        action, params = spec.action, dict(spec.parameters)
        if action not in SAFE_HARBOR_WORDS:
            raise RiskcoreError(f"unknown Safe Harbor action {action!r} in the recipe")
        out.append(_step(spec.kind, spec.column, action, params, SAFE_HARBOR_WORDS[action](params)))
    check = f", key check {rec.key_check}" if rec.key_check else ", key check not recorded"
    for m in masking_steps(rec):
        params = m.operator.configure(m.parameters)
        effect = m.operator.describe(params) + (check if m.operator.needs_key else "")
        for col in m.columns:
            out.append(_step(m.kind, col, m.operator.name, params, effect))
    for col in rec.allowed_identifiers:
        effect = "released as it is, a direct identifier allowed by --allow-identifiers"
        out.append(_step("kept", col, "allow_identifiers", {}, effect))
    for p in rec.perturb:
        params = {k: v for k, v in p.to_dict().items() if k not in ("method", "columns")}
        for col, effect in _perturb_words(p):
            out.append(_step(p.kind, col, p.operation, params, effect))
    for q, lv in zip(rec.quasi_identifiers, rec.levels, strict=True):
        spec = rec.hierarchies[q]
        params = {"level": int(lv), **dict(spec.get("params") or {})}
        effect = level_words(spec, int(lv), unit=units.get(q))
        if q in rec.events:
            effect += " (an event column: its visits judged by k^m-anonymity)"
        out.append(_step("generalization", q, str(spec.get("kind")), params, effect))
    if rec.quasi_identifiers:
        limit = float(rec.targets.get("max_suppression") or 0.0)
        effect = _suppression(rec.suppression, limit)
        out.append(_step("suppression", "", rec.suppression, {"max_suppression": limit}, effect))
    if rec.key_check:
        effect = f"the key is not recorded; its check value is {rec.key_check}"
        out.append(_step("key", "", "key_check", {"key_check": rec.key_check}, effect))
    return tuple(out)
