"""Anonymity page: k, l-diversity, t-closeness and re-identification risk against targets."""

from __future__ import annotations

import numpy as np
import streamlit as st

from riskcore.criteria import class_failures, evaluate, with_suppressed
from riskcore.errors import RiskcoreError
from riskcore.io.export import to_csv_bytes
from riskcore.metrics import class_table, order_choices
from riskcore.report import figures as charts
from riskcore.report.readings import (
    DISTANCE_LABELS,
    MISSING_LABELS,
    ORDER_HELP,
    diversity_distribution,
    diversity_reading,
    failing_reading,
    hierarchy_prompt,
    hierarchy_refusal,
    missing_reading,
    order_pending,
    order_prompt,
    order_refusal,
    population_reading,
    risk_reading,
    risk_table,
)
from riskcore.report.readings.criteria import check_table, target_label, verdict_reading
from ui.core import cached, formats, keys, people
from ui.core import profile as session_profile
from ui.core.context import context, end_page, person_caution, require_qis
from ui.core.safe import file_part, md
from ui.core.tables import drop_empty, escaped, fitted
from ui.widgets.anonymity.release_context import context_step, context_summary
from ui.widgets.remediate.perturb import in_use_verdict
from ui.widgets.targets import targets_editor

FAILING_SHOWN = 500  # rows of the failing-class table on screen; the download has all

st.title("Anonymity: k / l / t and re-identification risk")
ctx = require_qis(context())
qis, sens = ctx.roles.quasi_identifiers, ctx.roles.sensitive
person = people.person(ctx)  # with one, every class, k and risk counts people
if person is not None:
    people.unit_line(cached.people_count(ctx.key, ctx.encoded, person), ctx.table.n_rows, person)
weights = ctx.roles.weights[0] if len(ctx.roles.weights) == 1 else None


def seeded(key: str, value: object) -> str:
    """Return the key of a widget of the session's settings, seeded from them
    (:func:`ui.core.profile.seed`): new settings (a reset) start it again."""
    return session_profile.seed(f"{key}:{session_profile.settings().widget_token}", value)


context_place = context_step()  # the threshold from the release context sets the targets
with st.expander("Targets (the same on every page)", expanded=True):
    targets_editor(page="anonymity", sensitive=sens, suppression=False, person=person)
context_summary(context_place)  # its answers and why, against the targets as they now are
with st.expander("Population and missing values", expanded=True):
    fraction = st.number_input(
        "sampling fraction n/N of a sample (0 when the table is the whole population)",
        min_value=0.0,
        max_value=1.0,
        step=0.01,
        format="%.3f",
        help="adds journalist and marketer risk and population-uniqueness estimates"
        if weights is None
        else md(f"not used: the sampling weights in {weights} give the population class sizes"),
        key=seeded(keys.TARGET_SAMPLING_FRACTION, session_profile.settings().sampling_fraction),
        disabled=weights is not None,
    )
    policy = st.radio(
        "a missing quasi-identifier value is",
        list(MISSING_LABELS),
        format_func=formats.missing_policy,
        horizontal=True,
        help="a value of its own, or any value (sdcMicro's convention: each record then counts "
        "every record it agrees with wherever both are known); used on every page",
        key=seeded(keys.TARGET_MISSING, session_profile.missing()),
    )
    session_profile.update(sampling_fraction=float(fraction), missing=str(policy))

# kept across pages, like the targets: {dataset key + column: distance / order}
refused: dict[str, str] = {}  # attribute -> why its t cannot be computed yet
if sens:
    with st.expander("t-closeness: distance between values", expanded=True):
        for s in sens:
            kind, values = order_choices(ctx.encoded.df[s].dtype, ctx.encoded.column(s).labels)
            col = session_profile.column_key(ctx.key, s)
            distance = st.selectbox(
                f"{md(s)}: distance",
                list(DISTANCE_LABELS),
                format_func=DISTANCE_LABELS.__getitem__,
                key=seeded(
                    keys.t_distance(col),
                    session_profile.settings().distances.get(
                        col, "equal" if kind == "needed" else "ordered"
                    ),
                ),
            )
            session_profile.set_distance(ctx.key, s, distance)
            if distance == "hierarchical":
                upload = st.file_uploader(
                    md(hierarchy_prompt(s)), type=["csv", "txt"], key=keys.t_hierarchy(col)
                )
                if upload is not None:
                    try:
                        session_profile.load_sensitive_hierarchy(
                            ctx.key, upload.getvalue(), ctx.encoded.df[s]
                        )
                    except RiskcoreError as exc:
                        st.error(md(exc))
                if session_profile.sensitive_hierarchy(ctx.key, s) is None:
                    refused[s] = hierarchy_refusal(s)
                    st.warning(md(refused[s]))
            if distance == "ordered" and kind == "needed":
                order = st.multiselect(
                    md(order_prompt(s, len(values))),
                    values,
                    key=seeded(
                        keys.t_order(col),
                        [v for v in session_profile.settings().orders.get(col, ()) if v in values],
                    ),
                )
                session_profile.set_order(ctx.key, s, order)
                st.caption(ORDER_HELP)
                reason = order_refusal(s, values, order)
                if reason is not None:
                    refused[s] = reason
                    st.warning(md(reason))
assessed = tuple(s for s in sens if s not in refused)
tg = session_profile.settings()  # as the widgets above left them
distances, orders = tg.distances, tg.orders
prof = session_profile.current(ctx, with_recipe=False)
recursive = prof.targets.find("recursive-cl-diversity")
try:
    a = cached.assessment(
        ctx.key,
        ctx.encoded,
        qis,
        assessed,
        float(getattr(recursive, "c", 2.0)),
        prof.threshold,
        tg.sampling_fraction,
        tuple((s, distances[f"{ctx.key}:{s}"]) for s in assessed),
        tuple(
            (s, tuple(orders[f"{ctx.key}:{s}"]))
            for s in assessed
            if distances[f"{ctx.key}:{s}"] == "ordered" and f"{ctx.key}:{s}" in orders
        ),
        weights=weights,
        missing=tg.missing,
        person=person,
        hierarchy=tuple(prof.sensitive_hierarchies.items()),
    )
except RiskcoreError as exc:  # e.g. "matches any value" with people whose QIs change
    st.error(md(exc))
    end_page()
missing_line = missing_reading(  # said once, under the metrics
    a.missing, a.missing_records, people=person is not None
)

# the one verdict: the profile's targets judged on this table as it is (riskcore.criteria)
verdict = evaluate(prof.targets, a.evidence)
release = in_use_verdict(ctx) if ctx.generalized else None
if release is not None:  # the release: what its recipe removed and blanked counts (issue 38)
    verdict = with_suppressed(
        verdict, prof.targets, release.suppressed, release.n_records, release.released
    )
(st.success if verdict.passed else st.error)(md(verdict_reading(verdict, of="this table")))
person_caution(ctx)  # a person column, none tagged: the verdict counted rows
k_check = next((c for c in verdict.checks if c.kind == "k-anonymity"), None)
m1, m2, m3 = st.columns(3)
k_met = k_check is None or k_check.passed  # the criterion's decision, not the page's
m1.metric(  # the arrow says where k stands against its target; red when the risk is too high
    "k",
    f"{a.k:,}",
    None if k_check is None else ("meets target" if k_met else "below target"),
    delta_color="normal" if k_met else "inverse",
    delta_arrow="up" if k_met else "down",
)
at_risk = round(a.prosecutor.records_at_risk * a.n_people)  # a share of the people
m2.metric(  # a definition, not a change: no arrow, no colour
    "records at risk (prosecutor)" if person is None else "people at risk (prosecutor)",
    f"{at_risk:,}",
    f"{a.prosecutor.records_at_risk:.1%}, risk above {a.threshold:.4g}",
    delta_color="off",
    delta_arrow="off",
)
m3.metric(
    "highest record risk" if person is None else "highest person risk",
    f"{a.prosecutor.highest_risk:.4g}",
)
st.caption(md(missing_line))
# a static table, its cells wrap: a dataframe cut "highest record risk (pr..." at 1024 px
st.table(escaped(drop_empty(check_table(verdict), "note")), hide_index=True)

st.subheader("Re-identification risk")
risks = risk_table(a)
st.dataframe(
    risks,
    hide_index=True,
    column_config=fitted(  # short headers, the full ones in the tooltip (1024 px)
        risks,
        {
            c: st.column_config.NumberColumn(md(label), help=md(c), format="%.4f")
            for c, label in zip(
                risks.columns[1:],
                ["highest", "share at risk", "expected re-id", "mean class risk"],
                strict=True,
            )
        },
    ),
)
st.caption(md(risk_reading(a)))
if a.population_uniqueness is not None:
    st.caption(md(population_reading(a.population_uniqueness)))

if not sens:
    st.info("Tag a column as sensitive on the Data page to see l-diversity and t-closeness.")
    st.page_link("pages/data.py", label="Go to the Data page")
for name in sens:
    st.subheader(f"Sensitive attribute: {md(name)}")
    if name in refused:
        st.warning(md(order_pending(name, distances[f"{ctx.key}:{name}"])))
        continue
    r = a.sensitive[name]
    st.plotly_chart(charts.diversity_bars(diversity_distribution(a, name), name))
    st.caption(md(diversity_reading(a, name)))
    # the classes breaking this attribute's targets, as the criteria judge them
    masks = [(c, att, bad) for c, att, bad in class_failures(prof.targets, a.evidence)
             if att == name]  # fmt: skip
    bad = np.zeros(a.evidence.n_classes, dtype=bool) if a.evidence is not None else None
    for _, _, m in masks:
        bad |= m
    failing = np.flatnonzero(bad) if bad is not None else np.zeros(0, dtype=np.int64)
    shown = min(len(failing), FAILING_SHOWN)
    labels = [target_label(c.check(a.evidence, att)) for c, att, _ in masks]
    st.write(failing_reading(len(failing), targets=labels, shown=shown, escape=md))
    if len(failing):
        st.dataframe(class_table(a, failing, limit=FAILING_SHOWN), hide_index=True)
        st.download_button(
            f"Download all {len(failing):,} failing classes (CSV)",
            data=lambda a=a, failing=failing: to_csv_bytes(class_table(a, failing, limit=None)),
            file_name=f"failing-classes-{file_part(name)}.csv",
            mime="text/csv",
            key=keys.failing_classes(name),
            on_click="ignore",
        )
