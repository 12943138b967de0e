"""Perturbation steps as recipe data: build one, and run a list of them on a table.

A step is a plain dict, JSON as it is, that a recipe's ``perturb`` section holds:
``{"method", "columns", "params", "seed"}``. ``method`` is one of
:data:`PERTURB_METHODS`; ``seed`` is None for the deterministic methods. A PRAM
step stores its matrix and categories, so a replay draws from the very matrix of
the first run; with the same seed and input every method gives the same output
byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from riskcore.errors import RiskcoreError
from riskcore.perturb.microaggregation import Microaggregation, microaggregate
from riskcore.perturb.random import Noise, Pram, add_noise, pram
from riskcore.perturb.suppression import LocalSuppression, local_suppression

__all__ = [
    "NUMERIC_METHODS",
    "PERTURB_METHODS",
    "numeric_columns",
    "run_step",
    "run_steps",
    "step_of",
]

#: The methods a ``perturb`` step may name, in the order anonymize runs them.
PERTURB_METHODS: tuple[str, ...] = ("microaggregation", "noise", "pram", "local_suppression")

Outcome = LocalSuppression | Microaggregation | Pram | Noise


def step_of(result: Outcome) -> dict[str, Any]:
    """Return the recipe step that redoes ``result``.

    Parameters
    ----------
    result : LocalSuppression, Microaggregation, Pram or Noise
        The result of a perturbation run.

    Returns
    -------
    dict
        ``{"method", "columns", "params", "seed"}``.
    """
    if isinstance(result, LocalSuppression):
        return {
            "method": "local_suppression",
            "columns": list(result.quasi_identifiers),
            "params": {
                "k": result.k,
                "importance": dict(result.importance),
                "restore_cells": result.restore_cells,
                "lowest_last": result.lowest_last,
                **({} if result.person is None else {"person": result.person}),
            },
            "seed": None,
        }
    if isinstance(result, Microaggregation):
        return {
            "method": "microaggregation",
            "columns": list(result.columns),
            "params": {"k": result.k, "method": result.method},
            "seed": None,
        }
    if isinstance(result, Pram):
        return {
            "method": "pram",
            "columns": [result.column],
            "params": {
                "pd": result.diagonal,
                "alpha": result.alpha,
                "categories": list(result.categories),
                "matrix": [list(row) for row in result.matrix],
            },
            "seed": result.seed,
        }
    return {
        "method": "noise",
        "columns": list(result.percent),
        "params": {"percent": dict(result.percent)},
        "seed": result.seed,
    }


def run_step(data: pd.DataFrame, step: Mapping[str, Any]) -> Outcome:
    """Run one recorded step on ``data``.

    Parameters
    ----------
    data : pandas.DataFrame
        The table (not modified).
    step : mapping
        A step of :func:`step_of`.

    Returns
    -------
    LocalSuppression, Microaggregation, Pram or Noise

    Raises
    ------
    RiskcoreError
        For an unknown method, a missing parameter, or the method's own errors.
    """
    method = step.get("method")
    columns = [str(c) for c in step.get("columns") or []]
    params = dict(step.get("params") or {})
    try:
        if method == "local_suppression":
            return local_suppression(  # a step recorded before a pass existed: without it
                data,
                columns,
                int(params["k"]),
                importance=params.get("importance"),
                restore_cells=bool(params.get("restore_cells", False)),
                person=params.get("person"),
                lowest_last=bool(params.get("lowest_last", False)),
            )
        if method == "microaggregation":
            return microaggregate(
                data, columns, int(params["k"]), method=params.get("method", "mdav")
            )
        if method == "pram":
            return pram(
                data,
                columns[0],
                diagonal=float(params["pd"]),
                alpha=float(params.get("alpha", 0.5)),
                seed=step["seed"],
                matrix=params.get("matrix"),
                categories=params.get("categories"),
            )
        if method == "noise":
            return add_noise(data, dict(params["percent"]), seed=step["seed"])
    except (KeyError, IndexError) as exc:
        raise RiskcoreError(f"the {method} step lacks {exc}") from None
    raise RiskcoreError(
        f"unknown perturbation method {method!r}; known: {', '.join(PERTURB_METHODS)}"
    )


def run_steps(data: pd.DataFrame, steps: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """Run recorded steps in order; return the perturbed table (``data`` is not modified).

    Parameters
    ----------
    data : pandas.DataFrame
        The table: a DataFrame, or an EncodedTable already encoded.
    steps : sequence of mapping of str to Any
        Steps of :func:`step_of`, each run on the table the one before gave.

    Returns
    -------
    pandas.DataFrame
    """
    out = data
    for step in steps:
        out = run_step(out, step).data
    return out


#: The methods that change numbers, judged by dRisk and IL1s (:mod:`riskcore.utility.numeric`).
NUMERIC_METHODS = ("microaggregation", "noise")


def numeric_columns(steps: Sequence[Mapping[str, Any]]) -> list[str]:
    """Return the columns that recorded steps change as numbers, in first-seen order.

    Parameters
    ----------
    steps : sequence of mapping of str to Any
        Recipe steps (:func:`step_of`).

    Returns
    -------
    list of str
        The columns of the microaggregation and noise steps; empty without them.
    """
    cols = [str(c) for x in steps if x.get("method") in NUMERIC_METHODS for c in x["columns"]]
    return list(dict.fromkeys(cols))
