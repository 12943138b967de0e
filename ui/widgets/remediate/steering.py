"""The Remediate page's steering of the least-loss search: objective, weights, level bounds.

One selector (the objective, :data:`riskcore.utility.objectives.OBJECTIVES`) and, per
quasi-identifier, a weight and the range of levels searched build a
:class:`~riskcore.deidentify.search.steering.Steering`; riskcore checks it, and a refusal is
shown as the sentence it gives.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

import streamlit as st

from riskcore.deidentify.hierarchy import Hierarchy
from riskcore.deidentify.search.steering import Steering
from riskcore.errors import RiskcoreError
from riskcore.report.readings import level_label
from riskcore.utility.objectives import OBJECTIVES
from ui.core import formats, keys
from ui.core.safe import md

__all__ = ["steering_editor"]


def steering_editor(
    qis: Sequence[str], hierarchies: Mapping[str, Hierarchy]
) -> tuple[str, Steering, str | None]:
    """Draw the objective selector and each QI's weight and levels; return the search's inputs.

    Returns
    -------
    tuple
        (the objective's name, the steering, the refusal sentence or None). A refused
        steering comes back empty, so the page still draws the rest.
    """
    names = list(OBJECTIVES)
    objective = st.selectbox(
        "Objective (what the search keeps lowest)",
        names,
        format_func=lambda n: OBJECTIVES[n].label,
        key=keys.REM_OBJECTIVE,
    )
    info = OBJECTIVES[objective]
    st.caption(md(f"{info.label}: {info.source}."))
    st.caption(
        "A smaller weight makes a column cheaper to generalize (0: free); the levels "
        "searched keep a column from being generalized past a level (e.g. keep the year "
        "of birth) or force it at least to one."
    )
    weights: dict[str, float] = {}
    levels: dict[str, tuple[int, int]] = {}
    for q in qis:
        h = hierarchies[q]
        left, right = st.columns([1, 3])
        w = left.number_input(
            md(f"Weight of {q}"),
            min_value=0.0,
            value=1.0,
            step=0.25,
            disabled=not info.weighted,
            key=keys.rem_steer(q, "weight"),
        )
        lo, hi = right.select_slider(
            md(f"Levels searched for {q}"),
            options=list(range(h.height + 1)),
            value=(0, h.height),
            format_func=functools.partial(formats.level_of, h.height),
            help=md(f"Level {h.height}: {level_label(h, h.height)}"),
            key=keys.rem_steer(q, "bounds"),
        )
        if info.weighted and float(w) != 1.0:
            weights[q] = float(w)
        if (int(lo), int(hi)) != (0, h.height):
            levels[q] = (int(lo), int(hi))
    if not info.weighted:
        st.caption(md(f"{info.label} has no per-column part: weights do not apply to it."))
    try:
        steering = Steering.of(weights, levels).check(
            list(qis), [hierarchies[q].height for q in qis]
        )
    except RiskcoreError as exc:
        return objective, Steering(), str(exc)
    return objective, steering, None
