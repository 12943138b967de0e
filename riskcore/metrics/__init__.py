"""Metrics: functions of class sizes and the sparse class x value contingency.

anonymity
    k-anonymity, the class-size distribution, prosecutor / journalist /
    marketer risk.
diversity
    Distinct / entropy / recursive l-diversity, class majority, and the summary
    of l and t per sensitive attribute (DiversityResult).
closeness
    t-closeness (equal and ordered distances) and the value orders it reads.
population
    Population uniqueness (Zayatz, Pitman, SNB, Dankar et al.).
uniqueness
    Uniqueness per QI subset and each QI's contribution.
special_uniques
    Special uniques: minimal sample uniques, SUDA and DIS-SUDA scores per record
    (:func:`suda`).
records
    Per-record risk: individual risk with sampling weights, the records table.
explain
    One record explained: its class, MSUs and shared values; the riskiest rows.
longitudinal
    Many rows per person: k^m-anonymity of a person's events (visits, diagnoses).
household
    Household risk: 1 - prod(1 - r_i) over a household's members (sdcMicro).
presence
    Against a population table: k-map and delta-presence, and the per-class
    counts they judge.
missing
    The missing-value policy: a missing QI value is a value of its own, or
    matches any value (sdcMicro's convention; per-record compatible sets).
population_model
    :class:`Population`: population sizes for journalist and marketer risk.
assessment
    :func:`assess`: one partition, every metric.
"""

from typing import TYPE_CHECKING

from riskcore._exports import lazy_exports
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
    assess,
    class_table,
)
from riskcore.metrics.closeness import order_choices, order_values, t_closeness_per_class
from riskcore.metrics.diversity import (
    DiversityResult,
    class_majority,
    distinct_l_per_class,
    entropy_per_class,
    recursive_l_per_class,
    sensitive_metrics,
)
from riskcore.metrics.population_model import Population

if TYPE_CHECKING:
    from riskcore.metrics.explain import RecordExplanation, explain_record
    from riskcore.metrics.household import HouseholdRisk, household_risk
    from riskcore.metrics.longitudinal import KmAnonymity, km_anonymity
    from riskcore.metrics.presence import (
        PopulationCounts,
        PopulationMatch,
        delta_presence,
        k_map,
        population_counts,
        population_match,
    )
    from riskcore.metrics.records import IndividualRisk, record_individual_risk, record_risk
    from riskcore.metrics.special_uniques import SudaResult, msu_weight, suda

#: The names of the per-record modules (explain, household, longitudinal, presence, records,
#: special_uniques) and where each is
#: defined: imported when first read (PEP 562), so ``riskcore assess`` does not load them.
_WHERE: dict[str, str] = {
    "RecordExplanation": "explain",
    "explain_record": "explain",
    "HouseholdRisk": "household",
    "household_risk": "household",
    "KmAnonymity": "longitudinal",
    "km_anonymity": "longitudinal",
    "PopulationCounts": "presence",
    "PopulationMatch": "presence",
    "delta_presence": "presence",
    "k_map": "presence",
    "population_counts": "presence",
    "population_match": "presence",
    "IndividualRisk": "records",
    "record_individual_risk": "records",
    "record_risk": "records",
    "SudaResult": "special_uniques",
    "msu_weight": "special_uniques",
    "suda": "special_uniques",
}


__all__ = [
    "MISSING_POLICY",
    "THRESHOLDS",
    "Assessment",
    "ClassSizeDistribution",
    "DiversityResult",
    "HouseholdRisk",
    "IndividualRisk",
    "KAnonymityResult",
    "KmAnonymity",
    "Population",
    "PopulationCounts",
    "PopulationMatch",
    "RecordExplanation",
    "RiskResult",
    "SudaResult",
    "assess",
    "class_majority",
    "class_size_distribution",
    "class_table",
    "delta_presence",
    "distinct_l_per_class",
    "entropy_per_class",
    "explain_record",
    "household_risk",
    "k_anonymity",
    "k_map",
    "km_anonymity",
    "msu_weight",
    "order_choices",
    "order_values",
    "population_counts",
    "population_match",
    "record_individual_risk",
    "record_risk",
    "recursive_l_per_class",
    "reidentification_risk",
    "sensitive_metrics",
    "suda",
    "t_closeness_per_class",
]

__getattr__, __dir__ = lazy_exports(__name__, _WHERE)
