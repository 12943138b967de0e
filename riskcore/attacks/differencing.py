"""Differencing attack: two aggregate answers that differ by one group.

Computed from encoded columns; loops run over the released queries only,
never over records.

References
----------
.. [DR14] C. Dwork, A. Roth, *The Algorithmic Foundations of Differential
   Privacy*, FnT-TCS 9(3-4), 2014 (Laplace mechanism; differencing as the
   motivating attack).
.. [DN03] I. Dinur, K. Nissim, "Revealing information while preserving
   privacy", PODS 2003 (combining releases; linear reconstruction).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore._results import Result
from riskcore.engine import EncodedTable, pack_keys
from riskcore.errors import RiskcoreError

__all__ = [
    "DifferencingResult",
    "difference_within_probability",
    "differencing_attack",
    "simulate_noisy_difference",
    "unique_target",
]

Aggregate = Literal["count", "sum", "mean"]


# ------------------------------------------------------------------ differencing


@dataclass(frozen=True)
class DifferencingResult(Result):
    """Two innocent-looking aggregate queries whose difference reveals a person.

    Q_all is asked over everyone, Q_rest over everyone except the records
    that share the target's known attributes (the "group"). With a count
    under a filter, Q_all - Q_rest is the number of group members that
    match the filter; with a sum it is the group's total. When the group is
    the target alone, the difference is the target's own value [DR14]_.

    Attributes
    ----------
    target : int
        Position of the target record.
    known : tuple of str
        Attributes the attacker knows about the target.
    aggregate : str
        "count", "sum" or "mean".
    column : str or None
        Summed / averaged column.
    condition : tuple of (str, str)
        Filter of a count query as (column, value) pairs.
    n : int
        Records in the table.
    group_size : int
        Records sharing the target's known values (the target included).
    q_all, q_rest : float
        Exact answers of the two queries.
    contributors_all, contributors_rest : int
        Records each answer is computed from (the count itself for counts).
    recovered : float
        What the attacker computes from the two answers.
    true_value : float
        The target's own value (1/0 for a count's filter).
    exact : bool
        True when the group is the target alone, so ``recovered`` is the
        target's value.
    min_cell : int
        The minimum cell-size rule checked.
    passes_cell_rule : bool
        Both answers have at least ``min_cell`` contributors, so a
        cell-size rule would publish them (and the attack works).
    """

    target: int
    known: tuple[str, ...]
    aggregate: str
    column: str | None
    condition: tuple[tuple[str, str], ...]
    n: int
    group_size: int
    q_all: float
    q_rest: float
    contributors_all: int
    contributors_rest: int
    recovered: float
    true_value: float
    exact: bool
    min_cell: int
    passes_cell_rule: bool

    def queries(self, labels: Mapping[str, str] | None = None) -> tuple[str, str]:
        """Return the two queries in plain words.

        ``labels`` gives a reader's name for a column ({"date_of_birth":
        "date of birth"}); other columns keep their own names.

        Parameters
        ----------
        labels : mapping of str to str, optional

        Returns
        -------
        tuple of (str, str)
            The two queries in plain words.
        """
        name = (lambda c: labels.get(c, c)) if labels else (lambda c: c)
        what = {
            "count": "how many people",
            "sum": f"the total {name(self.column or '')} of people",
            "mean": f"the average {name(self.column or '')} of people",
        }[self.aggregate]
        cond = " and ".join(f"{name(c)} = {v}" for c, v in self.condition)
        who = f" with {cond}" if cond else ""
        known = ", ".join(name(c) for c in self.known)
        return (
            f"{what}{who}, over everyone",
            f"{what}{who}, over everyone except people with the target's {known}",
        )

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict, with the queries in words and the answers as pairs.

        Returns
        -------
        dict of str to Any
            A JSON-ready dict, with the queries in words and the answers as pairs.
        """
        out = super().to_dict()
        out["queries"] = list(self.queries())
        out["answers"] = [out["q_all"], out["q_rest"]]
        out["contributors"] = [self.contributors_all, self.contributors_rest]
        return out


def differencing_attack(
    data: pd.DataFrame,
    target: int,
    known: list[str] | tuple[str, ...],
    *,
    aggregate: Aggregate = "count",
    column: str | None = None,
    condition: dict[str, object] | None = None,
    min_cell: int = 11,
) -> DifferencingResult:
    """Recover a target's value from two aggregate answers.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    target : int
        Position (not label) of the target's row.
    known : list of str
        What the attacker knows about the target (defines the excluded group).
    aggregate : {"count", "sum", "mean"}
    column : str, optional
        Numeric column for "sum" and "mean".
    condition : dict, optional
        {column: value} filter of the count (e.g. {"Problem": "Obesity"}).
        For a count it is required; for sums it restricts the rows summed.
    min_cell : int
        Minimum cell-size rule to check (answers from fewer records are
        suppressed under the rule).

    Returns
    -------
    DifferencingResult

    Examples
    --------
    The hospital table of ``seed_examples/health_toy.csv``: the neighbour is
    position 9 (Single, Male, 2138, White); Q_all = 4 people have obesity,
    Q_rest = 3, so the neighbour has obesity.
    """
    _check_query(data, target, known, aggregate=aggregate, column=column, condition=condition)
    n = len(data)
    enc = EncodedTable(data)
    t = int(target)
    codes = [enc.column(c).codes for c in known]
    key, _ = pack_keys(codes, [enc.column(c).n_values for c in known])
    in_group = key == key[t]
    match = np.ones(n, dtype=bool)
    cond_pairs: list[tuple[str, str]] = []
    for c, v in (condition or {}).items():  # a few filter columns
        s = data[c]
        match &= (s == v).fillna(False).to_numpy(dtype=bool) if not _is_missing(v) else s.isna()
        cond_pairs.append((str(c), str(v)))
    g = int(in_group.sum())
    q_all, q_rest, c_all, c_rest, recovered, true_value = _answers(
        data, match, in_group, t, aggregate=aggregate, column=column
    )
    return DifferencingResult(
        target=t,
        known=tuple(str(c) for c in known),
        aggregate=aggregate,
        column=column,
        condition=tuple(cond_pairs),
        n=n,
        group_size=g,
        q_all=q_all,
        q_rest=q_rest,
        contributors_all=c_all,
        contributors_rest=c_rest,
        recovered=float(recovered),
        true_value=true_value,
        exact=g == 1,
        min_cell=int(min_cell),
        passes_cell_rule=c_all >= min_cell and c_rest >= min_cell,
    )


def _check_query(
    data: pd.DataFrame,
    target: int,
    known: list[str] | tuple[str, ...],
    *,
    aggregate: str,
    column: str | None,
    condition: dict[str, object] | None,
) -> None:
    """Validate the options of :func:`differencing_attack`."""
    n = len(data)
    if not 0 <= int(target) < n:
        raise RiskcoreError(f"the target must be a row between 0 and {n - 1}, got {target}")
    if not known:
        raise RiskcoreError("choose at least one attribute the attacker knows")
    cols = list(known) + list((condition or {}).keys()) + ([column] if column else [])
    for c in cols:
        if c not in data.columns:
            raise RiskcoreError(f"the table has no column {c!r}")
    if aggregate not in ("count", "sum", "mean"):
        raise RiskcoreError(f"aggregate must be count, sum or mean, got {aggregate!r}")
    if aggregate == "count" and not condition:
        raise RiskcoreError("a count needs a filter (what is being counted)")
    if aggregate != "count":
        if column is None:
            raise RiskcoreError(f"a {aggregate} needs a numeric column")
        if not pd.api.types.is_numeric_dtype(data[column].dtype):
            raise RiskcoreError(f"column {column!r} is not numeric")


def _answers(
    data: pd.DataFrame,
    match: np.ndarray,
    in_group: np.ndarray,
    t: int,
    *,
    aggregate: str,
    column: str | None,
) -> tuple[float, float, int, int, float, float]:
    """Answer both queries and take the difference.

    Returns (Q_all, Q_rest, contributors to each, recovered value, true value).
    For a mean, the group's sum is recovered: mean_all n_all - mean_rest n_rest.
    """
    if aggregate == "count" or column is None:
        q_all = float(match.sum())
        q_rest = float((match & ~in_group).sum())
        return q_all, q_rest, int(q_all), int(q_rest), q_all - q_rest, float(match[t])
    x = pd.to_numeric(data[column], errors="coerce").to_numpy(dtype=float)
    ok = match & ~np.isnan(x)
    c_all, c_rest = int(ok.sum()), int((ok & ~in_group).sum())
    s_all, s_rest = float(x[ok].sum()), float(x[ok & ~in_group].sum())
    if aggregate == "sum":
        q_all, q_rest = s_all, s_rest
        recovered = q_all - q_rest
    else:
        q_all = s_all / c_all if c_all else float("nan")
        q_rest = s_rest / c_rest if c_rest else float("nan")
        recovered = q_all * c_all - (q_rest * c_rest if c_rest else 0.0)
    true_value = float(x[t]) if ok[t] else float("nan")
    return q_all, q_rest, c_all, c_rest, recovered, true_value


def difference_within_probability(
    within: float | np.ndarray, epsilon: float | np.ndarray, sensitivity: float = 1.0
) -> np.ndarray:
    """Probability that the attacker's difference lands within +/- ``within`` of the truth.

    Each of the two answers gets independent Laplace noise of scale
    b = sensitivity / epsilon [DR14]_. The difference of two Laplace(b)
    variables has density (1/4b)(1 + |z|/b) e^{-|z|/b}, so

        P(|D| <= x) = 1 - e^{-x/b} (1 + x / (2b)).

    Parameters
    ----------
    within : float or array
        Half-width x >= 0 (0.5 for a count: rounding gives the exact value).
    epsilon : float or array
        Per-query epsilon > 0 (the pair costs 2 epsilon under sequential
        composition).
    sensitivity : float
        L1 sensitivity of each query (1 for a count).

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> float(difference_within_probability(0.5, 1.0).round(4))
    0.2418
    """
    eps = np.asarray(epsilon, dtype=float)
    x = np.asarray(within, dtype=float)
    if np.any(eps <= 0) or np.any(x < 0) or not sensitivity > 0:
        raise ValueError("epsilon and sensitivity must be > 0 and within >= 0")
    b = sensitivity / eps
    return 1.0 - np.exp(-x / b) * (1.0 + x / (2.0 * b))


def simulate_noisy_difference(
    recovered: float,
    epsilon: float,
    *,
    sensitivity: float = 1.0,
    draws: int = 10_000,
    seed: int = 0,
) -> np.ndarray:
    """Simulate the attacker's estimate from two Laplace-noised answers (numpy; simulation only).

    Parameters
    ----------
    recovered : float
        The noise-free difference.
    epsilon : float
        Per-query epsilon.
    sensitivity : float
    draws : int
    seed : int
        Seed of the random generator.

    Returns
    -------
    numpy.ndarray
        ``draws`` simulated estimates. Not a differentially private release:
        numpy's floating-point Laplace is only used to draw the picture.
    """
    if not epsilon > 0:
        raise ValueError("epsilon must be > 0")
    rng = np.random.default_rng(seed)
    b = sensitivity / epsilon
    return recovered + rng.laplace(0, b, draws) - rng.laplace(0, b, draws)


def _is_missing(value: object) -> bool:
    """Return whether a condition value is missing (None, NaN, NaT or pd.NA)."""
    return bool(pd.isna(np.array([value], dtype=object))[0])


@renamed_arguments(table="data")
def unique_target(data: EncodedTable, known: tuple[str, ...]) -> int | None:
    """Return the first row unique on the ``known`` columns, the natural differencing target.

    A differencing attack isolates exactly one person only when nobody else
    shares the target's known values; this is the first such row (position,
    from 0), found through the engine's per-record class ids.

    Parameters
    ----------
    data : EncodedTable
    known : tuple of str
        Columns the attacker knows about the target.

    Returns
    -------
    int or None
        The row position, or None when ``known`` is empty or nobody is unique on it.
    """
    if not known:
        return None
    ids = data.record_classes(known)  # groups once; class_sizes reuses that partition
    sizes = data.class_sizes(known)[ids]
    hits = np.flatnonzero(sizes == 1)
    return int(hits[0]) if hits.size else None
