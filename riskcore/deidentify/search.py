"""The search for the least-loss node of a generalization lattice, and its baselines.

A node (:class:`~riskcore.deidentify.lattice.Lattice`, one level per
quasi-identifier, the classes breaking the targets suppressed) is anonymous
when the suppressed records stay within the limit (ARX's semantics, Prasser
et al. 2014). Its loss (:mod:`riskcore.deidentify.loss`) is at least its
value without suppression, which is a sum of one term per QI and level,
non-decreasing up every QI's hierarchy: a lower bound of the loss of every
more general node. :func:`search` visits nodes in increasing lower bound and
stops when the bound reaches the best loss found (branch and bound). It
returns the exact optimum of the chosen loss over the whole lattice,
whatever the targets; the monotonicity that Flash (Kohlmayer et al. 2012)
and OLA (El Emam et al. 2009) use to skip anonymity checks holds only for
some targets under suppression (k-anonymity and distinct l-diversity; not
entropy or recursive l-diversity nor t-closeness, where merging a class that
passes with one that fails can make a failing class), while the bound holds
for all.

:func:`evaluate_all` evaluates every node (the risk-loss plot of a small
lattice); :func:`greedy_search` is a one-QI-at-a-time baseline.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from riskcore._results import NOT_IN_JSON, Result
from riskcore.criteria import Targets
from riskcore.deidentify.lattice import Lattice, NodeResult, Objective
from riskcore.errors import RiskcoreError

__all__ = [
    "SearchResult",
    "evaluate_all",
    "greedy_search",
    "search",
]


@dataclass(frozen=True)
class SearchResult(Result):
    """The least-loss anonymous node and the nodes the search visited.

    Attributes
    ----------
    qis : tuple of str
    heights : tuple of int
        Height of each QI's hierarchy.
    targets : Targets
    objective : {"ncp", "precision"}
    best : NodeResult or None
        The anonymous node of least loss (ties: the first in lower-bound
        order); None when no node meets the targets.
    visited : tuple of NodeResult
        Every node evaluated, in the order visited.
    lattice_size : int
        Number of nodes of the lattice.
    seconds : float
        Wall time of the search.
    needed : int
        Nodes the search evaluated to prove its optimum (``visited`` may hold
        more when every node was evaluated for a plot, :func:`evaluate_all`).
    """

    qis: tuple[str, ...]
    heights: tuple[int, ...]
    targets: Targets
    objective: Objective
    best: NodeResult | None
    visited: tuple[NodeResult, ...] = field(metadata=NOT_IN_JSON, default=())
    lattice_size: int = 0
    seconds: float = float("nan")
    needed: int = 0

    @property
    def evaluated(self) -> int:
        """Return the number of nodes evaluated."""
        return len(self.visited)


def search(
    lattice: Lattice,
    *,
    objective: Objective = "ncp",
    progress: Callable[[int, int], None] | None = None,
) -> SearchResult:
    """Return the anonymous node of least loss over the whole lattice (exact).

    Nodes are visited in increasing lower bound (the loss without
    suppression, non-decreasing up every hierarchy); the search stops when
    the next bound is not below the best loss found, since no node left can
    beat it. Every node visited is kept (for the risk-loss plot).

    Parameters
    ----------
    lattice : Lattice
    objective : {"ncp", "precision"}
    progress : callable, optional
        Called as ``progress(evaluated, lattice_size)`` every 64 nodes.

    Returns
    -------
    SearchResult
    """
    if objective not in ("ncp", "precision"):
        raise RiskcoreError(f"unknown objective {objective!r}: 'ncp' or 'precision'")
    start = time.perf_counter()
    grids = lattice.lower_bound_terms(objective)
    lb = grids[0]
    for g in grids[1:]:
        lb = np.add.outer(lb, g)
    shape = tuple(h + 1 for h in lattice.heights)
    flat = np.asarray(lb, dtype=np.float64).reshape(-1)
    order = np.lexsort((np.arange(flat.size), np.round(flat, 12)))
    best: NodeResult | None = None
    best_loss = math.inf
    visited: list[NodeResult] = []
    for count, idx in enumerate(order):
        if flat[idx] >= best_loss - 1e-12:
            break
        node = lattice.evaluate([int(x) for x in np.unravel_index(int(idx), shape)])
        visited.append(node)
        if node.anonymous and node.loss(objective) < best_loss - 1e-12:
            best, best_loss = node, node.loss(objective)
        if progress is not None and count % 64 == 0:
            progress(count + 1, flat.size)
    return SearchResult(
        qis=lattice.qis,
        heights=lattice.heights,
        targets=lattice.targets,
        objective=objective,
        best=best,
        visited=tuple(visited),
        lattice_size=int(flat.size),
        seconds=time.perf_counter() - start,
        needed=len(visited),
    )


def evaluate_all(
    lattice: Lattice,
    *,
    known: Sequence[NodeResult] = (),
    progress: Callable[[int, int], None] | None = None,
) -> tuple[NodeResult, ...]:
    """Return every node of the lattice evaluated (for the risk-loss plot of a small lattice).

    Nodes in ``known`` (a search's visited nodes) are reused, not evaluated again.
    """
    done = {r.levels: r for r in known}
    out = []
    for count, levels in enumerate(lattice.nodes()):
        out.append(done.get(levels) or lattice.evaluate(levels))
        if progress is not None and count % 64 == 0:
            progress(count + 1, lattice.size)
    return tuple(out)


def greedy_search(lattice: Lattice, *, objective: Objective = "ncp") -> NodeResult | None:
    """Return the node a greedy one-QI-at-a-time generalization reaches (a baseline).

    From the bottom node, raise the one QI whose next level suppresses the
    fewest records (ties: the least loss, then the first QI), until the node
    is anonymous. Returns None when even the top node is not.
    """
    node = lattice.evaluate([0] * len(lattice.qis))
    while not node.anonymous:
        options = []
        for i, h in enumerate(lattice.heights):
            if node.levels[i] < h:
                up = list(node.levels)
                up[i] += 1
                options.append(lattice.evaluate(up))
        if not options:
            return None
        node = min(options, key=lambda r: (r.suppressed, r.loss(objective)))
    return node
