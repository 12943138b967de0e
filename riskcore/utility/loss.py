"""Information loss of a generalized table (formulas.md, "Information loss").

* Normalized certainty penalty, NCP (Xu, Wang, Pei, Wang, Shi & Fu, KDD 2006):
  a numeric value generalized to a group of values costs (b - a) / R, where
  [a, b] is the range of the values of the data in its group and R the range
  of the column; a categorical value generalized to a group covering u of
  the column's U values costs (u - 1) / (U - 1); an ungeneralized value costs
  0 and ``"*"`` costs 1. The table's NCP is the average over cells, a
  suppressed cell costing 1. A missing value stays missing at every level
  and costs 0.
* Precision (Sweeney 2002): level / height of the hierarchy, averaged over
  QIs and records, a suppressed record costing 1 (ARX's "generalization
  intensity" with suppression).
* Discernibility (Bayardo & Agrawal 2005): sum of f_j^2 over the released
  classes plus n per suppressed record.
* Average class size C_avg = (n / J) / k (LeFevre, DeWitt & Ramakrishnan 2006):
  the released records per released class over the k required. Not ARX's
  AECS, which does not divide by k (below).
* ARX's Loss (Iyengar 2002; ARX's ``org.deidentifier.arx.metric.v2.MetricMDNMLoss``
  with its default gs-factor 0.5, generalization and suppression weighed
  equally): a value generalized to a label covering u of the hierarchy's D
  leaves has the *share* u / D (D counts the hierarchy's leaves, not the
  data's values: the share of the domain); per QI,
  L_i = (sum over released records of the share + suppressed records -
  n / D) / (n - n / D), clipped at 0 (``normalizeGeneralized``); aggregated
  with the weights w_i divided by their largest as the arithmetic mean
  sum_i w_i L_i / m (``ILMultiDimensionalArithmeticMean``) or the geometric
  mean prod_i (w_i L_i + 1)^(1/m) - 1 (``ILMultiDimensionalGeometricMean``,
  ARX's default aggregate for Loss). A missing value is never generalized:
  its share is 1 / D at every level.
* ARX's AECS (LeFevre et al. 2006's average equivalence class size as ARX
  computes it, ``MetricSDAECS``): n / (released classes + 1 when any record
  is suppressed: the suppressed records form one more class).
* DM* (El Emam et al. 2009; ARX's monotone ``MetricSDDiscernability``, the
  bound of ``MetricSDNMDiscernability``): sum of f_j^2 over every class,
  suppression ignored.
* Non-uniform entropy (Gionis & Tassa 2009; De Waal & Willenborg 1999; ARX's
  ``MetricMDNUEntropyPrecomputed``, the metric of ARX's own Adult test
  optima): per QI, sum over records of log2(b / a), a the number of records
  with the record's value and b the number with its generalized label
  (bits; 0 at level 0), suppression ignored (ARX's precomputed, monotone
  variant); summed over QIs with the weights divided by their largest
  (``ILMultiDimensionalSum``).

Two "KL"s are different quantities and are named apart: the *sensitive
distortion* of a node (:attr:`NodeResult.distortion`) is the
Kullback-Leibler divergence of a sensitive attribute's distribution in the
release from the table's (suppression shifts it); Machanavajjhala et al.'s
KL-divergence utility (ARX's ``MetricSDNMKLDivergence``) compares the
distributions over QI combinations of the original and generalized tables,
and is not computed here.

Groups are those of the values present in the data (u and [a, b] count the
data's values, not every value a hierarchy could name), so the penalty of a
level depends only on the data and the hierarchy, and grows with the level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from riskcore._values import at_leaves
from riskcore.engine.contract import Contingency

if TYPE_CHECKING:
    from riskcore.deidentify.hierarchy import Hierarchy
from riskcore.utility.objectives import OBJECTIVES, Objective, ObjectiveInfo, check_objective

__all__ = [
    "OBJECTIVES",
    "Objective",
    "ObjectiveInfo",
    "check_objective",
    "column_entropy",
    "column_penalties",
    "column_shares",
    "sensitive_distortion",
]


def column_penalties(h: Hierarchy, leaf: np.ndarray) -> list[np.ndarray]:
    """Return, per level, the NCP of each value of a column.

    Parameters
    ----------
    h : Hierarchy
        The column's hierarchy.
    leaf : numpy.ndarray
        For each value of the column (its codes), the position of the value
        among ``h.leaves``; -2 for a missing value (penalty 0).

    Returns
    -------
    list of numpy.ndarray
        ``pen[l][c]``: the certainty penalty of code ``c`` at level ``l``.
    """
    present = np.unique(leaf[leaf >= 0])  # the leaves the data holds
    out: list[np.ndarray] = []
    if h.numeric:
        x = pd.to_numeric(pd.Series(h.leaves[present], dtype=object)).to_numpy(dtype=float)
        span = float(x.max() - x.min()) if len(x) else 0.0
    for level in range(h.height + 1):
        codes, _ = h.codes(level)
        group = codes[present]
        per_leaf = np.zeros(len(h.leaves))
        if len(present):
            if h.numeric:
                frame = pd.DataFrame({"g": group, "x": x})
                rng = frame.groupby("g")["x"].agg(lambda v: v.max() - v.min())
                cost = rng.reindex(group).to_numpy(dtype=float) / span if span > 0 else 0.0
            else:
                u = np.bincount(group)[group]
                big_u = len(present)
                cost = (u - 1) / (big_u - 1) if big_u > 1 else np.zeros(len(group))
            per_leaf[present] = cost
        pen = at_leaves(per_leaf, leaf, 0.0)
        out.append(pen.astype(np.float64))
    return out


def column_shares(h: Hierarchy, leaf: np.ndarray) -> list[np.ndarray]:
    """Return, per level, ARX's domain share of each value of a column (ARX's Loss).

    The share of a value at a level is u / D: u the hierarchy's leaves with
    the value's label at that level, D all the hierarchy's leaves
    (``DomainShareMaterialized``). A missing value (``leaf`` -2) has 1 / D.

    Parameters
    ----------
    h : Hierarchy
        The column's hierarchy.
    leaf : numpy.ndarray
        Position of each column code among ``h.leaves`` (-2: missing).

    Returns
    -------
    list of numpy.ndarray
        ``share[l][c]`` for code ``c`` at level ``l``.
    """
    d = max(len(h.leaves), 1)
    out = []
    for level in range(h.height + 1):
        codes, _ = h.codes(level)
        per_leaf = np.bincount(codes)[codes] / d if len(codes) else np.zeros(0)
        out.append(at_leaves(per_leaf.astype(np.float64), leaf, 1.0 / d).astype(np.float64))
    return out


def column_entropy(maps: list[np.ndarray], counts: np.ndarray) -> np.ndarray:
    """Return, per level, a column's non-uniform entropy: sum over records of log2(b / a).

    Parameters
    ----------
    maps : list of numpy.ndarray
        Per level, the generalized code of every column code.
    counts : numpy.ndarray
        Records holding each column code (a).

    Returns
    -------
    numpy.ndarray
        One value per level, in bits (0 at level 0).
    """
    a = counts.astype(np.float64)
    out = np.zeros(len(maps))
    on = a > 0
    for level, gen in enumerate(maps):
        b = np.bincount(gen, weights=a)[gen]
        out[level] = float(np.sum(a[on] * np.log2(b[on] / a[on])))
    return out


def sensitive_distortion(table: Contingency, kept_base: np.ndarray) -> float:
    """Return KL(release || table) of a sensitive attribute.

    The release is the table with the records of the base classes not in ``kept_base``
    removed.

    Parameters
    ----------
    table : Contingency
        The class x value counts of the sensitive attribute over the base classes.
    kept_base : numpy.ndarray
        bool per base class: released.

    Returns
    -------
    float
    """
    q = table.value_totals.astype(np.float64)
    kept = np.bincount(
        table.cell_value[kept_base[table.cell_class]],
        weights=table.cell_count[kept_base[table.cell_class]],
        minlength=len(q),
    )
    if kept.sum() == 0 or q.sum() == 0:
        return float("nan")
    p, q = kept / kept.sum(), q / q.sum()
    on = p > 0
    return float(np.sum(p[on] * np.log(p[on] / q[on])))
