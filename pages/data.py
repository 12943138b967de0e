"""Data page: load the demo or an upload, preview it, and tag each column's role."""

from __future__ import annotations

import streamlit as st

from riskcore.errors import RolesError
from riskcore.report.readings import (
    column_summary,
    free_text_reading,
    person_reading,
    redundancy_reading,
    roles_reading,
    table_heading,
    upload_limit_note,
)
from riskcore.roles import ROLES, ColumnRoles
from ui.core import budget, keys, state, work
from ui.core import profile as session_profile
from ui.core.context import context, end_page
from ui.core.safe import md
from ui.core.tables import fitted
from ui.widgets.data.encoding import decimal_choice, encoding_choice
from ui.widgets.data.large import large_file_panel
from ui.widgets.data.reading import reading_choice

ROLE_LABELS = {
    "identifier": "direct identifier",
    "person": "person (links the rows of one individual)",
    "quasi_identifier": "quasi-identifier",
    "sensitive": "sensitive",
    "weight": "sampling weight",
    "other": "other",
}
LABEL_TO_ROLE = {v: k for k, v in ROLE_LABELS.items()}

st.title("Data")
st.write(
    "Start with the built-in demo (32,561 made-up people with names, SSN-like numbers, dates "
    "of birth and ZIP codes), the claims demo (2,500 made-up patients, one row per visit), or "
    "upload your own table. Nothing you upload leaves this session's memory: it is not "
    "written to disk and no other user can see it."
)

state.init_state()
limit_mb = int(st.get_option("server.maxUploadSize"))
# the uploader at the full width: in two thirds of it, at 1024 px, Streamlit cut its own
# hint ("500MB per file - CSV, TSV, ...") with an ellipsis (no option sets that text)
upload = st.file_uploader(
    f"Upload a table (CSV, TSV, Parquet or Excel .xlsx; up to {limit_mb:,} MB)",
    type=["csv", "tsv", "txt", "parquet", "xlsx"],
    key=state.uploader_key(),
    help=upload_limit_note(limit_mb),
)
st.caption(upload_limit_note(limit_mb))
with st.container(horizontal=True):
    if st.button("Use the demo data", key=keys.DEMO_PEOPLE):
        state.use_demo()
    if st.button("Use the claims demo (many rows per person)", key=keys.DEMO_CLAIMS):
        state.use_demo("claims")
large_file_panel(session_profile.threshold())
if (
    upload is not None
    and state.is_new_upload(upload.file_id)
    and state.set_upload(upload.name, upload.getvalue(), file_id=upload.file_id)
):
    st.rerun()  # draw the page with the new table and a fresh uploader

ctx = context(as_recorded=True)
failed = state.load_error(upload.file_id) if upload is not None else None
if upload is not None and failed is not None:
    st.error(f"{md(upload.name)} could not be used: " + md(failed))
    st.caption(md(f"The table in use is still {ctx.table.name if ctx else 'the demo'}."))
if ctx is None:  # pragma: no cover - the demo always loads
    end_page()

work.offer(ctx)  # the work kept on this same file in an earlier session (a reload)
table = ctx.table
st.subheader(md(table_heading(table.name, table.n_rows, table.n_columns)))
for note in table.notes:
    st.caption(md(note))
encoding_choice(ctx.dataset_key, table)
decimal_choice(ctx.dataset_key, table)
budget.near_duplicate_notes()

summary = column_summary(table.data, ctx.suggestions)
st.markdown("**Columns, types and missing values**")
st.dataframe(
    summary.drop(columns=["suggested role", "reason"]),
    hide_index=True,
    column_config={"missing %": st.column_config.NumberColumn(format="percent")},
)
with st.expander("Preview the first 100 rows"):
    st.dataframe(table.data.head(100), hide_index=True)

st.subheader("Column roles")
st.write(
    "Each column was given a suggested role by one rule, for the demo and uploads alike; the "
    "reason is shown beside it. **Direct identifiers** (names, SSNs, and what HIPAA Safe Harbor "
    "removes: full dates such as a date of birth, 5-digit ZIP codes) must be removed or masked. "
    "**Quasi-identifiers** are what an attacker can learn elsewhere (age, sex, race, marital "
    "status, education): they form the equivalence classes; the suggestion is the smallest "
    "defensible set, so tag more columns to model a better-informed attacker. **Sensitive** "
    "attributes are what must not be learned (diagnosis, income)."
)
reading_choice(ctx)
roles_now = session_profile.role_mapping()
editor_df = summary[["column"]].copy()
editor_df["role"] = [ROLE_LABELS[roles_now.get(c, "other")] for c in summary["column"]]
editor_df["why it was suggested"] = summary["reason"]
edited = st.data_editor(
    editor_df,
    hide_index=True,
    disabled=["column", "why it was suggested"],
    height=min(38 + 35 * len(editor_df), 740),
    column_config=fitted(  # all three columns show at 1024 px; the reasons in full below
        editor_df,
        {
            "role": st.column_config.SelectboxColumn(
                "role", options=[ROLE_LABELS[r] for r in ROLES], required=True
            )
        },
    ),
    key=keys.roles_editor(ctx.key),
)
with st.expander("Why each role was suggested (the reasons in full)"):
    st.markdown(
        "\n".join(
            f"- **{md(c)}**: {ROLE_LABELS[x.role]}. {md(x.reason)}."
            for c, x in ctx.suggestions.items()
        )
    )
free_text = free_text_reading(ctx.suggestions.text.columns) if ctx.suggestions.text else None
if free_text is not None:
    st.caption(md(free_text))
redundant = redundancy_reading(ctx.suggestions)
if redundant is not None:
    lead, lines = redundant
    st.info("\n".join([md(lead), "", *(f"- {md(line)}" for line in lines)]))
person = ctx.suggestions.persons.best  # a column whose values are the rows of one person
if person is not None:
    tagged = ctx.roles.persons[0] if len(ctx.roles.persons) == 1 else None
    st.info(md(person_reading(person, tagged)))
new_roles = {c: LABEL_TO_ROLE[r] for c, r in zip(edited["column"], edited["role"], strict=True)}
if new_roles != roles_now:
    session_profile.set_roles(ctx.key, new_roles)
    st.rerun()

r = ctx.roles
st.write(roles_reading(r))
if not r.quasi_identifiers:
    st.warning("Tag at least one quasi-identifier to see uniqueness and k / l / t.")
else:
    st.page_link("pages/uniqueness.py", label="Next: see how unique people are")

with st.expander("Save or load a role profile (JSON)"):
    st.download_button(
        "Download the roles as JSON",
        data=r.to_json(),
        file_name="roles.json",
        mime="application/json",
    )
    profile = st.file_uploader("Load a role profile", type=["json"], key=keys.ROLE_PROFILE_UPLOAD)
    if profile is not None:
        try:
            loaded = ColumnRoles.from_json(profile.getvalue()).validate_against(
                list(table.data.columns)
            )
        except RolesError as exc:
            st.error("The profile was not applied: " + md(exc))
        else:
            mapping = {c: "other" for c in table.data.columns}
            mapping.update(loaded.to_mapping())
            if mapping != session_profile.role_mapping():
                session_profile.set_roles(ctx.key, mapping)
                st.rerun()
