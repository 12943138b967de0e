"""Attacks page: linkage, differencing, homogeneity and two-release attacks."""

from __future__ import annotations

import streamlit as st

from riskcore.attacks import people_count, simulate_noisy_difference, unique_target
from riskcore.errors import RiskcoreError
from riskcore.io import load_table
from riskcore.report import figures as charts
from riskcore.report.readings import (
    attacks_intro,
    attribute_table,
    curve_reading,
    differencing_reading,
    estimate_reading,
    exposed_table,
    homogeneity_reading,
    linkage_reading,
    needs_qis_reading,
    noise_curve,
    noise_reading,
    numeric_columns,
    people_note,
    queries_list,
    recovered_metric,
    simulated_note,
    targets_label,
    two_release_table,
)
from ui.core import cached, keys
from ui.core.context import context, end_page, require_table, run_gate
from ui.core.safe import md
from ui.core.tables import fitted

st.title("Attacks")
st.write(md(attacks_intro()))
ROW_NUMBER = "(row number in this table)"
ctx = require_table(context())
data = ctx.table.data
qis = ctx.roles.quasi_identifiers
try:
    person = ctx.roles.person  # the column linking a person's rows: every attack counts people
except RiskcoreError as exc:
    st.error(md(exc))
    end_page()
released = tuple(c for c in data.columns if c not in ctx.roles.identifiers and c != person)
sensitive = ctx.roles.sensitive
recorded = data if ctx.recorded is None else ctx.recorded.data
people = people_count(recorded, person)  # the simulated targets: the people as recorded
if person is not None:
    st.caption(md(people_note(person, people_count(ctx.encoded, person), len(data))))

tab_link, tab_diff, tab_homo, tab_two = st.tabs(
    ["Linkage", "Differencing", "Homogeneity", "Two releases"]
)

# ------------------------------------------------------------------ linkage


with tab_link:
    if not qis:
        st.info(md(needs_qis_reading("linkage")))
    else:
        st.write(
            "The attacker holds a second table with names and some quasi-identifiers (a voter "
            "roll) and joins it to the release on the columns both share. Values are matched "
            "after trimming and case-folding, with ZIP leading zeros restored and dates parsed."
        )
        source = st.radio(
            "Attacker's auxiliary data",
            ["Simulated from this table", "Upload a file"],
            horizontal=True,
            key=keys.LINK_SOURCE,
        )
        p = st.slider("Confidence for attribute disclosure (p)", 0.5, 1.0, 0.9, 0.05)
        result = None
        try:
            if source == "Simulated from this table":
                st.caption(md(simulated_note(generalized=ctx.generalized)))
                known = st.multiselect(  # a row of its own: every chip shows
                    "Columns the attacker knows",
                    list(released),
                    default=list(qis),
                    key=keys.LINK_KNOWN,
                )
                c2, c5 = st.columns(2)
                n_targets = c2.number_input(
                    "Targets (people in the attacker's table)",
                    1,
                    people,
                    people,
                    help="A random sample of the table; default everyone.",
                )
                seed = c5.number_input("Random seed", 0, 10**6, 0)
                c3, c4 = st.columns(2)
                err = c3.slider("Share of known values that are wrong", 0.0, 0.5, 0.0, 0.01)
                miss = c4.slider("Share of known values unknown", 0.0, 0.5, 0.0, 0.01)
                numeric = numeric_columns(data, known)
                tol_col = st.selectbox("Numeric tolerance on", ["(none)", *numeric])
                tol = (
                    st.number_input("tolerance (+/-)", 0.0, value=1.0)
                    if tol_col != "(none)"
                    else 0.0
                )
                settings = (
                    ctx.key,
                    tuple(known),
                    int(n_targets),
                    float(err),
                    float(miss),
                    int(seed),
                    sensitive,
                    float(p),
                    ((tol_col, float(tol)),) if tol_col != "(none)" else (),
                    person,
                )
                if not known:
                    st.info("Choose at least one column the attacker knows.")
                elif run_gate(len(data), settings, "Run the attack", keys.LINK_RUN):
                    result = cached.linkage_simulated(
                        ctx.key, data, released, *settings[1:-1], (), ctx.as_recorded, person
                    )
            else:
                up = st.file_uploader(
                    "Auxiliary table (CSV, TSV, Parquet or .xlsx)",
                    type=["csv", "tsv", "txt", "parquet", "xlsx"],
                    key=keys.AUX_UPLOAD,
                )
                if up is not None:
                    aux = load_table(up.getvalue(), name=up.name).data
                    aux_cols = ["(not known)", *map(str, aux.columns)]
                    lower = {str(c).casefold(): str(c) for c in aux.columns}
                    st.write("Map the auxiliary columns onto the released quasi-identifiers:")
                    mapping = []
                    cols = st.columns(min(len(qis), 4))
                    for i, q in enumerate(qis):
                        guess = lower.get(q.casefold(), "(not known)")
                        pick = cols[i % len(cols)].selectbox(
                            md(q), aux_cols, index=aux_cols.index(guess), key=keys.aux_map(q)
                        )
                        if pick != "(not known)":
                            mapping.append((pick, q))
                    g1, g2 = st.columns(2)
                    truth_aux = g1.selectbox("Ground truth: id in the auxiliary table", aux_cols)
                    truth_rel = g2.selectbox(
                        "... matches this column of the table",
                        ["(none)", ROW_NUMBER, *map(str, data.columns)],
                        help="Row number: the auxiliary column holds the row number of each "
                        "person in this table (the first row is 1), for an attacker's table "
                        "drawn from the data.",
                    )
                    truth = (
                        (truth_aux, None if truth_rel == ROW_NUMBER else truth_rel)
                        if truth_aux != "(not known)" and truth_rel != "(none)"
                        else None
                    )
                    if not mapping:
                        st.info("Map at least one column.")
                    elif run_gate(
                        len(data),
                        (ctx.key, up.file_id, tuple(mapping), truth, float(p), person),
                        "Run the attack",
                        keys.LINK_RUN,
                    ):
                        result = cached.linkage_uploaded(
                            ctx.key,
                            up.file_id,
                            data,
                            aux,
                            released,
                            tuple(mapping),
                            truth,
                            sensitive,
                            float(p),
                            (),
                            (),
                            person,
                        )
        except RiskcoreError as exc:
            st.error("The attack could not run: " + md(exc))

        if result is not None:
            # two rows of two: at 1024 px four in a row cut their labels
            (m1, m2), (m3, m4) = st.columns(2), st.columns(2)
            m1.metric(md(targets_label(result)), f"{result.n_targets:,}")
            m2.metric("Re-identified uniquely", f"{result.unique.rate:.1%}")  # one match
            if result.correct is not None:
                m3.metric("Re-identified correctly", f"{result.correct.rate:.1%}")
                m4.metric(
                    "Expected correct, random pick",
                    f"{result.expected_correct:.1%}",
                    help="Picking one of each target's matching records at random",
                )
            st.plotly_chart(
                charts.candidates_bars(
                    result.candidate_histogram(), "Possible identities per target"
                ),
                key=keys.LINK_HIST,
            )
            st.caption(md(linkage_reading(result)))
            if result.attributes:
                st.markdown(f"**Attribute disclosure (confidence >= {p:.0%})**")
                attrs = attribute_table(result)
                st.dataframe(
                    attrs,
                    hide_index=True,
                    column_config=fitted(
                        attrs,
                        {  # short headers, the full ones in the tooltip (1024 px)
                            k: st.column_config.NumberColumn(
                                md(label), help=md(k), format="percent"
                            )
                            for k, label in (
                                ("learned with confidence >= p", "learned"),
                                ("learned and correct", "correct"),
                                ("base rate (always guess the commonest)", "base rate"),
                            )
                        }
                        | {"commonest value": st.column_config.TextColumn("commonest")},
                    ),
                )
            with st.expander("How each column was matched"):
                for note in result.notes:
                    st.caption(md(note))
            st.subheader("The more the attacker knows")
            contrib = cached.uniqueness(ctx.key, ctx.encoded, qis)
            order = tuple(c.column for c in contrib.contributions)
            curve = cached.linkage_curve_simulated(
                ctx.key, data, order, people, 0, ctx.as_recorded, person
            )
            st.plotly_chart(charts.linkage_curve_chart(curve.to_frame()), key=keys.LINK_CURVE)
            st.caption(
                md(
                    curve_reading(curve)
                    + " "
                    + simulated_note(generalized=ctx.generalized, curve=True)
                )
            )

# ------------------------------------------------------------------ differencing
with tab_diff:
    st.write(
        "Two innocent-looking aggregate queries: one over everyone, one over everyone except "
        "the people who share the target's known attributes. Their difference is the target."
    )
    d1, d2 = st.columns(2)
    known_d = d2.multiselect(
        "What the attacker knows about the target", list(released), default=list(qis)
    )
    first_unique = unique_target(ctx.encoded, tuple(known_d), person=person)
    target = d1.number_input(
        "Target row (position, from 0)",
        0,
        len(data) - 1,
        first_unique or 0,
        help="starts at the first person unique on the known columns",
    )
    st.dataframe(data.iloc[[int(target)]][list(released)], hide_index=True)  # no identifiers
    a1, a2, a3 = st.columns(3)
    aggregate = a1.selectbox("Aggregate", ["count", "sum", "mean"])
    numeric_cols = numeric_columns(data, released)
    condition: tuple = ()
    column = None
    if aggregate == "count":
        cond_col = a2.selectbox(
            "Count people whose ...",
            list(released),
            index=list(released).index(sensitive[0]) if sensitive else 0,
        )
        condition = ((cond_col, data[cond_col].iloc[int(target)]),)
        a3.write(f"= {md(condition[0][1])} (the target's value)")
    elif numeric_cols:
        column = a2.selectbox("Column", numeric_cols)
    else:
        st.info("The table has no numeric column to sum.")
    diff = None
    if known_d and (aggregate == "count" or column):
        try:
            diff = cached.differencing(
                ctx.key, data, int(target), tuple(known_d), aggregate, column, condition, person
            )
        except RiskcoreError as exc:
            st.error("The attack could not run: " + md(exc))
    if diff is not None:
        st.markdown(queries_list(diff, escape=md))
        st.plotly_chart(
            charts.two_queries(
                ["everyone", "everyone but the target's group", "difference"],
                [diff.q_all, diff.q_rest, diff.recovered],
                "Two published answers and what their difference reveals",
                f"answer ({column} units)" if aggregate != "count" else "answer (people)",
            ),
            key=keys.DIFF_BARS,
        )
        st.caption(md(differencing_reading(diff)))
        st.subheader("With Laplace noise")
        n1, n2, n3 = st.columns(3)
        eps = n1.select_slider(
            "epsilon per query",
            options=[0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0],
            value=0.5,
            key=keys.DIFF_EPS,
        )
        if aggregate == "count":
            sens = 1.0
            within = 0.5
            n2.metric("sensitivity", "1")
        else:
            default = float(max(abs(data[column].min()), abs(data[column].max())))
            sens = n2.number_input(
                "sensitivity (clipping bound)",
                min_value=1e-9,
                value=default or 1.0,
                help="Taken from the data by default; a real release must set it from domain "
                "knowledge, since a bound read from the data leaks it.",
            )
            within = n3.number_input("attacker succeeds within +/-", 0.0, value=1.0)
        draws = simulate_noisy_difference(diff.recovered, eps, sensitivity=sens, seed=0)
        st.plotly_chart(
            charts.estimate_histogram(
                draws,
                diff.recovered,
                f"Attacker's estimate at epsilon = {eps:g} (simulation, 10,000 draws)",
                unit="people" if aggregate == "count" else f"{column} units",
            ),
            key=keys.DIFF_HIST,
        )
        st.caption(md(estimate_reading(draws, diff.recovered, within)))
        curve_df = noise_curve(within, sens)
        st.plotly_chart(
            charts.noise_success(
                curve_df["epsilon"],
                curve_df["p within"],
                curve_df["error95"],
                within,
                epsilon=eps,
                sensitivity=sens,
            ),
            key=keys.DIFF_CURVE,
        )
        st.caption(md(noise_reading(eps, sens, within)))

# ------------------------------------------------------------------ homogeneity
with tab_homo:
    if not qis:
        st.info(md(needs_qis_reading("homogeneity")))
    else:
        if not sensitive:
            st.info("Tag a sensitive attribute on the Data page to run the homogeneity attack.")
        else:
            h1, h2 = st.columns(2)
            attr = h1.selectbox("Sensitive attribute", list(sensitive))
            hp = h2.slider("Attacker's confidence (p)", 0.5, 1.0, 1.0, 0.05, key=keys.HOMO_P)
            h = cached.homogeneity(ctx.key, ctx.encoded, qis, attr, float(hp), 2.0, person)
            e1, e2 = st.columns(2)
            e1.metric("Classes exposed", f"{len(h.exposed):,} of {h.n_classes:,}")
            e2.metric("People exposed", f"{h.exposed_people:,}")
            st.caption(md(homogeneity_reading(h, qis)))
            st.plotly_chart(charts.criterion_lines(h.by_criterion), key=keys.HOMO_LINES)
            st.caption(
                "Each line counts the exposed people who would remain if only classes meeting the "
                "requirement were released: distinct 2-diversity removes fully homogeneous "
                "classes, but not classes where one value dominates."
            )
            if len(h.exposed):
                st.markdown("**Exposed classes (largest first)**")
                st.dataframe(
                    exposed_table(data, ctx.encoded, qis, h),
                    hide_index=True,
                    column_config={"confidence": st.column_config.NumberColumn(format="percent")},
                )

# ------------------------------------------------------------------ two releases
with tab_two:
    st.write(
        "The same numeric column published twice under two groupings (group means, or bands). "
        "Each release is safe alone; together they can pin down individual values."
    )
    picks = st.multiselect(
        f"Columns of {md(ctx.table.name)} holding the releases (two or more)",
        [str(c) for c in data.columns if c != person],
        key=keys.TWO_COLS,
    )
    if len(picks) >= 2:
        try:
            two, two_table = two_release_table(data, picks, person=person)
        except RiskcoreError as exc:
            st.error("Cannot combine these columns: " + md(exc))
        else:
            label, recovered = recovered_metric(two)
            st.metric(md(label), md(recovered))
            st.dataframe(two_table, hide_index=False)
    else:
        st.caption(
            "Upload a table holding two published versions of one column (for example each "
            "person's BMI released once as the mean of their age group and once as a band) "
            "and pick both columns here."
        )
