"""The free-text status of a Safe Harbor check: each text column, and a button that reads all.

The character limit of the free-text scan is kept per dataset under
:data:`ui.core.keys.REM_SH_LIMIT`; :func:`scan_limit` reads it, :func:`free_text_status` draws the
status and raises it.
"""

from __future__ import annotations

import streamlit as st

from riskcore.deidentify.safe_harbor import SafeHarborCheck
from riskcore.freetext import MAX_CHARS
from riskcore.report.readings import free_text_reading, free_text_table, scan_all_label
from ui.core import keys
from ui.core.safe import md

__all__ = ["free_text_status", "scan_limit"]


def scan_limit(dataset_key: str) -> int:
    """Return the free-text scan's limit for a dataset: the default, or what the button set."""
    return int(st.session_state.get(keys.REM_SH_LIMIT, {}).get(dataset_key, MAX_CHARS))


def free_text_status(check: SafeHarborCheck, dataset_key: str) -> None:
    """Draw each text column's status (scanned clean, found, partly or not scanned), and, when a
    column was not fully read, a button that reads all of it (the page runs again)."""
    st.markdown("**Identifiers written inside text**")
    reading = free_text_reading(check.text)
    if reading is None:
        st.caption("The table has no text column.")
        return
    st.markdown(md(reading))
    st.dataframe(free_text_table(check.text, examples=True), hide_index=True)
    if check.unchecked and st.button(md(scan_all_label(check.text)), key=keys.REM_SH_SCAN_ALL):
        total = sum(c.n_chars for c in check.unchecked)
        limits = st.session_state.setdefault(keys.REM_SH_LIMIT, {})
        limits[dataset_key] = max(total, scan_limit(dataset_key))
        st.rerun()
