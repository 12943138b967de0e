"""Parquet through pyarrow: typed columns as stored, dictionary columns as Categoricals.

Column types come from the file, so identifiers stored as text keep their
leading zeros. A text column the writer dictionary-encoded with few
distinct values (the usual case for categories) is read straight into a
pandas Categorical: the dictionary codes are reused, no Python string is
made per row. A column written from a pandas Categorical or an Arrow
dictionary comes back as a Categorical through the stored Arrow schema.

A nested column (a list, struct, map or union in each cell) is refused
before any data is read (:func:`check_flat`): its cells cannot be compared
as values of a quasi-identifier. The streaming engines check the same.
"""

from __future__ import annotations

from typing import Any

from riskcore.errors import DataLoadError
from riskcore.io._source import Raw
from riskcore.io._text import dedupe_header
from riskcore.io.table import LoadedTable, LoadLimits

__all__ = ["check_flat", "load_parquet"]

#: Largest uncompressed bytes per value of a dictionary-encoded text column
#: read as a Categorical: dictionary indices are at most a few bytes a value,
#: plain strings (a writer's fallback for many distinct values) are more.
DICT_BYTES_PER_VALUE = 4.0


def load_parquet(raw: Raw, name: str, limits: LoadLimits) -> LoadedTable:
    """Read a Parquet file.

    Parameters
    ----------
    raw : bytes or mmap.mmap
        The file.
    name : str
        File name for messages.
    limits : LoadLimits
        Row and column limits, checked on the file's metadata before reading.

    Returns
    -------
    LoadedTable
    """
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq

        pf = pq.ParquetFile(pa.BufferReader(pa.py_buffer(raw)))
        n_rows = pf.metadata.num_rows
        n_cols = pf.metadata.num_columns
    except Exception as exc:
        raise DataLoadError(f"{name} looks like Parquet but cannot be read ({exc})") from None
    if n_cols > limits.max_columns:
        raise DataLoadError(
            f"{name} has {n_cols:,} columns, above the limit of {limits.max_columns:,}"
        )
    if n_rows > limits.max_rows:
        raise DataLoadError(f"{name} has {n_rows:,} rows, above the limit of {limits.max_rows:,}")
    check_flat(pf.schema_arrow, name)
    try:
        dictionary = _dictionary_columns(pf)
        if dictionary:
            pf = pq.ParquetFile(pa.BufferReader(pa.py_buffer(raw)), read_dictionary=dictionary)
        df = pf.read(use_threads=True).to_pandas()
    except Exception as exc:
        raise DataLoadError(f"{name}: the Parquet data cannot be read ({exc})") from None
    if df.shape[1] == 0:
        raise DataLoadError(f"{name} has no columns")
    if len(df) == 0:
        raise DataLoadError(f"{name} has no data rows")
    cols, notes = dedupe_header([str(c) for c in df.columns])
    df.columns = cols
    return LoadedTable.from_frame(
        df, name=name, file_format="parquet", notes=notes, n_bytes=len(raw)
    )


def check_flat(schema: Any, name: str) -> None:
    """Refuse a Parquet schema with a nested column (list, struct, map or union cells).

    Parameters
    ----------
    schema : pyarrow.Schema
        The file's (or the dataset's) Arrow schema.
    name : str
        The file or data set, for the message.

    Raises
    ------
    DataLoadError
        Naming the first nested column, its type and how many others there are.
    """
    import pyarrow as pa

    nested = [f for f in schema if pa.types.is_nested(f.type)]
    if not nested:
        return
    first = nested[0]
    typ = str(first.type)
    typ = typ if len(typ) <= 80 else typ[:77] + "..."
    others = f" and {len(nested) - 1:,} other nested column(s)" if len(nested) > 1 else ""
    raise DataLoadError(
        f"{name}: the column {first.name!r} holds nested values ({typ}){others}; "
        "lists, structs and maps cannot be compared as values, so flatten them into plain "
        "columns (one value per cell) or leave them out, and load the file again"
    )


def _dictionary_columns(pf: Any) -> list[str]:
    """Return the plain text columns stored dictionary-encoded with few distinct values."""
    import pyarrow as pa

    meta = pf.metadata
    schema = pf.schema_arrow
    out = []
    for i in range(meta.num_columns):
        path = meta.schema.column(i).path
        if "." in path or path not in schema.names:
            continue
        typ = schema.field(path).type
        if not (pa.types.is_string(typ) or pa.types.is_large_string(typ)):
            continue
        chunks = [meta.row_group(g).column(i) for g in range(meta.num_row_groups)]
        values = sum(c.num_values for c in chunks)
        size = sum(c.total_uncompressed_size for c in chunks)
        if values and all(c.has_dictionary_page for c in chunks):
            if size / values <= DICT_BYTES_PER_VALUE:
                out.append(path)
    return out
