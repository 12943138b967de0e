"""What every page needs: the current table, its roles, and the prerequisite checks."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np
import pandas as pd
import streamlit as st

from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError
from riskcore.io import LoadedTable
from riskcore.report.readings import generalized_banner
from riskcore.report.readings.criteria import rows_not_people_reading
from riskcore.report.readings.work import DEMO_NOTICE
from riskcore.roles import ColumnRoles, RoleSuggestions, rows_not_people
from ui.core import cached, keys, remediation, state
from ui.core import profile as session_profile
from ui.core.safe import md

_ROUTER = threading.local()  # a session's script runs one at a time, on its own thread


class EndPage(Exception):  # noqa: N818 - not an error: the page has said all it has to say
    """Ends a page's run early; the router catches it and still draws the sidebar."""


@contextmanager
def routed() -> Iterator[None]:
    """Run a page under the router (``app.py``): :func:`end_page` may end it early."""
    _ROUTER.on = True
    try:
        yield
    finally:
        _ROUTER.on = False


def end_page() -> NoReturn:
    """End the page here, keeping the sidebar.

    ``st.stop()`` ends the whole script run: the sidebar, which the router draws after the
    page, and its "Reset session" button would be missing on that page. Under the router
    this raises :class:`EndPage`, which the router catches; a page run on its own (AppTest's
    ``switch_page``) stops as ``st.stop()`` does.
    """
    if getattr(_ROUTER, "on", False):
        raise EndPage
    st.stop()


@dataclass(frozen=True)
class Context:
    """The session's dataset, its codes, suggestions and current roles.

    When the Remediate page's generalization is in use (the sidebar's switch),
    ``key``, ``table`` and ``encoded`` are the generalized table's, while
    ``dataset_key`` stays the dataset's own: the privacy budget and the roles
    belong to the people in the data, whatever view of it is assessed.
    ``recorded`` is then the table as recorded and ``file_rows`` the position in it of
    each generalized row (suppressed rows are gone).
    """

    key: str
    table: LoadedTable
    encoded: EncodedTable
    suggestions: RoleSuggestions
    roles: ColumnRoles
    dataset_key: str = ""
    generalized: bool = False
    recorded: LoadedTable | None = None
    file_rows: np.ndarray | None = None
    recipe_json: str = ""

    @property
    def as_recorded(self) -> tuple[pd.DataFrame, str, np.ndarray] | None:
        """Return (the table as recorded, the recipe's JSON, the file rows) of a generalized
        view, or None: what a simulated attacker knows the true values from."""
        if self.recorded is None or self.file_rows is None:
            return None
        return self.recorded.data, self.recipe_json, self.file_rows

    @property
    def file_n_rows(self) -> int:
        """Return the number of data rows of the file (the table as recorded)."""
        return (self.recorded or self.table).n_rows

    def file_row_numbers(self, rows: Any) -> np.ndarray:
        """Return the file's row numbers (1 = the first data row) of row numbers of ``table``
        (also from 1): on a generalized view, row 41 there is not row 41 of the file."""
        numbers = np.asarray(rows, dtype=np.int64)
        return numbers if self.file_rows is None else self.file_rows[numbers - 1] + 1

    def table_row(self, file_row: int) -> int | None:
        """Return the row number in ``table`` (from 1) of a file row, None when suppressed."""
        if self.file_rows is None:
            return int(file_row)
        at = np.flatnonzero(self.file_rows == int(file_row) - 1)
        return int(at[0]) + 1 if len(at) else None


def current_table() -> tuple[str, LoadedTable]:
    """Return (dataset key, table) of the session: the upload's parsed table or the demo."""
    ds = st.session_state[keys.DATASET]
    table = state.table_of(ds)
    if table is not None:
        return ds["key"], table
    if ds["source"] != "demo":  # released when the tab disconnected: say so, show the demo
        st.session_state[keys.RELEASED] = ds["name"]
        state.use_demo()
    elif ds.get("demo") == "claims":
        return ds["key"], cached.loaded_claims(state.CLAIMS_PATIENTS, 0)
    return state.demo_dataset()["key"], cached.loaded_demo(state.DEMO_ROWS, 0)


def context(*, as_recorded: bool = False, banner: bool = True) -> Context | None:
    """Return the page context; the roles default to the suggestions.

    With the generalization of the Remediate page in use, the context is the
    generalized table's, unless ``as_recorded`` (the Data and Remediate pages
    work on the table as recorded); ``banner`` says so on the page.
    """
    state.init_state()
    key, table = current_table()
    released = st.session_state.pop(keys.RELEASED, None)
    if released is not None:
        st.warning(
            md(
                f"{released} was released from memory when the browser tab disconnected "
                "(nothing is kept once a tab closes); upload it again. The demo is shown."
            )
        )
    if banner and st.session_state[keys.DATASET]["source"] == "demo":
        st.caption(md(DEMO_NOTICE))
    enc = cached.encoded(key, table)
    sugg = cached.suggestions(key, table, st.session_state.get(keys.READING, "safe_harbor"))
    roles = session_profile.roles(key)
    if roles is None:  # a new table: its roles start as the suggestions
        roles = session_profile.set_roles(key, {c: s.role for c, s in sugg.items()})
    recipe = remediation.active(key)
    if as_recorded or recipe is None or not remediation.showing_after(key):
        return _with_profile(Context(key, table, enc, sugg, roles, dataset_key=key))
    after = remediation.after_key(key, recipe)
    gen, rows = cached.remediated_view(after, remediation.recipe_json(recipe), table)
    if banner:
        st.info(md(generalized_banner(gen.n_rows, table.n_rows)))
    ctx = Context(
        after,
        gen,
        cached.encoded(after, gen),
        sugg,
        roles,
        dataset_key=key,
        generalized=True,
        recorded=table,
        file_rows=rows,
        recipe_json=remediation.recipe_json(recipe),
    )
    return _with_profile(ctx)


def _with_profile(ctx: Context) -> Context:
    """Return ``ctx`` once the session's one profile is of its roles.

    The profile (:func:`ui.core.profile.current`) is made again only when the roles or a
    setting changed, so every page, the Data page included, leaves the session's ``Profile``
    up to date. Roles a profile refuses (the page judging by it says why) leave none.
    """
    try:
        session_profile.current(ctx)
    except RiskcoreError:
        st.session_state.pop(keys.PROFILE, None)
    return ctx


def person_caution(ctx: Context) -> None:
    """Warn beside a verdict when the table holds a person column and none is tagged as the
    person: every count is then of rows (:func:`riskcore.roles.rows_not_people`)."""
    caution = rows_not_people(ctx.suggestions.persons, ctx.roles)
    if caution is not None:
        st.warning(md(rows_not_people_reading(caution)))


def require_table(ctx: Context | None) -> Context:
    """Return the table in use, or end the page (:func:`context` has said why there is none)."""
    if ctx is None:  # pragma: no cover - the demo always loads
        end_page()
    return ctx


def require_qis(ctx: Context | None) -> Context:
    """Stop the page with a friendly prompt unless at least one QI is tagged."""
    if ctx is None or not ctx.roles.quasi_identifiers:
        st.info(
            "Tag at least one column as a quasi-identifier on the Data page to see this assessment."
        )
        st.page_link("pages/data.py", label="Go to the Data page")
        end_page()
    return ctx


def capture_leaks(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, list[str]]:
    """Call a riskcore function; return its result and the PrivacyLeakWarning messages."""
    from riskcore.errors import PrivacyLeakWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PrivacyLeakWarning)
        out = fn(*args, **kwargs)
    return out, [str(w.message) for w in caught if issubclass(w.category, PrivacyLeakWarning)]


def run_gate(n_rows: int, settings: tuple, label: str, key: str) -> bool:
    """Return True when a computation with ``settings`` should run and be shown now.

    Tables up to :data:`ui.core.state.AUTO_RUN_ROWS` rows run at once (well under
    a second). On a larger one nothing runs on page open or when a control
    moves: a button runs it, and its result stays shown until a setting
    changes, when the button is offered again.

    Parameters
    ----------
    n_rows : int
        Rows of the table.
    settings : tuple
        Everything the result depends on.
    label : str
        The button's label.
    key : str
        Session-state key remembering the settings of the last run.
    """
    if n_rows <= state.AUTO_RUN_ROWS:
        return True
    ran = st.session_state.get(key)
    if st.button(md(label), type="primary", key=keys.gate_button(key)):
        st.session_state[key] = ran = settings
    if ran == settings:
        return True
    st.info(
        f"{n_rows:,} rows: this takes a few seconds, so it runs when you press *{md(label)}*"
        + (" (the settings changed since the last run)." if ran is not None else ".")
    )
    return False
