"""The contract's tables from grouped rows: what every out-of-memory engine shares.

An engine that never holds the rows (a Parquet stream, DuckDB, Spark) can
still group them: "quasi-identifiers + sensitive values -> count". Such
grouped rows, possibly from disjoint parts of the data and so possibly
repeating a combination, are all that :func:`tabulate_tables` needs to build
the :class:`~riskcore.engine.contract.Tabulation` the in-memory engine
builds from the rows: the counts add up (``../shared/notes/performance.md``:
contingency tables of disjoint parts, concatenated and re-aggregated, equal
the table of the whole).

Values are encoded here with :func:`~riskcore.engine.partition.encode_column`,
the in-memory engine's own encoder, so missing values follow one rule on
every engine: ``None``, ``NaN`` and ``NaT`` are one missing value of the
column, kept as a value of its own (no record is dropped). An engine whose
SQL keeps ``NULL`` and ``NaN`` apart (DuckDB, Spark) still gives the same
classes, because the groups are re-aggregated after encoding.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore.engine.contract import ClassTable, Contingency, Tabulation
from riskcore.engine.pairs import PairsEngine
from riskcore.engine.partition import EncodedColumn, encode_column, pack_keys
from riskcore.errors import RolesError

__all__ = [
    "COUNT",
    "CSV_SUFFIXES",
    "GroupingEngine",
    "first_line",
    "importable",
    "tabulate_codes",
    "tabulate_tables",
    "text_groups",
]

#: File endings read as delimited text (every other source is Parquet).
CSV_SUFFIXES = (".csv", ".csv.gz", ".tsv", ".txt")

#: Name of the count column of grouped rows (chosen to clash with no data column).
COUNT = "__riskcore_count__"


_NULL_SLOT = object()


class ArrowCodes:
    """One column's dictionary over Arrow arrays: value -> code, grown array by array.

    The values are kept as Arrow arrays of the column's own type, so the
    labels convert to pandas exactly as the loader converts the column.
    Text is looked up in Arrow (``pyarrow.compute.index_in`` against the
    values seen so far, byte for byte): a person id column of a million
    values is never turned into Python strings batch after batch. Other
    types are looked up in a pandas index of their values.
    """

    def __init__(self) -> None:
        self.index: pd.Index = pd.Index([], dtype=object)
        self.chunks: list[Any] = []
        self.missing: int | None = None  # code of the Arrow null, allocated when first seen
        self.size = 0
        self.text: Any = None  # text seen so far (an Arrow array), and the code of each
        self.text_codes = np.zeros(0, dtype=np.int64)

    def __len__(self) -> int:
        return self.size

    def _lookup(self, dictionary: Any, null_entries: np.ndarray) -> np.ndarray:
        """Return the code of each dictionary entry, new values coded (nulls left at -1)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        text = pa.types.is_string(dictionary.type) or pa.types.is_large_string(dictionary.type)
        if text:
            local = np.full(len(dictionary), -1, dtype=np.int64)
            if self.text is not None and len(dictionary):
                at = pc.index_in(dictionary, value_set=self.text)
                found = ~np.asarray(at.is_null().to_numpy(zero_copy_only=False), dtype=bool)
                pos = np.asarray(pc.fill_null(at, 0).to_numpy(zero_copy_only=False), np.int64)
                local[found] = self.text_codes[pos[found]]
        else:
            values = dictionary.to_numpy(zero_copy_only=False)
            if len(self.index):
                local = np.asarray(self.index.get_indexer(values), dtype=np.int64)
            else:
                local = np.full(len(values), -1, dtype=np.int64)
        new = np.flatnonzero((local < 0) & ~null_entries)
        if len(new):
            start = self.size
            added = dictionary.take(pa.array(new))
            self.chunks.append(added)
            codes = np.arange(start, start + len(new), dtype=np.int64)
            local[new] = codes
            self.size += len(new)
            if text:
                self.text = added if self.text is None else pa.concat_arrays([self.text, added])
                self.text_codes = np.concatenate((self.text_codes, codes))
            else:
                fresh = pd.Index(values[new], dtype=object)
                self.index = self.index.append(fresh) if len(self.index) else fresh
        return local

    def codes(self, arr: Any, out: np.ndarray | None = None) -> np.ndarray:
        """Return the global code of every value of an Arrow array (nulls included).

        ``out``, an int64 buffer at least as long as the array, receives the
        codes (a view of it is returned): a stream reuses one buffer per
        column instead of allocating one per batch.

        Parameters
        ----------
        arr : Any
            A pyarrow Array or ChunkedArray, dictionary-encoded or not.
        out : numpy.ndarray, optional
            The int64 buffer.

        Returns
        -------
        numpy.ndarray
            int64, one per value; every null has the one missing code.
        """
        import pyarrow as pa
        import pyarrow.compute as pc

        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks()
        if not pa.types.is_dictionary(arr.type):
            arr = pc.dictionary_encode(arr)
        dictionary = arr.dictionary
        if self.text is not None and dictionary.type != self.text.type:
            dictionary = dictionary.cast(self.text.type)  # string and large_string files
        null_entries = np.asarray(dictionary.is_null().to_numpy(zero_copy_only=False), dtype=bool)
        local = self._lookup(dictionary, null_entries)
        idx = arr.indices
        if idx.null_count or null_entries.any():
            if self.missing is None:
                self.missing = self.size
                self.size += 1
                # a marker no value equals holds the null's place in the lookup index (None
                # would be one more missing value beside a NaN, and the index must be unique)
                if self.text is None:  # the lookup index of other types holds every code
                    self.index = self.index.append(pd.Index([_NULL_SLOT], dtype=object))
                self.chunks.append(pa.nulls(1, type=dictionary.type))
            local[null_entries] = self.missing
            local = np.append(local, self.missing)
            idx = pc.fill_null(idx, len(dictionary))
        positions = idx.to_numpy(zero_copy_only=False)
        if out is None:
            result: np.ndarray = np.take(local, positions, mode="clip")
            return result
        view = out[: len(positions)]
        np.take(local, positions, out=view, mode="clip")  # in range: no check, no buffer
        return view

    def encoded(self, name: str, codes: np.ndarray, *, ordered: bool | None) -> EncodedColumn:
        """Return the final codes of grouped rows, re-encoded by the in-memory engine's rule.

        The labels are converted to pandas as the loader converts a column
        and encoded as a column of their own
        (:func:`~riskcore.engine.partition.encode_column`), so numbers sort,
        and ``None`` / ``NaN`` / ``NaT`` become one missing value, exactly as
        on the in-memory engine.

        Parameters
        ----------
        name : str
            The column's name.
        codes : numpy.ndarray
            Global codes (:meth:`codes`) of the grouped rows.
        ordered : bool or None
            Sort codes by value (None: as :func:`~riskcore.engine.partition.encode_column`
            decides by type).

        Returns
        -------
        EncodedColumn
            One final code per entry of ``codes``.
        """
        enc = self.final(name, ordered=ordered)
        final = np.take(enc.codes, codes, mode="clip") if len(codes) else enc.codes[codes]
        return EncodedColumn(name, final, enc.labels, enc.ordered, enc.n_missing)

    def final(self, name: str, *, ordered: bool | None) -> EncodedColumn:
        """Return the dictionary's values encoded by the in-memory engine's rule.

        ``final(...).codes[c]`` is the final code of global code ``c``: the
        map from this dictionary's codes to the in-memory engine's. It is
        one-to-one unless two entries are one value to the in-memory engine
        (a ``NaN`` and a null of one float column).

        Parameters
        ----------
        name : str
            The column's name.
        ordered : bool or None
            Sort codes by value (None: by type).

        Returns
        -------
        EncodedColumn
            One code per global code.
        """
        import pyarrow as pa

        labels = pa.chunked_array(self.chunks).to_pandas() if self.chunks else pd.Series([])
        return encode_column(labels.rename(name), ordered=ordered)


def encode_any(column: Any, name: str, *, ordered: bool | None = None) -> EncodedColumn:
    """Encode a pandas Series, or an Arrow array without converting its values one by one.

    An Arrow column is dictionary-encoded by Arrow (C++), and only its
    distinct values are converted to pandas and encoded by the in-memory
    engine's rule (:func:`~riskcore.engine.partition.encode_column`): the
    same codes and missing-value rule at a fraction of the cost of a pandas
    conversion of every value.

    Parameters
    ----------
    column : Any
        A pandas Series, or a pyarrow Array or ChunkedArray.
    name : str
        The column's name.
    ordered : bool, optional
        Sort codes by value (default: by type, as
        :func:`~riskcore.engine.partition.encode_column`).

    Returns
    -------
    EncodedColumn
    """
    if isinstance(column, pd.Series):
        return encode_column(column.reset_index(drop=True).rename(name), ordered=ordered)
    book = ArrowCodes()
    return book.encoded(name, book.codes(column), ordered=ordered)


def _column(frame: Any, name: str, parts: Sequence[Any] = ()) -> Any:
    """Return one column of grouped rows (pandas or Arrow), concatenated over ``parts``."""
    cols = [f[name] for f in (parts or [frame])]
    if len(cols) == 1:
        return cols[0]
    if isinstance(cols[0], pd.Series):
        return pd.concat(cols, ignore_index=True)
    import pyarrow as pa

    return pa.chunked_array([chunk for c in cols for chunk in c.chunks], type=cols[0].type)


def _counts(frame: Any, count: str) -> np.ndarray:
    col = frame[count]
    if isinstance(col, pd.Series):
        return col.to_numpy(dtype=np.int64)
    return np.asarray(col.to_numpy(), dtype=np.int64)


def _row_classes(
    qis: tuple[str, ...], qi_cols: Sequence[EncodedColumn], weights: np.ndarray
) -> tuple[ClassTable, np.ndarray]:
    """Return the class table of grouped rows and each row's class (numbered by packed key).

    The class sizes add the weights of the first ``len(weights)`` rows (the
    rows that count the records; later rows only find their class).
    """
    key, _ = pack_keys([c.codes for c in qi_cols], [c.n_values for c in qi_cols])
    _, first, class_of = np.unique(key, return_index=True, return_inverse=True)
    class_of = class_of.reshape(-1).astype(np.int64, copy=False)
    n_classes = len(first)
    sizes = np.bincount(class_of[: len(weights)], weights=weights, minlength=n_classes)
    classes = ClassTable(
        qis,
        sizes.astype(np.int64),
        tuple(c.codes[first] for c in qi_cols),
        tuple(c.labels for c in qi_cols),
    )
    return classes, class_of


def tabulate_tables(
    base: pd.DataFrame,
    tables: dict[str, pd.DataFrame],
    quasi_identifiers: Sequence[str],
    *,
    engine: str,
    count: str = COUNT,
    ordered: dict[str, bool | None] | None = None,
) -> Tabulation:
    """Return the tabulation of one grouped table per sensitive attribute.

    Parameters
    ----------
    base : pandas.DataFrame or pyarrow.Table
        Grouped rows over the QIs (and possibly one sensitive attribute)
        with ``count``: the class sizes come from it.
    tables : dict of str to pandas.DataFrame or pyarrow.Table
        Per sensitive attribute s, grouped rows "QIs + s -> count" (``base``
        may be one of them).
    quasi_identifiers : sequence of str
        At least one column.
    engine : str
        Engine name.
    count : str
        Name of the count column.
    ordered : dict of str to bool or None, optional
        Per sensitive attribute, whether value codes must follow value order.

    Returns
    -------
    Tabulation
        The classes numbered once
        across all the tables (their QI values are encoded together).
    """
    qis = tuple(quasi_identifiers)
    order = ordered or {}
    # base first, each table once (base is often the first attribute's table)
    frames = [base, *(f for f in tables.values() if f is not base)]
    bounds = np.cumsum([0, *(len(f) for f in frames)])
    start = {id(f): int(b) for f, b in zip(frames, bounds, strict=False)}
    qi_cols = [encode_any(_column(base, q, frames), q) for q in qis]
    classes, class_of = _row_classes(qis, qi_cols, _counts(base, count))
    n_classes = classes.n_classes
    out: dict[str, Contingency] = {}
    for s, frame in tables.items():
        col = encode_any(frame[s], s, ordered=order.get(s))
        at = start[id(frame)]
        out[s] = Contingency.from_cells(
            s,
            class_of[at : at + len(frame)],
            col.codes,
            _counts(frame, count),
            n_classes=n_classes,
            labels=col.labels,
            ordered=col.ordered,
        )
    return Tabulation(classes, out, engine=engine)


def tabulate_codes(
    qi_cols: Sequence[EncodedColumn],
    sens_cols: dict[str, EncodedColumn],
    weights: np.ndarray,
    *,
    engine: str,
) -> Tabulation:
    """Return the tabulation of encoded grouped rows, each row weighing ``weights[i]`` records.

    Parameters
    ----------
    qi_cols : sequence of EncodedColumn
        The QIs' codes, one per grouped row.
    sens_cols : dict of str to EncodedColumn
        The sensitive attributes' codes, one per grouped row.
    weights : numpy.ndarray
        Records per grouped row (int64, > 0).
    engine : str
        Engine name.

    Returns
    -------
    Tabulation
    """
    classes, inv = _row_classes(tuple(c.name for c in qi_cols), qi_cols, weights)
    n_classes = classes.n_classes
    tables = {
        s: Contingency.from_cells(
            s,
            inv,
            col.codes,
            weights,
            n_classes=n_classes,
            labels=col.labels,
            ordered=col.ordered,
        )
        for s, col in sens_cols.items()
    }
    return Tabulation(classes, tables, engine=engine)


def text_groups(table: Any, count: str = COUNT) -> pd.DataFrame:
    """Return grouped CSV text typed as the loader types a CSV file.

    An engine that reads a CSV file as text (DuckDB, Spark) groups the raw
    fields; this applies the loader's per-value rules to the grouped text
    (leading spaces dropped, the missing-value markers
    :data:`~riskcore.io.table.MISSING_MARKERS` missing) and its typing rule
    (:func:`riskcore.io._typing.type_columns`: numbers become numbers, a ZIP
    code keeps its leading zeros). Typing decides on the set of distinct
    values of a column, which grouping keeps, so the columns get the types
    the loader gives the whole file.

    Parameters
    ----------
    table : pyarrow.Table
        Grouped rows: text columns and the ``count`` column.
    count : str
        Name of the count column.

    Returns
    -------
    pandas.DataFrame
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    from riskcore.io._typing import type_columns
    from riskcore.io.table import MISSING_MARKERS

    markers = pa.array(list(MISSING_MARKERS))
    arrays = []
    names = [c for c in table.column_names if c != count]
    for name in names:
        col = table.column(name).cast(pa.string())
        stripped = pc.utf8_ltrim(col, characters=" ")
        arrays.append(pc.if_else(pc.is_in(stripped, value_set=markers), None, stripped))
    frame = type_columns(pa.table(arrays, names=names)).to_pandas()
    frame[count] = table.column(count).to_numpy()
    return frame


class GroupingEngine(PairsEngine):
    """Base of the engines that group rows elsewhere (DuckDB, Spark) and return the groups.

    A subclass sets :attr:`name`, :attr:`columns`, :attr:`n_records` and
    implements :meth:`groups`; the contract's :meth:`tabulate` and
    :meth:`class_sizes` follow from it by :func:`tabulate_tables`. A subclass that
    can count class sizes where the data lie implements :meth:`size_histogram`
    (the summary pushdown), which :meth:`class_sizes` then uses.
    """

    name = "grouping"
    _columns: tuple[str, ...] = ()
    _n: int = 0

    @property
    def columns(self) -> tuple[str, ...]:
        """Return the column names."""
        return self._columns

    @property
    def n_records(self) -> int:
        """Return the number of records."""
        return self._n

    def groups(self, columns: Sequence[str]) -> Any:
        """Return the grouped rows "columns -> count" (count column :data:`COUNT`).

        Parameters
        ----------
        columns : sequence of str
            The columns grouped by.

        Returns
        -------
        Any
            A pyarrow Table or pandas DataFrame (the engine's): one row per distinct
            combination, missing values a group of their own.
        """
        raise NotImplementedError

    def _checked(self, columns: Sequence[str]) -> list[str]:
        unknown = [c for c in columns if c not in self._columns]
        if unknown:
            raise RolesError(f"the table has no column {unknown[0]!r}")
        return list(dict.fromkeys(columns))

    csv = False

    def size_histogram(self, quasi_identifiers: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Return (each distinct class size, the number of classes of that size), or raise.

        The summary pushdown, computed where the data lie; engines that
        cannot raise ``NotImplementedError`` (the default).

        Parameters
        ----------
        quasi_identifiers : sequence of str
            The quasi-identifier columns.

        Returns
        -------
        tuple of (numpy.ndarray, numpy.ndarray)
            Numpy arrays, one entry per distinct size.
        """
        raise NotImplementedError

    def class_sizes(
        self, quasi_identifiers: Sequence[str], *, person: str | None = None
    ) -> np.ndarray:
        """Return the class sizes f_j over the QIs.

        From the size histogram pushed down to the engine
        (:meth:`size_histogram`) where it has one, for Parquet; CSV text is
        typed by the loader's rule first, which only the grouped path
        applies, so CSV (and an engine without the pushdown) groups.

        Parameters
        ----------
        quasi_identifiers : sequence of str
            At least one column.
        person : str, optional
            The person column: the sizes count people, from the grouped
            (person, QIs) pairs (:meth:`tabulate`; no pushdown).

        Returns
        -------
        numpy.ndarray
            int64 sizes (in increasing order from the pushdown; in class order otherwise).
        """
        if not self.csv and person is None:
            try:
                sizes, counts = self.size_histogram(quasi_identifiers)
            except NotImplementedError:
                pass
            else:
                return np.repeat(sizes, counts)
        return self.tabulate(quasi_identifiers, person=person).classes.sizes

    def _tabulate_rows(
        self, keys: tuple[str, ...], sens: tuple[str, ...], order: dict[str, bool | None]
    ) -> Tabulation:
        """Return the tabulation counting rows: one group-by over "keys + s" per attribute s.

        The keys alone when there is no sensitive attribute; grouping by all
        sensitive attributes at once would multiply the groups by their
        combinations. A ``NULL`` person groups its rows by tuple and value, and
        each of those rows counts as a person of its own (its group's count is
        its number of people).
        """
        frames = {s: self.groups([*keys, s]) for s in sens}
        base = frames[sens[0]] if sens else self.groups(list(keys))
        return tabulate_tables(base, frames, keys, engine=self.name, ordered=order)


def first_line(exc: Exception) -> str:
    """Return the first line of an engine's error (DuckDB's and Spark's run long), or its type.

    Parameters
    ----------
    exc : Exception
        The error an engine raised.

    Returns
    -------
    str
    """
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def importable(module: str) -> bool:
    """Return True when the optional package ``module`` can be imported (an engine's backend).

    Parameters
    ----------
    module : str
        The package's import name (``"duckdb"``, ``"pyspark"``).

    Returns
    -------
    bool
        True when importing ``module`` raises no ImportError.
    """
    import importlib

    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True
