"""The population model of an assessment: population sizes for journalist and marketer risk.

:class:`Population` says where the population class sizes F_j come from (a
sampling fraction, a column of sampling weights, or a population table);
:func:`_population_evidence` turns it into the
:class:`~riskcore.metrics.evidence.PopulationEvidence` the privacy models and
:func:`riskcore.metrics.assess` read, and the note stating it in every report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._validation import check_fraction
from riskcore.engine import ClassTable, EncodedTable, Engine
from riskcore.errors import RiskcoreError, RolesError
from riskcore.metrics.evidence import PopulationEvidence
from riskcore.metrics.missing import compatible_sums

__all__ = ["Population"]


@dataclass(frozen=True)
class Population:
    """Population sizes for journalist and marketer risk.

    Give one of: a sampling fraction (F_j estimated as f_j / pi); a column of
    sampling weights (F_j estimated as the sum of the weights of the class's
    records, sdcMicro's ``weightVar``); or a population table with the QI
    columns and a count column (F_j looked up for each class; a class missing
    from the table, or smaller there than in the sample, gets F_j = f_j, the
    conservative choice, and is reported).

    Attributes
    ----------
    sampling_fraction : float, optional
        pi = n / N in (0, 1].
    table : pandas.DataFrame, optional
        Population counts per QI combination.
    count_column : str
        Name of the count column in ``table``.
    weights : str, optional
        The sampling-weight column of the assessed table (numbers of at
        least 1: the people each record stands for). Needs the in-memory
        engine, which gives each record's class.
    """

    sampling_fraction: float | None = None
    table: pd.DataFrame | None = field(default=None, repr=False, compare=False)
    count_column: str = "count"
    weights: str | None = None

    def __post_init__(self) -> None:
        given = [x is not None for x in (self.sampling_fraction, self.table, self.weights)]
        if sum(given) != 1:
            raise ValueError("give exactly one of sampling_fraction, weights and table")
        if self.sampling_fraction is not None:
            check_fraction("sampling_fraction", self.sampling_fraction)

    @classmethod
    def of(
        cls, *, weights: str | None = None, sampling_fraction: float | None = None
    ) -> Population | None:
        """Return the population model an assessment's settings name, or None for none.

        The one place that chooses it (the command line, the review, the records
        criteria and the pages all ask here): a sampling-weight column, when there is
        one, gives the population class sizes and the sampling fraction is then not
        used; otherwise a sampling fraction; with neither, no population model (the
        sample is taken as the population).

        Parameters
        ----------
        weights : str, optional
            The sampling-weight column of the assessed table.
        sampling_fraction : float, optional
            pi = n / N in (0, 1]; checked as :class:`Population` checks it.

        Returns
        -------
        Population or None

        Examples
        --------
        >>> Population.of(weights="w", sampling_fraction=0.1)
        Population(sampling_fraction=None, count_column='count', weights='w')
        >>> Population.of(sampling_fraction=0.1).sampling_fraction
        0.1
        >>> Population.of() is None
        True
        """
        if weights is not None:
            return cls(weights=weights)
        if sampling_fraction is not None:
            return cls(sampling_fraction=sampling_fraction)
        return None


def _population_evidence(
    classes: ClassTable,
    population: Population,
    engine: Engine,
    sizes: np.ndarray | None = None,
) -> tuple[PopulationEvidence, str]:
    """Return the population model of the classes, and the note stating it.

    With a population table F_j is looked up (record risk 1/F_j). With only a
    sampling fraction F_j is unknown: the record risk is E[1/F_j | f_j] of
    the individual-risk model
    (:func:`~riskcore.metrics.population.individual_risk`), never
    1/(f_j / pi), and F^_j = f_j / pi serves only in J / sum F^_j. With
    sampling weights w_i, F^_j = sum of w_i over the class's records (its
    people, each person's weight read on their first row, with a person
    column) and the record risk is E[1/F_j | f_j] with p_j = f_j / F^_j
    (:func:`~riskcore.metrics.population.weighted_individual_risk`, exact),
    as sdcMicro's ``measure_risk`` with ``weightVar``. The judged F_j and
    risks are derived by :class:`~riskcore.metrics.evidence.Evidence`.

    ``sizes`` (the missing-value policy "any") are the f_k of each class; a
    population table's F_j is then the count of its rows compatible with the
    class (a missing value, on either side, matching any value), and with
    weights F_k is the weight sum over the compatible records (sdcMicro's F_k).
    """
    any_policy = sizes is not None
    f = classes.sizes if sizes is None else sizes
    if population.weights is not None:
        from riskcore.metrics.records import sampling_weights

        col = population.weights
        if col in classes.quasi_identifiers:
            raise RolesError(f"the weight column {col!r} cannot also be a quasi-identifier")
        if not isinstance(engine, EncodedTable):
            raise RiskcoreError(
                "sampling weights need each record's class, which only the in-memory engine "
                "gives: assess an EncodedTable or a DataFrame"
            )
        w = sampling_weights(engine, col)
        if classes.person is not None:  # each person's weight once (their first row)
            from riskcore.metrics.records import person_weights

            w = person_weights(engine, classes.quasi_identifiers, classes.person, w)
        per_class = np.bincount(
            engine.record_classes(classes.quasi_identifiers, person=classes.person),
            weights=w,
            minlength=classes.n_classes,
        )
        return (
            PopulationEvidence("weights", weight_sums=per_class),
            "record risk E[1/F | f] from the individual-risk model of Benedetti and Franconi, "
            f"with population class sizes estimated as the sum of the sampling weights in {col}",
        )
    if population.sampling_fraction is not None:
        pi = float(population.sampling_fraction)
        return (
            PopulationEvidence("fraction", sampling_fraction=pi),
            "record risk E[1/F | f] from the individual-risk model of Benedetti and Franconi "
            f"with sampling weights 1/{pi:g}: model-based estimates, not measured population "
            "sizes",
        )
    table = population.table
    if table is None:
        raise AssertionError("Population holds a table when it has no sampling fraction")
    qis = list(classes.quasi_identifiers)
    missing = [q for q in [*qis, population.count_column] if q not in table.columns]
    if missing:
        raise RolesError(f"the population table has no column {missing[0]!r}")
    reps = classes.values()
    if any_policy:
        big_f = _compatible_population(reps, table, qis, population.count_column)
    else:
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
    note = "population class sizes taken from the population table"  # risk 1/F_j
    if bad.any():
        note += (
            f"; {int(bad.sum()):,} class(es) absent from it or smaller there than in the "
            "sample were given F_j = f_j (conservative)"
        )
    return PopulationEvidence("table", table_counts=big_f.astype(np.float64)), note


def _compatible_population(
    reps: pd.DataFrame, table: pd.DataFrame, qis: list[str], count_column: str
) -> np.ndarray:
    """Return, per class (its QI values in ``reps``), the population count of compatible rows.

    Both sides are coded together, column by column (a missing value on
    either side matching any value); a class no row is compatible with gets
    NaN (absent).
    """
    t_codes, s_codes, t_known, s_known = [], [], [], []
    for q in qis:
        both = pd.concat([reps[q].astype(object), table[q].astype(object)], ignore_index=True)
        codes = pd.factorize(both, use_na_sentinel=True)[0].astype(np.int64)
        tc, sc = codes[: len(reps)], codes[len(reps) :]
        t_known.append(tc >= 0)
        s_known.append(sc >= 0)
        t_codes.append(np.maximum(tc, 0))
        s_codes.append(np.maximum(sc, 0))
    counts = pd.to_numeric(table[count_column], errors="coerce").to_numpy(dtype=np.float64)
    t, _, sums = compatible_sums(
        t_codes,
        np.column_stack(t_known),
        s_codes,
        np.column_stack(s_known),
        np.nan_to_num(counts),
    )
    out = np.full(len(reps), np.nan)
    out[t] = sums
    return out
