"""Records page: special uniques (SUDA), per-record risk, one record explained, and the
release against a population table (k-map, delta-presence)."""

from __future__ import annotations

import dataclasses

import streamlit as st

from riskcore.criteria.population import judge_population
from riskcore.errors import RiskcoreError
from riskcore.io.export import to_csv_bytes
from riskcore.metrics.special_uniques import check_suda_bounds, largest_msu_size
from riskcore.report import figures as charts
from riskcore.report.readings import (
    delta_reading,
    delta_table,
    dis_text,
    individual_risk_reading,
    missing_reading,
    population_failing_caption,
    population_intro,
    population_match_reading,
    record_kmap_table,
    record_reading,
    records_intro,
    records_shown_caption,
    suda_contribution_reading,
    suda_contribution_table,
    suda_gap_reading,
    suda_reading,
    suppressed_row_reading,
)
from ui.core import cached, keys, people
from ui.core import profile as session_profile
from ui.core.context import context, end_page, require_qis, run_gate
from ui.core.downloads import Download, download_buttons
from ui.core.safe import md
from ui.core.tables import fitted

SHOWN = 200  # rows of the per-record table on screen; the download has every record
CLASSES_SHOWN = 500  # failing population classes on screen
NOT_MAPPED = "(not in the table)"

st.title("Records: special uniques and per-record risk")
ctx = require_qis(context())
qis = ctx.roles.quasi_identifiers
person = people.person(ctx)  # with one, every row carries its person's class and risk
weights = ctx.roles.weights[0] if len(ctx.roles.weights) == 1 else None
prof = session_profile.current(ctx, with_recipe=False)
k = int(getattr(prof.targets.find("k-anonymity"), "k", 11))
if person is not None:  # the people and rows (the Uniqueness page's assessment, which also
    try:  # refuses what no figure here can be computed under: "matches any value" with people
        a = cached.assessment(ctx.key, ctx.encoded, qis, (), 2.0, session_profile.threshold(),
                              0.0, (), (), missing=prof.missing, person=person)  # fmt: skip
    except RiskcoreError as exc:  # whose QIs change between their rows
        st.error(md(exc))
        end_page()
    people.unit_line(a.n_people, a.n_records, person)
tab_rec, tab_pop = st.tabs(["Special uniques and per-record risk", "Against a population table"])

with tab_rec:
    st.write(md(records_intro()))
    varying = sum(ctx.encoded.column(q).n_values > 1 for q in qis)  # SUDA prunes the constant
    max_size = (
        st.slider(
            "Largest combination searched",
            1,
            len(qis),
            max(1, min(len(qis), largest_msu_size(varying))),  # within SUDA's limit
            key=keys.REC_MAX_SIZE,
            help="Minimal sample uniques of more values than this are not searched (sdcMicro's "
            "missing-value rule: a missing value is never part of one).",
        )
        if len(qis) > 1
        else 1  # one quasi-identifier: a combination is that one value
    )
    try:  # SUDA's stated limits, checked before the cached search runs
        check_suda_bounds(len(qis), max_size, varying=varying)
        within = True
    except RiskcoreError as exc:
        st.error(md(exc))
        within = False
    if within and run_gate(ctx.table.n_rows, (ctx.key, qis, max_size),
                           "Find the special uniques", keys.REC_RUN):  # fmt: skip
        # DIS-SUDA at the profile's n/N when set (the report's rule), else sdcMicro's 0.01
        fraction = session_profile.settings().sampling_fraction
        try:  # in people: refused when people's QIs change between their rows
            s = cached.suda(ctx.key, ctx.encoded, qis, max_size, fraction or 0.01, person)
        except RiskcoreError as exc:  # said, and the records table goes without SUDA
            st.info(md(f"Special uniques (SUDA) not searched: {exc}."))
            s = cached.suda_skipped(ctx.key, ctx.encoded, qis, person)
        if s.searched:
            c1, c2, c3 = st.columns([1, 1.2, 1.6])  # the longer labels get more width (1024 px)
            n_units = s.n_records if s.n_people is None else s.n_people  # people, with a person
            c1.metric("Special uniques", f"{s.special_uniques:,}",
                      f"{s.special_uniques / n_units:.1%}", delta_color="off",
                      delta_arrow="off")  # fmt: skip
            c2.metric("Minimal sample uniques", f"{s.n_msus:,}")
            c3.metric(
                "DIS match probability",
                md(dis_text(s.dis)),
                help="The DIS probability that a unique match in the released table is right "
                "(Skinner and Elliot 2002).",
            )
            st.markdown(md(suda_reading(s)))
            if gap := suda_gap_reading(s):  # the Uniqueness page's unique people are more
                st.caption(md(gap))
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
                key=keys.REC_CONTRIB,
            )
            st.caption(md(suda_contribution_reading(contrib)))

        policy = prof.missing  # the session's profile (set on the Anonymity page)
        table = cached.records(ctx.key, ctx.encoded, prof.cache_key, prof, s, max_size)
        if ctx.generalized:  # the file's row numbers, not the generalized table's
            table = table.assign(row=ctx.file_row_numbers(table["row"]))
        st.subheader("Every record's risk")
        if weights is not None:
            st.caption(md(f"Individual risk from the sampling weights in {weights}."))
        riskiest = table.sort_values(
            ["prosecutor_risk", "dis_suda", "row"], ascending=[False, False, True], kind="stable"
        )
        st.caption(md(records_shown_caption(min(SHOWN, len(table)), len(table),
                                            n_people=s.n_people, person=person)))  # fmt: skip
        # on screen the columns a reader sorts by (the download has all): nine did not fit
        # at 1024 px; individual risk only when sampling weights make it differ
        shown = riskiest.head(SHOWN)[
            ["row", "class_size", "prosecutor_risk"]
            + (["individual_risk"] if weights is not None else [])
            + (["dis_suda"] if s.searched else [])  # not searched: no column of blanks
            + ["failing_targets"]
        ]
        labels = {
            "class_size": "class size" if person is None else "class size (people)",
            "prosecutor_risk": "prosecutor risk",
            "individual_risk": "individual risk",
            "dis_suda": "DIS-SUDA",
            "failing_targets": "targets failed",
        }
        st.dataframe(shown, hide_index=True, column_config=fitted(shown, labels))
        st.caption(md(missing_reading(policy, cached.missing_records(ctx.key, ctx.encoded, qis,
                                                                     person),
                                      people=person is not None)))  # fmt: skip
        st.download_button(
            "Download every record's risk (CSV)",
            lambda: to_csv_bytes(table),
            file_name="record_risk.csv",
            mime="text/csv",
            on_click="ignore",
            key=keys.REC_CSV,
        )
        if weights is not None:
            ir = cached.individual_risk(ctx.key, ctx.encoded, qis, weights, policy, person)
            st.markdown(md(individual_risk_reading(ir)))

        st.subheader("Why is this record risky?")
        covering = ", and the generalization covering it" if person is None else ""  # rows only
        st.caption(md("The Uniqueness page explores any record further: who shares each "
                      f"combination of its values{covering}."))  # fmt: skip
        row = st.number_input(
            "Row number (the first data row is 1)",
            1,
            ctx.file_n_rows,
            int(riskiest["row"].iloc[0]),
            key=keys.REC_ROW,
        )
        at = ctx.table_row(int(row))  # None: suppressed by the remediation in use
        if at is None:
            st.info(md(suppressed_row_reading(int(row))))
        else:
            expl, _ = cached.explained(ctx.key, ctx.encoded, qis, at, s, policy, person)
            st.markdown(record_reading(dataclasses.replace(expl, row=int(row)), escape=md))

with tab_pop:
    st.write(md(population_intro()))
    up = st.file_uploader(
        "Population or public table (CSV, TSV, Parquet or .xlsx)",
        type=["csv", "tsv", "txt", "parquet", "xlsx"],
        key=keys.POP_UPLOAD,
    )
    pop = None
    if up is not None:
        try:
            pop = cached.uploaded_table(up.file_id, up.getvalue(), up.name)
        except RiskcoreError as exc:
            st.error("The population table could not be read: " + md(exc))
    if pop is not None and up is not None:
        options = [NOT_MAPPED, *map(str, pop.columns)]
        lower = {str(c).casefold(): str(c) for c in pop.columns}
        st.write("Its column holding each quasi-identifier:")
        cols = st.columns(min(len(qis), 4))
        mapping = {}
        for i, q in enumerate(qis):
            guess = lower.get(q.casefold(), NOT_MAPPED)
            pick = cols[i % len(cols)].selectbox(
                md(q), options, index=options.index(guess), key=keys.pop_map(q)
            )
            if pick != NOT_MAPPED:
                mapping[q] = pick
        g1, g2, g3 = st.columns(3)
        k_map_target = int(g1.number_input("k-map target", 1, 1_000_000, k, key=keys.POP_K))
        d_min = float(g2.number_input("Lowest delta allowed", 0.0, 1.0, 0.0, 0.05,
                                      key=keys.POP_DMIN))  # fmt: skip
        d_max = float(g3.number_input("Highest delta allowed", 0.0, 1.0, 0.5, 0.05,
                                      key=keys.POP_DMAX))  # fmt: skip
        missing = [q for q in qis if q not in mapping]
        if missing:
            st.info("Choose the population table's column for every quasi-identifier: "
                    + md(", ".join(missing)) + ".")  # fmt: skip
        elif run_gate(
            ctx.table.n_rows + len(pop),
            (ctx.key, up.file_id, tuple(mapping.items()), person),
            "Match the population",
            keys.POP_RUN,
        ):
            population = pop[[mapping[q] for q in qis]].set_axis(list(qis), axis=1)
            try:
                m = cached.population(
                    ctx.key,
                    f"{up.file_id}|{sorted(mapping.items())}",
                    ctx.table.data[[*qis, *([] if person is None else [person])]],
                    population,
                    qis,
                    person,  # the table matched as its people (one row per person there)
                )
            except RiskcoreError as exc:
                st.error("The tables could not be matched: " + md(exc))
            else:
                st.session_state[keys.POP_MATCHED] = {  # for the Remediate page's search
                    "for": ctx.dataset_key,
                    "key": f"{up.file_id}|{sorted(mapping.items())}",
                    "table": population,
                }
                # judged by the criteria (KMap, DeltaPresence), as every target is
                judged = judge_population(m, k=k_map_target, delta_min=d_min, delta_max=d_max)
                failing = m.classes[judged.failing].reset_index(drop=True)
                p1, p2, p3, p4 = st.columns(4)
                p1.metric("k-map", f"{m.k_map:,}")
                p2.metric("delta min", f"{m.delta_min:.3f}")
                p3.metric("delta max", f"{m.delta_max:.3f}")
                p4.metric("Failing classes", f"{len(failing):,}", f"of {m.n_population_classes:,}",
                          delta_color="off", delta_arrow="off")  # fmt: skip
                st.markdown(md(population_match_reading(m)))
                st.plotly_chart(charts.delta_bars(delta_table(m, judged.delta_failing)),
                                key=keys.POP_DELTA)  # fmt: skip
                st.caption(md(delta_reading(m, judged, k=k_map_target, delta_min=d_min,
                                            delta_max=d_max)))  # fmt: skip
                st.subheader("Failing classes")
                st.caption(md(population_failing_caption(
                    m, k=k_map_target, delta_min=d_min, delta_max=d_max,
                    shown=CLASSES_SHOWN, failing=len(failing))))  # fmt: skip
                st.dataframe(failing.head(CLASSES_SHOWN), hide_index=True)
                download_buttons(
                    [
                        Download("Download the failing classes (CSV)",
                                 lambda: to_csv_bytes(failing),
                                 "failing_population_classes.csv", keys.POP_FAILING_CSV),
                        Download("Download every record's k-map (CSV)",
                                 lambda: to_csv_bytes(record_kmap_table(m)),
                                 "record_k_map.csv", keys.POP_KMAP_CSV),
                    ]
                )  # fmt: skip
