"""Generalization hierarchies: for each value of a column, its label at every level.

A hierarchy of height h maps every value (a leaf) to one label per level
0..h: level 0 is the value itself, each level groups the groups of the level
below (it is a coarsening: two values with the same label at level l share it
at every higher level), and the top level is usually ``"*"`` (one group).
This is ARX's value generalization hierarchy (Prasser et al. 2014, the
``HierarchyBuilder*`` family): full-domain generalization recodes a column by
replacing each value with its label at one level.

Builders:

* :func:`interval_hierarchy` numbers into nested bands of growing width
  ("30-34", "30-39", ...) with optional bottom and top coding ("<18", "90+");
* :func:`date_hierarchy` dates to month, year and decade;
* :func:`prefix_hierarchy` codes such as ZIP codes, masked from the right
  ("02139", "0213*", "021**", ...), leading zeros kept;
* :func:`grouping_hierarchy` categories by user-given groups (a mapping per
  level), and :func:`read_arx_hierarchy` / :func:`Hierarchy.to_arx_csv` for
  ARX's CSV format (one row per value: ``value;level1;...;*``);
* :func:`flat_hierarchy` the value or ``"*"`` (suppression of the column);
* :func:`builtin_hierarchy` the census categories of UCI Adult.

A missing value stays missing at every level: it is already the least precise
value, and it remains one more value of its column (no record is dropped).
"""

from __future__ import annotations

import csv
import io
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from riskcore._values import value_text
from riskcore.errors import RiskcoreError

__all__ = [
    "TOP",
    "Hierarchy",
    "at_leaves",
    "banded_hierarchy",
    "builtin_hierarchy",
    "check_covers",
    "date_hierarchy",
    "default_hierarchy",
    "flat_hierarchy",
    "grouping_hierarchy",
    "hierarchy_from_spec",
    "hierarchy_from_table",
    "interval_hierarchy",
    "load_arx_hierarchy",
    "prefix_hierarchy",
    "read_arx_hierarchy",
]

#: Label of the most general level: every value in one group.
TOP = "*"


def _present(series: pd.Series) -> pd.Series:
    return series[series.notna()]


def _text(value: Any) -> str:
    """Return a value as text (leading zeros of text kept; "" for a missing value)."""
    return value_text(value) or ""


def at_leaves(per_leaf: np.ndarray, leaf: np.ndarray, fill: Any) -> np.ndarray:
    """Return ``per_leaf[leaf]``, with ``fill`` where ``leaf`` is negative (a value the
    hierarchy does not hold, -1, or a missing one, -2).

    Safe when the hierarchy has no leaves at all (a column of only missing values).

    Parameters
    ----------
    per_leaf : numpy.ndarray
        One entry per leaf of the hierarchy.
    leaf : numpy.ndarray
        Positions among the leaves, as :meth:`Hierarchy.leaf_index` returns them.
    fill : scalar
        The entry of a negative position.
    """
    extended = np.append(per_leaf, np.asarray([fill], dtype=per_leaf.dtype))
    return extended[np.where(leaf >= 0, leaf, len(per_leaf))]


@dataclass(frozen=True, eq=False)
class Hierarchy:
    """The labels of every value of a column at every level.

    Attributes
    ----------
    column : str
        Column the hierarchy is for.
    leaves : numpy.ndarray
        The values (object array, distinct, no missing value).
    levels : tuple of numpy.ndarray
        ``levels[l][i]`` is the label of ``leaves[i]`` at level ``l``;
        ``levels[0]`` is the leaves themselves. Each level is a coarsening
        of the one below (checked).
    kind : str
        The builder ("interval", "date", "prefix", "grouping", "flat", "arx").
    params : dict
        The builder's parameters (so a recipe can rebuild the hierarchy on new
        data); empty for hierarchies given as tables.
    numeric : bool
        True when the leaves are numbers (the certainty penalty then uses
        their range, not their count).
    """

    column: str
    leaves: np.ndarray
    levels: tuple[np.ndarray, ...]
    kind: str = "grouping"
    params: Mapping[str, Any] | None = None
    numeric: bool = False

    def __post_init__(self) -> None:
        n = len(self.leaves)
        if not self.levels:
            raise RiskcoreError(f"the hierarchy of {self.column!r} has no level")
        leaves = pd.Series(self.leaves, dtype=object)
        if leaves.duplicated().any():
            twice = leaves[leaves.duplicated()].iloc[0]
            raise RiskcoreError(
                f"the hierarchy of {self.column!r} lists the value {twice!r} twice: one row "
                "per value"
            )
        for lab in self.levels:
            if len(lab) != n:
                raise RiskcoreError(f"every level of {self.column!r} needs one label per value")
        for lo, (a, b) in enumerate(zip(self.levels[:-1], self.levels[1:], strict=True)):
            # a coarsening: each label of level lo has one label at level lo + 1
            pairs = pd.DataFrame({"a": pd.Series(a, dtype=object), "b": pd.Series(b, dtype=object)})
            split = pairs.drop_duplicates().groupby("a", dropna=False).size()
            if (split > 1).any():
                bad = split.index[int(np.argmax(split.to_numpy() > 1))]
                parents = pairs.loc[pairs["a"] == bad, "b"].drop_duplicates().tolist()
                raise RiskcoreError(
                    f"the hierarchy of {self.column!r} is not consistent: {bad!r} at level "
                    f"{lo} has {len(parents)} parents at level {lo + 1} "
                    f"({', '.join(map(repr, parents[:3]))}); each value or group needs one "
                    "parent per level"
                )

    @property
    def height(self) -> int:
        """Return h, the highest level (level 0 is the value itself)."""
        return len(self.levels) - 1

    def codes(self, level: int) -> tuple[np.ndarray, np.ndarray]:
        """Return (code of each leaf at ``level``, the labels of those codes)."""
        codes, labels = pd.factorize(pd.Series(self.levels[level], dtype=object), sort=False)
        return codes.astype(np.int64), np.asarray(labels, dtype=object)

    def leaf_index(self, values: pd.Series) -> np.ndarray:
        """Return the leaf of each value: its position in :attr:`leaves`, -1 for a value the
        hierarchy does not hold, -2 for a missing value."""
        index = pd.Index(pd.Series(self.leaves, dtype=object))
        pos = index.get_indexer(pd.Series(values, dtype=object))
        if self.numeric and len(self.leaves):  # 30 and 30.0 are one value
            num = pd.to_numeric(pd.Series(values), errors="coerce").to_numpy(dtype=float)
            leaves = pd.to_numeric(pd.Series(self.leaves), errors="coerce").to_numpy(dtype=float)
            order = np.argsort(leaves, kind="stable")
            at = np.searchsorted(leaves[order], num)
            at = np.minimum(at, len(order) - 1)
            hit = leaves[order][at] == num
            pos = np.where(hit, order[at], pos)
        missing = pd.Series(values).isna().to_numpy()
        return np.where(missing, -2, pos).astype(np.int64)

    def to_frame(self, *, sort: bool = False) -> pd.DataFrame:
        """Return the hierarchy as a table: one row per value, one column per level.

        With ``sort``, rows are in the values' order (numbers by value, other
        values by their text) instead of their first appearance, index reset.
        """
        frame = pd.DataFrame(
            {f"level {i}": pd.Series(lab, dtype=object) for i, lab in enumerate(self.levels)}
        )
        if not sort:
            return frame
        if self.numeric:
            order = np.argsort(np.asarray(self.leaves, dtype=float), kind="stable")
        else:
            order = np.argsort(
                np.asarray([_text(v) for v in self.leaves], dtype=str), kind="stable"
            )
        return frame.iloc[order].reset_index(drop=True)

    def to_arx_csv(self) -> str:
        """Return the hierarchy in ARX's CSV format: ``value;level 1;...;top`` per row."""
        out = io.StringIO()
        writer = csv.writer(out, delimiter=";", lineterminator="\n")
        for row in zip(*self.levels, strict=True):
            writer.writerow([_text(v) for v in row])
        return out.getvalue()

    def recipe(self) -> dict[str, Any]:
        """Return what rebuilds this hierarchy: the builder and its parameters, or the table."""
        if self.params is not None and self.kind != "grouping":
            return {"kind": self.kind, "params": dict(self.params)}
        return {
            "kind": "table",
            "numeric": self.numeric,
            "rows": [[_json_value(v) for v in row] for row in zip(*self.levels, strict=True)],
        }


def _json_value(v: Any) -> Any:
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, (int, float, str)) or v is None:
        return v
    return _text(v)


def _leaves(series: pd.Series) -> np.ndarray:
    return np.asarray(pd.unique(_present(series)), dtype=object)


def flat_hierarchy(series: pd.Series) -> Hierarchy:
    """Return the two-level hierarchy "value" or ``"*"``: keep the column or suppress it."""
    leaves = _leaves(series)
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
    x = pd.to_numeric(_present(series), errors="coerce")
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
    leaves = _leaves(series)
    dates = pd.to_datetime(pd.Series(leaves, dtype=object), errors="coerce", format="mixed")
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
    leaves = _leaves(series)
    text = [_text(v) for v in leaves]
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
    leaves = _leaves(series)
    cur = np.asarray(leaves, dtype=object)
    out: list[np.ndarray] = [leaves]
    for i, mapping in enumerate(groups):
        keys = {_text(k): v for k, v in mapping.items()}
        texts = [_text(v) for v in cur]
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


def read_arx_hierarchy(text: str, column: str, *, numeric: bool = False) -> Hierarchy:
    """Read a hierarchy in ARX's CSV format: one row per value, ``value;level 1;...;top``.

    Rows must all have the same number of fields; the separator is ``;``
    (ARX's) or ``,`` when no line holds a ``;``.
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


def check_covers(hierarchy: Hierarchy, series: pd.Series) -> Hierarchy:
    """Return ``hierarchy`` when it holds every value of ``series``; else say which it lacks.

    Raises
    ------
    RiskcoreError
        Naming up to five values of the column the hierarchy has no row for,
        and how many there are.
    """
    leaf = hierarchy.leaf_index(series)
    if (leaf == -1).any():
        absent = pd.unique(pd.Series(series[leaf == -1], dtype=object))
        shown = ", ".join(repr(_text(v)) for v in absent[:5])
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
        text = c.map(_text) if c.dtype == object else c.astype(object).map(_text)
        empty = text.str.strip() == ""
        if empty.any():
            at = int(np.flatnonzero(empty.to_numpy())[0])
            what = "a row without a value" if i == 0 else "an empty label"
            where = "" if i == 0 else f" at level {i} (the row of {_text(cols[0].iloc[at])!r})"
            raise RiskcoreError(f"the hierarchy of {column!r} has {what}{where}")
    numeric = bool(pd.api.types.is_numeric_dtype(series.dtype)) and not pd.api.types.is_bool_dtype(
        series.dtype
    )
    first = cols[0]
    if numeric:
        num = pd.to_numeric(first.map(_text), errors="coerce")
        if num.isna().any():
            bad = _text(first[num.isna()].iloc[0])
            raise RiskcoreError(
                f"{column!r} holds numbers, and the hierarchy's value {bad!r} is not one"
            )
        leaves = np.asarray(num.tolist(), dtype=object)
    else:
        leaves = np.asarray([_text(v) for v in first], dtype=object)
    levels = (leaves, *(np.asarray([_text(v) for v in c], dtype=object) for c in cols[1:]))
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
    numeric = bool(pd.api.types.is_numeric_dtype(series.dtype)) and not pd.api.types.is_bool_dtype(
        series.dtype
    )
    try:
        h = read_arx_hierarchy(text, column, numeric=numeric)
    except (ValueError, TypeError) as exc:
        raise RiskcoreError(
            f"the hierarchy file for {column!r}: its first column must hold the column's "
            f"numbers ({exc})"
        ) from None
    return check_covers(h, series)


#: Built-in groups of UCI Adult's census categories (level 1, then level 2), after the
#: Census Bureau's own groupings (class of worker, educational attainment, marital status,
#: major occupation group); "*" above them.
_ADULT_GROUPS: dict[str, list[dict[str, str]]] = {
    "workclass": [
        {
            "Private": "Private",
            "Self-emp-not-inc": "Self-employed",
            "Self-emp-inc": "Self-employed",
            "Federal-gov": "Government",
            "State-gov": "Government",
            "Local-gov": "Government",
            "Without-pay": "Not paid",
            "Never-worked": "Not paid",
        },
    ],
    "education": [
        {
            "Preschool": "No high-school diploma",
            "1st-4th": "No high-school diploma",
            "5th-6th": "No high-school diploma",
            "7th-8th": "No high-school diploma",
            "9th": "No high-school diploma",
            "10th": "No high-school diploma",
            "11th": "No high-school diploma",
            "12th": "No high-school diploma",
            "HS-grad": "High school",
            "Some-college": "Some college or associate",
            "Assoc-voc": "Some college or associate",
            "Assoc-acdm": "Some college or associate",
            "Bachelors": "Bachelor's",
            "Masters": "Graduate or professional",
            "Prof-school": "Graduate or professional",
            "Doctorate": "Graduate or professional",
        },
        {
            "No high-school diploma": "High school or less",
            "High school": "High school or less",
            "Some college or associate": "Some college or more",
            "Bachelor's": "Some college or more",
            "Graduate or professional": "Some college or more",
        },
    ],
    "marital-status": [
        {
            "Married-civ-spouse": "Married",
            "Married-AF-spouse": "Married",
            "Married-spouse-absent": "Married",
            "Separated": "Formerly married",
            "Divorced": "Formerly married",
            "Widowed": "Formerly married",
            "Never-married": "Never married",
        },
    ],
    "occupation": [
        {
            "Exec-managerial": "Management and professional",
            "Prof-specialty": "Management and professional",
            "Tech-support": "Service and sales",
            "Sales": "Service and sales",
            "Adm-clerical": "Service and sales",
            "Other-service": "Service and sales",
            "Priv-house-serv": "Service and sales",
            "Protective-serv": "Service and sales",
            "Craft-repair": "Production and manual",
            "Machine-op-inspct": "Production and manual",
            "Transport-moving": "Production and manual",
            "Handlers-cleaners": "Production and manual",
            "Farming-fishing": "Production and manual",
            "Armed-Forces": "Production and manual",
        },
    ],
    "race": [],
    "sex": [],
}
_ADULT_ALIASES = {"marital_status": "marital-status", "marital status": "marital-status"}


def builtin_hierarchy(series: pd.Series) -> Hierarchy | None:
    """Return the built-in hierarchy of a UCI Adult census column, or None.

    Columns: workclass, education, marital-status, occupation, race, sex
    (the last two: value or ``"*"``), and native-country (country, then
    "United-States" / "Other", then ``"*"``). Values not in the census
    categories make it None (the caller then builds a flat hierarchy).
    """
    name = str(series.name).strip().lower()
    name = _ADULT_ALIASES.get(name, name)
    if name in ("native-country", "native_country", "country"):
        values = _leaves(series)
        home = "United-States"
        country = [{_text(v): (home if _text(v) == home else "Other") for v in values}]
        return grouping_hierarchy(series, country)
    if name not in _ADULT_GROUPS:
        return None
    groups = _ADULT_GROUPS[name]
    if groups:
        texts = {_text(v) for v in _leaves(series)}
        if not texts <= set(groups[0]):
            return None
    return grouping_hierarchy(series, groups) if groups else flat_hierarchy(series)


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


def default_hierarchy(series: pd.Series) -> Hierarchy:
    """Return a hierarchy suited to a column when the user gave none.

    * UCI Adult census categories: :func:`builtin_hierarchy`;
    * numbers: bands of a round width (1, 2 or 5 times a power of ten, about
      16 bands over the range), doubling at each level up to the range;
    * dates (datetime columns, or text that is all ISO dates ``YYYY-MM-DD``):
      month, year, decade;
    * codes of one length made of digits (ZIP codes, postcodes): masked from
      the right;
    * anything else: the value or ``"*"``.
    """
    built = builtin_hierarchy(series)
    if built is not None:
        return built
    present = _present(series)
    if pd.api.types.is_bool_dtype(series.dtype) or present.empty:
        return flat_hierarchy(series)
    if pd.api.types.is_numeric_dtype(series.dtype):
        return banded_hierarchy(series)
    if pd.api.types.is_datetime64_any_dtype(series.dtype):
        return date_hierarchy(series)
    text = present.astype(str)
    if text.str.fullmatch(r"\d{4}-\d{2}-\d{2}").all():
        try:
            return date_hierarchy(series)
        except RiskcoreError:
            pass
    lengths = text.str.len()
    if text.str.fullmatch(r"\d+").all() and lengths.nunique() == 1 and int(lengths.iloc[0]) >= 3:
        return prefix_hierarchy(series)
    return flat_hierarchy(series)


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
    present = _present(series)
    x = pd.to_numeric(present, errors="coerce").to_numpy(dtype=float)
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


def hierarchy_from_spec(series: pd.Series, spec: Mapping[str, Any]) -> Hierarchy:
    """Return the hierarchy ``spec`` describes (:meth:`Hierarchy.recipe`), built on ``series``.

    A table must hold every value of the column (:func:`check_covers`).
    """
    h = _rebuild(series, spec)
    return check_covers(h, series) if spec.get("kind") == "table" else h


def _rebuild(series: pd.Series, spec: Mapping[str, Any]) -> Hierarchy:
    """Return the hierarchy a recipe describes, built on ``series`` (see ``Hierarchy.recipe``)."""
    kind = spec.get("kind")
    params = dict(spec.get("params") or {})
    if kind == "interval":
        return interval_hierarchy(series, **params)
    if kind == "date":
        return date_hierarchy(series, **params)
    if kind == "prefix":
        return prefix_hierarchy(series, **params)
    if kind == "flat":
        return flat_hierarchy(series)
    if kind == "table":
        rows = spec["rows"]
        cols = list(zip(*rows, strict=True))
        levels = tuple(np.asarray(c, dtype=object) for c in cols)
        return Hierarchy(
            str(series.name), levels[0], levels, kind="grouping", numeric=bool(spec["numeric"])
        )
    raise RiskcoreError(f"unknown hierarchy kind {kind!r} in the recipe")
