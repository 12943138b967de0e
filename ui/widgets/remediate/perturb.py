"""The Remediate page's Perturb tab: every method of the registry, run as one step.

The tab offers each method of :data:`riskcore.perturb.steps.METHODS` (local suppression,
microaggregation, PRAM and noise have controls of their own; a method registered there
without any gets its columns, its parameters as JSON and its seed), builds a
:class:`~riskcore.perturb.steps.PerturbStep` and runs it through the registry
(:func:`~riskcore.perturb.steps.run_step`), scored by what the method is (it blanks cells,
randomizes by a matrix or changes numbers).

Every method works on the table in use (:func:`in_use_table`: the release the history's
applied steps give, the generalization's among them), and the release is judged by its one
verdict (:func:`in_use_verdict`): the records (people) the generalization removed and those
local suppression blanked count toward the targets' suppression limit. Each method shows
its one-line strength and weakness (``riskcore.report.readings.perturb``), runs on a click
as one step of the page's history (:mod:`ui.widgets.remediate.history`: the table every page sees is
perturbed too), and is re-scored at once: records below k (a blank matching any value)
for local suppression, dRisk and IL1s for numeric columns, the matrix for PRAM.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from riskcore.criteria import Verdict
from riskcore.errors import RiskcoreError
from riskcore.io.export import to_csv_bytes
from riskcore.perturb import default_importance, k_verdict, numeric_risk_utility
from riskcore.perturb.steps import METHODS, PerturbStep, get_method, record_step, run_step
from riskcore.report.readings.criteria import verdict_reading
from riskcore.report.readings.perturb import (
    IN_USE_NOTE,
    PERTURB_INTRO,
    PRAM_MATRIX_CAPTION,
    method_notes,
    numeric_table,
    perturb_lines,
    suppression_reading,
)
from riskcore.report.readings.work import table_download_label
from riskcore.workguard import Deadline, memory_message, time_limit
from ui.core import cached, keys, memory, remediation
from ui.core import profile as session_profile
from ui.core.context import Context
from ui.core.safe import file_stem, md
from ui.widgets.remediate import history

__all__ = ["in_use_table", "in_use_verdict", "method_choices", "perturb_tab"]


def _numeric(data: pd.DataFrame) -> list[str]:
    return [
        str(c)
        for c in data.columns
        if pd.api.types.is_numeric_dtype(data[c].dtype)
        and not pd.api.types.is_bool_dtype(data[c].dtype)
    ]


def in_use_table(ctx: Context) -> pd.DataFrame:
    """Return the table in use: the release of the history's applied steps (keyed steps left
    out, as every page assesses it), or the table as recorded before any step.

    Parameters
    ----------
    ctx : Context
        The Remediate page's context (the table as recorded).

    Returns
    -------
    pandas.DataFrame
    """
    recipe = remediation.active(ctx.key)
    if recipe is None:
        return ctx.table.data
    view, _ = cached.remediated_view(
        remediation.after_key(ctx.key, recipe), remediation.recipe_json(recipe), ctx.table
    )
    return view.data


def in_use_verdict(ctx: Context) -> Verdict | None:
    """Return the one verdict of the table in use (None before a generalization is applied).

    Parameters
    ----------
    ctx : Context
        The context of the table as recorded.

    Returns
    -------
    Verdict or None
        :func:`ui.core.cached.release_verdict` of the history's recipe.
    """
    recipe = remediation.active(ctx.dataset_key or ctx.key)
    if recipe is None:
        return None
    table = ctx.recorded or ctx.table
    return cached.release_verdict(
        remediation.after_key(ctx.dataset_key or ctx.key, recipe),
        remediation.recipe_json(recipe),
        table,
    )


def _local_suppression(name: str, ctx: Context, data: pd.DataFrame) -> PerturbStep | None:
    """Local suppression's controls: k (the profile's by default) on the QIs."""
    qis = [q for q in ctx.roles.quasi_identifiers if q in data.columns]
    if not qis:
        st.info("Tag at least one quasi-identifier on the Data page.")
        return None
    target = session_profile.targets().find("k-anonymity")  # the profile's k by default
    first = max(2, min(1000, int(getattr(target, "k", 2))))
    k = int(st.number_input("k", 2, 1000, first, key=keys.rem_perturb("k")))
    imp = default_importance(data, qis)
    ranked = sorted(qis, key=lambda q: -imp[q])
    st.caption(
        md(f"Suppressed first to last (sdcMicro's default importance): {', '.join(ranked)}.")
    )
    params = {"k": k, "restore_cells": True, "lowest_last": True, "person": ctx.roles.person}
    return PerturbStep("perturbation", name, tuple(qis), params)


def _numeric_columns(name: str, ctx: Context, data: pd.DataFrame) -> list[str]:
    """The numeric columns a method changes (none when the table has none)."""
    numeric = _numeric(data)
    if not numeric:
        st.info("The table has no numeric column.")
        return []
    qis = [q for q in ctx.roles.quasi_identifiers if q in data.columns]
    default = [c for c in qis if c in numeric][:3] or numeric[:1]
    cols = st.multiselect("Numeric columns", numeric, default, key=keys.rem_perturb(f"{name}_cols"))
    return [str(c) for c in cols]


def _microaggregation(name: str, ctx: Context, data: pd.DataFrame) -> PerturbStep | None:
    """Microaggregation's controls: the numeric columns and the group size k."""
    cols = _numeric_columns(name, ctx, data)
    if not cols:
        return None
    k = int(st.number_input("Group size k", 2, 1000, 3, key=keys.rem_perturb("agg_k")))
    return PerturbStep("perturbation", name, tuple(cols), {"k": k, "method": "mdav"})


def _noise(name: str, ctx: Context, data: pd.DataFrame) -> PerturbStep | None:
    """Noise's controls: the numeric columns, the percentage and the seed."""
    cols = _numeric_columns(name, ctx, data)
    if not cols:
        return None
    pct = float(st.number_input("Noise, % of each column's standard deviation", 1.0, 1000.0,
                                150.0, key=keys.rem_perturb("pct")))  # fmt: skip
    seed = int(st.number_input("Seed", 0, 2**31 - 1, 0, key=keys.rem_perturb("noise_seed")))
    params = {"percent": dict.fromkeys(cols, pct), "seed": seed}
    return PerturbStep("perturbation", name, tuple(cols), params)


def _pram(name: str, ctx: Context, data: pd.DataFrame) -> PerturbStep | None:
    """PRAM's controls: a categorical column, pd and the seed."""
    numeric = _numeric(data)
    cats = [str(c) for c in data.columns if c not in numeric and data[c].nunique() <= 50]
    if not cats:
        st.info("No column has 50 categories or fewer.")
        return None
    col = st.selectbox("Categorical column", cats, key=keys.rem_perturb("pram_col"))
    pd_ = float(st.slider("pd: least diagonal of the basic matrix", 0.0, 1.0, 0.8, 0.05,
                          key=keys.rem_perturb("pd"), help=PD_HELP))  # fmt: skip
    seed = int(st.number_input("Seed", 0, 2**31 - 1, 0, key=keys.rem_perturb("pram_seed")))
    return PerturbStep("perturbation", name, (str(col),), {"pd": pd_, "seed": seed})


def _registered(name: str, ctx: Context, data: pd.DataFrame) -> PerturbStep | None:
    """The controls of a registered method the page has none of its own for: its columns
    (the numeric ones for a numeric method), its parameters as JSON and its seed."""
    method = get_method(name)
    options = _numeric(data) if method.numeric else [str(c) for c in data.columns]
    cols = st.multiselect("Columns", options, key=keys.rem_perturb(f"{name}_cols"))
    text = st.text_area("Parameters (JSON)", json.dumps(dict.fromkeys(method.required, 0)),
                        key=keys.rem_perturb(f"{name}_params"))  # fmt: skip
    try:
        params = json.loads(text)
    except ValueError:
        params = None
    if not isinstance(params, dict):
        st.error('Write the parameters as one JSON object, {"name": value, ...}.')
        return None
    if method.seeded:
        params["seed"] = int(st.number_input("Seed", 0, 2**31 - 1, 0,
                                             key=keys.rem_perturb(f"{name}_seed")))  # fmt: skip
    return PerturbStep("perturbation", name, tuple(map(str, cols)), params) if cols else None


#: The page's own controls of a method, in the order the tab offers them; a method of
#: :data:`~riskcore.perturb.steps.METHODS` without any gets :func:`_registered`'s.
_CONTROLS: dict[str, Callable[[str, Context, pd.DataFrame], PerturbStep | None]] = {
    "local_suppression": _local_suppression,
    "microaggregation": _microaggregation,
    "pram": _pram,
    "noise": _noise,
}


def method_choices() -> list[str]:
    """Return the methods the tab offers: every one of the registry, those with the page's
    own controls first.

    Returns
    -------
    list of str
        The names of :data:`riskcore.perturb.steps.METHODS`.
    """
    return [m for m in _CONTROLS if m in METHODS] + [m for m in METHODS if m not in _CONTROLS]


#: What to do when local suppression runs past the dashboard's time budget.
LOCAL_SUPPRESSION_ADVICE = (
    "use fewer quasi-identifiers or generalize them first (the Generalize tab), or run "
    "riskcore anonymize --local-suppression on the command line (the same budget, which "
    "RISKCORE_TIME_LIMIT=SECONDS raises there)"
)

#: What PRAM's pd is, and why the matrix applied can keep a value less often.
PD_HELP = (
    "sdcMicro's pd: each category's chance of staying itself in the basic matrix is drawn "
    "between pd and 1. The matrix applied mixes it with its backward matrix (so the "
    "frequencies are kept) and with the identity (alpha 0.5), so its diagonal, shown after "
    "the run, can fall below pd."
)


def before_people(data: pd.DataFrame, person: str | None) -> int:
    """Return the people of the table (each row with no person id one of them)."""
    from riskcore.attacks import people_count

    return people_count(data, person)


def _run(step: PerturbStep, data: pd.DataFrame) -> tuple[Any, list[str], Any, str | None]:
    """Run one step by its registered method; return its result, the sentences, the table
    to show (None for none) and the table's caption."""
    method = get_method(step.operation)
    progress = None
    if method.budgeted:  # past the dashboard's time budget it stops with a sentence
        label = method_notes(method.name)[0]
        progress = Deadline(time_limit(), label, LOCAL_SUPPRESSION_ADVICE).watch()
    res = run_step(data, step, progress=progress)
    if method.blanks:  # records below k judged by the criteria (a blank matches every value)
        qis, k, person = (
            list(step.columns),
            int(step.parameters["k"]),
            step.parameters.get("person"),
        )
        before, after = (k_verdict(t, qis, k, person=person).needed for t in (data, res.data))
        n = len(data) if res.people_touched is None else before_people(data, person)
        lines = [
            *perturb_lines([res]),
            suppression_reading(k, before, after, n, people=person is not None),
        ]
        shown = pd.DataFrame(
            {"Cells blanked": res.suppressed, "Missing before": res.missing_before}
        )
        return res, lines, shown, None
    if getattr(res, "matrix", None) is not None:  # a randomization matrix (PRAM)
        names = [str(c) for c in res.categories]
        matrix = pd.DataFrame(res.matrix, index=names, columns=names)
        return res, perturb_lines([res]), matrix, PRAM_MATRIX_CAPTION
    if method.numeric:
        cols = list(step.columns)
        before = numeric_risk_utility(data, data, cols)
        after = numeric_risk_utility(data, res.data, cols)
        table = pd.DataFrame(numeric_table(before, after))
        return res, perturb_lines([res], before, after), table, None
    return res, perturb_lines([res]), None, None


def perturb_tab(ctx: Context) -> None:
    """The Perturb tab: choose a method, see its strength and weakness, run it, see the scores."""
    st.write(PERTURB_INTRO)
    method = st.radio("Method", method_choices(), format_func=lambda m: md(method_notes(m)[0]),
                      horizontal=True, key=keys.REM_PERTURB_METHOD)  # fmt: skip
    _, strength, weakness = method_notes(method)
    st.caption(md(f"Strength: {strength}  \nWeakness: {weakness}"))
    data = in_use_table(ctx)  # every perturbation works on the table in use
    if data is not ctx.table.data:
        st.caption(md(IN_USE_NOTE))
    step = _CONTROLS.get(method, _registered)(method, ctx, data)
    if step is None:
        return
    done = st.session_state.get(keys.REM_PERTURB_RESULT)
    wanted = (ctx.key, step)
    if st.button("Perturb", key=keys.rem_perturb("run"), type="primary"):
        try:
            with st.spinner("Perturbing ..."):
                done = (wanted, *_run(step, data))
        except RiskcoreError as exc:  # a stated limit, or past the time budget
            st.error(md(str(exc)))
            return
        except MemoryError:  # past the server's memory ceiling (riskcore.workguard)
            st.error(md(memory_message(memory.ceiling())))
            return
        st.session_state[keys.REM_PERTURB_RESULT] = done
        # one step of the history: the table every page sees is perturbed too (re-applied
        # from the recipe with the same seed, on the table the steps before it give)
        history.record(ctx, "perturb", record_step(done[1]).to_dict())
        st.rerun()
    if done is None or done[0] != wanted:
        st.caption("Change the settings, then press Perturb to see the result and its scores.")
        return
    _, res, lines, shown, caption = done
    for line in lines:
        st.write(md(line))
    if caption:
        st.caption(md(caption))
    if shown is not None:
        st.dataframe(shown)
    verdict = in_use_verdict(ctx)  # the one verdict of the release, the blanks counted
    if verdict is not None:
        (st.success if verdict.passed else st.error)(
            md(verdict_reading(verdict, of="the table in use"))
        )
    st.download_button(
        md(
            table_download_label(
                "Download the perturbed table (CSV)",
                released=1 if verdict is None else verdict.released,
                passes=verdict is None or verdict.passed,
            )
        ),
        lambda: to_csv_bytes(res.data),
        file_name=f"{file_stem(ctx.table.name)}-{step.operation}.csv",
        mime="text/csv",
        key=keys.rem_perturb("csv"),
        on_click="ignore",
    )
