"""Anonymity page: k, l-diversity, t-closeness and re-identification risk against targets."""

from __future__ import annotations

import streamlit as st

from riskcore.metrics import THRESHOLDS, class_table
from riskcore.report import figures as charts
from riskcore.report.readings import diversity_distribution, join_names, risk_table, target_checks
from ui import cached, state
from ui.context import context, require_qis
from ui.safe import md

st.title("Anonymity: k / l / t and re-identification risk")
ctx = require_qis(context())
qis, sens = ctx.roles.quasi_identifiers, ctx.roles.sensitive
tg = st.session_state[state.TARGETS]

with st.expander("Targets and threshold", expanded=True):
    c1, c2, c3, c4 = st.columns(4)
    tg["k"] = c1.number_input(
        "target k",
        min_value=1,
        value=int(tg["k"]),
        step=1,
        help="every class must hold at least k people",
    )
    tg["l"] = c2.number_input(
        "target l",
        min_value=1,
        value=int(tg["l"]),
        step=1,
        help="distinct sensitive values per class (distinct, entropy, recursive)",
    )
    tg["c"] = c3.number_input("c of recursive (c,l)", min_value=0.1, value=float(tg["c"]), step=0.5)
    tg["t"] = c4.number_input(
        "target t",
        min_value=0.0,
        max_value=1.0,
        value=float(tg["t"]),
        step=0.05,
        help="largest allowed distance of a class's sensitive distribution to the whole table's",
    )
    options = list(THRESHOLDS)
    tg["threshold"] = st.selectbox(
        "record-risk threshold",
        options,
        index=options.index(tg["threshold"]) if tg["threshold"] in options else 2,
        format_func=lambda v: f"{v:g}  ({THRESHOLDS[v]})",
    )
    tg["sampling_fraction"] = st.number_input(
        "sampling fraction n/N (0 = the table is the whole population)",
        min_value=0.0,
        max_value=1.0,
        value=float(tg["sampling_fraction"]),
        step=0.01,
        format="%.3f",
        help="adds journalist and marketer risk and population-uniqueness estimates",
    )

a = cached.assessment(
    ctx.key,
    ctx.encoded,
    qis,
    sens,
    float(tg["c"]),
    float(tg["threshold"]),
    float(tg["sampling_fraction"]),
)

checks = target_checks(a, k=int(tg["k"]), l=int(tg["l"]), t=float(tg["t"]))
n_fail = int((~checks["pass"]).sum())
if n_fail:
    st.error(md(f"{n_fail} of {len(checks)} targets are not met on {join_names(qis)}."))
else:
    st.success(md(f"All {len(checks)} targets are met on {join_names(qis)}."))
m1, m2, m3 = st.columns(3)
m1.metric(
    "k",
    f"{a.k:,}",
    "meets target" if a.k >= tg["k"] else "below target",
    delta_color="normal" if a.k >= tg["k"] else "inverse",
)
m2.metric(
    "records at risk (prosecutor)",
    f"{a.prosecutor.records_at_risk:.1%}",
    f"risk above {a.threshold:g}",
    delta_color="off",
)
m3.metric("highest record risk", f"{a.prosecutor.highest_risk:.3f}")
st.dataframe(
    checks,
    hide_index=True,
    column_config={
        "achieved": st.column_config.NumberColumn(format="%.3f"),
        "target": st.column_config.NumberColumn(format="%.3f"),
        "pass": st.column_config.CheckboxColumn("target met"),
    },
)

st.subheader("Re-identification risk")
risks = risk_table(a)
st.dataframe(
    risks,
    hide_index=True,
    column_config={c: st.column_config.NumberColumn(format="%.4f") for c in risks.columns[1:]},
)
st.caption(
    f"Prosecutor: the attacker knows the person is in the table. Records at risk = share of "
    f"people whose record risk 1/(class size) exceeds {a.threshold:g} "
    f"({THRESHOLDS.get(a.threshold, 'custom threshold')}; El Emam 2013)."
    + ("" if a.journalist else " Give a sampling fraction for journalist and marketer risk.")
)
if a.population_uniqueness is not None:
    pu = a.population_uniqueness
    st.caption(
        f"Population uniques estimated with the {pu.model} model (Dankar et al. 2012 rule): "
        f"{pu.uniques:,.0f} of about {pu.population_size:,.0f} people ({pu.uniqueness:.2%}); "
        f"Zayatz {pu.zayatz:,.0f}, Pitman {pu.pitman:,.0f}, SNB {pu.snb:,.0f}."
    )

if not sens:
    st.info("Tag a column as sensitive on the Data page to see l-diversity and t-closeness.")
    st.page_link("pages/data.py", label="Go to the Data page")
for name, r in a.sensitive.items():
    st.subheader(f"Sensitive attribute: {md(name)}")
    st.plotly_chart(charts.diversity_bars(diversity_distribution(a, name), name))
    st.caption(
        md(
            f"{r.homogeneous_records:,} people ({r.homogeneous_records / a.n_records:.1%}) "
            f"are in {r.homogeneous_classes:,} classes where everyone has the same {name}: "
            f"anyone who knows their {join_names(qis)} learns it. Distinct l = {r.distinct_l}, "
            f"entropy l = {r.entropy_l:.2f}, recursive ({r.c:g},l) l = {r.recursive_l}, "
            f"t = {r.t_closeness:.3f} "
            f"({r.distance} distance)."
        )
    )
    failing = r.failing_classes(l=int(tg["l"]), t=float(tg["t"]))
    st.write(
        f"**{len(failing):,} classes fail** l = {int(tg['l'])} or t = {tg['t']:g} "
        "(smallest first; homogeneous classes have 1 distinct value)."
    )
    if len(failing):
        st.dataframe(class_table(a, failing, limit=500), hide_index=True)
