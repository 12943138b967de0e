"""The objectives of the least-loss search: names, labels, sources and how each is bounded.

A light module (no numpy, no pandas) so that the command line can list the
objectives without importing the computation; the definitions, with their
formulas, are in :mod:`riskcore.utility.loss`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from riskcore.errors import RiskcoreError

__all__ = ["OBJECTIVES", "Objective", "ObjectiveInfo", "check_objective"]

Objective = Literal[
    "ncp", "precision", "loss", "loss_geometric", "aecs", "discernibility", "dm_star", "entropy"
]


@dataclass(frozen=True)
class ObjectiveInfo:
    """An objective of the least-loss search: its name, label, source and bound.

    Attributes
    ----------
    name : str
        The objective's name (``--objective``).
    label : str
        Its name in words, for a selector.
    source : str
        The paper and the ARX class it follows.
    weighted : bool
        True when per-QI weights apply (a multi-dimensional objective).
    bound : {"levels", "node"}
        How the search bounds it: "levels", a sum of one term per QI and
        level (the objective without suppression), valid for every node
        before it is evaluated; "node", a value an evaluated node gives for
        itself and every generalization of it (the classes before
        suppression: fewer, larger classes up the lattice).
    """

    name: str
    label: str
    source: str
    weighted: bool
    bound: Literal["levels", "node"]


#: Every objective, in the order a selector lists them.
OBJECTIVES: dict[str, ObjectiveInfo] = {
    o.name: o
    for o in (
        ObjectiveInfo(
            "ncp", "Normalized certainty penalty (NCP)", "Xu et al. 2006", True, "levels"
        ),
        ObjectiveInfo(
            "precision",
            "Precision (generalization intensity)",
            "Sweeney 2002; ARX's MetricMDPrecision",
            True,
            "levels",
        ),
        ObjectiveInfo(
            "loss",
            "ARX's Loss, arithmetic mean over QIs",
            "Iyengar 2002; ARX's MetricMDNMLoss (ARITHMETIC_MEAN)",
            True,
            "levels",
        ),
        ObjectiveInfo(
            "loss_geometric",
            "ARX's Loss, geometric mean over QIs",
            "Iyengar 2002; ARX's MetricMDNMLoss (GEOMETRIC_MEAN)",
            True,
            "levels",
        ),
        ObjectiveInfo(
            "entropy",
            "Non-uniform entropy (bits)",
            "Gionis & Tassa 2009; ARX's MetricMDNUEntropyPrecomputed",
            True,
            "levels",
        ),
        ObjectiveInfo(
            "aecs",
            "Average equivalence class size (ARX's AECS)",
            "LeFevre et al. 2006; ARX's MetricSDAECS",
            False,
            "node",
        ),
        ObjectiveInfo(
            "discernibility",
            "Discernibility (suppressed records cost n)",
            "Bayardo & Agrawal 2005; ARX's MetricSDNMDiscernability",
            False,
            "node",
        ),
        ObjectiveInfo(
            "dm_star",
            "DM* (discernibility, suppression ignored)",
            "El Emam et al. 2009; ARX's MetricSDDiscernability",
            False,
            "node",
        ),
    )
}


def check_objective(objective: object) -> Objective:
    """Return ``objective`` if it names an objective of the search, else refuse it.

    Parameters
    ----------
    objective : object
        The value to check.

    Returns
    -------
    Objective

    Raises
    ------
    RiskcoreError
        Naming the objectives known (:data:`riskcore.utility.loss.OBJECTIVES`).
    """
    if objective not in OBJECTIVES:
        raise RiskcoreError(
            f"unknown objective {objective!r}: one of {', '.join(map(repr, OBJECTIVES))}"
        )
    return objective  # type: ignore[return-value]
