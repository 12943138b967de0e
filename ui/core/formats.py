"""Labels of widget options, defined here and never in a page.

Streamlit keeps every widget's ``format_func`` (and callbacks) in the
session's widget metadata until the session is gone, which is long after its
tab closed. A function defined in a page script holds that script's globals,
and with them the page's table: one 1,000,000-row session kept about 100 MB
alive after its tab closed through a lambda ``format_func``. Functions of an
imported module hold only that module's globals.

Radios and select sliders render their options as markdown: their labels
(:data:`ESCAPED`) go through ``md``. A select box shows plain text, so its
labels (``threshold``, ``mechanism``, ``operator``) must not: a backslash
would show.
"""

from __future__ import annotations

from riskcore import dp
from riskcore.deidentify.masking import choice_label
from riskcore.metrics import THRESHOLDS
from riskcore.report.readings import MISSING_LABELS
from ui.core.safe import md

__all__ = [
    "ACCOUNTANT_LABELS",
    "CANDIDATE_SOURCES",
    "ESCAPED",
    "accountant",
    "candidate_source",
    "general_number",
    "level_of",
    "mechanism",
    "missing_policy",
    "operator",
    "threshold",
]

#: The labels escaped by md, for widgets that render options as markdown.
ESCAPED = frozenset(
    {"general_number", "accountant", "candidate_source", "level_of", "missing_policy"}
)

ACCOUNTANT_LABELS = {"basic": "basic composition", "zcdp": "zCDP"}
CANDIDATE_SOURCES = {
    "sample": "m people drawn from the table",
    "class": "the smallest equivalence class on the QIs",
}

def general_number(value: float) -> str:
    """Return a number in its shortest form (1e-06, 0.95)."""
    return md(f"{value:g}")


def threshold(value: float) -> str:
    """Return a record-risk threshold with its cited meaning."""
    return f"{value:g}  ({THRESHOLDS[value]})"


def mechanism(value: str) -> str:
    """Return a DP mechanism's label."""
    return dp.Mechanism(value).label


def accountant(value: str) -> str:
    """Return a privacy accountant's label."""
    return md(ACCOUNTANT_LABELS[value])


def candidate_source(value: str) -> str:
    """Return where the differential-identifiability candidates come from."""
    return md(CANDIDATE_SOURCES[value])


def missing_policy(value: str) -> str:
    """Return a missing-value policy's label ("a value of its own", "matches any value")."""
    return md(MISSING_LABELS[value])


def operator(value: str) -> str:
    """Return a masking menu choice's label (the registry's)."""
    return choice_label(value)


def level_of(height: int, level: int) -> str:
    """Return "2 of 5": a level of a hierarchy of that height (bind ``height`` with partial)."""
    return md(f"{level} of {height}")
