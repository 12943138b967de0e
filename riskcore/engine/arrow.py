"""The streaming Parquet engine: row groups read one batch at a time, bounded memory.

The rows are never all in memory. Each batch (a row group, or a slice of
one) is turned into integer codes against a *global* dictionary per column
(dictionary-encoded Parquet columns are read as dictionaries, so no Python
string is made per row), grouped into "code tuple -> count" with numpy, and
only those partial groups are kept; partial groups are merged whenever they
grow, and once more at the end. Contingency tables add up across disjoint
parts of the data, so the result equals the in-memory engine's tabulation
(``../shared/notes/performance.md``, "Engines for data beyond memory").
Memory is bounded by the number of distinct combinations (the contingency),
not by the number of rows.

Only pyarrow is needed (already a dependency of the loader).
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from riskcore.engine.contract import ClassTable, Contingency, Tabulation
from riskcore.engine.grouped import ArrowCodes, tabulate_codes
from riskcore.engine.partition import pack_keys
from riskcore.errors import DataLoadError, RolesError

__all__ = ["ArrowEngine", "parquet_files"]

#: Records per batch read from the files.
BATCH_ROWS = 1 << 20
#: Partial groups kept before they are merged (grouped rows).
MERGE_ROWS = 1 << 22


def parquet_files(source: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[str]:
    """Return the Parquet files a source names: a file, a directory, a glob, or a list of them.

    Parameters
    ----------
    source : str, path or sequence of them
        A directory means every ``*.parquet`` file below it (sorted); a
        pattern with ``*``, ``?`` or ``[`` is expanded (recursive ``**``).

    Returns
    -------
    list of str
        Sorted, without repeats.

    Raises
    ------
    DataLoadError
        When nothing matches.
    """
    items = [source] if isinstance(source, (str, os.PathLike)) else list(source)
    files: list[str] = []
    for item in items:
        text = os.fspath(item)
        if any(ch in text for ch in "*?["):
            found = sorted(glob.glob(text, recursive=True))
            if not found:
                raise DataLoadError(f"no file matches {text!r}")
            files += [f for f in found if os.path.isfile(f)]
        elif os.path.isdir(text):
            found = sorted(str(p) for p in Path(text).rglob("*.parquet") if p.is_file())
            if not found:
                raise DataLoadError(f"the directory {text!r} holds no .parquet file")
            files += found
        elif os.path.isfile(text):
            files.append(text)
        else:
            raise DataLoadError(f"no such file or directory: {text!r}")
    out = list(dict.fromkeys(files))
    if not out:
        raise DataLoadError("no Parquet file to read")
    return out


def _reduce(
    codes: list[np.ndarray], cards: list[int], weights: np.ndarray | None
) -> tuple[list[np.ndarray], np.ndarray]:
    """Return the distinct code tuples and their total weights (count when ``weights`` is None)."""
    key, card = pack_keys(codes, cards)
    n = len(key)
    if card <= 8 * n + 1024:
        counts = np.bincount(key, weights=weights, minlength=card)
        present = np.flatnonzero(counts)
        first = np.full(card, n, dtype=np.int64)
        np.minimum.at(first, key, np.arange(n, dtype=np.int64))
        pos = first[present]
        total = counts[present].astype(np.int64)
    else:
        _, pos, inv = np.unique(key, return_index=True, return_inverse=True)
        inv = inv.reshape(-1)
        total = np.bincount(inv, weights=weights, minlength=len(pos)).astype(np.int64)
    return [c[pos] for c in codes], total


#: Largest key space counted in a dense array (int64 counts, 256 MiB).
DENSE_KEYS = 1 << 25
#: Key spaces beyond this do not fit exact int64 keys; the tuple path is used.
_KEY_LIMIT = 1 << 62


class _TooWideError(Exception):
    """The product of the columns' cardinalities no longer fits an exact int64 key."""


def _radix_product(radices: Sequence[int]) -> int:
    out = 1
    for r in radices:
        out *= max(int(r), 1)
    return out


def _encode(
    codes: Sequence[np.ndarray], radices: Sequence[int], out: np.ndarray | None = None
) -> np.ndarray:
    """Pack code columns into one int64 key with fixed radices (mixed radix, exact).

    ``out``, an int64 buffer at least as long as the codes, receives the key
    (a view of it is returned) instead of a new array.
    """
    if out is None:
        key = codes[0].astype(np.int64, copy=True)
    else:
        key = out[: len(codes[0])]
        key[...] = codes[0]
    for c, r in zip(codes[1:], radices[1:], strict=True):
        key *= max(int(r), 1)
        key += c
    return key


def _decode(key: np.ndarray, radices: Sequence[int]) -> list[np.ndarray]:
    """Unpack keys made by :func:`_encode` into their code columns."""
    out: list[np.ndarray] = []
    rest = key.copy()
    for r in reversed(radices[1:]):
        r = max(int(r), 1)
        out.append(rest % r)
        rest //= r
    out.append(rest)
    return out[::-1]


def _runs_of(sorted_keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the distinct keys of a sorted array and the summed counts of each."""
    if len(sorted_keys) == 0:
        return sorted_keys.astype(np.int64), counts.astype(np.int64)
    starts = np.flatnonzero(np.concatenate(([True], sorted_keys[1:] != sorted_keys[:-1])))
    return sorted_keys[starts].astype(np.int64, copy=False), np.add.reduceat(counts, starts)


class _Counter:
    """Counts of exact mixed-radix keys, dense while the key space is small, else sparse.

    The radices (each column's cardinality so far) grow while new values
    appear; the counts kept so far are then re-keyed to the new radices.
    Sparse keys wait in a buffer and are sorted and summed when it grows
    (doubling), so each key is sorted O(log n) times at most.
    """

    def __init__(self) -> None:
        self.radices: tuple[int, ...] = ()
        self.dense: np.ndarray | None = None
        self.buffer = np.zeros(0, dtype=np.int64)  # the batch's keys, reused while dense
        self.keys = np.zeros(0, dtype=np.int64)  # sparse, summed
        self.counts = np.zeros(0, dtype=np.int64)
        self.pending: list[np.ndarray] = []
        self.n_pending = 0
        self.limit = MERGE_ROWS

    def add(self, codes: Sequence[np.ndarray], cards: tuple[int, ...]) -> None:
        """Count the keys of one batch; ``cards`` are the columns' cardinalities so far."""
        if len(cards) != len(self.radices) or any(
            c > r for c, r in zip(cards, self.radices, strict=True)
        ):
            # radices with headroom (doubling), so new values seldom re-key the counts
            old = self.radices or tuple(0 for _ in cards)
            radices = tuple(r if c <= r else max(c, 2 * r) for c, r in zip(cards, old, strict=True))
            if _radix_product(radices) >= _KEY_LIMIT:
                radices = cards  # no headroom where there is no room
            if _radix_product(radices) >= _KEY_LIMIT:
                raise _TooWideError
            self._rekey(radices, _radix_product(radices))
        radices = self.radices
        card = _radix_product(radices)
        if self.dense is not None:
            if len(self.buffer) < len(codes[0]):
                self.buffer = np.empty(len(codes[0]), dtype=np.int64)
            key = _encode(codes, radices, self.buffer)
            if card > 4 * len(key):  # touch only the counted cells, not the whole array
                np.add.at(self.dense, key, 1)
            else:
                self.dense += np.bincount(key, minlength=card)
            return
        key = _encode(codes, radices)  # kept until the next merge: a fresh array
        self.pending.append(key)
        self.n_pending += len(key)
        if self.n_pending > self.limit:
            self._flush()
            self.limit = max(MERGE_ROWS, 2 * len(self.keys))

    def _flush(self) -> None:
        """Sort the waiting keys alone, count their runs, and merge them into the kept counts.

        The kept keys are sorted and unique; the waiting ones, sorted, form a
        second sorted run, and a stable sort of two sorted runs (timsort) is
        a linear merge, so the kept keys are never sorted again from scratch.
        """
        if not self.pending:
            return
        new = np.sort(np.concatenate(self.pending))
        self.pending, self.n_pending = [], 0
        keys, counts = _runs_of(new, np.ones(len(new), dtype=np.int64))
        if len(self.keys):
            both = np.concatenate([self.keys, keys])
            order = np.argsort(both, kind="stable")
            keys, counts = _runs_of(both[order], np.concatenate([self.counts, counts])[order])
        self.keys, self.counts = keys, counts

    def _rekey(self, radices: tuple[int, ...], card: int) -> None:
        keys, counts = self.result()
        if self.radices and len(keys):
            keys = _encode(_decode(keys, self.radices), radices)
        self.radices = radices
        self.pending, self.n_pending = [], 0
        if card <= DENSE_KEYS:
            self.dense = np.zeros(card, dtype=np.int64)
            self.dense[keys] = counts
            self.keys = np.zeros(0, dtype=np.int64)
            self.counts = np.zeros(0, dtype=np.int64)
        else:
            self.dense = None
            order = np.argsort(keys)
            self.keys, self.counts = keys[order], counts[order]

    def result(self) -> tuple[np.ndarray, np.ndarray]:
        """Return the present keys (sorted) and their counts."""
        if self.dense is not None:
            keys = np.flatnonzero(self.dense).astype(np.int64)
            return keys, self.dense[keys]
        self._flush()
        return self.keys, self.counts


class ArrowEngine:
    """The streaming Parquet engine (pyarrow): the contract's tables without loading the rows.

    Parameters
    ----------
    source : str, path or sequence of them
        Parquet files, directories or globs (:func:`parquet_files`).
    batch_rows : int, default 1,048,576
        Records per batch read.

    Notes
    -----
    Per-record questions (:meth:`riskcore.engine.EncodedTable.record_classes`)
    are not answered: the rows are never held. Every class-based measure
    (k, l, t, prosecutor / journalist / marketer risk, population
    uniqueness) is.
    """

    name = "arrow"

    def __init__(
        self,
        source: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        *,
        batch_rows: int = BATCH_ROWS,
    ) -> None:
        import pyarrow.dataset as ds

        self.files = parquet_files(source)
        self.batch_rows = int(batch_rows)
        try:
            probe = ds.dataset(self.files, format="parquet")
            self._schema = probe.schema
            self._n = int(probe.count_rows())
        except Exception as exc:  # pyarrow raises many types for a bad file
            raise DataLoadError(f"the Parquet data cannot be read ({exc})") from None
        self._dictionary = [
            f.name for f in self._schema if str(f.type) in ("string", "large_string")
        ]

    @property
    def columns(self) -> tuple[str, ...]:
        """Return the column names."""
        return tuple(self._schema.names)

    @property
    def n_records(self) -> int:
        """Return the number of records."""
        return self._n

    def _batches(self, columns: Sequence[str]) -> Iterator[Any]:
        import pyarrow.dataset as ds

        unknown = [c for c in columns if c not in self._schema.names]
        if unknown:
            raise RolesError(f"the table has no column {unknown[0]!r}")
        fmt = ds.ParquetFileFormat(
            read_options=ds.ParquetReadOptions(
                dictionary_columns=[c for c in columns if c in self._dictionary]
            )
        )
        try:
            data = ds.dataset(self.files, format=fmt)
            # little read-ahead: memory stays a few batches, whatever the file size
            yield from data.to_batches(
                columns=list(columns),
                batch_size=self.batch_rows,
                batch_readahead=2,
                fragment_readahead=1,
                use_threads=True,
            )
        except (RolesError, DataLoadError):
            raise
        except Exception as exc:
            raise DataLoadError(f"the Parquet data cannot be read ({exc})") from None

    def _group(
        self, columns: Sequence[str]
    ) -> tuple[list[ArrowCodes], list[np.ndarray], np.ndarray]:
        """Stream the files; return per column its dictionary and the grouped codes and counts."""
        dicts = [ArrowCodes() for _ in columns]
        parts: list[tuple[list[np.ndarray], np.ndarray]] = []
        held = 0
        limit = MERGE_ROWS
        for batch in self._batches(columns):
            if batch.num_rows == 0:
                continue
            codes = [d.codes(batch.column(i)) for i, d in enumerate(dicts)]
            part = _reduce(codes, [len(d) for d in dicts], None)
            parts.append(part)
            held += len(part[1])
            if held > limit and len(parts) > 1:
                parts = [self._merge(parts, dicts)]
                held = len(parts[0][1])
                limit = max(MERGE_ROWS, 2 * held)
        if not parts:
            empty = [np.zeros(0, dtype=np.int64) for _ in columns]
            return dicts, empty, np.zeros(0, dtype=np.int64)
        merged = self._merge(parts, dicts) if len(parts) > 1 else parts[0]
        return dicts, merged[0], merged[1]

    @staticmethod
    def _merge(
        parts: list[tuple[list[np.ndarray], np.ndarray]], dicts: list[ArrowCodes]
    ) -> tuple[list[np.ndarray], np.ndarray]:
        codes = [np.concatenate([p[0][i] for p in parts]) for i in range(len(dicts))]
        weights = np.concatenate([p[1] for p in parts]).astype(np.float64)
        return _reduce(codes, [len(d) for d in dicts], weights)

    def class_sizes(self, quasi_identifiers: Sequence[str]) -> np.ndarray:
        """Return the class sizes f_j over the QIs (one pass over the files).

        Parameters
        ----------
        quasi_identifiers : sequence of str
            At least one column.

        Returns
        -------
        numpy.ndarray
            int64 sizes.
        """
        return self.tabulate(quasi_identifiers).classes.sizes

    def tabulate(
        self,
        quasi_identifiers: Sequence[str],
        sensitive: Sequence[str] = (),
        *,
        ordered: dict[str, bool | None] | None = None,
    ) -> Tabulation:
        """Return the class table and one sparse contingency per sensitive attribute.

        One pass over the files, whatever the number of sensitive attributes.

        Parameters
        ----------
        quasi_identifiers : sequence of str
            At least one column.
        sensitive : sequence of str
            Sensitive attributes.
        ordered : dict of str to bool or None, optional
            Per sensitive attribute, whether value codes must follow value order.

        Returns
        -------
        Tabulation
        """
        qis = tuple(quasi_identifiers)
        if not qis:
            raise ValueError("at least one quasi-identifier is needed to form equivalence classes")
        sens = tuple(s for s in sensitive if s not in qis)
        order = ordered or {}
        try:
            return self._tabulate_keys(qis, sens, order)
        except _TooWideError:
            pass
        columns = list(dict.fromkeys(qis + sens))
        dicts, codes, counts = self._group(columns)
        enc = {
            c: d.encoded(c, k, ordered=order.get(c) if c in sens else None)
            for c, d, k in zip(columns, dicts, codes, strict=True)
        }
        return tabulate_codes(
            [enc[q] for q in qis], {s: enc[s] for s in sens}, counts, engine=self.name
        )

    def _tabulate_keys(
        self, qis: tuple[str, ...], sens: tuple[str, ...], order: dict[str, bool | None]
    ) -> Tabulation:
        """The fast path: per table (the QIs alone, or QIs + one sensitive) an exact key count.

        Each batch's codes are packed into one int64 key per record with the
        cardinalities seen so far as radices and counted (a dense
        ``bincount`` while the key space is small, else sorted partial
        counts); no Python loop runs over rows. Raises :class:`_TooWideError`
        when the key space outgrows int64.
        """
        columns = list(qis + sens)
        dicts = {c: ArrowCodes() for c in columns}
        tables: list[tuple[str, ...]] = [(s,) for s in sens] or [()]
        counters = [_Counter() for _ in tables]
        buffers = {c: np.zeros(0, dtype=np.int64) for c in columns}  # one per column, reused
        for batch in self._batches(columns):
            if batch.num_rows == 0:
                continue
            if batch.num_rows > len(buffers[columns[0]]):
                buffers = {c: np.empty(batch.num_rows, dtype=np.int64) for c in columns}
            codes = {
                c: dicts[c].codes(batch.column(i), out=buffers[c]) for i, c in enumerate(columns)
            }
            qi_radix = tuple(len(dicts[q]) for q in qis)
            for extra, counter in zip(tables, counters, strict=True):
                radices = qi_radix + tuple(len(dicts[s]) for s in extra)
                counter.add([codes[c] for c in qis + extra], radices)
        # the classes: keys of the first table without its sensitive digit
        keys, counts = counters[0].result()
        radices0 = counters[0].radices or tuple(1 for _ in qis)
        m0 = radices0[-1] if sens else 1
        class_keys = keys // m0
        uniq, inv = np.unique(class_keys, return_inverse=True)
        sizes = np.bincount(inv.reshape(-1), weights=counts, minlength=len(uniq)).astype(np.int64)
        qi_radix = radices0[: len(qis)]
        qi_codes = _decode(uniq, qi_radix) if len(uniq) else [uniq.copy() for _ in qis]
        qi_cols = [dicts[q].encoded(q, c, ordered=None) for q, c in zip(qis, qi_codes, strict=True)]
        # re-aggregate after the final encoding (NaN and null are one missing value)
        key2, _ = pack_keys([c.codes for c in qi_cols], [c.n_values for c in qi_cols])
        _, first, class_of = np.unique(key2, return_index=True, return_inverse=True)
        class_of = class_of.reshape(-1).astype(np.int64, copy=False)
        n_classes = len(first)
        classes = ClassTable(
            qis,
            np.bincount(class_of, weights=sizes, minlength=n_classes).astype(np.int64),
            tuple(c.codes[first] for c in qi_cols),
            tuple(c.labels for c in qi_cols),
        )
        contingencies: dict[str, Contingency] = {}
        for extra, counter in zip(tables, counters, strict=True):
            if not extra:
                continue
            s = extra[0]
            cell_keys, cell_counts = counter.result()
            m = max(counter.radices[-1], 1)
            # the QI radices of this table equal the first table's (same batches, same dictionaries)
            cls = class_of[np.searchsorted(uniq, cell_keys // m)]
            col = dicts[s].encoded(s, cell_keys % m, ordered=order.get(s))
            contingencies[s] = Contingency.from_cells(
                s,
                cls,
                col.codes,
                cell_counts,
                n_classes=n_classes,
                labels=col.labels,
                ordered=col.ordered,
            )
        return Tabulation(classes, contingencies, engine=self.name)
