"""Perturbative methods of statistical disclosure control, after sdcMicro.

Modules: ``suppression`` (local suppression of single quasi-identifier cells until
k-anonymity holds under "missing matches any value"), ``microaggregation`` (MDAV on
standardized variables), ``utility`` (interval disclosure risk ``dRisk`` and the
information loss IL1s), ``pram`` (invariant PRAM) and ``noise`` (additive noise).
Every method changes values (it never drops a record): the report says which.
"""

from riskcore.perturb.microaggregation import Microaggregation, microaggregate
from riskcore.perturb.suppression import LocalSuppression, default_importance, local_suppression
from riskcore.perturb.utility import NumericRiskUtility, drisk, il1s, numeric_risk_utility

__all__ = [
    "LocalSuppression",
    "Microaggregation",
    "NumericRiskUtility",
    "default_importance",
    "drisk",
    "il1s",
    "local_suppression",
    "microaggregate",
    "numeric_risk_utility",
]
