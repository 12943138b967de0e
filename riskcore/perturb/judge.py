"""k after local suppression, judged by the one place targets are judged (:mod:`riskcore.criteria`).

A blank cell left by local suppression stands for any value, so the release is
judged under the missing-value policy ``"any"`` (a record matches every record
that agrees with it on the QIs known in both; sdcMicro's ``alpha = 1``):
:class:`riskcore.criteria.KAnonymity` on the :class:`riskcore.metrics.evidence.Evidence`
of the table built with ``missing="any"``, whose class sizes are then f_k
(:func:`riskcore.metrics.missing.compatible_sizes`).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from riskcore._validation import check_positive_int
from riskcore.criteria import KAnonymity, Verdict, evaluate
from riskcore.engine import EncodedTable
from riskcore.metrics.evidence import Evidence
from riskcore.metrics.missing import check_any_policy
from riskcore.perturb.suppression import _check_qis

__all__ = ["k_verdict"]


def k_verdict(
    data: pd.DataFrame, quasi_identifiers: Sequence[str], k: int, *, person: str | None = None
) -> Verdict:
    """Judge k-anonymity with a missing value matching any value (the ``"any"`` policy).

    The judgement local suppression aims at: every record must match at least
    k records (itself included) on the quasi-identifiers, a blank matching any
    value. Records below k are ``verdict.needed`` (the records of the classes
    that break k; nothing is suppressed by this call).

    Parameters
    ----------
    data : pandas.DataFrame
        The table as it is (before or after local suppression).
    quasi_identifiers : sequence of str
        The quasi-identifier columns.
    k : int
        At least 1.
    person : str, optional
        The column linking the rows of one person: people are judged (each
        must match at least k people), and ``verdict.needed`` counts people.

    Returns
    -------
    Verdict
        From :func:`riskcore.criteria.evaluate` with one
        :class:`~riskcore.criteria.KAnonymity` criterion; ``checks[0].achieved``
        is the smallest f_k.

    Raises
    ------
    RiskcoreError
        When a QI is not a column of ``data``.
    ValueError
        When k is not a whole number of at least 1.
    """
    qis = _check_qis(data, quasi_identifiers)
    k = check_positive_int("k", k)
    columns = [*qis, *([person] if person is not None else [])]
    tab = EncodedTable(data[columns]).tabulate(list(qis), [], person=person)
    if person is not None:
        check_any_policy(tab.classes)
    evidence = Evidence.of(tab.classes, missing="any")
    return evaluate([KAnonymity(k=k)], evidence)
