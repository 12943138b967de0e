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
* Average class size C_avg = (n / J) / k (LeFevre, DeWitt & Ramakrishnan 2006).

Groups are those of the values present in the data (u and [a, b] count the
data's values, not every value a hierarchy could name), so the penalty of a
level depends only on the data and the hierarchy, and grows with the level.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from riskcore.deidentify.hierarchy import Hierarchy, at_leaves

__all__ = ["column_penalties"]


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
