"""Perturbative methods of statistical disclosure control, after sdcMicro.

Modules: ``suppression`` (local suppression of single quasi-identifier cells until
k-anonymity holds under "missing matches any value"), ``microaggregation`` (MDAV on
standardized variables), ``utility`` (interval disclosure risk ``dRisk`` and the
information loss IL1s), ``random`` (invariant PRAM and additive noise, seeded), ``judge``
(k after local suppression, judged by :mod:`riskcore.criteria` under the ``any`` policy).
Every method changes values (it never drops a record): the report says which.
"""

from riskcore.perturb.judge import k_verdict
from riskcore.perturb.microaggregation import Microaggregation, microaggregate
from riskcore.perturb.random import Noise, Pram, add_noise, invariant_matrix, pram
from riskcore.perturb.suppression import (
    LocalSuppression,
    default_importance,
    local_suppression,
    match_counts,
)
from riskcore.utility.numeric import (
    NumericRiskUtility,
    drisk,
    drisk_all_inside,
    il1s,
    numeric_risk_utility,
    unperturbed,
)

__all__ = [
    "LocalSuppression",
    "Microaggregation",
    "Noise",
    "NumericRiskUtility",
    "Pram",
    "add_noise",
    "default_importance",
    "drisk",
    "drisk_all_inside",
    "il1s",
    "invariant_matrix",
    "k_verdict",
    "local_suppression",
    "match_counts",
    "microaggregate",
    "numeric_risk_utility",
    "pram",
    "unperturbed",
]
