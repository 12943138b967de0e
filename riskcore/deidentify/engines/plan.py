"""What a chosen node does to each record, as small tables an engine joins to the data.

A node of the lattice (one level per quasi-identifier) generalizes each value of a
QI to its label at the QI's level and suppresses the records of the classes that
break the targets. Both are functions of the QI values alone, so they fit in small
tables computed from the level-0 class table, never from the rows:

* per QI, a :class:`ValueMap`: each distinct value of the column (as the engine
  reads it), its label at the level (:func:`riskcore.deidentify.recipe.generalize_columns`'s
  rule: level 0 keeps the value, a missing value stays missing) and its code at the
  level (the lattice's numbering: a missing value has a code of its own);
* the :class:`FailingSet`: the code tuples, at the node's levels, of the classes
  that break the targets (:meth:`riskcore.deidentify.lattice.Lattice.failing`).
  A record is suppressed exactly when its code tuple is in the set: two records
  with equal codes at every QI are in the same class of the node.

An engine joins each value map to the data on the value (SQL's ``LEFT JOIN``, Arrow's
``index_in``) and the failing set on the codes; :class:`NodePlan` holds both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from riskcore.deidentify.engines.table import SourceTable, is_missing
from riskcore.deidentify.hierarchy import TOP, at_leaves
from riskcore.deidentify.lattice import Lattice
from riskcore.errors import RiskcoreError

__all__ = ["FailingSet", "NodePlan", "ValueMap", "plan_node"]


@dataclass(frozen=True, eq=False)
class ValueMap:
    """One QI's values, their codes and labels at the node's level.

    Attributes
    ----------
    column : str
    level : int
    values : pyarrow.Array
        The distinct non-missing values, typed as the column (a dictionary
        column's value type).
    codes : numpy.ndarray
        The node's code of each value (int64).
    labels : pyarrow.Array or None
        The label of each value at the level; None at level 0 (the value kept).
    missing_code : int
        The code of a missing value (``NULL`` or ``NaN``).
    cardinality : int
        Number of codes (``missing_code + 1``).
    """

    column: str
    level: int
    values: Any
    codes: np.ndarray
    labels: Any
    missing_code: int
    cardinality: int

    def table(self, prefix: str) -> Any:
        """Return the map as an Arrow table: ``{prefix}v``, ``{prefix}c`` (and ``{prefix}l``).

        Parameters
        ----------
        prefix : str
            Column-name prefix (unique in the query).

        Returns
        -------
        pyarrow.Table
        """
        import pyarrow as pa

        cols = {f"{prefix}v": self.values, f"{prefix}c": pa.array(self.codes, type=pa.int64())}
        if self.labels is not None:
            cols[f"{prefix}l"] = self.labels
        return pa.table(cols)


class FailingSet:
    """The code tuples of the failing classes, and an exact membership test for records.

    The test works QI by QI, re-densifying the prefix as it goes: after QI i,
    a record's prefix is the rank of its codes (c_0 .. c_i) among the failing
    classes' prefixes, or "none" (then the record is not in any failing
    class). ``rank * card_i + c_i`` never exceeds (failing classes) x
    (cardinality), so the keys stay exact int64 whatever the number of QIs
    and values.

    Parameters
    ----------
    codes : numpy.ndarray
        ``(F, Q)`` int64: one row per failing class.
    cardinalities : sequence of int
        Number of codes of each QI.
    """

    def __init__(self, codes: np.ndarray, cardinalities: Sequence[int]) -> None:
        self.codes = np.asarray(codes, dtype=np.int64).reshape(-1, len(cardinalities))
        self.cardinalities = tuple(int(c) for c in cardinalities)
        self._steps: list[np.ndarray] = []
        rank = np.zeros(len(self.codes), dtype=np.int64)
        for i, card in enumerate(self.cardinalities):
            keys = rank * card + self.codes[:, i]
            uniq, inv = np.unique(keys, return_inverse=True)
            self._steps.append(uniq)
            rank = inv.reshape(-1).astype(np.int64)

    def __len__(self) -> int:
        return len(self.codes)

    def hits(self, codes: Sequence[np.ndarray]) -> np.ndarray:
        """Return, per record, whether its codes are those of a failing class.

        Parameters
        ----------
        codes : sequence of numpy.ndarray
            One int64 array per QI, the records' codes.

        Returns
        -------
        numpy.ndarray
            bool per record.
        """
        n = len(codes[0]) if codes else 0
        hit = np.full(n, len(self.codes) > 0)
        if not len(self.codes):
            return hit
        rank = np.zeros(n, dtype=np.int64)
        for step, card, c in zip(self._steps, self.cardinalities, codes, strict=True):
            keys = rank * card + c
            pos = np.minimum(np.searchsorted(step, keys), len(step) - 1)
            found = step[pos] == keys
            hit &= found
            rank = np.where(found, pos, 0)
        return hit


@dataclass(frozen=True, eq=False)
class NodePlan:
    """A node's generalization and suppression, as tables to join to the data.

    Attributes
    ----------
    qis : tuple of str
    levels : tuple of int
    maps : tuple of ValueMap
        One per QI.
    failing : FailingSet
    suppressed : int
        Records in the failing classes.
    n_records : int
    """

    qis: tuple[str, ...]
    levels: tuple[int, ...]
    maps: tuple[ValueMap, ...]
    failing: FailingSet
    suppressed: int
    n_records: int

    def needs_codes(self, i: int) -> bool:
        """Return True when QI ``i`` is joined: generalized, or read by the failing set.

        Parameters
        ----------
        i : int
            QI number.

        Returns
        -------
        bool
        """
        return self.levels[i] > 0 or len(self.failing) > 0


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
    for i, (q, level) in enumerate(zip(lattice.qis, lv, strict=True)):
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
        qis=tuple(lattice.qis),
        levels=lv,
        maps=tuple(maps),
        failing=FailingSet(unique_failing, [m.cardinality for m in maps]),
        suppressed=int(sizes[bad].sum()),
        n_records=int(lattice.n),
    )
