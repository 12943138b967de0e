"""The missing-value policy "any" (a missing QI value matches any value; issue 15).

Expected values come from outside riskcore: tables worked by hand in the
comments, sdcMicro's own test expectations for ``freqCalc`` (sdcTools/sdcMicro,
``tests/testthat/test_freqCalc.R``, whose fk / Fk follow the convention), and
an independent brute-force computation (every pair of records compared, O(n^2))
on random small tables with hypothesis.
"""

from __future__ import annotations

import json
import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riskcore import assess
from riskcore.engine import EncodedTable
from riskcore.metrics import Population, class_table
from riskcore.metrics.explain import explain_record
from riskcore.metrics.missing import compatible_sizes
from riskcore.metrics.records import record_individual_risk, record_risk
from riskcore.metrics.uniqueness import subset_uniqueness

NA = np.nan


def fk_of(df: pd.DataFrame, qis: list[str], weights: np.ndarray | None = None) -> np.ndarray:
    """f_k (or F_k with weights) of every record under "any", through the engine."""
    enc = EncodedTable(df)
    classes = enc.classes(qis)
    cls = enc.record_classes(qis)
    if weights is None:
        return compatible_sizes(classes)[cls]
    w = np.bincount(cls, weights=weights, minlength=classes.n_classes)
    return compatible_sizes(classes, weights=w)[cls]


# ------------------------------------------------------------------ brute force


def compatible(df: pd.DataFrame, qis: list[str], r: int, s: int) -> bool:
    """Records r and s agree wherever both are known (written from the definition)."""
    for q in qis:
        a, b = df[q].iloc[r], df[q].iloc[s]
        if not pd.isna(a) and not pd.isna(b) and a != b:
            return False
    return True


def brute(df: pd.DataFrame, qis: list[str], sens: str | None = None) -> list[dict]:
    """Per record: f_k and, for ``sens``, the compatible records' sensitive values."""
    n = len(df)
    out = []
    for r in range(n):
        match = [s for s in range(n) if compatible(df, qis, r, s)]
        row: dict = {"fk": len(match)}
        if sens is not None:
            row["values"] = Counter(
                "<NA>" if pd.isna(df[sens].iloc[s]) else df[sens].iloc[s] for s in match
            )
        out.append(row)
    return out


def entropy_l(counts: Counter) -> float:
    total = sum(counts.values())
    return math.exp(-sum(c / total * math.log(c / total) for c in counts.values()))


def t_equal(counts: Counter, table: Counter) -> float:
    """Equal-distance EMD: (1/2) sum_i |p_i - q_i| over every value of the table."""
    total, n = sum(counts.values()), sum(table.values())
    return 0.5 * sum(abs(counts.get(v, 0) / total - table[v] / n) for v in table)


# ------------------------------------------------------------------ hand-worked


def test_hand_worked_table() -> None:
    # Records (age, zip); NA = missing.
    #   0 (30, A)   1 (30, A)   2 (30, NA)   3 (NA, B)   4 (40, B)   5 (NA, NA)
    # Compatible with each (agree wherever both are known):
    #   0: 0, 1, 2, 5            -> fk 4   (3 (NA,B): zip A != B)
    #   1: 0, 1, 2, 5            -> fk 4
    #   2: 0, 1, 2, 3, 5         -> fk 5   (3: age unknown, zip unknown on 2's side)
    #   3: 2, 3, 4, 5            -> fk 4
    #   4: 3, 4, 5               -> fk 3   (2: age 30 != 40)
    #   5: everyone              -> fk 6
    # Under "own" the classes are {0,1}, {2}, {3}, {4}, {5}: k = 1, 4 uniques.
    df = pd.DataFrame(
        {"age": [30, 30, 30, NA, 40, NA], "zip": ["A", "A", None, "B", "B", None]},
    )
    assert fk_of(df, ["age", "zip"]).tolist() == [4, 4, 5, 4, 3, 6]
    own = assess(df, quasi_identifiers=["age", "zip"])
    anyp = assess(df, quasi_identifiers=["age", "zip"], missing="any")
    assert (own.k, own.unique_records, own.missing_records) == (1, 4, 3)  # records 2, 3, 5
    assert (anyp.k, anyp.unique_records, anyp.n_records) == (3, 0, 6)
    assert anyp.prosecutor.highest_risk == pytest.approx(1 / 3)
    # mean record risk (1/n) sum_r 1/fk(r) = (1/4+1/4+1/5+1/4+1/3+1/6)/6
    assert anyp.prosecutor.success_rate == pytest.approx(
        (1 / 4 + 1 / 4 + 1 / 5 + 1 / 4 + 1 / 3 + 1 / 6) / 6
    )
    # records at risk above 0.2 (1/fk > 0.2): records 0, 1, 3 (1/4), 4 (1/3) -> 4 of 6
    a2 = assess(df, quasi_identifiers=["age", "zip"], missing="any", threshold=0.2)
    assert a2.prosecutor.records_at_risk == pytest.approx(4 / 6)
    assert anyp.missing == "any" and "matches any value" in anyp.missing_policy
    # the class-size distribution counts records by their fk: 3 -> 1, 4 -> 3, 5 -> 1, 6 -> 1
    dist = anyp.anonymity.distribution
    assert dict(zip(dist.size, dist.n_records, strict=True)) == {3: 1, 4: 3, 5: 1, 6: 1}


def test_hand_worked_l_and_t() -> None:
    # QI "g" with a missing value; sensitive "d".
    #   0 (g=x, d=flu)  1 (g=x, d=flu)  2 (g=y, d=cold)  3 (g=NA, d=cold)
    # "own": classes {0,1} (flu, flu) -> distinct l 1; {2}; {3}.
    # "any": 0 and 1 are compatible with 0, 1, 3 -> values flu, flu, cold: distinct 2,
    #        2 with 2, 3 -> cold, cold: distinct 1; 3 with everyone -> 2 flu, 2 cold.
    # distinct l = min = 1 (record 2). Entropy of {flu: 2, cold: 1}:
    #   H = -(2/3 ln 2/3 + 1/3 ln 1/3) = 0.6365; {cold: 2}: H = 0 -> entropy l = exp(0) = 1.
    # t (equal distance), Q = (flu 1/2, cold 1/2):
    #   {flu 2/3, cold 1/3}: (1/2)(1/6 + 1/6) = 1/6;  {cold}: (1/2)(1/2 + 1/2) = 1/2;
    #   everyone: 0 -> t = 1/2.
    df = pd.DataFrame({"g": ["x", "x", "y", None], "d": ["flu", "flu", "cold", "cold"]})
    a = assess(df, quasi_identifiers=["g"], sensitive=["d"], missing="any", distance="equal")
    r = a.sensitive["d"]
    assert (r.distinct_l, r.entropy_l, r.t_closeness) == (1, pytest.approx(1.0), 0.5)
    pc = r.per_class
    assert pc is not None
    # per class (own classes: x, y, NA in the engine's order): check x's figures by value
    ids = class_table(a).set_index("g")
    x = ids.loc["x", "class"]
    assert pc["distinct"][x] == 2
    assert pc["t"][x] == pytest.approx(1 / 6)
    assert np.exp(pc["entropy"][x]) == pytest.approx(
        math.exp(-(2 / 3 * math.log(2 / 3) + 1 / 3 * math.log(1 / 3)))
    )
    # homogeneous: only record 2's set ({cold, cold}) -> 1 record in 1 class
    assert (r.homogeneous_classes, r.homogeneous_records) == (1, 1)
    # class table: records stay the own class sizes, risk is 1/fk (x: fk 3)
    assert ids.loc["x", "records"] == 2 and ids.loc["x", "compatible records"] == 3
    assert ids.loc["x", "risk"] == pytest.approx(1 / 3)


def test_ordered_t_keeps_the_whole_table_distribution() -> None:
    # Numbers 1, 2, 3 (m = 3), Q = (1/3, 1/3, 1/3). Records: (g=a, 1), (g=b, 3), (g=NA, 2).
    # "any": a's set {1, 2}: P = (1/2, 1/2, 0), cumulative r: 1/6, 1/3, 0 -> D = (1/2)(1/2) = 1/4.
    # b's set {2, 3}: same by symmetry: 1/4. NA's set: everyone -> 0. t = 1/4.
    # (Re-summing Q from the overlapping sets would give Q = (1/5, 3/5, 1/5) and another t.)
    df = pd.DataFrame({"g": ["a", "b", None], "v": [1, 3, 2]})
    a = assess(df, quasi_identifiers=["g"], sensitive=["v"], missing="any")
    assert a.sensitive["v"].distance == "ordered"
    assert a.sensitive["v"].t_closeness == pytest.approx(0.25)


# ------------------------------------------------------------------ sdcMicro's tests

# test_freqCalc.R, "data frame, numeric values with missing values": A, B, C with NA in C
SDC = pd.DataFrame(
    {
        "A": [2, 3, 2, 2, 3, 3, 1, 2],
        "B": [3, 3, 3, 3, 3, 3, 4, 3],
        "C": [1, 3, NA, 2, 1, 1, NA, 1],
    }
)
SDC_W = np.array([18.0, 45.5, 39.0, 17.0, 92.0, 8.0, 123.5, 51.0])


def test_sdcmicro_freqcalc_with_missing() -> None:
    # expect_equal(fr$fk, c(3, 1, 4, 2, 2, 2, 1, 3)); Fk c(108, 45.5, 125, 56, 100, 100, 123.5, 108)
    # Record 1 (2,3,1) is complete and counts record 3 (2,3,NA): fk 3, not 2.
    assert fk_of(SDC, ["A", "B", "C"]).tolist() == [3, 1, 4, 2, 2, 2, 1, 3]
    assert fk_of(SDC, ["A", "B", "C"], SDC_W).tolist() == pytest.approx(
        [108.0, 45.5, 125.0, 56.0, 100.0, 100.0, 123.5, 108.0]
    )


def test_sdcmicro_freqcalc_one_column_all_missing() -> None:
    # "one column and one row with NAs": C missing everywhere, row 3 missing everywhere.
    # fk c(4, 4, 8, 4, 4, 4, 2, 4); Fk c(125, 184.5, 394, 125, 184.5, 184.5, 162.5, 125)
    df = pd.DataFrame(
        {
            "A": [2, 3, NA, 2, 3, 3, 1, 2],
            "B": [3, 3, NA, 3, 3, 3, 4, 3],
            "C": [NA] * 8,
        }
    )
    assert fk_of(df, ["A", "B", "C"]).tolist() == [4, 4, 8, 4, 4, 4, 2, 4]
    assert fk_of(df, ["A", "B", "C"], SDC_W).tolist() == pytest.approx(
        [125.0, 184.5, 394.0, 125.0, 184.5, 184.5, 162.5, 125.0]
    )


def test_sdcmicro_freqcalc_single_key() -> None:
    # "one column with NAs": A = (2, 3, NA, 2, 1, NA, 1, 2): fk c(5, 3, 8, 5, 4, 8, 4, 5),
    # Fk c(133, 92.5, 394, 133, 262.5, 394, 262.5, 133)
    df = pd.DataFrame({"A": [2, 3, NA, 2, 1, NA, 1, 2]})
    assert fk_of(df, ["A"]).tolist() == [5, 3, 8, 5, 4, 8, 4, 5]
    assert fk_of(df, ["A"], SDC_W).tolist() == pytest.approx(
        [133.0, 92.5, 394.0, 133.0, 262.5, 394.0, 262.5, 133.0]
    )


def test_sdcmicro_freqcalc_more_columns_than_rows() -> None:
    # "more columns then rows": 3 records over 8 keys, fk c(1, 2, 2), Fk c(18, 167.5, 167.5)
    vals = [2, 3, NA, 2, 3, 3, 1, NA, 3, 3, NA, 3, 3, 2, 2, 3, NA, NA, 1, 2, NA, NA, 4, 4]
    arr = np.array(vals, dtype=float).reshape(8, 3).T  # R fills column by column
    df = pd.DataFrame(arr, columns=list("ABCDEFGH"))
    assert fk_of(df, list("ABCDEFGH")).tolist() == [1, 2, 2]
    assert fk_of(df, list("ABCDEFGH"), np.array([18.0, 45.5, 122.0])).tolist() == pytest.approx(
        [18.0, 167.5, 167.5]
    )


def test_all_missing_record_counts_for_complete_records_too() -> None:
    # The documented difference from sdcMicro: with two QIs, (NA, NA) is compatible with
    # everyone, so the complete (1, 1) has fk 2 here; sdcMicro's freqCalc leaves it at 1
    # (addAllNAtoKeys = FALSE) while giving (NA, NA) fk n = 3 and (1, NA) fk 3.
    df = pd.DataFrame({"a": [1, 1, NA], "b": [1, NA, NA]})
    assert fk_of(df, ["a", "b"]).tolist() == [3, 3, 3]


def test_individual_risk_uses_compatible_weights() -> None:
    # sdcMicro's measure_risk with NA: fk, Fk as in test_sdcmicro_freqcalc_with_missing;
    # record 2 (3,3,3): fk 1, Fk 45.5 -> exact risk (p/q) ln(1/p), p = 1/45.5:
    # (1/44.5) ln 45.5 = 0.0857913 (formulas.md hand check).
    df = SDC.assign(w=SDC_W)
    ir = record_individual_risk(df, ["A", "B", "C"], weights="w", missing="any")
    assert ir.class_size.tolist() == [3, 1, 4, 2, 2, 2, 1, 3]
    assert ir.population_size.tolist() == pytest.approx(
        [108.0, 45.5, 125.0, 56.0, 100.0, 100.0, 123.5, 108.0]
    )
    assert ir.risk[1] == pytest.approx(math.log(45.5) / 44.5, rel=1e-6)
    assert ir.missing == "any"


def test_records_table_follows_the_policy() -> None:
    # the records table with the targets each record's class breaks (riskcore.criteria)
    from riskcore.criteria import Targets
    from riskcore.criteria.records import record_table

    own = record_table(SDC, ["A", "B", "C"], targets=Targets.of(k=3))
    anyp = record_table(SDC, ["A", "B", "C"], targets=Targets.of(k=3), missing="any")
    # own: (2,3,NA) alone; any: fk as in sdcMicro
    assert own["class_size"].tolist() == [2, 1, 1, 1, 2, 2, 1, 2]
    assert anyp["class_size"].tolist() == [3, 1, 4, 2, 2, 2, 1, 3]
    fk = np.array([3, 1, 4, 2, 2, 2, 1, 3])
    assert anyp["prosecutor_risk"].tolist() == pytest.approx((1 / fk).tolist())
    assert anyp["failing_targets"].tolist() == ["", "k<3", "", "k<3", "k<3", "k<3", "k<3", ""]
    # the explained record 3 (2,3,NA): alone under "own", fk 4 under "any"
    assert explain_record(SDC, ["A", "B", "C"], 3).class_size == 1
    assert explain_record(SDC, ["A", "B", "C"], 3, missing="any").class_size == 4


# ------------------------------------------------------------------ unchanged defaults


def test_own_is_the_default_and_unchanged() -> None:
    a = assess(SDC, quasi_identifiers=["A", "B", "C"])
    b = assess(SDC, quasi_identifiers=["A", "B", "C"], missing="own")
    assert a.to_dict() == b.to_dict()
    assert a.missing == "own" and a.matching is None
    assert a.k == 1 and a.unique_records == 4  # (3,3,3), (2,3,NA), (2,3,2), (1,4,NA)


def test_any_without_missing_values_equals_own() -> None:
    df = SDC.fillna(9)
    own = assess(df, quasi_identifiers=["A", "B", "C"]).to_dict()
    anyp = assess(df, quasi_identifiers=["A", "B", "C"], missing="any").to_dict()
    for d in (own, anyp):
        d.pop("missing"), d.pop("missing_policy")
    assert own == anyp


def test_bad_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="missing"):
        assess(SDC, quasi_identifiers=["A"], missing="ignore")  # type: ignore[arg-type]


def test_population_table_counts_compatible_rows() -> None:
    # Population rows (A, C, count): (2, 1, 10), (2, NA, 5), (3, 1, 7).
    # Sample classes over A, C ("any"): (2,1) is compatible with (2,1) and (2,NA): F = 15;
    # (2,NA) with (2,1), (2,NA): 15. Sample fk: (2,1) x3 + (2,NA) -> 4; (2,NA) -> 5 of 2s.
    sample = pd.DataFrame({"A": [2, 2, 2, 2, 3], "C": [1, 1, 1, NA, 1]})
    pop = pd.DataFrame({"A": [2, 2, 3], "C": [1, NA, 1], "count": [10, 5, 7]})
    a = assess(
        sample, quasi_identifiers=["A", "C"], population_model=Population(table=pop), missing="any"
    )
    assert a.journalist is not None
    # risks 1/F: (2,1): 1/15, (2,NA): 1/15, (3,1): 1/7 -> highest 1/7;
    # marketer (1/n) sum_r 1/F(r) = (4/15 + 1/7) / 5
    assert a.journalist.highest_risk == pytest.approx(1 / 7)
    assert a.marketer is not None
    assert a.marketer.success_rate == pytest.approx((4 / 15 + 1 / 7) / 5)


# ------------------------------------------------------------------ brute force, hypothesis

cell = st.one_of(st.none(), st.sampled_from([1, 2, 3]))


@st.composite
def tables(draw: st.DrawFn) -> pd.DataFrame:
    n = draw(st.integers(1, 14))
    m = draw(st.integers(1, 3))
    cols = {f"q{i}": draw(st.lists(cell, min_size=n, max_size=n)) for i in range(m)}
    cols["s"] = draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=n, max_size=n))
    return pd.DataFrame({k: v if k == "s" else pd.array(v, dtype="Int64") for k, v in cols.items()})


@settings(max_examples=round(1.5 * settings().max_examples))  # 150 in CI
@given(tables())
def test_any_equals_brute_force(df: pd.DataFrame) -> None:
    qis = [c for c in df.columns if c != "s"]
    ref = brute(df, qis, "s")
    fk = np.array([r["fk"] for r in ref])
    assert fk_of(df, qis).tolist() == fk.tolist()
    a = assess(df, quasi_identifiers=qis, sensitive=["s"], missing="any", distance="equal")
    assert a.k == fk.min()
    assert a.unique_records == int((fk == 1).sum())
    assert a.prosecutor.success_rate == pytest.approx(float((1 / fk).mean()))
    assert a.prosecutor.highest_risk == pytest.approx(float(1 / fk.min()))
    r = a.sensitive["s"]
    assert r.distinct_l == min(len(x["values"]) for x in ref)
    assert r.entropy_l == pytest.approx(min(entropy_l(x["values"]) for x in ref))
    whole = Counter(df["s"])
    assert r.t_closeness == pytest.approx(max(t_equal(x["values"], whole) for x in ref))
    u = subset_uniqueness(df, qis, missing="any")
    assert (u.all_quasi_identifiers.unique_records, u.all_quasi_identifiers.k) == (
        int((fk == 1).sum()),
        fk.min(),
    )
    # "any" raises no record's risk: fk >= its own class size
    own = record_risk(df, qis)["class_size"].to_numpy()
    assert (fk >= own).all()


# ------------------------------------------------------------------ command line and report


@pytest.fixture
def sdc_csv(tmp_path):
    path = tmp_path / "sdc.csv"
    SDC.to_csv(path, index=False)  # NaN written as an empty cell
    return path


def test_cli_assess_missing(sdc_csv, capsys):
    from riskcore.cli import main

    base = ["assess", str(sdc_csv), "--qi", "A", "--qi", "B", "--qi", "C", "--format", "json"]
    assert main(base) == 0
    own = json.loads(capsys.readouterr().out)
    assert main([*base, "--missing", "any"]) == 0
    anyp = json.loads(capsys.readouterr().out)
    # own: 4 records alone (see test_own_is_the_default_and_unchanged); any: fk == 1 for
    # records 2 (3,3,3) and 7 (1,4,NA) only
    assert (own["missing"], own["unique_records"]) == ("own", 4)
    assert (anyp["missing"], anyp["unique_records"], anyp["missing_records"]) == ("any", 2, 2)
    assert main([*base[:-2], "--missing", "any"]) == 0
    assert "Missing values match any value" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:  # argparse: usage error, exit 2
        main([*base, "--missing", "all"])
    assert exc.value.code == 2


def test_cli_records_missing(sdc_csv, tmp_path, capsys):
    from riskcore.cli import main

    out = tmp_path / "risk.csv"
    argv = ["records", str(sdc_csv), "--qi", "A", "--qi", "B", "--qi", "C", "--out", str(out)]
    assert main([*argv, "--missing", "any"]) == 0
    assert "Missing values match any value" in capsys.readouterr().out
    assert pd.read_csv(out)["class_size"].tolist() == [3, 1, 4, 2, 2, 2, 1, 3]  # sdcMicro fk


def test_report_states_the_policy(sdc_csv, tmp_path, capsys):
    from riskcore.cli import main
    from riskcore.profile import Profile
    from riskcore.report.render import render_html
    from riskcore.review import review

    profile = {"riskcore_roles": 1, "quasi_identifiers": ["A", "B", "C"], "missing": "any"}
    rep = review(SDC, Profile.read(profile))
    twin = rep.to_dict()
    assert twin["parameters"]["missing"] == "any"
    assert twin["profile"]["missing"] == "any"
    assert twin["before"]["missing"] == "any" and twin["before"]["k"] == 1
    assert rep.before.unique_records == 2
    page = render_html(rep, figures=False)
    assert "Missing values match any value" in page and "freqCalc" in page
    assert "a missing quasi-identifier value matches any value (sdcMicro" in page  # limitation
    # the default profile is "own"; the command line's --missing overrides it and says so
    path = tmp_path / "p.json"
    path.write_text(json.dumps({**profile, "missing": "own"}))
    js = tmp_path / "r.json"
    argv = ["report", str(sdc_csv), "--profile", str(path), "--out", str(tmp_path / "r.html")]
    assert main([*argv, "--json", str(js), "--missing", "any"]) == 0
    got = json.loads(js.read_text())
    assert got["parameters"]["missing"] == "any"
    assert "--missing any" in got["command"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**profile, "missing": "drop"}))
    capsys.readouterr()
    assert main(["report", str(sdc_csv), "--profile", str(bad), "--out", str(js)]) == 2
    assert "missing must be 'own' or 'any', got 'drop'" in capsys.readouterr().err


def test_missing_reading_sentences():
    from riskcore.report.readings import missing_reading

    assert missing_reading("any", 2).startswith("Missing values match any value")
    assert "2 records with a missing" in missing_reading("any", 2)
    assert "(1 record has one)" in missing_reading("own", 1)
    assert "(3 records have one)" in missing_reading("own", 3)
    assert "no quasi-identifier value is missing" in missing_reading("any", 0)
    with pytest.raises(ValueError, match="unknown missing-value policy"):
        missing_reading("drop", 1)


def test_sampling_fraction_under_any():
    # fk of SDC under "any": 3, 1, 4, 2, 2, 2, 1, 3. With pi = 0.1 the record risk of a record
    # with fk = 1 is E[1/F | f = 1] = (p/q) ln(1/p), p = 0.1: (0.1/0.9) ln 10 = 0.255843.
    a = assess(
        SDC,
        quasi_identifiers=["A", "B", "C"],
        population_model=Population(sampling_fraction=0.1),
        missing="any",
    )
    assert a.journalist is not None
    assert a.journalist.highest_risk == pytest.approx(0.1 / 0.9 * math.log(10))
    assert "population uniqueness needs disjoint classes" in a.population_note
    # population uniqueness stays on the own classes (4 sample uniques there, 2 under "any")
    own = assess(
        SDC, quasi_identifiers=["A", "B", "C"], population_model=Population(sampling_fraction=0.1)
    )
    assert a.population_uniqueness is not None and own.population_uniqueness is not None
    assert a.population_uniqueness.to_dict() == own.population_uniqueness.to_dict()


def test_too_many_qis_for_any_is_a_clear_error():
    from riskcore.errors import RiskcoreError

    df = pd.DataFrame({f"q{i}": [1, None] for i in range(63)})
    with pytest.raises(RiskcoreError, match="up to 62 quasi-identifiers, not 63"):
        assess(df, quasi_identifiers=list(df.columns), missing="any")
