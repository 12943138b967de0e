"""What a release loses: information loss of a generalized table and utility of a changed one.

==================  =====================================================================
module              what
==================  =====================================================================
:mod:`.objectives`  the search's objectives: names, labels, sources, bounds (no numpy)
:mod:`.loss`        information loss of a generalized table (NCP, precision, loss,
                    AECS, discernibility, DM*, entropy; formulas.md "Information loss")
:mod:`.tables`      utility of a remediated table: what changed per column, two-way
                    tables, a model's accuracy
:mod:`.numeric`     risk and utility of perturbed numbers: sdcMicro's dRisk and IL1s
==================  =====================================================================

Below :mod:`riskcore.perturb` and :mod:`riskcore.deidentify`, above the criteria and the
metrics: the search, the perturbative methods and the review all read it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from riskcore._exports import lazy_exports

if TYPE_CHECKING:
    from riskcore.utility.loss import (
        OBJECTIVES,
        Objective,
        ObjectiveInfo,
        check_objective,
        column_entropy,
        column_penalties,
        column_shares,
        sensitive_distortion,
    )
    from riskcore.utility.numeric import (
        DRISK_K,
        NumericRiskUtility,
        drisk,
        drisk_all_inside,
        il1s,
        numeric_risk_utility,
        unperturbed,
    )
    from riskcore.utility.tables import (
        ClassificationUtility,
        ColumnChange,
        TwoWay,
        classification_utility,
        column_change,
        cramers_v,
        held_out_rows,
        naive_bayes_scores,
        natural_order,
        texts,
        two_way,
        value_counts,
    )

_WHERE: dict[str, str] = {
    "OBJECTIVES": "loss",
    "Objective": "loss",
    "ObjectiveInfo": "loss",
    "check_objective": "loss",
    "column_entropy": "loss",
    "column_penalties": "loss",
    "column_shares": "loss",
    "sensitive_distortion": "loss",
    "ClassificationUtility": "tables",
    "ColumnChange": "tables",
    "TwoWay": "tables",
    "classification_utility": "tables",
    "column_change": "tables",
    "cramers_v": "tables",
    "held_out_rows": "tables",
    "naive_bayes_scores": "tables",
    "natural_order": "tables",
    "texts": "tables",
    "two_way": "tables",
    "value_counts": "tables",
    "DRISK_K": "numeric",
    "NumericRiskUtility": "numeric",
    "drisk": "numeric",
    "drisk_all_inside": "numeric",
    "il1s": "numeric",
    "numeric_risk_utility": "numeric",
    "unperturbed": "numeric",
}

__all__ = [
    "DRISK_K",
    "OBJECTIVES",
    "ClassificationUtility",
    "ColumnChange",
    "NumericRiskUtility",
    "Objective",
    "ObjectiveInfo",
    "TwoWay",
    "check_objective",
    "classification_utility",
    "column_change",
    "column_entropy",
    "column_penalties",
    "column_shares",
    "cramers_v",
    "drisk",
    "drisk_all_inside",
    "held_out_rows",
    "il1s",
    "naive_bayes_scores",
    "natural_order",
    "numeric_risk_utility",
    "sensitive_distortion",
    "texts",
    "two_way",
    "unperturbed",
    "value_counts",
]

__getattr__, __dir__ = lazy_exports(__name__, _WHERE)
