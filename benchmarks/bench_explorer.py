"""Benchmark of the record explorer (Uniqueness page) on the demo people at 1,000,000 rows.

Times, on a fresh :class:`~riskcore.engine.EncodedTable` of ``make_people(n)`` with
the demo's 5 QIs (age, sex, race, marital_status, education) and the default
hierarchies: the lattice (built once per table and k), SUDA (once per table),
the riskiest-first order (once), and per record picked: ``explain_record``,
``record_subsets`` and ``cover_record``, on the riskiest record and on record 1.
The median of ``--repeat`` runs is printed.

Usage::

    python benchmarks/bench_explorer.py [--rows 1000000] [--repeat 3] [--qi COL ...]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from riskcore.deidentify.hierarchy import default_hierarchy
from riskcore.deidentify.search.cover import cover_record
from riskcore.deidentify.search.lattice import Lattice, Targets
from riskcore.demo import make_people
from riskcore.engine import EncodedTable
from riskcore.metrics.explain import explain_record, record_subsets, riskiest_rows
from riskcore.metrics.special_uniques import suda

QIS = ("age", "sex", "race", "marital_status", "education")


def _time(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def main() -> None:
    """Time each step of the explorer and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3, help="runs per step (median)")
    parser.add_argument("--qi", action="append", help="a QI (repeat; default the demo's 5)")
    args = parser.parse_args()
    qis = tuple(args.qi or QIS)
    df = make_people(args.rows, seed=0)
    enc = EncodedTable(df)
    enc.record_classes(qis)  # the page's assessment has encoded and partitioned the table
    r = args.repeat
    print(f"demo people: {len(df):,} rows, QIs {', '.join(qis)}; median of {r}")
    t, hs = _time(lambda: {q: default_hierarchy(df[q]) for q in qis}, r)
    print(f"default hierarchies: {t:.3f} s")
    t, lat = _time(lambda: Lattice(enc, hs, targets=Targets(k=11)), r)
    print(f"lattice (k = 11): {t:.3f} s, {lat.size:,} nodes, {len(lat.base.sizes):,} classes")
    t, s = _time(lambda: suda(enc, qis), 1)
    print(f"SUDA (once per table): {t:.2f} s, {s.special_uniques:,} special uniques")
    t, order = _time(lambda: riskiest_rows(enc, qis, s), r)
    print(f"riskiest-first order: {t:.3f} s")
    for label, row in (("riskiest", int(order[0])), ("row 1", 1)):
        te, e = _time(lambda row=row: explain_record(enc, qis, row, suda_result=s), r)
        ts, _ = _time(lambda row=row, e=e: record_subsets(enc, qis, row, msus=e.msus), r)
        tc, c = _time(lambda row=row: cover_record(lat, row), r)
        print(
            f"{label} (row {row:,}, class {e.class_size:,}): explain {te:.3f} s, subsets "
            f"{ts:.3f} s, cover {tc:.4f} s (levels {c.levels}, class {c.covered_size:,}); "
            f"together {te + ts + tc:.3f} s"
        )


if __name__ == "__main__":
    main()
