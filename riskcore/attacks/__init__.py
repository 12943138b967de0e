"""Attacks: linkage, differencing, homogeneity and two releases."""

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
    "simulate_noisy_difference",
    "two_release_attack",
    "unique_target",
]
