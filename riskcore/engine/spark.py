"""The Apache Spark engine: the group-by runs in Spark, for data in a lake.

PySpark (optional extra ``riskcore[spark]``, with a Java 17 runtime) groups
the rows by "quasi-identifiers + sensitive values" with exact keys and
returns only the groups, through Arrow (not through pandas, whose version 3
PySpark warns about). The groups are encoded and re-aggregated by
:func:`riskcore.engine.grouped.tabulate_tables`, the rule every engine
shares, so ``null`` and ``NaN`` are one missing value as on the in-memory
engine. CSV files are read as text and typed by the loader's rule
(:func:`riskcore.engine.grouped.text_groups`).

The session is local (``local[*]`` unless a master is given), binds to
127.0.0.1 and runs without its web UI: nothing listens beyond the machine.
Starting it takes several seconds; Spark is for clusters and data that
already live in a lake, not for a file on a laptop (DuckDB or the Arrow
stream are faster there, ``../shared/notes/performance.md``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from riskcore.engine.grouped import (
    COUNT,
    CSV_SUFFIXES,
    GroupingEngine,
    first_line,
    importable,
    text_groups,
)
from riskcore.errors import DataLoadError, RiskcoreError

__all__ = ["SparkEngine", "spark_available"]


def spark_available() -> bool:
    """Return True when the optional ``pyspark`` package can be imported.

    Returns
    -------
    bool
    """
    return importable("pyspark")


def local_session(master: str = "local[*]") -> Any:
    """Return a Spark session bound to this machine, without its web UI.

    Parameters
    ----------
    master : str, default "local[*]"
        Spark master URL.

    Returns
    -------
    pyspark.sql.SparkSession
    """
    import warnings

    os.environ.setdefault("PYARROW_IGNORE_TIMEZONE", "1")
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    with warnings.catch_warnings():
        # PySpark 4 warns about pandas 3; the groups come back through Arrow, not pandas
        warnings.filterwarnings("ignore", message=".*pandas", category=FutureWarning)
        from pyspark.sql import SparkSession

        session = (
            SparkSession.builder.master(master)
            .appName("riskcore")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.sql.shuffle.partitions", "8")
            .config("spark.sql.execution.arrow.pyspark.enabled", "true")
            .config("spark.ui.showConsoleProgress", "false")
            # the groups come back to the driver: as many as the records at worst
            .config("spark.driver.memory", os.environ.get("RISKCORE_SPARK_DRIVER_MEMORY", "4g"))
            .config("spark.driver.maxResultSize", "0")
            .getOrCreate()
        )
    session.sparkContext.setLogLevel("ERROR")
    return session


class SparkEngine(GroupingEngine):
    """The Spark engine: the contract's tables from a group-by in Spark.

    Parameters
    ----------
    source : str, path, sequence of them, or a pyspark DataFrame
        Parquet or CSV files, directories or globs, read by Spark; or a
        Spark DataFrame already loaded (a table of the lake).
    session : pyspark.sql.SparkSession, optional
        Default :func:`local_session`.
    """

    name = "spark"

    def __init__(
        self,
        source: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | Any,
        *,
        session: Any = None,
    ) -> None:
        if not spark_available():
            raise RiskcoreError(
                "the Spark engine needs the optional package pyspark and Java 17: "
                "pip install 'riskcore[spark]'"
            )
        self.session = session if session is not None else local_session()
        self.csv = False
        self.frame: Any
        if hasattr(source, "groupBy") and hasattr(source, "columns"):
            self.frame = source
        else:
            from riskcore.engine.arrow import check_flat_files, parquet_files, source_texts

            texts = source_texts(source)
            self.csv = all(t.lower().endswith(CSV_SUFFIXES) for t in texts)
            files = texts if self.csv else parquet_files(texts)
            try:
                if self.csv:
                    from riskcore.engine.duck import sniff_file

                    self.frame = self.session.read.csv(
                        files,
                        header=True,
                        inferSchema=False,
                        sep=sniff_file(files[0]),
                        quote='"',
                        escape='"',
                        multiLine=True,
                        mode="PERMISSIVE",
                    )
                else:
                    self.frame = self.session.read.parquet(*files)
            except Exception as exc:  # py4j / Spark analysis errors
                raise DataLoadError(f"Spark cannot read the data ({first_line(exc)})") from None
            if not self.csv:
                check_flat_files(files)
        self._columns = tuple(str(c) for c in self.frame.columns)
        self._n = int(self.frame.count())

    def groups(self, columns: Sequence[str]) -> Any:
        """Return the grouped rows "columns -> count" (count column ``COUNT``), as pandas.

        Parameters
        ----------
        columns : sequence of str
            Columns to group by.

        Returns
        -------
        pyarrow.Table or pandas.DataFrame
        """
        from pyspark.sql import functions

        cols = self._checked(columns)
        try:
            grouped = self.frame.groupBy(
                *[functions.col(f"`{c.replace('`', '``')}`") for c in cols]
            ).agg(functions.count(functions.lit(1)).alias(COUNT))
            table = grouped.toArrow()
        except Exception as exc:
            raise DataLoadError(f"Spark cannot group the data ({first_line(exc)})") from None
        return text_groups(table) if self.csv else table

    def size_histogram(self, quasi_identifiers: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Return the class-size histogram over the QIs, computed in Spark (one small result).

        The summary pushdown: one row per distinct class size comes back,
        not one per class. ``NaN`` is grouped with ``null`` (one missing
        value).

        Parameters
        ----------
        quasi_identifiers : sequence of str
            At least one column.

        Returns
        -------
        sizes, counts : numpy.ndarray
            Each distinct class size f and the number of classes of that size.
        """
        from pyspark.sql import functions

        cols = self._checked(quasi_identifiers)
        types = dict(self.frame.dtypes)
        keys: list[Any] = []
        for c in cols:
            col = functions.col(f"`{c.replace('`', '``')}`")
            if types.get(c) in ("float", "double"):
                col = functions.when(functions.isnan(col), None).otherwise(col)
            keys.append(col.alias(f"k{len(keys)}"))
        try:
            rows = (
                self.frame.groupBy(*keys)
                .agg(functions.count(functions.lit(1)).alias("f"))
                .groupBy("f")
                .agg(functions.count(functions.lit(1)).alias("n"))
                .collect()
            )
        except Exception as exc:
            raise DataLoadError(f"Spark cannot group the data ({first_line(exc)})") from None
        pairs = sorted((int(r["f"]), int(r["n"])) for r in rows)
        return (
            np.array([p[0] for p in pairs], dtype=np.int64),
            np.array([p[1] for p in pairs], dtype=np.int64),
        )
