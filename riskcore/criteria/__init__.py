"""Privacy models as objects: the only place a target is judged.

One class per privacy model (:mod:`riskcore.criteria.models`; ARX's
``criteria/`` is the model), each deciding per equivalence class from the
engine contract (:class:`Evidence`: class sizes, sensitive counts, population
counts) and explaining itself in a :class:`Check`. :class:`Targets` is a
tuple of them with a suppression limit; :func:`evaluate` gives the one
:class:`Verdict`. Every consumer (the Anonymity and Remediate pages, the
lattice search, the records table, the report, the command line, saved
comparisons) calls :func:`evaluate` on the same objects.

Modules
-------
evidence
    :class:`Evidence`, the classes of one grouping as the models read them.
base
    :class:`Criterion`, :class:`Check`, the registry, the one threshold rule.
models
    k-anonymity, distinct / entropy / recursive (c,l)-diversity, t-closeness,
    record risk, average (marketer) risk, k-map, delta-presence, k^m-anonymity
    of a person's events.
targets
    :class:`Targets` and the exact record-risk presets.
verdict
    :func:`evaluate` and :class:`Verdict`.
"""

from riskcore.criteria.base import (
    REGISTRY,
    TOLERANCE,
    Check,
    Criterion,
    criterion_from_dict,
    exceeds,
)
from riskcore.criteria.models import (
    AverageRisk,
    BetaLikeness,
    DeltaDisclosure,
    DeltaPresence,
    DistinctLDiversity,
    EntropyLDiversity,
    KAnonymity,
    KmAnonymity,
    KMap,
    PopulationUniqueness,
    RecordRisk,
    RecursiveCLDiversity,
    SampleUniqueness,
    TCloseness,
)
from riskcore.criteria.targets import (
    L_KINDS,
    LEGACY_THRESHOLDS,
    RISK_PRESETS,
    Targets,
    threshold_meaning,
)
from riskcore.criteria.verdict import Verdict, class_failures, evaluate, with_suppressed
from riskcore.metrics.evidence import Evidence, PopulationEvidence, SensitiveEvidence

__all__ = [
    "LEGACY_THRESHOLDS",
    "L_KINDS",
    "REGISTRY",
    "RISK_PRESETS",
    "TOLERANCE",
    "AverageRisk",
    "BetaLikeness",
    "Check",
    "Criterion",
    "DeltaDisclosure",
    "DeltaPresence",
    "DistinctLDiversity",
    "EntropyLDiversity",
    "Evidence",
    "KAnonymity",
    "KMap",
    "KmAnonymity",
    "PopulationEvidence",
    "PopulationUniqueness",
    "RecordRisk",
    "RecursiveCLDiversity",
    "SampleUniqueness",
    "SensitiveEvidence",
    "TCloseness",
    "Targets",
    "Verdict",
    "class_failures",
    "criterion_from_dict",
    "evaluate",
    "exceeds",
    "threshold_meaning",
    "with_suppressed",
]
