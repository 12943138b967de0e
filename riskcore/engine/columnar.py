"""The in-memory engine over Arrow columns: the command line's ``assess`` without pandas.

:class:`ArrowTable` holds a typed ``pyarrow.Table`` (what
:func:`riskcore.io.load_arrow` reads from a CSV file) and encodes each column
into integer codes with Arrow and numpy, by the in-memory engine's rule
(:func:`riskcore.engine.partition.encode_column` applied to the column as
the loader converts it to pandas):

* numbers (integers, floats, booleans): codes in increasing value order
  (``pd.factorize(sort=True)``); an integer column with a missing value
  becomes floats, as pandas converts it;
* dictionary-encoded text (a pandas Categorical after loading): the
  dictionary's order, unused entries dropped;
* other text: order of first appearance (``pd.factorize(sort=False)``);
* a missing value (null, or a float ``NaN``) is one more value, with the
  last code and the label ``None``: no record is dropped.

The classes, contingencies and class sizes are then built by the in-memory
engine's own functions (:func:`~riskcore.engine.partition.build_partition`,
:func:`~riskcore.engine.partition.class_table`,
:func:`~riskcore.engine.partition.class_value_counts`), so every figure is
the one :class:`~riskcore.engine.EncodedTable` gives on the same file
(``tests/riskcore/test_fast_assess.py`` compares the two on tables with
missing values, ties, leading zeros, numeric-looking text, a single class and
all-unique records). Its :attr:`~ArrowTable.name` is ``"memory"``: the rows are
held in memory, as with :class:`~riskcore.engine.EncodedTable`, and the
output says the same.

Per-record questions (SUDA, record risk, sampling weights) stay with
:class:`~riskcore.engine.EncodedTable`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from riskcore.engine.memory import EncodingEngine
from riskcore.engine.partition import (
    EncodedColumn,
    Partition,
    build_partition,
    build_person_partition,
    encoded_sizes,
)
from riskcore.errors import RolesError

__all__ = ["ArrowTable", "encode_arrow", "supported_type"]


def supported_type(arrow_type: Any) -> bool:
    """Return whether :func:`encode_arrow` encodes a column of this Arrow type.

    Parameters
    ----------
    arrow_type : pyarrow.DataType
        A column's Arrow type.

    Returns
    -------
    bool
        True for integers, floats, booleans, text and dictionary-encoded text
        (every type the CSV loader makes).
    """
    import pyarrow as pa

    t = arrow_type
    if pa.types.is_dictionary(t):
        return bool(pa.types.is_string(t.value_type) or pa.types.is_large_string(t.value_type))
    return bool(
        pa.types.is_signed_integer(t)
        or (pa.types.is_unsigned_integer(t) and t.bit_width < 64)
        or pa.types.is_floating(t)
        or pa.types.is_boolean(t)
        or pa.types.is_string(t)
        or pa.types.is_large_string(t)
    )


def _numpy(arr: Any, dtype: Any) -> np.ndarray:
    """Return an Arrow array's values as numpy (cast to ``dtype`` first), without pandas.

    ``Array.to_numpy`` imports pandas (pyarrow's pandas shim), so the values
    are read from the data buffer; a missing value's slot holds whatever its
    buffer holds (callers mask or fill it).
    """
    import pyarrow as pa

    target = pa.from_numpy_dtype(np.dtype(dtype))
    if arr.type != target:
        arr = arr.cast(target)
    if len(arr) == 0:
        return np.zeros(0, dtype=dtype)
    data = np.frombuffer(arr.buffers()[1], dtype=dtype, count=len(arr) + arr.offset)
    return data[arr.offset :]


def _null_mask(arr: Any) -> np.ndarray | None:
    """Return the missing values of an Arrow array as a bool array, or None when there is none."""
    if not arr.null_count:
        return None
    return _numpy(arr.is_null(), np.uint8).astype(bool)


def _filled(values: np.ndarray, missing: np.ndarray | None) -> np.ndarray:
    """Return ``values`` with 0 in the missing slots (``fill_null`` would import pandas)."""
    return values if missing is None else np.where(missing, 0, values)


def _with_missing(
    name: str, codes: np.ndarray, labels: list[Any], missing: np.ndarray | None, ordered: bool
) -> EncodedColumn:
    """Return the column with every missing record given the last code (label None)."""
    label_array = np.empty(len(labels), dtype=object)
    label_array[:] = labels
    n_missing = 0 if missing is None else int(np.count_nonzero(missing))
    if missing is not None and n_missing:
        codes = np.where(missing, len(label_array), codes)
        label_array = np.append(label_array, np.array([None], dtype=object))
    return EncodedColumn(name, codes.astype(np.int64, copy=False), label_array, ordered, n_missing)


def _factorize(values: np.ndarray, *, ordered: bool) -> tuple[np.ndarray, np.ndarray]:
    """Return (code per value, distinct values): sorted, or in order of first appearance."""
    uniq, first, inverse = np.unique(values, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    if ordered or len(uniq) < 2:
        return inverse, uniq
    order = np.argsort(first, kind="stable")  # the distinct values by first appearance
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order), dtype=np.int64)
    return rank[inverse], uniq[order]


def encode_arrow(name: str, column: Any, *, ordered: bool | None = None) -> EncodedColumn:
    """Encode one Arrow column as :func:`~riskcore.engine.partition.encode_column` encodes it.

    Parameters
    ----------
    name : str
        Column name.
    column : pyarrow.Array or pyarrow.ChunkedArray
        Of a type :func:`supported_type` accepts.
    ordered : bool, optional
        Codes in value order; default True for numbers and booleans, False for
        text (as for the pandas column the loader would make).

    Returns
    -------
    EncodedColumn

    Raises
    ------
    TypeError
        For a column of another type (dates, lists ...).
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(column, pa.ChunkedArray):
        column = (
            column.unify_dictionaries().combine_chunks()
            if pa.types.is_dictionary(column.type)
            else column.combine_chunks()
        )
    t = column.type
    if not supported_type(t):
        raise TypeError(f"column {name!r} has the Arrow type {t}, which is not encoded here")
    if pa.types.is_dictionary(t):
        # a pandas Categorical: its categories' order, unused ones dropped (ordered=True keeps
        # that order too, as pd.factorize(sort=True) sorts a Categorical by its categories)
        missing = _null_mask(column)
        idx = _filled(_numpy(column.indices, np.int64), missing)
        dictionary = column.dictionary.to_pylist()
        used = np.zeros(len(dictionary), dtype=bool)
        used[idx if missing is None else idx[~missing]] = True
        remap = np.cumsum(used) - 1
        labels = [v for v, u in zip(dictionary, used, strict=True) if u]
        return _with_missing(name, remap[idx], labels, missing, bool(ordered))
    numeric = pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t)
    if ordered is None:  # booleans with a missing value are objects to pandas: not ordered
        ordered = numeric and not (pa.types.is_boolean(t) and column.null_count)
    if numeric:
        if pa.types.is_integer(t) and column.null_count:
            column = column.cast(pa.float64())  # as pandas converts it: floats and NaN
            t = column.type
        missing = _null_mask(column)
        if pa.types.is_boolean(t):
            values = _filled(_numpy(column, np.uint8), missing).astype(bool)
        elif pa.types.is_floating(t):
            values = _numpy(column, np.float64)
            nan = np.isnan(values)  # a null's slot may hold anything: mark it NaN too
            if missing is not None:
                values = np.where(missing, np.nan, values)
                nan |= missing
            missing = nan if nan.any() else None
        else:
            values = _numpy(column, np.int64)
        present = values if missing is None else values[~missing]
        codes_present, uniq = _factorize(present, ordered=bool(ordered))
        codes = np.zeros(len(values), dtype=np.int64)
        if missing is None:
            codes = codes_present.astype(np.int64, copy=False)
        else:
            codes[~missing] = codes_present
        return _with_missing(name, codes, uniq.tolist(), missing, bool(ordered))
    encoded = pc.dictionary_encode(column)  # first appearance, nulls left as null indices
    missing = _null_mask(encoded)
    idx = _filled(_numpy(encoded.indices, np.int64), missing)
    labels = encoded.dictionary.to_pylist()
    if ordered and len(labels) > 1:
        order = sorted(range(len(labels)), key=labels.__getitem__)
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order), dtype=np.int64)
        idx = rank[idx]
        labels = [labels[i] for i in order]
    return _with_missing(name, idx, labels, missing, bool(ordered))


class ArrowTable(EncodingEngine):
    """The in-memory engine over a typed ``pyarrow.Table`` (see the module docstring).

    Parameters
    ----------
    table : pyarrow.Table
        The table; it is not modified.

    Raises
    ------
    RolesError
        When two columns have one name.
    """

    name = "memory"

    def __init__(self, table: Any) -> None:
        names = [str(c) for c in table.column_names]
        if len(set(names)) != len(names):
            dup = next(c for i, c in enumerate(names) if c in names[:i])
            raise RolesError(f"the table has two columns named {dup!r}; rename one")
        self.table = table
        self._cache: dict[tuple[str, bool | None], EncodedColumn] = {}
        self._partition: tuple[tuple[tuple[str, ...], str | None], Partition] | None = None

    @property
    def columns(self) -> tuple[str, ...]:
        """Return the column names."""
        return tuple(str(c) for c in self.table.column_names)

    @property
    def n_records(self) -> int:
        """Return the number of records."""
        return int(self.table.num_rows)

    def column(self, name: str, *, ordered: bool | None = None) -> EncodedColumn:
        """Return the codes of one column (cached).

        Parameters
        ----------
        name : str
            Column name.
        ordered : bool, optional
            Codes in the order of the values (default by type, see :func:`encode_arrow`).

        Returns
        -------
        EncodedColumn

        Raises
        ------
        RolesError
            When the table has no such column.
        """
        key = (name, ordered)
        if key not in self._cache:
            if name not in self.columns:
                raise RolesError(f"the table has no column {name!r}")
            self._cache[key] = encode_arrow(name, self.table.column(name), ordered=ordered)
        return self._cache[key]

    def partition(
        self, quasi_identifiers: Sequence[str], *, person: str | None = None
    ) -> Partition:
        """Return the equivalence classes over the QIs (the last one is kept).

        Parameters
        ----------
        quasi_identifiers : sequence of str
            At least one column.
        person : str, optional
            The person column: people grouped by their QI signature.

        Returns
        -------
        Partition
        """
        qis = tuple(quasi_identifiers)
        key = (qis, person)
        if self._partition is None or self._partition[0] != key:
            columns = {q: self.column(q) for q in qis}
            part = (
                build_partition(columns, qis)
                if person is None
                else build_person_partition(columns, qis, self.column(person))
            )
            self._partition = (key, part)
        return self._partition[1]

    def class_sizes(
        self, quasi_identifiers: Sequence[str], *, person: str | None = None
    ) -> np.ndarray:
        if person is not None:
            return self.partition(quasi_identifiers, person=person).sizes
        return encoded_sizes(self.column, quasi_identifiers)
