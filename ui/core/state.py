"""The session's state: its initialisation, the dataset in use, uploads and their reading.

Every key is named in :mod:`ui.core.keys`; the session's own (the dataset, uploads, roles,
targets, errors, the DP page's sources and last release) are re-exported here.
"""

from __future__ import annotations

import hashlib
from typing import Literal

import streamlit as st

from riskcore.errors import RiskcoreError
from riskcore.io import LoadedTable, LoadInfo, load_table
from ui.core import cached, keys
from ui.core.keys import (  # the session's keys, re-exported (the names this module always had)
    DATASET,
    DP_SOURCES,
    ENCODING_ERROR,
    LAST_RELEASE,
    LOAD_ERROR,
    RELEASED,
    ROLES,
    ROLES_FOR,
    TARGETS,
    UPLOADS,
)
from ui.core.safe import md

__all__ = [
    "AUTO_RUN_ROWS",
    "CLAIMS_PATIENTS",
    "DATASET",
    "DEMO_ROWS",
    "DP_SOURCES",
    "ENCODING_ERROR",
    "LAST_RELEASE",
    "LOAD_ERROR",
    "RELEASED",
    "ROLES",
    "ROLES_FOR",
    "TARGETS",
    "UPLOADS",
    "can_reread",
    "demo_dataset",
    "encoding_error",
    "init_state",
    "is_new_upload",
    "is_people_demo",
    "ledger_key",
    "load_error",
    "release_upload",
    "reread",
    "reset",
    "set_upload",
    "table_of",
    "uploader_key",
    "use_demo",
    "use_table",
]

DEMO_ROWS = 32_561
#: Patients of the claims demo (riskcore.demo.make_claims: 1-10 rows each, 8,177 rows).
CLAIMS_PATIENTS = 2_500
#: Tables up to this many rows are attacked as the controls move (each run well under 1 s);
#: larger ones wait for a Run button, so no slider starts a run of several seconds.
AUTO_RUN_ROWS = 200_000


def demo_dataset(which: Literal["people", "claims"] = "people") -> dict:
    """Return the dataset record of a built-in demo: the people (the default) or the claims.

    The claims demo's record says so in ``"demo"``; the people demo's has no such key, as
    before the claims existed.
    """
    if which == "claims":
        return {
            "source": "demo",
            "demo": "claims",
            "name": f"Demo claims ({CLAIMS_PATIENTS:,} patients)",
            "key": f"demo-claims-{CLAIMS_PATIENTS}-0",
            "file_id": None,
        }
    return {
        "source": "demo",
        "name": f"Demo people ({DEMO_ROWS:,} rows)",
        "key": f"demo-{DEMO_ROWS}-0",
        "file_id": None,
    }


def init_state() -> None:
    """Set every key to its default if absent (idempotent; every page calls it); the profile
    settings are made on first use (:func:`ui.core.profile.settings`)."""
    st.session_state.setdefault(DATASET, demo_dataset())
    st.session_state.setdefault(LOAD_ERROR, None)
    st.session_state.setdefault(UPLOADS, 0)


@st.cache_resource(scope="session", max_entries=1, show_spinner=False)
def _tables() -> dict[str, LoadedTable]:
    """Return this session's parsed uploads, {dataset key: table}.

    A session-scoped cache, not session state: Streamlit drops it the moment
    the tab disconnects, while session state waits for the disconnected-session
    TTL and is only swept when another session touches the store. So a closed
    tab gives its table's memory back at once.
    """
    return {}


@st.cache_resource(scope="session", max_entries=1, show_spinner=False)
def _sources() -> dict[str, bytes]:
    """Return the bytes of this session's upload, {dataset key: bytes}, kept only while its
    text encoding is a guess or a choice, or its numbers may be written with a decimal comma
    (:func:`_rereadable`), so that it can be read again in another encoding or mark."""
    return {}


def uploader_key() -> str:
    """Return the Data page uploader's key (a new one after each successful read)."""
    return keys.uploader(int(st.session_state.get(UPLOADS, 0)))


def _read(
    name: str, raw: bytes, encoding: str | None, decimal: str | None = None
) -> LoadedTable | str:
    """Return the parsed upload, or the loader's message when it cannot be read."""
    try:
        with st.spinner(f"Reading {md(name)} ..."):
            return load_table(raw, name=name, encoding=encoding, decimal=decimal)
    except RiskcoreError as exc:
        return str(exc)


def set_upload(
    name: str, raw: bytes, *, file_id: str | None = None, encoding: str | None = None
) -> bool:
    """Parse an upload and make it the session's dataset (kept in memory only).

    The parsed table is kept in the session's cache, not the bytes (a 100 MB
    CSV would otherwise be held twice), and the uploader is renewed so it
    lets go of the file. Only a text file whose encoding was assumed (not
    UTF-8, no byte-order mark) or chosen, or that is not comma-separated or
    was read with the decimal comma, keeps its bytes, so that it can be read
    again in the encoding or with the decimal mark the user picks (:func:`reread`). The dataset
    key is the SHA-256 of the whole file (and the chosen encoding), so cached
    results can never be confused between two files. When the file cannot
    be read, the current dataset stays and the error is kept with the
    file's id, to be shown while that file is in the uploader.

    Returns
    -------
    bool
        True when the upload became the dataset.
    """
    table = _read(name, raw, encoding)
    if isinstance(table, str):
        st.session_state[LOAD_ERROR] = {"file_id": file_id, "name": name, "message": table}
        return False
    use_table(name, raw, table, file_id=file_id, encoding=encoding)
    return True


def _rereadable(info: LoadInfo) -> bool:
    """Return True when an upload is kept to be read again: its encoding was assumed, or its
    numbers may be written with a decimal comma (found, or a file not comma-separated)."""
    return info.encoding_guessed or info.decimal == "," or info.delimiter not in (None, ",")


def _options_key(encoding: str | None, decimal: str | None) -> str:
    """Return the dataset key's suffix for a chosen encoding and decimal mark ("" for none)."""
    parts = [encoding] if encoding else []
    if decimal:
        parts.append(f"decimal{decimal}")
    return "@" + ";".join(parts) if parts else ""


def use_table(
    name: str,
    raw: bytes,
    table: LoadedTable,
    *,
    file_id: str | None = None,
    encoding: str | None = None,
) -> None:
    """Make an upload already parsed (``table``, from ``raw``) the session's dataset.

    What :func:`set_upload` does once the file is read; the Saved-assessments
    page reads a file first to check its fingerprint, then uses it.
    """
    digest = table.info.fingerprint or hashlib.sha256(raw).hexdigest()
    key = "upload-" + digest + (f"@{encoding}" if encoding else "")
    tables = _tables()
    tables.clear()  # one upload at a time: the previous table's memory goes back
    tables[key] = table
    sources = _sources()
    sources.clear()
    if _rereadable(table.info) or encoding is not None:
        sources[key] = raw
    st.session_state[DATASET] = {
        "source": "upload",
        "name": name,
        "key": key,
        "file_id": file_id,
        "encoding": encoding,
    }
    st.session_state[LOAD_ERROR] = None
    # a new uploader key: the widget forgets the file ...
    st.session_state[UPLOADS] = int(st.session_state.get(UPLOADS, 0)) + 1
    if file_id is not None:  # ... and Streamlit's upload store lets go of its bytes
        _forget_upload_bytes(file_id)


def can_reread(key: str) -> bool:
    """Return True when dataset ``key``'s bytes are kept to be read in another encoding."""
    return key in _sources()


def chosen(option: str) -> str | None:
    """Return the "encoding" or "decimal" mark the user chose for the upload, None if none."""
    value = st.session_state[DATASET].get(option)
    return None if value is None else str(value)


def reread(encoding: str | None = None, *, decimal: str | None = None) -> None:
    """Read the session's upload again in ``encoding`` or with the ``decimal`` mark.

    The option not given keeps its earlier choice. The table in use stays
    when the file cannot be read so. Its privacy ledger stays the same: it
    belongs to the file's bytes, not to how they are decoded (:func:`ledger_key`).
    """
    ds = st.session_state[DATASET]
    raw = _sources().get(ds["key"])
    if raw is None:
        return
    encoding = encoding if encoding is not None else ds.get("encoding")
    decimal = decimal if decimal is not None else ds.get("decimal")
    table = _read(ds["name"], raw, encoding, decimal)
    if isinstance(table, str):
        st.session_state[ENCODING_ERROR] = {"key": ds["key"], "message": table}
        return
    st.session_state[ENCODING_ERROR] = None
    key = ledger_key(ds["key"]) + _options_key(encoding, decimal)
    tables = _tables()
    tables.clear()
    tables[key] = table
    sources = _sources()
    sources.clear()
    sources[key] = raw
    st.session_state[DATASET] = {**ds, "key": key, "encoding": encoding, "decimal": decimal}


def encoding_error(key: str) -> str | None:
    """Return why reading dataset ``key`` in another encoding failed, None if it did not."""
    err = st.session_state.get(ENCODING_ERROR)
    if err is None or err["key"] != key:
        return None
    return str(err["message"])


def release_upload(file_id: str) -> None:
    """Drop an upload's bytes from Streamlit's upload store once they are read (a key file)."""
    _forget_upload_bytes(file_id)


def _forget_upload_bytes(file_id: str) -> None:
    """Drop an upload's bytes from Streamlit's in-memory upload store.

    The store keeps every uploaded file of a session until the session shuts
    down, and a closed tab's session is only shut down when the
    disconnected-session store is next swept: a 100 MB CSV stayed in memory
    after its table was parsed and after the tab closed. ``st.chat_input``
    drops its files the same way once read.
    """
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is not None and isinstance(ctx.uploaded_file_mgr, MemoryUploadedFileManager):
        ctx.uploaded_file_mgr.remove_file(session_id=ctx.session_id, file_id=file_id)


def load_error(file_id: str | None) -> str | None:
    """Return the message of the failed upload ``file_id``, None if that file loaded or left."""
    err = st.session_state.get(LOAD_ERROR)
    if err is None or file_id is None or err["file_id"] != file_id:
        return None
    return str(err["message"])


def is_new_upload(file_id: str) -> bool:
    """Return True for a file not yet tried (neither the dataset nor the last failure)."""
    err = st.session_state.get(LOAD_ERROR)
    tried = {st.session_state[DATASET].get("file_id"), err["file_id"] if err else None}
    return file_id not in tried


def table_of(dataset: dict) -> LoadedTable | None:
    """Return an upload's parsed table; None for the demo (generated and cached) and for an
    upload released when the tab disconnected."""
    if dataset["source"] != "upload":
        return None
    return _tables().get(dataset["key"])


def is_people_demo() -> bool:
    """Return whether the session's dataset is the people demo: the command line's ``demo``
    (it has no claims demo, so a command naming the claims names the table instead)."""
    ds = st.session_state.get(DATASET) or {}
    return ds.get("source") == "demo" and ds.get("demo", "people") == "people"


def use_demo(which: Literal["people", "claims"] = "people") -> None:
    """Go back to a built-in demo dataset: the people (the default) or the claims."""
    st.session_state[DATASET] = demo_dataset(which)
    st.session_state[LOAD_ERROR] = None


def reset() -> None:
    """Forget everything of this session (data, roles, targets, every widget's value, its
    cached results) but the name given for the audit log; other sessions keep all of theirs.

    The privacy ledgers are not the session's: they live in the database
    (:mod:`ui.core.budget`), so a reset, like a reload, finds the same budget as
    soon as the same data is opened. Widget values go too, so no control
    (a target k, a slider) keeps a value the reset promised to forget. The
    cached results go through each session-scoped wrapper's own ``clear()``,
    never ``st.cache_resource.clear()``, which would empty every user's caches.
    """
    user = st.session_state.get(keys.USER)  # the name given once: a reset keeps who you are
    for key in list(st.session_state.keys()):
        del st.session_state[key]
    if user is not None:
        st.session_state[keys.USER] = user
    _tables().clear()
    _sources().clear()
    cached.clear_session()
    init_state()


def ledger_key(key: str) -> str:
    """Return the key of the data set's ledger: its key without a chosen text encoding.

    The same bytes read in another encoding are the same people: a new
    encoding must not bring a fresh budget.
    """
    return key.split("@", 1)[0]
