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

from riskcore.engine.contract import ClassTable, Contingency, PackedCodes, Tabulation
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
    rest = key
    for r in reversed(radices[1:]):
        r = max(int(r), 1)
        quotient = rest // r  # a division by a constant (fast); the remainder from it
        digit = quotient * r
        np.subtract(rest, digit, out=digit)
        out.append(digit)
        rest = quotient
    out.append(rest if rest is not key else key.copy())
    return out[::-1]


def _runs_of(sorted_keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the distinct keys of a sorted array and the summed counts of each."""
    n = len(sorted_keys)
    if n < 2:
        return sorted_keys.astype(np.int64, copy=False), counts.astype(np.int64, copy=False)
    change = sorted_keys[1:] != sorted_keys[:-1]
    runs = int(np.count_nonzero(change)) + 1
    if runs == n:  # every key once: nothing to sum
        return sorted_keys.astype(np.int64, copy=False), counts.astype(np.int64, copy=False)
    starts = np.empty(runs, dtype=np.int64)
    starts[0] = 0
    starts[1:] = np.flatnonzero(change)
    starts[1:] += 1
    keys = np.take(sorted_keys, starts, mode="clip").astype(np.int64, copy=False)
    if n - runs > n // 4:  # many repeats: sum every run
        return keys, np.add.reduceat(counts, starts)
    # few repeats (nearly every key once): each run's first count, plus the few others
    repeat = np.flatnonzero(~change)
    repeat += 1
    del change
    total = np.take(counts, starts, mode="clip").astype(np.int64)
    np.add.at(total, np.searchsorted(starts, repeat, side="right") - 1, counts[repeat])
    return keys, total


def _sorted_counts(sorted_keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the distinct keys of a sorted array and how many times each occurs."""
    starts = _run_starts(sorted_keys)
    lengths = np.diff(starts, append=len(sorted_keys))
    return np.take(sorted_keys, starts, mode="clip") if len(starts) else sorted_keys, lengths


#: Bits a packed "key, count" may use (63: a non-negative int64). Tests lower it
#: to force the slower merge by argsort.
PACK_BITS = 63
#: A batch whose distinct keys exceed this share of its rows is not counted on
#: its own: its keys wait unsorted for the next merge (nearly every record its
#: own class, where counting each batch first would sort the keys twice).
RAW_SHARE = 0.5


def _merge_counts(
    parts: Sequence[tuple[np.ndarray, np.ndarray | None]], card: int
) -> tuple[np.ndarray, np.ndarray]:
    """Return the distinct keys of several parts, sorted, and the summed count of each.

    A part is (keys, counts), or (keys, None) for keys counted once each; keys
    are below ``card``. When a key and the largest count fit one int64 side by
    side, each (key, count) pair is packed into one integer
    (``key << b | count``) and the packed integers are sorted by value
    (numpy's vectorized sort, several times faster than an argsort), so the
    counts travel with their keys; otherwise an argsort orders both.
    """
    parts = [p for p in parts if len(p[0])]
    if not parts:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    total = sum(len(k) for k, _ in parts)
    top = max((int(c.max()) for _, c in parts if c is not None), default=1)
    key_bits = max(card - 1, 1).bit_length()
    count_bits = max(top, 1).bit_length()
    if key_bits + count_bits <= PACK_BITS:
        packed = np.empty(total, dtype=np.int64)
        at = 0
        for keys, counts in parts:
            seg = packed[at : at + len(keys)]
            np.left_shift(keys, count_bits, out=seg)
            if counts is None:
                seg |= 1
            else:
                seg |= counts
            at += len(keys)
        packed.sort()
        keys = packed >> count_bits
        packed &= (1 << count_bits) - 1
        return _runs_of(keys, packed)
    keys = np.concatenate([k for k, _ in parts])
    counts = np.concatenate([np.ones(len(k), dtype=np.int64) if c is None else c for k, c in parts])
    order = np.argsort(keys)
    return _runs_of(keys[order], counts[order])


def _rekeyed(keys: np.ndarray, old: Sequence[int], new: Sequence[int]) -> np.ndarray:
    """Return keys packed with radices ``old`` packed again with radices ``new``.

    Every digit is below its radix in both, so the order of the keys (the
    order of their code tuples) is kept: sorted keys stay sorted. Only the
    digits from the first changed radix on are unpacked; the ones before it
    move together (the new values of the sensitive attribute, the usual
    case, unpack one digit).
    """
    old, new = tuple(old), tuple(new)
    if old == new or not len(keys):
        return keys
    first = next(i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b)
    start = max(first, 1)  # digit 0's radix multiplies nothing
    if start >= len(old):
        return keys
    tail_old = _radix_product(old[start:])
    high = keys // tail_old
    low = keys - high * tail_old
    digits = _decode(low, (1, *old[start:]))[1:]  # low < tail_old: the leading digit is 0
    out = _encode([high, *digits], (1, *new[start:]))
    return out


class _Counter:
    """Counts of exact mixed-radix keys "QIs (+ one sensitive attribute)", dense or sparse.

    Keys are the class key (the QIs' codes, packed with radices shared by
    every counter of one pass) times the sensitive attribute's radix plus
    its code. The radices grow with headroom (doubling) as new values
    appear; kept counts are then re-keyed, which keeps their order. While
    the key space is small the counts are a dense array; otherwise each
    batch's keys are sorted and summed (or, where nearly every key is
    distinct, left as they are) and wait for a merge, which happens when
    the waiting keys outnumber the kept ones four to one, and at the end:
    each key is sorted a bounded number of times.
    """

    def __init__(self, n_records: int = 0) -> None:
        # dense counts of int32 while every count fits (half the memory of int64)
        self.count_type = np.int32 if n_records < 2**31 else np.int64
        self.radices: tuple[int, ...] = ()  # QI radices, then the sensitive one (1: none)
        self.dense: np.ndarray | None = None
        self.buffer = np.zeros(0, dtype=np.int64)  # the batch's keys, reused while dense
        self.keys = np.zeros(0, dtype=np.int64)  # sparse, sorted, distinct
        self.counts = np.zeros(0, dtype=np.int64)
        self.pending: list[tuple[np.ndarray, np.ndarray | None]] = []
        self.n_pending = 0
        self.limit = MERGE_ROWS
        self.raw = False

    @property
    def card(self) -> int:
        """Return the size of the key space."""
        return _radix_product(self.radices)

    def set_radices(self, radices: tuple[int, ...]) -> None:
        """Key the counts with new radices (each at least the old one)."""
        if radices == self.radices:
            return
        old = self.radices
        card = _radix_product(radices)
        grows = len(old) == len(radices) and all(n >= o for n, o in zip(radices, old, strict=True))
        if self.dense is not None and old and grows and card <= DENSE_KEYS:
            # dense to dense: the counts are an array of shape ``old`` copied into the
            # corner of one of shape ``radices`` (no key is unpacked, nothing else held)
            grown = np.zeros(card, dtype=self.dense.dtype)
            corner = tuple(slice(0, max(r, 1)) for r in old)
            grown.reshape([max(r, 1) for r in radices])[corner] = self.dense.reshape(
                [max(r, 1) for r in old]
            )
            self.dense, self.radices = grown, radices
            return
        if self.dense is not None:
            keys = np.flatnonzero(self.dense).astype(np.int64)
            self.keys, self.counts, self.dense = keys, self.dense[keys], None
        if old:
            self.keys = _rekeyed(self.keys, old, radices)
            self.pending = [(_rekeyed(k, old, radices), c) for k, c in self.pending]
        self.radices = radices
        if card <= DENSE_KEYS:
            keys, counts = self.result()
            self.dense = np.zeros(card, dtype=self.count_type)
            self.dense[keys] = counts
            self.keys = np.zeros(0, dtype=np.int64)
            self.counts = np.zeros(0, dtype=np.int64)

    def add(self, class_key: np.ndarray, codes: np.ndarray | None) -> None:
        """Count one batch: its class keys and, with a sensitive attribute, its codes."""
        if codes is None:
            key = class_key
        else:
            if len(self.buffer) < len(class_key):
                self.buffer = np.empty(len(class_key), dtype=np.int64)
            key = self.buffer[: len(class_key)]
            np.multiply(class_key, self.radices[-1], out=key)
            key += codes
        if self.dense is not None:
            if self.card > 4 * len(key):  # touch only the counted cells, not the whole array
                keys, counts = _sorted_counts(np.sort(key))
                self.dense[keys] += counts
            else:
                self.dense += np.bincount(key, minlength=self.card)
            return
        if self.raw:
            self.pending.append((key.copy(), None))
        else:
            keys, counts = _sorted_counts(np.sort(key))
            self.raw = len(keys) > RAW_SHARE * len(key)
            self.pending.append((keys, counts))
        self.n_pending += len(key)
        if self.n_pending > self.limit:
            self._flush()
            # keys that barely repeat (raw) merge less often: a merge shrinks them little
            self.limit = max(MERGE_ROWS * (4 if self.raw else 1), 4 * len(self.keys))

    def _flush(self) -> None:
        """Merge the waiting keys into the kept counts (one sort of the packed pairs)."""
        if not self.pending:
            return
        parts = [(self.keys, self.counts), *self.pending]
        self.pending, self.n_pending = [], 0
        self.keys, self.counts = _merge_counts(parts, self.card)

    def result(self) -> tuple[np.ndarray, np.ndarray]:
        """Return the present keys (sorted) and their counts."""
        if self.dense is not None:
            keys = np.flatnonzero(self.dense).astype(np.int64)
            return keys, self.dense[keys].astype(np.int64)
        self._flush()
        return self.keys, self.counts


def _grown(radices: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...]:
    """Return radices covering ``cards``, doubled where they grow (headroom)."""
    old = radices or tuple(0 for _ in cards)
    return tuple(r if c <= r else max(c, 2 * r) for c, r in zip(cards, old, strict=True))


def _run_starts(sorted_keys: np.ndarray) -> np.ndarray:
    """Return where each run of equal values of a sorted array starts."""
    if not len(sorted_keys):
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(np.concatenate(([True], sorted_keys[1:] != sorted_keys[:-1])))


def _run_index(starts: np.ndarray, n: int) -> np.ndarray:
    """Return, for each of ``n`` positions, the number of the run it is in."""
    if len(starts) == n:
        return np.arange(n, dtype=np.int64)
    index = np.zeros(n, dtype=np.int64)
    index[starts[1:]] = 1
    return np.cumsum(index, out=index)


def _sorted_cells(
    cls: np.ndarray, value: np.ndarray, counts: np.ndarray, m: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Put cells sorted by class (runs) in (class, value) order, as the contract keeps them.

    The cells come grouped by class, in the dictionary's code order inside a
    class; only the classes of two or more cells can be out of order, and
    only those are sorted. ``value`` and ``counts`` are reordered in place.
    """
    key = cls * max(m, 1) + value
    if len(key) < 2 or bool(np.all(key[1:] > key[:-1])):
        return cls, value, counts
    wrong = np.flatnonzero(key[1:] <= key[:-1])
    # every cell of a class holding an inversion (cells of one class are adjacent)
    bad_class = np.zeros(int(cls[-1]) + 1, dtype=bool)
    bad_class[cls[wrong]] = True
    bad = bad_class[cls]
    sub = np.flatnonzero(bad)
    order = sub[_argsort_int(key[sub])]
    # whole classes are sorted among themselves: the class of each position stays
    value[sub], counts[sub] = value[order], counts[order]
    return cls, value, counts


def _argsort_int(keys: np.ndarray) -> np.ndarray:
    """Return the stable sorting order of non-negative integer keys.

    Each key is packed with its position (key * n + i) and the packed
    integers sorted by value, several times faster than an argsort; an
    argsort when the packed integers would not fit int64.
    """
    n = len(keys)
    if n and (int(keys.max()) + 1) * n < 2**63:
        packed = keys * n + np.arange(n, dtype=np.int64)
        packed.sort()
        return packed - (packed // n) * n
    return np.argsort(keys, kind="stable")


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

    def _coded(
        self, columns: list[str], dicts: dict[str, ArrowCodes]
    ) -> Iterator[tuple[dict[str, np.ndarray], dict[str, int]]]:
        """Yield each batch's global codes and the dictionaries' sizes after it.

        A second thread reads and codes the next batch while the caller counts
        this one (numpy and Arrow release the interpreter lock): two sets of
        code buffers take turns, so a batch's codes stay valid until the
        caller asks for the one after the next.
        """
        from concurrent.futures import ThreadPoolExecutor

        batches = iter(self._batches(columns))
        buffers: list[dict[str, np.ndarray]] = [{}, {}]

        def step(buf: dict[str, np.ndarray]) -> tuple[dict[str, np.ndarray], dict[str, int]] | None:
            for batch in batches:
                n = batch.num_rows
                if n == 0:
                    continue
                for c in columns:
                    if len(buf.get(c, ())) < n:
                        buf[c] = np.empty(n, dtype=np.int64)
                codes = {
                    c: dicts[c].codes(batch.column(i), out=buf[c]) for i, c in enumerate(columns)
                }
                return codes, {c: len(dicts[c]) for c in columns}
            return None

        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="riskcore-arrow") as pool:
            turn = 0
            pending = pool.submit(step, buffers[turn])
            while True:
                done = pending.result()
                if done is None:
                    return
                turn ^= 1
                pending = pool.submit(step, buffers[turn])
                yield done

    def _tabulate_keys(
        self, qis: tuple[str, ...], sens: tuple[str, ...], order: dict[str, bool | None]
    ) -> Tabulation:
        """The fast path: per table (the QIs alone, or QIs + one sensitive) an exact key count.

        Each batch's QI codes are packed once into one int64 class key per
        record, with radices shared by every table; each table's key is that
        class key times the sensitive attribute's radix plus its code,
        counted by a :class:`_Counter`. No Python loop runs over rows or
        classes. Raises :class:`_TooWideError` when the key space outgrows
        int64.
        """
        columns = list(qis + sens)
        dicts = {c: ArrowCodes() for c in columns}
        tables: list[str | None] = list(sens) or [None]
        counters = [_Counter(self._n) for _ in tables]
        qi_radices: tuple[int, ...] = ()
        s_radices = [1 for _ in tables]
        class_key = np.zeros(0, dtype=np.int64)
        for codes, all_cards in self._coded(columns, dicts):
            if len(codes[columns[0]]) > len(class_key):
                class_key = np.empty(len(codes[columns[0]]), dtype=np.int64)
            cards = tuple(all_cards[q] for q in qis)
            s_cards = [1 if s is None else all_cards[s] for s in tables]
            if any(c > r for c, r in zip(cards, qi_radices or (0,) * len(qis), strict=True)) or any(
                c > r for c, r in zip(s_cards, s_radices, strict=True)
            ):
                new_q = _grown(qi_radices, cards)
                new_s = list(_grown(tuple(s_radices), tuple(s_cards)))
                if _radix_product(new_q) * max(new_s) >= _KEY_LIMIT:
                    # no headroom where there is no room: exact radices, which may be below the
                    # old ones (the counts are re-keyed digit by digit, dense or not)
                    new_q, new_s = cards, s_cards
                if _radix_product(new_q) * max(new_s) >= _KEY_LIMIT:
                    raise _TooWideError
                qi_radices, s_radices = new_q, new_s
                for counter, r in zip(counters, s_radices, strict=True):
                    counter.set_radices((*qi_radices, r))
            key = _encode([codes[q] for q in qis], qi_radices, class_key)
            for s, counter in zip(tables, counters, strict=True):
                counter.add(key, None if s is None else codes[s])
        return self._assemble(qis, tables, counters, dicts, order)

    def _assemble(
        self,
        qis: tuple[str, ...],
        tables: list[str | None],
        counters: list[_Counter],
        dicts: dict[str, ArrowCodes],
        order: dict[str, bool | None],
    ) -> Tabulation:
        """Build the class table and contingencies from the counters' sorted keys.

        Every counter holds the same classes (each record is in every table)
        keyed with the same QI radices, so the classes are numbered in class
        key order once, and each table's cells take the number of their run
        of equal class keys: no search and no sort of the classes. The codes
        are then mapped to the in-memory engine's (:meth:`ArrowCodes.final`);
        where that map joins two codes (a ``NaN`` and a null of one column),
        classes and cells are summed again.
        """
        results = [counter.result() for counter in counters]
        qi_radices = counters[0].radices[: len(qis)] if counters[0].radices else (1,) * len(qis)
        keys0, counts0 = results[0]
        m0 = counters[0].radices[-1] if counters[0].radices else 1
        class_keys = keys0 // m0 if m0 > 1 else keys0
        starts = _run_starts(class_keys)
        raw_sizes = np.add.reduceat(counts0, starts) if len(starts) else np.zeros(0, dtype=np.int64)
        finals = [dicts[q].final(q, ordered=None) for q in qis]
        joined = any(f.n_values < len(dicts[q]) for f, q in zip(finals, qis, strict=True))
        class_packed = class_keys[starts] if len(starts) < len(class_keys) else class_keys
        del class_keys
        n_raw = len(starts)
        class_of: np.ndarray | None = None
        qi_codes: Sequence[np.ndarray]
        if joined:  # two codes became one value: sum their classes again
            qi_codes = list(PackedCodes(class_packed, qi_radices, [f.codes for f in finals]))
            key2, _ = pack_keys(list(qi_codes), [f.n_values for f in finals])
            _, first, class_of = np.unique(key2, return_index=True, return_inverse=True)
            class_of = class_of.reshape(-1).astype(np.int64, copy=False)
            n_classes = len(first)
            sizes = np.bincount(class_of, weights=raw_sizes, minlength=n_classes).astype(np.int64)
            qi_codes = tuple(c[first] for c in qi_codes)
        else:  # the codes of a QI are unpacked from the class keys when first read
            n_classes, sizes = n_raw, raw_sizes
            qi_codes = PackedCodes(class_packed, qi_radices, [f.codes for f in finals])
        classes = ClassTable(qis, sizes, qi_codes, tuple(f.labels for f in finals))
        contingencies: dict[str, Contingency] = {}
        for s, counter, (keys, counts) in zip(tables, counters, results, strict=True):
            if s is None:
                continue
            m = max(counter.radices[-1], 1) if counter.radices else 1
            cell_class_key = keys // m
            raw_value = keys - cell_class_key * m
            cell_starts = _run_starts(cell_class_key)
            del cell_class_key
            if len(cell_starts) != n_raw:  # every table holds every class
                raise RuntimeError("the tables of one pass disagree on the classes")
            cls = _run_index(cell_starts, len(keys))
            if class_of is not None:
                cls = class_of[cls]
            final = dicts[s].final(s, ordered=order.get(s))
            value = np.take(final.codes, raw_value, mode="clip")
            del raw_value
            if class_of is None and final.n_values == len(dicts[s]):
                # one code per value: the cells, once sorted, are the table's, and each
                # class's cells add up to its size
                cls, value, counts = _sorted_cells(cls, value, counts, final.n_values)
                totals = np.bincount(value, weights=counts, minlength=final.n_values)
                contingencies[s] = Contingency(
                    s,
                    cls,
                    value,
                    counts,
                    sizes,
                    totals.astype(np.int64),
                    final.ordered,
                    final.labels,
                )
                continue
            contingencies[s] = Contingency.from_cells(
                s,
                cls,
                value,
                counts,
                n_classes=n_classes,
                labels=final.labels,
                ordered=final.ordered,
            )
        return Tabulation(classes, contingencies, engine=self.name)
