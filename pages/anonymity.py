"""Anonymity page: k, l-diversity, t-closeness and re-identification risk against targets."""

from __future__ import annotations

import secrets

import streamlit as st

from riskcore.io.export import to_csv_bytes
from riskcore.metrics import THRESHOLDS, class_table, order_choices
from riskcore.report import figures as charts
from riskcore.report.readings import (
    DISTANCE_LABELS,
    MISSING_LABELS,
    ORDER_HELP,
    diversity_distribution,
    diversity_reading,
    failing_reading,
    missing_reading,
    order_pending,
    order_prompt,
    order_refusal,
    population_reading,
    risk_reading,
    risk_table,
    target_checks,
    target_table,
    targets_reading,
)
from ui import cached, formats, state
from ui.context import context, require_qis
from ui.safe import file_part, md

FAILING_SHOWN = 500  # rows of the failing-class table on screen; the download has all

st.title("Anonymity: k / l / t and re-identification risk")
ctx = require_qis(context())
qis, sens = ctx.roles.quasi_identifiers, ctx.roles.sensitive
weights = ctx.roles.weights[0] if len(ctx.roles.weights) == 1 else None
tg = st.session_state[state.TARGETS]


def seeded(key: str, value: object) -> str:
    """Return the key of a widget, seeded from a value kept across pages.

    Keyed widgets forget their value on a page switch, and a widget whose
    default follows its own last value gets a new identity on every change and
    drops every second edit; so the widget is keyed and its state seeded from
    ``tg``. The key carries a token of this ``tg``: after a session reset (a new
    ``tg``) the widgets start again from the defaults.
    """
    key = f"{key}:{tg.setdefault('widget_token', secrets.token_hex(4))}"
    if key not in st.session_state:
        st.session_state[key] = value
    return key


with st.expander("Targets and threshold", expanded=True):
    c1, c2, c3, c4 = st.columns(4)
    tg["k"] = c1.number_input(
        "target k",
        min_value=1,
        step=1,
        help="every class must hold at least k people",
        key=seeded("rc_target_k", int(tg["k"])),
    )
    tg["l"] = c2.number_input(
        "target l",
        min_value=1,
        step=1,
        help="distinct sensitive values per class (distinct, entropy, recursive)",
        key=seeded("rc_target_l", int(tg["l"])),
    )
    tg["c"] = c3.number_input(
        "c of recursive (c,l)", min_value=0.1, step=0.5, key=seeded("rc_target_c", float(tg["c"]))
    )
    tg["t"] = c4.number_input(
        "target t",
        min_value=0.0,
        max_value=1.0,
        step=0.05,
        help="largest allowed distance of a class's sensitive distribution to the whole table's",
        key=seeded("rc_target_t", float(tg["t"])),
    )
    options = list(THRESHOLDS)
    tg["threshold"] = st.selectbox(
        "record-risk threshold",
        options,
        format_func=formats.threshold,
        key=seeded(
            "rc_target_threshold", tg["threshold"] if tg["threshold"] in options else options[2]
        ),
    )
    tg["sampling_fraction"] = st.number_input(
        "sampling fraction n/N (0 = the table is the whole population)",
        min_value=0.0,
        max_value=1.0,
        step=0.01,
        format="%.3f",
        help="adds journalist and marketer risk and population-uniqueness estimates"
        if weights is None
        else md(f"not used: the sampling weights in {weights} give the population class sizes"),
        key=seeded("rc_target_sampling_fraction", float(tg["sampling_fraction"])),
        disabled=weights is not None,
    )
    tg["missing"] = st.radio(
        "a missing quasi-identifier value is",
        list(MISSING_LABELS),
        format_func=formats.missing_policy,
        horizontal=True,
        help="a value of its own, or any value (sdcMicro's convention: each record then counts "
        "every record it agrees with wherever both are known); used on every page",
        key=seeded("rc_target_missing", tg.get("missing", "own")),
    )

# kept across pages, like the targets: {dataset key + column: distance / order}
distances: dict[str, str] = tg.setdefault("distance", {})
orders: dict[str, list] = tg.setdefault("order", {})
refused: dict[str, str] = {}  # attribute -> why its t cannot be computed yet
if sens:
    with st.expander("t-closeness: distance between values", expanded=True):
        for s in sens:
            kind, values = order_choices(ctx.encoded.df[s].dtype, ctx.encoded.column(s).labels)
            col = f"{ctx.key}:{s}"
            distances[col] = st.selectbox(
                f"{md(s)}: distance",
                list(DISTANCE_LABELS),
                format_func=DISTANCE_LABELS.__getitem__,
                key=seeded(
                    f"rc_t_distance:{col}",
                    distances.get(col, "equal" if kind == "needed" else "ordered"),
                ),
            )
            if distances[col] == "ordered" and kind == "needed":
                orders[col] = st.multiselect(
                    md(order_prompt(s, len(values))),
                    values,
                    key=seeded(
                        f"rc_t_order:{col}", [v for v in orders.get(col, []) if v in values]
                    ),
                )
                st.caption(ORDER_HELP)
                reason = order_refusal(s, values, orders[col])
                if reason is not None:
                    refused[s] = reason
                    st.warning(md(reason))
assessed = tuple(s for s in sens if s not in refused)
a = cached.assessment(
    ctx.key,
    ctx.encoded,
    qis,
    assessed,
    float(tg["c"]),
    float(tg["threshold"]),
    float(tg["sampling_fraction"]),
    tuple((s, distances[f"{ctx.key}:{s}"]) for s in assessed),
    tuple(
        (s, tuple(orders[f"{ctx.key}:{s}"]))
        for s in assessed
        if distances[f"{ctx.key}:{s}"] == "ordered" and f"{ctx.key}:{s}" in orders
    ),
    weights=weights,
    missing=tg["missing"],
)
missing_line = missing_reading(a.missing, a.missing_records)

checks = target_checks(a, k=int(tg["k"]), l=int(tg["l"]), t=float(tg["t"]))
if bool(checks["pass"].all()):
    st.success(md(targets_reading(checks, qis)))
else:
    st.error(md(targets_reading(checks, qis)))
m1, m2, m3 = st.columns(3)
k_met = a.k >= tg["k"]
m1.metric(  # the arrow says where k stands against its target; red when the risk is too high
    "k",
    f"{a.k:,}",
    "meets target" if k_met else "below target",
    delta_color="normal" if k_met else "inverse",
    delta_arrow="up" if k_met else "down",
)
m2.metric(  # a definition, not a change: no arrow, no colour
    "records at risk (prosecutor)",
    f"{a.prosecutor.records_at_risk:.1%}",
    f"risk above {a.threshold:g}",
    delta_color="off",
    delta_arrow="off",
)
m3.metric("highest record risk", f"{a.prosecutor.highest_risk:.3f}")
st.caption(md(missing_line))
st.dataframe(
    target_table(checks),
    hide_index=True,
    column_config={"pass": st.column_config.CheckboxColumn("target met")},
)

st.subheader("Re-identification risk")
risks = risk_table(a)
st.dataframe(
    risks,
    hide_index=True,
    column_config={c: st.column_config.NumberColumn(format="%.4f") for c in risks.columns[1:]},
)
st.caption(md(risk_reading(a)))
st.caption(md(missing_line))
if a.population_uniqueness is not None:
    st.caption(md(population_reading(a.population_uniqueness)))

if not sens:
    st.info("Tag a column as sensitive on the Data page to see l-diversity and t-closeness.")
    st.page_link("pages/data.py", label="Go to the Data page")
for name in sens:
    st.subheader(f"Sensitive attribute: {md(name)}")
    if name in refused:
        st.warning(md(order_pending(name)))
        continue
    r = a.sensitive[name]
    st.plotly_chart(charts.diversity_bars(diversity_distribution(a, name), name))
    st.caption(md(diversity_reading(a, name)))
    st.caption(md(missing_line))
    failing = r.failing_classes(l=int(tg["l"]), t=float(tg["t"]))
    shown = min(len(failing), FAILING_SHOWN)
    st.write(failing_reading(len(failing), l=int(tg["l"]), t=tg["t"], shown=shown))
    if len(failing):
        st.dataframe(class_table(a, failing, limit=FAILING_SHOWN), hide_index=True)
        st.download_button(
            f"Download all {len(failing):,} failing classes (CSV)",
            data=lambda a=a, failing=failing: to_csv_bytes(class_table(a, failing, limit=None)),
            file_name=f"failing-classes-{file_part(name)}.csv",
            mime="text/csv",
            key=f"failing-{name}",
            on_click="ignore",
        )
