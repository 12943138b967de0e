"""Sample and aggregate: a DP estimate of any statistic from disjoint blocks.

With a person column the blocks are blocks of *people*: all of a person's rows go to
the block of that person, so one person still changes one block, whatever their number
of rows, and no bound on rows per person is needed.

References
----------
.. [NRS07] K. Nissim, S. Raskhodnikova, A. Smith. Smooth Sensitivity and
   Sampling in Private Data Analysis. STOC 2007.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from riskcore._results import Result
from riskcore._validation import check_bounds, check_epsilon, check_one_of, check_positive_int
from riskcore.dp.contributions import ONE_ROW, PrivacyUnit
from riskcore.dp.mechanisms import laplace_half_width
from riskcore.errors import RiskcoreError

__all__ = ["SampleAggregate", "Statistic", "sample_and_aggregate"]

Statistic = Literal["median", "slope"]


@dataclass(frozen=True)
class SampleAggregate(Result):
    """The blocks of a sample-and-aggregate release [NRS07]_.

    Attributes
    ----------
    statistic : str
        The statistic computed on each subsample.
    k : int
        Number of disjoint blocks.
    block_size : int
        Records per block; with a person column, people per block.
    bounds : tuple of float
        Clamp [lo, hi] applied to each block's statistic.
    block_values : ndarray
        Each block's statistic before clamping.
    aggregate : float
        Mean of the clamped block statistics (before noise).
    full_data_value : float
        The statistic on all records (what a non-private analysis reports).
    epsilon : float
        The privacy-loss parameter epsilon (> 0).
    scale : float
        Laplace scale (hi - lo) / (k epsilon).
    half_width : float
        95% half-width of the noise.
    unit : PrivacyUnit
        One row, or one person (``max_rows`` None: all of a person's rows are in one
        block).
    """

    statistic: str
    k: int
    block_size: int
    bounds: tuple[float, float]
    block_values: np.ndarray
    aggregate: float
    full_data_value: float
    epsilon: float
    scale: float
    half_width: float
    unit: PrivacyUnit = ONE_ROW

    @property
    def sensitivity(self) -> float:
        """Return (hi - lo) / k: one person changes one block's clamped value."""
        return (self.bounds[1] - self.bounds[0]) / self.k

    def to_dict(self) -> dict[str, Any]:
        """Return the result as JSON-ready values, with the derived ``sensitivity``.

        Returns
        -------
        dict of str to Any
            The fields and ``sensitivity`` ((hi - lo) / k).
        """
        return {**super().to_dict(), "sensitivity": self.sensitivity}


def _block_medians(y: np.ndarray, block: np.ndarray, k: int) -> np.ndarray:
    """Return the median of ``y`` in each block 0 .. k-1 (every block non-empty).

    One ``numpy.lexsort`` by (block, value); a block of s values sorted from ``start``
    has its median at the mean of positions start + (s - 1) // 2 and start + s // 2.
    """
    order = np.lexsort((y, block))
    ys = y[order]
    counts = np.bincount(block, minlength=k)
    starts = np.cumsum(counts) - counts
    result: np.ndarray = (ys[starts + (counts - 1) // 2] + ys[starts + counts // 2]) / 2.0
    return result


def _block_slopes(x: np.ndarray, y: np.ndarray, block: np.ndarray, k: int) -> np.ndarray:
    """Return the least-squares slope of y on x in each block 0 .. k-1 (NaN when x is constant).

    Two passes of ``numpy.bincount``: the block means, then the centred sums
    S_xy / S_xx.
    """
    counts = np.bincount(block, minlength=k).astype(float)
    mx = np.bincount(block, weights=x, minlength=k) / counts
    my = np.bincount(block, weights=y, minlength=k) / counts
    xc, yc = x - mx[block], y - my[block]
    sxx = np.bincount(block, weights=xc * xc, minlength=k)
    sxy = np.bincount(block, weights=xc * yc, minlength=k)
    with np.errstate(invalid="ignore", divide="ignore"):
        slopes: np.ndarray = np.where(sxx > 0, sxy / sxx, np.nan)
    return slopes


def sample_and_aggregate(
    values: Sequence[float] | np.ndarray,
    *,
    k: int,
    bounds: tuple[float, float],
    epsilon: float,
    statistic: Statistic = "median",
    x: Sequence[float] | np.ndarray | None = None,
    seed: int = 0,
    persons: pd.Series | None = None,
) -> SampleAggregate:
    """Split the records into k disjoint blocks and average the clamped block statistic.

    [NRS07]_: the statistic f (median, or the regression slope of
    ``values`` on ``x``) is computed on each of k disjoint random blocks,
    clamped to [lo, hi] and averaged. One person is in one block, so the
    average moves by at most (hi - lo) / k, and Laplace noise of scale
    (hi - lo) / (k epsilon) makes it epsilon-DP, whatever the statistic's own
    sensitivity. The noisy release itself is drawn by OpenDP in
    :func:`riskcore.dp.release.release_sample_aggregate`. The random split is
    seeded (it is not noise). Records with a missing value are dropped.

    With ``persons`` the split is of people: a seeded permutation of the people
    is cut into k blocks of floor(P / k) people (the rest left out), and every
    row of a person joins that person's block, so adding or removing one
    person, with any number of rows, changes one block and the sensitivity
    stays (hi - lo) / k. Rows without a person are dropped. The block
    statistics are computed for all blocks at once (a sort for the medians,
    ``numpy.bincount`` sums for the slopes).

    Parameters
    ----------
    values : sequence of float or numpy.ndarray
        The column's values.
    k : int
        The number of disjoint subsamples.
    bounds : tuple of (float, float)
        The (lower, upper) bounds the statistic is clipped to.
    epsilon : float
        The privacy-loss parameter ε (> 0).
    statistic : Statistic, optional
        The statistic computed on each subsample.
    x : sequence of float or numpy.ndarray, optional
        The regressor of ``statistic="slope"`` (needed for it), one per value.
    seed : int, optional
        Seed of the random generator (the same seed gives the same result).
    persons : pandas.Series, optional
        The person of each value (its name is the person column); None when each
        record is a different person.

    Returns
    -------
    SampleAggregate
    """
    check_epsilon(epsilon)
    check_one_of("statistic", statistic, ("median", "slope"))
    k = check_positive_int("k", k)
    lo, hi = check_bounds("bounds", bounds)
    y = np.asarray(values, dtype=float)
    xv = y if x is None else np.asarray(x, dtype=float)
    if statistic == "slope" and x is None:
        raise ValueError("the slope needs x")
    if persons is None:
        codes = np.arange(y.size)
        unit = ONE_ROW
    else:
        if len(persons) != y.size:
            raise ValueError(f"persons has {len(persons):,} values for {y.size:,} records")
        codes = np.asarray(pd.factorize(persons, use_na_sentinel=True)[0], dtype=np.int64)
        unit = PrivacyUnit(str(persons.name), None)
    keep = np.isfinite(y) & np.isfinite(xv) & (codes >= 0)
    y, xv = y[keep], xv[keep]
    codes = np.unique(codes[keep], return_inverse=True)[1].reshape(-1)  # people 0 .. P-1
    people = int(codes.max()) + 1 if codes.size else 0
    if statistic == "slope":
        full = float(_block_slopes(xv, y, np.zeros(y.size, np.int64), 1)[0])
    else:
        full = float(np.median(y)) if y.size else float("nan")
    min_block = 3 if statistic == "slope" else 1
    who = "records" if persons is None else "people"
    if k < 2 or people < k * min_block:
        raise RiskcoreError(
            f"sample and aggregate needs at least {min_block} {who} per block: "
            f"{people:,} {who} cannot fill k = {k} blocks"
        )
    b = people // k
    order = np.random.default_rng(seed).permutation(people)[: k * b]
    person_block = np.full(people, -1, dtype=np.int64)
    person_block[order] = np.arange(k * b) // b
    block = person_block[codes]
    inside = block >= 0
    if statistic == "median":
        blocks = _block_medians(y[inside], block[inside], k)
    else:
        blocks = _block_slopes(xv[inside], y[inside], block[inside], k)
    clamped = np.clip(np.nan_to_num(blocks, nan=(lo + hi) / 2.0), lo, hi)
    scale = (hi - lo) / (k * epsilon)
    return SampleAggregate(
        statistic,
        int(k),
        int(b),
        (lo, hi),
        blocks,
        float(clamped.mean()),
        full,
        float(epsilon),
        scale,
        laplace_half_width(scale),
        unit,
    )
