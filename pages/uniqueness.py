"""Uniqueness page: class sizes, candidates per record, which QI drives the risk, one record."""

from __future__ import annotations

import dataclasses

import streamlit as st

from riskcore.criteria import Targets
from riskcore.errors import RiskcoreError
from riskcore.profile import Profile
from riskcore.report import figures as charts
from riskcore.report.readings import (
    anyone_unique,
    candidate_table,
    candidates_reading,
    classes_intro,
    contribution_matters,
    contribution_reading,
    contribution_table,
    cover_caption,
    cover_reading,
    cover_table,
    explorer_intro,
    histogram_reading,
    join_names,
    missing_reading,
    msu_list,
    record_reading,
    record_subset_table,
    record_subsets_caption,
    record_values_table,
    size_histogram,
    subset_reading,
    subset_table,
    suppressed_row_reading,
    unique_missing_reading,
)
from riskcore.roles import ColumnRoles
from ui.core import cached, keys, people
from ui.core import profile as session_profile
from ui.core.context import context, end_page, require_qis, run_gate
from ui.core.safe import md
from ui.core.state import AUTO_RUN_ROWS
from ui.core.tables import escaped, fitted

st.title("Uniqueness")
ctx = require_qis(context())
qis = ctx.roles.quasi_identifiers
person = people.person(ctx)  # with one, every figure counts people
policy = session_profile.missing()  # the session's profile (set on the Anonymity page)
try:
    a = cached.assessment(
        ctx.key, ctx.encoded, qis, (), 2.0, session_profile.threshold(), 0.0, (), (),
        missing=policy, person=person,
    )  # fmt: skip
except RiskcoreError as exc:  # e.g. "matches any value" with people whose QIs change
    st.error(md(exc))
    end_page()
people.unit_line(a.n_people, a.n_records, person)

st.write(classes_intro(qis, escape=md, person=person))
c1, c2, c3, c4 = st.columns(4)
if person is None:
    c1.metric("Records", f"{a.n_records:,}")
else:  # "2,500 people in 8,177 rows"
    c1.metric("People", f"{a.n_people:,}", f"in {a.n_records:,} rows", delta_color="off",
              delta_arrow="off")  # fmt: skip
c2.metric("Equivalence classes", f"{a.n_classes:,}")
c3.metric(
    "Unique people",
    f"{a.unique_records:,}",
    f"{a.anonymity.unique_share:.1%} of " + ("records" if person is None else "people"),
    delta_color="off",  # a share, not a change: no arrow, no colour
    delta_arrow="off",
)
c4.metric("k (smallest class)" if person is None else "k (people)", f"{a.k:,}")
if policy == "own":  # the Records page's special uniques (SUDA) never use a missing value
    skipped = None  # counted by SUDA itself on a table small enough to search at once
    if a.n_records <= AUTO_RUN_ROWS:
        try:
            skipped = cached.suda(ctx.key, ctx.encoded, qis, len(qis), person=person).unique_missing
        except RiskcoreError:  # not searched (people whose QIs change): the bound is said
            skipped = None
    gap = unique_missing_reading(
        a.unique_records, cached.unique_missing(ctx.key, ctx.encoded, qis, person), skipped
    )
    if gap:
        st.caption(md(gap))

st.plotly_chart(
    charts.class_size_histogram(
        size_histogram(a.anonymity.distribution, people=person is not None),
        join_names(qis),
        k=session_profile.targets().k_required,  # the bins below it in the accent colour
    )
)
st.caption(md(histogram_reading(a)))
st.caption(md(missing_reading(a.missing, a.missing_records, people=person is not None)))

st.plotly_chart(
    charts.candidates_curve(candidate_table(a.anonymity.distribution, people=person is not None))
)
st.caption(md(candidates_reading(a)))

st.subheader("Which quasi-identifier drives the risk")
if run_gate(a.n_records, (ctx.key, qis, person), "Count uniques per combination",
            keys.SUBSETS_RUN):  # fmt: skip
    try:
        u = cached.uniqueness(ctx.key, ctx.encoded, qis, policy, person)
    except RiskcoreError as exc:
        st.error(md(exc))
        end_page()
    if len(qis) > 1 and contribution_matters(u):
        st.plotly_chart(charts.contribution_bars(contribution_table(u)))
        st.caption(md(contribution_reading(u)))
    elif len(qis) > 1:
        st.info(md(contribution_reading(u)))  # every bar would be 0: say it in words
    subsets = subset_table(u)
    if anyone_unique(subsets):
        st.plotly_chart(charts.subset_bars(subsets))
        st.caption(md(subset_reading(subsets, complete=u.complete)))
    else:  # every bar would be 0: say it in words
        st.info(md(subset_reading(subsets, complete=u.complete)))
    with st.expander("All tested combinations"):
        st.dataframe(
            subsets,
            hide_index=True,
            column_config={"unique %": st.column_config.NumberColumn(format="%.2f%%")},
        )

st.subheader("Why is this record risky?")
st.write(md(explorer_intro()))
n = ctx.table.n_rows
if run_gate(n, (ctx.key, qis, person), "Explain the records", keys.EXPLORE_RUN):
    try:
        s = cached.suda(ctx.key, ctx.encoded, qis, len(qis), person=person)
    except RiskcoreError:  # people whose QIs change: explained without special uniques
        s = cached.suda_skipped(ctx.key, ctx.encoded, qis, person)
    how = st.radio(
        "Pick a record", ["Riskiest first", "By row number"], horizontal=True, key=keys.EXPLORE_HOW
    )
    order = cached.riskiest(ctx.key, ctx.encoded, qis, s, person)
    if how == "Riskiest first":
        rank = st.number_input(
            "Rank (1 = the riskiest: smallest class, then highest DIS-SUDA score)",
            1,
            n,
            1,
            key=keys.EXPLORE_RANK,
        )
        row: int | None = int(order[int(rank) - 1])
        file_row = int(ctx.file_row_numbers([row])[0])  # the file's, on a generalized view
    else:
        file_row = int(st.number_input("Row number (the first data row is 1)", 1,
                                       ctx.file_n_rows, int(ctx.file_row_numbers(order[:1])[0]),
                                       key=keys.EXPLORE_ROW))  # fmt: skip
        row = ctx.table_row(file_row)  # None: suppressed by the remediation in use
    if row is None:
        st.info(md(suppressed_row_reading(file_row)))
        end_page()
    expl, subsets = cached.explained(ctx.key, ctx.encoded, qis, row, s, policy, person)
    expl = dataclasses.replace(expl, row=file_row)  # the readings name the file's row
    e1, e2, e3, e4 = st.columns([0.8, 0.8, 1.4, 1])  # room for the long label at 1024 px
    e1.metric("Row", f"{file_row:,}")
    e2.metric("Class size" if person is None else "Class (people)", f"{expl.class_size:,}")
    searched = expl.searched  # special uniques not searched: no count, no score
    e3.metric("Minimal sample uniques", f"{len(expl.msus):,}" if searched else "not searched")
    e4.metric("DIS-SUDA score", f"{expl.dis_suda:.3f}" if searched else "n/a")
    st.markdown(record_reading(expl, escape=md))
    if expl.msus:
        st.markdown(msu_list(expl, escape=md))
    st.dataframe(record_values_table(expl), hide_index=True, key=keys.EXPLORE_VALUES)
    st.caption(md(record_subsets_caption(person, searched=searched)))
    sub = record_subset_table(subsets, expl)
    msu = {
        "minimal sample unique": st.column_config.CheckboxColumn(  # cut at 1400 px
            "MSU",
            help="A minimal sample unique: unique in the table, and no smaller part of it is.",
        )
    }
    st.dataframe(
        sub,
        hide_index=True,
        key=keys.EXPLORE_SUBSETS,
        column_config=fitted(sub, {c: v for c, v in msu.items() if c in sub.columns}),
    )
    # the class size the session's targets need by size alone (k, and 1/threshold)
    k = session_profile.targets().k_required
    try:

        def k_only() -> Profile:
            roles = ColumnRoles(quasi_identifiers=qis, persons=() if person is None else (person,))
            return Profile(roles=roles, targets=Targets.of(k=k), missing=policy)

        # made once while the QIs, the person, k and the policy stay (none made on a rerun)
        pj = session_profile.derived("uniqueness-cover", (qis, person, k, policy), k_only)
        lattice = cached.lattice(
            ctx.key, ctx.encoded, cached.hierarchies(ctx.key, ctx.table, qis), qis,
            pj.cache_key, pj,
        )  # fmt: skip
        c = cached.cover(f"{ctx.key}|{qis}|{pj.cache_key}", lattice, row)
    except RiskcoreError as exc:
        st.warning("No generalization could be computed: " + md(exc))
    else:
        c = dataclasses.replace(c, row=file_row)  # the readings name the file's row
        st.markdown(cover_reading(c, escape=md))
        if c.levels is not None and any(c.levels):
            # a static table, its cells wrap: one column per QI generalized was still cut at
            # both widths on the demo ("Some college or more", 143 of 76 px at 1024); each
            # QI's recorded value is in the table of the record's values above
            cover = cover_table(c)
            loss = cover["information loss (%)"].map("{:.1f}".format)
            st.table(escaped(cover.assign(**{"information loss (%)": loss})), hide_index=True)
            st.caption(cover_caption(c, escape=md))
