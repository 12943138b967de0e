"""Reading tables safely: CSV / TSV, Parquet and Excel, from a path or bytes."""

from riskcore.io.loader import MISSING_MARKERS, LoadedTable, LoadLimits, load_table

__all__ = ["MISSING_MARKERS", "LoadLimits", "LoadedTable", "load_table"]
