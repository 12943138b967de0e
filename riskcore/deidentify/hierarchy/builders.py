"""Hierarchy builders: numeric bands, dates, codes masked from the right, groups, flat.

Each builder returns a :class:`~riskcore.deidentify.hierarchy.base.Hierarchy`
whose ``kind`` and ``params`` rebuild it on new data (a recipe keeps them).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from riskcore.deidentify.hierarchy.base import TOP, Hierarchy, leaves_of, present, text_of
from riskcore.deidentify.hierarchy.dates import (
    DATE_PATTERNS,
    date_format,
    date_hierarchy,
    parse_dates,
)
from riskcore.errors import RiskcoreError

__all__ = [
    "DATE_PATTERNS",
    "LABEL_STYLES",
    "LabelStyle",
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
    """Return the two-level hierarchy "value" or ``"*"``: keep the column or suppress it.

    Parameters
    ----------
    series : pandas.Series
        The column's values.

    Returns
    -------
    Hierarchy
        The two-level hierarchy "value" or ``"*"``: keep the column or suppress it.
    """
    leaves = leaves_of(series)
    return Hierarchy(
        str(series.name),
        leaves,
        (leaves, np.full(len(leaves), TOP, dtype=object)),
        kind="flat",
        params={},
        numeric=bool(pd.api.types.is_numeric_dtype(series.dtype)),
    )


#: Label styles of numeric bands: ``"range"`` "30-39" (whole numbers, both ends in the band),
#: ``"interval"`` "[30, 40)" (half-open), ``"auto"`` the first for whole numbers, else the second.
LabelStyle = Literal["auto", "range", "interval"]
LABEL_STYLES: tuple[str, ...] = ("auto", "range", "interval")


def _number_text(x: np.ndarray) -> np.ndarray:
    """Return numbers as short text ("30", "2.5"), vectorized over distinct values."""
    uniq, inverse = np.unique(x, return_inverse=True)
    text = np.asarray([f"{v:g}" if not float(v).is_integer() else str(int(v)) for v in uniq])
    return text[inverse].astype(object)


def _one(x: float) -> str:
    return str(_number_text(np.asarray([float(x)]))[0])


def interval_hierarchy(
    series: pd.Series,
    widths: Sequence[float],
    *,
    start: float = 0.0,
    bottom: float | None = None,
    top: float | None = None,
    labels: LabelStyle = "auto",
) -> Hierarchy:
    """Return nested bands of the given widths, then ``"*"``.

    Level i (1..len(widths)) puts each number x in the band of width
    ``w = widths[i-1]`` that holds it, counted from ``start``: the band
    ``[start + j w, start + (j + 1) w)`` with ``j = floor((x - start) / w)``
    (ARX's ``HierarchyBuilderIntervalBased``: intervals of a fixed width from
    a reference value, grouped again level by level). Each width must be a
    multiple of the one before, so that the bands nest.

    Parameters
    ----------
    series : pandas.Series
        The numeric column.
    widths : sequence of float
        Band widths, increasing, each a whole multiple of the previous.
    start : float, default 0
        The start offset: the left edge of a band (bands are ``start + j * width``).
    bottom, top : float, optional
        Bottom and top coding at every level above 0: numbers below ``bottom``
        become ``"<bottom"``, numbers at or above ``top`` ``"top+"`` (range
        labels, as HIPAA's "90+") or ``">=top"`` (interval labels).
    labels : {"auto", "range", "interval"}, default "auto"
        ``"range"``: ``"30-39"`` (whole numbers, whole widths and start only);
        ``"interval"``: ``"[30, 40)"``; ``"auto"``: range labels when all are
        whole numbers, else interval labels.

    Returns
    -------
    Hierarchy
        Of kind ``"interval"``; its parameters rebuild it (``labels`` recorded
        when not ``"auto"``).

    Raises
    ------
    RiskcoreError
        For values that are not numbers, widths that do not nest, bottom coding
        not below top coding, or range labels on fractions.
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
    if labels not in LABEL_STYLES:
        raise RiskcoreError(f"the label style must be one of {', '.join(LABEL_STYLES)}, "
                            f"got {labels!r}")  # fmt: skip
    leaves = np.asarray(pd.unique(x), dtype=object)
    vals = np.asarray(leaves, dtype=float)
    whole = bool(np.all(vals == np.round(vals))) and float(start).is_integer()
    whole = whole and all(w.is_integer() for w in widths)
    if labels == "range" and not whole:
        raise RiskcoreError(
            f"range labels such as 30-39 need whole numbers, widths and start; {series.name!r} "
            "needs interval labels such as [30, 40)"
        )
    ranged = whole if labels == "auto" else labels == "range"
    levels: list[np.ndarray] = [leaves]
    for w in widths:
        lo = start + np.floor((vals - start) / w) * w
        if ranged:
            lab = _number_text(lo) + "-" + _number_text(lo + w - 1)
        else:
            lab = "[" + _number_text(lo) + ", " + _number_text(lo + w) + ")"
        if bottom is not None:
            lab = np.where(vals < bottom, f"<{_one(bottom)}", lab)
        if top is not None:
            t_lab = f"{_one(top)}+" if ranged else f">={_one(top)}"
            lab = np.where(vals >= top, t_lab, lab)
        levels.append(np.asarray(lab, dtype=object))
    levels.append(np.full(len(leaves), TOP, dtype=object))
    params: dict[str, Any] = {"widths": widths, "start": float(start), "bottom": bottom,
                              "top": top}  # fmt: skip
    if labels != "auto":
        params["labels"] = labels
    return Hierarchy(
        str(series.name), leaves, tuple(levels), kind="interval", params=params, numeric=True
    )


def prefix_hierarchy(
    series: pd.Series, *, width: int | None = None, masked: Sequence[int] | None = None
) -> Hierarchy:
    """Return codes masked from the right: "02139", "0213*", "021**", ..., then ``"*"``.

    ARX's ``HierarchyBuilderRedactionBased`` (characters redacted from the
    right, one more per level). The values are read as text, so leading zeros
    count. A numeric column whose codes lost their leading zeros (ZIP 2139
    for 02139) is padded to ``width`` first (default: the longest value).

    Parameters
    ----------
    series : pandas.Series
        The codes (text, or numbers that were codes).
    width : int, optional
        The length of every code (default: the longest value).
    masked : sequence of int, optional
        How many characters are masked at each level, increasing, each from 1
        to ``width - 1`` (``[2]``: ZIP5 to ZIP3 in one step); ``"*"`` above the
        last. Default: one more character per level, 1 to ``width - 1``.

    Returns
    -------
    Hierarchy
        Of kind ``"prefix"``, parameters ``{"width"}`` (and ``"masked"`` when given).

    Raises
    ------
    RiskcoreError
        For codes of different lengths, or masked counts out of range or order.
    """
    leaves = leaves_of(series)
    text = pd.Series([text_of(v) for v in leaves], dtype=object).astype(str)
    w = int(text.str.len().max()) if width is None and len(text) else int(width or 0)
    if pd.api.types.is_numeric_dtype(series.dtype):
        text = text.str.zfill(w)
    lengths = text.str.len()
    if bool((lengths != w).any()):
        bad = text[lengths != w].iloc[0]
        raise RiskcoreError(
            f"{series.name!r}: codes of different lengths cannot be masked by position "
            f"(expected {w} characters, {bad!r} has {len(bad)})"
        )
    counts = list(range(1, w)) if masked is None else [int(m) for m in masked]
    if masked is not None:
        if any(m < 1 or m >= max(w, 1) for m in counts):
            raise RiskcoreError(
                f"{series.name!r}: each level masks from 1 to {max(w - 1, 1)} of its {w} "
                f"characters (got {', '.join(map(str, counts))})"
            )
        if any(b <= a for a, b in itertools.pairwise(counts)):
            raise RiskcoreError(
                f"{series.name!r}: each level must mask more characters than the one below "
                f"(got {', '.join(map(str, counts))})"
            )
    out: list[np.ndarray] = [leaves]
    for m in counts:
        out.append(np.asarray(text.str.slice(0, w - m) + "*" * m, dtype=object))
    out.append(np.full(len(leaves), TOP, dtype=object))
    params: dict[str, Any] = {"width": w}
    if masked is not None:
        params["masked"] = counts
    return Hierarchy(str(series.name), leaves, tuple(out), kind="prefix", params=params)


def grouping_hierarchy(
    series: pd.Series, groups: Sequence[Mapping[Any, str]], *, column: str | None = None
) -> Hierarchy:
    """Return categories grouped level by level, then ``"*"``.

    ``groups[0]`` maps every value to its level-1 group, ``groups[1]`` every
    level-1 group to its level-2 group, and so on. A value (or group) that a
    mapping does not name is an error naming it, so no value is silently
    left ungeneralized.

    Parameters
    ----------
    series : pandas.Series
        The column's values.
    groups : sequence of mapping of Any to str
    column : str, optional

    Returns
    -------
    Hierarchy
        Categories grouped level by level, then ``"*"``.
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

    Parameters
    ----------
    series : pandas.Series
        The column's values.
    width : float, optional
    bottom : float, optional
    top : float, optional

    Returns
    -------
    Hierarchy
        Bands of ``width``, doubling at each level up to the range, with outlier clipping.
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
