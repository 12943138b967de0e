"""Attacks: linkage, differencing, homogeneity and two releases.

Each attack takes ``person=``, the column linking the rows of one person:
then it counts people, not rows (``people_count`` gives a table's people).
"""

from riskcore.attacks._people import people_count
from riskcore.attacks.differencing import (
    DifferencingResult,
    difference_within_probability,
    differencing_attack,
    simulate_noisy_difference,
    unique_target,
)
from riskcore.attacks.homogeneity import HomogeneityResult, homogeneity_attack
from riskcore.attacks.two_releases import TwoReleaseResult, two_release_attack

__all__ = [
    "DifferencingResult",
    "HomogeneityResult",
    "TwoReleaseResult",
    "difference_within_probability",
    "differencing_attack",
    "homogeneity_attack",
    "people_count",
    "simulate_noisy_difference",
    "two_release_attack",
    "unique_target",
]
