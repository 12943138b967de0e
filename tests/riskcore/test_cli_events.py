"""The command line's ``--event``, ``--m`` and ``--household`` (issue 36, items 3 and 4).

``assess`` prints and returns k^m-anonymity of the visits with its rarest sets and the
household risk; ``records`` writes each row's household risk beside its individual risk;
the k^m-anonymity target is judged in the verdict. The figures are checked against pandas
(each household's 1 - prod(1 - r) over its distinct people) and against the metric
functions called directly.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from riskcore.cli import main
from riskcore.demo.claims import make_claims
from riskcore.metrics.longitudinal import km_anonymity
from riskcore.profile import Profile

PEOPLE = ["--person", "patient_id", "--qi", "sex", "--qi", "zip"]


@pytest.fixture(scope="module")
def claims_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("claims") / "claims.csv"
    make_claims(300, seed=2).to_csv(path, index=False)
    return path


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    capsys.readouterr()
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_assess_returns_km_anonymity_and_the_household_risk(claims_csv, capsys):
    out = _json(
        ["assess", str(claims_csv), *PEOPLE, "--event", "diagnosis", "--m", "2",
         "--household", "household_id", "--format", "json"],
        capsys,
    )  # fmt: skip
    df = pd.read_csv(claims_csv, dtype=str)
    direct = km_anonymity(df, "patient_id", ["diagnosis"], k=11, m=2)
    km = out["km_anonymity"]
    assert (km["k_achieved"], km["people_at_risk"], km["m"], km["k"]) == (
        direct.k_achieved,
        direct.people_at_risk,
        2,
        11,
    )
    assert km["rarest"][0]["support"] == direct.rarest[0].support
    # the target: k of the k = 11 preset, judged in the verdict
    kinds = {c["kind"]: c for c in out["verdict"]["checks"]}
    assert kinds["km-anonymity"]["target"] == 11
    assert kinds["km-anonymity"]["achieved"] == direct.k_achieved
    assert {"kind": "km-anonymity", "k": 11, "m": 2, "events": ["diagnosis"]} in out["targets"][
        "criteria"
    ]
    hh = out["household"]
    assert (hh["household"], hh["person"], hh["n_members"]) == ("household_id", "patient_id", 300)


def test_assess_prints_the_reading_and_the_rarest_visits(claims_csv, capsys):
    capsys.readouterr()
    main(["assess", str(claims_csv), *PEOPLE, "--event", "diagnosis", "--event", "provider",
          "--household", "household_id"])  # fmt: skip
    text = capsys.readouterr().out
    assert "An attacker who knows up to 2 of a person's visits (diagnosis + provider" in text
    assert "(diagnosis = " in text and "held by 1, the rarest set of" in text
    assert "Counting households (household_id)" in text
    assert "k^m-anonymity (m = 2)" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--qi", "sex", "--event", "diagnosis"], "--event needs --person COL"),
        ([*PEOPLE, "--m", "3"], "--m is the m of k^m-anonymity: give the event columns"),
        ([*PEOPLE, "--event", "diagnosis", "--m", "0"], "--m must be at least 1"),
        ([*PEOPLE, "--event", "sex"], "the event column 'sex' cannot be a quasi-identifier"),
        ([*PEOPLE, "--household", "patient_id"], "cannot be the person too"),
    ],
)
def test_bad_event_options_are_refused(claims_csv, capsys, argv, message):
    capsys.readouterr()
    assert main(["assess", str(claims_csv), *argv]) == 2
    assert message in capsys.readouterr().err


def test_the_profile_records_events_m_and_household(claims_csv, tmp_path, capsys):
    prof = tmp_path / "p.json"
    first = _json(
        ["assess", str(claims_csv), *PEOPLE, "--event", "diagnosis", "--m", "1",
         "--household", "household_id", "--k", "3", "--format", "json", "--profile-out",
         str(prof)],
        capsys,
    )  # fmt: skip
    p = Profile.read(prof)
    # a new profile given --k 3 has that target alone: k^m is judged with k = 3
    assert (p.events, p.m, p.household, p.event_k) == (("diagnosis",), 1, "household_id", 3)
    again = _json(["assess", str(claims_csv), "--profile", str(prof), "--format", "json"], capsys)
    assert again["km_anonymity"] == first["km_anonymity"]
    assert again["verdict"] == first["verdict"]


def test_records_writes_the_household_risk_beside_the_individual_risk(claims_csv, tmp_path, capsys):
    out = tmp_path / "r.csv"
    assert main(["records", str(claims_csv), *PEOPLE, "--household", "household_id",
                 "--event", "diagnosis", "--out", str(out)]) == 0  # fmt: skip
    table = pd.read_csv(out)
    cols = list(table.columns)
    assert cols[cols.index("individual_risk") + 1] == "household_risk"
    df = pd.read_csv(claims_csv, dtype=str)
    # pandas: each person once with their risk, 1 - prod(1 - r) over a household's people
    people = pd.DataFrame(
        {"p": df["patient_id"], "h": df["household_id"], "r": table["individual_risk"]}
    ).drop_duplicates("p")
    keep = people.groupby("h")["r"].agg(lambda r: 1 - np.prod(1 - r.to_numpy()))
    np.testing.assert_allclose(table["household_risk"], keep.loc[df["household_id"]].to_numpy())
    assert table["failing_targets"].str.contains(r"k\^2<11").any()
    assert "Household risk (household_id)" in capsys.readouterr().out
