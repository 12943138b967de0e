"""The in-memory engine: per-column codes of a pandas table, computed once.

This is the only engine today. It fulfils the contract of
:mod:`riskcore.engine.contract` (:meth:`EncodedTable.tabulate`: the class
table and the sparse class x value contingencies) and is the one place where
per-record questions are answered (:meth:`EncodedTable.record_classes`: the
class of every record), because only an engine that holds the rows can
answer them.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore.engine.contract import ClassTable, Engine, Names, Order, Tabulation
from riskcore.engine.partition import (
    EncodedColumn,
    Partition,
    build_partition,
    build_person_partition,
    class_table,
    encode_column,
    encoded_sizes,
    quasi_identifier_key,
    tabulate_encoded,
)
from riskcore.errors import RolesError

__all__ = ["EncodedTable", "EncodingEngine"]

_PARTITIONS_KEPT = 4


class EncodingEngine(Engine):
    """Base of the engines that encode their columns themselves (pandas, an Arrow table in memory).

    A subclass provides ``column(name, *, ordered=None)`` (a column's
    :class:`EncodedColumn`, kept) and ``partition(quasi_identifiers, *, person=None)``
    (the classes over the QIs); the tabulation is :func:`tabulate_encoded` of them.
    """

    column: Callable[..., EncodedColumn]
    partition: Callable[..., Partition]

    def _tabulate(self, qis: Names, sens: Names, ordered: Order, person: str | None) -> Tabulation:
        return tabulate_encoded(
            self.partition, self.column, qis, sens, ordered, engine=self.name, person=person
        )


class EncodedTable(EncodingEngine):
    """The in-memory engine: per-column integer codes of a table, cached.

    Every QI subset, what-if and lattice node reuses the codes: factorizing
    strings again costs more than the group-by itself. The last few
    partitions are kept too, so the tabulation and a per-record question on
    the same QIs group the records once.

    Parameters
    ----------
    data : pandas.DataFrame
        The table; it is not copied or modified. Its index plays no role
        (everything is positional).
    """

    name = "memory"

    @renamed_arguments(df="data")
    def __init__(self, data: pd.DataFrame) -> None:
        if not isinstance(data, pd.DataFrame):
            raise TypeError(f"data must be a DataFrame, got {type(data).__name__}")
        if data.columns.has_duplicates:
            dup = data.columns[data.columns.duplicated()][0]
            raise RolesError(f"the table has two columns named {dup!r}; rename one")
        self.df = data
        self._cache: dict[tuple[str, bool | None], EncodedColumn] = {}
        self._partitions: OrderedDict[tuple[tuple[str, ...], str | None], Partition] = OrderedDict()

    def __len__(self) -> int:
        return len(self.df)

    @property
    def columns(self) -> tuple[str, ...]:
        """Return the column names."""
        return tuple(str(c) for c in self.df.columns)

    @property
    def n_records(self) -> int:
        """Return the number of records."""
        return len(self.df)

    def column(self, name: str, *, ordered: bool | None = None) -> EncodedColumn:
        """Return the codes of one column (cached).

        Parameters
        ----------
        name : str
            Column name.
        ordered : bool, optional
            Codes in the order of the values (see
            :func:`~riskcore.engine.partition.encode_column`).

        Returns
        -------
        EncodedColumn
        """
        key = (name, ordered)
        if key not in self._cache:
            if name not in self.df.columns:
                raise RolesError(f"the table has no column {name!r}")
            self._cache[key] = encode_column(self.df[name], ordered=ordered)
        return self._cache[key]

    @renamed_arguments(qis="quasi_identifiers")
    def partition(
        self, quasi_identifiers: Iterable[str], *, person: str | None = None
    ) -> Partition:
        """Return the equivalence classes over the QIs (the engine's internal grouping).

        Parameters
        ----------
        quasi_identifiers : iterable of str
            At least one column.
        person : str, optional
            The column linking the rows of one person: the classes are people
            grouped by their QI signature (:func:`build_person_partition`).

        Returns
        -------
        Partition
            Holds per-record arrays; code outside the engine should use
            :meth:`tabulate` (per class) or :meth:`record_classes` (per record).
        """
        qis = tuple(quasi_identifiers)
        key = (qis, person)
        part = self._partitions.get(key)
        if part is None:
            if person is None:
                part = build_partition({q: self.column(q) for q in qis}, qis)
            else:
                part = build_person_partition(
                    {q: self.column(q) for q in qis},
                    qis,
                    self.column(person),
                    rows=self.partition(qis),  # kept too: the rows' tuples
                )
            self._partitions[key] = part
            while len(self._partitions) > _PARTITIONS_KEPT:
                self._partitions.popitem(last=False)
        else:
            self._partitions.move_to_end(key)
        return part

    def class_sizes(
        self, quasi_identifiers: Sequence[str], *, person: str | None = None
    ) -> np.ndarray:
        """Return the class sizes f_j over the QIs, without grouping the records.

        What uniqueness over many QI subsets needs: the sizes of a cached
        partition if there is one, else a count of the packed keys (no
        per-record class ids are built or kept).

        Parameters
        ----------
        quasi_identifiers : sequence of str
            At least one column.
        person : str, optional
            The person column: the sizes count people.

        Returns
        -------
        numpy.ndarray
            int64 sizes, in the class order of :meth:`tabulate`.
        """
        qis = quasi_identifier_key(quasi_identifiers)
        if person is not None:
            return self.partition(qis, person=person).sizes
        part = self._partitions.get((qis, None))
        if part is not None:
            return part.sizes
        return encoded_sizes(self.column, qis)

    def classes(self, quasi_identifiers: Sequence[str], *, person: str | None = None) -> ClassTable:
        """Return the class table over the QIs (sizes and QI values of each class).

        Parameters
        ----------
        quasi_identifiers : sequence of str
            At least one column.
        person : str, optional
            The person column: the classes count people.

        Returns
        -------
        ClassTable
        """
        qis = tuple(quasi_identifiers)
        return class_table(self.partition(qis, person=person), {q: self.column(q) for q in qis})

    def record_classes(
        self, quasi_identifiers: Sequence[str], *, person: str | None = None
    ) -> np.ndarray:
        """Return the class of every record (positional), numbered as in :meth:`tabulate`.

        The one per-record question of the engine: which rows are in a
        failing class, which records are unique, how many candidates share a
        person's QI values (``classes(qis).sizes[record_classes(qis)]``).

        Parameters
        ----------
        quasi_identifiers : sequence of str
            At least one column.
        person : str, optional
            The person column: each row gets its person's class.

        Returns
        -------
        numpy.ndarray
            int64 class id per record, in ``[0, n_classes)``.
        """
        return self.partition(tuple(quasi_identifiers), person=person).class_id
