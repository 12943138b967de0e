"""The privacy budget of the session's data: its ledger in the local database.

The ledger is not session state: it lives in the SQLite file of
:mod:`riskcore.store` (``RISKCORE_DB`` or the user's data directory), found
by the file's fingerprint, the people it holds (rows matched on the columns two
tables share, by content: :mod:`riskcore.store.population`) or the data source's
name (:mod:`riskcore.store.ledgers`),
so a reload, a new session, "Reset session" and a server restart all find the
same budget. The session keeps only the source name typed for a file that no
ledger holds yet. :func:`unit_control` offers what every release's epsilon
protects: one row, or one person with at most c rows (the ledger keeps it).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from riskcore.dp import (
    MAX_ROWS_PER_PERSON,
    ONE_ROW,
    BudgetExceededError,
    DataSource,
    LedgerLookup,
    PrivacyLedger,
    PrivacyUnit,
    change_needs_reason,
)
from riskcore.errors import RiskcoreError
from riskcore.report.readings import (
    budget_change_reading,
    concurrent_refusal_reading,
    ledger_source_reading,
    near_duplicate_note,
    near_duplicate_reading,
    people_match_reading,
    release_unit_reading,
)
from riskcore.store import Store, default_path
from riskcore.store.ledgers import BudgetStore, LedgerHandle, holds_ledgers
from ui.core import formats, keys, saved, state
from ui.core.context import Context, current_table, end_page
from ui.core.safe import md


@st.cache_resource(scope="session", max_entries=2, show_spinner=False)
def _book(path: str) -> BudgetStore:
    """Return the ledgers of the database at ``path`` (its tables made once per session)."""
    return BudgetStore(Store(path))


def book() -> BudgetStore:
    """Return the ledgers of the database in use (``RISKCORE_DB`` is read each time)."""
    return _book(str(default_path()))


def _names() -> dict[str, str]:
    names: dict[str, str] = st.session_state.setdefault(keys.DP_SOURCES, {})
    return names


def source() -> DataSource:
    """Return the session's data as its ledger knows it (the table as recorded).

    Its name is the one typed on the Budget tab, by default the file's name;
    its fingerprint the SHA-256 of the file's bytes (the demo's key for the
    demo), whatever text encoding it is read in.
    """
    key, table = current_table()
    fingerprint = table.info.fingerprint or state.ledger_key(key)
    default = str(st.session_state[keys.DATASET]["name"])
    return DataSource(
        _names().get(fingerprint) or default,
        fingerprint,
        tuple(str(c) for c in table.data.columns),
        len(table.data),
    )


def _data() -> pd.DataFrame:
    """Return the session's table as recorded: its people choose its ledger (never stored)."""
    return current_table()[1].data


def set_name(name: str) -> None:
    """Name the session's data source (used while no ledger holds its file)."""
    _names()[source().fingerprint] = name.strip()


def lookup() -> LedgerLookup:
    """Return the ledger of the session's data and the near duplicates of its file.

    Looking writes nothing: without a database (or without the ledgers' tables in it)
    there is no ledger yet, and the file and tables are made at the first release or
    budget change.
    """
    if not holds_ledgers(default_path()):
        return LedgerLookup(source(), "new")
    return book().lookup(source(), data=_data())


def ledger() -> PrivacyLedger:
    """Return the privacy ledger in force for the session's data."""
    return lookup().budget


def handle() -> LedgerHandle:
    """Return what a release charges: it reserves its cost in the database first."""
    return book().handle(source(), data=_data(), user=saved.audit_user())


def set_budget(epsilon: float, delta: float, accounting: str, reason: str = "") -> None:
    """Set the budget of the session's data (audited; a reason when it needs one)."""
    who = saved.audit_user()
    book().set_budget(source(), epsilon, delta, accounting, reason=reason, data=_data(), user=who)


def attach(ledger_name: str) -> None:
    """Charge the session's file to the ledger ``ledger_name`` from now on (audited)."""
    book().attach(source(), ledger_name, user=saved.audit_user())


def start_new_ledger(name: str, reason: str) -> None:
    """Begin a ledger named ``name`` for the session's data despite its people match (audited)."""
    src = source()
    book().start_new_ledger(
        DataSource(name.strip() or src.name, src.fingerprint, src.columns, src.n_rows),
        reason=reason,
        data=_data(),
        user=saved.audit_user(),
    )


def refusal_after(
    exc: RiskcoreError, drawn: PrivacyLedger
) -> tuple[str, tuple[float, float, str, int]]:
    """Return the text of a refused release and the budget as it is now (its settings and
    number of releases); ``drawn`` is the ledger the page was drawn with. When releases were
    charged since (another session won the race for the last of the budget), the text says
    that the budget was spent by another release."""
    try:
        now = ledger()
    except RiskcoreError:
        now = drawn
    text = str(exc)
    if isinstance(exc, BudgetExceededError) and len(now.entries) > len(drawn.entries):
        text = concurrent_refusal_reading(text)
    return text, (now.epsilon_budget, now.delta_budget, now.accounting, len(now.entries))


def near_duplicate_notes(look: LedgerLookup | None = None) -> None:
    """Warn, where the file is opened and where releases are made, that it nearly equals a
    file whose budget was spent (same columns and rows, other bytes); ``look``, when the
    caller has just looked the ledger up, spares a second read of the database."""
    if look is None:
        try:
            look = lookup()
        except RiskcoreError:
            return  # the DP page says why the database cannot be read
    if look.how == "people" and look.match is not None and look.ledger is not None:
        st.info(md(people_match_reading(look.match, look.ledger)), icon="👥")
    for near in look.near:
        st.warning(md(near_duplicate_note(look.source, near)), icon="⚠️")


def source_panel(look: LedgerLookup) -> None:
    """Draw which ledger the data is charged to: the source's name while no ledger holds the
    file, where the ledger is kept, and a warning per near duplicate with its "continue"."""
    if look.how in ("name", "new"):  # a file no ledger holds yet: the name chooses its ledger
        name_key = keys.dp_source_name(look.source.fingerprint)
        st.session_state.setdefault(name_key, look.source.name)
        typed = st.text_input(
            "Name of the data source",
            key=name_key,
            help="The privacy budget is kept per data source, in the local database. Give "
            "every version of the same data the same name, so they share one budget.",
        ).strip()
        if typed and typed != look.source.name:
            set_name(typed)
            st.rerun()
    st.caption(md(ledger_source_reading(look, str(default_path()))))
    if look.how == "people":
        _new_ledger_choice(look)
    for near in look.near:
        st.warning(md(near_duplicate_reading(look.source, near)), icon="⚠️")
        if st.button(md(f"Continue the ledger “{near.source}”"), key=keys.dp_continue(near.id)):
            try:
                attach(near.source)
            except RiskcoreError as exc:
                st.error(md(exc))
            else:
                st.rerun()


def _new_ledger_choice(look: LedgerLookup) -> None:
    """Offer a ledger of its own for a file holding a ledger's people: a name and a reason."""
    fp = look.source.fingerprint
    with st.expander("These are other people: start a new ledger for this table"):
        st.session_state.setdefault(keys.dp_new_ledger(fp, "name"), look.source.name)
        name = st.text_input("Name of the new ledger", key=keys.dp_new_ledger(fp, "name"))
        reason = st.text_input(
            "Reason (required; kept in the audit log and the report)",
            key=keys.dp_new_ledger(fp, "reason"),
        )
        if st.button("Start a new ledger", key=keys.dp_new_ledger(fp, "start")):
            try:
                start_new_ledger(name, reason)
            except RiskcoreError as exc:
                st.error(md(exc))
            else:
                st.rerun()


def budget_controls(look: LedgerLookup) -> None:
    """Draw the budget's settings; apply a change at once when it lowers the budget (or nothing
    is spent), else only with a reason typed for the audit log."""
    ledger = look.budget
    in_force = (ledger.epsilon_budget, ledger.delta_budget, ledger.accounting)
    # the widgets start from the ledger in force, and again whenever it changes (here or in
    # another session); a change waiting for its reason keeps the widget's value
    seed = (look.source.fingerprint, in_force)
    if st.session_state.get(keys.DP_BUDGET_SEED) != seed or keys.DP_BUDGET not in st.session_state:
        st.session_state[keys.DP_BUDGET] = float(ledger.epsilon_budget)
        st.session_state[keys.DP_DBUDGET] = ledger.delta_budget
        st.session_state[keys.DP_ACCOUNTING] = ledger.accounting
        st.session_state[keys.DP_BUDGET_SEED] = seed
    b1, b2, b3 = st.columns(3)
    new_eps = b1.number_input("Total epsilon budget", 0.01, 100.0, key=keys.DP_BUDGET)
    new_delta = b2.select_slider(
        "Delta budget",
        options=[1e-9, 1e-8, 1e-7, 1e-6, 1e-5],
        format_func=formats.general_number,
        key=keys.DP_DBUDGET,
    )
    new_acc = b3.radio(
        "Count releases with",
        ["basic", "zcdp"],
        format_func=formats.accountant,
        key=keys.DP_ACCOUNTING,
    )
    proposed = (float(new_eps), float(new_delta), str(new_acc))
    if proposed == in_force:
        return
    wanted = PrivacyLedger(proposed[0], proposed[1], new_acc, ledger.entries)
    if not change_needs_reason(ledger, wanted):  # lowering, or nothing spent yet
        try:
            set_budget(*proposed)
        except RiskcoreError as exc:
            st.error(md(exc))
            return
        st.rerun()  # the release tab above was drawn with the old budget
    st.warning(md(budget_change_reading(ledger, wanted)), icon="⚠️")
    settings = len(look.ledger.budgets) if look.ledger is not None else 0
    reason = st.text_input(
        "Reason for the change (kept in the audit log)", key=keys.dp_budget_reason(settings)
    )
    if st.button("Apply the new budget", key=keys.DP_BUDGET_APPLY):
        try:
            set_budget(*proposed, reason=reason)
        except RiskcoreError as exc:
            st.error(md(exc))
        else:
            st.rerun()


def unit_control(ctx: Context, *, key: str, label: str, help: str) -> PrivacyUnit:
    """Draw the unit of privacy and, with a person column, the bound c; return the unit.

    Without a person column the unit is one row, and the sentence says what that means;
    with one, a number input offers c (public, 1 by default) beside the sentence stating
    the unit. Two columns tagged as the person end the page with the roles' message.
    """
    try:
        person = ctx.roles.person
    except RiskcoreError as exc:  # two columns tagged as the person
        st.error(md(exc))
        end_page()
    if person is None:
        st.markdown(md(release_unit_reading(ONE_ROW)))
        return ONE_ROW
    left, right = st.columns([1, 3])
    c = left.number_input(
        md(label),
        min_value=1,
        max_value=MAX_ROWS_PER_PERSON,
        value=1,
        step=1,
        key=key,
        help=md(help),
    )
    unit = PrivacyUnit(person, int(c))
    right.markdown(md(release_unit_reading(unit)))
    return unit
