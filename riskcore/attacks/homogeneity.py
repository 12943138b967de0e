"""Homogeneity attack: classes whose sensitive value is (nearly) shared by all.

Computed from the engine's tabulation (class sizes and the sparse class x value
contingency); loops run over criteria levels only, never over records or classes.

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
from riskcore.engine import Contingency, EncodedTable, class_value_counts
from riskcore.errors import RiskcoreError
from riskcore.metrics import (
    class_majority,
    distinct_l_per_class,
    entropy_per_class,
    recursive_l_per_class,
    t_closeness_per_class,
)

__all__ = [
    "CRITERION_COLUMNS",
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
    """

    criterion: str
    level: float
    classes_satisfying: int
    exposed_classes_left: int
    exposed_records_left: int


#: Column names of :attr:`HomogeneityResult.by_criterion`, one per field of
#: :class:`CriterionLevel`.
CRITERION_COLUMNS = (
    "criterion",
    "level",
    "classes satisfying it",
    "exposed classes left",
    "exposed records left",
)


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
    exposed_records : int
        Records in exposed classes.
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
        Size of each exposed class.

    The four per-class arrays are not written to JSON.
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

    @property
    def by_criterion(self) -> pd.DataFrame:
        """Return :attr:`criteria` as a table, one row per criterion level."""
        return pd.DataFrame(
            [dataclasses.astuple(row) for row in self.criteria], columns=list(CRITERION_COLUMNS)
        )


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
) -> HomogeneityResult:
    """Find the classes that disclose a sensitive value to anyone who knows the QIs [M07]_.

    Class j is exposed when max_s f_j(s) / f_j >= p. p = 1 is the
    homogeneity attack (everyone in the class shares the value); p < 1 adds
    the background-knowledge case where the attacker is confident enough.

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
    p : float
        Confidence threshold in (0, 1].
    l_levels : tuple of int
    c : float
        The c of recursive (c,l)-diversity.
    t_levels : tuple of float

    Returns
    -------
    HomogeneityResult
    """
    if not 0 < p <= 1:
        raise RiskcoreError(f"p must be in (0, 1], got {p!r}")
    enc = data if isinstance(data, EncodedTable) else EncodedTable(data)
    part = enc.partition(list(quasi_identifiers))
    cont = class_value_counts(part, enc.column(sensitive))
    sizes = cont.class_sizes
    n_classes = len(sizes)
    top_count, top_code = class_majority(cont)
    share = top_count / np.maximum(sizes, 1)
    exposed_mask = share >= p - 1e-12
    ex = np.flatnonzero(exposed_mask)
    ex = ex[np.argsort(-sizes[ex], kind="stable")]

    rows = _criteria(cont, exposed_mask, c=c, l_levels=l_levels, t_levels=t_levels)
    labels = cont.labels
    return HomogeneityResult(
        attribute=str(sensitive),
        p=float(p),
        n_records=int(sizes.sum()),
        n_classes=n_classes,
        exposed=ex,
        top_value=np.asarray(labels, dtype=object)[top_code[ex]],
        top_share=share[ex],
        sizes=sizes[ex],
        exposed_records=int(sizes[ex].sum()),
        exposed_classes=len(ex),
        criteria=rows,
    )


def _at_least(values: np.ndarray, level: float) -> np.ndarray:
    return values >= level


def _entropy_at_least(values: np.ndarray, level: float) -> np.ndarray:
    return values >= level - 1e-9


def _at_most(values: np.ndarray, level: float) -> np.ndarray:
    return values <= level + 1e-12


def _criteria(
    cont: Contingency,
    exposed_mask: np.ndarray,
    *,
    c: float,
    l_levels: Sequence[float],
    t_levels: Sequence[float],
) -> tuple[CriterionLevel, ...]:
    """Count, per criterion level, the classes satisfying it and the exposed ones left.

    Criteria: distinct l_j >= L, entropy exp(H_j) >= L, recursive (c,L) and
    t_j <= t [M07]_ [L07]_; the loop runs over the levels, each vectorized
    over classes.
    """
    sizes = cont.class_sizes
    checks: tuple[tuple[str, np.ndarray, Sequence[float], Callable[..., np.ndarray]], ...] = (
        ("distinct l", distinct_l_per_class(cont), l_levels, _at_least),
        ("entropy l", np.exp(entropy_per_class(cont)), l_levels, _entropy_at_least),
        (f"recursive ({c:g},l)", recursive_l_per_class(cont, c), l_levels, _at_least),
        ("t-closeness", t_closeness_per_class(cont), t_levels, _at_most),
    )
    rows = []
    for crit, values, levels, passes in checks:
        for lv in levels:
            ok = passes(values, lv)
            keep = exposed_mask & ok
            rows.append(
                CriterionLevel(
                    criterion=crit,
                    level=float(lv),
                    classes_satisfying=int(ok.sum()),
                    exposed_classes_left=int(keep.sum()),
                    exposed_records_left=int(sizes[keep].sum()),
                )
            )
    return tuple(rows)
