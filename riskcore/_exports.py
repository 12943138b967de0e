"""A package's public names imported from their modules on first use (PEP 562).

A package ``__init__`` that lists its public names writes::

    __getattr__, __dir__ = lazy_exports(__name__, {"Lattice": "lattice", ...})

and importing the package stays cheap: ``from riskcore.deidentify.search import
search`` imports ``riskcore.deidentify.search.run`` then, not before. A module
path without a dot is the package's own submodule; a dotted one is absolute.
Each name is read once and kept in the package's namespace; a renamed one
(``renamed``) is read each time, with a DeprecationWarning naming the importing line.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, where: Mapping[str, str], renamed: Mapping[str, tuple[str, str]] | None = None
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Return a package's ``__getattr__`` and ``__dir__`` that import each name where it lives.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    where : mapping of str to str
        Each public name and the module that defines it: a submodule of the package
        (``"lattice"``) or an absolute module path (``"riskcore.utility.loss"``).
    renamed : mapping of str to (str, str), optional
        Each old public name, the name of ``where`` it now is, and the warning's message
        (``{"Step": ("AppliedStep", "... Step is deprecated; use AppliedStep")}``): never
        kept in the namespace, so every read warns at the reader's line.

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

    old_names = dict(renamed or {})

    def getattr_(name: str) -> Any:
        if name in old_names:
            new, message = old_names[name]
            warnings.warn(message, DeprecationWarning, stacklevel=2)
            return getattr_(new)
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        path = module if "." in module else f"{package}.{module}"
        value = getattr(importlib.import_module(path), name)
        setattr(sys.modules[package], name, value)  # read once
        return value

    def dir_() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(where) | set(old_names))

    return getattr_, dir_
