"""The DuckDB engine: the group-by runs in DuckDB, out of core, on Parquet or CSV files.

DuckDB (optional extra ``riskcore[duckdb]``) reads Parquet files,
directories and globs (and CSV, see below) without loading them into
pandas, groups the rows by "quasi-identifiers + sensitive values" with
exact keys (no hashing: a collision would merge two classes and understate
risk), and spills to a private temporary directory when the groups do not
fit in memory. Only the grouped rows come back; they are encoded and
re-aggregated by :func:`riskcore.engine.grouped.tabulate_tables`, the rule
every engine shares, so ``NULL`` and ``NaN`` are one missing value as on
the in-memory engine.

DuckDB is used only as an engine: an in-memory connection per question, no
database file (its file locks make it a poor store).

CSV: DuckDB reads every field as text, with the loader's missing-value
markers; the grouped text is then typed by the loader's own rule
(:func:`riskcore.io.table.type_columns`), so a ZIP code keeps its leading
zeros and numbers are numbers exactly as when the file is loaded. The
loader's other CSV care (encoding detection, delimiter sniffing, ragged
rows) is the loader's: this engine reads UTF-8 with the delimiter sniffed
from the first lines.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from riskcore.engine.arrow import check_flat_files, parquet_files, source_texts
from riskcore.engine.grouped import (
    COUNT,
    CSV_SUFFIXES,
    GroupingEngine,
    first_line,
    importable,
    text_groups,
)
from riskcore.errors import DataLoadError, RiskcoreError

__all__ = ["DuckDBEngine", "duckdb_available"]


def duckdb_available() -> bool:
    """Return True when the optional ``duckdb`` package can be imported.

    Returns
    -------
    bool
    """
    return importable("duckdb")


def _quote(name: str) -> str:
    """Return a SQL identifier for a column name (double quotes doubled)."""
    return '"' + name.replace('"', '""') + '"'


class DuckDBEngine(GroupingEngine):
    """The DuckDB engine: the contract's tables from a group-by in DuckDB.

    Parameters
    ----------
    source : str, path or sequence of them
        Parquet or CSV files, directories (every ``*.parquet`` below) or globs.
        All files of one source have one format, told by the extension.
    threads : int, optional
        DuckDB threads (default: DuckDB's, one per core).
    memory_limit : str, optional
        DuckDB's memory limit, e.g. ``"4GB"``; above it the group-by spills
        to a private temporary directory, removed afterwards.
    """

    name = "duckdb"

    def __init__(
        self,
        source: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        *,
        threads: int | None = None,
        memory_limit: str | None = None,
    ) -> None:
        if not duckdb_available():
            raise RiskcoreError(
                "the DuckDB engine needs the optional package duckdb: "
                "pip install 'riskcore[duckdb]' (or pip install duckdb)"
            )
        self.files = _files(source)
        self.csv = all(f.lower().endswith(CSV_SUFFIXES) for f in self.files)
        self.threads = threads
        self.memory_limit = memory_limit
        self._delimiter = sniff_file(self.files[0]) if self.csv else ","
        with self._connect() as con:
            try:
                # S608: the scan's files are bound ($files), its literals escaped by _scan
                rel = con.execute(f"DESCRIBE SELECT * FROM {self._scan()}", self._params())  # noqa: S608
                described = rel.fetchall()
                self._columns = tuple(str(r[0]) for r in described)
                self._types = {str(r[0]): str(r[1]).upper() for r in described}
                sql = f"SELECT count(*) FROM {self._scan()}"  # noqa: S608 - as above
                n = con.execute(sql, self._params()).fetchone()
            except Exception as exc:  # duckdb raises its own error types
                raise DataLoadError(f"DuckDB cannot read the data ({first_line(exc)})") from None
        if not self.csv:  # DuckDB reads nested columns; their cells are no values to group
            check_flat_files(self.files)
        self._n = int(n[0]) if n else 0

    def _params(self) -> dict[str, Any]:
        return {"files": self.files}

    def _scan(self) -> str:
        if not self.csv:
            return "read_parquet($files)"
        from riskcore.io.table import MISSING_MARKERS

        markers = ", ".join("'" + m.replace("'", "''") + "'" for m in MISSING_MARKERS)
        delim = self._delimiter.replace("'", "''")
        return (
            f"read_csv($files, header=true, all_varchar=true, delim='{delim}', "
            f"quote='\"', escape='\"', nullstr=[{markers}], strict_mode=false)"
        )

    @contextmanager
    def _connect(self) -> Iterator[Any]:
        import duckdb

        spill = tempfile.mkdtemp(prefix="riskcore-duckdb-")
        try:
            config: dict[str, Any] = {"temp_directory": spill}
            if self.threads is not None:
                config["threads"] = int(self.threads)
            if self.memory_limit is not None:
                config["memory_limit"] = self.memory_limit
            con = duckdb.connect(":memory:", config=config)
            try:
                yield con
            finally:
                con.close()
        finally:
            shutil.rmtree(spill, ignore_errors=True)

    def groups(self, columns: Sequence[str]) -> Any:
        """Return the grouped rows "columns -> count" (column ``COUNT``).

        Parameters
        ----------
        columns : sequence of str
            Columns to group by.

        Returns
        -------
        pyarrow.Table or pandas.DataFrame
            Arrow for Parquet (encoded without a pandas conversion), pandas
            for CSV (typed by the loader's rule).
        """
        cols = ", ".join(_quote(c) for c in self._checked(columns))
        # S608: identifiers quoted by _quote, the scan's files bound and literals escaped
        sql = f"SELECT {cols}, count(*) AS {_quote(COUNT)} FROM {self._scan()} GROUP BY ALL"  # noqa: S608
        with self._connect() as con:
            try:
                table = con.sql(sql, params=self._params()).to_arrow_table()
            except Exception as exc:
                raise DataLoadError(f"DuckDB cannot read the data ({first_line(exc)})") from None
        return text_groups(table) if self.csv else table

    def size_histogram(self, quasi_identifiers: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Return the class-size histogram over the QIs, computed in DuckDB (one small result).

        The summary pushdown: ``SELECT f, count(*) FROM (SELECT count(*) AS f
        ... GROUP BY qis) GROUP BY f`` returns one row per distinct class
        size, not one per class, so nothing of the classes' values leaves
        DuckDB. A floating-point ``NaN`` is grouped with ``NULL`` (one
        missing value, the in-memory engine's rule).

        Parameters
        ----------
        quasi_identifiers : sequence of str
            At least one column.

        Returns
        -------
        sizes, counts : numpy.ndarray
            Each distinct class size f and the number of classes of that size.
        """
        cols = self._checked(quasi_identifiers)
        keys = ", ".join(_missing_as_null(c, self._types.get(c, "")) for c in cols)
        # S608: identifiers quoted by _quote, the scan's files bound and literals escaped
        sql = (
            f"SELECT f, count(*) AS n FROM (SELECT count(*) AS f FROM {self._scan()} "  # noqa: S608
            f"GROUP BY {keys}) GROUP BY f ORDER BY f"
        )
        with self._connect() as con:
            try:
                rows = con.sql(sql, params=self._params()).fetchall()
            except Exception as exc:
                raise DataLoadError(f"DuckDB cannot read the data ({first_line(exc)})") from None
        sizes = np.array([r[0] for r in rows], dtype=np.int64)
        return sizes, np.array([r[1] for r in rows], dtype=np.int64)


def _missing_as_null(column: str, sql_type: str) -> str:
    """Return a grouping expression for a column: ``NaN`` as ``NULL`` for floating point."""
    q = _quote(column)
    if sql_type in ("FLOAT", "DOUBLE", "REAL", "FLOAT4", "FLOAT8"):
        return f"(CASE WHEN isnan({q}) THEN NULL ELSE {q} END)"
    return q


def _files(source: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[str]:
    """Return the files of a source; CSV globs and files are taken as they are."""
    texts = source_texts(source)
    if all(t.lower().endswith(CSV_SUFFIXES) for t in texts):
        import glob

        out: list[str] = []
        for t in texts:
            found = sorted(glob.glob(t, recursive=True)) if any(c in t for c in "*?[") else [t]
            for f in found:
                if not os.path.isfile(f):
                    raise DataLoadError(f"no such file: {f!r}")
            if not found:
                raise DataLoadError(f"no file matches {t!r}")
            out += found
        return out
    return parquet_files(source)


def sniff_file(path: str) -> str:
    """Return the delimiter of a CSV file, sniffed from its first lines by the loader's rule.

    Parameters
    ----------
    path : str
        The file.

    Returns
    -------
    str
    """
    from riskcore.io._text import sniff_delimiter

    with open(path, "rb") as fh:
        head = fh.read(64 * 1024)
    return sniff_delimiter(head.decode("utf-8", errors="replace"))
