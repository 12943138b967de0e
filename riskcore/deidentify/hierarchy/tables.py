"""Hierarchies given as tables: ARX's CSV format, a table edited by the user, a recipe's spec.

Every value of the column needs a row (:func:`check_covers`); a recipe's
spec (:meth:`~riskcore.deidentify.hierarchy.base.Hierarchy.recipe`) is built
again on new data by :func:`hierarchy_from_spec`.
"""

from __future__ import annotations

import csv
import types
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from riskcore.deidentify.hierarchy.base import Hierarchy, text_of
from riskcore.deidentify.hierarchy.builders import (
    date_hierarchy,
    flat_hierarchy,
    interval_hierarchy,
    prefix_hierarchy,
)
from riskcore.errors import RiskcoreError

__all__ = [
    "ARX_MAX_BYTES",
    "REBUILDERS",
    "check_covers",
    "hierarchy_from_spec",
    "hierarchy_from_table",
    "load_arx_hierarchy",
    "read_arx_hierarchy",
    "rebuild",
]


def read_arx_hierarchy(text: str, column: str, *, numeric: bool = False) -> Hierarchy:
    """Read a hierarchy in ARX's CSV format: one row per value, ``value;level 1;...;top``.

    Rows must all have the same number of fields; the separator is ``;``
    (ARX's) or ``,`` when no line holds a ``;``.

    Parameters
    ----------
    text : str
        The file's text.
    column : str
        The column's name.
    numeric : bool, optional
        Read the values (the first field) as numbers.

    Returns
    -------
    Hierarchy
    """
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise RiskcoreError(f"the hierarchy file for {column!r} is empty")
    delim = ";" if any(";" in ln for ln in lines) else ","
    rows = list(csv.reader(lines, delimiter=delim))
    width = len(rows[0])
    for i, r in enumerate(rows):
        if len(r) != width:
            raise RiskcoreError(
                f"the hierarchy file for {column!r}: line {i + 1} has {len(r)} fields, "
                f"line 1 has {width}"
            )
    if width < 2:
        raise RiskcoreError(f"the hierarchy file for {column!r} needs at least two levels")
    cols = list(zip(*rows, strict=True))
    leaves: np.ndarray = np.asarray(cols[0], dtype=object)
    if numeric:
        leaves = np.asarray(pd.to_numeric(pd.Series(cols[0])).tolist(), dtype=object)
    levels = (leaves, *(np.asarray(c, dtype=object) for c in cols[1:]))
    return Hierarchy(column, leaves, levels, kind="arx", numeric=numeric)


def _holds_numbers(series: pd.Series) -> bool:
    """Return True when a hierarchy's first column is read as numbers for ``series``.

    A numeric column, booleans aside.
    """
    dtype = series.dtype
    return bool(pd.api.types.is_numeric_dtype(dtype)) and not pd.api.types.is_bool_dtype(dtype)


def check_covers(hierarchy: Hierarchy, series: pd.Series) -> Hierarchy:
    """Return ``hierarchy`` when it holds every value of ``series``; else say which it lacks.

    Parameters
    ----------
    hierarchy : Hierarchy
        The hierarchy, uploaded or built.
    series : pandas.Series
        The column's values.

    Returns
    -------
    Hierarchy
        ``hierarchy`` itself, when it covers the column.

    Raises
    ------
    RiskcoreError
        Naming up to five values of the column the hierarchy has no row for,
        and how many there are.
    """
    leaf = hierarchy.leaf_index(series)
    if (leaf == -1).any():
        absent = pd.unique(pd.Series(series[leaf == -1], dtype=object))
        shown = ", ".join(repr(text_of(v)) for v in absent[:5])
        more = f" and {len(absent) - 5:,} more" if len(absent) > 5 else ""
        raise RiskcoreError(
            f"the hierarchy of {hierarchy.column!r} has no row for {len(absent):,} value"
            f"{'s' if len(absent) != 1 else ''} of the column ({shown}{more}): every value "
            "needs a row"
        )
    return hierarchy


def hierarchy_from_table(frame: pd.DataFrame, series: pd.Series) -> Hierarchy:
    """Return the hierarchy a table gives (one row per value, one column per level), checked.

    The first column holds the values, each further column their labels at
    one level (as :meth:`Hierarchy.to_frame` writes them, or ARX's CSV read
    as a table). Checks, each with a message naming what is wrong: at least
    two levels; no empty label; every value of ``series`` has a row; no value
    has two rows; each value or group has one parent per level.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table (edited by the user).
    series : pandas.Series
        The column it is for: its name, and its values to cover. Numbers in the
        first column are read as numbers when the column is numeric.

    Returns
    -------
    Hierarchy
        Of kind ``"table"`` (a recipe keeps the table).
    """
    column = str(series.name)
    if frame.shape[1] < 2:
        raise RiskcoreError(f"the hierarchy of {column!r} needs at least two levels")
    if frame.shape[0] == 0:
        raise RiskcoreError(f"the hierarchy of {column!r} has no row")
    cols = [frame.iloc[:, i] for i in range(frame.shape[1])]
    for i, c in enumerate(cols):
        text = c.map(text_of) if c.dtype == object else c.astype(object).map(text_of)
        empty = text.str.strip() == ""
        if empty.any():
            at = int(np.flatnonzero(empty.to_numpy())[0])
            what = "a row without a value" if i == 0 else "an empty label"
            where = "" if i == 0 else f" at level {i} (the row of {text_of(cols[0].iloc[at])!r})"
            raise RiskcoreError(f"the hierarchy of {column!r} has {what}{where}")
    numeric = _holds_numbers(series)
    first = cols[0]
    if numeric:
        num = pd.to_numeric(first.map(text_of), errors="coerce")
        if num.isna().any():
            bad = text_of(first[num.isna()].iloc[0])
            raise RiskcoreError(
                f"{column!r} holds numbers, and the hierarchy's value {bad!r} is not one"
            )
        leaves = np.asarray(num.tolist(), dtype=object)
    else:
        leaves = np.asarray([text_of(v) for v in first], dtype=object)
    levels = (leaves, *(np.asarray([text_of(v) for v in c], dtype=object) for c in cols[1:]))
    h = Hierarchy(column, leaves, levels, kind="table", numeric=numeric)
    return check_covers(h, series)


#: Largest hierarchy file read (bytes): a hierarchy has one row per distinct value.
ARX_MAX_BYTES = 20 * 1024 * 1024


def load_arx_hierarchy(raw: bytes, series: pd.Series) -> Hierarchy:
    """Read an uploaded hierarchy file in ARX's CSV format for ``series``, checked.

    UTF-8 text (a byte-order mark is skipped), ``;`` or ``,`` separated, one
    row per value (:func:`read_arx_hierarchy`); numbers are matched as numbers
    when the column is numeric, and every value of the column needs a row
    (:func:`check_covers`).

    Parameters
    ----------
    raw : bytes
        The file's bytes (UTF-8).
    series : pandas.Series
        The column the file is for: its name, whether it holds numbers, and its
        values, each of which needs a row.

    Returns
    -------
    Hierarchy
        Of kind ``"arx"``: the file's first column its values, each further one a level.

    Raises
    ------
    RiskcoreError
        For a file too large, not UTF-8, not rectangular, or missing values.
    """
    column = str(series.name)
    if len(raw) > ARX_MAX_BYTES:
        raise RiskcoreError(
            f"the hierarchy file for {column!r} has {len(raw):,} bytes; at most "
            f"{ARX_MAX_BYTES:,} are read"
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RiskcoreError(f"the hierarchy file for {column!r} is not UTF-8 text") from None
    numeric = _holds_numbers(series)
    try:
        h = read_arx_hierarchy(text, column, numeric=numeric)
    except (ValueError, TypeError) as exc:
        raise RiskcoreError(
            f"the hierarchy file for {column!r}: its first column must hold the column's "
            f"numbers ({exc})"
        ) from None
    return check_covers(h, series)


def hierarchy_from_spec(series: pd.Series, spec: Mapping[str, Any]) -> Hierarchy:
    """Return the hierarchy ``spec`` describes (:meth:`Hierarchy.recipe`), built on ``series``.

    A table must hold every value of the column (:func:`check_covers`).

    Parameters
    ----------
    series : pandas.Series
        The column's values.
    spec : mapping of str to Any
        The builder's kind and parameters, as :meth:`Hierarchy.recipe` writes them.

    Returns
    -------
    Hierarchy
    """
    h = rebuild(series, spec)
    return check_covers(h, series) if spec.get("kind") == "table" else h


def _table(series: pd.Series, spec: Mapping[str, Any]) -> Hierarchy:
    rows = spec["rows"]
    cols = list(zip(*rows, strict=True))
    levels = tuple(np.asarray(c, dtype=object) for c in cols)
    return Hierarchy(
        str(series.name), levels[0], levels, kind="grouping", numeric=bool(spec["numeric"])
    )


#: How each kind of recipe spec (:meth:`Hierarchy.recipe`) is built on a column: the
#: builders' kinds from their parameters, ``"table"`` from its rows.
REBUILDERS: Mapping[str, Callable[[pd.Series, Mapping[str, Any]], Hierarchy]] = (
    types.MappingProxyType(
        {
            "interval": lambda s, spec: interval_hierarchy(s, **dict(spec.get("params") or {})),
            "date": lambda s, spec: date_hierarchy(s, **dict(spec.get("params") or {})),
            "prefix": lambda s, spec: prefix_hierarchy(s, **dict(spec.get("params") or {})),
            "flat": lambda s, spec: flat_hierarchy(s),
            "table": _table,
        }
    )
)


def rebuild(series: pd.Series, spec: Mapping[str, Any]) -> Hierarchy:
    """Return the hierarchy a recipe describes, built on ``series`` (see ``Hierarchy.recipe``).

    Parameters
    ----------
    series : pandas.Series
        The column's values.
    spec : mapping
        ``{"kind", "params"}`` of a builder, or ``{"kind": "table", "numeric", "rows"}``.

    Returns
    -------
    Hierarchy

    Raises
    ------
    RiskcoreError
        For a kind :data:`REBUILDERS` does not hold.
    """
    kind = str(spec.get("kind"))
    if kind not in REBUILDERS:
        raise RiskcoreError(f"unknown hierarchy kind {kind!r} in the recipe")
    return REBUILDERS[kind](series, spec)
