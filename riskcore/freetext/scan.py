"""Scan the text columns of a table for identifiers written inside the text.

:func:`scan_text` runs the built-in patterns (:data:`~riskcore.freetext.patterns.ENTITIES`)
over every text column, whatever its role, on the distinct values with
pandas' ``.str`` methods: one pass per pattern, never a Python loop over rows.
A column's scan is limited to ``max_chars`` characters of distinct values
(checked before scanning); a column longer than that is scanned partly and
marked so, and a partly scanned column counts as unchecked. Results carry
counts (cells, distinct values, occurrences) and each finding's Safe Harbor
category letter; never the text found, except one masked example kept out
of the JSON (for the page only).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore.errors import RiskcoreError
from riskcore.freetext.findings import (
    MAX_CHARS,
    ColumnScan,
    Status,
    TextFinding,
    TextScan,
    distinct_texts,
    is_text_column,
    text_columns,
)
from riskcore.freetext.patterns import ENTITIES, PREFILTER, mask_example

__all__ = [
    "MAX_CHARS",
    "ColumnScan",
    "TextFinding",
    "TextScan",
    "find_in_values",
    "is_text_column",
    "redact_found",
    "scan_text",
    "text_columns",
]


def find_in_values(
    values: pd.Series, groups: npt.NDArray[np.intp] | None = None, *, redact: bool = True
) -> tuple[dict[str, npt.NDArray[np.int64]], dict[str, dict[int, str]], pd.Series]:
    """Run the built-in patterns over distinct text values.

    Parameters
    ----------
    values : pandas.Series
        Text values (object dtype), one per distinct value (of one column, or of
        several columns one after the other: one pass per pattern for all of them).
    groups : numpy.ndarray, optional
        The group (column) of each value, for the examples; default one group, 0.
    redact : bool, default True
        Also write the values with their identifiers replaced by placeholders
        (a scan that only counts skips it).

    Returns
    -------
    counts : dict
        ``{kind: occurrences per value}`` for every kind found at least once.
    examples : dict
        ``{kind: {group: a masked occurrence}}``.
    redacted : pandas.Series
        The values with every occurrence replaced by its entity's placeholder
        (what :func:`redact_found` writes); the values as given when
        ``redact`` is False.
    """
    values = values.reset_index(drop=True).astype(object)
    group = np.zeros(len(values), dtype=np.intp) if groups is None else np.asarray(groups)
    counts: dict[str, npt.NDArray[np.int64]] = {}
    examples: dict[str, dict[int, str]] = {}
    redacted = values.copy()
    candidate = np.flatnonzero(values.str.contains(PREFILTER, regex=True).to_numpy(dtype=bool))
    if not len(candidate):
        return counts, examples, redacted
    # ``active``: positions (in ``values``) still holding a digit, "@", ":" or "www."
    active = candidate
    work = values.iloc[active].reset_index(drop=True)
    for e in ENTITIES:  # a loop over the ~11 patterns, each one vectorized over the values
        if not len(active):
            break
        n = work.str.count(e.regex).to_numpy(dtype=np.int64)
        hit = n > 0
        if not hit.any():
            continue
        full = np.zeros(len(values), dtype=np.int64)
        full[active] = n
        counts[e.kind] = full
        at = np.flatnonzero(hit)
        found_in, first = np.unique(group[active[at]], return_index=True)
        for g, i in zip(found_in.tolist(), first.tolist(), strict=True):  # one per column
            match = re.search(e.regex, str(work.iloc[at[i]]))
            if match:
                examples.setdefault(e.kind, {})[g] = mask_example(match.group(0), e.keep_last)
        if redact:
            rows = active[hit]
            redacted.iloc[rows] = (
                redacted.iloc[rows].str.replace(e.regex, e.placeholder, regex=True).to_numpy()
            )
        work.loc[hit] = work.loc[hit].str.replace(e.regex, " ", regex=True)
        # values left with nothing any later pattern needs are not scanned again
        keep = np.ones(len(work), dtype=bool)
        keep[hit] = work.loc[hit].str.contains(PREFILTER, regex=True).to_numpy(dtype=bool)
        if not keep.all():
            active, work = active[keep], work[keep].reset_index(drop=True)
    return counts, examples, redacted


def _check_limit(max_chars: object) -> int:
    if isinstance(max_chars, bool) or not isinstance(max_chars, (int, np.integer)):
        raise TypeError(f"max_chars must be an integer, got {type(max_chars).__name__}")
    if max_chars < 0:
        raise ValueError(f"max_chars must be at least 0, got {max_chars!r}")
    return int(max_chars)


@dataclass(frozen=True)
class _Column:
    """A text column's distinct values, cells per value, and how many of them fit the limit."""

    name: str
    texts: pd.Series
    cells: npt.NDArray[np.int64]
    n_scan: int
    chars: int
    total_chars: int


def _distinct_cells(col: pd.Series) -> tuple[npt.NDArray[np.int64], pd.Series]:
    """Return the cells of each distinct value and the values, in the order of ``distinct_texts``.

    A categorical's categories are counted from its codes in one pass, with no
    per-row codes made (a million rows).
    """
    if isinstance(col.dtype, pd.CategoricalDtype):
        raw = col.cat.codes.to_numpy().astype(np.intp)
        counts = np.bincount(raw + 1, minlength=len(col.cat.categories) + 1)[1:]  # -1: missing
        present = counts > 0
        texts = pd.Series(col.cat.categories[present]).astype(str).astype(object)
        return counts[present].astype(np.int64), texts.reset_index(drop=True)
    codes, texts = distinct_texts(col)
    return np.bincount(codes[codes >= 0], minlength=len(texts)).astype(np.int64), texts


def _prepare(name: str, col: pd.Series, max_chars: int) -> _Column:
    cells, texts = _distinct_cells(col)
    cum = np.cumsum(texts.str.len().to_numpy(dtype=np.int64))
    n_scan = int(np.searchsorted(cum, max_chars, side="right"))
    chars = int(cum[n_scan - 1]) if n_scan else 0
    return _Column(name, texts, cells, n_scan, chars, int(cum[-1]) if len(cum) else 0)


def _column_scan(
    c: _Column,
    counts: dict[str, npt.NDArray[np.int64]],
    examples: dict[str, str],
    max_chars: int,
) -> ColumnScan:
    """Return one column's scan from the counts of its scanned values."""
    n_cells, n_values = int(c.cells.sum()), len(c.texts)
    if not n_values:
        return ColumnScan(c.name, "clean")
    if c.n_scan == 0:
        why = f"its first value alone is longer than the limit of {max_chars:,} characters"
        return ColumnScan(c.name, "not_scanned", n_cells, n_values, why=why, n_chars=c.total_chars)
    cells = c.cells[: c.n_scan]
    scanned_cells = int(cells.sum())
    findings = []
    for e in ENTITIES:
        n = counts.get(e.kind)
        if n is None or not n.any():
            continue
        hit = n > 0
        findings.append(
            TextFinding(
                c.name,
                e.kind,
                e.letter,
                e.label,
                int((n * cells).sum()),
                int(cells[hit].sum()),
                int(hit.sum()),
                example=examples.get(e.kind, ""),
            )
        )
    findings.sort(key=lambda f: (f.letter or "~", f.kind))
    status: Status = "found" if any(f.letter for f in findings) else "clean"
    why = ""
    if c.n_scan < n_values:
        status = "partial"
        why = (
            f"{c.n_scan:,} of {n_values:,} distinct values ({c.chars:,} characters, "
            f"{scanned_cells:,} of {n_cells:,} cells) were scanned: the limit is {max_chars:,} "
            "characters per column"
        )
    return ColumnScan(c.name, status, n_cells, n_values, c.n_scan, scanned_cells, c.chars,
                      tuple(findings), why, c.total_chars)  # fmt: skip


def scan_text(
    data: pd.DataFrame,
    columns: Sequence[str] | None = None,
    *,
    max_chars: int = MAX_CHARS,
    presidio: bool = False,
    presidio_sample: int = 200,
) -> TextScan:
    """Look for identifiers written inside the text columns of a table.

    The built-in patterns (:mod:`riskcore.freetext.patterns`) run over the
    distinct values of each text column, whatever its role, and need nothing
    installed. With ``presidio=True``, Presidio's findings on the first
    ``presidio_sample`` distinct values are added for what the patterns do
    not look for (names, places, licence numbers ...;
    :func:`riskcore.freetext.presidio.add_presidio`).

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    columns : sequence of str, optional
        Columns to scan; default every text column (:func:`text_columns`).
    max_chars : int, default :data:`MAX_CHARS`
        Characters of distinct values scanned per column, checked before
        scanning. A longer column is scanned up to it (its first distinct
        values, in row order; a categorical's in category order) and marked
        ``"partial"``: unchecked. All columns' scanned values go through
        each pattern together, in one pass.
    presidio : bool, default False
        Add Presidio's findings (it must be installed).
    presidio_sample : int, default 200
        Distinct values per column Presidio reads.

    Returns
    -------
    TextScan
        One :class:`ColumnScan` per column: status, counts and findings.

    Raises
    ------
    RiskcoreError
        For a column the table does not have, or ``presidio=True`` without
        Presidio installed (saying how to install it).
    """
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a pandas DataFrame, got {type(data).__name__}")
    limit = _check_limit(max_chars)
    names = text_columns(data) if columns is None else [str(c) for c in columns]
    present = {str(c): i for i, c in enumerate(data.columns)}
    for name in names:
        if name not in present:
            raise RiskcoreError(f"column {name!r} is not in the table")
    cols = [_prepare(name, data.iloc[:, present[name]], limit) for name in names]
    # every column's scanned values in one Series: one pass per pattern for the whole table
    sizes = np.array([c.n_scan for c in cols], dtype=np.intp)
    values = pd.concat([c.texts.iloc[: c.n_scan] for c in cols] or [pd.Series([], dtype=object)])
    counts, examples, _ = find_in_values(
        values, np.repeat(np.arange(len(cols)), sizes), redact=False
    )
    ends = np.cumsum(sizes)
    scans = [
        _column_scan(
            c,
            {k: n[ends[i] - c.n_scan : ends[i]] for k, n in counts.items()},
            {k: ex[i] for k, ex in examples.items() if i in ex},
            limit,
        )
        for i, c in enumerate(cols)
    ]
    if presidio:
        from riskcore.freetext.presidio import add_presidio

        scans = add_presidio(data, scans, present, sample=presidio_sample)
    return TextScan(tuple(scans), limit, presidio)


def redact_found(
    series: pd.Series, *, remove: bool = False, max_chars: int | None = None
) -> tuple[pd.Series, dict[str, int]]:
    """Replace every identifier the built-in patterns find in a text column by a placeholder.

    ``"Call back on (212) 555-0182"`` becomes ``"Call back on [PHONE]"``, or
    ``"Call back on "`` with ``remove=True``. The work is done once per
    distinct value, one pass per pattern over all of them (pandas' ``.str``
    methods; :func:`find_in_values`). Removing is done by writing the
    placeholders first and deleting them after, so every pattern reads the
    text as it does with placeholders; a placeholder already written in the
    text (``"[PHONE]"``) is deleted too.

    Parameters
    ----------
    series : pandas.Series
        The column's values.
    remove : bool, default False
        Delete what is found instead of writing its placeholder.
    max_chars : int, optional
        Characters of distinct values the column may hold, checked before any
        pattern runs; default no limit (the whole column is read).

    Returns
    -------
    redacted : pandas.Series
        Object dtype; missing stays missing; index and name kept.
    counts : dict
        ``{kind: occurrences replaced}`` over the rows.

    Raises
    ------
    RiskcoreError
        When the column's distinct values are longer than ``max_chars``.
    """
    if not isinstance(series, pd.Series):
        raise TypeError(f"series must be a pandas Series, got {type(series).__name__}")
    limit = None if max_chars is None else _check_limit(max_chars)
    codes, texts = distinct_texts(series)
    if limit is not None:
        n_chars = int(texts.str.len().sum())
        if n_chars > limit:
            raise RiskcoreError(
                f"the text of column {series.name!r} is {n_chars:,} characters (its distinct "
                f"values), more than the {limit:,} the removal of identifiers found reads: "
                "drop or redact the column whole instead"
            )
    counts, _, redacted = find_in_values(texts)
    if remove and counts:
        redacted = redacted.str.replace(_PLACEHOLDERS, "", regex=True)
    cells = np.bincount(codes[codes >= 0], minlength=len(texts))
    table = np.append(redacted.to_numpy(dtype=object), np.nan)
    out = pd.Series(table[codes], index=series.index, name=series.name, dtype=object)
    return out, {k: int((n * cells).sum()) for k, n in counts.items()}


#: Every entity's placeholder, as a pattern (what ``remove=True`` deletes).
_PLACEHOLDERS = "|".join(re.escape(e.placeholder) for e in ENTITIES)
