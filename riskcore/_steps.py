"""One typed step: what is done, to which columns, with which JSON parameters.

Every step riskcore records or shows is a :class:`Step` (or a subclass adding what its
place needs), so a reader meets one type in the recipe, its words and the history:

- a recipe's perturbation step, :class:`~riskcore.perturb.steps.PerturbStep`, adds the
  recipe's JSON layout of it;
- a recipe's date shift and masking step, ``MaskingStep``
  (:mod:`riskcore.deidentify.recipe.base`), adds its operator, looked up in the masking
  registry (``OPERATORS``) by ``operation``, and the recipe's JSON layout of it;
- a recipe's Safe Harbor step, ``SafeHarborStep``
  (:mod:`riskcore.deidentify.safe_harbor.transforms`), adds its column, its action and
  the recipe's JSON layout of it;
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

import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from riskcore._results import Result
from riskcore.errors import RiskcoreError

__all__ = ["ReadAsDict", "Step"]


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

    def _made(self, **values: Any) -> None:
        """Set the fields of a step a subclass's own ``__init__`` makes (frozen), and check them.

        Parameters
        ----------
        **values
            Each field's value.
        """
        for name, value in values.items():
            object.__setattr__(self, name, value)
        self.__post_init__()


class ReadAsDict:
    """Deprecated reading of a recipe's step as the dict it was (``step["column"]``).

    A recipe held its steps as dicts before they were typed; a :class:`Step` subclass that
    writes a recipe's JSON layout in ``to_dict`` derives from this mixin first, so code
    that read the dict still does, with a DeprecationWarning naming the typed fields.
    """

    def _as_dict(self, what: str) -> dict[str, Any]:
        step = cast(Step, self)
        warnings.warn(
            f"reading a {step.kind} step as a dict ({what}) is deprecated: it is a "
            f"{type(self).__name__}; read .operation, .columns, .parameters (or .to_dict(), "
            "the recipe's JSON)",
            DeprecationWarning,
            stacklevel=3,
        )
        return step.to_dict()

    def keys(self) -> list[str]:
        """Deprecated: the keys of ``to_dict`` (a step was a dict).

        Returns
        -------
        list of str
        """
        return list(self._as_dict("keys()"))

    def __getitem__(self, key: str) -> Any:
        """Deprecated: a value of ``to_dict`` (a step was a dict)."""
        return self._as_dict(f"[{key!r}]")[key]

    def get(self, key: str, default: Any = None) -> Any:
        """Deprecated: a value of ``to_dict``, or ``default`` (a step was a dict).

        Parameters
        ----------
        key : str
            A key of the recipe's dict of the step (``"column"``, ``"method"``).
        default : object, optional
            What a missing key gives.

        Returns
        -------
        object
        """
        return self._as_dict(f".get({key!r})").get(key, default)

    def __contains__(self, key: object) -> bool:
        """Deprecated: whether ``to_dict`` has ``key`` (a step was a dict)."""
        return key in self._as_dict(f"{key!r} in")

    def __iter__(self) -> Iterator[str]:
        """Deprecated: the keys of ``to_dict`` (a step was a dict: ``for key in step``)."""
        return iter(self._as_dict("iteration"))

    def __len__(self) -> int:
        """Deprecated: the number of keys of ``to_dict`` (a step was a dict)."""
        return len(self._as_dict("len()"))

    def items(self) -> list[tuple[str, Any]]:
        """Deprecated: the items of ``to_dict`` (a step was a dict).

        Returns
        -------
        list of (str, object)
        """
        return list(self._as_dict("items()").items())

    def values(self) -> list[Any]:
        """Deprecated: the values of ``to_dict`` (a step was a dict).

        Returns
        -------
        list of object
        """
        return list(self._as_dict("values()").values())
