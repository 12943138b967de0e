"""Modules that moved (issue 40): the old paths still import, with a DeprecationWarning.

``riskcore.deidentify.lattice`` is now ``riskcore.deidentify.search.lattice``, and so on
for every entry of :data:`MOVED`. Importing an old path gives a stand-in module whose
every attribute is the new module's own object (the same class, the same function), and
warns once with the new path. The stand-in never re-binds the new module's name, so
pickles, ``isinstance`` and the API reference see one module. The finder is installed by
``riskcore/__init__.py``; ``tests/riskcore/test_moved_modules.py`` imports every old path.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings
from collections.abc import Sequence
from typing import Any

__all__ = ["MOVED", "MOVED_NAMES", "install"]

#: Each old module path and where its code lives now.
MOVED: dict[str, str] = {
    "riskcore.deidentify._recipe_seal": "riskcore.deidentify.recipe.seal",
    "riskcore.deidentify._step_parameters": "riskcore.deidentify.recipe.parameters",
    "riskcore.deidentify.candidates": "riskcore.deidentify.search.candidates",
    "riskcore.deidentify.cover": "riskcore.deidentify.search.cover",
    "riskcore.deidentify.engines": "riskcore.deidentify.on_engine",
    "riskcore.deidentify.engines.plan": "riskcore.deidentify.on_engine",
    "riskcore.deidentify.engines.run": "riskcore.deidentify.on_engine",
    "riskcore.deidentify.engines.table": "riskcore.engine.source",
    "riskcore.deidentify.engines.write": "riskcore.engine.release",
    "riskcore.deidentify.hierarchy.preview": "riskcore.deidentify.hierarchy.level_groups",
    "riskcore.deidentify.history_measure": "riskcore.deidentify.history.measure",
    "riskcore.deidentify.history_script": "riskcore.deidentify.history.script",
    "riskcore.deidentify.lattice": "riskcore.deidentify.search.lattice",
    "riskcore.deidentify.lattice_losses": "riskcore.deidentify.search.losses",
    "riskcore.deidentify.loss": "riskcore.utility.loss",
    "riskcore.deidentify.node": "riskcore.deidentify.search.node",
    "riskcore.deidentify.node_losses": "riskcore.deidentify.search.node_losses",
    "riskcore.deidentify.objectives": "riskcore.utility.objectives",
    "riskcore.deidentify.population": "riskcore.deidentify.search.population",
    "riskcore.deidentify.recipe_apply": "riskcore.deidentify.recipe.apply",
    "riskcore.deidentify.recipe_check": "riskcore.deidentify.recipe.check",
    "riskcore.deidentify.recipe_identifiers": "riskcore.deidentify.recipe.identifiers",
    "riskcore.deidentify.rollup": "riskcore.deidentify.search.rollup",
    "riskcore.deidentify.signatures": "riskcore.deidentify.search.signatures",
    "riskcore.deidentify.steering": "riskcore.deidentify.search.steering",
    "riskcore.deidentify.steps": "riskcore.deidentify.recipe.steps",
    "riskcore.dp.identifiability": "riskcore.dp.reidentification_bound",
    "riskcore.dp.sensitivity": "riskcore.dp.global_sensitivity",
    "riskcore.io.fingerprint": "riskcore.io.digest",
    "riskcore.metrics.suda": "riskcore.metrics.special_uniques",
    "riskcore.metrics.utility": "riskcore.utility.tables",
    "riskcore.perturb.utility": "riskcore.utility.numeric",
    "riskcore.store.ledger_reading": "riskcore.store.ledgers",
}


#: Names an old module offered that live elsewhere now (beside :data:`MOVED`'s module):
#: the module that holds the name, or ``"module:name"`` for a name that is gone into another
#: (``LedgerReader``, the reading half of the budget store, is the store itself).
MOVED_NAMES: dict[str, dict[str, str]] = {
    "riskcore.deidentify.recipe_apply": {
        "apply_levels": "riskcore.deidentify.search.lattice",
        "Lattice": "riskcore.deidentify.search.lattice",
        "generalize_columns": "riskcore.deidentify.recipe.base",
    },
    "riskcore.store.ledger_reading": {"LedgerReader": "riskcore.store.ledgers:BudgetStore"},
}


class _Moved(types.ModuleType):
    """The stand-in of a moved module: every attribute read from the new module."""

    def __init__(self, name: str, target: str) -> None:
        super().__init__(name, f"Moved to {target}.")
        self.__target = target

    def __getattr__(self, attr: str) -> Any:
        elsewhere = MOVED_NAMES.get(self.__name__, {}).get(attr)
        module, _, name = (elsewhere or self.__target).partition(":")
        return getattr(importlib.import_module(module), name or attr)

    def __dir__(self) -> list[str]:
        names = dir(importlib.import_module(self.__target))
        return sorted({*names, *MOVED_NAMES.get(self.__name__, {})})


class _KeepsItsNames(types.ModuleType):
    """A package one of whose names is also an old module path's last part.

    Importing a module binds it as an attribute of its package: the stand-in of
    ``riskcore.metrics.suda`` would replace the function ``riskcore.metrics.suda``. A
    stand-in never replaces a package's name that is not a module.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        kept = vars(self).get(name)
        if isinstance(value, _Moved) and not isinstance(kept, types.ModuleType | None):
            return
        super().__setattr__(name, value)


def _keep_name(old: str) -> None:
    """Keep the name of ``old``'s package that ``old``'s last part names (a function)."""
    package, _, child = old.rpartition(".")
    parent = sys.modules.get(package)
    value = None if parent is None else getattr(parent, child, None)  # a lazy name is read
    if value is None or isinstance(value, types.ModuleType):
        return  # no such name, or a module: the stand-in is bound as any submodule is
    if not isinstance(parent, _KeepsItsNames):
        parent.__class__ = type(type(parent).__name__, (_KeepsItsNames, type(parent)), {})


class _MovedFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old module path of :data:`MOVED` and loads its stand-in."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        parent = any(old.startswith(fullname + ".") for old in MOVED)  # engines.table's engines
        return importlib.machinery.ModuleSpec(fullname, self, is_package=parent)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        new = MOVED[spec.name]
        warnings.warn(
            f"{spec.name} moved to {new}; import it from there",
            DeprecationWarning,
            stacklevel=2,  # 3.11 skips importlib's frames: the importing line
        )
        importlib.import_module(new)  # an error in the new module shows at the import
        _keep_name(spec.name)
        return _Moved(spec.name, new)

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the stand-in reads the new module."""


def install() -> None:
    """Put the finder of moved modules on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _MovedFinder) for f in sys.meta_path):
        # first: a leftover folder of an old path (only __pycache__ after an upgrade in
        # place) would otherwise import as an empty namespace package
        sys.meta_path.insert(0, _MovedFinder())
