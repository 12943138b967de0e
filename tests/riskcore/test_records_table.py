"""The per-record risk table, the ``records`` command and one record explained.

Hand-worked tables (the working in the comments), UCI Adult end to end against
pandas group-bys and riskcore.metrics.special_uniques, and the readings' sentences.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from riskcore.cli import main
from riskcore.criteria import Targets
from riskcore.criteria.records import RECORD_COLUMNS, record_table
from riskcore.errors import RiskcoreError
from riskcore.io import load_table
from riskcore.metrics import suda
from riskcore.metrics.explain import explain_record
from riskcore.metrics.presence import population_match
from riskcore.metrics.records import record_individual_risk
from riskcore.report.readings import (
    individual_risk_reading,
    population_match_reading,
    record_reading,
)
from tests.conftest import shared_file

# Classes on (a, b) and the sensitive s (Q = s1 3/6, s2 2/6, s3 1/6):
#   (1, x): rows 1, 2, s = s1 s1   f 2  distinct l 1  t = (1/2)(1/2 + 1/3 + 1/6) = 1/2
#   (1, y): row 3,     s = s2      f 1  distinct l 1  t = (1/2)(1/2 + 2/3 + 1/6) = 2/3
#   (2, y): rows 4-6,  s = s1 s2 s3 f 3  distinct l 3  t = (1/2)(1/6 + 0 + 1/6) = 1/6
SMALL = pd.DataFrame(
    {
        "a": [1, 1, 1, 2, 2, 2],
        "b": ["x", "x", "y", "y", "y", "y"],
        "s": ["s1", "s1", "s2", "s1", "s2", "s3"],
    }
)


def test_small_table_hand_worked():
    out = record_table(SMALL, ["a", "b"], sensitive=["s"], targets=Targets.of(k=3, l=2, t=0.2))
    assert list(out.columns) == list(RECORD_COLUMNS)
    assert out["row"].tolist() == [1, 2, 3, 4, 5, 6]
    assert out["class_size"].tolist() == [2, 2, 1, 3, 3, 3]
    np.testing.assert_allclose(out["prosecutor_risk"], [0.5, 0.5, 1, 1 / 3, 1 / 3, 1 / 3])
    np.testing.assert_allclose(out["individual_risk"], out["prosecutor_risk"])  # no weights
    fails = "k<3; l<2 (s); t>0.2 (s)"
    assert out["failing_targets"].tolist() == [fails, fails, fails, "", "", ""]
    # k = 2 leaves (1, x) failing only l and t; t = 0.6 lets it pass t (1/2 < 0.6)
    out = record_table(SMALL, ["a", "b"], sensitive=["s"], targets=Targets.of(k=2, l=2, t=0.6))
    assert out["failing_targets"].tolist()[:3] == [
        "l<2 (s)",
        "l<2 (s)",
        "k<2; l<2 (s); t>0.6 (s)",
    ]
    # SUDA columns are riskcore.metrics.special_uniques's
    ref = suda(SMALL, ["a", "b"])
    np.testing.assert_array_equal(out["msu_count"], ref.msu_count)
    np.testing.assert_array_equal(out["min_msu_size"], ref.min_msu_size)
    np.testing.assert_array_equal(out["suda_score"], ref.score)
    np.testing.assert_array_equal(out["dis_suda"], ref.dis_score)
    # no targets at all: nothing fails
    assert (record_table(SMALL, ["a", "b"])["failing_targets"] == "").all()
    # an l target without a sensitive attribute has nothing to judge (not a failure)
    assert (record_table(SMALL, ["a", "b"], targets=Targets.of(l=2))["failing_targets"] == "").all()


def test_record_table_bad_targets():
    with pytest.raises(RiskcoreError, match=r"t must lie in \[0, 1\]"):
        record_table(SMALL, ["a"], sensitive=["s"], targets=Targets.of(t=2.0))
    with pytest.raises(RiskcoreError, match=r"'a' cannot be both a quasi-identifier and sensitive"):
        record_table(SMALL, ["a"], sensitive=["a"], targets=Targets.of(l=2))


ADULT_QIS = "age workclass education marital-status occupation race sex native-country".split()


def _approx_oracle(df: pd.DataFrame, qis: list[str], weight: str) -> np.ndarray:
    """sdcMicro's approximate individual risk from a pandas group-by (Franconi-Polettini 2004)."""
    g = df.groupby(qis, dropna=False, observed=True, sort=False)[weight]
    f = g.transform("size").to_numpy(dtype=float)
    p = f / g.transform("sum").to_numpy()
    q = 1 - p
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(
            f == 1,
            (p / q) * np.log(1 / p),
            np.where(f == 2, p / q - (p / q) ** 2 * np.log(1 / p), p / (f - q)),
        )
    return np.where(q == 0, 1 / f, r)


def test_cli_records_on_uci_adult(tmp_path, capsys):
    path = shared_file("adult.csv")
    out_csv = tmp_path / "risk.csv"
    argv = ["records", str(path), "--weights", "fnlwgt", "--method", "approx", "--k", "5"]
    for q in ADULT_QIS:
        argv += ["--qi", q]
    assert main([*argv, "--out", str(out_csv)]) == 0
    printed = capsys.readouterr().out
    assert "Expected re-identifications:" in printed and "Wrote 32,561 rows" in printed
    got = pd.read_csv(out_csv, encoding="utf-8-sig", keep_default_na=False)
    df = load_table(path).data
    assert list(got.columns) == list(RECORD_COLUMNS)
    assert len(got) == len(df) == 32_561
    assert got["row"].tolist() == list(range(1, len(df) + 1))
    sizes = df.groupby(ADULT_QIS, dropna=False, observed=True, sort=False)["age"].transform("size")
    np.testing.assert_array_equal(got["class_size"], sizes)
    np.testing.assert_allclose(got["prosecutor_risk"], 1 / sizes, rtol=1e-15)
    np.testing.assert_allclose(
        got["individual_risk"], _approx_oracle(df, ADULT_QIS, "fnlwgt"), rtol=1e-12
    )
    ref = suda(df, ADULT_QIS)
    np.testing.assert_array_equal(got["msu_count"], ref.msu_count)
    np.testing.assert_array_equal(got["min_msu_size"], ref.min_msu_size)
    np.testing.assert_allclose(got["suda_score"], ref.score, rtol=1e-15)
    np.testing.assert_allclose(got["dis_suda"], ref.dis_score, rtol=1e-15)
    assert set(got["failing_targets"]) == {"", "k<5"}
    assert ((got["failing_targets"] == "k<5") == (sizes < 5)).all()


def test_cli_records_errors_exit_2(tmp_path, capsys):
    data = tmp_path / "d.csv"
    SMALL.assign(w=[2, 2, 0.5, 3, 3, 3]).to_csv(data, index=False)
    base = ["records", str(data), "--qi", "a", "--out", str(tmp_path / "o.csv")]
    assert main([*base, "--weights", "w"]) == 2
    assert "below 1 (row 3: 0.5)" in capsys.readouterr().err
    assert main([*base, "--weights", "s"]) == 2
    assert "must hold numbers" in capsys.readouterr().err
    assert main([*base, "--sampling-fraction", "1.5"]) == 2
    assert "--sampling-fraction must be in (0, 1]" in capsys.readouterr().err
    assert main([*base[:-1], str(tmp_path / "o.txt")]) == 2
    assert "write .csv" in capsys.readouterr().err


# Row 1 (1, x, p): (x, p) is unique, x and p are not -> MSU {b, c}; score (3 - 2)! = 1
# Row 3 (2, y, p): a = 2 is unique -> MSU {a}; score (3 - 1)! = 2
# Rows 4, 5 (1, y, p): a class of 2, no MSU; their rarest value is b = y (rows 3, 4, 5)
EXPLAIN = pd.DataFrame(
    {"a": [1, 1, 2, 1, 1], "b": ["x", "x", "y", "y", "y"], "c": ["p", "q", "p", "p", "p"]}
)


def test_explain_record_hand_worked():
    e = explain_record(EXPLAIN, ["a", "b", "c"], 3)
    assert (e.row, e.class_size, e.msus, e.top_qi, e.top_basis) == (3, 1, (("a",),), "a", "suda")
    assert (e.values, e.value_counts, e.suda_score, e.top_share) == (
        ("2", "y", "p"),
        (1, 3, 4),
        2.0,
        1.0,
    )
    e1 = explain_record(EXPLAIN, ["a", "b", "c"], 1)
    assert (e1.msus, e1.suda_score) == ((("b", "c"),), 1.0)
    e4 = explain_record(EXPLAIN, ["a", "b", "c"], 4)
    assert (e4.class_size, e4.msus, e4.top_qi, e4.top_basis) == (2, (), "b", "rarest value")
    with pytest.raises(RiskcoreError, match=r"^row must be a row number from 1 to 5, not 0"):
        explain_record(EXPLAIN, ["a", "b", "c"], 0)


def test_record_reading_sentences():
    res = suda(EXPLAIN, ["a", "b", "c"])
    e3 = explain_record(EXPLAIN, ["a", "b", "c"], 3, suda_result=res)
    # DIS-SUDA: U = 3 sample uniques (rows 1-3), P = 2 records in a pair (rows 4, 5),
    # pi = 0.01; scores S = (1, 2, 2) for rows 1-3 (row 2's MSU {c}: q is unique), M = 3,
    # Q = 1 + (8 - 3)/20 = 1.25, A = sum S^-Q = 1 + 2 x 2^-1.25;
    # DIS_3 = 1 / (1 + (P (1 - pi) / pi) / (S_3^Q A))
    a = 1 + 2 * 2**-1.25
    dis3 = 1 / (1 + (2 * 0.99 / 0.01) / (2**1.25 * a))
    assert e3.dis_suda == pytest.approx(dis3)
    assert record_reading(e3) == (
        "Row 3 is the only record with its values of a + b + c: anyone who knows them singles "
        "it out. It is unique on a = 2 alone (1 minimal sample unique, the smallest of 1 value; "
        f"SUDA score 2, DIS-SUDA {dis3:.3f}). a contributes most: 100% of its SUDA score comes "
        "from unique combinations containing it."
    )
    e4 = explain_record(EXPLAIN, ["a", "b", "c"], 4, suda_result=res)
    assert record_reading(e4, escape=lambda s: f"`{s}`") == (
        "Row 4 shares its values of `a + b + c` with 1 other record (a class of 2); a match on "
        "them is right with probability 1/2. No set of its values is unique: it is not a "
        "special unique. Its rarest value is `b` = `y`, shared by 3 records."
    )


def test_individual_risk_and_population_readings():
    sdc = pd.DataFrame(
        {
            "A": [2, 3, 2, 2, 3, 3, 1, 2],
            "B": [3, 3, 3, 3, 3, 3, 4, 3],
            "C": [1, 3, 1, 2, 1, 1, 1, 1],
            "w": [18.0, 45.5, 39.0, 17.0, 92.0, 8.0, 123.5, 51.0],
        }
    )
    r = record_individual_risk(sdc, ["A", "B", "C"], weights="w", method="approx", threshold=0.05)
    # sdcMicro's risks (test_indivRisk.R): 3 x 1/73 + ln(45.5)/44.5 + 0.17707583 + 2 x 0.01877883
    # + 0.03931625 = 0.380837; global 0.380837 / 8 = 4.76%
    er = 3 / 73 + math.log(45.5) / 44.5 + 0.17707583 + 2 * 0.01877883 + 0.03931625
    assert f"{er:.6g}" == "0.380837"
    assert individual_risk_reading(r) == (
        "Expected re-identifications: 0.380837 of 8 records (global risk 4.76%); 2 records have "
        "a risk above 0.05 (highest 0.177076), with population class sizes estimated as the sum "
        "of the sampling weights in w, approx Benedetti-Franconi individual risk."
    )
    pop = pd.DataFrame({"z": ["a", "a", "b", "b", "c"]})
    m = population_match(pd.DataFrame({"z": ["a", "b", "b"]}), pop, ["z"])
    # a: 1 of 2 (0.5), b: 2 of 2 (1), c: 0 of 1 (0, no released record)
    assert population_match_reading(m) == (
        "k-map 2: every released record matches at least 2 people of the population table. "
        "delta-presence (0, 1): a member of a population class is in the release with "
        "probability between 0% and 100%. 1 of 3 population classes has no released record "
        "(1 person known to be absent): its delta is 0, which puts delta min at 0, so any "
        "lowest delta above 0 fails and suppressing records cannot mend it (the lowest delta "
        "among released classes is 50%)."
    )
    m = population_match(pd.DataFrame({"z": ["a", "b", "b", "c"]}), pop, ["z"])
    assert population_match_reading(m) == (
        "k-map 1: every released record matches at least 1 person of the population table. "
        "delta-presence (0.5, 1): a member of a population class is in the release with "
        "probability between 50% and 100%."
    )


def test_shuffled_rows_and_a_non_range_index_permute_the_table():
    rng = np.random.default_rng(5)
    df = pd.DataFrame(
        {
            "a": rng.integers(0, 3, 40),
            "b": rng.choice(["x", "y", None], 40),
            "s": rng.choice(["u", "v"], 40),
            "w": rng.uniform(1, 9, 40),
        }
    )
    kw = {"weights": "w", "targets": Targets.of(k=3, l=2), "sensitive": ["s"]}
    base = record_table(df, ["a", "b"], **kw)
    perm = rng.permutation(len(df))
    shuffled = df.iloc[perm].set_index(pd.Index(rng.permutation(1000)[:40]))
    got = record_table(shuffled, ["a", "b"], **kw)
    assert got["row"].tolist() == list(range(1, 41))
    expected = base.iloc[perm].drop(columns="row").reset_index(drop=True)
    pd.testing.assert_frame_equal(got.drop(columns="row"), expected, check_exact=False, rtol=1e-12)
