"""The linkage attack: join an auxiliary table to a release and score what it reveals.

For each target t the candidate set is C_t = {released records agreeing with
t on every known column}; t is re-identified uniquely when |C_t| = 1 and
correctly when that record is its own (Sweeney 2002's linkage of the
Massachusetts GIC release with the Cambridge voter list [S02]_). The
expected share re-identified by a random pick is
(1/T) sum_t [own record in C_t] / |C_t|. Attribute disclosure: the attacker
predicts the most common sensitive value of C_t, with confidence its share.

With a person column (``person=``) targets and candidates are people: a
target is linked to the released people whose signature (the set of their
rows' tuples) holds a match for what the attacker knows
(:mod:`riskcore.attacks.linkage.people`).

References
----------
.. [S02] L. Sweeney, "k-anonymity: a model for protecting privacy",
   IJUFKS 10(5), 2002.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from riskcore.attacks._people import check_person, person_ids, value_sets
from riskcore.attacks.linkage.candidates import _Join, _majority_in_windows, _patterns, _windows
from riskcore.attacks.linkage.matching import _encode_pair, _Pair
from riskcore.attacks.linkage.people import Owners, join_people
from riskcore.attacks.linkage.results import (
    AttributeDisclosure,
    LinkageCurve,
    LinkageResult,
    Rate,
    mean_interval,
)
from riskcore.attacks.linkage.truth import (
    _target_groups,
    _truth_people,
    _truth_positions,
    row_number_truth,
)
from riskcore.engine import EncodedColumn, Engine, encode_column
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
    person: str | None = None,
) -> LinkageResult:
    """Join an auxiliary table to a release on shared quasi-identifiers.

    For each target t (a row of ``auxiliary``) the candidate set is
    C_t = {released records r : r agrees with t on every known column}; the
    target is re-identified uniquely when |C_t| = 1, and correctly when that
    one record is its own [S02]_. Attribute disclosure: the attacker predicts
    the most common sensitive value in C_t, with confidence (its count) / |C_t|.

    With ``person``, the unit is the person. Each row of ``auxiliary`` is
    what the attacker knows of one person (one tuple, e.g. the demographics);
    its candidates are the released people whose signature holds a matching
    tuple, C_t = {P : some row of P agrees with t}, counted in people, and a
    random pick among them is right with probability 1 / |C_t| when the
    target's own person is among them. Rows of ``auxiliary`` that the ground
    truth ties to one released person are one target, linked to the people
    holding a match for each of those rows (without ground truth every row
    is a target of its own). A candidate holds a sensitive value when one of
    their rows carries it; the attacker predicts the value held by most
    candidates (:mod:`riskcore.attacks.linkage.people`).

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
    person : str, optional
        The released column linking the rows of one person: targets and
        candidates are people (a released row with no person value is a
        person of its own). It cannot be a joined or sensitive column.

    Returns
    -------
    LinkageResult
        With ``person``: ``n_targets`` and ``n_release`` count people,
        ``release_rows`` and ``auxiliary_rows`` the rows.

    Raises
    ------
    RiskcoreError
        Unknown columns, bad parameters or incompatible column pairs; with
        ``person``, more than :data:`~riskcore.attacks.linkage.people.MAX_PAIRS`
        (target, person) pairs to expand.
    """
    mapping, tol, gran = _check_options(
        release,
        auxiliary,
        on,
        sensitive=sensitive,
        p=p,
        tolerance=tolerance,
        granularity=granularity,
        person=person,
    )
    n_rel, n_t = len(release), len(auxiliary)
    pairs = _pairs(auxiliary, release, mapping, tol, gran)
    sens = [encode_column(release[s]) for s in sensitive]
    if person is not None:
        return _linkage_people(release, auxiliary, mapping, pairs, sens, truth, p=p, person=person)
    true_pos = _truth_positions(release, auxiliary, truth)
    join = _join(pairs, n_rel, n_t, true_pos, [e.codes for e in sens])
    attrs = []
    for k, (name, e) in enumerate(zip(sensitive, sens, strict=True)):
        holds = None
        if true_pos is not None:
            own = np.where(true_pos >= 0, e.codes[np.maximum(true_pos, 0)], -2)
            holds = join.predicted[k] == own
        totals = np.bincount(e.codes, minlength=len(e.labels))
        attrs.append(_disclosure(name, e.labels, totals, n_rel, join, k, holds=holds, p=p))
    return _result(join, mapping, pairs, tuple(attrs), n_rel, has_truth=true_pos is not None)


def _linkage_people(
    release: pd.DataFrame,
    auxiliary: pd.DataFrame,
    mapping: dict[str, str],
    pairs: list[_Pair],
    sens: list[EncodedColumn],
    truth: np.ndarray | tuple[str, str] | None,
    *,
    p: float,
    person: str,
) -> LinkageResult:
    """Run the linkage attack in people (see :func:`linkage_attack`)."""
    who, n_people = person_ids(release[person])
    true_row = _truth_people(release, auxiliary, truth, who)
    target_of_row, n_t = _target_groups(true_row, len(auxiliary))
    true_owner = None
    if true_row is not None:
        true_owner = np.full(n_t, -1, dtype=np.int64)
        true_owner[target_of_row] = true_row  # one person per merged target
    sets = tuple(value_sets(who, n_people, e.codes, e.n_values) for e in sens)
    owners = Owners(who, np.ones(n_people, dtype=np.int64))
    join = join_people(pairs, owners, target_of_row, n_t, true_owner=true_owner, values=sets)
    attrs = tuple(
        _disclosure(
            e.name,
            e.labels,
            vs.people,
            n_people,
            join,
            k,
            holds=None if true_owner is None else vs.holds(true_owner, join.predicted[k]),
            p=p,
        )
        for k, (e, vs) in enumerate(zip(sens, sets, strict=True))
    )
    return _result(
        join,
        mapping,
        pairs,
        attrs,
        n_people,
        has_truth=true_owner is not None,
        person=person,
        release_rows=len(release),
        auxiliary_rows=len(auxiliary),
    )


def _result(
    join: _Join,
    mapping: dict[str, str],
    pairs: list[_Pair],
    attributes: tuple[AttributeDisclosure, ...],
    n_release: int,
    *,
    has_truth: bool,
    person: str | None = None,
    release_rows: int | None = None,
    auxiliary_rows: int | None = None,
) -> LinkageResult:
    """Score the join: unique, correct, a random pick among the candidates, own among them."""
    candidates = join.candidates
    n_t = len(candidates)
    baseline = 1.0 / n_release
    correct = in_cand = None
    expected: float | None = None
    expected_ci: tuple[float, float] | None = None
    if has_truth:
        correct = Rate.of(int(((candidates == 1) & join.in_set).sum()), n_t, baseline)
        picks = np.where(join.in_set, 1.0 / np.maximum(candidates, 1), 0.0)  # per target
        expected = float(picks.mean()) if n_t else 0.0
        expected_ci = mean_interval(picks)
        in_cand = Rate.of(int(join.in_set.sum()), n_t, 1.0)
    return LinkageResult(
        n_targets=n_t,
        n_release=n_release,
        columns=tuple((str(a), str(r)) for a, r in mapping.items()),
        unique=Rate.of(int((candidates == 1).sum()), n_t, baseline),
        correct=correct,
        expected_correct=expected,
        in_candidates=in_cand,
        attributes=attributes,
        notes=tuple(pr.note for pr in pairs),
        candidates=candidates,
        expected_correct_ci=expected_ci,
        person=person,
        release_rows=release_rows,
        auxiliary_rows=auxiliary_rows,
    )


def linkage_counts(
    release: Engine,
    auxiliary: pd.DataFrame,
    on: dict[str, str] | list[str],
    *,
    tolerance: dict[str, float] | None = None,
    granularity: dict[str, str] | None = None,
    person: str | None = None,
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

    With ``person`` the classes are people grouped by their signatures
    (:class:`~riskcore.engine.contract.Signatures`): the release is read as
    its (class, tuple) pairs, a class weighing its people, and |C_t| is the
    number of people of the classes holding a tuple that matches t, each
    class counted once (:mod:`riskcore.attacks.linkage.people`): the same
    counts as :func:`linkage_attack` with ``person``, every row of
    ``auxiliary`` a target of its own.

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
    person : str, optional
        The released column linking a person's rows (an engine that counts
        rows only refuses it).

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
        person=person,
    )
    rel_cols = list(dict.fromkeys(mapping.values()))
    if person is not None:
        return _counts_people(release, auxiliary, mapping, tol, gran, rel_cols, person)
    classes = release.tabulate(rel_cols).classes
    values, sizes = classes.values(), classes.sizes.astype(np.int64)
    n_rel, n_t = int(sizes.sum()), len(auxiliary)
    pairs = _pairs(auxiliary, values, mapping, tol, gran)
    pattern = _patterns(pairs, n_t)
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


def _counts_people(
    release: Engine,
    auxiliary: pd.DataFrame,
    mapping: dict[str, str],
    tol: dict[str, float],
    gran: dict[str, str],
    rel_cols: list[str],
    person: str,
) -> LinkageResult:
    """Count every target's candidate people from the signatures of an engine's classes."""
    classes = release.tabulate(rel_cols, person=person).classes
    sig = classes.signatures
    if sig is None:  # pragma: no cover - an engine that counts people gives signatures
        raise RiskcoreError(f"the {release.name} engine did not group people by {person!r}")
    tuples = sig.members
    values = pd.DataFrame(
        {
            q: pd.Series(np.asarray(lab, dtype=object)[keys[tuples]], dtype=object).infer_objects()
            for q, keys, lab in zip(
                classes.quasi_identifiers, sig.tuple_keys, classes.labels, strict=True
            )
        }
    )
    sizes = classes.sizes.astype(np.int64)
    pairs = _pairs(auxiliary, values, mapping, tol, gran)
    n_t = len(auxiliary)
    owners = Owners(sig.member_classes(), sizes)
    join = join_people(pairs, owners, np.arange(n_t, dtype=np.int64), n_t)
    return _result(
        join,
        mapping,
        pairs,
        (),
        int(sizes.sum()),
        has_truth=False,
        person=person,
        release_rows=classes.n_rows,
        auxiliary_rows=n_t,
    )


def _pairs(
    auxiliary: pd.DataFrame,
    release: pd.DataFrame,
    mapping: dict[str, str],
    tol: dict[str, float],
    gran: dict[str, str],
) -> list[_Pair]:
    """Encode every matched column pair (auxiliary, released) into one code space."""
    return [
        _encode_pair(
            auxiliary[a].reset_index(drop=True),
            release[r].reset_index(drop=True).rename(r),
            tolerance=tol.get(a, 0.0),
            granularity=gran.get(a),
        )
        for a, r in mapping.items()
    ]


def _check_options(
    release: pd.DataFrame | tuple[tuple[str, ...], int],
    auxiliary: pd.DataFrame,
    on: dict[str, str] | list[str],
    *,
    sensitive: list[str] | tuple[str, ...],
    p: float,
    tolerance: dict[str, float] | None,
    granularity: dict[str, str] | None,
    person: str | None = None,
) -> tuple[dict[str, str], dict[str, float], dict[str, str]]:
    """Validate the options of :func:`linkage_attack`; return (mapping, tolerance, granularity).

    ``release`` is the released table, or (its column names, its number of
    records) when an engine holds it. The person column links a person's
    rows: the attacker does not join on it, and it is not a sensitive value.
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
    check_person(rel_columns, person, where="released table")
    if person is not None and (person in mapping.values() or person in sensitive):
        raise RiskcoreError(
            f"the person column {person!r} links a person's rows: it cannot be a column the "
            "attacker joins on or a sensitive attribute"
        )
    return mapping, tol, dict(granularity or {})


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
    pattern = _patterns(pairs, n_t)
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
    labels: np.ndarray,
    totals: np.ndarray,
    n_units: int,
    join: _Join,
    k: int,
    *,
    holds: np.ndarray | None,
    p: float,
) -> AttributeDisclosure:
    """Score the attacker's prediction of sensitive attribute number ``k``.

    ``totals`` counts the released units (records, or people) holding each
    value, out of ``n_units``; ``holds`` says, per target, whether its own
    record or person holds the predicted value (None without ground truth).
    """
    n_t = len(join.candidates)
    base_code = int(np.argmax(totals))  # the most common value, ties to the smallest code
    base_rate = float(totals[base_code] / n_units)
    confident = (join.candidates > 0) & (join.confidence[k] >= p - 1e-12)
    attr_correct = None
    if holds is not None:
        hit = confident & holds
        attr_correct = Rate.of(int(hit.sum()), n_t, base_rate)
    return AttributeDisclosure(
        attribute=attribute,
        p=float(p),
        confident=Rate.of(int(confident.sum()), n_t, 1.0 if base_rate >= p else 0.0),
        correct=attr_correct,
        base_rate=base_rate,
        base_value=str(labels[base_code]),
    )


def linkage_curve(
    release: pd.DataFrame,
    auxiliary: pd.DataFrame,
    order: list[str] | tuple[str, ...],
    *,
    truth: np.ndarray | tuple[str, str] | None,
    mapping: dict[str, str] | None = None,
    progress: Callable[[int, int], object] | None = None,
    person: str | None = None,
) -> LinkageCurve:
    """Run the linkage attack knowing the first 1, 2, ..., q columns of ``order``.

    With exact matching and error-free knowledge the candidate sets are
    nested, so the unique re-identification rate never falls as a column is
    added (tested).

    Parameters
    ----------
    release, auxiliary : pandas.DataFrame
        The released table and the attacker's table (one row per target).
    order : list of str
        Auxiliary columns in the order the attacker learns them (e.g. by their
        uniqueness contribution, :mod:`riskcore.uniqueness`).
    truth : numpy.ndarray or (str, str), optional
        Ground truth, as :func:`linkage_attack` takes it.
    mapping : dict, optional
        {auxiliary column: released column}; default same names.
    progress : callable, optional
        Called as ``progress(done, total)`` after each of the ``total``
        attacks (a progress bar; a long run is one attack per column).
    person : str, optional
        The released column linking a person's rows: each attack counts
        people (see :func:`linkage_attack`).

    Returns
    -------
    LinkageCurve
    """
    mapping = mapping or {c: c for c in order}
    uniq, corr = [], []
    for i in range(1, len(order) + 1):
        on = {c: mapping[c] for c in order[:i]}
        res = linkage_attack(release, auxiliary, on, truth=truth, person=person)
        uniq.append(res.unique)
        corr.append(res.correct if res.correct is not None else res.unique)
        if progress is not None:
            progress(i, len(order))
    return LinkageCurve(tuple(order), tuple(uniq), tuple(corr))
