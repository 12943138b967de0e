"""Equivalence classes and the class x sensitive-value contingency table.

This module holds the only heavy step of an assessment. Every column is
encoded once into integer codes (:func:`encode_column`); the quasi-identifier
codes are packed into one integer key per record and counted
(:func:`build_partition`); and for each sensitive attribute the sparse table
"equivalence class x sensitive value -> count" is built by
:func:`class_value_counts`. Every k / l / t / risk figure in
:mod:`riskcore.metrics` is a function of :class:`Partition` sizes and
:class:`Contingency` tables only, so another engine (out-of-memory,
distributed) only has to produce the same small tables.

Missing values are kept: a missing QI value is one more value of its column,
so no record is dropped from any class (unlike ``groupby`` with its default
``dropna=True``). Everything is positional, so the DataFrame index plays no
role.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._deprecation import renamed_arguments, renamed_attributes
from riskcore.engine.contract import (
    ClassTable,
    Contingency,
    Signatures,
    Tabulation,
    quasi_identifier_key,
    tabulation_roles,
)
from riskcore.engine.people import PersonGroups, distinct_pairs, person_codes, person_groups

__all__ = [
    "EncodedColumn",
    "Partition",
    "build_partition",
    "build_person_partition",
    "class_table",
    "class_value_counts",
    "count_cells",
    "encode_column",
    "encoded_sizes",
    "key_classes",
    "key_sizes",
    "pack_keys",
    "people_contingency",
    "quasi_identifier_key",
    "tabulate_encoded",
    "tabulation_roles",
]

_INT64_MAX = np.iinfo(np.int64).max


@dataclass(frozen=True, eq=False)
class EncodedColumn:
    """Integer codes of one column.

    Attributes
    ----------
    name : str
        Column name.
    codes : numpy.ndarray
        One int64 code per record, in ``[0, n_values)``; missing values have
        their own code.
    labels : numpy.ndarray
        ``labels[c]`` is the value of code ``c`` (``NaN``/``None`` for missing).
    ordered : bool
        True when codes follow the sorted order of the values (numeric
        columns), so code order is value order; a missing value, if any, has
        the last code.
    n_missing : int
        Number of missing values.
    """

    name: str
    codes: np.ndarray
    labels: np.ndarray
    ordered: bool
    n_missing: int

    @property
    def n_values(self) -> int:
        """Return the number of distinct values, missing counted as one value."""
        return len(self.labels)


def encode_column(series: pd.Series, *, ordered: bool | None = None) -> EncodedColumn:
    """Encode a column into dense integer codes, keeping missing values.

    Parameters
    ----------
    series : pandas.Series
        The column. Its index is ignored.
    ordered : bool, optional
        Sort codes by value (needed for the ordered distance of
        t-closeness). Default: True for numeric, boolean and datetime
        columns, False otherwise (codes in order of first appearance, which
        is faster).

    Returns
    -------
    EncodedColumn
    """
    if not isinstance(series, pd.Series):
        raise TypeError(f"series must be a pandas Series, got {type(series).__name__}")
    if ordered is None:
        ordered = bool(
            pd.api.types.is_numeric_dtype(series.dtype)
            or pd.api.types.is_datetime64_any_dtype(series.dtype)
        ) and not isinstance(series.dtype, pd.CategoricalDtype)
    n_missing = int(series.isna().sum())
    if isinstance(series.dtype, pd.CategoricalDtype) and not ordered:
        codes = series.cat.codes.to_numpy().astype(np.int64)
        cats = series.cat.categories
        used = np.bincount(codes[codes >= 0], minlength=len(cats)) > 0
        if not used.all():  # drop unused categories so n_values is what occurs
            remap = np.cumsum(used) - 1
            codes = np.where(codes >= 0, remap[np.maximum(codes, 0)], -1)
            cats = cats[used]
        labels = np.asarray(cats, dtype=object)
        if n_missing:
            codes = np.where(codes < 0, len(labels), codes)
            labels = np.append(labels, np.array([None], dtype=object))
        return EncodedColumn(str(series.name), codes, labels, False, n_missing)
    codes, uniques = pd.factorize(series, sort=ordered, use_na_sentinel=True)
    codes = codes.astype(np.int64, copy=False)
    labels = np.asarray(uniques, dtype=object)
    if n_missing:
        codes = np.where(codes < 0, len(labels), codes)
        labels = np.append(labels, np.array([None], dtype=object))
    return EncodedColumn(str(series.name), codes, labels, bool(ordered), n_missing)


def pack_keys(codes: list[np.ndarray], cards: list[int]) -> tuple[np.ndarray, int]:
    """Pack several code columns into one int64 key per record (mixed radix).

    ``key = c0; key = key * card_i + c_i``. When the product of the
    cardinalities would overflow int64 the partial key is re-densified with
    ``np.unique(return_inverse=True)`` first, so the result is exact (no
    hashing: a collision would merge two classes and understate risk).

    Parameters
    ----------
    codes : list of numpy.ndarray
        One code array per column, all of the same length.
    cards : list of int
        Cardinality of each column (codes are in ``[0, card)``).

    Returns
    -------
    key : numpy.ndarray
        int64 key per record; equal keys iff equal code tuples.
    key_card : int
        Upper bound (exclusive) of the key values.
    """
    if not codes:
        raise ValueError("at least one column is needed to build a key")
    key = codes[0].astype(np.int64, copy=True)
    card = max(int(cards[0]), 1)
    for c, m in zip(codes[1:], cards[1:], strict=True):
        m = max(int(m), 1)
        if card > _INT64_MAX // m:
            uniq, inv = np.unique(key, return_inverse=True)
            key = inv.astype(np.int64, copy=False).reshape(-1)
            card = len(uniq)
        key *= m
        key += c
        card *= m
    return key, card


def _small_key_space(n: int, key_card: int) -> bool:
    """Return True when the keys are counted with ``bincount`` rather than sorted."""
    return key_card <= 8 * n + 1024


def _runs(sorted_key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (start, length) of each run of equal values in a sorted key."""
    starts = np.flatnonzero(np.concatenate(([True], sorted_key[1:] != sorted_key[:-1])))
    return starts, np.diff(np.append(starts, len(sorted_key))).astype(np.int64)


def _dense_ids(key: np.ndarray, key_card: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (class id per record, class sizes, first record of each class).

    Classes are numbered in increasing key order. Small key spaces are
    counted with ``bincount``; large ones are numbered by a hash table (pandas'
    ``factorize``, in order of first appearance) and only the distinct keys are
    sorted (a million records hold a few ten thousand classes: half the CPU of
    one ``argsort`` of every record). The first record of a class is where its
    first-appearance number first occurs: where the running maximum of those
    numbers rises.
    """
    n = len(key)
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    if _small_key_space(n, key_card):
        counts = np.bincount(key, minlength=key_card)
        present = np.flatnonzero(counts)
        remap = np.full(key_card, -1, dtype=np.int64)
        remap[present] = np.arange(len(present), dtype=np.int64)
        class_id = remap[key]
        sizes = counts[present].astype(np.int64)
        first = np.full(len(present), n, dtype=np.int64)
        np.minimum.at(first, class_id, np.arange(n, dtype=np.int64))
        return class_id, sizes, first
    seen, distinct = pd.factorize(key)
    seen = seen.astype(np.int64, copy=False)
    rank = np.empty(len(distinct), dtype=np.int64)
    rank[np.argsort(distinct)] = np.arange(len(distinct), dtype=np.int64)
    class_id = rank[seen]
    sizes = np.bincount(class_id, minlength=len(distinct)).astype(np.int64)
    first = np.empty(len(distinct), dtype=np.int64)
    first[rank] = np.flatnonzero(np.diff(np.maximum.accumulate(seen), prepend=-1))
    return class_id, sizes, first


def key_classes(key: np.ndarray, key_card: int) -> tuple[np.ndarray, np.ndarray]:
    """Return (class id of each key, first position of each class), classes in key order.

    What ``np.unique(key, return_index=True, return_inverse=True)`` returns,
    counted with ``np.bincount`` when the key space is small (no sort).

    Parameters
    ----------
    key : numpy.ndarray
        Packed int64 keys in ``[0, key_card)`` (:func:`pack_keys`).
    key_card : int
        The size of the key space.

    Returns
    -------
    class_id, first : numpy.ndarray
        int64; a class's id is its rank among the distinct keys.
    """
    class_id, _, first = _dense_ids(key, key_card)
    return class_id, first


def key_sizes(key: np.ndarray, key_card: int) -> np.ndarray:
    """Return the class sizes f_j of packed keys, in increasing key order.

    The sizes of :func:`_dense_ids` without the per-record class ids: a
    ``bincount`` for small key spaces, else one sort and its run lengths.

    Parameters
    ----------
    key : numpy.ndarray
        Packed int64 keys in ``[0, key_card)`` (:func:`pack_keys`).
    key_card : int
        The size of the key space.

    Returns
    -------
    numpy.ndarray
        int64, one per distinct key (empty for no keys).
    """
    n = len(key)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if _small_key_space(n, key_card):
        counts = np.bincount(key, minlength=key_card)
        return counts[counts > 0].astype(np.int64)
    return _runs(np.sort(key))[1]


@renamed_attributes(qis="quasi_identifiers")
@dataclass(frozen=True, eq=False)
class Partition:
    """Records grouped into equivalence classes over the quasi-identifiers.

    Attributes
    ----------
    quasi_identifiers : tuple of str
        The quasi-identifiers, in the order given (the old name ``qis`` still
        reads, with a DeprecationWarning).
    class_id : numpy.ndarray
        Class of each record (positional), in ``[0, n_classes)``.
    sizes : numpy.ndarray
        ``sizes[j]`` is f_j, the number of records in class j.
    first_row : numpy.ndarray
        Position of the first record of each class (to show its QI values).
    people : PersonGroups or None
        With a person column: the people and their signatures; ``sizes`` then
        counts people and ``class_id`` gives each row its person's class.
    person : str or None
        The person column.
    tuples : Partition or None
        With a person column: the partition of the rows by their QI tuple.
    """

    quasi_identifiers: tuple[str, ...]
    class_id: np.ndarray
    sizes: np.ndarray
    first_row: np.ndarray
    people: PersonGroups | None = None
    person: str | None = None
    tuples: Partition | None = None

    @property
    def n_records(self) -> int:
        """Return the number of rows (records) grouped."""
        return len(self.class_id)

    @property
    def n_classes(self) -> int:
        """Return J, the number of equivalence classes."""
        return len(self.sizes)


def encoded_sizes(
    column: Callable[[str], EncodedColumn], quasi_identifiers: Iterable[str]
) -> np.ndarray:
    """Return the class sizes over the QIs from a count of their packed codes (no class ids).

    Parameters
    ----------
    column : callable
        The engine's encoded column of a name.
    quasi_identifiers : iterable of str
        At least one column.

    Returns
    -------
    numpy.ndarray
        int64 sizes.

    Raises
    ------
    ValueError
        When there is no QI.
    """
    enc = [column(q) for q in quasi_identifier_key(quasi_identifiers)]
    return key_sizes(*pack_keys([e.codes for e in enc], [e.n_values for e in enc]))


@renamed_arguments(qis="quasi_identifiers")
def build_partition(
    columns: dict[str, EncodedColumn] | list[EncodedColumn],
    quasi_identifiers: list[str] | tuple[str, ...] | None = None,
) -> Partition:
    """Group records into equivalence classes over the quasi-identifiers.

    Records fall in the same class iff they agree on every QI, a missing
    value counting as one more value (no record is dropped).

    Parameters
    ----------
    columns : dict of str to EncodedColumn, or list of EncodedColumn
        Encoded columns (from :func:`encode_column`).
    quasi_identifiers : sequence of str, optional
        Which of ``columns`` are the QIs; default all of them, in order.

    Returns
    -------
    Partition
    """
    if isinstance(columns, list):
        columns = {c.name: c for c in columns}
    names = quasi_identifier_key(columns if quasi_identifiers is None else quasi_identifiers)
    missing = [q for q in names if q not in columns]
    if missing:
        raise KeyError(f"no encoded column named {missing[0]!r}")
    enc = [columns[q] for q in names]
    key, card = pack_keys([e.codes for e in enc], [e.n_values for e in enc])
    class_id, sizes, first = _dense_ids(key, card)
    return Partition(names, class_id, sizes, first)


def build_person_partition(
    columns: Mapping[str, EncodedColumn],
    quasi_identifiers: Sequence[str],
    person: EncodedColumn,
    *,
    rows: Partition | None = None,
) -> Partition:
    """Group people into equivalence classes by their QI signature (the set of their tuples).

    The rows are grouped by their QI tuple first (:func:`build_partition`),
    then each person's set of tuple ids is grouped exactly
    (:func:`riskcore.engine.people.person_groups`): two people share a class
    iff their rows carry the same set of QI tuples. A row whose person value
    is missing is a person of its own.

    Parameters
    ----------
    columns : mapping of str to EncodedColumn
        The encoded QI columns.
    quasi_identifiers : sequence of str
        The QIs, in order.
    person : EncodedColumn
        The person column, encoded.
    rows : Partition, optional
        The partition of the rows over the same QIs, when the caller has it.

    Returns
    -------
    Partition
        ``sizes`` counts people; ``class_id`` is each row's person's class;
        ``first_row`` a row of each class's first tuple.
    """
    if (
        rows is None
        or rows.quasi_identifiers != tuple(quasi_identifiers)
        or rows.people is not None
    ):
        rows = build_partition(dict(columns), tuple(quasi_identifiers))
    if len(person.codes) != rows.n_records:
        raise ValueError("the person column needs one value per row")
    missing = person.n_values - 1 if person.n_missing else None
    who, n_people = person_codes(person.codes, missing)
    groups = person_groups(who, n_people, rows.class_id, rows.n_classes)
    return Partition(
        rows.quasi_identifiers,
        groups.row_class,
        groups.classes.sizes,
        rows.first_row[groups.classes.first],
        people=groups,
        person=person.name,
        tuples=rows,
    )


def class_table(partition: Partition, columns: dict[str, EncodedColumn]) -> ClassTable:
    """Return the engine-neutral class table of a partition (QI codes of each class).

    Parameters
    ----------
    partition : Partition
        From :func:`build_partition`.
    columns : dict of str to EncodedColumn
        The encoded QI columns the partition was built from.

    Returns
    -------
    ClassTable
    """
    enc = [columns[q] for q in partition.quasi_identifiers]
    signatures = None
    if partition.people is not None and partition.tuples is not None:
        sets = partition.people.classes
        signatures = Signatures(
            str(partition.person),
            sets.offsets,
            sets.members,
            tuple(e.codes[partition.tuples.first_row] for e in enc),
            partition.people.rows,
        )
    return ClassTable(
        partition.quasi_identifiers,
        partition.sizes,
        tuple(e.codes[partition.first_row] for e in enc),
        tuple(e.labels for e in enc),
        signatures,
    )


def class_value_counts(partition: Partition, sensitive: EncodedColumn) -> Contingency:
    """Count records per (equivalence class, sensitive value): the heavy step.

    Parameters
    ----------
    partition : Partition
        The equivalence classes.
    sensitive : EncodedColumn
        The sensitive attribute, encoded; must have one code per record.

    Returns
    -------
    Contingency
        Sparse cells sorted by class, then value code. When the partition
        counts people, a cell counts the people of the class holding the
        value on at least one of their rows (each person once per distinct
        value).
    """
    if partition.people is not None:
        return _person_value_counts(partition.people, partition.sizes, sensitive)
    if len(sensitive.codes) != partition.n_records:
        raise ValueError(
            f"sensitive column {sensitive.name!r} has {len(sensitive.codes)} values "
            f"but the partition has {partition.n_records} records"
        )
    cell_class, cell_value, cell_count = count_cells(
        partition.class_id, sensitive.codes, partition.n_classes, sensitive.n_values
    )
    value_totals = np.bincount(sensitive.codes, minlength=sensitive.n_values).astype(np.int64)
    return Contingency(
        sensitive.name,
        cell_class,
        cell_value,
        cell_count,
        partition.sizes,
        value_totals,
        sensitive.ordered,
        sensitive.labels,
    )


def count_cells(
    cell_class: np.ndarray,
    cell_value: np.ndarray,
    n_classes: int,
    n_values: int,
    weights: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the present (class, value) cells, sorted by class then value, and their counts.

    The cells' key ``class * m + value`` is counted with ``np.bincount`` when
    the key space is at most eight times the number of entries, else sorted
    once (``np.sort``, or an argsort with weights) and its runs summed.

    Parameters
    ----------
    cell_class, cell_value : numpy.ndarray
        int64 class and value code of each entry (a record, or a cell to add up).
    n_classes : int
        The number of classes.
    n_values : int
        m, the number of value codes.
    weights : numpy.ndarray, optional
        int64 count of each entry (default 1).

    Returns
    -------
    cell_class, cell_value, cell_count : numpy.ndarray
        One entry per present cell (a cell whose weights sum to 0 is absent).

    Raises
    ------
    ValueError
        When ``n_classes * n_values`` does not fit int64 (checked first; the
        classes and values of a table are at most its records each).
    """
    m = max(int(n_values), 1)
    n_cells_max = int(n_classes) * m
    if n_cells_max > _INT64_MAX:
        raise ValueError(f"{n_classes:,} classes x {m:,} values do not fit an int64 cell key")
    key = cell_class * m + cell_value
    if n_cells_max <= 8 * len(key) + 1024:
        # float sums of whole numbers below 2**53 (the records counted): exact
        counts = np.bincount(key, weights=weights, minlength=n_cells_max)
        cells = np.flatnonzero(counts)
        cell_count = counts[cells].astype(np.int64)
    elif weights is None:
        ordered = np.sort(key)
        starts, cell_count = _runs(ordered)
        cells = ordered[starts]
    else:
        order = np.argsort(key)
        starts, _ = _runs(key[order])
        cells = key[order[starts]]
        cell_count = np.add.reduceat(np.asarray(weights, dtype=np.int64)[order], starts)
        keep = cell_count != 0
        cells, cell_count = cells[keep], cell_count[keep]
    return cells // m, cells % m, cell_count.astype(np.int64, copy=False)


def _person_value_counts(
    people: PersonGroups, sizes: np.ndarray, sensitive: EncodedColumn
) -> Contingency:
    """Count people per (class, sensitive value): each person once per distinct value."""
    if len(sensitive.codes) != len(people.person):
        raise ValueError(
            f"sensitive column {sensitive.name!r} has {len(sensitive.codes)} values "
            f"but the partition has {len(people.person)} records"
        )
    person, value = distinct_pairs(people.person, sensitive.codes, sensitive.n_values)
    return people_contingency(
        sensitive.name,
        (people.classes.owner_class[person], value, None),
        n_classes=len(sizes),
        labels=sensitive.labels,
        ordered=sensitive.ordered,
    )


def people_contingency(
    attribute: str,
    cells: tuple[np.ndarray, np.ndarray, np.ndarray | None],
    *,
    n_classes: int,
    labels: np.ndarray,
    ordered: bool,
) -> Contingency:
    """Return a contingency of people from (class, value, people) entries, added up and sorted.

    A class's size is the sum of its cells (its (person, value) pairs), the
    value totals the people holding each value.

    Parameters
    ----------
    attribute : str
        Sensitive attribute name.
    cells : tuple of numpy.ndarray or None
        int64 class, value code and people of each entry (None: one each), in
        any order, repeats added up.
    n_classes : int
        The number of classes.
    labels : numpy.ndarray
        Value of each code.
    ordered : bool
        Whether codes follow the order of the values.

    Returns
    -------
    Contingency
    """
    cc, cv, cn = count_cells(cells[0], cells[1], n_classes, len(labels), cells[2])
    return Contingency.from_cells(  # sorted and added up: taken as they are
        attribute, cc, cv, cn, n_classes=n_classes, labels=labels, ordered=ordered
    )


def tabulate_encoded(
    partition: Callable[..., Partition],
    column: Callable[..., EncodedColumn],
    quasi_identifiers: Sequence[str],
    sensitive: Sequence[str],
    ordered: Mapping[str, bool | None] | None,
    *,
    engine: str,
    person: str | None = None,
) -> Tabulation:
    """Return the class table and contingencies of an engine that encodes its columns itself.

    The one body of :meth:`riskcore.engine.EncodedTable.tabulate` and
    :meth:`riskcore.engine.columnar.ArrowTable.tabulate`: one partition over the QIs, the
    class table of the QIs' codes, and per sensitive attribute its value counts per class.

    Parameters
    ----------
    partition : callable
        The engine's partition over a tuple of QIs (keyword ``person``).
    column : callable
        The engine's encoded column of a name (keyword ``ordered``).
    quasi_identifiers : sequence of str
        At least one column.
    sensitive : sequence of str
        Sensitive attributes.
    ordered : mapping of str to bool or None, optional
        Per sensitive attribute, whether value codes must follow value order.
    engine : str
        The engine's name, recorded in the tabulation.
    person : str, optional
        The person column: classes and contingencies count people.

    Returns
    -------
    Tabulation
    """
    qis = tuple(quasi_identifiers)
    part = partition(qis, person=person)
    order = ordered or {}
    tables = {s: class_value_counts(part, column(s, ordered=order.get(s))) for s in sensitive}
    return Tabulation(class_table(part, {q: column(q) for q in qis}), tables, engine=engine)
