"""Readings of the hierarchy builder: how a date column was read, what a preview shows.

The builder (:mod:`riskcore.deidentify.hierarchy`) computes; these sentences say it.
"""

from __future__ import annotations

from collections.abc import Mapping

from riskcore.deidentify.hierarchy import DateFormat, HierarchyPreview
from riskcore.report.readings._format import plural


def _count(n: int, one: str) -> str:
    return f"{n:,} {plural(n, one, one + 's')}"


__all__ = [
    "BUILDER_INTRO",
    "BUILDER_KIND_LABELS",
    "CODE_WAY_LABELS",
    "DATE_LEVEL_LABELS",
    "LABEL_STYLE_LABELS",
    "cli_equivalent",
    "date_format_reading",
    "preview_reading",
]

#: What the builder panel does, in one paragraph.
BUILDER_INTRO = (
    "Build a hierarchy from a few parameters, as ARX's wizards do: bands of numbers, dates "
    "coarsened step by step, codes masked or cut to their first characters, or categories put "
    "in groups. The preview shows the groups of every level and how many records each holds "
    "in this table before you use it."
)

#: The builder kinds as the panel offers them (recipe kind -> label).
BUILDER_KIND_LABELS: Mapping[str, str] = {
    "interval": "Bands of numbers",
    "date": "Dates",
    "prefix": "Codes masked or cut",
    "grouping": "Groups of categories",
}

#: How codes are shortened, as the panel offers it (way -> label).
CODE_WAY_LABELS: Mapping[str, str] = {
    "right": "masked from the right (02139, 021**)",
    "left": "masked from the left (02139, **139)",
    "keep": "first characters kept, any length (02139-4307, 02139*, 021*)",
}

#: The date levels as the panel offers them.
DATE_LEVEL_LABELS: Mapping[str, str] = {
    "day": "day",
    "week": "week (Monday to Sunday, within the month)",
    "month": "month",
    "quarter": "quarter",
    "year": "year",
    "5y": "5 years",
    "decade": "10 years (decade)",
}

#: The label styles of bands.
LABEL_STYLE_LABELS: Mapping[str, str] = {
    "auto": "automatic",
    "range": "30-39",
    "interval": "[30, 40)",
}

_EXAMPLES = {
    "%m/%d/%Y": "03/04/2024 is 4 March 2024",
    "%d/%m/%Y": "03/04/2024 is 3 April 2024",
    "%d.%m.%Y": "03.04.2024 is 3 April 2024",
}


def date_format_reading(column: str, found: DateFormat | None, *, stored_as_dates: bool) -> str:
    """Return how a date column is read: "admitted is read as US MM/DD/YYYY dates (...)".

    Parameters
    ----------
    column : str
        The column's name.
    found : DateFormat or None
        :func:`~riskcore.deidentify.hierarchy.detect_date_format` of its values.
    stored_as_dates : bool
        The column is already of a date type (nothing to detect).

    Returns
    -------
    str
    """
    if stored_as_dates:
        return f"{column} is stored as dates: no written form to detect."
    if found is None:
        return (
            f"{column} is not written one common way (ISO YYYY-MM-DD, US MM/DD/YYYY, "
            "DD.MM.YYYY, with or without a time): its values are read as pandas reads mixed "
            "dates, and a value that is not a date is refused."
        )
    example = _EXAMPLES.get(found.strptime.split(" ")[0].split("T")[0])
    tail = f" ({example})" if example else ""
    return f"{column} is read as {found.name} dates{tail}."


def preview_reading(p: HierarchyPreview) -> str:
    """Return the preview in one sentence: groups per level and the smallest group.

    Parameters
    ----------
    p : HierarchyPreview
        The hierarchy's preview on the data.

    Returns
    -------
    str
        "Level 1 makes 15 groups (the smallest holds 3 records), level 2 ...";
        missing and unknown values are said when there are any.
    """
    parts = [
        f"level {lv.level} makes {_count(len(lv.groups), 'group')} (the smallest holds "
        f"{_count(lv.smallest, 'record')})"
        for lv in p.levels[1:]
    ]
    text = ("; ".join(parts) + ".") if parts else "The hierarchy has no level above the value."
    text = text[0].upper() + text[1:]
    if p.missing:
        text += f" Missing values ({_count(p.missing, 'record')}) stay missing at every level."
    if p.unmatched:
        text += f" Values the hierarchy does not know: {_count(p.unmatched, 'record')}."
    return text


def cli_equivalent(column: str, builder: str | None) -> str | None:
    """Return the command line's option that builds the same hierarchy, or None.

    Parameters
    ----------
    column : str
        The column's name.
    builder : str or None
        :func:`~riskcore.deidentify.hierarchy.builder_string` of the spec (None for a
        table: the command line then takes the downloaded ARX file).

    Returns
    -------
    str or None
        ``--hierarchy 'age=interval:5,10,20;top=90'`` (quoted for a POSIX shell).
    """
    if builder is None:
        return None
    text = f"{column}={builder}".replace("'", "'\\''")
    return f"--hierarchy '{text}'"
