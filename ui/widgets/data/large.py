"""The Data page's "assess a large file by path": an engine reads it where it lies.

Off unless the server's operator sets ``RISKCORE_DATA_ROOT`` to a data
directory: then a path or glob inside it is assessed by a streaming engine
(Arrow for Parquet, DuckDB for CSV) without uploading it or loading it into
memory. Only class-based figures are computed (k, risk, l, t); per-record
measures, the remediation lattice and the other pages need the table in
memory (an upload).
"""

from __future__ import annotations

import os

import streamlit as st

from riskcore.engine.select import open_engine, path_under_root, resolve_engine
from riskcore.errors import RiskcoreError
from riskcore.metrics import Assessment, assess
from riskcore.report.readings import large_file_facts, large_file_intro
from riskcore.report.summary import assessment_text
from ui.core import keys
from ui.core.safe import md

ROOT_ENV = "RISKCORE_DATA_ROOT"


def data_root() -> str | None:
    """Return the data directory the operator allowed, or None (the feature is off)."""
    root = os.environ.get(ROOT_ENV, "").strip()
    return root if root and os.path.isdir(root) else None


@st.cache_resource(scope="session", max_entries=4, show_spinner=False)
def _columns(path: str, engine: str) -> tuple[str, tuple[str, ...], int]:
    eng = open_engine(path, engine)
    return eng.name, tuple(eng.columns), eng.n_records


@st.cache_resource(
    scope="session", max_entries=4, show_spinner="Assessing the file where it lies ..."
)
def _assess(
    path: str, engine: str, qis: tuple[str, ...], sensitive: tuple[str, ...], threshold: float
) -> Assessment:
    return assess(
        open_engine(path, engine),
        quasi_identifiers=qis,
        sensitive=sensitive,
        threshold=threshold,
    )


def large_file_panel(threshold: float) -> None:
    """Draw the expander, when the operator allowed a data directory."""
    root = data_root()
    if root is None:
        return
    with st.expander("Assess a large file by path (on this server)"):
        st.caption(md(large_file_intro(root)))
        spec = st.text_input(
            "File, directory or glob inside the data directory", key=keys.LARGE_PATH
        )
        engine = st.selectbox(
            "Engine", ["auto", "arrow", "duckdb"], key=keys.LARGE_ENGINE,
            help="auto: Parquet streamed by Arrow, CSV by DuckDB (files under 1 GiB in memory)",
        )  # fmt: skip
        if not spec:
            return
        try:
            path = path_under_root(spec, root)
            name = resolve_engine(path, engine)
            used, columns, n = _columns(path, name)
        except RiskcoreError as exc:
            st.error(md(exc))
            return
        st.caption(md(large_file_facts(n, len(columns), used)))
        qis = st.multiselect("Quasi-identifiers", list(columns), key=keys.LARGE_QIS)
        rest = [c for c in columns if c not in qis]
        sens = st.multiselect("Sensitive attributes", rest, key=keys.LARGE_SENS)
        if not qis or not st.button("Assess the file", key=keys.LARGE_GO):
            return
        try:
            result = _assess(path, name, tuple(qis), tuple(sens), float(threshold))
        except RiskcoreError as exc:
            st.error(md(exc))
            return
        st.code(assessment_text(result), language=None, wrap_lines=True)
