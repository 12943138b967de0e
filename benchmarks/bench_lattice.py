"""Benchmark the least-loss lattice search on UCI Adult (issue 13 target: under 10 s).

UCI Adult, 8 QIs (age, workclass, education, marital-status, occupation, race,
sex, native-country) with the default hierarchies (age in bands of 5, 10, 20
and 40 years; the census categories grouped; race and sex kept or "*"),
k = 5 and 2% suppression, then other targets. Prints the lattice size, the
nodes evaluated, the wall time, the least NCP found and the greedy
one-QI-at-a-time baseline's NCP.

A second section (issue 28) runs ARX's Adult setting: the complete cases of
the UCI file (/work/shared/data/uci_adult/adult.data without the rows holding
'?': 30,162 rows), 9 QIs (sex, age, race, marital-status, education,
native-country, workclass, occupation, salary-class), k = 5, suppression 0%,
2%, 4%, objective precision, with ARX's hierarchy CSVs read through the
command line's ``--hierarchy COL=FILE`` reader when they are present
(``--arx-data DIR``, default /work/arx/data, files
``adult_hierarchy_<column>.csv`` as in ARX's ``data/`` folder), else the
project's default hierarchies. It prints, per limit, the nodes evaluated and
the search's wall time without predictive tagging (the plain branch and
bound, as before issue 28) and with it, and ARX's figures measured with ARX
3.9.2 (issue 28; ARX built from arx-deidentifier/arx with its ``lib/`` jars,
run in a warm JVM).

Run: ``.venv/bin/python benchmarks/bench_lattice.py [--arx-data DIR] [--only-arx]``
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from riskcore.criteria import Targets  # noqa: E402
from riskcore.deidentify.hierarchy import default_hierarchy  # noqa: E402
from riskcore.deidentify.search.lattice import Lattice  # noqa: E402
from riskcore.deidentify.search.run import greedy_search, search  # noqa: E402
from riskcore.io import load_table  # noqa: E402

QIS = ["age", "workclass", "education", "marital-status", "occupation", "race", "sex",
       "native-country"]  # fmt: skip
CASES = [
    ("k = 5, 2% suppression", Targets.of(k=5, max_suppression=0.02), ()),
    ("k = 11, 2% suppression", Targets.of(k=11, max_suppression=0.02), ()),
    ("k = 5, 0% suppression", Targets.of(k=5, max_suppression=0.0), ()),
    (
        "k = 5, distinct 2-diverse income, 2%",
        Targets.of(k=5, l=2, max_suppression=0.02),
        ("income",),
    ),
    ("k = 5, t = 0.2 on income, 2%", Targets.of(k=5, t=0.2, max_suppression=0.02), ("income",)),
]


ARX_QIS = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass",
           "occupation", "salary-class"]  # fmt: skip
UCI_COLUMNS = ["age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
               "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
               "hours-per-week", "native-country", "salary-class"]  # fmt: skip
#: ARX 3.9.2 on the same setting with its own hierarchies (issue 28): nodes, search seconds.
ARX_FIGURES = {0.0: (181, 0.11), 0.02: (2_822, 1.75), 0.04: (2_276, 1.28)}


def _shared(name: str) -> Path:
    """Return a reference data file beside the checkout (or /work/shared/data from a worktree)."""
    near = ROOT.parent / "shared" / "data" / name
    return near if near.exists() else Path("/work/shared/data") / name


def arx_adult(arx_data: Path) -> None:
    """Print the search on ARX's Adult setting, without and with predictive tagging."""
    import pandas as pd

    from riskcore.cli.release import hierarchies_of as _hierarchies

    raw = _shared("uci_adult/adult.data")
    if not raw.exists():
        print(f"{raw} is absent: ARX's Adult setting skipped")
        return
    df = pd.read_csv(raw, header=None, names=UCI_COLUMNS, skipinitialspace=True, dtype=str)
    df = df[~(df == "?").any(axis=1)].reset_index(drop=True)
    files = {q: arx_data / f"adult_hierarchy_{q}.csv" for q in ARX_QIS}
    given = all(f.exists() for f in files.values())
    args = argparse.Namespace(
        hierarchy=[f"{q}={f}" for q, f in files.items()] if given else [],
        intervals=[],
        clip=[],
        qi=ARX_QIS,
        sensitive=[],
    )
    if not given:  # the default hierarchies read age as a number
        df["age"] = pd.to_numeric(df["age"])
    hierarchies = _hierarchies(df, args)
    source = f"ARX's hierarchies from {arx_data}" if given else "our default hierarchies"
    print(f"\nARX's Adult: {len(df):,} rows, 9 QIs, k = 5, precision; {source}; heights "
          + ", ".join(f"{q} {h.height}" for q, h in hierarchies.items()))  # fmt: skip
    print(
        f"{'suppression':<12} {'nodes before':>12} {'s before':>9} {'nodes after':>12} "
        f"{'s after':>8} {'ARX nodes':>10} {'ARX s':>6}  optimum (precision, suppressed)"
    )
    for limit in (0.0, 0.02, 0.04):
        lattice = Lattice(df, hierarchies, targets=Targets.of(k=5, max_suppression=limit))
        plain = search(lattice, objective="precision", tagging=False, alternatives=False)
        tagged = search(lattice, objective="precision", alternatives=False)
        assert plain.best is not None and tagged.best is not None
        assert plain.best.levels == tagged.best.levels  # the same optimum, ties and all
        arx_nodes, arx_s = ARX_FIGURES[limit]
        print(f"{limit:<12.0%} {plain.needed:>12,} {plain.seconds:>9.2f} {tagged.needed:>12,} "
              f"{tagged.seconds:>8.2f} {arx_nodes:>10,} {arx_s:>6.2f}  {tagged.best.levels} "
              f"({tagged.best.precision:.4f}, {tagged.best.suppressed:,})")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arx-data", type=Path, default=Path("/work/arx/data"))
    parser.add_argument("--only-arx", action="store_true", help="only ARX's Adult setting")
    opts = parser.parse_args()
    if not opts.only_arx:
        issue13()
    arx_adult(opts.arx_data)
    return 0


def issue13() -> None:
    path = _shared("adult.csv")
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


if __name__ == "__main__":
    raise SystemExit(main())
