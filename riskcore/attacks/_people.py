"""People of a table for the attacks: person ids, people holding a tuple, values per person.

When a table has several rows per person, the unit of privacy is the person
(``shared/notes/formulas.md``, "Many rows per person"): every attack counts
people. The person of a row is read as the engine reads it
(:func:`riskcore.engine.people.person_codes`): equal values of the person
column are one person, and a row whose person value is missing is a person
of its own. Nothing here loops over rows or people.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from riskcore.engine import EncodedColumn, EncodedTable, encode_column
from riskcore.engine.people import person_codes
from riskcore.errors import RolesError

__all__ = ["ValueSets", "check_person", "people_count", "person_ids", "value_sets"]


def check_person(columns: Iterable[object], person: str | None, *, where: str = "table") -> None:
    """Refuse a person column that is not a column name of the table.

    Parameters
    ----------
    columns : sequence of str
        The table's columns.
    person : str or None
        The person column asked for.
    where : str
        The table's name in the message.

    Raises
    ------
    RolesError
        When ``person`` is not a string or not a column.
    """
    if person is None:
        return
    if not isinstance(person, str):
        raise RolesError(f"the person column must be a column name, not {person!r}")
    if person not in list(columns):
        raise RolesError(f"the {where} has no person column {person!r}")


def person_ids(column: pd.Series | EncodedColumn) -> tuple[np.ndarray, int]:
    """Return the person of every row (dense ids) and the number of people.

    Parameters
    ----------
    column : pandas.Series or EncodedColumn
        The person column (raw or encoded).

    Returns
    -------
    person : numpy.ndarray
        int64 person of each row, in ``[0, n_people)``; a row with a missing
        person value is a person of its own.
    n_people : int

    Examples
    --------
    >>> ids, n = person_ids(pd.Series(["a", "b", "a", None, None]))
    >>> ids.tolist(), n
    ([0, 1, 0, 2, 3], 4)
    """
    enc = column if isinstance(column, EncodedColumn) else encode_column(column)
    missing = enc.n_values - 1 if enc.n_missing else None
    return person_codes(enc.codes, missing)


def people_count(data: pd.DataFrame | EncodedTable, person: str | None) -> int:
    """Return the number of people of a table (its rows when ``person`` is None).

    Parameters
    ----------
    data : pandas.DataFrame or EncodedTable
        The table.
    person : str or None
        The person column.

    Returns
    -------
    int
        Distinct people (a row with a missing person value counts as one).
    """
    if person is None:
        return len(data)
    check_person(data.columns, person)
    column = data.column(person) if isinstance(data, EncodedTable) else data[person]
    return person_ids(column)[1]


@dataclass(frozen=True)
class ValueSets:
    """The distinct values each person holds on their rows (compressed rows).

    Attributes
    ----------
    ptr : numpy.ndarray
        ``n_people + 1`` offsets: person p's values are
        ``values[ptr[p]:ptr[p + 1]]``, ascending codes.
    values : numpy.ndarray
        int64 value codes.
    people : numpy.ndarray
        int64 number of people holding each value code (length ``n_values``).
    """

    ptr: np.ndarray
    values: np.ndarray
    people: np.ndarray

    def holds(self, person: np.ndarray, value: np.ndarray) -> np.ndarray:
        """Return, per pair, whether the person holds the value on one of their rows.

        Parameters
        ----------
        person, value : numpy.ndarray
            int64 pairs; a negative person or value holds nothing.

        Returns
        -------
        numpy.ndarray
            bool per pair.
        """
        m = max(len(self.people), 1)
        owner = np.repeat(np.arange(len(self.ptr) - 1, dtype=np.int64), np.diff(self.ptr))
        pairs = owner * m + self.values  # sorted: by person, then value
        ok = (person >= 0) & (value >= 0)
        query = np.where(ok, person * m + value, -1)
        pos = np.searchsorted(pairs, query)
        found = pos < len(pairs)
        found[found] = pairs[pos[found]] == query[found]
        out: np.ndarray = ok & found
        return out


def value_sets(person: np.ndarray, n_people: int, codes: np.ndarray, n_values: int) -> ValueSets:
    """Return the distinct values of each person (each person once per distinct value).

    The convention of the person contingency
    (:func:`riskcore.engine.partition.class_value_counts` with a person
    column): a person holds a value when one of their rows carries it.

    Parameters
    ----------
    person : numpy.ndarray
        int64 person of each row.
    n_people : int
    codes : numpy.ndarray
        int64 value code of each row, in ``[0, n_values)``.
    n_values : int

    Returns
    -------
    ValueSets
    """
    m = max(int(n_values), 1)
    pairs = np.sort(np.asarray(person, dtype=np.int64) * m + np.asarray(codes, dtype=np.int64))
    pairs = pairs[np.r_[True, pairs[1:] != pairs[:-1]]] if len(pairs) else pairs  # distinct
    owner, value = pairs // m, pairs % m
    ptr = np.concatenate(([0], np.cumsum(np.bincount(owner, minlength=n_people)))).astype(np.int64)
    people = np.bincount(value, minlength=n_values).astype(np.int64)
    return ValueSets(ptr, value.astype(np.int64), people)
