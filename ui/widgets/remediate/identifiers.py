"""The Remediate page's Safe Harbor and Direct identifiers tabs (drawn by pages/remediate.py)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from riskcore.deidentify.history.base import TAKEN_OVER
from riskcore.deidentify.masking import MENU, PLAIN_HASH_NOTE, SecretKey, parse_choice
from riskcore.deidentify.masking.fakes import find_sex_column
from riskcore.deidentify.recipe.base import DATE_SHIFT, key_check, mask_step
from riskcore.deidentify.safe_harbor import safe_harbor_plan
from riskcore.errors import RiskcoreError
from riskcore.freetext import MAX_CHARS, PRESIDIO_MISSING, presidio_available
from riskcore.io.export import to_csv_bytes
from riskcore.report.readings import (
    enumeration_reading,
    pii_reading,
    pii_table,
    safe_harbor_table,
    safe_harbor_takeover,
)
from riskcore.report.readings.work import table_download_label
from riskcore.roles import ColumnRoles, RoleSuggestions
from ui.core import cached, formats, keyfile, keys, remediation
from ui.core import profile as session_profile
from ui.core.context import Context, run_gate
from ui.core.downloads import Download, download_buttons
from ui.core.safe import file_stem, md
from ui.widgets.remediate import history
from ui.widgets.remediate.free_text import free_text_status, scan_limit

__all__ = ["identifiers_tab", "safe_harbor_tab"]


def _identifying(ctx: Context) -> tuple[ColumnRoles, RoleSuggestions]:
    """Return the roles and suggestions with the person column as the direct identifier it
    is too: the Safe Harbor check and plan know direct identifiers only, and a patient id
    (a record number, (H)) must be listed and removed whether it links rows or not."""
    return ctx.roles.persons_as_identifiers(), ctx.suggestions.persons_as_identifiers()


def safe_harbor_tab(ctx: Context) -> None:
    """The Safe Harbor tab: the 18 categories, each text column's free text, the verdict, and
    the standard transforms."""
    st.write(
        "HIPAA's Safe Harbor method (45 CFR 164.514(b)(2)) removes 18 kinds of identifiers "
        "and generalizes the rest: ZIP codes to their first 3 digits (000 where that area has "
        "20,000 people or fewer), ages over 89 to one category, dates to the year. Below, "
        "what this table holds for each kind, as tagged on the Data page, as the columns "
        "look, and as written inside their text."
    )
    roles_key = tuple(sorted(session_profile.role_mapping().items()))
    limit = scan_limit(ctx.key)
    roles, sugg = _identifying(ctx)
    check = cached.safe_harbor(ctx.key, ctx.table, roles, roles_key, sugg, limit)
    (st.success if check.passed else st.warning)(md(check.verdict))
    st.dataframe(safe_harbor_table(check), hide_index=True)
    free_text_status(check, ctx.key)
    for note in check.notes:
        st.caption(md(note))
    st.subheader("The standard transforms")
    if check.passed:
        st.info("Nothing to transform: no column holds a Safe Harbor identifier.")
        return
    if not run_gate(ctx.table.n_rows, (ctx.key, roles_key), "Apply the Safe Harbor transforms",
                    keys.REM_SH_RUN):  # fmt: skip
        return
    done, after = cached.safe_harbor_applied(ctx.key, ctx.table, roles, roles_key, sugg, limit)
    if not done.steps:
        st.info("No transform applies: what remains needs a decision of yours (see above).")
        return
    st.dataframe(
        [
            {"column": x.column, "action": x.action, "values changed": x.n_changed, "note": x.note}
            for x in done.steps
        ],
        hide_index=True,
    )
    (st.success if after.passed else st.warning)(md("After the transforms: " + after.verdict))
    st.button("Apply the transforms to the table (a step in the history)", type="primary",
              key=keys.REM_SH_APPLY, on_click=_apply_safe_harbor, args=(ctx,))  # fmt: skip
    taken = _generalized(ctx, [x.column for x in done.steps])
    if taken:
        st.caption(md(safe_harbor_takeover(taken)))
    error = st.session_state.pop(keys.REM_SH_ERROR, None)
    if error:  # here, by the button, not in the history panel at the top of the page
        st.error(md(error))
    st.download_button(
        "Download the transformed table (CSV)",
        lambda: to_csv_bytes(done.data),
        file_name=f"{file_stem(ctx.table.name)}_safe_harbor.csv",
        mime="text/csv",
        on_click="ignore",
        key=keys.REM_SH_CSV,
    )
    st.caption(
        "Safe Harbor also requires that you have no actual knowledge that what remains could "
        "identify someone: the other tabs and pages measure that risk."
    )


def identifiers_tab(
    ctx: Context,
    shift: dict | None,
    secret: SecretKey | None,
    *,
    needs_key: bool,
    key_unsaved: bool,
) -> None:
    """The direct identifiers tab: date shifting, one operator per identifier column, a
    preview, downloads; then the free-text scan and the plain-hash demonstration."""
    ids = list(ctx.roles.identifiers)
    if not ids:
        st.info("No column is tagged as a direct identifier on the Data page.")
        free_text_scan(ctx)
        return
    st.write(
        "Direct identifiers name a person on their own. Choose what happens to each; the "
        "line under the choice says what the operator keeps and what it risks. These "
        "choices are part of the recipe downloaded on the first tab."
    )
    with st.expander("The key of the tokens and date shifts", expanded=needs_key):
        active = remediation.active(ctx.key) or {}
        keyfile.panel(active.get("key_check"), file_stem(ctx.table.name))
    dates = [c for c in ctx.table.data.columns if _is_date(ctx, c)]
    with st.expander("Shift dates per person (keeps intervals)", expanded=bool(shift)):
        st.caption(md(DATE_SHIFT.note))
        s1, s2, s3 = st.columns([2, 1, 1])
        s1.multiselect("Date columns to shift", dates, key=keys.REM_SHIFT_COLS,
                       on_change=_shift_step, args=(ctx,))  # fmt: skip
        s2.selectbox("Person (one shift each)", ids, key=keys.REM_SHIFT_PERSON,
                     on_change=_shift_step, args=(ctx,))  # fmt: skip
        s3.number_input("Largest shift (days)", 1, 3650, 180, key=keys.REM_SHIFT_DAYS,
                        on_change=_shift_step, args=(ctx,))  # fmt: skip
    out = ctx.table.data.copy()
    if shift is not None:
        if secret is None:  # a date shift needs the key, made above
            raise AssertionError("a date shift without the session's key")
        moved = cached.shifted(ctx.key, ctx.table.data, shift["person"], tuple(shift["columns"]),
                               shift["max_days"], secret, key_check(secret))  # fmt: skip
        out[list(moved.columns)] = moved
    lookups = []
    for col in ids:
        if shift is not None and col in shift["columns"]:
            continue
        c1, c2 = st.columns([1, 2])
        op = c1.selectbox(md(col), _choices(ctx, col), format_func=formats.operator,
                          key=keys.rem_operator(col), on_change=_mask_step,
                          args=(ctx, col))  # fmt: skip
        c2.caption(md(parse_choice(op)[0].note))
        done, lookup = cached.masked(ctx.key, ctx.table.data, col, op, secret, 0,
                                     key_check(secret) if secret else "")  # fmt: skip
        if col in done:
            out[col] = done[col]
        else:  # the choice drops the column
            out = out.drop(columns=[col])
        if lookup is not None:
            lookups.append(lookup)
    shown = [c for c in ctx.table.data.columns if c in out.columns
             and (c in ids or (shift is not None and c in shift["columns"]))]  # fmt: skip
    # what the identifiers become, never what they were: the page shows no direct identifier
    if shown:
        st.write("What the first rows' identifiers become:")
        st.dataframe(out[shown].head(5), hide_index=True)
    else:
        st.info("Every direct identifier is dropped.")
    stem = file_stem(ctx.table.name)
    files = [
        Download(md(table_download_label("Download the table with these identifiers (CSV)",
                                         key_unsaved=key_unsaved)),
                 lambda: to_csv_bytes(out), f"{stem}_identifiers_masked.csv", keys.REM_ID_CSV,
                 disabled=key_unsaved, wrap=True),
    ]  # fmt: skip
    if lookups:
        files.append(Download("Download the surrogates' lookup table (keep it apart)",
                              lambda: to_csv_bytes(pd.concat(lookups, ignore_index=True)),
                              f"{stem}_surrogate_lookup.csv", keys.REM_ID_LOOKUP))  # fmt: skip
    download_buttons(files)
    free_text_scan(ctx)
    plain_hash(ctx)


def _generalized(ctx: Context, columns: list[str]) -> list[str]:
    """Return those of ``columns`` the applied steps generalize (they have a hierarchy)."""
    try:
        now = history.folded(ctx, remediation.history(ctx.key))
    except RiskcoreError:  # the key is missing: the page says so elsewhere
        return []
    if now is None:
        return []
    level = dict(zip(now.quasi_identifiers, now.levels, strict=True))
    held = now.hierarchies
    return [c for c in columns if c in held and (held[c] != TAKEN_OVER or level.get(c, 0))]


def _choices(ctx: Context, column: str) -> list[str]:
    """The masking menu of a column: an operator that keeps the text and removes only the
    identifiers found in it (``redact_found``) is offered for free text holding some, within
    the operator's limit of characters."""
    scan = None if ctx.suggestions.text is None else ctx.suggestions.text.get(column)
    if scan is not None and scan.identifiers and scan.n_chars <= MAX_CHARS:
        return list(MENU)
    return [c for c in MENU if parse_choice(c)[0].treats is None]


def _apply_safe_harbor(ctx: Context) -> None:
    """Record the Safe Harbor transforms as one step of the history (a callback); why it was
    not applied goes next to the button; the Generalize tab then shows the hierarchies the
    step took over."""
    roles, sugg = _identifying(ctx)
    plan = safe_harbor_plan(ctx.table.data, roles, suggestions=sugg,
                            max_chars=scan_limit(ctx.key))  # fmt: skip
    if not plan:
        return
    if not history.record(ctx, "safe_harbor", {"steps": plan}):
        st.session_state[keys.REM_SH_ERROR] = st.session_state.pop(
            keys.REM_HISTORY_ERROR, "The step was not applied."
        )
        return
    active = remediation.active(ctx.key)
    if active is not None:
        remediation.show_on_page(ctx.key, active, ctx.table.data)


def _mask_step(ctx: Context, column: str) -> None:
    """Record the operator just chosen for ``column`` as one masking step (a callback)."""
    sex = find_sex_column(ctx.table.data, [*ctx.roles.quasi_identifiers, *ctx.roles.sensitive])
    op = str(st.session_state[keys.rem_operator(column)])
    history.record(ctx, "masking", mask_step(column, op, sex=sex))


def _shift_step(ctx: Context) -> None:
    """Record the date shift as one step once it names columns and a person (a callback)."""
    cols = [str(c) for c in st.session_state.get(keys.REM_SHIFT_COLS) or []]
    person = st.session_state.get(keys.REM_SHIFT_PERSON)
    if cols and person:
        days = int(st.session_state.get(keys.REM_SHIFT_DAYS, 180))
        history.record(ctx, "date_shift",
                       {"person": str(person), "columns": cols, "max_days": days})  # fmt: skip


def free_text_scan(ctx: Context) -> None:
    """Presidio's free-text PII detection (optional), beside the role rule's suggestions."""
    st.subheader("Identifiers inside free text")
    st.caption(
        "The role rule (Data page) reads column names and value patterns; Presidio reads the "
        "text itself and finds e-mails, phone, card and account numbers written inside it "
        "(not names or ZIP codes). Its findings are shown beside the rule's, never instead."
    )
    if not presidio_available():
        st.info(md("Not installed: " + PRESIDIO_MISSING))
        return
    if st.button("Scan the free-text columns (Presidio)", key=keys.REM_PII):
        st.session_state[keys.REM_PII_FOR] = ctx.key
    if st.session_state.get(keys.REM_PII_FOR) != ctx.key:
        return
    try:
        scan = cached.pii_scan(ctx.key, ctx.table.data)
    except RiskcoreError as exc:
        st.error(md(exc))
        return
    st.markdown(md(pii_reading(scan)))
    if scan.findings:
        st.dataframe(pii_table(scan, ctx.suggestions), hide_index=True)


def plain_hash(ctx: Context) -> None:
    """The enumeration attack on a plain SHA-256 of an SSN or birth-date column."""
    st.subheader("Why never a plain hash")
    st.caption(md(PLAIN_HASH_NOTE))
    kinds = {c: k for c in ctx.table.data.columns if (k := _hash_kind(ctx, c)) is not None}
    if not kinds:
        st.info("No SSN or birth-date column to try it on.")
        return
    col = st.selectbox("Column", list(kinds), key=keys.REM_ENUM_COL)
    if st.button(md(f"Reverse a SHA-256 of {col}"), key=keys.REM_ENUM):
        r = cached.enumeration(ctx.key, ctx.table.data, col, kinds[col])
        st.markdown(md(enumeration_reading(r, col)))


def _is_date(ctx: Context, column: str) -> bool:
    """Return True for a column of dates (the role rule's dates and birth dates, datetimes)."""
    kind = ctx.suggestions[column].kind if column in ctx.suggestions else ""
    return kind in ("dob", "date") or pd.api.types.is_datetime64_any_dtype(
        ctx.table.data[column].dtype
    )


def _hash_kind(ctx: Context, column: str) -> str | None:
    """Return "ssn" or "birth_date" for a column the role rule reads as one (its kind, not its
    reason's words: the reason for "sex" cites "date of birth"), else None."""
    kind = ctx.suggestions[column].kind if column in ctx.suggestions else ""
    if kind == "ssn" or "ssn" in column.lower():
        return "ssn"
    if kind == "dob" or "birth" in column.lower() or column.lower() == "dob":
        return "birth_date"
    return None
