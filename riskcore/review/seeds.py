"""The seeds a review's numbers rest on, read from the recipe it applied.

A review draws random numbers only where the remediation does: the recipe's perturbation
steps that draw (PRAM and additive noise, :mod:`riskcore.perturb.steps`, each with its
``seed``), its masking steps that take a seed (realistic surrogates, Faker), and the
held-out split of the classification check
(:func:`riskcore.utility.tables.classification_utility`, its ``seed``). Everything else a
review computes (the assessment, SUDA, the attacks of :func:`riskcore.review.review`) is
exact. Keyed steps (the date shift, keyed tokens) take a key, not a seed, and are not
redone by a report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from riskcore.deidentify.recipe.base import masking_step
from riskcore.perturb.steps import perturb_step

if TYPE_CHECKING:
    from riskcore.review.results import Remediation

__all__ = ["seeds_used"]


def seeds_used(remediation: Remediation | None) -> list[dict[str, Any]]:
    """Return every seed the remediation drew with, in the order its steps run.

    Parameters
    ----------
    remediation : Remediation or None
        The review's remediation (None: no recipe, nothing drawn).

    Returns
    -------
    list of dict
        One ``{"step", "columns", "seed"}`` per drawing step: ``step`` is ``"surrogates"``
        (a masking step), ``"noise"`` or ``"pram"`` (a perturbation step) or
        ``"classification split"``; empty when nothing is drawn.
    """
    if remediation is None:
        return []
    recipe = remediation.recipe
    out: list[dict[str, Any]] = [
        {
            "step": step.operation,
            "columns": list(step.columns),
            "seed": int(step.parameters["seed"]),
        }
        for step in map(masking_step, recipe.masking)  # a recipe's dicts read as steps
        if "seed" in step.parameters
    ]
    out += [
        {"step": step.operation, "columns": list(step.columns), "seed": int(step.seed)}
        for step in map(perturb_step, recipe.perturb)  # a recipe's dicts read as steps
        if step.seed is not None
    ]
    model = remediation.classification
    if model is not None:
        out.append(
            {
                "step": "classification split",
                "columns": [model.target],
                "seed": int(model.seed),
            }
        )
    return out
