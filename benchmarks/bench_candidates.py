"""Benchmark the candidate solutions and utility views after a search (issue 29, items 3-4).

Target: the candidate table (with its display frame) and the comparison of two candidates
render within 2 s after the search, for UCI Adult at 8 QIs (up to 7,776 nodes) and the
hospital table (5,000 rows; date of birth, ZIP, sex).

Per table it prints the search's time, then the time of ``candidate_table`` + ``frame`` +
``candidate_display`` on the nodes the search evaluated, the same on every node of the
lattice (:func:`evaluate_all`, as the page does for lattices up to 3,000 nodes; for Adult
this is the worst case of 7,776 nodes, the evaluation itself not timed), and the comparison
of the first two candidates (``compare_candidates``: per-column NCP, records at risk, a
sample). Then the utility views at the search's optimum: the release, the per-column change
of the QIs and sensitive attribute, one column's value counts, a two-way table, and the
naive Bayes trained before and after.

Run: ``.venv/bin/python benchmarks/bench_candidates.py [--no-all]``
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

from riskcore.criteria import Targets  # noqa: E402
from riskcore.deidentify.hierarchy import default_hierarchy  # noqa: E402
from riskcore.deidentify.search.candidates import (  # noqa: E402
    MAX_ROWS,
    candidate_table,
    compare_candidates,
)
from riskcore.deidentify.search.lattice import Lattice  # noqa: E402
from riskcore.deidentify.search.run import evaluate_all, search  # noqa: E402
from riskcore.io import load_table  # noqa: E402
from riskcore.report.readings.candidates import candidate_display  # noqa: E402
from riskcore.utility.tables import (  # noqa: E402
    classification_utility,
    column_change,
    two_way,
    value_counts,
)

ADULT_QIS = ["age", "workclass", "education", "marital-status", "occupation", "race", "sex",
             "native-country"]  # fmt: skip
THRESHOLD = 1 / 11


def _adult() -> pd.DataFrame:
    near = ROOT.parent / "shared" / "data" / "adult.csv"
    path = near if near.exists() else Path("/work/shared/data/adult.csv")
    return pd.read_csv(path)


def _hospital() -> pd.DataFrame:
    from tests.hospital import hospital_csv

    return load_table(hospital_csv()).data


def _time(f):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    out = f()
    return out, time.perf_counter() - start


def bench(name: str, data: pd.DataFrame, qis: list[str], sensitive: str, targets: Targets,
          every: bool) -> None:  # fmt: skip
    """Print the figures of one table."""
    hier = {q: default_hierarchy(data[q]) for q in qis}
    lat = Lattice(data, hier, sensitive=[sensitive], targets=targets)
    found, secs = _time(lambda: search(lat))
    print(f"\n{name}: {len(data):,} rows, {len(qis)} QIs, lattice {lat.size:,} nodes; "
          f"search {secs:.2f} s, {found.evaluated:,} nodes evaluated")  # fmt: skip

    def table(result):  # type: ignore[no-untyped-def]
        t = candidate_table(result, hier, lattice=lat, threshold=THRESHOLD)
        candidate_display(t)
        return t

    t, secs = _time(lambda: table(found))
    print(f"  candidate table of the search's nodes: {secs:.3f} s ({t.anonymous:,} anonymous, "
          f"{len(t.rows):,} rows{', Pareto front' if t.front_only else ''})")  # fmt: skip
    if every:
        allr = dataclasses.replace(found, visited=evaluate_all(lat, known=found.visited))
        t, secs = _time(lambda: table(allr))
        print(f"  candidate table of all {allr.evaluated:,} nodes: {secs:.3f} s "
              f"({t.anonymous:,} anonymous, {len(t.rows):,} rows"
              f"{', Pareto front' if t.front_only else ''})")  # fmt: skip
        if t.front_only:  # the longest table listed: MAX_ROWS anonymous nodes, no front
            some = [r for r in allr.visited if r.anonymous][:MAX_ROWS]
            sub = dataclasses.replace(allr, visited=tuple(some))
            wide, secs = _time(lambda: table(sub))
            print(f"  the longest table listed, {len(wide.rows):,} rows (MAX_ROWS): {secs:.3f} s")
    if len(t.rows) >= 2:
        _, secs = _time(
            lambda: compare_candidates(lat, data, t.rows[0].levels, t.rows[1].levels,
                                       threshold=THRESHOLD)
        )  # fmt: skip
        print(f"  comparison of two candidates: {secs:.3f} s")
    if found.best is None:
        return
    after, secs = _time(lambda: lat.apply(data, found.best.levels))
    print(f"  utility at the optimum: release {secs:.3f} s", end="")
    _, secs = _time(lambda: [column_change(data, after, c) for c in [*qis, sensitive]])
    print(f", per-column change {secs:.3f} s", end="")
    _, secs = _time(lambda: value_counts(data[qis[0]], after[qis[0]]))
    print(f", value counts {secs:.3f} s", end="")
    _, secs = _time(lambda: two_way(data, after, qis[0], sensitive))
    print(f", two-way table {secs:.3f} s", end="")
    cu, secs = _time(lambda: classification_utility(data, after, sensitive, qis))
    print(f", naive Bayes {secs:.3f} s (accuracy {cu.accuracy_before:.1%} -> "
          f"{cu.accuracy_after:.1%})")  # fmt: skip


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-all", action="store_true",
                        help="skip evaluating every node (about 1 ms a node)")  # fmt: skip
    args = parser.parse_args()
    every = not args.no_all
    bench("UCI Adult", _adult(), ADULT_QIS, "income",
          Targets.of(k=5, max_suppression=0.02), every)  # fmt: skip
    bench("Hospital", _hospital(), ["date_of_birth", "zip", "sex"], "diagnosis",
          Targets.of(k=11, threshold=THRESHOLD, max_suppression=0.02), every)  # fmt: skip


if __name__ == "__main__":
    main()
