"""A Parquet source held by an engine, seen by the lattice as a table of classes only.

:class:`SourceTable` opens Parquet files, directories or globs on the ``arrow``,
``duckdb`` or ``spark`` engine (:mod:`riskcore.engine`) and answers what the
generalization lattice (:class:`~riskcore.deidentify.search.lattice.Lattice`) asks of a
table: its columns, its number of records and the level-0 class table with its
sensitive contingencies, computed by the engine where the data lie. It never
holds the rows, so it answers no per-record question (sampling weights summed per
class): those are refused with a sentence.

The distinct values of a column (:meth:`SourceTable.distinct`) come from the same
class table, typed as the loader types the column (pyarrow's conversion of the
Parquet type, integers with a missing value as floating point), so the hierarchy
built on them (:func:`~riskcore.deidentify.hierarchy.default_hierarchy`, the
builders) is the one the in-memory path builds on the whole column: every builder
depends on the distinct values only.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore._lazy import is_missing
from riskcore.engine.contract import Engine, Names, Order, Tabulation
from riskcore.engine.memory import EncodedTable
from riskcore.engine.partition import EncodedColumn, Partition
from riskcore.errors import DataLoadError, RiskcoreError

__all__ = ["HEAD_ROWS", "REMEDIATION_ENGINES", "SourceTable", "is_missing"]  # is_missing: one rule

#: The engines remediation runs on beyond memory.
REMEDIATION_ENGINES = ("arrow", "duckdb", "spark")
#: Records :meth:`SourceTable.head` reads by default: the direct-identifier detection's
#: sample of data beyond memory (issue 37).
HEAD_ROWS = 20_000


class SourceTable(EncodedTable):
    """Parquet files on an engine, as the lattice's table: class counts without the rows.

    Parameters
    ----------
    source : str, path or sequence of them
        Parquet files, directories (every ``*.parquet`` below) or globs.
    engine : {"arrow", "duckdb", "spark"}
        Where the group-by and, later, the generalization run.
    session : pyspark.sql.SparkSession, optional
        The Spark session (default: a local one, :func:`riskcore.engine.spark.local_session`).
    memory_limit : str, optional
        DuckDB's memory limit (e.g. ``"3GB"``); above it DuckDB spills to disk.
    threads : int, optional
        DuckDB's threads (default one per core).

    Raises
    ------
    RiskcoreError
        For another engine name, CSV files (the engines remediate Parquet), a
        source that names no file, or files that cannot be read.
    """

    absent_column = "the data have no column"

    def __init__(
        self,
        source: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        engine: str,
        *,
        session: Any = None,
        memory_limit: str | None = None,
        threads: int | None = None,
    ) -> None:
        from riskcore.engine.arrow import parquet_files, source_texts
        from riskcore.engine.grouped import CSV_SUFFIXES

        if engine not in REMEDIATION_ENGINES:
            raise RiskcoreError(
                f"remediation beyond memory runs on {', '.join(REMEDIATION_ENGINES)}, "
                f"not {engine!r}"
            )
        if any(t.lower().endswith(CSV_SUFFIXES) for t in source_texts(source)):
            raise RiskcoreError(
                f"the {engine} engine remediates Parquet files, directories or globs; convert "
                "the CSV to Parquet first (riskcore convert, or DuckDB's COPY ... TO "
                "'x.parquet'), or remediate it in memory (--engine pandas)"
            )
        self.files = parquet_files(source)
        self.name = engine
        self.memory_limit = memory_limit
        self.threads = threads
        self.session = session
        self.engine: Engine = self._open(engine)
        self.schema = self._schema()
        # what EncodedTable holds; never filled (no rows here)
        self.df = pd.DataFrame()
        self._cache: dict[tuple[str, bool | None], EncodedColumn] = {}
        self._partitions: OrderedDict[tuple[tuple[str, ...], str | None], Partition] = OrderedDict()
        self._tabulated: dict[tuple[tuple[str, ...], tuple[str, ...], str | None], Tabulation] = {}
        #: Wall time the engine spent tabulating, in seconds.
        self.seconds = 0.0

    def _open(self, engine: str) -> Engine:
        if engine == "arrow":
            from riskcore.engine.arrow import ArrowEngine

            return ArrowEngine(self.files)
        if engine == "duckdb":
            from riskcore.engine.duck import DuckDBEngine

            return DuckDBEngine(self.files, memory_limit=self.memory_limit, threads=self.threads)
        from riskcore.engine.spark import SparkEngine, local_session

        if self.session is None:
            self.session = local_session()
        return SparkEngine(self.files, session=self.session)

    def _schema(self) -> Any:
        import pyarrow.dataset as ds

        try:
            return ds.dataset(self.files, format="parquet").schema
        except Exception as exc:  # pyarrow raises many types for a bad file
            raise DataLoadError(f"the Parquet data cannot be read ({exc})") from None

    def __len__(self) -> int:
        return self.engine.n_records

    @property
    def columns(self) -> tuple[str, ...]:
        """Return the column names."""
        return tuple(self.schema.names)

    @property
    def n_records(self) -> int:
        """Return the number of records."""
        return self.engine.n_records

    def head(self, n: int = HEAD_ROWS) -> pd.DataFrame:
        """Return the first ``n`` records (at most), read by pyarrow, as a DataFrame.

        What the direct-identifier detection reads of data that do not fit in memory
        (:func:`riskcore.deidentify.recipe.identifiers.detect_identifiers`): the
        name and value rules sample 2,000 values of a column anyway.

        Parameters
        ----------
        n : int, default :data:`HEAD_ROWS`
            The most records read.

        Returns
        -------
        pandas.DataFrame
        """
        import pyarrow.dataset as ds

        try:
            table = ds.dataset(self.files, format="parquet").head(int(n))
        except Exception as exc:  # pyarrow raises many types for a bad file
            raise DataLoadError(f"the Parquet data cannot be read ({exc})") from None
        frame: pd.DataFrame = table.to_pandas()
        return frame

    def _tabulate(self, qis: Names, sens: Names, ordered: Order, person: str | None) -> Tabulation:
        """Return the engine's class table and contingencies (computed once per roles)."""
        key = (qis, sens, person)
        if ordered or key not in self._tabulated:
            import time

            t0 = time.perf_counter()
            tab = self.engine.tabulate(qis, sens, ordered=ordered, person=person)
            self.seconds += time.perf_counter() - t0
            if ordered:
                return tab
            self._tabulated[key] = tab
        return self._tabulated[key]

    def class_sizes(
        self, quasi_identifiers: Sequence[str], *, person: str | None = None
    ) -> np.ndarray:
        # from the engine (documented on Engine.class_sizes)
        if person is not None:
            self.check_columns((person,))
        return self.engine.class_sizes(quasi_identifiers, person=person)

    def _no_rows(self, what: str) -> RiskcoreError:
        return RiskcoreError(
            f"{what} needs each record, which the {self.name} engine does not hold: "
            "remediate in memory (--engine pandas) for it"
        )

    def column(self, name: str, *, ordered: bool | None = None) -> EncodedColumn:
        """Refuse: the codes of every record are not held (see :meth:`tabulate`).

        Parameters
        ----------
        name : str
            Column name.
        ordered : bool, optional
            Unused.

        Returns
        -------
        EncodedColumn
            Never: it always raises.

        Raises
        ------
        RiskcoreError
            Always.
        """
        raise self._no_rows(f"the codes of every record of {name!r}")

    @renamed_arguments(qis="quasi_identifiers")
    def partition(
        self, quasi_identifiers: Iterable[str], *, person: str | None = None
    ) -> Partition:
        """Refuse: the class of every record is not held.

        The lattice asks for it with a person column: its units (each base
        signature's tuples and their rows) and the release's suppression of
        a class's people are built from the person and class of every row
        (:func:`riskcore.deidentify.search.signatures.person_base`).

        Parameters
        ----------
        quasi_identifiers : iterable of str
            Quasi-identifiers.
        person : str, optional
            The person column.

        Returns
        -------
        Partition
            Never: it always raises.

        Raises
        ------
        RiskcoreError
            Always.
        """
        if person is not None:
            raise RiskcoreError(
                f"generalizing people (the person column {person!r}) needs the person and "
                "class of every row (each signature's rows, and every row of a suppressed "
                f"person), which the {self.name} engine does not hold: remediate in memory "
                "(--engine pandas)"
            )
        raise self._no_rows("the class of every record")

    def record_classes(
        self, quasi_identifiers: Sequence[str], *, person: str | None = None
    ) -> np.ndarray:
        """Refuse: the class of every record is not held (sampling weights need it).

        Parameters
        ----------
        quasi_identifiers : sequence of str
            Quasi-identifiers.
        person : str, optional
            Unused.

        Returns
        -------
        numpy.ndarray
            Never: it always raises.

        Raises
        ------
        RiskcoreError
            Always.
        """
        raise self._no_rows("a sampling-weight column (summed per class)")

    def arrow_type(self, column: str) -> Any:
        """Return the column's Arrow type (a dictionary's value type for dictionary columns).

        Parameters
        ----------
        column : str
            Column name.

        Returns
        -------
        pyarrow.DataType
        """
        import pyarrow as pa

        t = self.schema.field(column).type
        return t.value_type if pa.types.is_dictionary(t) else t

    def distinct(self, column: str, labels: np.ndarray | None = None) -> pd.Series:
        """Return the distinct non-missing values of a column, typed as the loader types them.

        Parameters
        ----------
        column : str
            Column name.
        labels : numpy.ndarray, optional
            The column's labels in a class table already computed (missing
            values among them are left out); default: a class table over the
            column alone.

        Returns
        -------
        pandas.Series
            Named ``column``; pyarrow's pandas conversion of the Parquet type,
            floating point for integers when the column has a missing value
            (pandas' rule for the in-memory path).
        """
        import pyarrow as pa

        if labels is None:
            labels = self.tabulate([column]).classes.labels[0]
        present = [v for v in labels if not is_missing(v)]
        has_missing = len(present) < len(labels)
        series: pd.Series
        try:
            series = pd.Series(pa.array(present, type=self.arrow_type(column)).to_pandas())
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError):
            series = pd.Series(present, dtype=object).infer_objects()
        if has_missing and pd.api.types.is_integer_dtype(series.dtype):
            series = series.astype(np.float64)
        return pd.Series(series.to_numpy(), name=column, dtype=series.dtype)
