"""Ground truth of the linkage attack: each target's own record, or own person.

The attacker's table does not say who each target is; an evaluation does.
The truth is given as the release position of each target's own record (-1:
not released), or as a pair of id columns (auxiliary, released) holding a
shared identifier, or read from a column of release row numbers
(:func:`row_number_truth`). With a person column the truth is the target's
own *person*: the person of that record, or the person holding that id
(an id may repeat over one person's rows, never across two people).

References
----------
.. [S02] L. Sweeney, "k-anonymity: a model for protecting privacy",
   IJUFKS 10(5), 2002.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from riskcore.attacks.linkage.matching import _as_text
from riskcore.errors import RiskcoreError

__all__ = ["row_number_truth"]


def _truth_positions(
    release: pd.DataFrame, auxiliary: pd.DataFrame, truth: np.ndarray | tuple[str, str] | None
) -> np.ndarray | None:
    if truth is None:
        return None
    if isinstance(truth, tuple):
        a_col, r_col = truth
        if a_col not in auxiliary.columns or r_col not in release.columns:
            raise RiskcoreError(f"ground-truth columns not found: {a_col!r}, {r_col!r}")
        r_ids = _as_text(pd.Series(release[r_col].to_numpy(dtype=object)))
        a_ids = _as_text(pd.Series(auxiliary[a_col].to_numpy(dtype=object)))
        if r_ids.duplicated().any():
            raise RiskcoreError(f"the released id column {r_col!r} has duplicate values")
        return np.asarray(pd.Index(r_ids).get_indexer(pd.Index(a_ids)), dtype=np.int64)
    pos = np.asarray(truth, dtype=np.int64)
    if pos.shape != (len(auxiliary),):
        raise RiskcoreError("truth must give one release position per auxiliary row")
    if (pos >= len(release)).any() or (pos < -1).any():
        raise RiskcoreError("truth positions must be -1 or valid release rows")
    return pos


def row_number_truth(auxiliary: pd.DataFrame, column: str, n_release: int) -> np.ndarray:
    """Read the ground truth from a column of release row numbers (the first row is 1).

    For an attacker's table drawn from the release itself (a sample with its
    row numbers kept): row number r of the auxiliary row is the release
    record at position r - 1. A blank means "not in the release" (-1).

    Parameters
    ----------
    auxiliary : pandas.DataFrame
        The attacker's table.
    column : str
        The auxiliary column holding row numbers 1 .. ``n_release``.
    n_release : int
        Number of records in the release.

    Returns
    -------
    numpy.ndarray
        The release position of each auxiliary row (-1: none), to pass as
        ``truth`` to :func:`linkage_attack`.

    Raises
    ------
    RiskcoreError
        When the column is absent, or holds a value that is not a row number.
    """
    if column not in auxiliary.columns:
        raise RiskcoreError(f"the attacker's table has no column {column!r}")
    raw = auxiliary[column]
    num = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float)
    blank = raw.isna().to_numpy()
    bad = ~blank & (np.isnan(num) | (num != np.round(num)) | (num < 1) | (num > n_release))
    if bad.any():
        examples = ", ".join(repr(str(v)) for v in raw[bad].unique()[:3])
        raise RiskcoreError(
            f"{column!r} must hold row numbers from 1 to {n_release:,}; "
            f"{int(bad.sum()):,} value(s) are not, e.g. {examples}"
        )
    return np.where(blank, -1, np.nan_to_num(num) - 1).astype(np.int64)


def _truth_people(
    release: pd.DataFrame,
    auxiliary: pd.DataFrame,
    truth: np.ndarray | tuple[str, str] | None,
    who: np.ndarray,
) -> np.ndarray | None:
    """Return the released person of each auxiliary row (-1: not in the release), or None.

    ``who`` is the person of each released row. Positions give the person of
    that row; an id pair maps each released id to the one person holding it
    (an id on two people's rows is refused; a missing id identifies nobody).
    """
    if truth is None:
        return None
    if not isinstance(truth, tuple):
        pos = _truth_positions(release, auxiliary, truth)
        if pos is None:  # pragma: no cover - truth is not None
            return None
        out: np.ndarray = np.where(pos >= 0, who[np.maximum(pos, 0)], -1)
        return out
    a_col, r_col = truth
    if a_col not in auxiliary.columns or r_col not in release.columns:
        raise RiskcoreError(f"ground-truth columns not found: {a_col!r}, {r_col!r}")
    r_ids = _as_text(pd.Series(release[r_col].to_numpy(dtype=object)))
    a_ids = _as_text(pd.Series(auxiliary[a_col].to_numpy(dtype=object)))
    known = r_ids.notna().to_numpy()
    pairs = pd.DataFrame({"id": r_ids[known], "person": who[known]}).drop_duplicates()
    shared = pairs["id"].duplicated(keep=False)
    if shared.any():
        example = str(pairs["id"][shared].iloc[0])
        raise RiskcoreError(
            f"the released id column {r_col!r} gives one value to two people ({example!r})"
        )
    at = pd.Index(pairs["id"]).get_indexer(pd.Index(a_ids))
    person = pairs["person"].to_numpy(dtype=np.int64)
    got: np.ndarray = np.where(at >= 0, person[np.maximum(at, 0)] if len(person) else -1, -1)
    return got.astype(np.int64)


def _target_groups(true_person: np.ndarray | None, n_rows: int) -> tuple[np.ndarray, int]:
    """Return the target of each auxiliary row and the number of targets.

    Rows the ground truth ties to one released person are one target (the
    attacker knows several of that person's tuples); every other row is a
    target of its own. Targets are numbered in the order of their first row.
    """
    if true_person is None or n_rows == 0:
        return np.arange(n_rows, dtype=np.int64), n_rows
    row = np.arange(n_rows, dtype=np.int64)
    key = np.where(true_person >= 0, true_person, int(true_person.max()) + 1 + row)
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first), dtype=np.int64)
    return rank[inverse.reshape(-1)], len(first)
