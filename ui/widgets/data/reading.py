"""The Data page's choice of reading: Safe Harbor or an expert determination, for every column."""

from __future__ import annotations

import streamlit as st

from riskcore.report.readings import suggestion_reading
from riskcore.report.readings.data import READING_LABELS
from riskcore.roles import READINGS
from ui.core import cached, keys, profile
from ui.core.context import Context
from ui.core.safe import md


def reading_choice(ctx: Context) -> None:
    """Say which reading the suggestions follow; switching it re-tags every column it decides.

    Shown only when a column's suggestion depends on the reading (a full date
    or a 5-digit ZIP code). Switching sets the role of each such column to
    the other reading's suggestion at once; the other columns keep their roles.
    """
    sentence = suggestion_reading(ctx.suggestions)
    if sentence is None:
        return
    st.caption(md(sentence))
    current = ctx.suggestions.reading
    st.radio(
        "The suggestions follow",
        READINGS,
        index=READINGS.index(current),
        format_func=lambda r: READING_LABELS[r],
        horizontal=True,
        key=keys.READING_CHOICE,
        on_change=_switch,
        args=(ctx,),
        help=(
            "Safe Harbor removes full dates and 5-digit ZIP codes; an expert determination keeps "
            "them as quasi-identifiers, generalised until the measured risk is small. Switching "
            "re-tags those columns at once."
        ),
    )


def _switch(ctx: Context) -> None:
    """Re-tag the columns the reading decides with the new reading's suggestions."""
    reading = str(st.session_state[keys.READING_CHOICE])
    new = cached.suggestions(ctx.dataset_key or ctx.key, ctx.table, reading)
    roles = profile.role_mapping()
    for column in dict.fromkeys([*ctx.suggestions.by_reading, *new.by_reading]):
        roles[column] = new[column].role
    st.session_state[keys.READING] = reading
    profile.set_roles(ctx.dataset_key or ctx.key, roles)
    st.session_state.pop(keys.roles_editor(ctx.key), None)  # the table shows the new roles
