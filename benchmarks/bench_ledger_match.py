"""Measure the people match of the privacy ledgers: true matches and false matches.

For each base table (the UCI Adult file, the hospital test table at 400 and
5,000 rows, the demo people table) a ledger sketch is made
(:meth:`riskcore.dp.people.TableProbe.sketch`), then every transformation of
issue 26 (and harder ones) is matched against it
(:func:`riskcore.dp.people.match_people`): the shares, the columns paired and
the decision are printed. Then unrelated pairs (other people with the same
columns, disjoint halves, random tables, Adult against the hospital table) are
matched, and the largest share any of them reaches is printed beside the
smallest share of a true match: the thresholds (``MATCH_THRESHOLD``,
``PAIR_THRESHOLD``) must sit between the two. The match is decided on the
share corrected for chance, (share - chance) / (1 - chance).

Run: ``.venv/bin/python benchmarks/bench_ledger_match.py [--adult PATH] [--random N]``.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from riskcore.demo import make_people  # noqa: E402
from riskcore.dp import people as pp  # noqa: E402
from riskcore.io import load_table  # noqa: E402
from tests.hospital import hospital_table  # noqa: E402

KEY = bytes(range(32))
Change = Callable[[pd.DataFrame, np.random.Generator], pd.DataFrame | None]


def _reload(df: pd.DataFrame, sep: str, name: str) -> pd.DataFrame:
    raw = df.to_csv(index=False, sep=sep).encode("utf-8")
    return load_table(raw, name=name).data


def _reformat(df: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    out = df.copy()
    for c in out.columns:
        if pd.api.types.is_numeric_dtype(out[c]):
            out[c] = out[c].astype("float64")  # 39 -> 39.0
        else:
            out[c] = " " + out[c].astype("string").str.upper() + " "
    return out


def _add_new_people(df: pd.DataFrame, rng: np.random.Generator, share: float) -> pd.DataFrame:
    """Add ``share`` x rows of other people: each column drawn independently (new combinations)."""
    n = int(len(df) * share)
    extra = pd.DataFrame(
        {c: df[c].sample(n, replace=True, random_state=rng).to_numpy() for c in df}
    )
    return pd.concat([df, extra], ignore_index=True)


def _numeric(df: pd.DataFrame) -> list[str]:
    """Return the numeric columns with more than 20 distinct values (ages, hours, weights)."""
    return [c for c in df if pd.api.types.is_numeric_dtype(df[c]) and df[c].nunique() > 20]


def _jitter(df: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame | None:
    """Move every age (else the first numeric column) by one, up or down at random."""
    cols = ["age"] if "age" in df else _numeric(df)[:1]
    if not cols:
        return None
    return df.assign(**{cols[0]: df[cols[0]] + rng.choice([-1, 1], len(df))})


def _shuffle_one(df: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """Shuffle the column with the most distinct values (the most telling one) alone."""
    col = str(df.nunique().idxmax())
    return df.assign(**{col: df[col].to_numpy()[rng.permutation(len(df))]})


def _round(df: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame | None:
    """Round every numeric column of more than 20 values to the nearest 10 (39 -> 40)."""
    cols = _numeric(df)
    if not cols:
        return None
    return df.assign(**{c: (df[c] / 10).round().astype("int64") * 10 for c in cols})


def _keep_and_pad(df: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """Keep 45% of the rows; pad to the same size with synthetic rows (columns drawn apart)."""
    keep = df.sample(frac=0.45, random_state=rng)
    n = len(df) - len(keep)
    extra = pd.DataFrame(
        {c: df[c].sample(n, replace=True, random_state=rng).to_numpy() for c in df}
    )
    return pd.concat([keep, extra], ignore_index=True)


def _everything(df: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """Drop 10% of rows, add 10% new people and a constant, remove a column, rename, reverse."""
    out = _add_new_people(df.sample(frac=0.9, random_state=rng), rng, 0.1)
    out = out.assign(site="north").drop(columns=df.columns[1])
    out = out.set_axis([f"x{i}" for i in range(out.shape[1])], axis=1)
    return out[list(out.columns[::-1])]


CHANGES: dict[str, Change] = {
    "same table, new file name": lambda d, r: d,
    "column renamed": lambda d, r: d.rename(columns={d.columns[0]: "renamed"}),
    "one row dropped": lambda d, r: d.drop(index=d.index[len(d) // 2]),
    "one row duplicated": lambda d, r: pd.concat([d, d.iloc[[7]]]),
    "constant column added": lambda d, r: d.assign(site="north"),
    "rows shuffled": lambda d, r: d.iloc[r.permutation(len(d))],
    "TSV, parsed": lambda d, r: _reload(d, "\t", "x.tsv"),
    "CSV, parsed": lambda d, r: _reload(d, ",", "x.csv"),
    "columns reversed": lambda d, r: d[list(d.columns[::-1])],
    "all renamed": lambda d, r: d.set_axis([f"c{i}" for i in range(d.shape[1])], axis=1),
    "one column removed": lambda d, r: d.drop(columns=d.columns[1]),
    "half the columns removed": lambda d, r: d[list(d.columns[::2])],
    "values reformatted (39.0, upper case, spaces)": _reformat,
    "10% rows dropped": lambda d, r: d.sample(frac=0.9, random_state=r),
    "half the rows": lambda d, r: d.iloc[: len(d) // 2],
    "20% new people added": lambda d, r: _add_new_people(d, r, 0.2),
    "all of the above at once": lambda d, r: _everything(d, r),
    # issue 37, item 4: one changed column gave the same people a fresh budget
    "age jittered by 1 (issue 37)": _jitter,
    "one column shuffled (the most distinct; issue 37)": _shuffle_one,
    "numbers rounded to 10 (issue 37)": _round,
    "45% of rows kept, padded with synthetic rows (issue 37)": _keep_and_pad,
}


def _random_table(rng: np.random.Generator, n: int) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "age": rng.integers(18, 90, n),
            "sex": rng.choice(["f", "m"], n),
            "zip": rng.integers(10000, 10100, n),
            "code": rng.integers(0, 10**6, n),
            "group": rng.choice(list("abcdefgh"), n),
        }
    )


def _small(seed: int) -> pd.DataFrame:
    """Return 300 rows over 360 combinations (age x sex x zip): many rows of other people hit."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "age": rng.integers(20, 80, 300),
            "sex": rng.choice(["F", "M"], 300),
            "zip": rng.choice(["02139", "02140", "02141"], 300),
        }
    )


def _few_other_people(
    base: pd.DataFrame, name: str, unrelated: Callable[[str, pd.DataFrame, pd.DataFrame], None]
) -> None:
    """Match small tables of other people whose every row is a ledger row on two columns.

    Each takes two low-cardinality columns of the base (sex and race, sex and income, ...)
    from rows of the base, so that every row "matches" on them, and adds columns of other
    people (a random identifier and a random number) that pair with nothing.
    """
    rng = np.random.default_rng(7)
    low = [c for c in base if 2 <= base[c].nunique() <= 10][:4]
    for a, b in itertools.pairwise(low):
        for n in (20, 50, 200):
            rows = base.iloc[rng.choice(len(base), n, replace=False)]
            table = pd.DataFrame(
                {
                    a: rows[a].to_numpy(),
                    b: rows[b].to_numpy(),
                    "member": [f"M{rng.integers(10**8)}" for _ in range(n)],
                    "score": rng.normal(size=n).round(3),
                }
            )
            unrelated(f"{n} other people, every row on {a} x {b} of {name}", base, table)


def _line(label: str, m: pp.PeopleMatch, seconds: float) -> str:
    return (
        f"  {label:<48} ledger {m.share_of_ledger:6.3f}  table {m.share_of_table:6.3f}  "
        f"chance {max(m.chance_of_ledger, m.chance_of_table):5.3f}  "
        f"corrected {m.corrected:5.3f}  score {m.score:5.3f}  rows {m.rows_matched:6d}  "
        f"columns {len(m.pairs):2d}{'-' + str(len(m.left_out)) if m.left_out else '':3}  "
        f"{'MATCH' if m.matched else '-':5}  {seconds:5.2f} s"
    )


def _match(table: pd.DataFrame, ledger: pp.PeopleSketch) -> tuple[pp.PeopleMatch, float]:
    t0 = time.perf_counter()
    m = pp.match_people(pp.probe_table(table, key=KEY), ledger)
    return m, time.perf_counter() - t0


def main() -> None:
    """Print the true and false matches."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--adult", default="/work/shared/data/adult.csv")
    ap.add_argument("--random", type=int, default=20, help="random table pairs")
    args = ap.parse_args()
    adult_path = Path(args.adult)
    bases: dict[str, pd.DataFrame] = {}
    if adult_path.is_file():
        bases["Adult"] = pd.read_csv(adult_path)
    bases["hospital 400"] = hospital_table(400).drop(columns=["note"])
    bases["hospital 5000"] = hospital_table(5000)
    bases["demo people 2000"] = make_people(2000, seed=0)
    bases["small: 300 rows, 360 combinations"] = _small(3)
    print(
        f"thresholds: MATCH {pp.MATCH_THRESHOLD}, "
        f"PAIR {pp.PAIR_THRESHOLD}, MIN_COLUMNS {pp.MIN_COLUMNS}; sample {pp.SAMPLE_ROWS} rows, "
        f"{pp.COLUMN_SKETCH} values per column\n"
    )
    true_shares: list[float] = []
    missed: list[str] = []
    decided: dict[str, dict[str, str]] = {label: {} for label in CHANGES}
    for name, base in bases.items():
        t0 = time.perf_counter()
        sketch = pp.probe_table(base, key=KEY).sketch()
        print(
            f"{name}: {len(base):,} rows x {base.shape[1]} columns, sketched in "
            f"{time.perf_counter() - t0:.2f} s"
        )
        for label, change in CHANGES.items():
            changed = change(base, np.random.default_rng(3))
            if changed is None:  # no numeric column to jitter or round
                decided[label][name] = "n/a"
                continue
            m, s = _match(changed, sketch)
            print(_line(label, m, s))
            decided[label][name] = f"{'same ledger' if m.matched else 'FRESH'} ({m.score:.2f})"
            true_shares.append(m.score if m.matched else 0.0)
            if not m.matched:
                missed.append(f"{name}: {label}")
        print()

    print("unrelated tables (other people):")
    false: list[tuple[str, pp.PeopleMatch]] = []

    def unrelated(label: str, ledger: pd.DataFrame, table: pd.DataFrame) -> None:
        m, s = _match(table, pp.probe_table(ledger, key=KEY).sketch())
        print(_line(label, m, s))
        false.append((label, m))

    if "Adult" in bases:
        adult = bases["Adult"]
        order = np.random.default_rng(0).permutation(len(adult))
        unrelated(
            "Adult half A vs Adult half B (disjoint rows)",
            adult.iloc[order[: len(adult) // 2]],
            adult.iloc[order[len(adult) // 2 :]],
        )
        unrelated("Adult first half vs second half", adult.iloc[:16000], adult.iloc[16000:])
        unrelated("Adult vs hospital 5000", adult, bases["hospital 5000"])
        unrelated("hospital 5000 vs Adult", bases["hospital 5000"], adult)
        test = adult_path.parent / "uci_adult" / "adult.test"
        if test.is_file():
            other = pd.read_csv(
                test, header=None, skiprows=1, names=list(adult.columns), skipinitialspace=True
            )
            other["income"] = other["income"].str.rstrip(".")
            unrelated("Adult (train) vs Adult test (other people)", adult, other)
        unrelated("Adult vs demo people", adult, bases["demo people 2000"])
    unrelated(
        "hospital 400 seed 0 vs seed 1",
        hospital_table(400).drop(columns=["note"]),
        hospital_table(400, seed=1).drop(columns=["note"]),
    )
    unrelated("hospital 5000 seed 0 vs seed 1", hospital_table(5000), hospital_table(5000, seed=1))
    unrelated("demo people seed 0 vs seed 1", make_people(2000, seed=0), make_people(2000, seed=1))
    for seed in range(4, 14):
        unrelated(f"small 300 rows seed 3 vs seed {seed}", _small(3), _small(seed))
    unrelated("hospital 5000 vs demo people", hospital_table(5000), make_people(2000, seed=0))
    for base_name in ("Adult", "demo people 2000"):
        if base_name in bases:
            _few_other_people(bases[base_name], base_name, unrelated)
    rng = np.random.default_rng(11)
    shares = []
    for _ in range(args.random):
        m, _s = _match(
            _random_table(rng, 3000), pp.probe_table(_random_table(rng, 3000), key=KEY).sketch()
        )
        shares.append(m)
    false.extend(("random", m) for m in shares)
    print(
        f"  {args.random} random 3,000-row table pairs (5 columns):{'':>12} largest share "
        f"{max(m.share for m in shares):.3f}, corrected {max(m.corrected for m in shares):.3f}, "
        f"matched {sum(m.matched for m in shares)}"
    )
    print()
    n_true = len(true_shares)
    print(
        f"true matches found: {n_true - len(missed)} of {n_true}"
        + (f" (missed: {'; '.join(missed)})" if missed else "")
    )
    print(f"smallest score of a true match: {min(s for s in true_shares if s > 0):.3f}")
    print(f"false matches: {sum(m.matched for _, m in false)} of {len(false)}")
    worst = max(false, key=lambda lm: lm[1].score)
    print(
        f"largest score of an unrelated pair: {worst[1].score:.3f} ({worst[0]}; "
        f"share as found {worst[1].share:.3f}, corrected {worst[1].corrected:.3f})"
    )
    print("\nsame ledger or fresh, per transformation (score in brackets):\n")
    print("| transformation | " + " | ".join(bases) + " |")
    print("|---|" + "---|" * len(bases))
    for label, row in decided.items():
        print(f"| {label} | " + " | ".join(row.get(b, "") for b in bases) + " |")


if __name__ == "__main__":
    main()
