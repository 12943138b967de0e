"""Excel ``.xlsx``: the first sheet, read as text by openpyxl, typed like a CSV.

The workbook is a zip archive: its members are listed and their total
unpacked size checked against the limit before anything is parsed (a small
``.xlsx`` can unpack to gigabytes).
"""

from __future__ import annotations

import io
import zipfile

import pandas as pd

from riskcore.errors import DataLoadError
from riskcore.io._source import Raw
from riskcore.io._text import dedupe_header
from riskcore.io._typing import type_columns
from riskcore.io.table import MISSING_MARKERS, LoadedTable, LoadLimits

__all__ = ["load_xlsx"]


def load_xlsx(raw: Raw, name: str, limits: LoadLimits) -> LoadedTable:
    """Read the first sheet of an Excel workbook.

    Parameters
    ----------
    raw : bytes or mmap.mmap
        The file.
    name : str
        File name for messages.
    limits : LoadLimits
        Unpacked-size, row and column limits.

    Returns
    -------
    LoadedTable
    """
    _check_archive(raw, name, limits)
    try:
        df = pd.read_excel(
            io.BytesIO(raw[:]),
            sheet_name=0,
            dtype=str,
            engine="openpyxl",
            keep_default_na=False,
            na_values=list(MISSING_MARKERS),
            nrows=limits.max_rows + 1,
        )
    except Exception as exc:
        raise DataLoadError(f"{name}: the workbook cannot be read ({exc})") from None
    if df.shape[1] == 0:
        raise DataLoadError(f"{name}: the first sheet has no columns")
    if df.shape[1] > limits.max_columns:
        raise DataLoadError(
            f"{name} has {df.shape[1]:,} columns, above the limit of {limits.max_columns:,}"
        )
    if len(df) > limits.max_rows:
        raise DataLoadError(f"{name} has more than {limits.max_rows:,} rows, the limit")
    if len(df) == 0:
        raise DataLoadError(f"{name}: the first sheet has a header but no data rows")
    import pyarrow as pa

    cols, notes = dedupe_header([str(c) for c in df.columns])
    arrays = [
        pa.array(df.iloc[:, i], type=pa.string(), from_pandas=True) for i in range(df.shape[1])
    ]
    typed = type_columns(pa.table(arrays, names=cols))
    notes.append("only the first sheet was read")
    return LoadedTable.from_frame(
        typed.to_pandas(),
        name=name,
        file_format="xlsx",
        text_columns=typed.text_columns,
        untyped=typed.untyped,
        notes=[*notes, *typed.notes],
        n_bytes=len(raw),
    )


def _check_archive(raw: Raw, name: str, limits: LoadLimits) -> None:
    """Refuse a damaged zip, a zip that is not a workbook, and a zip bomb."""
    try:
        with zipfile.ZipFile(io.BytesIO(raw[:])) as zf:
            infos = zf.infolist()
            members = {i.filename for i in infos}
            total = sum(i.file_size for i in infos)
    except zipfile.BadZipFile:
        raise DataLoadError(f"{name} starts like a zip archive but is damaged") from None
    if "[Content_Types].xml" not in members or not any(m.startswith("xl/") for m in members):
        raise DataLoadError(
            f"{name} is a zip archive, not an Excel workbook. Archives are refused for "
            "safety; unpack it and load the CSV, Parquet or .xlsx file inside."
        )
    if total > limits.max_unzipped_bytes:
        raise DataLoadError(
            f"{name} unpacks to {total / 1e6:,.0f} MB, above the "
            f"{limits.max_unzipped_bytes / 1e6:,.0f} MB limit (it may be a zip bomb)"
        )
