"""The losses of the lattice's nodes: each node evaluated, and the bounds the search prunes with.

:class:`LatticeLosses` is the part of :class:`~riskcore.deidentify.search.lattice.Lattice`
that turns a node's judged classes into its :class:`~riskcore.deidentify.search.node.NodeResult`
(:meth:`LatticeLosses.evaluate`: suppression, verdict and every objective of
:mod:`riskcore.utility.loss`; :meth:`LatticeLosses.as_recorded`: the table
as it is) and that bounds the loss of a node and of every more general node
for the least-loss search (:func:`riskcore.deidentify.search.run.search`).

NCP, precision, ARX's Loss and non-uniform entropy are at least their value
without suppression, a sum of one term per QI and level, non-decreasing up
every QI's hierarchy (:meth:`LatticeLosses.lower_bound_terms`); AECS,
discernibility and DM* are bounded by an evaluated node's classes before
suppression (:meth:`LatticeLosses.node_bound`). The lattice, its classes and
their verdicts live in :mod:`riskcore.deidentify.search.lattice`, which mixes this
class in.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from riskcore.criteria import Targets, evaluate
from riskcore.deidentify.search.node import NodeResult
from riskcore.deidentify.search.node_losses import LossTables, QiLosses
from riskcore.deidentify.search.rollup import ClassTables, NodeClasses
from riskcore.deidentify.search.signatures import PersonBase
from riskcore.deidentify.search.steering import Steering
from riskcore.engine.contract import ClassTable, Contingency
from riskcore.metrics.evidence import Evidence
from riskcore.metrics.missing import MissingPolicy
from riskcore.utility.loss import (
    OBJECTIVES,
    Objective,
    check_objective,
    sensitive_distortion,
)

__all__ = ["LatticeLosses"]


class LatticeLosses:
    """Each node's result with its losses, and lower bounds of the losses (a mixin).

    Mixed into :class:`~riskcore.deidentify.search.lattice.Lattice`, which sets the
    attributes declared here and calls :meth:`_init_bounds` once its loss
    tables are built.
    """

    quasi_identifiers: tuple[str, ...]
    events: tuple[str, ...]
    _nq: int
    _unit_base: np.ndarray | None
    _unit_rows: np.ndarray | None
    _unit_events: list[np.ndarray] | None
    _maps: list[list[np.ndarray]]
    heights: tuple[int, ...]
    n: int
    n_rows: int
    _people: PersonBase | None
    _class_codes: list[list[np.ndarray]]
    targets: Targets
    steering: Steering
    sensitive: tuple[str, ...]
    missing: MissingPolicy
    contingencies: dict[str, Contingency]
    base: ClassTable
    _tables: ClassTables
    _losses: LossTables
    _entropy: list[np.ndarray]

    if TYPE_CHECKING:  # defined by the lattice

        def _check_levels(self, levels: Sequence[int]) -> tuple[int, ...]: ...

        def _evidence(
            self,
            node: NodeClasses,
            ids: np.ndarray | None,
            people: np.ndarray | None = None,
            events: Sequence[int] = (),
        ) -> Evidence: ...

        def evidence(self, levels: Sequence[int]) -> tuple[np.ndarray, Evidence]: ...

        def removed(self, levels: Sequence[int]) -> tuple[str, ...]: ...

        def _node_people(
            self, levels: tuple[int, ...], ids: np.ndarray
        ) -> tuple[np.ndarray, np.ndarray]: ...

    def _init_bounds(self) -> None:
        """Set the per-QI weights and each objective's per-QI terms without suppression."""
        w = np.asarray([self.steering.weight(q) for q in self.quasi_identifiers])
        #: Per QI, its weight in a weighted mean (NCP, precision: w_i / sum w) and in ARX's
        #: aggregates (w_i / max w, ``AbstractMetricMultiDimensional``).
        self._w_mean = w / w.sum()
        self._w_arx = w / w.max()
        # per QI and level, the QI's part of each objective without suppression (a mean over
        # records (rows); entropy in bits): non-decreasing up the hierarchy
        n = max(self.n_rows, 1)
        self._qi_lb: dict[str, list[np.ndarray]] = {
            "ncp": [np.asarray([t[0] for t in totals]) / n for totals in self._losses.cost_total],
            "precision": [np.arange(hh + 1) / max(hh, 1) for hh in self.heights],
            "loss": [
                self._losses.arx_loss(np.asarray([t[1] for t in totals]), 0, qi=i)
                for i, totals in enumerate(self._losses.cost_total)
            ],
            "entropy": self._entropy,
        }
        self._ncp_terms = [self._w_mean[i] * t for i, t in enumerate(self._qi_lb["ncp"])]

    def lower_bound_terms(self, objective: Objective = "ncp") -> list[np.ndarray]:
        """Return, per QI, the objective's term of each level 0..height (see the module).

        The terms add up to a monotone transform of the objective without
        suppression, a lower bound of the node's loss and of every more
        general node's: the objective itself for NCP, precision, ARX's
        arithmetic Loss and entropy (per-QI weights applied); log(1 + Loss)
        for ARX's geometric Loss (:meth:`key`); zeros for AECS,
        discernibility and DM*, which are bounded per node instead
        (:meth:`node_bound`).

        Parameters
        ----------
        objective : Objective, optional
            The loss minimized (:data:`riskcore.utility.objectives.OBJECTIVES`).

        Returns
        -------
        list of numpy.ndarray

        Raises
        ------
        RiskcoreError
            For an unknown objective.
        """
        check_objective(objective)
        m = len(self.quasi_identifiers)
        if OBJECTIVES[objective].bound == "node":
            return [np.zeros(h + 1) for h in self.heights]
        if objective == "loss_geometric":
            return [np.log1p(self._w_arx[i] * t) / m for i, t in enumerate(self._qi_lb["loss"])]
        factor = self._w_mean if objective in ("ncp", "precision") else self._w_arx
        if objective == "loss":
            factor = factor / m
        return [factor[i] * t for i, t in enumerate(self._qi_lb[objective])]

    def lower_bound(self, levels: Sequence[int], objective: Objective = "ncp") -> float:
        """Return the lower bound of ``levels`` (the sum of :meth:`lower_bound_terms`).

        Parameters
        ----------
        levels : sequence of int
            The node: one level per QI, in the lattice's order.
        objective : Objective, optional
            The loss minimized.

        Returns
        -------
        float
        """
        terms = zip(self.lower_bound_terms(objective), levels, strict=True)
        return float(sum(t[x] for t, x in terms))

    @staticmethod
    def key(objective: Objective, loss: float) -> float:
        """Return ``loss`` in the space of :meth:`lower_bound_terms` (log1p for geometric Loss).

        Parameters
        ----------
        objective : Objective
            The loss minimized.
        loss : float
            A node's loss under it.

        Returns
        -------
        float
        """
        return math.log1p(loss) if objective == "loss_geometric" else loss

    def node_bound(self, node: NodeResult, objective: Objective) -> float:
        """Return a lower bound of the loss of ``node`` and of every generalization of it.

        The bound is in :meth:`key` space.

        AECS: n / (classes before suppression), since a generalization has no
        more classes and suppression only merges classes into one; DM* and
        discernibility: DM* of the node, since merging classes raises the sum
        of squares and a suppressed record costs n >= f_j. The other
        objectives: their lower bound of the levels.

        Parameters
        ----------
        node : NodeResult
            An evaluated node.
        objective : Objective
            The loss minimized.

        Returns
        -------
        float
            The lower bound, in :meth:`key` space.
        """
        if objective == "aecs":
            return self.n / max(node.all_classes, 1)
        if objective in ("dm_star", "discernibility"):
            return node.dm_star
        return self.lower_bound(node.levels, objective)

    def evaluate(self, levels: Sequence[int]) -> NodeResult:
        """Evaluate one node: suppression, whether it meets the targets, and its losses.

        Parameters
        ----------
        levels : sequence of int
            The node: one level per QI, in the lattice's order.

        Returns
        -------
        NodeResult
        """
        lv = self._check_levels(levels)
        node = self._tables.get(lv[: self._nq])
        if self._people is None:
            ev = self._evidence(node, node.ids)
            verdict = evaluate(self.targets, ev, suppress=True)
            bad = verdict.failing[: node.n_classes]  # (not the absent population classes)
            sizes = node.sizes
            q = self._losses.losses(lv, node.codes, sizes, bad)
            kept_base = ~bad[node.ids] if node.ids is not None else bad
            suppressed_rows = None
        else:  # classes of people; the losses over the units' rows
            assert node.ids is not None  # noqa: S101 - tracked with a person column
            owner, sizes = self._node_people(node.levels, node.ids)
            ev = self._evidence(node, owner, sizes, lv[self._nq :])
            verdict = evaluate(self.targets, ev, suppress=True)
            bad = verdict.failing[: len(sizes)]
            unit_bad = bad[self._people.unit_classes(owner)]
            q = self._unit_losses(lv, unit_bad)
            kept_base = ~bad[owner]  # per base signature: the contingencies' classes
            suppressed_rows = int(self.base.sizes[unit_bad].sum())
        suppressed = int(sizes[bad].sum())
        m = len(self.quasi_identifiers)
        ncp_q, prec_q, loss_q, ent_q = q.ncp, q.precision, q.loss, q.entropy
        weighted: dict[str, float] = {}
        if not self.steering.empty:
            weighted = {
                "ncp": float(self._w_mean @ ncp_q),
                "precision": float(self._w_mean @ prec_q),
                "loss": float(self._w_arx @ loss_q) / m,
                "loss_geometric": float(np.prod((self._w_arx * loss_q + 1) ** (1 / m)) - 1),
                "entropy": float(self._w_arx @ ent_q),
            }
        released = sizes[~bad]
        n_rel = int(released.sum())
        if self.missing == "own":
            judged = ev.sizes[: len(bad)][~bad]
        else:
            judged = ev.restrict(~bad).sizes
        distortion = {
            s: sensitive_distortion(self.contingencies[s], kept_base) for s in self.sensitive
        }
        squares = sizes.astype(np.float64) ** 2
        dm = float(squares[~bad].sum()) + float(suppressed) * self.n
        return NodeResult(
            levels=lv,
            anonymous=verdict.passed,
            suppressed=suppressed,
            n_classes=len(released),
            k=int(judged.min()) if len(judged) else 0,
            ncp=float(ncp_q.mean()),
            precision=float(prec_q.mean()),
            discernibility=dm,
            avg_class_size=(n_rel / len(released)) / self.targets.k_required
            if len(released)
            else float("nan"),
            success_rate=len(released) / n_rel if n_rel else float("nan"),
            lower_bound=float(sum(t[x] for t, x in zip(self._ncp_terms, lv, strict=True))),
            distortion=distortion,
            verdict=dataclasses.replace(verdict, failing=np.zeros(0, dtype=bool)),
            loss_arithmetic=float(loss_q.mean()),
            loss_geometric=float(np.prod((loss_q + 1) ** (1 / m)) - 1),
            aecs=self.n / (len(released) + (suppressed > 0)) if self.n else float("nan"),
            dm_star=float(squares.sum()),
            entropy=float(ent_q.sum()),
            all_classes=len(sizes),
            weighted=weighted,
            removed=self.removed(lv),
            suppressed_rows=suppressed_rows,
        )

    def _unit_losses(self, lv: tuple[int, ...], unit_bad: np.ndarray) -> QiLosses:
        """Return the losses of the units' rows with a person column, ``unit_bad`` suppressed.

        Without events the units are the base units; with events each unit is
        a (base unit, event tuple) and carries both codes
        (:meth:`~riskcore.deidentify.search.lattice.Lattice._event_base`).
        """
        nq = self._nq
        if self._unit_base is None:
            codes = np.stack([self._class_codes[i][x] for i, x in enumerate(lv)])
            return self._losses.losses(lv, codes, self.base.sizes, unit_bad)
        assert self._unit_rows is not None and self._unit_events is not None  # noqa: S101
        base = self._unit_base
        rows = [self._class_codes[i][x][base] for i, x in enumerate(lv[:nq])]
        rows += [
            self._maps[nq + j][x][c]
            for j, (x, c) in enumerate(zip(lv[nq:], self._unit_events, strict=True))
        ]
        return self._losses.losses(lv, np.stack(rows), self._unit_rows, unit_bad[base])

    def as_recorded(self) -> NodeResult:
        """Return the table as recorded: every QI at level 0 and nothing suppressed.

        ``anonymous`` says whether it meets the targets without suppressing
        anything; the losses are 0.

        Returns
        -------
        NodeResult
        """
        bottom = self.evaluate([0] * len(self.quasi_identifiers))
        sizes = self.base.sizes if self._people is None else self._people.owner_people
        _, ev = self.evidence(bottom.levels)
        verdict = evaluate(self.targets, ev)  # the table as it is: nothing suppressed
        return NodeResult(
            levels=bottom.levels,
            anonymous=verdict.passed,
            suppressed=0,
            n_classes=len(sizes),
            k=int(ev.sizes.min()),
            ncp=0.0,
            precision=0.0,
            discernibility=float(np.sum(sizes.astype(np.float64) ** 2)),
            avg_class_size=(self.n / len(sizes)) / self.targets.k_required,
            success_rate=len(sizes) / self.n,
            lower_bound=0.0,
            distortion=dict.fromkeys(self.sensitive, 0.0),
            verdict=dataclasses.replace(verdict, failing=np.zeros(0, dtype=bool)),
            loss_arithmetic=0.0,
            loss_geometric=0.0,
            aecs=self.n / len(sizes),
            dm_star=float(np.sum(sizes.astype(np.float64) ** 2)),
            entropy=0.0,
            all_classes=len(sizes),
            weighted=dict.fromkeys(bottom.weighted, 0.0),
            removed=bottom.removed,
            suppressed_rows=None if self._people is None else 0,
        )
