"""Seeded random perturbation: invariant PRAM and additive noise, as sdcMicro runs them.

PRAM, the post-randomization method ([GKW98]_), with sdcMicro's invariant
transition matrix (``sdcTools/sdcMicro`` ``R/pram.R``, ``calcTransitionMatrix``):
for a column with L categories of relative frequencies p,

1. a diagonal d_i is drawn uniformly in [pd, 1] for each category, and
   P has d_i on the diagonal and (1 - d_i) / (L - 1) elsewhere in row i;
2. Q is the backward matrix Q_kj = P_jk p_j / sum_l p_l P_lk;
3. R = P Q is invariant, p R = p: the expected frequencies after PRAM are
   those before;
4. R_s = alpha R + (1 - alpha) I (sdcMicro's ``alpha``, default 0.5, keeps a
   value more often), still invariant.

Each record's category i is replaced by a draw from row i of R_s. Missing
values stay missing. The matrix is returned (and stored in a recipe), with
its categories, so the step can be replayed.

Additive noise (sdcMicro ``R/addNoise.r``, method ``"additive"``, its
default; Brand 2002): x_j + N(0, (pct / 100) s_j), s_j the column's standard
deviation (n - 1 in the denominator); missing values stay missing. sdcMicro's
default is 150 percent.

Seeds: a :class:`numpy.random.SeedSequence` of the seed is split into
independent streams (PRAM: one for the diagonal, one for the draws, so a
replay with the stored matrix draws exactly the same values; noise: one per
column, in the order given), so the same seed and input give the same output
byte for byte.

References
----------
.. [GKW98] J. M. Gouweleeuw, P. Kooiman, L. C. R. J. Willenborg, P.-P. de Wolf,
   "Post randomisation for statistical disclosure control: theory and
   implementation", Journal of Official Statistics 14(4), 463-478, 1998.
.. [Bra02] R. Brand, "Microdata protection through noise addition", Inference
   Control in Statistical Databases, LNCS 2316, 97-116, 2002.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from riskcore._results import Result
from riskcore._validation import check_positive, check_unit_interval
from riskcore.errors import RiskcoreError

__all__ = [
    "NOISE_DEFAULT",
    "Noise",
    "Pram",
    "add_noise",
    "invariant_matrix",
    "pram",
]

#: sdcMicro's default noise, in percent of each column's standard deviation.
NOISE_DEFAULT = 150.0


@dataclass(frozen=True)
class Pram(Result):
    """The result of :func:`pram`.

    Attributes
    ----------
    column : str
    diagonal : float
        sdcMicro's ``pd``: the least diagonal probability of the basic matrix P.
    alpha : float
        The weight of the invariant matrix in R_s (the rest is the identity).
    seed : int
    categories : tuple
        The categories, in the order of the matrix's rows and columns.
    matrix : tuple of tuple of float
        R_s: ``matrix[i][j]`` is the chance that category i becomes j.
    changed : int
        Records whose value changed.
    data : pandas.DataFrame
        The table with the column randomized (not in JSON).
    """

    column: str
    diagonal: float
    alpha: float
    seed: int
    categories: tuple[Any, ...]
    matrix: tuple[tuple[float, ...], ...]
    changed: int
    data: pd.DataFrame = field(default_factory=pd.DataFrame, metadata={"json": False})


@dataclass(frozen=True)
class Noise(Result):
    """The result of :func:`add_noise`.

    Attributes
    ----------
    percent : dict of str to float
        Per column, the noise's standard deviation in percent of the column's.
    sd : dict of str to float
        Per column, the noise's standard deviation in the column's units.
    seed : int
    data : pandas.DataFrame
        The table with noise added (not in JSON).
    """

    percent: dict[str, float]
    sd: dict[str, float]
    seed: int
    data: pd.DataFrame = field(default_factory=pd.DataFrame, metadata={"json": False})


def _seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise RiskcoreError(f"the seed must be a whole number, 0 or more, not {seed!r}")
    return int(seed)


def _column(data: pd.DataFrame, column: str) -> pd.Series:
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a DataFrame, got {type(data).__name__}")
    if column not in data.columns:
        raise RiskcoreError(f"the table has no column {column!r}")
    return data[column]


def _categories(values: pd.Series) -> list[Any]:
    """Return the distinct non-missing values, sorted (as R's factor levels), else by text."""
    uniq = list(pd.unique(values.dropna()))
    try:
        return sorted(uniq)
    except TypeError:
        return sorted(uniq, key=str)


def invariant_matrix(
    frequencies: np.ndarray, pd_: float, *, alpha: float = 0.5, rng: np.random.Generator
) -> np.ndarray:
    """Return sdcMicro's invariant PRAM matrix R_s for categories of the given frequencies.

    Parameters
    ----------
    frequencies : numpy.ndarray
        Counts (or shares) of the L categories, all positive.
    pd_ : float
        The least diagonal probability of P, in [0, 1].
    alpha : float, default 0.5
        The weight of R in R_s = alpha R + (1 - alpha) I, in [0, 1].
    rng : numpy.random.Generator
        Draws the L diagonal probabilities.

    Returns
    -------
    numpy.ndarray
        L x L, rows summing to 1, with ``p @ R_s == p`` (p the shares).
    """
    p = np.asarray(frequencies, dtype=np.float64)
    p = p / p.sum()
    n_cat = len(p)
    if n_cat == 1:
        return np.ones((1, 1))
    diag = rng.uniform(pd_, 1.0, size=n_cat)
    big_p = np.repeat(((1.0 - diag) / (n_cat - 1))[:, None], n_cat, axis=1)
    np.fill_diagonal(big_p, diag)
    # Q[k, j] = P[j, k] p_j / sum_l p_l P[l, k]
    q = (big_p * p[:, None]).T / (p @ big_p)[:, None]
    r = big_p @ q
    out: np.ndarray = alpha * r + (1.0 - alpha) * np.eye(n_cat)
    return out


def pram(
    data: pd.DataFrame,
    column: str,
    *,
    diagonal: float = 0.8,
    seed: int,
    alpha: float = 0.5,
    matrix: Sequence[Sequence[float]] | None = None,
    categories: Sequence[Any] | None = None,
) -> Pram:
    """Randomize a categorical column by invariant PRAM ([GKW98]_, as sdcMicro).

    Parameters
    ----------
    data : pandas.DataFrame
        Not modified.
    column : str
        The categorical column randomized.
    diagonal : float, default 0.8
        sdcMicro's ``pd``: each category's diagonal probability in P is drawn
        in [pd, 1].
    seed : int
        Seeds the diagonal and the draws (see the module docstring).
    alpha : float, default 0.5
        sdcMicro's ``alpha``: the weight of R in R_s, in [0, 1].
    matrix, categories : optional
        A stored R_s and its categories (a recipe's), used instead of a new
        matrix; values not among the categories are left as they are.

    Returns
    -------
    Pram

    Raises
    ------
    RiskcoreError
        When the column is absent, ``diagonal`` or ``alpha`` is outside [0, 1], the seed is
        not a whole number, or a stored matrix does not fit its categories.
    """
    values = _column(data, column)
    seed = _seed(seed)
    pd_ = check_unit_interval("the diagonal probability pd", diagonal)
    alpha = check_unit_interval("alpha", alpha)
    matrix_rng, draw_rng = (np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(2))
    if matrix is None:
        cats = _categories(values)
        codes = pd_codes(values, cats)
        counts = np.bincount(codes[codes >= 0], minlength=len(cats))
        rs = (
            invariant_matrix(counts, pd_, alpha=alpha, rng=matrix_rng) if cats else np.zeros((0, 0))
        )
    else:
        cats = list(categories or [])
        rs = np.asarray(matrix, dtype=np.float64)
        if rs.shape != (len(cats), len(cats)) or not np.allclose(rs.sum(axis=1), 1.0):
            raise RiskcoreError(
                f"the stored PRAM matrix of {column!r} must be square over its {len(cats)} "
                "categories, each row summing to 1"
            )
        codes = pd_codes(values, cats)
    known = codes >= 0
    u = draw_rng.uniform(size=int(known.sum()))
    if len(cats):
        cum = np.cumsum(rs, axis=1)
        new = np.minimum((u[:, None] >= cum[codes[known]]).sum(axis=1), len(cats) - 1)
    else:
        new = np.zeros(0, dtype=np.int64)
    out_codes = codes.copy()
    out_codes[known] = new
    cat_arr = np.array(cats, dtype=object)
    result = values.astype(object).copy()
    result.iloc[np.flatnonzero(known)] = cat_arr[new] if len(cats) else []
    out = data.copy()
    out[column] = result.astype(values.dtype) if _keeps_dtype(values) else result
    return Pram(
        column=column,
        diagonal=pd_,
        alpha=alpha,
        seed=seed,
        categories=tuple(cats),
        matrix=tuple(tuple(float(v) for v in row) for row in rs),
        changed=int((out_codes != codes).sum()),
        data=out,
    )


def _keeps_dtype(values: pd.Series) -> bool:
    return not pd.api.types.is_object_dtype(values.dtype)


def pd_codes(values: pd.Series, categories: Sequence[Any]) -> np.ndarray:
    """Return each value's position among ``categories`` (-1: missing or not among them).

    Parameters
    ----------
    values : pandas.Series
        The column's values (compared as Python objects).
    categories : sequence of Any
        The categories, in the matrix's order.

    Returns
    -------
    numpy.ndarray
        int64, one per value.
    """
    index = pd.Index(list(categories), dtype=object)
    codes: np.ndarray = index.get_indexer(values.astype(object)).astype(np.int64)
    return codes


def add_noise(
    data: pd.DataFrame,
    percent: Mapping[str, float],
    *,
    seed: int,
) -> Noise:
    """Add normal noise to numeric columns (sdcMicro's ``addNoise``, method "additive").

    Parameters
    ----------
    data : pandas.DataFrame
        Not modified.
    percent : mapping of str to float
        Per column, the noise's standard deviation in percent of the column's
        (sdcMicro's ``noise``; its default is 150).
    seed : int
        Seeds one independent stream per column, in the order of ``percent``.

    Returns
    -------
    Noise

    Raises
    ------
    RiskcoreError
        When a column is absent or not numeric, a percent is not positive, or
        the seed is not a whole number.
    """
    seed = _seed(seed)
    if not percent:
        raise RiskcoreError("name at least one column to add noise to")
    out = data.copy()
    sds: dict[str, float] = {}
    pcts: dict[str, float] = {}
    streams = np.random.SeedSequence(seed).spawn(len(percent))
    for (col, pct), stream in zip(percent.items(), streams, strict=True):
        values = _column(data, col)
        if not pd.api.types.is_numeric_dtype(values.dtype) or pd.api.types.is_bool_dtype(
            values.dtype
        ):
            raise RiskcoreError(f"noise is added to numbers; {col!r} is not numeric")
        pcts[col] = check_positive(f"the noise of {col!r}", pct)
        x = values.to_numpy(dtype=np.float64, na_value=np.nan)
        sd = float(np.nanstd(x, ddof=1)) if np.isfinite(x).sum() > 1 else 0.0
        sds[col] = pcts[col] / 100.0 * sd
        out[col] = x + np.random.default_rng(stream).normal(0.0, sds[col], size=len(x))
    return Noise(percent=pcts, sd=sds, seed=seed, data=out)
