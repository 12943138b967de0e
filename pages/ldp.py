"""Local DP page: randomized response and local Laplace noise, simulated per respondent."""

from __future__ import annotations

import numpy as np
import streamlit as st

from riskcore.errors import RiskcoreError
from riskcore.report import figures as charts
from riskcore.report.readings import (
    EPSILON_STEPS,
    format_number,
    grr_reading,
    grr_table,
    ldp_intro,
    ldp_planning,
    local_laplace_reading,
    local_unit_reading,
    numeric_columns,
    planning_reading,
    survey_columns,
)
from ui.core import budget, cached, keys
from ui.core.context import context, require_table
from ui.core.safe import md
from ui.widgets.dp.defaults import bounds_from_column, leak_messages

st.title("Local differential privacy")
st.write(md(ldp_intro()))
ctx = require_table(context())
data = ctx.table.data
categorical = survey_columns(ctx.encoded, ctx.roles.sensitive)
numeric = numeric_columns(data, list(data.columns))

c1, c2 = st.columns([3, 1])
epsilon = c1.select_slider(
    "Epsilon per respondent", options=list(EPSILON_STEPS), value=1.0, key=keys.LDP_EPSILON
)
seed = int(c2.number_input("Simulation seed", 0, 10**6, 0, key=keys.LDP_SEED))

# with a person column a person sends at most c reports, each at epsilon / c
privacy_unit = budget.unit_control(
    ctx,
    key=keys.LDP_MAX_ROWS,
    label="Most reports per person, c",
    help="Public: fixed before the survey. A person's rows beyond c are not sent, and each "
    "report is randomized at epsilon / c.",
)
person, max_rows = privacy_unit.person, privacy_unit.factor

tab_rr, tab_num, tab_plan = st.tabs(["Randomized response", "Numeric (local Laplace)", "Planning"])

plan_k = 4  # the planning's default: the categories of the column answered, when there is one
with tab_rr:
    if not categorical:
        st.info("The table has no column with 2 to 200 different values.")
    else:
        col = st.selectbox("Column each person answers", categorical, key=keys.LDP_COL)
        try:
            r = cached.ldp_grr(ctx.key, data, col, float(epsilon), seed, person, max_rows)
        except RiskcoreError as exc:
            st.error(md(exc))
        else:
            plan_k = r.k
            m1, m2, m3 = st.columns(3)
            m1.metric("Categories k", f"{r.k:,}")
            m2.metric("Truthful report probability p", f"{r.p:.1%}")
            m3.metric("Each other value q", f"{r.q:.2%}")
            counted = "reports" if privacy_unit.is_person else "people"
            st.plotly_chart(
                charts.grr_bars(grr_table(r), col, counted=counted), key=keys.LDP_GRR_CHART
            )
            st.markdown(md(grr_reading(r)))
            sent = local_unit_reading(r)
            if sent:
                st.markdown(md(sent))
            st.dataframe(grr_table(r).round(1), hide_index=True)
            st.caption(
                "Estimates use (C_v/n - q)/(p - q) (Wang et al. 2017) and can be negative for "
                "rare values; intervals are normal approximations of the exact variance."
            )

with tab_num:
    if not numeric:
        st.info("The table has no numeric column.")
    else:
        n1, n2, n3 = st.columns(3)
        ncol = n1.selectbox("Numeric column", numeric, key=keys.LDP_NUM_COL)
        bounds_from_column(data[ncol], lo_key=keys.LDP_LO, hi_key=keys.LDP_HI,
                           for_key=keys.LDP_BOUNDS_FOR, leak_key=keys.LDP_BOUNDS_LEAK)  # fmt: skip
        st.session_state.setdefault(keys.LDP_LO, 0.0)
        st.session_state.setdefault(keys.LDP_HI, 100.0)
        lo = n2.number_input("Lower bound L", key=keys.LDP_LO)
        hi = n3.number_input("Upper bound U", key=keys.LDP_HI)
        for message in leak_messages(keys.LDP_BOUNDS_LEAK, lo, hi):
            st.warning(f"Privacy leak: {md(message)}", icon="⚠️")
        if hi <= lo:
            st.error("The upper bound must be above the lower bound.")
        else:
            try:
                lr = cached.ldp_laplace(
                    ctx.key, data, ncol, float(epsilon), (float(lo), float(hi)), seed,
                    person, max_rows,
                )  # fmt: skip
            except RiskcoreError as exc:
                st.error(md(exc))
            else:
                k1, k2, k3 = st.columns(3)
                k1.metric("True mean", format_number(lr.true_mean, digits=4))
                k2.metric(
                    "Estimated from noisy reports",
                    format_number(lr.estimated_mean, digits=4),
                    help="95% interval below",
                )
                k3.metric("Noise per report (Laplace scale)", format_number(lr.scale, digits=4))
                st.plotly_chart(charts.laplace_ldp_chart(lr), key=keys.LDP_NUM_CHART)
                st.markdown(md(local_laplace_reading(lr)))
                sent = local_unit_reading(lr)
                if sent:
                    st.markdown(md(sent))
                st.write("What the collector receives (first 10 reports):")
                st.dataframe({"report": np.round(lr.example_reports, 2)}, hide_index=False)

with tab_plan:
    col_now = st.session_state.get(keys.LDP_COL)
    if st.session_state.get(keys.LDP_PLAN_FOR) != col_now:  # a new column: its categories
        st.session_state[keys.LDP_PLAN_FOR] = col_now
        st.session_state[keys.LDP_PLAN_K] = max(int(plan_k), 2)
    st.session_state.setdefault(keys.LDP_PLAN_K, max(int(plan_k), 2))
    k = st.number_input("Categories k", 2, 10_000, key=keys.LDP_PLAN_K)
    # this table's respondents: its rows, or its people sending their reports (at most c each)
    here, sent = max(ctx.table.n_rows, 2), None
    if person is not None:
        per_person = cached.dp_rows_per_person(ctx.key, data, person)
        here = max(per_person.people, 2)
        sent = {here: max(per_person.kept(max_rows), 1)}
    ns = tuple(sorted({1_000, 10_000, 100_000, here}))
    grid = np.geomspace(0.1, 10, 60)
    plan = ldp_planning(int(k), grid, ns, unit=privacy_unit, reports=sent)
    st.plotly_chart(
        charts.margin_chart(plan, float(epsilon), unit=privacy_unit), key=keys.LDP_MARGIN
    )
    margin = st.number_input(
        "Target margin on a share (+/- percentage points)", 0.1, 50.0, 2.0, key=keys.LDP_MARGIN_IN
    )
    for line in planning_reading(int(k), float(epsilon), float(margin), unit=privacy_unit):
        st.markdown(md(line))
