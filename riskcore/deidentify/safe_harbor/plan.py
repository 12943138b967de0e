"""The Safe Harbor transforms a table needs, as recipe steps, and applying them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from riskcore.deidentify.safe_harbor.check import inputs
from riskcore.deidentify.safe_harbor.transforms import (
    SafeHarborStep,
    SafeHarborTransform,
    TransformStep,
    ages_to_90_plus,
    dates_to_year,
    redact_text,
    safe_harbor_step,
    zip_to_zip3,
)
from riskcore.errors import RiskcoreError
from riskcore.freetext import MAX_CHARS, TextScan
from riskcore.roles import ColumnRoles, RoleSuggestions

__all__ = ["apply_safe_harbor", "run_safe_harbor", "safe_harbor_plan"]


def safe_harbor_plan(
    data: pd.DataFrame,
    roles: ColumnRoles | None = None,
    *,
    as_of: int | None = None,
    suggestions: RoleSuggestions | None = None,
    text: TextScan | None = None,
    max_chars: int = MAX_CHARS,
) -> list[dict[str, Any]]:
    """Return the Safe Harbor transform each column needs, as recipe steps.

    Using the same rule as :func:`~riskcore.deidentify.safe_harbor.safe_harbor_check`:
    5-digit ZIP codes and 3-digit areas get ``zip3`` (:func:`zip_to_zip3`);
    ages ``age_90_plus`` (:func:`ages_to_90_plus`); full dates ``date_year``
    (:func:`dates_to_year`, with ``birth`` for birth dates and years of birth,
    and the reference year ``as_of``); every other direct identifier (names,
    SSNs, streets, cities, record numbers, free text the role rule calls a
    direct identifier, and the columns tagged as direct identifiers in
    ``roles``) ``dropped``; another text column in whose text the free-text
    scan found identifiers (a diagnosis column holding a date, say)
    ``redact_text`` (:func:`redact_text`: the identifiers become
    placeholders, the column stays). Columns that need nothing have no step.

    Parameters
    ----------
    data, roles, as_of, suggestions, text, max_chars
        As in :func:`~riskcore.deidentify.safe_harbor.safe_harbor_check`.

    Returns
    -------
    list of dict
        ``{"column", "action", ...}`` in column order; :func:`run_safe_harbor`
        applies them (to this table or next month's).
    """
    year_now, sugg, tagged, status = inputs(data, roles, as_of, suggestions, text, max_chars)
    found_in_text = {c.column for c in status if c.letters}
    plan: list[dict[str, Any]] = []
    for name, s in sugg.items():
        if s.kind in ("zip", "zip3"):
            plan.append({"column": name, "action": "zip3"})
        elif s.kind == "age":
            plan.append({"column": name, "action": "age_90_plus"})
        elif s.kind in ("dob", "birth_year"):
            plan.append({"column": name, "action": "date_year", "birth": True, "as_of": year_now})
        elif s.kind == "date" or (s.kind == "year" and s.role == "identifier"):
            plan.append({"column": name, "action": "date_year", "birth": False, "as_of": year_now})
        elif s.role == "identifier" or name in tagged:
            why = s.reason if s.role == "identifier" else "tagged as a direct identifier"
            plan.append({"column": name, "action": "dropped", "why": why})
        elif name in found_in_text:
            plan.append({"column": name, "action": "redact_text"})
    return plan


def run_safe_harbor(
    data: pd.DataFrame, plan: Sequence[SafeHarborStep | Mapping[str, Any]]
) -> SafeHarborTransform:
    """Apply Safe Harbor steps (from :func:`safe_harbor_plan` or a recipe) to a table.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    plan : sequence of SafeHarborStep or mapping
        Steps, or their dicts ``{"column", "action", ...}``; actions ``zip3``,
        ``age_90_plus``, ``date_year`` (with ``birth``, ``as_of``),
        ``redact_text`` and ``dropped`` (with ``why``).

    Returns
    -------
    SafeHarborTransform
        The new table and one step per column.

    Raises
    ------
    RiskcoreError
        For a column the table does not have, or an unknown action.
    """
    out = data.copy()
    steps: list[TransformStep] = []
    drop: list[str] = []
    for spec in map(safe_harbor_step, plan):
        name, action, params = spec.column, spec.action, spec.parameters
        if name not in data.columns:
            raise RiskcoreError(f"the table has no column {name!r}, which a Safe Harbor step names")
        col = data[name]
        if action == "zip3":
            out[name], step = zip_to_zip3(col)
        elif action == "age_90_plus":
            out[name], step = ages_to_90_plus(col)
        elif action == "date_year":
            out[name], step = dates_to_year(
                col, birth=bool(params.get("birth", False)), as_of=params.get("as_of")
            )
        elif action == "redact_text":
            out[name], step = redact_text(col)
        elif action == "dropped":
            drop.append(name)
            why = params.get("why") or "a direct identifier"
            step = TransformStep(name, "dropped", int(col.notna().sum()), f"Dropped: {why}.")
        else:
            raise RiskcoreError(f"unknown Safe Harbor action {action!r} for {name!r}")
        steps.append(step)
    return SafeHarborTransform(out.drop(columns=drop), tuple(steps))


def apply_safe_harbor(
    data: pd.DataFrame,
    roles: ColumnRoles | None = None,
    *,
    as_of: int | None = None,
    suggestions: RoleSuggestions | None = None,
    text: TextScan | None = None,
    max_chars: int = MAX_CHARS,
) -> SafeHarborTransform:
    """Apply the standard Safe Harbor transforms to every column that needs one.

    :func:`safe_harbor_plan` (the rule of the checklist) run by
    :func:`run_safe_harbor`. Columns that need nothing are left as they are.

    Parameters
    ----------
    data, roles, as_of, suggestions, text, max_chars
        As in :func:`~riskcore.deidentify.safe_harbor.safe_harbor_check`.

    Returns
    -------
    SafeHarborTransform
        The new table (``data`` is not changed) and one step per column
        changed or dropped.
    """
    plan = safe_harbor_plan(
        data, roles, as_of=as_of, suggestions=suggestions, text=text, max_chars=max_chars
    )
    return run_safe_harbor(data, plan)
