"""The Remediate page's candidate solutions: the search's anonymous nodes, filtered, sorted,
two compared side by side, and either put in the level controls.

riskcore computes everything (:mod:`riskcore.deidentify.search.candidates`); the sentences come
from :mod:`riskcore.report.readings.candidates`. Results are kept in session state
(:data:`ui.core.keys.REM_WORKBENCH`, a few entries), not in a cache: the search result they
read is kept there too (:func:`ui.core.cached.remediation.lattice_search`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import streamlit as st

from riskcore.deidentify.hierarchy import Hierarchy
from riskcore.deidentify.search.candidates import (
    CandidateTable,
    candidate_table,
    compare_candidates,
)
from riskcore.deidentify.search.lattice import Lattice
from riskcore.deidentify.search.run import SearchResult
from riskcore.errors import RiskcoreError
from riskcore.io.export import to_csv_bytes
from riskcore.report.figures.utility import column_ncp_bars
from riskcore.report.readings.candidates import (
    candidate_columns_shown,
    candidate_display,
    candidate_level_help,
    candidates_reading,
    comparison_reading,
    comparison_table,
)
from ui.core import formats, keys
from ui.core.safe import md
from ui.core.tables import fitted

__all__ = ["candidates_section", "kept"]

T = TypeVar("T")

#: Results kept per kind (the latest first out).
KEEP = 4


def kept(name: str, key: str, compute: Callable[[], T], *, keep: int = KEEP) -> T:
    """Return ``compute()`` kept in the session under ``name`` and ``key`` (the last ``keep``
    entries of that name: 1 for a whole table)."""
    box: dict[str, dict[str, Any]] = st.session_state.setdefault(keys.REM_WORKBENCH, {})
    entries = box.setdefault(name, {})
    if key not in entries:
        while len(entries) >= keep:
            entries.pop(next(iter(entries)))
        entries[key] = compute()
    value: T = entries[key]
    return value


def _use_levels(
    qis: Sequence[str],
    levels: Sequence[int],
    store: dict,
    apply: Callable[[dict[str, int]], object] | None = None,
) -> None:
    """Put ``levels`` in the level controls, as the search's button does, and apply them as
    one step of the history when ``apply`` is given (a callback)."""
    for q, lv in zip(qis, levels, strict=True):
        st.session_state[keys.rem_level(q)] = int(lv)
        store[f"level_{q}"] = int(lv)
    if apply is not None:
        apply({q: int(lv) for q, lv in zip(qis, levels, strict=True)})


def _label(table: CandidateTable, i: int) -> str:
    """Return "#2: levels 3 / 2 / 0": the row number of the table and the levels in the order
    of its columns (short, so that eight QIs fit at 1024 px)."""
    row = table.rows[i]
    levels = " / ".join(str(lv) for lv in row.levels)
    return f"#{i + 1}: levels {levels}" + (" (search's choice)" if row.best else "")


def candidates_section(
    data: Any,
    lattice: Lattice,
    found: SearchResult,
    hierarchies: Mapping[str, Hierarchy],
    store: dict,
    *,
    lattice_key: str,
    threshold: float,
    apply: Callable[[dict[str, int]], object] | None = None,
) -> None:
    """Draw the candidate table (filters, sort), the comparison of two and their "apply" buttons.

    ``data`` is the table the lattice was built from (the comparison's sample rows);
    ``apply`` records a candidate's levels as a step of the history
    (:mod:`ui.widgets.remediate.history`).
    """
    qis = list(found.quasi_identifiers)
    st.subheader("Candidate solutions")
    st.caption(
        "Every combination of levels the search evaluated that meets the targets. Filter "
        "the levels a column may take (keep the year of birth: its highest level below "
        "the year's), sort by any column, and compare two side by side."
    )
    filters: dict[str, tuple[int, int]] = {}
    cols = st.columns(min(len(qis), 4))
    for i, q in enumerate(qis):
        h = hierarchies[q]
        lo, hi = cols[i % len(cols)].select_slider(
            md(f"Levels of {q}"),
            options=list(range(h.height + 1)),
            value=(0, h.height),
            format_func=functools.partial(formats.level_of, h.height),
            key=keys.rem_cand_filter(q),
        )
        if (int(lo), int(hi)) != (0, h.height):
            filters[q] = (int(lo), int(hi))
    fkey = f"{lattice_key}|{json.dumps(filters, sort_keys=True)}|{threshold}|{found.evaluated}"
    try:
        table = kept(
            "candidates",
            fkey,
            lambda: candidate_table(
                found, hierarchies, lattice=lattice, threshold=threshold, filters=filters
            ),
        )
    except RiskcoreError as exc:
        st.error(md(exc))
        return
    st.write(md(candidates_reading(table)))
    if not table.rows:
        return
    people = lattice.person is not None  # the lattice's classes count people
    # the words: each header's tooltip
    every = candidate_display(table, levels="numbers", people=people)
    picked = st.multiselect(
        "Columns shown (sorting and the download use every column)",
        list(every.columns),
        default=candidate_columns_shown(every),
        key=keys.REM_CAND_COLUMNS,
    )
    s1, s2 = st.columns([3, 1])
    by = s1.selectbox("Sort by", list(every.columns), index=None, key=keys.REM_CAND_SORT,
                      placeholder="least loss first")  # fmt: skip
    desc = s2.toggle("Highest first", key=keys.REM_CAND_DESC)
    order = list(range(len(every)))
    if by is not None:
        every = every.sort_values(by, ascending=not desc, kind="stable", na_position="last")
        order = [int(i) for i in every.index]
    every.index = [i + 1 for i in every.index]  # the row numbers the comparison names
    shown = every.reset_index(names="#")[["#", *[c for c in every.columns if c in picked]]]
    pct = st.column_config.NumberColumn(format="percent")
    shares = ("average risk", "NCP", "precision loss", "ARX Loss (mean)", "ARX Loss (geometric)")
    config: dict[str, Any] = {c: pct for c in shares if c in shown.columns}
    if "search's choice" in shown.columns:  # its header was cut at 1400 px (issue 38)
        config["search's choice"] = st.column_config.TextColumn(
            "chosen", help="The search's choice: the least loss that meets the targets."
        )
    for c, short in (("people suppressed", "suppressed"), ("people at risk", "at risk")):
        if c in shown.columns:  # short headers (cut at 1400 px), the unit in the tooltip
            config[c] = st.column_config.NumberColumn(md(short), help=md(c))
    for q, text in candidate_level_help(table).items():
        if q in shown.columns:
            config[q] = st.column_config.NumberColumn(help=md(text), format="%d")
    st.dataframe(shown, hide_index=True, column_config=fitted(shown, config, min_px=50),
                 height=min(38 + 35 * len(shown), 420))  # fmt: skip
    # the download: levels in words, same order
    worded = candidate_display(table, people=people).loc[order]
    worded.index = every.index
    st.download_button(
        "Download every candidate (CSV)",
        lambda: to_csv_bytes(worded.reset_index(names="#")),
        file_name="candidates.csv",
        mime="text/csv",
        key=keys.REM_CAND_DOWNLOAD,
    )
    if len(table.rows) < 2:
        st.caption("One candidate: nothing to compare it with.")
        labels = [_label(table, order[0])]
    else:
        labels = [_label(table, i) for i in order]
    c1, c2 = st.columns(2)
    a_label = c1.selectbox("Candidate A", labels, index=0, key=keys.REM_CAND_A)
    b_label = c2.selectbox("Candidate B", labels, index=min(1, len(labels) - 1),
                           key=keys.REM_CAND_B)  # fmt: skip
    a = table.rows[order[labels.index(a_label)] if a_label in labels else 0]
    b = table.rows[order[labels.index(b_label)] if b_label in labels else 0]
    c1.button("Apply A's levels", key=keys.REM_CAND_USE_A, on_click=_use_levels,
              args=(qis, a.levels, store, apply))  # fmt: skip
    c2.button("Apply B's levels", key=keys.REM_CAND_USE_B, on_click=_use_levels,
              args=(qis, b.levels, store, apply))  # fmt: skip
    cmp = kept(
        "comparison",
        f"{lattice_key}|{a.levels}|{b.levels}|{threshold}",
        lambda: compare_candidates(lattice, data, a.levels, b.levels, threshold=threshold),
    )
    people = lattice.person is not None  # the lattice's classes count people
    st.markdown(md(comparison_reading(cmp, people=people)))
    side = comparison_table(cmp, people=people)
    st.dataframe(side, hide_index=True, column_config=fitted(side), height=420)
    st.plotly_chart(column_ncp_bars(cmp), key=keys.REM_CAND_CHART)
    st.caption("The same released records as recorded and under A and B (row: the file's row "
               "number, the first data row is 1):")  # fmt: skip
    sample = cmp.sample.astype(str)
    row = [c for c in sample.columns if c == "row"]
    for tab, suffix in zip(st.tabs(["As recorded", "Under A", "Under B"]), ("", " (A)", " (B)"),
                           strict=True):  # fmt: skip
        part = sample[[*row, *(q + suffix for q in qis if q + suffix in sample.columns)]]
        tab.dataframe(part, hide_index=True, column_config=fitted(part))
