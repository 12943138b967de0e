"""Benchmark of SUDA (minimal sample uniques, SUDA and DIS-SUDA scores) on UCI Adult.

Prints the time of :func:`riskcore.metrics.special_uniques.suda` on ``../shared/data/adult.csv``
(32,561 rows) with 8 and with 5 quasi-identifiers (issue 15's target: 8 QIs in
under 10 s), and what was found. The file is loaded once with
``riskcore.load_table``; each timed run starts from a fresh
:class:`~riskcore.engine.EncodedTable`, so encoding the columns and grouping
the records count. The median of ``--repeat`` runs is printed.

Usage::

    python benchmarks/bench_suda.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from riskcore import load_table
from riskcore.engine import EncodedTable
from riskcore.metrics import suda

ROOT = Path(__file__).resolve().parents[1]
ADULT = ROOT.parent / "shared" / "data" / "adult.csv"
QIS_8 = [
    "age",
    "workclass",
    "education",
    "marital-status",
    "occupation",
    "race",
    "sex",
    "native-country",
]
QIS_5 = ["age", "education", "marital-status", "race", "sex"]


def main() -> None:
    """Time SUDA on Adult with 8 and 5 QIs and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per setting (median)")
    args = parser.parse_args()
    df = load_table(ADULT).data
    print(f"UCI Adult: {len(df):,} rows; median of {args.repeat} runs")
    print(f"{'QIs':>4} {'time':>8} {'MSUs':>8} {'special uniques':>16} {'sample uniques':>15}")
    for qis in (QIS_8, QIS_5):
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            res = suda(EncodedTable(df), qis)
            times.append(time.perf_counter() - t0)
        print(
            f"{len(qis):>4} {statistics.median(times):>7.2f}s {res.n_msus:>8,} "
            f"{res.special_uniques:>16,} {res.sample_uniques:>15,}"
        )
        print(f"     QIs: {', '.join(qis)}")
        sizes = ", ".join(f"{x:,}" for x in res.msus_by_size)
        print(f"     MSUs by size 1..{res.max_size}: {sizes}")
        top = sorted(zip(qis, res.qi_contribution, strict=True), key=lambda t: -t[1])[:3]
        shares = ", ".join(f"{q} {s:.0%}" for q, s in top)
        print(f"     largest shares of the total score: {shares}")


if __name__ == "__main__":
    main()
