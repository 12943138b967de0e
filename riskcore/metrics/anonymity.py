"""k-anonymity, the class-size distribution and re-identification risk.

Every function here takes the small tables of the engine contract (:mod:`riskcore.engine.contract`)
(class sizes, the sparse class x value contingency) and is vectorized with
numpy: no Python loop runs over records or classes.

Notation (``shared/notes/formulas.md``): classes j = 1..J over the
quasi-identifiers, f_j records in class j, n = sum f_j, F_j the class size in
the population when known.

References
----------
.. [S02] L. Sweeney, "k-anonymity: a model for protecting privacy",
   Int. J. Uncertainty, Fuzziness and Knowledge-Based Systems 10(5), 2002.
.. [E13] K. El Emam, *Guide to the De-Identification of Personal Health
   Information*, CRC Press, 2013 (prosecutor / journalist / marketer models,
   as implemented in ARX ``risk/RiskModelSampleSummary.java``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from riskcore._results import Result
from riskcore._validation import check_one_of, check_unit_interval

__all__ = [
    "THRESHOLDS",
    "TOLERANCE",
    "ClassSizeDistribution",
    "KAnonymityResult",
    "RiskResult",
    "class_size_distribution",
    "exceeds",
    "k_anonymity",
    "reidentification_risk",
    "threshold_meaning",
]

#: Record-risk thresholds used in practice, with what they mean (El Emam 2013, "cell size
#: precedents"), exact: the threshold of k is 1/k, so a class of exactly k records meets it.
THRESHOLDS: dict[float, str] = {
    1 / 3: "k = 3: lowest cell-size precedent, trusted recipients only",
    1 / 5: "k = 5: common cell-size rule for shared data",
    1 / 11: "k = 11: US public release (CMS cell-size rule of 11)",
    1 / 20: "k = 20: most conservative precedent, public release",
}

#: Absolute tolerance of every comparison of a figure with its limit (risks, shares, t and
#: entropies lie in [0, 1] or are logarithms of counts): rounding never decides a verdict.
TOLERANCE = 1e-12


def exceeds(value: np.ndarray | float, limit: float) -> np.ndarray | bool:
    """Return whether ``value`` is above ``limit`` (beyond :data:`TOLERANCE`).

    The one rule for thresholds: a figure passes when it is at most its
    limit, so a record risk of exactly 1/11 passes the threshold 1/11.

    Parameters
    ----------
    value : numpy.ndarray or float
        The figure, or one figure per class.
    limit : float
        The limit compared with.

    Returns
    -------
    numpy.ndarray or bool
        An array (bool, one per figure) for an array, a bool for a number; False at
        ``limit + TOLERANCE`` and below.
    """
    if isinstance(value, np.ndarray):
        result: np.ndarray = value > limit + TOLERANCE
        return result
    return bool(value > limit + TOLERANCE)


def threshold_meaning(threshold: float) -> str:
    """Return what a record-risk threshold stands for: its precedent, or "a custom threshold".

    Parameters
    ----------
    threshold : float
        The record-risk threshold.

    Returns
    -------
    str
        A value of :data:`THRESHOLDS` when ``threshold`` is one of its keys (within
        :data:`TOLERANCE`).
    """
    for tau, words in THRESHOLDS.items():
        if abs(threshold - tau) <= TOLERANCE:
            return words
    return "a custom threshold"


def _check_sizes(sizes: np.ndarray) -> np.ndarray:
    sizes = np.asarray(sizes)
    if sizes.ndim != 1:
        raise ValueError(f"class sizes must be one-dimensional, got shape {sizes.shape}")
    if len(sizes) and sizes.min() <= 0:
        raise ValueError("class sizes must be positive (empty classes are not classes)")
    return sizes.astype(np.int64, copy=False)


@dataclass(frozen=True)
class ClassSizeDistribution(Result):
    """How many classes, and records, have each class size.

    Attributes
    ----------
    size : tuple of int
        Distinct class sizes, ascending.
    n_classes : tuple of int
        Number of classes of each size.
    n_records : tuple of int
        Number of records in classes of each size (``size * n_classes`` when the
        classes partition the records; under the missing-value policy "any" the
        records whose f_k is that size).
    """

    size: tuple[int, ...]
    n_classes: tuple[int, ...]
    n_records: tuple[int, ...]


def _check_records(records: np.ndarray | None, sizes: np.ndarray) -> np.ndarray:
    """Return the records each class stands for: ``records``, or the sizes themselves."""
    if records is None:
        return sizes
    rec = np.asarray(records).astype(np.int64, copy=False)
    if rec.shape != sizes.shape:
        raise ValueError("records must have one entry per class")
    if len(rec) and (rec.min() <= 0 or np.any(rec > sizes)):
        raise ValueError("each class stands for at least 1 and at most f_j records")
    return rec


def class_size_distribution(
    sizes: np.ndarray, *, records: np.ndarray | None = None
) -> ClassSizeDistribution:
    """Compute the distribution of class sizes (for the histogram).

    Parameters
    ----------
    sizes : numpy.ndarray
        f_j per class.
    records : numpy.ndarray, optional
        The records each class stands for, when the classes overlap (the
        missing-value policy "any" of :mod:`riskcore.metrics.missing`: the
        sizes are the f_k of the records of each ``"own"`` class, ``records``
        their number); default the sizes.

    Returns
    -------
    ClassSizeDistribution
    """
    sizes = _check_sizes(sizes)
    rec = _check_records(records, sizes)
    if len(sizes) and int(sizes.max()) <= 4 * len(sizes) + 1024:  # a count per size: no sort
        per_size = np.bincount(sizes)
        s = np.flatnonzero(per_size)
        c = per_size[s]
        r = np.bincount(sizes, weights=rec)[s].astype(np.int64)
    else:
        s, inv, c = np.unique(sizes, return_inverse=True, return_counts=True)
        r = np.bincount(inv.reshape(-1), weights=rec, minlength=len(s)).astype(np.int64)
    return ClassSizeDistribution(
        tuple(int(x) for x in s), tuple(int(x) for x in c), tuple(int(x) for x in r)
    )


@dataclass(frozen=True)
class KAnonymityResult(Result):
    """k-anonymity of a table over its quasi-identifiers [S02]_.

    Attributes
    ----------
    k : int
        min_j f_j, the size of the smallest class (higher is safer); 0 for
        an empty table.
    n_records : int
        n.
    n_classes : int
        J.
    unique_records : int
        Records alone in their class: sum of f_j over classes with f_j = 1.
    distribution : ClassSizeDistribution
        Classes and records per class size.
    """

    k: int
    n_records: int
    n_classes: int
    unique_records: int
    distribution: ClassSizeDistribution

    @property
    def unique_share(self) -> float:
        """Return the share of records unique on the QIs."""
        return self.unique_records / self.n_records if self.n_records else 0.0


def k_anonymity(sizes: np.ndarray, *, records: np.ndarray | None = None) -> KAnonymityResult:
    """Compute k-anonymity from class sizes.

    k = min_j f_j [S02]_; unique records = sum_j f_j [f_j = 1]. With
    ``records`` (overlapping classes, the missing-value policy "any"), f_j
    is the f_k of the r_j records of class j: n = sum_j r_j, k = min_j f_j,
    unique records = sum_j r_j [f_j = 1].

    Parameters
    ----------
    sizes : numpy.ndarray
        f_j per class.
    records : numpy.ndarray, optional
        Records each class stands for (default ``sizes``).

    Returns
    -------
    KAnonymityResult
    """
    sizes = _check_sizes(sizes)
    rec = _check_records(records, sizes)
    return KAnonymityResult(
        k=int(sizes.min()) if len(sizes) else 0,
        n_records=int(rec.sum()),
        n_classes=len(sizes),
        unique_records=int(rec[sizes == 1].sum()),
        distribution=class_size_distribution(sizes, records=records),
    )


@dataclass(frozen=True)
class RiskResult(Result):
    """Re-identification risk under one attacker model [E13]_.

    All three figures are probabilities; lower is safer.

    Attributes
    ----------
    model : {"prosecutor", "journalist", "marketer"}
        Attacker model.
    threshold : float
        tau, the record-risk threshold ``records_at_risk`` is judged against.
    highest_risk : float
        Highest record risk (1/k for the prosecutor).
    records_at_risk : float
        Share of records whose risk exceeds ``threshold``.
    success_rate : float
        Expected share of records re-identified by an attacker who tries
        every record (J/n for the prosecutor).
    mean_class_risk : float
        (1/J) sum_j 1/F_j: the average risk of a class, a different number
        from the success rate (the average risk of a record).
    """

    model: str
    threshold: float
    highest_risk: float
    records_at_risk: float
    success_rate: float
    mean_class_risk: float


def _check_threshold(threshold: float) -> float:
    return check_unit_interval("threshold", threshold)


def reidentification_risk(
    sizes: np.ndarray,
    *,
    population_sizes: np.ndarray | None = None,
    record_risk: np.ndarray | None = None,
    threshold: float = 1 / 11,
    model: Literal["prosecutor", "journalist", "marketer"] = "prosecutor",
    records: np.ndarray | None = None,
) -> RiskResult:
    """Compute prosecutor, journalist or marketer re-identification risk.

    Definitions (El Emam 2013; ARX ``RiskModelSampleSummary``), with
    tau the threshold:

    * prosecutor: record risk 1/f_j; highest 1/min f_j; records at risk
      (1/n) sum_j f_j [1/f_j > tau]; success rate J/n.
    * journalist: records at risk (1/n) sum_j f_j [1/F_j > tau]; highest
      1/min F_j; success rate max(J / sum_j F_j, (1/n) sum_j f_j/F_j).
    * marketer: success rate (1/n) sum_j f_j/F_j (highest risk and records at
      risk as for the journalist).

    Without population sizes F_j = f_j and all three reduce to the
    prosecutor figures. When the F_j are not known but estimated (a sample
    with sampling fraction pi), 1/F_j is replaced by the model's record risk
    r_j = E[1/F_j | f_j] (:func:`riskcore.metrics.population.individual_risk`)
    and ``population_sizes`` holds the estimates F^_j used only in J / sum F^_j.

    With ``records`` r_j (overlapping classes: the missing-value policy
    "any" of :mod:`riskcore.metrics.missing`, where f_j is the f_k of the r_j
    records of class j), every share counts records: n = sum_j r_j, records
    at risk (1/n) sum_j r_j [risk_j > tau], prosecutor success rate
    (1/n) sum_j r_j / f_j (the mean record risk, J/n when r_j = f_j),
    marketer (1/n) sum_j r_j / F_j; J stays the number of classes (distinct
    QI combinations, missing positions included).

    Parameters
    ----------
    sizes : numpy.ndarray
        f_j per class.
    population_sizes : numpy.ndarray, optional
        F_j per class (same order), each >= f_j.
    record_risk : numpy.ndarray, optional
        Estimated E[1/F_j | f_j] per class, used instead of 1/F_j (journalist
        and marketer only; needs ``population_sizes``).
    threshold : float, default 1/11
        tau; see :data:`THRESHOLDS` for the cited values.
    model : {"prosecutor", "journalist", "marketer"}
        The attacker model (the definitions above).
    records : numpy.ndarray, optional
        Records each class stands for (default ``sizes``).

    Returns
    -------
    RiskResult
    """
    sizes = _check_sizes(sizes)
    w = _check_records(records, sizes).astype(np.float64)
    f = sizes.astype(np.float64)
    tau = _check_threshold(threshold)
    check_one_of("model", model, ("prosecutor", "journalist", "marketer"))
    if population_sizes is None or model == "prosecutor":
        big_f = f
    else:
        big_f = np.asarray(population_sizes, dtype=np.float64)
        if big_f.shape != f.shape:
            raise ValueError("population_sizes must have one entry per class")
        if np.any(big_f < f):
            raise ValueError("a population class cannot be smaller than its sample class")
    n = w.sum()
    if n == 0:
        return RiskResult(model, tau, 0.0, 0.0, 0.0, 0.0)
    j = len(f)
    risk = 1.0 / big_f
    if record_risk is not None and model != "prosecutor":
        if population_sizes is None:
            raise ValueError("record_risk needs the estimated population_sizes")
        risk = np.asarray(record_risk, dtype=np.float64)
        if risk.shape != f.shape:
            raise ValueError("record_risk must have one entry per class")
    highest = float(risk.max())
    at_risk = float((w * exceeds(risk, tau)).sum() / n)
    marketer = float((w * risk).sum() / n)
    if model == "prosecutor":
        success = j / n if records is None else float((w / f).sum() / n)
    elif model == "journalist":
        success = max(j / big_f.sum(), marketer)
    else:
        success = marketer
    return RiskResult(model, tau, highest, at_risk, float(success), float(risk.mean()))
