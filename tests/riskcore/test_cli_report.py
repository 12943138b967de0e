"""``python -m riskcore report``: the twin's numbers are assess's; its command reproduces them."""

from __future__ import annotations

import hashlib
import json
import os
import shlex

import pytest

from riskcore.cli import main
from riskcore.demo import make_people
from riskcore.io import load_table
from riskcore.metrics import Population, assess

PROFILE = {
    "riskcore_roles": 1,
    "identifiers": ["name", "ssn"],
    "quasi_identifiers": ["age", "sex", "zip"],
    "sensitive": ["income"],
    "targets": {"k": 3, "l": 2},
    "sampling_fraction": 0.05,
}


@pytest.fixture
def files(tmp_path):
    data = tmp_path / "people.csv"
    make_people(800).to_csv(data, index=False)
    profile = tmp_path / "profile.json"
    profile.write_text(json.dumps(PROFILE))
    return data, profile


def test_the_json_twin_equals_assess_on_the_same_file(files, tmp_path, capsys):
    data, profile = files
    out, twin = tmp_path / "r.html", tmp_path / "r.json"
    code = main(
        ["report", str(data), "--profile", str(profile), "--out", str(out), "--json", str(twin)]
    )
    assert code == 0, capsys.readouterr().err
    got = json.loads(twin.read_text())
    # a version-1 profile without a threshold had 0.09, which stood for k = 11: now 1/11
    expected = assess(
        load_table(str(data)).data,
        quasi_identifiers=["age", "sex", "zip"],
        sensitive=["income"],
        threshold=1 / 11,
        population_model=Population(sampling_fraction=0.05),
    )
    assert got["before"] == json.loads(json.dumps(expected.to_dict()))
    assert got["dataset"]["sha256"] == hashlib.sha256(data.read_bytes()).hexdigest()
    assert got["dataset"]["fingerprint_of"] == "the file's bytes"
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    # the verdict printed is the twin's (k = 1 on the raw table fails k = 3)
    assert got["verdict"]["passed"] is False
    assert capsys.readouterr().out.startswith("FAIL: The table as recorded does not meet")


def test_the_command_in_the_report_reproduces_it(files, tmp_path, monkeypatch):
    data, profile = files
    first = tmp_path / "first.json"
    assert (
        main(
            [
                "report",
                str(data),
                "--profile",
                str(profile),
                "--out",
                str(tmp_path / "a.html"),
                "--json",
                str(first),
                "--no-figures",
                "--k",
                "2",
                "--threshold",
                "1/3",
                "--missing",
                "any",
            ]
        )
        == 0
    )
    command = json.loads(first.read_text())["command"]
    argv = shlex.split(command)
    assert argv[:3] == ["python", "-m", "riskcore"]
    # the options that replaced the profile's values are part of the command
    assert ["--k", "2"] == argv[argv.index("--k") : argv.index("--k") + 2]
    assert "--missing any" in command and f"--threshold {1 / 3!r}" in command
    # the command names the files, not the analyst's directories: it runs where they are
    assert str(tmp_path) not in command
    again = tmp_path
    monkeypatch.chdir(again)
    assert main(argv[3:]) == 0
    twin, before = (json.loads(p.read_text()) for p in (again / "report.json", first))
    assert twin["built_at"] >= before["built_at"]  # each report states when it was built
    assert {**twin, "built_at": None} == {**before, "built_at": None}
    assert twin["profile"]["targets"]["criteria"][-2:] == [
        {"kind": "k-anonymity", "k": 2},
        {"kind": "record-risk", "threshold": 1 / 3, "model": "prosecutor"},
    ]
    assert os.path.getsize(again / "report.html") > 3_000_000  # figures and plotly.js


@pytest.mark.parametrize(
    ("profile", "message"),
    [
        ("not json", "the profile is not valid JSON"),
        ('{"quasi_identifiers": ["nope"]}', "'nope' is not in the table"),
        (
            '{"quasi_identifiers": ["age"], "targets": {"k": -1}}',
            "k must be a whole number of at least 1, not -1",
        ),
    ],
)
def test_bad_profiles_exit_2_with_a_message(files, tmp_path, capsys, profile, message):
    data, path = files
    path.write_text(profile)
    code = main(["report", str(data), "--profile", str(path), "--out", str(tmp_path / "x.html")])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "x.html").exists()


def test_a_missing_profile_file_exits_2(files, tmp_path, capsys):
    data, _ = files
    code = main(
        [
            "report",
            str(data),
            "--profile",
            str(tmp_path / "absent.json"),
            "--out",
            str(tmp_path / "x.html"),
        ]
    )
    assert code == 2
    assert "cannot read the profile" in capsys.readouterr().err


def test_pdf_carries_the_same_twin_as_the_json_file(files, tmp_path):
    from pypdf import PdfReader

    data, profile = files
    twin, pdf = tmp_path / "r.json", tmp_path / "r.pdf"
    argv = ["report", str(data), "--profile", str(profile), "--out", str(tmp_path / "r.html")]
    assert main([*argv, "--json", str(twin), "--pdf", str(pdf), "--no-figures"]) == 0
    (embedded,) = PdfReader(pdf).attachments["report.json"]
    assert json.loads(embedded) == json.loads(twin.read_text())
