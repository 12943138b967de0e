"""Keys of the Remediate page's candidate solutions and utility views (re-exported by
:mod:`ui.core.keys`: one namespace; the Remediate workbench's own concern)."""

from __future__ import annotations

#: The candidate solutions' and utility views' results kept for the session, {name: {key: value}}
#: (:mod:`ui.widgets.remediate.candidates`, :mod:`ui.widgets.remediate.utility`; a few entries
#: each).
REM_WORKBENCH = "rc_rem_workbench"
#: The column the candidate table is sorted by, and whether from the highest.
REM_CAND_SORT = "rc_rem_cand_sort"
REM_CAND_DESC = "rc_rem_cand_desc"
#: The candidate table's columns shown, and its download (every column).
REM_CAND_COLUMNS = "rc_rem_cand_columns"
REM_CAND_DOWNLOAD = "rc_rem_cand_download"
#: The candidates compared (A and B), and the buttons that use their levels.
REM_CAND_A = "rc_rem_cand_a"
REM_CAND_B = "rc_rem_cand_b"
REM_CAND_USE_A = "rc_rem_cand_use_a"
REM_CAND_USE_B = "rc_rem_cand_use_b"
#: The chart of the two candidates' loss per column.
REM_CAND_CHART = "rc_rem_cand_chart"


def rem_cand_filter(qi: str) -> str:
    """Return the key of the candidate table's filter (lowest, highest level) of ``qi``."""
    return f"rc_rem_cand_filter_{qi}"


#: The utility views: whether they are shown, the column shown before / after, the two
#: columns of the two-way table, the column predicted and the columns it is predicted from.
REM_UTIL_SHOW = "rc_rem_util_show"
REM_UTIL_COLUMN = "rc_rem_util_column"
REM_UTIL_ROWS = "rc_rem_util_rows"
REM_UTIL_COLS = "rc_rem_util_cols"
REM_UTIL_TARGET = "rc_rem_util_target"
REM_UTIL_FEATURES = "rc_rem_util_features"
#: The utility views' charts: per column changed, one column's values, the two-way table
#: as recorded and released, the classifier's accuracy.
REM_UTIL_CHANGE_CHART = "rc_rem_util_change_chart"
REM_UTIL_VALUES_CHART = "rc_rem_util_values_chart"
REM_UTIL_TWO_BEFORE = "rc_rem_util_two_before"
REM_UTIL_TWO_AFTER = "rc_rem_util_two_after"
REM_UTIL_ACCURACY_CHART = "rc_rem_util_accuracy_chart"

#: The Remediate page's history (:mod:`ui.widgets.remediate.history`): {"for": dataset key,
#: "history": History};
#: the message of a step that could not be applied (shown once by the panel); the panel's
#: buttons, its "go back to" choice and its downloads.
REM_HISTORY = "rc_rem_history"
REM_HISTORY_ERROR = "rc_rem_history_error"
REM_HISTORY_UNDO = "rc_rem_history_undo"
REM_HISTORY_REDO = "rc_rem_history_redo"
REM_HISTORY_GO = "rc_rem_history_go"
REM_HISTORY_RECIPE = "rc_rem_history_recipe"
REM_HISTORY_SCRIPT = "rc_rem_history_script"
#: The Safe Harbor tab's button that applies the transforms as a step of the history, and
#: why the step was not applied (shown once, next to the button).
REM_SH_APPLY = "rc_rem_sh_apply"
REM_SH_ERROR = "rc_rem_sh_error"


def rem_history_goto(steps: int, position: int) -> str:
    """Return the key of the panel's "go back to" choice for a history of ``steps`` steps at
    ``position`` (a new choice, showing where it stands, each time the history moves)."""
    return f"rc_rem_history_goto_{steps}_{position}"
