"""Session-state keys and their initialisation (one place for every key)."""

from __future__ import annotations

import hashlib

import streamlit as st

from riskcore.dp import PrivacyLedger

#: The dataset of this session: {"source": "demo"|"upload", "name", "key", "raw"}.
DATASET = "rc_dataset"
#: Roles of the current dataset: {column: role}.
ROLES = "rc_roles"
#: The dataset key the roles belong to.
ROLES_FOR = "rc_roles_for"
#: Targets and threshold: {"k", "l", "c", "t", "threshold", "sampling_fraction"}.
TARGETS = "rc_targets"
#: Last load error message (plain language), shown on the Data page.
LOAD_ERROR = "rc_load_error"
#: Privacy ledgers of this session, one per dataset key: {key: PrivacyLedger}.
LEDGERS = "rc_dp_ledgers"
#: Outcome of the last release attempt on the DP page: Release, or the refusal text.
LAST_RELEASE = "rc_dp_last_release"

DEMO_ROWS = 32_561
DEFAULT_TARGETS = {
    "k": 11,
    "l": 2,
    "c": 2.0,
    "t": 0.2,
    "threshold": 0.09,
    "sampling_fraction": 0.0,
}


def demo_dataset() -> dict:
    """Return the dataset record of the built-in demo."""
    return {
        "source": "demo",
        "name": f"Demo people ({DEMO_ROWS:,} rows)",
        "key": f"demo-{DEMO_ROWS}-0",
        "raw": None,
    }


def init_state() -> None:
    """Set every key to its default if absent (idempotent; every page calls it)."""
    st.session_state.setdefault(DATASET, demo_dataset())
    st.session_state.setdefault(TARGETS, dict(DEFAULT_TARGETS))
    st.session_state.setdefault(LOAD_ERROR, None)
    st.session_state.setdefault(LEDGERS, {})


def set_upload(name: str, raw: bytes, *, file_id: str | None = None) -> None:
    """Make an uploaded file the session's dataset (kept in memory only).

    The dataset key is the SHA-256 of the whole file, so cached results can
    never be confused between two files.
    """
    key = "upload-" + hashlib.sha256(raw).hexdigest()
    st.session_state[DATASET] = {
        "source": "upload",
        "name": name,
        "key": key,
        "raw": raw,
        "file_id": file_id,
    }
    st.session_state[LOAD_ERROR] = None


def use_demo() -> None:
    """Go back to the built-in demo dataset."""
    st.session_state[DATASET] = demo_dataset()
    st.session_state[LOAD_ERROR] = None


def reset() -> None:
    """Forget the dataset, roles and targets of this session, never its privacy ledgers.

    A budget that a reset button restores is no budget: the ledgers, one per
    dataset key (the SHA-256 of the file), survive the reset and count again
    as soon as the same data is opened.
    """
    for key in (DATASET, ROLES, ROLES_FOR, TARGETS, LOAD_ERROR, LAST_RELEASE):
        st.session_state.pop(key, None)
    st.cache_resource.clear()
    init_state()


def ledger(key: str) -> PrivacyLedger:
    """Return the privacy ledger of dataset ``key`` (a new one with budget 1.0 if none)."""
    ledgers = st.session_state.setdefault(LEDGERS, {})
    if key not in ledgers:
        ledgers[key] = PrivacyLedger(1.0, 1e-6)
    return ledgers[key]


def set_ledger(key: str, value: PrivacyLedger) -> None:
    """Store the ledger of dataset ``key``."""
    st.session_state.setdefault(LEDGERS, {})[key] = value
