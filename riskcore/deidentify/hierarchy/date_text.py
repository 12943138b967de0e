"""How a column writes its dates: the written form detected and named, and the dates read.

A date column is often text written one common way (ISO ``YYYY-MM-DD``, US
``MM/DD/YYYY``, European ``DD.MM.YYYY``, each possibly with a time of day).
:func:`detect_date_format` finds that way from the whole column (a first number above 12
anywhere makes ``nn/nn/YYYY`` day-first) and names it; :func:`parse_dates` reads the
column by it. The date hierarchies (:mod:`riskcore.deidentify.hierarchy.dates`) and the
order of a hierarchy's leaves (:mod:`riskcore.deidentify.hierarchy.base`) both use it.
"""

from __future__ import annotations

from typing import NamedTuple

import pandas as pd

__all__ = ["DATE_PATTERNS", "DateFormat", "date_format", "detect_date_format", "parse_dates"]


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
