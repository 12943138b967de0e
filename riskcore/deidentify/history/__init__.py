"""A session's history of remediation steps: undo, redo, measured, replayable as a script.

==================  =====================================================================
module              what
==================  =====================================================================
:mod:`.base`        :class:`History` and :class:`AppliedStep`: the steps and the cursor
:mod:`.measure`     the risk and loss after each step
:mod:`.script`      the history as a Python script that replays it
==================  =====================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from riskcore._exports import lazy_exports

if TYPE_CHECKING:
    from riskcore.deidentify.history.base import (
        MAX_STEPS,
        STEP_KINDS,
        TAKEN_OVER,
        AppliedStep,
        History,
        steps_of,
    )

_WHERE: dict[str, str] = {
    "MAX_STEPS": "base",
    "STEP_KINDS": "base",
    "TAKEN_OVER": "base",
    "AppliedStep": "base",
    "History": "base",
    "steps_of": "base",
}

__all__ = [
    "MAX_STEPS",
    "STEP_KINDS",
    "TAKEN_OVER",
    "AppliedStep",
    "History",
    "steps_of",
]

#: The old name of :class:`AppliedStep` (read with a DeprecationWarning).
_RENAMED = {
    "Step": (
        "AppliedStep",
        "riskcore.deidentify.history.Step is deprecated; use AppliedStep (a "
        "riskcore._steps.Step a user applied, with its risk, loss and time)",
    )
}

__getattr__, __dir__ = lazy_exports(__name__, _WHERE, _RENAMED)
