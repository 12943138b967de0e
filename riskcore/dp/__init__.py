"""Differential privacy: noise and error, budgets, identifiability, releases and local DP.

Closed forms and seeded numpy *simulations* (for plots) live here; values
offered as releases go through OpenDP in :mod:`riskcore.dp.release` (imported
only when used). :mod:`riskcore.dp.local` holds local DP (randomized
response).
"""

from riskcore.dp.core import *  # noqa: F403 - the public API of riskcore.dp
from riskcore.dp.core import MECHANISM_LABELS, NEIGHBOURING_LABELS
from riskcore.dp.core import __all__ as _core_all

__all__ = [*_core_all, "MECHANISM_LABELS", "NEIGHBOURING_LABELS"]
