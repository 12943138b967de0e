"""Likeness and disclosure: how much a class raises an attacker's belief in a sensitive value.

Each class j of the quasi-identifiers has a distribution P_j = (p_j(s)) of a
sensitive attribute; the table's is Q = (q(s)), the attacker's prior. The
measures here compare them value by value, over the values present in the
class (an absent value lowers the belief in it, which these models do not
judge), from the sparse contingency (no class x value matrix):

- relative gain (Cao and Karras 2012): g_j(s) = (p_j(s) - q(s)) / q(s);
  basic beta-likeness asks g_j(s) <= beta, enhanced beta-likeness asks
  g_j(s) <= min(beta, -ln q(s)) for every present value;
- delta-disclosure (Brickell and Shmatikov 2008): |log2(p_j(s) / q(s))| < delta
  for every present value.

These follow ARX 3.9.2's ``org.deidentifier.arx.criteria.BasicBLikeness``,
``EnhancedBLikeness`` and ``DDisclosurePrivacy`` (the values present in the
class, the table's distribution as Q, base-2 logarithm for delta). Q may
be given instead (``shares``, one share per value code): ARX judges every
class against the input's distribution (``DataManager.getDistribution``),
which stays the same when classes are suppressed. With a
person column a class's cells count its people once per distinct value they
hold (the contingency of :mod:`riskcore.engine`), so p_j(s) is the share of
the class's (person, value) pairs holding s.

References
----------
.. [CK12] J. Cao, P. Karras, "Publishing microdata with a robust privacy guarantee",
   PVLDB 5(11), 1388-1399, 2012.
.. [BS08] J. Brickell, V. Shmatikov, "The cost of privacy: destruction of data-mining utility
   in anonymized data publishing", KDD 2008, 70-78.
"""

from __future__ import annotations

import numpy as np

from riskcore.engine import Contingency

__all__ = ["delta_disclosure_per_class", "enhanced_likeness_per_class", "likeness_per_class"]


def _cells(table: Contingency, shares: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Return each present cell's p_j(s) and q(s) (the table's, or ``shares`` per value code)."""
    if shares is None:
        total = float(table.value_totals.sum())
        q = np.take(table.value_totals, table.cell_value, mode="clip") / max(total, 1.0)
    else:
        q = np.take(np.asarray(shares, dtype=np.float64), table.cell_value, mode="clip")
    sizes = np.take(table.class_sizes, table.cell_class, mode="clip")
    p = table.cell_count / np.maximum(sizes, 1)
    return p, q


def _class_max(table: Contingency, values: np.ndarray) -> np.ndarray:
    """Return the largest of each class's cell values (0 for a class without cells)."""
    n = len(table.class_sizes)
    out = np.full(n, -np.inf)
    np.maximum.at(out, table.cell_class, values)
    out[np.isinf(out) & (out < 0)] = 0.0
    return out


def likeness_per_class(table: Contingency, shares: np.ndarray | None = None) -> np.ndarray:
    """Return each class's largest relative gain, beta_j = max_s (p_j(s) - q(s)) / q(s).

    Basic beta-likeness [CK12]_ holds for class j when beta_j <= beta. Over
    the values present in the class.

    Parameters
    ----------
    table : Contingency
        The classes x values table of the sensitive attribute.
    shares : numpy.ndarray or None, optional
        Q, the share of each value code (None: the table's own distribution).

    Returns
    -------
    numpy.ndarray
        float per class; 0 for a class without cells. A class of 2 records, both
        "flu", in a table where 1 record in 4 has flu: (1 - 1/4) / (1/4) = 3.
    """
    p, q = _cells(table, shares)
    return _class_max(table, (p - q) / q)


def enhanced_likeness_per_class(
    table: Contingency, beta: float, shares: np.ndarray | None = None
) -> np.ndarray:
    """Return each class's relative gain against the enhanced limit, on beta's scale.

    Enhanced beta-likeness [CK12]_ (ARX's ``EnhancedBLikeness``) asks, for
    every present value, g_j(s) <= min(beta, -ln q(s)): a common value may
    gain less than beta. The figure of class j is
    beta x max_s g_j(s) / min(beta, -ln q(s)) (a gain at or below 0 counts
    0), so the class passes exactly when its figure is at most beta, and the
    figure equals beta_j wherever -ln q(s) >= beta.

    Parameters
    ----------
    table : Contingency
        The classes x values table of the sensitive attribute.
    beta : float
        The beta of the target (positive).
    shares : numpy.ndarray or None, optional
        Q, the share of each value code (None: the table's own distribution).

    Returns
    -------
    numpy.ndarray
        float per class; 0 for a class without cells. A value every record
        holds (q(s) = 1, limit -ln 1 = 0) has no gain (p_j(s) = 1) and counts 0.
    """
    p, q = _cells(table, shares)
    gain = (p - q) / q
    limit = np.minimum(beta, -np.log(q))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(gain <= 0, 0.0, gain / limit)
    return _class_max(table, beta * ratio)


def delta_disclosure_per_class(table: Contingency, shares: np.ndarray | None = None) -> np.ndarray:
    """Return each class's largest |log2(p_j(s) / q(s))| over its present values.

    delta-disclosure privacy [BS08]_ holds for class j when this is below
    delta (strictly; ARX's ``DDisclosurePrivacy`` with its base-2 logarithm).

    Parameters
    ----------
    table : Contingency
        The classes x values table of the sensitive attribute.
    shares : numpy.ndarray or None, optional
        Q, the share of each value code (None: the table's own distribution).

    Returns
    -------
    numpy.ndarray
        float per class; 0 for a class without cells. A class of 2 records, one
        "flu", in a table where 1 record in 8 has flu: |log2((1/2) / (1/8))| = 2.
    """
    p, q = _cells(table, shares)
    return _class_max(table, np.abs(np.log2(p / q)))
