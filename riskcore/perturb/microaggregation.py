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

Missing values, as sdcMicro's ``mdav()`` (``R/mdav.R``, ``src/Mdav.h``): the
variances are those of the known values; between two records of which one
misses a variable, that variable adds the widest squared gap of the variable
((max - min)^2 / variance), and nothing when both miss it; a centre is the
mean of the known values. Each group's values become the means of its known
values, and a missing value stays missing. One difference: sdcMicro's last
group divides its sums by all its records, known or not (``Mdav.cpp``, the
``NbRowLeft`` branch); here every group divides by its known values, as
sdcMicro's other groups do.
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

__all__ = ["MDAV_MAX_ROWS", "METHODS", "Microaggregation", "microaggregate"]

#: The methods: MDAV, and sdcMicro's single-variable method.
METHODS: tuple[str, ...] = ("mdav", "single")

#: MDAV compares the records left with two centres per two groups formed, so its work grows
#: as n^2 / k: 30,162 records x 3 columns at k = 5 took 9 s here (2 loaded cores), so about
#: 25 s at this limit. Checked before it starts; the single-variable method (a sort) has none.
MDAV_MAX_ROWS = 50_000


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
        bad = int((values.isna() & data[c].notna()).sum())
        if bad:
            raise RiskcoreError(
                f"microaggregation needs numbers in {c!r}; {bad} rows hold something else "
                "(missing values are allowed and stay missing)"
            )
        if values.isna().all():
            raise RiskcoreError(f"{c!r} has no value to aggregate (every row is missing)")
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
    missing = np.isnan(x)
    has_missing = bool(missing.any())
    with np.errstate(invalid="ignore", divide="ignore"):
        var = np.nanvar(x, axis=0) if has_missing else x.var(axis=0)
    weight = np.where(var > 0, 1.0 / np.where(var > 0, var, 1.0), 1.0)
    # Mdav.h: one value missing of the two costs the widest squared gap of the variable
    gap = (np.nanmax(x, axis=0) - np.nanmin(x, axis=0)) ** 2 * weight if has_missing else weight
    groups = np.full(n, -1, dtype=np.int64)
    left = np.arange(n)
    xl = x  # the rows left, kept compact
    g = 0

    def distances(centre: np.ndarray) -> np.ndarray:
        diff = xl - centre
        if not has_missing:
            out: np.ndarray = (diff * diff * weight).sum(axis=1)  # sdcMicro's arithmetic
            return out
        one = np.isnan(xl) ^ np.isnan(centre)
        term = np.where(one, gap, np.nan_to_num(diff * diff * weight))  # both missing: 0
        result: np.ndarray = term.sum(axis=1)
        return result

    def centroid(rows: np.ndarray) -> np.ndarray:
        if not has_missing:
            out: np.ndarray = rows.mean(axis=0)
            return out
        known = ~np.isnan(rows)
        count = known.sum(axis=0)
        total = np.where(known, rows, 0.0).sum(axis=0)
        mean: np.ndarray = np.where(count > 0, total / np.maximum(count, 1), np.nan)
        return mean

    def nearest(d: np.ndarray) -> np.ndarray:
        """Return the positions in ``left`` of the k smallest distances ``d``.

        sdcMicro's order: ascending distance, the later row first among equal
        distances. ``left`` stays in row order, so of the rows at the k-th smallest
        distance the last positions are taken; no sort.
        """
        if len(d) <= k:
            return np.arange(len(d))
        kth = np.partition(d, k - 1)[k - 1]
        less = np.flatnonzero(d < kth)
        ties = np.flatnonzero(d == kth)
        return np.concatenate([less, ties[len(ties) - (k - len(less)) :]])

    def take(pos: np.ndarray) -> None:
        nonlocal g, left, xl
        groups[left[pos]] = g
        g += 1
        keep = np.ones(len(left), dtype=bool)
        keep[pos] = False
        left, xl = left[keep], xl[keep]

    while len(left) >= 2 * k:
        r_pos = int(np.argmax(distances(centroid(xl))))
        two = len(left) >= 3 * k
        d_r = distances(xl[r_pos])
        s_row = left[int(np.argmax(d_r))]
        take(nearest(d_r))
        if two:
            take(nearest(distances(x[s_row])))
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
        The group size (the last group takes the remainder).

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
        ``"single"`` needs one column; one column always uses it, unless it has
        a missing value (MDAV then).

    Returns
    -------
    Microaggregation

    Raises
    ------
    RiskcoreError
        When a column is absent, has a non-numeric value or no value at all,
        ``"single"`` meets a missing value, k
        exceeds the records, ``"single"`` is asked for several columns, or MDAV
        is asked for more than :data:`MDAV_MAX_ROWS` records.
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
    if used == "mdav" and n > MDAV_MAX_ROWS:
        raise RiskcoreError(
            f"MDAV on {n:,} records is past its limit of {MDAV_MAX_ROWS:,} (its work grows with "
            "the square of the records): aggregate one column at a time (sdcMicro's "
            "single-variable method, any size), or a sample or each stratum apart"
        )
    missing = np.isnan(x)
    if missing.any():
        if method == "single":
            raise RiskcoreError(
                "the single-variable method needs a value in every row; MDAV (the default) "
                "handles missing values"
            )
        used = "mdav"
    groups = single_groups(x[:, 0], k) if used == "single" else mdav_groups(x, k)
    sizes = np.bincount(groups)
    # each group's mean over its known values; a missing value stays missing (sdcMicro's
    # mdav(): dat[TF] <- NA)
    known = ~missing
    filled = np.where(known, x, 0.0)
    sums = np.vstack([np.bincount(groups, weights=filled[:, j]) for j in range(x.shape[1])]).T
    counts = np.vstack([np.bincount(groups, weights=known[:, j]) for j in range(x.shape[1])]).T
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)[groups]
    means[missing] = np.nan
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
