"""A hierarchy's level in words, derived from its kind and parameters (or its labels).

``level_words(hierarchy, level)`` says what a level does to the column:
"kept as recorded" at level 0, "removed (*)" at the top, and in between
"10-year bands" (intervals, with the unit given), "year" (dates), "first 3
characters kept" (codes masked from the right, or cut), "grouped into 5 groups"
(hierarchies given by their labels: groups, ARX files, edited tables). The
words come from the recipe's spec (:meth:`Hierarchy.recipe`) or the
hierarchy itself; they are never read back into data.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import pandas as pd

from riskcore.deidentify.hierarchy.base import TOP, Hierarchy, text_of
from riskcore.errors import RiskcoreError

__all__ = ["AS_RECORDED", "LEVEL_WORDS", "KindWords", "level_words", "removed"]

#: What level 0 does: nothing.
AS_RECORDED = "kept as recorded"

#: ``describe(params, labels, level, unit)`` for a level >= 1 of one kind: ``params`` the
#: builder's parameters, ``labels`` the labels of that level (None for the spec of a
#: builder's kind, which holds no labels: its words come from the parameters alone).
LevelDescriber = Callable[[Mapping[str, Any], Sequence[Any] | None, int, str | None], str]


def removed(label: object = TOP) -> str:
    """Return the words of a level where every value has one label: "removed (*)".

    Parameters
    ----------
    label : object, optional
        The one label.

    Returns
    -------
    str
    """
    return f"removed ({text_of(label)})"


def _number(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


def _interval(p: Mapping[str, Any], labels: Sequence[Any] | None, lv: int, unit: str | None) -> str:
    widths = list(p["widths"])
    if lv > len(widths):
        return removed()
    w = _number(float(widths[lv - 1]))
    text = f"{w}-{unit} bands" if unit else f"bands of {w}"
    if p.get("bottom") is not None:
        text += f", under {_number(float(p['bottom']))} in one band"
    if p.get("top") is not None:
        text += f", {_number(float(p['top']))} and over in one band"
    return text


_DATE_WORDS = {
    "day": "day",
    "week": "week (Monday to Sunday, within the month)",
    "month": "year and month",
    "quarter": "quarter",
    "year": "year",
    "5y": "5-year period",
    "decade": "decade",
}
_DATE_LEVELS = ("month", "year", "decade")


def _date(p: Mapping[str, Any], labels: Sequence[Any] | None, lv: int, unit: str | None) -> str:
    levels = list(p.get("levels") or _DATE_LEVELS)
    return removed() if lv > len(levels) else _DATE_WORDS[str(levels[lv - 1])]


def _prefix(p: Mapping[str, Any], labels: Sequence[Any] | None, lv: int, unit: str | None) -> str:
    counts = p.get("keep") if p.get("keep") is not None else p.get("masked")
    if counts is not None and lv > len(counts):
        return removed()
    if counts is not None and p.get("keep") is not None:
        kept = int(counts[lv - 1])
    else:
        kept = int(p["width"]) - (int(counts[lv - 1]) if counts is not None else lv)
    if kept <= 0:
        return removed()
    end = "last" if p.get("side") == "left" else "first"
    return f"{end} character kept" if kept == 1 else f"{end} {kept} characters kept"


def _flat(p: Mapping[str, Any], labels: Sequence[Any] | None, lv: int, unit: str | None) -> str:
    return removed()


def _table(p: Mapping[str, Any], labels: Sequence[Any] | None, lv: int, unit: str | None) -> str:
    texts = [] if labels is None else [text_of(v) for v in labels]
    groups = pd.unique(pd.Series(texts, dtype=object))
    if len(groups) == 1:
        return removed(groups[0])
    return f"grouped into {len(groups):,} groups"


class KindWords(NamedTuple):
    """How the levels of one kind of hierarchy spec read.

    Attributes
    ----------
    height : callable
        ``height(spec)``: the highest level of a spec (:meth:`Hierarchy.recipe`) of this kind.
    describe : callable
        ``describe(params, labels, level, unit)``: the words of a level >= 1.
    """

    height: Callable[[Mapping[str, Any]], int]
    describe: LevelDescriber


def _params(spec: Mapping[str, Any]) -> dict[str, Any]:
    return dict(spec.get("params") or {})


def _prefix_height(spec: Mapping[str, Any]) -> int:
    p = _params(spec)
    if p.get("keep") is not None:
        return len(p["keep"]) + 1
    if p.get("masked") is not None:
        return len(p["masked"]) + 1
    return max(int(p["width"]), 1)


#: Words of each kind of hierarchy spec (:meth:`Hierarchy.recipe`): the same kinds as
#: :data:`~riskcore.deidentify.hierarchy.tables.REBUILDERS` (a common test checks it).
LEVEL_WORDS: Mapping[str, KindWords] = types.MappingProxyType(
    {
        "interval": KindWords(lambda s: len(_params(s)["widths"]) + 1, _interval),
        "date": KindWords(lambda s: len(_params(s).get("levels") or _DATE_LEVELS) + 1, _date),
        "prefix": KindWords(_prefix_height, _prefix),
        "flat": KindWords(lambda s: 1, _flat),
        "table": KindWords(lambda s: len(s["rows"][0]) - 1 if s.get("rows") else 1, _table),
    }
)


def level_words(
    hierarchy: Hierarchy | Mapping[str, Any], level: int, *, unit: str | None = None
) -> str:
    """Return what one level of a hierarchy does to its column, in words.

    Parameters
    ----------
    hierarchy : Hierarchy or mapping
        The hierarchy, or its spec as a recipe records it (:meth:`Hierarchy.recipe`).
    level : int
        From 0 to the hierarchy's height.
    unit : str, optional
        What an interval hierarchy's numbers count ("year"): its bands are
        then "10-year bands" instead of "bands of 10".

    Returns
    -------
    str
        "kept as recorded" at level 0; "removed (*)" where every value has
        one label (the top); else the kind's words ("10-year bands", "year",
        "first 3 characters kept", "grouped into 5 groups").

    Raises
    ------
    RiskcoreError
        For a kind :data:`LEVEL_WORDS` does not hold, or a level out of range.
    """
    kind = hierarchy.spec_kind if isinstance(hierarchy, Hierarchy) else str(hierarchy.get("kind"))
    if kind not in LEVEL_WORDS:
        raise RiskcoreError(f"unknown hierarchy kind {kind!r}: no words for its levels")
    if isinstance(hierarchy, Hierarchy):
        params, height = dict(hierarchy.params or {}), hierarchy.height
    else:
        params, height = _params(hierarchy), LEVEL_WORDS[kind].height(hierarchy)
    if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= height:
        raise RiskcoreError(f"level must be from 0 to {height}, got {level!r}")
    if level == 0:
        return AS_RECORDED
    labels: Sequence[Any] | None = None  # a spec holds its labels only when it is a table
    if isinstance(hierarchy, Hierarchy):
        labels = list(hierarchy.levels[level])
    elif hierarchy.get("rows"):
        labels = [row[level] for row in hierarchy["rows"]]
    return LEVEL_WORDS[kind].describe(params, labels, level, unit)
