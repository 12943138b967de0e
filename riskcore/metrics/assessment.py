"""One assessment: encode once, partition once, derive every metric.

:func:`assess` is the public entry point used by the command line and the
app. It encodes each column once (:class:`EncodedTable`, reusable across
what-ifs), builds one :class:`~riskcore.partition.Partition` over the
quasi-identifiers, one sparse contingency per sensitive attribute, and
computes k-anonymity, prosecutor (and, with population sizes, journalist and
marketer) risk, and l-diversity / t-closeness from them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from riskcore.engine import EncodedTable, Partition, class_value_counts
from riskcore.errors import RolesError
from riskcore.metrics.anonymity import (
    KAnonymityResult,
    RiskResult,
    k_anonymity,
    reidentification_risk,
)
from riskcore.metrics.diversity import DiversityResult, sensitive_metrics
from riskcore.metrics.population import PopulationUniqueness, population_uniqueness

__all__ = ["MISSING_POLICY", "Assessment", "Population", "assess", "class_table"]

#: How missing quasi-identifier values are treated (stated in every report).
MISSING_POLICY = (
    "missing quasi-identifier values count as one more value of their column; no record is dropped"
)


@dataclass(frozen=True)
class Population:
    """Population sizes for journalist and marketer risk.

    Give either a sampling fraction (F_j estimated as f_j / pi) or a
    population table with the QI columns and a count column (F_j looked up
    for each class; a class missing from the table, or smaller there than in
    the sample, gets F_j = f_j, the conservative choice, and is reported).

    Attributes
    ----------
    sampling_fraction : float, optional
        pi = n / N in (0, 1].
    table : pandas.DataFrame, optional
        Population counts per QI combination.
    count_column : str
        Name of the count column in ``table``.
    """

    sampling_fraction: float | None = None
    table: pd.DataFrame | None = field(default=None, repr=False, compare=False)
    count_column: str = "count"

    def __post_init__(self) -> None:
        if (self.sampling_fraction is None) == (self.table is None):
            raise ValueError("give exactly one of sampling_fraction and table")
        if self.sampling_fraction is not None:
            pi = self.sampling_fraction
            if isinstance(pi, bool) or not isinstance(pi, (int, float)):
                raise TypeError(f"sampling_fraction must be a number, got {pi!r}")
            if not 0 < pi <= 1:
                raise ValueError(f"sampling_fraction must be in (0, 1], got {pi!r}")


@dataclass(frozen=True, eq=False)
class Assessment:
    """Everything derived from one partition of a table.

    Attributes
    ----------
    quasi_identifiers : tuple of str
    anonymity : KAnonymityResult
        k, classes, unique records, class-size distribution.
    prosecutor : RiskResult
    journalist, marketer : RiskResult or None
        Only when population sizes were given.
    sensitive : dict of str to DiversityResult
        l-diversity and t-closeness per sensitive attribute.
    threshold : float
        Record-risk threshold used.
    missing_policy : str
        How missing QI values were treated.
    population_note : str
        How population sizes were obtained, if at all.
    population_uniqueness : PopulationUniqueness or None
        Zayatz / Pitman / SNB estimates, when a sampling fraction was given.
    partition : Partition
        The equivalence classes (not in :meth:`to_dict`).
    """

    quasi_identifiers: tuple[str, ...]
    anonymity: KAnonymityResult
    prosecutor: RiskResult
    journalist: RiskResult | None
    marketer: RiskResult | None
    sensitive: dict[str, DiversityResult]
    threshold: float
    missing_policy: str
    population_note: str
    population_uniqueness: PopulationUniqueness | None
    partition: Partition = field(repr=False)

    @property
    def k(self) -> int:
        """Return k."""
        return self.anonymity.k

    @property
    def n_records(self) -> int:
        """Return n."""
        return self.anonymity.n_records

    @property
    def n_classes(self) -> int:
        """Return J."""
        return self.anonymity.n_classes

    @property
    def unique_records(self) -> int:
        """Return the number of records unique on the QIs."""
        return self.anonymity.unique_records

    def to_dict(self) -> dict[str, object]:
        """Return the public JSON structure (documented in the README)."""
        out: dict[str, object] = {
            "n_records": self.n_records,
            "n_classes": self.n_classes,
            "k": self.k,
            "unique_records": self.unique_records,
            "quasi_identifiers": list(self.quasi_identifiers),
            "threshold": self.threshold,
            "prosecutor": _risk_json(self.prosecutor),
            "sensitive": {a: r.to_dict() for a, r in self.sensitive.items()},
            "class_size_distribution": self.anonymity.distribution.to_dict(),
            "missing_policy": self.missing_policy,
        }
        if self.journalist is not None:
            out["journalist"] = _risk_json(self.journalist)
        if self.marketer is not None:
            out["marketer"] = _risk_json(self.marketer)
        if self.population_note:
            out["population_note"] = self.population_note
        if self.population_uniqueness is not None:
            out["population_uniqueness"] = self.population_uniqueness.to_dict()
        return out


def _risk_json(r: RiskResult) -> dict[str, float]:
    return {
        "highest_risk": r.highest_risk,
        "records_at_risk": r.records_at_risk,
        "success_rate": r.success_rate,
        "mean_class_risk": r.mean_class_risk,
    }


def _population_sizes(
    data: pd.DataFrame, partition: Partition, population: Population
) -> tuple[np.ndarray, str]:
    f = partition.sizes
    if population.sampling_fraction is not None:
        pi = float(population.sampling_fraction)
        return np.maximum(f / pi, f), (
            f"population class sizes estimated as f_j / {pi:g} (sampling fraction)"
        )
    table = population.table
    assert table is not None
    qis = list(partition.qis)
    missing = [q for q in [*qis, population.count_column] if q not in table.columns]
    if missing:
        raise RolesError(f"the population table has no column {missing[0]!r}")
    reps = data.iloc[partition.first_row][qis].reset_index(drop=True)
    pop = (
        table.groupby(qis, dropna=False, observed=True, sort=False)[population.count_column]
        .sum()
        .rename("__F")
        .reset_index()
    )
    merged = reps.merge(pop, on=qis, how="left", sort=False)
    big_f = merged["__F"].to_numpy(dtype=np.float64, na_value=np.nan)
    bad = np.isnan(big_f) | (big_f < f)
    big_f = np.where(bad, f, big_f)
    note = "population class sizes taken from the population table"
    if bad.any():
        note += (
            f"; {int(bad.sum()):,} class(es) absent from it or smaller there than in the "
            "sample were given F_j = f_j (conservative)"
        )
    return big_f, note


def assess(
    data: pd.DataFrame | EncodedTable,
    *,
    quasi_identifiers: Iterable[str],
    sensitive: Iterable[str] = (),
    c: float = 2.0,
    threshold: float = 0.09,
    distance: str | Mapping[str, str] | None = None,
    population: Population | None = None,
) -> Assessment:
    """Assess a table: k-anonymity, risk, l-diversity and t-closeness.

    The table is partitioned once over the quasi-identifiers; every figure is
    derived from that partition and one sparse class x value table per
    sensitive attribute. See :mod:`riskcore.metrics` for the definitions and
    citations.

    Parameters
    ----------
    data : pandas.DataFrame or EncodedTable
        The table (an :class:`EncodedTable` reuses cached codes).
    quasi_identifiers : iterable of str
        At least one column.
    sensitive : iterable of str, default ()
        Sensitive attributes.
    c : float, default 2
        c of recursive (c,l)-diversity.
    threshold : float, default 0.09
        Record-risk threshold (0.09 = k of 11, the US public-release
        precedent; see :data:`riskcore.metrics.THRESHOLDS`).
    distance : str or mapping, optional
        Ground distance for t-closeness, "ordered" or "equal", for all
        attributes or per attribute. Default: ordered for numeric
        attributes, equal for the others.
    population : Population, optional
        Population sizes, for journalist and marketer risk.

    Returns
    -------
    Assessment

    Raises
    ------
    RolesError
        When a column is unknown, the QIs are empty, or a column is both a QI
        and sensitive.
    """
    table = data if isinstance(data, EncodedTable) else EncodedTable(data)
    qis = tuple(str(q) for q in quasi_identifiers)
    sens = tuple(str(s) for s in sensitive)
    if not qis:
        raise RolesError("choose at least one quasi-identifier")
    for group, label in ((qis, "quasi-identifier"), (sens, "sensitive attribute")):
        if len(set(group)) != len(group):
            raise RolesError(f"a {label} is listed twice")
    both = set(qis) & set(sens)
    if both:
        raise RolesError(
            f"column {sorted(both)[0]!r} cannot be both a quasi-identifier and sensitive"
        )
    if isinstance(distance, str) or distance is None:
        dist = {s: distance for s in sens}
    else:
        dist = {s: distance.get(s) for s in sens}
    partition = table.partition(qis)
    anonymity = k_anonymity(partition.sizes)
    prosecutor = reidentification_risk(partition.sizes, threshold=threshold)
    journalist = marketer = None
    pop_unique = None
    note = ""
    if population is not None:
        if population.sampling_fraction is not None:
            pop_unique = population_uniqueness(partition.sizes, population.sampling_fraction)
        big_f, note = _population_sizes(table.df, partition, population)
        journalist = reidentification_risk(
            partition.sizes, population_sizes=big_f, threshold=threshold, model="journalist"
        )
        marketer = reidentification_risk(
            partition.sizes, population_sizes=big_f, threshold=threshold, model="marketer"
        )
    results: dict[str, DiversityResult] = {}
    for s in sens:
        d = dist[s]
        ordered = True if d == "ordered" else None
        enc = table.column(s, ordered=ordered)
        results[s] = sensitive_metrics(class_value_counts(partition, enc), c=c, distance=d)
    return Assessment(
        quasi_identifiers=qis,
        anonymity=anonymity,
        prosecutor=prosecutor,
        journalist=journalist,
        marketer=marketer,
        sensitive=results,
        threshold=float(threshold),
        missing_policy=MISSING_POLICY,
        population_note=note,
        population_uniqueness=pop_unique,
        partition=partition,
    )


def class_table(
    data: pd.DataFrame,
    assessment: Assessment,
    class_ids: np.ndarray | None = None,
    *,
    limit: int | None = 1000,
) -> pd.DataFrame:
    """Describe equivalence classes: their QI values, size and sensitive figures.

    Parameters
    ----------
    data : pandas.DataFrame
        The assessed table.
    assessment : Assessment
    class_ids : numpy.ndarray, optional
        Which classes (default all), e.g. from
        :meth:`~riskcore.metrics.DiversityResult.failing_classes`.
    limit : int or None, default 1000
        Most rows returned, smallest classes first.

    Returns
    -------
    pandas.DataFrame
        One row per class: the QI values, ``records``, ``risk`` (1/f_j) and,
        per sensitive attribute, distinct values, entropy l, recursive l,
        t and the share of the most frequent value.
    """
    part = assessment.partition
    ids = np.arange(part.n_classes) if class_ids is None else np.asarray(class_ids, dtype=np.int64)
    ids = ids[np.argsort(part.sizes[ids], kind="stable")]
    if limit is not None:
        ids = ids[:limit]
    out = data.iloc[part.first_row[ids]][list(part.qis)].reset_index(drop=True)
    out.insert(0, "class", ids)
    out["records"] = part.sizes[ids]
    out["risk"] = 1.0 / part.sizes[ids]
    for name, r in assessment.sensitive.items():
        pc = r.per_class
        out[f"{name}: distinct"] = pc["distinct"][ids]
        out[f"{name}: entropy l"] = np.exp(pc["entropy"][ids])
        out[f"{name}: recursive l"] = pc["recursive_l"][ids]
        out[f"{name}: t"] = pc["t"][ids]
        out[f"{name}: top share"] = pc["top_share"][ids]
    return out
