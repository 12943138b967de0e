"""De-identification: hierarchies, full-domain generalization with suppression, the
least-loss lattice search, loss metrics and re-appliable recipes (masking and Safe Harbor
beside them).

The central names are importable from here (``from riskcore.deidentify import
apply_recipe``); each is imported from its module on first use (PEP 562), so importing the
package stays cheap:

:class:`~riskcore.deidentify.search.lattice.Lattice`,
:class:`~riskcore.deidentify.search.run.SearchResult`,
:class:`~riskcore.deidentify.recipe.base.Recipe`,
:func:`~riskcore.deidentify.recipe.apply.apply_recipe`,
:func:`~riskcore.deidentify.safe_harbor.apply_safe_harbor` and
:func:`~riskcore.deidentify.safe_harbor.safe_harbor_check`. The search itself is
``riskcore.deidentify.search.search``; the packages group the code by concern:
:mod:`~riskcore.deidentify.search` (the lattice and the least-loss search),
:mod:`~riskcore.deidentify.recipe` (what was done, re-appliable),
:mod:`~riskcore.deidentify.history` (a session's steps), :mod:`~riskcore.deidentify.hierarchy`,
:mod:`~riskcore.deidentify.masking` and :mod:`~riskcore.deidentify.safe_harbor`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from riskcore._exports import lazy_exports

if TYPE_CHECKING:
    from riskcore.deidentify.recipe.apply import apply_recipe
    from riskcore.deidentify.recipe.base import Recipe
    from riskcore.deidentify.safe_harbor import apply_safe_harbor, safe_harbor_check
    from riskcore.deidentify.search.lattice import Lattice
    from riskcore.deidentify.search.run import SearchResult

_WHERE: dict[str, str] = {
    "Lattice": "riskcore.deidentify.search.lattice",
    "Recipe": "riskcore.deidentify.recipe.base",
    "SearchResult": "riskcore.deidentify.search.run",
    "apply_recipe": "riskcore.deidentify.recipe.apply",
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

__getattr__, __dir__ = lazy_exports(__name__, _WHERE)
