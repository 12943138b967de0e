"""Readings of the free-text scan: what was found inside each text column, and what was not read."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from riskcore.freetext import ColumnScan
from riskcore.report.readings._format import plural

__all__ = ["free_text_reading", "free_text_table", "scan_all_label", "text_status"]

_STATUS = {
    "clean": "scanned: nothing found",
    "found": "scanned: identifiers found",
    "partial": "scanned partly: unchecked",
    "not_scanned": "not scanned: unchecked",
}


def text_status(scan: ColumnScan) -> str:
    """Return a text column's status in a few words ("scanned: identifiers found" ...).

    Parameters
    ----------
    scan : ColumnScan
        One text column's scan.

    Returns
    -------
    str
    """
    return _STATUS[scan.status]


def _found(scan: ColumnScan) -> str:
    return "; ".join(
        f"{f.label} ({f.letter or 'none of the 18'}): {f.n_found:,} in {f.n_cells:,} cells, "
        f"{f.n_values:,} distinct values"
        + (" (Presidio, sampled)" if f.source == "presidio" else "")
        for f in scan.findings
    )


def _read(s: ColumnScan) -> str:
    if s.status == "not_scanned":
        return s.why
    if s.status == "partial":
        return (
            f"{s.n_cells_scanned:,} of {s.n_cells:,} cells ({s.n_values_scanned:,} of "
            f"{s.n_values:,} distinct values): the limit of characters per column was reached"
        )
    return f"all {s.n_cells:,} cells ({s.n_values:,} distinct values)"


def free_text_table(text: Sequence[ColumnScan], *, examples: bool = False) -> pd.DataFrame:
    """Return one row per text column: its status, what was found, and how much was read.

    Parameters
    ----------
    text : sequence of ColumnScan
        ``SafeHarborCheck.text`` or ``TextScan.columns``.
    examples : bool, default False
        Add a column with one masked occurrence per kind (``(***) ***-1292``),
        for the page only: never in a report.

    Returns
    -------
    pandas.DataFrame
        Columns ``column``, ``status``, ``found`` (each kind with its Safe
        Harbor letter, occurrences, cells and distinct values), ``example``
        when asked, and ``read`` (cells and distinct values scanned, or why
        nothing was).
    """
    rows = []
    for s in text:
        row = {
            "column": s.column,
            "status": text_status(s),
            "found": _found(s) or "nothing",
            "read": _read(s),
        }
        if examples:
            row["example"] = ", ".join(f.example for f in s.findings if f.example)
        rows.append(row)
    cols = ["column", "status", "found"] + (["example"] if examples else []) + ["read"]
    return pd.DataFrame(rows, columns=cols)


def free_text_reading(text: Sequence[ColumnScan]) -> str | None:
    """Return what the free-text scan found, in a sentence or two; None without text columns.

    Parameters
    ----------
    text : sequence of ColumnScan
        The scans of the text columns.

    Returns
    -------
    str or None
    """
    if not text:
        return None
    n = len(text)
    found = [s.column for s in text if s.letters]
    unchecked = [s.column for s in text if not s.checked]
    lead = (
        f"The text of the {n} text {plural(n, 'column', 'columns')} was read by the built-in "
        "patterns "
        "(phone and fax numbers, e-mail addresses, SSNs, URLs, IP addresses, dates, record, "
        "card and long numbers, ZIP codes), whatever their role."
    )
    if found:
        lead += (
            f" Identifiers are written inside {len(found)} "
            f"{plural(len(found), 'column', 'columns')}: {', '.join(found)}."
        )
    else:
        lead += " No identifier was found in the text read."
    if unchecked:
        lead += (
            f" {len(unchecked)} {plural(len(unchecked), 'column was', 'columns were')} not fully "
            f"scanned ({', '.join(unchecked)}): unchecked, so Safe Harbor cannot pass until "
            "all of the text is read, or the column is replaced or dropped."
        )
    return lead


#: Characters the built-in patterns read per second on one core, measured on notes of about
#: 200 characters holding digits (about 1 s per million characters on a loaded 2-core machine).
_CHARS_PER_SECOND = 1_000_000


def scan_all_label(text: Sequence[ColumnScan]) -> str:
    """Return the label of the button that scans all of the unchecked columns' text.

    Parameters
    ----------
    text : sequence of ColumnScan
        The scans of the text columns.

    Returns
    -------
    str
        With the characters to read and a rough time.
    """
    total = sum(s.n_chars for s in text if not s.checked)
    seconds = max(1, round(total / _CHARS_PER_SECOND))
    return f"Scan all of the text ({total:,} characters, about {seconds:,} s)"
