"""Microaggregation of numeric quasi-identifiers: groups of at least k records share their means.

MDAV, the maximum distance to average vector method ([DM02]_), as sdcMicro's
``microaggregation(method = "mdav")`` runs it (``sdcTools/sdcMicro``
``src/Mdav.cpp``, ``R/mdav.R``):

- The distance between two records is the squared Euclidean distance with
  each variable divided by its variance (population variance, n in the
  denominator; a constant variable keeps weight 1): MDAV on standardized
  variables.
- While at least 3k records are left: the centroid of the records left is
  computed; r is the record farthest from it and s the record farthest from
  r; the k records closest to r (r included) form a group and are removed,
  then the k records closest to s among those left form a second group.
- When between 2k and 3k - 1 records are left, one group is formed around the
  record farthest from the centroid, and the rest (k to 2k - 1 records) is the
  last group; fewer than 2k records left form one group.
- Every record's values are replaced by its group's means (of the original,
  unstandardized values).

Ties follow sdcMicro: the farthest record is the first in row order; among
records at equal distance the later row is taken first (its hash sort puts a
new row before equal ones). sdcMicro computes distances in single precision,
this module in double precision, which can only change the order of records
whose distances agree to about seven digits.

With one variable, sdcMicro uses its fast method (``R/mafast.R``) whatever the
method asked: the values are sorted and cut into consecutive groups of k, the
last group taking the remainder; so does :func:`microaggregate` (``method``
then reads ``"single"``).

References
----------
.. [DM02] J. Domingo-Ferrer, J. M. Mateo-Sanz, "Practical data-oriented
   microaggregation for statistical disclosure control", IEEE Transactions on
   Knowledge and Data Engineering 14(1), 189-201, 2002.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd

from riskcore._results import Result
from riskcore._validation import check_one_of, check_positive_int
from riskcore.errors import RiskcoreError

__all__ = ["METHODS", "Microaggregation", "microaggregate"]

#: The methods: MDAV, and sdcMicro's single-variable method.
METHODS: tuple[str, ...] = ("mdav", "single")


@dataclass(frozen=True)
class Microaggregation(Result):
    """The result of :func:`microaggregate`.

    Attributes
    ----------
    columns : tuple of str
        The microaggregated columns.
    k : int
        The least group size.
    method : str
        ``"mdav"`` or ``"single"`` (one column).
    n_groups : int
    smallest_group, largest_group : int
        Group sizes (at least k, below 2k unless the table has fewer than 2k
        records; the last group of ``"single"`` takes the remainder).
    data : pandas.DataFrame
        The table with each group's values replaced by its means (not in JSON).
    groups : numpy.ndarray
        int64 group of every record, numbered in the order the groups were
        formed (not in JSON).
    """

    columns: tuple[str, ...]
    k: int
    method: str
    n_groups: int
    smallest_group: int
    largest_group: int
    data: pd.DataFrame = field(default_factory=pd.DataFrame, metadata={"json": False})
    groups: np.ndarray = field(
        default_factory=lambda: np.zeros(0, dtype=np.int64), metadata={"json": False}
    )


def _values(data: pd.DataFrame, columns: Sequence[str]) -> tuple[tuple[str, ...], np.ndarray]:
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a DataFrame, got {type(data).__name__}")
    cols = tuple(str(c) for c in ([columns] if isinstance(columns, str) else columns))
    if not cols:
        raise RiskcoreError("microaggregation needs at least one column")
    if len(set(cols)) != len(cols):
        raise RiskcoreError("a column is named twice")
    absent = [c for c in cols if c not in data.columns]
    if absent:
        raise RiskcoreError(f"the table has no column {absent[0]!r}")
    out = []
    for c in cols:
        values = pd.to_numeric(data[c], errors="coerce")
        bad = int(values.isna().sum())
        if bad:
            raise RiskcoreError(
                f"microaggregation needs a number in every row of {c!r}; {bad} rows have "
                "none (a missing or non-numeric value)"
            )
        out.append(values.to_numpy(dtype=np.float64))
    return cols, np.column_stack(out)


def mdav_groups(x: np.ndarray, k: int) -> np.ndarray:
    """Return the MDAV group of every row of ``x`` (rows x variables, no missing value).

    The loop runs over groups (about n / k of them), each step vectorized over
    the rows left.

    Parameters
    ----------
    x : numpy.ndarray
        float64, shape (n, m).
    k : int
        The least group size, at most n.

    Returns
    -------
    numpy.ndarray
        int64 group per row, numbered in the order the groups were formed.
    """
    n = len(x)
    var = x.var(axis=0)
    weight = np.where(var > 0, 1.0 / np.where(var > 0, var, 1.0), 1.0)
    groups = np.full(n, -1, dtype=np.int64)
    left = np.arange(n)
    g = 0

    def closest(centre: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        d = ((x[left] - centre) ** 2 * weight).sum(axis=1)
        # ascending distance, the later row first among equal distances
        order = np.lexsort((-left, d))
        return order, d

    while len(left) >= 2 * k:
        centroid = x[left].mean(axis=0)
        d_c = ((x[left] - centroid) ** 2 * weight).sum(axis=1)
        r = left[int(np.argmax(d_c))]
        two = len(left) >= 3 * k
        order, d_r = closest(x[r])
        s = left[int(np.argmax(d_r))]
        groups[left[order[:k]]] = g
        g += 1
        left = left[groups[left] < 0]
        if two:
            order, _ = closest(x[s])
            groups[left[order[:k]]] = g
            g += 1
            left = left[groups[left] < 0]
    if len(left):
        groups[left] = g
    return groups


def single_groups(x: np.ndarray, k: int) -> np.ndarray:
    """Return sdcMicro's single-variable groups (``mafast``): sorted values cut in runs of k.

    Parameters
    ----------
    x : numpy.ndarray
        float64, shape (n,).
    k : int

    Returns
    -------
    numpy.ndarray
        int64 group per row, in increasing order of the values; the last
        group takes the n mod k records left over.
    """
    n = len(x)
    n_groups = max(1, n // k)
    rank = np.empty(n, dtype=np.int64)
    rank[np.argsort(x, kind="stable")] = np.arange(n)
    out: np.ndarray = np.minimum(rank // k, n_groups - 1)
    return out


def microaggregate(
    data: pd.DataFrame,
    columns: Sequence[str],
    k: int,
    *,
    method: Literal["mdav", "single"] = "mdav",
) -> Microaggregation:
    """Replace numeric values by the means of groups of at least k similar records.

    MDAV on standardized variables ([DM02]_, as sdcMicro; see the module
    docstring); with one column, sdcMicro's single-variable method.

    Parameters
    ----------
    data : pandas.DataFrame
        Not modified.
    columns : sequence of str
        Numeric columns, aggregated together (a record's group is the same
        for all of them).
    k : int
        The least group size; at most the number of records.
    method : {"mdav", "single"}
        ``"single"`` needs one column; one column always uses it.

    Returns
    -------
    Microaggregation

    Raises
    ------
    RiskcoreError
        When a column is absent or has a missing or non-numeric value, k
        exceeds the records, or ``"single"`` is asked for several columns.
    """
    cols, x = _values(data, columns)
    k = check_positive_int("k", k)
    method = check_one_of("method", method, METHODS)
    n = len(x)
    if k > n:
        raise RiskcoreError(f"k = {k} is more than the {n} records of the table")
    if method == "single" and len(cols) > 1:
        raise RiskcoreError("the single-variable method aggregates one column; name one")
    used = "single" if len(cols) == 1 else "mdav"
    groups = single_groups(x[:, 0], k) if used == "single" else mdav_groups(x, k)
    sizes = np.bincount(groups)
    sums = np.vstack([np.bincount(groups, weights=x[:, j]) for j in range(x.shape[1])]).T
    means = (sums / sizes[:, None])[groups]
    out = data.copy()
    for j, c in enumerate(cols):
        out[c] = means[:, j]
    return Microaggregation(
        columns=cols,
        k=k,
        method=used,
        n_groups=len(sizes),
        smallest_group=int(sizes.min()),
        largest_group=int(sizes.max()),
        data=out,
        groups=groups,
    )
