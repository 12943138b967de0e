"""What a load returns: the table, and a JSON-able record of how it was read.

:class:`LoadInfo` is the metadata a report needs (file name, format,
encoding, delimiter, SHA-256 fingerprint, rows, columns, missing values per
column, columns kept as text, values that could not be typed, notes); it is
a :class:`~riskcore._results.Result`, so ``to_dict()`` / ``from_dict()``
round-trip it through JSON. :class:`LoadedTable` pairs it with the
DataFrame and keeps the attribute names the app reads (``table.name``,
``table.notes``, ``table.missing`` ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._results import Result

__all__ = ["MISSING_MARKERS", "LoadInfo", "LoadLimits", "LoadedTable"]

#: Cell texts read as missing values (besides the empty cell).
MISSING_MARKERS: tuple[str, ...] = ("", "?", "NA", "N/A", "n/a", "NULL", "null", "NaN", "nan")


@dataclass(frozen=True)
class LoadLimits:
    """Limits checked while loading.

    Attributes
    ----------
    max_bytes : int
        Largest accepted file (default 2 GB).
    max_rows : int
        Most data rows (default 20,000,000).
    max_columns : int
        Most columns (default 1,000).
    max_unzipped_bytes : int
        Largest total uncompressed size of an ``.xlsx`` (a zip inside).
    max_cells : int
        Most cells (XML cell elements, empty or not) read from an ``.xlsx``
        sheet (default 10,000,000: 1,000,000 rows x 10 columns, about 2
        minutes of parsing on a slow server).
    max_seconds : float
        Longest time spent reading an ``.xlsx`` (default 120 s).
    """

    max_bytes: int = 2_000_000_000
    max_rows: int = 20_000_000
    max_columns: int = 1_000
    max_unzipped_bytes: int = 1_000_000_000
    max_cells: int = 10_000_000
    max_seconds: float = 120.0

    def __post_init__(self) -> None:
        for name in ("max_bytes", "max_rows", "max_columns", "max_unzipped_bytes", "max_cells"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"{name} must be an integer, got {v!r}")
            if v <= 0:
                raise ValueError(f"{name} must be positive, got {v!r}")
        v = self.max_seconds
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"max_seconds must be a number, got {v!r}")
        if not v > 0:
            raise ValueError(f"max_seconds must be positive, got {v!r}")


@dataclass(frozen=True)
class LoadInfo(Result):
    """How a table was read: everything about a load except the data.

    Attributes
    ----------
    name : str
        File name (or "data").
    file_format : str
        "csv", "parquet", "xlsx" (or "demo" for generated data).
    encoding : str or None
        Text encoding used (CSV only): "utf-8", "utf-8-sig" (UTF-8 with a
        byte-order mark), "utf-16", "cp1252" or "latin-1" (assumed for a
        file that is not UTF-8), or the one the caller gave.
    encoding_guessed : bool
        True when the encoding was assumed (cp1252 / latin-1), not read from
        a byte-order mark, implied by valid UTF-8, or given by the caller: a
        file in another alphabet then needs its encoding chosen.
    delimiter : str or None
        Field delimiter used (CSV only).
    decimal : str or None
        Decimal mark of the numbers (CSV only): "." or "," (``1.234,56``).
    decimal_detected : bool
        True when the decimal comma was found in the file (not given by the
        caller): :func:`riskcore.io._text.sniff_decimal`.
    decimal_columns : tuple of str
        Columns read as numbers written with the decimal comma.
    n_rows, n_columns : int
        Shape of the table.
    missing : dict of str to int
        Missing values per column.
    n_missing : int
        Missing values in the whole table (the sum of ``missing``).
    text_columns : tuple of str
        Columns whose values are all numbers but which are kept as text to
        preserve identifiers (leading zeros, a ZIP / ID-like name).
    untyped : dict of str to int
        For a column kept as text although most of its values are numbers:
        how many values are not numbers. Nothing is turned into a missing
        value; the count says what stopped the column being numeric.
    notes : tuple of str
        Plain-language notes on repairs and choices.
    fingerprint : str or None
        SHA-256 of the file's bytes (hex), None for generated data.
    n_bytes : int or None
        Size of the file in bytes, None for generated data.
    """

    name: str
    file_format: str
    encoding: str | None = None
    encoding_guessed: bool = False
    delimiter: str | None = None
    decimal: str | None = None
    decimal_detected: bool = False
    decimal_columns: tuple[str, ...] = ()
    n_rows: int = 0
    n_columns: int = 0
    missing: dict[str, int] = field(default_factory=dict)
    n_missing: int = 0
    text_columns: tuple[str, ...] = ()
    untyped: dict[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    fingerprint: str | None = None
    n_bytes: int | None = None


@dataclass(frozen=True, eq=False)
class LoadedTable:
    """A loaded table and what the loader did to read it.

    Attributes
    ----------
    data : pandas.DataFrame
        The table, with a fresh RangeIndex. Text columns with few distinct
        values (at most half as many as values) are pandas Categoricals,
        categories in order of first appearance for CSV and Excel, as stored
        for Parquet; other text columns have the ``str`` dtype.
    info : LoadInfo
        The JSON-able record of the load; its fields are also readable
        here (``table.name``, ``table.missing``, ``table.fingerprint`` ...).
    """

    data: pd.DataFrame
    info: LoadInfo

    @classmethod
    def from_frame(
        cls,
        data: pd.DataFrame,
        *,
        name: str,
        file_format: str,
        encoding: str | None = None,
        encoding_guessed: bool = False,
        delimiter: str | None = None,
        text_columns: Sequence[str] = (),
        untyped: dict[str, int] | None = None,
        notes: Sequence[str] = (),
        fingerprint: str | None = None,
        n_bytes: int | None = None,
        decimal: str | None = None,
        decimal_detected: bool = False,
        decimal_columns: Sequence[str] = (),
    ) -> LoadedTable:
        """Wrap a DataFrame, counting its rows, columns and missing values.

        Parameters
        ----------
        data : pandas.DataFrame
            The table; its index is replaced by a fresh RangeIndex.
        name, file_format, encoding, encoding_guessed, delimiter, text_columns, untyped, notes
            As in :class:`LoadInfo`.
        fingerprint, n_bytes, decimal, decimal_detected, decimal_columns
            As in :class:`LoadInfo`.

        Returns
        -------
        LoadedTable
        """
        if not isinstance(data, pd.DataFrame):
            raise TypeError(f"data must be a pandas DataFrame, got {type(data).__name__}")
        data = data.reset_index(drop=True)
        missing = {str(c): int(data[c].isna().sum()) for c in data.columns}
        info = LoadInfo(
            name=name,
            file_format=file_format,
            encoding=encoding,
            encoding_guessed=encoding_guessed,
            delimiter=delimiter,
            decimal=decimal,
            decimal_detected=decimal_detected,
            decimal_columns=tuple(decimal_columns),
            n_rows=len(data),
            n_columns=data.shape[1],
            missing=missing,
            n_missing=sum(missing.values()),
            text_columns=tuple(text_columns),
            untyped=dict(untyped or {}),
            notes=tuple(notes),
            fingerprint=fingerprint,
            n_bytes=n_bytes,
        )
        return cls(data, info)

    @property
    def name(self) -> str:
        """Return the file name."""
        return self.info.name

    @property
    def file_format(self) -> str:
        """Return the file format ("csv", "parquet", "xlsx", "demo")."""
        return self.info.file_format

    @property
    def encoding(self) -> str | None:
        """Return the text encoding (CSV only)."""
        return self.info.encoding

    @property
    def delimiter(self) -> str | None:
        """Return the field delimiter (CSV only)."""
        return self.info.delimiter

    @property
    def missing(self) -> dict[str, int]:
        """Return the missing values per column."""
        return self.info.missing

    @property
    def text_columns(self) -> tuple[str, ...]:
        """Return the numeric-looking columns kept as text."""
        return self.info.text_columns

    @property
    def untyped(self) -> dict[str, int]:
        """Return, per mostly-numeric text column, how many values are not numbers."""
        return self.info.untyped

    @property
    def notes(self) -> tuple[str, ...]:
        """Return the plain-language notes."""
        return self.info.notes

    @property
    def fingerprint(self) -> str | None:
        """Return the SHA-256 of the file's bytes (hex)."""
        return self.info.fingerprint

    @property
    def n_rows(self) -> int:
        """Return the number of rows."""
        return len(self.data)

    @property
    def n_columns(self) -> int:
        """Return the number of columns."""
        return self.data.shape[1]

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON-ready metadata (without the data): ``info.to_dict()``.

        Returns
        -------
        dict of str to Any
            File name, format, encoding, delimiter, shape, missing counts and notes;
            never a value of the table.
        """
        return self.info.to_dict()
