"""Benchmark of riskcore.perturb: MDAV and local suppression on UCI Adult, testdata2 vs sdcMicro.

Prints:

- MDAV (:func:`riskcore.perturb.microaggregate`) on the 30,162 complete cases of
  ``../shared/data/adult.csv`` x 3 numeric columns (age, education-num,
  hours-per-week) at k = 5: time and groups;
- local suppression (:func:`riskcore.perturb.local_suppression`) on all 32,561 rows
  x 8 QIs (those of ``bench_suda.py``) at k = 2, 3 and 5, default importance: time,
  cells blanked by the suppression rounds alone and after restoring, rounds;
- on sdcMicro's ``testdata2`` (seven key variables, default importance), the cells
  riskcore blanks at k = 2..5 against sdcMicro's: its own test's 97 at k = 2 and,
  for every k, the plain-loop re-implementation of its source in
  ``tests/riskcore/sdc_reference.py`` (which reproduces the 97).

Usage::

    python benchmarks/bench_perturb.py [--adult PATH] [--ks 2 3 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from riskcore.perturb import default_importance, local_suppression, microaggregate  # noqa: E402
from tests.riskcore.sdc_reference import suppress_like_sdcmicro  # noqa: E402

ADULT = ROOT.parent / "shared" / "data" / "adult.csv"
QIS_8 = [
    "age",
    "workclass",
    "education",
    "marital-status",
    "occupation",
    "race",
    "sex",
    "native-country",
]
NUMERIC = ["age", "education-num", "hours-per-week"]
KEYS = ["urbrur", "roof", "walls", "water", "electcon", "relat", "sex"]


def main() -> None:
    """Run the three benchmarks and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adult", type=Path, default=ADULT)
    parser.add_argument("--ks", type=int, nargs="+", default=[2, 3, 5])
    args = parser.parse_args()
    adult = pd.read_csv(args.adult)

    complete = adult.dropna().reset_index(drop=True)
    start = time.perf_counter()
    res = microaggregate(complete, NUMERIC, 5)
    took = time.perf_counter() - start
    print(
        f"MDAV {len(complete):,} x {len(NUMERIC)} k=5: {took:.1f} s, {res.n_groups:,} groups "
        f"of {res.smallest_group}-{res.largest_group}"
    )

    for k in args.ks:
        start = time.perf_counter()
        res = local_suppression(adult, QIS_8, k)
        took = time.perf_counter() - start
        start = time.perf_counter()
        rounds_only = local_suppression(adult, QIS_8, k, restore_cells=False)
        took_rounds = time.perf_counter() - start
        print(
            f"local suppression {len(adult):,} x {len(QIS_8)} k={k}: {took:.1f} s, "
            f"{res.total_suppressed:,} cells ({res.rounds} rounds + {res.restore_rounds} "
            f"restoring); rounds alone {took_rounds:.1f} s, {rounds_only.total_suppressed:,} cells"
        )

    testdata2 = pd.read_csv(ROOT / "tests" / "data" / "sdcmicro" / "testdata2.csv")
    imp = default_importance(testdata2, KEYS)
    print("testdata2, default importance: k, riskcore, rounds alone, sdcMicro")
    for k in (2, 3, 4, 5):
        ours = local_suppression(testdata2, KEYS, k).total_suppressed
        alone = local_suppression(testdata2, KEYS, k, restore_cells=False).total_suppressed
        ref = suppress_like_sdcmicro(testdata2[KEYS].to_numpy(), k, [imp[q] for q in KEYS])
        print(f"  k={k}: {ours}, {alone}, {int(np.isnan(ref).sum())}")


if __name__ == "__main__":
    main()
