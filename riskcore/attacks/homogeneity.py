"""Homogeneity attack: classes whose sensitive value is (nearly) shared by all.

Computed from the engine's tabulation (class sizes and the sparse class x value
contingency); loops run over criteria levels only, never over records or classes.

With a person column the classes are people grouped by their QI signature
(the set of their rows' QI tuples, ``shared/notes/formulas.md``, "Many rows
per person"), and a cell f_j(s) counts the people of class j holding value s
on at least one of their rows (each person once per distinct value they
hold, :func:`riskcore.engine.class_value_counts`). Class j is then exposed
when max_s f_j(s) / F_j >= p, F_j its number of people: at p = 1 every one
of its people holds the value, so knowing a person's QIs tells that they had
it (on some row).

References
----------
.. [M07] A. Machanavajjhala et al., "l-diversity: privacy beyond
   k-anonymity", ACM TKDD 1(1), 2007 (homogeneity and background-knowledge
   attacks).
.. [L07] N. Li, T. Li, S. Venkatasubramanian, "t-closeness", ICDE 2007.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore._results import NOT_IN_JSON, Result
from riskcore.attacks._people import check_person
from riskcore.criteria import (
    Criterion,
    DistinctLDiversity,
    EntropyLDiversity,
    Evidence,
    RecursiveCLDiversity,
    SensitiveEvidence,
    TCloseness,
)
from riskcore.engine import Contingency, EncodedTable, class_value_counts
from riskcore.errors import RiskcoreError
from riskcore.metrics import class_majority

__all__ = [
    "CRITERION_COLUMNS",
    "PEOPLE_LEFT",
    "CriterionLevel",
    "HomogeneityResult",
    "homogeneity_attack",
]

# ------------------------------------------------------------------ homogeneity


@dataclass(frozen=True)
class CriterionLevel(Result):
    """How many exposed classes remain among the classes satisfying one criterion level.

    Attributes
    ----------
    criterion : str
        "distinct l", "entropy l", "recursive (c,l)" or "t-closeness".
    level : float
        The l or t required.
    classes_satisfying : int
        Classes that satisfy it.
    exposed_classes_left, exposed_records_left : int
        Exposed classes (and their records) that satisfy it all the same.
    exposed_people_left : int or None
        With a person column, the people of those classes (None: one row per
        person, as many as the records).
    """

    criterion: str
    level: float
    classes_satisfying: int
    exposed_classes_left: int
    exposed_records_left: int
    exposed_people_left: int | None = None


#: Column names of :attr:`HomogeneityResult.by_criterion`, one per field of
#: :class:`CriterionLevel` (the people left only with a person column).
CRITERION_COLUMNS = (
    "criterion",
    "level",
    "classes satisfying it",
    "exposed classes left",
    "exposed records left",
)
#: The column of :attr:`HomogeneityResult.by_criterion` counting people, with a person column.
PEOPLE_LEFT = "exposed people left"


def _no_ints() -> np.ndarray:
    return np.zeros(0, dtype=np.int64)


def _no_floats() -> np.ndarray:
    return np.zeros(0, dtype=np.float64)


def _no_values() -> np.ndarray:
    return np.zeros(0, dtype=object)


@dataclass(frozen=True)
class HomogeneityResult(Result):
    """Classes where knowing a person's QIs reveals the sensitive value with probability >= p.

    Attributes
    ----------
    attribute : str
    p : float
    n_records, n_classes : int
        Rows of the table, and its classes (of people with a person column).
    exposed_records : int
        Records (rows) in exposed classes.
    exposed_classes : int
        Number of exposed classes.
    criteria : tuple of CriterionLevel
        For each criterion and level, the exposed classes and records that
        remain among the classes that satisfy it: how the list shrinks as l
        is raised or t lowered (as a table: :attr:`by_criterion`).
    exposed : numpy.ndarray
        Class ids (of the partition) that are exposed, largest first.
    top_value : numpy.ndarray
        Most common value of each exposed class (:func:`~riskcore.metrics.class_majority`).
    top_share : numpy.ndarray
        Its share in the class (the attacker's confidence).
    sizes : numpy.ndarray
        Size of each exposed class (people with a person column).
    person : str or None
        The column linking a person's rows; None: each record is taken to be
        a different person.
    people, people_exposed : int or None
        With ``person``: the people of the table and of the exposed classes
        (read them as :attr:`n_people` and :attr:`exposed_people`).
    class_rows : numpy.ndarray
        Rows of each exposed class (its people's rows; its size without a
        person column).

    The five per-class arrays are not written to JSON.
    """

    attribute: str
    p: float
    n_records: int
    n_classes: int
    exposed_records: int
    exposed_classes: int
    criteria: tuple[CriterionLevel, ...]
    exposed: np.ndarray = field(default_factory=_no_ints, repr=False, metadata=NOT_IN_JSON)
    top_value: np.ndarray = field(default_factory=_no_values, repr=False, metadata=NOT_IN_JSON)
    top_share: np.ndarray = field(default_factory=_no_floats, repr=False, metadata=NOT_IN_JSON)
    sizes: np.ndarray = field(default_factory=_no_ints, repr=False, metadata=NOT_IN_JSON)
    person: str | None = None
    people: int | None = None
    people_exposed: int | None = None
    class_rows: np.ndarray = field(default_factory=_no_ints, repr=False, metadata=NOT_IN_JSON)

    @property
    def unit(self) -> str:
        """Return what the classes count: "person" (a person column is set) or "record"."""
        return "record" if self.person is None else "person"

    @property
    def n_people(self) -> int:
        """Return the people of the table (its records without a person column)."""
        return self.n_records if self.people is None else int(self.people)

    @property
    def exposed_people(self) -> int:
        """Return the people in exposed classes (the records without a person column)."""
        return self.exposed_records if self.people_exposed is None else int(self.people_exposed)

    @property
    def by_criterion(self) -> pd.DataFrame:
        """Return :attr:`criteria` as a table, one row per criterion level.

        With a person column the table has one more column, :data:`PEOPLE_LEFT`.
        """
        rows = [dataclasses.astuple(row)[: len(CRITERION_COLUMNS)] for row in self.criteria]
        table = pd.DataFrame(rows, columns=list(CRITERION_COLUMNS))
        if self.person is not None:
            table[PEOPLE_LEFT] = [row.exposed_people_left for row in self.criteria]
        return table


@renamed_arguments(table="data")
def homogeneity_attack(
    data: EncodedTable | pd.DataFrame,
    quasi_identifiers: list[str] | tuple[str, ...],
    sensitive: str,
    *,
    p: float = 1.0,
    l_levels: tuple[int, ...] = (1, 2, 3, 4, 5),
    c: float = 2.0,
    t_levels: tuple[float, ...] = (1.0, 0.5, 0.3, 0.2, 0.15, 0.1),
    person: str | None = None,
) -> HomogeneityResult:
    """Find the classes that disclose a sensitive value to anyone who knows the QIs [M07]_.

    Class j is exposed when max_s f_j(s) / f_j >= p. p = 1 is the
    homogeneity attack (everyone in the class shares the value); p < 1 adds
    the background-knowledge case where the attacker is confident enough.

    With ``person`` the classes are people with equal QI signatures, f_j
    counts people and f_j(s) the people of class j holding s on one of
    their rows (each person once per distinct value): class j is exposed
    when max_s f_j(s) / f_j >= p, so at p = 1 when all its people share a
    value (a person may hold others besides). Without ``person`` (or with
    one row per person) this is the class of records above.

    For each criterion level, ``by_criterion`` counts the exposed classes
    that still *satisfy* the criterion: distinct l_j >= L, entropy
    exp(H_j) >= L, recursive (c,L), and t_j <= t (equal distance for text,
    ordered for numbers) [L07]_. It shows which requirement actually
    removes the exposure (distinct 2-diversity removes homogeneous classes
    but not 90%-majority classes).

    Parameters
    ----------
    data : EncodedTable or pandas.DataFrame
        The table, or its encoded form (whose codes are cached).
    quasi_identifiers : list of str
        The quasi-identifier columns.
    sensitive : str
        The sensitive attribute an attacker learns.
    p : float
        Confidence threshold in (0, 1].
    l_levels : tuple of int
        The l's at which distinct, entropy and recursive (c,l)-diversity are tried.
    c : float
        The c of recursive (c,l)-diversity.
    t_levels : tuple of float
        The t's at which t-closeness is tried.
    person : str, optional
        The column linking the rows of one person (a row with no person
        value is a person of its own); it cannot be a QI or the attribute.

    Returns
    -------
    HomogeneityResult
    """
    if not 0 < p <= 1:
        raise RiskcoreError(f"p must be in (0, 1], got {p!r}")
    enc = data if isinstance(data, EncodedTable) else EncodedTable(data)
    qis = list(quasi_identifiers)
    check_person(enc.columns, person)
    if person is not None and (person in qis or person == sensitive):
        raise RiskcoreError(
            f"the person column {person!r} links a person's rows: it cannot be a "
            "quasi-identifier or the sensitive attribute"
        )
    part = enc.partition(qis, person=person)
    cont = class_value_counts(part, enc.column(sensitive))
    sizes = part.sizes  # people with a person column (the contingency counts (person, value))
    rows_of = sizes if part.people is None else part.people.rows
    n_classes = len(sizes)
    top_count, top_code = class_majority(cont)
    share = top_count / np.maximum(sizes, 1)
    exposed_mask = share >= p - 1e-12
    ex = np.flatnonzero(exposed_mask)
    ex = ex[np.argsort(-sizes[ex], kind="stable")]

    levels = _criteria(
        cont,
        exposed_mask,
        sizes,
        rows_of,
        c=c,
        l_levels=l_levels,
        t_levels=t_levels,
        people=person is not None,
    )
    labels = cont.labels
    return HomogeneityResult(
        attribute=str(sensitive),
        p=float(p),
        n_records=int(rows_of.sum()),
        n_classes=n_classes,
        exposed=ex,
        top_value=np.asarray(labels, dtype=object)[top_code[ex]],
        top_share=share[ex],
        sizes=sizes[ex],
        exposed_records=int(rows_of[ex].sum()),
        exposed_classes=len(ex),
        criteria=levels,
        person=person,
        people=None if person is None else int(sizes.sum()),
        people_exposed=None if person is None else int(sizes[ex].sum()),
        class_rows=rows_of[ex],
    )


def _criteria(
    cont: Contingency,
    exposed_mask: np.ndarray,
    sizes: np.ndarray,
    rows_of: np.ndarray,
    *,
    c: float,
    l_levels: Sequence[float],
    t_levels: Sequence[float],
    people: bool,
) -> tuple[CriterionLevel, ...]:
    """Count, per criterion level, the classes satisfying it and the exposed ones left.

    Each level is judged by its criterion (:mod:`riskcore.criteria`), the
    one home of every pass / fail: distinct l_j >= L, entropy H_j >= ln L,
    recursive (c,L) and t_j <= t [M07]_ [L07]_, over the attack's classes
    and contingency; the loop runs over the levels, each vectorized over
    classes. ``sizes`` are the classes' units (people or records),
    ``rows_of`` their rows.
    """
    attribute = "sensitive"
    evidence = Evidence(
        records=np.asarray(sizes, dtype=np.int64),
        sensitive={attribute: SensitiveEvidence(cont, "ordered" if cont.ordered else "equal")},
    )
    models: tuple[tuple[str, Sequence[float], Callable[[float], Criterion]], ...] = (
        ("distinct l", l_levels, lambda lv: DistinctLDiversity(l=int(lv))),
        ("entropy l", l_levels, lambda lv: EntropyLDiversity(l=float(lv))),
        (f"recursive ({c:g},l)", l_levels, lambda lv: RecursiveCLDiversity(c=c, l=int(lv))),
        ("t-closeness", t_levels, lambda lv: TCloseness(t=float(lv))),
    )
    rows = []
    for crit, levels, model in models:
        for lv in levels:
            ok = ~model(lv).breaks(evidence, attribute)
            keep = exposed_mask & ok
            rows.append(
                CriterionLevel(
                    criterion=crit,
                    level=float(lv),
                    classes_satisfying=int(ok.sum()),
                    exposed_classes_left=int(keep.sum()),
                    exposed_records_left=int(rows_of[keep].sum()),
                    exposed_people_left=int(sizes[keep].sum()) if people else None,
                )
            )
    return tuple(rows)
