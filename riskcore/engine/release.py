"""Writing a node's release where the data lie: Arrow batches, DuckDB SQL or Spark DataFrames.

Each writer reads the source's rows on its engine, joins every QI's value map
(:class:`~riskcore.deidentify.on_engine.ValueMap`) on the value and the
failing set on the codes, and writes Parquet: one file (``--out x.parquet``) or
a directory partitioned by columns (Hive style, ``col=value/``). The rows never
pass through pandas; the order of the rows is the engine's (the release is the
same multiset of rows as the in-memory path's).

Columns: a QI above level 0 holds its labels (text), a QI at level 0 keeps its
values and type, other columns are unchanged. Suppression ``"drop"`` leaves the
suppressed records out; ``"mask"`` keeps them with every QI ``"*"``, so every QI
column is then text (a number written as the engine writes it as text).

* ``arrow``: batches of about 1M rows, each value looked up with Arrow's
  ``index_in`` (on the dictionary of a dictionary column, then taken by the
  indices), the failing set tested with numpy (:meth:`FailingSet.hits`);
  memory stays a few batches.
* ``duckdb``: one ``COPY (SELECT ... LEFT JOIN ...) TO ... (FORMAT parquet)``
  with the maps registered as Arrow tables; out of core, insertion order not
  kept (which lets DuckDB stream), spilling to a private temporary directory.
* ``spark``: broadcast left joins of the maps and of the failing set, written by
  Spark (a single file through one partition, moved into place).

The plan of a node (:class:`NodePlan`, made by
:func:`riskcore.deidentify.on_engine.plan_node`):

A node of the lattice (one level per quasi-identifier) generalizes each value of a
QI to its label at the QI's level and suppresses the records of the classes that
break the targets. Both are functions of the QI values alone, so they fit in small
tables computed from the level-0 class table, never from the rows:

* per QI, a :class:`ValueMap`: each distinct value of the column (as the engine
  reads it), its label at the level (:func:`riskcore.deidentify.recipe.base.generalize_columns`'s
  rule: level 0 keeps the value, a missing value stays missing) and its code at the
  level (the lattice's numbering: a missing value has a code of its own);
* the :class:`FailingSet`: the code tuples, at the node's levels, of the classes
  that break the targets (:meth:`riskcore.deidentify.search.lattice.Lattice.failing`).
  A record is suppressed exactly when its code tuple is in the set: two records
  with equal codes at every QI are in the same class of the node.

An engine joins each value map to the data on the value (SQL's ``LEFT JOIN``, Arrow's
``index_in``) and the failing set on the codes; :class:`NodePlan` holds both.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from riskcore._deprecation import renamed_attributes
from riskcore.engine.source import SourceTable
from riskcore.errors import RiskcoreError

__all__ = ["BATCH_ROWS", "FailingSet", "NodePlan", "ValueMap", "check_out", "write_node"]


@dataclass(frozen=True, eq=False)
class ValueMap:
    """One QI's values, their codes and labels at the node's level.

    Attributes
    ----------
    column : str
    level : int
    values : pyarrow.Array
        The distinct non-missing values, typed as the column (a dictionary
        column's value type).
    codes : numpy.ndarray
        The node's code of each value (int64).
    labels : pyarrow.Array or None
        The label of each value at the level; None at level 0 (the value kept).
    missing_code : int
        The code of a missing value (``NULL`` or ``NaN``).
    cardinality : int
        Number of codes (``missing_code + 1``).
    """

    column: str
    level: int
    values: Any
    codes: np.ndarray
    labels: Any
    missing_code: int
    cardinality: int

    def table(self, prefix: str) -> Any:
        """Return the map as an Arrow table: ``{prefix}v``, ``{prefix}c`` (and ``{prefix}l``).

        Parameters
        ----------
        prefix : str
            Column-name prefix (unique in the query).

        Returns
        -------
        pyarrow.Table
        """
        import pyarrow as pa

        cols = {f"{prefix}v": self.values, f"{prefix}c": pa.array(self.codes, type=pa.int64())}
        if self.labels is not None:
            cols[f"{prefix}l"] = self.labels
        return pa.table(cols)


class FailingSet:
    """The code tuples of the failing classes, and an exact membership test for records.

    The test works QI by QI, re-densifying the prefix as it goes: after QI i,
    a record's prefix is the rank of its codes (c_0 .. c_i) among the failing
    classes' prefixes, or "none" (then the record is not in any failing
    class). ``rank * card_i + c_i`` never exceeds (failing classes) x
    (cardinality), so the keys stay exact int64 whatever the number of QIs
    and values.

    Parameters
    ----------
    codes : numpy.ndarray
        ``(F, Q)`` int64: one row per failing class.
    cardinalities : sequence of int
        Number of codes of each QI.
    """

    def __init__(self, codes: np.ndarray, cardinalities: Sequence[int]) -> None:
        self.codes = np.asarray(codes, dtype=np.int64).reshape(-1, len(cardinalities))
        self.cardinalities = tuple(int(c) for c in cardinalities)
        self._steps: list[np.ndarray] = []
        rank = np.zeros(len(self.codes), dtype=np.int64)
        for i, card in enumerate(self.cardinalities):
            keys = rank * card + self.codes[:, i]
            uniq, inv = np.unique(keys, return_inverse=True)
            self._steps.append(uniq)
            rank = inv.reshape(-1).astype(np.int64)

    def __len__(self) -> int:
        return len(self.codes)

    def hits(self, codes: Sequence[np.ndarray]) -> np.ndarray:
        """Return, per record, whether its codes are those of a failing class.

        Parameters
        ----------
        codes : sequence of numpy.ndarray
            One int64 array per QI, the records' codes.

        Returns
        -------
        numpy.ndarray
            bool per record.
        """
        n = len(codes[0]) if codes else 0
        hit = np.full(n, len(self.codes) > 0)
        if not len(self.codes):
            return hit
        rank = np.zeros(n, dtype=np.int64)
        for step, card, c in zip(self._steps, self.cardinalities, codes, strict=True):
            keys = rank * card + c
            pos = np.minimum(np.searchsorted(step, keys), len(step) - 1)
            found = step[pos] == keys
            hit &= found
            rank = np.where(found, pos, 0)
        return hit


@renamed_attributes(qis="quasi_identifiers")
@dataclass(frozen=True, eq=False)
class NodePlan:
    """A node's generalization and suppression, as tables to join to the data.

    Attributes
    ----------
    quasi_identifiers : tuple of str
        The quasi-identifiers, in the lattice's order (the old name ``qis`` still
        reads, with a DeprecationWarning).
    levels : tuple of int
    maps : tuple of ValueMap
        One per QI.
    failing : FailingSet
    suppressed : int
        Records in the failing classes.
    n_records : int
    """

    quasi_identifiers: tuple[str, ...]
    levels: tuple[int, ...]
    maps: tuple[ValueMap, ...]
    failing: FailingSet
    suppressed: int
    n_records: int

    def needs_codes(self, i: int) -> bool:
        """Return True when QI ``i`` is joined: generalized, or read by the failing set.

        Parameters
        ----------
        i : int
            QI number.

        Returns
        -------
        bool
        """
        return self.levels[i] > 0 or len(self.failing) > 0


#: Records per batch of the Arrow writer.
BATCH_ROWS = 1 << 20

_HIT = "__rc_hit"


def check_out(
    out: str | os.PathLike[str], partition_by: Sequence[str], columns: Sequence[str]
) -> str:
    """Return ``out`` as a path after checking it can receive the release.

    Parameters
    ----------
    out : str or path
        A ``.parquet`` file (without ``partition_by``; replaced if it exists),
        or a directory that does not exist or is empty (with ``partition_by``).
    partition_by : sequence of str
        Columns of the directory's Hive partitions.
    columns : sequence of str
        The data's columns.

    Returns
    -------
    str

    Raises
    ------
    RiskcoreError
        For another suffix, an unknown partition column, a non-empty directory,
        or a partition that would leave no column in the files.
    """
    path = os.fspath(out)
    unknown = [c for c in partition_by if c not in columns]
    if unknown:
        raise RiskcoreError(f"--partition-by {unknown[0]!r}: the data have no such column")
    if partition_by:
        if len(set(partition_by)) == len(columns):
            raise RiskcoreError("--partition-by names every column: leave one in the files")
        p = Path(path)
        if p.exists() and (not p.is_dir() or any(p.iterdir())):
            raise RiskcoreError(
                f"{p.name!r} exists: a partitioned release goes into a new or empty directory"
            )
        return path
    if not path.lower().endswith(".parquet") or os.path.isdir(path):
        raise RiskcoreError(
            "the engines write Parquet: give --out FILE.parquet, or a directory with "
            "--partition-by COL"
        )
    return path


def write_node(
    table: SourceTable,
    plan: NodePlan,
    out: str | os.PathLike[str],
    *,
    suppression: str = "drop",
    partition_by: Sequence[str] = (),
) -> int:
    """Write the release of ``plan`` on ``table``'s engine; return the records written.

    Parameters
    ----------
    table : SourceTable
        The data and their engine.
    plan : NodePlan
        The node's maps and failing set (:func:`~riskcore.deidentify.on_engine.plan_node`).
    out : str or path
        See :func:`check_out`.
    suppression : {"drop", "mask"}
        Leave the suppressed records out, or keep them with every QI ``"*"``.
    partition_by : sequence of str
        Hive partition columns (a directory is written).

    Returns
    -------
    int

    Raises
    ------
    RiskcoreError
        For a bad ``out``, an unknown suppression, or an engine failure (its first line).
    """
    if suppression not in ("drop", "mask"):
        raise RiskcoreError("suppression is 'drop' or 'mask'")
    path = check_out(out, partition_by, table.columns)
    writer = {"arrow": _write_arrow, "duckdb": _write_duckdb, "spark": _write_spark}[table.name]
    return writer(table, plan, path, suppression, tuple(partition_by))


# -- Arrow -----------------------------------------------------------------------------------


def _lookup(column: Any, vmap: ValueMap) -> tuple[np.ndarray, Any]:
    """Return (the code of every record, its position in the map's values, nulls for none)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_dictionary(column.type):
        in_dict = pc.index_in(column.dictionary.cast(vmap.values.type), value_set=vmap.values)
        pos = pc.take(in_dict, column.indices)
    else:
        pos = pc.index_in(column.cast(vmap.values.type), value_set=vmap.values)
    at = pc.fill_null(pos, -1).to_numpy(zero_copy_only=False).astype(np.int64)
    extended = np.append(vmap.codes, vmap.missing_code)
    return extended[np.where(at >= 0, at, len(vmap.codes))], pos


def _out_schema(table: SourceTable, plan: NodePlan, suppression: str) -> Any:
    import pyarrow as pa

    fields = []
    for f in table.schema:
        if f.name in plan.quasi_identifiers:
            vmap = plan.maps[plan.quasi_identifiers.index(f.name)]
            if suppression == "mask" and len(plan.failing):
                f = pa.field(f.name, pa.string())
            elif vmap.labels is not None:
                f = pa.field(f.name, vmap.labels.type)
        fields.append(f)
    return pa.schema(fields)


def _arrow_batches(
    table: SourceTable, plan: NodePlan, suppression: str, schema: Any, counted: list[int]
) -> Iterator[Any]:
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.dataset as ds

    data = ds.dataset(table.files, format="parquet")
    qi_at = {q: i for i, q in enumerate(plan.quasi_identifiers)}
    mask = suppression == "mask" and len(plan.failing) > 0
    for batch in data.to_batches(batch_size=BATCH_ROWS, batch_readahead=2, fragment_readahead=1):
        if batch.num_rows == 0:
            continue
        codes: list[np.ndarray] = []
        positions: list[Any] = []
        for i, q in enumerate(plan.quasi_identifiers):
            if plan.needs_codes(i):
                c, pos = _lookup(batch.column(q), plan.maps[i])
            else:
                c, pos = np.zeros(0, dtype=np.int64), None
            codes.append(c)
            positions.append(pos)
        hit = plan.failing.hits(codes) if len(plan.failing) else np.zeros(batch.num_rows, bool)
        columns = []
        for name in schema.names:
            col = batch.column(name)
            if name in qi_at:
                i = qi_at[name]
                vmap = plan.maps[i]
                if vmap.labels is not None:
                    col = pc.take(vmap.labels, positions[i])
                if mask:
                    col = pc.if_else(pa.array(hit), "*", pc.cast(col, pa.string()))
            if pa.types.is_dictionary(col.type) and not pa.types.is_dictionary(
                schema.field(name).type
            ):
                col = col.dictionary_decode()
            columns.append(col)
        out = pa.RecordBatch.from_arrays(columns, schema=schema)
        if suppression == "drop" and hit.any():
            out = out.filter(pa.array(~hit))
        counted[0] += out.num_rows
        yield out


def _write_arrow(
    table: SourceTable, plan: NodePlan, out: str, suppression: str, partition_by: tuple[str, ...]
) -> int:
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    schema = _out_schema(table, plan, suppression)
    counted = [0]
    batches = _arrow_batches(table, plan, suppression, schema, counted)
    try:
        if partition_by:
            ds.write_dataset(
                batches,
                out,
                schema=schema,
                format="parquet",
                partitioning=list(partition_by),
                partitioning_flavor="hive",
                existing_data_behavior="overwrite_or_ignore",
                max_rows_per_group=BATCH_ROWS,
            )
        else:
            with pq.ParquetWriter(out, schema) as writer:
                for batch in batches:
                    writer.write_batch(batch, row_group_size=BATCH_ROWS)
    except RiskcoreError:
        raise
    except Exception as exc:  # pyarrow raises many types
        raise RiskcoreError(f"the release cannot be written ({_first_line(exc)})") from None
    return counted[0]


# -- DuckDB ----------------------------------------------------------------------------------


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]


def _select(table: SourceTable, plan: NodePlan, suppression: str) -> tuple[str, list[str]]:
    """Return the SQL select list and the joins of the release (maps ``m{i}``, failing ``f``)."""
    joins: list[str] = []
    code_of: list[str] = []
    for i, (q, vmap) in enumerate(zip(plan.quasi_identifiers, plan.maps, strict=True)):
        if plan.needs_codes(i):
            joins.append(f"LEFT JOIN m{i} ON d.{_quote(q)} = m{i}.m{i}v")
        code_of.append(f"coalesce(m{i}.m{i}c, {vmap.missing_code})")
    if len(plan.failing):
        on = " AND ".join(f"{c} = f.f{i}" for i, c in enumerate(code_of))
        joins.append(f"LEFT JOIN f ON {on}")
    mask = suppression == "mask" and len(plan.failing) > 0
    items: list[str] = []
    for name in table.columns:
        expr = f"d.{_quote(name)}"
        if name in plan.quasi_identifiers:
            i = plan.quasi_identifiers.index(name)
            if plan.maps[i].labels is not None:
                expr = f"m{i}.m{i}l"
            if mask:
                expr = f"CASE WHEN f.{_HIT} THEN '*' ELSE CAST({expr} AS VARCHAR) END"
        items.append(f"{expr} AS {_quote(name)}")
    return ", ".join(items), joins


def _write_duckdb(
    table: SourceTable, plan: NodePlan, out: str, suppression: str, partition_by: tuple[str, ...]
) -> int:
    import duckdb
    import pyarrow as pa

    select, joins = _select(table, plan, suppression)
    files = "[" + ", ".join(_literal(f) for f in table.files) + "]"
    where = f" WHERE f.{_HIT} IS NULL" if suppression == "drop" and len(plan.failing) else ""
    options = "FORMAT parquet"
    if partition_by:
        options += ", PARTITION_BY (" + ", ".join(_quote(c) for c in partition_by) + ")"
    # S608: identifiers quoted, file names and the output path escaped as SQL literals
    sql = (
        f"COPY (SELECT {select} FROM read_parquet({files}) AS d {' '.join(joins)}{where}) "  # noqa: S608
        f"TO {_literal(out)} ({options})"
    )
    spill = tempfile.mkdtemp(prefix="riskcore-duckdb-")
    try:
        config: dict[str, Any] = {"temp_directory": spill, "preserve_insertion_order": False}
        if table.threads is not None:
            config["threads"] = int(table.threads)
        if table.memory_limit is not None:
            config["memory_limit"] = table.memory_limit
        con = duckdb.connect(":memory:", config=config)
        try:
            for i, vmap in enumerate(plan.maps):
                if plan.needs_codes(i):
                    con.register(f"m{i}", vmap.table(f"m{i}"))
            if len(plan.failing):
                cols = {
                    f"f{i}": plan.failing.codes[:, i] for i in range(len(plan.quasi_identifiers))
                }
                cols[_HIT] = np.ones(len(plan.failing), dtype=bool)
                con.register("f", pa.table(cols))
            row = con.execute(sql).fetchone()
        except Exception as exc:  # duckdb raises its own error types
            raise RiskcoreError(f"DuckDB cannot write the release ({_first_line(exc)})") from None
        finally:
            con.close()
    finally:
        shutil.rmtree(spill, ignore_errors=True)
    return int(row[0]) if row else 0


# -- Spark -----------------------------------------------------------------------------------


def _write_spark(
    table: SourceTable, plan: NodePlan, out: str, suppression: str, partition_by: tuple[str, ...]
) -> int:
    import pyarrow as pa
    from pyspark.sql import functions as F  # noqa: N812 - Spark's own convention

    session = table.session
    frame = session.read.parquet(*table.files)

    def col(name: str) -> Any:
        return F.col("`" + name.replace("`", "``") + "`")

    mask = suppression == "mask" and len(plan.failing) > 0
    code_cols: list[Any] = []
    values: dict[str, Any] = {}
    for i, (q, vmap) in enumerate(zip(plan.quasi_identifiers, plan.maps, strict=True)):
        if not plan.needs_codes(i):
            continue
        m = F.broadcast(session.createDataFrame(vmap.table(f"__rc_m{i}")))
        frame = frame.join(m, col(q) == F.col(f"__rc_m{i}v"), "left")
        code_cols.append(F.coalesce(F.col(f"__rc_m{i}c"), F.lit(vmap.missing_code)))
        if vmap.labels is not None:
            values[q] = F.col(f"__rc_m{i}l")
    if len(plan.failing):
        cols = {f"__rc_f{i}": plan.failing.codes[:, i] for i in range(len(plan.quasi_identifiers))}
        cols[_HIT] = np.ones(len(plan.failing), dtype=bool)
        f = F.broadcast(session.createDataFrame(pa.table(cols)))
        on = [c == F.col(f"__rc_f{i}") for i, c in enumerate(code_cols)]
        cond = on[0]
        for c in on[1:]:
            cond = cond & c
        frame = frame.join(f, cond, "left")
        if suppression == "drop":
            frame = frame.filter(F.col(_HIT).isNull())
    items = []
    for name in table.columns:
        expr = values.get(name, col(name))
        if mask and name in plan.quasi_identifiers:
            expr = F.when(F.col(_HIT).isNotNull(), F.lit("*")).otherwise(expr.cast("string"))
        items.append(expr.alias(name))
    frame = frame.select(*items)
    try:
        if partition_by:
            # an existing directory is empty (check_out): overwriting it loses nothing
            mode = "overwrite" if os.path.isdir(out) else "errorifexists"
            frame.write.mode(mode).partitionBy(*partition_by).parquet(out)
            written = session.read.parquet(out).count()
        else:
            staging = tempfile.mkdtemp(prefix="riskcore-spark-", dir=os.path.dirname(out) or ".")
            try:
                target = os.path.join(staging, "release")
                frame.coalesce(1).write.parquet(target)
                parts = sorted(Path(target).glob("part-*.parquet"))
                written = session.read.parquet(target).count()
                if len(parts) != 1:  # one partition writes one file, empty or not
                    raise RiskcoreError(
                        f"Spark wrote {len(parts)} files where one was asked: the release is "
                        "not written; give --partition-by COL and a directory"
                    )
                shutil.move(str(parts[0]), out)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
    except RiskcoreError:
        raise
    except Exception as exc:  # py4j / Spark analysis errors
        raise RiskcoreError(f"Spark cannot write the release ({_first_line(exc)})") from None
    return int(written)
