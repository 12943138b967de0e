"""Remediation beyond one machine: the lattice search on an engine's class table, the release
written where the data lie.

========================  ===============================================================
module                    what
========================  ===============================================================
:mod:`.table`             :class:`SourceTable`: Parquet files on the arrow, duckdb or spark
                          engine, seen by the lattice as its level-0 class table
:mod:`.plan`              :func:`plan_node`: a node's generalization and suppression as
                          small tables (per-QI value maps, the failing classes' codes)
:mod:`.write`             :func:`write_node`: the release written by the engine as Parquet
                          (a file or a Hive-partitioned directory), never through pandas
:mod:`.run`               :func:`anonymize_source`, :func:`apply_recipe_to_source`: the
                          commands ``anonymize`` and ``apply`` with ``--engine``
========================  ===============================================================

The release is the same multiset of rows as the in-memory path's
(:func:`riskcore.deidentify.recipe_apply.apply_levels`) on tables that fit.
"""

from riskcore.deidentify.engines.plan import FailingSet, NodePlan, ValueMap, plan_node
from riskcore.deidentify.engines.run import (
    EngineRelease,
    anonymize_source,
    apply_recipe_to_source,
    hierarchy_values,
    record_steps,
)
from riskcore.deidentify.engines.table import REMEDIATION_ENGINES, SourceTable
from riskcore.deidentify.engines.write import check_out, write_node

__all__ = [
    "REMEDIATION_ENGINES",
    "EngineRelease",
    "FailingSet",
    "NodePlan",
    "SourceTable",
    "ValueMap",
    "anonymize_source",
    "apply_recipe_to_source",
    "check_out",
    "hierarchy_values",
    "plan_node",
    "record_steps",
    "write_node",
]
