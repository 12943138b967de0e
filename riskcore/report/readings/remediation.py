"""Readings of a remediation: what a node does to the table, Safe Harbor, the recipe.

The least-loss search's outcome is read in :mod:`riskcore.report.readings.search`
and re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd

from riskcore.deidentify.hierarchy import Hierarchy, level_words
from riskcore.deidentify.masking import EnumerationResult
from riskcore.deidentify.recipe.base import Recipe
from riskcore.deidentify.recipe.identifiers import DetectedIdentifier
from riskcore.deidentify.recipe.steps import STEP_KINDS, recipe_steps
from riskcore.deidentify.safe_harbor import CATEGORIES, SafeHarborCheck
from riskcore.deidentify.search.lattice import NodeResult
from riskcore.freetext import PiiScan
from riskcore.report.readings._format import or_nothing_released, plural
from riskcore.report.readings.people import people_phrase
from riskcore.report.readings.search import (
    removed_column_warnings,
    search_reading,
    visited_table,
)
from riskcore.roles import RoleSuggestions

__all__ = [
    "GENERALIZED_PAGES",
    "POPULATION_FIRST",
    "average_risk_text",
    "enumeration_reading",
    "generalized_banner",
    "generalized_in_use",
    "hierarchy_heading",
    "level_label",
    "node_reading",
    "node_table",
    "pii_reading",
    "pii_table",
    "raw_identifiers_note",
    "recipe_table",
    "remediation_intro",
    "removed_column_warnings",
    "safe_harbor_table",
    "safe_harbor_takeover",
    "search_reading",
    "visited_table",
]


#: The pages that assess the generalized table once it is in use (the sidebar's switch).
GENERALIZED_PAGES = (
    "Uniqueness",
    "Anonymity",
    "Records",
    "Attacks",
    "Differential privacy",
    "Local DP",
    "Report",
)


#: What to do when a k-map or delta-presence target has no population table to judge by.
POPULATION_FIRST = (
    "k-map and delta-presence are judged against the population table the data were drawn "
    "from: upload it on the Records page's Population tab and match its columns, then come "
    "back; the search uses the table matched last (on the command line: --population FILE)."
)


def _pages() -> str:
    return ", ".join(GENERALIZED_PAGES[:-1]) + " and the " + GENERALIZED_PAGES[-1]


def generalized_banner(released: int, recorded: int) -> str:
    """Return the banner of a page that assesses the generalized table.

    Parameters
    ----------
    released, recorded : int
        Records of the generalized table (after suppression) and of the file.

    Returns
    -------
    str
    """
    return (
        f"This page assesses the generalized table ({released:,} of {recorded:,} records after "
        "suppression) chosen on the Remediate page, as every page that follows it does: "
        f"{_pages()} (which describes it beside the table as recorded). Row numbers are the "
        "file's. The sidebar's switch goes back to the table as recorded."
    )


def generalized_in_use(*, same: bool, levels_differ: bool) -> str:
    """Return the Remediate page's note while its generalized table is in use.

    ``same``: the recipe in use is the one the page shows; otherwise ``levels_differ``
    says whether its levels (or QIs) differ, or only its targets or masking steps.

    Parameters
    ----------
    same : bool
        The recipe in use is the one the page shows.
    levels_differ : bool
        Its levels or QIs differ (not only its targets or masking steps).

    Returns
    -------
    str
    """
    text = (
        f"The generalized table is in use: {_pages()} assess it (the Report beside the table "
        "as recorded); the sidebar's switch goes back and forth."
    )
    if same:
        return text
    if levels_differ:
        return text + " The levels above differ from the ones in use."
    return (
        text + " The targets or the masking steps changed since it was put in use: put it in "
        "use again to assess it under them."
    )


def remediation_intro(n_qis: int) -> str:
    """Return the Remediate page's opening paragraph.

    Parameters
    ----------
    n_qis : int
        The quasi-identifiers tagged.

    Returns
    -------
    str
    """
    return (
        f"Lower the risk by making the {n_qis} quasi-identifier{'s' if n_qis != 1 else ''} "
        "less precise: each is replaced by its value at one level of its hierarchy (ages in "
        "bands, ZIP codes cut short, categories grouped), and the records of classes that "
        "still break the targets are suppressed, within a limit. Move the levels to see the "
        "effect at once, or let the search find the levels that lose the least information "
        "(the normalized certainty penalty) while meeting the targets."
    )


def _same(text: str) -> str:
    return text


def hierarchy_heading(h: Hierarchy, *, own: bool) -> str:
    """Return "zip: prefix, 5 levels above the value (the default)": a hierarchy in one line.

    ``own``: the user's hierarchy (uploaded or edited), else the default one.

    Parameters
    ----------
    h : Hierarchy
        The hierarchy.
    own : bool
        The user's hierarchy (uploaded or edited), else the default one.

    Returns
    -------
    str
    """
    levels = "level" if h.height == 1 else "levels"
    mine = "yours" if own else "the default"
    return f"{h.column}: {h.kind}, {h.height} {levels} above the value ({mine})"


def level_label(h: Hierarchy, level: int, *, unit: str | None = None) -> str:
    """Return a level in words and a few of its labels as examples.

    For example "level 1 of 5: bands of 5 (35-39, 40-44, ...)" (the words from
    :func:`~riskcore.deidentify.hierarchy.level_words`).

    ``unit`` is what the numbers of an interval hierarchy count ("year").

    Parameters
    ----------
    h : Hierarchy
        The hierarchy.
    level : int
        A level, 0 for the values as written.
    unit : str, optional
        The values' unit, for interval bands.

    Returns
    -------
    str
    """
    labels = pd.unique(pd.Series(h.levels[level], dtype=object))
    shown = ", ".join(str(v) for v in labels[:4])
    more = f", ... ({len(labels):,} values)" if len(labels) > 4 else ""
    return f"level {level} of {h.height}: {level_words(h, level, unit=unit)} ({shown}{more})"


def node_reading(
    before: NodeResult,
    after: NodeResult,
    n: int,
    original_risk: float,
    *,
    escape: Callable[[str], str] = _same,
    person: str | None = None,
    n_rows: int | None = None,
) -> str:
    """Return what a generalization does: k, suppression and loss, before and after.

    ``before`` is the node with every QI at level 0 (the table as it is,
    the same targets); ``n`` is the number of records (of people with a
    person column); ``original_risk`` the average prosecutor risk of the
    table as recorded, J / n. With a person column the suppression counts
    people, with their rows (the nodes' ``suppressed_rows``).

    Parameters
    ----------
    before : NodeResult
        The node with every QI at level 0 (the table as it is).
    after : NodeResult
        The generalized node.
    n : int
        The number of records (of people with a person column).
    original_risk : float
        The average prosecutor risk of the table as recorded, J / n.
    escape : callable, optional
        Escapes user-supplied text (column names, values) for where it is shown.
    person : str, optional
        The column linking the rows of one person: ``n`` counts people.
    n_rows : int, optional
        The rows of the table (with a person column).

    Returns
    -------
    str
    """
    if person is None:
        one, many = "record", "records"
        of = f"{n:,} {plural(n, one, many)}"
        rows_after = ""
    else:
        one, many = "person", "people"
        of = people_phrase(n, n if n_rows is None else n_rows, person)  # "2,500 people in ..."
        rows_after = (
            ""
            if after.suppressed_rows is None
            else f" with their {after.suppressed_rows:,} "
            f"{plural(after.suppressed_rows, 'row', 'rows')}"
        )
    text = (
        f"As recorded, {before.suppressed:,} of {of} "
        f"({before.suppressed / n:.1%}) sit in classes that "
        f"break the targets. With these levels, {after.suppressed:,} "
        f"({after.suppressed / n:.1%}) do, and are suppressed{rows_after}; "
        + (
            f"the {after.n_classes:,} released {plural(after.n_classes, 'class', 'classes')} "
            f"have at least {after.k:,} {plural(after.k, one, many)}."
            if after.n_classes
            else "nothing is released."
        )
    )
    if after.n_classes:
        text += (
            f" An attacker who knows someone is in the release picks the right "
            f"{'record' if person is None else 'person'} with "
            f"probability {after.success_rate:.2%} on average (was {original_risk:.2%})."
        )
    text += (
        f" Information lost: {after.ncp:.1%} of the QI cells' precision (normalized certainty "
        "penalty, Xu et al. 2006, a suppressed cell counting as fully lost)."
    )
    if not after.anonymous:
        text += " That is more suppression than the limit allows: raise a level or the limit."
    return escape(text)


def average_risk_text(node: NodeResult) -> str:
    """Return a node's average re-identification risk ("0.52%"), or "n/a: nothing released".

    Parameters
    ----------
    node : NodeResult
        The evaluated node.

    Returns
    -------
    str
    """
    return or_nothing_released(node.success_rate if node.n_classes else float("nan"), "{:.2%}")


def node_table(before: NodeResult, after: NodeResult, targets_k: int) -> pd.DataFrame:
    """Return the figures of the table as recorded beside the generalized one's.

    As recorded: ``Lattice.as_recorded``, nothing suppressed; formatted for reading. With
    a person column (the nodes' ``suppressed_rows`` set) the suppression is of people, and
    their rows are a row of their own.

    Parameters
    ----------
    before : NodeResult
        The node with every QI at level 0.
    after : NodeResult
        The generalized node.
    targets_k : int
        The k the targets require.

    Returns
    -------
    pandas.DataFrame
    """

    def count(x: float) -> str:
        return f"{x:,.0f}"

    def share(x: float) -> str:  # a share of the released records: NaN when none is
        return or_nothing_released(x, "{:.2%}")

    def ratio(x: float) -> str:
        return or_nothing_released(x, "{:,.2f}")

    people = after.suppressed_rows is not None
    rows: list[tuple[str, Callable[[float], str], float, float]] = [
        ("smallest released class (k)", count, before.k, after.k),
        (
            "people suppressed" if people else "records suppressed",
            count,
            before.suppressed,
            after.suppressed,
        ),
    ]
    if people:
        rows.append(
            (
                "their rows suppressed",
                count,
                before.suppressed_rows or 0,
                after.suppressed_rows or 0,
            )
        )
    rows += [
        ("classes released", count, before.n_classes, after.n_classes),
        ("average re-identification risk", share, before.success_rate, after.success_rate),
        ("information loss (NCP)", share, before.ncp, after.ncp),
        ("precision loss", share, before.precision, after.precision),
        ("discernibility", count, before.discernibility, after.discernibility),
        (
            f"LeFevre's C_avg: average class size / k ({targets_k})",
            ratio,
            before.avg_class_size,
            after.avg_class_size,
        ),
    ]
    for attr, kl in after.distortion.items():  # suppression shifts a sensitive attribute
        rows.append(
            (
                f"shift of {attr}'s distribution (KL, nats)",
                _kl,
                before.distortion.get(attr, 0.0),
                kl,
            )
        )
    return pd.DataFrame(
        [(name, fmt(a), fmt(b)) for name, fmt, a, b in rows],
        columns=["figure", "as recorded", "generalized"],
    )


def _kl(x: float) -> str:
    return or_nothing_released(x, "{:.4f}")


def enumeration_reading(r: EnumerationResult, column: str) -> str:
    """Return what a plain SHA-256 of the column would give away, measured vs projected.

    Parameters
    ----------
    r : EnumerationResult
        The enumeration measured on the column.
    column : str
        The column's name.

    Returns
    -------
    str
    """
    what = "SSNs" if r.kind == "ssn" else "birth dates"
    head = (
        f"Hashing {column} with plain SHA-256 would not protect it: trying "
        f"{r.space_searched:,} candidate {what} took {r.seconds:.2f} s here "
        f"({r.hashes_per_second:,.0f} hashes a second, one core) and recovered "
        f"{r.n_recovered:,} of its {r.n_hashed:,} distinct values ({r.rows_recovered:,} rows)."
    )
    if r.whole_space:
        return head + " That was every possible value: all of them can be recovered."
    minutes = r.projected_seconds / 60
    return head + (
        f" Every one of the {r.full_space:,} possible values would take about "
        f"{minutes:,.0f} minutes at that rate (projected, not measured; a GPU is far "
        f"faster). {r.assumption}"
    )


def safe_harbor_table(check: SafeHarborCheck) -> pd.DataFrame:
    """Return the 18-category checklist as a table: what the data holds and what remains.

    Parameters
    ----------
    check : SafeHarborCheck
        The Safe Harbor check of the table.

    Returns
    -------
    pandas.DataFrame
    """
    return pd.DataFrame(
        [
            {
                "": f"({f.letter})",
                "category": f.category,
                "columns": ", ".join(f.columns) or "none found",
                "found by": "; ".join(f.detected),
                "what remains": "; ".join(f.remains),
            }
            for f in check.findings
        ]
    )


def safe_harbor_takeover(columns: Sequence[str]) -> str:
    """Return the sentence by the Safe Harbor button: the transforms replace a generalization.

    The generalization of the columns the applied steps generalize (issue 38 item 4): the
    recipe runs Safe Harbor before generalization, so a hierarchy built for the column as it
    was cannot be kept (:meth:`riskcore.deidentify.history.base.History.to_recipe`).

    Parameters
    ----------
    columns : sequence of str
        The columns the transforms change that a generalization step generalizes.

    Returns
    -------
    str
        One sentence naming them.
    """
    names = ", ".join(str(c) for c in columns)
    one = len(columns) == 1
    return (
        f"The applied steps generalize {names}, which the transforms change too: applied, "
        f"the transforms take over {'its' if one else 'their'} generalization (what Safe "
        f"Harbor makes of {'it' if one else 'them'} is kept at level 0 of a keep-or-suppress "
        "hierarchy, on the Generalize tab), instead of a hierarchy built for the values "
        "as they were; the history's risk and loss after the step say what that costs "
        "(the classes that then break the targets are suppressed)."
    )


def pii_table(scan: PiiScan, suggestions: RoleSuggestions) -> pd.DataFrame:
    """Return Presidio's findings beside the role rule: one row per column and entity.

    Columns: ``column``, ``entity`` (Presidio's type), ``score`` (its
    highest confidence, 0-1), ``values`` ("n of m sampled"), ``Safe Harbor``
    (the category, or "none of the 18") and ``role rule`` (the suggested role
    and its reason, which the scan never replaces).

    Parameters
    ----------
    scan : PiiScan
        The Presidio scan.
    suggestions : RoleSuggestions
        The role suggestions (the role rule's findings).

    Returns
    -------
    pandas.DataFrame
    """
    rows = []
    for f in scan.findings:
        s = suggestions[f.column] if f.column in suggestions else None
        rows.append(
            {
                "column": f.column,
                "role rule": f"{s.role.replace('_', '-')}: {s.reason}" if s is not None else "",
                "entity": f.entity,
                "Safe Harbor": f"({f.letter}) {CATEGORIES[f.letter].split(' (')[0]}"
                if f.letter is not None
                else "none of the 18",
                "values": f"{f.n_values:,} of {f.n_sampled:,} sampled",
                "score": round(f.max_score, 2),
            }
        )
    return pd.DataFrame(
        rows, columns=["column", "entity", "score", "values", "Safe Harbor", "role rule"]
    )


def pii_reading(scan: PiiScan) -> str:
    """Return what the free-text scan found, in one sentence, and what it cannot see.

    Parameters
    ----------
    scan : PiiScan
        The Presidio scan.

    Returns
    -------
    str
    """
    cols = sorted({f.column for f in scan.findings})
    n = len(scan.columns)
    if not cols:
        found = (
            "Presidio found no e-mail, phone, card or account number in "
            f"{n} free-text {plural(n, 'column', 'columns')}."
        )
    else:
        found = (
            f"Presidio found identifiers inside the text of {len(cols)} "
            f"{plural(len(cols), 'column', 'columns')} ({', '.join(cols)}) of the {n} scanned: "
            "tag them as direct identifiers on the Data page, or mask them."
        )
    return found + " " + scan.note


def _params(params: object) -> str:
    if not isinstance(params, dict) or not params:
        return ""
    return ", ".join(f"{k} {v}" for k, v in params.items() if v is not None)


def recipe_table(recipe: Recipe) -> pd.DataFrame:
    """Return every step a recipe records, in the order it applies them (never a key).

    One row per :func:`~riskcore.deidentify.recipe.steps.recipe_steps` step. Columns:
    ``step`` (Safe Harbor, date shift, masking, generalization, suppression,
    key), ``column``, ``operation`` (as the recipe names it), ``parameters``
    and ``in words`` (what the step does to the column).

    Parameters
    ----------
    recipe : Recipe
        The recipe.

    Returns
    -------
    pandas.DataFrame
    """
    rows = [
        {
            "step": STEP_KINDS[s.kind],
            "column": s.column,
            "operation": s.operation,
            "parameters": _params(s.parameters),
            "in words": s.effect,
        }
        for s in recipe_steps(recipe)
    ]
    return pd.DataFrame(rows, columns=["step", "column", "operation", "parameters", "in words"])


def raw_identifiers_note(untreated: Sequence[DetectedIdentifier]) -> str:
    """Return the warning of a download that carries detected direct identifiers as they are.

    Parameters
    ----------
    untreated : sequence of DetectedIdentifier
        The direct identifiers no step of the release's recipe masks, drops or transforms
        (:func:`riskcore.deidentify.recipe.identifiers.untreated_identifiers`); not empty.

    Returns
    -------
    str
        One sentence naming each column and what it appears to hold, then what to do.
    """
    named = "; ".join(f"{d.column} ({d.gist})" for d in untreated)
    n = len(untreated)
    return (
        f"This download carries {n} {plural(n, 'column', 'columns')} that look like direct "
        f"identifiers, as they are: {named}. No step masks, drops or generalizes "
        f"{plural(n, 'it', 'them')}: mask {plural(n, 'it', 'them')} on the Identifiers tab "
        "before releasing, or release knowingly (riskcore apply stops on "
        f"{plural(n, 'it', 'them')} unless --allow-identifiers names "
        f"{plural(n, 'it', 'them')})."
    )
