"""Text forms of values shared by the attacks and de-identification (private).

Both the linkage attack and the generalizations must write and read the same
labels (a ZIP read as the float 2139.0 is the text ``"2139"``; a date at day
granularity is ``"%Y-%m-%d"``), so the rules live here once.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

__all__ = ["DATE_FORMATS", "at_leaves", "value_text"]

#: strftime format of each date granularity.
DATE_FORMATS: dict[str, str] = {"year": "%Y", "month": "%Y-%m", "day": "%Y-%m-%d"}


def value_text(v: object, *, fold: bool = False) -> str | None:
    """Return the text form of one value.

    Parameters
    ----------
    v : object
        A cell value.
    fold : bool, default False
        Case-fold the text (for matching).

    Returns
    -------
    str or None
        None for a missing value; integral floats lose their ``.0``
        (identifiers read as floats); timestamps as ``YYYY-MM-DD``; other
        values as their trimmed text.
    """
    if v is None or (isinstance(v, (float, np.floating)) and math.isnan(v)):
        return None
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return str(int(v))
    if isinstance(v, pd.Timestamp):
        return v.strftime(DATE_FORMATS["day"])
    text = str(v).strip()
    return text.casefold() if fold else text


def at_leaves(per_leaf: np.ndarray, leaf: np.ndarray, fill: Any) -> np.ndarray:
    """Return ``per_leaf[leaf]``, with ``fill`` where ``leaf`` is negative.

    A negative position is a value the hierarchy does not hold (-1) or a missing one (-2).

    Safe when the hierarchy has no leaves at all (a column of only missing values).

    Parameters
    ----------
    per_leaf : numpy.ndarray
        One entry per leaf of the hierarchy.
    leaf : numpy.ndarray
        Positions among the leaves, as :meth:`Hierarchy.leaf_index` returns them.
    fill : scalar
        The entry of a negative position.

    Returns
    -------
    numpy.ndarray
    """
    extended = np.append(per_leaf, np.asarray([fill], dtype=per_leaf.dtype))
    return extended[np.where(leaf >= 0, leaf, len(per_leaf))]
