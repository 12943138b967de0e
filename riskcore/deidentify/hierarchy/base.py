"""The hierarchy type: for each value of a column, its label at every level.

A hierarchy of height h maps every value (a leaf) to one label per level
0..h: level 0 is the value itself, each level groups the groups of the level
below (it is a coarsening), and the top level is usually ``"*"`` (one group).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from riskcore._values import at_leaves, value_text
from riskcore.deidentify.hierarchy.date_text import parse_dates
from riskcore.errors import RiskcoreError

__all__ = [
    "MAX_LABELS",
    "TOP",
    "Hierarchy",
    "at_leaves",
    "check_size",
    "leaves_of",
    "present",
    "text_of",
]

#: Label of the most general level: every value in one group.
TOP = "*"

#: Most labels a builder makes: distinct values x levels (level 0 and the top counted).
#: Every label is a Python object (about 60-120 bytes): 20 million labels are about 2 GB.
MAX_LABELS = 20_000_000


def check_size(column: Any, n_values: int, n_levels: int) -> None:
    """Refuse a hierarchy of more than :data:`MAX_LABELS` labels before it is built.

    Parameters
    ----------
    column : Any
        The column's name, for the message.
    n_values : int
        Its distinct values.
    n_levels : int
        The levels to build, level 0 and the top counted.

    Raises
    ------
    RiskcoreError
        Naming the count and the limit.
    """
    if n_values * n_levels > MAX_LABELS:
        raise RiskcoreError(
            f"{column!r}: {n_values:,} distinct values at {n_levels} levels make "
            f"{n_values * n_levels:,} labels, above the limit of {MAX_LABELS:,} for a "
            "hierarchy; use fewer levels, or coarsen the values before loading them"
        )


def present(series: pd.Series) -> pd.Series:
    """Return the non-missing values of ``series`` (index kept).

    Parameters
    ----------
    series : pandas.Series
        The column's values.

    Returns
    -------
    pandas.Series
    """
    return series[series.notna()]


def text_of(value: Any) -> str:
    """Return a value as text (leading zeros of text kept; "" for a missing value).

    Parameters
    ----------
    value : Any
        A value of a column.

    Returns
    -------
    str
    """
    return value_text(value) or ""


@dataclass(frozen=True, eq=False)
class Hierarchy:
    """The labels of every value of a column at every level.

    Attributes
    ----------
    column : str
        Column the hierarchy is for.
    leaves : numpy.ndarray
        The values (object array, distinct, no missing value).
    levels : tuple of numpy.ndarray
        ``levels[l][i]`` is the label of ``leaves[i]`` at level ``l``;
        ``levels[0]`` is the leaves themselves. Each level is a coarsening
        of the one below (checked).
    kind : str
        The builder ("interval", "date", "prefix", "grouping", "flat", "arx").
    params : dict
        The builder's parameters (so a recipe can rebuild the hierarchy on new
        data); empty for hierarchies given as tables.
    numeric : bool
        True when the leaves are numbers (the certainty penalty then uses
        their range, not their count).
    """

    column: str
    leaves: np.ndarray
    levels: tuple[np.ndarray, ...]
    kind: str = "grouping"
    params: Mapping[str, Any] | None = None
    numeric: bool = False

    def __post_init__(self) -> None:
        n = len(self.leaves)
        if not self.levels:
            raise RiskcoreError(f"the hierarchy of {self.column!r} has no level")
        leaves = pd.Series(self.leaves, dtype=object)
        if leaves.duplicated().any():
            twice = leaves[leaves.duplicated()].iloc[0]
            raise RiskcoreError(
                f"the hierarchy of {self.column!r} lists the value {twice!r} twice: one row "
                "per value"
            )
        for lab in self.levels:
            if len(lab) != n:
                raise RiskcoreError(f"every level of {self.column!r} needs one label per value")
        for lo, (a, b) in enumerate(zip(self.levels[:-1], self.levels[1:], strict=True)):
            # a coarsening: each label of level lo has one label at level lo + 1
            pairs = pd.DataFrame({"a": pd.Series(a, dtype=object), "b": pd.Series(b, dtype=object)})
            split = pairs.drop_duplicates().groupby("a", dropna=False).size()
            if (split > 1).any():
                bad = split.index[int(np.argmax(split.to_numpy() > 1))]
                parents = pairs.loc[pairs["a"] == bad, "b"].drop_duplicates().tolist()
                raise RiskcoreError(
                    f"the hierarchy of {self.column!r} is not consistent: {bad!r} at level "
                    f"{lo} has {len(parents)} parents at level {lo + 1} "
                    f"({', '.join(map(repr, parents[:3]))}); each value or group needs one "
                    "parent per level"
                )

    @property
    def height(self) -> int:
        """Return h, the highest level (level 0 is the value itself)."""
        return len(self.levels) - 1

    def codes(self, level: int) -> tuple[np.ndarray, np.ndarray]:
        """Return (code of each leaf at ``level``, the labels of those codes).

        Parameters
        ----------
        level : int
            A level, 0 (the values) to the top.

        Returns
        -------
        tuple of (numpy.ndarray, numpy.ndarray)
        """
        codes, labels = pd.factorize(pd.Series(self.levels[level], dtype=object), sort=False)
        return codes.astype(np.int64), np.asarray(labels, dtype=object)

    def leaf_index(self, values: pd.Series) -> np.ndarray:
        """Return the leaf of each value: its position in :attr:`leaves`.

        Parameters
        ----------
        values : pandas.Series
            The column's values.

        Returns
        -------
        numpy.ndarray
            The position of each value in :attr:`leaves`; -1 for a value the hierarchy
            does not hold, -2 for a missing value.
        """
        # each distinct value is looked up once (a million rows hold a few hundred values); a
        # categorical's values are its categories, its codes each row's (-1: missing), no hash
        values = pd.Series(values)
        if isinstance(values.dtype, pd.CategoricalDtype):
            codes, uniques = values.cat.codes.to_numpy(), values.cat.categories
        else:
            codes, uniques = pd.factorize(values, use_na_sentinel=True)
        distinct = pd.Series(np.asarray(uniques, dtype=object), dtype=object)
        index = pd.Index(pd.Series(self.leaves, dtype=object))
        pos = index.get_indexer(distinct)
        if self.numeric and len(self.leaves):  # 30 and 30.0 are one value
            num = pd.to_numeric(distinct, errors="coerce").to_numpy(dtype=float)
            leaves = pd.to_numeric(pd.Series(self.leaves), errors="coerce").to_numpy(dtype=float)
            order = np.argsort(leaves, kind="stable")
            at = np.searchsorted(leaves[order], num)
            at = np.minimum(at, len(order) - 1)
            hit = leaves[order][at] == num
            pos = np.where(hit, order[at], pos)
        pos = np.append(np.asarray(pos, dtype=np.int64), -2)  # the code -1: a missing value
        return pos[np.where(codes < 0, len(pos) - 1, codes)]

    def to_frame(self, *, sort: bool = False) -> pd.DataFrame:
        """Return the hierarchy as a table: one row per value, one column per level.

        With ``sort``, rows are in the values' order (:meth:`value_order`: numbers
        by value, dates by date, other values by their text) instead of their first
        appearance, index reset.

        Parameters
        ----------
        sort : bool, optional
            Rows in the values' order (:meth:`value_order`) instead of their first appearance.

        Returns
        -------
        pandas.DataFrame
        """
        frame = pd.DataFrame(
            {f"level {i}": pd.Series(lab, dtype=object) for i, lab in enumerate(self.levels)}
        )
        if not sort:
            return frame
        return frame.iloc[self.value_order()].reset_index(drop=True)

    def value_order(self) -> np.ndarray:
        """Return the positions of the leaves in the values' order.

        Numbers by value, the dates of a date hierarchy by date (text such as
        ``"03/04/2024"`` sorted by its text would put every March before April
        whatever the year, issue 38), other values by their text.

        Returns
        -------
        numpy.ndarray
            A permutation of ``range(len(self.leaves))`` (a stable sort).
        """
        if self.numeric:
            return np.argsort(np.asarray(self.leaves, dtype=float), kind="stable")
        text = np.asarray([text_of(v) for v in self.leaves], dtype=str)
        if self.kind == "date":
            when = parse_dates(pd.Series(self.leaves, dtype=object))
            stamp = when.to_numpy(dtype="datetime64[ns]").astype(np.int64)
            unread = when.isna().to_numpy()  # not a date: after the dates, by text
            return np.lexsort((text, np.where(unread, 0, stamp), unread))
        return np.argsort(text, kind="stable")

    def to_arx_csv(self) -> str:
        """Return the hierarchy in ARX's CSV format: ``value;level 1;...;top`` per row.

        Returns
        -------
        str
        """
        out = io.StringIO()
        writer = csv.writer(out, delimiter=";", lineterminator="\n")
        for row in zip(*self.levels, strict=True):
            writer.writerow([text_of(v) for v in row])
        return out.getvalue()

    @property
    def spec_kind(self) -> str:
        """Return the kind :meth:`recipe` records: the builder's, or ``"table"``.

        ``"table"`` is the kind of a hierarchy given by its labels (groups, ARX files,
        edited tables).
        """
        return self.kind if self.params is not None and self.kind != "grouping" else "table"

    def recipe(self) -> dict[str, Any]:
        """Return what rebuilds this hierarchy: the builder and its parameters, or the table.

        Returns
        -------
        dict of str to Any
        """
        if self.spec_kind != "table":
            return {"kind": self.kind, "params": dict(self.params or {})}
        return {
            "kind": "table",
            "numeric": self.numeric,
            "rows": [[_json_value(v) for v in row] for row in zip(*self.levels, strict=True)],
        }


def _json_value(v: Any) -> Any:
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, (int, float, str)) or v is None:
        return v
    return text_of(v)


def leaves_of(series: pd.Series) -> np.ndarray:
    """Return the distinct non-missing values of ``series``, in order of first appearance.

    Parameters
    ----------
    series : pandas.Series
        The column's values.

    Returns
    -------
    numpy.ndarray
    """
    return np.asarray(pd.unique(present(series)), dtype=object)
