"""Benchmark: issue 28's figures in one run: the search and the whole CLI against ARX, the nodes
evaluated, then the 50M-row remediation through DuckDB.

It runs, one after the other and each as its own process (so that one's memory does not
weigh on the other):

1. ``benchmarks/bench_arx.py``: our least-loss search and ``riskcore anonymize`` against ARX
   3.9.2 on ARX's Adult (k = 5, precision, 0 / 2 / 4% suppression), wall and CPU time and the
   nodes evaluated; it says how to build ARX when no build is found (see its docstring:
   ``benchmarks/arx/build_arx.sh``);
2. ``benchmarks/bench_remediate_engines.py``: ``anonymize`` and ``apply`` of 50M rows x 5 QIs
   from Parquet through DuckDB, wall, CPU and peak memory, against the target of 60 s and 4 GB.

Run: ``.venv/bin/python benchmarks/bench_remediation.py`` (``--rows N`` for a smaller engine
run, ``--engines duckdb,arrow`` for more engines). It takes about five minutes on two free
cores; on a shared machine the wall times stretch, the CPU times much less.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    """Run both benchmarks; return the first non-zero exit status, else 0."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", default="50000000", help="rows of the engine run (default 50M)")
    p.add_argument("--engines", default="duckdb", help="engines of the engine run")
    args = p.parse_args(argv)
    runs = (
        ("Search and whole CLI against ARX 3.9.2", [str(HERE / "bench_arx.py")]),
        (
            f"Remediation of {int(args.rows):,} rows x 5 QIs from Parquet",
            [str(HERE / "bench_remediate_engines.py"), "--rows", args.rows,
             "--engines", args.engines],
        ),
    )  # fmt: skip
    status = 0
    for title, cmd in runs:
        print(f"\n## {title}\n", flush=True)
        rc = subprocess.run([sys.executable, *cmd], check=False).returncode
        status = status or rc
    return status


if __name__ == "__main__":
    raise SystemExit(main())
