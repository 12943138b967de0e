"""Benchmark of the per-record risk table on UCI Adult with fnlwgt as sampling weights.

Prints the time of :func:`riskcore.metrics.records.record_individual_risk` (both
methods) and of :func:`riskcore.metrics.records.record_risk` (individual risk,
SUDA, failing targets k = 5 and distinct l = 2 of income) on
``../shared/data/adult.csv`` (32,561 rows) with 8 QIs, each run on a fresh
:class:`~riskcore.engine.EncodedTable`, and the figures a reviewer compares with
sdcMicro's ``measure_risk(..., w = "fnlwgt")``. The median of ``--repeat`` runs
is printed.

Usage::

    python benchmarks/bench_records.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from riskcore import load_table
from riskcore.engine import EncodedTable
from riskcore.metrics.records import record_individual_risk, record_risk

ROOT = Path(__file__).resolve().parents[1]
ADULT = ROOT.parent / "shared" / "data" / "adult.csv"
QIS = "age workclass education marital-status occupation race sex native-country".split()


def main() -> None:
    """Time the individual risk and the records table on Adult and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per setting (median)")
    args = parser.parse_args()
    df = load_table(ADULT).data
    print(f"UCI Adult: {len(df):,} rows, {len(QIS)} QIs, weights fnlwgt; median of {args.repeat}")
    for method in ("approx", "exact"):
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            r = record_individual_risk(EncodedTable(df), QIS, weights="fnlwgt", method=method)
            times.append(time.perf_counter() - t0)
        print(
            f"individual risk ({method}): {statistics.median(times):.3f} s; expected "
            f"re-identifications {r.expected_reidentifications:.10g}, global risk "
            f"{r.global_risk:.6g}, highest {r.highest_risk:.6g}"
        )
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        out = record_risk(EncodedTable(df), QIS, weights="fnlwgt", k=5, sensitive=["income"], l=2)
        times.append(time.perf_counter() - t0)
    failing = int((out["failing_targets"] != "").sum())
    print(
        f"records table: {statistics.median(times):.2f} s; {len(out):,} rows, {failing:,} in a "
        "class failing k = 5 or distinct l = 2 of income"
    )


if __name__ == "__main__":
    main()
