"""The vectorized kernels of local suppression: match counts, sdcMicro's cell choice, restoring.

Everything works on a table of integer codes, one row per record and one column
per quasi-identifier, ``-1`` for a missing value, and on its distinct rows (the
classes of the ``"own"`` partition, counted). Compatibility is that of the
``"any"`` missing-value policy: two rows are compatible when they agree on every
QI known in both (:func:`riskcore.metrics.missing.compatible_sums`, which
joins class tables pattern by missing-value pattern; no loop over records).

- :func:`fk` gives each record's f_k.
- :func:`choose` gives, for records below k, sdcMicro's nearest-record
  distance and the QI ``cpp_calcSuppInds`` + ``suppSubset`` would suppress,
  by counting instead of comparing pairs (see its docstring).
- :func:`restore` puts suppressed values back while every record keeps
  f_k >= k (the post-pass that makes ours blank fewer cells than sdcMicro).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from math import comb

import numpy as np

from riskcore.engine.partition import pack_keys
from riskcore.metrics.missing import compatible_sums

#: Largest (targets x rows x QIs) block compared pairwise at once.
BLOCK = 4_000_000

#: Below this many (targets x distinct rows x QIs) comparisons, pairs are compared directly.
PAIRWISE = 20_000_000

#: Below this many, :func:`choose` compares pairs (its counting pays off on larger blocks).
CHOOSE_PAIRWISE = 20_000_000

#: Restoring stops after a round that puts back fewer than 1 / STOP_SHARE of the blank cells
#: it started from (at least one cell): the late rounds of a large table put back a few
#: cells each for as long as the first ones.
STOP_SHARE = 20

#: Most (candidates x candidates x QIs) comparisons a restoring round spends on the
#: candidates it put off (the first ones in priority order; the rest wait).
LATE_PAIRS = 200_000_000

#: Subset levels counted by projection while they need at most this many subsets.
MAX_SUBSETS = 64


def distinct(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the distinct rows of ``codes``, each row's position among them, and their counts.

    Parameters
    ----------
    codes : numpy.ndarray
        int64, shape (records, QIs), ``-1`` for a missing value.

    Returns
    -------
    keys : numpy.ndarray
        The distinct rows (in an arbitrary but deterministic order).
    inverse : numpy.ndarray
        Per record, its row in ``keys``.
    sizes : numpy.ndarray
        Per distinct row, its number of records.
    """
    m = codes.shape[1]
    shifted = codes + 1
    key, _ = pack_keys(
        [shifted[:, i] for i in range(m)],
        [int(shifted[:, i].max(initial=0)) + 1 for i in range(m)],
    )
    _, first, inverse, sizes = np.unique(
        key, return_index=True, return_inverse=True, return_counts=True
    )
    return codes[first], inverse.reshape(-1).astype(np.int64), sizes.astype(np.int64)


def compatible(
    targets: np.ndarray, sources: np.ndarray, weights: np.ndarray, values: np.ndarray | None = None
) -> np.ndarray:
    """Sum, per target row, the weights of the source rows compatible with it.

    Parameters
    ----------
    targets, sources : numpy.ndarray
        int64 code rows, ``-1`` for a missing value (matching any value).
    weights : numpy.ndarray
        One weight per source row.
    values : numpy.ndarray, optional
        A 0 / 1 label per source row: the sums are then kept apart per label.

    Returns
    -------
    numpy.ndarray
        float64, shape (targets,) without ``values``, (targets, 2) with them.
    """
    m = targets.shape[1]
    t_known, s_known = targets >= 0, sources >= 0
    if len(targets) * len(sources) * m <= PAIRWISE:  # small: compare the pairs, in blocks
        w = np.asarray(weights, dtype=np.float64)
        labels = np.zeros(len(sources), dtype=np.int64) if values is None else np.asarray(values)
        w2 = np.column_stack([w * (labels == 0), w * (labels == 1)])
        dense = np.zeros((len(targets), 2))
        step = max(1, BLOCK // max(1, len(sources) * m))
        for start in range(0, len(targets), step):
            t = targets[start : start + step]
            clash = (t[:, None, :] != sources[None, :, :]) & (
                t_known[start : start + step, None, :] & s_known[None, :, :]
            )
            dense[start : start + step] = (~clash.any(axis=2)).astype(np.float64) @ w2
        return dense[:, 0] if values is None else dense
    t_codes = [np.where(t_known[:, i], targets[:, i], 0) for i in range(m)]
    s_codes = [np.where(s_known[:, i], sources[:, i], 0) for i in range(m)]
    n_val = 1 if values is None else 2
    t, v, s = compatible_sums(
        t_codes,
        t_known,
        s_codes,
        s_known,
        np.asarray(weights, dtype=np.float64),
        source_value=None if values is None else np.asarray(values, dtype=np.int64),
        n_values=n_val,
    )
    out = np.zeros((len(targets), n_val))
    out[t, v] = s
    return out[:, 0] if values is None else out


def fk(codes: np.ndarray) -> np.ndarray:
    """Return each record's f_k: the records compatible with it, itself included.

    Parameters
    ----------
    codes : numpy.ndarray
        int64, shape (records, QIs), ``-1`` for a missing value.

    Returns
    -------
    numpy.ndarray
        int64 per record.
    """
    keys, inverse, sizes = distinct(codes)
    m = keys.shape[1]
    if len(keys) ** 2 * m <= PAIRWISE:
        small: np.ndarray = np.rint(compatible(keys, keys, sizes)).astype(np.int64)[inverse]
        return small
    known = keys >= 0
    cols = [np.where(known[:, i], keys[:, i], 0) for i in range(m)]
    # every row is its own class: rows of one pattern meet their own row only (no join)
    t, _, s = compatible_sums(cols, known, cols, known, sizes, source_target=np.arange(len(keys)))
    per_key = np.zeros(len(keys))
    per_key[t] = s
    out: np.ndarray = np.rint(per_key).astype(np.int64)[inverse]
    return out


def _choose_pairwise(
    problem: np.ndarray, keys: np.ndarray, order: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Return the chosen QI and nearest distance per problem row, comparing every pair."""
    m = keys.shape[1]
    known_k = keys >= 0
    step = max(1, BLOCK // max(1, len(keys) * m))
    col = np.empty(len(problem), dtype=np.int64)
    dist = np.empty(len(problem), dtype=np.int64)
    for start in range(0, len(problem), step):
        p = problem[start : start + step]
        diff = (p[:, None, :] != keys[None, :, :]) & (p >= 0)[:, None, :] & known_k[None, :, :]
        d = diff.sum(axis=2)
        nearest = np.where(d > 0, d, m + 1).min(axis=1)
        near = d == nearest[:, None]
        differs = (diff & near[:, :, None]).any(axis=1)[:, order]
        col[start : start + step] = order[np.argmax(differs, axis=1)]
        dist[start : start + step] = nearest
    return col, dist


def choose(
    problem: np.ndarray, keys: np.ndarray, sizes: np.ndarray, order: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Return, per problem row, the QI sdcMicro suppresses and the distance to its nearest rows.

    sdcMicro's rule (``src/calcSuppInds.cpp`` and ``suppSubset``): the distance
    between two records is the number of QIs known in both on which they
    differ; the nearest records are those at the smallest non-zero distance d;
    the QI suppressed is the first, in ``order``, on which the problem record
    differs from a nearest record that knows it.

    Counted, not compared pair by pair: for a set T of QIs let A_T(p) be the
    number of records compatible with p when the QIs of T are ignored (one
    :func:`compatible` call with T blanked in the targets). By inclusion and
    exclusion E_T(p) = sum over U in T of (-1)^(|T|-|U|) A_U(p) is the number
    of records whose differing known QIs are exactly T; d is the smallest |T|
    with E_T(p) > 0 and the QI chosen is the first, in ``order``, of the sets T
    of size d with E_T(p) > 0. Levels are counted while they have at most
    :data:`MAX_SUBSETS` sets; the rows still open then (rare) and small blocks
    are compared pair by pair.

    Parameters
    ----------
    problem : numpy.ndarray
        Distinct code rows of the records below k.
    keys, sizes : numpy.ndarray
        The distinct rows of the whole table and their counts.
    order : numpy.ndarray
        The QI positions in the order they are tried.

    Returns
    -------
    col, dist : numpy.ndarray
        int64 per problem row.
    """
    u, m = problem.shape
    if u * len(keys) * m <= CHOOSE_PAIRWISE:
        return _choose_pairwise(problem, keys, order)
    rank = np.empty(m, dtype=np.int64)
    rank[order] = np.arange(m)
    col = np.full(u, -1, dtype=np.int64)
    dist = np.full(u, -1, dtype=np.int64)
    counts: dict[tuple[int, ...], np.ndarray] = {(): compatible(problem, keys, sizes)}
    todo = np.arange(u)
    level = 1
    while len(todo) and level <= m and comb(m, level) <= MAX_SUBSETS:
        best = np.full(len(todo), m, dtype=np.int64)
        for subset in itertools.combinations(range(m), level):
            blank = problem[todo].copy()
            blank[:, list(subset)] = -1
            counts[subset] = np.zeros(u)
            counts[subset][todo] = compatible(blank, keys, sizes)
            exact = sum(
                (-1) ** (level - r) * counts[part][todo]
                for r in range(level + 1)
                for part in itertools.combinations(subset, r)
            )
            first = int(rank[list(subset)].min())
            best = np.where(np.asarray(exact) > 0.5, np.minimum(best, first), best)
        found = best < m
        col[todo[found]] = order[best[found]]
        dist[todo[found]] = level
        todo = todo[~found]
        level += 1
    if len(todo):
        col[todo], dist[todo] = _choose_pairwise(problem[todo], keys, order)
    return col, dist


def _earlier_compatible(rows: np.ndarray) -> np.ndarray:
    """Return, per row, whether an earlier row of ``rows`` is compatible with it."""
    c, m = rows.shape
    out = np.zeros(c, dtype=bool)
    known = rows >= 0
    step = max(1, BLOCK // max(1, c * m))
    for start in range(0, c, step):
        end = min(c, start + step)
        diff = (rows[start:end, None, :] != rows[None, :end, :]) & (
            known[start:end, None, :] & known[None, :end, :]
        )
        hit = ~diff.any(axis=2) & (np.arange(end)[None, :] < np.arange(start, end)[:, None])
        out[start:end] = hit.any(axis=1)
    return out


def _attempt(
    codes: np.ndarray,
    original: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    chosen: np.ndarray,
    k: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Restore the chosen cells; return the table, its f_k and, per candidate, whether it is
    involved in a record falling below k (it fell below k, or stopped matching such a record)."""
    trial = codes.copy()
    trial[rows[chosen], cols[chosen]] = original[rows[chosen], cols[chosen]]
    trial_fk = fk(trial)
    involved = np.zeros(len(rows), dtype=bool)
    if trial_fk.min() >= k:
        return trial, trial_fk, involved
    low, _, _ = distinct(trial[trial_fk < k])
    idx = np.flatnonzero(chosen)
    ones = np.ones(len(low))
    matched = compatible(codes[rows[idx]], low, ones) > 0.5
    still = compatible(trial[rows[idx]], low, ones) > 0.5
    involved[idx] = (matched & ~still) | (trial_fk[rows[idx]] < k)
    return trial, trial_fk, involved


def restore(
    codes: np.ndarray,
    original: np.ndarray,
    k: int,
    rank: np.ndarray,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[np.ndarray, int]:
    """Put suppressed values back while every record keeps at least k compatible records.

    A suppressed cell of record r can be restored when (i) r, with its value
    back, is still compatible with at least k records and (ii) no record that
    r stops matching has exactly k (it would lose one). Both are counted for
    every suppressed cell at once (:func:`compatible` on the class table),
    one candidate per (class, QI, original value), most important QI first
    (``rank`` 0 is suppressed first, so restored last).

    A round restores all candidates at once and checks the table. Those
    involved in a record falling below k (it fell below k, or it stopped
    matching such a record) are put off; among the first of them (at most
    :data:`LATE_PAIRS` comparisons), those no earlier one is compatible with
    are tried again (two compatible restorations can take the same match
    away), and the table is checked again until no record is below k, the
    involved ones put off each time (each check puts off one at least, and
    the first candidate alone is valid, so the checks end). The candidates put
    off wait for the next round. A restoration only removes matches, so each
    round keeps f_k >= k; rounds end when no cell can come back, or after a
    round that put back fewer than 1 / :data:`STOP_SHARE` of the cells blank
    when restoring began. The number of blank cells can only go down.

    Parameters
    ----------
    codes : numpy.ndarray
        The suppressed table (int64 codes, ``-1`` missing); every record has f_k >= k.
    original : numpy.ndarray
        The table before suppression.
    k : int
    rank : numpy.ndarray
        Per QI, its place in the suppression order (0 = suppressed first).
    progress : callable, optional
        Called as ``progress(round, cells still blank)`` before each round.

    Returns
    -------
    codes : numpy.ndarray
        The table with the restored values.
    rounds : int
    """
    codes = codes.copy()
    rounds = 0
    counts = fk(codes)
    blank = int(((codes < 0) & (original >= 0)).sum())
    enough = max(1, blank // STOP_SHARE)
    while True:
        rows, cols = np.nonzero((codes < 0) & (original >= 0))
        if not len(rows) or (rounds and blank - len(rows) < enough):
            break
        blank = len(rows)
        rounds += 1
        if progress is not None:
            progress(rounds, len(rows))
        keys, inverse, sizes = distinct(codes)
        key_fk = np.zeros(len(keys))
        key_fk[inverse] = counts
        # one candidate per (class, QI, original value)
        triple = np.column_stack([inverse[rows], cols, original[rows, cols]])
        _, first = np.unique(triple, axis=0, return_index=True)
        rows, cols = rows[first], cols[first]
        before = codes[rows]
        after = before.copy()
        after[np.arange(len(rows)), cols] = original[rows, cols]
        sums = compatible(np.r_[before, after], keys, sizes, values=key_fk < k + 0.5)
        c = len(rows)
        new_fk = sums[c:].sum(axis=1)
        tight_lost = sums[:c, 1] - sums[c:, 1]
        ok = (new_fk > k - 0.5) & (tight_lost < 0.5)
        if not ok.any():
            break
        rows, cols, new_fk = rows[ok], cols[ok], new_fk[ok]
        priority = np.lexsort((rows, new_fk, -rank[cols]))
        rows, cols = rows[priority], cols[priority]
        # all candidates at once; those involved in a record falling below k are put off
        chosen = np.ones(len(rows), dtype=bool)
        trial, counts, involved = _attempt(codes, original, rows, cols, chosen, k)
        if involved.any():
            # keep the others; add back the involved ones no earlier involved candidate is
            # compatible with; check again, putting off the involved ones until none is
            chosen = ~involved
            late = np.flatnonzero(involved)
            late = late[: max(1, int((LATE_PAIRS / codes.shape[1]) ** 0.5))]
            chosen[late] = ~_earlier_compatible(codes[rows[late]])
            while True:
                trial, counts, again = _attempt(codes, original, rows, cols, chosen, k)
                if not again.any():
                    break
                drop = again & involved
                chosen &= ~(drop if drop.any() else again)  # each pass drops one at least
                if not chosen.any():
                    chosen[0] = True  # the first candidate alone is valid: (i) and (ii) hold
        codes = trial
    return codes, rounds
