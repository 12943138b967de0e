"""The Data page's text-encoding control: how an upload was decoded, and another to choose."""

from __future__ import annotations

import streamlit as st

from riskcore.io import TEXT_ENCODINGS, LoadedTable
from riskcore.report.readings import encoding_reading
from ui import keys, state
from ui.safe import md


def encoding_choice(key: str, table: LoadedTable) -> None:
    """Say which text encoding the table was read in; offer another when it was a guess.

    Only an upload whose encoding was assumed (not UTF-8, no byte-order mark)
    or chosen keeps its bytes (:func:`ui.state.set_upload`), so only then is
    a choice offered; choosing re-reads the bytes (:func:`ui.state.reread`).
    """
    reading = encoding_reading(table.info.encoding, table.info.encoding_guessed)
    if reading is None:
        return
    st.caption(md(reading))
    failed = state.encoding_error(key)
    if failed is not None:
        st.error("The file was not read again: " + md(failed))
    if not state.can_reread(key):
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
