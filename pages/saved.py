"""Saved assessments page: list, reopen, compare, approve, delete; the audit log and its check."""

from __future__ import annotations

import streamlit as st

from riskcore.errors import RiskcoreError
from riskcore.io import load_table
from riskcore.report.readings.identity import (
    approval_reading,
    approval_status_reading,
    approved_reading,
)
from riskcore.report.readings.saved import (
    audit_head_reading,
    audit_table,
    audit_verify_command,
    audit_verify_reading,
    comparison_reading,
    comparison_table,
    dataset_check_reading,
    dataset_check_table,
    head_kept_reading,
    restored_reading,
    saved_intro,
    saved_label,
    saved_table,
)
from riskcore.review import dataset_facts
from ui.core import cached, identity, keys, saved, state
from ui.core.context import current_table, end_page
from ui.core.safe import file_stem, md
from ui.core.tables import escaped, fitted

UPLOAD_FORMATS = ["csv", "tsv", "txt", "parquet", "xlsx"]

state.init_state()
st.title("Saved assessments")
st.write(md(saved_intro()))
if not saved.exists():  # nothing saved: looking makes no database
    st.info("Nothing is saved yet: build a report on the Report page and save it there.")
    st.page_link("pages/report.py", label="Go to the Report page")
    end_page()
try:
    db = saved.store()
except RiskcoreError as exc:  # the audit key is missing or not the file's, a newer schema
    st.error(md(exc))
    end_page()
st.caption(md(f"Database: {db.path}"))
user = saved.logged_as()
items = db.summaries()
labels = {i.id: saved_label(i.to_dict()) for i in items}
ids = list(labels)[::-1]  # newest first
gone = st.session_state.pop(keys.SAVED_DELETED, None)
if gone is not None:
    st.success(md(gone))
if items:
    listed = saved_table([i.to_dict() for i in items])
    st.dataframe(listed, hide_index=True, column_config=fitted(listed))
else:
    st.info("Nothing is saved yet: build a report on the Report page and save it there.")
    st.page_link("pages/report.py", label="Go to the Report page")


def choose(label: str, key: str, where=st, index: int = 0) -> int:
    """Return the id of the saved assessment chosen in a select box (newest first)."""
    return where.selectbox(md(label), ids, index=index, format_func=labels.__getitem__, key=key)


tab_open, tab_compare, tab_approve, tab_delete, tab_audit = st.tabs(
    ["Reopen", "Compare two", "Approve", "Delete", "Audit log"]
)

with tab_open:
    if ids:
        pick = choose("Assessment to reopen", keys.SAVED_PICK)
        source = st.radio(
            "Reopen with",
            ["the data loaded now", "a file (upload)"],
            horizontal=True,
            key=keys.SAVED_SOURCE,
            help="Reopening asks for the data again: nothing is restored unless the file's "
            "SHA-256 is the one saved.",
        )
        up = None
        if source == "a file (upload)":
            up = st.file_uploader(
                "The file the assessment was made on",
                type=UPLOAD_FORMATS,
                key=keys.saved_upload(st.session_state.get(keys.UPLOADS, 0)),
            )
        else:
            key_now, table_now = current_table()
            st.caption(md(f"Loaded now: {table_now.name}"))
        if st.button("Reopen", type="primary", key=keys.SAVED_REOPEN):
            if source == "a file (upload)" and up is None:
                st.warning("Choose the file first.")
            else:
                try:
                    if up is not None:
                        raw = up.getvalue()
                        table = load_table(raw, name=up.name)
                        facts = dataset_facts(
                            table.data, sha256=table.info.fingerprint, name=up.name
                        )
                    else:
                        table = table_now
                        facts = cached.dataset_facts(key_now, table_now)
                    columns = [str(c) for c in table.data.columns]
                    record, check = db.reopen(pick, facts, columns=columns, user=user)
                except RiskcoreError as exc:
                    st.error(md(exc))
                else:
                    if check.matches:
                        if up is not None:
                            state.use_table(up.name, raw, table, file_id=up.file_id)
                            key_now = st.session_state[keys.DATASET]["key"]
                        saved.restore(record.profile, key_now, columns, table.data)
                    st.session_state[keys.SAVED_REOPENED] = {
                        "id": record.id,
                        "name": record.name,
                        "check": check,
                        "profile": record.profile,
                    }
        done = st.session_state.get(keys.SAVED_REOPENED)
        if done is not None and done["id"] == pick:
            if done["check"].matches:
                st.success(md(restored_reading(done["name"], done["profile"])))
            else:
                st.error(md(dataset_check_reading(done["check"], done["name"])))
            st.dataframe(dataset_check_table(done["check"]), hide_index=True)
        st.download_button(
            "Download its saved report (HTML)",
            lambda: db.report(pick) or "",
            file_name=f"{file_stem(labels[pick], 'assessment')}_report.html",
            mime="text/html",
            on_click="ignore",
            key=keys.SAVED_REPORT,
        )
    else:
        st.caption("Nothing to reopen.")

with tab_compare:
    if len(ids) >= 2:
        c1, c2 = st.columns(2)
        a = choose("A", keys.SAVED_A, c1, index=1)
        b = choose("B", keys.SAVED_B, c2)
        if st.button("Compare", type="primary", key=keys.SAVED_COMPARE):
            st.session_state[keys.SAVED_COMPARED] = {
                "ids": (a, b),
                "comparison": db.compare(a, b, user=user),
            }
        shown = st.session_state.get(keys.SAVED_COMPARED)
        if shown is not None and shown["ids"] == (a, b):
            st.write(md(comparison_reading(shown["comparison"])))
            # a static table: its cells wrap, so no figure name is cut and no column hides
            # beyond the right edge at 1024 px (a dataframe cut "highest record risk af...")
            # (its cells are markdown: the names, file and columns escaped)
            st.table(escaped(comparison_table(shown["comparison"]).set_index("figure")))
    else:
        st.caption("Save two assessments to compare them side by side.")

with tab_approve:
    if ids:
        pick = choose("Assessment to approve", keys.SAVED_APPROVE_PICK)
        done = st.session_state.get(keys.SAVED_APPROVED)
        if done is not None and done["id"] == pick:
            (st.success if done["ok"] else st.error)(md(done["text"]))
        author = db.author(pick)
        st.write(
            md(
                approval_status_reading(
                    None if author is None else author.label,
                    [a.label for a in db.approvals(pick)],
                )
            )
        )
        may = db.approval(pick, user)  # the rule: riskcore.store.identity.may_approve
        if not may.allowed:
            st.info(md(approval_reading(may.reason)))
            identity.log_in_again(may.reason)  # a login too old to trust its roles
        if st.button("Approve", type="primary", disabled=not may.allowed, key=keys.SAVED_APPROVE):
            try:
                seq = db.approve(pick, user)
            except RiskcoreError as exc:  # refused meanwhile (another tab approved it)
                st.session_state[keys.SAVED_APPROVED] = {"id": pick, "ok": False, "text": str(exc)}
            else:
                st.session_state[keys.SAVED_APPROVED] = {
                    "id": pick,
                    "ok": True,
                    "text": approved_reading(labels[pick], seq),
                }
            st.rerun()
    else:
        st.caption("Nothing to approve.")

with tab_delete:
    if ids:
        victim = choose("Assessment to delete", keys.SAVED_VICTIM)
        sure = st.checkbox(
            "Yes, delete it (the deletion itself is written to the audit log)",
            value=False,
            key=keys.SAVED_SURE,
        )
        if st.button("Delete", disabled=not sure, key=keys.SAVED_DELETE):
            db.delete(victim, user=user)
            st.session_state[keys.SAVED_DELETED] = (
                f"Deleted {labels[victim]}; the audit log records it."
            )
            st.session_state.pop(keys.SAVED_SURE, None)
            st.rerun()
    else:
        st.caption("Nothing to delete.")

with tab_audit:
    entries = db.audit()
    if st.button("Verify the chain", key=keys.SAVED_VERIFY):
        command = ""
        try:
            v = db.verify()
        except RiskcoreError as exc:
            text, good = str(exc), False
        else:
            text = audit_verify_reading(v.ok, v.entries, v.first_broken, v.reason, keyed=v.keyed)
            if v.head is not None:
                text += " " + audit_head_reading(v.head.to_dict(), command_below=True)
                command = audit_verify_command(v.head.to_dict())
            good = v.ok
        st.session_state[keys.SAVED_VERIFIED] = (good, text, len(entries), command)
    verified = st.session_state.get(keys.SAVED_VERIFIED)
    if verified is not None and verified[2] == len(entries):  # until the log grows
        (st.success if verified[0] else st.error)(md(verified[1]))
        if verified[3]:  # a code block: copied exactly (md's joiners would break SEQ:HASH)
            st.code(verified[3], language="bash", wrap_lines=True)
            st.caption(md(head_kept_reading()))
    logged = audit_table([e.to_dict() for e in entries])
    st.dataframe(logged, hide_index=True, column_config=fitted(logged))
