"""The risk and loss a history records after each step: one measure for every kind of step.

A history's steps are of every kind (masking, Safe Harbor, perturbation, generalization), so
the figures it records after each one are measured on the table the applied steps give,
against the table as recorded, the same way for every kind:

* **risk**: the largest prosecutor re-identification risk of a released record,
  ``1 / min(f_j)`` over the equivalence classes ``j`` of the quasi-identifiers in the
  released table (El Emam, *Guide to the De-Identification of Personal Health Information*,
  2013, ch. 14; Sweeney 2002's k is ``min(f_j)``). A missing value is a value of its own
  (``groupby(dropna=False)``), or, under the "any" convention (``missing="any"``: the
  profile's policy, and always after a local suppression, whose blanks are meant to match
  any value, as sdcMicro judges it), a wildcard: ``f`` is then the number of records each
  record matches (:func:`riskcore.perturb.match_counts`).
* **loss**: the share of the quasi-identifier values of the recorded table that the
  release does not hold as they were: changed (generalized, perturbed, blanked) or gone
  with a suppressed record. 0 when nothing changed, 1 when every value changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

import numpy as np
import pandas as pd

from riskcore.errors import RiskcoreError
from riskcore.perturb import match_counts

__all__ = ["StepScores", "step_scores"]


class StepScores(NamedTuple):
    """The risk and loss after a step (None when there is no quasi-identifier to measure).

    Attributes
    ----------
    risk : float or None
        The largest record risk of the release (1 / its smallest class); 0.0 when no
        record is released.
    loss : float or None
        The share of the quasi-identifier values changed or suppressed.
    """

    risk: float | None
    loss: float | None


def _as_text(values: pd.Series) -> np.ndarray:
    """Return the values as text, a missing value as None (compared as a value of its own)."""
    out = values.astype(object).to_numpy(copy=True)
    missing = pd.isna(values).to_numpy()
    out[missing] = None
    out[~missing] = values[~missing].astype(str).to_numpy()
    return out


def step_scores(
    data: pd.DataFrame,
    released: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    rows: Sequence[int] | np.ndarray,
    *,
    missing: Literal["own", "any"] = "own",
) -> StepScores:
    """Compute the largest record risk and the share of QI values lost in a release.

    Parameters
    ----------
    data : pandas.DataFrame
        The table as recorded.
    released : pandas.DataFrame
        The table the applied steps give (suppressed records are gone).
    quasi_identifiers : sequence of str
        The quasi-identifiers; those the release dropped count as wholly lost.
    rows : sequence of int
        For each row of ``released``, the position of its record in ``data`` (0-based).
    missing : {"own", "any"}, default "own"
        A missing QI value is a value of its own, or matches any value.

    Returns
    -------
    StepScores
        ``(None, None)`` when there is no quasi-identifier.

    Raises
    ------
    RiskcoreError
        When ``rows`` does not give one position in ``data`` per released row, or a
        quasi-identifier is not a column of ``data``.
    """
    qis = [str(q) for q in quasi_identifiers]
    if not qis:
        return StepScores(None, None)
    absent = [q for q in qis if q not in data.columns]
    if absent:
        raise RiskcoreError(f"{absent[0]!r} is not a column of the table as recorded")
    pos = np.asarray(rows, dtype=np.int64)
    if len(pos) != len(released) or (len(pos) and (pos.min() < 0 or pos.max() >= len(data))):
        raise RiskcoreError(
            "the release needs one position in the recorded table per row "
            f"({len(released):,} rows, {len(pos):,} positions)"
        )
    kept = [q for q in qis if q in released.columns]
    total = len(data) * len(qis)
    same = 0
    for q in kept:  # one vectorized comparison per column (a handful of QIs)
        before = _as_text(data[q].iloc[pos].reset_index(drop=True))
        after = _as_text(released[q].reset_index(drop=True))
        same += int((before == after).sum())  # None == None: missing stayed missing
    loss = (total - same) / total if total else 0.0
    if not len(released):
        return StepScores(0.0, loss)
    if not kept:  # every QI dropped: the release is one class
        return StepScores(1.0 / len(released), loss)
    if missing == "any":
        return StepScores(1.0 / float(match_counts(released, kept).min()), loss)
    sizes = released[kept].groupby(kept, dropna=False, observed=True, sort=False).size()
    return StepScores(1.0 / float(sizes.min()), loss)
