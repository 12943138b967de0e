"""The Data page's text controls: how an upload was decoded and its numbers read, and others to
choose (the text encoding, the decimal mark)."""

from __future__ import annotations

import streamlit as st

from riskcore.io import TEXT_ENCODINGS, LoadedTable
from riskcore.report.readings import decimal_reading, encoding_reading
from riskcore.report.readings.data import DECIMAL_LABELS
from ui.core import keys, state
from ui.core.safe import md


def encoding_choice(key: str, table: LoadedTable) -> None:
    """Say which text encoding the table was read in; offer another when it was a guess.

    Only an upload whose encoding was assumed (not UTF-8, no byte-order mark)
    or chosen keeps its bytes (:func:`ui.core.state.set_upload`), so only then is
    a choice offered; choosing re-reads the bytes (:func:`ui.core.state.reread`).
    """
    reading = encoding_reading(table.info.encoding, table.info.encoding_guessed)
    if reading is None:
        return
    st.caption(md(reading))
    failed = state.encoding_error(key)
    if failed is not None:
        st.error("The file was not read again: " + md(failed))
    if not state.can_reread(key) or not (
        table.info.encoding_guessed or state.chosen("encoding") is not None
    ):
        return
    current = str(table.info.encoding)
    options = list(dict.fromkeys([current, *TEXT_ENCODINGS]))
    widget = keys.encoding(key)
    st.columns([3, 2])[0].selectbox(  # wide enough for "Windows-1252 (Western European)" at 1024 px
        "Text encoding of the file",
        options,
        index=0,
        format_func=lambda e: TEXT_ENCODINGS.get(e, e),
        key=widget,
        on_change=lambda: state.reread(str(st.session_state[widget])),
        help="Read the uploaded file again in another encoding, when names look wrong.",
    )


def decimal_choice(key: str, table: LoadedTable) -> None:
    """Say which decimal mark the numbers were read with; offer the other.

    Said for a file read with the decimal comma or not comma-separated
    (:func:`riskcore.report.readings.decimal_reading`); choosing re-reads the
    kept bytes (:func:`ui.core.state.reread`).
    """
    reading = decimal_reading(table.info)
    if reading is None:
        return
    st.caption(md(reading))
    if not state.can_reread(key):
        return
    current = str(table.info.decimal)
    widget = keys.encoding(key, "decimal")
    st.columns([3, 2])[0].selectbox(
        "Decimal mark of the numbers",
        [current, *(d for d in DECIMAL_LABELS if d != current)],
        index=0,
        format_func=lambda d: DECIMAL_LABELS[d],
        key=widget,
        on_change=lambda: state.reread(decimal=str(st.session_state[widget])),
        help="Read the uploaded file again with another decimal mark, when amounts are text.",
    )
