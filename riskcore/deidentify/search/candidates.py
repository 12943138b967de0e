"""Candidate solutions of a least-loss search: every anonymous node, filtered, and two compared.

The search (:func:`riskcore.deidentify.search.run.search`) returns one node; the
nodes it evaluated (all of them for a small lattice) are the candidates a
privacy officer chooses among, as in ARX's solution lattice. This module
lists them, one row per anonymous node (:class:`Candidate`):

* per QI its level and the level in words
  (:func:`~riskcore.deidentify.hierarchy.level_words`);
* every objective's loss (:data:`~riskcore.utility.objectives.OBJECTIVES`,
  as :class:`~riskcore.deidentify.search.node.NodeResult` holds them);
* records suppressed, classes released, the smallest released class, the
  average re-identification risk (released classes / released records);
* what each target achieves, read from the node's
  :class:`~riskcore.criteria.Verdict` (the criteria judged the node with
  suppression; nothing is judged again here);
* records at risk: released records whose prosecutor risk 1/f exceeds the
  threshold (El Emam 2013), counted by the record-risk criterion
  (:class:`~riskcore.criteria.models.RecordRisk`) on the node's release.

**Many candidates.** When more than ``limit`` (:data:`MAX_ROWS`) anonymous
nodes meet the filters, the table holds their Pareto front of average risk
against the search objective's loss as the search compares it (per-QI
weights applied; the table's loss columns are the standard definitions)
(no other listed node is lower on both;
ties in both keep the lexicographically smaller levels), and says so
(:attr:`CandidateTable.front_only`). Filters (a highest and a lowest level
per QI: "keep the year of birth" is a highest level) apply before the front
is taken, so a filter never empties the table for want of a front node.

:func:`compare_candidates` sets two nodes side by side: the per-column NCP,
classes, suppression, targets achieved, records at risk and a sample of the
same released records under each.

Everything over nodes is numpy over arrays of the nodes' figures; a node's
records at risk regroups the lattice's base classes (never the rows) and is
needed only when its smallest class is below 1 / threshold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from riskcore._deprecation import renamed_fields
from riskcore._results import NOT_IN_JSON, Result
from riskcore.criteria import evaluate
from riskcore.criteria.models import RecordRisk
from riskcore.deidentify.hierarchy import Hierarchy, at_leaves, level_words
from riskcore.deidentify.search.lattice import Lattice
from riskcore.deidentify.search.node import NodeResult
from riskcore.deidentify.search.run import SearchResult
from riskcore.errors import RiskcoreError
from riskcore.metrics.anonymity import exceeds
from riskcore.utility.loss import column_penalties
from riskcore.utility.objectives import OBJECTIVES, Objective, check_objective

__all__ = [
    "MAX_ROWS",
    "Candidate",
    "CandidateTable",
    "Comparison",
    "candidate_table",
    "column_ncp",
    "compare_candidates",
    "pareto_mask",
    "records_at_risk",
]

#: "Many": above this many anonymous nodes (after the filters) the table holds their Pareto
#: front of risk against loss. 500 rows is more than a person scans, and a table of 500 renders
#: in about a second after the search at worst (each row's records at risk may regroup the
#: classes, ~2 ms a node on Adult; benchmarks/bench_candidates.py); the front of Adult at 8
#: QIs (1,620 anonymous of 7,776 nodes) has 32 rows.
MAX_ROWS = 500


def _achieved_key(kind: str, attribute: str | None) -> str:
    return kind if attribute is None else f"{kind} ({attribute})"


@dataclass(frozen=True)
class Candidate(Result):
    """One anonymous node of the lattice, as the candidate table lists it.

    Attributes
    ----------
    levels : tuple of int
        Level per QI (in the search's QI order).
    words : tuple of str
        Each level in words ("10-year bands", "removed (*)").
    losses : dict of str to float
        Every objective's loss (:data:`~riskcore.utility.objectives.OBJECTIVES`;
        the standard definitions, every QI weighing the same).
    suppressed : int
        Records suppressed.
    classes : int
        Classes released.
    smallest_class : int
        Size of the smallest released class (k achieved).
    average_risk : float
        Released classes / released records (prosecutor; NaN when nothing is released).
    achieved : dict of str to float
        Per target judged (its kind, and the sensitive attribute in brackets), the value the
        release achieves: the node's verdict's checks.
    records_at_risk : int or None
        Released records whose prosecutor risk 1/f exceeds the threshold; None when not
        counted (no lattice given and the smallest class below 1 / threshold).
    best : bool
        True for the search's optimum.
    """

    levels: tuple[int, ...]
    words: tuple[str, ...]
    losses: dict[str, float]
    suppressed: int
    classes: int
    smallest_class: int
    average_risk: float
    achieved: dict[str, float] = field(default_factory=dict)
    records_at_risk: int | None = None
    best: bool = False


@renamed_fields(qis="quasi_identifiers")
@dataclass(frozen=True)
class CandidateTable(Result):
    """The candidate solutions of a search (see the module).

    Attributes
    ----------
    quasi_identifiers : tuple of str
        The quasi-identifier columns.
    objective : str
        The search's objective: the loss of the Pareto front.
    threshold : float
        The record-risk threshold the records at risk are counted by.
    evaluated : int
        Nodes the search result holds.
    anonymous : int
        Of those, the ones meeting the targets.
    matching : int
        Of those, the ones within the filters.
    front_only : bool
        True when ``matching`` exceeded ``limit`` and the rows are their Pareto front.
    limit : int
    filters : dict of str to (int, int)
        Per QI filtered, the lowest and highest level kept.
    rows : tuple of Candidate
        By the search objective's loss, then average risk, then levels.
    """

    #: 2: ``qis`` renamed ``quasi_identifiers`` (version 1 still reads).
    schema_version: ClassVar[int] = 2

    quasi_identifiers: tuple[str, ...]
    objective: str
    threshold: float
    evaluated: int
    anonymous: int
    matching: int
    front_only: bool
    limit: int
    filters: dict[str, tuple[int, int]] = field(default_factory=dict)
    rows: tuple[Candidate, ...] = ()

    def frame(self) -> pd.DataFrame:
        """Return one row per candidate: levels, words, losses, suppression, classes, risk.

        Columns: per QI its level (``<qi>``) and its words (``<qi> (in words)``), then
        ``suppressed``, ``classes``, ``smallest class``, ``average risk``, ``records at
        risk``, each objective by its name, each target achieved (``<kind> achieved``) and
        ``best``. Levels and figures stay numbers, so the table sorts by any column.

        Returns
        -------
        pandas.DataFrame
        """
        cols: dict[str, Any] = {}
        rows = self.rows
        lv = np.asarray([r.levels for r in rows], dtype=np.int64).reshape(
            len(rows), len(self.quasi_identifiers)
        )
        for i, q in enumerate(self.quasi_identifiers):
            cols[q] = lv[:, i]
            cols[f"{q} (in words)"] = [r.words[i] for r in rows]
        cols["suppressed"] = [r.suppressed for r in rows]
        cols["classes"] = [r.classes for r in rows]
        cols["smallest class"] = [r.smallest_class for r in rows]
        cols["average risk"] = [r.average_risk for r in rows]
        cols["records at risk"] = pd.array([r.records_at_risk for r in rows], dtype="Int64")
        for name in OBJECTIVES:
            cols[name] = [r.losses.get(name, np.nan) for r in rows]
        for key in dict.fromkeys(k for r in rows for k in r.achieved):
            cols[f"{key} achieved"] = [r.achieved.get(key, np.nan) for r in rows]
        cols["best"] = [r.best for r in rows]
        return pd.DataFrame(cols)


def pareto_mask(loss: np.ndarray, risk: np.ndarray) -> np.ndarray:
    """Return which points no other point beats on both ``loss`` and ``risk`` (lower better).

    Of points equal on both, the first (in input order) is kept. Sorted once by (loss,
    risk), a point is on the front when its risk is below every earlier point's (a running
    minimum): O(N log N), no loop.

    Parameters
    ----------
    loss, risk : numpy.ndarray
        One value per point; NaN risk counts as the worst.

    Returns
    -------
    numpy.ndarray
        bool, one per point.
    """
    loss = np.asarray(loss, dtype=np.float64)
    risk = np.where(np.isnan(risk), np.inf, np.asarray(risk, dtype=np.float64))
    order = np.lexsort((np.arange(len(loss)), risk, loss))
    r = risk[order]
    before = np.minimum.accumulate(np.concatenate([[np.inf], r[:-1]]))
    keep = np.zeros(len(loss), dtype=bool)
    keep[order] = r < before - 1e-15
    return keep


def records_at_risk(lattice: Lattice, levels: Sequence[int], threshold: float) -> int:
    """Return the released records of a node whose prosecutor risk exceeds ``threshold``.

    The node's classes are judged by its targets with suppression
    (:meth:`Lattice.judge`); the release (the classes not suppressed) is then
    judged, as it is, by the record-risk criterion
    (:class:`~riskcore.criteria.models.RecordRisk`, 1/f_j above the
    threshold; El Emam 2013): its failing records.

    Parameters
    ----------
    lattice : Lattice
        The generalization lattice of the table.
    levels : sequence of int
        The node: one level per QI, in the lattice's order.
    threshold : float
        The record-risk threshold.

    Returns
    -------
    int

    Raises
    ------
    RiskcoreError
        For a threshold outside (0, 1] (the criterion's own refusal) or levels that do
        not fit the lattice.
    """
    _, ev, verdict = lattice.judge(levels)
    released = ev.restrict(~verdict.failing) if verdict.within_limit else ev
    if released.n_classes == 0:
        return 0
    check = evaluate([RecordRisk(threshold=threshold)], released).checks[0]
    return int(check.failing_records)


def _node_row(
    node: NodeResult, words: Sequence[Sequence[str]], best: NodeResult | None
) -> dict[str, Any]:
    achieved = {}
    if node.verdict is not None:
        achieved = {
            _achieved_key(c.kind, c.attribute): float(c.achieved) for c in node.verdict.checks
        }
    return {
        "levels": node.levels,
        "words": tuple(words[i][x] for i, x in enumerate(node.levels)),
        "losses": {name: _plain_loss(node, name) for name in OBJECTIVES},
        "suppressed": node.suppressed,
        "classes": node.n_classes,
        "smallest_class": node.k,
        "average_risk": node.success_rate if node.n_classes else float("nan"),
        "achieved": achieved,
        "best": best is not None and node.levels == best.levels,
    }


def _plain_loss(node: NodeResult, name: str) -> float:
    """Return the standard (unweighted) loss of ``node`` under objective ``name``."""
    attr = "loss_arithmetic" if name == "loss" else name
    return float(getattr(node, attr))


def _level_words(lattice_heights: Sequence[int], hierarchies: Mapping[str, Hierarchy],
                 qis: Sequence[str]) -> list[list[str]]:  # fmt: skip
    return [[level_words(hierarchies[q], lv) for lv in range(h + 1)]
            for q, h in zip(qis, lattice_heights, strict=True)]  # fmt: skip


def candidate_table(
    result: SearchResult,
    hierarchies: Mapping[str, Hierarchy],
    *,
    lattice: Lattice | None = None,
    threshold: float = 1 / 11,
    filters: Mapping[str, tuple[int, int]] | None = None,
    limit: int = MAX_ROWS,
) -> CandidateTable:
    """Return the anonymous nodes of a search as a candidate table (see the module).

    Parameters
    ----------
    result : SearchResult
        The search; its ``visited`` nodes are the candidates (every node of the lattice when
        they were all evaluated, :func:`~riskcore.deidentify.search.run.evaluate_all`).
    hierarchies : mapping of str to Hierarchy
        The hierarchy of each QI (the levels' words).
    lattice : Lattice, optional
        The lattice searched; needed to count the records at risk of a node whose smallest
        class is below 1 / threshold (else None there).
    threshold : float, default 1/11
        The record-risk threshold (the profile's :attr:`~riskcore.profile.Profile.threshold`).
    filters : mapping of str to (int, int), optional
        Per QI, the lowest and highest level a candidate may have ("keep the year of
        birth": the highest level that keeps it).
    limit : int, default :data:`MAX_ROWS` (500)
        Above this many matching nodes, only their Pareto front is listed.

    Returns
    -------
    CandidateTable

    Raises
    ------
    RiskcoreError
        For a filter on a column that is not a QI, a filter whose lowest level is above its
        highest, a hierarchy missing for a QI, a limit below 1 or a threshold outside (0, 1].
    """
    qis = tuple(result.quasi_identifiers)
    objective: Objective = check_objective(result.objective)
    missing = [q for q in qis if q not in hierarchies]
    if missing:
        raise RiskcoreError(f"no hierarchy for the quasi-identifier {missing[0]!r}")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise RiskcoreError(
            f"the limit of rows must be a whole number of at least 1, not {limit!r}"
        )
    if not 0 < threshold <= 1:
        raise RiskcoreError(f"the record-risk threshold must be in (0, 1], not {threshold!r}")
    bounds = {}
    for q, pair in dict(filters or {}).items():
        if q not in qis:
            raise RiskcoreError(
                f"{q!r} is filtered but is not a quasi-identifier ({', '.join(qis)})"
            )
        lo, hi = int(pair[0]), int(pair[1])
        if lo > hi:
            raise RiskcoreError(f"the lowest level of {q!r} ({lo}) is above its highest ({hi})")
        bounds[q] = (lo, hi)
    nodes = [r for r in result.visited if r.anonymous]
    # one node per combination of levels (a search re-visits none, but a merged list might)
    seen: dict[tuple[int, ...], NodeResult] = {}
    for r in nodes:
        seen.setdefault(r.levels, r)
    nodes = list(seen.values())
    m = len(qis)
    lv = np.asarray([r.levels for r in nodes], dtype=np.int64).reshape(len(nodes), m)
    keep = np.ones(len(nodes), dtype=bool)
    for q, (lo, hi) in bounds.items():
        col = lv[:, qis.index(q)]
        keep &= (col >= lo) & (col <= hi)
    idx = np.flatnonzero(keep)
    loss = np.asarray([nodes[i].loss(objective) for i in idx], dtype=np.float64)
    risk = np.asarray(
        [nodes[i].success_rate if nodes[i].n_classes else np.nan for i in idx], dtype=np.float64
    )
    front_only = len(idx) > limit
    if front_only:
        on = pareto_mask(loss, risk)
        idx, loss, risk = idx[on], loss[on], risk[on]
    # by loss, then risk, then levels (lexicographic)
    order = np.lexsort(
        (*[lv[idx, i] for i in range(m - 1, -1, -1)], np.nan_to_num(risk, nan=np.inf), loss)
    )
    idx = idx[order]
    words = _level_words(result.heights, hierarchies, qis)
    rows = []
    for i in idx:
        node = nodes[i]
        row = _node_row(node, words, result.best)
        if node.n_classes == 0 or not exceeds(1.0 / node.k, threshold):
            at_risk: int | None = 0  # every released class has at least k >= 1/threshold records
        elif lattice is not None:
            at_risk = records_at_risk(lattice, node.levels, threshold)
        else:
            at_risk = None
        rows.append(Candidate(**row, records_at_risk=at_risk))
    return CandidateTable(
        quasi_identifiers=qis,
        objective=objective,
        threshold=float(threshold),
        evaluated=len(result.visited),
        anonymous=len(nodes),
        matching=int(keep.sum()),
        front_only=front_only,
        limit=limit,
        filters=bounds,
        rows=tuple(rows),
    )


@renamed_fields(qis="quasi_identifiers")
@dataclass(frozen=True)
class Comparison(Result):
    """Two candidates side by side (:func:`compare_candidates`).

    Attributes
    ----------
    quasi_identifiers : tuple of str
        The quasi-identifier columns.
    a, b : Candidate
        The two nodes, with their records at risk counted.
    column_ncp_a, column_ncp_b : dict of str to float
        Per QI, its normalized certainty penalty under each node (a suppressed cell costs 1;
        their mean over the QIs is the node's NCP).
    sample : pandas.DataFrame
        The same released records under both: the row number in the file (the first data
        row is 1, as on every page), then per QI
        the value as recorded and its label under A and under B (not in JSON: it holds
        values of the data).
    """

    #: 2: ``qis`` renamed ``quasi_identifiers`` (version 1 still reads).
    schema_version: ClassVar[int] = 2

    quasi_identifiers: tuple[str, ...]
    a: Candidate
    b: Candidate
    column_ncp_a: dict[str, float]
    column_ncp_b: dict[str, float]
    sample: pd.DataFrame = field(default_factory=pd.DataFrame, compare=False, metadata=NOT_IN_JSON)


def _penalties(lattice: Lattice) -> list[list[np.ndarray]]:
    """Return, per QI and level, the certainty penalty of every base class's value."""
    out = []
    for i, q in enumerate(lattice.quasi_identifiers):
        h = lattice.hierarchies[q]
        leaf = h.leaf_index(pd.Series(lattice.base.labels[i], dtype=object))
        out.append([pen[lattice.base.keys[i]] for pen in column_penalties(h, leaf)])
    return out


def column_ncp(
    lattice: Lattice, levels: Sequence[int], *, _pens: list[list[np.ndarray]] | None = None
) -> dict[str, float]:
    """Return each QI's normalized certainty penalty under a node (Xu et al. 2006).

    Per QI, the mean over all records of the certainty penalty of the
    record's generalized value (:func:`~riskcore.utility.loss.column_penalties`),
    a suppressed record costing 1: the terms whose mean over the QIs is the
    node's NCP (:attr:`NodeResult.ncp`). Summed over the base classes, not the rows.

    Parameters
    ----------
    lattice : Lattice
        The generalization lattice of the table.
    levels : sequence of int
        The node: one level per QI, in the lattice's order.

    Returns
    -------
    dict of str to float

    Raises
    ------
    RiskcoreError
        For levels that do not fit the lattice.
    """
    ids, _, bad = lattice.failing(levels)
    kept = ~bad[ids]  # per base class
    rows = lattice.base.sizes.astype(np.float64)  # the cells are the rows' (people or not)
    f = np.where(kept, rows, 0.0)
    suppressed = float(rows[~kept].sum())
    n = max(lattice.n_rows, 1)
    pens = _pens if _pens is not None else _penalties(lattice)
    return {
        q: float((np.einsum("j,j->", f, pens[i][int(levels[i])]) + suppressed) / n)
        for i, q in enumerate(lattice.quasi_identifiers)
    }


def _labels_at(h: Hierarchy, values: pd.Series, level: int) -> np.ndarray:
    """Return each value's label at ``level`` of hierarchy ``h`` (None for a missing one)."""
    codes, labels = h.codes(level)
    names = np.asarray([*labels, None], dtype=object)
    out: np.ndarray = names[at_leaves(codes, h.leaf_index(values), len(labels))]
    return out


def compare_candidates(
    lattice: Lattice,
    data: pd.DataFrame,
    a: Sequence[int],
    b: Sequence[int],
    *,
    threshold: float = 1 / 11,
    sample: int = 5,
) -> Comparison:
    """Return two nodes of a lattice side by side (see the module).

    Parameters
    ----------
    lattice : Lattice
        The lattice searched.
    data : pandas.DataFrame
        The table the lattice was built from (same rows, same order): the sample's values.
    a, b : sequence of int
        The two nodes' levels, one per QI.
    threshold : float, default 1/11
        The record-risk threshold of the records at risk.
    sample : int, default 5
        Records of the sample: released under both, evenly spread over the table.

    Returns
    -------
    Comparison

    Raises
    ------
    RiskcoreError
        For levels that do not fit the lattice, a table of another length, or a sample
        below 0.
    """
    if len(data) != lattice.n_rows:
        raise RiskcoreError(
            f"the table has {len(data):,} rows and the lattice {lattice.n_rows:,}: compare the "
            "candidates on the table the search ran on"
        )
    if isinstance(sample, bool) or not isinstance(sample, int) or sample < 0:
        raise RiskcoreError(f"the sample is a whole number of records (0 or more), not {sample!r}")
    words = _level_words(lattice.heights, lattice.hierarchies, lattice.quasi_identifiers)
    pair = []
    kept = []
    for levels in (a, b):
        node = lattice.evaluate(levels)  # checks the levels
        row = _node_row(node, words, None)
        pair.append(
            Candidate(**row, records_at_risk=records_at_risk(lattice, node.levels, threshold))
        )
        kept.append(~lattice.record_failing(node.levels))
    pens = _penalties(lattice)  # once for both
    both = np.flatnonzero(kept[0] & kept[1])
    pick = np.unique(np.linspace(0, len(both) - 1, min(sample, len(both))).astype(np.int64))
    rows = both[pick] if len(both) else both
    cols: dict[str, Any] = {"row": rows + 1}  # the file's row number: the first data row is 1
    for i, q in enumerate(lattice.quasi_identifiers):
        values = data[q].iloc[rows].reset_index(drop=True)
        h = lattice.hierarchies[q]
        cols[q] = values.astype(object).to_numpy()
        cols[f"{q} (A)"] = _labels_at(h, values, pair[0].levels[i])
        cols[f"{q} (B)"] = _labels_at(h, values, pair[1].levels[i])
    return Comparison(
        quasi_identifiers=lattice.quasi_identifiers,
        a=pair[0],
        b=pair[1],
        column_ncp_a=column_ncp(lattice, pair[0].levels, _pens=pens),
        column_ncp_b=column_ncp(lattice, pair[1].levels, _pens=pens),
        sample=pd.DataFrame(cols),
    )
