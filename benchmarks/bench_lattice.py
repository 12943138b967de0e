"""Benchmark the least-loss lattice search on UCI Adult (issue 13 target: under 10 s).

UCI Adult, 8 QIs (age, workclass, education, marital-status, occupation, race,
sex, native-country) with the default hierarchies (age in bands of 5, 10, 20
and 40 years; the census categories grouped; race and sex kept or "*"),
k = 5 and 2% suppression, then other targets. Prints the lattice size, the
nodes evaluated, the wall time, the least NCP found and the greedy
one-QI-at-a-time baseline's NCP.

Run: ``.venv/bin/python benchmarks/bench_lattice.py``
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from riskcore.deidentify.hierarchy import default_hierarchy  # noqa: E402
from riskcore.deidentify.lattice import Lattice, Targets  # noqa: E402
from riskcore.deidentify.search import greedy_search, search  # noqa: E402
from riskcore.io import load_table  # noqa: E402

QIS = ["age", "workclass", "education", "marital-status", "occupation", "race", "sex",
       "native-country"]  # fmt: skip
CASES = [
    ("k = 5, 2% suppression", Targets(k=5, max_suppression=0.02), ()),
    ("k = 11, 2% suppression", Targets(k=11, max_suppression=0.02), ()),
    ("k = 5, 0% suppression", Targets(k=5, max_suppression=0.0), ()),
    ("k = 5, distinct 2-diverse income, 2%", Targets(k=5, l=2, max_suppression=0.02), ("income",)),
    ("k = 5, t = 0.2 on income, 2%", Targets(k=5, t=0.2, max_suppression=0.02), ("income",)),
]


def main() -> int:
    path = ROOT.parent / "shared" / "data" / "adult.csv"
    if not path.exists():
        raise SystemExit(f"{path} is absent")
    df = load_table(path).data
    t0 = time.perf_counter()
    hierarchies = {q: default_hierarchy(df[q]) for q in QIS}
    print(f"hierarchies built in {time.perf_counter() - t0:.2f} s; heights "
          + ", ".join(f"{q} {h.height}" for q, h in hierarchies.items()))  # fmt: skip
    print(f"{'targets':<40} {'nodes':>12} {'seconds':>8} {'NCP':>7} {'greedy':>7}  levels")
    for label, targets, sensitive in CASES:
        t0 = time.perf_counter()
        lattice = Lattice(df, hierarchies, sensitive=sensitive, targets=targets)
        result = search(lattice)
        took = time.perf_counter() - t0
        greedy = greedy_search(lattice)
        best = result.best
        ncp = f"{best.ncp:.4f}" if best else "none"
        g = f"{greedy.ncp:.4f}" if greedy else "none"
        nodes = f"{result.evaluated:,}/{result.lattice_size:,}"
        ok = "  ok" if took < 10 else "  MISSED (10 s)"
        print(f"{label:<40} {nodes:>12} {took:8.2f} {ncp:>7} {g:>7}  "
              f"{best.levels if best else '-'}{ok}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
