"""Readings of per-record risk: the individual risk, special uniques, one record explained.

The population matches (k-map, delta-presence) are read in
:mod:`riskcore.report.readings.presence` and re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from riskcore.deidentify.search.cover import RecordCover
from riskcore.metrics.explain import RecordExplanation
from riskcore.metrics.records import IndividualRisk
from riskcore.metrics.special_uniques import SudaResult
from riskcore.report.readings._format import format_number, join_names, plural, short_share
from riskcore.report.readings.presence import (
    delta_reading,
    delta_table,
    population_failing_caption,
    population_intro,
    population_match_reading,
    record_kmap_table,
)

__all__ = [
    "cover_caption",
    "cover_columns_help",
    "cover_reading",
    "cover_table",
    "delta_reading",
    "delta_table",
    "dis_text",
    "explorer_intro",
    "individual_risk_reading",
    "msu_list",
    "population_failing_caption",
    "population_intro",
    "population_match_reading",
    "record_kmap_table",
    "record_reading",
    "record_subset_table",
    "record_subsets_caption",
    "record_values_table",
    "records_intro",
    "records_shown_caption",
    "suda_contribution_reading",
    "suda_contribution_table",
    "suda_gap_reading",
    "suda_reading",
    "suppressed_row_reading",
]

_MODEL = {
    "weights": "population class sizes estimated as the sum of the sampling weights in {w}",
    "sampling fraction": "population class sizes estimated from a sampling fraction of {pi:g}",
    "none": "the data taken as the whole population (risk 1 / class size)",
}


def individual_risk_reading(result: IndividualRisk) -> str:
    """Return the reading of the individual risk: expected re-identifications and records above tau.

    Plain text; the weight column's name is in it, so escape it before
    rendering as markdown.

    Parameters
    ----------
    result : IndividualRisk
        The individual risk: its expected re-identifications and records above tau.

    Returns
    -------
    str
    """
    model = _MODEL[result.model].format(w=result.weight_column, pi=result.sampling_fraction or 0.0)
    method = (
        "" if result.model == "none" else f", {result.method} Benedetti-Franconi individual risk"
    )
    if result.person is not None and result.n_people is not None:
        of = f"{result.n_people:,} people (in {result.n_records:,} rows)"
        above = plural(result.records_above, "person has", "people have")
    else:
        of = f"{result.n_records:,} records"
        above = plural(result.records_above, "record has", "records have")
    return (
        f"Expected re-identifications: {format_number(result.expected_reidentifications)} of "
        f"{of} (global risk {100 * result.global_risk:.3g}%); "
        f"{result.records_above:,} {above} "
        f"a risk above {result.threshold:g} (highest {format_number(result.highest_risk)}), "
        f"with {model}{method}."
    )


def _assignment(
    expl: RecordExplanation, qis: tuple[str, ...], escape: Callable[[object], str]
) -> str:
    parts = []
    for q in qis:
        v = expl.values[expl.quasi_identifiers.index(q)]
        parts.append(f"{escape(q)} = {escape('(missing)' if v is None else v)}")
    return " + ".join(parts)


def record_reading(expl: RecordExplanation, *, escape: Callable[[object], str] = str) -> str:
    """Return why one record is risky, in plain sentences.

    ``escape`` escapes column names and values (they come from the user's
    file); the default leaves them as they are (plain text).

    Parameters
    ----------
    expl : RecordExplanation
        The record's explanation.
    escape : callable, optional
        Escapes user-supplied text (column names, values) for where it is shown.

    Returns
    -------
    str
    """
    qis = expl.quasi_identifiers
    f = expl.class_size
    people = expl.person is not None
    if people:
        tuples = (
            ""
            if expl.person_tuples == 1
            else f", carrying {expl.person_tuples:,} different sets of values"
        )
        rows = f"{expl.person_rows:,} {plural(expl.person_rows, 'row', 'rows')}{tuples}"
        head = f"Row {expl.row:,} belongs to a person with {rows}. " + (
            f"No one else has their values of {escape(join_names(qis))} on their rows: "
            "anyone who knows them singles the person out."
            if f == 1
            else f"{f - 1:,} other {plural(f - 1, 'person has', 'people have')} the same "
            f"values of {escape(join_names(qis))} on their rows (a class of {f:,} people); "
            f"a match on them is right with probability 1/{f:,}."
        )
    elif f == 1:
        head = (
            f"Row {expl.row:,} is the only record with its values of "
            f"{escape(join_names(qis))}: anyone who knows them singles it out."
        )
    else:
        head = (
            f"Row {expl.row:,} shares its values of {escape(join_names(qis))} with "
            f"{f - 1:,} other {plural(f - 1, 'record', 'records')} (a class of {f:,}); a "
            f"match on them is right with probability 1/{f:,}."
        )
    it = "The person" if people else "It"
    if not expl.searched:
        msu = (
            f" {'Their' if people else 'Its'} special uniques (SUDA) were not searched, so "
            "which smaller sets of values single them out is not known here."
        )
    elif expl.msus:
        first = expl.msus[0]
        others = len(expl.msus) - 1
        more = f" and on {others:,} other {plural(others, 'combination', 'combinations')}"
        msu = (
            f" {it} is unique on {_assignment(expl, first, escape)} alone"
            f"{more if others else ''} ({len(expl.msus):,} minimal sample "
            f"{plural(len(expl.msus), 'unique', 'uniques')}, the smallest of {len(first)} "
            f"{plural(len(first), 'value', 'values')}; SUDA score "
            f"{format_number(expl.suda_score)}, DIS-SUDA {expl.dis_suda:.3f})."
        )
    elif f == 1:
        msu = " No smaller set of its values, up to the size searched, is unique on its own."
    else:
        msu = f" No set of its values is unique: {it.lower()} is not a special unique."
    i = qis.index(expl.top_qi)
    value = expl.values[i]
    shared = expl.value_counts[i]
    if expl.top_basis == "suda":
        top = (
            f" {escape(expl.top_qi)} contributes most: {short_share(expl.top_share)} of its SUDA "
            "score comes from unique combinations containing it."
        )
    else:
        top = (
            f" Its rarest value is {escape(expl.top_qi)} = "
            f"{escape('(missing)' if value is None else value)}, "
            + (
                f"held by {shared:,} {plural(shared, 'person', 'people')} on at least one row."
                if people
                else f"shared by {shared:,} {plural(shared, 'record', 'records')}."
            )
        )
    return head + msu + top


def suppressed_row_reading(row: int) -> str:
    """Return what a file row the remediation suppressed has to say (row numbers from 1).

    Parameters
    ----------
    row : int
        The file row, from 1.

    Returns
    -------
    str
    """
    return (
        f"Row {row:,} of the file is suppressed by the remediation in use: it is not released, "
        "so no attacker can single it out in this release. Pick another row, or go back to the "
        "table as recorded with the sidebar's switch."
    )


def dis_text(dis: float) -> str:
    """Return the DIS probability that a unique match is right ("0.250") as text.

    "n/a: no sample unique" when it is NaN (no record is unique on any combination).

    Parameters
    ----------
    dis : float
        A probability in [0, 1].

    Returns
    -------
    str
        The probability as text, or "n/a: no sample unique".
    """
    return "n/a: no sample unique" if dis != dis else f"{dis:.3f}"


def suda_gap_reading(s: SudaResult) -> str:
    """Return why fewer records are special uniques than are unique on all the QIs, or "".

    Every special unique is unique on all the QIs (a missing value counting as a value of
    its own, as on the Uniqueness page); the others are counted from the result: those
    with a missing value, which SUDA never uses (sdcMicro's ``suda2``), and those unique
    only on more values than the largest combination searched.

    Parameters
    ----------
    s : SudaResult
        The SUDA result: its sample uniques, special uniques and those with a missing value.

    Returns
    -------
    str
    """
    gap = s.sample_uniques - s.special_uniques
    if gap <= 0:
        return ""
    beyond = gap - s.unique_missing
    reasons = []
    if s.unique_missing:
        m = s.unique_missing
        reasons.append(
            f"{m:,} {plural(m, 'has a missing value', 'have a missing value')}, which SUDA never "
            f"uses (sdcMicro's rule), and {plural(m, 'its', 'their')} known values are shared "
            + ("with other records" if s.person is None else "with other people")
        )
    if beyond:
        reasons.append(
            f"{beyond:,} {plural(beyond, 'is', 'are')} unique only on more than {s.max_size} "
            f"{plural(s.max_size, 'value', 'values')} (the largest combination searched)"
        )
    who = (
        plural(s.sample_uniques, "record is", "records are")
        if s.person is None
        else plural(s.sample_uniques, "person is", "people are")
    )
    return (
        f"{s.sample_uniques:,} {who} unique on "
        "all the quasi-identifiers (the Uniqueness page's unique people, a missing value "
        f"counting as a value of its own), {gap:,} more than the special uniques: "
        + "; ".join(reasons)
        + "."
    )


def suda_reading(s: SudaResult) -> str:
    """Return what the special-uniques search found, in two sentences.

    Parameters
    ----------
    s : SudaResult
        The SUDA result: its special uniques and their MSUs by size.

    Returns
    -------
    str
    """
    n = s.n_records if s.n_people is None else s.n_people
    sizes = [f"{c:,} of size {i + 1}" for i, c in enumerate(s.msus_by_size) if c]
    who = (
        plural(n, "record", "records")
        if s.person is None
        else f"{plural(n, 'person', 'people')} (one record per person, in {s.n_records:,} rows)"
    )
    return (
        f"{s.special_uniques:,} of {n:,} {who} "
        f"({s.special_uniques / n:.1%}) are unique on some combination of at most "
        f"{s.max_size} of their quasi-identifier values (special uniques, Elliot et al. 2002): "
        f"{s.n_msus:,} minimal sample {plural(s.n_msus, 'unique', 'uniques')}"
        + (f" ({', '.join(sizes)})" if sizes else "")
        + ". The smaller a record's smallest unique combination, the less an intruder needs "
        "to know; SUDA scores weight small combinations most, and DIS-SUDA turns them into "
        f"the probability that a unique match is correct (sampling fraction {s.dis_fraction:g}: "
        "the n/N set with the targets, else sdcMicro's default 0.01, as DIS needs one)."
    )


def suda_contribution_table(s: SudaResult) -> pd.DataFrame:
    """Return each QI's share of the total SUDA score, largest first.

    Parameters
    ----------
    s : SudaResult
        The SUDA result: each quasi-identifier's contribution.

    Returns
    -------
    pandas.DataFrame
    """
    df = pd.DataFrame({"column": list(s.quasi_identifiers), "share": list(s.qi_contribution)})
    return df.sort_values("share", ascending=False, kind="stable").reset_index(drop=True)


def records_intro() -> str:
    """Return the Records page's opening paragraph.

    Returns
    -------
    str
    """
    return (
        "Class sizes say how many records share all their quasi-identifier values. A record "
        "can also stand out on a few of them: a 17-year-old widow is unique on age and "
        "marital status alone. This page finds those minimal unique combinations for every "
        "record (SUDA), scores each record, and explains any one of them."
    )


def suda_contribution_reading(table: pd.DataFrame) -> str:
    """Return the reading of :func:`suda_contribution_table` (largest share first).

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`suda_contribution_table`.

    Returns
    -------
    str
    """
    top = table.iloc[0]
    return (
        f"{top['column']} takes part in the unique combinations that make "
        f"{top['share']:.0%} of the scores: generalizing it lowers them most. Shares add up to "
        "more than 100% because a combination has several values."
    )


_MISSING = "(missing)"


def explorer_intro() -> str:
    """Return the opening sentence of the record explorer.

    Returns
    -------
    str
    """
    return (
        "Pick a record, the riskiest first or by its row number (the first data row is 1), "
        "to see its quasi-identifier values (never its direct identifiers), who shares them, "
        "the smallest combinations that single it out, and the least generalization that "
        "would hide it in a class of k."
    )


def record_values_table(expl: RecordExplanation) -> pd.DataFrame:
    """Return one record's QI values and how many records share each value alone.

    Only the quasi-identifiers of ``expl`` appear: a direct identifier is never shown.

    Parameters
    ----------
    expl : RecordExplanation
        The record's explanation.

    Returns
    -------
    pandas.DataFrame
        One record's QI values and how many records share each value alone
        (``people with this value`` with a person column: the people holding
        it on at least one row).
    """
    return pd.DataFrame(
        {
            "quasi-identifier": list(expl.quasi_identifiers),
            "value": [_MISSING if v is None else v for v in expl.values],
            "records with this value" if expl.person is None else "people with this value": list(
                expl.value_counts
            ),
        }
    )


def msu_list(
    expl: RecordExplanation, *, escape: Callable[[object], str] = str, limit: int = 10
) -> str:
    """Return the record's minimal sample uniques as a markdown list, each in bold.

    One item per MSU, smallest first ("**unique by age = 67 + zip = 021 alone**"), at
    most ``limit``, then one saying how many more; "" when it has none. Column names
    and values go through ``escape``.

    Parameters
    ----------
    expl : RecordExplanation
        The record's explanation.
    escape : callable, optional
        As :func:`record_reading`.
    limit : int, optional
        At most this many are listed.

    Returns
    -------
    str
    """
    lines = [
        f"- **unique by {_assignment(expl, cols, escape)} alone**" for cols in expl.msus[:limit]
    ]
    more = len(expl.msus) - limit
    if more > 0:
        lines.append(f"- and {more:,} more {plural(more, 'combination', 'combinations')}")
    return "\n".join(lines)


def record_subset_table(subsets: pd.DataFrame, expl: RecordExplanation) -> pd.DataFrame:
    """Return the combinations of one record's values (from ``record_subsets``) for display.

    Minimal sample uniques first, then by size and fewest sharing; a
    combination holding an MSU and more is left out (it is unique too, and
    says nothing new). Columns: one per QI, the record's value where the
    combination holds that QI (blank where not: one sentence a row, "age = 67 +
    zip = 021 + ...", was cut at a 1024 px window; a QI named like a later column
    is suffixed " (value)"), then ``values``, ``records sharing`` (the record
    included; ``people sharing`` with a person column) and ``minimal sample
    unique`` (left out when the special uniques were not searched).

    Parameters
    ----------
    subsets : pandas.DataFrame
        ``record_subsets``' table for the record.
    expl : RecordExplanation
        The record's explanation.

    Returns
    -------
    pandas.DataFrame
    """
    msus = [set(m) for m in expl.msus]
    keep = [
        bool(is_msu) or not any(m < set(cols) for m in msus)
        for cols, is_msu in zip(subsets["columns"], subsets["msu"], strict=True)
    ]
    shown = subsets[keep]
    sharing = "records sharing" if expl.person is None else "people sharing"
    taken = ("values", sharing, "minimal sample unique")
    cols: dict[str, object] = {}
    for q, v in zip(expl.quasi_identifiers, expl.values, strict=True):
        value = _MISSING if v is None else str(v)
        cols[_own_column(q, taken, "value")] = [value if q in c else "" for c in shown["columns"]]
    cols["values"] = shown["size"].to_numpy()
    cols[sharing] = shown["sharing"].to_numpy()
    cols["minimal sample unique"] = shown["msu"].to_numpy(dtype=bool)
    df = pd.DataFrame(cols)
    order = df.sort_values(
        ["minimal sample unique", "values", sharing],
        ascending=[False, True, True],
        kind="stable",
    ).reset_index(drop=True)
    if not expl.searched:  # no MSU is known: a column of blanks would read "none is one"
        order = order.drop(columns="minimal sample unique")
    return order


def record_subsets_caption(person: str | None = None, *, searched: bool = True) -> str:
    """Return the caption of the combinations table of one record (:func:`record_subset_table`).

    Parameters
    ----------
    person : str, optional
        The column linking the rows of one person: the counts are of people.
    searched : bool, default True
        Whether the special uniques were searched (else the table has no MSU column).

    Returns
    -------
    str
    """
    who = (
        "How many records share"
        if person is None
        else "How many people hold, on at least one of their rows,"
    )
    head = f"{who} each combination of its values (a row's values; blank: a column not in it)"
    if not searched:
        return head + ", fewest values first."
    return (
        head + ": its minimal sample uniques (no one else has them) first; combinations "
        "containing one are left out."
    )


def records_shown_caption(
    shown: int, n_rows: int, *, n_people: int | None = None, person: str | None = None
) -> str:
    """Return the caption of the per-record table: how many of how many rows are shown.

    Parameters
    ----------
    shown : int
        Rows on screen (the riskiest).
    n_rows : int
        Rows of the table (the download holds them all).
    n_people : int, optional
        The people, with a person column.
    person : str, optional
        The column linking the rows of one person.

    Returns
    -------
    str

    Examples
    --------
    >>> records_shown_caption(200, 8177, n_people=2500, person="patient_id")[:60]
    'The 200 riskiest of 8,177 rows (2,500 people, linked by pati'
    """
    if person is None:
        return f"The {shown:,} riskiest of {n_rows:,} records; the download has all."
    who = "" if n_people is None else f"{n_people:,} {plural(n_people, 'person', 'people')}, "
    return (
        f"The {shown:,} riskiest of {n_rows:,} rows ({who}linked by {person}): every row "
        "carries its person's class size in people, risk and targets failed; the download "
        "has all."
    )


def _changes(
    cover: RecordCover, labels: tuple[str | None, ...], escape: Callable[[object], str]
) -> str:
    parts = []
    for q, before, after in zip(cover.quasi_identifiers, cover.values, labels, strict=True):
        if before != after:
            parts.append(
                f"{escape(q)} {escape(_MISSING if before is None else before)} to "
                f"{escape(_MISSING if after is None else after)}"
            )
    return ", ".join(parts)


def cover_reading(cover: RecordCover, *, escape: Callable[[object], str] = str) -> str:
    """Return which generalization would put the record in a class of at least k.

    Parameters
    ----------
    cover : RecordCover
        The generalizations covering the record.
    escape : callable, optional
        Escapes the column names and values shown, as :func:`record_reading`'s.

    Returns
    -------
    str
    """
    k = cover.k
    if cover.levels is None:
        return (
            f"No generalization within the hierarchies puts row {cover.row:,} in a class of "
            f"{k:,}: even with every quasi-identifier at its top level fewer than {k:,} "
            f"{'people' if cover.person else 'records'} share its values. Suppress the "
            f"{'person' if cover.person else 'record'}, or lower k."
        )
    if not any(cover.levels):
        return (
            f"Row {cover.row:,} is already in a class of {cover.class_size:,} (k = {k:,}): "
            "no generalization is needed for it."
        )
    cost = "normalized certainty penalty" if cover.objective == "ncp" else "precision loss"
    head = (
        f"Generalizing {_changes(cover, cover.generalized, escape)} (the other "
        f"quasi-identifiers as recorded) puts row {cover.row:,} in a class of "
        f"{cover.covered_size:,}{' people' if cover.person else ''} (k = {k:,}): the least "
        "generalization of the table that covers "
        f"it, losing {short_share(cover.loss)} of the table's detail ({cost}, before "
        "suppression)."
    )
    changed = [i for i, x in enumerate(cover.levels) if x]
    only = changed[0] if len(changed) == 1 else None  # the answer is already one column alone
    alone = [
        f"{escape(q)} alone to {escape(_MISSING if label is None else label)} ({short_share(loss)})"
        for i, (q, level, loss, label) in enumerate(
            zip(
                cover.quasi_identifiers,
                cover.single_levels,
                cover.single_loss,
                cover.single_labels,
                strict=True,
            )
        )
        if level is not None and loss is not None and i != only
    ]
    if alone:
        tail = " One column generalized alone would also do: " + "; ".join(alone) + "."
    elif only is None:
        tail = " No single quasi-identifier generalized alone is enough."
    else:
        tail = ""
    return head + tail


def _own_column(q: str, taken: tuple[str, ...], suffix: str) -> str:
    """Return the column of QI ``q`` in a table whose other columns are ``taken``."""
    return f"{q} ({suffix})" if q in taken else q


def _cover_column(q: str) -> str:
    """Return the column of QI ``q`` in :func:`cover_table` (suffixed if its name is taken)."""
    return _own_column(q, ("levels", "class size", "information loss (%)"), "generalized")


def cover_table(cover: RecordCover) -> pd.DataFrame:
    """Return the minimal generalizations covering the record, least loss first.

    One column per quasi-identifier that any of them generalizes, holding the record's
    value under it (``30-39``; blank where that one keeps it as recorded), then
    ``levels`` (one per QI, as in the Remediate page), ``class size`` and
    ``information loss (%)``. Short cells: a sentence per row ("age 67 to 60-69, zip
    02139 to 021**") was cut at a 1024 px window. A QI named like one of the last three
    columns is suffixed " (generalized)".

    Parameters
    ----------
    cover : RecordCover
        The generalizations covering the record.

    Returns
    -------
    pandas.DataFrame
    """
    out: dict[str, list[object]] = {}
    for i, q in enumerate(cover.quasi_identifiers):
        if any(node[i] for node in cover.minimal):
            name = _cover_column(q)
            out[name] = [
                (_MISSING if labels[i] is None else str(labels[i])) if node[i] else ""
                for node, labels in zip(cover.minimal, cover.minimal_labels, strict=True)
            ]
    out["levels"] = [", ".join(str(x) for x in node) for node in cover.minimal]
    out["class size"] = list(cover.minimal_size)
    out["information loss (%)"] = [100 * x for x in cover.minimal_loss]
    return pd.DataFrame(out)


def cover_caption(cover: RecordCover, *, escape: Callable[[object], str] = str) -> str:
    """Return what the columns of :func:`cover_table` hold, for a table without tooltips.

    Parameters
    ----------
    cover : RecordCover
        The record's minimal generalizations
        (:func:`riskcore.deidentify.search.cover.cover_record`).
    escape : callable, optional
        As :func:`cover_reading`.

    Returns
    -------
    str
        One sentence: a QI column holds the record's value under each generalization
        (its recorded values named), blank where kept; the levels and the class size.
    """
    shown = cover_table(cover).columns
    recorded = [
        f"{escape(q)} {escape(_MISSING if v is None else v)}"
        for q, v in zip(cover.quasi_identifiers, cover.values, strict=True)
        if _cover_column(q) in shown
    ]
    names = ", ".join(escape(q) for q in cover.quasi_identifiers)
    unit = "people" if cover.person else "records"
    return (
        f"Each row is one generalization: a quasi-identifier's column holds row "
        f"{cover.row:,}'s value under it, blank where it is kept as recorded "
        f"({', '.join(recorded)}); levels: one per quasi-identifier ({names}), 0 = as "
        f"recorded; class size: the {unit} sharing the row's generalized values."
    )


def cover_columns_help(cover: RecordCover) -> dict[str, str]:
    """Return the tooltip of each column of :func:`cover_table`: a QI's recorded value.

    Parameters
    ----------
    cover : RecordCover
        The generalizations covering the record.

    Returns
    -------
    dict of str to str
        Column of :func:`cover_table` to its tooltip.
    """
    out = {}
    shown = cover_table(cover).columns
    for q, value in zip(cover.quasi_identifiers, cover.values, strict=True):
        if _cover_column(q) in shown:
            recorded = _MISSING if value is None else value
            out[_cover_column(q)] = (
                f"{q} of row {cover.row:,} under each generalization (as recorded: "
                f"{recorded}; blank: kept as recorded)"
            )
    names = ", ".join(cover.quasi_identifiers)
    out["levels"] = f"levels: one per quasi-identifier ({names}); 0 = as recorded"
    out["class size"] = "class size: the records sharing the row's generalized values"
    return out
