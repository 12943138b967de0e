"""Date hierarchies: the written form detected and stated, then day to decade.

A date column is often text written one common way (ISO ``YYYY-MM-DD``, US
``MM/DD/YYYY``, European ``DD.MM.YYYY``, each possibly with a time of day).
:func:`detect_date_format` finds that way from the whole column (a first
number above 12 anywhere makes ``nn/nn/YYYY`` day-first) and names it, so the
page can state how the column was read. :func:`date_hierarchy` then labels
every date at the levels the user chose among day, week, month, quarter,
year, 5 years and decade, as ARX's date builder does with its granularities
(``HierarchyBuilderDate``, Prasser et al. 2014: ``DAY_MONTH_YEAR``,
``WEEK_MONTH_YEAR``, ``MONTH_YEAR``, ``QUARTER_YEAR``, ``YEAR``, ``DECADE``).

Every level nests in the levels above it (a hierarchy is a coarsening): a
week is the Monday-to-Sunday calendar week **cut at the month's ends**
(ARX's week of the month), so that it lies in one month, quarter and year;
5 years are 1980-1984, 1985-1989, ...; a decade is 1980-1989 ("1980s").

A date hierarchy holds at most :data:`MAX_DATE_VALUES` distinct values,
checked before any is parsed: a column with more is times of day to the
second (a century has 36,525 days), and 10 million of them took 5.8 GB
before ending in a ``MemoryError``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from riskcore.deidentify.hierarchy.base import TOP, Hierarchy, check_size, leaves_of
from riskcore.errors import RiskcoreError

__all__ = [
    "DATE_LEVELS",
    "DATE_PATTERNS",
    "MAX_DATE_VALUES",
    "DateFormat",
    "date_format",
    "date_hierarchy",
    "date_labels",
    "detect_date_format",
    "parse_dates",
]

#: The levels a date hierarchy can have, finest first ("10y" is read as "decade").
DATE_LEVELS: tuple[str, ...] = ("day", "week", "month", "quarter", "year", "5y", "decade")
#: Most distinct values of a date hierarchy (1,000,000 took 22 s and 360 MB when measured).
MAX_DATE_VALUES = 1_000_000
_ALIASES = {"10y": "decade", "days": "day", "weeks": "week", "months": "month",
            "quarters": "quarter", "years": "year"}  # fmt: skip


class DateFormat(NamedTuple):
    """A written form of dates.

    Attributes
    ----------
    strptime : str
        The ``strptime`` format (``"%m/%d/%Y"``).
    name : str
        The form for people (``"US MM/DD/YYYY"``).
    """

    strptime: str
    name: str


_TIME = r"(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)"
#: Written date forms read by their pattern, in the order they are tried:
#: (pattern of the whole text, strptime of the date part or None for "month or day first,
#: decided by the values", name). A time of day after the date is allowed in each.
DATE_PATTERNS: tuple[tuple[str, str | None, str], ...] = (
    (r"\d{4}-\d{2}-\d{2}", "%Y-%m-%d", "ISO YYYY-MM-DD"),
    (r"\d{1,2}/\d{1,2}/\d{4}", None, "MM/DD/YYYY"),
    (r"\d{1,2}\.\d{1,2}\.\d{4}", "%d.%m.%Y", "DD.MM.YYYY"),
    (r"\d{4}/\d{2}/\d{2}", "%Y/%m/%d", "YYYY/MM/DD"),
)


def _time_format(text: pd.Series) -> str:
    """Return the strptime part of the times in ``text`` ("" when none has a time)."""
    times = text.str.extract(r"([ T])(\d{1,2}:\d{2})(:\d{2})?$")
    if times[0].isna().all():
        return ""
    sep = "T" if bool((times[0] == "T").any()) else " "
    return f"{sep}%H:%M:%S" if bool(times[2].notna().any()) else f"{sep}%H:%M"


def detect_date_format(values: pd.Series) -> DateFormat | None:
    """Return the one written form shared by every value, or None.

    Parameters
    ----------
    values : pandas.Series
        Text (missing values are left out).

    Returns
    -------
    DateFormat or None
        ISO ``YYYY-MM-DD``, ``MM/DD/YYYY`` (the US form; ``DD/MM/YYYY`` when a
        first number above 12 appears anywhere), ``DD.MM.YYYY``, ``YYYY/MM/DD``,
        each optionally with a time of day (``HH:MM`` or ``HH:MM:SS`` after a
        space or a ``T``: "and time" in the name). None when the values mix
        forms, are not dates, or there is none.
    """
    text = values.dropna().astype(str).str.strip()
    if text.empty:
        return None
    for pattern, fmt, name in DATE_PATTERNS:
        if not text.str.fullmatch(pattern + _TIME + "?").all():
            continue
        date_part = text.str.extract("^(" + pattern + ")")[0]
        if fmt is None:
            parts = date_part.str.split("/", expand=True).astype(int)
            if bool((parts[0] > 12).any()):
                fmt, name = "%d/%m/%Y", "DD/MM/YYYY"
            else:
                fmt, name = "%m/%d/%Y", "US MM/DD/YYYY"
        clock = _time_format(text)
        if clock and bool(text.str.fullmatch(pattern).any()):  # some with a time, some without
            return None
        return DateFormat(fmt + clock, name + (" and time" if clock else ""))
    return None


def date_format(text: pd.Series) -> str | None:
    """Return the strptime format of text that is all dates written one common way, or None.

    Parameters
    ----------
    text : pandas.Series
        A column's values as text.

    Returns
    -------
    str or None
        :attr:`DateFormat.strptime` of :func:`detect_date_format`.
    """
    found = detect_date_format(text)
    return None if found is None else found.strptime


def parse_dates(values: pd.Series) -> pd.Series:
    """Return text or dates parsed as dates (NaT where one is not).

    By :func:`detect_date_format` when the text is all one common form, else as
    pandas reads mixed forms (``format="mixed"``, as the linkage matcher does).

    Parameters
    ----------
    values : pandas.Series
        The column's values.

    Returns
    -------
    pandas.Series
        Of datetime64 values.
    """
    if pd.api.types.is_datetime64_any_dtype(values.dtype):
        return values
    fmt = date_format(values.dropna())
    if fmt is not None:
        return pd.to_datetime(values.astype(str).str.strip(), errors="coerce", format=fmt)
    return pd.to_datetime(values, errors="coerce", format="mixed")


def _levels(levels: Sequence[str]) -> list[str]:
    names = [_ALIASES.get(str(lv).strip().lower(), str(lv).strip().lower()) for lv in levels]
    bad = [lv for lv in names if lv not in DATE_LEVELS]
    if not names or bad:
        raise RiskcoreError(
            f"date levels must be among {', '.join(DATE_LEVELS)} (10y for decade)"
            + (f"; {bad[0]!r} is not one" if bad else "")
        )
    order = [DATE_LEVELS.index(lv) for lv in names]
    if any(b <= a for a, b in itertools.pairwise(order)):
        raise RiskcoreError(
            "date levels must go from fine to coarse, each once, in the order "
            f"{', '.join(DATE_LEVELS)} (got {', '.join(names)})"
        )
    return names


def date_labels(dates: pd.Series, level: str) -> np.ndarray:
    """Return the label of each date at one level (vectorized).

    Parameters
    ----------
    dates : pandas.Series
        Of datetime64 values, none missing.
    level : str
        One of :data:`DATE_LEVELS`.

    Returns
    -------
    numpy.ndarray
        Object array: day ``"1985-03-07"``; week ``"1985-03-04 to 1985-03-10"`` (Monday to
        Sunday, cut at the month's ends); month ``"1985-03"``; quarter ``"1985-Q1"``; year
        ``"1985"``; 5y ``"1985-1989"``; decade ``"1980s"``.
    """
    d = dates.dt
    year = d.year.astype(np.int64)
    if level == "day":
        lab = d.strftime("%Y-%m-%d")
    elif level == "week":
        day = d.normalize()
        first = day - pd.to_timedelta(d.day - 1, unit="D")
        last = first + pd.offsets.MonthEnd(0)
        monday = day - pd.to_timedelta(d.day_of_week, unit="D")
        start = monday.where(monday >= first, first)
        sunday = monday + pd.Timedelta(days=6)
        end = sunday.where(sunday <= last, last)
        lab = start.dt.strftime("%Y-%m-%d") + " to " + end.dt.strftime("%Y-%m-%d")
    elif level == "month":
        lab = d.strftime("%Y-%m")
    elif level == "quarter":
        lab = year.astype(str) + "-Q" + d.quarter.astype(str)
    elif level == "year":
        lab = year.astype(str)
    elif level == "5y":
        lo = year // 5 * 5
        lab = lo.astype(str) + "-" + (lo + 4).astype(str)
    else:
        lab = (year // 10 * 10).astype(str) + "s"
    return np.asarray(lab, dtype=object)


def date_hierarchy(
    series: pd.Series, levels: Sequence[str] = ("month", "year", "decade")
) -> Hierarchy:
    """Return dates generalized to the chosen levels, then ``"*"``.

    Parameters
    ----------
    series : pandas.Series
        Dates, or text of dates written one common way (:func:`detect_date_format`;
        ISO, US ``MM/DD/YYYY``, ``DD.MM.YYYY``, with or without a time), else as
        pandas reads them.
    levels : sequence of str, default ("month", "year", "decade")
        Among :data:`DATE_LEVELS`, fine to coarse ("10y" is "decade").
        Labels: :func:`date_labels`.

    Returns
    -------
    Hierarchy
        Of kind ``"date"``, parameters ``{"levels": [...]}``; level 0 is the
        value as written.

    Raises
    ------
    RiskcoreError
        For a level not known or out of order, a value that is not a date
        (naming it), or more than :data:`MAX_DATE_VALUES` distinct values.
    """
    names = _levels(levels)
    leaves = leaves_of(series)
    if len(leaves) > MAX_DATE_VALUES:
        raise RiskcoreError(
            f"{series.name!r} has {len(leaves):,} distinct values, above the limit of "
            f"{MAX_DATE_VALUES:,} for a date hierarchy (a century has 36,525 days): keep the "
            "date without the time of day in the file, or load a sample"
        )
    check_size(series.name, len(leaves), len(names) + 2)
    dates = parse_dates(pd.Series(leaves, dtype=object))
    if pd.api.types.is_datetime64_any_dtype(series.dtype):
        dates = pd.Series(pd.to_datetime(pd.Series(leaves)), dtype="datetime64[ns]")
    if dates.isna().any():
        bad = leaves[int(np.flatnonzero(dates.isna().to_numpy())[0])]
        raise RiskcoreError(f"{series.name!r}: {bad!r} is not a date")
    if getattr(dates.dt, "tz", None) is not None:
        dates = dates.dt.tz_localize(None)
    out: list[np.ndarray] = [leaves]
    out.extend(date_labels(dates, lv) for lv in names)
    out.append(np.full(len(leaves), TOP, dtype=object))
    return Hierarchy(str(series.name), leaves, tuple(out), kind="date", params={"levels": names})
