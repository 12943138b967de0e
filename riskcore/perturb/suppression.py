"""Local suppression: blank single quasi-identifier cells until every record has k matches.

The algorithm of sdcMicro's ``localSuppression`` / ``kAnon`` ([TKM15]_, source
``sdcTools/sdcMicro`` ``R/localSuppression.R``, function ``suppSubset``, and
``src/calcSuppInds.cpp``), after Sweeney's k-anonymity ([Swe02]_):

1. A record's frequency count f_k(r) is judged with a missing value matching
   any value (our ``"any"`` policy, sdcMicro's ``alpha = 1``; computed by
   :func:`riskcore.metrics.missing.compatible_sizes`). The records with
   f_k(r) < k are the *problem* records of a round.
2. For a problem record r, the distance to another record s is the number of
   QIs known in both on which they differ (``cpp_calcSuppInds``). The
   *nearest* records are those at the smallest non-zero distance.
3. The QIs are tried in decreasing importance number (importance 1 is
   suppressed last; ties in column order): r's cell is suppressed in the first
   QI on which r differs from a nearest record that knows it. This makes r
   match that record on one more QI.
4. f_k is computed again; rounds go on until every record has f_k >= k.

Without an importance, sdcMicro's default is used (:func:`default_importance`):
the QI with the most distinct values gets the highest number (suppressed
first), the one with the fewest gets 1.

How the rounds differ from sdcMicro's (vectorized: no loop over records):

- sdcMicro judges f_k on a reduced table in which every class with more than
  k records keeps only k of them (its step 3); here f_k is that of the whole
  table, which never counts fewer matches, so a record is done no later.
- sdcMicro treats every problem record of a round one after another (in
  decreasing individual risk), each seeing the cells suppressed before it.
  Here a round treats, all at once, the problem records whose nearest records
  are nearest of all (smallest distance over the problem records): one cell
  each makes them match a record, whatever the others do, since a suppressed
  cell only adds matches. The others wait for the next round, where the cells
  just suppressed may have brought them closer.
- **Importance 1 last.** sdcMicro sorts the QIs by importance once
  (``colIndsSorted <- keyVars[order(importanceI)]`` in ``suppSubset``,
  ``R/localSuppression.R`` at commit cf32510, version 5.8.1) and treats one
  record after another, each seeing the blanks made before it. Here a problem
  record whose chosen cell lies in the QIs of the lowest importance (importance
  1, suppressed last) waits while other problem records can be treated in other
  QIs; their blanks may bring it nearer a record that differs from it in
  another QI. A round in which every problem record left would be treated in
  the lowest-importance QIs blanks them, as sdcMicro must then too. Treating
  such a record in the first round blanked a water cell where sdcMicro blanks
  none (issue 38: sdcMicro's ``testdata``, k = 3, water at importance 1;
  record 210 differs from each of its nearest records in water alone, and
  sdcMicro reaches it after other records' blanks brought a record differing
  in sex nearer). Neither order is a guarantee: with the other keys in column
  order sdcMicro blanks one water cell there, riskcore none; and when
  sdcMicro's own order blanks fewer cells in all (below) its result is kept,
  lowest-importance blanks included.
- Problem records that would become identical once their chosen cell is
  suppressed differ only in that cell; when they number at least k together,
  the key with the most records keeps its cell (every other one then matches
  the whole group, and it matches every other one).
- The nearest distance and the QI chosen are counted on the class table by
  inclusion and exclusion over sets of ignored QIs
  (:func:`riskcore.perturb._suppression_core.choose`), not by comparing every
  problem record with every record.
- **Restoring** (after the rounds; sdcMicro has no such step): a blank cell
  gets its value back when the record, with it, still matches at least k
  records and no record it stops matching has exactly k
  (:func:`riskcore.perturb._suppression_core.restore`). Greedy suppression
  blanks cells that later blanks made unnecessary (a record that reached k
  early through a cell that a neighbour's later blank would also have given);
  restoring takes them back, most important QI first. It can only lower the
  count.

Each round suppresses at least one cell, and a record whose QIs are all
missing matches all n >= k records, so the rounds end. Measured on sdcMicro's
``testdata2`` (seven key variables, default importance), cells blanked by
riskcore / by sdcMicro (its test for k = 2, a re-implementation of its loop
from its source for the others): k = 2, 57 / 97; k = 3, 89 / 117; k = 4,
105 / 138; k = 5, 131 / 157 (``tests/riskcore/test_perturb_suppression.py``
checks these and two other importance orders, and random small tables).
- **Never more than sdcMicro.** The rounds and the restoring are heuristics, like
  sdcMicro's loop, and on some small tables sdcMicro's order (each problem record
  seeing the blanks made before it) blanks fewer cells (hypothesis found a 4-record
  table: 5 against 4). So, with restoring on, sdcMicro's order is run too
  (:func:`riskcore.perturb._sdcmicro_order.sdcmicro_order`) and whichever blanks
  fewer cells is kept. Its loop over problem records is bounded
  (:data:`riskcore.perturb._sdcmicro_order.MAX_WORK` cell comparisons, checked
  before every round): past it (Adult with 8 QIs is), only the rounds' and
  restoring's result stands, and "never more" is then measured, not guaranteed.

References
----------
.. [TKM15] M. Templ, A. Kowarik, B. Meindl, "Statistical disclosure control for
   micro-data using the R package sdcMicro", Journal of Statistical Software
   67(4), 2015.
.. [Swe02] L. Sweeney, "k-anonymity: a model for protecting privacy",
   International Journal of Uncertainty, Fuzziness and Knowledge-Based Systems
   10(5), 557-570, 2002.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from riskcore._results import Result
from riskcore._validation import check_positive_int
from riskcore.errors import RiskcoreError
from riskcore.metrics.missing import MAX_QIS
from riskcore.perturb._sdcmicro_order import sdcmicro_order
from riskcore.perturb._suppression_core import choose, distinct, fk, restore

__all__ = [
    "MAX_CELLS",
    "LocalSuppression",
    "default_importance",
    "local_suppression",
    "match_counts",
]

#: The most QI cells (records x quasi-identifiers) local suppression takes on, checked before
#: it starts (the dashboard also gives it a deadline). Each round and each restoring round
#: joins class tables whose missing-value patterns grow with the cells blanked. UCI Adult's
#: 32,561 records x 8 QIs (260,488 cells): k = 2 in 28 s, k = 5 in 80 s, measured with a load
#: average of 4 to 7 on 2 cores (``benchmarks/bench_perturb.py``, 2026-12-07).
MAX_CELLS = 1_000_000


@dataclass(frozen=True)
class LocalSuppression(Result):
    """The result of :func:`local_suppression`.

    Attributes
    ----------
    quasi_identifiers : tuple of str
    k : int
        The target: every record matches at least k records (itself included),
        a missing value matching any value.
    importance : dict of str to int
        The importance used per QI (1 = suppressed last).
    suppressed : dict of str to int
        Cells suppressed per QI by this run (missing values already in the data
        not counted).
    missing_before : dict of str to int
        Missing values per QI before the run.
    records_touched : int
        Records with at least one suppressed cell.
    rounds : int
        Suppression rounds run (0 when the table already met k).
    restore_rounds : int
        Restoring rounds run after them (0 when nothing was suppressed or
        restoring was switched off).
    restore_cells : bool
        Whether the restoring pass was asked for (a recipe step records it, so that a
        step recorded before the pass existed replays without it, byte for byte).
    lowest_last : bool
        Whether records to be blanked in the lowest-importance QIs waited for the others
        (a recipe step records it; a step recorded before replays without it).
    smallest_count : int
        The smallest f_k after suppression (at least ``k``).
    data : pandas.DataFrame
        The table with the suppressed cells missing; same rows in the same
        order, other columns unchanged (not in JSON).
    cells : numpy.ndarray
        bool, shape (records, QIs): the cells this run suppressed (not in JSON).
    person : str or None
        The column linking the rows of one person: the run counted people (one
        record per person), ``smallest_count`` is in people, and a person's
        blank is made on every one of their rows.
    people_touched : int or None
        With a person column, the people with a suppressed cell.
    """

    quasi_identifiers: tuple[str, ...]
    k: int
    importance: dict[str, int]
    suppressed: dict[str, int]
    missing_before: dict[str, int]
    records_touched: int
    rounds: int
    smallest_count: int
    restore_rounds: int = 0
    restore_cells: bool = False
    lowest_last: bool = False
    data: pd.DataFrame = field(default_factory=pd.DataFrame, metadata={"json": False})
    cells: np.ndarray = field(
        default_factory=lambda: np.zeros((0, 0), dtype=bool), metadata={"json": False}
    )
    person: str | None = None
    people_touched: int | None = None

    @property
    def total_suppressed(self) -> int:
        """Return the number of cells suppressed by this run."""
        return int(sum(self.suppressed.values()))

    @property
    def touched(self) -> np.ndarray:
        """Return the positions of the records with a suppressed cell (int64)."""
        return np.flatnonzero(self.cells.any(axis=1)) if self.cells.size else np.zeros(0, int)


def _check_qis(data: pd.DataFrame, quasi_identifiers: Sequence[str]) -> tuple[str, ...]:
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a DataFrame, got {type(data).__name__}")
    if isinstance(quasi_identifiers, str):
        quasi_identifiers = [quasi_identifiers]
    qis = tuple(str(q) for q in quasi_identifiers)
    if not qis:
        raise RiskcoreError("local suppression needs at least one quasi-identifier")
    if len(set(qis)) != len(qis):
        raise RiskcoreError("a quasi-identifier is named twice")
    absent = [q for q in qis if q not in data.columns]
    if absent:
        raise RiskcoreError(f"the table has no column {absent[0]!r}")
    if len(qis) > MAX_QIS:
        raise RiskcoreError(f"local suppression handles up to {MAX_QIS} quasi-identifiers")
    return qis


def default_importance(data: pd.DataFrame, quasi_identifiers: Sequence[str]) -> dict[str, int]:
    """Return sdcMicro's default importance: QIs with fewer distinct values are kept longer.

    sdcMicro ranks the key variables by their number of distinct (non-missing)
    values, fewest first, ties in column order (``R/localSuppression.R``:
    ``match(names(xx), names(sort(unlist(xx))))``): the rank is the importance,
    so the QI with the most values gets the highest number and is suppressed
    first.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    quasi_identifiers : sequence of str
        The quasi-identifier columns, ranked in this order on ties.

    Returns
    -------
    dict of str to int
        Each QI's importance, 1 to the number of QIs.

    Raises
    ------
    RiskcoreError
        When a QI is not a column of ``data``.
    """
    qis = _check_qis(data, quasi_identifiers)
    counts = np.array([data[q].nunique(dropna=True) for q in qis])
    order = np.argsort(counts, kind="stable")
    ranks = np.empty(len(qis), dtype=np.int64)
    ranks[order] = np.arange(1, len(qis) + 1)
    return {q: int(r) for q, r in zip(qis, ranks, strict=True)}


def _check_importance(qis: tuple[str, ...], importance: Mapping[str, Any]) -> dict[str, int]:
    unknown = [c for c in importance if c not in qis]
    if unknown:
        raise RiskcoreError(
            f"an importance is given for {unknown[0]!r}, which is not a quasi-identifier"
        )
    absent = [q for q in qis if q not in importance]
    if absent:
        raise RiskcoreError(
            "give every quasi-identifier an importance (1 = suppressed last); "
            f"{absent[0]!r} has none"
        )
    out: dict[str, int] = {}
    for q in qis:
        value = importance[q]
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise RiskcoreError(f"the importance of {q!r} must be a whole number, not {value!r}")
        if not 1 <= int(value) <= len(qis):
            raise RiskcoreError(
                f"the importance of {q!r} must be between 1 and {len(qis)} "
                f"(the number of quasi-identifiers), not {value}"
            )
        out[q] = int(value)
    return out


def _codes(data: pd.DataFrame, qis: tuple[str, ...]) -> np.ndarray:
    """Return the (records, QIs) int64 codes; -1 for a missing value."""
    cols = [pd.factorize(data[q], use_na_sentinel=True)[0].astype(np.int64) for q in qis]
    return np.column_stack(cols) if cols else np.zeros((len(data), 0), dtype=np.int64)


def _kept(problem: np.ndarray, col: np.ndarray, count: np.ndarray, k: int) -> np.ndarray:
    """Return, per problem key, whether it can keep its cell this round.

    Problem keys that would become the same key once their chosen cell is
    suppressed differ only in that cell: when their records number at least k
    together, suppressing all but the key with the most records suffices (each
    suppressed record then matches the whole group, and the kept key matches
    every suppressed one).
    """
    after = problem.copy()
    after[np.arange(len(problem)), col] = -1
    _, group = np.unique(after, axis=0, return_inverse=True)
    group = group.reshape(-1)
    total = np.bincount(group, weights=count)
    keys = np.bincount(group)
    order = np.lexsort((np.arange(len(group)), -count, group))
    first = np.zeros(len(group), dtype=bool)
    first[order[np.r_[True, group[order][1:] != group[order][:-1]]]] = True
    out: np.ndarray = first & (keys[group] > 1) & (total[group] >= k)
    return out


def match_counts(data: pd.DataFrame, quasi_identifiers: Sequence[str]) -> np.ndarray:
    """Return each record's f_k: the records it matches on the QIs, a missing value matching any.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    quasi_identifiers : sequence of str
        The quasi-identifier columns.

    Returns
    -------
    numpy.ndarray
        int64 per record (itself included); k = its minimum.

    Raises
    ------
    RiskcoreError
        When a QI is not a column of ``data``.
    """
    qis = _check_qis(data, quasi_identifiers)
    return fk(_codes(data, qis))


def local_suppression(
    data: pd.DataFrame,
    quasi_identifiers: Sequence[str],
    k: int,
    importance: Mapping[str, int] | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
    restore_cells: bool = True,
    person: str | None = None,
    lowest_last: bool = True,
) -> LocalSuppression:
    """Suppress single QI cells until every record matches at least k records.

    sdcMicro's ``localSuppression`` algorithm (see the module docstring), a
    missing value matching any value; rows and non-QI columns are unchanged.
    A table that already meets k comes back unchanged.

    Parameters
    ----------
    data : pandas.DataFrame
        Not modified.
    quasi_identifiers : sequence of str
        The quasi-identifier columns whose cells may be blanked.
    k : int
        At least 1 and at most the number of records.
    importance : mapping of str to int, optional
        Per QI a number from 1 (suppressed last) to the number of QIs
        (suppressed first); ties allowed. Default: :func:`default_importance`.
    progress : callable, optional
        Called as ``progress(round, records below k)`` before each round (a
        :class:`riskcore.workguard.Deadline` stops the work from there); the
        restoring rounds that follow, then the rounds of sdcMicro's own order,
        are reported as ``progress(round, 0)``, their numbers going on from the
        suppression rounds.
    restore_cells : bool, default True
        Run the restoring pass (see the module docstring); ``False`` gives the
        suppression rounds' result alone.
    person : str, optional
        The column linking the rows of one person. The run then works on one
        record per person, so every person matches at least k people, and a
        cell blanked for a person is blanked on all of their rows. This needs
        each person's QIs to be the same on all their rows (a blank matching
        any value is defined between records; a person of several QI tuples is
        a set of them).
    lowest_last : bool, default True
        A record whose cell would be blanked in the QIs of the lowest importance waits
        while other records can be treated in other QIs (see the module docstring);
        ``False`` treats it at once, as recipe steps recorded before did.

    Returns
    -------
    LocalSuppression

    Raises
    ------
    RiskcoreError
        When a QI is not a column, k exceeds the number of records, the
        importance does not give each QI a number from 1 to the number of QIs,
        or the table has more QI cells than :data:`MAX_CELLS`.
    """
    qis = _check_qis(data, quasi_identifiers)
    k = check_positive_int("k", k)
    if person is not None:
        return _people(data, qis, k, importance, person, progress, restore_cells, lowest_last)
    n = len(data)
    if n * len(qis) > MAX_CELLS:
        raise RiskcoreError(
            f"local suppression on {n:,} records x {len(qis)} quasi-identifiers "
            f"({n * len(qis):,} cells) is past its limit of {MAX_CELLS:,} cells (each round "
            "compares every record left below k with the table): use fewer quasi-identifiers, "
            "generalize first, or work on a sample or each stratum apart"
        )
    if k > n:
        raise RiskcoreError(f"k = {k} is more than the {n} records of the table")
    imp = (
        default_importance(data, qis) if importance is None else _check_importance(qis, importance)
    )
    # Tried first: the highest importance number; ties in column order (sdcMicro's
    # order(importanceI), a stable sort).
    weights = np.array([imp[q] for q in qis])
    order = np.argsort(-weights, kind="stable")
    # The QIs suppressed last (the lowest importance, unless every QI has it): a record whose
    # cell would go there waits while other records can be treated in other QIs.
    last = (weights == weights.min()) & (weights.min() < weights.max()) & bool(lowest_last)
    codes = _codes(data, qis)
    original = codes.copy()
    before = codes < 0
    rounds = 0
    counts = fk(codes)
    while (counts < k).any():
        if rounds > codes.size:  # pragma: no cover - each round blanks at least one cell
            raise RiskcoreError("local suppression did not reach k; please report this table")
        rounds += 1
        rows = np.flatnonzero(counts < k)
        if progress is not None:
            progress(rounds, len(rows))
        problem, which, per_key = distinct(codes[rows])
        keys, _, sizes = distinct(codes)
        col, dist = choose(problem, keys, sizes, order)
        ready = ~last[col]
        if not ready.any():  # no record left can be treated in another QI
            ready[:] = True
        treat = ready & (dist == dist[ready].min()) & ~_kept(problem, col, per_key, k)
        now = treat[which]
        codes[rows[now], col[which[now]]] = -1
        counts = fk(codes)
    restore_rounds = 0
    if restore_cells and rounds:
        rank = np.empty(len(qis), dtype=np.int64)
        rank[order] = np.arange(len(qis))
        step = None if progress is None else _after(progress, rounds)
        codes, restore_rounds = restore(codes, original, k, rank, step)
        counts = fk(codes)
        # sdcMicro's own order (one problem record after another) blanks fewer cells on some
        # tables: keep whichever blanks fewer, so never more than sdcMicro (within its work
        # limit; past it the rounds' result stands)
        after = None if progress is None else _after(progress, rounds + restore_rounds)
        theirs = sdcmicro_order(original, k, order, fk, progress=after)
        if theirs is not None and (theirs < 0).sum() < (codes < 0).sum():
            codes, counts = theirs, fk(theirs)
    cells = (codes < 0) & ~before
    out = data.copy()
    for i, q in enumerate(qis):
        if cells[:, i].any():
            out[q] = _masked(out[q], cells[:, i])
    return LocalSuppression(
        quasi_identifiers=qis,
        k=k,
        importance=imp,
        suppressed={q: int(cells[:, i].sum()) for i, q in enumerate(qis)},
        missing_before={q: int(before[:, i].sum()) for i, q in enumerate(qis)},
        records_touched=int(cells.any(axis=1).sum()),
        rounds=rounds,
        restore_rounds=restore_rounds,
        restore_cells=bool(restore_cells),
        lowest_last=bool(lowest_last),
        smallest_count=int(counts.min()),
        data=out,
        cells=cells,
    )


def _people(
    data: pd.DataFrame,
    qis: tuple[str, ...],
    k: int,
    importance: Mapping[str, int] | None,
    person: str,
    progress: Callable[[int, int], None] | None,
    restore_cells: bool,
    lowest_last: bool,
) -> LocalSuppression:
    """Return local suppression on one record per person, its blanks made on every row."""
    from riskcore.engine import EncodedTable

    if person in qis:
        raise RiskcoreError(f"the person column {person!r} cannot be a quasi-identifier too")
    if person not in data.columns:
        raise RiskcoreError(f"the table has no person column {person!r}")
    people = EncodedTable(data).partition(qis, person=person).people
    assert people is not None  # noqa: S101 - a person partition
    if not people.single:
        several = people.several
        raise RiskcoreError(
            f"local suppression counts people, and {several:,} people have rows with different "
            "quasi-identifier values: a blank matching any value is defined between records, "
            "not between sets of them. Keep as quasi-identifiers the columns that stay the "
            "same on a person's rows, or generalize them first"
        )
    _, first = np.unique(people.person, return_index=True)
    one = local_suppression(
        data.iloc[first].reset_index(drop=True),
        qis,
        k,
        importance,
        progress=progress,
        restore_cells=restore_cells,
        lowest_last=lowest_last,
    )
    cells = one.cells[people.person]
    out = data.copy()
    for i, q in enumerate(qis):
        if cells[:, i].any():
            out[q] = _masked(out[q], cells[:, i])
    return dataclasses.replace(
        one,
        suppressed={q: int(cells[:, i].sum()) for i, q in enumerate(qis)},
        missing_before={q: int(data[q].isna().sum()) for q in qis},
        records_touched=int(cells.any(axis=1).sum()),
        data=out,
        cells=cells,
        person=person,
        people_touched=one.records_touched,
    )


def _after(progress: Callable[[int, int], None], offset: int) -> Callable[[int, int], None]:
    """Return a callback reporting restoring round r as round ``offset + r``, none below k."""

    def report(rnd: int, _cells: int) -> None:
        progress(offset + rnd, 0)

    return report


def _masked(column: pd.Series, mask: np.ndarray) -> pd.Series:
    """Return ``column`` with the masked cells missing, whole numbers staying whole."""
    if pd.api.types.is_bool_dtype(column.dtype):
        column = column.astype("boolean")
    elif pd.api.types.is_integer_dtype(column.dtype) and not isinstance(
        column.dtype, pd.api.extensions.ExtensionDtype
    ):
        column = column.astype("Int64")
    return column.mask(mask)
