"""Perturbation steps as recipe data, and the registry of the methods that run them.

A step is a plain dict, JSON as it is, that a recipe's ``perturb`` section holds:
``{"method", "columns", "params", "seed"}``. ``method`` names a :class:`PerturbMethod`
of :data:`METHODS` (as a masking step names an operator of
:data:`riskcore.deidentify.masking.registry.OPERATORS`): how to check the step's
parameters, run it seeded, record a result as a step and say a step in words. The
recipe replay (:func:`run_steps`), ``riskcore anonymize`` and the report's recipe table
all read the registry, so a method is added in one place. ``seed`` is None for the
deterministic methods. A PRAM step stores its matrix and categories, so a replay draws
from the very matrix of the first run; with the same seed and input every method gives
the same output byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from riskcore.errors import RiskcoreError
from riskcore.perturb.microaggregation import Microaggregation, microaggregate
from riskcore.perturb.random import Noise, Pram, add_noise, pram
from riskcore.perturb.suppression import LocalSuppression, local_suppression

__all__ = [
    "METHODS",
    "NUMERIC_METHODS",
    "PERTURB_METHODS",
    "PerturbMethod",
    "get_method",
    "numeric_columns",
    "run_step",
    "run_steps",
    "step_of",
]

Outcome = LocalSuppression | Microaggregation | Pram | Noise
#: ``progress(done, total)`` of a long run (local suppression's time budget), or None.
Progress = Callable[[int, int], None] | None


@dataclass(frozen=True)
class PerturbMethod:
    """One perturbation method: its name, what it needs, how it runs, records and reads.

    Attributes
    ----------
    name : str
        The name a recipe step records (``"pram"``).
    outcome : type
        The result class a run returns (:class:`~riskcore.perturb.random.Pram`).
    required : tuple of str
        The ``params`` a step must have (a step without one is refused before it runs).
    seeded : bool
        Whether it draws at random: its step records the seed, and needs one.
    numeric : bool
        Whether it changes numbers (judged by dRisk and IL1s, :mod:`riskcore.utility.numeric`).
    changed : str
        What it does to values, in a few words ("noise added"): the report's limitation.
    run : callable
        ``run(data, columns, params, seed, progress)`` returns the result.
    record : callable
        ``record(result)`` returns the step's ``columns``, ``params`` and ``seed``.
    describe : callable
        ``describe(columns, params, seed)`` returns the (column, effect) pairs of a step in
        words; the column is ``""`` for an effect on several together.
    """

    name: str
    outcome: type
    required: tuple[str, ...]
    seeded: bool
    numeric: bool
    changed: str
    run: Callable[[pd.DataFrame, list[str], dict[str, Any], Any, Progress], Outcome]
    record: Callable[[Any], tuple[list[str], dict[str, Any], int | None]]
    describe: Callable[[list[str], dict[str, Any], Any], list[tuple[str, str]]]

    def check(self, step: Mapping[str, Any]) -> tuple[list[str], dict[str, Any]]:
        """Return a step's columns and parameters, refused when it lacks one it needs.

        Parameters
        ----------
        step : mapping
            A step of :func:`step_of` naming this method.

        Returns
        -------
        tuple of (list of str, dict)
            The columns (as text) and the parameters.

        Raises
        ------
        RiskcoreError
            When a required parameter or (for a seeded method) the seed is missing.
        """
        columns = [str(c) for c in step.get("columns") or []]
        params = dict(step.get("params") or {})
        for name in self.required:
            if name not in params:
                raise RiskcoreError(f"the {self.name} step lacks {name!r}")
        if self.seeded and "seed" not in step:
            raise RiskcoreError(f"the {self.name} step lacks 'seed'")
        return columns, params


def _run_local_suppression(
    data: pd.DataFrame, columns: list[str], params: dict[str, Any], seed: Any, progress: Progress
) -> Outcome:
    return local_suppression(  # a step recorded before a pass existed: without it
        data,
        columns,
        int(params["k"]),
        importance=params.get("importance"),
        progress=progress,
        restore_cells=bool(params.get("restore_cells", False)),
        person=params.get("person"),
        lowest_last=bool(params.get("lowest_last", False)),
    )


def _record_local_suppression(r: LocalSuppression) -> tuple[list[str], dict[str, Any], None]:
    params = {
        "k": r.k,
        "importance": dict(r.importance),
        "restore_cells": r.restore_cells,
        "lowest_last": r.lowest_last,
        **({} if r.person is None else {"person": r.person}),
    }
    return list(r.quasi_identifiers), params, None


def _say_local_suppression(cols: list[str], params: dict[str, Any], seed: Any) -> list[Any]:
    return [
        (
            "",
            f"single cells of {', '.join(cols)} blanked until every record matches at "
            f"least {params.get('k')} records, a blank matching any value (local "
            "suppression)",
        )
    ]


def _say_microaggregation(cols: list[str], params: dict[str, Any], seed: Any) -> list[Any]:
    how = "MDAV over " + ", ".join(cols) if params.get("method") == "mdav" else "sorted"
    effect = f"replaced by the means of groups of at least {params.get('k')} records ({how})"
    return [(c, effect) for c in cols]


def _run_pram(
    data: pd.DataFrame, columns: list[str], params: dict[str, Any], seed: Any, progress: Progress
) -> Outcome:
    return pram(
        data,
        columns[0],
        diagonal=float(params["pd"]),
        alpha=float(params.get("alpha", 0.5)),
        seed=seed,
        matrix=params.get("matrix"),
        categories=params.get("categories"),
    )


def _record_pram(r: Pram) -> tuple[list[str], dict[str, Any], int | None]:
    params = {
        "pd": r.diagonal,
        "alpha": r.alpha,
        "categories": list(r.categories),
        "matrix": [list(row) for row in r.matrix],
    }
    return [r.column], params, r.seed


def _say_pram(cols: list[str], params: dict[str, Any], seed: Any) -> list[Any]:
    return [
        (
            c,
            f"randomized by invariant PRAM (pd {params.get('pd')}, alpha "
            f"{params.get('alpha')}, seed {seed}; matrix recorded)",
        )
        for c in cols
    ]


def _say_noise(cols: list[str], params: dict[str, Any], seed: Any) -> list[Any]:
    pct = dict(params.get("percent") or {})
    return [
        (c, f"normal noise of {pct.get(c)}% of its standard deviation added (seed {seed})")
        for c in cols
    ]


#: Every perturbation method by name, in the order ``anonymize`` runs them (microaggregation,
#: noise, PRAM, then local suppression, so that k holds on the released values).
METHODS: Mapping[str, PerturbMethod] = {
    m.name: m
    for m in (
        PerturbMethod(
            "microaggregation",
            Microaggregation,
            ("k",),
            seeded=False,
            numeric=True,
            changed="numbers replaced by group means",
            run=lambda data, cols, p, seed, progress: microaggregate(
                data, cols, int(p["k"]), method=p.get("method", "mdav")
            ),
            record=lambda r: (list(r.columns), {"k": r.k, "method": r.method}, None),
            describe=_say_microaggregation,
        ),
        PerturbMethod(
            "noise",
            Noise,
            ("percent",),
            seeded=True,
            numeric=True,
            changed="noise added",
            run=lambda data, cols, p, seed, progress: add_noise(
                data, dict(p["percent"]), seed=seed
            ),
            record=lambda r: (list(r.percent), {"percent": dict(r.percent)}, r.seed),
            describe=_say_noise,
        ),
        PerturbMethod(
            "pram",
            Pram,
            ("pd",),
            seeded=True,
            numeric=False,
            changed="categories changed at random (PRAM)",
            run=_run_pram,
            record=_record_pram,
            describe=_say_pram,
        ),
        PerturbMethod(
            "local_suppression",
            LocalSuppression,
            ("k",),
            seeded=False,
            numeric=False,
            changed="cells blanked (a blank matches any value)",
            run=_run_local_suppression,
            record=_record_local_suppression,
            describe=_say_local_suppression,
        ),
    )
}

#: The methods a ``perturb`` step may name, in the order anonymize runs them.
PERTURB_METHODS: tuple[str, ...] = tuple(METHODS)

#: The methods that change numbers, judged by dRisk and IL1s (:mod:`riskcore.utility.numeric`).
NUMERIC_METHODS: tuple[str, ...] = tuple(m.name for m in METHODS.values() if m.numeric)


def get_method(name: Any) -> PerturbMethod:
    """Return the registered perturbation method of this name.

    Parameters
    ----------
    name : object
        A step's ``method``.

    Returns
    -------
    PerturbMethod

    Raises
    ------
    RiskcoreError
        For a name :data:`METHODS` does not hold, listing those it does.
    """
    method = METHODS.get(name) if isinstance(name, str) else None
    if method is None:
        raise RiskcoreError(
            f"unknown perturbation method {name!r}; known: {', '.join(PERTURB_METHODS)}"
        )
    return method


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

    Raises
    ------
    RiskcoreError
        For a result of no registered method.
    """
    for method in METHODS.values():
        if isinstance(result, method.outcome):
            columns, params, seed = method.record(result)
            return {"method": method.name, "columns": columns, "params": params, "seed": seed}
    raise RiskcoreError(f"no perturbation method records a {type(result).__name__}")


def run_step(data: pd.DataFrame, step: Mapping[str, Any], *, progress: Progress = None) -> Outcome:
    """Run one recorded step on ``data``.

    Parameters
    ----------
    data : pandas.DataFrame
        The table (not modified).
    step : mapping
        A step of :func:`step_of`.
    progress : callable, optional
        ``progress(done, total)`` of a long run (local suppression's rounds), which may
        raise to stop it.

    Returns
    -------
    LocalSuppression, Microaggregation, Pram or Noise

    Raises
    ------
    RiskcoreError
        For an unknown method, a missing parameter, or the method's own errors.
    """
    method = get_method(step.get("method"))
    columns, params = method.check(step)
    try:
        return method.run(data, columns, params, step.get("seed"), progress)
    except (KeyError, IndexError) as exc:
        raise RiskcoreError(f"the {method.name} step lacks {exc}") from None


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
