"""The Remediate page's hierarchies: the builder panel, an ARX upload, the table to edit.

For the quasi-identifier chosen, the builder panel offers ARX's wizards (bands of
numbers, dates, codes masked or cut, groups of categories); every candidate is
built by riskcore (:func:`~riskcore.deidentify.hierarchy.hierarchy_from_spec`) and
previewed (:func:`~riskcore.deidentify.hierarchy.level_groups.preview`: the groups of each
level and their sizes) before "Use this hierarchy" makes it the one the levels and the search use.
The recipe keeps its spec (rebuilt on new data); the download is ARX's CSV.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from riskcore.deidentify.hierarchy import (
    DATE_LEVELS,
    Hierarchy,
    builder_string,
    detect_date_format,
    hierarchy_from_spec,
    hierarchy_from_table,
    load_arx_hierarchy,
    parse_builder,
    preview,
)
from riskcore.errors import RiskcoreError
from riskcore.report.readings import hierarchy_heading
from riskcore.report.readings.hierarchy import (
    BUILDER_INTRO,
    BUILDER_KIND_LABELS,
    CODE_WAY_LABELS,
    DATE_LEVEL_LABELS,
    LABEL_STYLE_LABELS,
    cli_equivalent,
    date_format_reading,
    preview_reading,
)
from ui.core import keys
from ui.core.safe import file_part, md

__all__ = ["EDIT_ROWS", "hierarchy_editor", "use_hierarchy"]

#: Hierarchies up to this many values are edited in the page; larger ones are downloaded,
#: edited elsewhere and uploaded.
EDIT_ROWS = 2_000


def use_hierarchy(q: str, specs: dict, spec: dict | None, store: dict) -> None:
    """Make ``spec`` the hierarchy of ``q`` (None: the default), level 0, fresh widgets."""
    if spec is None:
        specs.pop(q, None)
    else:
        specs[q] = spec
    store[f"level_{q}"] = 0
    st.session_state.pop(keys.rem_level(q), None)
    store["hier_ver"] = store.get("hier_ver", 0) + 1
    st.rerun()


def _first_kind(h: Hierarchy, series: pd.Series) -> str:
    if h.kind in ("interval", "date", "prefix"):
        return h.kind
    if pd.api.types.is_numeric_dtype(series.dtype) and not pd.api.types.is_bool_dtype(series.dtype):
        return "interval"
    if pd.api.types.is_datetime64_any_dtype(series.dtype) or detect_date_format(series):
        return "date"
    return "grouping"


def _numbers(values: Any) -> str:
    return ",".join(f"{float(v):g}" for v in values)


def _interval_spec(q: str, h: Hierarchy, ver: int) -> dict | None:
    p = dict(h.params or {}) if h.kind == "interval" else {}
    c1, c2 = st.columns(2)
    widths = c1.text_input(
        "Band width at each level (each a multiple of the one before)",
        value=_numbers(p.get("widths") or [5, 10, 20]),
        key=keys.rem_builder(q, "widths", ver),
    )
    start = c2.number_input(
        "Start offset (a band starts here)", value=float(p.get("start") or 0.0),
        key=keys.rem_builder(q, "start", ver),
    )  # fmt: skip
    b1, b2, b3 = st.columns(3)
    bottom = b1.number_input("Bottom coding: below", value=p.get("bottom"), placeholder="none",
                             key=keys.rem_bottom(q, ver))  # fmt: skip
    top = b2.number_input("Top coding: at or above", value=p.get("top"), placeholder="none",
                          key=keys.rem_top(q, ver))  # fmt: skip
    labels = b3.radio(
        "Labels", list(LABEL_STYLE_LABELS), format_func=lambda k: md(LABEL_STYLE_LABELS[k]),
        index=list(LABEL_STYLE_LABELS).index(p.get("labels") or "auto"), horizontal=True,
        key=keys.rem_builder(q, "labels", ver),
    )  # fmt: skip
    spec = parse_builder("interval:" + widths)
    if spec is None:  # pragma: no cover - "interval:" always names the kind
        return None
    spec["params"].update(start=float(start), bottom=bottom, top=top)
    if labels != "auto":
        spec["params"]["labels"] = labels
    return spec


def _date_spec(q: str, h: Hierarchy, series: pd.Series, ver: int) -> dict:
    stored = bool(pd.api.types.is_datetime64_any_dtype(series.dtype))
    st.info(md(date_format_reading(q, None if stored else detect_date_format(series),
                                   stored_as_dates=stored)))  # fmt: skip
    p = dict(h.params or {}) if h.kind == "date" else {}
    chosen = st.multiselect(
        "Levels, fine to coarse (the top, *, is added)",
        list(DATE_LEVELS),
        default=list(p.get("levels") or ["month", "year", "decade"]),
        format_func=DATE_LEVEL_LABELS.__getitem__,
        key=keys.rem_builder(q, "levels", ver),
    )
    return {"kind": "date", "params": {"levels": sorted(chosen, key=DATE_LEVELS.index)}}


def _mask_spec(q: str, h: Hierarchy, ver: int) -> dict | None:
    p = dict(h.params or {}) if h.kind == "prefix" else {}
    ways = list(CODE_WAY_LABELS)
    way = "keep" if p.get("keep") else str(p.get("side") or "right")
    way = st.radio("Codes", ways, format_func=lambda k: md(CODE_WAY_LABELS[k]),
                   index=ways.index(way), horizontal=True,
                   key=keys.rem_builder(q, "way", ver))  # fmt: skip
    width = int(p.get("width") or max((len(str(v)) for v in h.leaves), default=1))
    if way == "keep":
        kept = p.get("keep") or [n for n in (5, 3) if n < width] or [1]
        counts = st.text_input(
            "Characters kept from the left at each level (ZIP5 or ZIP+4 to ZIP5, then ZIP3: 5,3)",
            value=",".join(str(int(n)) for n in kept),
            key=keys.rem_builder(q, "kept", ver),
        )
        return parse_builder("keep:" + counts)
    default = p.get("masked") or list(range(1, max(width, 2)))
    counts = st.text_input(
        "Characters masked from the left at each level"
        if way == "left"
        else "Characters masked from the right at each level (ZIP5 to ZIP3 is 2)",
        value=",".join(str(int(m)) for m in default),
        key=keys.rem_builder(q, "masked", ver),
    )
    return parse_builder("mask:" + counts + (";from=left" if way == "left" else ""))


def _grouping_spec(q: str, h: Hierarchy, series: pd.Series, ver: int) -> dict | None:
    if len(h.leaves) > EDIT_ROWS:
        st.caption(f"{len(h.leaves):,} values: too many to group here; download, edit and "
                   "upload the ARX file below.")  # fmt: skip
        return None
    depth = int(st.number_input("Levels of groups", min_value=1, max_value=4,
                                value=max(min(h.height - 1, 4), 1),
                                key=keys.rem_builder(q, "depth", ver)))  # fmt: skip
    frame = h.to_frame(sort=True).astype(str)
    table = pd.DataFrame({"value": frame["level 0"]})
    for i in range(1, depth + 1):  # the current labels where the hierarchy has the level
        table[f"level {i}"] = frame[f"level {i}"] if i < h.height else frame["level 0"]
    st.caption("Write each value's group at every level (the same group name places values "
               "together); the top, *, is added.")  # fmt: skip
    edited = st.data_editor(table, hide_index=True, disabled=["value"], num_rows="fixed",
                            key=keys.rem_builder(q, f"groups{depth}", ver))  # fmt: skip
    edited = edited.assign(top="*")
    return hierarchy_from_table(edited, series).recipe()


def builder_panel(q: str, h: Hierarchy, series: pd.Series, specs: dict, store: dict) -> None:
    """The builder of ``q``'s hierarchy: kind, parameters, the preview, use and download."""
    ver = store.get("hier_ver", 0)
    st.caption(BUILDER_INTRO)
    kinds = list(BUILDER_KIND_LABELS)
    kind = st.radio("Kind of hierarchy", kinds, format_func=lambda k: md(BUILDER_KIND_LABELS[k]),
                    index=kinds.index(_first_kind(h, series)), horizontal=True,
                    key=keys.rem_builder(q, "kind", ver))  # fmt: skip
    try:
        if kind == "interval":
            spec = _interval_spec(q, h, ver)
        elif kind == "date":
            spec = _date_spec(q, h, series, ver)
        elif kind == "prefix":
            spec = _mask_spec(q, h, ver)
        else:
            spec = _grouping_spec(q, h, series, ver)
        if spec is None:
            return
        built = hierarchy_from_spec(series, spec)
    except RiskcoreError as exc:
        st.error(md(exc))
        return
    shown = preview(built, series)
    st.markdown(md(preview_reading(shown)))
    st.dataframe(
        shown.summary(),
        hide_index=True,
        column_config={"what it does": st.column_config.TextColumn(width="large")},
    )
    level = st.selectbox(
        "Groups of level", list(range(built.height + 1)),
        format_func=lambda lv: f"{lv}: {shown.levels[lv].words}",
        index=min(1, built.height), key=keys.rem_builder(q, "level", ver),
    )  # fmt: skip
    st.dataframe(shown.groups(int(level)), hide_index=True, height=240)
    cli = cli_equivalent(q, builder_string(spec))
    if cli is not None:
        st.caption("The same hierarchy on the command line (riskcore anonymize):")
        st.text(cli)  # text, not a code block: the page prints no code (no key is ever shown)
    u1, u2 = st.columns(2)
    if u1.button("Use this hierarchy", type="primary", key=keys.rem_builder(q, "use", ver)):
        use_hierarchy(q, specs, spec, store)
    u2.download_button(
        md(f"Download this hierarchy of {q} (ARX CSV)"),
        built.to_arx_csv(),
        file_name=f"hierarchy_{file_part(q)}.csv",
        mime="text/csv",
        on_click="ignore",
        key=keys.rem_builder(q, "download", ver),
    )


def hierarchy_editor(
    table: pd.DataFrame, qis: list[str], hierarchies: dict, specs: dict, store: dict
) -> None:
    """One QI's hierarchy: the builder, an ARX upload, the table to edit, a download.

    Every user hierarchy is checked by riskcore before it is used.

    Parameters
    ----------
    table : pandas.DataFrame
        The data as recorded.
    qis : list of str
    hierarchies : dict
        QI -> the hierarchy in use.
    specs : dict
        QI -> the recipe spec of the user's own hierarchy (updated here).
    store : dict
        The page's store (levels, the widgets' version).
    """
    st.caption(
        "A hierarchy gives each value its label at every level; the search and the levels "
        "below use these. Build one, bring your own in ARX's format (one row per value: "
        "value;level 1;...;*), or edit the labels in the table."
    )
    q = st.selectbox("Quasi-identifier", list(qis), key=keys.REM_HIERARCHY_QI)
    h = hierarchies[q]
    series = table[q]
    ver = store.get("hier_ver", 0)
    st.text(hierarchy_heading(h, own=q in specs))
    with st.container(border=True):
        builder_panel(q, h, series, specs, store)
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
            use_hierarchy(q, specs, loaded.recipe(), store)
    if len(h.leaves) > EDIT_ROWS:
        st.caption(f"{len(h.leaves):,} values: too many to edit here; download, edit and upload.")
        st.dataframe(h.to_frame().head(8).astype(str), hide_index=True)
    else:
        with st.expander("Edit the labels of the hierarchy in use"):
            _table_editor(q, h, series, specs, store, ver)
    d1, d2 = st.columns(2)
    d1.download_button(
        md(f"Download the hierarchy of {q} in use (ARX CSV)"),
        h.to_arx_csv,  # written on click
        file_name=f"hierarchy_{file_part(q)}.csv",
        mime="text/csv",
        on_click="ignore",
        key=keys.rem_hierarchy_download(q),
    )
    if q in specs and d2.button(
        "Go back to the default hierarchy", key=keys.rem_hierarchy_reset(q)
    ):
        use_hierarchy(q, specs, None, store)


def _table_editor(
    q: str, h: Hierarchy, series: pd.Series, specs: dict, store: dict, ver: int
) -> None:
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
            if st.button("Use the edited hierarchy", type="primary", key=keys.rem_use_edited(q)):
                use_hierarchy(q, specs, mine.recipe(), store)
