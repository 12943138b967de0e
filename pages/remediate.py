"""Remediate page: generalize and suppress, re-scored live; the least-loss search; export."""

from __future__ import annotations

import functools
import json

import pandas as pd
import streamlit as st

from riskcore.deidentify.hierarchy import (
    banded_hierarchy,
    hierarchy_from_table,
    load_arx_hierarchy,
)
from riskcore.deidentify.masking import (
    MENU,
    PLAIN_HASH_NOTE,
    get_operator,
    parse_choice,
)
from riskcore.deidentify.masking.fakes import find_sex_column
from riskcore.deidentify.recipe import DATE_SHIFT, Recipe, key_check, mask_step
from riskcore.errors import RiskcoreError
from riskcore.freetext import PRESIDIO_MISSING, presidio_available
from riskcore.io.export import to_csv_bytes, to_xlsx_bytes
from riskcore.report import figures as charts
from riskcore.report.readings import (
    average_risk_text,
    enumeration_reading,
    generalized_in_use,
    hierarchy_heading,
    level_label,
    node_reading,
    node_table,
    pii_reading,
    pii_table,
    recipe_table,
    remediation_intro,
    removed_column_warnings,
    safe_harbor_table,
    search_reading,
)
from riskcore.report.readings.criteria import share_text, verdict_reading
from riskcore.report.readings.work import table_download_label
from ui import cached, formats, keyfile, keys, remediation, work
from ui import profile as session_profile
from ui.context import context, end_page, run_gate
from ui.free_text import free_text_status, scan_limit
from ui.safe import file_part, file_stem, md
from ui.steering import steering_editor
from ui.targets import targets_editor

st.title("Remediate")
ctx = context(as_recorded=True)
if ctx is None:  # no table: context() has said why
    end_page()
qis = ctx.roles.quasi_identifiers
sens = ctx.roles.sensitive
store: dict = st.session_state.setdefault(keys.REM_STORE, {})
if store.get("for") != ctx.key:  # another dataset: start again
    store.clear()
    store["for"] = ctx.key


def seeded(name: str, value: object) -> str:
    """Return a widget key whose value is seeded from the page's store."""
    key = keys.rem_widget(name)
    if key not in st.session_state:
        st.session_state[key] = store.get(name, value)
    return key


def identifier_steps() -> tuple[list[dict], dict | None]:
    """Return the Direct identifiers tab's choices as recipe steps (masking, date shift).

    Read from the widgets' state, which Streamlit sets before the page runs, so the first
    tab's recipe holds what the third tab shows.
    """
    ids = ctx.roles.identifiers
    cols = [c for c in st.session_state.get(keys.REM_SHIFT_COLS, []) if c in ctx.table.data]
    person = st.session_state.get(keys.REM_SHIFT_PERSON)
    date_shift = None
    if cols and person in ids:
        days = int(st.session_state.get(keys.REM_SHIFT_DAYS, 180))
        date_shift = {"person": person, "columns": cols, "max_days": days}
    ops = [(c, st.session_state.get(keys.rem_operator(c), next(iter(MENU)))) for c in ids]
    # name surrogates follow a tagged sex column (a woman's name for a woman's record)
    sex = find_sex_column(ctx.table.data, [*ctx.roles.quasi_identifiers, *ctx.roles.sensitive])
    return [mask_step(c, op, sex=sex) for c, op in ops if c not in cols], date_shift


work.choices(ctx)  # the masking choices made earlier seed the widgets (they forget them)
masks, shift = identifier_steps()
needs_key = shift is not None or any(get_operator(m["operator"]).needs_key for m in masks)
secret = keyfile.ensure(needs_key)  # in this session's memory only (ui.keyfile)
key_unsaved = secret is not None and keyfile.pending()  # keyed tables wait for the key file

tab_gen, tab_sh, tab_id = st.tabs(
    ["Generalize and suppress", "HIPAA Safe Harbor", "Direct identifiers"]
)


def generalization() -> None:
    """The generalization tab: targets, hierarchies, the search, levels, use and export."""
    if not qis:
        st.info("Tag at least one quasi-identifier on the Data page to generalize it.")
        return
    st.write(md(remediation_intro(len(qis))))

    with st.expander("Targets (the same on every page)", expanded=True):
        targets_editor(page="remediate", sensitive=sens)
    # the session's profile: its targets, missing-value policy, distances and population model
    prof = session_profile.current(ctx, with_recipe=False)
    targets = prof.targets
    sensitive = sens
    profile_json = prof.to_json()  # without a recipe: the lattice's cache key
    specs: dict = store.setdefault("hier", {})  # QI -> Hierarchy.recipe() of the user's own
    specs_json = json.dumps(specs, sort_keys=True)
    hierarchies = cached.hierarchies(ctx.key, ctx.table, qis, specs_json)

    with st.expander("Hierarchies: how each quasi-identifier can be generalized"):
        hierarchy_editor(hierarchies, specs)

    # ------------------------------------------------------------------ the search
    st.subheader("Least information loss")
    with st.expander("Steer the search: objective, weights and level bounds per column"):
        objective, steering, refused = steering_editor(qis, hierarchies)
    if refused is not None:
        st.error(md(f"The steering is not used: {refused}"))
    steering_json = json.dumps(steering.to_dict(), sort_keys=True)
    try:
        lattice = cached.lattice(
            ctx.key, ctx.encoded, hierarchies, qis, profile_json, specs_json, steering_json
        )
    except RiskcoreError as exc:  # e.g. more nodes than the search's stated limit
        st.error(md(exc))
        end_page()
    lattice_key = f"{ctx.key}|{qis}|{profile_json}|{specs_json}|{steering_json}|{objective}"
    found = cached.searched(lattice_key)
    if st.button("Find the least-loss generalization", type="primary", key=keys.REM_SEARCH):
        found = cached.lattice_search(lattice_key, lattice, objective)
        if found.best is not None:
            for q, lv in zip(qis, found.best.levels, strict=True):
                st.session_state[keys.rem_level(q)] = lv
                store[f"level_{q}"] = lv
            st.rerun()
    if found is not None:
        st.markdown(md(search_reading(found)))
        for warning in removed_column_warnings(found, qis):
            st.warning(md(warning))
        chosen_now = tuple(int(store.get(f"level_{q}", 0)) for q in qis)
        event = st.plotly_chart(
            charts.risk_loss_chart(found.visited, chosen_now, qis),
            key=keys.REM_PARETO,
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
                    st.session_state[keys.rem_level(q)] = lv
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
    # two rows of two: at 1024 px four in a row cut their labels ("Smallest released cl...")
    (m1, m2), (m3, m4) = st.columns(2), st.columns(2)
    quiet = {"delta_color": "off", "delta_arrow": "off"}  # context, not a change for the better
    m1.metric("Smallest released class", f"{after.k:,}", f"was {recorded.k:,}", **quiet)
    m2.metric(
        "Records suppressed", f"{after.suppressed:,}", md(share_text(after.suppressed / n)), **quiet
    )
    m3.metric(
        "Average re-identification risk",
        md(average_risk_text(after)),
        f"was {recorded.success_rate:.2%}",
        **quiet,
    )
    m4.metric("Information lost (NCP)", f"{after.ncp:.1%}")
    # the one verdict: the node judged by the profile's targets with suppression
    if after.verdict is not None:
        (st.success if after.anonymous else st.warning)(
            md(verdict_reading(after.verdict, of="the release at these levels"))
        )
    st.markdown(md(node_reading(before, after, n, recorded.success_rate)))
    st.dataframe(node_table(recorded, after, targets.k_required), hide_index=True)

    # ------------------------------------------------------------------ use and export
    st.subheader("Use and export")
    # what every page assesses, the report files and the downloads hold: the levels and the
    # Direct identifiers tab's steps (never the key, only its check value)
    within = all(lo <= lv <= hi for lv, (lo, hi) in zip(levels, lattice.bounds, strict=True))
    full = Recipe.of(
        hierarchies={q: hierarchies[q] for q in qis},
        levels=dict(zip(qis, levels, strict=True)),
        targets=targets,
        sensitive=tuple(sensitive),
        missing=prof.missing,
        distances=prof.distances,
        orders=prof.orders,
        sampling_fraction=prof.sampling_fraction,
        weights=prof.roles.weight,
        masking=masks,
        date_shift=shift,
        key=secret,
        steering=steering if within else None,  # none for levels picked outside its bounds
        objective=objective,
    )
    recipe = full.to_dict()
    in_use = remediation.active(ctx.key)
    u1, u2 = st.columns(2)
    if u1.button(
        "Assess the generalized table on every page",
        type="primary",
        disabled=not after.anonymous or in_use == recipe,
        key=keys.REM_USE,
    ):
        remediation.set_recipe(ctx.key, recipe)
        st.rerun()
    if in_use is not None and u2.button("Go back to the table as recorded", key=keys.REM_CLEAR):
        remediation.clear()
        st.rerun()
    if in_use is not None:
        st.info(
            md(
                generalized_in_use(
                    same=in_use == recipe,
                    levels_differ=in_use.get("levels") != recipe["levels"]
                    or in_use.get("qis") != recipe["qis"],
                )
            )
        )

    def _generalized():
        return cached.applied(
            ctx.key, ctx.table.data, json.dumps(full.to_dict(), sort_keys=True), secret
        ).data

    downloads = [
        ("Download the generalized table (CSV)", lambda: to_csv_bytes(_generalized()), "csv",
         "text/csv"),
        ("Download it as Excel (.xlsx)", lambda: to_xlsx_bytes(_generalized()), "xlsx",
         "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        ("Download the recipe (JSON)", lambda: json.dumps(full.to_dict(), indent=2), "json",
         "application/json"),
    ]  # fmt: skip
    released = n - after.suppressed  # an empty table would download as its header alone
    for col, (label, data, ext, mime) in zip(st.columns(3), downloads, strict=True):
        name = f"{stem()}_recipe.json" if ext == "json" else f"{stem()}_generalized.{ext}"
        table = ext != "json"
        col.download_button(
            md(table_download_label(label, released=released, passes=after.anonymous,
                                    key_unsaved=key_unsaved) if table else label),
            data,
            file_name=name,
            mime=mime,
            on_click="ignore",
            key=keys.rem_download(ext),
            disabled=table and (released <= 0 or key_unsaved),
            wrap=True,  # the label says what the file holds: never cut
        )  # fmt: skip
    with st.expander("What the recipe records"):
        st.dataframe(recipe_table(full), hide_index=True)
    st.caption(md(
        "The table and the recipe hold the Direct identifiers tab's choices too. The CSV is "
        "formula-safe and the Excel file has no live formula. The recipe records every step "
        "and re-applies to next month's data: riskcore apply DATA --recipe RECIPE.json --out "
        "OUT.csv"
        + (
            f" --key-file KEY (the key file downloaded or uploaded on the Direct identifiers "
            f"tab, check value {key_check(secret)})"
            if secret
            else ""
        )
    ))  # fmt: skip


#: Hierarchies up to this many values are edited in the page; larger ones are downloaded,
#: edited elsewhere and uploaded.
EDIT_ROWS = 2_000


def _use_hierarchy(q: str, specs: dict, spec: dict | None) -> None:
    """Make ``spec`` the hierarchy of ``q`` (None: the default), level 0, fresh widgets."""
    if spec is None:
        specs.pop(q, None)
    else:
        specs[q] = spec
    store[f"level_{q}"] = 0
    st.session_state.pop(keys.rem_level(q), None)
    store["hier_ver"] = store.get("hier_ver", 0) + 1
    st.rerun()


def hierarchy_editor(hierarchies: dict, specs: dict) -> None:
    """One QI's hierarchy: bands with outlier clipping, an ARX upload, the table to edit, a
    download. Every user hierarchy is checked by riskcore before it is used."""
    st.caption(
        "A hierarchy gives each value its label at every level; the search and the levels "
        "below use these. Bring your own in ARX's format (one row per value: "
        "value;level 1;...;*), or edit the labels in the table."
    )
    q = st.selectbox("Quasi-identifier", list(qis), key=keys.REM_HIERARCHY_QI)
    h = hierarchies[q]
    series = ctx.table.data[q]
    ver = store.get("hier_ver", 0)
    st.text(hierarchy_heading(h, own=q in specs))
    if h.kind == "interval":
        st.write("Bands, with outlier clipping: numbers beyond the codes share one band.")
        params = dict(h.params or {})
        b1, b2, b3 = st.columns(3)
        width = b1.number_input("Band width", min_value=0.0, value=float(params["widths"][0]),
                                key=keys.rem_band_width(q, ver))  # fmt: skip
        bottom = b2.number_input("Bottom coding: below", value=params.get("bottom"),
                                 placeholder="none", key=keys.rem_bottom(q, ver))  # fmt: skip
        top = b3.number_input("Top coding: at or above", value=params.get("top"),
                              placeholder="none", key=keys.rem_top(q, ver))  # fmt: skip
        if st.button("Use these bands", key=keys.rem_use_bands(q)):
            try:
                banded = banded_hierarchy(series, width or None, bottom=bottom, top=top)
            except RiskcoreError as exc:
                st.error(md(exc))
            else:
                _use_hierarchy(q, specs, banded.recipe())
    up = st.file_uploader(
        md(f"Upload a hierarchy for {q} (ARX CSV)"),
        type=["csv", "txt"],
        key=keys.rem_hierarchy_upload(q, ver),
    )
    if up is not None:
        try:
            loaded = load_arx_hierarchy(up.getvalue(), series)
        except RiskcoreError as exc:
            st.error(md(exc))
        else:
            _use_hierarchy(q, specs, loaded.recipe())
    if len(h.leaves) > EDIT_ROWS:
        st.caption(f"{len(h.leaves):,} values: too many to edit here; download, edit and upload.")
        st.dataframe(h.to_frame().head(8).astype(str), hide_index=True)
    else:
        frame = h.to_frame(sort=True).astype(str)
        edited = st.data_editor(
            frame,
            hide_index=True,
            disabled=["level 0"],
            num_rows="fixed",
            key=keys.rem_hierarchy_edit(q, ver),
        )
        if not edited.equals(frame):
            try:
                mine = hierarchy_from_table(edited, series)
            except RiskcoreError as exc:
                st.error(md(exc))
            else:
                st.success("The edited hierarchy is consistent and covers every value.")
                if st.button(
                    "Use the edited hierarchy", type="primary", key=keys.rem_use_edited(q)
                ):
                    _use_hierarchy(q, specs, mine.recipe())
    d1, d2 = st.columns(2)
    d1.download_button(
        md(f"Download the hierarchy of {q} (ARX CSV)"),
        h.to_arx_csv,  # written on click
        file_name=f"hierarchy_{file_part(q)}.csv",
        mime="text/csv",
        on_click="ignore",
        key=keys.rem_hierarchy_download(q),
    )
    if q in specs and d2.button(
        "Go back to the default hierarchy", key=keys.rem_hierarchy_reset(q)
    ):
        _use_hierarchy(q, specs, None)


def safe_harbor_tab() -> None:
    """The Safe Harbor tab: the 18 categories, each text column's free text, the verdict, and
    the standard transforms."""
    st.write(
        "HIPAA's Safe Harbor method (45 CFR 164.514(b)(2)) removes 18 kinds of identifiers "
        "and generalizes the rest: ZIP codes to their first 3 digits (000 where that area has "
        "20,000 people or fewer), ages over 89 to one category, dates to the year. Below, "
        "what this table holds for each kind, as tagged on the Data page, as the columns "
        "look, and as written inside their text."
    )
    roles_key = tuple(sorted(st.session_state[keys.ROLES].items()))
    limit = scan_limit(ctx.key)
    check = cached.safe_harbor(ctx.key, ctx.table, ctx.roles, roles_key, ctx.suggestions, limit)
    (st.success if check.passed else st.warning)(md(check.verdict))
    st.dataframe(safe_harbor_table(check), hide_index=True)
    free_text_status(check, ctx.key)
    for note in check.notes:
        st.caption(md(note))
    st.subheader("The standard transforms")
    if check.passed:
        st.info("Nothing to transform: no column holds a Safe Harbor identifier.")
        return
    if not run_gate(ctx.table.n_rows, (ctx.key, roles_key), "Apply the Safe Harbor transforms",
                    keys.REM_SH_RUN):  # fmt: skip
        return
    done, after = cached.safe_harbor_applied(
        ctx.key, ctx.table, ctx.roles, roles_key, ctx.suggestions, limit
    )
    if not done.steps:
        st.info("No transform applies: what remains needs a decision of yours (see above).")
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
        key=keys.REM_SH_CSV,
    )
    st.caption(
        "Safe Harbor also requires that you have no actual knowledge that what remains could "
        "identify someone: the other tabs and pages measure that risk."
    )


def identifiers_tab() -> None:
    """The direct identifiers tab: date shifting, one operator per identifier column, a
    preview, downloads; then the free-text scan and the plain-hash demonstration."""
    ids = list(ctx.roles.identifiers)
    if not ids:
        st.info("No column is tagged as a direct identifier on the Data page.")
        free_text_scan()
        return
    st.write(
        "Direct identifiers name a person on their own. Choose what happens to each; the "
        "line under the choice says what the operator keeps and what it risks. These "
        "choices are part of the recipe downloaded on the first tab."
    )
    with st.expander("The key of the tokens and date shifts", expanded=needs_key):
        keyfile.panel((remediation.active(ctx.key) or {}).get("key_check"), stem())
    dates = [c for c in ctx.table.data.columns if _is_date(c)]
    with st.expander("Shift dates per person (keeps intervals)", expanded=bool(shift)):
        st.caption(md(DATE_SHIFT.note))
        s1, s2, s3 = st.columns([2, 1, 1])
        s1.multiselect("Date columns to shift", dates, key=keys.REM_SHIFT_COLS)
        s2.selectbox("Person (one shift each)", ids, key=keys.REM_SHIFT_PERSON)
        s3.number_input("Largest shift (days)", 1, 3650, 180, key=keys.REM_SHIFT_DAYS)
    out = ctx.table.data.copy()
    if shift is not None:
        if secret is None:  # a date shift needs the key, made above
            raise AssertionError("a date shift without the session's key")
        moved = cached.shifted(ctx.key, ctx.table.data, shift["person"], tuple(shift["columns"]),
                               shift["max_days"], secret, key_check(secret))  # fmt: skip
        out[list(moved.columns)] = moved
    lookups = []
    for col in ids:
        if shift is not None and col in shift["columns"]:
            continue
        c1, c2 = st.columns([1, 2])
        op = c1.selectbox(md(col), list(MENU), format_func=formats.operator,
                          key=keys.rem_operator(col))  # fmt: skip
        c2.caption(md(parse_choice(op)[0].note))
        done, lookup = cached.masked(ctx.key, ctx.table.data, col, op, secret, 0,
                                     key_check(secret) if secret else "")  # fmt: skip
        if col in done:
            out[col] = done[col]
        else:  # the choice drops the column
            out = out.drop(columns=[col])
        if lookup is not None:
            lookups.append(lookup)
    shown = [c for c in ctx.table.data.columns if c in out.columns
             and (c in ids or (shift is not None and c in shift["columns"]))]  # fmt: skip
    # what the identifiers become, never what they were: the page shows no direct identifier
    if shown:
        st.write("What the first rows' identifiers become:")
        st.dataframe(out[shown].head(5), hide_index=True)
    else:
        st.info("Every direct identifier is dropped.")
    d1, d2 = st.columns(2)
    d1.download_button(
        md(table_download_label("Download the table with these identifiers (CSV)",
                                key_unsaved=key_unsaved)),
        lambda: to_csv_bytes(out),
        file_name=f"{stem()}_identifiers_masked.csv",
        mime="text/csv",
        on_click="ignore",
        key=keys.REM_ID_CSV,
        disabled=key_unsaved,
        wrap=True,
    )  # fmt: skip
    if lookups:
        d2.download_button(
            "Download the surrogates' lookup table (keep it apart)",
            lambda: to_csv_bytes(pd.concat(lookups, ignore_index=True)),
            file_name=f"{stem()}_surrogate_lookup.csv",
            mime="text/csv",
            on_click="ignore",
            key=keys.REM_ID_LOOKUP,
        )
    free_text_scan()
    plain_hash()


def free_text_scan() -> None:
    """Presidio's free-text PII detection (optional), beside the role rule's suggestions."""
    st.subheader("Identifiers inside free text")
    st.caption(
        "The role rule (Data page) reads column names and value patterns; Presidio reads the "
        "text itself and finds e-mails, phone, card and account numbers written inside it "
        "(not names or ZIP codes). Its findings are shown beside the rule's, never instead."
    )
    if not presidio_available():
        st.info(md("Not installed: " + PRESIDIO_MISSING))
        return
    if st.button("Scan the free-text columns (Presidio)", key=keys.REM_PII):
        st.session_state[keys.REM_PII_FOR] = ctx.key
    if st.session_state.get(keys.REM_PII_FOR) != ctx.key:
        return
    try:
        scan = cached.pii_scan(ctx.key, ctx.table.data)
    except RiskcoreError as exc:
        st.error(md(exc))
        return
    st.markdown(md(pii_reading(scan)))
    if scan.findings:
        st.dataframe(pii_table(scan, ctx.suggestions), hide_index=True)


def plain_hash() -> None:
    """The enumeration attack on a plain SHA-256 of an SSN or birth-date column."""
    st.subheader("Why never a plain hash")
    st.caption(md(PLAIN_HASH_NOTE))
    kinds = {c: k for c in ctx.table.data.columns if (k := _hash_kind(c)) is not None}
    if not kinds:
        st.info("No SSN or birth-date column to try it on.")
        return
    col = st.selectbox("Column", list(kinds), key=keys.REM_ENUM_COL)
    if st.button(md(f"Reverse a SHA-256 of {col}"), key=keys.REM_ENUM):
        r = cached.enumeration(ctx.key, ctx.table.data, col, kinds[col])
        st.markdown(md(enumeration_reading(r, col)))


def _is_date(column: str) -> bool:
    """Return True for a column of dates (the role rule's dates and birth dates, datetimes)."""
    kind = ctx.suggestions[column].kind if column in ctx.suggestions else ""
    return kind in ("dob", "date") or pd.api.types.is_datetime64_any_dtype(
        ctx.table.data[column].dtype
    )


def _hash_kind(column: str) -> str | None:
    """Return "ssn" or "birth_date" for a column the role rule reads as one (its kind, not its
    reason's words: the reason for "sex" cites "date of birth"), else None."""
    kind = ctx.suggestions[column].kind if column in ctx.suggestions else ""
    if kind == "ssn" or "ssn" in column.lower():
        return "ssn"
    if kind == "dob" or "birth" in column.lower() or column.lower() == "dob":
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
