"""Reading tables safely: CSV / TSV, Parquet and Excel, from a path or bytes."""

from riskcore.io.fingerprint import fingerprint
from riskcore.io.loader import MISSING_MARKERS, LoadedTable, LoadInfo, LoadLimits, load_table

__all__ = ["MISSING_MARKERS", "LoadInfo", "LoadLimits", "LoadedTable", "fingerprint", "load_table"]
