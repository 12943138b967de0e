"""The in-memory engine: per-column codes of a pandas table, computed once.

This is the only engine today. It turns a table, its quasi-identifiers and its
sensitive attributes into the contract of :mod:`riskcore.engine.contract`
(class sizes and the sparse class x value contingency); it is also the one
place where per-record questions are answered (which class each record falls
in), because only an engine that holds the rows can answer them.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from riskcore.engine.partition import EncodedColumn, Partition, build_partition, encode_column
from riskcore.errors import RolesError

__all__ = ["EncodedTable"]


class EncodedTable:
    """Per-column integer codes of a table, computed once and cached.

    Every QI subset, what-if and lattice node reuses the codes: factorizing
    strings again costs more than the group-by itself.

    Parameters
    ----------
    df : pandas.DataFrame
        The table; it is not copied or modified.
    """

    def __init__(self, df: pd.DataFrame) -> None:
        if not isinstance(df, pd.DataFrame):
            raise TypeError(f"df must be a DataFrame, got {type(df).__name__}")
        if df.columns.has_duplicates:
            dup = df.columns[df.columns.duplicated()][0]
            raise RolesError(f"the table has two columns named {dup!r}; rename one")
        self.df = df
        self._cache: dict[tuple[str, bool | None], EncodedColumn] = {}

    def __len__(self) -> int:
        return len(self.df)

    def column(self, name: str, *, ordered: bool | None = None) -> EncodedColumn:
        """Return the codes of one column (cached)."""
        key = (name, ordered)
        if key not in self._cache:
            if name not in self.df.columns:
                raise RolesError(f"the table has no column {name!r}")
            self._cache[key] = encode_column(self.df[name], ordered=ordered)
        return self._cache[key]

    def partition(self, qis: Iterable[str]) -> Partition:
        """Return the equivalence classes over ``qis``."""
        qis = tuple(qis)
        return build_partition({q: self.column(q) for q in qis}, qis)
