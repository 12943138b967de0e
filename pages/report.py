"""Report page: the assessment as an offline HTML / PDF document with its JSON twin, and saved."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import streamlit as st

from riskcore import dp
from riskcore.errors import RiskcoreError
from riskcore.report.readings import ledger_provenance, report_intro
from riskcore.report.readings.criteria import check_table
from riskcore.report.readings.review import (
    figures_side_by_side,
    limitation_text,
    release_banner,
)
from riskcore.report.render import render_html, render_pdf
from riskcore.review import review
from ui.core import budget, cached, keys, people, saved, state
from ui.core import profile as session_profile
from ui.core.context import context, end_page, require_qis
from ui.core.downloads import Download, download_buttons
from ui.core.safe import file_stem, md
from ui.core.tables import drop_empty, escaped
from ui.widgets.report.signing import sign_control

st.title("Report")
ctx = require_qis(context(as_recorded=True))
person = people.person(ctx)  # with one, the report counts people
if person is not None:
    people.unit_line(cached.people_count(ctx.key, ctx.encoded, person), ctx.table.n_rows, person)
st.write(md(report_intro()))

# the session's one profile: roles, targets, policy and the recipe in use (masking included)
prof = session_profile.current(ctx)
try:
    look = budget.lookup()
except RiskcoreError as exc:  # the database cannot be read: the report goes without the budget
    st.warning(md(exc))
    look = dp.LedgerLookup(budget.source(), "new")
ledger = look.budget
split = look.ledger is not None and look.ledger.split is not None
if ledger.entries or split:  # with which ledger it is and why (a people match, a new ledger)
    spent = {**ledger.to_dict(), "charged_to": ledger_provenance(look)}
    base = prof  # the same object while nothing changed: the copy with the budget kept too
    prof = session_profile.derived("report", (base, spent), lambda: base.with_(ledger=spent))
st.caption(
    md(
        "Built from the roles and targets of this session"
        + (", the recipe in use (every step)" if prof.recipe is not None else "")
        + (", the privacy budget spent" if ledger.entries or split else "")
        + "."
        + (
            " It describes the table as recorded and after the recipe, side by side; its "
            "verdict is on the remediated table."
            if prof.recipe is not None
            else " It describes the table as recorded (no recipe is in use)."
        )
    )
)
who = saved.audit_user()

built = st.session_state.get(keys.REPORT)
if st.button("Build the report", type="primary", key=keys.REPORT_BUILD):
    with st.spinner("Assessing and writing the report ..."):
        try:
            report = review(
                ctx.table.data,
                prof,
                # the people demo is "demo" on the command line, so the printed command runs
                name="demo" if state.is_people_demo() else ctx.table.name,
                sha256=ctx.table.info.fingerprint,
                built_by=who.label,  # "unauthenticated: ..." without a login
                identity=who.to_dict(),
                profile_name="profile.json",
                audit_head=saved.audit_head(),
            )
        except RiskcoreError as exc:
            st.error(md(exc))
            end_page()
    built = st.session_state[keys.REPORT] = {"profile": prof, "report": report}
if built is None:
    end_page()
# equal profiles, equal keys; each profile's key is computed once (no JSON on a rerun)
built_from = built["profile"]
stale = built_from.cache_key != prof.cache_key
if stale:
    st.warning(
        "The roles, targets or recipe changed since this report was built: build it again "
        "(the downloads and the save wait for it)."
    )
report = built["report"]
# the release decision: green ready, amber targets met with identifiers left, red failing
banner = release_banner(report)
if stale:  # the verdict of the report built earlier, not of the targets now
    st.info(md("The report built earlier: " + banner.line))
else:
    {"pass": st.success, "hold": st.warning, "fail": st.error}[banner.state](md(banner.line))
# static tables, every cell whole: the document a reviewer signs hides nothing behind a
# scroll bar or an ellipsis, and a static table's cells wrap (at 1024 px dataframes cut
# "highest record risk (pr..." and the figure names, "prosecutor: records with risk abo...")
st.table(escaped(drop_empty(check_table(report.verdict), "note")), hide_index=True)
st.table(escaped(figures_side_by_side(report)), hide_index=True)
stem = file_stem(ctx.table.name, "data")
# the report, its twin, the PDF and the profile it was built from (written when downloaded)
download_buttons(
    [
        Download("Download the report (HTML)", lambda: render_html(report),
                 f"{stem}_report.html", keys.REPORT_HTML),
        Download("Download the JSON twin", lambda: report.to_json(),
                 f"{stem}_report.json", keys.REPORT_JSON),
        Download("Download the PDF (PDF/A-3b)", lambda: render_pdf(report),
                 f"{stem}_report.pdf", keys.REPORT_PDF),
        Download("Download the profile (reproduces it)", built_from.to_json,
                 "profile.json", keys.REPORT_PROFILE,
                 help="The roles, targets and recipe this report was built from: they "
                 "rebuild it."),
    ],
    disabled=stale,
)  # fmt: skip
sign_control(report, built_from.cache_key, stale=stale, stem=stem)
with st.container(border=True):
    st.subheader("Save this assessment")
    st.caption(
        "Saved in the local database with its profile (roles, targets, the recipe), the "
        "report's JSON twin and the HTML report, in one transaction, and written to the "
        "audit log. The Saved assessments page lists, reopens, compares and deletes them."
    )
    if keys.SAVE_NAME not in st.session_state:
        st.session_state[keys.SAVE_NAME] = f"{ctx.table.name} {datetime.now(UTC):%Y-%m-%d %H:%M}"
    name = st.text_input("Name of the assessment", key=keys.SAVE_NAME)
    with_data = st.checkbox(
        "Also store the raw data (the table itself, direct identifiers included)",
        value=False,
        key=keys.SAVE_RAW,
        help="Off unless ticked: without it the database holds aggregates only, and "
        "reopening asks for the file again.",
    )
    who = saved.logged_as()
    if st.button("Save this assessment", key=keys.SAVE, disabled=stale):
        with st.spinner("Saving ..."):
            try:
                new_id = saved.store().save(
                    name,
                    fingerprint=report.dataset["sha256"],
                    profile=json.loads(built_from.to_json()),  # strict JSON values
                    results=report.to_dict(),
                    report=render_html(report),
                    user=who,
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
st.code(report.command, language="bash", wrap_lines=True)  # one line ran off the box
st.subheader("Limitations")
for lim in report.limitations:
    st.markdown("- " + md(limitation_text(lim)))
