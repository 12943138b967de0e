"""Text forms of values shared by the attacks and de-identification (private).

Both the linkage attack and the generalizations must write and read the same
labels (a ZIP read as the float 2139.0 is the text ``"2139"``; a date at day
granularity is ``"%Y-%m-%d"``), so the rules live here once.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

__all__ = ["DATE_FORMATS", "value_text"]

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
