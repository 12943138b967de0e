"""One typed step: what is done, to which columns, with which JSON parameters.

Every step riskcore records or shows is a :class:`Step` (or a subclass adding what its
place needs), so a reader meets one type in the recipe, its words and the history:

- a recipe's perturbation step, :class:`~riskcore.perturb.steps.PerturbStep`, adds the
  recipe's JSON layout of it;
- a recipe's date shift and masking step, ``MaskingStep``
  (:mod:`riskcore.deidentify.recipe.base`), adds its operator, looked up in the masking
  registry (``OPERATORS``) by ``operation``;
- every step of a recipe in words, ``RecipeStep`` (:mod:`riskcore.deidentify.recipe.steps`),
  adds its effect and words;
- a step a user applied, ``AppliedStep`` (:mod:`riskcore.deidentify.history.base`), adds
  the risk and loss after it and when.

``operation`` names an entry of a registry where the step's kind has one (a masking
operator of ``OPERATORS``, a perturbation method of
:data:`~riskcore.perturb.steps.METHODS`); the registry, not the step, says how it runs.
This module sits at the bottom of the layers (beside :mod:`riskcore._results`) so that
perturb, deidentify and the history can all derive from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from riskcore._results import Result
from riskcore.errors import RiskcoreError

__all__ = ["Step"]


@dataclass(frozen=True)
class Step(Result):
    """One step: what is done (``kind`` and ``operation``), to which columns, with what.

    Attributes
    ----------
    kind : str
        What sort of step it is (``"masking"``, ``"perturbation"``, ``"generalization"``).
    operation : str
        What is done, as the recipe names it: a masking operator (``"mask_digits"``), a
        perturbation method (``"pram"``), a hierarchy's kind (``"interval"``).
    columns : tuple of str
        The columns it changes; empty for a step on the whole table (the suppression).
    parameters : dict
        Its parameters, JSON values (a seeded step's ``seed`` among them).

    Raises
    ------
    RiskcoreError
        When ``kind`` or ``operation`` is not text, ``columns`` not a list of names or
        ``parameters`` not a mapping.

    Examples
    --------
    >>> step = Step("perturbation", "pram", ("sex",), {"pd": 0.8, "seed": 1})
    >>> Step.from_dict(step.to_dict()) == step
    True
    """

    kind: str
    operation: str
    columns: tuple[str, ...] = ()
    parameters: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("kind", "operation"):
            if not isinstance(getattr(self, name), str):
                raise RiskcoreError(f"a step's {name} is text, not {getattr(self, name)!r}")
        columns = self.columns
        if isinstance(columns, str):  # one column given as text, not its letters
            columns = (columns,)
        if not isinstance(columns, (list, tuple)):
            raise RiskcoreError(f"a {self.kind} step's columns are a list, not {columns!r}")
        object.__setattr__(self, "columns", tuple(str(c) for c in columns))
        params = self.parameters
        if not isinstance(params, Mapping):
            raise RiskcoreError(f"a {self.kind} step's parameters are a mapping")
        object.__setattr__(self, "parameters", dict(params))
