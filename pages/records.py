"""Records page: special uniques (SUDA), per-record risk, and why one record is risky."""

from __future__ import annotations

import streamlit as st

from riskcore.io.export import to_csv_bytes
from riskcore.metrics.records import explain_record
from riskcore.report import figures as charts
from riskcore.report.readings import (
    individual_risk_reading,
    missing_reading,
    record_reading,
    records_intro,
    suda_contribution_reading,
    suda_contribution_table,
    suda_reading,
)
from ui import cached, state
from ui.context import context, require_qis, run_gate
from ui.safe import md

SHOWN = 200  # rows of the per-record table on screen; the download has every record

st.title("Records: special uniques and per-record risk")
ctx = require_qis(context())
qis = ctx.roles.quasi_identifiers
weights = ctx.roles.weights[0] if len(ctx.roles.weights) == 1 else None
k = int(st.session_state[state.TARGETS]["k"])
st.write(md(records_intro()))
max_size = st.slider(
    "Largest combination searched",
    1,
    len(qis),
    len(qis),
    key="rc_rec_max_size",
    help="Minimal sample uniques of more values than this are not searched (sdcMicro's "
    "missing-value rule: a missing value is never part of one).",
)
if not run_gate(ctx.table.n_rows, (ctx.key, qis, max_size), "Find the special uniques",
                "rc_rec_run"):  # fmt: skip
    st.stop()
s = cached.suda(ctx.key, ctx.encoded, qis, max_size)
c1, c2, c3 = st.columns(3)
c1.metric("Special uniques", f"{s.special_uniques:,}", f"{s.special_uniques / s.n_records:.1%}",
          delta_color="off", delta_arrow="off")  # fmt: skip
c2.metric("Minimal sample uniques", f"{s.n_msus:,}")
c3.metric("DIS probability a unique match is right", f"{s.dis:.3f}")
st.markdown(md(suda_reading(s)))
if len(qis) > 1 and s.n_msus:
    contrib = suda_contribution_table(s)
    st.plotly_chart(
        charts.share_bars(
            contrib,
            "column",
            "share",
            "Each quasi-identifier's share of the SUDA scores",
            "share of the total SUDA score (%)",
            y_title="quasi-identifier",
        ),
        key="rc_rec_contrib",
    )
    st.caption(md(suda_contribution_reading(contrib)))

policy = st.session_state[state.TARGETS].get("missing", "own")  # set on the Anonymity page
table = cached.records(ctx.key, ctx.encoded, qis, weights, k, s, max_size, policy)
st.subheader("Every record's risk")
if weights is not None:
    st.caption(md(f"Individual risk from the sampling weights in {weights}."))
riskiest = table.sort_values(
    ["prosecutor_risk", "dis_suda", "row"], ascending=[False, False, True], kind="stable"
)
st.caption(
    md(f"The {min(SHOWN, len(table)):,} riskiest of {len(table):,} records; the download has all.")
)
st.dataframe(riskiest.head(SHOWN), hide_index=True)
st.caption(md(missing_reading(policy, cached.missing_records(ctx.key, ctx.encoded, qis))))
st.download_button(
    "Download every record's risk (CSV)",
    lambda: to_csv_bytes(table),
    file_name="record_risk.csv",
    mime="text/csv",
    on_click="ignore",
    key="rc_rec_csv",
)
if weights is not None:
    ir = cached.individual_risk(ctx.key, ctx.encoded, qis, weights, policy)
    st.markdown(md(individual_risk_reading(ir)))

st.subheader("Why is this record risky?")
row = st.number_input(
    "Row number (the first data row is 1)",
    1,
    ctx.table.n_rows,
    int(riskiest["row"].iloc[0]),
    key="rc_rec_row",
)
expl = explain_record(ctx.encoded, qis, int(row), suda_result=s)
st.markdown(record_reading(expl, escape=md))
