"""Benchmark: ``suggest_roles`` on 1,000,000 rows x 15 columns (UCI Adult's columns).

Builds the table by repeating ``shared/data/adult.csv`` (UCI Adult, 32,561
rows; see its README) to 1,000,000 rows, once with the
loader's column types (categoricals) and once as pandas reads it (text), and
prints the median of 5 runs of ``suggest_roles`` with the suggested QIs and
the redundant pairs.

Usage::

    python benchmarks/bench_roles.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from riskcore.io import load_table  # noqa: E402
from riskcore.roles import suggest_roles  # noqa: E402

N = 1_000_000
ADULT = ROOT.parent / "shared" / "data" / "adult.csv"


def tables() -> dict[str, pd.DataFrame]:
    """Return the typed and the text 1M-row tables."""
    if not ADULT.exists():
        sys.exit(f"{ADULT} is missing: this benchmark needs the UCI Adult reference file")
    typed, text = load_table(ADULT).data, pd.read_csv(ADULT)
    reps = -(-N // len(typed))
    return {
        label: pd.concat([t] * reps, ignore_index=True).iloc[:N].reset_index(drop=True)
        for label, t in (("loader types", typed), ("pandas text", text))
    }


def main() -> None:
    for label, df in tables().items():
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            s = suggest_roles(df)
            times.append(time.perf_counter() - t0)
        qis = [c for c, x in s.items() if x.role == "quasi_identifier"]
        print(
            f"{label:>13}: {df.shape[0]:,} x {df.shape[1]}  median {statistics.median(times):.3f} s"
            f"  QIs {qis}  redundant {list(s.pairs)}"
        )


if __name__ == "__main__":
    main()
