"""Benchmark of k^m-anonymity on the demo claims table (many rows per person).

Prints the time of :func:`riskcore.metrics.longitudinal.km_anonymity` with m = 1 and m = 2
on ``make_claims(200_000)`` (about 665,000 rows), for three event choices: a visit as the
tuple (visit_date, diagnosis, provider), the diagnosis alone, and diagnosis and provider as
single values; each run on the same :class:`~riskcore.engine.EncodedTable` (codes cached
after a first, untimed run), the median of ``--repeat`` runs, with the itemset occurrences
counted and the figures. The peak resident memory of the process is printed last.

Usage::

    python benchmarks/bench_longitudinal.py [--patients 200000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from riskcore.demo.claims import make_claims
from riskcore.engine import EncodedTable
from riskcore.metrics.longitudinal import km_anonymity

CASES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("visit (date, diagnosis, provider)", ("visit_date", "diagnosis", "provider"), "visit"),
    ("diagnosis", ("diagnosis",), "visit"),
    ("diagnosis, provider as values", ("diagnosis", "provider"), "value"),
)


def main() -> None:
    """Time k^m-anonymity for m = 1, 2 on the claims table and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--patients", type=int, default=200_000, help="patients (default 200,000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per setting (median)")
    args = parser.parse_args()
    t0 = time.perf_counter()
    df = make_claims(args.patients, seed=0)
    print(
        f"make_claims({args.patients:,}): {len(df):,} rows, {df['patient_id'].nunique():,} "
        f"patients ({time.perf_counter() - t0:.1f} s); median of {args.repeat}"
    )
    table = EncodedTable(df)
    for label, events, items in CASES:
        km_anonymity(table, "patient_id", list(events), m=1, items=items)  # encode once
        for m in (1, 2):
            times = []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                r = km_anonymity(table, "patient_id", list(events), m=m, items=items, k=11)
                times.append(time.perf_counter() - t0)
            occurrences = sum(level.occurrences for level in r.itemsets)
            print(
                f"{label}, m = {m}: {statistics.median(times):.2f} s; {occurrences:,} itemset "
                f"occurrences, achieved k {r.k_achieved:,}, {r.people_at_risk:,} people at "
                f"risk of k = 11 ({r.share_at_risk:.1%})"
            )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory: {peak:,.0f} MB")


if __name__ == "__main__":
    main()
