"""Defaults taken from the chosen column: clipping bounds and category counts.

Bounds read from the data leak its extreme records (:func:`riskcore.dp.data_bounds`
warns): a default taken from the column carries that warning while it is in use, as the
"Use the data's minimum and maximum" button's bounds do.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from riskcore import dp
from riskcore.errors import RiskcoreError
from ui.core.context import capture_leaks

__all__ = ["bounds_from_column", "leak_messages"]


def bounds_from_column(
    series: pd.Series, *, lo_key: str, hi_key: str, for_key: str, leak_key: str
) -> None:
    """Set the bound inputs to the column's minimum and maximum when the column changes.

    Call before the inputs are drawn. The bounds and their leak messages are kept under
    ``leak_key`` (see :func:`leak_messages`); a column without numbers leaves the inputs.
    """
    if st.session_state.get(for_key) == series.name:
        return
    st.session_state[for_key] = series.name
    try:
        (lo, hi), leaks = capture_leaks(dp.data_bounds, series)
    except RiskcoreError:
        return
    st.session_state[lo_key], st.session_state[hi_key] = lo, hi
    st.session_state[leak_key] = (lo, hi, tuple(leaks))


def leak_messages(leak_key: str, lo: float, hi: float) -> tuple[str, ...]:
    """Return the leak messages of bounds read from the data while they are the ones in use."""
    leak = st.session_state.get(leak_key)
    if leak is None or (float(lo), float(hi)) != (float(leak[0]), float(leak[1])):
        return ()
    return tuple(leak[2])
