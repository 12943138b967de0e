"""Hierarchy builders: numeric bands, dates, codes masked from the right, groups, flat.

Each builder returns a :class:`~riskcore.deidentify.hierarchy.base.Hierarchy`
whose ``kind`` and ``params`` rebuild it on new data (a recipe keeps them).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from riskcore.deidentify.hierarchy.base import TOP, Hierarchy, leaves_of, present, text_of
from riskcore.errors import RiskcoreError

__all__ = [
    "DATE_PATTERNS",
    "banded_hierarchy",
    "date_format",
    "date_hierarchy",
    "flat_hierarchy",
    "grouping_hierarchy",
    "interval_hierarchy",
    "parse_dates",
    "prefix_hierarchy",
]


def flat_hierarchy(series: pd.Series) -> Hierarchy:
    """Return the two-level hierarchy "value" or ``"*"``: keep the column or suppress it."""
    leaves = leaves_of(series)
    return Hierarchy(
        str(series.name),
        leaves,
        (leaves, np.full(len(leaves), TOP, dtype=object)),
        kind="flat",
        params={},
        numeric=bool(pd.api.types.is_numeric_dtype(series.dtype)),
    )


def _band_label(lo: float, width: float, integral: bool) -> str:
    if integral:
        return f"{int(lo)}-{int(lo + width - 1)}"
    return f"[{lo:g}, {lo + width:g})"


def interval_hierarchy(
    series: pd.Series,
    widths: Sequence[float],
    *,
    start: float = 0.0,
    bottom: float | None = None,
    top: float | None = None,
) -> Hierarchy:
    """Return nested bands of the given widths, then ``"*"``.

    Level i (1..len(widths)) puts each number x in the band of width
    ``widths[i-1]`` that holds it, counted from ``start``: integer columns get
    inclusive labels ``"30-34"``, others half-open ``"[30, 35)"``. Each width
    must be a multiple of the one before, so that the bands nest.

    Parameters
    ----------
    series : pandas.Series
        The numeric column.
    widths : sequence of float
        Band widths, increasing, each a multiple of the previous.
    start : float, default 0
        Left edge of a band (bands are ``start + j * width``).
    bottom, top : float, optional
        Bottom and top coding at every level above 0: numbers below ``bottom``
        become ``"<bottom"``, numbers at or above ``top`` ``">=top"`` (for
        integers ``"top+"``, as HIPAA's "90+").

    Returns
    -------
    Hierarchy
    """
    x = pd.to_numeric(present(series), errors="coerce")
    if x.isna().any():
        raise RiskcoreError(f"{series.name!r} holds values that are not numbers")
    widths = [float(w) for w in widths]
    if not widths or any(not w > 0 for w in widths):
        raise RiskcoreError("interval widths must be positive")
    for a, b in itertools.pairwise(widths):
        if not (b > a and math.isclose(b / a, round(b / a))):
            raise RiskcoreError(
                f"interval widths must grow by whole multiples so that bands nest ({a:g}, {b:g})"
            )
    if bottom is not None and top is not None and not bottom < top:
        raise RiskcoreError("bottom coding must lie below top coding")
    leaves = np.asarray(pd.unique(x), dtype=object)
    vals = np.asarray(leaves, dtype=float)
    integral = bool(np.all(vals == np.round(vals))) and float(start).is_integer()
    integral = integral and all(w.is_integer() for w in widths)
    levels: list[np.ndarray] = [leaves]
    for w in widths:
        lo = start + np.floor((vals - start) / w) * w
        lab = np.asarray([_band_label(v, w, integral) for v in lo], dtype=object)
        if bottom is not None:
            b_lab = f"<{int(bottom)}" if integral else f"<{bottom:g}"
            lab = np.where(vals < bottom, b_lab, lab)
        if top is not None:
            t_lab = f"{int(top)}+" if integral else f">={top:g}"
            lab = np.where(vals >= top, t_lab, lab)
        levels.append(lab)
    levels.append(np.full(len(leaves), TOP, dtype=object))
    params = {"widths": widths, "start": float(start), "bottom": bottom, "top": top}
    return Hierarchy(
        str(series.name), leaves, tuple(levels), kind="interval", params=params, numeric=True
    )


#: Written date formats read by their pattern: (pattern of the text, strptime format or
#: None for "day or month first, decided by the values"). Others are parsed as pandas reads
#: them (``format="mixed"``, as the linkage matcher does).
DATE_PATTERNS: tuple[tuple[str, str | None], ...] = (
    (r"\d{4}-\d{2}-\d{2}", "%Y-%m-%d"),  # ISO
    (r"\d{1,2}/\d{1,2}/\d{4}", None),  # US MM/DD/YYYY, or DD/MM/YYYY when a day is > 12
    (r"\d{1,2}\.\d{1,2}\.\d{4}", "%d.%m.%Y"),  # DD.MM.YYYY
)


def date_format(text: pd.Series) -> str | None:
    """Return the strptime format of text that is all dates written one common way, or None.

    ``MM/DD/YYYY`` is the US form; a first number above 12 anywhere makes the column
    ``DD/MM/YYYY``. ISO ``YYYY-MM-DD`` and ``DD.MM.YYYY`` are read as written.
    """
    text = text.astype(str).str.strip()
    if text.empty:
        return None
    for pattern, fmt in DATE_PATTERNS:
        if text.str.fullmatch(pattern).all():
            if fmt is not None:
                return fmt
            first = text.str.split("/").str[0].astype(int)
            return "%d/%m/%Y" if bool((first > 12).any()) else "%m/%d/%Y"
    return None


def parse_dates(values: pd.Series) -> pd.Series:
    """Return text or dates parsed as dates (NaT where one is not), by :func:`date_format`
    when the text is all one common form, else as pandas reads mixed forms."""
    if pd.api.types.is_datetime64_any_dtype(values.dtype):
        return values
    fmt = date_format(values.dropna())
    if fmt is not None:
        return pd.to_datetime(values.astype(str).str.strip(), errors="coerce", format=fmt)
    return pd.to_datetime(values, errors="coerce", format="mixed")


def date_hierarchy(
    series: pd.Series, levels: Sequence[str] = ("month", "year", "decade")
) -> Hierarchy:
    """Return dates generalized to month ("1985-03"), year ("1985") and decade ("1980s").

    Values that are text are parsed as dates (ISO, or the formats the loader
    knows); a value that is not a date is an error.
    """
    known = ("month", "year", "decade")
    if (
        not levels
        or any(lv not in known for lv in levels)
        or list(levels) != sorted(levels, key=known.index)
    ):
        raise RiskcoreError(f"date levels must be among {known}, in that order")
    leaves = leaves_of(series)
    dates = parse_dates(pd.Series(leaves, dtype=object))
    if dates.isna().any():
        bad = leaves[int(np.flatnonzero(dates.isna().to_numpy())[0])]
        raise RiskcoreError(f"{series.name!r}: {bad!r} is not a date")
    out: list[np.ndarray] = [leaves]
    for lv in levels:
        if lv == "month":
            lab = dates.dt.strftime("%Y-%m")
        elif lv == "year":
            lab = dates.dt.year.astype(str)
        else:
            lab = (dates.dt.year // 10 * 10).astype(str) + "s"
        out.append(np.asarray(lab, dtype=object))
    out.append(np.full(len(leaves), TOP, dtype=object))
    return Hierarchy(
        str(series.name), leaves, tuple(out), kind="date", params={"levels": list(levels)}
    )


def prefix_hierarchy(series: pd.Series, *, width: int | None = None) -> Hierarchy:
    """Return codes masked from the right one character per level: "02139", "0213*", ...

    The values are read as text, so leading zeros count. A numeric column
    whose codes lost their leading zeros (ZIP 2139 for 02139) is padded to
    ``width`` first (default: the longest value).
    """
    leaves = leaves_of(series)
    text = [text_of(v) for v in leaves]
    w = max((len(t) for t in text), default=0) if width is None else int(width)
    if pd.api.types.is_numeric_dtype(series.dtype):
        text = [t.zfill(w) for t in text]
    if any(len(t) != w for t in text):
        raise RiskcoreError(
            f"{series.name!r}: codes of different lengths cannot be masked by position "
            f"(expected {w} characters)"
        )
    out: list[np.ndarray] = [leaves]
    for masked in range(1, w + 1):
        out.append(np.asarray([t[: w - masked] + "*" * masked for t in text], dtype=object))
    out[-1] = np.full(len(leaves), TOP, dtype=object)
    if w == 0:
        out.append(np.full(len(leaves), TOP, dtype=object))
    return Hierarchy(str(series.name), leaves, tuple(out), kind="prefix", params={"width": w})


def grouping_hierarchy(
    series: pd.Series, groups: Sequence[Mapping[Any, str]], *, column: str | None = None
) -> Hierarchy:
    """Return categories grouped level by level, then ``"*"``.

    ``groups[0]`` maps every value to its level-1 group, ``groups[1]`` every
    level-1 group to its level-2 group, and so on. A value (or group) that a
    mapping does not name is an error naming it, so no value is silently
    left ungeneralized.
    """
    leaves = leaves_of(series)
    cur = np.asarray(leaves, dtype=object)
    out: list[np.ndarray] = [leaves]
    for i, mapping in enumerate(groups):
        keys = {text_of(k): v for k, v in mapping.items()}
        texts = [text_of(v) for v in cur]
        absent = sorted({t for t in texts if t not in keys})
        if absent:
            raise RiskcoreError(
                f"the groups of level {i + 1} for {series.name!r} do not place {absent[0]!r}"
            )
        cur = np.asarray([keys[t] for t in texts], dtype=object)
        out.append(cur)
    out.append(np.full(len(leaves), TOP, dtype=object))
    return Hierarchy(
        column or str(series.name),
        leaves,
        tuple(out),
        kind="grouping",
        numeric=bool(pd.api.types.is_numeric_dtype(series.dtype)),
    )


def _nice_width(span: float, bands: int = 16) -> float:
    """Return the smallest 1, 2 or 5 times a power of ten that cuts ``span`` into at most
    ``bands`` bands."""
    if span <= 0:
        return 1.0
    step = 10.0 ** math.floor(math.log10(span / bands))
    for m in (1.0, 2.0, 5.0, 10.0):
        if span / (m * step) <= bands:
            return m * step
    return 10.0 * step


def banded_hierarchy(
    series: pd.Series,
    width: float | None = None,
    *,
    bottom: float | None = None,
    top: float | None = None,
) -> Hierarchy:
    """Return bands of ``width``, doubling at each level up to the range, with outlier clipping.

    ``width`` defaults to a round width (1, 2 or 5 times a power of ten, about
    16 bands over the range; at least 1 for whole numbers). Bands start at a
    multiple of the widest band (0-39, 40-79, ...). ``bottom`` and ``top``
    clip the outliers (bottom and top coding, :func:`interval_hierarchy`):
    every number below ``bottom`` becomes ``"<bottom"`` and every number at or
    above ``top`` ``"top+"`` at every level above the value, so the few
    extreme values no longer form classes of their own.
    """
    values = present(series)
    x = pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)
    if np.isnan(x).any():
        raise RiskcoreError(f"{series.name!r} holds values that are not numbers")
    lo, hi = (float(x.min()), float(x.max())) if len(x) else (0.0, 1.0)
    if bottom is not None:
        lo = max(lo, float(bottom))
    if top is not None:
        hi = min(hi, float(top))
    if width is None:
        width = _nice_width(hi - lo)
        if np.all(x == np.round(x)):
            width = max(width, 1.0)
    elif not width > 0:
        raise RiskcoreError("the band width must be positive")
    widths = [float(width)]
    while widths[-1] * 2 < hi - lo + width:
        widths.append(widths[-1] * 2)
    widest = widths[-1]  # bands start at a multiple of the widest: 0-39, 40-79, ...
    return interval_hierarchy(
        series, widths, start=math.floor(lo / widest) * widest, bottom=bottom, top=top
    )
