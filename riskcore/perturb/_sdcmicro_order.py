"""sdcMicro's own order of local suppression: problem records treated one after another.

``suppSubset`` of sdcMicro's ``R/localSuppression.R`` (5.8.1) with ``cpp_calcSuppInds``:
the records of a class of more than k identical records beyond its first k are left out
(step 3); then, round after round, every record below k (f_k under "a missing value matches
any value"), in decreasing risk 1/f_k (ties in row order), has one cell blanked: among the
records at the smallest positive distance to it (the columns known in both that differ), the
first column in the order of importance where the record's known value differs from a known
value of one of them. Each record sees the cells blanked before it in the round, which the
batched rounds of :func:`riskcore.perturb.suppression.local_suppression` do not; so on some
tables this order blanks fewer cells, and :func:`local_suppression` keeps whichever result
blanks fewer (never more cells than sdcMicro).

Its rounds loop over the problem records (each step a vectorized comparison with the table),
as sdcMicro's C++ does: the work is bounded by :data:`MAX_WORK` comparisons of a cell,
checked before every round; past it the order is abandoned (None).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["MAX_WORK", "sdcmicro_order"]

#: Cells compared at most (problem records x records x QIs, summed over the rounds).
MAX_WORK = 200_000_000


def _kept_rows(codes: np.ndarray, k: int) -> np.ndarray:
    """Return which records take part: all but those beyond the first k of a class of more
    than k identical records (sdcMicro's step 3), in row order."""
    n = len(codes)
    _, inv, counts = np.unique(codes, axis=0, return_inverse=True, return_counts=True)
    inv = inv.reshape(-1)
    by_class = np.argsort(inv, kind="stable")
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    rank = np.empty(n, dtype=np.int64)
    rank[by_class] = np.arange(n) - starts[inv[by_class]]
    keep: np.ndarray = (counts[inv] <= k) | (rank < k)
    return keep


def sdcmicro_order(
    codes: np.ndarray,
    k: int,
    order: np.ndarray,
    fk: Callable[[np.ndarray], np.ndarray],
    *,
    progress: Callable[[int, int], None] | None = None,
    max_work: int = MAX_WORK,
) -> np.ndarray | None:
    """Return the codes after sdcMicro's order of suppression, or None past ``max_work``.

    Parameters
    ----------
    codes : numpy.ndarray
        int64, shape (records, QIs): each value's code, -1 for a missing value (not modified).
    k : int
        The k every record must reach.
    order : numpy.ndarray
        The QIs' positions in the order they are tried (the highest importance number first).
    fk : callable
        f_k of every record under "a missing value matches any value", from codes.
    progress : callable, optional
        Called as ``progress(round, records below k)`` before each round.
    max_work : int, default :data:`MAX_WORK`
        Cells compared at most; checked before every round.

    Returns
    -------
    numpy.ndarray or None
        The codes with the blanked cells at -1; None when the work would pass ``max_work``.
    """
    m = codes.shape[1]
    keep = _kept_rows(codes, k)
    sub = codes[keep].copy()
    counts = fk(sub)
    work = 0
    rounds = 0
    while (counts < k).any():
        problems = np.flatnonzero(counts < k)
        work += len(problems) * len(sub) * m
        if work > max_work or rounds > sub.size:
            return None
        rounds += 1
        if progress is not None:
            progress(rounds, len(problems))
        problems = problems[np.argsort(counts[problems], kind="stable")]  # 1/f_k falling
        for p in problems:
            row = sub[p]
            dists = ((sub >= 0) & (row >= 0) & (sub != row)).sum(axis=1)
            positive = dists[dists > 0]
            near = sub[dists == (positive.min() if len(positive) else m)]
            differs = (near != row) & (near >= 0) & (row >= 0)
            for c in order:
                if differs[:, c].any():
                    sub[p, c] = -1
                    break
        counts = fk(sub)
    out = codes.copy()
    out[keep] = sub
    return out
