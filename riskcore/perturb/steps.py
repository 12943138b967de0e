"""Perturbation steps as recipe data, and the registry of the methods that run them.

A step is a :class:`PerturbStep`, the one typed :class:`~riskcore._steps.Step` of kind
``"perturbation"``: ``operation`` names a :class:`PerturbMethod` of :data:`METHODS` (as a
masking step names an operator of
:data:`riskcore.deidentify.masking.registry.OPERATORS`), which says how to check the
step's parameters, run it seeded, record a result as a step and say a step in words. The
recipe replay (:func:`run_steps`), ``riskcore anonymize``, the Remediate page and the
report's recipe table all read the registry, so a method is added in one place. A recipe's
``perturb`` section writes each step as it always has, ``{"method", "columns", "params",
"seed"}`` (:meth:`PerturbStep.to_dict`); the seed is one of the step's ``parameters``
(as a masking step's Faker seed is), None for the deterministic methods. A PRAM step
stores its matrix and categories, so a replay draws from the very matrix of the first
run; with the same seed and input every method gives the same output byte for byte.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

import pandas as pd

from riskcore._results import plain
from riskcore._steps import ReadAsDict, Step
from riskcore.errors import RiskcoreError
from riskcore.perturb.microaggregation import Microaggregation, microaggregate
from riskcore.perturb.random import Noise, Pram, add_noise, pram
from riskcore.perturb.suppression import LocalSuppression, local_suppression

__all__ = [
    "METHODS",
    "NUMERIC_METHODS",
    "PERTURB_METHODS",
    "RECIPE_KEYS",
    "PerturbMethod",
    "PerturbStep",
    "blanked_columns",
    "get_method",
    "numeric_columns",
    "perturb_step",
    "record_step",
    "run_step",
    "run_steps",
    "step_of",
]

#: The keys of a perturbation step as a recipe writes it.
RECIPE_KEYS = ("method", "columns", "params", "seed")

Outcome = LocalSuppression | Microaggregation | Pram | Noise
#: ``progress(done, total)`` of a long run (local suppression's time budget), or None.
Progress = Callable[[int, int], None] | None


@dataclass(frozen=True)
class PerturbStep(ReadAsDict, Step):
    """A perturbation step: a :class:`~riskcore._steps.Step` of kind ``"perturbation"``.

    ``operation`` is the method (a name of :data:`METHODS`), ``parameters`` its
    parameters with the ``seed`` among them (None for a deterministic method). It is
    written as a recipe's ``perturb`` entry has always been written, ``{"method",
    "columns", "params", "seed"}`` (``seed`` only when the step holds one), so recipes
    keep their JSON and their seals. A recipe's steps were dicts before; reading one as a
    dict (``step["method"]``, ``dict(step)``) still works, with a DeprecationWarning.

    Attributes
    ----------
    kind : str
        ``"perturbation"``.
    operation : str
        The method's name (``"pram"``).
    columns : tuple of str
        The columns it changes.
    parameters : dict
        The method's parameters and, for a seeded method, ``seed``.

    Raises
    ------
    RiskcoreError
        For another kind, or parameters that are not a mapping.

    Examples
    --------
    >>> step = PerturbStep.from_dict(
    ...     {"method": "pram", "columns": ["sex"], "params": {"pd": 0.8}, "seed": 1})
    >>> (step.operation, step.columns, step.parameters)
    ('pram', ('sex',), {'pd': 0.8, 'seed': 1})
    >>> step.to_dict()
    {'method': 'pram', 'columns': ['sex'], 'params': {'pd': 0.8}, 'seed': 1}
    """

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.kind != "perturbation":
            raise RiskcoreError(f"a perturbation step's kind is 'perturbation', not {self.kind!r}")

    @property
    def method(self) -> str:
        """The method's name (``operation``)."""
        return self.operation

    @property
    def params(self) -> dict[str, Any]:
        """The method's parameters, the seed left out (the recipe's ``params``)."""
        return {k: v for k, v in self.parameters.items() if k != "seed"}

    @property
    def seed(self) -> Any:
        """The seed of a seeded method (None when the step holds none)."""
        return self.parameters.get("seed")

    def to_dict(self) -> dict[str, Any]:
        """Return the step as a recipe's ``perturb`` entry writes it.

        Returns
        -------
        dict of str to Any
            ``{"method", "columns", "params"}``, and ``"seed"`` when the step holds one
            (even None: a step recorded from a deterministic run).
        """
        out = {"method": self.operation, "columns": list(self.columns),
               "params": plain(self.params)}  # fmt: skip
        if "seed" in self.parameters:
            out["seed"] = plain(self.seed)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Read a recipe's ``perturb`` entry (or a Step's own JSON).

        Parameters
        ----------
        data : mapping
            ``{"method", "columns", "params", "seed"}`` as a recipe holds it (``seed``
            optional), or :meth:`Step.to_dict <riskcore._steps.Step.to_dict>`'s output.

        Returns
        -------
        PerturbStep

        Raises
        ------
        RiskcoreError
            For a method that is not text, parameters that are not a mapping, a seed in
            them as well as beside them, or a key a step does not have.
        """
        if not isinstance(data, Mapping):
            raise RiskcoreError(f"a perturbation step is a mapping, not {type(data).__name__}")
        if "operation" in data and "method" not in data:  # a Step's own JSON
            step = Step.from_dict(data)
            return cls(step.kind, step.operation, step.columns, step.parameters)
        extra = [k for k in data if k not in RECIPE_KEYS]
        if extra:
            raise RiskcoreError(
                f"a perturbation step holds {', '.join(RECIPE_KEYS)}, not {extra[0]!r}"
            )
        method = data.get("method")
        if not isinstance(method, str):
            raise RiskcoreError(
                f"unknown perturbation method {method!r}; known: {', '.join(METHODS)}"
            )
        params = data.get("params") or {}
        if not isinstance(params, Mapping):
            raise RiskcoreError(f"the {method} step's params are a mapping, not {params!r}")
        if "seed" in params and "seed" in data:
            raise RiskcoreError(f"the {method} step has a seed in its params and beside them")
        if "seed" in data:
            params = {**params, "seed": data["seed"]}
        return cls("perturbation", method, data.get("columns") or (), dict(params))


def perturb_step(step: PerturbStep | Mapping[str, Any]) -> PerturbStep:
    """Return a perturbation step as a :class:`PerturbStep` (a recipe's dict read).

    Parameters
    ----------
    step : PerturbStep or mapping
        A step, or a recipe's ``perturb`` entry ``{"method", "columns", "params", "seed"}``.

    Returns
    -------
    PerturbStep
        ``step`` itself when it is one.

    Raises
    ------
    RiskcoreError
        For a mapping that is not a perturbation step (:meth:`PerturbStep.from_dict`).
    """
    return step if isinstance(step, PerturbStep) else PerturbStep.from_dict(step)


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
    blanks : bool, default False
        Whether it blanks cells, a blank matching any value (local suppression): its
        release is judged under the ``any`` missing-value policy and its blanked
        records count toward the suppression limit.
    budgeted : bool, default False
        Whether it reports ``progress(done, total)`` on a long run, so a caller gives it
        the time budget (:class:`riskcore.workguard.Deadline`).
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
    blanks: bool = False
    budgeted: bool = False

    def check(self, step: PerturbStep | Mapping[str, Any]) -> tuple[list[str], dict[str, Any]]:
        """Return a step's columns and parameters, refused when it lacks one it needs.

        Parameters
        ----------
        step : PerturbStep or mapping
            A step naming this method (:func:`record_step`), or a recipe's dict of one.

        Returns
        -------
        tuple of (list of str, dict)
            The columns (as text) and the parameters.

        Raises
        ------
        RiskcoreError
            When a required parameter or (for a seeded method) the seed is missing.
        """
        step = perturb_step(step)
        params = step.params
        for name in self.required:
            if name not in params:
                raise RiskcoreError(f"the {self.name} step lacks {name!r}")
        if self.seeded and "seed" not in step.parameters:
            raise RiskcoreError(f"the {self.name} step lacks 'seed'")
        return list(step.columns), params


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
            blanks=True,
            budgeted=True,
        ),
    )
}

#: The methods a ``perturb`` step may name, in the order anonymize runs them (as registered
#: at import: riskcore reads :data:`METHODS` itself, so a method registered later counts).
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
        raise RiskcoreError(f"unknown perturbation method {name!r}; known: {', '.join(METHODS)}")
    return method


def record_step(result: Outcome) -> PerturbStep:
    """Return the recipe step that redoes ``result``.

    Parameters
    ----------
    result : LocalSuppression, Microaggregation, Pram or Noise
        The result of a perturbation run.

    Returns
    -------
    PerturbStep
        Its method, columns and parameters, the seed among them (None for a
        deterministic method).

    Raises
    ------
    RiskcoreError
        For a result of no registered method.
    """
    for method in METHODS.values():
        if isinstance(result, method.outcome):
            columns, params, seed = method.record(result)
            return PerturbStep("perturbation", method.name, tuple(columns),
                               {**params, "seed": seed})  # fmt: skip
    raise RiskcoreError(f"no perturbation method records a {type(result).__name__}")


def step_of(result: Outcome) -> dict[str, Any]:
    """Deprecated: :func:`record_step`'s step as a recipe's dict.

    Parameters
    ----------
    result : object
        What :func:`record_step` reads.

    Returns
    -------
    dict
        ``{"method", "columns", "params", "seed"}`` (:meth:`PerturbStep.to_dict`).
    """
    warnings.warn(
        "step_of() is deprecated; use record_step(), a typed PerturbStep (its to_dict() is "
        "this dict)",
        DeprecationWarning,
        stacklevel=2,
    )
    return record_step(result).to_dict()


def run_step(
    data: pd.DataFrame, step: PerturbStep | Mapping[str, Any], *, progress: Progress = None
) -> Outcome:
    """Run one recorded step on ``data``.

    Parameters
    ----------
    data : pandas.DataFrame
        The table (not modified).
    step : PerturbStep or mapping
        A step of :func:`record_step`, or a recipe's dict of one.
    progress : callable, optional
        ``progress(done, total)`` of a long run (a ``budgeted`` method's rounds), which
        may raise to stop it.

    Returns
    -------
    LocalSuppression, Microaggregation, Pram or Noise

    Raises
    ------
    RiskcoreError
        For an unknown method, a missing parameter, or the method's own errors.
    """
    step = perturb_step(step)
    method = get_method(step.operation)
    columns, params = method.check(step)
    try:
        return method.run(data, columns, params, step.seed, progress)
    except (KeyError, IndexError) as exc:
        raise RiskcoreError(f"the {method.name} step lacks {exc}") from None


def run_steps(data: pd.DataFrame, steps: Sequence[PerturbStep | Mapping[str, Any]]) -> pd.DataFrame:
    """Run recorded steps in order; return the perturbed table (``data`` is not modified).

    Parameters
    ----------
    data : pandas.DataFrame
        The table: a DataFrame, or an EncodedTable already encoded.
    steps : sequence of PerturbStep or mapping
        Steps of :func:`record_step` (or a recipe's dicts), each run on the table the one
        before gave.

    Returns
    -------
    pandas.DataFrame
    """
    out = data
    for step in steps:
        out = run_step(out, step).data
    return out


def numeric_columns(steps: Sequence[PerturbStep | Mapping[str, Any]]) -> list[str]:
    """Return the columns that recorded steps change as numbers, in first-seen order.

    Parameters
    ----------
    steps : sequence of PerturbStep or mapping
        Recipe steps (:func:`record_step`, or a recipe's dicts).

    Returns
    -------
    list of str
        The columns of the steps whose method is ``numeric`` (microaggregation, noise);
        empty without them.
    """
    return _columns_of(steps, lambda method: method.numeric)


def blanked_columns(steps: Sequence[PerturbStep | Mapping[str, Any]]) -> list[str]:
    """Return the columns whose cells recorded steps blank, in first-seen order.

    Parameters
    ----------
    steps : sequence of PerturbStep or mapping
        Recipe steps (:func:`record_step`, or a recipe's dicts).

    Returns
    -------
    list of str
        The columns of the steps whose method ``blanks`` cells (local suppression); empty
        without them.
    """
    return _columns_of(steps, lambda method: method.blanks)


def _columns_of(
    steps: Sequence[PerturbStep | Mapping[str, Any]], which: Callable[[PerturbMethod], bool]
) -> list[str]:
    """Return the columns of the steps whose registered method is ``which``, first-seen order."""
    read = [perturb_step(x) for x in steps]
    cols = [c for x in read if x.operation in METHODS and which(METHODS[x.operation])
            for c in x.columns]  # fmt: skip
    return list(dict.fromkeys(cols))
