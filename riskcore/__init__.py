"""riskcore: exact, vectorized privacy-risk assessment (no Streamlit here).

The package is layered (see ARCHITECTURE.md); each layer imports only those
below it:

io
    :func:`load_table`: CSV / TSV / Parquet / xlsx from a path or bytes, safely.
roles
    :class:`ColumnRoles` and :func:`suggest_roles`.
engine
    The engine contract (class table + sparse class x value contingency) and
    the in-memory engine :class:`EncodedTable`.
metrics
    k, l, t, prosecutor / journalist / marketer risk, population and subset
    uniqueness, all from the contract; :func:`assess`.
attacks, deidentify, dp
    Linkage, differencing, homogeneity, two releases; generalization;
    differential privacy, OpenDP releases and local DP.
report
    Every plain-language reading, display table and plotly figure.
demo, cli
    The built-in demo and ``python -m riskcore``.

The names below are imported lazily on first use, so ``import riskcore``
(and ``python -m riskcore --help``) does not load pandas, scipy or OpenDP.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from riskcore._exports import lazy_exports
from riskcore._moved import install as _install_moved
from riskcore.errors import DataLoadError, PrivacyLeakWarning, RiskcoreError, RolesError

_install_moved()  # the modules that moved (issue 40) still import from their old paths

if TYPE_CHECKING:
    from riskcore.engine import EncodedTable
    from riskcore.io import LoadedTable, LoadLimits, load_table
    from riskcore.metrics import Assessment, Population, assess, class_table
    from riskcore.roles import ColumnRoles, RoleSuggestion, suggest_roles

__version__ = "0.2.0"

_WHERE: dict[str, str] = {
    "Assessment": "riskcore.metrics",
    "ColumnRoles": "riskcore.roles",
    "EncodedTable": "riskcore.engine",
    "LoadLimits": "riskcore.io",
    "LoadedTable": "riskcore.io",
    "Population": "riskcore.metrics",
    "RoleSuggestion": "riskcore.roles",
    "assess": "riskcore.metrics",
    "class_table": "riskcore.metrics",
    "load_table": "riskcore.io",
    "suggest_roles": "riskcore.roles",
}

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


__getattr__, __dir__ = lazy_exports(__name__, _WHERE)
