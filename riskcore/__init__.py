"""riskcore: exact, vectorized privacy-risk assessment (no Streamlit here).

Modules
-------
loader
    :func:`load_table`: CSV / Parquet / xlsx from a path or bytes, safely.
roles
    :class:`ColumnRoles` and :func:`suggest_roles`.
partition
    Column encoding, the one partition into equivalence classes, and the
    sparse class x sensitive-value contingency (the heavy step).
metrics
    k-anonymity, prosecutor / journalist / marketer risk, l-diversity,
    t-closeness, all from the partition and contingency.
assess
    :func:`assess`: one partition, every metric; :class:`EncodedTable`.
uniqueness
    Uniqueness per QI subset and each QI's contribution.
population
    Population uniqueness estimates (Zayatz, Pitman, SNB, Dankar et al.).
demo
    :func:`make_people`: the seeded demo table.
cli
    ``python -m riskcore assess ...``.
"""

from riskcore.engine import EncodedTable
from riskcore.errors import DataLoadError, PrivacyLeakWarning, RiskcoreError, RolesError
from riskcore.io import LoadedTable, LoadLimits, load_table
from riskcore.metrics import Assessment, Population, assess, class_table
from riskcore.roles import ColumnRoles, RoleSuggestion, suggest_roles

__version__ = "0.1.0"

__all__ = [
    "Assessment",
    "ColumnRoles",
    "DataLoadError",
    "EncodedTable",
    "LoadLimits",
    "LoadedTable",
    "Population",
    "PrivacyLeakWarning",
    "RiskcoreError",
    "RoleSuggestion",
    "RolesError",
    "assess",
    "class_table",
    "load_table",
    "suggest_roles",
]
