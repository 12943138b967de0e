"""Differencing, homogeneity and two-release attacks.

The linkage attack lives in :mod:`riskcore.linkage`. Everything here is
computed from encoded columns and the one partition of the assessment; loops
run over criteria levels or released groupings, never over records.

References
----------
.. [DR14] C. Dwork, A. Roth, *The Algorithmic Foundations of Differential
   Privacy*, FnT-TCS 9(3-4), 2014 (Laplace mechanism; differencing as the
   motivating attack).
.. [M07] A. Machanavajjhala et al., "l-diversity: privacy beyond
   k-anonymity", ACM TKDD 1(1), 2007 (homogeneity and background-knowledge
   attacks).
.. [L07] N. Li, T. Li, S. Venkatasubramanian, "t-closeness", ICDE 2007.
.. [DN03] I. Dinur, K. Nissim, "Revealing information while preserving
   privacy", PODS 2003 (combining releases; linear reconstruction).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from riskcore.assess import EncodedTable
from riskcore.errors import RiskcoreError
from riskcore.linkage import parse_interval
from riskcore.metrics import (
    distinct_l_per_class,
    entropy_per_class,
    recursive_l_per_class,
    t_closeness_per_class,
)
from riskcore.partition import class_value_counts, pack_keys

__all__ = [
    "DifferencingResult",
    "HomogeneityResult",
    "TwoReleaseResult",
    "difference_within_probability",
    "differencing_attack",
    "homogeneity_attack",
    "simulate_noisy_difference",
    "two_release_attack",
]

Aggregate = Literal["count", "sum", "mean"]


# ------------------------------------------------------------------ differencing


@dataclass(frozen=True)
class DifferencingResult:
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

    def queries(self) -> tuple[str, str]:
        """Return the two queries in plain words."""
        what = {
            "count": "how many people",
            "sum": f"the total {self.column} of people",
            "mean": f"the average {self.column} of people",
        }[self.aggregate]
        cond = " and ".join(f"{c} = {v}" for c, v in self.condition)
        who = f" with {cond}" if cond else ""
        known = ", ".join(self.known)
        return (
            f"{what}{who}, over everyone",
            f"{what}{who}, over everyone except people with the target's {known}",
        )

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        q1, q2 = self.queries()
        return {
            "target": self.target,
            "known": list(self.known),
            "aggregate": self.aggregate,
            "column": self.column,
            "condition": [list(c) for c in self.condition],
            "queries": [q1, q2],
            "n": self.n,
            "group_size": self.group_size,
            "answers": [self.q_all, self.q_rest],
            "contributors": [self.contributors_all, self.contributors_rest],
            "recovered": self.recovered,
            "true_value": self.true_value,
            "exact": self.exact,
            "min_cell": self.min_cell,
            "passes_cell_rule": self.passes_cell_rule,
        }


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
    enc = EncodedTable(data)
    t = int(target)
    codes = [enc.column(c).codes for c in known]
    key, _ = pack_keys(codes, [enc.column(c).n_values for c in known])
    in_group = key == key[t]
    match = np.ones(n, dtype=bool)
    cond_pairs: list[tuple[str, str]] = []
    for c, v in (condition or {}).items():
        s = data[c]
        match &= (s == v).fillna(False).to_numpy(dtype=bool) if not pd.isna(v) else s.isna()
        cond_pairs.append((str(c), str(v)))
    g = int(in_group.sum())
    if aggregate == "count":
        q_all = float(match.sum())
        q_rest = float((match & ~in_group).sum())
        c_all, c_rest = int(q_all), int(q_rest)
        recovered = q_all - q_rest
        true_value = float(match[t])
    else:
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
            # sum over the group = mean_all * n_all - mean_rest * n_rest
            recovered = q_all * c_all - (q_rest * c_rest if c_rest else 0.0)
        true_value = float(x[t]) if ok[t] else float("nan")
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


# ------------------------------------------------------------------ homogeneity


@dataclass(frozen=True)
class HomogeneityResult:
    """Classes where knowing a person's QIs reveals the sensitive value with probability >= p.

    Attributes
    ----------
    attribute : str
    p : float
    n_records, n_classes : int
    exposed : numpy.ndarray
        Class ids (of the partition) that are exposed, largest first.
    top_value : numpy.ndarray
        Most common value of each exposed class.
    top_share : numpy.ndarray
        Its share in the class (the attacker's confidence).
    sizes : numpy.ndarray
        Size of each exposed class.
    exposed_records : int
        Records in exposed classes.
    by_criterion : pandas.DataFrame
        For each criterion and level, the exposed classes and records that
        remain among the classes that satisfy it: how the list shrinks as l
        is raised or t lowered.
    """

    attribute: str
    p: float
    n_records: int
    n_classes: int
    exposed: np.ndarray = field(repr=False)
    top_value: np.ndarray = field(repr=False)
    top_share: np.ndarray = field(repr=False)
    sizes: np.ndarray = field(repr=False)
    exposed_records: int
    by_criterion: pd.DataFrame = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "attribute": self.attribute,
            "p": self.p,
            "n_records": self.n_records,
            "n_classes": self.n_classes,
            "exposed_classes": len(self.exposed),
            "exposed_records": self.exposed_records,
            "by_criterion": self.by_criterion.to_dict(orient="records"),
        }


def homogeneity_attack(
    table: EncodedTable | pd.DataFrame,
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
    table : EncodedTable or pandas.DataFrame
    quasi_identifiers : list of str
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
    enc = table if isinstance(table, EncodedTable) else EncodedTable(table)
    part = enc.partition(list(quasi_identifiers))
    cont = class_value_counts(part, enc.column(sensitive))
    sizes = cont.class_sizes
    n_classes = len(sizes)
    # majority count and value per class (cells are sorted by class then value)
    order = np.lexsort((cont.cell_value, -cont.cell_count, cont.cell_class))
    cls_sorted = cont.cell_class[order]
    first = order[np.r_[True, cls_sorted[1:] != cls_sorted[:-1]]] if len(order) else order
    top_count = np.zeros(n_classes, dtype=np.int64)
    top_code = np.zeros(n_classes, dtype=np.int64)
    top_count[cont.cell_class[first]] = cont.cell_count[first]
    top_code[cont.cell_class[first]] = cont.cell_value[first]
    share = top_count / np.maximum(sizes, 1)
    exposed_mask = share >= p - 1e-12
    ex = np.flatnonzero(exposed_mask)
    ex = ex[np.argsort(-sizes[ex], kind="stable")]

    distinct = distinct_l_per_class(cont)
    entropy_l = np.exp(entropy_per_class(cont))
    recursive = recursive_l_per_class(cont, c)
    tvals = t_closeness_per_class(cont)
    rows = []
    for crit, values, levels, passes in (
        ("distinct l", distinct, l_levels, lambda v, lv: v >= lv),
        ("entropy l", entropy_l, l_levels, lambda v, lv: v >= lv - 1e-9),
        (f"recursive ({c:g},l)", recursive, l_levels, lambda v, lv: v >= lv),
        ("t-closeness", tvals, t_levels, lambda v, lv: v <= lv + 1e-12),
    ):
        for lv in levels:  # a handful of levels, each vectorized over classes
            keep = exposed_mask & passes(values, lv)
            rows.append(
                {
                    "criterion": crit,
                    "level": float(lv),
                    "classes satisfying it": int(passes(values, lv).sum()),
                    "exposed classes left": int(keep.sum()),
                    "exposed records left": int(sizes[keep].sum()),
                }
            )
    labels = cont.labels
    return HomogeneityResult(
        attribute=str(sensitive),
        p=float(p),
        n_records=int(sizes.sum()),
        n_classes=n_classes,
        exposed=ex,
        top_value=np.asarray([labels[v] for v in top_code[ex]], dtype=object),
        top_share=share[ex],
        sizes=sizes[ex],
        exposed_records=int(sizes[ex].sum()),
        by_criterion=pd.DataFrame(rows),
    )


# ------------------------------------------------------------------ two releases


@dataclass(frozen=True)
class TwoReleaseResult:
    """What combining several releases of the same numeric column reveals.

    Attributes
    ----------
    kind : str
        "mean" (each release publishes group means, i.e. microaggregation) or
        "interval" (each release publishes a band per record).
    inferred : numpy.ndarray
        Best inference per record: for "mean", the mean of the record's
        finest determined cell (its own value when exact); for "interval",
        the midpoint of the intersection of its bands.
    low, high : numpy.ndarray
        For "interval": the intersection of the bands; for "mean": equal to
        ``inferred`` where the cell total is determined, NaN elsewhere.
    exact : numpy.ndarray of bool
        Records whose individual value is determined by the releases.
    """

    kind: str
    inferred: np.ndarray = field(repr=False)
    low: np.ndarray = field(repr=False)
    high: np.ndarray = field(repr=False)
    exact: np.ndarray = field(repr=False)

    @property
    def n_exact(self) -> int:
        """Return the number of exactly recoverable records."""
        return int(self.exact.sum())

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "kind": self.kind,
            "n_records": len(self.exact),
            "n_exact": self.n_exact,
            "exact_rows": np.flatnonzero(self.exact).tolist(),
            "inferred": [None if np.isnan(v) else float(v) for v in self.inferred],
        }


_MAX_TWO_RELEASE_ROWS = 5_000


def two_release_attack(
    releases: pd.DataFrame | list[pd.Series], *, kind: Literal["mean", "interval"] | None = None
) -> TwoReleaseResult:
    """Combine several generalizations of one numeric column released separately.

    *Means* (each record shows its group's mean): every release gives the
    group totals size_g * mean_g, a linear system A x = b over the hidden
    values x. A record's value is determined iff its unit vector lies in the
    row space of A, i.e. P_ii = 1 for the projector P = A^+ A; the value is
    (A^+ b)_i [DN03]_. Records that share the same group in every release
    form a cell; a cell's mean is determined when its indicator lies in the
    row space, and is the inference for its members. Rounding in the
    released means carries over (a mean given to 2 decimals gives the value
    to about 1e-2).

    *Intervals*: a record's value lies in the intersection of its bands; it
    is exact when the intersection is a single point.

    Parameters
    ----------
    releases : pandas.DataFrame or list of pandas.Series
        One column per release, aligned by record (at most 5,000 records for
        means: the projector is dense).
    kind : {"mean", "interval"}, optional
        Default: "interval" when every value parses as a band, else "mean".

    Returns
    -------
    TwoReleaseResult
    """
    cols = (
        [releases[c] for c in releases.columns]
        if isinstance(releases, pd.DataFrame)
        else list(releases)
    )
    if len(cols) < 2:
        raise RiskcoreError("give at least two releases of the same column")
    n = len(cols[0])
    if any(len(c) != n for c in cols):
        raise RiskcoreError("the releases must have the same records")
    if kind is None:
        textual = any(not pd.api.types.is_numeric_dtype(c.dtype) for c in cols)
        kind = "interval" if textual else "mean"
    if kind == "interval":
        lo = np.full(n, -np.inf)
        hi = np.full(n, np.inf)
        for c in cols:
            codes, uniq = pd.factorize(c, use_na_sentinel=True)
            bands = [parse_interval(u) for u in uniq]
            if any(b is None for b in bands):
                raise RiskcoreError(f"release {c.name!r} has values that are not bands")
            b_lo = np.array([b[0] for b in bands] + [-np.inf])
            b_hi = np.array([b[1] for b in bands] + [np.inf])
            codes = np.where(codes < 0, len(bands), codes)
            lo, hi = np.maximum(lo, b_lo[codes]), np.minimum(hi, b_hi[codes])
        exact = np.isfinite(lo) & (lo == hi)
        mid = np.where(np.isfinite(lo) & np.isfinite(hi), (lo + hi) / 2, np.nan)
        return TwoReleaseResult("interval", mid, lo, hi, exact)
    if kind != "mean":
        raise RiskcoreError(f"kind must be mean or interval, got {kind!r}")
    if n > _MAX_TWO_RELEASE_ROWS:
        raise RiskcoreError(
            f"combining released means is limited to {_MAX_TWO_RELEASE_ROWS:,} records"
        )
    blocks, rhs, cell_codes = [], [], []
    for c in cols:
        x = pd.to_numeric(c, errors="coerce")
        if x.isna().any():
            raise RiskcoreError(f"release {c.name!r} has missing or non-numeric values")
        codes, uniq = pd.factorize(x)
        onehot = np.zeros((len(uniq), n))
        onehot[codes, np.arange(n)] = 1.0
        blocks.append(onehot)
        rhs.append(np.asarray(uniq, dtype=float) * onehot.sum(axis=1))
        cell_codes.append(codes)
    a = np.vstack(blocks)
    b = np.concatenate(rhs)
    pinv = np.linalg.pinv(a)
    proj = pinv @ a
    xhat = pinv @ b
    exact = np.abs(np.diag(proj) - 1.0) < 1e-8
    cell, _ = pack_keys(
        [np.asarray(k, dtype=np.int64) for k in cell_codes], [int(k.max()) + 1 for k in cell_codes]
    )
    _, cell = np.unique(cell, return_inverse=True)
    cell = cell.reshape(-1)
    ind = np.zeros((int(cell.max()) + 1, n))
    ind[cell, np.arange(n)] = 1.0
    determined = np.abs(ind @ proj - ind).max(axis=1) < 1e-8
    cell_mean = (ind @ xhat) / ind.sum(axis=1)
    inferred = np.where(determined[cell], cell_mean[cell], np.nan)
    inferred = np.where(exact, xhat, inferred)
    return TwoReleaseResult("mean", inferred, inferred.copy(), inferred.copy(), exact)
