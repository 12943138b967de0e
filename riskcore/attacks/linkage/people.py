"""The linkage join in people: targets are people, candidates are released people.

When the release has several rows per person, the unit of privacy is the
person (``shared/notes/formulas.md``, "Many rows per person"). A released
person P with rows r_1..r_m has the *signature*
sig(P) = {(q_1(r), ..., q_p(r)) : r in P}, the set of their QI tuples over
the joined columns. What the attacker knows of a target is one tuple t (a
row of the auxiliary table: e.g. the person's demographics); the target is
linked to the released people whose signature holds a tuple matching t:

    C_t = {released people P : some tuple s in sig(P) matches t},

matching by the rules of :mod:`riskcore.attacks.linkage.matching` (a value
the attacker does not know matches every value, a number within the
tolerance, a number inside a released band). |C_t| counts people, however
many of their rows match. When the ground truth ties several rows of the
attacker's table to one released person, they are one target T whose
candidates hold a match for each of them:
C_T = intersection over t in T of C_t (the attacker knows several of the
person's tuples: the support of an itemset, as in k^m-anonymity [TMK08]_).
Re-identification is scored as for records [S02]_: unique when |C_T| = 1,
correct when that person is the target's own, and a random pick among the
candidates is right with probability 1/|C_T| when the own person is among
them. With QIs constant per person every signature is one tuple, and C_t is
the usual class-count join counted in people.

Attribute disclosure reads the people of C_T: the attacker predicts the
value held by the most candidates, with confidence (candidates holding it) /
|C_T|, a person holding a value when one of their rows carries it (each
person counted once per distinct value, as the person contingency of
:func:`riskcore.engine.class_value_counts` counts).

How it is computed (no loop over rows, people or targets; loops over the
patterns of unknown values): per pattern, the release is aggregated to its
distinct (known-column key, owner, tolerance rank) *units*, an owner being a
person (or, through an engine, a class of people weighing its size). A
target whose key is exact is a run of units of one key, each owner once, so
|C_t| is a difference of prefix sums (the m:1 join of the target's tuple to
"tuple -> people holding it"). Targets of several rows, or a numeric
tolerance (whose windows may hold one person twice), expand the smallest
window of each target into distinct (target, owner) pairs, at most
:data:`MAX_PAIRS`, checked before expanding, and test each pair against the
target's other rows by binary search.

References
----------
.. [S02] L. Sweeney, "k-anonymity: a model for protecting privacy",
   IJUFKS 10(5), 2002.
.. [TMK08] M. Terrovitis, N. Mamoulis, P. Kalnis, "Privacy-preserving
   anonymization of set-valued data", PVLDB 1(1), 2008.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from riskcore.attacks._people import ValueSets
from riskcore.attacks.linkage.candidates import _Join, _patterns
from riskcore.attacks.linkage.matching import _ABSENT, _Pair
from riskcore.engine import Contingency, pack_keys
from riskcore.errors import RiskcoreError
from riskcore.metrics import class_majority

__all__ = ["MAX_PAIRS", "Owners"]

#: The most (target, person) pairs expanded for targets of several rows or a
#: numeric tolerance; beyond it the attack is refused before any is built.
MAX_PAIRS = 20_000_000

_KEY_LIMIT = 1 << 62


@dataclass(frozen=True)
class Owners:
    """Who holds the release's rows: people (weight 1) or classes of people (their sizes).

    Attributes
    ----------
    of_row : numpy.ndarray
        int64 owner of each release row, in ``[0, len(weight))``.
    weight : numpy.ndarray
        int64 people each owner stands for.
    """

    of_row: np.ndarray
    weight: np.ndarray

    @property
    def n(self) -> int:
        """Return the number of owners."""
        return len(self.weight)


def _run_starts(*columns: np.ndarray) -> np.ndarray:
    """Return where a new run starts in rows sorted on ``columns`` (bool)."""
    n = len(columns[0])
    start = np.ones(n, dtype=bool)
    if n:
        same = np.ones(n - 1, dtype=bool)
        for c in columns:
            same &= c[1:] == c[:-1]
        start[1:] = ~same
    return start


@dataclass(frozen=True)
class _Index:
    """One pattern of known columns: the release's units and its targets' keys.

    Units are the distinct (dense exact key ``e``, owner ``o``, tolerance rank
    ``r``) of the release's rows, sorted by (e, o, r). Per auxiliary row of
    the pattern (``rows``): ``found`` (its exact key occurs in the release),
    ``key`` (that dense key), ``r_lo`` / ``r_hi`` (its tolerance ranks; 0 / 1
    without a tolerance) and its window ``lo`` / ``hi`` in the window order
    (``win_owner``: by (e, o) when exact, by (e, r, o) with a tolerance).
    """

    ranged: bool
    u: int
    n_owners: int
    eo: np.ndarray  # distinct e * n_owners + o, ascending
    c: np.ndarray  # per unit: dense (e, o) * u + r, ascending
    unit_e: np.ndarray  # per unit (sorted by e, o, r)
    unit_o: np.ndarray
    win_owner: np.ndarray
    rows: np.ndarray
    found: np.ndarray
    key: np.ndarray
    r_lo: np.ndarray
    r_hi: np.ndarray
    lo: np.ndarray
    hi: np.ndarray

    def member(self, at: np.ndarray, owner: np.ndarray) -> np.ndarray:
        """Return whether ``owner`` holds a tuple matching the pattern's row ``at`` (positions)."""
        base = self.key[at] * self.n_owners + owner
        j = np.searchsorted(self.eo, base)
        ok = self.found[at] & (owner >= 0) & (j < len(self.eo))
        ok[ok] = self.eo[j[ok]] == base[ok]
        lo_q = j * self.u + self.r_lo[at]
        k = np.searchsorted(self.c, lo_q)
        ok &= k < len(self.c)
        ok[ok] = self.c[k[ok]] < (j * self.u + self.r_hi[at])[ok]
        out: np.ndarray = ok
        return out


def _index(use: list[_Pair], rows: np.ndarray, owners: Owners) -> _Index:
    """Reduce the release to the units of one pattern and place its targets' windows."""
    exact = [p for p in use if p.rel_values is None]
    ranged = [p for p in use if p.rel_values is not None]
    n_rel = len(owners.of_row)
    absent = np.zeros(len(rows), dtype=bool)
    for p in use:
        absent |= p.aux_codes[rows] == _ABSENT
    if exact:  # release and targets packed together: one key space
        both, _ = pack_keys(
            [np.concatenate([p.rel_codes, np.maximum(p.aux_codes[rows], 0)]) for p in exact],
            [p.card for p in exact],
        )
        r_key, a_key = both[:n_rel], both[n_rel:]
    else:  # nothing exact known: one key holds everyone
        r_key = np.zeros(n_rel, dtype=np.int64)
        a_key = np.zeros(len(rows), dtype=np.int64)
    uniq, e_row = np.unique(r_key, return_inverse=True)
    e_row = e_row.reshape(-1).astype(np.int64)
    pos = np.searchsorted(uniq, a_key)
    found = ~absent & (pos < len(uniq))
    found[found] = uniq[pos[found]] == a_key[found]
    key = np.where(found, pos, 0).astype(np.int64)
    if ranged:
        (rp,) = ranged
        vals, x = rp.rel_values, rp.aux_values
        if vals is None or x is None:  # pragma: no cover - a ranged pair carries both
            raise AssertionError("a ranged pair without its values")
        u = len(vals) + 1  # distinct numbers + the missing slot
        rank = rp.rel_codes.astype(np.int64)
        xt = x[rows]
        r_lo = np.searchsorted(vals, xt - rp.tolerance, side="left").astype(np.int64)
        r_hi = np.searchsorted(vals, xt + rp.tolerance, side="right").astype(np.int64)
        r_hi = np.where(np.isnan(xt), r_lo, r_hi)
    else:
        u = 1
        rank = np.zeros(n_rel, dtype=np.int64)
        r_lo = np.zeros(len(rows), dtype=np.int64)
        r_hi = np.ones(len(rows), dtype=np.int64)
    n_owners = owners.n
    if len(uniq) * max(n_owners, 1) >= _KEY_LIMIT // max(u, 1):  # pragma: no cover - beyond memory
        raise RiskcoreError("the release is too large to link people on these columns")
    order = np.lexsort((rank, owners.of_row, e_row))
    e_s, o_s, r_s = e_row[order], owners.of_row[order], rank[order]
    keep = _run_starts(e_s, o_s, r_s)
    ue, uo, ur = e_s[keep], o_s[keep], r_s[keep]
    eo_all = ue * n_owners + uo
    eo_new = _run_starts(eo_all)
    c = (np.cumsum(eo_new) - 1) * u + ur
    if ranged:
        win = np.lexsort((uo, ur, ue))
        win_key, win_owner = ue[win] * u + ur[win], uo[win]
        lo = np.searchsorted(win_key, key * u + r_lo, side="left")
        hi = np.searchsorted(win_key, key * u + r_hi, side="left")
    else:
        win_owner = uo
        lo = np.searchsorted(ue, key, side="left")
        hi = np.searchsorted(ue, key, side="right")
    hi = np.where(found, hi, lo)
    return _Index(
        bool(ranged),
        u,
        n_owners,
        eo_all[eo_new],
        c,
        ue,
        uo,
        win_owner,
        rows,
        found,
        key,
        r_lo,
        r_hi,
        lo.astype(np.int64),
        hi.astype(np.int64),
    )


def _key_majority(ix: _Index, values: ValueSets) -> tuple[np.ndarray, np.ndarray]:
    """Return, per exact key, the people holding its commonest value and that value.

    Each key is a class of people (the owners of its units, each once), and
    a cell counts the people of the key holding a value; the majority is
    :func:`riskcore.metrics.class_majority` (ties to the smallest code).
    """
    nv = values.ptr[ix.unit_o + 1] - values.ptr[ix.unit_o]
    total = int(nv.sum())
    off = np.cumsum(nv) - nv
    take = np.repeat(values.ptr[ix.unit_o] - off, nv) + np.arange(total, dtype=np.int64)
    table = Contingency.from_cells(
        "key",
        np.repeat(ix.unit_e, nv),
        values.values[take],
        np.ones(total, dtype=np.int64),
        n_classes=int(ix.unit_e.max()) + 1 if len(ix.unit_e) else 0,
        labels=np.arange(len(values.people)),
        ordered=False,
    )
    return class_majority(table)


def _expand(
    windows: list[tuple[_Index, np.ndarray, np.ndarray]], n_owners: int
) -> tuple[np.ndarray, np.ndarray]:
    """Return the distinct (target, owner) pairs of some windows.

    ``windows`` holds, per pattern, (index, positions of the rows in it, their
    targets); the total window length is checked against :data:`MAX_PAIRS`
    before anything is built.
    """
    total = sum(int((ix.hi[at] - ix.lo[at]).sum()) for ix, at, _ in windows)
    if total > MAX_PAIRS:
        raise RiskcoreError(
            f"linking these targets to people would compare {total:,} (target, person) pairs, "
            f"more than {MAX_PAIRS:,}: give the attacker's table one row per person, or "
            "match on more columns"
        )
    keys = []
    for ix, at, targets in windows:
        lens = ix.hi[at] - ix.lo[at]
        n = int(lens.sum())
        flat = np.repeat(ix.lo[at] - (np.cumsum(lens) - lens), lens) + np.arange(n)
        keys.append(np.repeat(targets, lens) * max(n_owners, 1) + ix.win_owner[flat])
    pairs = np.sort(np.concatenate(keys)) if keys else np.zeros(0, dtype=np.int64)
    pairs = pairs[_run_starts(pairs)]  # distinct (a sort: numpy's hashed unique is slower here)
    return pairs // max(n_owners, 1), pairs % max(n_owners, 1)


def join_people(
    pairs: list[_Pair],
    owners: Owners,
    target_of_row: np.ndarray,
    n_targets: int,
    *,
    true_owner: np.ndarray | None = None,
    values: tuple[ValueSets, ...] = (),
    expand_all: bool = False,
) -> _Join:
    """Link every target to the released owners holding a match for each of its rows.

    Parameters
    ----------
    pairs : list of _Pair
        The matched columns (:func:`~riskcore.attacks.linkage.matching._encode_pair`),
        released side per release row, auxiliary side per auxiliary row.
    owners : Owners
        The owner of each release row and what each owner weighs.
    target_of_row : numpy.ndarray
        int64 target of each auxiliary row, in ``[0, n_targets)``.
    n_targets : int
        The number of targets (auxiliary people).
    true_owner : numpy.ndarray, optional
        Per target, its own owner (-1: not released).
    values : tuple of ValueSets
        Per sensitive attribute, the values each owner holds (owners are people).
    expand_all : bool
        Expand every target's window (the general path), also where the
        difference of prefix sums would do; for tests of the two paths.

    Returns
    -------
    _Join
        Per target: the owners' weight (people) in its candidate set, whether
        its own owner is among them, and per sensitive attribute the share of
        candidates holding the commonest value and that value's code.
    """
    n_aux = len(target_of_row)
    join = _Join(
        candidates=np.zeros(n_targets, dtype=np.int64),
        in_set=np.zeros(n_targets, dtype=bool),
        confidence=[np.zeros(n_targets) for _ in values],
        predicted=[np.full(n_targets, -1, dtype=np.int64) for _ in values],
    )
    if n_targets == 0:
        return join
    pattern = _patterns(pairs, n_aux)
    rows_of = np.bincount(target_of_row, minlength=n_targets)
    truth = np.full(n_targets, -1, dtype=np.int64) if true_owner is None else true_owner
    indexes: list[_Index] = []
    pattern_of = np.zeros(n_aux, dtype=np.int64)
    at_of = np.zeros(n_aux, dtype=np.int64)
    for i, pat in enumerate(np.unique(pattern)):
        idx = np.flatnonzero(pattern == pat)
        use = [pr for j, pr in enumerate(pairs) if not (int(pat) >> j) & 1]
        ix = _index(use, idx, owners)
        indexes.append(ix)
        pattern_of[idx], at_of[idx] = i, np.arange(len(idx))
        t = target_of_row[idx]
        fast = (rows_of[t] == 1) & (not ix.ranged) & (not expand_all)
        if not fast.any():
            continue
        at, tf = np.flatnonzero(fast), t[fast]
        weight = np.concatenate(([0], np.cumsum(owners.weight[ix.win_owner]))).astype(np.int64)
        join.candidates[tf] = weight[ix.hi[at]] - weight[ix.lo[at]]
        join.in_set[tf] = ix.member(at, truth[tf])
        for k, vs in enumerate(values):
            best, code = _key_majority(ix, vs)
            n = join.candidates[tf]
            got = ix.found[at] & (n > 0)
            key = np.where(got, ix.key[at], 0)
            join.confidence[k][tf] = np.where(got, best[key] / np.maximum(n, 1), 0.0)
            join.predicted[k][tf] = np.where(got, code[key], -1)
    slow = np.ones(n_targets, dtype=bool) if expand_all else rows_of > 1
    for ix in indexes:
        if ix.ranged:
            slow[target_of_row[ix.rows]] = True
    if slow.any():
        _join_slow(join, indexes, pattern_of, at_of, target_of_row, slow, owners, truth, values)
    return join


def _join_slow(
    join: _Join,
    indexes: list[_Index],
    pattern_of: np.ndarray,
    at_of: np.ndarray,
    target_of_row: np.ndarray,
    slow: np.ndarray,
    owners: Owners,
    truth: np.ndarray,
    values: tuple[ValueSets, ...],
) -> None:
    """Fill ``join`` for the targets of several rows or a tolerance: expand, then intersect."""
    n_targets = len(slow)
    rows = np.flatnonzero(slow[target_of_row])
    size = np.zeros(len(target_of_row), dtype=np.int64)
    for i, ix in enumerate(indexes):
        mine = rows[pattern_of[rows] == i]
        size[mine] = ix.hi[at_of[mine]] - ix.lo[at_of[mine]]
    # the driving row of each target: its smallest window; the others are tested
    order = np.lexsort((size[rows], target_of_row[rows]))
    by_target = rows[order]
    first = _run_starts(target_of_row[by_target])
    driver, others = by_target[first], by_target[~first]
    t_pair, o_pair = _expand(
        [
            (ix, at_of[d], target_of_row[d])
            for i, ix in enumerate(indexes)
            for d in [driver[pattern_of[driver] == i]]
        ],
        owners.n,
    )
    keep = np.ones(len(t_pair), dtype=bool)
    if len(others):
        # each pair against each other row of its target
        o_target = target_of_row[others]
        o_ptr = np.concatenate(([0], np.cumsum(np.bincount(o_target, minlength=n_targets))))
        n_checks = o_ptr[t_pair + 1] - o_ptr[t_pair]
        total = int(n_checks.sum())
        if total > MAX_PAIRS:
            raise RiskcoreError(
                f"linking these targets to people would test {total:,} (person, row) pairs, "
                f"more than {MAX_PAIRS:,}: give the attacker's table one row per person"
            )
        pair = np.repeat(np.arange(len(t_pair)), n_checks)
        within = np.arange(total) - np.repeat(np.cumsum(n_checks) - n_checks, n_checks)
        row = others[o_ptr[t_pair[pair]] + within]
        ok = np.zeros(total, dtype=bool)
        for i, ix in enumerate(indexes):
            sel = pattern_of[row] == i
            ok[sel] = ix.member(at_of[row[sel]], o_pair[pair[sel]])
        keep = np.bincount(pair[~ok], minlength=len(t_pair)) == 0
    t_pair, o_pair = t_pair[keep], o_pair[keep]
    counts = np.bincount(t_pair, weights=owners.weight[o_pair], minlength=n_targets)
    join.candidates[slow] = counts.astype(np.int64)[slow]
    own = np.zeros(n_targets, dtype=bool)
    own[t_pair[o_pair == truth[t_pair]]] = True
    join.in_set[slow] = own[slow]
    for k, vs in enumerate(values):
        nv = vs.ptr[o_pair + 1] - vs.ptr[o_pair]
        total = int(nv.sum())
        take = np.repeat(vs.ptr[o_pair] - (np.cumsum(nv) - nv), nv) + np.arange(total)
        table = Contingency.from_cells(
            "target",
            np.repeat(t_pair, nv),
            vs.values[take],
            np.ones(total, dtype=np.int64),
            n_classes=n_targets,
            labels=np.arange(len(vs.people)),
            ordered=False,
        )
        best, code = class_majority(table)
        n = join.candidates
        join.confidence[k][slow] = np.where(n > 0, best / np.maximum(n, 1), 0.0)[slow]
        join.predicted[k][slow] = np.where(n > 0, code, -1)[slow]
