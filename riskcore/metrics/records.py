"""Per-record risk: individual risk with sampling weights, and the records table.

Two questions a reviewer asks of every record, answered on the engine
(:meth:`~riskcore.engine.EncodedTable.record_classes` gives each record's
class; no Python loop runs over records):

- :func:`record_individual_risk`: the individual risk of Benedetti and
  Franconi (1998), as sdcMicro's ``measure_risk`` computes it, with the
  population class sizes estimated from sampling weights (or a sampling
  fraction); the global risk as the expected number of re-identifications.
- :func:`record_risk`: one row per input record: class size, prosecutor and
  individual risk, the SUDA figures (the targets its class fails are judged
  by :mod:`riskcore.criteria`: :func:`riskcore.criteria.records.record_table`).

One record explained (its class, its minimal sample uniques, the QI that
contributes most; the riskiest rows first) is :mod:`riskcore.metrics.explain`.

Rows are numbered from 1 (the first data row is row 1), as in the records
table a user downloads.

Engines: this needs each record, so it runs on the in-memory engine only
(:class:`~riskcore.engine.EncodedTable`); the streaming, DuckDB and Spark
engines return class counts, which every figure of ``assess`` needs and no
more (:data:`riskcore.engine.select.SUPPORTED_ENGINES`).

References
----------
.. [BF98] R. Benedetti, L. Franconi, "Statistical and technological solutions
   for controlled data dissemination", Pre-proceedings of New Techniques and
   Technologies for Statistics, 1998.
.. [FP04] L. Franconi, S. Polettini, "Individual risk estimation in
   mu-Argus: a review", Privacy in Statistical Databases, LNCS 3050, 2004.
.. [TKM15] M. Templ, A. Kowarik, B. Meindl, "Statistical disclosure control
   for micro-data using the R package sdcMicro", Journal of Statistical
   Software 67(4), 2015 (``indivRisk``, ``measure_risk``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore._results import NOT_IN_JSON, Result
from riskcore._validation import (
    check_fraction,
    check_one_of,
    check_unit_interval,
)
from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError, RolesError
from riskcore.metrics.missing import (
    MissingPolicy,
    check_missing,
    compatible_sizes,
    known_mask,
)
from riskcore.metrics.population import weighted_individual_risk
from riskcore.metrics.special_uniques import SudaResult, suda, suda_not_searched

__all__ = [
    "RECORD_COLUMNS",
    "IndividualRisk",
    "person_weights",
    "record_individual_risk",
    "record_risk",
    "sampling_weights",
]

Method = Literal["exact", "approx"]

#: The columns of :func:`record_risk`, in order (the records table adds ``failing_targets``,
#: :func:`riskcore.criteria.records.record_table`).
RECORD_COLUMNS: tuple[str, ...] = (
    "row",
    "class_size",
    "prosecutor_risk",
    "individual_risk",
    "msu_count",
    "min_msu_size",
    "suda_score",
    "dis_suda",
)

_no_floats = np.zeros(0, dtype=np.float64)


def _qis(table: EncodedTable, quasi_identifiers: Sequence[str]) -> tuple[str, ...]:
    qis = tuple(quasi_identifiers)
    if not qis:
        raise RolesError("choose at least one quasi-identifier")
    if len(set(qis)) != len(qis):
        raise RolesError("a quasi-identifier is listed twice")
    for q in qis:
        table.column(q)  # raises RolesError naming an unknown column
    return qis


def _matching(
    table: EncodedTable, qis: tuple[str, ...], missing: MissingPolicy, person: str | None = None
) -> tuple[np.ndarray, np.ndarray, bool]:
    """Return each record's class, the size each class is judged by, and whether it is f_k.

    Under ``"own"`` (or without a missing QI value) the size is f_j, the
    class size; under ``"any"`` it is f_k, the records compatible with the
    class's records (:func:`riskcore.metrics.missing.compatible_sizes`).
    With a person column, each row's class is its person's and the sizes
    count people.
    """
    cls = table.record_classes(qis, person=person)
    classes = table.classes(qis, person=person)
    if check_missing(missing) == "any" and not known_mask(classes).all():
        return cls, compatible_sizes(classes), True
    return cls, classes.sizes, False


def _person_check(table: EncodedTable, qis: tuple[str, ...], person: str | None) -> None:
    """Refuse a person column that is unknown or is also a QI."""
    if person is None:
        return
    if person in qis:
        raise RolesError(f"the person column {person!r} cannot be a quasi-identifier too")
    table.column(person)  # raises RolesError naming an unknown column


@renamed_arguments(table="data")
def sampling_weights(data: EncodedTable | pd.DataFrame, column: str) -> np.ndarray:
    """Return a column of sampling weights, checked: numbers of at least 1, none missing.

    A sampling weight w_i is the number of population members record i
    stands for (1/pi_i for inclusion probability pi_i), so it is at least 1.

    Parameters
    ----------
    data : EncodedTable or pandas.DataFrame
        The table, or its encoded form (whose codes are cached).
    column : str
        The column's name.

    Returns
    -------
    numpy.ndarray
        float64 weights, in record order.

    Raises
    ------
    RolesError
        When the column is absent, not numeric, has a missing value or a
        value below 1 (the message names the first such row, counted from 1).
    """
    df = data.df if isinstance(data, EncodedTable) else data
    if column not in df.columns:
        raise RolesError(f"the weight column {column!r} is not in the table")
    col = df[column]
    if not pd.api.types.is_numeric_dtype(col.dtype) or pd.api.types.is_bool_dtype(col.dtype):
        raise RolesError(f"the weight column {column!r} must hold numbers (it holds text)")
    w = col.to_numpy(dtype=np.float64, na_value=np.nan)
    bad = ~np.isfinite(w)
    if bad.any():
        raise RolesError(
            f"the weight column {column!r} has {int(bad.sum()):,} missing or infinite value(s), "
            f"the first in row {int(np.argmax(bad)) + 1:,}; every record needs a weight"
        )
    low = w < 1
    if low.any():
        i = int(np.argmax(low))
        raise RolesError(
            f"the weight column {column!r} has {int(low.sum()):,} value(s) below 1 (row "
            f"{i + 1:,}: {w[i]:g}); a sampling weight is the number of people a record stands "
            "for, at least 1 (rescale normalised weights to sum to the population size)"
        )
    return w


def person_weights(
    data: EncodedTable, quasi_identifiers: Sequence[str], person: str, weights: np.ndarray
) -> np.ndarray:
    """Return the sampling weights with each person's weight on their first row only.

    A survey weight belongs to the person (it repeats on their rows): summed
    per class of people it must count each person once. It is read on the
    person's first row.

    Parameters
    ----------
    data : EncodedTable
        The table.
    quasi_identifiers : sequence of str
        The QIs of the person partition (any: the people are the same).
    person : str
        The person column.
    weights : numpy.ndarray
        One weight per row (:func:`sampling_weights`).

    Returns
    -------
    numpy.ndarray
        float64, one per row: the person's weight on their first row, 0 elsewhere.
    """
    people = data.partition(tuple(quasi_identifiers), person=person).people
    assert people is not None  # noqa: S101 - a person partition
    _, first = np.unique(people.person, return_index=True)
    out = np.zeros(len(weights), dtype=np.float64)
    out[first] = weights[first]
    return out


@dataclass(frozen=True)
class IndividualRisk(Result):
    """The individual risk of every record and the global risk (sdcMicro ``measure_risk``).

    Attributes
    ----------
    quasi_identifiers : tuple of str
        The quasi-identifier columns.
    model : str
        How the population class sizes were estimated: "weights" (the sum of
        the weights of a class's records), "sampling fraction" (f_j / pi),
        or "none" (the data are the population: F_j = f_j, risk 1/f_j).
    weight_column : str or None
    sampling_fraction : float or None
    method : str
        "exact" (E[1/F | f]) or "approx" (sdcMicro's default, p / (f - q)
        for f >= 3); see :func:`~riskcore.metrics.population.weighted_individual_risk`.
    n_records : int
    population_estimate : float
        Sum of the weights (N estimated).
    expected_reidentifications : float
        sum_i r_i, sdcMicro's ``global_risk_ER`` (lower is safer).
    global_risk : float
        expected_reidentifications / n, sdcMicro's ``global_risk`` (its
        ``global_risk_pct`` is 100 times this).
    highest_risk : float
        max_i r_i (NaN for an empty table).
    threshold : float
        The record-risk threshold tau the records are judged against.
    records_above : int
        Records with r_i > tau.
    share_above : float
        records_above / n.
    risk : numpy.ndarray
        r_i per record, in input order.
    class_size : numpy.ndarray
        f_j of each record's class.
    population_size : numpy.ndarray
        The estimated population size of each record's class.
    missing : {"own", "any"}
        The missing-value policy (:mod:`riskcore.metrics.missing`).
    person : str or None
        The column linking the rows of one person: the classes, ``n_people``,
        the expected re-identifications and ``records_above`` count people,
        and each row carries its person's risk (the per-record arrays stay
        one entry per row).
    n_people : int or None
        The people (with a person column).

    The per-record arrays are not written to JSON.
    """

    quasi_identifiers: tuple[str, ...]
    model: str
    weight_column: str | None
    sampling_fraction: float | None
    method: str
    n_records: int
    population_estimate: float
    expected_reidentifications: float
    global_risk: float
    highest_risk: float
    threshold: float
    records_above: int
    share_above: float
    risk: np.ndarray = field(default_factory=lambda: _no_floats, repr=False, metadata=NOT_IN_JSON)
    class_size: np.ndarray = field(
        default_factory=lambda: _no_floats, repr=False, metadata=NOT_IN_JSON
    )
    population_size: np.ndarray = field(
        default_factory=lambda: _no_floats, repr=False, metadata=NOT_IN_JSON
    )
    missing: str = "own"
    person: str | None = None
    n_people: int | None = None


@renamed_arguments(table="data")
def record_individual_risk(
    data: EncodedTable | pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    weights: str | None = None,
    sampling_fraction: float | None = None,
    method: Method = "exact",
    threshold: float = 1 / 11,
    missing: MissingPolicy = "own",
    person: str | None = None,
) -> IndividualRisk:
    """Compute every record's individual risk and the expected number of re-identifications.

    Per class j over the QIs (a missing value is a value of its own): f_j
    its records, and :math:`\\hat F_j = \\sum_{i \\in j} w_i` the estimated
    population size from the sampling weights w_i (with a sampling fraction
    pi instead, w_i = 1/pi). Each record of class j has the risk
    :math:`r_j = E[1/F_j \\mid f_j]` of the Benedetti-Franconi model
    (F_j - f_j ~ NegBin(f_j, p_j), p_j = f_j / \\hat F_j; the formulas, exact
    and approximate, in
    :func:`~riskcore.metrics.population.weighted_individual_risk`). Without
    weights or fraction the data are taken as the population and r_j = 1/f_j
    (sdcMicro's ``survey = FALSE``). The global risk is the expected number
    of re-identifications :math:`\\sum_i r_i` and its share of n, as in
    sdcMicro's ``measure_risk``.

    Missing QI values: by default (``missing="own"``) a missing value is a
    value of its own. sdcMicro's ``freqCalc`` lets a missing value match any
    value; ``missing="any"`` does the same (:mod:`riskcore.metrics.missing`):
    f_j becomes f_k, the records compatible with the record, and \\hat F_j
    the sum of their weights (sdcMicro's F_k), so the two agree on data with
    missing QI values too (but for sdcMicro's one exception stated there).

    Parameters
    ----------
    data : EncodedTable or pandas.DataFrame
        The table, or its encoded form (whose codes are cached).
    quasi_identifiers : sequence of str
        The quasi-identifier columns.
    weights : str, optional
        The sampling-weight column (numbers of at least 1, none missing).
    sampling_fraction : float, optional
        pi in (0, 1], when every record has the same weight 1/pi.
    method : {"exact", "approx"}, default "exact"
        The individual-risk formula: "exact" E[1/F | f], or sdcMicro's "approx"
        (:func:`~riskcore.metrics.population.weighted_individual_risk`).
    threshold : float, default 1/11
        Records with a risk above it are counted (1/11: k = 11, US public
        release; El Emam 2013).
    missing : {"own", "any"}, default "own"
        The missing-value policy.
    person : str, optional
        The column linking the rows of one person. The classes are then
        people sharing a QI signature (:mod:`riskcore.engine.people`), f_j
        counts people, a person's weight is read on their first row, the
        expected re-identifications sum each person's risk once, and every
        row carries its person's risk.

    Returns
    -------
    IndividualRisk

    Raises
    ------
    RolesError
        For an unknown or repeated QI, a weight column that is a QI, or bad
        weights (see :func:`sampling_weights`).
    RiskcoreError
        When both weights and a sampling fraction are given.

    Examples
    --------
    Six records in classes of 3, 2 and 1 on (age, sex), taken as the
    population: each record's risk is 1/f_j, so the expected number of
    re-identifications is one per class, 3, and the global risk 3/6; every
    risk is above 1/11.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"age": [30, 30, 30, 40, 40, 50], "sex": list("FFFMMF")})
    >>> r = record_individual_risk(df, ["age", "sex"])
    >>> r.risk.round(3).tolist()
    [0.333, 0.333, 0.333, 0.5, 0.5, 1.0]
    >>> r.expected_reidentifications, r.global_risk, r.records_above
    (3.0, 0.5, 6)
    """
    if not isinstance(data, EncodedTable):
        data = EncodedTable(data)
    qis = _qis(data, quasi_identifiers)
    check_one_of("method", method, ("exact", "approx"))
    tau = check_unit_interval("threshold", threshold)
    if weights is not None and sampling_fraction is not None:
        raise RiskcoreError("give sampling weights or a sampling fraction, not both")
    if weights is not None and weights in qis:
        raise RolesError(f"the weight column {weights!r} cannot also be a quasi-identifier")
    _person_check(data, qis, person)
    n = data.n_records
    if n == 0:
        raise RiskcoreError("the table has no records")
    cls, sizes, any_policy = _matching(data, qis, missing, person)
    pi = (
        None
        if sampling_fraction is None
        else check_fraction("sampling_fraction", sampling_fraction)
    )
    big_f: np.ndarray
    if weights is not None:
        w = sampling_weights(data, weights)
        if person is not None:
            w = person_weights(data, qis, person, w)
        big_f = np.bincount(cls, weights=w, minlength=len(sizes))
        if any_policy:  # the weights of every compatible record
            big_f = compatible_sizes(data.classes(qis, person=person), weights=big_f)
        model = "weights"
    elif pi is not None:
        big_f = sizes / pi
        model = "sampling fraction"
    else:
        big_f = sizes.astype(np.float64)
        model = "none"
    r_class = weighted_individual_risk(sizes, np.maximum(big_f, sizes), method=method)
    r = r_class[cls]
    if person is None:
        units, er, above = n, float(r.sum()), int((r > tau).sum())
    else:  # each person once: f_j people of risk r_j in class j
        own = data.classes(qis, person=person).sizes
        units = int(own.sum())
        er = float((own * r_class).sum())
        above = int(own[r_class > tau].sum())
    return IndividualRisk(
        quasi_identifiers=qis,
        model=model,
        weight_column=weights,
        sampling_fraction=pi,
        method=method,
        n_records=n,
        population_estimate=float(big_f.sum()),
        expected_reidentifications=er,
        global_risk=er / units,
        highest_risk=float(r.max()),
        threshold=tau,
        records_above=above,
        share_above=above / units,
        risk=r,
        class_size=sizes[cls].astype(np.int64),
        population_size=big_f[cls],
        missing=missing,
        person=person,
        n_people=None if person is None else units,
    )


@renamed_arguments(qis="quasi_identifiers")
def record_risk(
    data: EncodedTable | pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    weights: str | None = None,
    sampling_fraction: float | None = None,
    method: Method = "exact",
    max_msu_size: int | None = None,
    dis_fraction: float | None = None,
    suda_result: SudaResult | None = None,
    missing: MissingPolicy = "own",
    person: str | None = None,
) -> pd.DataFrame:
    """Return one row per input record, in input order, with its risk figures.

    Columns (:data:`RECORD_COLUMNS`):

    ``row``
        The record's row number, the first data row being 1.
    ``class_size``
        f_j, the records sharing all its QI values (a missing value is a
        value of its own); with ``missing="any"``, f_k, the records agreeing
        with it wherever both are known (sdcMicro's ``fk``).
    ``prosecutor_risk``
        1 / f_j (El Emam's prosecutor model; Sweeney's k = min f_j).
    ``individual_risk``
        r_j of :func:`record_individual_risk` (Benedetti-Franconi, from the
        weights or the sampling fraction; 1/f_j without either).
    ``msu_count``, ``min_msu_size``, ``suda_score``, ``dis_suda``
        The record's minimal sample uniques (count, smallest size; 0 when
        none), SUDA and DIS-SUDA scores, as sdcMicro's ``suda2`` computes
        them (:func:`riskcore.metrics.special_uniques.suda`). With a person column SUDA
        runs on one record per person; when some people's rows carry
        different QI tuples it is not defined, and these four columns are
        empty (missing) rather than a false 0.

    Parameters
    ----------
    data : EncodedTable or pandas.DataFrame
        The table, or its encoded form (whose codes are cached).
    quasi_identifiers : sequence of str
        The quasi-identifiers.
    weights : str, optional
        Sampling-weight column.
    sampling_fraction : float, optional
        pi in (0, 1] (not with ``weights``).
    method : {"exact", "approx"}, default "exact"
        Individual-risk formula (sdcMicro's default is "approx").
    max_msu_size : int, optional
        Largest MSU searched (default: the number of QIs).
    dis_fraction : float, optional
        Sampling fraction of the DIS-SUDA calibration; default
        ``sampling_fraction`` when given, else 0.01 (sdcMicro's default).
    suda_result : SudaResult, optional
        A SUDA result already computed on the same table and QIs (reused);
        one of :func:`~riskcore.metrics.special_uniques.suda_not_searched` leaves the four
        SUDA columns missing (``<NA>`` counts, NaN scores).
    missing : {"own", "any"}, default "own"
        The missing-value policy of the class size, the prosecutor and
        individual risk (:mod:`riskcore.metrics.missing`);
        the SUDA figures keep sdcMicro's rule (a missing value is never part
        of a minimal sample unique).
    person : str, optional
        The column linking the rows of one person: ``class_size`` counts the
        people of the row's person's class, and every row carries its
        person's risk and SUDA figures.

    Returns
    -------
    pandas.DataFrame
        The columns :data:`RECORD_COLUMNS`, indexed 0 to n - 1 whatever ``data``'s index.

    Raises
    ------
    RolesError, RiskcoreError
        For unknown columns, bad weights or targets (messages for people).

    Examples
    --------
    The same six records: the (50, F) record is alone in its class (risk 1)
    and its age 50 alone is unique, one minimal sample unique of size 1; the
    others have none.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"age": [30, 30, 30, 40, 40, 50], "sex": list("FFFMMF")})
    >>> rows = record_risk(df, ["age", "sex"])
    >>> rows[["row", "class_size", "prosecutor_risk", "msu_count", "min_msu_size"]].round(3)
       row  class_size  prosecutor_risk  msu_count  min_msu_size
    0    1           3            0.333          0             0
    1    2           3            0.333          0             0
    2    3           3            0.333          0             0
    3    4           2            0.500          0             0
    4    5           2            0.500          0             0
    5    6           1            1.000          1             1
    """
    table = data if isinstance(data, EncodedTable) else EncodedTable(data)
    q = _qis(table, quasi_identifiers)
    ir = record_individual_risk(
        table,
        q,
        weights=weights,
        sampling_fraction=sampling_fraction,
        method=method,
        missing=missing,
        person=person,
    )
    if dis_fraction is None:
        dis_fraction = sampling_fraction if sampling_fraction is not None else 0.01
    people = None if person is None else table.partition(q, person=person).people
    if suda_result is None and people is not None and not people.single:
        suda_result = suda_not_searched(table, q, person=person)  # not defined per person
    if suda_result is None:
        suda_result = suda(
            table, q, max_size=max_msu_size, dis_fraction=dis_fraction, person=person
        )
    elif (
        suda_result.quasi_identifiers != q
        or suda_result.n_records != table.n_records
        or suda_result.person != person
    ):
        raise RiskcoreError("the SUDA result given was computed on other QIs or another table")
    cls, sizes, _ = _matching(table, q, missing, person)
    f = sizes[cls].astype(np.int64)
    msu_count: object = suda_result.msu_count
    min_msu_size: object = suda_result.min_msu_size
    if not suda_result.searched:  # not searched: missing values, never zeros
        msu_count = min_msu_size = pd.array([pd.NA] * table.n_records, dtype="Int64")
    return pd.DataFrame(
        {
            "row": np.arange(1, table.n_records + 1, dtype=np.int64),
            "class_size": f,
            "prosecutor_risk": 1.0 / f,
            "individual_risk": ir.risk,
            "msu_count": msu_count,
            "min_msu_size": min_msu_size,
            "suda_score": suda_result.score,
            "dis_suda": suda_result.dis_score,
        },
        columns=list(RECORD_COLUMNS),
    )
