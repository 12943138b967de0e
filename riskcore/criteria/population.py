"""k-map and delta-presence of a release against its population table, judged by the criteria.

:func:`judge_population` builds the :class:`~riskcore.metrics.evidence.Evidence`
of :class:`~riskcore.metrics.presence.PopulationMatch` (one class per
population class: its released records and its population members, the
classes with no released record included) and judges
:class:`~riskcore.criteria.KMap` and :class:`~riskcore.criteria.DeltaPresence`
on it with :func:`~riskcore.criteria.evaluate`, as every other consumer
judges its targets. The masks are aligned with the rows of
``PopulationMatch.classes``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from riskcore._results import NOT_IN_JSON, Result
from riskcore.criteria.targets import Targets
from riskcore.criteria.verdict import Verdict, class_failures, evaluate
from riskcore.metrics.evidence import Evidence
from riskcore.metrics.presence import PopulationMatch

__all__ = ["PopulationJudgement", "judge_population", "population_evidence"]


def _no_bools() -> np.ndarray:
    return np.zeros(0, dtype=bool)


@dataclass(frozen=True)
class PopulationJudgement(Result):
    """k-map and delta-presence judged on the population classes.

    Attributes
    ----------
    verdict : Verdict
        The verdict on the targets.
    kmap_failing, delta_failing, failing : numpy.ndarray
        Per row of ``PopulationMatch.classes``: breaks k-map, breaks the delta
        range, breaks either (not in JSON).
    """

    verdict: Verdict
    kmap_failing: np.ndarray = field(default_factory=_no_bools, repr=False, metadata=NOT_IN_JSON)
    delta_failing: np.ndarray = field(default_factory=_no_bools, repr=False, metadata=NOT_IN_JSON)
    failing: np.ndarray = field(default_factory=_no_bools, repr=False, metadata=NOT_IN_JSON)


def population_evidence(match: PopulationMatch) -> Evidence:
    """Return the evidence of a population match: one class per row of ``match.classes``.

    Parameters
    ----------
    match : PopulationMatch
        The released table's classes matched with the population's
        (:func:`riskcore.metrics.presence.population_match`).

    Returns
    -------
    Evidence
        Records f_j and population counts F_j only: no sensitive attribute.
    """
    c = match.classes
    return Evidence(
        records=c["released"].to_numpy(dtype=np.int64),
        population_counts=c["population"].to_numpy(dtype=np.int64),
    )


def judge_population(
    match: PopulationMatch,
    *,
    k: int | None = None,
    delta_min: float | None = None,
    delta_max: float | None = None,
) -> PopulationJudgement:
    """Judge k-map and delta-presence on a population match.

    Parameters
    ----------
    match : PopulationMatch
        The released table's classes matched with the population's.
    k : int, optional
        k-map target (a released class matching fewer population members fails).
    delta_min, delta_max : float, optional
        delta-presence range (default 0 and 1 when only one is given): a
        population class with no released record has delta 0.

    Returns
    -------
    PopulationJudgement
    """
    delta = None
    if delta_min is not None or delta_max is not None:
        delta = (0.0 if delta_min is None else delta_min, 1.0 if delta_max is None else delta_max)
    targets = Targets.of(k_map=k, delta=delta)
    ev = population_evidence(match)
    verdict = evaluate(targets, ev)
    kmap = np.zeros(ev.n_classes, dtype=bool)
    dp = np.zeros(ev.n_classes, dtype=bool)
    for crit, _, bad in class_failures(targets, ev):
        if crit.kind == "k-map":
            kmap |= bad
        else:
            dp |= bad
    return PopulationJudgement(
        verdict=verdict, kmap_failing=kmap, delta_failing=dp, failing=kmap | dp
    )
