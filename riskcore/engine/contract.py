"""The engine contract: what every engine returns, and all that metrics may read.

An engine turns (table, quasi-identifiers, sensitive attributes) into a
:class:`Tabulation`:

- a :class:`ClassTable`: one row per equivalence class, its size f_j and its
  QI values (as codes into per-QI labels);
- one sparse :class:`Contingency` per sensitive attribute: the cells
  "class x sensitive value -> count" that are present, classes numbered as
  in the class table.

Every k / l / t / risk / population figure in :mod:`riskcore.metrics` is a
function of these small tables alone, so an engine that never holds the rows
(DuckDB, a Parquet stream, Spark) fits by returning the same tables. The
tables add up: partial contingencies of disjoint parts of the data,
concatenated and re-aggregated (:meth:`Contingency.from_cells`), equal the
table of the whole.

With a person column (several rows per person), the classes count people:
a class is the people sharing one QI signature, the set of the QI tuples of
their rows (:mod:`riskcore.engine.people`, :class:`Signatures`), and a
contingency cell counts the people of a class holding a value. Those tables
add up over parts of the data that never split a person's rows.

Per-record questions (which class each record is in, which rows are unique)
are not part of the contract: only an engine that holds the rows can answer
them, through its own explicit method
(:meth:`riskcore.engine.EncodedTable.record_classes`).
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, overload

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._deprecation import renamed_attributes
from riskcore.errors import RolesError

__all__ = [
    "ClassTable",
    "Contingency",
    "Engine",
    "Names",
    "Order",
    "PackedCodes",
    "Signatures",
    "Tabulation",
    "check_person",
    "quasi_identifier_key",
    "tabulation_roles",
]

IntArray = np.ndarray[Any, np.dtype[np.int64]]

#: Column names, in order (the QIs, the sensitive attributes).
Names = tuple[str, ...]

#: Per sensitive attribute, whether its value codes follow the order of the values (None: the
#: engine's default for the column type).
Order = dict[str, bool | None] | None


class PackedCodes(Sequence[np.ndarray]):
    """The QI codes of each class, kept as one packed integer per class and unpacked on demand.

    A sequence of one code array per QI, like the tuple a class table
    usually holds, for an engine that numbers classes by an exact mixed-radix
    key (``key = (...(d_0 r_1 + d_1) r_2 + ...) + d_{Q-1}``, each digit d_i
    below its radix r_i): ``self[i]`` is ``maps[i][d_i]`` for every class,
    computed when first read and then kept. With many classes (10M-row
    tables with a ZIP code and a birth date), most figures never read a
    QI's codes, and one int64 per class replaces one per class and QI.

    Parameters
    ----------
    packed : numpy.ndarray
        int64 key per class.
    radices : sequence of int
        r_i per QI (r_0 multiplies nothing).
    maps : sequence of numpy.ndarray
        Per QI, the code of each digit value.
    """

    def __init__(
        self, packed: np.ndarray, radices: Sequence[int], maps: Sequence[np.ndarray]
    ) -> None:
        if len(radices) != len(maps):
            raise ValueError("one radix and one map per QI")
        self.packed = packed
        self.radices = tuple(max(int(r), 1) for r in radices)
        self.maps = tuple(np.asarray(m, dtype=np.int64) for m in maps)
        self._done: dict[int, np.ndarray] = {}

    def __len__(self) -> int:
        return len(self.radices)

    @overload
    def __getitem__(self, i: int) -> np.ndarray: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[np.ndarray]: ...

    def __getitem__(self, i: int | slice) -> np.ndarray | Sequence[np.ndarray]:
        if isinstance(i, slice):
            return tuple(self[j] for j in range(len(self))[i])
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("QI index out of range")
        done = self._done.get(i)
        if done is None:
            below = 1
            for r in self.radices[i + 1 :]:
                below *= r
            digit = self.packed // below if below > 1 else self.packed
            if i > 0:
                digit = digit - (digit // self.radices[i]) * self.radices[i]
            done = np.take(self.maps[i], digit, mode="clip") if len(digit) else digit.copy()
            self._done[i] = done
        return done

    def n_classes(self) -> int:
        """Return the number of classes.

        Returns
        -------
        int
        """
        return len(self.packed)


@dataclass(frozen=True, eq=False)
class Signatures:
    """The QI tuples held by each class's people, when the classes count people.

    With a person column, a class is the people sharing one *signature*: the
    set of the distinct QI tuples of their rows (:mod:`riskcore.engine.people`).
    A class whose people hold one tuple each is described by that tuple's
    codes, as a class of rows is; a class of several tuples is described by
    all of them.

    Attributes
    ----------
    person : str
        The person column.
    offsets : numpy.ndarray
        ``n_classes + 1`` offsets into :attr:`members`.
    members : numpy.ndarray
        Tuple ids of each class's signature, ascending:
        ``members[offsets[j]:offsets[j + 1]]``.
    tuple_keys : tuple of numpy.ndarray
        Per QI, the code of each tuple's value.
    rows : numpy.ndarray
        The rows of each class (its people's rows).
    """

    person: str
    offsets: np.ndarray
    members: np.ndarray = field(repr=False)
    tuple_keys: tuple[np.ndarray, ...] = field(repr=False)
    rows: np.ndarray = field(repr=False)

    @property
    def lengths(self) -> np.ndarray:
        """Return the number of QI tuples of each class's signature."""
        out: np.ndarray = np.diff(self.offsets)
        return out

    @property
    def single(self) -> bool:
        """Return True when every class's people hold one QI tuple each."""
        return bool((self.lengths == 1).all())

    def member_classes(self) -> np.ndarray:
        """Return the class of each entry of :attr:`members`.

        Returns
        -------
        numpy.ndarray
            int64 class id per member tuple.
        """
        out: np.ndarray = np.repeat(np.arange(len(self.offsets) - 1, dtype=np.int64), self.lengths)
        return out


@renamed_attributes(qis="quasi_identifiers")
@dataclass(frozen=True, eq=False)
class ClassTable:
    """Equivalence classes over the quasi-identifiers, one row per class.

    Attributes
    ----------
    quasi_identifiers : tuple of str
        The quasi-identifiers, in the order given (the old name ``qis`` still
        reads, with a DeprecationWarning).
    sizes : numpy.ndarray
        ``sizes[j]`` is f_j, the number of records in class j (int64, > 0).
    keys : sequence of numpy.ndarray
        ``keys[i][j]`` is the code of class j's value of ``quasi_identifiers[i]``: a tuple,
        or a :class:`PackedCodes` that unpacks a QI's codes when first read.
    labels : tuple of numpy.ndarray
        ``labels[i][c]`` is the value of code ``c`` of ``quasi_identifiers[i]`` (``None`` for
        a missing value, which is one more value: no record is dropped).
    signatures : Signatures or None
        With a person column: the classes count people (``sizes[j]`` is the
        number of people of class j), and this holds each class's QI tuples
        and rows; ``keys`` then give each class's first tuple. None: a class
        is a set of rows.
    """

    quasi_identifiers: tuple[str, ...]
    sizes: np.ndarray
    keys: Sequence[np.ndarray] = field(repr=False)
    labels: tuple[np.ndarray, ...] = field(repr=False)
    signatures: Signatures | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if len(self.keys) != len(self.quasi_identifiers) or len(self.labels) != len(
            self.quasi_identifiers
        ):
            raise ValueError("a class table needs one key array and one label array per QI")
        if isinstance(self.keys, PackedCodes):
            if self.keys.n_classes() != len(self.sizes):
                raise ValueError("every key array needs one code per class")
            return
        for k in self.keys:
            if len(k) != len(self.sizes):
                raise ValueError("every key array needs one code per class")

    @property
    def n_records(self) -> int:
        """Return n, the number of units counted (sum of the class sizes: people or rows)."""
        return int(self.sizes.sum())

    @property
    def n_rows(self) -> int:
        """Return the number of rows of the classes (n, unless the classes count people)."""
        if self.signatures is None:
            return int(self.sizes.sum())
        return int(self.signatures.rows.sum())

    @property
    def several_tuples(self) -> int:
        """Return the people whose rows carry several QI tuples (0 when classes are rows)."""
        if self.signatures is None:
            return 0
        return int(self.sizes[self.signatures.lengths > 1].sum())

    @property
    def person(self) -> str | None:
        """Return the person column whose people the classes count (None: rows)."""
        return None if self.signatures is None else self.signatures.person

    @property
    def rows(self) -> np.ndarray:
        """Return the rows of each class (its sizes, unless the classes count people)."""
        return self.sizes if self.signatures is None else self.signatures.rows

    @property
    def n_classes(self) -> int:
        """Return J, the number of equivalence classes."""
        return len(self.sizes)

    def values(self, class_ids: Sequence[int] | np.ndarray | None = None) -> pd.DataFrame:
        """Return the QI values of some classes (default all), one row per class.

        Parameters
        ----------
        class_ids : array of int, optional
            Classes to describe, in the order wanted.

        Returns
        -------
        pandas.DataFrame
            One column per QI (dtype inferred from the values), with a fresh
            RangeIndex.
        """
        ids = (
            np.arange(self.n_classes, dtype=np.int64)
            if class_ids is None
            else np.asarray(class_ids, dtype=np.int64)
        )
        sig = self.signatures
        if sig is not None and not bool((sig.lengths[ids] == 1).all()):
            return self._signature_values(sig, ids)
        return pd.DataFrame(
            {
                q: pd.Series(np.asarray(lab, dtype=object)[key[ids]], dtype=object).infer_objects()
                for q, key, lab in zip(self.quasi_identifiers, self.keys, self.labels, strict=True)
            },
            columns=list(self.quasi_identifiers),
        )

    def _signature_values(self, sig: Signatures, ids: np.ndarray) -> pd.DataFrame:
        """Return the values of classes some of whose signatures hold several QI tuples.

        Per QI, the distinct values of the class's tuples, joined by " | " in
        code order when there are several. The classes' tuples are gathered
        at once and their distinct (class, code) pairs counted; only the text
        of the classes of several values is joined (pandas, per such cell).
        """
        lengths = sig.lengths[ids]
        row = np.repeat(np.arange(len(ids), dtype=np.int64), lengths)  # the output row
        before = np.cumsum(lengths) - lengths
        within = np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(before, lengths)
        tuples = sig.members[np.repeat(sig.offsets[ids], lengths) + within]
        out: dict[str, pd.Series] = {}
        for q, keys, lab in zip(self.quasi_identifiers, sig.tuple_keys, self.labels, strict=True):
            card = max(len(lab), 1)
            pairs = np.unique(row * card + keys[tuples])  # (row, code), sorted by row then code
            where, code = pairs // card, pairs % card
            n = np.bincount(where, minlength=len(ids))
            first = np.flatnonzero(np.r_[True, where[1:] != where[:-1]])
            column = np.asarray(lab, dtype=object)[code[first]].copy()  # one value: as it is
            many = n > 1
            if many.any():
                text = pd.Series(np.asarray(lab, dtype=object)[code]).map(_shown)
                joined = text.groupby(where).agg(" | ".join)
                column[many] = joined.to_numpy()[many]
            out[q] = pd.Series(column, dtype=object).infer_objects()
        return pd.DataFrame(out, columns=list(self.quasi_identifiers))


def _shown(value: Any) -> str:
    """Return a value as text in a list of a class's values (a missing value: "missing")."""
    return "missing" if value is None or value != value else str(value)


@dataclass(frozen=True, eq=False)
class Contingency:
    """Sparse table "equivalence class x sensitive value -> count".

    Only present cells are stored, sorted by class then value code. This is
    the small table every l-diversity and t-closeness figure is computed
    from; it adds up (tables of disjoint parts of the data, concatenated and
    re-aggregated with :meth:`from_cells`, equal the table of the whole).

    Attributes
    ----------
    attribute : str
        Sensitive attribute name.
    cell_class, cell_value, cell_count : numpy.ndarray
        One entry per present (class, value) cell.
    class_sizes : numpy.ndarray
        f_j per class (sum of the class's cells). When the classes count
        people, a cell counts the people of the class who hold the value on
        at least one of their rows (a person counts once per distinct value
        they hold), and this is the sum of the cells: the number of
        (person, value) pairs of the class.
    value_totals : numpy.ndarray
        Count of each value over the whole table (length m).
    ordered : bool
        Whether value codes follow the order of the values.
    labels : numpy.ndarray
        Value of each code.
    """

    attribute: str
    cell_class: np.ndarray
    cell_value: np.ndarray
    cell_count: np.ndarray
    class_sizes: np.ndarray
    value_totals: np.ndarray
    ordered: bool
    labels: np.ndarray = field(repr=False)

    @cached_property
    def class_cells(self) -> np.ndarray:
        """Return each class's number of present cells (its number of distinct values).

        Cells are sorted by class, so class j's cells are the run starting at
        :attr:`class_starts` ``[j]`` of this length. Computed once per table.
        """
        cells: np.ndarray = np.bincount(self.cell_class, minlength=len(self.class_sizes))
        cells = cells.astype(np.int64, copy=False)
        cells.flags.writeable = False  # shared by every figure that reads it
        return cells

    @cached_property
    def class_starts(self) -> np.ndarray:
        """Return where each class's cells start (a class without cells: the next one's start)."""
        cells = self.class_cells
        starts: np.ndarray = np.cumsum(cells) - cells
        starts.flags.writeable = False
        return starts

    @cached_property
    def several(self) -> np.ndarray:
        """Return the positions of the cells of classes with two values or more.

        A class of one value has no diversity and no spread to measure, so the
        figures that need each class's values sorted or summed look at these
        cells only (few, where nearly every record is its own class).
        """
        several: np.ndarray = np.flatnonzero(
            np.take(self.class_cells, self.cell_class, mode="clip") > 1
        )
        return several

    @property
    def n_values(self) -> int:
        """Return m, the number of distinct sensitive values."""
        return len(self.value_totals)

    @property
    def n_records(self) -> int:
        """Return n."""
        return int(self.class_sizes.sum())

    @classmethod
    def from_cells(
        cls,
        attribute: str,
        cell_class: Any,
        cell_value: Any,
        cell_count: Any,
        *,
        n_classes: int,
        labels: Any,
        ordered: bool,
    ) -> Contingency:
        """Build a table from (class, value, count) cells, re-aggregating duplicates.

        This is the entry point for other engines: partial tables from
        chunks or partitions of the data may simply be concatenated.

        Parameters
        ----------
        attribute : str
            Sensitive attribute name.
        cell_class, cell_value, cell_count : array of int
            Cells, in any order, possibly repeated.
        n_classes : int
            J (classes with no cell get size 0).
        labels : array
            Value of each code.
        ordered : bool
            Whether codes follow the order of the values.

        Returns
        -------
        Contingency
        """
        labels = np.asarray(labels, dtype=object)
        m = max(len(labels), 1)
        cc = np.asarray(cell_class, dtype=np.int64)
        cv = np.asarray(cell_value, dtype=np.int64)
        cn = np.asarray(cell_count, dtype=np.int64)
        key = cc * m + cv
        if (len(key) < 2 or bool(np.all(key[1:] > key[:-1]))) and bool(np.all(cn > 0)):
            # already the table's cells: sorted by class then value, each once
            counts = cn
        else:
            uniq, inv = np.unique(key, return_inverse=True)
            counts = np.bincount(inv.reshape(-1), weights=cn, minlength=len(uniq))
            counts = counts.astype(np.int64)
            keep = counts > 0
            uniq, counts = uniq[keep], counts[keep]
            cc, cv = uniq // m, uniq % m
        class_sizes = np.bincount(cc, weights=counts, minlength=n_classes).astype(np.int64)
        value_totals = np.bincount(cv, weights=counts, minlength=len(labels)).astype(np.int64)
        return cls(attribute, cc, cv, counts, class_sizes, value_totals, ordered, labels)


@dataclass(frozen=True, eq=False)
class Tabulation:
    """What an engine returns for one assessment: classes and contingencies.

    Attributes
    ----------
    classes : ClassTable
        The equivalence classes over the QIs.
    sensitive : dict of str to Contingency
        One sparse class x value table per sensitive attribute, classes
        numbered as in ``classes``.
    engine : str
        Name of the engine that built it (stated in reports).
    """

    classes: ClassTable
    sensitive: dict[str, Contingency]
    engine: str


def quasi_identifier_key(quasi_identifiers: Iterable[str]) -> tuple[str, ...]:
    """Return the quasi-identifiers as a tuple, refusing none (no class can be formed).

    Parameters
    ----------
    quasi_identifiers : iterable of str
        The QI columns.

    Returns
    -------
    tuple of str
        The QIs, in order.

    Raises
    ------
    ValueError
        When there is no QI.
    """
    qis = tuple(quasi_identifiers)
    if not qis:
        raise ValueError("at least one quasi-identifier is needed to form equivalence classes")
    return qis


def tabulation_roles(
    quasi_identifiers: Iterable[str], sensitive: Iterable[str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Return the QIs (at least one) and the sensitive attributes that are not QIs.

    Parameters
    ----------
    quasi_identifiers : iterable of str
        The QI columns.
    sensitive : iterable of str
        The sensitive attributes; one that is also a QI is dropped.

    Returns
    -------
    qis, sensitive : tuple of str
        The QIs and the sensitive attributes to tabulate, in order.

    Raises
    ------
    ValueError
        When there is no QI.
    """
    qis = quasi_identifier_key(quasi_identifiers)
    return qis, tuple(s for s in sensitive if s not in qis)


def check_person(person: str, quasi_identifiers: Sequence[str], sensitive: Sequence[str]) -> None:
    """Refuse a person column that is also a QI or a sensitive attribute.

    Parameters
    ----------
    person : str
        The person column.
    quasi_identifiers, sensitive : sequence of str
        The QIs and the sensitive attributes.

    Raises
    ------
    RolesError
        When the person column is one of them.
    """
    if person in quasi_identifiers or person in sensitive:
        raise RolesError(
            f"the person column {person!r} links a person's rows; it cannot be a "
            "quasi-identifier or sensitive attribute too"
        )


#: What an object needs to count as an engine though it does not derive from :class:`Engine`.
_CONTRACT = ("columns", "n_records", "class_sizes", "tabulate")


class _EngineMeta(abc.ABCMeta):
    """Engine's metaclass: an instance with the contract's members is an engine.

    The members may be set on the instance (``self.columns = ...`` in ``__init__``, a
    dataclass field), as a Protocol allowed; :meth:`Engine.__subclasshook__` sees only a
    class's own attributes.
    """

    def __instancecheck__(cls, instance: Any) -> bool:
        if super().__instancecheck__(instance):
            return True
        return cls is Engine and all(hasattr(instance, n) for n in _CONTRACT)


class Engine(metaclass=_EngineMeta):
    """The engine contract: :meth:`tabulate`, and :meth:`class_sizes` for many subsets.

    An engine derives from this class and implements :attr:`columns`,
    :attr:`n_records`, :meth:`class_sizes` and :meth:`_tabulate`; the checks
    every engine makes before it counts (at least one QI, a sensitive attribute
    that is a QI dropped, every column present, the person column neither) are
    :meth:`tabulate`'s, here, once. An object with the contract's members that
    does not derive from it (an engine written elsewhere, a test's oracle)
    counts as an engine too, as it did when the contract was a Protocol.

    Attributes
    ----------
    name : str
        Short engine name ("memory", "arrow", "duckdb", "spark"), stated in reports.
    """

    name: str = "engine"
    #: The start of the sentence naming a column the table does not have.
    absent_column: str = "the table has no column"

    @classmethod
    def __subclasshook__(cls, other: type) -> Any:
        """Count a class with the contract's members as an engine (as a Protocol would)."""
        if cls is Engine and all(any(n in vars(k) for k in other.__mro__) for n in _CONTRACT):
            return True
        return NotImplemented

    @property
    @abc.abstractmethod
    def columns(self) -> tuple[str, ...]:
        """Return the column names of the table."""

    @property
    @abc.abstractmethod
    def n_records(self) -> int:
        """Return the number of records."""

    @abc.abstractmethod
    def class_sizes(
        self, quasi_identifiers: Sequence[str], *, person: str | None = None
    ) -> np.ndarray:
        """Return the class sizes f_j over the QIs (int64), in any order.

        The cheap question asked once per QI subset by
        :func:`riskcore.metrics.uniqueness.subset_uniqueness`: a group-by count,
        without the QI values of each class.

        Parameters
        ----------
        quasi_identifiers : sequence of str
            The quasi-identifier columns.
        person : str, optional
            The person column: the sizes count people (their signatures).

        Returns
        -------
        numpy.ndarray
        """

    def check_columns(self, columns: Iterable[str], what: str = "") -> None:
        """Raise a plain error naming the first of ``columns`` the table does not have.

        Parameters
        ----------
        columns : iterable of str
            Columns that must exist.
        what : str, optional
            Who names them, for the message.

        Raises
        ------
        RolesError
            For a column the table does not have.
        """
        have = set(self.columns)
        absent = [c for c in columns if c not in have]
        if absent:
            raise RolesError(f"{self.absent_column} {absent[0]!r}{what}")

    def tabulate(
        self,
        quasi_identifiers: Sequence[str],
        sensitive: Sequence[str] = (),
        *,
        ordered: dict[str, bool | None] | None = None,
        person: str | None = None,
    ) -> Tabulation:
        """Return the class table over the QIs and one contingency per sensitive attribute.

        The checks are made here, once, for every engine; the counting is the
        engine's :meth:`_tabulate`.

        Parameters
        ----------
        quasi_identifiers : sequence of str
            At least one column.
        sensitive : sequence of str
            Sensitive attributes (one that is also a QI is not tabulated).
        ordered : dict of str to bool or None, optional
            Per sensitive attribute, whether its value codes must follow the
            order of the values (for the ordered distance of t-closeness);
            None: the engine's default for the column type.
        person : str, optional
            The column linking the rows of one person: the classes and the
            contingencies count people (:class:`Signatures`).

        Returns
        -------
        Tabulation

        Raises
        ------
        ValueError
            When there is no QI.
        RolesError
            When a column is absent, or the person column is a QI or sensitive too.
        """
        qis, sens = tabulation_roles(quasi_identifiers, sensitive)
        if person is not None:
            check_person(person, qis, sens)
        self.check_columns((*qis, *sens, *(() if person is None else (person,))))
        return self._tabulate(qis, sens, ordered, person)

    def _tabulate(self, qis: Names, sens: Names, ordered: Order, person: str | None) -> Tabulation:
        """Return the tabulation of checked roles (see :meth:`tabulate`).

        Not abstract: an engine written against the former Protocol overrides
        :meth:`tabulate` itself and never reaches this.

        Parameters
        ----------
        qis : tuple of str
            The QIs, at least one, each a column of the table.
        sens : tuple of str
            The sensitive attributes that are not QIs.
        ordered : dict of str to bool or None, optional
            Per sensitive attribute, whether its codes follow its values' order.
        person : str or None
            The person column, neither a QI nor sensitive.

        Returns
        -------
        Tabulation

        Raises
        ------
        NotImplementedError
            For an engine that implements neither this nor :meth:`tabulate`.
        """
        raise NotImplementedError(
            f"{type(self).__name__} implements neither _tabulate nor tabulate"
        )
