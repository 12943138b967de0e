"""Benchmark: ``riskcore anonymize`` and ``apply`` on the engines, 50M rows x 5 QIs from Parquet.

Each command runs in a fresh process (the CLI exactly as a user runs it): wall
time and CPU time (user + system, every thread) of the whole process (start-up,
the engine's level-0 class table, the exact least-loss search on it, the release
written by the engine as Parquet), the peak resident memory of the process and
its children (Spark's JVM), read by a runner process whose only child it is, and
the machine's load average (the machine is shared: wall time grows with the
load, CPU time does not). The data are the Adult-like tables of ``bench_engines.py`` (age, sex,
race, marital status, education as QIs; workclass, a skewed 5-digit ZIP,
occupation and income ride along), written into a temporary directory of
Parquet files (10M rows each, 1M-row groups) and removed afterwards unless
``--dir`` is given. Nothing is committed.

Target (issue 28, item 5): 50M rows x 5 QIs through DuckDB under 60 s and 4 GB.

Usage::

    python benchmarks/bench_remediate_engines.py                   # 50M rows, duckdb
    python benchmarks/bench_remediate_engines.py --rows 10000000 --engines duckdb,arrow
    python benchmarks/bench_remediate_engines.py --dir /data/bench  # keep the Parquet
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

QIS = ["age", "sex", "race", "marital_status", "education"]
TARGET = (60.0, 4.0)  # seconds, GB: 50M x 5 QIs through DuckDB


#: Runs one command as its only child and reports that child's peak resident memory (KB).
RUNNER = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[1:]).returncode\n"
    "r = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(f'PEAK_KB {r.ru_maxrss} {r.ru_utime + r.ru_stime}', file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def run(argv: list[str], timeout: float) -> dict[str, object]:
    """Run ``python -m riskcore argv`` in a fresh process; return its JSON, wall time and peak.

    The peak is the largest resident set of the process or of a child it
    waited for (Spark's JVM), measured by a runner process whose only child it is.
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, "-c", RUNNER, sys.executable, "-m", "riskcore", *argv],
            capture_output=True,
            text=True,
            env=env,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return {"error": f"over {timeout:.0f} s"}
    wall = time.perf_counter() - t0
    lines = proc.stderr.strip().splitlines()
    peaks = [line.split()[1:] for line in lines if line.startswith("PEAK_KB ")]
    if proc.returncode not in (0, 1) or not peaks:
        errors = [line for line in lines if not line.startswith("PEAK_KB ")]
        return {"error": (errors or ["failed"])[-1][:160]}
    result: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    result["wall_s"] = wall
    result["peak_gb"] = int(peaks[-1][0]) / 1024**2
    result["cpu_s"] = float(peaks[-1][1])
    result["load"] = os.getloadavg()[0]
    return result


def main() -> int:
    from bench_engines import write_data

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=50_000_000)
    p.add_argument("--engines", default="duckdb")
    p.add_argument("--k", type=int, default=1000)
    p.add_argument("--max-suppression", default="0.02")
    p.add_argument("--dir", default=None, help="where the generated Parquet goes (kept)")
    p.add_argument("--timeout", type=float, default=1800.0)
    args = p.parse_args()
    keep = args.dir is not None
    base = Path(args.dir) if keep else Path(tempfile.mkdtemp(prefix="riskcore-bench-remediate-"))
    try:
        folder = base / f"rows_{args.rows}"
        if not (folder / "done").exists():
            t0 = time.perf_counter()
            write_data(folder, args.rows)
            (folder / "done").write_text("ok")
            print(f"(wrote {args.rows:,} rows in {time.perf_counter() - t0:.0f} s to {folder})")
        work = base / "out"
        work.mkdir(exist_ok=True)
        qi_args = [a for q in QIS for a in ("--qi", q)]
        print(
            f"{'rows':>11} {'QIs':>3} {'engine':>7} {'command':>9} {'wall s':>7} {'CPU s':>7} "
            f"{'peak GB':>7} {'load':>5}  engine's own seconds; result"
        )
        for engine in args.engines.split(","):
            out = work / f"{engine}.parquet"
            recipe = work / f"{engine}.json"
            anon = run(
                ["anonymize", str(folder), "--engine", engine, *qi_args, "--k", str(args.k),
                 "--max-suppression", args.max_suppression, "--out", str(out),
                 "--recipe-out", str(recipe), "--format", "json"],
                args.timeout,
            )  # fmt: skip
            _print(args.rows, engine, "anonymize", anon)
            if "error" in anon:
                continue
            applied = run(
                ["apply", str(folder), "--engine", engine, "--recipe", str(recipe),
                 "--out", str(work / f"{engine}-apply.parquet"), "--format", "json"],
                args.timeout,
            )  # fmt: skip
            _print(args.rows, engine, "apply", applied)
            if args.rows >= 50_000_000 and engine == "duckdb":
                wall, peak = float(anon["wall_s"]), float(anon["peak_gb"])
                ok = wall < TARGET[0] and peak < TARGET[1]
                print(
                    f"{'':>11} {'':>3} {engine:>7} anonymize {wall:.1f} s, peak {peak:.2f} GB; "
                    f"target {TARGET[0]:.0f} s / {TARGET[1]:.0f} GB: {'met' if ok else 'MISSED'}"
                )
            for f in (out, work / f"{engine}-apply.parquet"):
                f.unlink(missing_ok=True)
    finally:
        if not keep:
            shutil.rmtree(base, ignore_errors=True)
    return 0


def _print(rows: int, engine: str, command: str, r: dict[str, object]) -> None:
    if "error" in r:
        print(f"{rows:>11,} {len(QIS):>3} {engine:>7} {command:>9}  error: {r['error']}")
        return
    secs = r.get("seconds") or {}
    own = ", ".join(f"{k} {float(v):.1f}" for k, v in secs.items())  # type: ignore[union-attr]
    best = r.get("best") or {}
    suppressed = best.get("suppressed", r.get("suppressed"))  # type: ignore[union-attr]
    print(
        f"{rows:>11,} {len(QIS):>3} {engine:>7} {command:>9} {float(r['wall_s']):>7.1f} "  # type: ignore[arg-type]
        f"{float(r['cpu_s']):>7.1f} {float(r['peak_gb']):>7.2f} {float(r['load']):>5.1f}  "  # type: ignore[arg-type]
        f"{own}; levels {r['levels']}, "
        f"suppressed {suppressed:,}, {int(r['rows_written']):,} rows written"  # type: ignore[call-overload]
    )


if __name__ == "__main__":
    raise SystemExit(main())
