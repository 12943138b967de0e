"""The command line's ``--event``, ``--m`` and ``--household`` (issue 36, items 3 and 4).

``assess`` prints and returns k^m-anonymity of the visits with its rarest sets and the
household risk; ``records`` writes each row's household risk beside its individual risk;
the k^m-anonymity target is judged in the verdict. The figures are checked against pandas
(each household's 1 - prod(1 - r) over its distinct people) and against the metric
functions called directly.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from riskcore.cli import main
from riskcore.demo.claims import make_claims
from riskcore.metrics.longitudinal import km_anonymity
from riskcore.profile import Profile
from tests.riskcore.cases import CLAIMS_IDENTIFIERS, allow

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


def _least_supports(release: pd.DataFrame, person: str, events: list[str], m: int) -> list[int]:
    """Return each released person's least support over their sets of <= m visits (itertools)."""
    sets = release.groupby(person)[events].apply(
        lambda g: frozenset(map(tuple, g.astype(str).to_numpy()))
    )
    every = list(sets)
    out = []
    for held in every:
        out.append(
            min(
                sum(set(x) <= s for s in every)
                for j in range(1, min(m, len(held)) + 1)
                for x in itertools.combinations(sorted(held), j)
            )
        )
    return out


def test_anonymize_generalizes_the_events_and_apply_replays_it(tmp_path, capsys):
    data = tmp_path / "claims.csv"
    make_claims(400, seed=5).to_csv(data, index=False)
    out, recipe, key = tmp_path / "out.csv", tmp_path / "r.json", tmp_path / "key.hex"
    argv = ["anonymize", str(data), "--qi", "age", "--qi", "sex", "--person", "patient_id",
            "--event", "visit_date", "--event", "diagnosis",
            "--hierarchy", "visit_date=date:month,quarter,year", "--k", "3", "--threshold",
            "1/3", "--max-suppression", "0.1", "--out", str(out), "--recipe-out", str(recipe),
            "--key-file", str(key), "--format", "json",
            *allow(*(c for c in CLAIMS_IDENTIFIERS if c != "visit_date"))]  # fmt: skip
    summary = _json(argv, capsys)
    assert summary["events"] == ["visit_date", "diagnosis"]
    spec = json.loads(recipe.read_text())
    assert (spec["version"], spec["events"]) == (8, ["visit_date", "diagnosis"])
    assert spec["quasi_identifiers"] == ["age", "sex", "visit_date", "diagnosis"]
    assert {"kind": "km-anonymity", "k": 3, "m": 2, "events": ["visit_date", "diagnosis"]} in (
        spec["targets"]["criteria"]
    )
    release = pd.read_csv(out, dtype=str)
    # every person's set of at most 2 released visits is held by at least 3 released people
    assert min(_least_supports(release, "patient_id", ["visit_date", "diagnosis"], 2)) >= 3
    level = dict(zip(spec["quasi_identifiers"], spec["levels"], strict=True))
    if level["visit_date"] == 1:  # months: the release holds no day
        assert release["visit_date"].str.fullmatch(r"\d{4}-\d{2}").all()
    again = tmp_path / "again.csv"
    capsys.readouterr()
    assert main(["apply", str(data), "--recipe", str(recipe), "--out", str(again),
                 "--key-file", str(key),
                 *allow(*(c for c in CLAIMS_IDENTIFIERS if c != "visit_date"))]) == 0  # fmt: skip
    assert again.read_bytes() == out.read_bytes()
    assert "people (all of their rows)" in capsys.readouterr().out


def test_a_hierarchy_for_a_column_that_is_neither_a_qi_nor_an_event_is_refused(
    claims_csv, tmp_path, capsys
):
    capsys.readouterr()
    code = main(["anonymize", str(claims_csv), "--qi", "sex", "--person", "patient_id",
                 "--hierarchy", "provider=flat", "--out", str(tmp_path / "o.csv"),
                 "--recipe-out", str(tmp_path / "r.json"), "--key-file",
                 str(tmp_path / "key.hex")])  # fmt: skip
    assert code == 2
    assert "'provider' is given a hierarchy but is not a --qi, --event or --sensitive column" in (
        capsys.readouterr().err
    )


def test_the_engines_refuse_people_events_and_households(tmp_path, capsys):
    data = tmp_path / "claims.parquet"
    make_claims(200, seed=1).to_parquet(data)
    capsys.readouterr()
    code = main(["anonymize", str(data), "--engine", "arrow", "--qi", "sex",
                 "--person", "patient_id", "--event", "diagnosis",
                 "--out", str(tmp_path / "o.parquet"),
                 "--recipe-out", str(tmp_path / "r.json")])  # fmt: skip
    assert code == 2
    assert "the person column 'patient_id' works on each record, which the arrow engine" in (
        capsys.readouterr().err
    )


def test_the_report_reproduces_the_event_options(claims_csv, tmp_path, capsys):
    from riskcore.roles import ColumnRoles

    prof = tmp_path / "p.json"
    prof.write_text(Profile(roles=ColumnRoles(quasi_identifiers=("sex",))).to_json())
    html, twin = tmp_path / "r.html", tmp_path / "r.json"
    assert main(["report", str(claims_csv), "--profile", str(prof), "--person", "patient_id",
                 "--event", "diagnosis", "--m", "1", "--household", "household_id",
                 "--out", str(html), "--json", str(twin), "--db",
                 str(tmp_path / "none.db")]) in (0, 1)  # fmt: skip
    doc = json.loads(twin.read_text())
    for part in ("--event diagnosis", "--m 1", "--household household_id", "--person patient_id"):
        assert part in doc["command"]
    assert doc["before"]["km_anonymity"]["m"] == 1
    assert "Many rows per person" in html.read_text()
