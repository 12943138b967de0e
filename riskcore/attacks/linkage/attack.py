"""The linkage attack: join an auxiliary table to a release and score what it reveals.

For each target t the candidate set is C_t = {released records agreeing with
t on every known column}; t is re-identified uniquely when |C_t| = 1 and
correctly when that record is its own (Sweeney 2002's linkage of the
Massachusetts GIC release with the Cambridge voter list [S02]_). The
expected share re-identified by a random pick is
(1/T) sum_t [own record in C_t] / |C_t|. Attribute disclosure: the attacker
predicts the most common sensitive value of C_t, with confidence its share.

References
----------
.. [S02] L. Sweeney, "k-anonymity: a model for protecting privacy",
   IJUFKS 10(5), 2002.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from riskcore.attacks.linkage.candidates import _majority_in_windows, _windows
from riskcore.attacks.linkage.matching import _UNKNOWN, _as_text, _encode_pair, _Pair
from riskcore.attacks.linkage.results import (
    AttributeDisclosure,
    LinkageCurve,
    LinkageResult,
    Rate,
    mean_interval,
)
from riskcore.engine import Engine, encode_column
from riskcore.errors import RiskcoreError

__all__ = ["linkage_attack", "linkage_counts", "linkage_curve", "row_number_truth"]


def linkage_attack(
    release: pd.DataFrame,
    auxiliary: pd.DataFrame,
    on: dict[str, str] | list[str],
    *,
    truth: np.ndarray | tuple[str, str] | None = None,
    sensitive: list[str] | tuple[str, ...] = (),
    p: float = 0.9,
    tolerance: dict[str, float] | None = None,
    granularity: dict[str, str] | None = None,
) -> LinkageResult:
    """Join an auxiliary table to a release on shared quasi-identifiers.

    For each target t (a row of ``auxiliary``) the candidate set is
    C_t = {released records r : r agrees with t on every known column}; the
    target is re-identified uniquely when |C_t| = 1, and correctly when that
    one record is its own [S02]_. Attribute disclosure: the attacker predicts
    the most common sensitive value in C_t, with confidence (its count) / |C_t|.

    Parameters
    ----------
    release : pandas.DataFrame
        The released table (possibly generalized).
    auxiliary : pandas.DataFrame
        The attacker's table, one row per target.
    on : dict or list
        {auxiliary column: released column}, or a list of names present in both.
    truth : numpy.ndarray or (str, str), optional
        Ground truth: the position in ``release`` of each target's own record
        (-1 when not in the release), or a pair (auxiliary id column, released
        id column) holding a shared identifier.
    sensitive : list of str
        Released sensitive attributes to test for attribute disclosure.
    p : float
        Confidence threshold for attribute disclosure, in (0, 1].
    tolerance : dict, optional
        {auxiliary column: t}: numbers match when |a - r| <= t (one column at most).
    granularity : dict, optional
        {auxiliary column: "day" | "month" | "year"} for date columns.

    Returns
    -------
    LinkageResult

    Raises
    ------
    RiskcoreError
        Unknown columns, bad parameters or incompatible column pairs.
    """
    mapping, tol, gran = _check_options(
        release,
        auxiliary,
        on,
        sensitive=sensitive,
        p=p,
        tolerance=tolerance,
        granularity=granularity,
    )
    n_rel, n_t = len(release), len(auxiliary)
    pairs = [
        _encode_pair(
            auxiliary[a].reset_index(drop=True),
            release[r].reset_index(drop=True),
            tolerance=tol.get(a, 0.0),
            granularity=gran.get(a),
        )
        for a, r in mapping.items()
    ]
    true_pos = _truth_positions(release, auxiliary, truth)
    sens_codes = [(e.codes, e.labels) for e in (encode_column(release[s]) for s in sensitive)]
    join = _join(pairs, n_rel, n_t, true_pos, [codes for codes, _ in sens_codes])
    candidates = join.candidates

    baseline = 1.0 / n_rel
    unique = Rate.of(int((candidates == 1).sum()), n_t, baseline)
    correct = in_cand = None
    expected: float | None = None
    expected_ci: tuple[float, float] | None = None
    if true_pos is not None:
        correct = Rate.of(int(((candidates == 1) & join.in_set).sum()), n_t, baseline)
        picks = np.where(join.in_set, 1.0 / np.maximum(candidates, 1), 0.0)  # per target
        expected = float(picks.mean()) if n_t else 0.0
        expected_ci = mean_interval(picks)
        in_cand = Rate.of(int(join.in_set.sum()), n_t, 1.0)
    attrs = tuple(
        _disclosure(name, codes, labels, join, k, true_pos=true_pos, p=p)
        for k, (name, (codes, labels)) in enumerate(zip(sensitive, sens_codes, strict=True))
    )
    return LinkageResult(
        n_targets=n_t,
        n_release=n_rel,
        columns=tuple((str(a), str(r)) for a, r in mapping.items()),
        unique=unique,
        correct=correct,
        expected_correct=expected,
        in_candidates=in_cand,
        attributes=attrs,
        notes=tuple(pr.note for pr in pairs),
        candidates=candidates,
        expected_correct_ci=expected_ci,
    )


def linkage_counts(
    release: Engine,
    auxiliary: pd.DataFrame,
    on: dict[str, str] | list[str],
    *,
    tolerance: dict[str, float] | None = None,
    granularity: dict[str, str] | None = None,
) -> LinkageResult:
    """Count every target's candidates through any engine: the linkage join on the class table.

    The same candidate sets as :func:`linkage_attack`, C_t = {released
    records agreeing with target t on every column it knows} [S02]_, but
    computed from the release's equivalence classes over the joined columns
    (an engine's :meth:`~riskcore.engine.Engine.tabulate`) instead of its
    rows: each class is one "record" weighing its size f_j, and |C_t| is the
    sum of the sizes of the classes in t's window. So a release held by the
    Parquet stream, DuckDB or Spark is attacked without loading it; the
    auxiliary table (the attacker's, usually small) is in memory.

    Only what needs no released row is computed: the candidate counts and
    the unique re-identification rate. Correct re-identification needs each
    target's own record and attribute disclosure the sensitive values of the
    candidates: use :func:`linkage_attack` on the rows for those.

    Parameters
    ----------
    release : Engine
        An engine over the released table.
    auxiliary : pandas.DataFrame
        The attacker's table, one row per target.
    on : dict or list
        {auxiliary column: released column}, or names present in both.
    tolerance, granularity : dict, optional
        As for :func:`linkage_attack`.

    Returns
    -------
    LinkageResult
        ``candidates`` and ``unique``; ``correct``, ``in_candidates`` and
        ``attributes`` empty.
    """
    mapping, tol, gran = _check_options(
        (tuple(release.columns), release.n_records),
        auxiliary,
        on,
        sensitive=(),
        p=1.0,
        tolerance=tolerance,
        granularity=granularity,
    )
    rel_cols = list(dict.fromkeys(mapping.values()))
    classes = release.tabulate(rel_cols).classes
    values, sizes = classes.values(), classes.sizes.astype(np.int64)
    n_rel, n_t = int(sizes.sum()), len(auxiliary)
    pairs = [
        _encode_pair(
            auxiliary[a].reset_index(drop=True),
            values[r].rename(r),
            tolerance=tol.get(a, 0.0),
            granularity=gran.get(a),
        )
        for a, r in mapping.items()
    ]
    unknown = np.stack([pr.aux_codes == _UNKNOWN for pr in pairs], axis=1)
    weights = 1 << np.arange(unknown.shape[1], dtype=np.int64)
    pattern = (unknown.astype(np.int64) * weights).sum(axis=1) if n_t else np.zeros(0, np.int64)
    candidates = np.zeros(n_t, dtype=np.int64)
    for pat in np.unique(pattern):  # a handful of patterns of unknown values, never the rows
        idx = np.flatnonzero(pattern == pat)
        use = [pr for j, pr in enumerate(pairs) if not (int(pat) >> j) & 1]
        if not use:  # the attacker knows nothing: everyone is a candidate
            candidates[idx] = n_rel
            continue
        lo, hi, order, _ = _windows(use, idx, len(sizes))
        weight = np.concatenate(([0], np.cumsum(sizes[order])))
        candidates[idx] = weight[hi] - weight[lo]
    return LinkageResult(
        n_targets=n_t,
        n_release=n_rel,
        columns=tuple((str(a), str(r)) for a, r in mapping.items()),
        unique=Rate.of(int((candidates == 1).sum()), n_t, 1.0 / n_rel),
        correct=None,
        expected_correct=None,
        in_candidates=None,
        attributes=(),
        notes=tuple(pr.note for pr in pairs),
        candidates=candidates,
        expected_correct_ci=None,
    )


def _check_options(
    release: pd.DataFrame | tuple[tuple[str, ...], int],
    auxiliary: pd.DataFrame,
    on: dict[str, str] | list[str],
    *,
    sensitive: list[str] | tuple[str, ...],
    p: float,
    tolerance: dict[str, float] | None,
    granularity: dict[str, str] | None,
) -> tuple[dict[str, str], dict[str, float], dict[str, str]]:
    """Validate the options of :func:`linkage_attack`; return (mapping, tolerance, granularity).

    ``release`` is the released table, or (its column names, its number of
    records) when an engine holds it.
    """
    if isinstance(release, pd.DataFrame):
        rel_columns, n_release = tuple(release.columns), len(release)
    else:
        rel_columns, n_release = release
    mapping = dict(on) if isinstance(on, dict) else {c: c for c in on}
    if not mapping:
        raise RiskcoreError("choose at least one column the attacker knows")
    for a, r in mapping.items():
        if a not in auxiliary.columns:
            raise RiskcoreError(f"the auxiliary table has no column {a!r}")
        if r not in rel_columns:
            raise RiskcoreError(f"the released table has no column {r!r}")
    for s in sensitive:
        if s not in rel_columns:
            raise RiskcoreError(f"the released table has no column {s!r}")
    if not 0 < p <= 1:
        raise RiskcoreError(f"the confidence threshold p must be in (0, 1], got {p!r}")
    tol = {k: float(v) for k, v in (tolerance or {}).items() if v}
    if len(tol) > 1:
        raise RiskcoreError("a numeric tolerance can be set on one column only")
    for k, v in tol.items():
        if k not in mapping or not v >= 0:
            raise RiskcoreError(f"bad tolerance {k!r}: {v!r}")
    if n_release == 0:
        raise RiskcoreError("the released table is empty")
    return mapping, tol, dict(granularity or {})


@dataclass(frozen=True)
class _Join:
    """Per target: candidate-set size, own record among them, majority share and value."""

    candidates: np.ndarray
    in_set: np.ndarray
    confidence: list[np.ndarray]
    predicted: list[np.ndarray]


def _join(
    pairs: list[_Pair],
    n_rel: int,
    n_t: int,
    true_pos: np.ndarray | None,
    sens_codes: list[np.ndarray],
) -> _Join:
    """Find every target's candidate window, one join per pattern of unknown values.

    The loop runs over the patterns of wildcards (at most 2^q for q known
    columns, usually a handful), each join vectorized over its targets.
    """
    unknown = np.stack([pr.aux_codes == _UNKNOWN for pr in pairs], axis=1)
    weights = 1 << np.arange(unknown.shape[1], dtype=np.int64)
    pattern = (unknown.astype(np.int64) * weights).sum(axis=1) if n_t else np.zeros(0, np.int64)
    join = _Join(
        candidates=np.zeros(n_t, dtype=np.int64),
        in_set=np.zeros(n_t, dtype=bool),
        confidence=[np.zeros(n_t) for _ in sens_codes],
        predicted=[np.full(n_t, -1, dtype=np.int64) for _ in sens_codes],
    )
    for pat in np.unique(pattern):
        idx = np.flatnonzero(pattern == pat)
        use = [pr for j, pr in enumerate(pairs) if not (int(pat) >> j) & 1]
        if use:
            lo, hi, order, _ = _windows(use, idx, n_rel)
        else:  # the attacker knows nothing: everyone is a candidate
            lo = np.zeros(len(idx), dtype=np.int64)
            hi = np.full(len(idx), n_rel, dtype=np.int64)
            order = np.arange(n_rel)
        join.candidates[idx] = hi - lo
        if true_pos is not None:
            rank = np.empty(n_rel, dtype=np.int64)
            rank[order] = np.arange(n_rel)
            tp = true_pos[idx]
            r = np.where(tp >= 0, rank[np.maximum(tp, 0)], -1)
            join.in_set[idx] = (tp >= 0) & (r >= lo) & (r < hi)
        exact = all(pr.rel_values is None for pr in use)
        for k, codes in enumerate(sens_codes):
            c, v = _majority_in_windows(codes[order], lo, hi, exact=exact)
            join.confidence[k][idx] = c
            join.predicted[k][idx] = v
    return join


def _disclosure(
    attribute: str,
    codes: np.ndarray,
    labels: np.ndarray,
    join: _Join,
    k: int,
    *,
    true_pos: np.ndarray | None,
    p: float,
) -> AttributeDisclosure:
    """Score the attacker's prediction of sensitive attribute number ``k``."""
    n_rel, n_t = len(codes), len(join.candidates)
    totals = np.bincount(codes, minlength=len(labels))
    base_code = int(np.argmax(totals))  # the most common value, ties to the smallest code
    base_rate = float(totals[base_code] / n_rel)
    confident = (join.candidates > 0) & (join.confidence[k] >= p - 1e-12)
    attr_correct = None
    if true_pos is not None:
        truth_val = np.where(true_pos >= 0, codes[np.maximum(true_pos, 0)], -2)
        hit = confident & (join.predicted[k] == truth_val)
        attr_correct = Rate.of(int(hit.sum()), n_t, base_rate)
    return AttributeDisclosure(
        attribute=attribute,
        p=float(p),
        confident=Rate.of(int(confident.sum()), n_t, 1.0 if base_rate >= p else 0.0),
        correct=attr_correct,
        base_rate=base_rate,
        base_value=str(labels[base_code]),
    )


def _truth_positions(
    release: pd.DataFrame, auxiliary: pd.DataFrame, truth: np.ndarray | tuple[str, str] | None
) -> np.ndarray | None:
    if truth is None:
        return None
    if isinstance(truth, tuple):
        a_col, r_col = truth
        if a_col not in auxiliary.columns or r_col not in release.columns:
            raise RiskcoreError(f"ground-truth columns not found: {a_col!r}, {r_col!r}")
        r_ids = _as_text(pd.Series(release[r_col].to_numpy(dtype=object)))
        a_ids = _as_text(pd.Series(auxiliary[a_col].to_numpy(dtype=object)))
        if r_ids.duplicated().any():
            raise RiskcoreError(f"the released id column {r_col!r} has duplicate values")
        return np.asarray(pd.Index(r_ids).get_indexer(pd.Index(a_ids)), dtype=np.int64)
    pos = np.asarray(truth, dtype=np.int64)
    if pos.shape != (len(auxiliary),):
        raise RiskcoreError("truth must give one release position per auxiliary row")
    if (pos >= len(release)).any() or (pos < -1).any():
        raise RiskcoreError("truth positions must be -1 or valid release rows")
    return pos


def row_number_truth(auxiliary: pd.DataFrame, column: str, n_release: int) -> np.ndarray:
    """Read the ground truth from a column of release row numbers (the first row is 1).

    For an attacker's table drawn from the release itself (a sample with its
    row numbers kept): row number r of the auxiliary row is the release
    record at position r - 1. A blank means "not in the release" (-1).

    Parameters
    ----------
    auxiliary : pandas.DataFrame
    column : str
        The auxiliary column holding row numbers 1 .. ``n_release``.
    n_release : int
        Number of records in the release.

    Returns
    -------
    numpy.ndarray
        The release position of each auxiliary row (-1: none), to pass as
        ``truth`` to :func:`linkage_attack`.

    Raises
    ------
    RiskcoreError
        When the column is absent, or holds a value that is not a row number.
    """
    if column not in auxiliary.columns:
        raise RiskcoreError(f"the attacker's table has no column {column!r}")
    raw = auxiliary[column]
    num = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float)
    blank = raw.isna().to_numpy()
    bad = ~blank & (np.isnan(num) | (num != np.round(num)) | (num < 1) | (num > n_release))
    if bad.any():
        examples = ", ".join(repr(str(v)) for v in raw[bad].unique()[:3])
        raise RiskcoreError(
            f"{column!r} must hold row numbers from 1 to {n_release:,}; "
            f"{int(bad.sum()):,} value(s) are not, e.g. {examples}"
        )
    return np.where(blank, -1, np.nan_to_num(num) - 1).astype(np.int64)


def linkage_curve(
    release: pd.DataFrame,
    auxiliary: pd.DataFrame,
    order: list[str] | tuple[str, ...],
    *,
    truth: np.ndarray | tuple[str, str] | None,
    mapping: dict[str, str] | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> LinkageCurve:
    """Run the linkage attack knowing the first 1, 2, ..., q columns of ``order``.

    With exact matching and error-free knowledge the candidate sets are
    nested, so the unique re-identification rate never falls as a column is
    added (tested).

    Parameters
    ----------
    release, auxiliary : pandas.DataFrame
    order : list of str
        Auxiliary columns in the order the attacker learns them (e.g. by their
        uniqueness contribution, :mod:`riskcore.uniqueness`).
    truth : see :func:`linkage_attack`
    mapping : dict, optional
        {auxiliary column: released column}; default same names.
    progress : callable, optional
        Called as ``progress(done, total)`` after each of the ``total``
        attacks (a progress bar; a long run is one attack per column).

    Returns
    -------
    LinkageCurve
    """
    mapping = mapping or {c: c for c in order}
    uniq, corr = [], []
    for i in range(1, len(order) + 1):
        on = {c: mapping[c] for c in order[:i]}
        res = linkage_attack(release, auxiliary, on, truth=truth)
        uniq.append(res.unique)
        corr.append(res.correct if res.correct is not None else res.unique)
        if progress is not None:
            progress(i, len(order))
    return LinkageCurve(tuple(order), tuple(uniq), tuple(corr))
