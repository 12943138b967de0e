"""Readings of uniqueness per QI subset and each QI's contribution to it."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore.metrics.uniqueness import UniquenessResult
from riskcore.report.readings._format import join_names, plural, short_share

__all__ = [
    "anyone_unique",
    "classes_intro",
    "contribution_matters",
    "contribution_reading",
    "contribution_table",
    "subset_reading",
    "subset_table",
    "unique_missing_reading",
]


@renamed_arguments(qis="quasi_identifiers")
def classes_intro(
    quasi_identifiers: list[str] | tuple[str, ...],
    *,
    escape: Callable[[object], str] = str,
    person: str | None = None,
) -> str:
    """Return the Uniqueness page's introduction: classes and uniques on the QIs (markdown).

    ``escape`` escapes the column names (they come from the user's file).

    Parameters
    ----------
    quasi_identifiers : list of str or tuple of str
        The quasi-identifier columns.
    escape : callable, optional
        Escapes user-supplied text (column names, values) for where it is shown.
    person : str, optional
        The column linking the rows of one person: a class is then the people
        whose rows carry the same set of values.

    Returns
    -------
    str
    """
    if person is not None:
        return (
            "People whose rows carry the same set of values on every quasi-identifier form "
            "an *equivalence class* (the rows of one person are linked by "
            f"{escape(person)}). Someone alone in their class is *unique*: anyone who knows "
            f"their {escape(join_names(quasi_identifiers))} on each of their rows can pick "
            "out their rows."
        )
    return (
        "People who share the same values on every quasi-identifier form an *equivalence class*. "
        "Someone alone in their class is *unique*: anyone who knows their "
        f"{escape(join_names(quasi_identifiers))} can pick out their record."
    )


def contribution_reading(result: UniquenessResult) -> str:
    """Return the reading under the per-QI contribution chart (or instead of it).

    When no single column's removal makes anyone non-unique the chart would be
    all zeros; :func:`contribution_matters` is then False and this sentence
    says why instead.

    Parameters
    ----------
    result : UniquenessResult
        The uniqueness result: each QI's contribution.

    Returns
    -------
    str
    """
    full = result.all_quasi_identifiers
    u = full.unique_records
    if u == 0:
        return "Nobody is unique on these quasi-identifiers, so no column drives uniqueness."
    top = result.contributions[0]
    qis = join_names(full.columns)
    if top.drop == 0:
        return (
            f"{u:,} people ({full.unique_share:.1%}) are unique on {qis}, and every one "
            "of them stays unique when any single column is removed: no one column drives "
            "uniqueness, the columns do it together (see the combinations below)."
        )
    return (
        f"{u:,} people ({full.unique_share:.1%}) are unique on {qis}; removing "
        f"{top.column} would make {short_share(top.drop_share)} of them non-unique "
        f"({top.drop:,} people), more than any other column."
    )


def contribution_matters(result: UniquenessResult) -> bool:
    """Return True when removing some single QI makes at least one person non-unique.

    Parameters
    ----------
    result : UniquenessResult
        The uniqueness result whose contributions are checked.

    Returns
    -------
    bool
    """
    return any(c.drop > 0 for c in result.contributions)


def subset_table(result: UniquenessResult, *, top: int = 25) -> pd.DataFrame:
    """Return the QI subsets with the highest uniqueness, for a bar chart.

    Columns: ``columns`` (joined names), ``size`` (number of QIs),
    ``unique records`` (``unique people`` when the result counts people),
    ``unique %``, ``k``; ``attrs["more"]`` is the number of subsets left out.

    Parameters
    ----------
    result : UniquenessResult
        The uniqueness result: its QI subsets.
    top : int, optional
        The most subsets kept.

    Returns
    -------
    pandas.DataFrame
    """
    unique = "unique records" if result.person is None else "unique people"
    rows = [
        {
            "columns": join_names(s.columns),
            "size": len(s.columns),
            unique: s.unique_records,
            "unique %": 100.0 * s.unique_share,
            "k": s.k,
        }
        for s in result.subsets
    ]
    df = pd.DataFrame(rows, columns=["columns", "size", unique, "unique %", "k"])
    out = (
        df.sort_values(["unique %", "size"], ascending=[False, True])
        .head(top)
        .reset_index(drop=True)
    )
    out.attrs["more"] = len(df) - len(out)  # subsets left out, for the chart's title
    return out


def anyone_unique(table: pd.DataFrame) -> bool:
    """Return whether anyone is unique on a combination of :func:`subset_table`.

    When nobody is, the chart would be empty and :func:`subset_reading` says so in words.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`subset_table`.

    Returns
    -------
    bool
    """
    return bool(len(table)) and int(table[_unique_column(table)].max()) > 0


def _unique_column(table: pd.DataFrame) -> str:
    """Return the count column of :func:`subset_table`: of people or of records."""
    return "unique people" if "unique people" in table.columns else "unique records"


def subset_reading(table: pd.DataFrame, *, complete: bool) -> str:
    """Return the reading under the subset chart: the most identifying combination.

    ``table`` is :func:`subset_table` (sorted, most identifying first);
    ``complete`` says whether every combination was tested.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`subset_table` (most identifying first).
    complete : bool
        Every combination was tested.

    Returns
    -------
    str
    """
    top = table.iloc[0]
    unique = int(top[_unique_column(table)])
    if unique == 0:  # an empty chart: say it in words
        n = len(table)
        said = (
            f"the one combination of quasi-identifiers tested ({top['columns']}): everyone "
            "shares their values of it"
            if n == 1
            else f"any of the {n:,} combinations of quasi-identifiers tested: everyone shares "
            "their values of each"
        )
        return f"Nobody is unique on {said} with at least one other person." + (
            "" if complete else " (Only the first 120 combinations were tested.)"
        )
    return (
        f"The most identifying combination tested is {top['columns']}: {top['unique %']:.1f}% of "
        f"people ({unique:,}) are unique on it."
        + ("" if complete else " (Only the first 120 combinations were tested.)")
    )


def contribution_table(result: UniquenessResult) -> pd.DataFrame:
    """Return each QI's contribution to uniqueness (largest first).

    Columns: ``column``, ``drop`` (people who stop being unique when it is
    removed), ``drop %`` (of the unique people), ``unique without``.

    Parameters
    ----------
    result : UniquenessResult
        The uniqueness result, as :func:`contribution_reading`'s.

    Returns
    -------
    pandas.DataFrame
    """
    return pd.DataFrame(
        [
            {
                "column": c.column,
                "drop": c.drop,
                "drop %": 100.0 * c.drop_share,
                "unique without": c.unique_without,
            }
            for c in result.contributions
        ],
        columns=["column", "drop", "drop %", "unique without"],
    )


def unique_missing_reading(unique: int, unique_missing: int, skipped: int | None = None) -> str:
    """Return why the Records page can count fewer special uniques than unique people, or "".

    Parameters
    ----------
    unique : int
        Records unique on all the QIs (a missing value a value of its own).
    unique_missing : int
        Of those, records with a missing QI value
        (:func:`riskcore.metrics.missing.count_unique_missing`).
    skipped : int, optional
        Of those, the records SUDA finds no minimal sample unique for
        (:attr:`riskcore.metrics.SudaResult.unique_missing`); unknown (not searched
        yet) when None, and the sentence gives the most it can be.

    Returns
    -------
    str
        Empty when no unique record has a missing value.
    """
    if not unique_missing:
        return ""
    head = (
        f"{unique_missing:,} of the {unique:,} unique people "
        f"{'has' if unique_missing == 1 else 'have'} a missing quasi-identifier value, counted "
        "here as a value of its own. The Records page's special uniques (SUDA) never use a "
        "missing value"
    )
    if skipped is None:
        return (
            head + ", so such a record is one only when its known values alone single it out: "
            f"that count can be up to {unique_missing:,} lower."
        )
    if not skipped:
        return head + ", and the known values of each of these single it out: the counts agree."
    return (
        head + f": {skipped:,} of them {plural(skipped, 'is', 'are')} not "
        f"{plural(skipped, 'a special unique', 'special uniques')} there "
        f"({plural(skipped, 'its', 'their')} known values are shared), so Records counts "
        f"{skipped:,} fewer."
    )
