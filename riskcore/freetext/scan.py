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
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt
import pandas as pd

from riskcore._results import NOT_IN_JSON, Result
from riskcore.errors import RiskcoreError
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

#: Characters of distinct values scanned per column by default (about 1 s of scanning on
#: one core); beyond it a column is scanned partly and counts as unchecked.
MAX_CHARS = 5_000_000

Status = Literal["clean", "found", "partial", "not_scanned"]
_STATUSES = ("clean", "found", "partial", "not_scanned")


@dataclass(frozen=True)
class TextFinding(Result):
    """One kind of identifier found in one column's text.

    Attributes
    ----------
    column : str
    kind : str
        The entity (``"phone"``, ``"email"`` ...; Presidio's entity type in
        lower case when ``source`` is ``"presidio"``).
    letter : str or None
        Its HIPAA Safe Harbor category (45 CFR 164.514(b)(2)(i)(A)-(R)); None
        for a Presidio entity that is none of the 18 (an organisation).
    label : str
        Plural noun for sentences ("phone numbers").
    n_found : int
        Occurrences in the scanned cells (a cell holding two counts twice).
    n_cells : int
        Scanned cells holding at least one.
    n_values : int
        Distinct scanned values holding at least one.
    source : str
        ``"built-in"`` (the patterns) or ``"presidio"`` (on a sample of values).
    example : str
        One occurrence, masked (``"(***) ***-1292"``); never written to JSON.
    """

    column: str
    kind: str
    letter: str | None
    label: str
    n_found: int
    n_cells: int
    n_values: int
    source: str = "built-in"
    example: str = field(default="", compare=False, metadata=NOT_IN_JSON)


@dataclass(frozen=True)
class ColumnScan(Result):
    """How one text column was scanned and what was found.

    Attributes
    ----------
    column : str
    status : str
        ``"clean"`` (every value scanned, nothing found), ``"found"`` (every
        value scanned, identifiers found), ``"partial"`` (only the first
        values scanned: unchecked, with what was found so far) or
        ``"not_scanned"``.
    n_cells : int
        Non-missing cells of the column.
    n_values : int
        Distinct non-missing values.
    n_values_scanned : int
        Distinct values scanned (the first ones, in row order).
    n_cells_scanned : int
        Cells holding a scanned value.
    n_chars_scanned : int
        Characters of the distinct values scanned.
    n_chars : int
        Characters of all the distinct values (what a full scan reads).
    findings : tuple of TextFinding
        By Safe Harbor letter, then kind.
    why : str
        Why the column was not (fully) scanned; empty otherwise.
    """

    column: str
    status: Status
    n_cells: int = 0
    n_values: int = 0
    n_values_scanned: int = 0
    n_cells_scanned: int = 0
    n_chars_scanned: int = 0
    findings: tuple[TextFinding, ...] = ()
    why: str = ""
    n_chars: int = 0

    def __post_init__(self) -> None:
        if self.status not in _STATUSES:
            raise ValueError(f"status must be one of {', '.join(_STATUSES)}, got {self.status!r}")
        object.__setattr__(self, "findings", tuple(self.findings))

    @property
    def checked(self) -> bool:
        """True when every value was scanned (clean or with findings)."""
        return self.status in ("clean", "found")

    @property
    def identifiers(self) -> tuple[TextFinding, ...]:
        """The findings that are Safe Harbor identifiers (a letter)."""
        return tuple(f for f in self.findings if f.letter is not None)

    @property
    def letters(self) -> tuple[str, ...]:
        """The Safe Harbor letters found, sorted, each once."""
        return tuple(sorted({f.letter for f in self.findings if f.letter is not None}))


@dataclass(frozen=True)
class TextScan(Result):
    """The scan of a table's text columns.

    Attributes
    ----------
    columns : tuple of ColumnScan
        One per text column, in table order.
    max_chars : int
        The limit of characters scanned per column.
    presidio : bool
        True when Presidio's findings were added.
    """

    columns: tuple[ColumnScan, ...] = ()
    max_chars: int = MAX_CHARS
    presidio: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "columns", tuple(self.columns))

    def get(self, column: str) -> ColumnScan | None:
        """Return the scan of a column, or None when it was not among those scanned."""
        return next((c for c in self.columns if c.column == column), None)

    @property
    def findings(self) -> tuple[TextFinding, ...]:
        """Every finding, column by column."""
        return tuple(f for c in self.columns for f in c.findings)

    @property
    def unchecked(self) -> tuple[ColumnScan, ...]:
        """The columns not fully scanned."""
        return tuple(c for c in self.columns if not c.checked)


def is_text_column(series: pd.Series) -> bool:
    """Return True for a column of text: object, string, or categorical of text.

    Numbers, booleans and datetimes are not text; neither is a categorical of
    numbers.
    """
    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        cats = dtype.categories.dtype
        return bool(pd.api.types.is_object_dtype(cats) or pd.api.types.is_string_dtype(cats))
    return bool(pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype))


def text_columns(data: pd.DataFrame) -> list[str]:
    """Return the names of the text columns of a table, in table order."""
    return [str(c) for i, c in enumerate(data.columns) if is_text_column(data.iloc[:, i])]


def _distinct(col: pd.Series) -> tuple[npt.NDArray[np.intp], pd.Series]:
    """Return row codes (-1 missing) and the distinct values as Python text (object dtype).

    Object dtype keeps pandas' ``.str`` methods on Python's :mod:`re` (look-arounds and
    back-references; Arrow's RE2 has neither).
    """
    codes, uniques = pd.factorize(col, use_na_sentinel=True, sort=False)
    texts = pd.Series(uniques).astype(str).astype(object).reset_index(drop=True)
    return np.asarray(codes, dtype=np.intp), texts


def find_in_values(
    values: pd.Series,
) -> tuple[dict[str, npt.NDArray[np.int64]], dict[str, str], pd.Series]:
    """Run the built-in patterns over distinct text values.

    Parameters
    ----------
    values : pandas.Series
        Text values (object dtype), one per distinct value.

    Returns
    -------
    counts : dict
        ``{kind: occurrences per value}`` for every kind found at least once.
    examples : dict
        ``{kind: a masked occurrence}``.
    blanked : pandas.Series
        The values with every occurrence replaced by its entity's placeholder
        (what :func:`redact_found` writes).
    """
    values = values.reset_index(drop=True).astype(object)
    counts: dict[str, npt.NDArray[np.int64]] = {}
    examples: dict[str, str] = {}
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
        first = int(np.flatnonzero(hit)[0])
        match = re.search(e.regex, str(work.iloc[first]))
        examples[e.kind] = mask_example(match.group(0), e.keep_last) if match else ""
        rows = active[hit]
        redacted.iloc[rows] = (
            redacted.iloc[rows].str.replace(e.regex, e.placeholder, regex=True).to_numpy()
        )
        work.loc[hit] = work.loc[hit].str.replace(e.regex, " ", regex=True)
        # values left with nothing any later pattern needs are not scanned again
        keep = work.str.contains(PREFILTER, regex=True).to_numpy(dtype=bool)
        if not keep.all():
            active, work = active[keep], work[keep].reset_index(drop=True)
    return counts, examples, redacted


def _check_limit(max_chars: object) -> int:
    if isinstance(max_chars, bool) or not isinstance(max_chars, (int, np.integer)):
        raise TypeError(f"max_chars must be an integer, got {type(max_chars).__name__}")
    if max_chars < 0:
        raise ValueError(f"max_chars must be at least 0, got {max_chars!r}")
    return int(max_chars)


def _scan_column(name: str, col: pd.Series, max_chars: int) -> ColumnScan:
    codes, texts = _distinct(col)
    cells = np.bincount(codes[codes >= 0], minlength=len(texts)).astype(np.int64)
    n_cells, n_values = int(cells.sum()), len(texts)
    if not n_values:
        return ColumnScan(name, "clean")
    cum = np.cumsum(texts.str.len().to_numpy(dtype=np.int64))
    n_scan = int(np.searchsorted(cum, max_chars, side="right"))
    chars = int(cum[n_scan - 1]) if n_scan else 0
    scanned_cells = int(cells[:n_scan].sum())
    if n_scan == 0:
        return ColumnScan(
            name,
            "not_scanned",
            n_cells,
            n_values,
            why=f"its first value alone is longer than the limit of {max_chars:,} characters",
            n_chars=int(cum[-1]),
        )
    counts, examples, _ = find_in_values(texts.iloc[:n_scan])
    findings = []
    for e in ENTITIES:
        if e.kind not in counts:
            continue
        n = counts[e.kind]
        hit = n > 0
        findings.append(
            TextFinding(
                name,
                e.kind,
                e.letter,
                e.label,
                int((n * cells[:n_scan]).sum()),
                int(cells[:n_scan][hit].sum()),
                int(hit.sum()),
                example=examples.get(e.kind, ""),
            )
        )
    findings.sort(key=lambda f: (f.letter or "~", f.kind))
    if n_scan < n_values:
        why = (
            f"{n_scan:,} of {n_values:,} distinct values ({chars:,} characters, {scanned_cells:,} "
            f"of {n_cells:,} cells) were scanned: the limit is {max_chars:,} characters per column"
        )
        return ColumnScan(
            name,
            "partial",
            n_cells,
            n_values,
            n_scan,
            scanned_cells,
            chars,
            tuple(findings),
            why,
            int(cum[-1]),
        )
    status: Status = "found" if any(f.letter for f in findings) else "clean"
    return ColumnScan(
        name, status, n_cells, n_values, n_scan, scanned_cells, chars, tuple(findings), "", chars
    )


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
    :func:`riskcore.freetext.presidio.presidio_findings`).

    Parameters
    ----------
    data : pandas.DataFrame
    columns : sequence of str, optional
        Columns to scan; default every text column (:func:`text_columns`).
    max_chars : int, default :data:`MAX_CHARS`
        Characters of distinct values scanned per column, checked before
        scanning. A longer column is scanned up to it (its first distinct
        values, in row order) and marked ``"partial"``: unchecked.
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
    scans: list[ColumnScan] = []
    for name in names:  # a loop over columns
        if name not in present:
            raise RiskcoreError(f"column {name!r} is not in the table")
        scans.append(_scan_column(name, data.iloc[:, present[name]], limit))
    if presidio:
        from riskcore.freetext.presidio import add_presidio

        scans = add_presidio(data, scans, present, sample=presidio_sample)
    return TextScan(tuple(scans), limit, presidio)


def redact_found(series: pd.Series) -> tuple[pd.Series, dict[str, int]]:
    """Replace every identifier the built-in patterns find in a text column by a placeholder.

    ``"Call back on (212) 555-0182"`` becomes ``"Call back on [PHONE]"``. The
    whole column is read (no limit), on its distinct values.

    Parameters
    ----------
    series : pandas.Series

    Returns
    -------
    redacted : pandas.Series
        Object dtype; missing stays missing; index and name kept.
    counts : dict
        ``{kind: occurrences replaced}`` over the rows.
    """
    if not isinstance(series, pd.Series):
        raise TypeError(f"series must be a pandas Series, got {type(series).__name__}")
    codes, texts = _distinct(series)
    counts, _, redacted = find_in_values(texts)
    cells = np.bincount(codes[codes >= 0], minlength=len(texts))
    table = np.append(redacted.to_numpy(dtype=object), np.nan)
    out = pd.Series(table[codes], index=series.index, name=series.name, dtype=object)
    return out, {k: int((n * cells).sum()) for k, n in counts.items()}
