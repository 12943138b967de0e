"""The Remediate page's history: every step applied, undo / redo / go back, and its exports.

Each action the user applies on the page (levels, a search result or candidate, the Safe
Harbor transforms, a masking choice, a date shift, a perturbation) is one
:class:`~riskcore.deidentify.history.base.AppliedStep`, recorded with the risk and loss of
the table it gives (:func:`~riskcore.deidentify.history.measure.step_scores`). The table every page
sees is the recipe the applied steps fold into (:meth:`History.to_recipe`,
:func:`ui.core.remediation.set_recipe`); with no step applied, the table as recorded. The history
lives in the session (:func:`ui.core.remediation.history`) and in the working profile
(:func:`ui.core.profile.current`), so it survives a reload (:mod:`ui.core.work`) and is saved with
an
assessment. Never a key: a step refuses one, and the recipe holds its check value only.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from riskcore.deidentify.history.base import AppliedStep, History
from riskcore.deidentify.history.measure import step_scores
from riskcore.deidentify.history.script import command_script
from riskcore.deidentify.masking import get_operator
from riskcore.deidentify.recipe.base import Recipe, mask_step
from riskcore.errors import RiskcoreError
from riskcore.perturb.steps import blanked_columns
from riskcore.report.readings.history import (
    HISTORY_NOTE,
    LOSS_AFTER,
    LOSS_AFTER_HELP,
    RISK_AFTER,
    RISK_AFTER_HELP,
    SCRIPT_NOTE,
    history_reading,
    history_table,
    position_label,
    steps_list,
)
from riskcore.workguard import memory_message
from ui.core import cached, keyfile, keys, memory, remediation, state
from ui.core import profile as session_profile
from ui.core.context import Context
from ui.core.downloads import Download, download_buttons
from ui.core.safe import file_stem, md

__all__ = ["apply_levels", "base", "data_name", "folded", "move", "panel", "record"]


def _shifted(history: History) -> set[str]:
    return {
        str(c)
        for s in history.current_steps()
        if s.kind == "date_shift"
        for c in s.parameters["columns"]
    }


def base(ctx: Context, history: History) -> Recipe:
    """Return the recipe before any step: the profile's targets and policy, and every direct
    identifier dropped (the Direct identifiers tab's default) unless a step says otherwise.

    Parameters
    ----------
    ctx : Context
        The page's table and roles.
    history : History
        The history (a column its date shift moves is not dropped).

    Returns
    -------
    Recipe
    """
    prof = session_profile.current(ctx, with_recipe=False)
    shifted = _shifted(history)
    return Recipe.of(
        {},
        {},
        prof.targets,
        sensitive=tuple(ctx.roles.sensitive),
        missing=prof.missing,
        distances=prof.distances,
        orders=prof.orders,
        sensitive_hierarchies=prof.sensitive_hierarchies,
        sampling_fraction=prof.sampling_fraction,
        weights=prof.roles.weight,
        masking=[mask_step(c, "drop") for c in ctx.roles.identifiers if c not in shifted],
        person=prof.roles.person,  # the classes count people; a suppressed class all its rows
    )


def folded(ctx: Context, history: History) -> Recipe | None:
    """Return the recipe of the applied steps (None before any), sealed with the session's key.

    Parameters
    ----------
    ctx : Context
    history : History

    Returns
    -------
    Recipe or None

    Raises
    ------
    RiskcoreError
        When a step is keyed and the session has no key (upload the key file).
    """
    if not history.position:
        return None
    return history.to_recipe(base(ctx, history), key=keyfile.secret())


def _keyed(kind: str, params: dict[str, Any]) -> bool:
    if kind == "date_shift":
        return True
    return kind == "masking" and get_operator(str(params["operator"])).needs_key


def _use(ctx: Context, recipe: Recipe | None) -> None:
    if recipe is None:
        remediation.clear()
    else:
        remediation.set_recipe(ctx.key, recipe.to_dict())


def record(ctx: Context, kind: str, params: dict[str, Any]) -> bool:
    """Apply one step: measure the table it gives, add it to the history, make it the table
    every page sees.

    Parameters
    ----------
    ctx : Context
    kind : str
        The step's kind (:data:`riskcore.deidentify.history.base.STEP_KINDS`).
    params : dict
        Its parameters (JSON values; never a key).

    Returns
    -------
    bool
        False when it cannot be applied (the panel shows why; the history is unchanged).
    """
    now = remediation.history(ctx.key)
    try:
        if _keyed(kind, params):
            keyfile.ensure(True)  # made in this session's memory only (ui.core.keyfile)
        step = AppliedStep(kind, params)
        trial = now.apply(step)
        recipe = folded(ctx, trial)
        if recipe is None:  # cannot happen: a step was just applied
            raise AssertionError("a history with a step applied folds into a recipe")
        spec = recipe.to_dict()
        view, rows = cached.remediated_view(
            remediation.after_key(ctx.key, spec), remediation.recipe_json(spec), ctx.table
        )
        blanks = bool(blanked_columns(recipe.perturb))  # a blank matches any value
        policy = "any" if blanks else session_profile.missing()
        scores = step_scores(ctx.table.data, view.data, ctx.roles.quasi_identifiers, rows,
                             missing="any" if policy == "any" else "own")  # fmt: skip
        done = now.apply(AppliedStep(kind, step.parameters, risk=scores.risk, loss=scores.loss,
                              at=step.at))  # fmt: skip
    except (RiskcoreError, ValueError) as exc:  # a sentence for people, never a traceback
        st.session_state[keys.REM_HISTORY_ERROR] = f"The step was not applied: {exc}"
        return False
    except MemoryError:  # past the server's memory ceiling (riskcore.workguard)
        st.session_state[keys.REM_HISTORY_ERROR] = memory_message(memory.ceiling())
        return False
    remediation.set_history(ctx.key, done)
    _use(ctx, recipe)
    return True


def apply_levels(
    ctx: Context,
    levels: dict[str, int],
    specs: dict[str, dict[str, Any]],
    *,
    objective: str | None = None,
    steering: dict[str, Any] | None = None,
) -> bool:
    """Record levels as one step: a "search" step (a search result or one of its candidates)
    when ``objective`` is given, else a "levels" step; the QIs' hierarchies (``specs``, their
    recipes) ride along where the applied steps have another one (one step, one undo), and
    so does the search's ``steering`` (its ``to_dict()``; ``{}`` for none) when it changes.

    Parameters
    ----------
    ctx : Context
    levels : dict
        Level per QI.
    specs : dict
        :meth:`Hierarchy.recipe` per QI (the hierarchies the levels are of).
    objective : str, optional
        The search's objective (a search result or a candidate).
    steering : dict, optional
        The search's steering.

    Returns
    -------
    bool
        As :func:`record`.
    """
    try:
        now = folded(ctx, remediation.history(ctx.key))
    except RiskcoreError:
        now = None
    differ = {q: spec for q, spec in specs.items()
              if now is None or now.hierarchies.get(q) != spec}  # fmt: skip
    params: dict[str, Any] = {"levels": dict(levels)}
    if differ:
        params["hierarchies"] = differ
    if steering is not None and (now.steering if now is not None else None) != (steering or None):
        params["steering"] = steering
    if objective is None:
        return record(ctx, "levels", params)
    return record(ctx, "search", {**params, "objective": objective})


def _reseed(ctx: Context, recipe: Recipe | None) -> None:
    """Make the page's controls show the applied steps (levels, hierarchies, choices)."""
    for q in ctx.roles.quasi_identifiers:
        st.session_state.pop(keys.rem_level(q), None)
    for col in ctx.roles.identifiers:
        st.session_state.pop(keys.rem_operator(col), None)
    if recipe is not None:
        remediation.show_on_page(ctx.key, recipe.to_dict(), ctx.table.data)
        return
    old = st.session_state.get(keys.REM_STORE) or {}
    st.session_state[keys.REM_STORE] = {
        "for": ctx.key, "hier": {}, "hier_ver": int(old.get("hier_ver", 0)) + 1,
    }  # fmt: skip
    for widget in (keys.REM_SHIFT_COLS, keys.REM_SHIFT_PERSON, keys.REM_SHIFT_DAYS):
        st.session_state.pop(widget, None)
    st.session_state[keys.work("choices")] = {"for": ctx.key, "masking": {}, "shift": None}


def move(ctx: Context, where: str, position: int | None = None) -> None:
    """Undo, redo or go back to the step chosen in the panel (``where``: "undo", "redo",
    "go_to": to ``position``, or the one chosen in the panel); the table every page sees and
    the page's controls follow (a callback).

    Parameters
    ----------
    ctx : Context
    where : {"undo", "redo", "go_to"}
    position : int, optional
        Where "go_to" goes (default: the panel's choice).
    """
    now = remediation.history(ctx.key)
    try:
        if where == "undo":
            then = now.undo()
        elif where == "redo":
            then = now.redo()
        else:
            chosen = st.session_state.get(_goto(now), now.position)
            then = now.go_to(int(chosen if position is None else position))
        recipe = folded(ctx, then)
    except RiskcoreError as exc:
        st.session_state[keys.REM_HISTORY_ERROR] = f"The history did not move: {exc}"
        return
    remediation.set_history(ctx.key, then)
    _use(ctx, recipe)
    _reseed(ctx, recipe)


def data_name(ctx: Context) -> str:
    """Return the table as the command script names it: the file's name, or ``demo:N`` for the
    people demo (the claims demo by its name: the command line has no claims demo).

    Parameters
    ----------
    ctx : Context

    Returns
    -------
    str
    """
    if state.is_people_demo():
        return f"demo:{ctx.table.n_rows}"
    return str(ctx.table.name) or "data.csv"


def panel(ctx: Context) -> None:
    """Draw the history: its steps, Undo / Redo / Go back to here, the recipe and the script.

    Parameters
    ----------
    ctx : Context
        The Remediate page's table (as recorded) and roles.
    """
    now = remediation.history(ctx.key)
    with st.expander(md(f"History: {history_reading(now)}"), expanded=True):
        error = st.session_state.pop(keys.REM_HISTORY_ERROR, None)
        if error:
            st.error(md(error))
        st.caption(md(HISTORY_NOTE))
        b1, b2, b3 = st.columns([1, 1, 2])
        b1.button("Undo", key=keys.REM_HISTORY_UNDO, disabled=not now.can_undo,
                  on_click=move, args=(ctx, "undo"), width="stretch")  # fmt: skip
        b2.button("Redo", key=keys.REM_HISTORY_REDO, disabled=not now.can_redo,
                  on_click=move, args=(ctx, "redo"), width="stretch")  # fmt: skip
        if not now.steps:
            return
        shown = history_table(now)
        shown["when"] = shown["when"].str[11:19]  # the time of day (UTC); the date is the session's
        st.dataframe(  # what each step did is listed below: no column width shows it whole
            shown[["step", "when", "kind", RISK_AFTER, LOSS_AFTER, "applied"]],
            hide_index=True,
            column_config={"step": st.column_config.NumberColumn(width=40),
                           # named apart from the page's average risk and NCP (issue 38)
                           RISK_AFTER: st.column_config.NumberColumn(
                               format="percent", width=85, help=RISK_AFTER_HELP),
                           LOSS_AFTER: st.column_config.NumberColumn(
                               format="percent", width=100, help=LOSS_AFTER_HELP),
                           "applied": st.column_config.CheckboxColumn(width=60),
                           "when": st.column_config.TextColumn("when (UTC)", width=75),
                           "kind": st.column_config.TextColumn(width=90)},
        )  # fmt: skip
        st.markdown(steps_list(now, escape=md))  # the items escaped, the numbers a list
        positions = list(range(len(now.steps) + 1))
        st.selectbox("Go back to", positions, index=now.position, key=_goto(now),
                     format_func=lambda i: position_label(now, i))  # fmt: skip
        st.button("Go back to here", key=keys.REM_HISTORY_GO, on_click=move,
                  args=(ctx, "go_to"))  # fmt: skip
        b3.button("Back to the table as recorded", key=keys.REM_CLEAR, disabled=not now.position,
                  on_click=_recorded, args=(ctx,), width="stretch")  # fmt: skip
        if not now.position:
            return
        try:
            start = base(ctx, now)
            recipe = now.to_recipe(start, key=keyfile.secret())
        except RiskcoreError as exc:  # keyed steps without the key (a reload): say so
            st.info(md(f"The recipe and the script wait for the key: {exc}"))
            return
        stem = file_stem(ctx.table.name)
        bare = remediation.raw_identifiers_warning(ctx, recipe)
        script = command_script(
            now, data_name(ctx), base=start, key=keyfile.secret(),
            recipe_name=f"{stem}_recipe.json", out_name=f"{stem}_remediated.csv",
            key_file=keyfile.key_file_name(stem), allowed=bare,
        )  # fmt: skip
        download_buttons(
            [
                Download("Download the steps' recipe (JSON)", _recipe_text(recipe),
                         f"{stem}_recipe.json", keys.REM_HISTORY_RECIPE, wrap=True),
                Download("Download the command script (.sh)", script,
                         f"{stem}_steps.sh", keys.REM_HISTORY_SCRIPT, wrap=True),
            ],
            width="stretch",
        )  # fmt: skip
        st.caption(md(SCRIPT_NOTE))


def _recipe_text(recipe: Recipe) -> str:
    import json

    return json.dumps(recipe.to_dict(), indent=2)


def _goto(history: History) -> str:
    return keys.rem_history_goto(len(history.steps), history.position)


def _recorded(ctx: Context) -> None:
    move(ctx, "go_to", 0)
