"""The unit of privacy on a page: the person column tagged, and the line saying what is counted.

With a column tagged as the person (the rows of one individual linked), every class, k,
count and risk on the Uniqueness, Anonymity, Records, Remediate and Report pages is of
people; :func:`person` reads it from the roles (stopping the page with a clear message when
two columns are tagged), and :func:`unit_line` says so near the top of the page
(:func:`riskcore.report.readings.unit_reading`). Without a person column nothing is shown.
"""

from __future__ import annotations

import streamlit as st

from riskcore.errors import RiskcoreError
from riskcore.report.readings import unit_reading
from ui.core.context import Context, end_page
from ui.core.safe import md

__all__ = ["person", "unit_line"]


def person(ctx: Context) -> str | None:
    """Return the column tagged as the person, or None; two tagged end the page with a message.

    Parameters
    ----------
    ctx : Context
        The page's table and roles.

    Returns
    -------
    str or None
    """
    try:
        return ctx.roles.person
    except RiskcoreError as exc:  # two columns tagged as the person
        st.error(md(exc))
        st.page_link("pages/data.py", label="Go to the Data page")
        end_page()


def unit_line(n_people: int, n_rows: int, who: str | None) -> None:
    """Say, in one caption, that every figure counts people (nothing without a person column).

    Parameters
    ----------
    n_people : int
        The people of the table.
    n_rows : int
        Its rows.
    who : str or None
        The person column.
    """
    if who is not None:
        st.caption(md(unit_reading(n_people, n_rows, who)))
