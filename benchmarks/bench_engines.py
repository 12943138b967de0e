"""Benchmark: one assessment from Parquet on every engine, 10M and 50M rows x 3 / 5 / 7 QIs.

Each configuration runs in a fresh process: wall time of the whole
assessment (opening the files, the group-by, every k / l / t / risk figure
of two sensitive attributes) and the peak resident memory of that process
and its children (Spark's JVM). The data are Adult-like (the QI order of
``../shared/notes/performance.md``: age, sex, race, marital status,
education, workclass, a skewed 5-digit ZIP; occupation and income
sensitive), written once into a directory of Parquet files with 1M-row row
groups and dictionary-encoded text.

Targets (issue 16): 50M x 5 QIs from Parquet under 5 s and 2 GB; 50M x 7
QIs under 30 s within 12 GB; the in-memory path does not regress.

Usage::

    python benchmarks/bench_engines.py        # 10M and 50M rows; arrow, duckdb, pandas
    python benchmarks/bench_engines.py --rows 10000000 --engines arrow,duckdb,spark,pandas
    python benchmarks/bench_engines.py --rows 50000000 --qis 5,7 --engines arrow --repeat 5
"""

from __future__ import annotations

import argparse
import json
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
    5: ["age", "sex", "race", "marital_status", "education"],
    7: ["age", "sex", "race", "marital_status", "education", "workclass", "zip"],
}
SENSITIVE = ["occupation", "income"]
CHUNK = 1_000_000


def write_data(folder: Path, rows: int, seed: int = 0) -> Path:
    """Write ``rows`` Adult-like rows as Parquet files of at most 10M rows (1M-row groups)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    cats = {
        "sex": ["Female", "Male"],
        "race": ["White", "Black", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other"],
        "marital_status": [
            "Married",
            "Never-married",
            "Divorced",
            "Separated",
            "Widowed",
            "Married-spouse-absent",
            "Married-AF-spouse",
        ],
        "education": [f"edu-{i}" for i in range(16)],
        "workclass": [f"work-{i}" for i in range(9)],
        "occupation": [f"occ-{i}" for i in range(15)],
    }
    zips = np.array([f"{z:05d}" for z in rng.choice(100_000, 30_000, replace=False)])
    zip_p = 1.0 / np.arange(1, len(zips) + 1) ** 0.6
    zip_p /= zip_p.sum()
    written = 0
    part = 0
    writer = None
    while written < rows:
        n = min(CHUNK, rows - written)
        if writer is None or written % 10_000_000 == 0:
            if writer is not None:
                writer.close()
            path = folder / f"part-{part:03d}.parquet"
            part += 1
            writer = None
        cols = {"age": pa.array(rng.integers(17, 91, n), type=pa.int16())}
        for name, values in cats.items():
            p = rng.dirichlet(np.ones(len(values))) if name != "sex" else [0.5, 0.5]
            idx = rng.choice(len(values), n, p=p).astype(np.int32)
            cols[name] = pa.DictionaryArray.from_arrays(idx, pa.array(values))
        cols["zip"] = pa.DictionaryArray.from_arrays(
            rng.choice(len(zips), n, p=zip_p).astype(np.int32), pa.array(zips)
        )
        cols["income"] = pa.array(np.round(rng.lognormal(10, 0.5, n), -3))
        table = pa.table(cols)
        if writer is None:
            writer = pq.ParquetWriter(path, table.schema)
        writer.write_table(table, row_group_size=CHUNK)
        written += n
    if writer is not None:
        writer.close()
    return folder


WORKER = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
engine_name, source, qis, sens = {engine!r}, {source!r}, {qis!r}, {sens!r}
t0 = time.perf_counter()
from riskcore.metrics import assess
if engine_name == "pandas":
    import pandas as pd, glob
    from riskcore.engine import EncodedTable
    from riskcore.io import LoadLimits, load_table
    limits = LoadLimits(max_bytes=10**11, max_rows=10**9)
    frames = [load_table(f, limits=limits).data for f in sorted(glob.glob(source + "/*.parquet"))]
    df = frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)
    t_load = time.perf_counter() - t0
    engine = EncodedTable(df)
elif engine_name == "arrow":
    from riskcore.engine.arrow import ArrowEngine
    engine = ArrowEngine(source)
elif engine_name == "duckdb":
    from riskcore.engine.duck import DuckDBEngine
    engine = DuckDBEngine(source)
else:
    from riskcore.engine.spark import SparkEngine, local_session
    t_s = time.perf_counter()
    session = local_session("local[2]")
    start = time.perf_counter() - t_s
    engine = SparkEngine(source, session=session)
a = assess(engine, quasi_identifiers=qis, sensitive=sens)
wall = time.perf_counter() - t0
out = {{"wall_s": wall, "k": a.k, "classes": a.n_classes, "records": a.n_records}}
if engine_name == "spark":
    out["session_start_s"] = start
    session.stop()
if engine_name == "pandas":
    out["load_s"] = t_load
peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
           resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
out["peak_gb"] = peak / 1024**2
print(json.dumps(out))
"""


def run(engine: str, source: Path, n_qis: int, timeout: float) -> dict[str, object]:
    """Run one configuration in a fresh process; return its figures."""
    code = WORKER.format(
        root=str(ROOT), engine=engine, source=str(source), qis=QI_SETS[n_qis], sens=SENSITIVE
    )
    return run_code(code, timeout)


def run_code(code: str, timeout: float) -> dict[str, object]:
    """Run a worker's code in a fresh Python; return the JSON of its last line, or an error."""
    try:
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return {"error": f"over {timeout:.0f} s"}
    if out.returncode != 0:
        return {"error": (out.stderr.strip().splitlines() or ["failed"])[-1][:120]}
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", default="10000000,50000000")
    p.add_argument("--qis", default="3,5,7")
    p.add_argument("--engines", default="arrow,duckdb,pandas")
    p.add_argument("--dir", default=None, help="where the generated Parquet goes (kept)")
    p.add_argument("--timeout", type=float, default=900.0)
    p.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="runs per configuration (each in a fresh process); every run is printed and the "
        "median judged against the target",
    )
    args = p.parse_args()
    base = Path(args.dir) if args.dir else Path(tempfile.gettempdir()) / "riskcore_bench_engines"
    print(
        f"{'rows':>11} {'QIs':>3} {'engine':>7} {'wall s':>8} {'peak GB':>8} {'classes':>10}  note"
    )
    for rows in (int(r) for r in args.rows.split(",")):
        folder = base / f"rows_{rows}"
        if not (folder / "done").exists():
            t0 = time.perf_counter()
            write_data(folder, rows)
            (folder / "done").write_text("ok")
            print(f"(wrote {rows:,} rows in {time.perf_counter() - t0:.0f} s to {folder})")
        for n_qis in (int(q) for q in args.qis.split(",")):
            seen: set[tuple[object, object]] = set()
            for engine in args.engines.split(","):
                walls: list[float] = []
                peaks: list[float] = []
                for _ in range(max(args.repeat, 1)):
                    r = run(engine, folder, n_qis, args.timeout)
                    if "error" in r:
                        print(f"{rows:>11,} {n_qis:>3} {engine:>7}  error: {r['error']}")
                        continue
                    seen.add((r["k"], r["classes"]))
                    note = ""
                    if engine == "spark":
                        note = f"session start {float(r['session_start_s']):.1f} s (included)"
                    if engine == "pandas":
                        note = f"load {float(r['load_s']):.1f} s (included)"
                    wall, peak = float(r["wall_s"]), float(r["peak_gb"])
                    walls.append(wall)
                    peaks.append(peak)
                    print(
                        f"{rows:>11,} {n_qis:>3} {engine:>7} {wall:>8.2f} {peak:>8.2f} "
                        f"{int(r['classes']):>10,}  {note}"  # type: ignore[call-overload]
                    )
                if walls and rows >= 50_000_000 and n_qis in (5, 7) and engine != "pandas":
                    limit = (5.0, 2.0) if n_qis == 5 else (30.0, 12.0)
                    wall, peak = statistics.median(walls), max(peaks)
                    ok = wall < limit[0] and peak < limit[1]
                    print(
                        f"{'':>11} {'':>3} {engine:>7} median of {len(walls)}: {wall:.2f} s, "
                        f"peak {peak:.2f} GB; target {limit[0]:.0f} s / {limit[1]:.0f} GB: "
                        f"{'met' if ok else 'MISSED'}"
                    )
            if len(seen) > 1:
                print(f"  ENGINES DISAGREE on (k, classes): {sorted(seen)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
