"""The built-in demo: a seeded synthetic population, an outpatient claims table and the story.

``demo`` / ``demo:N`` on the command line is :func:`make_people` (one row per
person); ``claims`` / ``claims:N`` is :func:`make_claims` (N patients, 1-10
visits each: many rows per person, the person column ``patient_id``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from riskcore._exports import lazy_exports
from riskcore.io._source import is_demo

if TYPE_CHECKING:
    import pandas as pd

    from riskcore.demo.claims import make_claims
    from riskcore.demo.people import make_people

__all__ = ["is_demo", "load_demo", "make_claims", "make_people"]

#: The generators, imported when first read (PEP 562): :func:`is_demo` is asked by the
#: command line before it knows whether pandas is needed at all.
_WHERE = {"make_people": "people", "make_claims": "claims"}


__getattr__, __dir__ = lazy_exports(__name__, _WHERE)


def load_demo(spec: str) -> pd.DataFrame:
    """Return the demo data a data argument names (:func:`is_demo`).

    Parameters
    ----------
    spec : str
        ``demo`` (32,561 people), ``demo:N`` (N people), ``claims`` (2,500
        patients' visits) or ``claims:N`` (N patients' visits).

    Returns
    -------
    pandas.DataFrame

    Raises
    ------
    RiskcoreError
        When N is not a number or out of range.
    """
    from riskcore.demo.claims import make_claims
    from riskcore.demo.people import make_people
    from riskcore.errors import RiskcoreError

    head, _, count = spec.partition(":")
    n = 32_561 if head == "demo" else 2_500
    if count:
        try:
            n = int(count.replace(",", "").replace("_", ""))
        except ValueError:
            raise RiskcoreError(f"{spec!r}: write {head}:N with N a number") from None
    try:
        return make_people(n) if head == "demo" else make_claims(n)
    except (TypeError, ValueError) as exc:
        raise RiskcoreError(str(exc)) from None
