"""Metrics: functions of class sizes and the sparse class x value contingency.

anonymity
    k-anonymity, the class-size distribution, prosecutor / journalist /
    marketer risk.
diversity
    Distinct / entropy / recursive l-diversity and t-closeness.
population
    Population uniqueness (Zayatz, Pitman, SNB, Dankar et al.).
uniqueness
    Uniqueness per QI subset and each QI's contribution.
suda
    Special uniques: minimal sample uniques, SUDA and DIS-SUDA scores per record.
assessment
    :func:`assess`: one partition, every metric.
"""

from riskcore.metrics.anonymity import (
    THRESHOLDS,
    ClassSizeDistribution,
    KAnonymityResult,
    RiskResult,
    class_size_distribution,
    k_anonymity,
    reidentification_risk,
)
from riskcore.metrics.assessment import (
    MISSING_POLICY,
    Assessment,
    Population,
    assess,
    class_table,
)
from riskcore.metrics.diversity import (
    DiversityResult,
    class_majority,
    distinct_l_per_class,
    entropy_per_class,
    order_choices,
    order_values,
    recursive_l_per_class,
    sensitive_metrics,
    t_closeness_per_class,
)
from riskcore.metrics.suda import SudaResult, msu_weight, suda

__all__ = [
    "MISSING_POLICY",
    "THRESHOLDS",
    "Assessment",
    "ClassSizeDistribution",
    "DiversityResult",
    "KAnonymityResult",
    "Population",
    "RiskResult",
    "SudaResult",
    "assess",
    "class_majority",
    "class_size_distribution",
    "class_table",
    "distinct_l_per_class",
    "entropy_per_class",
    "k_anonymity",
    "msu_weight",
    "order_choices",
    "order_values",
    "recursive_l_per_class",
    "reidentification_risk",
    "sensitive_metrics",
    "suda",
    "t_closeness_per_class",
]
