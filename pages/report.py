"""Report page: the assessment as an offline HTML / PDF document with its JSON twin, and saved."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import streamlit as st

from riskcore import dp
from riskcore.errors import RiskcoreError
from riskcore.report.document import build_report, render_html, render_pdf
from riskcore.report.readings import report_intro, report_verdict_reading, report_view_reading
from ui import budget, remediation, saved, state
from ui.context import context, end_page, require_qis
from ui.safe import file_stem, md

BUILT = "rc_report"  # {"profile": the profile JSON it was built from, "report": Report}

st.title("Report")
ctx = require_qis(context(as_recorded=True))
st.write(md(report_intro()))

tg = st.session_state[state.TARGETS]
profile = json.loads(ctx.roles.to_json())
profile["targets"] = {"k": int(tg["k"]), "l": int(tg["l"]), "t": float(tg["t"]),
                      "threshold": float(tg["threshold"])}  # fmt: skip
profile["c"] = float(tg["c"])
profile["missing"] = tg.get("missing", "own")  # the missing-value policy, set on Anonymity
if float(tg.get("sampling_fraction") or 0.0) > 0:
    profile["sampling_fraction"] = float(tg["sampling_fraction"])
recipe = remediation.active(ctx.key)
shown = recipe is not None and remediation.showing_after(ctx.key)  # the sidebar's switch
if shown:
    profile["recipe"] = recipe
try:
    ledger = budget.ledger()
except RiskcoreError as exc:  # the database cannot be read: the report goes without the budget
    st.warning(md(exc))
    ledger = dp.PrivacyLedger(dp.DEFAULT_EPSILON_BUDGET)
if ledger.entries:
    profile["ledger"] = ledger.to_dict()
profile_json = json.dumps(profile, sort_keys=True)
st.caption(
    md(
        "Built from the roles and targets of this session"
        + (", the generalization in use" if shown else "")
        + (", the privacy budget spent" if ledger.entries else "")
        + "."
    )
)

st.info(md(report_view_reading(chosen=recipe is not None, shown=shown)))

built = st.session_state.get(BUILT)
if st.button("Build the report", type="primary", key="rc_report_build"):
    with st.spinner("Assessing and writing the report ..."):
        try:
            report = build_report(
                ctx.table.data,
                profile_json,
                # the demo is "demo" on the command line, so the printed command runs
                name="demo" if ctx.table.info.file_format == "demo" else ctx.table.name,
                sha256=ctx.table.info.fingerprint,
                profile_name="profile.json",
            )
        except RiskcoreError as exc:
            st.error(md(exc))
            end_page()
    built = st.session_state[BUILT] = {"profile": profile_json, "report": report}
if built is None:
    end_page()
if built["profile"] != profile_json:
    st.warning("The roles or targets changed since this report was built: build it again.")
report = built["report"]
(st.success if report.verdict["pass"] else st.warning)(md(report_verdict_reading(report.verdict)))
stem = file_stem(ctx.table.name, "data")
c1, c2, c3, c4 = st.columns(4)
c1.download_button(
    "Download the report (HTML)",
    lambda: render_html(report),
    file_name=f"{stem}_report.html",
    mime="text/html",
    on_click="ignore",
    key="rc_report_html",
)
c2.download_button(
    "Download the JSON twin",
    lambda: json.dumps(report.to_dict(), indent=2),
    file_name=f"{stem}_report.json",
    mime="application/json",
    on_click="ignore",
    key="rc_report_json",
)
c3.download_button(
    "Download the PDF (PDF/A-3b)",
    lambda: render_pdf(report),
    file_name=f"{stem}_report.pdf",
    mime="application/pdf",
    on_click="ignore",
    key="rc_report_pdf",
)
c4.download_button(
    "Download the profile (reproduces it)",
    json.dumps(profile, indent=2),
    file_name="profile.json",
    mime="application/json",
    on_click="ignore",
    key="rc_report_profile",
)
with st.container(border=True):
    st.subheader("Save this assessment")
    st.caption(
        "Saved in the local database with its profile (roles, targets, the generalization), "
        "the report's JSON twin and the HTML report, in one transaction, and written to the "
        "audit log. The Saved assessments page lists, reopens, compares and deletes them."
    )
    s1, s2 = st.columns(2)
    if "rc_save_name" not in st.session_state:
        st.session_state["rc_save_name"] = f"{ctx.table.name} {datetime.now(UTC):%Y-%m-%d %H:%M}"
    name = s1.text_input("Name of the assessment", key="rc_save_name")
    user = saved.user_name("rc_user_report", s2)
    with_data = st.checkbox(
        "Also store the raw data (the table itself, direct identifiers included)",
        value=False,
        key="rc_save_raw",
        help="Off unless ticked: without it the database holds aggregates only, and "
        "reopening asks for the file again.",
    )
    if st.button("Save this assessment", key="rc_save"):
        if built["profile"] != profile_json:
            st.error("The roles or targets changed since this report was built: build it again.")
        else:
            with st.spinner("Saving ..."):
                try:
                    new_id = saved.store().save(
                        name,
                        fingerprint=report.dataset["sha256"],
                        profile=json.loads(built["profile"]),
                        results=report.to_dict(),
                        report=render_html(report),
                        user=user,
                        data=ctx.table.data if with_data else None,
                    )
                except RiskcoreError as exc:
                    st.error(md(exc))
                else:
                    st.success(
                        md(f"Saved as #{new_id} {name.strip()}")
                        + (" with its raw data" if with_data else ", without the raw data")
                        + "; the save is in the audit log."
                    )
                    st.page_link("pages/saved.py", label="Open the saved assessments")
st.text("Reproduce every number with:")
st.code(report.command, language="bash")
for line in report.readings + (report.attacks or {}).get("readings", []):
    st.markdown(md(line))
