"""Two saved assessments compared, and a file checked against the one assessed."""

from __future__ import annotations

import pandas as pd
import pytest

from riskcore.profile import Profile
from riskcore.report.compare import check_dataset, compare_results, key_figures, normalized
from riskcore.report.readings.saved import (
    comparison_reading,
    comparison_table,
    dataset_check_reading,
    dataset_check_table,
)
from riskcore.review import dataset_facts, review


def twin(k, highest, sha="aa" * 32, qis=("age", "zip"), verdict=False, rows=100):
    """A hand-written riskcore-report/1 twin with only the figures the comparison reads."""
    return {
        "dataset": {"name": "d.csv", "sha256": sha, "rows": rows, "columns": 4, "missing": 0},
        "roles": {"quasi_identifiers": list(qis), "sensitive": ["dx"]},
        "targets": {"k": 5, "l": 2, "t": None, "threshold": 0.2},
        "assessment": {
            "k": k,
            "n_classes": 10,
            "unique_records": 3 if k == 1 else 0,
            "prosecutor": {"highest_risk": highest, "records_at_risk": 0.5, "success_rate": 0.1},
            "sensitive": {"dx": {"distinct_l": 1, "t_closeness": 0.4}},
        },
        "verdict": {"pass": verdict},
    }


def test_the_figures_their_difference_and_the_safer():
    a, b = twin(1, 1.0), twin(5, 0.2, qis=("age",), verdict=True)
    cmp = compare_results(a, b, names=("before", "after"))
    by = {f.figure: f for f in cmp.figures}
    assert (by["k"].a, by["k"].b, by["k"].difference, by["k"].safer) == (1, 5, 4.0, "b")
    hr = by["prosecutor: highest record risk"]
    assert hr.difference == pytest.approx(-0.8) and hr.safer == "b"
    assert by["unique records"].safer == "b"
    assert (by["verdict"].a, by["verdict"].b, by["verdict"].safer) == ("fail", "pass", "b")
    assert not by["rows"].changed and by["rows"].safer == ""
    assert by["quasi-identifiers"].a == "age, zip" and by["quasi-identifiers"].changed
    assert cmp.same_data
    assert cmp.roles == {"quasi_identifiers": {"added": [], "removed": ["zip"]}}
    # figures neither report has are left out (no journalist, no remediation, no budget)
    assert not any(f.figure.startswith(("journalist", "epsilon", "k after")) for f in cmp.figures)
    text = comparison_reading(cmp)
    assert "assess the same file" in text and "B drops zip" in text
    assert "k 1 -> 5" in text and "verdict fail -> pass" in text
    table = comparison_table(cmp)
    row = table[table["figure"] == "k"].iloc[0]
    assert (row["A: before"], row["B: after"], row["B - A"], row["safer"]) == ("1", "5", "+4", "B")
    # a share of records reads as a percentage, its difference in points
    risk = table[table["figure"] == "prosecutor: records at risk"].iloc[0]
    assert (risk["A: before"], risk["B - A"]) == ("50.00%", "0")
    assert "Safer: B on" in text and "A on" not in text


def test_different_data_is_said():
    cmp = compare_results(twin(1, 1.0), twin(1, 1.0, sha="bb" * 32, rows=90))
    assert not cmp.same_data
    assert [f.figure for f in cmp.changed] == ["SHA-256", "rows"]
    assert "assess different data" in comparison_reading(cmp)


def test_key_figures_of_a_real_report_match_a_hand_count():
    # classes on q: a (2), b (3), c (1): k = 1, one unique record; on q + r every record is unique
    df = pd.DataFrame({"q": list("aabbbc"), "r": list("xyzuvw"), "s": list("001101")})
    one = review(df, Profile.read({"quasi_identifiers": ["q"], "sensitive": ["s"]})).to_dict()
    two = review(df, Profile.read({"quasi_identifiers": ["q", "r"], "sensitive": ["s"]})).to_dict()
    f1, f2 = key_figures(one), key_figures(two)
    assert (f1["k"], f1["unique records"], f1["equivalence classes"]) == (1, 1, 3)
    assert (f2["k"], f2["unique records"], f2["equivalence classes"]) == (1, 6, 6)
    # homogeneity on q: a {0, 0} and c {1} are homogeneous = 3 people; on q + r all 6
    assert (f1["homogeneity: people exposed (s)"], f2["homogeneity: people exposed (s)"]) == (3, 6)
    assert f1["linkage: re-identified correctly"] == pytest.approx(1 / 6)
    # the verdict compared is each report's own ("passed" in a /2 twin): 1/11 fails both
    assert f1["verdict"] == f2["verdict"] == "fail"
    cmp = compare_results(one, two)
    by = {f.figure: f for f in cmp.figures}
    assert by["unique records"].safer == "a" and by["unique records"].difference == 5


def test_the_targets_are_one_row_per_privacy_model_in_both_schemas():
    # a /1 twin's k, l, t and threshold are k-anonymity, distinct l, t-closeness and the
    # prosecutor's record risk: the same rows as a /2 twin's, with the values judged then
    old = normalized(twin(1, 1.0))
    assert old["targets"] == {
        "k-anonymity": "k 5",
        "distinct-l-diversity": "l 2",
        "record-risk": "threshold 0.2, model prosecutor",
    }
    df = pd.DataFrame({"q": list("aabbbc"), "s": list("001101")})
    profile = Profile.read(
        {"quasi_identifiers": ["q"], "sensitive": ["s"], "targets": {"k": 5, "l": 2,
                                                                     "threshold": 0.2}}
    )  # fmt: skip
    new = review(df, profile).to_dict()
    assert normalized(new)["targets"] == old["targets"]
    cmp = compare_results(twin(1, 1.0), new)
    rows = {f.figure: f for f in cmp.figures if f.figure.startswith("target: ")}
    assert list(rows) == [
        "target: k-anonymity", "target: distinct-l-diversity", "target: record-risk",
    ]  # fmt: skip
    assert not any(f.changed for f in rows.values())


def test_a_file_is_accepted_only_with_the_saved_fingerprint():
    df = pd.DataFrame({"q": ["a", "b", None], "s": [1, 2, 3]})
    saved = dataset_facts(df, sha256="cc" * 32, name="x.csv")
    roles = {"quasi_identifiers": ["q"], "sensitive": ["s"]}
    now = dataset_facts(df, sha256="cc" * 32)
    same = check_dataset(saved, now, roles=roles, columns=["q", "s"])
    assert same.matches and same.differences == ()
    assert "is the one 'x' assessed" in dataset_check_reading(same, "x")
    other = df.iloc[:2]
    facts = dataset_facts(other, sha256="dd" * 32)
    diff = check_dataset(saved, facts, roles=roles, columns=list(other.columns))
    assert not diff.matches
    assert diff.differences == ("sha256", "rows", "missing")
    text = dataset_check_reading(diff, "x")
    assert text.startswith("Refused") and "rows 3 saved, 2 now" in text
    assert "missing cells 1 saved, 0 now" in text
    table = dataset_check_table(diff)
    assert table["same"].tolist() == ["no", "no", "yes", "no"]
    # the same bytes hash alike, but a column its roles name must be present
    gone = check_dataset(saved, dict(saved), roles=roles, columns=["q"])
    assert not gone.matches and gone.missing_columns == ("s",)
    assert "the column s of its roles is absent" in dataset_check_reading(gone, "x")
    # a saved version-2 profile holds its roles under "roles": read the same way
    saved_profile = Profile.read(roles).to_dict()
    gone2 = check_dataset(saved, dict(saved), roles=saved_profile, columns=["q"])
    assert not gone2.matches and gone2.missing_columns == ("s",)


def test_same_shape_other_bytes_is_refused():
    df = pd.DataFrame({"q": ["a", "b"]})
    saved = dataset_facts(df)  # the SHA-256 of the table written as CSV
    changed = dataset_facts(pd.DataFrame({"q": ["a", "c"]}))
    check = check_dataset(saved, changed)
    assert not check.matches and check.differences == ("sha256",)
    assert "but other bytes" in dataset_check_reading(check, "x")


def test_a_missing_figure_reads_none_and_no_difference_is_blank():
    # A has no remediation, B has: A's "records suppressed" is none in the table as in the
    # reading, and a difference that is not a number is blank (it read "-" beside "none")
    a, b = twin(1, 1.0), twin(5, 0.2)
    b["after"] = {"k": 5, "prosecutor": {"highest_risk": 0.2}}
    b["remediation"] = {"suppressed": 3}
    cmp = compare_results(a, b, names=("before", "after"))
    table = comparison_table(cmp)
    row = table[table["figure"] == "records suppressed"].iloc[0]
    assert (row["A: before"], row["B: after"], row["B - A"]) == ("none", "3", "")
    name = table[table["figure"] == "dataset"].iloc[0]
    assert name["B - A"] == ""
    cells = table.drop(columns="figure").to_numpy().ravel().tolist()
    assert "-" not in cells
    assert "records suppressed none -> 3" in comparison_reading(cmp)
