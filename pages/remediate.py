"""Remediate page: generalize and suppress, re-scored live; the least-loss search; export."""

from __future__ import annotations

import functools
import json

import streamlit as st

from riskcore.deidentify.masking import (
    MENU,
    get_operator,
)
from riskcore.deidentify.masking.fakes import find_sex_column
from riskcore.deidentify.recipe.base import key_check, mask_step
from riskcore.errors import RiskcoreError
from riskcore.io.export import to_csv_bytes, to_xlsx_bytes
from riskcore.report import figures as charts
from riskcore.report.readings import (
    average_risk_text,
    generalized_in_use,
    level_label,
    node_reading,
    node_table,
    recipe_table,
    remediation_intro,
    removed_column_warnings,
    search_reading,
    suppressed_share,
)
from riskcore.report.readings.criteria import verdict_reading
from riskcore.report.readings.history import NOTHING_APPLIED
from riskcore.report.readings.remediation import POPULATION_FIRST
from riskcore.report.readings.work import table_download_label
from riskcore.workguard import WorkTooLongError, memory_message
from ui.core import cached, formats, keyfile, keys, memory, people, remediation, work
from ui.core import profile as session_profile
from ui.core.context import context, end_page, person_caution
from ui.core.safe import file_stem, md
from ui.widgets.remediate import history
from ui.widgets.remediate.candidates import candidates_section
from ui.widgets.remediate.hierarchy_builder import hierarchy_editor
from ui.widgets.remediate.identifiers import identifiers_tab, safe_harbor_tab
from ui.widgets.remediate.perturb import in_use_verdict, perturb_tab
from ui.widgets.remediate.steering import steering_editor
from ui.widgets.remediate.utility import utility_section
from ui.widgets.targets import targets_editor

st.title("Remediate")
ctx = context(as_recorded=True)
if ctx is None:  # no table: context() has said why
    end_page()
qis = ctx.roles.quasi_identifiers
sens = ctx.roles.sensitive
person = people.person(ctx)  # with one, the search, k and suppression count people
if person is not None:
    people.unit_line(cached.people_count(ctx.key, ctx.encoded, person), ctx.table.n_rows, person)
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
secret = keyfile.ensure(needs_key)  # in this session's memory only (ui.core.keyfile)
key_unsaved = secret is not None and keyfile.pending()  # keyed tables wait for the key file

history.panel(ctx)  # every step applied, undo / redo / go back, the recipe and the script
tab_gen, tab_sh, tab_id, tab_pert = st.tabs(
    ["Generalize and suppress", "HIPAA Safe Harbor", "Direct identifiers", "Perturb"]
)


def generalization() -> None:
    """The generalization tab: targets, hierarchies, the search, levels, use and export."""
    if not qis:
        st.info("Tag at least one quasi-identifier on the Data page to generalize it.")
        return
    st.write(md(remediation_intro(len(qis))))

    with st.expander("Targets (the same on every page)", expanded=True):
        targets_editor(page="remediate", sensitive=sens, person=person)
    # the session's profile: its targets, missing-value policy, distances and population model
    prof = session_profile.current(ctx, with_recipe=False)
    targets = prof.targets
    profile_key = prof.cache_key  # without a recipe: the lattice's cache key
    specs: dict = store.setdefault("hier", {})  # QI -> Hierarchy.recipe() of the user's own
    specs_json = json.dumps(specs, sort_keys=True)
    hierarchies = cached.hierarchies(ctx.key, ctx.table, qis, specs_json)

    with st.expander("Hierarchies: how each quasi-identifier can be generalized"):
        hierarchy_editor(ctx.table.data, list(qis), hierarchies, specs, store)

    # ------------------------------------------------------------------ the search
    st.subheader("Least information loss")
    with st.expander("Steer the search: objective, weights and level bounds per column"):
        objective, steering, refused = steering_editor(qis, hierarchies)
    if refused is not None:
        st.error(md(f"The steering is not used: {refused}"))
    steering_json = json.dumps(steering.to_dict(), sort_keys=True)
    pop = st.session_state.get(keys.POP_MATCHED)  # k-map / delta-presence: Records page
    pop = pop if pop is not None and pop["for"] == ctx.dataset_key else None
    try:
        lattice = cached.lattice(
            ctx.key, ctx.encoded, hierarchies, qis, profile_key, prof, specs_json, steering_json,
            pop["key"] if pop else "", pop["table"] if pop else None,
        )  # fmt: skip
    except RiskcoreError as exc:  # e.g. more nodes than the search's stated limit
        st.error(md(exc))
        if targets.needs_population_table and pop is None:
            st.info(md(POPULATION_FIRST))
        end_page()
    lattice_key = f"{ctx.key}|{qis}|{profile_key}|{specs_json}|{steering_json}|{objective}"
    found = cached.searched(lattice_key)
    if st.button("Find the least-loss generalization", type="primary", key=keys.REM_SEARCH):
        try:
            found = cached.lattice_search(lattice_key, lattice, objective)
        except WorkTooLongError as exc:  # past its time budget: say so, keep the page
            st.error(md(exc))
        except MemoryError:  # past the server's memory ceiling (riskcore.workguard)
            st.error(md(memory_message(memory.ceiling())))
        if found is not None and found.best is not None:
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
        candidates_section(
            ctx.table.data, lattice, found, hierarchies, store, lattice_key=lattice_key,
            threshold=prof.threshold,
            apply=functools.partial(history.apply_levels, ctx,
                                    specs={q: hierarchies[q].recipe() for q in qis},
                                    objective=objective,
                                    steering={} if steering.empty else steering.to_dict()),
        )  # fmt: skip

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
    m2.metric(  # people with their rows, with a person column
        "Records suppressed" if person is None else "People suppressed",
        f"{after.suppressed:,}",
        md(suppressed_share(after.suppressed, n, after.suppressed_rows)),
        **quiet,
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
        release = in_use_verdict(ctx)  # perturbed after the levels: its blanks count too
        if release is not None and (remediation.active(ctx.key) or {}).get("perturb"):
            (st.success if release.passed else st.error)(
                md(verdict_reading(release, of="the table in use (perturbed after its levels)"))
            )
        person_caution(ctx)  # a person column, none tagged: the verdict counted rows
    st.markdown(md(node_reading(before, after, n, recorded.success_rate, person=person,
                                n_rows=lattice.n_rows)))  # fmt: skip
    st.dataframe(node_table(recorded, after, targets.k_required), hide_index=True)
    utility_section(ctx.table.data, lattice, levels, lattice_key=lattice_key, sensitive=sens)

    # ------------------------------------------------------------------ use and export
    st.subheader("Use and export")
    # what every page assesses, the report files and the downloads hold: the recipe of the
    # history's applied steps (never the key, only its check value)
    now = remediation.history(ctx.key)
    try:
        full = history.folded(ctx, now)
    except RiskcoreError as exc:  # keyed steps without the key (after a reload)
        st.info(md(f"The table waits for the key: {exc}"))
        full = None
    in_use = remediation.active(ctx.key)
    chosen = dict(zip(qis, levels, strict=True))
    specs_now = {q: hierarchies[q].recipe() for q in qis}
    in_full = {} if full is None else dict(zip(full.quasi_identifiers, full.levels, strict=True))
    same = full is not None and all(
        in_full.get(q) == lv and full.hierarchies.get(q) == specs_now[q] for q, lv in chosen.items()
    )
    if st.button(
        "Apply these levels (a step in the history)",
        type="primary",
        disabled=not after.anonymous or same,
        key=keys.REM_USE,
    ):
        best = found.best.levels if found is not None and found.best is not None else None
        searched = best is not None and tuple(levels) == tuple(best)  # its result applied
        # the steering goes with levels within its bounds (none for levels picked outside)
        within = all(lo <= lv <= hi for lv, (lo, hi) in zip(levels, lattice.bounds, strict=True))
        history.apply_levels(ctx, chosen, specs_now, objective=objective if searched else None,
                             steering=steering.to_dict() if within and not steering.empty
                             else {})  # fmt: skip
        st.rerun()
    if in_use is not None:
        st.info(md(generalized_in_use(same=same, levels_differ=not same)))

    recipe_out = full if full is not None else history.base(ctx, now)  # no step: the start

    def _generalized():
        return cached.applied(
            ctx.key, ctx.table.data, json.dumps(full.to_dict(), sort_keys=True), secret
        ).data

    downloads = [
        ("Download the generalized table (CSV)", lambda: to_csv_bytes(_generalized()), "csv",
         "text/csv"),
        ("Download it as Excel (.xlsx)", lambda: to_xlsx_bytes(_generalized()), "xlsx",
         "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        ("Download the recipe (JSON)", lambda: json.dumps(recipe_out.to_dict(), indent=2), "json",
         "application/json"),
    ]  # fmt: skip
    if full is not None:  # a table download that would carry raw identifiers says so
        remediation.raw_identifiers_warning(ctx, full)
    # what the table downloads hold: the applied steps' levels (the levels shown before any)
    released, passes = n - after.suppressed, after.anonymous  # an empty table: a header alone
    if (
        full is not None
        and full.quasi_identifiers == tuple(qis)
        and all(full.hierarchies[q] == specs_now[q] for q in qis)
    ):
        applied = cached.node(ctx.key, lattice, lattice_key, tuple(full.levels))
        released, passes = n - applied.suppressed, applied.anonymous
    elif full is not None and not full.quasi_identifiers:  # no generalization: no record suppressed
        released, passes = n, bool(recorded.anonymous)
    release = in_use_verdict(ctx)  # the table in use, perturbed: the one verdict
    if full is not None and release is not None:
        released, passes = release.released, release.passed
    for col, (label, data, ext, mime) in zip(st.columns(3), downloads, strict=True):
        name = f"{stem()}_recipe.json" if ext == "json" else f"{stem()}_generalized.{ext}"
        table = ext != "json"
        col.download_button(
            md(table_download_label(label, released=released, passes=passes,
                                    key_unsaved=key_unsaved) if table else label),
            data,
            file_name=name,
            mime=mime,
            on_click="ignore",
            key=keys.rem_download(ext),
            disabled=table and (full is None or released <= 0 or key_unsaved),
            wrap=True,  # the label says what the file holds: never cut
        )  # fmt: skip
    if full is None:
        st.caption(md(NOTHING_APPLIED))
        return
    with st.expander("What the recipe records"):
        st.dataframe(recipe_table(full), hide_index=True)
    st.caption(md(
        "The table and the recipe hold the history's applied steps (the Direct identifiers "
        "tab's choices too). The CSV is formula-safe and the Excel file has no live formula. "
        "The recipe re-applies to next month's data: riskcore apply DATA --recipe RECIPE.json "
        "--out OUT.csv"
        + (
            f" --key-file KEY (the key file downloaded or uploaded on the Direct identifiers "
            f"tab, check value {key_check(secret)})"
            if secret
            else ""
        )
    ))  # fmt: skip


def stem() -> str:
    """Return a file-name stem from the table's name."""
    return file_stem(ctx.table.name)


with tab_gen:
    generalization()
with tab_sh:
    safe_harbor_tab(ctx)
with tab_id:
    identifiers_tab(ctx, shift, secret, needs_key=needs_key, key_unsaved=key_unsaved)
with tab_pert:
    perturb_tab(ctx)
