"""Readings of the candidate solutions: the table's sentence and display, two compared."""

from __future__ import annotations

import math
from typing import Literal

import pandas as pd

from riskcore.deidentify.search.candidates import Candidate, CandidateTable, Comparison
from riskcore.report.readings._format import or_nothing_released, plural
from riskcore.utility.objectives import OBJECTIVES

__all__ = [
    "LOSS_NAMES",
    "candidate_columns_shown",
    "candidate_display",
    "candidate_level_help",
    "candidates_reading",
    "comparison_reading",
    "comparison_table",
]

#: Short column names of the objectives in the candidate table.
LOSS_NAMES: dict[str, str] = {
    "ncp": "NCP",
    "precision": "precision loss",
    "loss": "ARX Loss (mean)",
    "loss_geometric": "ARX Loss (geometric)",
    "entropy": "non-uniform entropy (bits)",
    "aecs": "AECS",
    "discernibility": "discernibility",
    "dm_star": "DM*",
}
_SHARES = ("ncp", "precision", "loss", "loss_geometric")


def candidates_reading(table: CandidateTable) -> str:
    """Return what the candidate table lists: how many nodes, filtered, and whether a front.

    Parameters
    ----------
    table : CandidateTable
        The candidate nodes.

    Returns
    -------
    str
    """
    t = table
    head = (
        f"{t.anonymous:,} of the {t.evaluated:,} "
        f"{plural(t.evaluated, 'combination', 'combinations')} of levels evaluated meet the "
        "targets"
    )
    if t.filters:
        head += f"; {t.matching:,} of them are within the filters"
    if t.matching == 0:
        return head + ". None is listed: loosen a filter."
    if t.front_only:
        loss = OBJECTIVES[t.objective].label
        return (
            head + f". More than {t.limit:,} match, so the table lists the {len(t.rows):,} best "
            f"trade-offs: no other combination is lower on both the loss ({loss}) and the "
            "average re-identification risk."
        )
    return head + f". All {len(t.rows):,} are listed, least loss first."


def candidate_display(
    table: CandidateTable, *, levels: Literal["words", "numbers"] = "words", people: bool = False
) -> pd.DataFrame:
    """Return the candidate table for reading: numbers kept (so every column sorts), named.

    Per QI its level in words ("1: 10-year bands", the download) or its number alone (the
    screen, where "3: decade" was cut to "3: decad": each column's words are in its
    header's tooltip, :func:`candidate_level_help`); the objectives by their short names
    (:data:`LOSS_NAMES`), NCP and the average risk first; "search's choice" marks the
    search's optimum. The levels themselves stay in :meth:`CandidateTable.frame` (the
    filters read them).

    Parameters
    ----------
    table : CandidateTable
        The candidate nodes.
    levels : {"words", "numbers"}, default "words"
        Each QI's cell: its level and words ("3: decade") or the level alone (3).
    people : bool, default False
        The lattice counts people (a person column is set): the suppressed and the at-risk
        counts are of people ("people suppressed", "people at risk").

    Returns
    -------
    pandas.DataFrame
    """
    f = table.frame()
    out = pd.DataFrame(index=f.index)
    out["search's choice"] = f["best"].map({True: "yes", False: ""})
    for q in table.quasi_identifiers:
        out[q] = f[q] if levels == "numbers" else f[q].astype(str) + ": " + f[f"{q} (in words)"]
    out["NCP"] = f["ncp"]
    out["average risk"] = f["average risk"]
    out["people suppressed" if people else "suppressed"] = f["suppressed"]
    out["classes"] = f["classes"]
    out["smallest class"] = f["smallest class"]
    out["people at risk" if people else "records at risk"] = f["records at risk"]
    for key in [c for c in f.columns if c.endswith(" achieved")]:
        out[key] = f[key]
    for name, short in LOSS_NAMES.items():
        if name != "ncp":
            out[short] = f[name]
    return out


def candidate_level_help(table: CandidateTable) -> dict[str, str]:
    """Return each QI column's tooltip: its levels in the table, in words.

    "Levels of age: 0 kept as recorded; 3 bands of 20; 5 removed (*)", the levels
    the listed candidates take, lowest first (the screen shows the numbers alone,
    :func:`candidate_display` with ``levels="numbers"``).

    Parameters
    ----------
    table : CandidateTable
        The candidate nodes.

    Returns
    -------
    dict of str to str
        QI to its tooltip.
    """
    f = table.frame()
    out = {}
    for q in table.quasi_identifiers:
        pairs = f[[q, f"{q} (in words)"]].drop_duplicates(q).sort_values(q)
        words = "; ".join(f"{lv} {w}" for lv, w in pairs.itertuples(index=False))
        out[q] = f"Levels of {q}: {words}"
    return out


def candidate_columns_shown(display: pd.DataFrame) -> list[str]:
    """Return the columns of :func:`candidate_display` shown at first.

    They are the search's choice, each QI's level, NCP, average risk, suppressed records,
    the smallest class and the records at risk; the rest (the other objectives and each
    target's achieved figure) are a choice away and in the download.

    Parameters
    ----------
    display : pandas.DataFrame
        :func:`candidate_display` of a candidate table.

    Returns
    -------
    list of str
        Column names, in the table's order.
    """
    first = {"search's choice", "NCP", "average risk", "suppressed", "smallest class",
             "records at risk", "people suppressed", "people at risk"}  # fmt: skip
    qis = list(display.columns[1 : display.columns.get_loc("NCP")])
    return [c for c in display.columns if c in first or c in qis]


def _fmt_loss(name: str, x: float) -> str:
    if math.isnan(x):
        return "n/a"
    return f"{x:.2%}" if name in _SHARES else f"{x:,.4g}"


def _at_risk(c: Candidate) -> str:
    return "not counted" if c.records_at_risk is None else f"{c.records_at_risk:,}"


def comparison_table(cmp: Comparison, *, people: bool = False) -> pd.DataFrame:
    """Return two candidates side by side: levels, per-column NCP, classes, risk and losses.

    Columns ``figure``, ``A``, ``B``; every cell is text.

    Parameters
    ----------
    cmp : Comparison
        Candidates A and B compared.
    people : bool, default False
        The lattice counts people: the suppressed and at-risk counts are of people.

    Returns
    -------
    pandas.DataFrame
    """
    a, b = cmp.a, cmp.b
    unit = "people" if people else "records"
    rows: list[tuple[str, str, str]] = []
    for i, q in enumerate(cmp.quasi_identifiers):
        rows.append((f"{q}: level", f"{a.levels[i]}: {a.words[i]}", f"{b.levels[i]}: {b.words[i]}"))
    for q in cmp.quasi_identifiers:
        rows.append((f"{q}: NCP", f"{cmp.column_ncp_a[q]:.1%}", f"{cmp.column_ncp_b[q]:.1%}"))
    rows += [
        (f"{unit} suppressed", f"{a.suppressed:,}", f"{b.suppressed:,}"),
        ("classes released", f"{a.classes:,}", f"{b.classes:,}"),
        ("smallest released class", f"{a.smallest_class:,}", f"{b.smallest_class:,}"),
        (f"{unit} at risk", _at_risk(a), _at_risk(b)),
        (
            "average re-identification risk",
            or_nothing_released(a.average_risk, "{:.2%}"),
            or_nothing_released(b.average_risk, "{:.2%}"),
        ),
    ]
    for key in dict.fromkeys([*a.achieved, *b.achieved]):
        rows.append(
            (
                f"{key} achieved",
                f"{a.achieved.get(key, math.nan):,.4g}",
                f"{b.achieved.get(key, math.nan):,.4g}",
            )
        )
    for name, short in LOSS_NAMES.items():
        rows.append((short, _fmt_loss(name, a.losses[name]), _fmt_loss(name, b.losses[name])))
    return pd.DataFrame(rows, columns=["figure", "A", "B"])


def _which(x: float, y: float, lower: str, higher: str) -> str:
    return lower if x < y else higher


def comparison_reading(cmp: Comparison, *, people: bool = False) -> str:
    """Return two candidates compared in one or two sentences: loss, suppression, classes.

    Names the columns where they differ most in NCP.

    Parameters
    ----------
    cmp : Comparison
        Candidates A and B compared.
    people : bool, default False
        The lattice counts people: the suppression and the classes are in people.

    Returns
    -------
    str
    """
    a, b = cmp.a, cmp.b
    if a.levels == b.levels:
        return "A and B are the same combination of levels."
    na, nb = a.losses["ncp"], b.losses["ncp"]
    loses = (
        f"A and B both lose {na:.1%} of the QI cells' precision (NCP)"
        if f"{na:.1%}" == f"{nb:.1%}"
        else f"A loses {na:.1%} of the QI cells' precision (NCP) and B {nb:.1%}"
    )
    one, many = ("person", "people") if people else ("record", "records")
    text = (
        loses + "; "
        f"A suppresses {a.suppressed:,} {plural(a.suppressed, one, many)} and B "
        f"{b.suppressed:,}; A releases {a.classes:,} "
        f"{plural(a.classes, 'class', 'classes')} of at least {a.smallest_class:,} {many}, "
        f"B {b.classes:,} of at least {b.smallest_class:,}."
    )
    diff = {q: cmp.column_ncp_a[q] - cmp.column_ncp_b[q] for q in cmp.quasi_identifiers}
    q = max(diff, key=lambda c: abs(diff[c]))
    if abs(diff[q]) > 0:
        keeps = "A" if diff[q] < 0 else "B"
        text += (
            f" They differ most in {q}: {keeps} keeps more of it "
            f"(NCP {min(cmp.column_ncp_a[q], cmp.column_ncp_b[q]):.1%} against "
            f"{max(cmp.column_ncp_a[q], cmp.column_ncp_b[q]):.1%})."
        )
    return text
