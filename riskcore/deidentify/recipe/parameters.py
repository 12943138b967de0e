"""The checks of a remediation step's parameters (:class:`riskcore.deidentify.history.base.Step`).

A step's parameters are fresh JSON values, never a key (:func:`_json`), and have
the shape of their kind (:func:`_check`, the table of
:mod:`riskcore.deidentify.history.base`); a steering or targets step's parameters
are read and written back (:func:`_revived`). The history checks every step
with them and reads its levels when it folds the steps into a recipe.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from riskcore.deidentify.masking import SecretKey
from riskcore.deidentify.recipe.base import SAFE_HARBOR_ACTIONS
from riskcore.errors import RiskcoreError

#: Parameter names refused anywhere in a step: a key never enters a history.
_KEY_NAMES = frozenset({"key", "secret", "secret_key", "key_hex", "password"})


def _json(value: Any, where: str) -> Any:
    """Return ``value`` as fresh JSON values, or refuse it (a key, NaN, an object)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise RiskcoreError(f"{where} is {value!r}: a step's parameters are finite numbers")
        return value
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise RiskcoreError(f"{where} has the name {k!r}: names of parameters are text")
            if k.lower() in _KEY_NAMES:
                raise RiskcoreError(
                    f"{where} has a parameter {k!r}: a step never holds a key (only the "
                    "recipe's key check, made when the recipe is written)"
                )
            out[k] = _json(v, f"{where}.{k}")
        return out
    if isinstance(value, (list, tuple)):
        return [_json(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, SecretKey):
        raise RiskcoreError(f"{where} is a key: a step never holds a key")
    raise RiskcoreError(
        f"{where} is a {type(value).__name__}: a step's parameters are JSON values "
        "(text, numbers, true / false, null, lists and mappings)"
    )


def _text(params: Mapping[str, Any], name: str, kind: str) -> str:
    value = params.get(name)
    if not isinstance(value, str) or not value:
        raise RiskcoreError(f"a {kind} step needs {name!r}: a column name, not {value!r}")
    return value


def _levels(params: Mapping[str, Any], kind: str) -> dict[str, int]:
    levels = params.get("levels")
    if not isinstance(levels, Mapping) or not levels:
        raise RiskcoreError(f"a {kind} step needs 'levels': a mapping of column to level")
    for q, lv in levels.items():
        if isinstance(lv, bool) or not isinstance(lv, int) or lv < 0:
            raise RiskcoreError(
                f"the {kind} step's level of {q!r} is {lv!r}, not a level 0, 1, ..."
            )
    return {str(q): int(lv) for q, lv in levels.items()}


def _check(kind: str, params: Mapping[str, Any]) -> None:
    """Refuse parameters that do not have the shape of their kind (see the module's table)."""
    if kind == "safe_harbor":
        steps = params.get("steps")
        if not isinstance(steps, list) or not steps:
            raise RiskcoreError("a safe_harbor step needs 'steps': a list of Safe Harbor steps")
        for s in steps:
            _text(s if isinstance(s, Mapping) else {}, "column", kind)
            if s.get("action") not in SAFE_HARBOR_ACTIONS:
                raise RiskcoreError(
                    f"unknown Safe Harbor action {s.get('action')!r}; known: "
                    + ", ".join(SAFE_HARBOR_ACTIONS)
                )
    elif kind == "date_shift":
        _text(params, "person", kind)
        cols = params.get("columns")
        if not isinstance(cols, list) or not cols or not all(isinstance(c, str) for c in cols):
            raise RiskcoreError("a date_shift step needs 'columns': a list of date columns")
        days = params.get("max_days")
        if isinstance(days, bool) or not isinstance(days, int) or days < 1:
            raise RiskcoreError(
                f"a date_shift step's 'max_days' is {days!r}, not a whole number >= 1"
            )
    elif kind == "masking":
        from riskcore.deidentify.masking.registry import get_operator

        _text(params, "column", kind)
        op = get_operator(str(params.get("operator")))  # an unknown operator is refused
        if not isinstance(params.get("params", {}), Mapping):
            raise RiskcoreError("a masking step's 'params' is a mapping")
        op.configure(params.get("params", {}))  # and a parameter it does not take
    elif kind == "perturb":  # a recipe's perturb entry (riskcore.perturb.steps.PerturbStep)
        from riskcore.perturb.steps import METHODS

        if params.get("method") not in METHODS:  # the registry as it is now, not at import
            raise RiskcoreError(
                f"a perturb step's method is {params.get('method')!r}; known: " + ", ".join(METHODS)
            )
    elif kind == "hierarchy":
        _text(params, "column", kind)
        spec = params.get("hierarchy")
        if not isinstance(spec, Mapping) or not isinstance(spec.get("kind"), str):
            raise RiskcoreError(
                "a hierarchy step needs 'hierarchy': a hierarchy's recipe (its kind)"
            )
    elif kind in ("levels", "search"):
        _levels(params, kind)
        for q, spec in (params.get("hierarchies") or {}).items():  # optional: set first
            if not isinstance(spec, Mapping) or not isinstance(spec.get("kind"), str):
                raise RiskcoreError(f"the {kind} step's hierarchy of {q!r} has no kind")
        if "steering" in params:  # optional: the steering the levels were found under
            _revived("steering", params["steering"])
        if kind == "search":
            from riskcore.utility.objectives import OBJECTIVES

            if params.get("objective") not in OBJECTIVES:
                raise RiskcoreError(
                    f"a search step's objective is {params.get('objective')!r}; known: "
                    + ", ".join(OBJECTIVES)
                )
    elif kind in ("steering", "targets"):
        _revived(kind, params)


def _revived(kind: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """Return a steering or targets step's parameters read and written back (checked)."""
    from riskcore.criteria import Targets
    from riskcore.deidentify.search.steering import Steering

    try:
        if kind == "steering":
            steering = Steering.from_dict(params)
            return {} if steering.empty else steering.to_dict()
        return Targets.from_dict(params).to_dict()
    except (KeyError, TypeError, ValueError) as exc:
        raise RiskcoreError(f"the {kind} step's parameters are not valid: {exc}") from None
