"""The user's work surviving a reload: kept under the file's SHA-256, offered back, guarded.

A reload starts a new session and the upload is gone (it is never written to disk). Once the
user has changed something (looking writes nothing), the session's working profile is kept
in the database (:class:`riskcore.store.working.WorkStore`) under the file's fingerprint:
the roles, targets, policy, distances and orders and the recipe in use (the
:class:`~riskcore.profile.Profile`), the Remediate page's levels and hierarchies, and the
Direct identifiers tab's masking choices; never the data, never the key. When the same file
is uploaded again, the Data page offers "Restore your work from <time>"; restoring is the
user's click. With a login the work is the login's: offered to that login only. While work
exists, leaving the tab asks first (``beforeunload``).
"""

from __future__ import annotations

import json
import secrets
from typing import Any

import streamlit as st

from riskcore.deidentify.masking import MENU
from riskcore.errors import RiskcoreError
from riskcore.profile import Profile
from riskcore.report.readings.work import kept_parts, restore_label, restore_reading
from riskcore.store.working import KeptWork, WorkStore
from ui.core import identity, keys, state
from ui.core import profile as session_profile
from ui.core.context import Context, context
from ui.core.safe import md

__all__ = ["choices", "guard", "keep", "offer", "restore", "snapshot", "unsaved"]

_DEFAULT_OP = next(iter(MENU))

#: The ``beforeunload`` guard: installed once in the page, armed while work exists.
_GUARD = """<script>
window.__rcWork = {armed};
if (!window.__rcGuard) {{
  window.__rcGuard = true;
  window.addEventListener("beforeunload", function (event) {{
    if (window.__rcWork) {{ event.preventDefault(); event.returnValue = ""; }}
  }});
}}
</script>"""


def _session() -> str:
    sid: str = st.session_state.setdefault(keys.work("session"), secrets.token_hex(8))
    return sid


def _fingerprint(ctx: Context) -> str:
    return ctx.table.info.fingerprint or state.ledger_key(ctx.key).removeprefix("upload-")


def _uploaded() -> bool:
    ds = st.session_state.get(keys.DATASET) or {}
    return ds.get("source") == "upload" and state.table_of(ds) is not None


def choices(ctx: Context, *, on_page: bool = True) -> dict[str, Any]:
    """Return the masking choices and the date shift of the Direct identifiers tab.

    On the Remediate page (``on_page``), before its widgets are drawn: a widget's value is
    the user's latest choice and is remembered; a widget without one (its value forgotten
    on another page, or restored work) is seeded from what was remembered. Elsewhere only
    what was remembered is read: a widget key set where no widget is drawn would outlive it.
    """
    kept = st.session_state.get(keys.work("choices")) or {}
    if kept.get("for") != ctx.key:
        kept = {"for": ctx.key, "masking": {}, "shift": None}
    masking = dict(kept["masking"])
    shift = kept["shift"]
    if on_page:
        for col in ctx.roles.identifiers:
            widget = keys.rem_operator(col)
            if widget in st.session_state:
                masking[col] = str(st.session_state[widget])
            elif masking.get(col, _DEFAULT_OP) in MENU:
                st.session_state[widget] = masking.get(col, _DEFAULT_OP)
        if keys.REM_SHIFT_COLS in st.session_state:
            cols = [str(c) for c in st.session_state[keys.REM_SHIFT_COLS]]
            shift = None
            if cols:
                shift = {
                    "columns": cols,
                    "person": st.session_state.get(keys.REM_SHIFT_PERSON),
                    "max_days": int(st.session_state.get(keys.REM_SHIFT_DAYS, 180)),
                }
        elif shift:
            st.session_state[keys.REM_SHIFT_COLS] = list(shift["columns"])
            st.session_state[keys.REM_SHIFT_PERSON] = shift["person"]
            st.session_state[keys.REM_SHIFT_DAYS] = int(shift["max_days"])
    masking = {c: op for c, op in masking.items() if op != _DEFAULT_OP}
    st.session_state[keys.work("choices")] = {"for": ctx.key, "masking": masking, "shift": shift}
    return {"masking": masking, "shift": shift}


def snapshot(ctx: Context) -> dict[str, Any]:
    """Return the session's working profile of the table in ``ctx`` (plain JSON; no data, no
    key: the recipe records the key's check value only)."""
    profile = session_profile.current(ctx).to_dict()  # its values: no JSON written and parsed
    # "equal" is every attribute's distance until one is chosen: a page that draws the
    # choice writes it, and looking must not count as a change
    profile["distances"] = {c: d for c, d in profile["distances"].items() if d != "equal"}
    store = st.session_state.get(keys.REM_STORE) or {}
    page: dict[str, Any] = {}
    if store.get("for") == ctx.key:
        levels = {k[6:]: int(v) for k, v in store.items() if k.startswith("level_") and int(v)}
        if levels:
            page["levels"] = levels
        if store.get("hier"):
            page["hier"] = store["hier"]
    return {"version": 1, "profile": profile, "remediate": page, **choices(ctx, on_page=False)}


def keep() -> None:
    """Keep the session's work on its upload once it differs from the file's first look.

    Called by the router after every page; writes only when something changed.
    """
    if not _uploaded():
        return
    ctx = context(as_recorded=True, banner=False)
    if ctx is None:
        return
    now = json.dumps(snapshot(ctx), sort_keys=True)
    base = st.session_state.get(keys.work("base"))
    if base is None or base["for"] != ctx.key:  # the file's first look: nothing to keep
        st.session_state[keys.work("base")] = {"for": ctx.key, "json": now}
        return
    kept = st.session_state.get(keys.work("kept"))
    if (now == base["json"] and kept is None) or kept == {"for": ctx.key, "json": now}:
        return  # nothing changed since the first look, or this is what is kept already
    try:
        WorkStore().keep(_fingerprint(ctx), _session(), json.loads(now), user=identity.current())
    except RiskcoreError as exc:
        st.sidebar.caption(md(f"Your work could not be kept for a reload: {exc}"))
        return
    st.session_state[keys.work("kept")] = {"for": ctx.key, "json": now}


def unsaved() -> bool:
    """Return True while this session holds work on its upload (a reload would drop the data)."""
    kept = st.session_state.get(keys.work("kept"))
    ds = st.session_state.get(keys.DATASET) or {}
    return kept is not None and kept["for"] == ds.get("key") and _uploaded()


def guard(where: Any) -> None:
    """Install the ``beforeunload`` guard in the page, armed while :func:`unsaved`."""
    where.html(_GUARD.format(armed="true" if unsaved() else "false"), unsafe_allow_javascript=True)


def restore(kept: KeptWork, ctx: Context) -> None:
    """Make kept work the session's: the profile, the Remediate levels and hierarchies, the
    masking choices.

    Raises
    ------
    RiskcoreError
        When the kept profile cannot be read or names columns the table does not have.
    """
    work = kept.work
    profile = Profile.read(work.get("profile") or {})
    columns = [str(c) for c in ctx.table.data.columns]
    profile.roles.validate_against(columns)
    session_profile.restore(profile, ctx.key, columns, ctx.table.data)
    page = work.get("remediate") or {}
    old = st.session_state.get(keys.REM_STORE) or {}
    store: dict[str, Any] = {
        "for": ctx.key,
        "hier": dict(page.get("hier") or {}),
        "hier_ver": int(old.get("hier_ver", 0)) + 1,
    }
    for q, lv in (page.get("levels") or {}).items():
        store[f"level_{q}"] = int(lv)
    for q in profile.roles.quasi_identifiers:
        st.session_state.pop(keys.rem_level(q), None)  # seeded again from the store
    st.session_state[keys.REM_STORE] = store
    # the Remediate page seeds its widgets from these (ui.core.work.choices)
    masking = {c: op for c, op in (work.get("masking") or {}).items() if op in MENU}
    shift = work.get("shift")
    for col in profile.roles.identifiers:
        st.session_state.pop(keys.rem_operator(col), None)
    for widget in (keys.REM_SHIFT_COLS, keys.REM_SHIFT_PERSON, keys.REM_SHIFT_DAYS):
        st.session_state.pop(widget, None)
    st.session_state[keys.work("choices")] = {"for": ctx.key, "masking": masking, "shift": shift}
    st.session_state[keys.work("offer")] = {"for": ctx.key, "done": "restored"}


def offer(ctx: Context) -> None:
    """On the Data page: offer the work another session kept on this same file."""
    if not _uploaded():
        return
    done = st.session_state.get(keys.work("offer"))
    if done is not None and done["for"] == ctx.key:
        return
    try:
        kept = WorkStore().latest(_fingerprint(ctx), other_than=_session(), user=identity.current())
    except RiskcoreError as exc:
        st.caption(md(f"Work kept earlier could not be read: {exc}"))
        return
    if kept is None:
        return
    with st.container(border=True):
        st.info(md(restore_reading(kept.saved, kept_parts(kept.work))))
        if st.button(md(restore_label(kept.saved)), type="primary", key=keys.work("restore")):
            try:
                restore(kept, ctx)
            except RiskcoreError as exc:
                st.error(md(f"The work could not be restored: {exc}"))
            else:
                st.rerun()
