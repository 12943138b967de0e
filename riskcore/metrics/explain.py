"""One record explained: why it is risky, which of its values it shares, the riskiest first.

What the Records page shows of one record, answered on the engine
(:meth:`~riskcore.engine.EncodedTable.record_classes` gives each record's
class; no Python loop runs over records):

- :func:`explain_record`: its class, its minimal sample uniques, the QI that
  contributes most.
- :func:`record_subsets`: for combinations of its QI values, the records
  sharing them (computed on the class table).
- :func:`riskiest_rows`: every row, the riskiest record first.
- :func:`row_position`: a row number checked.

With a person column (the rows of one individual linked, ``person=``) the
unit is the person, as in every class figure (:mod:`riskcore.engine.people`):
a row's class is its person's class of people (the people whose rows carry
the same set of QI tuples), its class size counts those people, "sharing" a
value or a combination of values counts the people holding it on at least one
of their rows, and the riskiest rows are ranked by their person's risk (every
row of a person carries it).

The risk of every record (individual risk, the records table) is in
:mod:`riskcore.metrics.records`. Rows are numbered from 1 (the first data
row is row 1), as in the records table a user downloads. In-memory engine
only (:class:`~riskcore.engine.EncodedTable`), as there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore._results import Result
from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError
from riskcore.metrics.missing import MissingPolicy
from riskcore.metrics.records import _matching, _person_check, _qis
from riskcore.metrics.special_uniques import SudaResult, suda

__all__ = [
    "ALL_SUBSETS_UP_TO",
    "RecordExplanation",
    "explain_record",
    "record_subsets",
    "riskiest_rows",
    "row_position",
]


def row_position(row: object, n: int) -> int:
    """Return the 0-based position of a row number (the first data row is 1), checked.

    Parameters
    ----------
    row : object
        The row number asked for.
    n : int
        The number of rows.

    Returns
    -------
    int
        From 0 to ``n - 1``.

    Raises
    ------
    RiskcoreError
        When ``row`` is not an integer from 1 to ``n`` (a bool is not).
    """
    if isinstance(row, bool) or not isinstance(row, (int, np.integer)) or not 1 <= row <= n:
        raise RiskcoreError(f"row must be a row number from 1 to {n:,}, not {row!r}")
    return int(row) - 1


@dataclass(frozen=True)
class RecordExplanation(Result):
    """Why one record is risky: its class, its minimal sample uniques, the QI that matters most.

    Attributes
    ----------
    row : int
        Row number (the first data row is 1).
    quasi_identifiers : tuple of str
        The quasi-identifier columns.
    values : tuple of str or None
        The record's value of each QI as text (None when missing); never a
        direct identifier.
    class_size : int
        f_j: records sharing all its QI values (itself included); f_k under
        the missing-value policy "any". With a person column, the people of
        its person's class (its person included).
    value_counts : tuple of int
        Per QI, the records sharing the record's value of that QI alone (the
        people holding it on at least one row, with a person column).
    msus : tuple of tuple of str
        Its minimal sample uniques, each as the QIs it is made of, smallest
        first (:meth:`SudaResult.msus_of`).
    suda_score, dis_suda : float
    top_qi : str
        The QI contributing most: the largest share of the record's SUDA
        score; when the record has no MSU, the QI whose value it shares with
        the fewest records.
    top_basis : str
        "suda" or "rarest value": how ``top_qi`` was chosen.
    top_share : float
        The top QI's share of the SUDA score (0 when ``top_basis`` is
        "rarest value").
    person : str or None
        The column linking the rows of one person (None: each row is taken to
        be a different person).
    person_rows : int
        The rows of the row's person (1 without a person column).
    person_tuples : int
        The distinct QI tuples on those rows (1 without a person column).
    searched : bool
        False when the special uniques were not searched
        (:func:`~riskcore.metrics.special_uniques.suda_not_searched`): no MSU is known,
        the scores are NaN.
    """

    row: int
    quasi_identifiers: tuple[str, ...]
    values: tuple[str | None, ...]
    class_size: int
    value_counts: tuple[int, ...]
    msus: tuple[tuple[str, ...], ...]
    suda_score: float
    dis_suda: float
    top_qi: str
    top_basis: str
    top_share: float
    person: str | None = None
    person_rows: int = 1
    person_tuples: int = 1
    searched: bool = True


def _people_sharing(person_of_row: np.ndarray, hit: np.ndarray) -> int:
    """Return the distinct people among the rows where ``hit`` is True."""
    return len(np.unique(person_of_row[hit]))


@renamed_arguments(qis="quasi_identifiers")
def explain_record(
    data: EncodedTable | pd.DataFrame,
    quasi_identifiers: Sequence[str],
    row: int,
    *,
    suda_result: SudaResult | None = None,
    max_msu_size: int | None = None,
    dis_fraction: float = 0.01,
    missing: MissingPolicy = "own",
    person: str | None = None,
) -> RecordExplanation:
    """Explain one record's risk: class size, MSUs, the QI contributing most.

    Parameters
    ----------
    data : EncodedTable or pandas.DataFrame
        The table, or its encoded form (whose codes are cached).
    quasi_identifiers : sequence of str
        The quasi-identifier columns.
    row : int
        Row number, the first data row being 1 (as in :func:`record_risk`).
    suda_result : SudaResult, optional
        SUDA already computed on the same table and QIs (reused; otherwise
        computed with ``max_msu_size`` and ``dis_fraction``).
    max_msu_size : int, optional
        The largest MSU searched (default: the number of QIs).
    dis_fraction : float, default 0.01
        The sampling fraction of the DIS-SUDA score (sdcMicro's default).
    missing : {"own", "any"}, default "own"
        The missing-value policy of the class size (f_k under "any",
        :mod:`riskcore.metrics.missing`).
    person : str, optional
        The column linking the rows of one person: the row is explained as
        its person (their class of people, the people sharing each value, the
        person's special uniques); ``suda_result`` must be in people too.

    Returns
    -------
    RecordExplanation

    Raises
    ------
    RiskcoreError
        When the row number is outside 1 .. n, or the SUDA result given is of
        other QIs, another table or another unit.

    Examples
    --------
    Person a has rows at ages 30 and 31, person b one row at 30: row 2 (a at
    31) is a's, whose class of people ({30, 31}) holds a alone; age 31 is
    held by one person, and 30 by two (a and b).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"pid": ["a", "a", "b"], "age": [30, 31, 30]})
    >>> from riskcore.metrics.special_uniques import suda_not_searched
    >>> e = explain_record(df, ["age"], 2, person="pid",
    ...                    suda_result=suda_not_searched(df, ["age"], person="pid"))
    >>> e.class_size, e.value_counts, e.person_rows, e.person_tuples
    (1, (1,), 2, 2)
    """
    from riskcore._values import value_text

    table = data if isinstance(data, EncodedTable) else EncodedTable(data)
    q = _qis(table, quasi_identifiers)
    _person_check(table, q, person)
    n = table.n_records
    pos = row_position(row, n)
    if suda_result is None:
        suda_result = suda(
            table, q, max_size=max_msu_size, dis_fraction=dis_fraction, person=person
        )
    elif (
        suda_result.quasi_identifiers != q
        or suda_result.n_records != n
        or suda_result.person != person
    ):
        raise RiskcoreError("the SUDA result given was computed on other QIs or another table")
    cls, sizes, _ = _matching(table, q, missing, person)
    size = int(sizes[cls[pos]])
    person_rows = person_tuples = 1
    who: np.ndarray | None = None
    if person is not None:
        people = table.partition(q, person=person).people
        assert people is not None  # noqa: S101 - a person partition
        who = people.person
        person_rows = int(np.count_nonzero(who == who[pos]))
        person_tuples = int(people.classes.lengths[people.classes.owner_class[who[pos]]])
    counts = []
    for name in q:
        enc = table.column(name)
        hit = enc.codes == enc.codes[pos]
        counts.append(int(np.count_nonzero(hit)) if who is None else _people_sharing(who, hit))
    values = tuple(value_text(table.df[name].iloc[pos]) for name in q)
    contrib = suda_result.contribution[pos]
    score = float(suda_result.score[pos])
    if score > 0:
        i = int(np.argmax(contrib))
        basis, share = "suda", float(contrib[i])
    else:
        i = int(np.argmin(counts))
        basis, share = "rarest value", 0.0
    return RecordExplanation(
        row=int(row),
        quasi_identifiers=q,
        values=values,
        class_size=size,
        value_counts=tuple(counts),
        msus=suda_result.msus_of(pos),
        suda_score=score,
        dis_suda=float(suda_result.dis_score[pos]),
        top_qi=q[i],
        top_basis=basis,
        top_share=share,
        person=person,
        person_rows=person_rows,
        person_tuples=person_tuples,
        searched=suda_result.searched,
    )


#: Up to this many QIs every combination of a record's values is counted (2^m - 1 of them);
#: above, the combinations of at most three values, the MSUs and all the QIs together.
ALL_SUBSETS_UP_TO = 10


@renamed_arguments(qis="quasi_identifiers")
def record_subsets(
    data: EncodedTable | pd.DataFrame,
    quasi_identifiers: Sequence[str],
    row: int,
    *,
    msus: Sequence[Sequence[str]] = (),
    person: str | None = None,
) -> pd.DataFrame:
    r"""Count, for combinations of one record's QI values, the records sharing them.

    For a set S of QIs, the count is :math:`|\{i : x_{iq} = x_{rq}\ \forall q \in S\}|`,
    record r itself included (a missing value matches only a missing value,
    as in the class sizes). It is computed on the class table, never on the
    rows: each class c gets the bit pattern of the QIs on which it agrees
    with r's class, the class sizes are summed per pattern, and the count of
    S is the sum over the patterns that contain S (at most one pattern per
    class, and at most 2^m).

    Every combination is listed when there are at most
    :data:`ALL_SUBSETS_UP_TO` QIs; otherwise those of at most three values,
    the given MSUs and the set of all QIs.

    Parameters
    ----------
    data : EncodedTable or pandas.DataFrame
        The table, or its encoded form (whose codes are cached).
    quasi_identifiers : sequence of str
        The quasi-identifier columns.
    row : int
        Row number, the first data row being 1.
    msus : sequence of sequence of str
        The record's minimal sample uniques (from
        :meth:`~riskcore.metrics.special_uniques.SudaResult.msus_of`), flagged in the
        result.
    person : str, optional
        The column linking the rows of one person: ``sharing`` counts the
        people holding the combination on at least one of their rows (the
        row's person included), each person once. The people are grouped by
        the set of patterns their rows have (at most 2^m patterns), so the
        count is one pass over those groups, never over the rows.

    Returns
    -------
    pandas.DataFrame
        One row per combination, smallest first, then fewest sharing:
        ``columns`` (tuple of QI names, in QI order), ``size`` (number of
        values), ``sharing`` (records with those values, the record
        included; people with a person column) and ``msu`` (True for a
        minimal sample unique).

    Raises
    ------
    RolesError, RiskcoreError
        For unknown or repeated QIs, an MSU naming another column, or a row
        number outside 1 .. n.
    """
    import itertools

    table = data if isinstance(data, EncodedTable) else EncodedTable(data)
    q = _qis(table, quasi_identifiers)
    pos = row_position(row, table.n_records)
    index = {name: i for i, name in enumerate(q)}
    msu_masks = set()
    for cols in msus:
        unknown = [c for c in cols if c not in index]
        if unknown or not cols:
            raise RiskcoreError(f"an MSU names a column that is not a QI: {list(cols)!r}")
        msu_masks.add(sum(1 << index[c] for c in cols))
    _person_check(table, q, person)
    classes = table.classes(q)
    row_class = table.record_classes(q)
    own = int(row_class[pos])
    pattern = np.zeros(classes.n_classes, dtype=np.int64)
    for i, key in enumerate(classes.keys):
        pattern |= (key == key[own]).astype(np.int64) << i
    patterns, inverse = np.unique(pattern, return_inverse=True)
    inverse = inverse.reshape(-1)
    weight = np.bincount(inverse, weights=classes.sizes).astype(np.int64)
    groups = None
    if person is not None:  # people grouped by the set of patterns of their rows
        from riskcore.engine.people import group_sets

        people = table.partition(q, person=person).people
        assert people is not None  # noqa: S101 - a person partition
        groups = group_sets(
            people.person,
            inverse[row_class],
            n_owners=people.n_people,
            n_items=len(patterns),
        )
    m = len(q)
    if m <= ALL_SUBSETS_UP_TO:
        masks = list(range(1, 1 << m))
    else:
        small = [
            sum(1 << i for i in combo)
            for size in range(1, 4)
            for combo in itertools.combinations(range(m), size)
        ]
        masks = sorted(set(small) | msu_masks | {(1 << m) - 1})
    wanted = np.asarray(masks, dtype=np.int64)
    # sharing(S) = sum of the weights of the patterns p with p & S == S
    hit = (patterns[None, :] & wanted[:, None]) == wanted[:, None]
    if groups is None:
        sharing = (hit * weight[None, :]).sum(axis=1)
    else:  # a group of people shares S when one of its patterns holds S
        held = np.maximum.reduceat(hit[:, groups.members], groups.offsets[:-1], axis=1)
        sharing = (held * groups.sizes[None, :]).sum(axis=1)
    out = pd.DataFrame(
        {
            "columns": [tuple(name for i, name in enumerate(q) if s >> i & 1) for s in masks],
            "size": [int(s).bit_count() for s in masks],
            "sharing": sharing.astype(np.int64),
            "msu": [s in msu_masks for s in masks],
        }
    )
    return out.sort_values(["size", "sharing"], kind="stable").reset_index(drop=True)


@renamed_arguments(qis="quasi_identifiers")
def riskiest_rows(
    data: EncodedTable | pd.DataFrame,
    quasi_identifiers: Sequence[str],
    suda_result: SudaResult,
    *,
    person: str | None = None,
) -> np.ndarray:
    """Return every row number (the first data row is 1), the riskiest record first.

    The order of the Records page's table: smallest class first (highest
    prosecutor risk 1/f_j), then highest DIS-SUDA score (a score not
    searched last), then row number. With a person column every row carries
    its person's class size in people and its person's score.

    Parameters
    ----------
    data : EncodedTable or pandas.DataFrame
        The table, or its encoded form (whose codes are cached).
    quasi_identifiers : sequence of str
        The quasi-identifier columns.
    suda_result : SudaResult
        SUDA computed on the same table and QIs (in people with a person column).
    person : str, optional
        The column linking the rows of one person.

    Returns
    -------
    numpy.ndarray
        int64 row numbers, a permutation of 1 .. n.
    """
    table = data if isinstance(data, EncodedTable) else EncodedTable(data)
    q = _qis(table, quasi_identifiers)
    _person_check(table, q, person)
    if (
        suda_result.quasi_identifiers != q
        or suda_result.n_records != table.n_records
        or suda_result.person != person
    ):
        raise RiskcoreError("the SUDA result given was computed on other QIs or another table")
    size = table.classes(q, person=person).sizes[table.record_classes(q, person=person)]
    order = np.lexsort((-suda_result.dis_score, size))  # stable: ties keep the row order
    rows: np.ndarray = order.astype(np.int64) + 1
    return rows
