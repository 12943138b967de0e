"""Readings of a session's history: each step in words, and the history as a table.

Imported from its module (``from riskcore.report.readings.history import history_table``).
The words are derived from each step's parameters
(:class:`~riskcore.deidentify.history.base.AppliedStep`), never read back into data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd

from riskcore.criteria import Targets
from riskcore.deidentify.history.base import STEP_KINDS, AppliedStep, History
from riskcore.deidentify.masking.registry import get_operator
from riskcore.deidentify.recipe.steps import SAFE_HARBOR_WORDS
from riskcore.deidentify.search.steering import Steering
from riskcore.report.readings.criteria import targets_summary
from riskcore.utility.objectives import OBJECTIVES

__all__ = [
    "HISTORY_NOTE",
    "LOSS_AFTER",
    "LOSS_AFTER_HELP",
    "NOTHING_APPLIED",
    "RISK_AFTER",
    "RISK_AFTER_HELP",
    "SCRIPT_NOTE",
    "history_reading",
    "history_table",
    "position_label",
    "step_items",
    "step_words",
    "steps_list",
]

#: What the history panel of the Remediate page holds and how its figures are measured
#: (:func:`riskcore.deidentify.history.measure.step_scores`).
HISTORY_NOTE = (
    "Every step applied on this page, in order. The table every page assesses, the "
    "downloads and the recipe are those of the applied steps. Undo takes the last step "
    "back, Redo applies it again, and Go back to here keeps the steps up to the one "
    "chosen; the later ones can be redone until a new step is applied. Highest risk: the "
    "largest record risk (1 / the smallest class of the quasi-identifiers; a blank left by "
    "local suppression matches any value), not the page's average risk. Values changed: the "
    "share of quasi-identifier values changed or suppressed, not the page's information "
    "lost (NCP), which weighs how wide each generalized value is."
)

#: The history's two figures after each step, named apart from the page's metrics (the
#: "loss after" of 75% beside "Information lost (NCP) 26.8%" for the same table, issue 38):
#: :func:`riskcore.deidentify.history.measure.step_scores` measures them.
RISK_AFTER = "highest risk"
#: The share of QI values changed (:data:`RISK_AFTER`'s companion).
LOSS_AFTER = "values changed"
#: The tooltip of :data:`RISK_AFTER`'s column.
RISK_AFTER_HELP = (
    "The largest record risk after the step (1 / the smallest class), not the average risk "
    "the page shows."
)
#: The tooltip of :data:`LOSS_AFTER`'s column.
LOSS_AFTER_HELP = (
    "The share of quasi-identifier values the step's table does not hold as recorded "
    "(generalized, perturbed, blanked or suppressed), not the information lost (NCP) the "
    "page shows, which weighs how wide each generalized value is."
)

#: The Remediate page's export while no step is applied.
NOTHING_APPLIED = (
    "No step is applied yet: every page assesses the table as recorded. Apply these levels, a "
    "candidate, the Safe Harbor transforms, a masking choice or a perturbation, and the table, "
    "the recipe and the script follow the history."
)

#: What the command script does (:func:`riskcore.deidentify.history.script.command_script`).
SCRIPT_NOTE = (
    "The script lists the applied steps, writes their recipe and runs riskcore apply on the "
    "table: the same table as the download, on this file or next month's. It never holds the "
    "key: keyed steps read the key file it names."
)


def _levels(levels: Mapping[str, Any]) -> str:
    return ", ".join(f"{q} level {lv}" for q, lv in levels.items())


def _safe_harbor(p: Mapping[str, Any]) -> str:
    return "; ".join(f"{s['column']}: {SAFE_HARBOR_WORDS[s['action']](s)}" for s in p["steps"])


def _date_shift(p: Mapping[str, Any]) -> str:
    cols = ", ".join(p["columns"])
    return (
        f"{cols}: shifted by one keyed random number of days per {p['person']}, at most "
        f"{p['max_days']} days either way"
    )


def _masking(p: Mapping[str, Any]) -> str:
    op = get_operator(str(p["operator"]))
    return f"{p['column']}: {op.describe(op.configure(p.get('params') or {}))}"


def _perturb(p: Mapping[str, Any]) -> str:
    from riskcore.deidentify.recipe.steps import _perturb_words

    return "; ".join(f"{c}: {e}" if c else e for c, e in _perturb_words(p))


def _hierarchy(p: Mapping[str, Any]) -> str:
    return f"{p['column']}: new hierarchy ({p['hierarchy']['kind']}), back to level 0"


def _search(p: Mapping[str, Any]) -> str:
    label = OBJECTIVES[p["objective"]].label
    label = label[:1].lower() + label[1:]
    return f"search result chosen (least {label}): {_levels(p['levels'])}"


def _steering(p: Mapping[str, Any]) -> str:
    s = Steering.from_dict(p)
    if s.empty:
        return "search steering removed"
    parts = [f"{q} weight {w:g}" for q, w in s.weights.items()]
    parts += [f"{q} levels {lo} to {hi}" for q, (lo, hi) in s.levels.items()]
    return "search steered: " + ", ".join(parts)


_WORDS: Mapping[str, Callable[[Mapping[str, Any]], str]] = {
    "safe_harbor": _safe_harbor,
    "date_shift": _date_shift,
    "masking": _masking,
    "perturb": _perturb,
    "hierarchy": _hierarchy,
    "levels": lambda p: f"levels set: {_levels(p['levels'])}",
    "search": _search,
    "steering": _steering,
    "targets": lambda p: "targets: " + targets_summary(Targets.from_dict(p)),
}


def step_words(step: AppliedStep) -> str:
    """Return what a step did, in one line ("ssn: last 4 digits kept").

    Parameters
    ----------
    step : AppliedStep
        One step of the history.

    Returns
    -------
    str
    """
    return _WORDS[step.kind](step.parameters)


def history_table(history: History) -> pd.DataFrame:
    """Return the history as a table, one row per step, the redo tail marked.

    Parameters
    ----------
    history : History
        The steps done, and those undone that can be redone.

    Returns
    -------
    pandas.DataFrame
        Columns ``step`` (1, 2, ...), ``when`` (ISO 8601), ``kind`` (its label),
        ``what`` (:func:`step_words`), :data:`RISK_AFTER`, :data:`LOSS_AFTER` (None when
        not measured) and ``applied`` (False for the steps an undo took back).
    """
    rows = [
        {
            "step": i + 1,
            "when": s.at,
            "kind": STEP_KINDS[s.kind],
            "what": step_words(s),
            RISK_AFTER: s.risk,
            LOSS_AFTER: s.loss,
            "applied": i < history.position,
        }
        for i, s in enumerate(history.steps)
    ]
    cols = ["step", "when", "kind", "what", RISK_AFTER, LOSS_AFTER, "applied"]
    return pd.DataFrame(rows, columns=cols)


def history_reading(history: History) -> str:
    """Return where the history stands, in one sentence.

    Parameters
    ----------
    history : History
        The steps done, and those undone that can be redone.

    Returns
    -------
    str
        "No step applied yet.", or "3 of 5 steps applied; 2 can be redone."
    """
    n, pos = len(history.steps), history.position
    if n == 0:
        return "No step applied yet."
    text = f"{pos} of {n} step{'' if n == 1 else 's'} applied"
    tail = n - pos
    return text + (f"; {tail} can be redone." if tail else ".")


def position_label(history: History, position: int) -> str:
    """Return a point of the history in words, for "go back to here".

    Parameters
    ----------
    history : History
        The steps done, and those undone that can be redone.
    position : int
        How many steps are applied there (0: none).

    Returns
    -------
    str
        "Before any step (the table as recorded)" or "After step 2: masking (ssn: ...)".
    """
    if position <= 0 or position > len(history.steps):
        return "Before any step (the table as recorded)"
    step = history.steps[position - 1]
    what = step_words(step)
    if len(what) > 40:  # a select box's line at 1024 px
        what = what[:37] + "..."
    return f"After step {position}: {STEP_KINDS[step.kind]} ({what})"


def step_items(history: History) -> list[str]:
    """Return what each step did, one item a step, the undone ones marked.

    The History panel lists them under its table: in a column they were cut at every
    window width ("ssn: last 4 digits kept" needs 137 px, the column had 78 at 1024 px,
    issue 38); a list wraps.

    Parameters
    ----------
    history : History
        The session's history, its undone steps included.

    Returns
    -------
    list of str
        ``"ssn: last 4 digits kept"``, one a step (``" (undone)"`` after a step an undo took
        back); empty without steps.
    """
    return [
        f"{step_words(s)}{'' if i < history.position else ' (undone)'}"
        for i, s in enumerate(history.steps)
    ]


def steps_list(history: History, *, escape: Callable[[object], str] = str) -> str:
    """Return :func:`step_items` as a numbered Markdown list, one line a step.

    Parameters
    ----------
    history : History
        The session's history, its undone steps included.
    escape : callable, default str
        Applied to each item (a page passes its markdown escape: the numbers stay a list).

    Returns
    -------
    str
        ``"1. ssn: last 4 digits kept"``, one line a step; empty without steps.
    """
    return "\n".join(f"{i}. {escape(w)}" for i, w in enumerate(step_items(history), 1))
