"""Per-value work on a column: factorize once, transform the distinct texts, take them back.

Every masking operator works once per *distinct* value, not per row: the
column is factorized, the distinct values are transformed, and the results
are taken back to the rows. Values are read as their trimmed text
(:func:`riskcore._values.value_text`: a ZIP read as the float ``2139.0`` is
``"2139"``; a text ``"02139"`` keeps its leading zero).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
import pandas as pd

from riskcore._values import value_text

__all__ = ["check_series", "distinct_text", "per_value", "take_back"]


def check_series(series: object) -> pd.Series:
    """Return ``series`` when it is a pandas Series.

    Parameters
    ----------
    series : object
        The value to check.

    Returns
    -------
    pandas.Series

    Raises
    ------
    TypeError
        Naming the type given.
    """
    if not isinstance(series, pd.Series):
        raise TypeError(f"series must be a pandas Series, got {type(series).__name__}")
    return series


def distinct_text(series: pd.Series) -> tuple[npt.NDArray[np.intp], list[str]]:
    """Return row codes (-1 for missing) and the distinct trimmed texts, in first-appearance order.

    Two values with the same text (``" x"`` and ``"x"``) are one value.

    Parameters
    ----------
    series : pandas.Series
        The column's values.

    Returns
    -------
    codes : numpy.ndarray
        Per row, the position of its text among the distinct texts; -1 where missing.
    texts : list of str
    """
    codes, uniques = pd.factorize(series, use_na_sentinel=True, sort=False)
    texts = np.array([value_text(v) for v in np.asarray(uniques, dtype=object)], dtype=object)
    merged, distinct = pd.factorize(texts, sort=False)
    rows = np.where(codes >= 0, np.append(merged, -1)[codes], -1)
    return rows.astype(np.intp), [str(t) for t in distinct]


def take_back(
    series: pd.Series, codes: npt.NDArray[np.intp], values: Sequence[object]
) -> pd.Series:
    """Return a Series of ``values[code]`` per row, missing where the code is -1.

    Parameters
    ----------
    series : pandas.Series
        Gives the index and the name.
    codes : numpy.ndarray
        As :func:`distinct_text` returns them.
    values : sequence
        One output per distinct text.

    Returns
    -------
    pandas.Series
        Of dtype object.
    """
    out = np.empty(len(values) + 1, dtype=object)
    out[: len(values)] = list(values)
    out[-1] = np.nan
    return pd.Series(out[codes], index=series.index, name=series.name, dtype=object)


def per_value(series: pd.Series, transform: Callable[[list[str]], Sequence[object]]) -> pd.Series:
    """Apply ``transform`` to the distinct texts of a column and take the results back to the rows.

    Parameters
    ----------
    series : pandas.Series
        The column's values.
    transform : callable
        Gets the distinct non-missing texts (first-appearance order) and
        returns one output per text.

    Returns
    -------
    pandas.Series
        Missing rows stay missing (NaN); index and name of ``series``.
    """
    series = check_series(series)
    codes, texts = distinct_text(series)
    values = list(transform(texts))
    if len(values) != len(texts):  # pragma: no cover - internal contract
        raise AssertionError("a transform returned the wrong number of values")
    return take_back(series, codes, values)
