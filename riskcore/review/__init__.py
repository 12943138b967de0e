"""The review: everything a report states, computed once into one result (no rendering here).

:func:`review` assesses a table under a :class:`~riskcore.profile.Profile`:
the table as recorded and, when the profile holds a recipe, the table after
it; each judged by the profile's targets through
:func:`riskcore.criteria.evaluate` (the one verdict); the attacks that need
nothing but the profile (linkage by an attacker who knows every
quasi-identifier, homogeneity), before and after; special uniques; the
recipe with every step; the privacy budget; and the limitations: what was
assumed or not checked, as data. :mod:`riskcore.report` renders a
:class:`Review` (sentences, figures, HTML, PDF); :meth:`Review.to_dict` is
the report's JSON twin.

Modules
-------
results
    The results: :class:`Review`, :class:`RoleReason`, :class:`AttackRun`,
    :class:`Remediation`, :class:`Limitation`, :class:`Readiness` (the release
    decision: the targets met and no identifier left in released columns),
    :func:`dataset_facts`.
utility
    What the remediation keeps, as plain values: :class:`~riskcore.review.utility.ValueCounts`
    per released column, :class:`~riskcore.review.utility.TwoWayTable` (with Cramer's V).
limitations
    What was assumed or not checked (the free text included), as data.
seeds
    :func:`~riskcore.review.seeds.seeds_used`: the seeds the remediation drew with.
compute
    :func:`review`.
"""

from riskcore.review.compute import review
from riskcore.review.limitations import suda_plan
from riskcore.review.results import (
    ATTACK_P,
    REPORT_SCHEMA,
    SUDA_MAX_ROWS,
    AttackRun,
    Limitation,
    Readiness,
    ReleasedIdentifiers,
    Remediation,
    Review,
    RoleReason,
    dataset_facts,
)

__all__ = [
    "ATTACK_P",
    "REPORT_SCHEMA",
    "SUDA_MAX_ROWS",
    "AttackRun",
    "Limitation",
    "Readiness",
    "ReleasedIdentifiers",
    "Remediation",
    "Review",
    "RoleReason",
    "dataset_facts",
    "review",
    "suda_plan",
]
