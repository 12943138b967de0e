"""Independent re-implementations written from sdcMicro's source, for the tests only.

Plain Python loops, as in sdcMicro's R and C++ (``sdcTools/sdcMicro`` 5.8.1), so that
the vectorized code of :mod:`riskcore.perturb` is checked against a second reading of
the same source.
"""

from __future__ import annotations

import numpy as np


def fk_any(mat: np.ndarray) -> np.ndarray:
    """f_k of each row of a float matrix, NaN matching any value (freqCalc, alpha = 1)."""
    n = len(mat)
    out = np.zeros(n, dtype=np.int64)
    for i in range(n):
        for j in range(n):
            a, b = mat[i], mat[j]
            both = ~np.isnan(a) & ~np.isnan(b)
            if np.all(a[both] == b[both]):
                out[i] += 1
    return out


def suppress_like_sdcmicro(mat: np.ndarray, k: int, importance: list[int]) -> np.ndarray:
    """sdcMicro's suppSubset (R/localSuppression.R) on a table without missing values.

    Step 3 (classes with more than k records keep their first k), then rounds in
    which the problem records (f_k < k, the first-kept order, decreasing risk 1/f_k,
    ties in row order) are treated one after another by cpp_calcSuppInds' rule.
    Returns the table with NaN in the suppressed cells.
    """
    mat = mat.astype(float).copy()
    n, m = mat.shape
    _, inv, counts = np.unique(mat, axis=0, return_inverse=True, return_counts=True)
    inv = inv.reshape(-1)
    seen: dict[int, int] = {}
    keep = []
    for i in range(n):
        seen[inv[i]] = seen.get(inv[i], 0) + 1
        if counts[inv[i]] <= k or seen[inv[i]] <= k:
            keep.append(i)
    keep_idx = np.array(keep)
    sub = mat[keep_idx].copy()
    imp_i = [len(importance) + 1 - v for v in importance]
    cols = sorted(range(m), key=lambda c: imp_i[c])  # stable: ties in column order
    fk = fk_any(sub)
    while (fk < k).any():
        problems = [i for i in range(len(sub)) if fk[i] < k]
        problems.sort(key=lambda i: -1.0 / fk[i])  # decreasing rk = 1/fk, stable
        for p in problems:
            row = sub[p]
            dists = np.array(
                [
                    sum(
                        1
                        for c in range(m)
                        if not np.isnan(sub[j, c]) and not np.isnan(row[c]) and sub[j, c] != row[c]
                    )
                    for j in range(len(sub))
                ]
            )
            positive = dists[dists > 0]
            min_d = positive.min() if len(positive) else m
            ids = np.flatnonzero(dists == min_d)
            for c in cols:
                if not np.isnan(row[c]) and any(
                    row[c] != sub[j, c] and not np.isnan(sub[j, c]) for j in ids
                ):
                    sub[p, c] = np.nan
                    break
        fk = fk_any(sub)
    mat[keep_idx] = sub
    return mat
