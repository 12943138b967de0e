"""Remediation on an engine: search on the engine's class table, release written where the data lie.

:func:`anonymize_source` is ``riskcore anonymize --engine arrow|duckdb|spark``:
the engine computes the level-0 class table (and the sensitive contingencies);
the lattice (:class:`~riskcore.deidentify.search.lattice.Lattice`) and its exact
least-loss search (:func:`riskcore.deidentify.search.run.search`) run on that table
alone, as on the in-memory path; the chosen node is applied by the engine
(:func:`~riskcore.engine.release.write_node`). :func:`apply_recipe_to_source`
is ``riskcore apply --engine ...``: a recipe's node re-judged on the engine's
class table and written the same way.

Limits: the steps of a recipe that work on each record (Safe Harbor, masking,
date shifting, perturbation) and sampling weights need the rows in memory and
are refused with a sentence; the lattice is bounded by
:data:`~riskcore.deidentify.search.steering.MAX_NODES` nodes as everywhere; memory is
set by the level-0 class table (one row per distinct QI combination), not by
the number of records.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore._results import Result
from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import TOP, Hierarchy, at_leaves, rebuild
from riskcore.deidentify.recipe.base import Recipe
from riskcore.deidentify.search.lattice import Lattice
from riskcore.deidentify.search.run import SearchResult, search
from riskcore.deidentify.search.steering import Steering
from riskcore.engine.release import FailingSet, NodePlan, ValueMap, check_out, write_node
from riskcore.engine.source import REMEDIATION_ENGINES, SourceTable, is_missing
from riskcore.errors import RiskcoreError

__all__ = [
    "REMEDIATION_ENGINES",
    "EngineRelease",
    "FailingSet",
    "NodePlan",
    "SourceTable",
    "ValueMap",
    "anonymize_source",
    "apply_recipe_to_source",
    "check_out",
    "hierarchy_values",
    "plan_node",
    "record_steps",
    "write_node",
]


@dataclass(frozen=True)
class EngineRelease(Result):
    """A release written by an engine: the node, what it suppressed, where it went.

    Attributes
    ----------
    engine : str
        "arrow", "duckdb" or "spark".
    levels : dict of str to int
        The node: one level per QI.
    n_records : int
        Records of the data.
    suppressed : int
        Records of the classes that break the targets (left out, or masked).
    within_limit : bool
        Whether the node meets the targets within the suppression limit.
    rows_written : int
    out : str
        The Parquet file or directory written.
    seconds : dict of str to float
        Wall time of ``tabulate`` (the engine's class table), ``search`` (or
        ``judge`` for a recipe) and ``write``.
    unknown_values : dict of str to list
        Per QI, values a recipe's hierarchy table does not hold (up to 20),
        made ``"*"`` (a recipe only).
    n_unknown : dict of str to int
        Per QI, records holding such a value.
    """

    engine: str
    levels: dict[str, int]
    n_records: int
    suppressed: int
    within_limit: bool
    rows_written: int
    out: str
    seconds: dict[str, float] = field(default_factory=dict)
    unknown_values: dict[str, list[Any]] = field(default_factory=dict)
    n_unknown: dict[str, int] = field(default_factory=dict)


def hierarchy_values(
    table: SourceTable, quasi_identifiers: Sequence[str], sensitive: Sequence[str] = ()
) -> dict[str, pd.Series]:
    """Return each QI's distinct values, typed as loaded (what hierarchies are built on).

    The engine's class table over the QIs (and the sensitive attributes, the
    table the lattice reads next, computed once) gives the values.

    Parameters
    ----------
    table : SourceTable
        The data on their engine.
    quasi_identifiers : sequence of str
        The QIs, in order.
    sensitive : sequence of str
        The sensitive attributes the lattice will read.

    Returns
    -------
    dict of str to pandas.Series
        Per QI, its distinct non-missing values (:meth:`SourceTable.distinct`).
    """
    qis = list(quasi_identifiers)
    tab = table.tabulate(qis, [s for s in sensitive if s not in qis])
    return {q: table.distinct(q, tab.classes.labels[i]) for i, q in enumerate(qis)}


def record_steps(recipe: Recipe) -> list[str]:
    """Return the recipe's steps that work on each record, in words (none: an engine can apply it).

    Parameters
    ----------
    recipe : Recipe
        A recipe read and checked.

    Returns
    -------
    list of str
        Empty when every step is generalization and suppression.
    """
    steps = []
    if recipe.safe_harbor:
        steps.append("Safe Harbor")
    if recipe.date_shift is not None:
        steps.append("date shifting")
    if recipe.masking:
        masked = [c for m in recipe.masking for c in m.columns]
        steps.append("masking of " + ", ".join(map(repr, masked)))
    if recipe.perturb:
        steps.append("perturbation")
    if recipe.weights:
        steps.append(f"sampling weights ({recipe.weights!r})")
    return steps


@renamed_arguments(population="population_table")
def anonymize_source(
    table: SourceTable,
    hierarchies: Mapping[str, Hierarchy],
    out: str | os.PathLike[str],
    *,
    sensitive: Sequence[str] = (),
    targets: Targets | None = None,
    distance: Mapping[str, str] | None = None,
    order: Mapping[str, Sequence[object]] | None = None,
    missing: Literal["own", "any"] = "own",
    sampling_fraction: float | None = None,
    steering: Steering | None = None,
    population_table: pd.DataFrame | None = None,
    objective: str = "ncp",
    suppression: str = "drop",
    partition_by: Sequence[str] = (),
    before_write: Callable[[dict[str, int]], None] | None = None,
    sensitive_hierarchies: Mapping[str, Sequence[Sequence[Any]]] | None = None,
) -> tuple[SearchResult, Lattice, EngineRelease | None]:
    """Search the lattice on the engine's class table and write the least-loss node's release.

    Parameters
    ----------
    table : SourceTable
        The data on their engine.
    hierarchies : mapping of str to Hierarchy
        One per QI, in order (built on :func:`hierarchy_values`).
    out : str or path
        A ``.parquet`` file, or a new directory with ``partition_by``
        (:func:`~riskcore.engine.release.check_out`); checked before
        the search.
    sensitive, targets, distance, order, missing, sampling_fraction, steering, population_table
        As :class:`~riskcore.deidentify.search.lattice.Lattice`.
    objective : str, default "ncp"
        The loss minimized (:data:`riskcore.utility.loss.OBJECTIVES`).
    suppression : {"drop", "mask"}
        Drop the suppressed records, or keep them with every QI set to ``"*"``.
    partition_by : sequence of str
        Columns the release directory is partitioned by (none: one file).
    before_write : callable, optional
        Called with the chosen node's levels (per QI) before the release is written;
        an error it raises stops the run with nothing written (the command line's
        check of direct identifiers left at level 0).
    sensitive_hierarchies : mapping of str to rows, optional
        As :class:`~riskcore.deidentify.search.lattice.Lattice` (the hierarchical
        t-closeness distance).

    Returns
    -------
    search : SearchResult
    lattice : Lattice
    release : EngineRelease or None
        None when no node meets the targets (nothing is written).

    Raises
    ------
    RiskcoreError
        For a missing column, a bad ``out``, a lattice beyond its bound, or an
        engine failure.
    """
    table.check_columns((*hierarchies, *sensitive))
    check_out(out, partition_by, table.columns)
    table.tabulate(list(hierarchies), [s for s in sensitive if s not in hierarchies])
    t1 = time.perf_counter()
    lattice = Lattice(
        table,
        hierarchies,
        sensitive=sensitive,
        targets=targets,
        distance=distance,  # type: ignore[arg-type]
        order=order,
        missing=missing,
        sampling_fraction=sampling_fraction,
        steering=steering,
        population_table=population_table,
        sensitive_hierarchies=sensitive_hierarchies,
    )
    result = search(lattice, objective=objective)  # type: ignore[arg-type]
    t2 = time.perf_counter()
    if result.best is None:
        return result, lattice, None
    levels = result.best.levels
    if before_write is not None:
        before_write(dict(zip(lattice.quasi_identifiers, levels, strict=True)))
    plan = plan_node(lattice, table, levels)
    written = write_node(table, plan, out, suppression=suppression, partition_by=partition_by)
    t3 = time.perf_counter()
    release = EngineRelease(
        engine=table.name,
        levels=dict(zip(lattice.quasi_identifiers, levels, strict=True)),
        n_records=lattice.n,
        suppressed=plan.suppressed,
        within_limit=result.best.anonymous,
        rows_written=written,
        out=os.fspath(out),
        seconds={"tabulate": table.seconds, "search": t2 - t1, "write": t3 - t2},
    )
    return result, lattice, release


def _known(
    q: str, values: pd.Series, spec: Mapping[str, Any], counts: np.ndarray
) -> tuple[Hierarchy, list[Any], int]:
    """Return the recipe's hierarchy of ``q`` rebuilt on its values (``counts``: the records
    of each), the values it does not hold joined at ``"*"`` (as
    :func:`riskcore.deidentify.recipe.apply.apply_recipe` does), those values and the
    records holding them."""
    from riskcore.deidentify.recipe.apply import with_unknown

    h = rebuild(values, spec)
    miss = h.leaf_index(values) == -1
    if not miss.any():
        return h, [], 0
    extra = values.to_numpy()[miss]
    shown = [v.item() if isinstance(v, np.generic) else v for v in extra[:20]]
    return with_unknown(h, extra), shown, int(counts[miss].sum())


@renamed_arguments(population="population_table")
def apply_recipe_to_source(
    table: SourceTable,
    recipe: Recipe | Mapping[str, Any],
    out: str | os.PathLike[str],
    *,
    population_table: pd.DataFrame | None = None,
    partition_by: Sequence[str] = (),
) -> EngineRelease:
    """Re-apply a recipe's generalization and suppression on an engine and write the release.

    The recipe's hierarchies are rebuilt on the data's distinct values (a
    hierarchy given as a table keeps its table; values it does not hold are
    reported and made ``"*"``), its node judged against its targets on the
    engine's class table, and the failing classes suppressed as it says.

    Parameters
    ----------
    table : SourceTable
        The data on their engine.
    recipe : Recipe or mapping
        Without steps that work on each record (:func:`record_steps`).
    out : str or path
        See :func:`~riskcore.engine.release.check_out`.
    population_table : pandas.DataFrame, optional
        The population table of the recipe's k-map and delta-presence targets.
    partition_by : sequence of str
        Columns the release directory is partitioned by (none: one file).

    Returns
    -------
    EngineRelease

    Raises
    ------
    RiskcoreError
        For a step that needs the rows, a column the data lack, a level
        outside the recipe's bounds, or an engine failure.
    """
    from riskcore.deidentify.recipe.apply import pinned_steering

    rec = recipe if isinstance(recipe, Recipe) else Recipe.from_dict(recipe)
    steps = record_steps(rec)
    if steps:
        raise RiskcoreError(
            f"the recipe has steps that work on each record ({'; '.join(steps)}), which the "
            f"{table.name} engine does not run: apply it in memory (--engine pandas)"
        )
    if not rec.quasi_identifiers:
        raise RiskcoreError("the recipe generalizes nothing: there is nothing for an engine to do")
    table.check_columns((*rec.quasi_identifiers, *rec.sensitive), ", which the recipe names")
    check_out(out, partition_by, table.columns)
    tab = table.tabulate(
        list(rec.quasi_identifiers), [s for s in rec.sensitive if s not in rec.quasi_identifiers]
    )
    t1 = time.perf_counter()
    hierarchies: dict[str, Hierarchy] = {}
    unknown: dict[str, list[Any]] = {}
    n_unknown: dict[str, int] = {}
    for i, q in enumerate(rec.quasi_identifiers):
        labels = np.asarray(tab.classes.labels[i], dtype=object)
        counts = np.bincount(
            np.asarray(tab.classes.keys[i]), weights=tab.classes.sizes, minlength=len(labels)
        )
        present = np.fromiter((not is_missing(v) for v in labels), bool, count=len(labels))
        values = table.distinct(q, labels)
        h, shown, n = _known(q, values, rec.hierarchies[q], counts[present])
        hierarchies[q] = h
        if shown:
            unknown[q], n_unknown[q] = shown, n
    lattice = Lattice(
        table,
        hierarchies,
        sensitive=rec.sensitive,
        targets=Targets.from_dict(rec.targets),
        distance=rec.distances,  # type: ignore[arg-type]
        order=rec.orders,
        sensitive_hierarchies=rec.sensitive_hierarchies,
        missing=rec.missing,
        sampling_fraction=rec.sampling_fraction,
        steering=pinned_steering(rec, hierarchies),
        population_table=population_table,
    )
    node = lattice.evaluate(rec.levels)
    plan = plan_node(lattice, table, rec.levels)
    t2 = time.perf_counter()
    written = write_node(table, plan, out, suppression=rec.suppression, partition_by=partition_by)
    t3 = time.perf_counter()
    return EngineRelease(
        engine=table.name,
        levels=dict(zip(rec.quasi_identifiers, rec.levels, strict=True)),
        n_records=lattice.n,
        suppressed=plan.suppressed,
        within_limit=node.anonymous,
        rows_written=written,
        out=os.fspath(out),
        seconds={"tabulate": table.seconds, "judge": t2 - t1, "write": t3 - t2},
        unknown_values=unknown,
        n_unknown=n_unknown,
    )


def _labels_array(column: str, labels: np.ndarray) -> Any:
    """Return a level's labels as an Arrow array (text, or Arrow's type for other labels)."""
    import pyarrow as pa

    values = [None if is_missing(v) else v for v in labels]
    if all(v is None or isinstance(v, str) for v in values):
        return pa.array(values, type=pa.string())
    try:
        return pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        raise RiskcoreError(
            f"the labels of {column!r} mix numbers and text, which a Parquet column cannot "
            "hold: give the hierarchy text labels"
        ) from None


def plan_node(lattice: Lattice, table: SourceTable, levels: Sequence[int]) -> NodePlan:
    """Return what the node ``levels`` of ``lattice`` does to each record, as join tables.

    Parameters
    ----------
    lattice : Lattice
        Built on ``table`` (its level-0 class table is the engine's).
    table : SourceTable
        The data.
    levels : sequence of int
        One level per QI.

    Returns
    -------
    NodePlan

    Raises
    ------
    RiskcoreError
        For levels outside the hierarchies, or labels no Parquet column can hold.
    """
    import pyarrow as pa

    lv = tuple(int(x) for x in levels)
    ids, sizes, bad = lattice.failing(lv)  # checks the levels
    base = lattice.base
    bad_base = bad[ids]
    maps: list[ValueMap] = []
    failing_codes: list[np.ndarray] = []
    for i, (q, level) in enumerate(zip(lattice.quasi_identifiers, lv, strict=True)):
        h = lattice.hierarchies[q]
        labels = np.asarray(base.labels[i], dtype=object)
        present = np.fromiter((not is_missing(v) for v in labels), dtype=bool, count=len(labels))
        values = labels[present]
        leaf = h.leaf_index(pd.Series(values, dtype=object))
        codes, names = h.codes(level)
        value_codes = at_leaves(codes, leaf, len(names)).astype(np.int64)
        missing_code = len(names)
        # the code of every label of the class table, then of every failing base class
        label_codes = np.full(len(labels), missing_code, dtype=np.int64)
        label_codes[present] = value_codes
        failing_codes.append(label_codes[np.asarray(base.keys[i])[bad_base]])
        try:
            typed = pa.array(list(values), type=table.arrow_type(q))
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError):
            raise RiskcoreError(
                f"the values of {q!r} cannot be matched to the column's type "
                f"({table.arrow_type(q)})"
            ) from None
        label_array = None
        if level > 0:
            names_at = np.asarray(h.levels[level], dtype=object)
            label_array = _labels_array(q, at_leaves(names_at, leaf, TOP))
        maps.append(
            ValueMap(q, level, typed, value_codes, label_array, missing_code, missing_code + 1)
        )
    stacked = np.column_stack(failing_codes) if failing_codes else np.zeros((0, 0), np.int64)
    unique_failing = np.unique(stacked, axis=0) if len(stacked) else stacked
    return NodePlan(
        quasi_identifiers=tuple(lattice.quasi_identifiers),
        levels=lv,
        maps=tuple(maps),
        failing=FailingSet(unique_failing, [m.cardinality for m in maps]),
        suppressed=int(sizes[bad].sum()),
        n_records=int(lattice.n),
    )
