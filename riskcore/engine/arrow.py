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

from riskcore.engine import counting
from riskcore.engine.contract import ClassTable, Contingency, PackedCodes, Tabulation
from riskcore.engine.counting import (
    KeyCounter,
    TooWideError,
    encode_keys,
    grown_radices,
    radix_product,
    reduce_codes,
    run_index,
    run_starts,
    sorted_cells,
)
from riskcore.engine.grouped import ArrowCodes, tabulate_codes
from riskcore.engine.pairs import PairsEngine
from riskcore.engine.partition import pack_keys
from riskcore.errors import DataLoadError, RolesError

__all__ = ["ArrowEngine", "check_flat_files", "parquet_files", "source_texts"]

#: Records per batch read from the files.
BATCH_ROWS = 1 << 20


def source_texts(source: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[str]:
    """Return the paths or patterns a source names, as text (one for a single path).

    Parameters
    ----------
    source : str, path or sequence of them
        A file, directory or glob, or a sequence of them.

    Returns
    -------
    list of str
        Each path or pattern, in order.
    """
    items = [source] if isinstance(source, (str, os.PathLike)) else list(source)
    return [os.fspath(i) for i in items]


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
    files: list[str] = []
    for text in source_texts(source):
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


def check_flat_files(files: Sequence[str], schema: Any = None) -> None:
    """Refuse Parquet files with a nested column (:func:`riskcore.io._parquet.check_flat`).

    Parameters
    ----------
    files : sequence of str
        The Parquet files (:func:`parquet_files`).
    schema : pyarrow.Schema, optional
        Their schema when already read (default: read from the files' footers).

    Raises
    ------
    DataLoadError
        For a nested column, or files that cannot be read.
    """
    from riskcore.io._parquet import check_flat

    if schema is None:
        import pyarrow.dataset as ds

        try:
            schema = ds.dataset(list(files), format="parquet").schema
        except Exception as exc:  # pyarrow raises many types for a bad file
            raise DataLoadError(f"the Parquet data cannot be read ({exc})") from None
    name = os.path.basename(files[0]) if len(files) == 1 else f"the {len(files):,} Parquet files"
    check_flat(schema, name)


#: Key spaces beyond this do not fit exact int64 keys; the tuple path is used.
_KEY_LIMIT = 1 << 62


class ArrowEngine(PairsEngine):
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
        check_flat_files(self.files, self._schema)
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
        limit = counting.MERGE_ROWS
        for batch in self._batches(columns):
            if batch.num_rows == 0:
                continue
            codes = [d.codes(batch.column(i)) for i, d in enumerate(dicts)]
            part = reduce_codes(codes, [len(d) for d in dicts], None)
            parts.append(part)
            held += len(part[1])
            if held > limit and len(parts) > 1:
                parts = [self._merge(parts, dicts)]
                held = len(parts[0][1])
                limit = max(counting.MERGE_ROWS, 2 * held)
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
        return reduce_codes(codes, [len(d) for d in dicts], weights)

    def class_sizes(
        self, quasi_identifiers: Sequence[str], *, person: str | None = None
    ) -> np.ndarray:
        # one pass over the files (documented on Engine.class_sizes)
        return self.tabulate(quasi_identifiers, person=person).classes.sizes

    def _tabulate_rows(
        self, qis: tuple[str, ...], sens: tuple[str, ...], order: dict[str, bool | None]
    ) -> Tabulation:
        """Return the tabulation counting rows: exact keys, else code tuples when too wide."""
        try:
            return self._tabulate_keys(qis, sens, order)
        except TooWideError:
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
        counted by a :class:`KeyCounter`. No Python loop runs over rows or
        classes. Raises :class:`TooWideError` when the key space outgrows
        int64.
        """
        columns = list(qis + sens)
        dicts = {c: ArrowCodes() for c in columns}
        tables: list[str | None] = list(sens) or [None]
        counters = [KeyCounter(self._n) for _ in tables]
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
                new_q = grown_radices(qi_radices, cards)
                new_s = list(grown_radices(tuple(s_radices), tuple(s_cards)))
                if radix_product(new_q) * max(new_s) >= _KEY_LIMIT:
                    # no headroom where there is no room: exact radices, which may be below the
                    # old ones (the counts are re-keyed digit by digit, dense or not)
                    new_q, new_s = cards, s_cards
                if radix_product(new_q) * max(new_s) >= _KEY_LIMIT:
                    raise TooWideError
                qi_radices, s_radices = new_q, new_s
                for counter, r in zip(counters, s_radices, strict=True):
                    counter.set_radices((*qi_radices, r))
            key = encode_keys([codes[q] for q in qis], qi_radices, class_key)
            for s, counter in zip(tables, counters, strict=True):
                counter.add(key, None if s is None else codes[s])
        return self._assemble(qis, tables, counters, dicts, order)

    def _assemble(
        self,
        qis: tuple[str, ...],
        tables: list[str | None],
        counters: list[KeyCounter],
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
        starts = run_starts(class_keys)
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
            cell_starts = run_starts(cell_class_key)
            del cell_class_key
            if len(cell_starts) != n_raw:  # every table holds every class
                raise RuntimeError("the tables of one pass disagree on the classes")
            cls = run_index(cell_starts, len(keys))
            if class_of is not None:
                cls = class_of[cls]
            final = dicts[s].final(s, ordered=order.get(s))
            value = np.take(final.codes, raw_value, mode="clip")
            del raw_value
            if class_of is None and final.n_values == len(dicts[s]):
                # one code per value: the cells, once sorted, are the table's, and each
                # class's cells add up to its size
                cls, value, counts = sorted_cells(cls, value, counts, final.n_values)
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
