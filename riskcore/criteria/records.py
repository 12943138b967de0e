"""The records table: one row per record, with the targets its class fails.

:func:`record_table` is :func:`riskcore.metrics.records.record_risk` (class
size, prosecutor and individual risk, SUDA) plus ``failing_targets``: the
privacy models (:class:`~riskcore.criteria.Targets`) that the record's class
breaks, judged by the criteria on the assessment's evidence (the same
objects and rule as every other consumer), each by its short mark
(:meth:`~riskcore.criteria.Criterion.code`), "; "-separated, "" when none.
With a household column the table also carries ``household_risk`` beside
``individual_risk``: sdcMicro's household risk, 1 - prod(1 - r_i) over the
household's members (:func:`riskcore.metrics.household.household_risk`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from riskcore.criteria.targets import Targets
from riskcore.criteria.verdict import class_failures
from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError
from riskcore.metrics import Population, assess
from riskcore.metrics.evidence import Evidence
from riskcore.metrics.records import RECORD_COLUMNS as _RISK_COLUMNS
from riskcore.metrics.records import record_risk
from riskcore.metrics.special_uniques import SudaResult

__all__ = ["HOUSEHOLD_COLUMN", "RECORD_COLUMNS", "failing_targets", "record_table"]

#: The columns of :func:`record_table`, in order (with a household column, ``household_risk``
#: follows ``individual_risk``).
RECORD_COLUMNS: tuple[str, ...] = (*_RISK_COLUMNS, "failing_targets")
#: The column a household adds, after ``individual_risk``.
HOUSEHOLD_COLUMN = "household_risk"


def failing_targets(targets: Targets, evidence: Evidence) -> np.ndarray:
    """Return, per class of ``evidence``, the marks of the targets it breaks ("" for none).

    Parameters
    ----------
    targets : Targets
        The targets the release must meet.
    evidence : Evidence
        The classes judged.

    Returns
    -------
    numpy.ndarray
        object array of str, one per class.
    """
    flags = [(c.code(a), bad) for c, a, bad in class_failures(targets, evidence)]
    if not flags:
        return np.full(evidence.n_classes, "", dtype=object)
    # one bit per target; one text per distinct combination (few), looked up per class
    mask = np.zeros(evidence.n_classes, dtype=np.int64)
    for bit, (_, bad) in enumerate(flags):
        mask |= bad.astype(np.int64) << bit
    combos, inverse = np.unique(mask, return_inverse=True)
    texts = np.array(
        [
            "; ".join(name for b, (name, _) in enumerate(flags) if combo >> b & 1)
            for combo in combos
        ],
        dtype=object,
    )
    out: np.ndarray = texts[inverse.reshape(-1)]
    return out


def record_table(
    data: EncodedTable | pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    targets: Targets | None = None,
    sensitive: Sequence[str] = (),
    weights: str | None = None,
    sampling_fraction: float | None = None,
    method: Literal["exact", "approx"] = "exact",
    max_msu_size: int | None = None,
    dis_fraction: float | None = None,
    suda_result: SudaResult | None = None,
    missing: Literal["own", "any"] = "own",
    distance: Mapping[str, str] | None = None,
    order: Mapping[str, Sequence[Any]] | None = None,
    evidence: Evidence | None = None,
    person: str | None = None,
    events: Sequence[str] = (),
    household: str | None = None,
    hierarchy: Mapping[str, Sequence[Sequence[Any]]] | None = None,
) -> pd.DataFrame:
    """Return one row per input record with its risk figures and the targets it fails.

    Columns: those of :func:`riskcore.metrics.records.record_risk`, then
    ``failing_targets`` (see the module).

    Parameters
    ----------
    data : EncodedTable or pandas.DataFrame
        The table, or its encoded form (whose codes are cached).
    quasi_identifiers : sequence of str
        The quasi-identifier columns.
    targets : Targets, optional
        Without targets ``failing_targets`` is "" everywhere.
    sensitive : sequence of str
        The sensitive attributes the l and t targets read.
    weights, sampling_fraction, method, max_msu_size, dis_fraction, suda_result, missing
        As :func:`riskcore.metrics.records.record_risk`.
    distance, order : mapping, optional
        t-closeness ground distance and value order per sensitive attribute
        (as :func:`riskcore.metrics.assess`).
    evidence : Evidence, optional
        The assessment's evidence of the same table, QIs and policy
        (:attr:`riskcore.metrics.Assessment.evidence`), reused.
    person : str, optional
        The column linking the rows of one person: every row carries its
        person's class (counted in people), risk and failing targets.
    events : sequence of str, default ()
        The event columns a k^m-anonymity target judges (with ``person``).
    household : str, optional
        The household column: adds ``household_risk``, the household risk of
        each row from the ``individual_risk`` of its household's members
        (people with ``person``).
    hierarchy : mapping of str to rows, optional
        Per sensitive attribute, its hierarchy for the hierarchical
        t-closeness distance (as :func:`riskcore.metrics.assess`).

    Returns
    -------
    pandas.DataFrame
        One row per record in input order, with a fresh RangeIndex.

    Raises
    ------
    RolesError, RiskcoreError
        For unknown columns, bad weights or targets (messages for people).
    """
    table = data if isinstance(data, EncodedTable) else EncodedTable(data)
    out = record_risk(
        table,
        quasi_identifiers,
        weights=weights,
        sampling_fraction=sampling_fraction,
        method=method,
        max_msu_size=max_msu_size,
        dis_fraction=dis_fraction,
        suda_result=suda_result,
        missing=missing,
        person=person,
    )
    failing = np.full(table.n_records, "", dtype=object)
    if targets is not None and targets.criteria:
        if evidence is None:
            population = Population.of(weights=weights, sampling_fraction=sampling_fraction)
            found = assess(
                table,
                quasi_identifiers=quasi_identifiers,
                sensitive=sensitive,
                distance=dict(distance) if distance else None,
                order=order,
                population_model=population,
                missing=missing,
                person=person,
                events=events,
                hierarchy=hierarchy or None,
            ).evidence
            if found is None:
                raise RiskcoreError("the assessment gave no evidence to judge the targets on")
            evidence = found
        per_class = failing_targets(targets, evidence)
        failing = per_class[table.record_classes(tuple(quasi_identifiers), person=person)]
    columns = list(RECORD_COLUMNS)
    if household is not None:
        from riskcore.metrics.household import household_risk

        hh = household_risk(table, household, out["individual_risk"].to_numpy(), person=person)
        out = out.assign(**{HOUSEHOLD_COLUMN: hh.risk})
        columns.insert(columns.index("individual_risk") + 1, HOUSEHOLD_COLUMN)
    return out.assign(failing_targets=pd.Series(failing, dtype=object))[columns]
