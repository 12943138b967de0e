"""Differential privacy page: noise versus utility, clipping, budget, identifiability."""

from __future__ import annotations

import numpy as np
import streamlit as st

from riskcore import dp
from riskcore.dp.release import Query, release, release_sample_aggregate
from riskcore.errors import RiskcoreError
from riskcore.report import figures as charts
from riskcore.report.readings import (
    EPSILON_STEPS,
    accountant_totals_reading,
    bound_tradeoff_reading,
    bounded_rows_reading,
    budget_history_table,
    categorical_columns,
    clipping_reading,
    composition_reading,
    dp_intro,
    error_reading,
    error_table,
    format_number,
    gaussian_reference_reading,
    identifiability_reading,
    ledger_table,
    ledger_unit_reading,
    mechanisms_for,
    numeric_columns,
    parallel_reading,
    pooled_reading,
    posterior_reading,
    preferred_first,
    query_phrase,
    release_reading,
    release_unit_reading,
    released_values,
    rounding_note,
    rows_per_person_reading,
    sample_aggregate_reading,
    sample_aggregate_release_reading,
    sensitivity_reading,
    slope_unit,
    solver_caption,
    solver_table,
    stale_release_reading,
    worlds_reading,
)
from ui.core import budget, cached, formats, keys
from ui.core.context import capture_leaks, context, end_page, require_table
from ui.core.safe import md
from ui.widgets.dp.defaults import bounds_from_column, leak_messages

st.title("Differential privacy")
st.write(md(dp_intro()))
ctx = require_table(context())
data = ctx.table.data
numeric = numeric_columns(data, list(data.columns))
categorical = preferred_first(
    categorical_columns(ctx.encoded), (*ctx.roles.quasi_identifiers, *ctx.roles.sensitive)
)

# two rows of two: in one row of four the delta and confidence sliders were 70 px at 1024 px
(c1, c2), (c3, c4) = st.columns(2), st.columns(2)
epsilon = c1.select_slider(
    "Epsilon for this query",
    options=list(EPSILON_STEPS),
    value=1.0,
    key=keys.DP_EPSILON,
    help="The privacy loss of one release. 0.1 is strong protection, 1 is common, 10 is weak.",
)
neigh_label = c2.radio(
    "Neighbouring datasets differ by",
    list(dp.NEIGHBOURING_LABELS.values()),
    key=keys.DP_NEIGHBOURING,
    help="Add/remove protects whether a person is in the data at all; change-one keeps the "
    "row count public and protects each person's values.",
)
neighbouring = next(k for k, v in dp.NEIGHBOURING_LABELS.items() if v == neigh_label)
delta = c3.select_slider(
    "Gaussian delta",
    options=[1e-9, 1e-8, 1e-7, 1e-6, 1e-5],
    value=1e-6,
    format_func=formats.general_number,
)
confidence = c4.select_slider("Confidence", options=[0.9, 0.95, 0.99], value=0.95)
alpha = round(1.0 - confidence, 4)

# the unit of privacy: one row, or one person (the person column) with at most c rows
privacy_unit = budget.unit_control(
    ctx,
    key=keys.DP_MAX_ROWS,
    label="Most rows per person, c",
    help="Public: fix it before looking at the data (from how the data were collected). Each "
    "person's rows beyond c are left out before every query, and the noise is set for c rows.",
)
person = privacy_unit.person
if person is not None:
    with st.expander("How many rows people have (read from the data, outside the guarantee)"):
        try:
            per_person = cached.dp_rows_per_person(ctx.key, data, person)
        except RiskcoreError as exc:  # the person column is not in this view of the table
            st.error(md(exc))
            end_page()
        st.plotly_chart(
            charts.rows_per_person_chart(per_person, privacy_unit.factor), key=keys.DP_ROWS_CHART
        )
        st.markdown(md(rows_per_person_reading(per_person, privacy_unit.factor)))

tab_noise, tab_clip, tab_budget, tab_di, tab_sa = st.tabs(
    [
        "Noise vs utility",
        "Clipped mean",
        "Budget",
        "Epsilon from risk",
        "Sample and aggregate",
    ]
)

# ------------------------------------------------------------------ noise vs utility
with tab_noise:
    q1, q2 = st.columns(2)
    kinds = ["count", "histogram"] + (["sum", "mean"] if numeric else [])
    kind = q1.selectbox("Query", kinds, key=keys.DP_KIND, help="What the analyst asks.")
    column = None
    bounds = None
    categories = None
    if kind in ("sum", "mean"):
        column = q2.selectbox("Numeric column", numeric, key=keys.DP_NUM_COL)
        pending = st.session_state.pop(keys.DP_BOUNDS_FROM_DATA, None)
        if pending is not None:
            st.session_state[keys.DP_LO], st.session_state[keys.DP_HI] = pending[0], pending[1]
            st.session_state[keys.DP_BOUNDS_LEAK] = pending
        # defaults from the column (its minimum and maximum, with their leak warning)
        bounds_from_column(data[column], lo_key=keys.DP_LO, hi_key=keys.DP_HI,
                           for_key=keys.DP_BOUNDS_FOR, leak_key=keys.DP_BOUNDS_LEAK)  # fmt: skip
        st.session_state.setdefault(keys.DP_LO, 0.0)
        st.session_state.setdefault(keys.DP_HI, 100.0)
        b1, b2, b3 = st.columns([1, 1, 2])
        lo = b1.number_input("Lower clipping bound L", key=keys.DP_LO)
        hi = b2.number_input("Upper clipping bound U", key=keys.DP_HI)
        if b3.button("Use the data's minimum and maximum", help="Leaks the extreme records."):
            (lo_d, hi_d), leaks = capture_leaks(dp.data_bounds, data[column])
            st.session_state[keys.DP_BOUNDS_FROM_DATA] = (lo_d, hi_d, tuple(leaks))
            st.rerun()
        leak = st.session_state.get(keys.DP_BOUNDS_LEAK)
        if leak is not None and (lo, hi) == (leak[0], leak[1]):
            for message in leak[2]:
                st.warning(f"Privacy leak: {md(message)}", icon="⚠️")
        if hi <= lo:
            st.error("The upper bound must be above the lower bound.")
            end_page()
        bounds = (float(lo), float(hi))
        st.caption(
            "Bounds must be known before looking at the data (for example age 0-120). "
            "Values outside are clipped to the bounds."
        )
    elif kind == "histogram":
        column = q2.selectbox("Categorical column", categorical, key=keys.DP_CAT_COL)
        public = st.checkbox(
            "These categories are public (a fixed code list), not read from the data",
            key=keys.DP_PUBLIC_CATS,
        )
        if not public:
            st.warning(
                "The bars are the values found in the data: a rare value is revealed just by "
                "having a bar. Tick the box only if the category list is public.",
                icon="⚠️",
            )
    fcol = st.selectbox(
        "Filter rows by (optional)", ["(no filter)", *categorical], key=keys.DP_FCOL
    )
    filters: tuple = ()
    if fcol != "(no filter)":
        options = cached.dp_true_answer(ctx.key, data, Query("histogram", column=fcol))[0]
        chosen = st.multiselect(
            f"Keep rows where {md(fcol)} is", list(options), default=list(options[:1])
        )
        filters = ((fcol, tuple(chosen)),)
    try:
        base = Query(kind, column=column, filters=filters, bounds=bounds)
        truth = cached.dp_true_answer(ctx.key, data, base)
        if kind == "histogram":
            labels, counts = truth
            if public:
                base = Query(kind, column=column, filters=filters, categories=tuple(labels))
            answer = float(np.max(counts)) if len(counts) else 0.0
        else:
            answer = float(truth)
        every_row = answer  # over every row: what a release with no bound would be near
        if privacy_unit.is_person:  # a release answers on the kept rows (at most c a person)
            kept = cached.dp_bounded_answer(ctx.key, data, base, privacy_unit)
            answer = (
                float(np.max(kept[1]))
                if kind == "histogram" and len(kept[1])
                else float(kept)
                if kind != "histogram"
                else 0.0
            )
        what, units = query_phrase(kind, column, unit=privacy_unit)  # rows, with a person
        # the rows a release reads: the filtered rows, at most c per person
        n_rows = int(
            cached.dp_bounded_answer(ctx.key, data, Query("count", filters=filters), privacy_unit)
        )
        row_sens = dp.sensitivity(kind, neighbouring=neighbouring, bounds=bounds, n=max(n_rows, 1))
        sens = dp.bounded_sensitivity(row_sens, privacy_unit)
        mechs = mechanisms_for(kind)
        curves = cached.dp_curves(ctx.key, answer, sens, mechs, delta, alpha)
    except (RiskcoreError, ValueError) as exc:
        st.error(md(exc))
        end_page()

    m1, m2, m3 = st.columns(3)
    whole = kind in ("count", "histogram")
    m1.metric(
        f"True {md(what)}" + (", kept rows" if privacy_unit.is_person else ""),
        format_number(answer, integer=whole),
        help=None
        if not privacy_unit.is_person
        else md(
            f"Over every row, with no bound: {format_number(every_row, integer=whole)} (read "
            "from the data; the release answers on the rows the bound keeps)"
        ),
    )
    m2.metric("Sensitivity (L1 / L2)", f"{sens.l1:,.4g} / {sens.l2:,.4g}")
    m3.metric(
        f"Laplace +/- at epsilon = {epsilon:g}", f"{curves['laplace'].at(epsilon).half_width:,.4g}"
    )
    st.markdown(md(sensitivity_reading(sens)))
    relative = st.toggle("Show the error relative to the true answer (%)", key=keys.DP_RELATIVE)
    st.plotly_chart(
        charts.error_vs_epsilon(curves, epsilon, unit=units, what=what, relative=relative),
        key=keys.DP_ERROR_CHART,
    )
    st.markdown(md(error_reading(curves["laplace"], epsilon, what=what)))
    st.dataframe(
        error_table(curves, epsilon),
        hide_index=True,
        column_config={"relative error": st.column_config.NumberColumn(format="percent")},
    )
    st.caption(md(gaussian_reference_reading(sens, epsilon, delta)))

    if privacy_unit.is_person:  # what the bound costs: rows left out against the noise saved
        st.subheader("What the bound on rows per person costs")
        try:
            cost = cached.dp_bound_tradeoff(
                ctx.key, data, base, row_sens, person, float(epsilon), privacy_unit.factor
            )
        except (RiskcoreError, ValueError) as exc:
            st.error(md(exc))
        else:
            st.plotly_chart(charts.bound_tradeoff_chart(cost, unit=units), key=keys.DP_BOUND_CHART)
            st.markdown(md(bound_tradeoff_reading(cost, what=what, unit=units)))

    st.subheader("Solvers")
    # the input in a third of the row, the table under it at full width (beside it, its
    # last column was hidden at 1024 px)
    s1, _ = st.columns([1, 2])
    # a new query (kind, column, bounds: other units) starts from its own default target
    target_for = (kind, column, bounds)
    if st.session_state.get(keys.DP_TARGET_FOR) != target_for:
        st.session_state.pop(keys.DP_TARGET, None)
        st.session_state[keys.DP_TARGET_FOR] = target_for
    target = s1.number_input(
        f"Target accuracy +/- ({md(units)})",
        min_value=1e-9,
        value=float(max(round(curves["laplace"].at(epsilon).half_width, 3), 1e-3)),
        format="%.4g",  # 2.996 reads 2.996, as the chart's "+/- 2.996", not "3.00"
        key=keys.DP_TARGET,
    )
    st.dataframe(
        solver_table(sens, mechs, accuracy=target, epsilon=epsilon, alpha=alpha, delta=delta),
        hide_index=True,
    )
    st.caption(md(solver_caption(confidence, delta)))

    st.subheader("Release through OpenDP")
    r1, r2 = st.columns([2, 1])
    rel_mechs = ["laplace", "gaussian"] + (
        ["discrete_laplace", "discrete_gaussian"] if kind in ("count", "histogram") else []
    )
    mech = r1.selectbox(
        "Mechanism",
        rel_mechs,
        format_func=formats.mechanism,
        key=keys.DP_RELEASE_MECH,
    )
    try:
        look = budget.lookup()
    except RiskcoreError as exc:  # the database cannot be read: no release without a ledger
        st.error(md(exc))
        end_page()
    ledger = look.budget
    budget.near_duplicate_notes(look)
    # a pooled table is charged to every ledger of its people: the least left of them counts
    r2.metric("Budget left", f"{look.remaining:.4g} of {ledger.epsilon_budget:g}")
    if look.also:
        st.warning(md(pooled_reading(look)), icon="⚠️")
    # what the release below is made for: a shown result or refusal belongs to these settings
    settings = {
        "dataset": ctx.key,
        "query": base,
        "epsilon": epsilon,
        "mechanism": mech,
        "neighbouring": neighbouring,
        "delta": delta,
        "unit": privacy_unit,
    }
    # a refusal also depends on the budget: raising it (or a release elsewhere) clears it
    budget_now = (ledger.epsilon_budget, ledger.delta_budget, ledger.accounting)
    budget_now += (len(ledger.entries),)
    if st.button(
        f"Release this {md(kind)} at epsilon = {epsilon:g}", type="primary", key=keys.DP_RELEASE
    ):
        try:
            rel, leaks = capture_leaks(
                release,
                data,
                base,
                epsilon=epsilon,
                mechanism=mech,
                neighbouring=neighbouring,
                delta=delta,
                ledger=budget.handle(),  # reserves the cost in the database before any noise
                unit=privacy_unit,  # at most c rows per person, left out before the query
            )
            st.session_state[keys.LAST_RELEASE] = {
                "settings": settings,
                "release": rel,
                "leaks": leaks,
            }
        except RiskcoreError as exc:
            # kept with the budget as it is now: when another session's release took the last of
            # it between this page being drawn and the click, the refusal says so (not nothing)
            refusal, budget_now = budget.refusal_after(exc, ledger)
            st.session_state[keys.LAST_RELEASE] = {
                "settings": settings,
                "refusal": refusal,
                "budget": budget_now,
            }
        st.rerun()
    last = st.session_state.get(keys.LAST_RELEASE)
    if last is not None and last["settings"] != settings:
        if "release" in last:  # a published value stays a fact: say where it is, not what
            made = last["settings"]
            st.info(
                md(
                    stale_release_reading(
                        made["query"],
                        made["epsilon"],
                        made["mechanism"],
                        dp.NEIGHBOURING_LABELS[made["neighbouring"]],
                        made["delta"],
                        other_data=made["dataset"] != ctx.key,
                    ),
                ),
                icon="ℹ️",
            )
    elif last is not None and "refusal" in last:
        if last["budget"] == budget_now:
            st.error(md(last["refusal"]))
    elif last is not None:
        rel, leaks = last["release"], last["leaks"]
        for message in leaks:
            st.warning(f"Privacy leak: {md(message)}", icon="⚠️")
        shown = released_values(rel)
        note = rounding_note(rel)
        if rel.labels:
            st.dataframe({"bar": list(rel.labels), "released count": list(shown)}, hide_index=True)
        else:
            st.metric(
                md(f"Released: {rel.query.describe()}"),
                format_number(shown[0], integer=kind in ("count", "histogram")),
            )
        if note:
            st.caption(md(note))
        st.markdown(md(release_reading(rel)))
        left_out = bounded_rows_reading(rel.bounded)
        if left_out:
            st.markdown(md(left_out))

# ------------------------------------------------------------------ clipped mean
with tab_clip:
    if not numeric:
        st.info("The table has no numeric column.")
    else:
        st.write(
            "A mean needs bounds: clip too tight and the answer is biased, too loose and the "
            "privacy noise (proportional to U - L) swamps it. The best bound balances the two."
        )
        k1, k2, k3 = st.columns(3)
        ccol = k1.selectbox("Numeric column", numeric, key=keys.DP_CLIP_COL)
        clo = k2.number_input("Lower bound L", value=0.0, key=keys.DP_CLIP_LO)
        ctop = k3.number_input("Largest U to try", value=200.0, key=keys.DP_CLIP_TOP)
        if ctop <= clo:
            st.error("The largest U must be above L.")
        else:
            try:  # with a person column: the rows a release reads, at most c per person
                t = cached.dp_clipping(
                    ctx.key, data, ccol, float(clo), float(ctop), float(epsilon), privacy_unit
                )
                st.plotly_chart(charts.clipping_chart(t, f"{ccol} units"), key=keys.DP_CLIP_CHART)
                st.markdown(md(clipping_reading(t)))
            except RiskcoreError as exc:
                st.error(md(exc))

# ------------------------------------------------------------------ budget
with tab_budget:
    try:
        look = budget.lookup()
    except RiskcoreError as exc:
        st.error(md(exc))
        end_page()
    ledger = look.budget
    budget.source_panel(look)
    budget.budget_controls(look)
    spent = ledger.spent()[0]
    tot = ledger.totals()
    st.metric("Spent (this accounting)", f"{spent:.4g}", help=f"budget {ledger.epsilon_budget:g}")
    # what the releases would total under each accountant: only the ledger's own is spent
    st.caption(md(accountant_totals_reading(tot, ledger.accounting)))
    if ledger.exceeds(*ledger.spent()):
        st.error("The releases already made exceed this budget; new releases will be refused.")
    st.dataframe(ledger_table(ledger), hide_index=True)
    other_units = ledger_unit_reading(ledger, person)
    if other_units:
        st.warning(md(other_units), icon="⚠️")
    if tot.parallel_saving > 0:
        st.markdown(md(parallel_reading(tot.parallel_saving)))
    if look.ledger is not None and len(look.ledger.budgets) > 1:
        with st.expander(f"Budget history ({len(look.ledger.budgets):,} settings)"):
            st.dataframe(budget_history_table(look.ledger), hide_index=True)
    st.subheader("How many queries fit in the budget")
    kmax = st.slider("Queries to plot", 10, 2000, 300, key=keys.DP_KMAX)
    curves_c = dp.composition_curves(epsilon, kmax, delta_prime=ledger.delta_budget or 1e-6)
    st.plotly_chart(
        charts.composition_chart(curves_c, ledger.epsilon_budget), key=keys.DP_COMP_CHART
    )
    st.markdown(md(composition_reading(curves_c, ledger.epsilon_budget)))

# ------------------------------------------------------------------ differential identifiability
with tab_di:
    st.write(
        "Lee and Clifton (2012): choose epsilon from the risk you accept. If the attacker "
        "has narrowed a person down to m candidates, noise can keep their certainty about "
        "which candidate is in the data at or below rho."
    )
    i1, i2 = st.columns(2)
    rho_pct = i1.number_input(
        "Acceptable re-identification probability rho (%)",
        0.01,
        99.0,
        1.5,
        0.1,
        key=keys.DP_RHO,
        help="1.5% is the figure Lee and Clifton derive as equivalent to HIPAA Safe Harbor.",
    )
    rho = rho_pct / 100.0
    if not numeric:
        st.info("The table has no numeric column to query.")
    else:
        src = i2.radio(
            "Candidates (m) come from",
            ["sample", "class"],
            format_func=formats.candidate_source,
            key=keys.DP_MSRC,
        )
        j1, j2 = st.columns(2)
        dcol = j1.selectbox("The query sums", numeric, key=keys.DP_DI_COL)
        who = "m (candidate people)" if person is not None else "m (candidates)"
        m = (
            int(j2.number_input(md(who), 2, 1_000_000, 200, key=keys.DP_M))
            if src == "sample"
            else None
        )
        try:  # with a person column the candidates are people, a world adds one person's rows
            worlds, desc = cached.dp_worlds(
                ctx.key, ctx.encoded, dcol, src, tuple(ctx.roles.quasi_identifiers), m, 0,
                privacy_unit,
            )  # fmt: skip
            res = dp.identifiability(rho, world_values=worlds)
        except (RiskcoreError, ValueError) as exc:
            st.error(md(exc))
        else:
            st.markdown(md(worlds_reading(desc)))
            d1, d2, d3 = st.columns(3)
            d1.metric("Epsilon (Theorem 1)", f"{res.epsilon:.4g}")
            d2.metric("Laplace scale lambda", f"{res.scale:,.4g}")
            tight = res.tight_epsilon
            d3.metric(
                "Exact epsilon, these candidates",
                "no noise needed" if tight == float("inf") else f"{tight:.4g}",
            )
            true_value = dp.most_exposed_world(worlds, res.scale)
            r, g = dp.posterior_curve(true_value, worlds, res.scale)
            st.plotly_chart(
                charts.posterior_chart(r, g, rho, true_value, f"{dcol} units"),
                key=keys.DP_POST_CHART,
            )
            st.markdown(md(identifiability_reading(res, unit=privacy_unit)))
            st.markdown(md(posterior_reading(dcol, true_value, rho, unit=privacy_unit)))

# ------------------------------------------------------------------ sample and aggregate
with tab_sa:
    st.write(
        "Some statistics (a median, a regression slope) have no useful sensitivity bound. "
        "Sample and aggregate (Nissim, Raskhodnikova, Smith 2007) splits the people into k "
        "disjoint blocks, computes the statistic in each, clamps it, and averages: one person "
        "changes one block, so the noise scale is (hi - lo) / (k epsilon)."
    )
    if not numeric:
        st.info("The table has no numeric column.")
    else:
        a1, a2, a3 = st.columns(3)
        stat = a1.radio("Statistic", ["median", "slope"], key=keys.DP_SA_STAT, horizontal=True)
        if stat == "median":
            ycol = a2.selectbox("Column", numeric, key=keys.DP_SA_Y)
            xcol, unit = None, f"{ycol} units"
        else:  # two different columns by default: the predictor first, the outcome second
            xcol = a3.selectbox("Predictor x", numeric, key=keys.DP_SA_X)
            ycol = a2.selectbox(
                "Outcome y", numeric, index=min(1, len(numeric) - 1), key=keys.DP_SA_Y_SLOPE
            )
            unit = slope_unit(ycol, xcol)
        e1, e2, e3 = st.columns(3)
        kb = e1.slider("Blocks k", 2, 500, 50, key=keys.DP_SA_K)
        if stat == "median":  # the column's range, with its leak warning
            bounds_from_column(data[ycol], lo_key=keys.dp_sa_low(stat),
                               hi_key=keys.dp_sa_high(stat), for_key=keys.dp_sa_for(stat),
                               leak_key=keys.dp_sa_leak(stat))  # fmt: skip
        st.session_state.setdefault(keys.dp_sa_low(stat), 0.0 if stat == "median" else -5.0)
        st.session_state.setdefault(keys.dp_sa_high(stat), 100.0 if stat == "median" else 5.0)
        slo = e2.number_input("Clamp low", key=keys.dp_sa_low(stat))
        shi = e3.number_input("Clamp high", key=keys.dp_sa_high(stat))
        for message in leak_messages(keys.dp_sa_leak(stat), slo, shi):
            st.warning(f"Privacy leak: {md(message)}", icon="⚠️")
        try:
            if xcol is not None and xcol == ycol:
                raise RiskcoreError(
                    "Pick two different columns: the slope of a column on itself is 1."
                )
            sa = cached.dp_sample_aggregate(
                ctx.key, data, ycol, xcol, stat, kb, (float(slo), float(shi)), epsilon, person
            )
        except (RiskcoreError, ValueError) as exc:
            st.error(md(exc))
        else:
            st.plotly_chart(charts.blocks_chart(sa, unit), key=keys.DP_SA_CHART)
            st.markdown(md(sample_aggregate_reading(sa, unit)))
            if sa.unit.is_person:  # blocks of people: no bound on rows needed
                st.caption(md(release_unit_reading(sa.unit)))
            if st.button("Release this estimate through OpenDP", key=keys.DP_SA_RELEASE):
                try:
                    sa_rel = release_sample_aggregate(sa, ledger=budget.handle())
                    st.success(
                        md(sample_aggregate_release_reading(stat, sa_rel.value, sa_rel.epsilon))
                    )
                except RiskcoreError as exc:
                    st.error(md(exc))
