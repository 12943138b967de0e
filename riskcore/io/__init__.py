"""Reading tables safely (CSV / TSV, Parquet, Excel) and writing formula-safe CSV."""

from riskcore.io._text import TEXT_ENCODINGS
from riskcore.io.digest import fingerprint
from riskcore.io.export import formula_safe, to_csv_bytes
from riskcore.io.loader import (
    MISSING_MARKERS,
    LoadedTable,
    LoadInfo,
    LoadLimits,
    load_arrow,
    load_table,
)

__all__ = [
    "MISSING_MARKERS",
    "TEXT_ENCODINGS",
    "LoadInfo",
    "LoadLimits",
    "LoadedTable",
    "fingerprint",
    "formula_safe",
    "load_arrow",
    "load_table",
    "to_csv_bytes",
]
