"""The search for the least-loss node of a generalization lattice, and its baselines.

A node (:class:`~riskcore.deidentify.search.lattice.Lattice`, one level per
quasi-identifier, the classes breaking the targets suppressed) is anonymous
when the suppressed records stay within the limit (ARX's semantics, Prasser
et al. 2014). :func:`search` returns the exact optimum of the chosen
objective over the lattice (within its level bounds), whatever the targets,
with two kinds of pruning that never change the answer:

* **Branch and bound.** Nodes are visited in increasing lower bound
  (:meth:`Lattice.lower_bound_terms`: the objective without suppression, a
  sum of one term per QI and level, non-decreasing up every hierarchy;
  top-down in phase 2 of the tagging below); a
  node whose bound exceeds the best loss found (beyond the tie tolerance) is
  never evaluated, and the scan stops at the first one. For AECS,
  discernibility and DM* the bound comes from an evaluated node's classes
  before suppression and prunes the node's whole up-set
  (:meth:`Lattice.node_bound`).
* **Predictive tagging** (Flash, Kohlmayer et al. 2012; OLA, El Emam et al.
  2009), when every target is monotone under generalization
  (:attr:`riskcore.criteria.Criterion.monotone_under_generalization`:
  k-anonymity, distinct l-diversity and k-map against a population table
  (:mod:`riskcore.deidentify.search.population`), with ARX's suppression: a
  generalization's failing classes are merges of failing classes only, so
  its suppressed records are a subset of the node's, and every class left
  contains a class that passed; with no suppression allowed and no person
  column, beta-likeness too,
  :attr:`riskcore.criteria.Criterion.monotone_without_suppression`, as ARX
  3.9.2 reads ``isMonotonicWithGeneralization`` at a limit of 0): a node
  that meets the targets tags every generalization of it as meeting them,
  a node that fails tags every specialization as failing. The search runs in three phases. (1) Nodes
  by increasing bound until one meets the targets (an incumbent): before
  evaluating a candidate of unknown status, it walks a chain up from it
  (each step raising the QI whose level is lowest relative to its
  hierarchy's height, a balanced chain; ties to the QI whose bound grows
  least; never past the bound), binary-searches the chain for its highest
  failing node and raises that node while it still fails. (2) Top-down:
  every node of unknown status whose bound may still beat the incumbent,
  by decreasing sum of levels (then decreasing bound), is evaluated; a
  failing node high in the region tags its whole down-set at once, and a
  node that passes lowers the incumbent's loss and with it the region.
  (3) Nodes by increasing bound again, stopping at the bound: only nodes
  tagged as passing but not evaluated are left to evaluate there (their
  loss is needed). After phase 2 no node within the bound has an unknown
  status, so the optimum is among the nodes evaluated, as in a plain scan.
  (On ARX's Adult, k = 5, precision, suppression 0 / 2 / 4%: 112 / 815 /
  732 nodes evaluated, against 174 / 1,579 / 1,147 by phase 1's chains
  alone and ARX's 181 / 1,230 / 930.) Entropy and recursive l-diversity,
  t-closeness, the risk targets and delta-presence are not monotone with
  suppression (merging a class that passes with one that fails can make a
  failing class) and are checked node by node, by increasing bound; so
  are AECS, discernibility and DM* (no per-level bound: the region of
  phase 2 would be the whole lattice).

**Snapshots.** Each node's classes are rolled up from a cached node below
it (:mod:`riskcore.deidentify.search.rollup`). Top-down, the nodes below are not
evaluated yet, so before evaluating a node ``x`` in phase 2 the search
tabulates ``x - 1``, ``x - 2``, ... (every level lowered by one) from the
lowest up, down to the first with a cached node between it and ``x``
(``_Scan.feed``): each rolls up from the one below, and the nodes
evaluated next share them.

**Ties** are broken on purpose: among anonymous nodes of equal loss (within
1e-12 relative, :func:`same_loss`), the one with fewer suppressed records,
then a larger smallest class, then lower discernibility, then the
lexicographically smaller levels (:func:`tie_key`). The search evaluates
every node that could tie, so the rule holds exactly.

**Removed columns.** When the optimum generalizes a QI to its single top
label (``*``: the column carries nothing), the result names the column and
the least-loss anonymous node that keeps it (the same search with the QI
at most one level below its top), or None when no such node exists.

:func:`evaluate_all` evaluates every node (the risk-loss plot of a small
lattice); :func:`greedy_search` is a one-QI-at-a-time baseline.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from riskcore._deprecation import renamed_fields
from riskcore._results import NOT_IN_JSON, Result
from riskcore.criteria import Targets
from riskcore.deidentify.search.lattice import Lattice, NodeResult, Objective
from riskcore.deidentify.search.steering import Steering
from riskcore.utility.loss import OBJECTIVES, check_objective

__all__ = [
    "RELATIVE_TIE",
    "SearchResult",
    "evaluate_all",
    "greedy_search",
    "same_loss",
    "search",
    "tie_key",
]

#: Two losses within this share of each other are a tie (:func:`same_loss`).
RELATIVE_TIE = 1e-12
_FLOOR = 1e-15  # float noise around a loss of 0


def same_loss(a: float, b: float) -> bool:
    """Return True when losses ``a`` and ``b`` tie: within 1e-12 of the larger (1e-15 near 0).

    Parameters
    ----------
    a : float
        A loss.
    b : float
        Another loss.

    Returns
    -------
    bool
    """
    return abs(a - b) <= RELATIVE_TIE * max(abs(a), abs(b)) + _FLOOR


def tie_key(node: NodeResult) -> tuple[int, int, float, tuple[int, ...]]:
    """Return the key that orders nodes of equal loss.

    Fewer suppressed records first, then a larger smallest class, lower discernibility, then
    the lexicographically smaller levels.

    Parameters
    ----------
    node : NodeResult
        An evaluated node.

    Returns
    -------
    tuple of (int, int, float, tuple of int)
        The sort key: suppressed records, minus the smallest class, discernibility, levels.
    """
    return (node.suppressed, -node.k, node.discernibility, node.levels)


def best_of(nodes: Sequence[NodeResult], objective: Objective) -> NodeResult | None:
    """Return the anonymous node of least loss among ``nodes``, ties by :func:`tie_key`.

    Parameters
    ----------
    nodes : sequence of NodeResult
        Evaluated nodes.
    objective : Objective
        The loss compared.

    Returns
    -------
    NodeResult or None
    """
    ok = [r for r in nodes if r.anonymous]
    if not ok:
        return None
    low = min(r.loss(objective) for r in ok)
    return min((r for r in ok if same_loss(r.loss(objective), low)), key=tie_key)


@renamed_fields(qis="quasi_identifiers")
@dataclass(frozen=True)
class SearchResult(Result):
    """The least-loss anonymous node and the nodes the search visited.

    Attributes
    ----------
    quasi_identifiers : tuple of str
    heights : tuple of int
        Height of each QI's hierarchy.
    targets : Targets
    objective : str
        A name of :data:`riskcore.utility.loss.OBJECTIVES`.
    best : NodeResult or None
        The anonymous node of least loss (ties: :func:`tie_key`); None when
        no node meets the targets.
    visited : tuple of NodeResult
        Every node evaluated, in the order evaluated (the search's, then the
        searches for the removed columns').
    lattice_size : int
        Number of nodes searched (within the level bounds).
    seconds : float
        Wall time of the search.
    needed : int
        Nodes the search evaluated to prove its optimum (``visited`` may hold
        more: the searches for removed columns, or every node evaluated for
        a plot, :func:`evaluate_all`).
    steering : Steering
        The weights and level bounds searched under.
    removed : tuple of str
        QIs the optimum generalizes to their single top label (``*``).
    keeping : dict of str to NodeResult or None
        Per removed QI, the least-loss anonymous node that keeps it (its
        level below the top); None when there is none.
    """

    #: 2: ``qis`` renamed ``quasi_identifiers`` (version 1 still reads).
    schema_version: ClassVar[int] = 2

    quasi_identifiers: tuple[str, ...]
    heights: tuple[int, ...]
    targets: Targets
    objective: Objective
    best: NodeResult | None
    visited: tuple[NodeResult, ...] = field(metadata=NOT_IN_JSON, default=())
    lattice_size: int = 0
    seconds: float = float("nan")
    needed: int = 0
    steering: Steering = field(default_factory=Steering)
    removed: tuple[str, ...] = ()
    keeping: dict[str, NodeResult | None] = field(default_factory=dict)

    @property
    def evaluated(self) -> int:
        """Return the number of nodes evaluated."""
        return len(self.visited)


_FAIL, _UNKNOWN, _PASS = -1, 0, 1


class _Scan:
    """The state shared by a search and its searches for removed columns: the bounds grid,
    the tags and the nodes evaluated (all over the lattice's level bounds)."""

    #: Phase 2 of the tagged search (top-down); False leaves phases 1 and 3 (for comparison).
    top_down = True

    def __init__(self, lattice: Lattice, objective: Objective, tagging: bool | None) -> None:
        self.lattice = lattice
        self.objective = objective
        self.lo = np.asarray([lo for lo, _ in lattice.bounds], dtype=np.int64)
        self.shape = tuple(hi - lo + 1 for lo, hi in lattice.bounds)
        terms = lattice.lower_bound_terms(objective)
        self.terms = [t[lo : hi + 1] for t, (lo, hi) in zip(terms, lattice.bounds, strict=True)]
        grid = self.terms[0]
        for t in self.terms[1:]:
            grid = np.add.outer(grid, t)
        self.lb = np.asarray(grid, dtype=np.float64).reshape(-1)
        levelsum = np.zeros(1, dtype=np.int64)
        for s in self.shape:
            levelsum = np.add.outer(levelsum, np.arange(s)).reshape(-1)
        self.order = np.lexsort((np.arange(self.lb.size), levelsum, self.lb))
        #: highest first: by decreasing sum of levels, then decreasing bound
        self.down = np.lexsort((np.arange(self.lb.size), -self.lb, -levelsum))
        criteria = lattice.targets.criteria
        # with no suppression allowed, ARX reads isMonotonicWithGeneralization instead
        alone = lattice.targets.max_suppression == 0 and lattice.person is None
        monotone = (
            bool(criteria)
            and all(
                c.monotone_under_generalization or (alone and c.monotone_without_suppression)
                for c in criteria
            )
            and (lattice.missing == "own" or not lattice.has_missing)
        )
        self.tagging = monotone if tagging is None else tagging and monotone
        self.status = np.zeros(self.shape, dtype=np.int8)
        self.cache: dict[int, NodeResult] = {}
        self.visited: list[NodeResult] = []
        self.node_bound = OBJECTIVES[objective].bound == "node"
        self.progress: Callable[[int, int], None] | None = None
        self.extend = True

    def coords(self, idx: int) -> tuple[int, ...]:
        return tuple(int(x) for x in np.unravel_index(idx, self.shape))

    def get(self, idx: int) -> NodeResult:
        """Return the node ``idx`` evaluated (once), tagging its up- or down-set."""
        node = self.cache.get(idx)
        if node is not None:
            return node
        c = self.coords(idx)
        node = self.lattice.evaluate(tuple(int(x) for x in self.lo + c))
        self.cache[idx] = node
        self.visited.append(node)
        if self.tagging:
            if node.anonymous:
                self.status[tuple(slice(x, None) for x in c)] = _PASS
            else:
                self.status[tuple(slice(0, x + 1) for x in c)] = _FAIL
        if self.progress is not None and len(self.visited) % 64 == 1:
            self.progress(len(self.visited), self.lb.size)
        return node

    def feed(self, cut: tuple[int, ...]) -> None:
        """Tabulate snapshots below ``cut`` for it to roll up from (see the module).

        The nodes ``cut - 1``, ``cut - 2``, ... (every level lowered by one, at
        least the box's bottom) are tabulated from the lowest up, down to the
        first one with a cached node between it and ``cut``.
        """
        high = tuple(int(x) for x in self.lo + cut)
        hubs = []
        x = np.asarray(cut)
        while x.any():
            x = np.maximum(x - 1, 0)
            low = tuple(int(v) for v in self.lo + x)
            if self.lattice.has_snapshot(low, high):
                break
            hubs.append(low)
        for levels in reversed(hubs):
            self.lattice.prepare(levels)

    def run(self, box: Sequence[tuple[int, int]]) -> tuple[NodeResult | None, int]:
        """Return (the optimum within ``box``, lowest and highest box coordinate per QI; the
        nodes evaluated)."""
        lattice, objective = self.lattice, self.objective
        before = len(self.visited)
        inside = np.ones(self.shape, dtype=bool)
        for i, (a, b) in enumerate(box):
            side = [slice(None)] * len(self.shape)
            side[i] = slice(0, a)
            inside[tuple(side)] = False
            side[i] = slice(b + 1, None)
            inside[tuple(side)] = False
        flat_inside = inside.reshape(-1)
        dead = np.zeros(self.shape, dtype=bool)  # up-sets no node of which can beat the best
        flat_dead = dead.reshape(-1)
        flat_status = self.status.reshape(-1)  # views: tags set on the grid show here
        best = math.inf
        limit = math.inf  # the largest bound that may still tie the best

        def bury(node_idx: int) -> None:
            node = self.cache[node_idx]
            if self.node_bound and lattice.node_bound(node, objective) > limit:
                dead[tuple(slice(x, None) for x in self.coords(node_idx))] = True

        def consider(node_idx: int) -> None:
            nonlocal best, limit
            node = self.cache[node_idx]
            if node.anonymous and flat_inside[node_idx] and node.loss(objective) < best:
                best = node.loss(objective)
                # twice the tie tolerance: no doubt
                limit = lattice.key(objective, best + 2 * (RELATIVE_TIE * abs(best) + _FLOOR))
                if self.node_bound:
                    for j in self.cache:
                        bury(j)
            bury(node_idx)

        def ascend(until_found: bool) -> None:
            # nodes by increasing bound; an unknown one resolved along a chain first. Tags
            # and burials are never lifted and the limit only falls: a node skipped here
            # would be skipped in the loop
            order = self.order
            keep = flat_inside[order] & (flat_status[order] != _FAIL) & ~flat_dead[order]
            for i in order[keep & (self.lb[order] <= limit)]:
                if until_found and not math.isinf(best):
                    return
                idx = int(i)
                if self.lb[idx] > limit:
                    return  # every node left has a bound at least this one's
                if flat_status[idx] == _FAIL or flat_dead[idx]:
                    continue
                if self.tagging and flat_status[idx] == _UNKNOWN:
                    for j in self._resolve(self.coords(idx), box, limit):
                        consider(j)
                    if flat_status[idx] == _FAIL:
                        continue
                self.get(idx)
                consider(idx)

        def descend() -> None:
            # every node of unknown status within the bound, highest first (see the module)
            for i in self.down[flat_inside[self.down] & (self.lb[self.down] <= limit)]:
                idx = int(i)
                if flat_status[idx] != _UNKNOWN or self.lb[idx] > limit:
                    continue
                self.feed(self.coords(idx))
                self.get(idx)
                consider(idx)

        if self.top_down and self.tagging and not self.node_bound:
            ascend(until_found=True)  # an incumbent, then the region below its loss top-down
            descend()
        ascend(until_found=False)
        found = best_of([r for j, r in self.cache.items() if flat_inside[j]], objective)
        return found, len(self.visited) - before

    def _resolve(
        self, start: tuple[int, ...], box: Sequence[tuple[int, int]], limit: float
    ) -> list[int]:
        """Learn the status of ``start`` by a binary search along a chain up from it.

        Returns the nodes evaluated (their indexes). Each step of the chain
        raises the QI whose next level is lowest relative to its height (a
        balanced chain; ties: the QI whose bound grows least, then the first);
        the chain stops at the box's top or before a node whose bound exceeds
        ``limit``. The highest failing node found is then raised one QI at a
        time (cheapest first) while it still fails, to tag a larger down-set.
        """
        chain = [start]
        cur = list(start)
        bound = float(self.lb[np.ravel_multi_index(start, self.shape)])
        while True:
            steps = [
                ((cur[i] + 1) / self.shape[i],
                 float(self.terms[i][cur[i] + 1] - self.terms[i][cur[i]]), i)
                for i in range(len(cur))
                if cur[i] < box[i][1]
            ]  # fmt: skip
            if not steps:
                break
            _, grow, i = min(steps)
            if bound + grow > limit:
                break
            bound += grow
            cur[i] += 1
            chain.append(tuple(cur))
        done: list[int] = []
        if len(chain) > 2:  # the chain's bottom tabulated once: every node of the chain and
            self.lattice.prepare(tuple(int(x) for x in self.lo + start))  # up rolls up from it
        lo, hi = 0, len(chain) - 1
        while lo <= hi:
            mid = (lo + hi) // 2
            state = self.status[chain[mid]]
            if state == _UNKNOWN:
                j = int(np.ravel_multi_index(chain[mid], self.shape))
                self.get(j)
                done.append(j)
                state = self.status[chain[mid]]
            if state == _FAIL:
                lo = mid + 1
            else:
                hi = mid - 1
        if lo > 0 and self.extend:  # raise the highest failing node while it fails: a larger
            top = list(chain[lo - 1])  # down-set tagged
            bound = float(self.lb[np.ravel_multi_index(tuple(top), self.shape)])
            moved = True
            while moved:
                moved = False
                ups = sorted(
                    (float(self.terms[i][top[i] + 1] - self.terms[i][top[i]]), i)
                    for i in range(len(top))
                    if top[i] < box[i][1]
                )
                for grow, i in ups:
                    if bound + grow > limit:
                        break
                    up = (*top[:i], top[i] + 1, *top[i + 1 :])
                    if self.status[up] == _UNKNOWN:
                        j = int(np.ravel_multi_index(up, self.shape))
                        self.get(j)
                        done.append(j)
                    if self.status[up] == _FAIL:
                        top, bound, moved = list(up), bound + grow, True
                        break
        return done


def search(
    lattice: Lattice,
    *,
    objective: Objective = "ncp",
    progress: Callable[[int, int], None] | None = None,
    alternatives: bool = True,
    tagging: bool | None = None,
) -> SearchResult:
    """Return the anonymous node of least loss over the lattice (exact; see the module).

    The weights and level bounds are the lattice's
    (:class:`~riskcore.deidentify.search.steering.Steering`, given to
    :class:`~riskcore.deidentify.search.lattice.Lattice`).

    Parameters
    ----------
    lattice : Lattice
        The table's hierarchies, targets, weights and level bounds: the nodes searched.
    objective : str, default "ncp"
        A name of :data:`riskcore.utility.loss.OBJECTIVES`.
    progress : callable, optional
        Called as ``progress(evaluated, lattice_size)`` every 64 nodes evaluated.
    alternatives : bool, default True
        For each column the optimum removes, also search the least-loss node
        that keeps it (:attr:`SearchResult.keeping`).
    tagging : bool, optional
        None (default): predictive tagging when every target is monotone;
        False: none (the plain branch and bound, for comparison). Never
        changes the answer.

    Returns
    -------
    SearchResult

    Raises
    ------
    RiskcoreError
        For an unknown objective.

    Examples
    --------
    Ages in bands of 10, then 20, then ``"*"``; sex kept or ``"*"``: 4 x 2 =
    8 nodes. With k = 3, the ages as written are all unique, and bands of 10
    make the classes (30-39, F) and (40-49, M) of 3 each, with sex kept: the
    least-loss node is (1, 0), nothing suppressed.

    >>> import pandas as pd
    >>> from riskcore.criteria import Targets
    >>> from riskcore.deidentify.hierarchy import flat_hierarchy, interval_hierarchy
    >>> from riskcore.deidentify.search.lattice import Lattice
    >>> df = pd.DataFrame({"age": [31, 34, 38, 42, 45, 47], "sex": list("FFFMMM")})
    >>> h = {"age": interval_hierarchy(df["age"], [10, 20]), "sex": flat_hierarchy(df["sex"])}
    >>> result = search(Lattice(df, h, targets=Targets.of(k=3)))
    >>> result.lattice_size, result.best.levels, result.best.k, result.best.suppressed
    (8, (1, 0), 3, 0)
    """
    check_objective(objective)
    start = time.perf_counter()
    scan = _Scan(lattice, objective, tagging)
    scan.progress = progress
    full = [(0, s - 1) for s in scan.shape]
    best, needed = scan.run(full)
    removed = best.removed if best is not None else ()
    keeping: dict[str, NodeResult | None] = {}
    if alternatives:
        for q in removed:
            i = lattice.quasi_identifiers.index(q)
            top = lattice.heights[i] - 1 - lattice.bounds[i][0]  # box coordinate below the top
            if top < 0:
                keeping[q] = None
                continue
            box = list(full)
            box[i] = (0, top)
            keeping[q] = scan.run(box)[0]
    return SearchResult(
        quasi_identifiers=lattice.quasi_identifiers,
        heights=lattice.heights,
        targets=lattice.targets,
        objective=objective,
        best=best,
        visited=tuple(scan.visited),
        lattice_size=int(scan.lb.size),
        seconds=time.perf_counter() - start,
        needed=needed,
        steering=lattice.steering,
        removed=removed,
        keeping=keeping,
    )


def evaluate_all(
    lattice: Lattice,
    *,
    known: Sequence[NodeResult] = (),
    progress: Callable[[int, int], None] | None = None,
) -> tuple[NodeResult, ...]:
    """Return every node within the level bounds evaluated.

    For the risk-loss plot of a small lattice.

    Nodes in ``known`` (a search's visited nodes) are reused, not evaluated again.

    Parameters
    ----------
    lattice : Lattice
        The lattice, with its level bounds.
    known : sequence of NodeResult, optional
        Nodes already evaluated (a search's visited nodes), reused.
    progress : callable, optional
        Called as ``progress(evaluated, total)``.

    Returns
    -------
    tuple of NodeResult
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

    From the lowest node within the level bounds, raise the one QI whose
    next level suppresses the fewest records (ties: the least loss, then the
    first QI), until the node is anonymous. Returns None when even the
    highest node is not.

    Parameters
    ----------
    lattice : Lattice
        The lattice.
    objective : Objective, optional
        The loss minimized.

    Returns
    -------
    NodeResult or None
    """
    check_objective(objective)
    node = lattice.evaluate([lo for lo, _ in lattice.bounds])
    while not node.anonymous:
        options = []
        for i, (_, hi) in enumerate(lattice.bounds):
            if node.levels[i] < hi:
                up = list(node.levels)
                up[i] += 1
                options.append(lattice.evaluate(up))
        if not options:
            return None
        node = min(options, key=lambda r: (r.suppressed, r.loss(objective)))
    return node
