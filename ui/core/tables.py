"""Tables that fit the main column: no column hidden past the right edge at 1024 px.

At a 1024 px window with the sidebar open the main column is 562 px wide; a
dataframe whose columns are wider than that hides its last columns behind a
horizontal scroll bar, which nobody sees. :func:`fitted` gives every column of
such a table a width so that all of them show: the widest (long text or long
headers) are narrowed first, to a common cap; a header narrower than its text
keeps its full name in the header's tooltip (the cell's full text shows on hover).

A table read as a document (the report's figures, two saved assessments compared) is a
static ``st.table`` instead, whose cells wrap: :func:`escaped` makes its cells plain text.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ui.core.safe import md

__all__ = ["FIT_PX", "drop_empty", "escaped", "fitted"]

#: The width every table must fit: the main column at 1024 px (562 px), less a margin.
FIT_PX = 540
#: Average width (px) of a character of the grid's 14 px font, and a cell's padding.
CHAR_PX = 7.5
PAD_PX = 22
#: The narrowest a column is made (a few characters and the sort arrow).
MIN_PX = 60


def _label(name: str, given: object) -> str:
    """Return the header shown for column ``name`` under its ``column_config`` entry."""
    if isinstance(given, str):
        return given
    label = given.get("label") if isinstance(given, dict) else None
    return str(label) if label else name


def _natural(df: pd.DataFrame, config: dict[str, Any]) -> dict[str, float]:
    """Estimate each column's natural width (px) from its header and its longest value."""
    head = df.head(200)
    out = {}
    for c in df.columns:
        values = head[c]
        if pd.api.types.is_float_dtype(values):
            chars = 8  # shown rounded ("0.0909", "12.5%")
        else:
            chars = int(values.astype(str).str.len().max()) if len(values) else 0
        header = _label(str(c), config.get(str(c)))
        out[str(c)] = max(len(header), chars) * CHAR_PX + PAD_PX
    return out


def fitted(
    df: pd.DataFrame,
    config: dict[str, Any] | None = None,
    *,
    width: int = FIT_PX,
    min_px: int = MIN_PX,
) -> dict[str, Any]:
    """Return ``config`` (a ``column_config``) with widths that make ``df`` fit ``width`` px.

    Unchanged when the natural widths already fit. Otherwise the widest columns
    are capped at one width ("water filling": the cap is the largest that keeps
    the sum within ``width``), never under ``min_px`` (:data:`MIN_PX`; a table of many
    short numbers may go down to about 50); a column narrowed
    below its header's width gets the header as its tooltip (a column's name escaped
    for markdown, :func:`ui.core.safe.md`; a label given as it is). The index is
    assumed hidden (``hide_index=True``).

    Parameters
    ----------
    df : pandas.DataFrame
        The table shown (its index hidden).
    config : dict, optional
        The ``column_config`` given (labels, formats, tooltips); kept.
    width : int, default FIT_PX
        The width (px) the columns must fit.
    min_px : int, default MIN_PX
        The narrowest a column is made.

    Returns
    -------
    dict
        ``config`` with a width (and a tooltip where the header is cut) per column.
    """
    config = dict(config or {})
    natural = _natural(df, config)
    if sum(natural.values()) <= width:
        return config
    widths = sorted(natural.values())
    cap, left, rest = float(width), float(width), len(widths)
    for w in widths:  # the smallest keep their width while the rest share what is left
        if w * rest > left:
            cap = left / rest
            break
        left, rest = left - w, rest - 1
    for name, w in natural.items():
        px = int(max(min_px, min(w, cap)))
        given = config.get(name) or {}
        entry = {"label": given} if isinstance(given, str) else dict(given)
        entry["width"] = px
        header = _label(name, given)
        if px < len(header) * CHAR_PX + PAD_PX - 1:
            # a tooltip is markdown: a column's own name (the user's) is shown as written; a
            # label given is the page's own text
            entry.setdefault("help", md(header) if header == name else header)
        config[name] = entry
    return config


def drop_empty(df: pd.DataFrame, *columns: str) -> pd.DataFrame:
    """Return ``df`` without those of ``columns`` that hold nothing ("" or missing
    everywhere): an empty column on screen costs the others their width."""
    empty = [c for c in columns if c in df.columns and not df[c].fillna("").astype(bool).any()]
    return df.drop(columns=empty)


def escaped(df: pd.DataFrame) -> pd.DataFrame:
    """Return ``df`` for ``st.table``: every cell, column name and index label as plain text.

    ``st.table`` renders each cell, header and index label as markdown; a value or a
    column's name from the data (``![p](http://host/px.png)``) would become a link or an
    image. Each is escaped by :func:`ui.core.safe.md` (the reader sees the text as written);
    a missing value is left blank.
    """

    def one(value: object) -> str:
        return "" if value is None or (isinstance(value, float) and pd.isna(value)) else md(value)

    out = df.map(one)
    out.columns = pd.Index([md(c) for c in df.columns])
    if not isinstance(df.index, pd.RangeIndex):  # a default index is hidden, left as it is
        name = df.index.name
        out.index = pd.Index([md(i) for i in df.index], name=None if name is None else md(name))
    return out
