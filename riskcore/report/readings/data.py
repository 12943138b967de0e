"""Readings of the Data page: the column summary and the roles tagged."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore.report.readings._format import plural
from riskcore.roles import ColumnRoles, RoleSuggestion, RoleSuggestions
from riskcore.roles.persons import PersonCandidate, person_facts

if TYPE_CHECKING:
    from riskcore.io import LoadInfo

__all__ = [
    "READING_LABELS",
    "column_summary",
    "decimal_reading",
    "encoding_reading",
    "large_file_facts",
    "large_file_intro",
    "numeric_columns",
    "person_reading",
    "redundancy_reading",
    "report_intro",
    "report_verdict_reading",
    "report_view_reading",
    "roles_reading",
    "roles_summary",
    "suggestion_reading",
    "table_heading",
    "upload_limit_note",
]


@renamed_arguments(df="data")
def column_summary(data: pd.DataFrame, suggestions: Mapping[str, RoleSuggestion]) -> pd.DataFrame:
    """Summarise each column: type, missing values, distinct values and suggested role.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    suggestions : mapping of str to RoleSuggestion
        The suggested role of each column.

    Returns
    -------
    pandas.DataFrame
        One row per column.
    """
    n = len(data)
    rows = []
    for i, col in enumerate(data.columns):
        s = data.iloc[:, i]
        sug = suggestions.get(str(col))
        missing = int(s.isna().sum())
        rows.append(
            {
                "column": str(col),
                "type": str(s.dtype),
                "missing": missing,
                "missing %": missing / n if n else 0.0,
                "distinct": int(s.nunique(dropna=True)),
                "suggested role": sug.role if sug else "other",
                "reason": sug.reason if sug else "",
            }
        )
    return pd.DataFrame(rows)


@renamed_arguments(df="data")
def numeric_columns(data: pd.DataFrame, columns: list[str] | tuple[str, ...]) -> list[str]:
    """Return the numeric (not boolean) columns among ``columns``.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    columns : list of str or tuple of str
        The columns to look among, in the order returned.

    Returns
    -------
    list of str
    """
    return [
        c
        for c in columns
        if pd.api.types.is_numeric_dtype(data[c].dtype) and not pd.api.types.is_bool_dtype(data[c])
    ]


def encoding_reading(encoding: str | None, guessed: bool) -> str | None:
    """Return how a text file's encoding was chosen, or None for other formats (plain text).

    Parameters
    ----------
    encoding : str or None
        ``LoadInfo.encoding``: None for Parquet, Excel and the demo.
    guessed : bool
        ``LoadInfo.encoding_guessed``: the encoding was assumed (cp1252 / latin-1).

    Returns
    -------
    str or None
    """
    from riskcore.io import TEXT_ENCODINGS

    if encoding is None:
        return None
    label = TEXT_ENCODINGS.get(encoding, encoding)
    if guessed:
        return (
            f"Text encoding: {label}, assumed. The file is not UTF-8, so the Western European "
            "encoding that Excel and Windows save in was used. If names look wrong (letters "
            "of another alphabet), choose the file's encoding."
        )
    if encoding == "utf-8":
        return "Text encoding: UTF-8 (Unicode); every byte of the file is valid UTF-8."
    if encoding in ("utf-8-sig", "utf-16"):
        unicode = TEXT_ENCODINGS["utf-8" if encoding == "utf-8-sig" else "utf-16"]
        return f"Text encoding: {unicode}, as the file's byte-order mark says."
    return f"Text encoding: {label}, as chosen."


#: How each decimal mark is shown: its name and an example.
DECIMAL_LABELS = {".": "point (1234.56)", ",": "comma (1.234,56)"}


def decimal_reading(info: LoadInfo) -> str | None:
    """Return which decimal mark a text file's numbers were read with; None where it is moot.

    Said for a file read with the decimal comma, and for a file that is not
    comma-separated (where a decimal comma is common); never for Parquet,
    Excel, the demo or a comma-separated file read with the point.

    Parameters
    ----------
    info : LoadInfo
        The load: its ``decimal``, ``decimal_detected``, ``decimal_columns``
        and ``delimiter``.

    Returns
    -------
    str or None
        Plain text (column names unescaped: escape them for markdown).
    """
    if info.decimal is None or (info.decimal == "." and info.delimiter in (None, ",")):
        return None
    if info.decimal == ".":
        return (
            "Decimal mark: point (1234.56). If the file writes its numbers with a decimal "
            "comma (1.234,56), choose the comma."
        )
    how = "found in the file's numbers" if info.decimal_detected else "as chosen"
    cols = info.decimal_columns
    read = (
        f"{'this column was' if len(cols) == 1 else f'these {len(cols)} columns were'} read as "
        f"numbers with it: {', '.join(cols)}"
        if cols
        else "no column holds numbers written with it"
    )
    return f"Decimal mark: comma (1.234,56 is 1234.56), {how}; {read}."


def table_heading(name: str, n_rows: int, n_columns: int) -> str:
    """Return the heading of a loaded table: "name: 1,000 rows x 5 columns".

    A name that already ends with its row count ("Demo people (32,561 rows)") does not
    say it twice.

    Parameters
    ----------
    name : str
        The table's name.
    n_rows : int
        Its rows.
    n_columns : int
        Its columns.

    Returns
    -------
    str
    """
    said = f" ({n_rows:,} {'row' if n_rows == 1 else 'rows'})"
    if name.endswith(said):
        name = name[: -len(said)]
    return (
        f"{name}: {n_rows:,} {'row' if n_rows == 1 else 'rows'} x {n_columns:,} "
        f"{'column' if n_columns == 1 else 'columns'}"
    )


def upload_limit_note(limit_mb: int) -> str:
    """Return what the upload accepts and what to do with a larger file (markdown).

    Parameters
    ----------
    limit_mb : int
        The server's upload limit in megabytes (``server.maxUploadSize``).

    Returns
    -------
    str
    """
    return (
        f"Files up to {limit_mb:,} MB can be uploaded here; the browser refuses a larger one "
        "before it reaches the server. For a larger table, assess it where it lies with the "
        "command line, `riskcore assess FILE --qi COLUMN ...` (same numbers, no upload), or "
        f"save it as Parquet, which is usually 5 to 10 times smaller than the CSV."
    )


def _count(n: int, one: str, many: str, *, mark: str = "") -> str:
    """Return "4 identifiers", the count between ``mark`` ("**": in bold)."""
    return f"{mark}{n}{mark} {plural(n, one, many)}"


def roles_summary(roles: ColumnRoles) -> str:
    """Return the sidebar's two lines of role counts.

    For example "4 identifiers, 5 quasi-identifiers, 2 sensitive, 3 other"; with a column
    tagged as the person, "1 person" follows the identifiers (every figure then counts
    people).

    Parameters
    ----------
    roles : ColumnRoles
        The role of every column.

    Returns
    -------
    str
    """
    person = f"{_count(len(roles.persons), 'person', 'persons')}, " if roles.persons else ""
    return (
        f"{_count(len(roles.identifiers), 'identifier', 'identifiers')}, {person}"
        f"{_count(len(roles.quasi_identifiers), 'quasi-identifier', 'quasi-identifiers')},"
        f"\n{len(roles.sensitive)} sensitive, {len(roles.other)} other"
    )


def roles_reading(roles: ColumnRoles) -> str:
    """Return how many columns carry each role (markdown, counts in bold).

    Parameters
    ----------
    roles : ColumnRoles
        The role of every column, counted as :func:`roles_summary` does.

    Returns
    -------
    str
    """

    def count(n: int, one: str, many: str) -> str:
        return _count(n, one, many, mark="**")

    text = (
        f"{count(len(roles.quasi_identifiers), 'quasi-identifier', 'quasi-identifiers')}, "
        f"{count(len(roles.sensitive), 'sensitive attribute', 'sensitive attributes')}, "
        f"{count(len(roles.identifiers), 'direct identifier', 'direct identifiers')}."
    )
    # the roles only one column can have: what one does, and what to do with more
    for cols, one, note, others in (
        (roles.persons, "person column", ": it links the rows of one individual",
         "link the rows of one individual, so tag the others as direct identifiers"),
        (roles.weights, "sampling-weight column", "", "be used, so tag the others as other"),
    ):  # fmt: skip
        if len(cols) == 1:
            text += f" {count(1, one, '')}{note}."
        elif cols:
            text += f" {count(len(cols), '', one + 's')}: only one can {others}."
    return text


def redundancy_reading(suggestions: RoleSuggestions) -> tuple[str, list[str]] | None:
    """Return the note on quasi-identifiers left out as functions of others, or None.

    Parameters
    ----------
    suggestions : RoleSuggestions
        The role suggestions, with the redundant pairs.

    Returns
    -------
    tuple of (str, list of str) or None
        The lead sentence and one plain-text line per redundant pair (its
        reason, e.g. "education-num is a function of education (16 values,
        one-to-one) ..."); the lines hold column names, so escape them for
        markdown. None when no suggested quasi-identifier is redundant.
    """
    if not suggestions.redundant:
        return None
    lead = (
        "Redundant columns: a column that is a function of another adds nothing to the "
        "equivalence classes, so only one of each pair is suggested as a quasi-identifier."
    )
    return lead, [f"{p.reason}." for p in suggestions.redundant]


#: What each reading is called on the page.
READING_LABELS = {
    "safe_harbor": "Safe Harbor",
    "expert": "Expert determination",
}


def suggestion_reading(suggestions: RoleSuggestions) -> str | None:
    """Return which reading of the Privacy Rule the suggestions follow, or None when none differ.

    Parameters
    ----------
    suggestions : RoleSuggestions
        The suggestions; their ``by_reading`` columns are the full dates and
        5-digit ZIP codes whose role the reading decides.

    Returns
    -------
    str or None
        Plain text naming the reading, the columns it decides and what the
        other reading would make of them; None when no column depends on it.
    """
    columns = suggestions.by_reading
    if not columns:
        return None
    n = len(columns)
    which = f"{'this column' if n == 1 else f'these {n} columns'} ({', '.join(columns)})"
    if suggestions.reading == "expert":
        return (
            "The suggestions follow an expert determination (45 CFR 164.514(b)(1)): full dates "
            f"and 5-digit ZIP codes are quasi-identifiers, {which} to be generalised and the "
            "risk measured. Under Safe Harbor (45 CFR 164.514(b)(2)) they are direct "
            "identifiers, to be removed."
        )
    return (
        "The suggestions follow Safe Harbor (45 CFR 164.514(b)(2)): full dates and 5-digit "
        f"ZIP codes are direct identifiers, {which} to be removed. Under an expert "
        "determination (45 CFR 164.514(b)(1)) they are quasi-identifiers, generalised and "
        "measured."
    )


def person_reading(candidate: PersonCandidate, person: str | None) -> str:
    """Return the Data page's note on the column that links the rows of one person.

    "patient_id: 2,500 people in 8,177 rows, 1-10 rows each (median 2). ..."
    Derived from the candidate's facts (:func:`riskcore.roles.persons.find_persons`)
    and the column tagged as the person; plain text (it names columns: escape
    it for markdown).

    Parameters
    ----------
    candidate : PersonCandidate
        The best person column of the table.
    person : str or None
        The column tagged as the person, None when there is none.

    Returns
    -------
    str
    """
    c = candidate
    text = (
        f"{c.column}: {person_facts(c.n_people, c.n_rows, c.min_rows, c.max_rows)} "
        f"(median {c.median_rows:,.3g})"
    )
    if c.n_missing:
        text += f", and {c.n_missing:,} {'row' if c.n_missing == 1 else 'rows'} without a value"
    text += ". The rows of each repeated value differ in other columns"
    if c.same_person == 1:
        text += f" and agree on {' and '.join(c.traits)}"
    elif c.same_person is not None:
        text += f", and those of {c.same_person:.0%} of them agree on {' and '.join(c.traits)}"
    text += ": each value is the rows of one person. "
    if person == c.column:
        return (
            text + "It is tagged as the person: each person, not each row, is the unit of privacy."
        )
    if person is not None:
        return text + f"{person} is tagged as the person."
    return text + (
        "Tag it as the person (the suggestion): until a column is, every count is of rows, "
        "not people."
    )


def report_intro() -> str:
    """Return the Report page's opening paragraph.

    Returns
    -------
    str
    """
    return (
        "One document of this assessment, to file and sign: the dataset's fingerprint (never "
        "its values), the roles and why, the targets and what they mean, every figure with "
        "its method and citation, the linkage and homogeneity attacks with their 95% "
        "intervals, the generalization in use with its loss, the privacy "
        "budget spent, a verdict against the threshold, the command that reproduces every "
        "number, and fields for the reviewer. The HTML opens offline; the JSON twin holds the "
        "same numbers for another tool; the PDF (PDF/A-3b) carries the JSON inside it."
    )


def report_view_reading(*, chosen: bool, shown: bool) -> str:
    """Return which table the report describes.

    Parameters
    ----------
    chosen : bool
        A generalization was chosen on the Remediate page.
    shown : bool
        The sidebar's switch shows it (the report then holds before / after).

    Returns
    -------
    str
    """
    if chosen and shown:
        return (
            "This report describes the table as recorded and the generalized table in use: "
            "before / after side by side, with the information loss and the records "
            "suppressed; its verdict is on the generalized table."
        )
    if chosen:
        return (
            "This report describes the table as recorded, as the sidebar's switch shows it. "
            "Switch to the generalized table to add the before / after and the information "
            "loss of the generalization chosen on the Remediate page."
        )
    return (
        "This report describes the table as recorded (no generalization was chosen on the "
        "Remediate page)."
    )


def report_verdict_reading(verdict: dict[str, object]) -> str:
    """Return the report's verdict in one sentence (``Report.verdict``).

    Parameters
    ----------
    verdict : dict of str to object
        The report's ``verdict`` values.

    Returns
    -------
    str
    """
    head = "Passes" if verdict["pass"] else "Does not pass"
    return (
        f"{head}, on {verdict['of']}: {verdict['reason']} (threshold {verdict['threshold']:g}; "
        f"highest record risk {float(verdict['highest_risk']):.3f})."  # type: ignore[arg-type]
    )


def large_file_intro(root: str) -> str:
    """Return what "assess a large file by path" does and what it does not (plain text).

    Parameters
    ----------
    root : str
        The data directory the server's operator allowed (``RISKCORE_DATA_ROOT``).

    Returns
    -------
    str
    """
    return (
        f"Files below {root} on this server can be assessed where they lie, without an "
        "upload: Parquet files, directories or globs are streamed by Arrow, CSV read by "
        "DuckDB, in bounded memory. The figures are the class-based ones (k, the three "
        "risks, l and t), the same as the command line's riskcore assess PATH --engine "
        "auto; per-record measures, remediation and the other pages need the table loaded "
        "here."
    )


def large_file_facts(n_records: int, n_columns: int, engine: str) -> str:
    """Return one line on a file opened by path: its size and the engine reading it.

    Parameters
    ----------
    n_records : int
        The file's records.
    n_columns : int
        The file's columns.
    engine : str
        The engine's name.

    Returns
    -------
    str
    """
    return f"{n_records:,} records, {n_columns:,} columns, read by the {engine} engine."
