"""Type the text columns of a parsed table, in Arrow, without losing anything.

Every CSV (and Excel) column arrives as text; this module decides, on the
whole column and not on a sample, which become numbers:

* a column whose every value is a number becomes int64 (float64 when some
  are missing or some have decimals), unless a value has a leading zero
  (``02139``, anywhere in the file) or the column's name says ZIP / postcode
  / SSN / phone / ID: then it stays text and is listed in ``text_columns``;
* whole numbers of 16 digits or more stay text (a float64 would round them);
* a column that is mostly numbers but holds some other values stays text,
  and the count of those values is reported (``untyped`` and a note): no
  value is ever turned into a missing value;
* with the decimal comma (``decimal=","``, a ``;`` file's ``1.234,56``), a
  column whose every value is a number written that way, one at least with
  the comma, is read as those numbers (dots between thousands dropped); a
  column with decimal points keeps them (``2.5`` is 2.5);
* other text columns of low cardinality become dictionary-encoded (pandas
  Categorical, categories in order of first appearance, which gives the
  engine the same codes as ``pd.factorize``); the rest keep the ``str`` dtype.

The casts are Arrow's (vectorised, in C++); the checks that need the text
(leading zeros, digits, numbers among words) are RE2 regular expressions run
by Arrow over the column. A column the CSV parser already dictionary-encoded
is checked on its distinct values only (every one of them occurs), and a
number column is then expanded from them to the rows.
"""

from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

__all__ = ["KEEP_TEXT_NAME", "Typed", "type_column", "type_columns"]

KEEP_TEXT_NAME = re.compile(
    r"(zip|post ?code|postal|plz|ssn|social|phone|tel|fax|mobile|\bid\b|_id$|^id|code|mrn"
    r"|account|card|npi|record|number|no\.?$)",
    re.IGNORECASE,
)
# a value an int64 cast accepted but which is not a plain decimal: 0123, 0x1F, -007
_INT_NOT_PLAIN = r"^[+-]?0."
# a leading zero before a digit (00.5, 02139), as the old loader's rule
_LEADING_ZERO = r"^[+-]?0[0-9]"
_LONG_WHOLE = r"^\s*[+-]?[0-9]{16,}\s*$"
# what pandas.to_numeric reads as a number (spaces around allowed)
_NUMBER = r"^\s*[+-]?(([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|(?i:inf|infinity))\s*$"
_SAMPLE = 10_000
#: Text columns with at most this share of distinct values become categorical.
CATEGORICAL_SHARE = 0.5
_SAFE_INT = 2.0**53


@dataclass
class Typed:
    """A typed table and what typing did."""

    table: Any  # pyarrow.Table
    text_columns: list[str] = field(default_factory=list)
    untyped: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: Columns read as numbers written with the decimal comma.
    decimal_columns: list[str] = field(default_factory=list)

    def to_pandas(self) -> pd.DataFrame:
        """Return the table as a DataFrame (dictionary columns as Categoricals)."""
        df: pd.DataFrame = self.table.to_pandas()
        return df


@dataclass(frozen=True)
class _Column:
    """One typed column and what typing it found."""

    array: Any
    kept_text: bool = False
    untyped: int | None = None
    note: str | None = None
    decimal_comma: bool = False


def type_columns(table: Any, decimal: str = ".") -> Typed:
    """Type every column of a pyarrow table of text columns.

    Columns are typed in parallel threads (Arrow's kernels release the GIL).

    Parameters
    ----------
    table : pyarrow.Table
        Columns of type string or large_string (null = missing).
    decimal : {".", ","}, default "."
        The decimal mark of the file's numbers.

    Returns
    -------
    Typed
        The typed table, the numeric-looking columns kept as text, the
        count of non-numbers in mostly-numeric text columns, and notes.
    """
    import pyarrow as pa

    names = [str(c) for c in table.column_names]
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        typed = list(pool.map(type_column, names, table.columns, [decimal] * len(names)))
    out = Typed(table=pa.table([t.array for t in typed], names=table.column_names))
    for name, t in zip(names, typed, strict=True):
        if t.kept_text:
            out.text_columns.append(name)
        if t.untyped is not None:
            out.untyped[name] = t.untyped
        if t.note:
            out.notes.append(t.note)
        if t.decimal_comma:
            out.decimal_columns.append(name)
    return out


def type_column(name: str, col: Any, decimal: str = ".") -> _Column:
    """Return one text column typed, and what was kept as text.

    Parameters
    ----------
    name : str
        Column name (the ZIP / ID name rule reads it).
    col : pyarrow.ChunkedArray
        Strings, or dictionary-encoded strings (then every check runs on the
        distinct values only, and the result is expanded to the rows).
    decimal : {".", ","}, default "."
        The decimal mark: with ",", a column of numbers written ``1.234,56``
        is read as numbers (:func:`_decimal_comma`).

    Returns
    -------
    _Column
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    n = len(col)
    if col.null_count == n:
        return _Column(pa.nulls(n, pa.float64()))
    view = _View.of(col)
    probe = view.values if view.indices is not None else _sample(col)
    if decimal == ",":
        number, why = _decimal_comma(name, view.values, missing=col.null_count > 0)
        if number is not None:
            return _Column(view.rows(number), decimal_comma=True)
        if why:  # numbers with the comma, kept as text (a leading zero, a ZIP / ID name)
            return _Column(view.text(probe), True)
    number, why = _as_number(name, view.values, missing=col.null_count > 0, probe=probe)
    if number is not None:
        return _Column(view.rows(number))
    if why == "long":
        return _Column(view.text(probe), True, note=_LONG_NOTE.format(name=name))
    if why:
        return _Column(view.text(probe), True)
    if pc.any(pc.match_substring_regex(probe, _NUMBER)).as_py():
        is_number = view.rows(pc.match_substring_regex(view.values, _NUMBER))
        n_other = n - col.null_count - int(pc.sum(is_number).as_py() or 0)
        if n_other == 0:  # numbers with spaces around them, or signs Arrow's int cast refuses
            trimmed = pc.utf8_trim_whitespace(view.values)
            number, why = _as_number(name, trimmed, missing=col.null_count > 0)
            if number is not None:
                return _Column(view.rows(number))
            if why:
                return _Column(view.text(probe), True)
        elif n - col.null_count - n_other >= n_other:
            first = int(pc.index(pc.invert(pc.fill_null(is_number, True)), True).as_py())
            note = _UNTYPED_NOTE.format(
                name=name, n=n_other, s="s" if n_other != 1 else "", row=first + 1
            )
            return _Column(view.text(probe), untyped=n_other, note=note)
    return _Column(view.text(probe))


@dataclass(frozen=True)
class _View:
    """A text column as distinct-or-all values plus, for a dictionary column, row codes."""

    column: Any
    values: Any  # the column itself, or the (unified) dictionary of a dictionary column
    indices: Any = None  # per-row codes into ``values`` (None: ``values`` are the rows)

    @classmethod
    def of(cls, col: Any) -> _View:
        import pyarrow as pa

        if not pa.types.is_dictionary(col.type):
            return cls(col, col)
        col = col.unify_dictionaries()
        values = col.chunk(0).dictionary
        indices = pa.chunked_array([c.indices for c in col.chunks], type=col.type.index_type)
        return cls(col, values, indices)

    def rows(self, per_value: Any) -> Any:
        """Return an array over ``values`` expanded to one entry per row."""
        import pyarrow.compute as pc

        return per_value if self.indices is None else pc.take(per_value, self.indices)

    def text(self, probe: Any) -> Any:
        """Return the column as text: dictionary-encoded when it has few distinct values."""
        import pyarrow as pa
        import pyarrow.compute as pc

        if self.indices is None:
            return _maybe_categorical(self.column, probe)
        n_present = len(self.column) - self.column.null_count
        if len(self.values) > CATEGORICAL_SHARE * n_present:
            return pc.take(self.values, self.indices)
        return pa.DictionaryArray.from_arrays(self.indices.combine_chunks(), self.values)


_LONG_NOTE = (
    "column {name!r} holds whole numbers of 16 digits or more; it is kept as text, since "
    "as numbers they would be rounded"
)
_UNTYPED_NOTE = (
    "column {name!r} is numbers except for {n:,} value{s} (the first in data row {row:,}); "
    "it is kept as text so nothing is lost. Correct those cells, or mark them missing "
    "(empty or NA), to use it as a number"
)


def _casts(col: Any, to: Any) -> Any:
    """Return ``col`` cast to the Arrow type ``to``, or None when a value does not convert."""
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        return pc.cast(col, to)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None


def _as_number(name: str, col: Any, *, missing: bool, probe: Any = None) -> tuple[Any, str]:
    """Return (numeric array, "") or (None, reason to keep numbers as text) or (None, "").

    ``missing`` says whether the column has missing values (then whole
    floats stay float64, as pandas would have them); ``probe``, a sample of
    the column, is tried first (a failed cast of a whole column is slow).
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    if probe is not None and not _casts(probe, pa.float64()):
        return None, ""  # a value of the sample is no number: the column is none either
    ints = _casts(col, pa.int64())
    if ints is not None:
        if KEEP_TEXT_NAME.search(name):
            return None, "name"
        if pc.any(pc.match_substring_regex(col, _INT_NOT_PLAIN)).as_py():
            return None, "leading zero"
        return ints, ""
    floats = _casts(col, pa.float64())
    if floats is None:
        return None, ""
    if KEEP_TEXT_NAME.search(name):
        return None, "name"
    if pc.any(pc.match_substring_regex(col, _LEADING_ZERO)).as_py():
        return None, "leading zero"
    if pc.any(pc.match_substring_regex(col, _LONG_WHOLE)).as_py():
        return None, "long"
    if not missing and floats.null_count == 0 and len(floats):
        finite = pc.all(pc.is_finite(floats)).as_py()
        if finite and pc.all(pc.equal(pc.floor(floats), floats)).as_py():
            top = pc.max(pc.abs(floats)).as_py()
            if top < _SAFE_INT:
                return pc.cast(floats, pa.int64()), ""
    return floats, ""


def _decimal_comma(name: str, values: Any, *, missing: bool) -> tuple[Any, str]:
    """Return numbers written with a decimal comma as (numeric array, ""), else (None, why).

    Every value must be a number of that form (:data:`riskcore.io._text.COMMA_NUMBER`:
    ``1.234,56``, ``12,5``, ``-3``, ``1.234``) and one at least must hold the comma;
    the dots between thousands are dropped and the comma becomes a point. The rules
    of :func:`_as_number` then apply (a leading zero or a ZIP / ID name keeps text: the
    reason is returned); ``why`` is "" for a column that is not such numbers.
    """
    import pyarrow.compute as pc

    from riskcore.io._text import COMMA_NUMBER

    if not pc.any(pc.match_substring(values, ",")).as_py():
        return None, ""
    if not pc.all(pc.match_substring_regex(values, COMMA_NUMBER)).as_py():
        return None, ""
    plain = pc.utf8_trim_whitespace(values)
    plain = pc.replace_substring(pc.replace_substring(plain, ".", ""), ",", ".")
    return _as_number(name, plain, missing=missing)


def _sample(col: Any) -> Any:
    """Return about 10,000 values spread evenly over the column."""
    import numpy as np
    import pyarrow as pa

    n = len(col)
    if n <= _SAMPLE:
        return col
    positions = np.arange(0, n, n // _SAMPLE, dtype=np.int64)
    # from the buffer: pa.array(numpy) would import pandas (pyarrow's check for pandas input)
    indices = pa.Array.from_buffers(pa.int64(), len(positions), [None, pa.py_buffer(positions)])
    return col.take(indices)


def _maybe_categorical(col: Any, sample: Any) -> Any:
    """Return the column dictionary-encoded when it has few distinct values."""
    import pyarrow.compute as pc

    n_sample = len(sample) - sample.null_count
    if n_sample == 0 or len(pc.unique(sample)) > CATEGORICAL_SHARE * n_sample:
        return col
    encoded = pc.dictionary_encode(col.combine_chunks())
    if len(encoded.dictionary) > CATEGORICAL_SHARE * (len(col) - col.null_count):
        return col
    return encoded
