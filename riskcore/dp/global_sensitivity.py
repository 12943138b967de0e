"""Global sensitivity of the queries the DP pages answer, and data-derived bounds.

References
----------
.. [DR14] C. Dwork, A. Roth. The Algorithmic Foundations of Differential
   Privacy. Foundations and Trends in TCS 9(3-4), 2014.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from riskcore._results import Result
from riskcore._validation import check_bounds, check_one_of, check_positive_int
from riskcore.errors import PrivacyLeakWarning, RiskcoreError

__all__ = [
    "NEIGHBOURING_LABELS",
    "Neighbouring",
    "QueryKind",
    "Sensitivity",
    "data_bounds",
    "sensitivity",
]

Neighbouring = Literal["add_remove", "change_one"]
QueryKind = Literal["count", "sum", "mean", "histogram"]

NEIGHBOURING_LABELS: dict[str, str] = {
    "add_remove": "add or remove one person's row",
    "change_one": "change one person's row",
}


@dataclass(frozen=True)
class Sensitivity(Result):
    """Global sensitivity of a query under a neighbouring definition.

    Attributes
    ----------
    kind : {"count", "sum", "mean", "histogram"}
        The query.
    neighbouring : {"add_remove", "change_one"}
        Neighbouring datasets differ by adding/removing one row, or by
        changing one row's values (the row count then stays public).
    l1, l2 : float
        Sensitivities in the L1 norm (Laplace) and the L2 norm (Gaussian).
    reason : str
        One sentence: why this value.
    max_rows : int
        The most rows one person contributes, c: 1 for a row's sensitivity, c when it
        is scaled to the person as the unit
        (:func:`riskcore.dp.contributions.bounded_sensitivity`).
    """

    kind: str
    neighbouring: str
    l1: float
    l2: float
    reason: str
    max_rows: int = 1


def sensitivity(
    kind: QueryKind,
    *,
    neighbouring: Neighbouring = "add_remove",
    bounds: tuple[float, float] | None = None,
    n: int | None = None,
) -> Sensitivity:
    """Compute the global sensitivity of a query [DR14]_ (Sections 3.3 and 3.4).

    ========== ======================== ======================
    query      add / remove one row     change one row
    ========== ======================== ======================
    count      1                        1
    histogram  L1 = L2 = 1              L1 = 2, L2 = sqrt(2)
    sum [L,U]  max(|L|, |U|)            U - L
    mean [L,U] (U - L) / n              (U - L) / n
    ========== ======================== ======================

    A count (optionally under a row filter) changes by at most one either
    way. Changing a row can move it from one histogram bar to another (two
    bars change by one). The mean needs a public row count n: under
    change-one n is public by definition; under add/remove OpenDP resizes
    the data to the public n first (``make_resize``), which again changes
    at most one value, so both give (U - L) / n.

    Parameters
    ----------
    kind : {"count", "sum", "mean", "histogram"}
        The query.
    neighbouring : {"add_remove", "change_one"}, keyword-only
        Neighbouring definition (the unit of privacy is one row).
    bounds : tuple of float, optional
        Clipping bounds (L, U) with L < U, required for sum and mean.
    n : int, optional
        Public row count, required for the mean.

    Returns
    -------
    Sensitivity
    """
    check_one_of("neighbouring", neighbouring, NEIGHBOURING_LABELS)
    check_one_of("kind", kind, ("count", "sum", "mean", "histogram"))
    if kind in ("sum", "mean"):
        if bounds is None:
            raise ValueError(f"a {kind} needs clipping bounds (L, U)")
        lo, hi = check_bounds("clipping bounds", bounds)
    if kind == "count":
        return Sensitivity(kind, neighbouring, 1.0, 1.0, "one row changes a count by at most 1")
    if kind == "histogram":
        if neighbouring == "add_remove":
            return Sensitivity(
                kind, neighbouring, 1.0, 1.0, "one row added or removed changes one bar by 1"
            )
        return Sensitivity(
            kind,
            neighbouring,
            2.0,
            math.sqrt(2.0),
            "a changed row leaves one bar and joins another: two bars change by 1",
        )
    if kind == "sum":
        if neighbouring == "add_remove":
            s = max(abs(lo), abs(hi))
            why = f"one clipped row adds or removes at most max(|L|, |U|) = {s:g}"
        else:
            s = hi - lo
            why = f"one clipped row changes by at most U - L = {s:g}"
        return Sensitivity(kind, neighbouring, s, s, why)
    if kind == "mean":
        if n is None or n < 1:
            raise ValueError(f"a mean needs the public row count n >= 1, got {n!r}")
        n = check_positive_int("n", n)
        s = (hi - lo) / n
        return Sensitivity(
            kind, neighbouring, s, s, f"one of n = {n:,} clipped values moves by at most U - L"
        )
    raise ValueError(f"unknown query kind {kind!r}")


def data_bounds(values: Sequence[float] | np.ndarray) -> tuple[float, float]:
    """Return the data's (min, max) as clipping bounds, warning that this leaks.

    Bounds must be public: the minimum and maximum of the data are
    themselves a function of single records (the largest salary is the
    CEO's), so noise calibrated to them is not differentially private.
    Mirrors diffprivlib's ``PrivacyLeakWarning``.

    Parameters
    ----------
    values : sequence of float or numpy.ndarray
        The column's values.

    Returns
    -------
    tuple of (float, float)
        The smallest and largest finite numbers (text that is not a number ignored).

    Raises
    ------
    RiskcoreError
        When no value is a finite number.

    Warns
    -----
    PrivacyLeakWarning
        Always.
    """
    arr = pd.to_numeric(pd.Series(values), errors="coerce").to_numpy(dtype=float)
    arr = arr[np.isfinite(arr)]
    if arr.size == 0:
        raise RiskcoreError("the column has no numeric values to take bounds from")
    warnings.warn(
        "Clipping bounds were taken from the data (its minimum and maximum). "
        "They reveal the most extreme records, so the result is not "
        "differentially private. Enter bounds known in advance instead.",
        PrivacyLeakWarning,
        stacklevel=2,
    )
    lo, hi = float(arr.min()), float(arr.max())
    if lo == hi:
        hi = lo + 1.0
    return lo, hi
