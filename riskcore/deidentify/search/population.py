"""An identified population table at each lattice node: k-map and delta-presence as targets.

k-map and delta-presence (:class:`~riskcore.criteria.KMap`,
:class:`~riskcore.criteria.DeltaPresence`; definitions and ARX's semantics in
:mod:`riskcore.metrics.presence`) judge a release against the population P it
was drawn from. At a node of the generalization lattice the population is
generalized with the same hierarchies, and each class j of the node has F_j,
its population members whose generalized QIs equal the class's; a
population class with no released record is a class of its own (f_j = 0,
delta_j = 0), judged by delta-presence only.

The population is tabulated once over the QIs (its base classes, with their
members); a node's F_j groups the node's classes and the population's base
classes together by their codes at the node's levels: O(J + P0) per node.

Monotonicity (what the search may prune on): F_j only grows under
generalization (merged classes add their members) and suppression leaves it
alone, so a class that meets k-map keeps meeting it in every generalization:
k-map is monotone under generalization with suppression, like k-anonymity
(ARX's ``KMap`` is constructed ``monotonicWithSuppression = true``).
delta-presence is not: delta of a merged class lies between its parts', so a
class above delta_max merged with an absent class (delta 0) can pass and a
passing class merged with a failing one can fail (ARX's ``DPresence`` is
``monotonicWithSuppression = false``); the search checks it at each node.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore.deidentify.hierarchy import Hierarchy, at_leaves
from riskcore.deidentify.search.rollup import NodeClasses, group
from riskcore.errors import RiskcoreError

__all__ = ["PopulationClasses"]


class PopulationClasses:
    """The population table tabulated over the QIs, generalized at any node.

    Parameters
    ----------
    population_table : pandas.DataFrame
        The identified population table (one row per person), with every QI.
    hierarchies : mapping of str to Hierarchy
        The lattice's hierarchies, in the lattice's QI order.
    cards : list of list of int
        Per QI and level, the number of generalized codes (the lattice's:
        the hierarchy's labels and one code for a missing value).

    Raises
    ------
    RiskcoreError
        When the population table lacks a QI column or holds a value a
        hierarchy does not (named).
    """

    @renamed_arguments(population="population_table")
    def __init__(
        self,
        population_table: pd.DataFrame,
        hierarchies: Mapping[str, Hierarchy],
        cards: list[list[int]],
    ) -> None:
        if not isinstance(population_table, pd.DataFrame):
            raise RiskcoreError("the population table must be a table (a DataFrame)")
        qis = tuple(hierarchies)
        absent = [q for q in qis if q not in population_table.columns]
        if absent:
            raise RiskcoreError(f"the population table has no column {absent[0]!r}")
        if len(population_table) == 0:
            raise RiskcoreError("the population table has no records")
        leaves = []
        for q in qis:
            h = hierarchies[q]
            leaf = h.leaf_index(population_table[q])
            if (leaf == -1).any():
                bad = population_table[q].iloc[int(np.flatnonzero(leaf == -1)[0])]
                raise RiskcoreError(
                    f"the hierarchy of {q!r} does not hold the population table's value "
                    f"{bad!r}; build the hierarchy so that it covers the population"
                )
            leaves.append(leaf)
        ids, n = group([x + 2 for x in leaves], [len(hierarchies[q].leaves) + 2 for q in qis])
        #: Population members per base class.
        self.members = np.bincount(ids, minlength=n).astype(np.int64)
        rep = np.empty(n, dtype=np.int64)
        rep[ids] = np.arange(len(ids))
        self._cards = cards
        # per QI and level, the generalized code of every population base class
        self._codes: list[list[np.ndarray]] = []
        for q, leaf in zip(qis, leaves, strict=True):
            h = hierarchies[q]
            per_level = []
            for level in range(h.height + 1):
                codes, lab = h.codes(level)
                per_level.append(at_leaves(codes, leaf[rep], len(lab)).astype(np.int32))
            self._codes.append(per_level)

    @property
    def n_members(self) -> int:
        """Return the number of people in the population table."""
        return int(self.members.sum())

    def counts(
        self, codes: np.ndarray, levels: Sequence[int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return F_j of a node's classes and the population classes no class matches.

        Parameters
        ----------
        codes : numpy.ndarray
            One row per QI: the code of each of the node's classes at its level.
        levels : sequence of int
            The node's levels.

        Returns
        -------
        members : numpy.ndarray
            F_j of each of the node's classes (0 when no population member matches).
        absent_members : numpy.ndarray
            The members of each population class left unmatched, in the order of
            ``absent_codes``.
        absent_codes : numpy.ndarray
            One row per QI: their codes at the node's levels.
        """
        j = codes.shape[1]
        pop = np.stack([self._codes[i][x] for i, x in enumerate(levels)])
        joint, n = group(
            list(np.concatenate([codes, pop], axis=1)),
            [self._cards[i][x] for i, x in enumerate(levels)],
        )
        big_f = np.bincount(joint[j:], weights=self.members, minlength=n).astype(np.int64)
        alone = np.ones(n, dtype=bool)
        alone[joint[:j]] = False
        absent = np.flatnonzero(alone)
        rep = np.empty(n, dtype=np.int64)
        rep[joint[j:]] = np.arange(len(joint) - j)
        return big_f[joint[:j]], big_f[absent], pop[:, rep[absent]]

    def check_subset(self, bottom: NodeClasses) -> None:
        """Refuse data that are not a subset of the population.

        ``bottom`` holds the data's classes at level 0.

        Parameters
        ----------
        bottom : NodeClasses
            The data's classes with every QI at level 0.

        Raises
        ------
        RiskcoreError
            When a class of the data has more records than population members.
        """
        big_f = self.counts(bottom.codes, bottom.levels)[0]
        over = int((big_f < bottom.sizes).sum())
        if over:
            raise RiskcoreError(
                f"{over:,} class(es) of the data have more records than members in the "
                "population table, so the data are not a subset of it"
            )
