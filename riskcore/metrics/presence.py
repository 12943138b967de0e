"""Against an identified population table: k-map and delta-presence.

When the user also holds the population the released table T was drawn from
(or a public table covering it), P, with the same quasi-identifiers and T a
subset of P, two questions have exact answers. Classes j are formed over the
QI values of both tables together (a missing value is a value of its own);
f_j is the number of released records of class j, F_j its members in P.

- **k-map** (Sweeney 2002 [S02]_): a released record of class j matches F_j
  people of the population, so an attacker who links on the QIs has at least
  ``k_map = min_{j: f_j > 0} F_j`` candidates. Population classes with no
  released record expose nobody and are not judged.
- **delta-presence** (Nergiz, Atzori and Clifton 2007 [NAC07]_): the
  probability that a population member of class j is in the release is
  delta_j = f_j / F_j, for EVERY population class; a class with no released
  record has delta_j = 0. The release is (delta_min, delta_max)-present when
  every delta_j is in that range, so a population class with no released
  record puts delta_min at 0 and fails any delta_min target above 0 (its
  members are known to be absent). Suppressing released records cannot mend
  such a class: it only lowers f_j.

What ARX does (``criteria/DPresence.java``, ``criteria/KMap.java``,
``framework/check/groupify/HashGroupify.java``, read at ARX 3.9.2): the data
given to ARX is the population table and the research subset marks the
released rows; classes are formed over the population table, each with
``count`` (released records) and ``pcount`` (population records).
``DPresence.isAnonymous`` takes ``delta = count == 0 ? 0 : count / pcount``
and passes when ``dMin <= delta <= dMax``; ``KMap`` with a population table
passes when ``pcount >= k``. ``HashGroupify.analyzeAll`` checks d-presence
first; a released class failing a model is suppressed (its ``count`` counts
against the suppression limit), a class with ``count == 0`` failing
d-presence cannot be suppressed and makes the whole transformation fail,
and a class with ``count == 0`` failing k-map adds no suppressed record (so
k-map judges only the released classes). One exception in ARX: when
k-anonymity or l-diversity is also configured, ``isPrivacyModelFulfilled``
returns "too small" for ``count == 0`` before d-presence is checked, so such
classes never fail the transformation there; ARX's effective delta_min is
then taken over the released classes only.

In people (``person=``, a column of the release linking the rows of one
individual; :mod:`riskcore.engine.people`): the population table has one row
per person, so a released class counts people, not rows. A released person
whose rows all carry one QI tuple is matched as that tuple: f_j is the number
of released people whose tuple is class j, k-map the least F_j over released
classes, delta_j = f_j / F_j the chance that a population member of class j is
in the release, and each released row carries its person's F_j. A person
whose rows carry several tuples (a QI that changes from visit to visit) is
not one row of the population table: which population members such a set of
tuples could be is not defined by k-map or delta-presence, so the match is
refused, naming how many people do (the generalization search refuses the
same, :class:`riskcore.deidentify.search.lattice.Lattice`); keep as QIs the columns
that stay the same on a person's rows. A row whose person value is missing is
a person of its own; a missing QI value is a value of its own, so a person
with a missing value on one row and a known one on another holds two tuples.

What riskcore does: exactly the definitions above, whatever other targets
are set. delta_min and delta_max are taken over every population class
(absent ones included, delta 0); :attr:`PopulationMatch.delta_min_released`
gives the minimum over released classes alone (ARX's figure in the
exception). k-map is the minimum F_j over released classes.
:func:`population_counts` gives the per-class counts (f_j, F_j over the union
of the classes of both tables) and each released record's class, for
privacy-criteria objects that decide per class.

References
----------
.. [S02] L. Sweeney, "k-anonymity: a model for protecting privacy",
   International Journal of Uncertainty, Fuzziness and Knowledge-Based
   Systems 10(5), 2002 (k-map: its section on linking to a population).
.. [NAC07] M. E. Nergiz, M. Atzori, C. Clifton, "Hiding the presence of
   individuals from shared databases", SIGMOD 2007.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore._results import NOT_IN_JSON, Migrations, Result
from riskcore.engine import EncodedTable
from riskcore.engine.contract import ClassTable
from riskcore.errors import RiskcoreError, RolesError

__all__ = [
    "PopulationCounts",
    "PopulationMatch",
    "delta_presence",
    "k_map",
    "people_of_release",
    "population_counts",
    "population_match",
]

_SHOWN = 5  # classes named in an error message


def _empty_frame() -> pd.DataFrame:
    return pd.DataFrame()


def _no_ints() -> np.ndarray:
    return np.zeros(0, dtype=np.int64)


@dataclass(frozen=True)
class PopulationCounts(Result):
    """Per class, released and population counts: the evidence k-map and delta-presence judge.

    Classes are the union of the classes of the release and of the
    population table (when the release is a subset, the population's
    classes), numbered as the engine numbers them.

    Attributes
    ----------
    quasi_identifiers : tuple of str
        The quasi-identifier columns.
    n_released : int
        Records of the release, n(T).
    n_population : int
        Records of the population table, N(P).
    n_classes : int
        Classes of both tables together.
    released : numpy.ndarray
        f_j per class (int64; 0 for a population class with no released
        record).
    population : numpy.ndarray
        F_j per class (int64; 0 only for a release class absent from the
        population, possible with ``require_subset=False``).
    record_class : numpy.ndarray
        The class of each released record, in release order (int64).
    table : ClassTable or None
        The class table of both tables together (its ``sizes`` are
        f_j + F_j); ``None`` when read back from JSON.

    The arrays and the table are not written to JSON.
    """

    quasi_identifiers: tuple[str, ...]
    n_released: int
    n_population: int
    n_classes: int
    released: np.ndarray = field(default_factory=_no_ints, repr=False, metadata=NOT_IN_JSON)
    population: np.ndarray = field(default_factory=_no_ints, repr=False, metadata=NOT_IN_JSON)
    record_class: np.ndarray = field(default_factory=_no_ints, repr=False, metadata=NOT_IN_JSON)
    table: ClassTable | None = field(default=None, repr=False, metadata=NOT_IN_JSON)

    def delta(self) -> np.ndarray:
        """Return delta_j = f_j / F_j per class (0 when f_j = 0; NaN when F_j = 0).

        Returns
        -------
        numpy.ndarray
            float64, one per class.
        """
        f = self.released.astype(np.float64)
        big_f = self.population.astype(np.float64)
        out = np.full(len(f), np.nan)
        np.divide(f, big_f, out=out, where=big_f > 0)
        out[f == 0] = 0.0
        return out

    def record_k_map(self) -> np.ndarray:
        """Return F_j of each released record's class, in release order.

        Returns
        -------
        numpy.ndarray
            int64, one per released record.
        """
        out: np.ndarray = self.population[self.record_class].astype(np.int64)
        return out

    def values(self, class_ids: Sequence[int] | np.ndarray | None = None) -> pd.DataFrame:
        """Return the QI values of some classes (default all), one row per class.

        Parameters
        ----------
        class_ids : array of int, optional
            Classes to describe, in the order wanted.

        Returns
        -------
        pandas.DataFrame

        Raises
        ------
        RiskcoreError
            When the counts were read back from JSON (no class table).
        """
        if self.table is None:
            raise RiskcoreError("these population counts were read back without their classes")
        return self.table.values(class_ids)


def _match_from_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Return a version-1 :class:`PopulationMatch` dict as version 2 writes it.

    Version 1 took delta_min over the released classes only: that is version 2's
    ``delta_min_released``. Every released class is a population class (the release
    is a subset), so the population classes are the released ones and the
    ``absent_classes``; an absent class has delta 0 (Nergiz, Atzori and Clifton
    2007), which puts delta_min at 0 when there is one.
    """
    out = dict(data)
    released_min = out["delta_min"]
    out.setdefault("delta_min_released", released_min)
    out.setdefault("n_population_classes", int(out["n_classes"]) + int(out["absent_classes"]))
    if int(out["absent_classes"]) > 0:
        out["delta_min"] = 0.0
    return out


@dataclass(frozen=True)
class PopulationMatch(Result):
    """k-map and delta-presence of a release against its population table.

    Judged by :func:`riskcore.criteria.population.judge_population`.

    Attributes
    ----------
    quasi_identifiers : tuple of str
        The quasi-identifier columns.
    n_released : int
        Records of the release, n(T) (people, with a person column).
    n_population : int
        Records of the population table, N(P).
    n_classes : int
        Classes of the release (f_j > 0).
    n_population_classes : int
        Classes of the population table (F_j > 0), those with no released
        record included.
    k_map : int
        min over released classes of F_j(P): the fewest population members
        any released record can be confused with (higher is safer).
    delta_min, delta_max : float
        The smallest and largest delta_j = f_j(T) / F_j(P) over every
        population class (delta_j = 0 for a class with no released record,
        so delta_min is 0 when there is one): the release is
        (delta_min, delta_max)-present. A lower delta_max is safer.
    delta_min_released : float
        The smallest delta_j over released classes only (equal to
        ``delta_min`` when every population class has a released record).
    absent_classes : int
        Population classes with no released record (delta 0).
    absent_records : int
        Population members in those classes.
    classes : pandas.DataFrame
        One row per population class: its QI values, ``released`` (f_j),
        ``population`` (F_j) and ``delta``, largest delta first (the classes
        with no released record last).
    record_k_map : numpy.ndarray
        F_j of each released record's class, in release order (with a person
        column, one entry per released row: its person's F_j).
    person : str or None
        The column of the release linking the rows of one person: the
        released counts (``n_released``, ``released``, ``n_classes``) are of
        people (None: each row is taken to be a different person).
    released_rows : int or None
        The rows of the release (with a person column).

    The last three arrays and tables are not written to JSON.
    """

    #: 2: delta_min over every population class (1: over released classes).
    schema_version: ClassVar[int] = 2
    migrations: ClassVar[Migrations] = {1: _match_from_v1}

    quasi_identifiers: tuple[str, ...]
    n_released: int
    n_population: int
    n_classes: int
    n_population_classes: int
    k_map: int
    delta_min: float
    delta_max: float
    delta_min_released: float
    absent_classes: int
    absent_records: int
    classes: pd.DataFrame = field(default_factory=_empty_frame, repr=False, metadata=NOT_IN_JSON)
    record_k_map: np.ndarray = field(default_factory=_no_ints, repr=False, metadata=NOT_IN_JSON)
    person: str | None = None
    released_rows: int | None = None


def _describe(values: pd.DataFrame, qis: tuple[str, ...]) -> str:
    rows = values.head(_SHOWN).to_dict("records")
    text = "; ".join(", ".join(f"{q}={r[q]!r}" for q in qis) for r in rows)
    more = len(values) - _SHOWN
    return text + (f"; and {more:,} more" if more > 0 else "")


def _check_tables(
    released: pd.DataFrame, population_table: pd.DataFrame, qis: tuple[str, ...]
) -> None:
    if not qis:
        raise RolesError("choose at least one quasi-identifier")
    if len(set(qis)) != len(qis):
        raise RolesError("a quasi-identifier is listed twice")
    for name, df in (("release", released), ("population table", population_table)):
        if not isinstance(df, pd.DataFrame):
            raise TypeError(f"the {name} must be a DataFrame, got {type(df).__name__}")
        absent = [q for q in qis if q not in df.columns]
        if absent:
            raise RolesError(f"the {name} has no column {absent[0]!r}")
    for q in qis:
        kinds = [
            pd.api.types.is_numeric_dtype(df[q].dtype) and not pd.api.types.is_bool_dtype(df[q])
            for df in (released, population_table)
        ]
        if kinds[0] != kinds[1]:
            which = ("numeric", "text") if kinds[0] else ("text", "numeric")
            raise RolesError(
                f"{q!r} is {which[0]} in the release and {which[1]} in the population table; "
                "load both so the column has the same type"
            )


@renamed_arguments(population="population_table")
def population_counts(
    released: pd.DataFrame,
    population_table: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    require_subset: bool = True,
) -> PopulationCounts:
    """Count, per class of both tables, its released records f_j and population members F_j.

    The per-class evidence of k-map (ARX ``KMap``: ``pcount >= k``) and
    delta-presence (ARX ``DPresence``: ``count / pcount``, 0 when
    ``count == 0``); see the module docstring. Every class of the release and
    of the population table is a class here, the population classes with no
    released record included (f_j = 0).

    Parameters
    ----------
    released : pandas.DataFrame
        T, the table released (or to be released); may be empty.
    population_table : pandas.DataFrame
        P, the identified population table.
    quasi_identifiers : sequence of str
        Columns of both tables.
    require_subset : bool, default True
        Raise when T is not a subset of P (a released class absent from P,
        or with more released records than population members). With
        ``False`` such classes are kept (F_j may be 0 or below f_j).

    Returns
    -------
    PopulationCounts

    Raises
    ------
    RolesError
        When a QI is missing from either table, listed twice, or numeric in
        one table and text in the other.
    RiskcoreError
        With ``require_subset``, when T is not a subset of P; the message
        names the classes.
    """
    qis = tuple(quasi_identifiers)
    _check_tables(released, population_table, qis)
    n_r, n_p = len(released), len(population_table)
    both = pd.concat(
        [
            released[list(qis)].reset_index(drop=True),
            population_table[list(qis)].reset_index(drop=True),
        ],
        ignore_index=True,
    )
    if len(both) == 0:
        raise RiskcoreError("the release and the population table have no records")
    enc = EncodedTable(both)
    cls = enc.record_classes(qis).astype(np.int64)
    table = enc.classes(qis)
    f = np.bincount(cls[:n_r], minlength=table.n_classes).astype(np.int64)
    big_f = np.bincount(cls[n_r:], minlength=table.n_classes).astype(np.int64)
    if require_subset:
        missing = np.flatnonzero((f > 0) & (big_f == 0))
        if len(missing):
            raise RiskcoreError(
                f"{len(missing):,} class(es) of the release are not in the population table, so "
                "the release is not a subset of it: "
                f"{_describe(table.values(missing), qis)}"
            )
        over = np.flatnonzero(f > big_f)
        if len(over):
            raise RiskcoreError(
                f"{len(over):,} class(es) have more released records than population members, "
                "so the release is not a subset of the population table: "
                f"{_describe(table.values(over), qis)}"
            )
    return PopulationCounts(
        quasi_identifiers=qis,
        n_released=n_r,
        n_population=n_p,
        n_classes=table.n_classes,
        released=f,
        population=big_f,
        record_class=cls[:n_r],
        table=table,
    )


def people_of_release(
    released: pd.DataFrame, quasi_identifiers: Sequence[str], person: str
) -> tuple[pd.DataFrame, np.ndarray]:
    """Return one row per released person (their QI tuple) and each row's person.

    Parameters
    ----------
    released : pandas.DataFrame
        The release, with the QIs and the person column.
    quasi_identifiers : sequence of str
        The quasi-identifier columns.
    person : str
        The column linking the rows of one person; a row whose person value
        is missing is a person of its own.

    Returns
    -------
    people : pandas.DataFrame
        The QIs of each person's first row, one row per person, in the order
        of the people's numbers.
    row_person : numpy.ndarray
        int64 person number of every released row.

    Raises
    ------
    RolesError
        When the person column is absent or is also a QI.
    RiskcoreError
        When people's rows carry several QI tuples (named how many): a set of
        tuples is not one row of a population table.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"pid": ["a", "a", "b"], "zip": ["021", "021", "100"]})
    >>> one, who = people_of_release(t, ["zip"], "pid")
    >>> one["zip"].tolist(), who.tolist()
    (['021', '100'], [0, 0, 1])
    """
    qis = tuple(quasi_identifiers)
    if person not in released.columns:
        raise RolesError(f"the release has no person column {person!r}")
    if person in qis:
        raise RolesError(f"the person column {person!r} cannot be a quasi-identifier too")
    enc = EncodedTable(released[[*qis, person]].reset_index(drop=True))
    part = enc.partition(qis, person=person)
    people = part.people
    assert people is not None  # noqa: S101 - a person partition
    if not people.single:
        several = people.several
        raise RiskcoreError(
            f"k-map and delta-presence match a population table of one row per person, and "
            f"{several:,} {'person has' if several == 1 else 'people have'} rows with "
            "different quasi-identifier values (a set of tuples is not one row of it): keep "
            "as quasi-identifiers the columns that stay the same on a person's rows"
        )
    _, first = np.unique(people.person, return_index=True)  # person p's first row
    one = released[list(qis)].iloc[first].reset_index(drop=True)
    return one, people.person


@renamed_arguments(population="population_table")
def population_match(
    released: pd.DataFrame,
    population_table: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    person: str | None = None,
) -> PopulationMatch:
    """Compute k-map and delta-presence of the release against the population table.

    With f_j(T) the released records of class j and F_j(P) its members in the
    population table,

    .. math::

        k\\text{-map} = \\min_{j: f_j > 0} F_j, \\qquad
        \\delta_j = f_j(T) / F_j(P), \\quad
        (\\delta_{min}, \\delta_{max}) = (\\min_j \\delta_j, \\max_j \\delta_j)

    with delta over every population class j (F_j > 0), delta_j = 0 when
    f_j = 0 (Sweeney 2002; Nergiz, Atzori and Clifton 2007; ARX's ``KMap``
    and ``DPresence``, see the module docstring for where ARX differs).

    Parameters
    ----------
    released : pandas.DataFrame
        T, the table released (or to be released).
    population_table : pandas.DataFrame
        P, the identified population table; T must be a subset of it.
    quasi_identifiers : sequence of str
        Columns of both tables.
    person : str, optional
        A column of the release linking the rows of one person: the release
        is matched as its people, each the one QI tuple of their rows (the
        population table holding one row per person; the module states the
        rule), and each released row carries its person's k-map.

    Returns
    -------
    PopulationMatch

    Raises
    ------
    RolesError
        When a QI is missing from either table, or is numeric in one and
        text in the other; when the person column is absent or a QI.
    RiskcoreError
        When the release is empty, or a released class is absent from the
        population or has more released records (people) than population
        members (T is then not a subset of P); the message names the
        classes. With a person column, when people's rows carry several QI
        tuples.

    Examples
    --------
    Person a's two rows and person b's one row are all zip 021, which the
    population table holds 3 times: the release holds 2 of those 3 people
    (delta 2/3), where its rows would count 3 of 3.

    >>> import pandas as pd
    >>> t = pd.DataFrame({"pid": ["a", "a", "b"], "zip": ["021", "021", "021"]})
    >>> p = pd.DataFrame({"zip": ["021", "021", "021", "100"]})
    >>> m = population_match(t, p, ["zip"], person="pid")
    >>> m.n_released, m.released_rows, m.k_map, round(m.delta_max, 3), m.record_k_map.tolist()
    (2, 3, 3, 0.667, [3, 3, 3])
    """
    if isinstance(released, pd.DataFrame) and len(released) == 0:
        raise RiskcoreError("the release has no records")
    row_person: np.ndarray | None = None
    if person is not None:
        _check_tables(released, population_table, tuple(quasi_identifiers))
        released, row_person = people_of_release(released, quasi_identifiers, person)
    counts = population_counts(released, population_table, quasi_identifiers)
    qis = counts.quasi_identifiers
    f, big_f = counts.released, counts.population
    ids = np.flatnonzero(big_f > 0)  # every class (the release is a subset)
    delta = counts.delta()[ids]
    present = f[ids] > 0
    order = np.lexsort((ids, -delta))  # largest delta first, then class order
    classes = counts.values(ids[order])
    classes["released"] = f[ids][order]
    classes["population"] = big_f[ids][order]
    classes["delta"] = delta[order]
    absent = ~present
    return PopulationMatch(
        quasi_identifiers=qis,
        n_released=counts.n_released,
        n_population=counts.n_population,
        n_classes=int(present.sum()),
        n_population_classes=len(ids),
        k_map=int(big_f[ids][present].min()),
        delta_min=float(delta.min()),
        delta_max=float(delta.max()),
        delta_min_released=float(delta[present].min()),
        absent_classes=int(absent.sum()),
        absent_records=int(big_f[ids][absent].sum()),
        classes=classes,
        record_k_map=counts.record_k_map()
        if row_person is None
        else counts.record_k_map()[row_person],
        person=person,
        released_rows=None if row_person is None else len(row_person),
    )


@renamed_arguments(population="population_table")
def k_map(
    released: pd.DataFrame, population_table: pd.DataFrame, quasi_identifiers: Sequence[str]
) -> int:
    """Return k-map: the smallest population class matching a released record.

    min over classes with released records of F_j (ARX ``KMap`` with a
    population table); see :func:`population_match` (same parameters and
    errors).

    Parameters
    ----------
    released : pandas.DataFrame
        T, the table released (or to be released).
    population_table : pandas.DataFrame
        P, the identified population table; T must be a subset of it.
    quasi_identifiers : sequence of str
        The quasi-identifier columns.

    Returns
    -------
    int
        min F_j; higher is safer (k-map = k means each released record matches at least
        k people of the population).
    """
    return population_match(released, population_table, quasi_identifiers).k_map


@renamed_arguments(population="population_table")
def delta_presence(
    released: pd.DataFrame, population_table: pd.DataFrame, quasi_identifiers: Sequence[str]
) -> tuple[float, float]:
    """Return (delta_min, delta_max) of delta_j = f_j(T) / F_j(P) over every population class.

    A population class with no released record has delta_j = 0, so
    delta_min is 0 when there is one (Nergiz, Atzori and Clifton 2007; ARX
    ``DPresence``). See :func:`population_match` (same parameters and
    errors).

    Parameters
    ----------
    released : pandas.DataFrame
        T, the table released (or to be released).
    population_table : pandas.DataFrame
        P, the identified population table; T must be a subset of it.
    quasi_identifiers : sequence of str
        The quasi-identifier columns.

    Returns
    -------
    tuple of (float, float)
        Both in [0, 1]; delta_max is the highest probability that a person of the
        population is in the release.
    """
    m = population_match(released, population_table, quasi_identifiers)
    return m.delta_min, m.delta_max
