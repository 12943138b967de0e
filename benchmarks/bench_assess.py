"""Benchmark: load, partition and full assessment at 32,561 / 1M / 10M rows.

Prints a table of timings and peak memory (each configuration runs in a fresh
process, so the peak resident memory belongs to that configuration alone),
checks the issue's targets, and compares with pycanon when it is installed
(``pip install --no-deps pycanon``; it is not a project dependency).

Then, on UCI Adult (``../shared/data/adult.csv``, 32,561 rows; 4 QIs: sex, race,
marital-status, education, 626 classes; income and relationship sensitive; ``--adult-qis``
picks others), issue 28's item 6: the whole
``python -m riskcore assess`` process, from start to exit (median of ``--repeat``
runs), against pyCANON computing k, distinct l, entropy l and t-closeness of both
attributes in process (import and reading not counted; median of ``--peer-repeat``
runs), and the ratio [at least 10x]. The command reads the CSV with pyarrow and
computes with numpy (it never imports pandas); the same command with ``--engine
pandas`` is timed beside it. pyCANON is found on the path or in
``benchmarks/out/peer`` (``pip install --no-deps --target benchmarks/out/peer
pycanon==1.3.6``, git-ignored).

Usage::

    python benchmarks/bench_assess.py                 # all sizes (10M takes a few minutes)
    python benchmarks/bench_assess.py --sizes 32561,1000000
    python benchmarks/bench_assess.py --no-peer
    python benchmarks/bench_assess.py --adult-only    # the whole-process comparison alone
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
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
ADULT = ROOT.parent / "shared" / "data" / "adult.csv"
ADULT_QIS = ["sex", "race", "marital-status", "education"]
ADULT_SENSITIVE = ["income", "relationship"]
PEER_PATH = ROOT / "benchmarks" / "out" / "peer"
RATIO_TARGET = 10.0


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


def adult_command(engine: str | None = None) -> list[str]:
    """Return the ``riskcore assess`` command on Adult (JSON output)."""
    cmd = [sys.executable, "-m", "riskcore", "assess", str(ADULT), "--format", "json"]
    for q in ADULT_QIS:
        cmd += ["--qi", q]
    for s in ADULT_SENSITIVE:
        cmd += ["--sensitive", s]
    return cmd + (["--engine", engine] if engine else [])


def whole_process(cmd: list[str], repeat: int) -> tuple[float, list[float], float, dict]:
    """Run a command ``repeat`` times in fresh processes.

    Return the median wall time, every wall time, the median CPU time
    (user + system, of the process and its threads) and the JSON it printed.
    """
    times, cpu, out = [], [], None
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        times.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if out.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed:\n{out.stderr[-2000:]}")
    assert out is not None
    return statistics.median(times), times, statistics.median(cpu), json.loads(out.stdout)


def peer_adult(repeat: int) -> dict | None:
    """Time pyCANON's k, l, entropy l and t of both attributes on Adult, in process."""
    code = f"""
import json, statistics, sys, time
sys.path.insert(0, {str(PEER_PATH)!r})
import pandas as pd
from pycanon import anonymity
df = pd.read_csv({str(ADULT)!r}, dtype=str, keep_default_na=False)  # missing: a value ("")
qis, sens = {ADULT_QIS!r}, {ADULT_SENSITIVE!r}
times, cpu = [], []
for _ in range({repeat}):
    t0, c0 = time.perf_counter(), time.process_time()
    k = anonymity.k_anonymity(df, qis)
    l = [anonymity.l_diversity(df, qis, [s]) for s in sens]
    el = [anonymity.entropy_l_diversity(df, qis, [s]) for s in sens]
    t = [anonymity.t_closeness(df, qis, [s]) for s in sens]
    times.append(time.perf_counter() - t0)
    cpu.append(time.process_time() - c0)
print(json.dumps({{"peer_s": statistics.median(times), "times": times,
                  "peer_cpu_s": statistics.median(cpu), "k": int(k),
                  "l": [int(x) for x in l], "entropy_l": [float(x) for x in el],
                  "t": [float(x) for x in t]}}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        last = out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "failed"
        print(f"  pyCANON not measured: {last}")
        return None
    result: dict = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def adult_comparison(repeat: int, peer_repeat: int, peer: bool) -> bool:
    """Print our whole process on Adult against pyCANON in process; return whether >= 10x."""
    if not ADULT.is_file():
        print(f"\n{ADULT} not found: Adult comparison skipped")
        return True
    print(
        f"\nUCI Adult (32,561 rows; QIs {', '.join(ADULT_QIS)}; sensitive "
        f"{', '.join(ADULT_SENSITIVE)}), load average {os.getloadavg()[0]:.1f}:"
    )
    fast, fast_all, fast_cpu, ours = whole_process(adult_command(), repeat)
    slow, _, slow_cpu, ours_pd = whole_process(adult_command("pandas"), max(3, repeat // 2))
    same_engines = ours == ours_pd
    print(
        f"  whole `python -m riskcore assess` (pyarrow + numpy): median {fast:.3f} s "
        f"of {repeat} (min {min(fast_all):.3f} s), CPU {fast_cpu:.3f} s"
    )
    print(
        f"  the same with --engine pandas: median {slow:.3f} s, CPU {slow_cpu:.3f} s; "
        f"same JSON: {same_engines}"
    )
    if not peer:
        return same_engines
    r = peer_adult(peer_repeat)
    if r is None:
        return same_engines
    sa = ours["sensitive"]
    same = (
        r["k"] == ours["k"]
        and r["l"] == [sa[s]["distinct_l"] for s in ADULT_SENSITIVE]
        and all(
            abs(a - sa[s]["t_closeness"]) < 1e-9
            for a, s in zip(r["t"], ADULT_SENSITIVE, strict=True)
        )
    )
    ratio = r["peer_s"] / fast
    met = ratio >= RATIO_TARGET
    print(
        f"  pyCANON in process (k, l, entropy l, t of both): median {r['peer_s']:.2f} s "
        f"of {peer_repeat}, CPU {r['peer_cpu_s']:.2f} s; same k, l, t: {same}"
    )
    print(
        "  entropy l, pyCANON / riskcore: "
        + ", ".join(
            f"{s} {e:.3f} / {sa[s]['entropy_l']:.3f}"
            for s, e in zip(ADULT_SENSITIVE, r["entropy_l"], strict=True)
        )
    )
    print(
        f"  ratio: riskcore's whole process is x{ratio:.1f} faster than pyCANON in process "
        f"(CPU x{r['peer_cpu_s'] / fast_cpu:.1f}) [target x{RATIO_TARGET:.0f}]: "
        f"{'met' if met else 'MISSED'}"
    )
    return met and same and same_engines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="32561,1000000,10000000")
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--peer-timeout", type=float, default=120.0)
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument("--adult-only", action="store_true", help="only the Adult comparison")
    ap.add_argument("--adult", default=None, help="UCI Adult CSV (default ../shared/data)")
    ap.add_argument("--adult-qis", default=None, help="comma-separated QIs for the Adult run")
    ap.add_argument("--repeat", type=int, default=9, help="runs of our command (median)")
    ap.add_argument("--peer-repeat", type=int, default=3, help="runs of pyCANON (median)")
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker[0], int(args.worker[1]))))
        return 0
    global ADULT, ADULT_QIS
    if args.adult:
        ADULT = Path(args.adult)
    if args.adult_qis:
        ADULT_QIS = args.adult_qis.split(",")
    if args.adult_only:
        return 0 if adult_comparison(args.repeat, args.peer_repeat, not args.no_peer) else 1

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
    ok &= adult_comparison(args.repeat, args.peer_repeat, not args.no_peer)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
