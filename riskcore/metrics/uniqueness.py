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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore._results import Result
from riskcore._validation import check_positive_int
from riskcore.engine import EncodedTable, Engine
from riskcore.errors import RolesError
from riskcore.metrics.missing import MissingPolicy, check_missing, compatible_sizes, known_mask

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
        The column's name.
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


def _unique_on(
    engine: Engine, cols: tuple[str, ...], missing: MissingPolicy = "own"
) -> SubsetUniqueness:
    """Return uniqueness over ``cols`` from the engine's class sizes alone.

    Under the missing-value policy "any" (:mod:`riskcore.metrics.missing`) a
    record is unique when no other record agrees with it wherever both are
    known (f_k = 1), and k = min f_k; this needs the class table (the QI
    values of each class), which :class:`~riskcore.engine.EncodedTable` gives.
    """
    sizes = engine.class_sizes(cols)
    n = int(sizes.sum())
    u = int((sizes == 1).sum())
    k = int(sizes.min()) if len(sizes) else 0
    if missing == "any" and isinstance(engine, EncodedTable):
        classes = engine.classes(cols)
        if not known_mask(classes).all():
            fk = compatible_sizes(classes)
            u, k = int(classes.sizes[fk == 1].sum()), int(fk.min())
    return SubsetUniqueness(cols, u, u / n if n else 0.0, len(sizes), k)


@renamed_arguments(table="data")
def subset_uniqueness(
    data: Engine | pd.DataFrame,
    quasi_identifiers: list[str] | tuple[str, ...],
    *,
    max_size: int = 3,
    budget: int = 200,
    missing: MissingPolicy = "own",
) -> UniquenessResult:
    """Compute uniqueness per QI subset and each QI's contribution.

    Parameters
    ----------
    data : Engine or pandas.DataFrame
        An engine (an :class:`~riskcore.engine.EncodedTable` reuses its cached
        codes for every subset) or a table.
    quasi_identifiers : sequence of str
        The quasi-identifier columns.
    max_size : int, default 3
        Largest subset size enumerated (1 = singles only).
    budget : int, default 200
        Most subsets enumerated (singles first, then pairs, then triples).
    missing : {"own", "any"}, default "own"
        The missing-value policy (:mod:`riskcore.metrics.missing`); "any"
        needs an :class:`~riskcore.engine.EncodedTable` (a table is wrapped in one).

    Returns
    -------
    UniquenessResult
    """
    if not isinstance(data, Engine):
        data = EncodedTable(data)
    qis = tuple(quasi_identifiers)
    if not qis:
        raise RolesError("choose at least one quasi-identifier")
    check_positive_int("max_size", max_size)
    check_positive_int("budget", budget)
    missing = check_missing(missing)
    full = _unique_on(data, qis, missing)
    subsets: list[SubsetUniqueness] = []
    complete = True
    for size in range(1, min(max_size, len(qis)) + 1):
        for cols in combinations(qis, size):
            if len(subsets) >= budget:
                complete = False
                break
            subsets.append(full if cols == qis else _unique_on(data, cols, missing))
    contributions = []
    for q in qis:
        rest = tuple(x for x in qis if x != q)
        u_without = _unique_on(data, rest, missing).unique_records if rest else 0
        drop = full.unique_records - u_without
        share = drop / full.unique_records if full.unique_records else 0.0
        contributions.append(QIContribution(q, u_without, drop, share))
    contributions.sort(key=lambda c: (-c.drop, c.column))
    return UniquenessResult(
        n_records=data.n_records,
        all_qis=full,
        subsets=tuple(subsets),
        contributions=tuple(contributions),
        complete=complete and max_size >= min(3, len(qis)),
    )
