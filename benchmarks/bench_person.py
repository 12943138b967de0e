"""Benchmark: assess with and without a person column, 10M claims rows of 1M people.

The issue's target (issue 36): ``assess --person`` on 10 million rows of 1 million
people costs at most twice ``assess`` without it. The data are claims-like
(:func:`riskcore.demo.claims.make_claims`'s columns, generated directly in numpy to
keep generation fast): a text patient id (``P`` and 7 digits, each person's rows
spread at random over the files), a skewed 5-digit ZIP, sex and race constant per
person, the age at the visit (it changes at the person's birthday, so some people
hold two QI tuples), a diagnosis code and a provider (sensitive), written once as
Parquet files with 1M-row row groups.

Each engine runs in a fresh process: the memory engine loads the files with the
project's loader (``load`` seconds, not in the assessment's time) and assesses a
fresh :class:`~riskcore.engine.EncodedTable` each time (so each run encodes its
columns, the person column included); DuckDB and the Arrow stream read the files
each time. The runs without and with the person alternate, ``--repeat`` times; the
medians of wall time and of the process's CPU time (user + system, every thread)
are printed with the ratios "with person / without" (CPU time is the steadier
figure when other work shares the cores), and every wall time.

Usage::

    python benchmarks/bench_person.py                      # 10M rows, 1M people, memory + duckdb
    python benchmarks/bench_person.py --engines memory,duckdb,arrow --repeat 3
    python benchmarks/bench_person.py --rows 1000000 --people 100000   # a quick look
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from bench_engines import run_code

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QIS = ["zip", "sex", "race", "age"]
SENSITIVE = ["diagnosis", "provider"]
PERSON = "patient_id"
CHUNK = 1_000_000


def write_data(folder: Path, rows: int, people: int, seed: int = 0) -> Path:
    """Write ``rows`` claims of ``people`` patients as Parquet files of 1M-row row groups."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from riskcore.demo.claims import CLAIM_DIAGNOSES

    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    ids = pa.array([f"P{i:07d}" for i in rng.permutation(people) + 1_000_000])
    zips = np.array([f"{z:05d}" for z in rng.choice(100_000, 20_000, replace=False)])
    zip_p = 1.0 / np.arange(1, len(zips) + 1) ** 0.7
    person_zip = rng.choice(len(zips), people, p=zip_p / zip_p.sum())
    person_sex = rng.integers(0, 2, people)
    person_race = rng.choice(5, people, p=[0.6, 0.15, 0.12, 0.08, 0.05])
    person_age = rng.integers(0, 90, people)  # age at the start of the year
    birthday = rng.integers(0, 365, people)  # day of the year
    codes = pa.array([c for c, _ in CLAIM_DIAGNOSES])
    weights = np.array([w for _, w in CLAIM_DIAGNOSES])
    providers = pa.array([f"PRV{i:03d}" for i in range(60)])
    usual = rng.integers(0, 60, people)
    written = 0
    part = 0
    while written < rows:
        n = min(10 * CHUNK, rows - written)
        path = folder / f"part-{part:03d}.parquet"
        writer = None
        for start in range(0, n, CHUNK):
            m = min(CHUNK, n - start)
            who = rng.integers(0, people, m)  # a person's rows anywhere in the files
            day = rng.integers(0, 365, m)
            age = person_age[who] + (day >= birthday[who])
            provider = np.where(rng.random(m) < 0.7, usual[who], rng.integers(0, 60, m))
            cols = {
                PERSON: pc.cast(
                    pa.DictionaryArray.from_arrays(who.astype(np.int32), ids), pa.string()
                ),
                "zip": pa.DictionaryArray.from_arrays(
                    person_zip[who].astype(np.int32), pa.array(zips)
                ),
                "sex": pa.DictionaryArray.from_arrays(
                    person_sex[who].astype(np.int32), pa.array(["F", "M"])
                ),
                "race": pa.DictionaryArray.from_arrays(
                    person_race[who].astype(np.int32),
                    pa.array(["White", "Black", "Hispanic", "Asian", "Other"]),
                ),
                "age": pa.array(age.astype(np.int16)),
                "diagnosis": pa.DictionaryArray.from_arrays(
                    rng.choice(len(codes), m, p=weights / weights.sum()).astype(np.int32), codes
                ),
                "provider": pa.DictionaryArray.from_arrays(provider.astype(np.int32), providers),
            }
            table = pa.table(cols)
            if writer is None:
                writer = pq.ParquetWriter(path, table.schema)
            writer.write_table(table, row_group_size=CHUNK)
        if writer is not None:
            writer.close()
        written += n
        part += 1
    return folder


WORKER = r"""
import gc, json, resource, statistics, sys, time
sys.path.insert(0, {root!r})
engine_name, source, qis, sens, person, repeat = (
    {engine!r}, {source!r}, {qis!r}, {sens!r}, {person!r}, {repeat!r})
import pandas as pd
from riskcore.metrics import assess
# imports and first calls paid before the clock starts
assess(pd.DataFrame({{"a": [1, 1, 2], "s": [1, 2, 2], "p": [1, 1, 2]}}), quasi_identifiers=["a"],
       sensitive=["s"], person="p")
out = {{}}
if engine_name == "memory":
    import glob
    import pandas as pd
    from riskcore.engine import EncodedTable
    from riskcore.io import LoadLimits, load_table
    t0 = time.perf_counter()
    limits = LoadLimits(max_bytes=10**11, max_rows=10**9)
    frames = [load_table(f, limits=limits).data for f in sorted(glob.glob(source + "/*.parquet"))]
    df = frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)
    out["load_s"] = time.perf_counter() - t0
    out["person_dtype"] = str(df[person].dtype)
    def engine():
        return EncodedTable(df)
elif engine_name == "duckdb":
    from riskcore.engine.duck import DuckDBEngine
    def engine():
        return DuckDBEngine(source)
else:
    from riskcore.engine.arrow import ArrowEngine
    def engine():
        return ArrowEngine(source)
runs = {{"rows": [], "people": []}}
for _ in range(repeat):  # alternated, so a busy spell of the machine hits both
    for label, who in (("rows", None), ("people", person)):
        gc.collect()
        t0, c0 = time.perf_counter(), time.process_time()
        a = assess(engine(), quasi_identifiers=qis, sensitive=sens, person=who)
        runs[label].append((time.perf_counter() - t0, time.process_time() - c0))
        out[label] = {{"k": a.k, "classes": a.n_classes, "units": int(a.classes.sizes.sum()),
                       "rows": int(a.classes.n_rows)}}
        del a
for label, got in runs.items():
    out[label]["walls"] = [w for w, _ in got]
    out[label]["cpus"] = [c for _, c in got]
    out[label]["median"] = statistics.median(out[label]["walls"])
    out[label]["cpu"] = statistics.median(out[label]["cpus"])
out["peak_gb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2
print(json.dumps(out))
"""


def run(engine: str, source: Path, repeat: int, timeout: float) -> dict[str, object]:
    """Run one engine in a fresh process; return its figures."""
    code = WORKER.format(
        root=str(ROOT),
        engine=engine,
        source=str(source),
        qis=QIS,
        sens=SENSITIVE,
        person=PERSON,
        repeat=repeat,
    )
    return run_code(code, timeout)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=10_000_000)
    p.add_argument("--people", type=int, default=1_000_000)
    p.add_argument("--engines", default="memory,duckdb")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--dir", default=None, help="where the generated Parquet goes (kept)")
    p.add_argument("--timeout", type=float, default=1800.0)
    args = p.parse_args()
    base = Path(args.dir) if args.dir else Path(tempfile.gettempdir()) / "riskcore_bench_person"
    folder = base / f"rows_{args.rows}_people_{args.people}"
    if not (folder / "done").exists():
        t0 = time.perf_counter()
        write_data(folder, args.rows, args.people)
        (folder / "done").write_text("ok")
        print(f"(wrote {args.rows:,} rows of {args.people:,} people in "
              f"{time.perf_counter() - t0:.0f} s to {folder})")  # fmt: skip
    print(f"QIs {', '.join(QIS)}; sensitive {', '.join(SENSITIVE)}; median of {args.repeat}")
    print(
        f"{'engine':>7} {'rows s':>8} {'people s':>9} {'ratio':>6} {'rows cpu':>9} "
        f"{'people cpu':>11} {'ratio':>6} {'classes':>10} {'people':>10} {'k':>3} {'peak GB':>8}"
    )
    for engine in args.engines.split(","):
        r = run(engine, folder, args.repeat, args.timeout)
        if "error" in r:
            print(f"{engine:>7}  error: {r['error']}")
            continue
        rows, people = r["rows"], r["people"]
        assert isinstance(rows, dict) and isinstance(people, dict)
        ratio = people["median"] / rows["median"]
        cpu_ratio = people["cpu"] / rows["cpu"]
        print(
            f"{engine:>7} {rows['median']:>8.2f} {people['median']:>9.2f} {ratio:>6.2f} "
            f"{rows['cpu']:>9.2f} {people['cpu']:>11.2f} {cpu_ratio:>6.2f} "
            f"{people['classes']:>10,} {people['units']:>10,} {people['k']:>3} "
            f"{float(r['peak_gb']):>8.2f}"  # type: ignore[arg-type]
        )
        note = f"; load {r['load_s']:.1f} s, person {r['person_dtype']}" if "load_s" in r else ""
        print(f"{'':>7} wall: rows {[round(w, 2) for w in rows['walls']]}, "
              f"people {[round(w, 2) for w in people['walls']]}{note}; "
              f"target (wall ratio <= 2): {'met' if ratio <= 2 else 'MISSED'}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
