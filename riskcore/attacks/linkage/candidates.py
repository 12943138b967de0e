"""Candidate sets of the linkage attack as windows of the sorted release.

For target t the candidate set C_t is the set of released records agreeing
with t on every column the attacker knows [S02]_. The known columns' codes
(:mod:`riskcore.attacks.linkage.matching`) are packed into one int64 key;
the release is sorted by that key once and every C_t is a window
``order[lo:hi]`` found with ``numpy.searchsorted`` (a numeric tolerance adds
a range on the last key component). Attribute disclosure reads, per window,
the most common sensitive value and its share of the window (the attacker's
confidence). No loop runs over records.

References
----------
.. [S02] L. Sweeney, "k-anonymity: a model for protecting privacy",
   IJUFKS 10(5), 2002.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from riskcore.attacks.linkage.matching import _ABSENT, _UNKNOWN, _Pair
from riskcore.engine import Contingency, pack_keys
from riskcore.errors import RiskcoreError
from riskcore.metrics import class_majority

_MAX_SENSITIVE_VALUES_WITH_TOLERANCE = 256


@dataclass(frozen=True)
class _Join:
    """Per target: candidate-set size, own record among them, majority share and value."""

    candidates: np.ndarray
    in_set: np.ndarray
    confidence: list[np.ndarray]
    predicted: list[np.ndarray]


def _patterns(pairs: list[_Pair], n_t: int) -> np.ndarray:
    """Return each target's pattern of unknown values: bit j set when column j is unknown.

    The joins loop over these patterns (at most 2^q for q known columns,
    usually a handful), each vectorized over its targets.
    """
    if not n_t:
        return np.zeros(0, np.int64)
    unknown = np.stack([pr.aux_codes == _UNKNOWN for pr in pairs], axis=1)
    weights = 1 << np.arange(unknown.shape[1], dtype=np.int64)
    out: np.ndarray = (unknown.astype(np.int64) * weights).sum(axis=1)
    return out


def _windows(
    pairs: list[_Pair], known: np.ndarray, n_rel: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return (lo, hi, order, absent) for targets sharing one pattern of known columns.

    ``order`` sorts the release by the packed key of the known columns; each
    target's candidates are ``order[lo:hi]``.
    """
    exact = [p for p in pairs if p.rel_values is None]
    ranged = [p for p in pairs if p.rel_values is not None]
    n_t = len(known)
    absent = np.zeros(n_t, dtype=bool)
    for p in pairs:
        absent |= p.aux_codes[known] == _ABSENT
    if exact:
        # release and targets packed together, so both get the same (possibly re-densified) key
        both, _ = pack_keys(
            [np.concatenate([p.rel_codes, np.maximum(p.aux_codes[known], 0)]) for p in exact],
            [p.card for p in exact],
        )
        r_key, a_key = both[:n_rel], both[n_rel:]
    else:
        r_key = np.zeros(n_rel, dtype=np.int64)
        a_key = np.zeros(n_t, dtype=np.int64)
    if not ranged:
        order = np.argsort(r_key, kind="stable")
        sorted_key = r_key[order]
        lo = np.searchsorted(sorted_key, a_key, side="left")
        hi = np.searchsorted(sorted_key, a_key, side="right")
    else:
        (rp,) = ranged
        u = (
            len(rp.rel_values if rp.rel_values is not None else ()) + 1
        )  # distinct numbers + the missing slot
        # dense key of the exact columns, then key * u + rank of the number
        dense_vals, r_dense = np.unique(r_key, return_inverse=True)
        composite = r_dense.reshape(-1).astype(np.int64) * u + rp.rel_codes
        order = np.argsort(composite, kind="stable")
        sorted_c = composite[order]
        pos = np.searchsorted(dense_vals, a_key)
        found = (pos < len(dense_vals)) & (
            dense_vals[np.minimum(pos, len(dense_vals) - 1)] == a_key
        )
        vals, x_all = rp.rel_values, rp.aux_values
        if vals is None or x_all is None:  # a ranged pair carries both
            raise AssertionError("a ranged pair without its values")
        x = x_all[known]
        tol = rp.tolerance
        r_lo = np.searchsorted(vals, x - tol, side="left")
        r_hi = np.searchsorted(vals, x + tol, side="right")
        base = pos.astype(np.int64) * u
        lo = np.searchsorted(sorted_c, base + r_lo, side="left")
        hi = np.searchsorted(sorted_c, base + r_hi, side="left")
        hi = np.where(found & ~np.isnan(x), hi, lo)
    hi = np.where(absent, lo, hi)
    return lo, hi, order, absent


def _majority_in_windows(
    sorted_codes: np.ndarray, lo: np.ndarray, hi: np.ndarray, *, exact: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Majority share and value of ``sorted_codes[lo:hi]`` for every window.

    Exact windows are whole runs of equal keys: they are the classes of a
    window x value :class:`~riskcore.engine.Contingency`, whose majority is
    :func:`riskcore.metrics.class_majority`. Tolerance windows overlap, so the
    counts come from one prefix sum per sensitive value. Both break ties the
    same way: the smallest value code wins.
    """
    n_w = len(lo)
    size = hi - lo
    conf = np.zeros(n_w)
    pred = np.full(n_w, -1, dtype=np.int64)
    if n_w == 0 or len(sorted_codes) == 0:
        return conf, pred
    m = int(sorted_codes.max()) + 1
    if exact:
        # runs: windows start at run boundaries; label each position by its window start
        starts = np.unique(lo[size > 0])
        if len(starts) == 0:
            return conf, pred
        run_of = np.searchsorted(starts, np.arange(len(sorted_codes)), side="right") - 1
        # restrict to positions inside some window (positions after a run's end belong to none)
        w_hi = np.zeros(len(starts), dtype=np.int64)
        w_hi[np.searchsorted(starts, lo[size > 0])] = hi[size > 0]
        pos = np.arange(len(sorted_codes))
        inside = (run_of >= 0) & (pos < w_hi[np.maximum(run_of, 0)])
        # the window x value contingency; its class majority is the prediction
        runs = Contingency.from_cells(
            "window",
            run_of[inside],
            sorted_codes[inside],
            np.ones(int(inside.sum()), dtype=np.int64),
            n_classes=len(starts),
            labels=np.arange(m),
            ordered=False,
        )
        best_cnt, best_val = class_majority(runs)
        w = np.searchsorted(starts, lo)
        ok = size > 0
        conf[ok] = best_cnt[w[ok]] / size[ok]
        pred[ok] = best_val[w[ok]]
        return conf, pred
    if m > _MAX_SENSITIVE_VALUES_WITH_TOLERANCE:
        raise RiskcoreError(
            f"attribute disclosure with a numeric tolerance supports up to "
            f"{_MAX_SENSITIVE_VALUES_WITH_TOLERANCE} distinct sensitive values, got {m}"
        )
    best = np.zeros(n_w, dtype=np.int64)
    for v in range(m):  # one prefix sum per sensitive value
        csum = np.concatenate([[0], np.cumsum(sorted_codes == v)])
        cnt = csum[hi] - csum[lo]
        better = cnt > best
        best = np.where(better, cnt, best)
        pred = np.where(better, v, pred)
    ok = size > 0
    conf[ok] = best[ok] / size[ok]
    pred[~ok] = -1
    return conf, pred
