"""Uniqueness per quasi-identifier subset, and each QI's contribution to it.

Which column drives the risk? For every single QI, and pairs and triples
within a budget, the share of records unique on that subset; and for each
QI, how many of the records unique on all QIs stop being unique when that QI
is removed. All subsets reuse the cached column codes of an
:class:`~riskcore.engine.EncodedTable`.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import pandas as pd

from riskcore._results import Result
from riskcore._validation import check_positive_int
from riskcore.engine import EncodedTable, Engine
from riskcore.errors import RolesError

__all__ = ["QIContribution", "SubsetUniqueness", "UniquenessResult", "subset_uniqueness"]


@dataclass(frozen=True)
class SubsetUniqueness(Result):
    """Records unique on one subset of the quasi-identifiers.

    Attributes
    ----------
    columns : tuple of str
    unique_records : int
        Records alone in their class over these columns.
    unique_share : float
        unique_records / n (lower is safer).
    n_classes : int
    k : int
    """

    columns: tuple[str, ...]
    unique_records: int
    unique_share: float
    n_classes: int
    k: int


@dataclass(frozen=True)
class QIContribution(Result):
    """How much one QI adds to uniqueness.

    Attributes
    ----------
    column : str
    unique_without : int
        Records unique on all the other QIs.
    drop : int
        Records that stop being unique when the column is removed
        (unique on all QIs minus unique without it).
    drop_share : float
        drop / records unique on all QIs: the share of the unique records
        this column is responsible for (0 when none are unique).
    """

    column: str
    unique_without: int
    drop: int
    drop_share: float


@dataclass(frozen=True)
class UniquenessResult(Result):
    """Uniqueness over all QIs, per subset, and per-QI contributions.

    Attributes
    ----------
    n_records : int
    all_qis : SubsetUniqueness
    subsets : tuple of SubsetUniqueness
        Singles, then pairs, then triples, as far as the budget allowed.
    contributions : tuple of QIContribution
        Largest drop first.
    complete : bool
        False when the budget stopped the enumeration early.
    """

    n_records: int
    all_qis: SubsetUniqueness
    subsets: tuple[SubsetUniqueness, ...]
    contributions: tuple[QIContribution, ...]
    complete: bool


def _unique_on(engine: Engine, cols: tuple[str, ...]) -> SubsetUniqueness:
    """Return uniqueness over ``cols`` from the engine's class sizes alone."""
    sizes = engine.class_sizes(cols)
    n = int(sizes.sum())
    u = int((sizes == 1).sum())
    return SubsetUniqueness(
        cols, u, u / n if n else 0.0, len(sizes), int(sizes.min()) if len(sizes) else 0
    )


def subset_uniqueness(
    table: Engine | pd.DataFrame,
    quasi_identifiers: list[str] | tuple[str, ...],
    *,
    max_size: int = 3,
    budget: int = 200,
) -> UniquenessResult:
    """Compute uniqueness per QI subset and each QI's contribution.

    Parameters
    ----------
    table : Engine or pandas.DataFrame
        An engine (an :class:`~riskcore.engine.EncodedTable` reuses its cached
        codes for every subset) or a table.
    quasi_identifiers : sequence of str
    max_size : int, default 3
        Largest subset size enumerated (1 = singles only).
    budget : int, default 200
        Most subsets enumerated (singles first, then pairs, then triples).

    Returns
    -------
    UniquenessResult
    """
    if not isinstance(table, Engine):
        table = EncodedTable(table)
    qis = tuple(quasi_identifiers)
    if not qis:
        raise RolesError("choose at least one quasi-identifier")
    check_positive_int("max_size", max_size)
    check_positive_int("budget", budget)
    full = _unique_on(table, qis)
    subsets: list[SubsetUniqueness] = []
    complete = True
    for size in range(1, min(max_size, len(qis)) + 1):
        for cols in combinations(qis, size):
            if len(subsets) >= budget:
                complete = False
                break
            subsets.append(full if cols == qis else _unique_on(table, cols))
    contributions = []
    for q in qis:
        rest = tuple(x for x in qis if x != q)
        u_without = _unique_on(table, rest).unique_records if rest else 0
        drop = full.unique_records - u_without
        share = drop / full.unique_records if full.unique_records else 0.0
        contributions.append(QIContribution(q, u_without, drop, share))
    contributions.sort(key=lambda c: (-c.drop, c.column))
    return UniquenessResult(
        n_records=table.n_records,
        all_qis=full,
        subsets=tuple(subsets),
        contributions=tuple(contributions),
        complete=complete and max_size >= min(3, len(qis)),
    )
