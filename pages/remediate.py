"""Remediate page: generalize and suppress, re-scored live; the least-loss search; export."""

from __future__ import annotations

import functools
import json

import pandas as pd
import streamlit as st

from riskcore.deidentify.lattice import Targets
from riskcore.deidentify.masking import OPERATOR_NOTES, SecretKey
from riskcore.deidentify.recipe import Recipe
from riskcore.io.export import to_csv_bytes, to_xlsx_bytes
from riskcore.report import figures as charts
from riskcore.report.readings import (
    enumeration_reading,
    level_label,
    node_reading,
    node_table,
    remediation_intro,
    safe_harbor_table,
    search_reading,
)
from ui import cached, formats, remediation, state
from ui.context import context, end_page, run_gate
from ui.safe import file_part, file_stem, md

STORE = "rc_rem_store"  # what the page's widgets chose, kept across pages (widgets forget)

st.title("Remediate")
ctx = context(as_recorded=True)
if ctx is None:  # no table: context() has said why
    end_page()
qis = ctx.roles.quasi_identifiers
sens = ctx.roles.sensitive
store: dict = st.session_state.setdefault(STORE, {})
if store.get("for") != ctx.key:  # another dataset: start again
    store.clear()
    store["for"] = ctx.key
tg = st.session_state[state.TARGETS]


def seeded(name: str, value: object) -> str:
    """Return a widget key whose value is seeded from the page's store."""
    key = f"rc_rem_{name}"
    if key not in st.session_state:
        st.session_state[key] = store.get(name, value)
    return key


tab_gen, tab_sh, tab_id = st.tabs(
    ["Generalize and suppress", "HIPAA Safe Harbor", "Direct identifiers"]
)


def generalization() -> None:
    """The generalization tab: targets, hierarchies, the search, levels, use and export."""
    if not qis:
        st.info("Tag at least one quasi-identifier on the Data page to generalize it.")
        return
    st.write(md(remediation_intro(len(qis))))

    with st.expander("Targets", expanded=True):
        c1, c2, c3, c4 = st.columns(4)
        k = int(
            c1.number_input("k (smallest class)", 1, 1000, step=1, key=seeded("k", int(tg["k"])))
        )
        limit = c2.slider(
            "Records that may be suppressed (%)",
            0.0,
            20.0,
            step=0.5,
            key=seeded("suppression", 2.0),
            help="Records of classes that still break the targets are removed from the release.",
        )
        use_l = bool(sens) and c3.toggle(
            "l-diversity of the sensitive columns", key=seeded("use_l", False), disabled=not sens
        )
        l_value = (
            c3.number_input("distinct l", 2, 50, key=seeded("l", int(tg["l"]))) if use_l else None
        )
        use_t = bool(sens) and c4.toggle(
            "t-closeness of the sensitive columns", key=seeded("use_t", False), disabled=not sens
        )
        t_value = (
            c4.number_input("t", 0.01, 1.0, step=0.01, key=seeded("t", float(tg["t"])))
            if use_t
            else None
        )
    for name in ("k", "suppression", "use_l", "l", "use_t", "t"):
        if f"rc_rem_{name}" in st.session_state:
            store[name] = st.session_state[f"rc_rem_{name}"]
    targets = Targets(
        k=k,
        l=int(l_value) if l_value is not None else None,
        t=float(t_value) if t_value is not None else None,
        max_suppression=float(limit) / 100.0,
    )
    sensitive = sens if (use_l or use_t) else ()
    targets_json = json.dumps(targets.to_dict(), sort_keys=True)
    hierarchies = cached.hierarchies(ctx.key, ctx.table, qis)
    lattice = cached.lattice(ctx.key, ctx.encoded, hierarchies, qis, sensitive, targets_json)
    lattice_key = f"{ctx.key}|{qis}|{sensitive}|{targets_json}"

    with st.expander("Hierarchies: how each quasi-identifier can be generalized"):
        for q in qis:
            h = hierarchies[q]
            st.text(md(f"{q}: {h.kind}, {h.height} levels above the value"))
            st.dataframe(h.to_frame().head(8), hide_index=True)
            st.download_button(
                md(f"Download the hierarchy of {q} (ARX CSV)"),
                h.to_arx_csv(),
                file_name=f"hierarchy_{file_part(q)}.csv",
                mime="text/csv",
                key=f"rc_rem_h_{q}",
            )

    # ------------------------------------------------------------------ the search
    st.subheader("Least information loss")
    found = cached.searched(lattice_key)
    if st.button("Find the least-loss generalization", type="primary", key="rc_rem_search"):
        found = cached.lattice_search(lattice_key, lattice)
        if found.best is not None:
            for q, lv in zip(qis, found.best.levels, strict=True):
                st.session_state[f"rc_rem_level_{q}"] = lv
                store[f"level_{q}"] = lv
            st.rerun()
    if found is not None:
        st.markdown(md(search_reading(found)))
        chosen_now = tuple(int(store.get(f"level_{q}", 0)) for q in qis)
        event = st.plotly_chart(
            charts.risk_loss_chart(found.visited, chosen_now, qis),
            key="rc_rem_pareto",
            on_select="rerun",
            selection_mode="points",
        )
        st.caption(
            "Each point is one combination of levels the search evaluated; click one to try it."
        )
        points = event.selection.points if event is not None else []
        if points and "customdata" in points[0]:
            picked = found.visited[int(points[0]["customdata"])]
            if picked.levels != chosen_now:
                for q, lv in zip(qis, picked.levels, strict=True):
                    st.session_state[f"rc_rem_level_{q}"] = lv
                    store[f"level_{q}"] = lv
                st.rerun()

    # ------------------------------------------------------------------ what-if
    st.subheader("Levels (re-scored as you move them)")
    cols = st.columns(min(len(qis), 4))
    levels: list[int] = []
    for i, q in enumerate(qis):
        h = hierarchies[q]
        box = cols[i % len(cols)]
        lv = box.select_slider(
            md(q),
            options=list(range(h.height + 1)),
            format_func=functools.partial(formats.level_of, h.height),
            key=seeded(f"level_{q}", 0),
        )
        box.caption(md(level_label(h, int(lv))))
        store[f"level_{q}"] = lv
        levels.append(int(lv))
    before = cached.node(ctx.key, lattice, lattice_key, tuple([0] * len(qis)))
    recorded = lattice.as_recorded()
    after = cached.node(ctx.key, lattice, lattice_key, tuple(levels))
    n = lattice.n
    m1, m2, m3, m4 = st.columns(4)
    quiet = {"delta_color": "off", "delta_arrow": "off"}  # context, not a change for the better
    m1.metric("Smallest released class", f"{after.k:,}", f"was {recorded.k:,}", **quiet)
    m2.metric("Records suppressed", f"{after.suppressed:,}", f"{after.suppressed / n:.1%}", **quiet)
    m3.metric(
        "Average re-identification risk",
        f"{after.success_rate:.2%}",
        f"was {recorded.success_rate:.2%}",
        **quiet,
    )
    m4.metric("Information lost (NCP)", f"{after.ncp:.1%}")
    if after.anonymous:
        st.success("These levels meet the targets within the suppression limit.")
    else:
        st.warning("These levels need more suppression than the limit allows.")
    st.markdown(md(node_reading(before, after, n, recorded.success_rate)))
    st.dataframe(node_table(recorded, after, targets.k_effective), hide_index=True)

    # ------------------------------------------------------------------ use and export
    st.subheader("Use and export")
    recipe = Recipe.of(
        hierarchies={q: hierarchies[q] for q in qis},
        levels=dict(zip(qis, levels, strict=True)),
        targets=targets,
        sensitive=tuple(sensitive),
    ).to_dict()
    in_use = remediation.active(ctx.key)
    u1, u2 = st.columns(2)
    if u1.button(
        "Assess the generalized table on every page",
        type="primary",
        disabled=not after.anonymous or in_use == recipe,
        key="rc_rem_use",
    ):
        remediation.set_recipe(ctx.key, recipe)
        st.rerun()
    if in_use is not None and u2.button("Go back to the table as recorded", key="rc_rem_clear"):
        remediation.clear()
        st.rerun()
    if in_use is not None:
        st.info(
            "The generalized table is in use: Uniqueness, Anonymity, Attacks and the DP pages "
            "assess it (the sidebar's switch goes back and forth)."
            + ("" if in_use == recipe else " The levels above differ from the ones in use.")
        )

    def _generalized():
        return lattice.apply(ctx.table.data, levels)

    downloads = [
        ("Download the generalized table (CSV)", lambda: to_csv_bytes(_generalized()), "csv",
         "text/csv"),
        ("Download it as Excel (.xlsx)", lambda: to_xlsx_bytes(_generalized()), "xlsx",
         "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        ("Download the recipe (JSON)", lambda: json.dumps(recipe, indent=2), "json",
         "application/json"),
    ]  # fmt: skip
    for col, (label, data, ext, mime) in zip(st.columns(3), downloads, strict=True):
        name = f"{stem()}_recipe.json" if ext == "json" else f"{stem()}_generalized.{ext}"
        col.download_button(
            md(label), data, file_name=name, mime=mime, on_click="ignore", key=f"rc_rem_{ext}"
        )
    st.caption(
        "The CSV is formula-safe and the Excel file has no live formula. The recipe re-applies "
        "to next month's data: riskcore apply DATA --recipe RECIPE.json --out OUT.csv"
    )


def safe_harbor_tab() -> None:
    """The Safe Harbor tab: the 18 categories, the verdict, and the standard transforms."""
    st.write(
        "HIPAA's Safe Harbor method (45 CFR 164.514(b)(2)) removes 18 kinds of identifiers "
        "and generalizes the rest: ZIP codes to their first 3 digits (000 where that area has "
        "20,000 people or fewer), ages over 89 to one category, dates to the year. Below, "
        "what this table holds for each kind, as tagged on the Data page and as the columns "
        "look."
    )
    roles_key = tuple(sorted(st.session_state[state.ROLES].items()))
    check = cached.safe_harbor(ctx.key, ctx.table, ctx.roles, roles_key, ctx.suggestions)
    (st.success if check.passed else st.warning)(md(check.verdict))
    st.dataframe(safe_harbor_table(check), hide_index=True)
    for note in check.notes:
        st.caption(md(note))
    st.subheader("The standard transforms")
    if check.passed:
        st.info("Nothing to transform: no column holds a Safe Harbor identifier.")
        return
    if not run_gate(ctx.table.n_rows, (ctx.key, roles_key), "Apply the Safe Harbor transforms",
                    "rc_rem_sh_run"):  # fmt: skip
        return
    done, after = cached.safe_harbor_applied(
        ctx.key, ctx.table, ctx.roles, roles_key, ctx.suggestions
    )
    if not done.steps:
        st.info("Nothing to transform: no column holds a Safe Harbor identifier.")
        return
    st.dataframe(
        [
            {"column": x.column, "action": x.action, "values changed": x.n_changed, "note": x.note}
            for x in done.steps
        ],
        hide_index=True,
    )
    (st.success if after.passed else st.warning)(md("After the transforms: " + after.verdict))
    st.download_button(
        "Download the transformed table (CSV)",
        lambda: to_csv_bytes(done.data),
        file_name=f"{stem()}_safe_harbor.csv",
        mime="text/csv",
        on_click="ignore",
        key="rc_rem_sh_csv",
    )
    st.caption(
        "Safe Harbor also requires that you have no actual knowledge that what remains could "
        "identify someone: the other tabs and pages measure that risk."
    )


OPERATORS = formats.OPERATOR_LABELS
NOTE_OF = {"drop": "drop_columns"}
SECRET = "rc_rem_secret"  # noqa: S105 - the session-state key under which the key is kept


def identifiers_tab() -> None:
    """The direct identifiers tab: one operator per identifier column, a preview, downloads."""
    ids = list(ctx.roles.identifiers)
    if not ids:
        st.info("No column is tagged as a direct identifier on the Data page.")
        return
    st.write(
        "Direct identifiers name a person on their own. Choose what happens to each; the "
        "line under the choice says what the operator keeps and what it risks."
    )
    chosen: dict[str, str] = {}
    for col in ids:
        c1, c2 = st.columns([1, 2])
        op = c1.selectbox(
            md(col),
            list(OPERATORS),
            format_func=formats.operator,
            key=f"rc_rem_op_{col}",
        )
        c2.caption(md(OPERATOR_NOTES[NOTE_OF.get(op, op.split(":")[0])]))
        chosen[col] = op
    needs_key = any(op in ("hmac_tokens", "reversible_tokens") for op in chosen.values())
    if needs_key and SECRET not in st.session_state:
        st.session_state[SECRET] = SecretKey.generate()
        st.session_state[SECRET + "_show"] = True
    secret = st.session_state.get(SECRET)
    if needs_key and st.session_state.pop(SECRET + "_show", False):
        st.warning(
            "A key was generated for the tokens. It is shown once, here: keep it apart from "
            "the data (whoever holds it can test guesses, or decrypt reversible tokens). It "
            "is not in any download."
        )
        st.code(secret.reveal_hex(), language=None)
    out = ctx.table.data.copy()
    lookups = []
    for col, op in chosen.items():
        if op == "drop":
            out = out.drop(columns=[col])
            continue
        values, lookup = cached.masked(ctx.key, ctx.table.data, col, op, secret, 0)
        out[col] = values
        if lookup is not None:
            lookups.append(lookup.assign(column=col))
    kept = [c for c in ids if c in out.columns]
    # what the identifiers become, never what they were: the page shows no direct identifier
    if kept:
        st.write("What the first rows' identifiers become:")
        st.dataframe(out[kept].head(5), hide_index=True)
    else:
        st.info("Every direct identifier is dropped.")
    d1, d2 = st.columns(2)
    d1.download_button(
        "Download the table with these identifiers (CSV)",
        lambda: to_csv_bytes(out),
        file_name=f"{stem()}_identifiers_masked.csv",
        mime="text/csv",
        on_click="ignore",
        key="rc_rem_id_csv",
    )
    if lookups:
        d2.download_button(
            "Download the surrogates' lookup table (keep it apart)",
            lambda: to_csv_bytes(pd.concat(lookups, ignore_index=True)),
            file_name=f"{stem()}_surrogate_lookup.csv",
            mime="text/csv",
            on_click="ignore",
            key="rc_rem_id_lookup",
        )
    st.subheader("Why never a plain hash")
    st.caption(md(OPERATOR_NOTES["plain_sha256"]))
    kinds = {c: k for c in ctx.table.data.columns if (k := _hash_kind(c)) is not None}
    if not kinds:
        st.info("No SSN or birth-date column to try it on.")
        return
    col = st.selectbox("Column", list(kinds), format_func=md, key="rc_rem_enum_col")
    if st.button(md(f"Reverse a SHA-256 of {col}"), key="rc_rem_enum"):
        r = cached.enumeration(ctx.key, ctx.table.data, col, kinds[col])
        st.markdown(md(enumeration_reading(r, col)))


def _hash_kind(column: str) -> str | None:
    """Return "ssn" or "birth_date" for a column the role rule reads as one, else None."""
    reason = ctx.suggestions[column].reason.lower() if column in ctx.suggestions else ""
    if "social security" in reason or "ssn" in column.lower():
        return "ssn"
    if "birth" in reason or "birth" in column.lower() or column.lower() in ("dob",):
        return "birth_date"
    return None


def stem() -> str:
    """Return a file-name stem from the table's name."""
    return file_stem(ctx.table.name)


with tab_gen:
    generalization()
with tab_sh:
    safe_harbor_tab()
with tab_id:
    identifiers_tab()
