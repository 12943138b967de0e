"""Benchmark: load, partition and full assessment at 32,561 / 1M / 10M rows.

Prints a table of timings and peak memory (each configuration runs in a fresh
process, so the peak resident memory belongs to that configuration alone),
checks the issue's targets, and compares with pycanon when it is installed
(``pip install --no-deps pycanon``; it is not a project dependency).

Usage::

    python benchmarks/bench_assess.py                 # all sizes (10M takes a few minutes)
    python benchmarks/bench_assess.py --sizes 32561,1000000
    python benchmarks/bench_assess.py --no-peer
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QI_SETS = {
    3: ["age", "sex", "race"],
    6: ["age", "sex", "race", "marital_status", "education", "zip"],
    8: ["age", "sex", "race", "marital_status", "education", "zip", "workclass", "occupation"],
}
SENSITIVE = ["diagnosis", "income"]
TARGETS = {1_000_000: (1.5, None), 10_000_000: (15.0, 6.0)}  # seconds, GB (6 QIs)


def worker(path: str, n_qis: int) -> dict:
    """Run one configuration in this process and return its figures."""
    from riskcore.engine import EncodedTable
    from riskcore.io import LoadLimits, load_table
    from riskcore.metrics import assess

    t0 = time.perf_counter()
    df = load_table(path, limits=LoadLimits(max_bytes=10**10, max_rows=20_000_000)).data
    t_load = time.perf_counter() - t0
    qis = QI_SETS[n_qis]
    t0 = time.perf_counter()
    part = EncodedTable(df).partition(qis)
    t_part = time.perf_counter() - t0
    t0 = time.perf_counter()
    a = assess(df, quasi_identifiers=qis, sensitive=SENSITIVE)  # fresh: encodes again
    t_assess = time.perf_counter() - t0
    peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2
    return {
        "rows": len(df),
        "qis": n_qis,
        "classes": part.n_classes,
        "k": a.k,
        "load_s": t_load,
        "partition_s": t_part,
        "assess_s": t_assess,
        "peak_gb": peak_gb,
    }


def peer(n_rows: int, n_qis: int, timeout: float) -> dict | None:
    """Time pycanon's k, l, t (2 sensitive attributes) against riskcore on the same data."""
    code = f"""
import json, time, sys
sys.path.insert(0, {str(ROOT)!r})
from riskcore.demo import make_people
from riskcore.metrics import assess
from pycanon import anonymity
qis = {QI_SETS[8][:n_qis]!r}
df = make_people({n_rows}, seed=0)[qis + {SENSITIVE!r}].astype(str)
t0 = time.perf_counter()
k = anonymity.k_anonymity(df, qis)
l = [anonymity.l_diversity(df, qis, [s]) for s in {SENSITIVE!r}]
t = [anonymity.t_closeness(df, qis, [s]) for s in {SENSITIVE!r}]
peer_s = time.perf_counter() - t0
t0 = time.perf_counter()
a = assess(df, quasi_identifiers=qis, sensitive={SENSITIVE!r})
ours_s = time.perf_counter() - t0
same = (a.k == k and [a.sensitive[s].distinct_l for s in {SENSITIVE!r}] == l
        and all(abs(a.sensitive[s].t_closeness - v) < 1e-6 for s, v in zip({SENSITIVE!r}, t)))
print(json.dumps({{"peer_s": peer_s, "ours_s": ours_s, "same": same}}))
"""
    try:
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return {"peer_s": float("inf"), "ours_s": float("nan"), "same": None}
    if out.returncode != 0:
        print(out.stderr.strip().splitlines()[-1] if out.stderr else "pycanon failed")
        return None
    return json.loads(out.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="32561,1000000,10000000")
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--peer-timeout", type=float, default=120.0)
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker[0], int(args.worker[1]))))
        return 0

    from riskcore.demo import make_people

    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    print(
        f"{'rows':>11} {'QIs':>4} {'classes':>10} {'load s':>8} {'partition s':>12} "
        f"{'assess s':>9} {'peak GB':>8}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = Path(tmp) / f"people_{n}.parquet"
            make_people(n, seed=0).to_parquet(path)
            for n_qis in (3, 6, 8):
                out = subprocess.run(
                    [sys.executable, __file__, "--worker", str(path), str(n_qis)],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                r = json.loads(out.stdout)
                rows.append(r)
                print(
                    f"{r['rows']:>11,} {r['qis']:>4} {r['classes']:>10,} {r['load_s']:>8.2f} "
                    f"{r['partition_s']:>12.3f} {r['assess_s']:>9.3f} {r['peak_gb']:>8.2f}",
                    flush=True,
                )
            path.unlink()

    print("\nTargets (6 QIs, 2 sensitive attributes, full assessment after loading):")
    ok = True
    for n, (secs, gb) in TARGETS.items():
        r = next((x for x in rows if x["rows"] == n and x["qis"] == 6), None)
        if r is None:
            continue
        met = r["assess_s"] < secs and (gb is None or r["peak_gb"] < gb)
        ok &= met
        mem = f", peak {r['peak_gb']:.2f} GB < {gb} GB" if gb else ""
        print(
            f"  {n:>11,} rows: {r['assess_s']:.2f} s < {secs} s{mem}: {'met' if met else 'MISSED'}"
        )
    six = sorted((x for x in rows if x["qis"] == 6), key=lambda x: x["rows"])
    if len(six) >= 2:
        a, b = six[-2], six[-1]
        ratio = (b["assess_s"] / a["assess_s"]) / (b["rows"] / a["rows"])
        print(
            f"  growth {a['rows']:,} -> {b['rows']:,} rows: time per row x{ratio:.2f} "
            "(1.0 = linear)"
        )

    if not args.no_peer:
        try:
            import pycanon  # noqa: F401
        except ImportError:
            print("\npycanon not installed: pip install --no-deps pycanon  (benchmark only)")
        else:
            print("\nPeer comparison, same data and work (k, l, t of 2 sensitive attributes):")
            for n, q in ((32_561, 4), (32_561, 6)):
                r = peer(n, q, args.peer_timeout)
                if r is None:
                    continue
                if r["peer_s"] == float("inf"):
                    print(f"  {n:,} rows x {q} QIs: pycanon over {args.peer_timeout:.0f} s")
                    continue
                print(
                    f"  {n:,} rows x {q} QIs: pycanon {r['peer_s']:.2f} s, riskcore "
                    f"{r['ours_s']:.3f} s, x{r['peer_s'] / r['ours_s']:.0f} faster; "
                    f"same k, l, t: {r['same']}"
                )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
