"""A session's history of remediation steps, with undo, redo and "go back to here".

Every step a user applies (a Safe Harbor transform, a date shift, a masking, a
hierarchy, a change of levels, a search result chosen, a steering, new targets) is
one :class:`AppliedStep`, the one typed :class:`~riskcore._steps.Step` with what the
history adds: what (``kind``), its parameters (JSON values; its ``operation`` and
``columns`` derived from them), when (ISO 8601, UTC) and the risk and loss after it
(plain numbers the caller measured). A
:class:`History` holds the steps and a cursor, ``position``: the steps before it are
applied, the ones after it are the redo tail. Applying a step after an undo drops
the redo tail, as in every editor (and sdcMicro's sdcApp).

The recipe is the list: each kind maps onto one field of
:class:`~riskcore.deidentify.recipe.base.Recipe`, and :meth:`History.to_recipe` folds the
applied steps, in order, into a recipe (a later step of the same column replaces an
earlier one, as re-applying the recipe does it once; a Safe Harbor drop and a masking of
the same column replace each other):

============  =====================================================================
kind          parameters -> recipe field
============  =====================================================================
safe_harbor   ``{"steps": [{"column", "action", ...}, ...]}``
              (:func:`~riskcore.deidentify.safe_harbor.safe_harbor_plan`) -> ``safe_harbor``
              (it takes over the hierarchy of a column it transforms: the flat one, level 0)
date_shift    ``{"person", "columns", "max_days"}`` -> ``date_shift``
masking       ``{"column", "operator", "params"}``
              (:func:`~riskcore.deidentify.recipe.base.mask_step`) -> ``masking``
perturb       ``{"method", "columns", "params", "seed"}`` (:meth:`PerturbStep.to_dict
              <riskcore.perturb.steps.PerturbStep.to_dict>`)
              -> appended to ``perturb`` (each runs on the result of the ones before)
hierarchy     ``{"column", "hierarchy"}`` (:meth:`Hierarchy.recipe
              <riskcore.deidentify.hierarchy.Hierarchy.recipe>`) -> ``hierarchies``
              (the column joins ``quasi_identifiers``; its level restarts at 0)
levels        ``{"levels": {column: level}}`` -> ``levels`` (an optional ``"hierarchies"``
              ``{column: hierarchy's recipe}`` sets them first: one step, one undo)
search        ``{"levels": {column: level}, "objective"}`` -> ``levels``, ``objective``
              (``"hierarchies"`` as for levels; an optional ``"steering"`` -> ``steering``)
steering      :meth:`Steering.to_dict <riskcore.deidentify.search.steering.Steering.to_dict>`
              -> ``steering``
targets       :meth:`Targets.to_dict <riskcore.criteria.Targets.to_dict>` -> ``targets``
============  =====================================================================

:func:`steps_of` gives the steps of a recipe (its inverse: a recipe loaded from a
file becomes a history), and :func:`~riskcore.deidentify.history.script.command_script`
writes a POSIX shell script that reproduces the table with ``riskcore apply`` (the
counterpart of sdcApp's R script).
Keys never enter a step, a history, its JSON or the script: a parameter named like
a key, or a value that is not JSON (a :class:`~riskcore.deidentify.masking.SecretKey`),
is refused, and the script names only the file the key must be in.
"""

from __future__ import annotations

import dataclasses
import math
import types
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from riskcore import _steps
from riskcore._results import NOT_IN_JSON, Result
from riskcore.deidentify.masking import SecretKey
from riskcore.deidentify.recipe.base import (
    RECIPE_VERSION,
    Recipe,
    _masked_columns,
    masking_step,
    seal_recipe,
)
from riskcore.deidentify.recipe.parameters import _check, _json, _levels, _revived
from riskcore.deidentify.safe_harbor.transforms import safe_harbor_step
from riskcore.errors import RiskcoreError
from riskcore.perturb.steps import perturb_step

__all__ = [
    "MAX_STEPS",
    "STEP_KINDS",
    "TAKEN_OVER",
    "AppliedStep",
    "History",
    "steps_of",
]

_S = TypeVar("_S", bound=_steps.Step)

#: The most steps a history holds; :meth:`History.apply` refuses one more.
MAX_STEPS = 500

#: The kinds of step, with their labels, in the order a recipe applies them.
STEP_KINDS: Mapping[str, str] = types.MappingProxyType(
    {
        "safe_harbor": "Safe Harbor",
        "date_shift": "date shift",
        "masking": "masking",
        "perturb": "perturbation",
        "hierarchy": "hierarchy",
        "levels": "levels",
        "search": "search result",
        "steering": "steering",
        "targets": "targets",
    }
)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _levels_columns(p: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(p.get("levels") or {})


#: What a step of each kind does and to which columns, from its parameters (its
#: ``operation`` and ``columns`` as a :class:`~riskcore._steps.Step`).
_WHAT: Mapping[str, Callable[[Mapping[str, Any]], tuple[str, tuple[str, ...]]]] = (
    types.MappingProxyType(
        {
            "safe_harbor": lambda p: ("safe_harbor", tuple(s["column"] for s in p["steps"])),
            "date_shift": lambda p: ("shift_dates", tuple(p["columns"])),
            "masking": lambda p: (str(p["operator"]), (p["column"],)),
            "perturb": lambda p: (str(p["method"]), p.get("columns") or ()),
            "hierarchy": lambda p: (str(p["hierarchy"]["kind"]), (p["column"],)),
            "levels": lambda p: ("levels", _levels_columns(p)),
            "search": lambda p: (str(p["objective"]), _levels_columns(p)),
            "steering": lambda p: ("steering", ()),
            "targets": lambda p: ("targets", ()),
        }
    )
)


@dataclass(frozen=True)
class AppliedStep(_steps.Step):
    """One step a user applied: a :class:`~riskcore._steps.Step`, when, and the risk and loss after.

    Made as the history's step always was, ``AppliedStep(kind, parameters, risk, loss,
    at)`` (``riskcore.deidentify.history.Step``, its old name, still works with a
    DeprecationWarning), and written as before: its ``operation`` and ``columns`` are
    derived from its kind and parameters (a masking step's operator and column, a
    perturb step's method and columns, a levels step's columns), not written.

    Attributes
    ----------
    kind : str
        One of :data:`STEP_KINDS`.
    parameters : dict
        JSON values of the shape of its kind (the table of :mod:`this module
        <riskcore.deidentify.history.base>`); never a key.
    risk : float or None
        The risk after the step, as the caller measured it (the page's headline
        risk, e.g. the largest record risk); None when not measured.
    loss : float or None
        The information loss after the step, as the caller measured it (e.g. NCP).
    at : str
        When it was applied: ISO 8601 (default now, UTC, to the second).
    operation : str
        What is done (derived): the operator, method, hierarchy kind or objective, else
        the kind.
    columns : tuple of str
        The columns it sets (derived); none for the steering and the targets.

    Raises
    ------
    RiskcoreError
        For an unknown kind, parameters not of its shape or not JSON (a key), a
        time that is not ISO 8601, or a risk or loss that is not a finite number.
    """

    operation: str = field(default="", init=False, compare=False, metadata=NOT_IN_JSON)
    columns: tuple[str, ...] = field(default=(), init=False, compare=False, metadata=NOT_IN_JSON)
    parameters: dict[str, Any]
    risk: float | None = None
    loss: float | None = None
    at: str = field(default_factory=_now)

    def __post_init__(self) -> None:
        if self.kind not in STEP_KINDS:
            raise RiskcoreError(
                f"unknown kind of step {self.kind!r}; known: {', '.join(STEP_KINDS)}"
            )
        if not isinstance(self.parameters, Mapping):
            raise RiskcoreError(f"a {self.kind} step's parameters are a mapping")
        params = _json(self.parameters, f"the {self.kind} step's parameters")
        _check(self.kind, params)
        object.__setattr__(self, "parameters", params)
        operation, columns = _WHAT[self.kind](params)
        object.__setattr__(self, "operation", operation)
        object.__setattr__(self, "columns", columns)
        super().__post_init__()
        for name in ("risk", "loss"):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise RiskcoreError(f"a step's {name} is a number or None, not {value!r}")
            if not math.isfinite(value):  # from_dict reads a written None back as NaN
                object.__setattr__(self, name, None)
            else:
                object.__setattr__(self, name, float(value))
        try:
            datetime.fromisoformat(str(self.at))
        except ValueError:
            raise RiskcoreError(f"a step's time is ISO 8601, not {self.at!r}") from None


def __getattr__(name: str) -> Any:
    """The history step's old name, ``Step``, with a DeprecationWarning (PEP 562)."""
    if name == "Step":
        warnings.warn(
            "riskcore.deidentify.history.Step is deprecated; use AppliedStep (a "
            "riskcore._steps.Step a user applied, with its risk, loss and time)",
            DeprecationWarning,
            stacklevel=2,
        )
        return AppliedStep
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class History(Result):
    """The steps of a session and a cursor: what is applied, what can be redone.

    Every method returns a new history (it is frozen), so a page keeps the
    latest one in its state.

    Attributes
    ----------
    steps : tuple of AppliedStep
        Every step kept, in the order applied; at most :data:`MAX_STEPS`.
    position : int
        How many of ``steps`` are applied (0 to ``len(steps)``); the steps after
        it are the redo tail.

    Raises
    ------
    RiskcoreError
        For a position outside 0 to ``len(steps)`` or more than
        :data:`MAX_STEPS` steps.
    """

    steps: tuple[AppliedStep, ...] = ()
    position: int = 0

    def __post_init__(self) -> None:
        steps = tuple(self.steps)
        if not all(isinstance(s, AppliedStep) for s in steps):
            raise RiskcoreError(
                "a history holds steps (riskcore.deidentify.history.base.AppliedStep)"
            )
        if len(steps) > MAX_STEPS:
            raise RiskcoreError(f"a history holds at most {MAX_STEPS} steps, not {len(steps)}")
        pos = self.position
        if isinstance(pos, bool) or not isinstance(pos, int) or not 0 <= pos <= len(steps):
            raise RiskcoreError(
                f"the history's position is {pos!r}; it lies from 0 to {len(steps)} (its steps)"
            )
        object.__setattr__(self, "steps", steps)

    @property
    def can_undo(self) -> bool:
        """Whether a step is applied (undo goes back one)."""
        return self.position > 0

    @property
    def can_redo(self) -> bool:
        """Whether an undone step waits to be redone."""
        return self.position < len(self.steps)

    @property
    def current(self) -> AppliedStep | None:
        """The last applied step (its risk and loss are the table's now); None before any."""
        return self.steps[self.position - 1] if self.position else None

    def current_steps(self) -> tuple[AppliedStep, ...]:
        """Return the applied steps, in order (the recipe's list).

        Returns
        -------
        tuple of AppliedStep
        """
        return self.steps[: self.position]

    def apply(self, step: AppliedStep) -> History:
        """Return the history with ``step`` applied after the current one; the redo tail is dropped.

        Parameters
        ----------
        step : AppliedStep
            The step applied.

        Returns
        -------
        History

        Raises
        ------
        RiskcoreError
            When ``step`` is not an AppliedStep, or the history already holds
            :data:`MAX_STEPS` applied steps.
        """
        if not isinstance(step, AppliedStep):
            raise RiskcoreError(f"apply an AppliedStep, not {type(step).__name__}")
        if self.position >= MAX_STEPS:
            raise RiskcoreError(
                f"the history holds at most {MAX_STEPS} steps: save the recipe and start a "
                "new history from it (History.of_recipe)"
            )
        return History((*self.steps[: self.position], step), self.position + 1)

    def undo(self) -> History:
        """Return the history one step back (the step stays in the redo tail).

        Returns
        -------
        History

        Raises
        ------
        RiskcoreError
            When no step is applied.
        """
        if not self.can_undo:
            raise RiskcoreError("there is no step to undo")
        return History(self.steps, self.position - 1)

    def redo(self) -> History:
        """Return the history with the next undone step applied again.

        Returns
        -------
        History

        Raises
        ------
        RiskcoreError
            When no step was undone.
        """
        if not self.can_redo:
            raise RiskcoreError("there is no step to redo")
        return History(self.steps, self.position + 1)

    def go_to(self, position: int) -> History:
        """Return the history with the first ``position`` steps applied; the rest stay redoable.

        "Go back to here" on entry ``i`` (counted from 0) is ``go_to(i + 1)``;
        ``go_to(0)`` is the table before any step.

        Parameters
        ----------
        position : int
            0 to ``len(steps)``.

        Returns
        -------
        History

        Raises
        ------
        RiskcoreError
            For a position outside 0 to ``len(steps)``.
        """
        if isinstance(position, bool) or not isinstance(position, int):
            raise RiskcoreError(f"go to a whole number of steps, not {position!r}")
        if not 0 <= position <= len(self.steps):
            raise RiskcoreError(
                f"there is no step {position}: the history holds {len(self.steps)} steps"
            )
        return History(self.steps, position)

    @classmethod
    def of_recipe(cls, recipe: Recipe, *, at: str | None = None) -> History:
        """Return a history whose applied steps are a recipe's (:func:`steps_of`).

        Parameters
        ----------
        recipe : Recipe
            The recipe whose steps the history holds.
        at : str, optional
            The time of every step (default now).

        Returns
        -------
        History
        """
        steps = steps_of(recipe, at=at)
        return cls(steps, len(steps))

    def to_recipe(self, base: Recipe, *, key: SecretKey | bytes | None = None) -> Recipe:
        """Return ``base`` with the applied steps folded in, in order, sealed.

        Safe Harbor and masking steps replace ``base``'s step of the same column
        or are added after them; a date shift, steering or targets step replaces
        ``base``'s; a hierarchy step sets the column's hierarchy (adding it to the
        QIs at level 0, or putting an existing QI back to level 0); a levels or
        search step sets the levels of the QIs it names (a search also the
        objective). ``identifiers`` are ``base``'s and every column a step masks
        or drops. The recipe is sealed as :meth:`Recipe.of` seals it: an HMAC
        under ``key`` when a step is keyed, a SHA-256 otherwise.

        Parameters
        ----------
        base : Recipe
            The recipe before any step: the sensitive columns, the suppression,
            the missing-value policy, and whatever the steps do not set.
        key : SecretKey or bytes, optional
            The key of the keyed steps (needed when there is one); only its
            check value enters the recipe.

        Returns
        -------
        Recipe
            Re-applied with :func:`~riskcore.deidentify.recipe.apply.apply_recipe`,
            it gives the table the steps give.

        Raises
        ------
        RiskcoreError
            When a levels step names a column without a hierarchy, or a step is
            keyed and no ``key`` is given.
        """
        return _fold(base, self.current_steps(), key)


def _put(items: list[_S], item: _S) -> None:
    """Replace the step of the same column in ``items``, or add ``item`` at the end."""
    for i, old in enumerate(items):
        if old.columns == item.columns:
            items[i] = item
            return
    items.append(item)


#: The hierarchy a Safe Harbor step leaves on a column it transforms (:func:`_take_over`).
TAKEN_OVER: dict[str, Any] = {"kind": "flat", "params": {}}


def _take_over(
    hierarchies: dict[str, Any], levels: dict[str, int], steps: Sequence[Mapping[str, Any]]
) -> None:
    """Let a Safe Harbor step replace the generalization of each column it transforms.

    The Safe Harbor transforms run before generalization (:mod:`~riskcore.deidentify.recipe.base`),
    so a hierarchy built for the column as it was (a date hierarchy on birth dates) would be
    rebuilt on what Safe Harbor made of it (years and "1936 or earlier") and refuse it. The
    transform is the column's generalization instead: its hierarchy becomes the flat one
    (:data:`TAKEN_OVER`, keep or suppress) at level 0, and a column it drops leaves the
    quasi-identifiers.

    Parameters
    ----------
    hierarchies : dict
        The hierarchy's recipe per column (changed in place).
    levels : dict
        The level per column (changed in place).
    steps : sequence of mapping
        The Safe Harbor step's ``{"column", "action", ...}``.
    """
    for s in steps:
        name = s["column"]
        if name not in hierarchies:
            continue
        if s["action"] == "dropped":
            del hierarchies[name]
            levels.pop(name, None)
        else:
            hierarchies[name] = dict(TAKEN_OVER)
            levels[name] = 0


def _fold(base: Recipe, steps: Sequence[AppliedStep], key: SecretKey | bytes | None) -> Recipe:
    safe_harbor = list(base.safe_harbor)
    masking = list(base.masking)
    perturb = list(base.perturb)
    date_shift = base.date_shift
    hierarchies = dict(base.hierarchies)
    levels = dict(zip(base.quasi_identifiers, base.levels, strict=True))
    targets, steering, objective = base.targets, base.steering, base.objective
    for step in steps:
        p = step.parameters
        if step.kind == "safe_harbor":  # a column it drops loses its masking, and back
            for s in p["steps"]:
                _put(safe_harbor, safe_harbor_step(s))
            gone = {s["column"] for s in p["steps"] if s["action"] == "dropped"}
            masking = [m for m in masking if not gone.intersection(m.columns)]
            _take_over(hierarchies, levels, p["steps"])
        elif step.kind == "date_shift":
            shift = {
                "person": p["person"],
                "columns": list(p["columns"]),
                "max_days": p["max_days"],
            }
            date_shift = masking_step(shift, "date_shift")
        elif step.kind == "masking":
            m = {"column": p["column"], "operator": p["operator"], "params": p.get("params", {})}
            _put(masking, masking_step(m))
            safe_harbor = [x for x in safe_harbor
                           if (x.column, x.action) != (p["column"], "dropped")]  # fmt: skip
        elif step.kind == "perturb":  # each runs after the ones before (no replacing)
            perturb.append(perturb_step(p))
        elif step.kind == "hierarchy":
            hierarchies[p["column"]] = p["hierarchy"]
            levels[p["column"]] = 0
        elif step.kind in ("levels", "search"):
            hierarchies.update(p.get("hierarchies") or {})  # the step's own come first
            for q, lv in _levels(p, step.kind).items():
                if q not in hierarchies:
                    raise RiskcoreError(
                        f"the {step.kind} step sets the level of {q!r}, which has no hierarchy "
                        "(a hierarchy step comes first)"
                    )
                levels[q] = lv
            if step.kind == "search":
                objective = p["objective"]
            if "steering" in p:
                steering = _revived("steering", p["steering"]) or None
        elif step.kind == "steering":
            steering = _revived("steering", p) or None
        else:  # targets
            targets = _revived("targets", p)
    qis = tuple(hierarchies)
    rec = dataclasses.replace(
        base,
        quasi_identifiers=qis,
        levels=tuple(levels[q] for q in qis),
        hierarchies=hierarchies,
        targets=targets,
        version=RECIPE_VERSION,
        safe_harbor=tuple(safe_harbor),
        date_shift=date_shift,
        masking=tuple(masking),
        perturb=tuple(perturb),
        key_check=None,
        steering=steering,
        objective=objective,
        seal=None,
    )
    named = dict.fromkeys([*base.identifiers, *_masked_columns(rec)])
    rec = dataclasses.replace(rec, identifiers=tuple(named))
    return seal_recipe(rec, key)


def steps_of(recipe: Recipe, *, at: str | None = None) -> tuple[AppliedStep, ...]:
    """Return the steps of a recipe, in the order it applies them.

    One safe_harbor step (when it has any), the date shift, one masking step
    per column, one perturb step per perturbation, one hierarchy step per QI,
    one levels step, the steering and the targets; folded into an empty recipe
    of the same sensitive columns and policy (:meth:`History.to_recipe`) they
    give the recipe back.

    Parameters
    ----------
    recipe : Recipe
        The recipe.
    at : str, optional
        The time of every step (default now).

    Returns
    -------
    tuple of AppliedStep
    """
    when = at or _now()
    out: list[AppliedStep] = []
    if recipe.safe_harbor:
        out.append(
            AppliedStep(
                "safe_harbor", {"steps": [s.to_dict() for s in recipe.safe_harbor]}, at=when
            )
        )
    if recipe.date_shift is not None:
        out.append(AppliedStep("date_shift", recipe.date_shift.to_dict(), at=when))
    out += [AppliedStep("masking", m.to_dict(), at=when) for m in recipe.masking]
    out += [AppliedStep("perturb", x.to_dict(), at=when) for x in recipe.perturb]
    out += [
        AppliedStep("hierarchy", {"column": q, "hierarchy": recipe.hierarchies[q]}, at=when)
        for q in recipe.quasi_identifiers
    ]
    if recipe.quasi_identifiers:
        levels = dict(zip(recipe.quasi_identifiers, recipe.levels, strict=True))
        if recipe.objective is None:
            out.append(AppliedStep("levels", {"levels": levels}, at=when))
        else:
            out.append(
                AppliedStep("search", {"levels": levels, "objective": recipe.objective}, at=when)
            )
    if recipe.steering:
        out.append(AppliedStep("steering", dict(recipe.steering), at=when))
    out.append(AppliedStep("targets", dict(recipe.targets), at=when))
    return tuple(out)
