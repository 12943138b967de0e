"""Quasi-identifiers that are a function of another one: keep one of the two.

When every value of A occurs with exactly one value of B (missing counting
as a value), B splits no equivalence class that A does not, so only one of
them is suggested as a quasi-identifier (:func:`redundant_pairs`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._results import Result

__all__ = ["MAX_LEVELS", "RedundantPair", "redundant_pairs"]

#: Columns with more distinct values than this (or than a fifth of the rows) are left
#: out of the redundancy check: a near-unique column determines every other column.
MAX_LEVELS = 1_000
#: Rows of the evenly spaced sample that rules pairs out before the exact check.
_PAIR_SAMPLE = 20_000


@dataclass(frozen=True)
class RedundantPair(Result):
    """A quasi-identifier that is a function of another one.

    Attributes
    ----------
    column : str
        The column left out of the suggested quasi-identifiers.
    determined_by : str
        The quasi-identifier it is a function of (every value of
        ``determined_by`` occurs with exactly one value of ``column``).
    n_values : int
        Distinct values of ``column`` (missing counts as a value).
    n_values_by : int
        Distinct values of ``determined_by``.
    one_to_one : bool
        True when each column is a function of the other (the same partition).
    reason : str
        The sentence shown to the user.
    """

    column: str
    determined_by: str
    n_values: int
    n_values_by: int
    one_to_one: bool
    reason: str


def _codes(col: pd.Series) -> tuple[npt.NDArray[np.int64], int]:
    """Return dense integer codes of a column and their count; missing is one more value."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        raw = col.cat.codes.to_numpy().astype(np.int64) + 1  # -1 (missing) becomes 0
        present = np.bincount(raw, minlength=len(col.cat.categories) + 1) > 0
        remap = np.cumsum(present) - 1
        return remap[raw], int(present.sum())
    codes, uniques = pd.factorize(col, use_na_sentinel=False)
    return np.asarray(codes, dtype=np.int64), len(uniques)


def _n_pairs(a: npt.NDArray[np.int64], n_a: int, b: npt.NDArray[np.int64], n_b: int) -> int:
    """Return the number of distinct (a, b) value pairs (the non-empty contingency cells)."""
    key = a * n_b + b
    if n_a * n_b <= 1 << 22:
        return int(np.count_nonzero(np.bincount(key, minlength=n_a * n_b)))
    return len(np.unique(key))


def _functions(columns: dict[str, pd.Series], n: int) -> dict[tuple[str, str], tuple[int, int]]:
    """Return ``{(b, a): (n_b, n_a)}`` for every eligible pair where b is a function of a.

    b is a function of a when the a x b contingency has as many non-empty
    cells as a has values. Pairs are first ruled out on an evenly spaced
    sample of rows (a counter-example in the sample is one in the table) and
    the survivors are checked on every row, so the answer is exact.
    """
    cap = min(MAX_LEVELS, n // 5)
    if cap < 2 or len(columns) < 2:
        return {}
    full: dict[str, tuple[npt.NDArray[np.int64], int]] = {}

    def codes_full(c: str) -> tuple[npt.NDArray[np.int64], int]:
        if c not in full:
            full[c] = _codes(columns[c])
        return full[c]

    if n > _PAIR_SAMPLE:
        rows = np.linspace(0, n - 1, _PAIR_SAMPLE).astype(np.int64)
        coded = {c: _codes(col.iloc[rows]) for c, col in columns.items()}
    else:
        coded = {c: codes_full(c) for c in columns}
    cols = [c for c in columns if coded[c][1] <= cap]  # more values in a sample: more in all
    maybe: list[tuple[str, str]] = []
    for i, a in enumerate(cols):
        for b in cols[i + 1 :]:
            (ca, na), (cb, nb) = coded[a], coded[b]
            cells = _n_pairs(ca, na, cb, nb)
            if cells == na:
                maybe.append((b, a))
            if cells == nb:
                maybe.append((a, b))
    out: dict[tuple[str, str], tuple[int, int]] = {}
    for b, a in maybe:
        (ca, na), (cb, nb) = codes_full(a), codes_full(b)
        if not (2 <= na <= cap and 2 <= nb <= cap):
            continue  # near-unique (determines everything) or constant (determined by anything)
        if _n_pairs(ca, na, cb, nb) == na:
            out[(b, a)] = (nb, na)
    return out


def redundant_pairs(columns: dict[str, pd.Series], n: int) -> list[RedundantPair]:
    """Choose which quasi-identifiers to keep when some are functions of others.

    Columns are visited finest first (most values), text before numbers, then
    in table order; a column is left out when a column already kept
    determines it. For a one-to-one pair the text column is kept (it reads
    more easily); when b is a function of a but not the reverse, a is kept:
    b splits no equivalence class that a does not.

    Parameters
    ----------
    columns : dict of str to pandas.Series
        The candidate quasi-identifiers, by name, in table order.
    n : int
        The number of rows of the table.

    Returns
    -------
    list of RedundantPair
    """
    funcs = _functions(columns, n)
    if not funcs:
        return []
    qis = list(columns)
    numeric = {c: pd.api.types.is_numeric_dtype(col.dtype) for c, col in columns.items()}
    n_values: dict[str, int] = {}
    for (b, a), (nb, na) in funcs.items():
        n_values[b], n_values[a] = nb, na
    order = sorted(n_values, key=lambda c: (-n_values[c], numeric[c], qis.index(c)))
    kept: list[str] = []
    pairs: list[RedundantPair] = []
    for b in order:
        by = next((a for a in kept if (b, a) in funcs), None)
        if by is None:
            kept.append(b)
            continue
        nb, na = funcs[(b, by)]
        one_to_one = (by, b) in funcs
        if one_to_one:
            why = (
                f"{b} is a function of {by} ({nb} values, one-to-one): keep one as a "
                f"quasi-identifier; {by} is suggested"
                + (" (text reads more easily)" if numeric[b] and not numeric[by] else "")
            )
        else:
            why = (
                f"{b} is a function of {by} (its {na} values map to {nb} of {b}): it splits no "
                f"equivalence class that {by} does not, so {by} is the quasi-identifier"
            )
        pairs.append(RedundantPair(b, by, nb, na, one_to_one, why))
    return sorted(pairs, key=lambda p: qis.index(p.column))
