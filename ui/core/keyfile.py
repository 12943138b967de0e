"""The key of the tokens and date shifts: made or read from the user's key file, kept apart.

The key lives in this session's memory only (:data:`ui.core.keys.REM_SECRET`, a
:class:`~riskcore.deidentify.masking.SecretKey` whose ``repr`` hides it): never in a
profile, a recipe (which records its check value), a report, the work kept for a reload
(:mod:`ui.core.work`) or a log. A key made here is offered once as a file, in the format of
``riskcore apply --key-file`` (hexadecimal text); a table with keyed tokens or shifts can be
downloaded only once the user confirms the file is saved (downloading it counts) or uploaded
their own, so the same value keeps the same token in every release made with that file.
"""

from __future__ import annotations

import streamlit as st

from riskcore.deidentify.masking import SecretKey
from riskcore.deidentify.recipe.base import key_check
from riskcore.report.readings.work import (
    KEY_CONFIRM,
    KEY_FILE_NOTE,
    KEY_LOST_NOTE,
    key_check_reading,
    key_mismatch_reading,
)
from ui.core import keys, state
from ui.core.safe import md

__all__ = ["KEY_FILE_BYTES", "ensure", "key_file_name", "panel", "pending", "secret"]

#: A key file is hexadecimal text of a few dozen bytes; anything much larger is not one.
KEY_FILE_BYTES = 1_024


def key_file_name(stem: str) -> str:
    """Return the name of the key file: the one the key downloads as and the script reads.

    Parameters
    ----------
    stem : str
        The table's file stem (:func:`ui.core.safe.file_stem`).

    Returns
    -------
    str
        ``"<stem>.key"`` (the key downloaded as ``claims_key.hex`` while the History's
        script read ``claims.key``, issue 38).
    """
    return f"{stem}.key"


def secret() -> SecretKey | None:
    """Return the session's key, None before one is made or read."""
    found = st.session_state.get(keys.REM_SECRET)
    return found if isinstance(found, SecretKey) else None


def _make() -> None:
    st.session_state[keys.REM_SECRET] = SecretKey.generate()
    st.session_state[keys.REM_SECRET_ORIGIN] = "made"
    st.session_state[keys.REM_SECRET_SHOW] = True
    st.session_state[keys.REM_SECRET_SAVED] = False
    st.session_state.pop(keys.rem_key("confirm"), None)


def ensure(needs_key: bool) -> SecretKey | None:
    """Return the key when a chosen step needs one, making it the first time."""
    if not needs_key:
        return None
    if secret() is None:
        _make()
    return secret()


def pending() -> bool:
    """Return True while a key made here has not been confirmed saved (keyed tables wait)."""
    return secret() is not None and not st.session_state.get(keys.REM_SECRET_SAVED, False)


def _downloaded() -> None:
    """The key file's one download was clicked: it is not offered again, and it counts as
    saved (the box "I have saved the key file" is ticked; it can be unticked)."""
    st.session_state.pop(keys.REM_SECRET_SHOW, None)
    st.session_state[keys.REM_SECRET_SAVED] = True
    st.session_state[keys.rem_key("confirm")] = True


def _confirmed() -> None:
    st.session_state[keys.REM_SECRET_SAVED] = bool(st.session_state.get(keys.rem_key("confirm")))
    if st.session_state[keys.REM_SECRET_SAVED]:
        st.session_state.pop(keys.REM_SECRET_SHOW, None)


def _read_upload() -> None:
    """Make the uploaded key file the session's key (called when a file is chosen)."""
    n = int(st.session_state.get(keys.rem_key("uploads"), 0))
    up = st.session_state.get(keys.rem_key(f"upload_{n}"))
    if up is None:
        return
    raw = up.getvalue()
    state.release_upload(up.file_id)
    st.session_state[keys.rem_key("uploads")] = n + 1  # a new uploader: it lets go of the file
    try:
        if len(raw) > KEY_FILE_BYTES:
            raise ValueError(f"the file has {len(raw):,} bytes; a key file has well under 1 KB")
        key = SecretKey.from_hex(raw.decode("ascii", errors="replace"))
    except ValueError as exc:  # the message never quotes the file's text
        st.session_state[keys.rem_key("error")] = f"Not a key file: {exc}."
        return
    st.session_state[keys.REM_SECRET] = key
    st.session_state[keys.REM_SECRET_ORIGIN] = "uploaded"
    st.session_state[keys.REM_SECRET_SAVED] = True
    st.session_state.pop(keys.REM_SECRET_SHOW, None)
    st.session_state.pop(keys.rem_key("error"), None)


def panel(recipe_check: str | None, file_stem: str) -> None:
    """Draw the key's panel on the Direct identifiers tab: its one download and confirmation,
    its check value, the upload of an existing key file, a new key.

    Parameters
    ----------
    recipe_check : str or None
        The check value recorded by the recipe in use (a reopened assessment's), if any.
    file_stem : str
        The stem of the key file's name.
    """
    key = secret()
    if key is not None and st.session_state.get(keys.REM_SECRET_SHOW):
        st.warning(md(KEY_FILE_NOTE))
        st.download_button(
            "Download the key file (offered once)",
            key.reveal_hex() + "\n",
            file_name=key_file_name(file_stem),
            mime="text/plain",
            on_click=_downloaded,
            key=keys.rem_key("download"),
            type="primary",
        )
    if key is not None and st.session_state.get(keys.REM_SECRET_ORIGIN) == "made":
        st.session_state.setdefault(
            keys.rem_key("confirm"), bool(st.session_state.get(keys.REM_SECRET_SAVED))
        )
        st.checkbox(KEY_CONFIRM, key=keys.rem_key("confirm"), on_change=_confirmed)
        if pending() and not st.session_state.get(keys.REM_SECRET_SHOW):
            st.info(md(KEY_LOST_NOTE))
    if key is not None:
        check = key_check(key)
        uploaded = st.session_state.get(keys.REM_SECRET_ORIGIN) == "uploaded"
        st.caption(md(key_check_reading(check, uploaded=uploaded)))
        if recipe_check is not None and recipe_check != check:
            st.warning(md(key_mismatch_reading(recipe_check, check)))
    error = st.session_state.pop(keys.rem_key("error"), None)
    if error is not None:
        st.error(md(error))
    k1, k2 = st.columns([3, 1])
    k1.file_uploader(
        "Use a key file you keep (the same key gives the same tokens in every release)",
        type=["hex", "key", "txt"],
        key=keys.rem_key(f"upload_{int(st.session_state.get(keys.rem_key('uploads'), 0))}"),
        on_change=_read_upload,
    )
    if key is not None and k2.button(
        "Make a new key", key=keys.rem_key("new"), help="The tokens and shifts change with the key."
    ):
        _make()
        st.rerun()
