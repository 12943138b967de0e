"""Uniqueness page: class sizes, candidates per record, and which QI drives the risk."""

from __future__ import annotations

import streamlit as st

from riskcore.report import figures as charts
from riskcore.report.readings import (
    candidate_table,
    candidates_reading,
    classes_intro,
    contribution_matters,
    contribution_reading,
    contribution_table,
    histogram_reading,
    join_names,
    missing_reading,
    size_histogram,
    subset_reading,
    subset_table,
)
from ui import cached, state
from ui.context import context, require_qis, run_gate
from ui.safe import md

st.title("Uniqueness")
ctx = require_qis(context())
qis = ctx.roles.quasi_identifiers
targets = st.session_state[state.TARGETS]
policy = targets.get("missing", "own")  # set on the Anonymity page
a = cached.assessment(ctx.key, ctx.encoded, qis, (), 2.0, targets["threshold"], 0.0, (), (), policy)

st.write(classes_intro(qis, escape=md))
c1, c2, c3, c4 = st.columns(4)
c1.metric("Records", f"{a.n_records:,}")
c2.metric("Equivalence classes", f"{a.n_classes:,}")
c3.metric(
    "Unique people",
    f"{a.unique_records:,}",
    f"{a.anonymity.unique_share:.1%} of records",
    delta_color="off",  # a share, not a change: no arrow, no colour
    delta_arrow="off",
)
c4.metric("k (smallest class)", f"{a.k:,}")

st.plotly_chart(
    charts.class_size_histogram(size_histogram(a.anonymity.distribution), join_names(qis))
)
st.caption(md(histogram_reading(a)))
st.caption(md(missing_reading(a.missing, a.missing_records)))

st.plotly_chart(charts.candidates_curve(candidate_table(a.anonymity.distribution)))
st.caption(md(candidates_reading(a)))

st.subheader("Which quasi-identifier drives the risk")
if run_gate(a.n_records, (ctx.key, qis), "Count uniques per combination", "rc_subsets_run"):
    u = cached.uniqueness(ctx.key, ctx.encoded, qis, policy)
    if len(qis) > 1 and contribution_matters(u):
        st.plotly_chart(charts.contribution_bars(contribution_table(u)))
        st.caption(md(contribution_reading(u)))
    elif len(qis) > 1:
        st.info(md(contribution_reading(u)))  # every bar would be 0: say it in words
    subsets = subset_table(u)
    st.plotly_chart(charts.subset_bars(subsets))
    st.caption(md(subset_reading(subsets, complete=u.complete)))
    with st.expander("All tested combinations"):
        st.dataframe(
            subsets,
            hide_index=True,
            column_config={"unique %": st.column_config.NumberColumn(format="%.2f%%")},
        )
