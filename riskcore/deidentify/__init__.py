"""De-identification: hierarchies, full-domain generalization with suppression, the
least-loss lattice search, loss metrics and re-appliable recipes (masking and Safe Harbor
beside them).

The central names are importable from here (``from riskcore.deidentify import
apply_recipe``); each is imported from its module on first use (PEP 562), so importing the
package stays cheap:

:class:`~riskcore.deidentify.lattice.Lattice`, :class:`~riskcore.deidentify.search.SearchResult`,
:class:`~riskcore.deidentify.recipe.Recipe`, :func:`~riskcore.deidentify.recipe_apply.apply_recipe`,
:func:`~riskcore.deidentify.safe_harbor.apply_safe_harbor` and
:func:`~riskcore.deidentify.safe_harbor.safe_harbor_check`. The search itself is
``riskcore.deidentify.search.search`` (the package's ``search`` is its module).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from riskcore.deidentify.lattice import Lattice
    from riskcore.deidentify.recipe import Recipe
    from riskcore.deidentify.recipe_apply import apply_recipe
    from riskcore.deidentify.safe_harbor import apply_safe_harbor, safe_harbor_check
    from riskcore.deidentify.search import SearchResult

_LAZY: dict[str, str] = {
    "Lattice": "riskcore.deidentify.lattice",
    "Recipe": "riskcore.deidentify.recipe",
    "SearchResult": "riskcore.deidentify.search",
    "apply_recipe": "riskcore.deidentify.recipe_apply",
    "apply_safe_harbor": "riskcore.deidentify.safe_harbor",
    "safe_harbor_check": "riskcore.deidentify.safe_harbor",
}

__all__ = [
    "Lattice",
    "Recipe",
    "SearchResult",
    "apply_recipe",
    "apply_safe_harbor",
    "safe_harbor_check",
]


def __getattr__(name: str) -> Any:
    """Import a public name on first use (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'riskcore.deidentify' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])
