"""Hierarchy builders: numeric bands, dates, codes masked or cut, groups, flat.

Each builder states its limits, checked before anything is built: at most
:data:`MAX_BANDS` bands of the finest width between the start and a value
and :data:`MAX_BAND_LEVELS` levels of bands; codes of at most
:data:`MAX_CODE_WIDTH` characters; at most
:data:`~riskcore.deidentify.hierarchy.base.MAX_LABELS` labels in all; a date
hierarchy at most :data:`~riskcore.deidentify.hierarchy.dates.MAX_DATE_VALUES`
distinct values. A band's label is written with the digits that make it
hold its value ("[30, 30.000001)"), and a band whose edges float64 numbers
cannot tell apart is refused, never mislabelled.

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

from riskcore.deidentify.hierarchy.base import (
    TOP,
    Hierarchy,
    check_size,
    leaves_of,
    present,
    text_of,
)
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
    "MASK_SIDES",
    "MAX_BANDS",
    "MAX_BAND_LEVELS",
    "MAX_CODE_WIDTH",
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


#: Most bands of the finest width between the start and a value. Beyond, the edges of
#: neighbouring bands are no longer told apart by float64 numbers well (2**53 is 9e15).
MAX_BANDS = 1_000_000_000
#: Most levels of bands (each width at least twice the one before: 2**32 times the first).
MAX_BAND_LEVELS = 32


def _number_text(x: np.ndarray) -> np.ndarray:
    """Return numbers as the shortest text that reads back as the same number ("30",
    "2.5", "30.000001"), vectorized over distinct values."""
    uniq, inverse = np.unique(x, return_inverse=True)
    text = np.asarray([repr(float(v)) if not float(v).is_integer() else str(int(v))
                       for v in uniq])  # fmt: skip
    return text[inverse].astype(object)


def _decimals(numbers: Sequence[float]) -> int | None:
    """Return the fewest decimals (0 to 12) that write every number, or None."""
    for d in range(13):
        if all(math.isclose(round(x, d), x, rel_tol=1e-12, abs_tol=0.0) for x in numbers):
            return d
    return None


def _band_edges(
    vals: np.ndarray, start: float, width: float, decimals: int | None
) -> tuple[np.ndarray, np.ndarray]:
    """Return the left and right edge of each value's band, ``lo <= value < hi``.

    The band index ``floor((x - start) / width)`` is computed in floating
    point, so an edge can land one band off (30 / 0.000001 is
    29999999.999999996); the edges are rounded to the parameters' decimals
    and the index moved by one where the value falls outside its edges.
    """

    def edges(j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        lo, hi = start + j * width, start + (j + 1) * width
        if decimals is not None:
            lo, hi = np.round(lo, decimals), np.round(hi, decimals)
        return lo, hi

    j = np.floor((vals - start) / width)
    lo, hi = edges(j)
    for _ in range(2):
        j = j + (vals >= hi) - (vals < lo)
        lo, hi = edges(j)
    return lo, hi


def _check_reach(name: Any, vals: np.ndarray, start: float, width: float) -> None:
    """Refuse bands so fine, or a start so far, that more than :data:`MAX_BANDS` bands
    lie between the start and a value, or bands of fractions less than a thousand times
    float64's spacing of the numbers wide (width 0.1 near 1e15, where numbers are 0.125
    apart)."""
    if not len(vals):
        return
    with np.errstate(over="ignore"):
        reach = np.abs(vals - start) / width
    far = int(np.argmax(reach))
    if not reach[far] <= MAX_BANDS:
        raise RiskcoreError(
            f"{name!r}: from the start {start:.15g}, bands of width {width:.15g} reach the "
            f"value {vals[far]:.15g} only after {reach[far]:.3g} bands, above the limit of "
            f"{MAX_BANDS:,}; choose a start nearer the values or wider bands"
        )
    big = float(max(np.max(np.abs(vals)), abs(start)))
    exact = float(start).is_integer() and float(width).is_integer() and big < 2.0**53
    if not exact and np.spacing(big) > width * 1e-3:  # edges of whole numbers are exact
        raise RiskcoreError(
            f"{name!r}: numbers near {big:.15g} are {np.spacing(big):.3g} apart in float64, too "
            f"coarse for bands of width {width:.15g} (a band needs a thousand steps); choose "
            "wider bands"
        )


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
    if len(widths) > MAX_BAND_LEVELS:
        raise RiskcoreError(f"at most {MAX_BAND_LEVELS} levels of bands, got {len(widths)} widths")
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
    check_size(series.name, len(leaves), len(widths) + 2)
    _check_reach(series.name, vals, float(start), widths[0])
    decimals = _decimals([float(start), *widths])
    levels: list[np.ndarray] = [leaves]
    for w in widths:
        lo, hi = _band_edges(vals, float(start), w, decimals)
        outside = ~((lo <= vals) & (vals < hi) & (lo < hi))
        if outside.any():  # the edges cannot be told apart: no label would hold the value
            x = vals[int(np.argmax(outside))]
            raise RiskcoreError(
                f"{series.name!r}: the band of width {w:.15g} that holds {x:.15g} cannot be "
                "written so that its label holds the value (the numbers are too far apart "
                "for float64 arithmetic); choose wider bands or a start nearer the values"
            )
        if ranged:
            lab = _number_text(lo) + "-" + _number_text(lo + w - 1)
        else:
            lab = "[" + _number_text(lo) + ", " + _number_text(hi) + ")"
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


#: Longest code the code builders mask or cut (an IBAN has 34 characters, a UUID 36).
MAX_CODE_WIDTH = 64
#: Sides a code is masked from.
MASK_SIDES: tuple[str, ...] = ("right", "left")


def _increasing(name: Any, counts: Sequence[int], what: str, *, down: bool = False) -> None:
    pairs = itertools.pairwise(counts)
    if any((b >= a) if down else (b <= a) for a, b in pairs):
        order = "fewer" if down else "more"
        raise RiskcoreError(
            f"{name!r}: each level must {what} {order} characters than the one below "
            f"(got {', '.join(map(str, counts))})"
        )


def prefix_hierarchy(
    series: pd.Series,
    *,
    width: int | None = None,
    masked: Sequence[int] | None = None,
    side: str = "right",
    keep: Sequence[int] | None = None,
) -> Hierarchy:
    """Return codes masked from the right ("02139", "0213*", "021**", ...) or cut, then ``"*"``.

    ARX's ``HierarchyBuilderRedactionBased`` (characters redacted from the
    right, one more per level; or from the left). The values are read as
    text, so leading zeros count. A numeric column whose codes lost their
    leading zeros (ZIP 2139 for 02139) is padded to ``width`` first (default:
    the longest value). Masking needs codes of one length; ``keep`` takes
    codes of any lengths: level i keeps the first ``keep[i-1]`` characters
    and marks the cut with ``"*"``, so a ZIP5 "02139" and a ZIP+4
    "02139-4307" are both "02139*" at ``keep=[5, 3]``'s first level and
    "021*" at its second.

    Parameters
    ----------
    series : pandas.Series
        The codes (text, or numbers that were codes).
    width : int, optional
        The length of every code (default: the longest value); at most
        :data:`MAX_CODE_WIDTH`.
    masked : sequence of int, optional
        How many characters are masked at each level, increasing, each from 1
        to ``width - 1`` (``[2]``: ZIP5 to ZIP3 in one step); ``"*"`` above the
        last. Default: one more character per level, 1 to ``width - 1``.
    side : {"right", "left"}, default "right"
        The side masked: "right" keeps the first characters ("021**"),
        "left" the last ("**139").
    keep : sequence of int, optional
        Instead of masking: the characters kept from the left at each level,
        decreasing, each from 1 to ``width - 1``; codes may differ in length.

    Returns
    -------
    Hierarchy
        Of kind ``"prefix"``, parameters ``{"width"}`` (and ``"masked"``,
        ``"side"`` or ``"keep"`` when given).

    Raises
    ------
    RiskcoreError
        For codes of different lengths when masking, codes or a width longer
        than :data:`MAX_CODE_WIDTH`, counts out of range or order, or more labels
        than :data:`~riskcore.deidentify.hierarchy.base.MAX_LABELS`.
    """
    name = series.name
    if side not in MASK_SIDES:
        raise RiskcoreError(f"{name!r}: codes are masked from the right or the left, not {side!r}")
    if keep is not None and masked is not None:
        raise RiskcoreError(
            f"{name!r}: give the characters masked or the characters kept, not both"
        )
    if width is not None and not 1 <= int(width) <= MAX_CODE_WIDTH:
        raise RiskcoreError(
            f"{name!r}: the code width {int(width):,} is not from 1 to {MAX_CODE_WIDTH} characters"
        )
    leaves = leaves_of(series)
    text = pd.Series([text_of(v) for v in leaves], dtype=object).astype(str)
    longest = int(text.str.len().max()) if len(text) else 0
    if longest > MAX_CODE_WIDTH:
        bad = text[text.str.len() == longest].iloc[0]
        raise RiskcoreError(
            f"{name!r}: {bad[:20]!r}... has {longest:,} characters; codes of more than "
            f"{MAX_CODE_WIDTH} characters are not masked (group the values instead)"
        )
    w = longest if width is None else int(width)
    if pd.api.types.is_numeric_dtype(series.dtype):
        text = text.str.zfill(w)
    lengths = text.str.len()
    if keep is None and bool((lengths != w).any()):
        bad = text[lengths != w].iloc[0]
        raise RiskcoreError(
            f"{name!r}: codes of different lengths cannot be masked by position "
            f"(expected {w} characters, {bad!r} has {len(bad)}); keep the first characters "
            "instead (keep:N in a builder string)"
        )
    given = keep if keep is not None else masked
    counts = list(range(1, w)) if given is None else [int(m) for m in given]
    if given is not None:
        verb = "keeps" if keep is not None else "masks"
        if any(m < 1 or m >= max(w, 1) for m in counts):
            raise RiskcoreError(
                f"{name!r}: each level {verb} from 1 to {max(w - 1, 1)} of its {w} "
                f"characters (got {', '.join(map(str, counts))})"
            )
        _increasing(name, counts, verb[:-1], down=keep is not None)
    check_size(name, len(leaves), len(counts) + 2)
    out: list[np.ndarray] = [leaves]
    for m in counts:
        if keep is not None:
            lab = text.str.slice(0, m) + "*"
        elif side == "left":
            lab = "*" * m + text.str.slice(m)
        else:
            lab = text.str.slice(0, w - m) + "*" * m
        out.append(np.asarray(lab, dtype=object))
    out.append(np.full(len(leaves), TOP, dtype=object))
    params: dict[str, Any] = {"width": w}
    if masked is not None:
        params["masked"] = counts
    if keep is not None:
        params["keep"] = counts
    if side != "right":
        params["side"] = side
    return Hierarchy(str(name), leaves, tuple(out), kind="prefix", params=params)


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
        One mapping per level: values to level-1 groups, then groups to the next level's.
    column : str, optional
        The hierarchy's column name (default the series' name).

    Returns
    -------
    Hierarchy
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
        The narrowest band (default a round width, about 16 bands over the range).
    bottom : float, optional
        Numbers below it become ``"<bottom"`` (bottom coding).
    top : float, optional
        Numbers at or above it become one top band (top coding).

    Returns
    -------
    Hierarchy
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
