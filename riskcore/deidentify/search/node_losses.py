"""The per-QI losses of a lattice node, computed from its class table (no pass over records).

The definitions, with their sources, are in :mod:`riskcore.utility.loss`.
A class's NCP penalty and ARX domain share depend only on its generalized
code, so a node's sums over the released records are one weighted count of
the released (or suppressed) classes per code, every QI's codes offset into
one index space (a single ``bincount``), times each code's cost. Precision,
ARX's Loss and non-uniform entropy follow per QI in closed form from the
levels, the suppressed records and those sums.
:class:`LossTables` holds what is tabulated once per lattice;
:meth:`riskcore.deidentify.search.lattice.Lattice.evaluate` calls it for every node.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["LossTables", "QiLosses"]


@dataclass(frozen=True)
class QiLosses:
    """The losses of one node, one entry per QI (in the lattice's QI order).

    Attributes
    ----------
    ncp : numpy.ndarray
        Mean NCP penalty over records, a suppressed record costing 1.
    precision : numpy.ndarray
        Mean level / height over records, a suppressed record costing 1.
    loss : numpy.ndarray
        ARX's normalized Loss (``MetricMDNMLoss.normalizeGeneralized``).
    entropy : numpy.ndarray
        Non-uniform entropy in bits (suppression ignored).
    """

    ncp: np.ndarray
    precision: np.ndarray
    loss: np.ndarray
    entropy: np.ndarray


class LossTables:
    """Per QI and level, each generalized code's costs, for the losses of any node.

    Parameters
    ----------
    column_maps : list of list of numpy.ndarray
        Per QI and level, the generalized code of every column code.
    cards : list of list of int
        Per QI and level, the number of generalized codes.
    penalties, shares : list of list of numpy.ndarray
        Per QI and level, the NCP penalty and the ARX domain share of every
        column code (:func:`riskcore.utility.loss.column_penalties`,
        :func:`~riskcore.utility.loss.column_shares`).
    column_counts : list of numpy.ndarray
        Per QI, the records with each column code.
    heights : sequence of int
        Height of each QI's hierarchy.
    domains : sequence of int
        Leaves of each QI's hierarchy (ARX's domain size, at least 1).
    entropy : list of numpy.ndarray
        Per QI, its non-uniform entropy at each level
        (:func:`riskcore.utility.loss.column_entropy`).
    n : int
        Records of the table.
    """

    def __init__(
        self,
        column_maps: list[list[np.ndarray]],
        cards: list[list[int]],
        penalties: list[list[np.ndarray]],
        shares: list[list[np.ndarray]],
        column_counts: list[np.ndarray],
        heights: Sequence[int],
        domains: Sequence[int],
        entropy: list[np.ndarray],
        n: int,
    ) -> None:
        self.n = n
        self.m = len(column_maps)
        self._cards = [np.asarray(c, dtype=np.int64) for c in cards]
        #: per QI and level, (NCP penalty, domain share) of each generalized code
        self.code_cost: list[list[np.ndarray]] = []
        #: per QI and level, the two sums over every record
        self.cost_total: list[list[np.ndarray]] = []
        for maps, card, pen, share, counts in zip(
            column_maps, cards, penalties, shares, column_counts, strict=True
        ):
            tables, totals = [], []
            for gen, p, s, c in zip(maps, pen, share, card, strict=True):
                per_column = np.column_stack([p, s])
                table = np.zeros((c, 2))
                table[gen] = per_column
                tables.append(table)
                totals.append(counts @ per_column)
            self.code_cost.append(tables)
            self.cost_total.append(totals)
        self._heights = np.maximum(np.asarray(heights, dtype=np.float64), 1.0)
        self._low = n / np.maximum(np.asarray(domains, dtype=np.float64), 1.0)
        width = max(len(e) for e in entropy)
        self._entropy = np.zeros((self.m, width))
        for i, e in enumerate(entropy):
            self._entropy[i, : len(e)] = e
        self._rows = np.arange(self.m)
        # the same per QI and level, padded to one array: a node's entries in one gather
        self._card_table = np.ones((self.m, width), dtype=np.int64)
        self._total_table = np.zeros((self.m, width, 2))
        for i, (card, totals) in enumerate(zip(cards, self.cost_total, strict=True)):
            self._card_table[i, : len(card)] = card
            self._total_table[i, : len(totals)] = totals

    def arx_loss(
        self, share_sums: np.ndarray, suppressed: int, qi: int | None = None
    ) -> np.ndarray:
        """Return ARX's normalized Loss (``MetricMDNMLoss.normalizeGeneralized``).

        Parameters
        ----------
        share_sums : numpy.ndarray
            Per QI (or, with ``qi``, per level of that QI), the sum of the
            domain shares over the released records.
        suppressed : int
            Records suppressed.
        qi : int, optional
            The QI every entry of ``share_sums`` belongs to.

        Returns
        -------
        numpy.ndarray
            (sum of shares + suppressed - n / D) / (n - n / D), clipped at 0;
            0 when n <= n / D.
        """
        low = self._low if qi is None else self._low[qi]
        span = self.n - low
        safe = np.where(span > 0, span, 1.0)
        out = np.maximum((share_sums + suppressed - low) / safe, 0.0)
        return np.where(span > 0, out, 0.0)

    def losses(
        self, levels: Sequence[int], codes: np.ndarray, sizes: np.ndarray, bad: np.ndarray
    ) -> QiLosses:
        """Return a node's losses per QI.

        Parameters
        ----------
        levels : sequence of int
            The node's level per QI.
        codes : numpy.ndarray
            One row per QI: each class's code at the node's level.
        sizes : numpy.ndarray
            Records per class.
        bad : numpy.ndarray
            Which classes are suppressed (bool).

        Returns
        -------
        QiLosses
        """
        lv = np.asarray(levels, dtype=np.int64)
        suppressed = int(sizes[bad].sum())
        n = max(self.n, 1)
        part = self._total_table[self._rows, lv]  # the sums over every record
        n_bad = int(bad.sum())
        if n_bad:  # over the smaller of the suppressed and the released classes
            few = n_bad <= len(sizes) // 2
            chosen = np.flatnonzero(bad if few else ~bad)
            cards = self._card_table[self._rows, lv]
            offsets = np.concatenate(([0], np.cumsum(cards)[:-1]))
            index = (codes.T[chosen] + offsets).reshape(-1)  # class by class, QI by QI
            weight = np.repeat(sizes[chosen].astype(np.float64), self.m)
            counts = np.bincount(index, weights=weight, minlength=int(cards.sum()))
            table = np.concatenate([t[x] for t, x in zip(self.code_cost, levels, strict=True)])
            sums = np.add.reduceat(counts[:, None] * table, offsets, axis=0)
            part = part - sums if few else sums
        return QiLosses(
            ncp=(part[:, 0] + suppressed) / n,
            precision=((self.n - suppressed) * lv / self._heights + suppressed) / n,
            loss=self.arx_loss(part[:, 1], suppressed),
            entropy=self._entropy[self._rows, lv],
        )
