"""Independent re-implementations written from sdcMicro's source, for the tests only.

Plain Python loops, as in sdcMicro's R and C++ (``sdcTools/sdcMicro`` 5.8.1), so that
the vectorized code of :mod:`riskcore.perturb` is checked against a second reading of
the same source.
"""

from __future__ import annotations

import numpy as np


def fk_any(mat: np.ndarray) -> np.ndarray:
    """f_k of each row of a float matrix, NaN matching any value (freqCalc, alpha = 1).

    Every pair of rows compared at once (rows x rows x columns): a pair matches when
    no column known in both differs.
    """
    a, b = mat[:, None, :], mat[None, :, :]
    clash = ~np.isnan(a) & ~np.isnan(b) & (a != b)
    out: np.ndarray = (~clash.any(axis=2)).sum(axis=1).astype(np.int64)
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
            # cpp_calcSuppInds: per record, the columns known in both that differ
            dists = (~np.isnan(sub) & ~np.isnan(row) & (sub != row)).sum(axis=1)
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


def mdav_like_sdcmicro(x: np.ndarray, k: int) -> np.ndarray:
    """sdcMicro's Mdav.cpp, step by step: returns the aggregated matrix (no missing values).

    Active rows kept as a Python list in row order; distances weighted by 1 / variance
    (population variance); the farthest row is the first maximum; the k closest are
    taken in increasing distance, a later row before an earlier one at equal distance
    (the hash sort of Mdav.cpp inserts a new row before equal ones).
    """
    n, m = x.shape
    weights = []
    for j in range(m):
        col = x[:, j]
        var = float(np.mean(col**2) - np.mean(col) ** 2)
        weights.append(1.0 / var if var else 1.0)

    def dist(a: np.ndarray, b: np.ndarray) -> float:
        return sum(weights[j] * (a[j] - b[j]) ** 2 for j in range(m))

    res = np.full_like(x, np.nan, dtype=float)
    active = list(range(n))

    def take(centre_row: np.ndarray) -> None:
        ranked = sorted(active, key=lambda i: (dist(x[i], centre_row), -i))
        group = ranked[:k]
        res[group] = x[group].mean(axis=0)
        for i in group:
            active.remove(i)

    while len(active) - k >= k:
        ngroups = 1 if len(active) - 2 * k < k else 2
        centre = x[active].mean(axis=0)
        far = active[0]
        for i in active:
            if dist(x[i], centre) > dist(x[far], centre):
                far = i
        for _ in range(ngroups):
            farthest = active[0]
            for i in active:
                if dist(x[i], x[far]) > dist(x[farthest], x[far]):
                    farthest = i
            take(x[far])
            far = farthest
    if active:
        res[active] = x[active].mean(axis=0)
    return res


def mdav_like_sdcmicro_missing(x: np.ndarray, k: int) -> np.ndarray:
    """sdcMicro's Mdav.cpp with NaN for missing values; returns the group of every row.

    Written from Mdav.h: a variable adds (max - min)^2 * weight when one of the two
    values is missing, nothing when both are; centres are means of the known values.
    """
    n, m = x.shape
    weights, gaps = [], []
    for j in range(m):
        col = x[~np.isnan(x[:, j]), j]
        var = float(np.mean(col**2) - np.mean(col) ** 2)
        w = 1.0 / var if var else 1.0
        weights.append(w)
        gaps.append((col.max() - col.min()) ** 2 * w)

    def dist(a: np.ndarray, b: np.ndarray) -> float:
        total = 0.0
        for j in range(m):
            if np.isnan(a[j]) != np.isnan(b[j]):
                total += gaps[j]
            elif not np.isnan(a[j]):
                total += weights[j] * (a[j] - b[j]) ** 2
        return total

    def centre(rows: list[int]) -> np.ndarray:
        out = np.full(m, np.nan)
        for j in range(m):
            known = [x[i, j] for i in rows if not np.isnan(x[i, j])]
            if known:
                out[j] = sum(known) / len(known)
        return out

    groups = np.full(n, -1)
    active = list(range(n))
    g = 0

    def take(centre_row: np.ndarray) -> None:
        nonlocal g
        ranked = sorted(active, key=lambda i: (dist(x[i], centre_row), -i))
        for i in ranked[:k]:
            groups[i] = g
            active.remove(i)
        g += 1

    while len(active) - k >= k:
        ngroups = 1 if len(active) - 2 * k < k else 2
        c = centre(active)
        far = active[0]
        for i in active:
            if dist(x[i], c) > dist(x[far], c):
                far = i
        for _ in range(ngroups):
            farthest = active[0]
            for i in active:
                if dist(x[i], x[far]) > dist(x[farthest], x[far]):
                    farthest = i
            take(x[far])
            far = farthest
    groups[active] = g
    return groups


def _boole_combine(value: float, index: int, level: int, risks: list[float]) -> float:
    """sdcMicro's boole_combine (src/Measure_Hierarchical.h): the signed products above one."""
    total = 0.0
    for i in range(index, len(risks)):
        combination = value * risks[i]
        if i < len(risks) - 1:
            total += _boole_combine(combination, i + 1, level + 1, risks)
        total += (-1.0) ** (level + 1) * combination
    return total


def measure_hierachical(hid: list[object], risk: list[float]) -> tuple[list[float], float, float]:
    """sdcMicro's measure_hierachical: each household's risk by Boole's formula, per record.

    The records sorted by household id (measure_riskWORK's ``order(data[, hid])``, stable),
    each run of one id a household; its risk is ``boole`` of its members' risks, written
    back to every member; ``hier_risk_ER`` is the sum over the records and ``hier_risk``
    its share of them. Returns (per-record risk in input order, hier_risk_ER, hier_risk).
    """
    order = sorted(range(len(hid)), key=lambda i: hid[i])
    out = [0.0] * len(hid)
    er = 0.0
    start = 0
    while start < len(order):
        end = start
        while end < len(order) and hid[order[end]] == hid[order[start]]:
            end += 1
        members = [risk[order[i]] for i in range(start, end)]
        if len(members) == 1:
            group = members[0]
        else:
            group = sum(r + _boole_combine(r, i + 1, 2, members) for i, r in enumerate(members))
        for i in range(start, end):
            out[order[i]] = group
            er += group
        start = end
    return out, er, er / len(hid)
