"""Differencing attack: two aggregate answers that differ by one group.

Computed from encoded columns; loops run over the released queries only,
never over records.

With a person column the queries count people (``shared/notes/formulas.md``,
"Many rows per person"). The target is a person, known to the attacker by
one of their rows' values; the excluded group is the people holding a row
with those known values (the people whose signature contains the target's
known tuple, as a linkage attacker's candidates are). A person's value in a
query is one per person: for a count, whether one of their rows matches the
filter (a person with several matching rows is counted once); for a sum,
the total over their rows that match; a mean is the mean of those totals
over the people contributing. Each row being its own person gives the
record queries back exactly.

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
from riskcore._lazy import is_missing
from riskcore._results import Result
from riskcore.attacks._people import check_person, person_ids
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

    With a person column, ``n``, ``group_size`` and the contributors count
    people (see :func:`differencing_attack`), and ``rows`` holds the rows.

    Attributes
    ----------
    target : int
        Position of the target record (with a person column: a row of the
        target person, whose values the attacker knows).
    known : tuple of str
        Attributes the attacker knows about the target.
    aggregate : str
        "count", "sum" or "mean".
    column : str or None
        Summed / averaged column.
    condition : tuple of (str, str)
        Filter of a count query as (column, value) pairs.
    n : int
        Records in the table (people with a person column).
    group_size : int
        Records sharing the target's known values, the target included
        (people holding a row with them, with a person column).
    q_all, q_rest : float
        Exact answers of the two queries.
    contributors_all, contributors_rest : int
        Records (people) each answer is computed from (the count itself for
        counts).
    recovered : float
        What the attacker computes from the two answers.
    true_value : float
        The target's own value (1/0 for a count's filter; with a person
        column, the person's total over their matching rows).
    exact : bool
        True when the group is the target alone, so ``recovered`` is the
        target's value.
    min_cell : int
        The minimum cell-size rule checked.
    passes_cell_rule : bool
        Both answers have at least ``min_cell`` contributors, so a
        cell-size rule would publish them (and the attack works).
    person : str or None
        The column linking a person's rows; None: each record is taken to be
        a different person.
    rows : int or None
        With ``person``: the rows of the table (``n`` counts its people).
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
    person: str | None = None
    rows: int | None = None

    @property
    def unit(self) -> str:
        """Return what the answers count: "person" (a person column is set) or "record"."""
        return "record" if self.person is None else "person"

    def queries(self, labels: Mapping[str, str] | None = None) -> tuple[str, str]:
        """Return the two queries in plain words.

        ``labels`` gives a reader's name for a column ({"date_of_birth":
        "date of birth"}); other columns keep their own names.

        Parameters
        ----------
        labels : mapping of str to str, optional
            A reader's name per column.

        Returns
        -------
        tuple of (str, str)
            Q_all ("..., over everyone"), then Q_rest ("..., over everyone except people
            with the target's ...").
        """
        name = (lambda c: labels.get(c, c)) if labels else (lambda c: c)
        mean = (
            f"the average {name(self.column or '')} of people"
            if self.person is None
            else f"the average total {name(self.column or '')} per person, of people"
        )
        what = {
            "count": "how many people",
            "sum": f"the total {name(self.column or '')} of people",
            "mean": mean,
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
            The fields, plus ``queries``, ``answers`` ``[q_all, q_rest]`` and
            ``contributors`` ``[all, rest]``.
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
    person: str | None = None,
) -> DifferencingResult:
    """Recover a target's value from two aggregate answers.

    Q_all is asked over everyone, Q_rest over everyone outside the group G of
    those sharing the target's ``known`` values; Q_all - Q_rest is the
    group's part of the answer, the target's own value when G is the target
    alone [DR14]_.

    With ``person`` the unit is the person: G is the set of people holding
    a row that agrees with the target row on every ``known`` column (a
    missing value agreeing with a missing value), and the value of person P
    is x_P = [a row of P matches ``condition``] for a count, and
    x_P = the sum of ``column`` over P's rows matching ``condition`` for a
    sum, P contributing when one of those rows has a value. A count is the
    number of people with x_P = 1; a sum adds x_P; a mean is the sum over
    the contributing people divided by their number. The cell-size rule
    counts contributing people.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    target : int
        Position (not label) of the target's row.
    known : list of str
        What the attacker knows about the target (defines the excluded group).
    aggregate : {"count", "sum", "mean"}
        The aggregate both queries ask.
    column : str, optional
        Numeric column for "sum" and "mean".
    condition : dict, optional
        {column: value} filter of the count (e.g. {"Problem": "Obesity"}).
        For a count it is required; for sums it restricts the rows summed.
    min_cell : int
        Minimum cell-size rule to check (answers from fewer records are
        suppressed under the rule).
    person : str, optional
        The column linking the rows of one person (a row with no person
        value is a person of its own); it cannot be known, filtered or summed.

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
    _check_person(data, person, known, column=column, condition=condition)
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
        match &= (s == v).fillna(False).to_numpy(dtype=bool) if not is_missing(v) else s.isna()
        cond_pairs.append((str(c), str(v)))
    if person is None:
        g, n_units = int(in_group.sum()), n
        answers = _answers(data, match, in_group, t, aggregate=aggregate, column=column)
    else:
        g, n_units, answers = _person_answers(
            data, enc, match, in_group, t, aggregate=aggregate, column=column, person=person
        )
    q_all, q_rest, c_all, c_rest, recovered, true_value = answers
    return DifferencingResult(
        target=t,
        known=tuple(str(c) for c in known),
        aggregate=aggregate,
        column=column,
        condition=tuple(cond_pairs),
        n=n_units,
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
        person=person,
        rows=None if person is None else n,
    )


def _check_person(
    data: pd.DataFrame,
    person: str | None,
    known: list[str] | tuple[str, ...],
    *,
    column: str | None,
    condition: dict[str, object] | None,
) -> None:
    """Refuse a person column that is not a column, or that the queries read."""
    check_person(data.columns, person)
    if person is not None and (person in known or person == column or person in (condition or {})):
        raise RiskcoreError(
            f"the person column {person!r} links a person's rows: the attacker does not know "
            "it, and the queries do not filter or sum it"
        )


def _totals(
    aggregate: str, s_all: float, s_rest: float, c_all: int, c_rest: int
) -> tuple[float, float, float]:
    """Return (Q_all, Q_rest, recovered group total) of a sum or a mean.

    For a mean, the group's sum is recovered as mean_all n_all - mean_rest n_rest.
    """
    if aggregate == "sum":
        return s_all, s_rest, s_all - s_rest
    q_all = s_all / c_all if c_all else float("nan")
    q_rest = s_rest / c_rest if c_rest else float("nan")
    return q_all, q_rest, q_all * c_all - (q_rest * c_rest if c_rest else 0.0)


def _person_answers(
    data: pd.DataFrame,
    enc: EncodedTable,
    match: np.ndarray,
    in_group_rows: np.ndarray,
    t: int,
    *,
    aggregate: str,
    column: str | None,
    person: str,
) -> tuple[int, int, tuple[float, float, int, int, float, float]]:
    """Answer both queries over people (see :func:`differencing_attack`).

    Returns (people in the group, people in the table, and the answers as
    :func:`_answers` gives them).
    """
    who, n_people = person_ids(enc.column(person))
    group = np.zeros(n_people, dtype=bool)
    group[who[in_group_rows]] = True  # people holding a row with the target's known values
    mine = who[t]
    if aggregate == "count" or column is None:
        has = np.zeros(n_people, dtype=bool)
        has[who[match]] = True
        q_all, q_rest = float(has.sum()), float((has & ~group).sum())
        answers = (q_all, q_rest, int(q_all), int(q_rest), q_all - q_rest, float(has[mine]))
        return int(group.sum()), n_people, answers
    x = pd.to_numeric(data[column], errors="coerce").to_numpy(dtype=float)
    ok = match & ~np.isnan(x)
    contributes = np.bincount(who[ok], minlength=n_people) > 0
    c_all, c_rest = int(contributes.sum()), int((contributes & ~group).sum())
    s_all, s_rest = float(x[ok].sum()), float(x[ok & ~group[who]].sum())
    q_all, q_rest, recovered = _totals(aggregate, s_all, s_rest, c_all, c_rest)
    true_value = float(x[ok & (who == mine)].sum()) if contributes[mine] else float("nan")
    return int(group.sum()), n_people, (q_all, q_rest, c_all, c_rest, recovered, true_value)


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
    q_all, q_rest, recovered = _totals(aggregate, s_all, s_rest, c_all, c_rest)
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
        The sensitivity of each query: the Laplace scale is ``sensitivity / epsilon``.
    draws : int
        The number of estimates simulated.
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


@renamed_arguments(table="data")
def unique_target(
    data: EncodedTable, known: tuple[str, ...], *, person: str | None = None
) -> int | None:
    """Return the first row unique on the ``known`` columns, the natural differencing target.

    A differencing attack isolates exactly one person only when nobody else
    shares the target's known values; this is the first such row (position,
    from 0), found through the engine's per-record class ids. With
    ``person``: the first row whose known values no other person holds on
    any of their rows (the group of :func:`differencing_attack` is that one
    person), counted on the engine's person partition.

    Parameters
    ----------
    data : EncodedTable
        The table.
    known : tuple of str
        Columns the attacker knows about the target.
    person : str, optional
        The column linking the rows of one person.

    Returns
    -------
    int or None
        The row position, or None when ``known`` is empty or nobody is unique on it.
    """
    if not known:
        return None
    if person is not None:
        check_person(data.columns, person)
        groups = data.partition(known, person=person).people
        if groups is None:  # pragma: no cover - a person partition carries its people
            return None
        per_tuple = np.bincount(
            np.unique(groups.tuple_id * groups.n_people + groups.person) // groups.n_people,
            minlength=groups.n_tuples,
        )  # people holding each tuple
        sizes = per_tuple[groups.tuple_id]
    else:
        ids = data.record_classes(known)  # groups once; class_sizes reuses that partition
        sizes = data.class_sizes(known)[ids]
    hits = np.flatnonzero(sizes == 1)
    return int(hits[0]) if hits.size else None
