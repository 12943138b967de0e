"""The least-loss search over the generalization lattice (issue 40: one package per concern).

==================  =====================================================================
module              what
==================  =====================================================================
:mod:`.lattice`     :class:`Lattice`: the nodes (one level per QI), each node's classes,
                    failing classes and loss from the level-0 class table
:mod:`.run`         :func:`search`: the exact least-loss node (branch and bound, Flash's
                    predictive tagging), greedy and exhaustive baselines
:mod:`.rollup`      a node's class table from its children's, without a pass over records
:mod:`.signatures`  classes of people at a node (a person's rows as one signature)
:mod:`.population`  k-map and delta-presence against a population table at each node
:mod:`.losses`      every node's losses and the bounds the search prunes with
:mod:`.node_losses` one node's per-QI losses from its class table
:mod:`.node`        :class:`NodeResult`, one evaluated node
:mod:`.steering`    weights per QI and level bounds; the lattice's size limit
:mod:`.candidates`  candidate releases for the page (the optimum and its neighbours)
:mod:`.cover`       the least generalization under which one record's class reaches k
==================  =====================================================================

The objectives and the loss formulas are in :mod:`riskcore.utility`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from riskcore._exports import lazy_exports

if TYPE_CHECKING:
    from riskcore.deidentify.search.lattice import Lattice, NodeResult, apply_levels
    from riskcore.deidentify.search.run import (
        RELATIVE_TIE,
        SearchResult,
        evaluate_all,
        greedy_search,
        same_loss,
        search,
        tie_key,
    )
    from riskcore.deidentify.search.steering import Steering

_WHERE: dict[str, str] = {
    "RELATIVE_TIE": "run",
    "SearchResult": "run",
    "evaluate_all": "run",
    "greedy_search": "run",
    "same_loss": "run",
    "search": "run",
    "tie_key": "run",
    "Lattice": "lattice",
    "NodeResult": "lattice",
    "apply_levels": "lattice",
    "Steering": "steering",
}

__all__ = [
    "RELATIVE_TIE",
    "Lattice",
    "NodeResult",
    "SearchResult",
    "Steering",
    "apply_levels",
    "evaluate_all",
    "greedy_search",
    "same_loss",
    "search",
    "tie_key",
]

__getattr__, __dir__ = lazy_exports(__name__, _WHERE)
