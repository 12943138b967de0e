"""Special uniques: minimal sample uniques (MSUs), SUDA and DIS-SUDA scores per record.

A record is a *sample unique* when no other record shares its values on all
the quasi-identifiers (QIs). A *minimal sample unique* (MSU) of a record is a
set of its QI values that no other record has, while every proper subset of
it is shared by at least one other record (Elliot, Manning and Ford 2002). A
record with small MSUs, or many of them, is a *special unique*: it stands out
on few variables, so an intruder needs to know little to single it out.

The MSUs are found with the SUDA2 search of Manning, Haglin and Keane (2008),
run level by level over all nodes at once on the engine's integer codes (see
:func:`suda`), and scored as sdcMicro's ``suda2`` scores them (its C++ source
``src/Suda2.h``, ``original_scores = TRUE``):

- SUDA score (Elliot et al. 2002): a record with MSUs of sizes k_1, k_2, ...
  scores ``sum_i (M - k_i)!``, M the number of QIs.
- DIS-SUDA score (Elliot 2005; Skinner and Elliot 2002): the scores calibrated
  to the probability that a unique match on the QIs is a correct match, given
  the sampling fraction ``dis_fraction`` (sdcMicro's ``DisFraction``).
- Contribution of a QI to a record's score: the share of the score that comes
  from MSUs containing that QI.

Engines: this needs each record, so it runs on the in-memory engine only
(:class:`~riskcore.engine.EncodedTable`); the streaming, DuckDB and Spark
engines return class counts, which every figure of ``assess`` needs and no
more (:data:`riskcore.engine.select.SUPPORTED_ENGINES`).

References
----------
.. [EMF02] Elliot, M. J., Manning, A. M. and Ford, R. W. (2002). A
   computational algorithm for handling the special uniques problem.
   International Journal of Uncertainty, Fuzziness and Knowledge-Based
   Systems 10(5), 493-509.
.. [SE02] Skinner, C. J. and Elliot, M. J. (2002). A measure of disclosure
   risk for microdata. Journal of the Royal Statistical Society B 64(4),
   855-867.
.. [E05] Elliot, M. J. (2005). DIS-SUDA: a method for assessing record-level
   disclosure risk (with Manning, Mayes, Gurd and Bane: "SUDA: a program for
   detecting special uniques", Joint UNECE/Eurostat work session on SDC).
.. [MHK08] Manning, A. M., Haglin, D. J. and Keane, J. A. (2008). A recursive
   search algorithm for statistical disclosure assessment. Data Mining and
   Knowledge Discovery 16, 165-196.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
else:
    from riskcore._lazy import pandas as pd

from riskcore._deprecation import renamed_arguments
from riskcore._results import NOT_IN_JSON, Result
from riskcore._validation import check_fraction, check_positive_int
from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError, RolesError
from riskcore.metrics._suda_search import find_msus

__all__ = [
    "SUDA_MAX_COMBINATIONS",
    "SUDA_MAX_QIS",
    "SudaResult",
    "check_suda_bounds",
    "largest_msu_size",
    "msu_weight",
    "suda",
    "suda_combinations",
    "suda_not_searched",
]

#: Most quasi-identifiers SUDA is run on. The MSU search grows with the number of
#: QI combinations, and the weights (M - k)! leave double precision at M = 171.
SUDA_MAX_QIS = 40
#: Most QI combinations (subsets of at most ``max_size`` QIs) SUDA searches: 2,000
#: records searched up to this many combinations take a few seconds and under 0.5 GB
#: (12 QIs in full: 4,095 combinations, 4 s; 14 QIs in full: 16,383, 15 s; 60 QIs up to
#: size 3: 36,050, 26 s), and the work doubles with every QI searched in full.
SUDA_MAX_COMBINATIONS = 10_000

#: sdcMicro's suda2 pads the QIs to three columns with constant dummies, so
#: its weights and DIS exponent use M = max(number of QIs, 3).
_SDCMICRO_MIN_COLUMNS = 3


_no_ints = partial(np.zeros, 0, dtype=np.int64)
_no_floats = partial(np.zeros, 0, dtype=np.float64)
_no_contributions = partial(np.zeros, (0, 0), dtype=np.float64)
_no_flags = partial(np.zeros, (0, 0), dtype=bool)


def msu_weight(size: int, n_columns: int) -> float:
    """Return the SUDA score of one MSU of ``size`` values among ``n_columns`` QIs.

    .. math:: w(k) = \\prod_{i=k}^{M-1} (M - i) = (M - k)!

    (Elliot, Manning and Ford 2002; sdcMicro ``suda2`` with
    ``original_scores = TRUE``). sdcMicro pads fewer than three QIs to three
    columns, so ``M = max(n_columns, 3)``. The weight does not depend on the
    largest MSU size searched: lowering ``max_size`` only drops the terms of
    the larger MSUs.

    Parameters
    ----------
    size : int
        k, the number of QI values in the MSU (1 <= k <= n_columns).
    n_columns : int
        The number of QIs.

    Returns
    -------
    float
    """
    m = max(int(n_columns), _SDCMICRO_MIN_COLUMNS)
    if not 1 <= size <= m:
        raise ValueError(f"an MSU of {size} values among {n_columns} QIs is impossible")
    return float(math.factorial(m - size))


def suda_combinations(n_qis: int, max_size: int) -> int:
    """Return the number of QI combinations SUDA searches: sum of C(m, k) for k <= max_size.

    Parameters
    ----------
    n_qis : int
        m, the number of QIs.
    max_size : int
        The largest MSU size searched.

    Returns
    -------
    int
    """
    return sum(math.comb(n_qis, k) for k in range(1, min(max_size, n_qis) + 1))


def largest_msu_size(n_qis: int) -> int:
    """Return the largest MSU size whose search stays within :data:`SUDA_MAX_COMBINATIONS`.

    Parameters
    ----------
    n_qis : int
        The number of quasi-identifiers.

    Returns
    -------
    int
        Between 1 and ``n_qis`` (0 when ``n_qis`` is 0).
    """
    size = min(1, n_qis)
    while size < n_qis and suda_combinations(n_qis, size + 1) <= SUDA_MAX_COMBINATIONS:
        size += 1
    return size


def check_suda_bounds(
    n_qis: int, max_size: int | None = None, *, varying: int | None = None
) -> int:
    """Return the MSU size to search, or refuse a search beyond the stated limits.

    The limits (:data:`SUDA_MAX_QIS`, :data:`SUDA_MAX_COMBINATIONS`) are checked
    before any work starts.

    Parameters
    ----------
    n_qis : int
        The number of quasi-identifiers (refused above :data:`SUDA_MAX_QIS`).
    max_size : int, optional
        The largest MSU size asked for (default all the QIs).
    varying : int, optional
        The QIs holding more than one value (default all): a QI of one value is
        in every record, pruned by the search, and not counted in its combinations.

    Returns
    -------
    int
        The MSU size to search (``max_size``, at most ``n_qis``).

    Raises
    ------
    RiskcoreError
        With more than :data:`SUDA_MAX_QIS` QIs, or more than
        :data:`SUDA_MAX_COMBINATIONS` combinations to search; the message says
        which smaller search fits.
    """
    if n_qis > SUDA_MAX_QIS:
        raise RiskcoreError(
            f"special uniques (SUDA) on {n_qis:,} quasi-identifiers are refused: the limit is "
            f"{SUDA_MAX_QIS} quasi-identifiers (SUDA_MAX_QIS); choose the {SUDA_MAX_QIS} or "
            "fewer an attacker could know"
        )
    size = n_qis if max_size is None else min(max_size, n_qis)
    searched = n_qis if varying is None else min(varying, n_qis)
    n = suda_combinations(searched, size)
    if n > SUDA_MAX_COMBINATIONS:
        fits = largest_msu_size(searched)
        raise RiskcoreError(
            f"special uniques (SUDA) on {searched} varying quasi-identifiers up to "
            f"combinations of {size} values search {n:,} combinations, above the limit of "
            f"{SUDA_MAX_COMBINATIONS:,} "
            f"(SUDA_MAX_COMBINATIONS): search combinations of at most {fits} values "
            f"(max_size={fits}), or choose fewer quasi-identifiers"
        )
    return size


@dataclass(frozen=True)
class SudaResult(Result):
    """Minimal sample uniques, SUDA and DIS-SUDA scores of every record.

    Attributes
    ----------
    quasi_identifiers : tuple of str
        The quasi-identifier columns.
    n_records : int
    max_size : int
        Largest MSU size searched.
    dis_fraction : float
        Sampling fraction pi of the DIS calibration (sdcMicro ``DisFraction``).
    n_msus : int
        MSUs found, over all records.
    msus_by_size : tuple of int
        ``msus_by_size[k - 1]`` MSUs have k values (k = 1 .. max_size).
    special_uniques : int
        Records with at least one MSU (score above 0).
    sample_uniques : int
        U: records unique on all the QIs (missing as a value of its own).
    pair_records : int
        P: records in a class of exactly two on all the QIs (the DIS
        estimate's "pairs", counted in records).
    unique_missing : int
        Sample uniques with no MSU that have a missing QI value: SUDA never uses a
        missing value, and their known values are shared by other records. The other
        sample uniques with no MSU (``sample_uniques - special_uniques -
        unique_missing``) are unique only on more than ``max_size`` values.
    dis : float
        File-level DIS probability that a unique match is correct,
        U pi / (U pi + P (1 - pi)) (Skinner and Elliot 2002); NaN when U = 0.
    qi_contribution : tuple of float
        Per QI, its share of the total SUDA score (sdcMicro's
        ``attribute_contributions`` / 100): sum over records of
        ``contribution * score`` over the sum of the scores; 0 when no record
        scores. Shares add up to more than 1 when MSUs have several values.
    msu_count : numpy.ndarray
        Per record, its number of MSUs.
    min_msu_size : numpy.ndarray
        Per record, the size of its smallest MSU (0: none).
    score : numpy.ndarray
        Per record, the SUDA score (higher is riskier; 0 for records with no
        MSU).
    dis_score : numpy.ndarray
        Per record, the DIS-SUDA score in [0, 1] (higher is riskier).
    contribution : numpy.ndarray
        ``(n_records, n_qis)``: per record and QI, the share of the record's
        score from MSUs containing the QI (0 for records that do not score).
    msu_record : numpy.ndarray
        One entry per MSU: the record (position) it belongs to, sorted.
    msu_columns : numpy.ndarray
        ``(n_msus, n_qis)`` booleans: the QIs making up each MSU.
    person : str or None
        The column linking the rows of one person: SUDA ran on one record per
        person, so the MSU, unique and pair counts are of people, each row
        carries its person's figures, and ``msu_record`` holds person numbers.
    n_people : int or None
        The people (with a person column).
    row_person : numpy.ndarray
        With a person column, each row's person number (empty otherwise).
    searched : bool
        False for :func:`suda_not_searched`: the special uniques were not
        searched (with a person column, people whose rows carry several QI
        tuples), so no count or score holds (the scores are NaN).

    The per-record and per-MSU arrays are not written to JSON.
    """

    quasi_identifiers: tuple[str, ...]
    n_records: int
    max_size: int
    dis_fraction: float
    n_msus: int
    msus_by_size: tuple[int, ...]
    special_uniques: int
    sample_uniques: int
    pair_records: int
    dis: float
    qi_contribution: tuple[float, ...]
    unique_missing: int = 0
    msu_count: np.ndarray = field(default_factory=_no_ints, repr=False, metadata=NOT_IN_JSON)
    min_msu_size: np.ndarray = field(default_factory=_no_ints, repr=False, metadata=NOT_IN_JSON)
    score: np.ndarray = field(default_factory=_no_floats, repr=False, metadata=NOT_IN_JSON)
    dis_score: np.ndarray = field(default_factory=_no_floats, repr=False, metadata=NOT_IN_JSON)
    contribution: np.ndarray = field(
        default_factory=_no_contributions, repr=False, metadata=NOT_IN_JSON
    )
    msu_record: np.ndarray = field(default_factory=_no_ints, repr=False, metadata=NOT_IN_JSON)
    msu_columns: np.ndarray = field(default_factory=_no_flags, repr=False, metadata=NOT_IN_JSON)
    person: str | None = None
    n_people: int | None = None
    row_person: np.ndarray = field(default_factory=_no_ints, repr=False, metadata=NOT_IN_JSON)
    searched: bool = field(default=True, metadata=NOT_IN_JSON)

    def msus_of(self, record: int) -> tuple[tuple[str, ...], ...]:
        """Return the MSUs of one record, each as the QI names it is made of.

        Parameters
        ----------
        record : int
            Position of the record (0-based, as in the input table).

        Returns
        -------
        tuple of tuple of str
            Smallest MSUs first, then in QI order.
        """
        record = check_positive_int("record", record, minimum=0)
        if len(self.row_person):  # the MSUs are the row's person's
            record = int(self.row_person[record])
        lo, hi = np.searchsorted(self.msu_record, [record, record + 1])
        flags = self.msu_columns[lo:hi]
        found = [
            tuple(q for q, on in zip(self.quasi_identifiers, row, strict=True) if on)
            for row in flags.tolist()
        ]
        order = {q: i for i, q in enumerate(self.quasi_identifiers)}
        found.sort(key=lambda cols: (len(cols), [order[q] for q in cols]))
        return tuple(found)


@renamed_arguments(table="data")
def suda(
    data: EncodedTable | pd.DataFrame,
    quasi_identifiers: list[str] | tuple[str, ...],
    *,
    max_size: int | None = None,
    dis_fraction: float = 0.01,
    person: str | None = None,
) -> SudaResult:
    """Compute the minimal sample uniques and SUDA / DIS-SUDA scores of every record.

    **MSUs.** A set of a record's QI values is an MSU when no other record
    has all of them and, for each proper subset, some other record has that
    subset (Elliot, Manning and Ford 2002). They are found with SUDA2
    (Manning, Haglin and Keane 2008): items (QI, value) are ranked by
    increasing support; the search tree's node P (an itemset, its items in
    rank order) holds the subtable of records containing P and is extended
    only by items ranked after P's last; an item with support 1 in the
    subtable gives the candidate P + item, kept when every P + item - x
    is non-unique; an item in every record of the subtable, an item unique or
    in every record of the data, and a subtable with no sample unique are
    pruned (none can lead to an MSU). Duplicated records are kept twice at most,
    as in sdcMicro (weights min(f, 2)). The search runs level by level over all
    nodes at once, on the engine's integer codes: there is no Python loop over
    records or over the 2^m subsets.

    **Scores** (sdcMicro ``suda2``, ``original_scores = TRUE``). With m QIs
    and M = max(m, 3) (sdcMicro pads fewer than three QIs to three columns),
    a record's SUDA score is

    .. math:: S_i = \\sum_{\\text{MSU } u \\text{ of } i} (M - |u|)!

    e.g. with M = 4, one MSU of size 1 and one of size 2 give 3! + 2! = 8.
    The contribution of QI v to record i is
    :math:`\\sum_{u \\ni v} (M - |u|)! / S_i`.
    **DIS-SUDA** (Elliot 2005, as in sdcMicro): with U the records unique on
    all QIs, P the records in classes of exactly two, pi = ``dis_fraction``,
    the DIS estimate of the probability that a unique match is correct
    (Skinner and Elliot 2002) is :math:`\\mathrm{dis} = U\\pi / (U\\pi + P(1-\\pi))`;
    with :math:`Q = 1 + (8 - M)/20` and :math:`A = \\sum_{j: S_j > 0} S_j^{-Q}`,

    .. math:: \\mathrm{DIS}_i = 1 \\Big/ \\left(1 + \\frac{U/\\mathrm{dis} - U}{S_i^{Q} A}\\right)

    for :math:`S_i > 0`, else 0. (:math:`U/\\mathrm{dis} - U = P(1-\\pi)/\\pi`.)

    **Missing values** follow sdcMicro's ``suda2``: a missing QI value is
    never part of an MSU, and it matches no value of another record (records
    are grouped with it as a value of its own, as everywhere in riskcore).
    Only sample uniques score: a record shared on all QIs has no MSU.

    Differences from sdcMicro 5.8.1 (``src/Suda2.h``), each a defect there:
    U counts every sample unique (sdcMicro counts only those alone in a
    16-bit hash bucket, which makes U too small, and gives NaN DIS-SUDA
    when U is 0; otherwise U cancels out of the DIS-SUDA score); per-QI
    contributions count each MSU once per QI (sdcMicro's shortcut for items
    held by exactly the same records credits them wrongly); the padding
    columns of a one-record table with fewer than three QIs are not MSUs
    (sdcMicro counts them); computing is in double precision (sdcMicro's
    dis is a single precision float).

    Parameters
    ----------
    data : EncodedTable or pandas.DataFrame
        The records; an :class:`~riskcore.engine.EncodedTable` reuses its
        cached column codes.
    quasi_identifiers : sequence of str
        The QIs (at least one).
    max_size : int, optional
        Largest MSU size searched; default the number of QIs.
    dis_fraction : float, default 0.01
        The sampling fraction pi of the DIS calibration (sdcMicro
        ``DisFraction``), in (0, 1].
    person : str, optional
        The column linking the rows of one person. SUDA then runs on one
        record per person (the unit of privacy), each row carrying its
        person's figures; this needs each person's QIs to be one tuple (the
        same on all their rows): a set of several tuples is not a record, and
        the uniqueness of a set of values is then of people, not of rows
        (a QI that changes from visit to visit is an event: see k^m-anonymity).

    Returns
    -------
    SudaResult
        Per record (in input order): MSU count, smallest MSU size, SUDA and
        DIS-SUDA scores (higher is riskier), per-QI contributions; and the
        MSUs themselves.

    Raises
    ------
    RolesError
        When no QI is given, or a QI is not a column.
    RiskcoreError
        Beyond :data:`SUDA_MAX_QIS` QIs or :data:`SUDA_MAX_COMBINATIONS`
        combinations (:func:`check_suda_bounds`), before any work.

    Examples
    --------
    Five records on two QIs; as sdcMicro pads fewer than three QIs to three,
    M = 3 (:func:`msu_weight`). Rows 1 and 2 share (1, x): no MSU. Rows 3 and 4
    share each of their values with another row but are unique on the pair:
    one MSU of size 2, score (3 - 2)! = 1. Row 5 is unique on a = 3 alone: one
    MSU of size 1, score (3 - 1)! = 2.

    >>> import pandas as pd
    >>> r = suda(pd.DataFrame({"a": [1, 1, 2, 2, 3], "b": list("xxxyy")}), ["a", "b"])
    >>> r.score.tolist(), r.min_msu_size.tolist(), r.msus_by_size
    ([0.0, 0.0, 1.0, 1.0, 2.0], [0, 0, 2, 2, 1], (1, 2))
    >>> r.msus_of(4)
    (('a',),)
    """
    if not isinstance(data, EncodedTable):
        data = EncodedTable(data)
    if person is not None:
        return _suda_people(data, tuple(quasi_identifiers), person, max_size, dis_fraction)
    qis = tuple(quasi_identifiers)
    if not qis:
        raise RolesError("choose at least one quasi-identifier")
    if len(set(qis)) != len(qis):
        raise RolesError("a quasi-identifier is listed twice")
    m = len(qis)
    size_cap = m if max_size is None else check_positive_int("max_size", max_size)
    size_cap = min(size_cap, m)
    pi = check_fraction("dis_fraction", dis_fraction)
    enc = [data.column(q) for q in qis]
    # a QI holding one value is pruned from the search: only the varying ones count
    check_suda_bounds(m, size_cap, varying=sum(e.n_values > 1 for e in enc))
    n = data.n_records
    m_eff = max(m, _SDCMICRO_MIN_COLUMNS)
    weights = np.array([0.0] + [msu_weight(k, m) for k in range(1, m + 1)])

    msu_rec: list[np.ndarray] = []
    msu_cols: list[np.ndarray] = []
    msu_size: list[np.ndarray] = []
    if n:
        # Deduplicate: one row per distinct QI combination, weight min(f, 2).
        cls = data.record_classes(qis)
        sizes = data.classes(qis).sizes
        _, first = np.unique(cls, return_index=True)
        f = sizes[cls[first]]
        w = np.minimum(f, 2).astype(np.int64)
        unique = f == 1
        codes = np.stack([e.codes[first] for e in enc], axis=1)
        missing = np.stack(
            [
                codes[:, v] == (e.n_values - 1) if e.n_missing else np.zeros(len(first), bool)
                for v, e in enumerate(enc)
            ],
            axis=1,
        )
        total = int(w.sum())
        # Items: (QI, value) with its weighted support; unique items are the 1-MSUs.
        offsets = np.concatenate(([0], np.cumsum([e.n_values for e in enc])))
        item_id = codes + offsets[:-1]
        item_support = np.bincount(
            item_id[~missing],
            weights=np.broadcast_to(w[:, None], codes.shape)[~missing],
            minlength=int(offsets[-1]),
        ).astype(np.int64)
        one = (item_support[item_id] == 1) & ~missing
        r1, v1 = np.nonzero(one)
        msu_rec.append(first[r1])
        flags = np.zeros((len(r1), m), dtype=bool)
        flags[np.arange(len(r1)), v1] = True
        msu_cols.append(flags)
        msu_size.append(np.ones(len(r1), dtype=np.int64))
        searchable = (item_support >= 2) & (item_support < total)  # a missing value has 0
        item_var = np.repeat(np.arange(m), np.diff(offsets))
        cand = np.flatnonzero(searchable)
        order = np.lexsort((cand, item_support[cand]))  # support ascending, then QI, value
        rank_of = np.full(int(offsets[-1]), -1, dtype=np.int64)
        rank_of[cand[order]] = np.arange(len(cand), dtype=np.int64)
        var_of_rank = item_var[cand[order]]
        ranks = rank_of[item_id]
        for rows, items in find_msus(ranks, w, unique, len(cand), size_cap):
            k = len(items)
            flags = np.zeros((len(rows), m), dtype=bool)
            for it in items:
                flags[np.arange(len(rows)), var_of_rank[it]] = True
            msu_rec.append(first[rows])
            msu_cols.append(flags)
            msu_size.append(np.full(len(rows), k, dtype=np.int64))
    rec = np.concatenate(msu_rec) if msu_rec else np.zeros(0, dtype=np.int64)
    cols = np.concatenate(msu_cols) if msu_cols else np.zeros((0, m), dtype=bool)
    ksz = np.concatenate(msu_size) if msu_size else np.zeros(0, dtype=np.int64)
    order = np.lexsort((ksz, rec))
    rec, cols, ksz = rec[order].astype(np.int64), cols[order], ksz[order]

    msu_count = np.bincount(rec, minlength=n).astype(np.int64)
    min_size = np.zeros(n, dtype=np.int64)
    if len(rec):
        starts = np.flatnonzero(np.concatenate(([True], rec[1:] != rec[:-1])))
        min_size[rec[starts]] = ksz[starts]  # sorted by record, then size
    w_msu = weights[ksz]
    score = np.bincount(rec, weights=w_msu, minlength=n).astype(np.float64)
    raw = np.zeros((n, m), dtype=np.float64)
    for v in range(m):
        raw[:, v] = np.bincount(rec, weights=w_msu * cols[:, v], minlength=n)
    scored = score > 0
    contribution = np.zeros((n, m), dtype=np.float64)
    contribution[scored] = raw[scored] / score[scored, None]
    total_score = float(score.sum())
    qi_share = tuple(
        float(raw[:, v].sum() / total_score) if total_score > 0 else 0.0 for v in range(m)
    )

    # DIS calibration (Skinner and Elliot 2002; Elliot 2005; sdcMicro suda2).
    class_sizes = data.classes(qis).sizes if n else np.zeros(0, dtype=np.int64)
    u = int((class_sizes == 1).sum())
    p_rec = int(2 * (class_sizes == 2).sum())
    dis = u * pi / (u * pi + p_rec * (1 - pi)) if u else math.nan
    q = 1.0 + (8.0 - m_eff) / 20.0
    dis_score = np.zeros(n, dtype=np.float64)
    if scored.any():
        s_q = score[scored] ** q
        adj = float((1.0 / s_q).sum())
        false_matches = p_rec * (1 - pi) / pi  # = U / dis - U
        dis_score[scored] = 1.0 / (1.0 + false_matches / (s_q * adj))
    by_size = np.bincount(ksz, minlength=size_cap + 1)[1 : size_cap + 1]
    # sample uniques SUDA leaves unscored because of a missing value (never part of an MSU)
    unique_missing = 0
    if n:
        has_missing = np.zeros(n, dtype=bool)
        for e in enc:
            if e.n_missing:
                has_missing |= e.codes == (e.n_values - 1)
        skipped = (class_sizes[cls] == 1) & has_missing & ~scored
        unique_missing = int(skipped.sum())
    return SudaResult(
        quasi_identifiers=qis,
        n_records=n,
        max_size=size_cap,
        dis_fraction=pi,
        n_msus=len(rec),
        msus_by_size=tuple(int(x) for x in by_size),
        special_uniques=int(scored.sum()),
        sample_uniques=u,
        pair_records=p_rec,
        dis=float(dis),
        qi_contribution=qi_share,
        unique_missing=unique_missing,
        msu_count=msu_count,
        min_msu_size=min_size,
        score=score,
        dis_score=dis_score,
        contribution=contribution,
        msu_record=rec,
        msu_columns=cols,
    )


def _suda_people(
    data: EncodedTable,
    qis: tuple[str, ...],
    person: str,
    max_size: int | None,
    dis_fraction: float,
) -> SudaResult:
    """Return SUDA on one record per person, each row carrying its person's figures."""
    if person in qis:
        raise RolesError(f"the person column {person!r} cannot be a quasi-identifier too")
    if not qis:
        raise RolesError("choose at least one quasi-identifier")
    part = data.partition(qis, person=person)
    people = part.people
    assert people is not None  # noqa: S101 - a person partition
    if not people.single:
        several = people.several
        raise RiskcoreError(
            f"special uniques are found per person, and {several:,} people have rows with "
            "different quasi-identifier values (a record per person is one tuple): keep as "
            "quasi-identifiers the columns that stay the same on a person's rows (a year of "
            "birth rather than the age at each visit), and judge the ones that change from "
            "visit to visit as events (k^m-anonymity)"
        )
    _, first = np.unique(people.person, return_index=True)  # person p's first row
    one = EncodedTable(data.df.iloc[first][list(qis)].reset_index(drop=True))
    res = suda(one, list(qis), max_size=max_size, dis_fraction=dis_fraction)
    rp = people.person
    return dataclasses.replace(
        res,
        n_records=len(rp),
        msu_count=res.msu_count[rp],
        min_msu_size=res.min_msu_size[rp],
        score=res.score[rp],
        dis_score=res.dis_score[rp],
        contribution=res.contribution[rp],
        person=person,
        n_people=res.n_records,
        row_person=rp,
    )


def suda_not_searched(
    data: EncodedTable | pd.DataFrame,
    quasi_identifiers: Sequence[str],
    *,
    person: str | None = None,
) -> SudaResult:
    """Return the result standing for special uniques that were not searched.

    Where :func:`suda` refuses (with a person column, people whose rows carry
    several QI tuples: a set of tuples is not one record), the per-record
    risk table is still wanted without its SUDA columns: this result has
    ``searched=False``, no MSU, every count 0 and every per-record score NaN,
    so :func:`riskcore.metrics.records.record_risk` writes the SUDA columns as
    missing values rather than as zeros.

    Parameters
    ----------
    data : EncodedTable or pandas.DataFrame
        The table, or its encoded form.
    quasi_identifiers : sequence of str
        The quasi-identifier columns.
    person : str, optional
        The column linking the rows of one person.

    Returns
    -------
    SudaResult
        With ``searched`` False.
    """
    if not isinstance(data, EncodedTable):
        data = EncodedTable(data)
    qis = tuple(quasi_identifiers)
    n, m = data.n_records, len(qis)
    rp, n_people = _no_ints(), None
    if person is not None:
        people = data.partition(qis, person=person).people
        assert people is not None  # noqa: S101 - a person partition
        rp, n_people = people.person, people.n_people
    return SudaResult(
        quasi_identifiers=qis,
        n_records=n,
        max_size=0,
        dis_fraction=float("nan"),
        n_msus=0,
        msus_by_size=(),
        special_uniques=0,
        sample_uniques=0,
        pair_records=0,
        dis=float("nan"),
        qi_contribution=(0.0,) * m,
        msu_count=np.zeros(n, dtype=np.int64),
        min_msu_size=np.zeros(n, dtype=np.int64),
        score=np.full(n, np.nan),
        dis_score=np.full(n, np.nan),
        contribution=np.zeros((n, m), dtype=np.float64),
        msu_record=_no_ints(),
        msu_columns=np.zeros((0, m), dtype=bool),
        person=person,
        n_people=n_people,
        row_person=rp,
        searched=False,
    )
