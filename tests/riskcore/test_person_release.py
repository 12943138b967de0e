"""A release in people: the search, its suppression limit and the written table (issue 36).

Every release is checked apart from riskcore: each kept person's set of generalized QI
tuples (pandas, on the written table), grouped by the person column, must be shared by
at least k people, and every person keeps all of their rows or none.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from riskcore.cli import main
from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import default_hierarchy, flat_hierarchy
from riskcore.deidentify.search.lattice import Lattice
from riskcore.deidentify.search.run import search
from riskcore.demo.claims import make_claims
from tests.riskcore.cases import CLAIMS_IDENTIFIERS, allow

QIS = ["age", "sex", "zip"]


def _smallest_class(release: pd.DataFrame, qis: list[str], person: str) -> int:
    text = release[qis].astype(str).agg("|".join, axis=1)
    signature = text.groupby(release[person].to_numpy()).agg(lambda s: tuple(sorted(set(s))))
    return int(signature.value_counts().min())


def _whole_people(
    original: pd.DataFrame, release: pd.DataFrame, person: str, released_as: str | None = None
) -> bool:
    before = original.groupby(person).size()
    after = release.groupby(released_as or person).size()
    return bool((before.loc[after.index] == after).all())


@pytest.fixture(scope="module")
def claims() -> pd.DataFrame:
    return make_claims(1_500, seed=4)


def test_the_least_loss_release_holds_k_people_per_class(claims: pd.DataFrame) -> None:
    hierarchies = {q: default_hierarchy(claims[q]) for q in QIS}
    targets = Targets.of(k=5, max_suppression=0.04)
    lattice = Lattice(claims, hierarchies, targets=targets, person="patient_id")
    assert lattice.n == claims["patient_id"].nunique() and lattice.n_rows == len(claims)
    best = search(lattice).best
    assert best is not None and best.k >= 5
    assert best.suppressed <= 0.04 * lattice.n  # the limit counts people
    out = lattice.apply(claims, best.levels)
    assert _smallest_class(out, QIS, "patient_id") >= 5
    assert _whole_people(claims, out, "patient_id")
    kept = out["patient_id"].nunique()
    assert lattice.n - kept == best.suppressed
    assert len(claims) - len(out) == best.suppressed_rows


def test_rows_counted_as_people_would_break_k(claims: pd.DataFrame) -> None:
    """The row search's node, judged in people, has classes below k: why the unit matters."""
    hierarchies = {q: default_hierarchy(claims[q]) for q in QIS}
    targets = Targets.of(k=5, max_suppression=0.04)
    rows = Lattice(claims, hierarchies, targets=targets)
    best = search(rows).best
    assert best is not None
    out = rows.apply(claims, best.levels)
    assert _smallest_class(out, QIS, "patient_id") < 5


def test_a_person_whose_qis_change_is_judged_on_the_set() -> None:
    # p1 is 30 then 31; p2 and p3 are 30; p4 and p5 are 31: at the bottom p1 is alone, and
    # once age is suppressed everyone shares one class of 5 people
    df = pd.DataFrame(
        {
            "pid": ["p1", "p1", "p2", "p3", "p4", "p5", "p5"],
            "age": [30, 31, 30, 30, 31, 31, 31],
        }
    )
    lattice = Lattice(df, {"age": flat_hierarchy(df["age"])}, targets=Targets.of(k=2), person="pid")
    _, sizes = lattice.classes([0])
    assert sorted(sizes.tolist()) == [1, 2, 2]
    node = lattice.evaluate([0])
    assert node.suppressed == 1 and node.suppressed_rows == 2 and not node.anonymous
    assert lattice.evaluate([1]).k == 5
    failing = lattice.record_failing([0])
    assert failing.tolist() == [True, True, False, False, False, False, False]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_anonymize_with_a_person_writes_k_people_per_class(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "claims.csv"
    make_claims(800, seed=5).to_csv(data, index=False)
    out, recipe, key = tmp_path / "rel.csv", tmp_path / "recipe.json", tmp_path / "key.hex"
    code, text, err = _run(
        [
            "anonymize", str(data), "--qi", "age", "--qi", "sex", "--qi", "zip",
            "--person", "patient_id", "--k", "5", "--max-suppression", "0.05",
            "--out", str(out), "--recipe-out", str(recipe), "--key-file", str(key),
            *allow(*CLAIMS_IDENTIFIERS),
        ],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    assert re.search(r"k = \d+ people; suppressed [\d,]+ of 800 people", text)
    original = pd.read_csv(data, dtype=str)
    release = pd.read_csv(out, dtype=str)
    # the person is a keyed token, one per person, never the identifier
    assert not set(release["patient_id"]) & set(original["patient_id"])
    assert release["patient_id"].str.fullmatch(r"[0-9a-f]{16}").all()
    assert _smallest_class(release, QIS, "patient_id") >= 5
    by_claim = original.set_index("claim_id")["patient_id"]
    kept = release.assign(original=by_claim.loc[release["claim_id"]].to_numpy())
    assert _whole_people(original, kept, "patient_id", "original")
    assert kept.groupby("original")["patient_id"].nunique().max() == 1
    spec = json.loads(recipe.read_text())
    assert spec["person"] == "patient_id" and spec["version"] == 8
    again = tmp_path / "again.csv"
    code, _, err = _run(
        [
            "apply",
            str(data),
            "--recipe",
            str(recipe),
            "--key-file",
            str(key),
            "--out",
            str(again),
            *allow(*CLAIMS_IDENTIFIERS),
        ],
        capsys,
    )
    assert code == 0, err
    assert pd.read_csv(again, dtype=str).equals(release)


def test_cli_apply_refuses_a_table_without_the_person(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    df = make_claims(300, seed=6)
    data, other = tmp_path / "claims.csv", tmp_path / "other.csv"
    df.to_csv(data, index=False)
    df.drop(columns="patient_id").to_csv(other, index=False)
    recipe, key = tmp_path / "recipe.json", tmp_path / "key.hex"
    code, _, err = _run(
        [
            "anonymize", str(data), "--qi", "sex", "--qi", "race", "--person", "patient_id",
            "--k", "2", "--out", str(tmp_path / "r.csv"), "--recipe-out", str(recipe),
            "--key-file", str(key), *allow(*CLAIMS_IDENTIFIERS),
        ],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    code, _, err = _run(
        ["apply", str(other), "--recipe", str(recipe), "--key-file", str(key),
         "--out", str(tmp_path / "x.csv"), *allow(*CLAIMS_IDENTIFIERS)],
        capsys,
    )  # fmt: skip
    assert code == 2
    assert "patient_id" in err and "links the rows of one person" in err


def test_cli_assess_with_a_person_counts_people(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, err = _run(
        ["assess", "claims:400", "--qi", "sex", "--qi", "race", "--qi", "zip",
         "--person", "patient_id", "--format", "json"],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    out = json.loads(text)
    df = make_claims(400)
    sig = df.groupby("patient_id")[["sex", "race", "zip"]].agg(lambda s: tuple(sorted(set(s))))
    counts = sig.astype(str).agg("|".join, axis=1).value_counts()
    assert (out["n_people"], out["n_records"], out["k"]) == (400, len(df), int(counts.min()))
    assert out["verdict"]["person"] == "patient_id"
    assert np.isclose(out["prosecutor"]["success_rate"], len(counts) / 400)


def test_local_suppression_counts_people_and_blanks_all_of_a_person_s_rows() -> None:
    from riskcore.perturb import local_suppression
    from riskcore.perturb.judge import k_verdict
    from riskcore.perturb.steps import record_step, run_step

    df = make_claims(500, seed=9)
    qis = ["sex", "race", "zip"]
    res = local_suppression(df, qis, 3, person="patient_id")
    one = df.drop_duplicates("patient_id").reset_index(drop=True)
    alone = local_suppression(one, qis, 3)
    assert res.people_touched == alone.records_touched
    blanks = pd.DataFrame(res.cells, columns=qis).groupby(df["patient_id"].to_numpy())
    assert int(blanks.nunique().to_numpy().max()) == 1  # a person's rows alike
    mine = blanks.first().loc[one["patient_id"]].to_numpy()
    np.testing.assert_array_equal(mine, alone.cells)
    # judged apart: every person now matches at least 3 people (a blank matching any value)
    assert k_verdict(res.data, qis, 3, person="patient_id").needed == 0
    assert k_verdict(df, qis, 3, person="patient_id").needed > 0
    again = run_step(df, record_step(res).to_dict())
    assert again.data.equals(res.data)


def test_local_suppression_refuses_people_whose_qis_change() -> None:
    from riskcore.errors import RiskcoreError
    from riskcore.perturb import local_suppression

    with pytest.raises(RiskcoreError, match="different quasi-identifier values"):
        local_suppression(make_claims(200, seed=1), ["sex", "age"], 2, person="patient_id")


def test_cli_apply_person_must_be_the_recipe_s(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    df = make_claims(300, seed=7)
    data = tmp_path / "claims.csv"
    df.to_csv(data, index=False)
    made = {}
    for unit, extra in (("people", ["--person", "patient_id"]), ("rows", [])):
        recipe, key = tmp_path / f"{unit}.json", tmp_path / f"{unit}.hex"
        code, _, err = _run(
            ["anonymize", str(data), "--qi", "sex", "--qi", "race", "--k", "2", *extra,
             "--out", str(tmp_path / f"{unit}.csv"), "--recipe-out", str(recipe),
             "--key-file", str(key), *allow(*CLAIMS_IDENTIFIERS, "patient_id")],
            capsys,
        )  # fmt: skip
        assert code == 0, err
        made[unit] = (recipe, key)
    recipe, key = made["people"]
    out = ["--out", str(tmp_path / "x.csv"), "--key-file", str(key), *allow(*CLAIMS_IDENTIFIERS)]
    code, _, err = _run(
        ["apply", str(data), "--recipe", str(recipe), "--person", "household_id", *out], capsys
    )
    assert code == 2 and "counts people of 'patient_id', not of 'household_id'" in err
    code, _, err = _run(
        ["apply", str(data), "--recipe", str(recipe), "--person", "patient_id", *out], capsys
    )
    assert code == 0, err
    recipe, key = made["rows"]
    code, _, err = _run(
        ["apply", str(data), "--recipe", str(recipe), "--person", "patient_id", "--out",
         str(tmp_path / "y.csv")] + (["--key-file", str(key)] if key.exists() else []),
        capsys,
    )  # fmt: skip
    assert code == 2 and "made counting rows" in err


def test_a_record_s_cover_counts_people() -> None:
    """The least generalization putting a row's person in a class of k people, against a
    pandas count of people per generalized value (one QI tuple per person)."""
    from riskcore.deidentify.search.cover import cover_record
    from riskcore.errors import RiskcoreError

    df = make_claims(400, seed=11)
    qis = ["sex", "zip"]
    hierarchies = {q: default_hierarchy(df[q]) for q in qis}
    lattice = Lattice(df, hierarchies, targets=Targets.of(k=6), person="patient_id")
    rows = Lattice(df, hierarchies, targets=Targets.of(k=6))
    row = int(np.flatnonzero(df["patient_id"].duplicated(keep=False).to_numpy())[0]) + 1
    c = cover_record(lattice, row)
    assert c.person == "patient_id" and c.levels is not None
    general = lattice.apply(df, c.levels, suppression="mask")  # every row, generalized
    key = general[qis].astype(str).agg("|".join, axis=1)
    people = df["patient_id"].groupby(key.to_numpy()).nunique()
    assert c.covered_size == int(people[key.iloc[row - 1]]) >= 6
    assert c.class_size == int(
        df["patient_id"]
        .groupby(df[qis].astype(str).agg("|".join, axis=1).to_numpy())
        .nunique()["|".join(df[qis].astype(str).iloc[row - 1])]
    )
    assert cover_record(rows, row).class_size >= c.class_size  # rows count the visits too
    changing = Lattice(
        df, {q: default_hierarchy(df[q]) for q in ["sex", "age"]}, person="patient_id"
    )
    with pytest.raises(RiskcoreError, match="different quasi-identifier values"):
        cover_record(changing, row)


@pytest.mark.parametrize("engine", ["arrow", "duckdb"])
def test_cli_assess_in_people_on_an_engine_equals_in_memory(
    engine: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "claims.parquet"
    make_claims(600, seed=12).to_parquet(data, index=False)
    args = ["assess", str(data), "--qi", "sex", "--qi", "zip", "--qi", "age", "--sensitive",
            "diagnosis", "--person", "patient_id", "--format", "json"]  # fmt: skip
    outs = []
    for name in ("pandas", engine):
        code, text, err = _run([*args, "--engine", name], capsys)
        assert code == 0, err
        outs.append(json.loads(text))
    memory, other = outs
    for key in ("n_people", "n_records", "k", "n_classes", "unique_records", "prosecutor"):
        assert other[key] == memory[key], key
    assert other["sensitive"]["diagnosis"] == memory["sensitive"]["diagnosis"]
    assert other["engine"] == engine and memory["n_people"] == 600


def test_the_report_states_people_in_rows() -> None:
    from riskcore.profile import Profile
    from riskcore.report.render import render_html
    from riskcore.review import review
    from riskcore.roles import ColumnRoles

    df = make_claims(300, seed=13)
    roles = ColumnRoles(quasi_identifiers=("sex", "race"), persons=("patient_id",))
    r = review(df, Profile(roles=roles, targets=Targets.of(k=2)), name="claims.csv")
    text = render_html(r, figures=False)
    n = df["patient_id"].nunique()
    assert f"{n:,} (linked by patient_id)" in text
    assert f"The unit of privacy is one person: {n:,} people in {len(df):,} rows" in text
    assert "share of the people a remediation may remove" in text
    twin = r.to_dict()
    assert twin["before"]["n_people"] == n and twin["before"]["n_records"] == len(df)
    assert twin["verdict_before"]["person"] == "patient_id"


def test_events_with_missing_matching_any_value_judge_the_bottom_as_the_assessment() -> None:
    """With event columns and the policy "any" the lattice's classes are over the QIs alone
    (it once built their table with the events' codes too, and failed)."""
    from riskcore import assess
    from riskcore.criteria import KmAnonymity, evaluate

    df = make_claims(300, seed=3)
    some = df["patient_id"].isin(df["patient_id"].unique()[:5])
    df.loc[some, "race"] = None  # a whole person's race unknown
    km = KmAnonymity(k=10, m=1, events=("diagnosis",))
    targets = Targets(criteria=(*Targets.of(k=10).criteria, km))
    hierarchies = {
        "sex": default_hierarchy(df["sex"]),
        "race": flat_hierarchy(df["race"]),
        "diagnosis": flat_hierarchy(df["diagnosis"]),
    }
    lattice = Lattice(
        df, hierarchies, targets=targets, person="patient_id", events=("diagnosis",),
        missing="any",
    )  # fmt: skip
    a = assess(
        df, quasi_identifiers=["sex", "race"], person="patient_id", missing="any",
        events=("diagnosis",), m=1,
    )  # fmt: skip
    judged = evaluate(targets, a.evidence)
    bottom = lattice.judge([0, 0, 0])[2]
    want = evaluate(targets, a.evidence, suppress=True)
    assert (bottom.needed, bottom.passed) == (want.needed, want.passed)
    assert judged.needed > 0
