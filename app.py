"""Router of the privacy-risk dashboard: page config, shared sidebar, navigation."""

from __future__ import annotations

import streamlit as st

from riskcore.errors import RiskcoreError
from riskcore.report.readings import demo_data_note, roles_summary
from riskcore.workguard import memory_message
from ui.core import identity, keys, memory, remediation, saved, state, work
from ui.core.context import EndPage, context, routed
from ui.core.safe import md

st.set_page_config(page_title="Privacy-risk assessment", page_icon="🛡️", layout="wide")
memory.start()
memory.end_with_tab()
state.init_state()
identity.gate()  # with a login configured (secrets.toml [auth]), nothing runs before it

PAGES = [
    st.Page("pages/data.py", title="Data", default=True),
    st.Page("pages/uniqueness.py", title="Uniqueness"),
    st.Page("pages/anonymity.py", title="Anonymity (k / l / t)"),
    st.Page("pages/records.py", title="Records"),
    st.Page("pages/attacks.py", title="Attacks"),
    st.Page("pages/remediate.py", title="Remediate"),
    st.Page("pages/dp.py", title="Differential privacy"),
    st.Page("pages/ldp.py", title="Local DP"),
    st.Page("pages/report.py", title="Report"),
    st.Page("pages/saved.py", title="Saved assessments"),
    st.Page("pages/guided_demo.py", title="Guided demo"),
]
nav = st.navigation(PAGES)


def sidebar() -> None:
    """The dataset and roles in use, and the reset button (drawn after the page has run)."""
    ctx = context(banner=False)
    if ctx is not None and nav.url_path == "guided_demo":  # the demo runs on its own data
        st.caption("Dataset")
        uploaded = None if ctx.table.file_format == "demo" else ctx.table.name
        st.text(demo_data_note(uploaded))
    elif ctx is not None:
        st.caption("Dataset")
        st.text(ctx.table.name)
        st.text(f"{ctx.table.n_rows:,} rows x {ctx.table.n_columns} columns")
        r = ctx.roles
        st.caption("Roles")
        st.text(roles_summary(r))
        if remediation.active(ctx.dataset_key) is not None:
            st.toggle(
                "Assess the generalized table",
                key=keys.VIEW_AFTER,
                help="The levels chosen on the Remediate page; off: the table as recorded.",
            )
    identity.sidebar(saved.name_box)  # the login and "Log out", else the name box
    if st.button("Reset session", help="Forget the upload, roles and targets of this session"):
        state.reset()
        st.rerun()


# The sidebar's place is reserved before the page runs and filled after it, so that it
# shows what the page has just chosen (an upload, new roles), even when the page stops early.
# A riskcore error a page did not catch is shown as its message, never as a traceback, and
# the sidebar (with "Reset session") is drawn all the same; so is a request that ran past
# the server's memory ceiling (riskcore.workguard).
panel = st.sidebar.container()
try:
    with routed():
        nav.run()
except EndPage:  # the page ended early (ui.core.context.end_page), with its message shown
    pass
except RiskcoreError as exc:
    st.error(md(exc))
except MemoryError:  # past the process's memory ceiling (ui.core.memory): this request only
    st.error(md(memory_message(memory.ceiling())))
finally:
    with panel:
        sidebar()
        try:  # the work survives a reload (ui.core.work): kept once changed, guarded while held
            work.keep()
        except RiskcoreError as exc:
            st.caption(md(f"Your work could not be kept for a reload: {exc}"))
        work.guard(st)
