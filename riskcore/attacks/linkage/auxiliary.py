"""Simulated auxiliary tables: what an attacker plausibly knows about a sample of people.

The attacker of a linkage attack [S02]_ holds an identified table (a voter
roll) with some quasi-identifiers. Simulated from the data itself: a random
sample of targets, each known value independently wrong (another person's
value) with probability ``error_rate`` or unknown with ``missing_rate``.
With a person column the targets are people, one row each: what the
attacker knows of a person is one of their rows (their demographics, their
age at one visit).

References
----------
.. [S02] L. Sweeney, "k-anonymity: a model for protecting privacy",
   IJUFKS 10(5), 2002.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from riskcore.attacks._people import check_person, person_ids
from riskcore.attacks.linkage.matching import _is_numeric
from riskcore.errors import RiskcoreError

__all__ = ["released_positions", "simulate_auxiliary"]


def simulate_auxiliary(
    data: pd.DataFrame,
    known: list[str] | tuple[str, ...],
    *,
    identifiers: list[str] | tuple[str, ...] = (),
    n: int | None = None,
    error_rate: float = 0.0,
    missing_rate: float = 0.0,
    seed: int = 0,
    person: str | None = None,
) -> tuple[pd.DataFrame, np.ndarray]:
    """Simulate the attacker's auxiliary table from the data itself.

    The attacker knows the direct identifiers and the ``known`` columns of a
    random sample of ``n`` people. Each known value is, independently, wrong
    with probability ``error_rate`` (replaced by the value of another random
    person, as a stale or mistyped record would be) or unknown with
    probability ``missing_rate``.

    Without ``person`` every row is a person. With ``person`` the sample is
    of people (the distinct values of that column, a row without one a
    person of its own), and each sampled person is one row of the
    attacker's table: one of their rows, drawn at random, so that a
    quasi-identifier changing between a person's rows (an age at the visit)
    is known as it stood on one of them.

    Parameters
    ----------
    data : pandas.DataFrame
        The full table (before release).
    known : list of str
        Quasi-identifiers the attacker knows.
    identifiers : list of str
        Direct identifiers copied into the auxiliary table (for display).
    n : int, optional
        Number of targets (default: everyone), people with ``person``.
    error_rate, missing_rate : float
        In [0, 1], with error_rate + missing_rate <= 1.
    seed : int
        Seed of the random generator.
    person : str, optional
        The column linking the rows of one person.

    Returns
    -------
    auxiliary : pandas.DataFrame
    truth : numpy.ndarray
        Position in ``data`` of each target's own record (with ``person``:
        the row drawn for the person; pass ``person`` to the attack too, and
        the truth is that row's person).
    """
    cols = list(identifiers) + [c for c in known if c not in identifiers]
    for c in cols:
        if c not in data.columns:
            raise RiskcoreError(f"the table has no column {c!r}")
    if not (0 <= error_rate <= 1 and 0 <= missing_rate <= 1 and error_rate + missing_rate <= 1):
        raise RiskcoreError("error and missing rates must be shares that add up to at most 1")
    total = len(data)
    check_person(data.columns, person)
    people = total if person is None else person_ids(data[person])[1]
    n = people if n is None else int(n)
    if not 0 < n <= people:
        what = "" if person is None else " people"
        raise RiskcoreError(f"the number of targets must be between 1 and {people:,}{what}")
    rng = np.random.default_rng(seed)
    if person is None:
        truth = np.sort(rng.choice(total, size=n, replace=False)) if n < total else np.arange(total)
    else:
        truth = _one_row_each(data, person, n, rng)
    aux = data.iloc[truth][cols].reset_index(drop=True).copy()
    for c in known:
        u = rng.random(n)
        wrong = u < error_rate
        gone = (u >= error_rate) & (u < error_rate + missing_rate)
        col = aux[c]
        if wrong.any():
            donors = rng.integers(0, total, size=int(wrong.sum()))
            col = _overwrite(col, np.flatnonzero(wrong), data[c].iloc[donors].to_numpy())
        if gone.any():
            col = _overwrite(col, np.flatnonzero(gone), np.nan)
        aux[c] = col
    return aux, truth


def released_positions(
    drawn: np.ndarray, kept: np.ndarray, n_rows: int, *, person: pd.Series | None = None
) -> np.ndarray:
    """Return where each drawn record of the table as recorded stands in a release (-1: nowhere).

    For an attacker's table drawn from the table as recorded (its truth
    :func:`simulate_auxiliary`'s positions) and joined to a release that
    kept some of its rows (a generalization that suppressed the others).
    Without ``person`` a drawn record is released when its row was kept.
    With ``person`` the target is the person: released when any of their
    rows was kept, at the first kept one (so :func:`~riskcore.attacks.linkage.linkage_attack`
    with ``person`` finds their person there).

    Parameters
    ----------
    drawn : numpy.ndarray
        Positions in the recorded table of the targets' rows.
    kept : numpy.ndarray
        The recorded position of each released row, in release order.
    n_rows : int
        Rows of the recorded table.
    person : pandas.Series, optional
        The recorded table's person column.

    Returns
    -------
    numpy.ndarray
        int64 release position per target, -1 when not released.

    Examples
    --------
    Rows 0 and 2 are one person; row 0 was suppressed, rows 1 and 2 kept:

    >>> kept = np.array([1, 2])
    >>> released_positions(np.array([0, 1]), kept, 3).tolist()
    [-1, 0]
    >>> released_positions(np.array([0, 1]), kept, 3, person=pd.Series(["a", "b", "a"])).tolist()
    [1, 0]
    """
    kept = np.asarray(kept, dtype=np.int64)
    position = np.full(n_rows, -1, dtype=np.int64)
    position[kept] = np.arange(len(kept), dtype=np.int64)
    drawn = np.asarray(drawn, dtype=np.int64)
    if person is None:
        out: np.ndarray = position[drawn]
        return out
    who, n_people = person_ids(person)
    first = np.full(n_people, -1, dtype=np.int64)
    first[who[kept][::-1]] = np.arange(len(kept), dtype=np.int64)[::-1]  # the first kept row
    got: np.ndarray = first[who[drawn]]
    return got


def _one_row_each(data: pd.DataFrame, person: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """Return one row drawn at random for each of ``n`` people drawn at random (by person)."""
    who, n_people = person_ids(data[person])
    chosen = np.sort(rng.choice(n_people, size=n, replace=False)) if n < n_people else None
    order = np.argsort(who, kind="stable")  # rows grouped by person
    count = np.bincount(who, minlength=n_people)
    start = np.cumsum(count) - count
    picked = np.arange(n_people) if chosen is None else chosen
    within = np.floor(rng.random(len(picked)) * count[picked]).astype(np.int64)
    rows: np.ndarray = order[start[picked] + within]
    return rows


def _overwrite(col: pd.Series, rows: np.ndarray, values: np.ndarray | float) -> pd.Series:
    """Return ``col`` (as float when numeric, else object) with ``rows`` set to ``values``."""
    arr = (col.astype(float) if _is_numeric(col) else col.astype(object)).to_numpy(copy=True)
    arr[rows] = values
    return pd.Series(arr, index=col.index, name=col.name)
