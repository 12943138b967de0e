"""Engines: turn (table, QIs, sensitive attributes) into class sizes and contingencies.

Every metric in :mod:`riskcore.metrics` is a function of what an engine
returns (see :mod:`riskcore.engine.contract`); the in-memory engine
(:class:`EncodedTable`) is the only engine today.
"""

from riskcore.engine.contract import ClassTable, Contingency, Engine, Tabulation
from riskcore.engine.memory import EncodedTable
from riskcore.engine.partition import (
    EncodedColumn,
    Partition,
    build_partition,
    class_table,
    class_value_counts,
    encode_column,
    pack_keys,
)

__all__ = [
    "ClassTable",
    "Contingency",
    "EncodedColumn",
    "EncodedTable",
    "Engine",
    "Partition",
    "Tabulation",
    "build_partition",
    "class_table",
    "class_value_counts",
    "encode_column",
    "pack_keys",
]
