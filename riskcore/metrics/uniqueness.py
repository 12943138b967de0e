"""Uniqueness per quasi-identifier subset, and each QI's contribution to it.

Which column drives the risk? For every single QI, and pairs and triples
within a budget, the share of records unique on that subset; and for each
QI, how many of the records unique on all QIs stop being unique when that QI
is removed. All subsets reuse the cached column codes of an
:class:`~riskcore.engine.EncodedTable`.

With a person column (the rows of one individual linked) every count is of
people: on a subset S of the QIs a person's signature is the set of their
rows' tuples over S (:mod:`riskcore.engine.people`), a person is unique on S
when nobody else has the same signature over S, and the shares are of the
people. On one row per person this is the count of records.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._deprecation import renamed_arguments, renamed_attributes, renamed_keys
from riskcore._results import Migrations, Result
from riskcore._validation import check_positive_int
from riskcore.engine import EncodedTable, Engine
from riskcore.errors import RiskcoreError, RolesError
from riskcore.metrics.missing import (
    MissingPolicy,
    check_missing,
    compatible_sizes,
    known_mask,
)

__all__ = ["QIContribution", "SubsetUniqueness", "UniquenessResult", "subset_uniqueness"]


@dataclass(frozen=True)
class SubsetUniqueness(Result):
    """Records unique on one subset of the quasi-identifiers.

    Attributes
    ----------
    columns : tuple of str
    unique_records : int
        Records alone in their class over these columns (people, with a
        person column).
    unique_share : float
        unique_records / n, n the records (the people, with a person column;
        lower is safer).
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
        Records unique on all the other QIs (people, with a person column).
    drop : int
        Records (people) that stop being unique when the column is removed
        (unique on all QIs minus unique without it).
    drop_share : float
        drop / records unique on all QIs: the share of the unique records
        this column is responsible for (0 when none are unique).
    """

    column: str
    unique_without: int
    drop: int
    drop_share: float


def _from_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Upgrade a version 1 dict: ``all_qis`` became ``all_quasi_identifiers``."""
    out: dict[str, Any] = renamed_keys(data, {"all_qis": "all_quasi_identifiers"})
    return out


@renamed_attributes(all_qis="all_quasi_identifiers")
@dataclass(frozen=True)
class UniquenessResult(Result):
    """Uniqueness over all QIs, per subset, and per-QI contributions.

    Attributes
    ----------
    n_records : int
        The rows of the table.
    all_quasi_identifiers : SubsetUniqueness
        Uniqueness over every quasi-identifier together (``all_qis`` before schema
        version 2: JSON of version 1 still reads, and the old attribute with a
        DeprecationWarning).
    subsets : tuple of SubsetUniqueness
        Singles, then pairs, then triples, as far as the budget allowed.
    contributions : tuple of QIContribution
        Largest drop first.
    complete : bool
        False when the budget stopped the enumeration early.
    person : str or None
        The column linking the rows of one person: every count and share is
        of people (None: each row is taken to be a different person).
    n_people : int or None
        The people (with a person column).
    """

    #: 2: ``all_qis`` renamed ``all_quasi_identifiers`` (version 1 still reads).
    schema_version: ClassVar[int] = 2
    migrations: ClassVar[Migrations] = {1: _from_v1}

    n_records: int
    all_quasi_identifiers: SubsetUniqueness
    subsets: tuple[SubsetUniqueness, ...]
    contributions: tuple[QIContribution, ...]
    complete: bool
    person: str | None = None
    n_people: int | None = None

    @property
    def n_units(self) -> int:
        """Return what the counts are of: the people with a person column, else the records."""
        return self.n_records if self.n_people is None else self.n_people


def _unique_on(
    engine: Engine, cols: tuple[str, ...], missing: MissingPolicy = "own", person: str | None = None
) -> SubsetUniqueness:
    """Return uniqueness over ``cols`` from the engine's class sizes alone.

    Under the missing-value policy "any" (:mod:`riskcore.metrics.missing`) a
    record is unique when no other record agrees with it wherever both are
    known (f_k = 1), and k = min f_k; this needs the class table (the QI
    values of each class), which :class:`~riskcore.engine.EncodedTable` gives.
    With a person column (an :class:`~riskcore.engine.EncodedTable` only) the
    classes are people grouped by their signature over ``cols``.
    """
    if person is None:
        sizes = engine.class_sizes(cols)
    elif isinstance(engine, EncodedTable):
        sizes = engine.class_sizes(cols, person=person)
    else:  # pragma: no cover - subset_uniqueness refuses another engine with a person
        raise RiskcoreError("uniqueness in people needs the in-memory engine")
    n = int(sizes.sum())
    u = int((sizes == 1).sum())
    k = int(sizes.min()) if len(sizes) else 0
    if missing == "any" and isinstance(engine, EncodedTable):
        classes = engine.classes(cols, person=person)
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
    person: str | None = None,
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
    person : str, optional
        The column linking the rows of one person: a person is unique on a
        subset when no one else holds the same set of tuples over it, and
        every count and share is of people. Needs an
        :class:`~riskcore.engine.EncodedTable` (a table is wrapped in one).
        Under ``missing="any"`` each person's QIs must be one tuple (refused
        otherwise, as everywhere).

    Returns
    -------
    UniquenessResult

    Raises
    ------
    RolesError
        For no QI, an unknown column, or a person column that is also a QI.
    RiskcoreError
        Under ``missing="any"``, when people's rows carry several QI tuples.

    Examples
    --------
    Person a has two visits at ages 30 and 31, person b one at 30, person c
    one at 40: on age, a's signature {30, 31} is theirs alone, and so are b's
    {30} and c's {40}, so all three people are unique (the rows would count 2
    unique of 4).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"pid": ["a", "a", "b", "c"], "age": [30, 31, 30, 40]})
    >>> r = subset_uniqueness(df, ["age"], person="pid")
    >>> r.all_quasi_identifiers.unique_records, r.n_units
    (3, 3)
    >>> subset_uniqueness(df, ["age"]).all_quasi_identifiers.unique_records
    2
    """
    if not isinstance(data, Engine):
        data = EncodedTable(data)
    if person is not None and not isinstance(data, EncodedTable):
        raise RiskcoreError(f"uniqueness in people needs the in-memory engine, not {data.name!r}")
    qis = tuple(quasi_identifiers)
    if not qis:
        raise RolesError("choose at least one quasi-identifier")
    if person is not None:
        if person in qis:
            raise RolesError(f"the person column {person!r} cannot be a quasi-identifier too")
        if person not in data.columns:
            raise RolesError(f"the table has no person column {person!r}")
    check_positive_int("max_size", max_size)
    check_positive_int("budget", budget)
    missing = check_missing(missing)
    full = _unique_on(data, qis, missing, person)
    subsets: list[SubsetUniqueness] = []
    complete = True
    for size in range(1, min(max_size, len(qis)) + 1):
        for cols in combinations(qis, size):
            if len(subsets) >= budget:
                complete = False
                break
            subsets.append(full if cols == qis else _unique_on(data, cols, missing, person))
    contributions = []
    for q in qis:
        rest = tuple(x for x in qis if x != q)
        u_without = _unique_on(data, rest, missing, person).unique_records if rest else 0
        drop = full.unique_records - u_without
        share = drop / full.unique_records if full.unique_records else 0.0
        contributions.append(QIContribution(q, u_without, drop, share))
    contributions.sort(key=lambda c: (-c.drop, c.column))
    return UniquenessResult(
        n_records=data.n_records,
        all_quasi_identifiers=full,
        subsets=tuple(subsets),
        contributions=tuple(contributions),
        complete=complete and max_size >= min(3, len(qis)),
        person=person,
        n_people=None if person is None else int(data.class_sizes(qis, person=person).sum()),
    )
