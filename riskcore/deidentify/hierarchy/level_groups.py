"""A hierarchy's preview: the groups of every level and how many records each holds.

ARX's hierarchy wizards show, before a hierarchy is used, the groups each
level makes and their sizes; :func:`preview` computes the same from a
column, vectorized (one ``bincount`` of the values' leaves, then one per
level over the leaves' codes), so a column of a million rows previews in
milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from riskcore._results import Result
from riskcore.deidentify.hierarchy.base import Hierarchy, text_of
from riskcore.deidentify.hierarchy.words import level_words

__all__ = ["HierarchyPreview", "LevelGroups", "preview"]


@dataclass(frozen=True)
class LevelGroups(Result):
    """The groups of one level and the records in each.

    Attributes
    ----------
    level : int
        From 0 (the values) to the hierarchy's height.
    words : str
        What the level does (:func:`~riskcore.deidentify.hierarchy.level_words`).
    groups : tuple of str
        The labels of the level that hold at least one record, in the values'
        order (numbers by value, dates by date, other values by their text:
        :meth:`Hierarchy.value_order`).
    records : tuple of int
        Records in each group (same order as ``groups``).
    """

    level: int
    words: str
    groups: tuple[str, ...]
    records: tuple[int, ...]

    @property
    def smallest(self) -> int:
        """Return the records of the smallest group (0 when there is none)."""
        return min(self.records, default=0)


@dataclass(frozen=True)
class HierarchyPreview(Result):
    """Every level of a hierarchy, as groups with their sizes in a column.

    Attributes
    ----------
    column : str
        The column.
    records : int
        Rows of the column with a value.
    missing : int
        Rows without a value (they stay missing at every level).
    unmatched : int
        Rows whose value the hierarchy has no row for.
    levels : tuple of LevelGroups
        Level 0 to the top.
    """

    column: str
    records: int
    missing: int
    unmatched: int
    levels: tuple[LevelGroups, ...]

    def summary(self) -> pd.DataFrame:
        """Return one row per level: level, what it does, groups, smallest and largest group.

        Returns
        -------
        pandas.DataFrame
        """
        return pd.DataFrame(
            {
                "level": [lv.level for lv in self.levels],
                "what it does": [lv.words for lv in self.levels],
                "groups": [len(lv.groups) for lv in self.levels],
                "smallest group": [lv.smallest for lv in self.levels],
                "largest group": [max(lv.records, default=0) for lv in self.levels],
            }
        )

    def groups(self, level: int) -> pd.DataFrame:
        """Return the groups of one level and their records.

        Parameters
        ----------
        level : int
            A level of the hierarchy.

        Returns
        -------
        pandas.DataFrame
            Columns ``group`` and ``records``, in the values' order.
        """
        lv = self.levels[level]
        return pd.DataFrame({"group": list(lv.groups), "records": list(lv.records)})


def preview(hierarchy: Hierarchy, series: pd.Series) -> HierarchyPreview:
    """Return the groups of every level of ``hierarchy`` and their sizes in ``series``.

    Parameters
    ----------
    hierarchy : Hierarchy
        The hierarchy previewed.
    series : pandas.Series
        The column (usually the one the hierarchy was built on).

    Returns
    -------
    HierarchyPreview
        Per level, the groups that hold records and how many; the rows
        without a value (``missing``) and those whose value the hierarchy
        does not hold (``unmatched``) are counted apart and in no group.
    """
    leaf = hierarchy.leaf_index(series)
    n_leaves = len(hierarchy.leaves)
    per_leaf = np.bincount(leaf[leaf >= 0], minlength=n_leaves).astype(np.int64)
    order = hierarchy.value_order()
    levels = []
    for lv in range(hierarchy.height + 1):
        labels = pd.Series(hierarchy.levels[lv][order], dtype=object)
        codes, uniq = pd.factorize(labels, sort=False)
        sizes = np.bincount(codes, weights=per_leaf[order], minlength=len(uniq)).astype(np.int64)
        held = sizes > 0
        levels.append(
            LevelGroups(
                level=lv,
                words=level_words(hierarchy, lv),
                groups=tuple(text_of(g) for g in np.asarray(uniq, dtype=object)[held]),
                records=tuple(int(s) for s in sizes[held]),
            )
        )
    return HierarchyPreview(
        column=hierarchy.column,
        records=int((leaf >= 0).sum()),
        missing=int((leaf == -2).sum()),
        unmatched=int((leaf == -1).sum()),
        levels=tuple(levels),
    )
