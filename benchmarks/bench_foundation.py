"""Benchmark of the foundation: loading, start-up and the whole command line.

Prints, in one run (issue 11's targets in brackets):

1. on one 1,000,000-row CSV (census columns + 5-digit ZIPs with leading zeros):
   ``pyarrow.csv.read_csv`` vs ``riskcore.load_table`` [within 3x], and the
   whole ``python -m riskcore assess`` process on it [under 4 s];
2. ``python -m riskcore --help`` [under 0.5 s];
3. on UCI Adult (``../shared/data/adult.csv``): the whole command-line process
   [under 0.7 s] vs pycanon computing the same k, l and t in process
   [riskcore at least 10x faster] (``pip install --no-deps pycanon``; not a
   project dependency);
4. loading a 10,000,000-row Parquet file [under 3 s].

Each timed command runs in a fresh process (so imports count) and the median of
several runs is printed. Files go to ``benchmarks/out/`` (git-ignored).

Usage::

    python benchmarks/bench_foundation.py            # everything (about 3 minutes)
    python benchmarks/bench_foundation.py --skip-10m  # without the 10M-row Parquet file
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "out"
ADULT = ROOT.parent / "shared" / "data" / "adult.csv"
PY = sys.executable
ADULT_QIS = ["age", "sex", "race", "marital-status", "education", "native-country"]
ADULT_SENSITIVE = "income"


def _run(args: list[str], repeat: int) -> float:
    """Return the median wall time of a command run ``repeat`` times in fresh processes."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = subprocess.run(args, capture_output=True, text=True, cwd=ROOT)
        times.append(time.perf_counter() - t0)
        if out.returncode != 0:
            raise SystemExit(f"{' '.join(args)} failed:\n{out.stderr[-2000:]}")
    return statistics.median(times)


def _in_process(code: str) -> dict[str, float]:
    """Run ``code`` in a fresh process; it prints one JSON object of timings."""
    out = subprocess.run([PY, "-c", code], capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        raise SystemExit(f"benchmark step failed:\n{out.stderr[-3000:]}")
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def make_csv(n: int) -> Path:
    """Write (once) an n-row CSV of the demo population without direct identifiers."""
    path = OUT / f"people_{n}.csv"
    if not path.exists():
        sys.path.insert(0, str(ROOT))
        from riskcore.demo import make_people

        OUT.mkdir(parents=True, exist_ok=True)
        make_people(n, seed=0).drop(columns=["name", "ssn"]).to_csv(path, index=False)
    return path


def make_parquet(n: int) -> Path:
    """Write (once) an n-row Parquet file with dictionary-encoded text columns."""
    path = OUT / f"people_{n}.parquet"
    if not path.exists():
        sys.path.insert(0, str(ROOT))
        import pyarrow as pa
        import pyarrow.parquet as pq

        from riskcore.demo import make_people

        OUT.mkdir(parents=True, exist_ok=True)
        df = make_people(n, seed=0).drop(columns=["name", "ssn"])
        pq.write_table(pa.Table.from_pandas(df, preserve_index=False), path, use_dictionary=True)
    return path


def load_figures(csv: Path, repeat: int) -> dict[str, float]:
    """Median seconds of pyarrow's CSV reader and of riskcore.load_table on the same file."""
    code = f"""
import json, statistics, time
import pyarrow.csv as pc
from riskcore.io import load_table
path = {str(csv)!r}
pa_t, rc_t = [], []
for _ in range({repeat}):
    t0 = time.perf_counter(); pc.read_csv(path); pa_t.append(time.perf_counter() - t0)
    t0 = time.perf_counter(); t = load_table(path); rc_t.append(time.perf_counter() - t0)
print(json.dumps({{"pyarrow_s": statistics.median(pa_t), "riskcore_s": statistics.median(rc_t),
                  "rows": t.n_rows, "zip_kept": str(t.data["zip"].iloc[0])}}))
"""
    return _in_process(code)


def pycanon_figures() -> dict[str, float]:
    """Seconds pycanon needs, in process, for k, l and t on Adult (import not counted)."""
    code = f"""
import json, time
import pandas as pd
from pycanon import anonymity
df = pd.read_csv({str(ADULT)!r}, dtype=str, keep_default_na=False)
qis, s = {ADULT_QIS!r}, {ADULT_SENSITIVE!r}
t0 = time.perf_counter()
k = anonymity.k_anonymity(df, qis)
l = anonymity.l_diversity(df, qis, [s])
t = anonymity.t_closeness(df, qis, [s])
el = time.perf_counter() - t0
print(json.dumps({{"pycanon_s": el, "k": int(k), "l": int(l), "t": float(t)}}))
"""
    return _in_process(code)


def parquet_figures(path: Path, repeat: int) -> dict[str, float]:
    """Median seconds of riskcore.load_table on a Parquet file."""
    code = f"""
import json, statistics, time
from riskcore.io import LoadLimits, load_table
ts = []
for _ in range({repeat}):
    t0 = time.perf_counter()
    t = load_table({str(path)!r}, limits=LoadLimits(max_bytes=10**10, max_rows=50_000_000))
    ts.append(time.perf_counter() - t0)
print(json.dumps({{"parquet_s": statistics.median(ts), "rows": t.n_rows}}))
"""
    return _in_process(code)


def _line(label: str, value: str, target: str, ok: bool | None) -> None:
    mark = "" if ok is None else ("  ok" if ok else "  MISSED")
    print(f"{label:<58} {value:>12}   {target}{mark}")


def main() -> int:
    """Run every measurement, print the table and write benchmarks/out/foundation.json."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skip-10m", action="store_true", help="skip the 10M-row Parquet load")
    ap.add_argument("--repeat", type=int, default=3, help="runs per timing (median)")
    args = ap.parse_args()
    fig: dict[str, float] = {}

    csv = make_csv(1_000_000)
    load = load_figures(csv, args.repeat)
    fig.update(load)
    qi_args = ["--qi", "age", "--qi", "sex", "--qi", "race", "--qi", "zip"]
    fig["cli_1m_s"] = _run(
        [PY, "-m", "riskcore", "assess", str(csv), *qi_args, "--sensitive", "diagnosis"],
        args.repeat,
    )
    fig["help_s"] = _run([PY, "-m", "riskcore", "--help"], 5)
    adult_cmd = [PY, "-m", "riskcore", "assess", str(ADULT), "--format", "json"]
    for q in ADULT_QIS:
        adult_cmd += ["--qi", q]
    adult_cmd += ["--sensitive", ADULT_SENSITIVE]
    fig["cli_adult_s"] = _run(adult_cmd, 5)
    ours = json.loads(subprocess.run(adult_cmd, capture_output=True, text=True).stdout)
    fig.update(
        k=ours["k"],
        l=ours["sensitive"][ADULT_SENSITIVE]["distinct_l"],
        t=ours["sensitive"][ADULT_SENSITIVE]["t_closeness"],
    )
    try:
        peer = pycanon_figures()
        fig["pycanon_s"] = peer["pycanon_s"]
        fig["same_as_pycanon"] = float(
            (peer["k"], peer["l"]) == (fig["k"], fig["l"]) and abs(peer["t"] - fig["t"]) < 1e-9
        )
    except SystemExit as exc:
        print(f"(pycanon not measured: {str(exc).splitlines()[-1]})")
    if not args.skip_10m:
        fig.update(parquet_figures(make_parquet(10_000_000), args.repeat))

    print(f"\nFoundation benchmark ({sys.platform}, Python {sys.version.split()[0]}), medians\n")
    ratio = fig["riskcore_s"] / fig["pyarrow_s"]
    _line("1M-row CSV: pyarrow.csv.read_csv", f"{fig['pyarrow_s']:.2f} s", "", None)
    _line("1M-row CSV: riskcore.load_table", f"{fig['riskcore_s']:.2f} s", "", None)
    _line("  riskcore / pyarrow", f"{ratio:.1f}x", "<= 3x", ratio <= 3)
    _line(
        "whole CLI on the 1M-row CSV (4 QIs, 1 sensitive)",
        f"{fig['cli_1m_s']:.2f} s",
        "< 4 s",
        fig["cli_1m_s"] < 4,
    )
    _line("python -m riskcore --help", f"{fig['help_s']:.3f} s", "< 0.5 s", fig["help_s"] < 0.5)
    _line(
        f"whole CLI on UCI Adult ({len(ADULT_QIS)} QIs, k / l / t of income)",
        f"{fig['cli_adult_s']:.2f} s",
        "< 0.7 s",
        fig["cli_adult_s"] < 0.7,
    )
    if "pycanon_s" in fig:
        speed = fig["pycanon_s"] / fig["cli_adult_s"]
        same = "same" if fig["same_as_pycanon"] else "DIFFERENT"
        _line(f"pycanon in process ({same} k / l / t)", f"{fig['pycanon_s']:.2f} s", "", None)
        _line("  pycanon / whole riskcore process", f"{speed:.0f}x", ">= 10x", speed >= 10)
    if "parquet_s" in fig:
        _line(
            "10M-row Parquet: riskcore.load_table",
            f"{fig['parquet_s']:.2f} s",
            "< 3 s",
            fig["parquet_s"] < 3,
        )
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "foundation.json").write_text(json.dumps(fig, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
