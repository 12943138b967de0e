"""Command line and demo data."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from riskcore.cli import main
from riskcore.demo import make_people
from riskcore.metrics import assess
from riskcore.metrics.population import PopulationUniqueness
from riskcore.report.readings import population_reading
from tests.conftest import ROOT, shared_file
from tests.riskcore.reference import reference_assessment


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "riskcore", *args], capture_output=True, text=True, cwd=ROOT
    )


def test_cli_json_on_uci_adult_matches_reference():
    path = shared_file("adult.csv")
    out = run_cli(
        "assess",
        str(path),
        "--qi",
        "sex",
        "--qi",
        "race",
        "--qi",
        "relationship",
        "--sensitive",
        "income",
        "--sensitive",
        "education-num",
        "--format",
        "json",
    )
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    import pandas as pd

    df = pd.read_csv(path)
    ref = reference_assessment(
        df, ["sex", "race", "relationship"], ["income", "education-num"], ordered=("education-num",)
    )
    for key in ("n_records", "n_classes", "k", "unique_records"):
        assert got[key] == ref[key]
    for key, v in ref["prosecutor"].items():
        assert got["prosecutor"][key] == pytest.approx(v)
    for s in ("income", "education-num"):
        for key, v in ref["sensitive"][s].items():
            assert got["sensitive"][s][key] == pytest.approx(v)
    assert got["sensitive"]["education-num"]["distance"] == "ordered"
    assert got["sensitive"]["income"]["distance"] == "equal"
    assert got["sensitive"]["income"]["c"] == 2.0


def test_cli_column_names_with_commas_and_spaces(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text('"zip, 5 digit",Marital Status,dx\n02139,Single,flu\n02139,Single,hiv\n')
    assert (
        main(
            [
                "assess",
                str(p),
                "--qi",
                "zip, 5 digit",
                "--qi",
                "Marital Status",
                "--sensitive",
                "dx",
                "--format",
                "json",
            ]
        )
        == 0
    )


def test_cli_text_and_errors(tmp_path, capsys):
    assert main(["assess", "demo:500", "--qi", "age", "--qi", "sex", "--sensitive", "income"]) == 0
    out = capsys.readouterr().out
    assert "k-anonymity: k =" in out and "income" in out
    assert main(["assess", str(tmp_path / "none.csv"), "--qi", "a"]) == 2
    assert "there is no file" in capsys.readouterr().err
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2,3\n")
    assert main(["assess", str(bad), "--qi", "a"]) == 2
    assert (
        "line 2 has 3 fields, the header has 2: data row 1 has more fields than the header"
        in capsys.readouterr().err
    )
    assert main(["assess", "demo:500", "--qi", "nope"]) == 2
    assert "no column 'nope'" in capsys.readouterr().err


def test_cli_usage_error_exit_code():
    out = run_cli("assess", "demo:200")
    assert out.returncode == 2
    assert "--qi" in out.stderr
    assert "Traceback" not in out.stderr


def test_demo_is_seeded_and_realistic():
    a, b = make_people(2000, seed=3), make_people(2000, seed=3)
    assert a.equals(b)
    assert not a.equals(make_people(2000, seed=4))
    df = make_people(32_561)
    assert df["zip"].astype(str).str.len().eq(5).all()
    assert df["zip"].astype(str).str.startswith("0").any()  # leading zeros present
    assert df["ssn"].str.match(r"^9\d\d-\d\d-\d{4}$").all()  # never-issued area numbers
    assert 0.64 < (df["sex"] == "Male").mean() < 0.70  # Adult: 66.9%
    assert 0.21 < (df["income"] == ">50K").mean() < 0.27  # Adult: 24.1%
    assert 0.04 < df["workclass"].isna().mean() < 0.07  # Adult: 5.6% missing
    assert 36 < df["age"].mean() < 41 and df["age"].min() == 17  # Adult: mean 38.6
    dob_zip = assess(df, quasi_identifiers=["date_of_birth", "zip"])
    age_sex = assess(df, quasi_identifiers=["age", "sex"])
    assert dob_zip.unique_records / dob_zip.n_records > 0.95
    assert age_sex.unique_records / age_sex.n_records < 0.01


def test_demo_rejects_bad_sizes():
    with pytest.raises(ValueError, match=r"between 100 and 10,000,000"):
        make_people(99)
    with pytest.raises(TypeError):
        make_people(1.5)  # type: ignore[arg-type]
    assert np.all(make_people(100)["age"] >= 17)


def test_riskcore_does_not_import_streamlit():
    code = (
        "import importlib, pkgutil, sys, riskcore\n"
        "for m in pkgutil.walk_packages(riskcore.__path__, 'riskcore.'):\n"
        "    if m.name != 'riskcore.__main__':\n"
        "        importlib.import_module(m.name)\n"
        "print(len(sys.modules) > 100, 'streamlit' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "True False", out.stderr


def test_cli_text_carries_the_population_figures_of_the_json(capsys):
    args = ["assess", "demo:3000", "--qi", "age", "--qi", "sex", "--qi", "zip"]
    args += ["--sampling-fraction", "0.05"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert main([*args, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    pu, j = data["population_uniqueness"], data["journalist"]
    assert f"{pu['uniques']:,.0f} of about {pu['population_size']:,.0f} people" in text
    assert f"with the {pu['model']} model (Dankar et al. 2012 rule)" in text
    # the dashboard's sentence word for word, estimates and warning included
    assert population_reading(PopulationUniqueness.from_dict(pu)) in text
    assert f"Journalist risk: highest {j['highest_risk']:.4f}" in text
    assert "individual-risk model of Benedetti and Franconi" in text
    # a sample unique's record risk at pi = 0.05 is (p/q) ln(1/p) = 0.1577
    assert j["highest_risk"] == pytest.approx((0.05 / 0.95) * np.log(20))


EDUCATION = [  # Adult's education levels by education-num, 1 (Preschool) to 16 (Doctorate)
    "Preschool", "1st-4th", "5th-6th", "7th-8th", "9th", "10th", "11th", "12th", "HS-grad",
    "Some-college", "Assoc-voc", "Assoc-acdm", "Bachelors", "Masters", "Prof-school",
    "Doctorate",
]  # fmt: skip


def test_cli_order_gives_text_the_ordered_distance():
    """Issue 12: the CLI had no way to order a text attribute for ordered t-closeness."""
    path = shared_file("adult.csv")
    qis = ["--qi", "sex", "--qi", "race", "--qi", "relationship"]
    import pandas as pd

    df = pd.read_csv(path, skipinitialspace=True)
    # the order is education-num's: education and education-num are one-to-one
    pairs = df[["education", "education-num"]].drop_duplicates().sort_values("education-num")
    assert pairs["education"].str.strip().tolist() == EDUCATION
    out = run_cli(
        "assess", str(path), *qis, "--sensitive", "education",
        "--order", "education=" + ",".join(EDUCATION), "--format", "json",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)["sensitive"]["education"]
    ref = reference_assessment(
        df, ["sex", "race", "relationship"], ["education-num"], ordered=("education-num",)
    )["sensitive"]["education-num"]
    assert got["distance"] == "ordered"
    for key, v in ref.items():  # t-closeness and the l-diversity figures
        assert got[key] == pytest.approx(v), key
    # without the order the text is refused, and the message says how to give one
    out = run_cli("assess", str(path), *qis, "--sensitive", "education",
                  "--distance", "education=ordered")  # fmt: skip
    assert out.returncode == 2 and "--order education=LOWEST,...,HIGHEST" in out.stderr
    # a value the column does not hold is named, not dropped
    out = run_cli("assess", str(path), *qis, "--sensitive", "education",
                  "--order", "education=Preschool,Bachelor")  # fmt: skip
    assert out.returncode == 2 and "'Bachelor' is not a value of the column" in out.stderr
