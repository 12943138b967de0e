"""Report page: the assessment as an offline HTML / PDF document with its JSON twin."""

from __future__ import annotations

import json

import streamlit as st

from riskcore.errors import RiskcoreError
from riskcore.report.document import build_report, render_html, render_pdf
from riskcore.report.readings import report_intro, report_verdict_reading
from ui import remediation, state
from ui.context import context, require_qis
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
if recipe is not None:
    profile["recipe"] = recipe
ledger = state.ledger(ctx.key)
if ledger.entries:
    profile["ledger"] = ledger.to_dict()
profile_json = json.dumps(profile, sort_keys=True)
st.caption(
    md(
        "Built from the roles and targets of this session"
        + (", the generalization in use" if recipe is not None else "")
        + (", the privacy budget spent" if ledger.entries else "")
        + "."
    )
)

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
            st.stop()
    built = st.session_state[BUILT] = {"profile": profile_json, "report": report}
if built is None:
    st.stop()
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
st.text("Reproduce every number with:")
st.code(report.command, language="bash")
for line in report.readings:
    st.markdown(md(line))
