"""What a scan of free text found: per finding, per column and per table (results only).

The built-in patterns (:mod:`riskcore.freetext.scan`) and the optional Presidio adapter
(:mod:`riskcore.freetext.presidio`) both fill these; counts and Safe Harbor category
letters only, never the text found (one masked example is kept out of the JSON).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._results import NOT_IN_JSON, Result

__all__ = [
    "MAX_CHARS",
    "ColumnScan",
    "Status",
    "TextFinding",
    "TextScan",
    "distinct_texts",
    "is_text_column",
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
        The column's name.
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
        The column's name.
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
        Distinct values scanned (the first ones, in row order; a
        categorical's in category order).
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
        """Return the scan of a column, or None when it was not among those scanned.

        Parameters
        ----------
        column : str
            The column's name.

        Returns
        -------
        ColumnScan or None
            The first scan of that name.
        """
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

    Parameters
    ----------
    series : pandas.Series
        The column's values.

    Returns
    -------
    bool
        False for numbers, booleans, datetimes and a categorical of numbers.
    """
    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        cats = dtype.categories.dtype
        return bool(pd.api.types.is_object_dtype(cats) or pd.api.types.is_string_dtype(cats))
    return bool(pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype))


def text_columns(data: pd.DataFrame) -> list[str]:
    """Return the names of the text columns of a table, in table order.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.

    Returns
    -------
    list of str
        Those :func:`is_text_column` accepts.
    """
    return [str(c) for i, c in enumerate(data.columns) if is_text_column(data.iloc[:, i])]


def distinct_texts(col: pd.Series) -> tuple[npt.NDArray[np.intp], pd.Series]:
    """Return row codes (-1 missing) and the distinct values as Python text (object dtype).

    Distinct values come in row order of first appearance; a categorical's in the order of
    its categories (those present), read from its codes without hashing. Object dtype keeps
    pandas' ``.str`` methods on Python's :mod:`re` (look-arounds and back-references;
    Arrow's RE2 has neither).

    Parameters
    ----------
    col : pandas.Series
        The text column.

    Returns
    -------
    tuple of (numpy.ndarray, pandas.Series)
        Per row the position of its value among the distinct values (-1 missing), and
        those values as text.
    """
    if isinstance(col.dtype, pd.CategoricalDtype):
        raw = col.cat.codes.to_numpy().astype(np.intp)
        n_cats = len(col.cat.categories)
        present = np.bincount(raw[raw >= 0], minlength=n_cats) > 0
        remap = np.append(np.where(present, np.cumsum(present) - 1, -1), -1)
        codes = remap[raw]  # -1 (missing) reads the appended -1
        uniques: object = col.cat.categories[present]
    else:
        codes, uniques = pd.factorize(col, use_na_sentinel=True, sort=False)
    texts = pd.Series(uniques).astype(str).astype(object).reset_index(drop=True)
    return np.asarray(codes, dtype=np.intp), texts
