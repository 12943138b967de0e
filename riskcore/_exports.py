"""A package's public names imported from their modules on first use (PEP 562).

A package ``__init__`` that lists its public names writes::

    __getattr__, __dir__ = lazy_exports(__name__, {"Lattice": "lattice", ...})

and importing the package stays cheap: ``from riskcore.deidentify.search import
search`` imports ``riskcore.deidentify.search.run`` then, not before. A module
path without a dot is the package's own submodule; a dotted one is absolute.
Each name is read once and kept in the package's namespace.

A package whose function has its submodule's name (``riskcore.metrics.suda``)
passes ``names_over_submodules=True``: importing the submodule then binds the
function, not the module, as the package's attribute.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, where: Mapping[str, str], *, names_over_submodules: bool = False
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Return a package's ``__getattr__`` and ``__dir__`` that import each name where it lives.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    where : mapping of str to str
        Each public name and the module that defines it: a submodule of the package
        (``"lattice"``) or an absolute module path (``"riskcore.utility.loss"``).
    names_over_submodules : bool, default False
        Keep a public name that is also its own submodule's name (``suda`` in
        ``suda``) bound to the name's object: Python binds a submodule as an
        attribute of its package when it is imported, which would otherwise
        replace the function with the module.

    Returns
    -------
    tuple of (callable, callable)
        ``__getattr__`` (raises AttributeError for a name not in ``where``, as a module
        does) and ``__dir__`` (the package's namespace and every name of ``where``).

    Examples
    --------
    >>> getattr_, dir_ = lazy_exports("riskcore", {"RiskcoreError": "riskcore.errors"})
    >>> getattr_("RiskcoreError").__name__
    'RiskcoreError'
    >>> "RiskcoreError" in dir_()
    True
    """

    def getattr_(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        path = module if "." in module else f"{package}.{module}"
        value = getattr(importlib.import_module(path), name)
        setattr(sys.modules[package], name, value)  # read once
        return value

    def dir_() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(where))

    if names_over_submodules:
        sys.modules[package].__class__ = _names_over_submodules(where)
    return getattr_, dir_


def _names_over_submodules(where: Mapping[str, str]) -> type[types.ModuleType]:
    """Return a module type whose submodule named like one of its names binds that name."""

    class Package(types.ModuleType):
        def __setattr__(self, name: str, value: Any) -> None:
            if isinstance(value, types.ModuleType) and where.get(name) == name:
                value = getattr(value, name)
            super().__setattr__(name, value)

    return Package
