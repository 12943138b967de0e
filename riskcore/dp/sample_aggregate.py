"""Sample and aggregate: a DP estimate of any statistic from disjoint blocks.

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

from riskcore._results import Result
from riskcore._validation import check_bounds, check_epsilon, check_one_of, check_positive_int
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

    @property
    def sensitivity(self) -> float:
        """Return (hi - lo) / k: one person changes one block's clamped value."""
        return (self.bounds[1] - self.bounds[0]) / self.k

    def to_dict(self) -> dict[str, Any]:
        """Return the result as JSON-ready values, with the derived ``sensitivity``.

        Returns
        -------
        dict of str to Any
            The result as JSON-ready values, with the derived ``sensitivity``.
        """
        return {**super().to_dict(), "sensitivity": self.sensitivity}


def _block_slopes(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least-squares slope of y on x per row of 2-D arrays (NaN when x is constant)."""
    xc = x - x.mean(axis=1, keepdims=True)
    yc = y - y.mean(axis=1, keepdims=True)
    sxx = (xc * xc).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(sxx > 0, (xc * yc).sum(axis=1) / sxx, np.nan)


def sample_and_aggregate(
    values: Sequence[float] | np.ndarray,
    *,
    k: int,
    bounds: tuple[float, float],
    epsilon: float,
    statistic: Statistic = "median",
    x: Sequence[float] | np.ndarray | None = None,
    seed: int = 0,
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
    seed : int, optional
        Seed of the random generator (the same seed gives the same result).

    Returns
    -------
    SampleAggregate
    """
    check_epsilon(epsilon)
    check_one_of("statistic", statistic, ("median", "slope"))
    k = check_positive_int("k", k)
    lo, hi = check_bounds("bounds", bounds)
    y = np.asarray(values, dtype=float)
    if statistic == "slope":
        if x is None:
            raise ValueError("the slope needs x")
        xv = np.asarray(x, dtype=float)
        keep = np.isfinite(y) & np.isfinite(xv)
        y, xv = y[keep], xv[keep]
        full = float(_block_slopes(xv[None, :], y[None, :])[0])
    else:
        y = y[np.isfinite(y)]
        xv = None
        full = float(np.median(y)) if y.size else float("nan")
    n = y.size
    min_block = 3 if statistic == "slope" else 1
    if k < 2 or n < k * min_block:
        raise RiskcoreError(
            f"sample and aggregate needs at least {min_block} records per block: "
            f"{n:,} records cannot fill k = {k} blocks"
        )
    b = n // k
    order = np.random.default_rng(seed).permutation(n)[: k * b]
    yb = y[order].reshape(k, b)
    if statistic == "median":
        blocks = np.median(yb, axis=1)
    else:
        if xv is None:  # the slope branch above set it
            raise AssertionError("the slope statistic without x")
        blocks = _block_slopes(xv[order].reshape(k, b), yb)
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
    )
