"""Against an identified population table: k-map and delta-presence.

When the user also holds the population the released table T was drawn from
(or a public table covering it), P, with the same quasi-identifiers and T a
subset of P, two questions have exact answers:

- **k-map** (Sweeney; ARX's ``KMap`` with a population table): each released
  record's class matches F_j people of the population, so an attacker who
  links on the QIs has at least ``k_map = min_j F_j`` candidates.
- **delta-presence** (Nergiz, Atzori and Clifton 2007; ARX's ``DPresence``):
  the probability that a population member of class j is in the release is
  delta_j = f_j(T) / F_j(P); the release is (delta_min, delta_max)-present
  when every released class has delta_j in that range. As in ARX, only
  classes with released records are judged; population classes with none
  are counted apart (their members are known to be absent).

Classes are formed on the QI values of both tables together (a missing value
is a value of its own), by the in-memory engine.

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

import numpy as np
import pandas as pd

from riskcore._results import NOT_IN_JSON, Result
from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError, RolesError

__all__ = ["PopulationMatch", "delta_presence", "k_map", "population_match"]

_SHOWN = 5  # classes named in an error message


def _empty_frame() -> pd.DataFrame:
    return pd.DataFrame()


def _no_ints() -> np.ndarray:
    return np.zeros(0, dtype=np.int64)


@dataclass(frozen=True)
class PopulationMatch(Result):
    """The released classes matched to the population table.

    Attributes
    ----------
    quasi_identifiers : tuple of str
    n_released : int
        Records of the release, n(T).
    n_population : int
        Records of the population table, N(P).
    n_classes : int
        Classes of the release.
    k_map : int
        min over released classes of F_j(P): the fewest population members
        any released record can be confused with (higher is safer).
    delta_min, delta_max : float
        The smallest and largest delta_j = f_j(T) / F_j(P) over released
        classes: the release is (delta_min, delta_max)-present. A lower
        delta_max is safer.
    absent_classes : int
        Population classes with no released record (delta 0, not judged).
    absent_records : int
        Population members in those classes.
    classes : pandas.DataFrame
        One row per released class: its QI values, ``released`` (f_j),
        ``population`` (F_j) and ``delta``, largest delta first.
    record_k_map : numpy.ndarray
        F_j of each released record's class, in release order.

    The last two are not written to JSON.
    """

    quasi_identifiers: tuple[str, ...]
    n_released: int
    n_population: int
    n_classes: int
    k_map: int
    delta_min: float
    delta_max: float
    absent_classes: int
    absent_records: int
    classes: pd.DataFrame = field(default_factory=_empty_frame, repr=False, metadata=NOT_IN_JSON)
    record_k_map: np.ndarray = field(default_factory=_no_ints, repr=False, metadata=NOT_IN_JSON)

    def failing(
        self,
        *,
        k: int | None = None,
        delta_min: float | None = None,
        delta_max: float | None = None,
    ) -> pd.DataFrame:
        """Return the released classes that break k-map or the delta range.

        Parameters
        ----------
        k : int, optional
            k-map target: a class fails when F_j < k.
        delta_min, delta_max : float, optional
            delta-presence range: a class fails when delta_j is outside it.

        Returns
        -------
        pandas.DataFrame
            The rows of :attr:`classes` that fail, in the same order.
        """
        c = self.classes
        bad = np.zeros(len(c), dtype=bool)
        if k is not None:
            bad |= c["population"].to_numpy() < k
        if delta_min is not None:
            bad |= c["delta"].to_numpy() < delta_min
        if delta_max is not None:
            bad |= c["delta"].to_numpy() > delta_max
        return c[bad].reset_index(drop=True)


def _describe(values: pd.DataFrame, qis: tuple[str, ...]) -> str:
    rows = values.head(_SHOWN).to_dict("records")
    text = "; ".join(", ".join(f"{q}={r[q]!r}" for q in qis) for r in rows)
    more = len(values) - _SHOWN
    return text + (f"; and {more:,} more" if more > 0 else "")


def population_match(
    released: pd.DataFrame,
    population: pd.DataFrame,
    quasi_identifiers: Sequence[str],
) -> PopulationMatch:
    """Match the release's classes to the population table: k-map and delta-presence.

    With f_j(T) the released records of class j and F_j(P) its members in the
    population table,

    .. math::

        k\\text{-map} = \\min_{j: f_j > 0} F_j, \\qquad
        \\delta_j = f_j(T) / F_j(P), \\quad
        (\\delta_{min}, \\delta_{max}) = (\\min_j \\delta_j, \\max_j \\delta_j)

    over the released classes (Sweeney 2002; Nergiz, Atzori and Clifton
    2007).

    Parameters
    ----------
    released : pandas.DataFrame
        T, the table released (or to be released).
    population : pandas.DataFrame
        P, the identified population table; T must be a subset of it.
    quasi_identifiers : sequence of str
        Columns of both tables.

    Returns
    -------
    PopulationMatch

    Raises
    ------
    RolesError
        When a QI is missing from either table, or is numeric in one and
        text in the other.
    RiskcoreError
        When a released class is absent from the population, or has more
        released records than population members (T is then not a subset
        of P); the message names the classes.
    """
    qis = tuple(quasi_identifiers)
    if not qis:
        raise RolesError("choose at least one quasi-identifier")
    if len(set(qis)) != len(qis):
        raise RolesError("a quasi-identifier is listed twice")
    for name, df in (("release", released), ("population table", population)):
        if not isinstance(df, pd.DataFrame):
            raise TypeError(f"the {name} must be a DataFrame, got {type(df).__name__}")
        absent = [q for q in qis if q not in df.columns]
        if absent:
            raise RolesError(f"the {name} has no column {absent[0]!r}")
    if len(released) == 0:
        raise RiskcoreError("the release has no records")
    for q in qis:
        kinds = [
            pd.api.types.is_numeric_dtype(df[q].dtype) and not pd.api.types.is_bool_dtype(df[q])
            for df in (released, population)
        ]
        if kinds[0] != kinds[1]:
            which = ("numeric", "text") if kinds[0] else ("text", "numeric")
            raise RolesError(
                f"{q!r} is {which[0]} in the release and {which[1]} in the population table; "
                "load both so the column has the same type"
            )
    n_r, n_p = len(released), len(population)
    both = pd.concat(
        [released[list(qis)].reset_index(drop=True), population[list(qis)].reset_index(drop=True)],
        ignore_index=True,
    )
    enc = EncodedTable(both)
    cls = enc.record_classes(qis)
    table = enc.classes(qis)
    f = np.bincount(cls[:n_r], minlength=table.n_classes)
    big_f = np.bincount(cls[n_r:], minlength=table.n_classes)
    rel = np.flatnonzero(f > 0)
    missing = rel[big_f[rel] == 0]
    if len(missing):
        raise RiskcoreError(
            f"{len(missing):,} class(es) of the release are not in the population table, so the "
            f"release is not a subset of it: {_describe(table.values(missing), qis)}"
        )
    over = rel[f[rel] > big_f[rel]]
    if len(over):
        raise RiskcoreError(
            f"{len(over):,} class(es) have more released records than population members, so the "
            f"release is not a subset of the population table: {_describe(table.values(over), qis)}"
        )
    delta = f[rel] / big_f[rel]
    classes = table.values(rel)
    classes["released"] = f[rel]
    classes["population"] = big_f[rel]
    classes["delta"] = delta
    order = np.lexsort((rel, -delta))  # largest delta first, then class order
    classes = classes.iloc[order].reset_index(drop=True)
    absent = (big_f > 0) & (f == 0)
    return PopulationMatch(
        quasi_identifiers=qis,
        n_released=n_r,
        n_population=n_p,
        n_classes=len(rel),
        k_map=int(big_f[rel].min()),
        delta_min=float(delta.min()),
        delta_max=float(delta.max()),
        absent_classes=int(absent.sum()),
        absent_records=int(big_f[absent].sum()),
        classes=classes,
        record_k_map=big_f[cls[:n_r]].astype(np.int64),
    )


def k_map(
    released: pd.DataFrame, population: pd.DataFrame, quasi_identifiers: Sequence[str]
) -> int:
    """Return k-map: the smallest population class matching a released class.

    See :func:`population_match` (same parameters and errors).
    """
    return population_match(released, population, quasi_identifiers).k_map


def delta_presence(
    released: pd.DataFrame, population: pd.DataFrame, quasi_identifiers: Sequence[str]
) -> tuple[float, float]:
    """Return (delta_min, delta_max) of delta_j = f_j(T) / F_j(P) over released classes.

    See :func:`population_match` (same parameters and errors).
    """
    m = population_match(released, population, quasi_identifiers)
    return m.delta_min, m.delta_max
