"""The queries the DP page answers on the loaded table, and their exact answers.

A :class:`Query` says what is asked (a count, sum, mean or histogram, with
row filters, clipping bounds and public categories);
:func:`true_answer` computes its exact, non-private answer for comparison.
The private answer is drawn in :mod:`riskcore.dp.release`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from riskcore._results import Result
from riskcore.errors import RiskcoreError

__all__ = ["MAX_BARS", "MISSING", "OTHER", "Query", "true_answer"]

OTHER = "(other)"
MISSING = "(missing)"
MAX_BARS = 500


@dataclass(frozen=True)
class Query(Result):
    """A query on the loaded table.

    Attributes
    ----------
    kind : {"count", "sum", "mean", "histogram"}
    column : str or None
        Summed / averaged / histogrammed column (None for a count).
    filters : tuple of (str, tuple of str)
        Rows kept: for each (column, values), the column's text is one of
        the values. Filters apply to every kind of query.
    bounds : tuple of float or None
        Clipping bounds (L, U) of a sum or mean; must be public.
    categories : tuple of str or None
        Public categories of a histogram; values outside fall in
        "(other)", missing values in "(missing)".
    n_public : int or None
        Public row count for a mean under add/remove neighbours.
    """

    kind: Literal["count", "sum", "mean", "histogram"]
    column: str | None = None
    filters: tuple[tuple[str, tuple[str, ...]], ...] = ()
    bounds: tuple[float, float] | None = None
    categories: tuple[str, ...] | None = None
    n_public: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("count", "sum", "mean", "histogram"):
            raise ValueError(f"unknown query kind {self.kind!r}")
        if self.kind != "count" and not self.column:
            raise ValueError(f"a {self.kind} needs a column")
        if self.kind in ("sum", "mean") and self.bounds is None:
            raise ValueError(f"a {self.kind} needs clipping bounds")
        if self.bounds is not None:  # floats, so the JSON reads back equal
            object.__setattr__(self, "bounds", (float(self.bounds[0]), float(self.bounds[1])))

    @property
    def reads(self) -> tuple[str, ...]:
        """Return the columns the query reads: its filters' columns, then its column."""
        named = [c for c, _ in self.filters] + ([self.column] if self.column else [])
        return tuple(dict.fromkeys(named))

    def describe(self) -> str:
        """Return the query in plain words.

        Returns
        -------
        str
        """
        where = " and ".join(
            f"{c} is {' or '.join(v) if v else '(nothing)'}" for c, v in self.filters
        )
        cond = f" where {where}" if where else ""
        if self.kind == "count":
            return f"count of rows{cond}"
        if self.kind == "histogram":
            return f"histogram of {self.column}{cond}"
        lo, hi = self.bounds if self.bounds is not None else (float("nan"), float("nan"))
        return f"{self.kind} of {self.column} clipped to [{lo:g}, {hi:g}]{cond}"

    def to_dict(self) -> dict[str, Any]:
        """Return the query as JSON-ready values, with its ``description`` (derived).

        Returns
        -------
        dict of str to Any
            The fields and ``description``, which :meth:`from_dict` ignores.
        """
        return {**super().to_dict(), "description": self.describe()}


def _filtered(data: pd.DataFrame, query: Query) -> pd.DataFrame:
    mask = np.ones(len(data), dtype=bool)
    for col, values in query.filters:
        if col not in data.columns:
            raise RiskcoreError(f"the filter column {col!r} is not in the table")
        text = data[col].astype("string").fillna(MISSING)
        mask &= text.isin(list(values)).to_numpy(dtype=bool)
    if query.column is not None and query.column not in data.columns:
        raise RiskcoreError(f"the column {query.column!r} is not in the table")
    return data.loc[mask]


def _column(query: Query) -> str:
    """Return the query's column (checked present by ``Query`` for every kind but count)."""
    if query.column is None:
        raise ValueError(f"a {query.kind} needs a column")
    return query.column


def _bounds(query: Query) -> tuple[float, float]:
    """Return the query's clipping bounds as floats (checked present for sums and means)."""
    if query.bounds is None:
        raise ValueError(f"a {query.kind} needs clipping bounds")
    return float(query.bounds[0]), float(query.bounds[1])


def _numeric(rows: pd.DataFrame, column: str) -> np.ndarray:
    values: np.ndarray = pd.to_numeric(rows[column], errors="coerce").to_numpy(dtype=float)
    return values


def _histogram(rows: pd.DataFrame, query: Query) -> tuple[tuple[str, ...], np.ndarray]:
    text = rows[_column(query)].astype("string").fillna(MISSING)
    counts = text.value_counts(sort=False)
    if query.categories is None:
        labels = tuple(sorted(str(v) for v in counts.index))
    else:
        labels = tuple(dict.fromkeys(str(c) for c in query.categories))
        extra = counts.index.difference(pd.Index(labels))
        if len(extra):
            labels = (*labels, OTHER) if OTHER not in labels else labels
    if len(labels) > MAX_BARS:
        raise RiskcoreError(
            f"{query.column!r} has {len(labels):,} different values; a DP histogram of more "
            f"than {MAX_BARS} bars is mostly noise. Generalize the column first."
        )
    idx = pd.Index(labels)
    mapped = counts.index.where(counts.index.isin(idx), OTHER)
    totals = pd.Series(counts.to_numpy(), index=mapped).groupby(level=0, sort=False).sum()
    return labels, totals.reindex(idx, fill_value=0).to_numpy(dtype=np.int64)


def true_answer(data: pd.DataFrame, query: Query) -> float | tuple[tuple[str, ...], np.ndarray]:
    """Compute the exact, non-private answer (for comparison on the page only).

    Missing values are left out of a sum or mean; a histogram returns
    (labels, counts).

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    query : Query
        The query, filters included.

    Returns
    -------
    float or tuple of (tuple of str, numpy.ndarray)
    """
    rows = _filtered(data, query)
    if query.kind == "count":
        return float(len(rows))
    if query.kind == "histogram":
        return _histogram(rows, query)
    x = _numeric(rows, _column(query))
    x = np.clip(x[np.isfinite(x)], *_bounds(query))
    if query.kind == "sum":
        return float(x.sum())
    return float(x.mean()) if x.size else float("nan")
