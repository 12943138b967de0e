"""Which ledgered table holds the same people: keyed sketches and their match.

A privacy budget belongs to the people in a table, not to its file. Two tables
hold the same people when most rows of one are rows of the other on the
columns they share, whatever those columns are called, in whatever order, and
whatever file name or format carried them (rows dropped, added, duplicated or
shuffled; columns added, renamed or removed). This module answers that
question from *keyed sketches* only, so the ledger never stores people's
values or plain hashes of them:

1. **Normalize** every cell: text stripped and case-folded; a number written
   as ``39``, ``39.0`` or ``" 39 "`` becomes ``"39"``; missing cells ``""``.
2. **Hash** every normalized cell with SipHash-2-4 under a 128-bit key
   derived from the ledger's secret (HMAC-SHA256), through
   :func:`pandas.util.hash_array` (vectorized; the key never leaves the process).
3. **Sketch** the table (:class:`PeopleSketch`): per column a bottom-k sketch
   of its distinct value hashes (the ``k`` smallest, with each value's share of
   the rows; Broder 1997, Cohen & Kaplan 2007) and the 16-bit truncations of
   the cell hashes of a keyed sample of rows (the ``SAMPLE_ROWS`` rows with the
   smallest row hash, so the same table in any row order gives the same sample).
4. **Pair columns by content** (:func:`pair_columns`): the score of a column
   pair is the larger of the containment of the smaller distinct-value set in
   the larger (estimated from the bottom-k sketches) and the weighted Jaccard
   of the value shares (sum of the smaller share over sum of the larger); the
   pairing maximizes the total score plus 0.01 x the weighted Jaccard (so that
   of two columns over the same values, the one distributed alike wins;
   names only break exact ties) by the Hungarian algorithm, and keeps pairs
   scoring ``PAIR_THRESHOLD`` or more.
5. **Match rows** on the paired columns (:func:`match_people`): a row key
   combines the paired columns' cell hashes in the ledger's column order; the
   share of the ledger's sampled rows found among the table's rows is the
   share of the ledger's people in the table, and the share of the table's
   rows found among the ledger's sampled rows, divided by the sampling
   fraction, the share of the table's people in the ledger (both exact for a
   ledgered table of up to ``SAMPLE_ROWS`` rows, which is kept whole; above,
   the second is biased upwards by rows repeated in the ledger). So that one
   changed column (an age jittered, a column shuffled, numbers rounded) does
   not hide the people, the rows are compared on several sets of the paired
   columns: all; each leaving one out (up to ``MAX_LEAVE_ONE_OUT`` columns);
   the pairs whose value shares agree (weighted Jaccard ``ALIKE`` or more);
   and the columns on which the rows linked one to one by the best of these
   agree (``AGREEMENT`` of them or more). The set with the largest score wins.
6. **Correct for chance, and ask for evidence**: rows of other people also
   "match" when the compared columns have few combinations (two tables sharing
   only ``age`` and ``sex``). The chance that a row of other people hits the
   ledger's rows is estimated leave-one-out by the share of the table's rows
   whose key another of its rows shares, and the chance that a ledger row hits
   the table's rows by the same share in the ledger's sample. The score of a
   set is the larger share's Wilson lower bound (z = ``Z_SCORE``; Wilson 1927),
   over as many draws as the smaller side has distinct rows, corrected as
   Cohen's kappa corrects an agreement, :math:`(s - c) / (1 - c)` (Cohen 1960).
   The table holds the ledger's people when at least ``MIN_COLUMNS`` columns
   are paired, the score is ``MATCH_THRESHOLD`` or more (no 50% floor: 45% of
   a ledger's people padded with others are its people) and at least
   ``MIN_ROWS_MATCHED`` distinct ledger rows are found (a small table of
   other people matching on two low-cardinality columns is not enough).

With the key, the 16-bit cell hashes reveal the values of columns whose domain
can be enumerated (an age, a sex): the key file must be guarded like the data.

The thresholds are justified by ``benchmarks/bench_ledger_match.py`` (see
docs/ledger-matching.md): unrelated tables score at most 0.06, every
transformation of issues 26 and 37 of the demo and Adult at least 0.4.

References
----------
J. Cohen, "A coefficient of agreement for nominal scales", 1960.
E. B. Wilson, "Probable inference, the law of succession, and statistical inference", 1927.
A. Z. Broder, "On the resemblance and containment of documents", 1997.
E. Cohen, H. Kaplan, "Summarizing data using bottom-k sketches", PODC 2007.
J.-P. Aumasson, D. J. Bernstein, "SipHash: a fast short-input PRF", 2012.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from riskcore._results import Result
from riskcore.errors import RiskcoreError

__all__ = [
    "AGREEMENT",
    "ALIKE",
    "COLUMN_SKETCH",
    "MATCH_THRESHOLD",
    "MAX_LEAVE_ONE_OUT",
    "MIN_COLUMNS",
    "MIN_ROWS_MATCHED",
    "PAIR_THRESHOLD",
    "SAMPLE_ROWS",
    "Z_SCORE",
    "ColumnPair",
    "ColumnSketch",
    "PeopleMatch",
    "PeopleSketch",
    "TableProbe",
    "match_people",
    "normalize_cells",
    "pair_columns",
    "probe_table",
]

#: Rows of a ledgered table kept (as 16-bit keyed cell hashes) to match rows against:
#: every row of a table up to this size, so that both shares are exact there.
SAMPLE_ROWS = 50_000
#: Distinct values per column kept in its bottom-k sketch.
COLUMN_SKETCH = 64
#: A column pair's score needed to count the two columns as one attribute.
PAIR_THRESHOLD = 0.3
#: The score for a match: the share of people (of the ledger's or of the table's), its
#: Wilson lower bound corrected for chance (module doc, step 6). No 50% floor: a table that
#: holds a tenth of a ledger's people (or whose people are a tenth the ledger's) is charged.
MATCH_THRESHOLD = 0.1
#: Paired columns needed before rows are compared at all.
MIN_COLUMNS = 2
#: Distinct rows of the ledger that must be found in the table for a match.
MIN_ROWS_MATCHED = 10
#: The z of the Wilson lower bound of a share (4: about 3e-5 one-sided).
Z_SCORE = 4.0
#: Columns compared leaving one out at a time, at most (beyond: all together only).
MAX_LEAVE_ONE_OUT = 64
#: A pair's weighted Jaccard of value shares for the set of columns "distributed alike".
ALIKE = 0.5
#: The share of linked rows agreeing on a column for it to be compared.
AGREEMENT = 0.9
_NAME_TIE = 1e-6
_MASK16 = np.uint64(0xFFFF)


def normalize_cells(column: pd.Series) -> np.ndarray:
    """Return a column's cells as normalized text, so that formatting does not count.

    Text is stripped and case-folded; a cell that reads as a finite number is
    written canonically (an integral value without a decimal point, ``39.0``
    and ``"039"`` as ``"39"``; others by Python's shortest repr); missing and
    empty cells become ``""``.

    Parameters
    ----------
    column : pandas.Series
        One column of a table.

    Returns
    -------
    numpy.ndarray
        Object array of str, one per row.

    Examples
    --------
    >>> list(normalize_cells(pd.Series([" Male", "39.0", 7, None, "0.50"])))
    ['male', '39', '7', '', '0.5']
    """
    codes, uniques = pd.factorize(column, use_na_sentinel=True)
    norm = np.append(_normalize_values(pd.Series(uniques, dtype=object)), "")
    return norm[codes]  # a missing cell (code -1) takes the "" appended last


def _normalize_values(values: pd.Series) -> np.ndarray:
    """Normalize distinct values (:func:`normalize_cells`), vectorized."""
    text = values.astype("string").str.strip().str.casefold().fillna("")
    num = pd.to_numeric(text.where(text != ""), errors="coerce").astype("float64")
    numbers = num.to_numpy()
    finite = np.isfinite(numbers)
    integral = finite & (np.abs(numbers) < 2.0**53) & (np.floor(numbers) == numbers)
    out = text.to_numpy(dtype=object, na_value="")
    if integral.any():
        out[integral] = numbers[integral].astype(np.int64).astype(str).astype(object)
    other = finite & ~integral
    if other.any():
        out[other] = numbers[other].astype(str).astype(object)
    return np.asarray(out, dtype=object)


def _siphash_key(key: bytes) -> str:
    """Derive the 16-character SipHash key pandas takes (96 bits) from the secret."""
    if len(key) < 16:
        raise RiskcoreError("the key of the people sketches must be at least 16 bytes")
    derived = hmac.new(key, b"riskcore people sketch v1", hashlib.sha256).digest()
    return base64.b64encode(derived[:12]).decode("ascii")


@dataclass(frozen=True)
class ColumnSketch(Result):
    """One column of a ledgered table, as keyed hashes only.

    Attributes
    ----------
    name : str
        The column's name (names are not people's data; shown in the match).
    n_distinct : int
        Distinct normalized values.
    hashes : tuple of int
        The ``COLUMN_SKETCH`` smallest keyed 64-bit hashes of its distinct values.
    shares : tuple of float
        Each of those values' share of the table's rows.
    cells : str
        Base64 of the 16-bit truncated keyed hashes of the sampled rows' cells
        (little-endian uint16, in the sample's order).
    """

    name: str
    n_distinct: int
    hashes: tuple[int, ...]
    shares: tuple[float, ...]
    cells: str

    def sample(self) -> np.ndarray:
        """Return the sampled rows' 16-bit cell hashes.

        Returns
        -------
        numpy.ndarray
        """
        return np.frombuffer(base64.b64decode(self.cells), dtype="<u2").astype(np.uint64)


@dataclass(frozen=True)
class PeopleSketch(Result):
    """A table's people as the ledger keeps them: keyed sketches, no values.

    Attributes
    ----------
    n_rows : int
    columns : tuple of ColumnSketch
    """

    n_rows: int
    columns: tuple[ColumnSketch, ...] = field(default_factory=tuple)

    @property
    def sample_size(self) -> int:
        """Return the number of sampled rows."""
        return len(self.columns[0].sample()) if self.columns else 0


@dataclass(frozen=True)
class ColumnPair(Result):
    """Two columns paired by content: one of the table, one of the ledger's table.

    Attributes
    ----------
    table_column, ledger_column : str
    score : float
        The larger of the distinct-value containment and the weighted Jaccard of
        the value shares, in [0, 1].
    alike : float
        The weighted Jaccard of the value shares alone (1: the values are spread alike).
    """

    table_column: str
    ledger_column: str
    score: float
    alike: float = 0.0


@dataclass(frozen=True)
class PeopleMatch(Result):
    """How far a table holds the people of a ledgered table.

    Attributes
    ----------
    matched : bool
        Whether the table is charged to that ledger by default.
    share_of_ledger : float
        Estimated share of the ledger's rows found in the table.
    share_of_table : float
        Estimated share of the table's rows found in the ledger (at most 1).
    pairs : tuple of ColumnPair
        The columns the rows were compared on.
    chance_of_ledger : float
        The share of the ledger's rows other people's rows would hit by chance
        (estimated by the share of the table's rows whose key another shares).
    chance_of_table : float
        The share of the table's rows that would hit the ledger by chance
        (the share of the ledger's sampled rows whose key another shares).
    sampled : int
        The ledger's rows compared (its sample).
    ledger : str
        The ledger's name, once the store has said which ledger ("" before).
    left_out : tuple of ColumnPair
        Paired columns left out of the comparison (changed: jittered, shuffled, rounded).
    rows_matched : int
        Distinct rows of the ledger's sample found in the table.
    score : float
        What is decided on: the larger share's Wilson lower bound corrected for chance.
    """

    matched: bool
    share_of_ledger: float
    share_of_table: float
    pairs: tuple[ColumnPair, ...] = field(default_factory=tuple)
    chance_of_ledger: float = 0.0
    chance_of_table: float = 0.0
    sampled: int = 0
    ledger: str = ""
    left_out: tuple[ColumnPair, ...] = field(default_factory=tuple)
    rows_matched: int = 0
    score: float = 0.0

    @property
    def share(self) -> float:
        """Return the larger of the two shares (as found, before the chance correction)."""
        return max(self.share_of_ledger, self.share_of_table)

    @property
    def corrected(self) -> float:
        """Return the larger share corrected for chance, (s - c) / (1 - c), as found.

        The decision is on :attr:`score`, which corrects the shares' Wilson lower bounds.

        Examples
        --------
        >>> PeopleMatch(True, 0.9, 0.6, chance_of_ledger=0.5, chance_of_table=0.2).corrected
        0.8
        """
        return max(
            _kappa(self.share_of_ledger, self.chance_of_ledger),
            _kappa(self.share_of_table, self.chance_of_table),
        )


def _kappa(share: float, chance: float) -> float:
    """Return ``share`` corrected for ``chance`` (Cohen's kappa form), at least 0."""
    if chance >= 1.0:
        return 0.0
    return round(max(0.0, (share - chance) / (1.0 - chance)), 4)


@dataclass(frozen=True, eq=False)
class TableProbe:
    """A table's keyed cell hashes, in memory only, to match and to sketch.

    Attributes
    ----------
    columns : tuple of str
    hashes : numpy.ndarray
        ``n_rows x n_columns`` keyed 64-bit hashes of the normalized cells.
    matches : dict
        A cache for callers matching the same table again (see
        :func:`riskcore.store.population.best_match`).
    """

    columns: tuple[str, ...]
    hashes: np.ndarray
    #: Matches already made, by the caller's stamp of what was matched against (a cache).
    matches: dict[object, object] = field(default_factory=dict, compare=False, repr=False)

    @property
    def n_rows(self) -> int:
        """Return the table's row count."""
        return int(self.hashes.shape[0])

    def sketch(self, *, sample_rows: int = SAMPLE_ROWS, k: int = COLUMN_SKETCH) -> PeopleSketch:
        """Return the sketch the ledger stores for this table (:class:`PeopleSketch`).

        Parameters
        ----------
        sample_rows : int, optional
            The most rows kept (:data:`SAMPLE_ROWS`), as 16-bit cell hashes.
        k : int, optional
            The most distinct values kept per column (:data:`COLUMN_SKETCH`).

        Returns
        -------
        PeopleSketch
        """
        n = self.n_rows
        rows = _row_keys(self.hashes)
        order = np.lexsort((np.arange(n), rows))[: min(sample_rows, n)]
        cols = []
        for j, name in enumerate(self.columns):
            values, counts = np.unique(self.hashes[:, j], return_counts=True)
            cells = (self.hashes[order, j] & _MASK16).astype("<u2").tobytes()
            cols.append(
                ColumnSketch(
                    name,
                    len(values),
                    tuple(int(v) for v in values[:k]),
                    tuple(float(c) / max(n, 1) for c in counts[:k]),
                    base64.b64encode(cells).decode("ascii"),
                )
            )
        return PeopleSketch(n, tuple(cols))


def probe_table(data: pd.DataFrame, *, key: bytes) -> TableProbe:
    """Hash a table's normalized cells under ``key`` (:class:`TableProbe`).

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    key : bytes
        The ledger's secret (at least 16 bytes); the same key must sketch every table compared.

    Returns
    -------
    TableProbe

    Raises
    ------
    RiskcoreError
        When the key is too short or the table has no column.
    """
    if data.shape[1] == 0:
        raise RiskcoreError("a table without columns has no people to match")
    sip = _siphash_key(key)
    cols = [
        pd.util.hash_array(normalize_cells(data.iloc[:, j]), hash_key=sip, categorize=True)
        for j in range(data.shape[1])
    ]
    matrix = (
        np.column_stack(cols).astype(np.uint64)
        if len(data)
        else np.zeros((0, data.shape[1]), dtype=np.uint64)
    )
    return TableProbe(tuple(str(c) for c in data.columns), matrix)


def _row_keys(cells: np.ndarray) -> np.ndarray:
    """Combine each row's cell hashes (in column order) into one 64-bit key."""
    if cells.shape[0] == 0:
        return np.zeros(0, dtype=np.uint64)
    frame = pd.DataFrame(cells.astype(np.uint64, copy=False))
    return pd.util.hash_pandas_object(frame, index=False).to_numpy(dtype=np.uint64)


def _pair_score(a: ColumnSketch, b: ColumnSketch, k: int) -> tuple[float, float]:
    """Return two columns' containment and weighted Jaccard, from their sketches (module doc)."""
    ha, hb = np.asarray(a.hashes, dtype=np.uint64), np.asarray(b.hashes, dtype=np.uint64)
    union = np.union1d(ha, hb)[:k]
    if len(union) == 0:
        return 0.0, 0.0
    pa = np.zeros(len(union))
    pb = np.zeros(len(union))
    ia = np.searchsorted(union, ha)
    keep = ia < len(union)
    keep[keep] &= union[ia[keep]] == ha[keep]
    pa[ia[keep]] = np.asarray(a.shares)[keep]
    ib = np.searchsorted(union, hb)
    keepb = ib < len(union)
    keepb[keepb] &= union[ib[keepb]] == hb[keepb]
    pb[ib[keepb]] = np.asarray(b.shares)[keepb]
    both = (pa > 0) & (pb > 0)
    jac = float(both.sum()) / len(union)
    smaller = min(a.n_distinct, b.n_distinct)
    inter = jac * (a.n_distinct + b.n_distinct) / (1.0 + jac)
    containment = min(1.0, inter / smaller) if smaller else 0.0
    top = float(np.maximum(pa, pb).sum())
    weighted = float(np.minimum(pa, pb).sum()) / top if top else 0.0
    return containment, weighted


def _name(text: str) -> str:
    return "".join(ch for ch in str(text).casefold() if ch.isalnum())


def pair_columns(
    table: PeopleSketch, ledger: PeopleSketch, *, threshold: float = PAIR_THRESHOLD
) -> tuple[ColumnPair, ...]:
    """Pair the table's columns with the ledger's by their content, not their names.

    Parameters
    ----------
    table, ledger : PeopleSketch
        The sketches of the table and of the ledger's tables.
    threshold : float
        The least score kept (``PAIR_THRESHOLD``).

    Returns
    -------
    tuple of ColumnPair
        In the ledger's column order; each column in at most one pair.
    """
    from scipy.optimize import linear_sum_assignment

    if not table.columns or not ledger.columns:
        return ()
    k = min(max(len(c.hashes) for c in table.columns), max(len(c.hashes) for c in ledger.columns))
    both = np.array([[_pair_score(a, b, k) for b in ledger.columns] for a in table.columns])
    score, weighted = both.max(axis=2), both[:, :, 1]
    same = np.array(
        [[_name(a.name) == _name(b.name) for b in ledger.columns] for a in table.columns]
    )
    rows, cols = linear_sum_assignment(score + 0.01 * weighted + _NAME_TIE * same, maximize=True)
    kept = sorted(
        (int(c), int(r)) for r, c in zip(rows, cols, strict=True) if score[r, c] >= threshold
    )
    return tuple(
        ColumnPair(
            table.columns[r].name,
            ledger.columns[c].name,
            round(float(score[r, c]), 4),
            round(float(weighted[r, c]), 4),
        )
        for c, r in kept
    )


def match_people(
    probe: TableProbe,
    ledger: PeopleSketch,
    *,
    table: PeopleSketch | None = None,
    threshold: float = MATCH_THRESHOLD,
) -> PeopleMatch:
    """Return how far the probed table holds the people of a ledgered table.

    The rows are compared on several sets of the paired columns (module doc, step 5):
    all of them; each leaving one out; the pairs whose value shares agree; and the
    columns on which the rows linked by the best of these agree. The set with the
    largest score (step 6) is kept.

    Parameters
    ----------
    probe : TableProbe
        The table a release is about to be made from.
    ledger : PeopleSketch
        The sketch stored for a table already charged to a ledger.
    table : PeopleSketch, optional
        ``probe.sketch()``, when the caller matches one table against many.
    threshold : float
        The score needed (``MATCH_THRESHOLD``).

    Returns
    -------
    PeopleMatch
        ``matched`` as the module doc states.
    """
    mine = table if table is not None else probe.sketch()
    pairs = pair_columns(mine, ledger)
    if len(pairs) < MIN_COLUMNS or ledger.sample_size == 0 or probe.n_rows == 0:
        return PeopleMatch(False, 0.0, 0.0, pairs, sampled=ledger.sample_size)
    index = {c.name: j for j, c in enumerate(mine.columns)}
    stored = {c.name: c for c in ledger.columns}
    new_cells = probe.hashes[:, [index[p.table_column] for p in pairs]] & _MASK16
    old_cells = np.column_stack([stored[p.ledger_column].sample() for p in pairs])
    fraction = len(old_cells) / max(ledger.n_rows, 1)  # 1 up to SAMPLE_ROWS rows: exact
    m = len(pairs)
    candidates: list[tuple[int, ...]] = [tuple(range(m))]
    if 3 <= m <= MAX_LEAVE_ONE_OUT:
        candidates += [tuple(j for j in range(m) if j != left) for left in range(m)]
    alike = tuple(j for j, p in enumerate(pairs) if p.alike >= ALIKE)
    if len(alike) >= MIN_COLUMNS and alike not in candidates:
        candidates.append(alike)
    tried = {
        cols: _compare(new_cells[:, cols], old_cells[:, cols], fraction) for cols in candidates
    }
    best = max(tried, key=lambda cols: tried[cols].score)
    agreeing = _agreeing(new_cells, old_cells, best)
    if len(agreeing) >= MIN_COLUMNS and agreeing not in tried:
        tried[agreeing] = _compare(new_cells[:, agreeing], old_cells[:, agreeing], fraction)
        best = max(tried, key=lambda cols: tried[cols].score)
    found = tried[best]
    used = tuple(pairs[j] for j in best)
    left = tuple(pairs[j] for j in range(m) if j not in best)
    result = PeopleMatch(
        False,
        found.share_of_ledger,
        found.share_of_table,
        used,
        found.chance_of_ledger,
        found.chance_of_table,
        len(old_cells),
        left_out=left,
        rows_matched=found.rows_matched,
        score=found.score,
    )
    return replace(
        result, matched=found.score >= threshold and found.rows_matched >= MIN_ROWS_MATCHED
    )


@dataclass(frozen=True)
class _Compared:
    """The rows of a table and a ledger compared on one set of columns (module doc, step 6)."""

    share_of_ledger: float
    share_of_table: float
    chance_of_ledger: float
    chance_of_table: float
    rows_matched: int
    score: float


def _wilson_low(share: float, n: int, z: float = Z_SCORE) -> float:
    """Return the Wilson lower bound of a share seen on ``n`` draws (Wilson 1927).

    Examples
    --------
    >>> round(_wilson_low(1.0, 12), 3)  # 12 of 12 at z = 4: 12 / (12 + 16)
    0.429
    """
    if n <= 0:
        return 0.0
    z2 = z * z
    centre = share + z2 / (2 * n)
    spread = z * np.sqrt(max(share * (1 - share), 0.0) / n + z2 / (4 * n * n))
    return float(max(0.0, (centre - spread) / (1 + z2 / n)))


def _compare(new_cells: np.ndarray, old_cells: np.ndarray, fraction: float) -> _Compared:
    """Compare the table's rows with the ledger's sampled rows on the columns given."""
    un, inv_n, cnt_n = np.unique(_row_keys(new_cells), return_inverse=True, return_counts=True)
    uo, inv_o, cnt_o = np.unique(_row_keys(old_cells), return_inverse=True, return_counts=True)
    hit_o = np.isin(uo, un, assume_unique=True)
    hit_n = np.isin(un, uo, assume_unique=True)
    share_ledger = float(hit_o[inv_o].mean())
    raw_table = float(hit_n[inv_n].mean())
    chance_ledger = float((cnt_n[inv_n] > 1).mean())
    chance_table = float((cnt_o[inv_o] > 1).mean())
    draws = min(len(un), len(uo))  # distinct rows: repeated rows are no more evidence
    score = max(
        _kappa(_wilson_low(share_ledger, draws), chance_ledger),
        _kappa(min(1.0, _wilson_low(raw_table, draws) / fraction), chance_table),
    )
    return _Compared(
        round(share_ledger, 4),
        round(min(1.0, raw_table / fraction), 4),
        round(chance_ledger, 4),
        round(chance_table, 4),
        int(hit_o.sum()),
        score,
    )


def _agreeing(
    new_cells: np.ndarray, old_cells: np.ndarray, cols: tuple[int, ...]
) -> tuple[int, ...]:
    """Return the columns on which the rows linked on ``cols`` agree (``AGREEMENT`` or more).

    Rows are linked when their key on ``cols`` is unique in the table and in the ledger's
    sample and the same in both; with fewer than ``MIN_ROWS_MATCHED`` links, ``cols``.
    """
    nk, ok = _row_keys(new_cells[:, cols]), _row_keys(old_cells[:, cols])
    un, at_n, cnt_n = np.unique(nk, return_index=True, return_counts=True)
    uo, at_o, cnt_o = np.unique(ok, return_index=True, return_counts=True)
    once_n, once_o = cnt_n == 1, cnt_o == 1
    _, a, b = np.intersect1d(un[once_n], uo[once_o], assume_unique=True, return_indices=True)
    if len(a) < MIN_ROWS_MATCHED:
        return cols
    agree = (new_cells[at_n[once_n][a]] == old_cells[at_o[once_o][b]]).mean(axis=0)
    return tuple(int(j) for j in np.flatnonzero(agree >= AGREEMENT))


def _shared_key_share(keys: np.ndarray) -> float:
    """Return the share of rows whose key another row shares (the leave-one-out chance hit)."""
    _, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    return float((counts[inverse] > 1).mean()) if len(keys) else 0.0
