"""The README's examples run as written, and so do the Python examples the site moved out of
it (documentation that cannot drift)."""

from __future__ import annotations

import hashlib
import hmac
import math
import re
import shlex
from pathlib import Path

import pandas as pd
import pytest

from riskcore.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BY_EXAMPLE = ROOT / "docs" / "reference" / "python.md"


def blocks(path: Path, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.S)


def test_readme_is_under_8_kb():
    assert README.stat().st_size <= 8192, "README.md is over 8 KB: move the detail to docs/"


def test_readme_python_example_runs_and_is_right():
    (block,) = blocks(README, "python")
    assert len(block.strip().splitlines()) == 5
    namespace: dict[str, object] = {}
    exec(compile(block, str(README), "exec"), namespace)  # our own README
    a, df = namespace["a"], namespace["df"]
    # independently: class sizes from a pandas group-by over the five QIs
    qis = ["age", "sex", "race", "marital_status", "education"]
    sizes = df.groupby(qis, observed=True, dropna=False).size()
    assert a.k == sizes.min() == 1
    assert a.unique_records == int((sizes == 1).sum())
    # prosecutor records at risk: records in classes with 1/f > 1/11, i.e. f < 11
    assert a.prosecutor.records_at_risk == pytest.approx(sizes[sizes < 11].sum() / len(df))
    # and the README's prose states the unique share of those figures
    text = README.read_text(encoding="utf-8")
    share = f"{a.unique_records:,} people, {100 * a.unique_records / len(df):.1f}%"
    assert share in text


def test_readme_cli_example_runs(tmp_path, monkeypatch, capsys):
    (block,) = re.findall(
        r"<!-- cli-example -->\n```bash\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S
    )
    lines = block.strip().splitlines()
    assert len(lines) == 5 and all(line.startswith("riskcore ") for line in lines)
    monkeypatch.chdir(tmp_path)
    for line in lines:
        assert main(shlex.split(line)[1:]) == 0, line
    out = capsys.readouterr().out
    assert "k-anonymity: k = 1" in out
    release, again = pd.read_csv("release.csv"), pd.read_csv("again.csv")
    pd.testing.assert_frame_equal(release, again)  # apply replays anonymize
    sizes = release.groupby(["age", "sex", "zip"], dropna=False).size()
    assert sizes.min() >= 11  # the released table meets k = 11
    assert len(pd.read_csv("risk.csv")) == 32_561
    assert Path("report.html").stat().st_size > 0 and Path("report.json").is_file()


def test_python_by_example_blocks_run_in_order():
    found = blocks(BY_EXAMPLE, "python")
    assert len(found) >= 2, "docs/reference/python.md lost its Python API examples"
    namespace: dict[str, object] = {}
    for block in found:
        exec(compile(block, str(BY_EXAMPLE), "exec"), namespace)  # our own docs
    # the figures the page states beside the calls, from their formulas:
    # Laplace 95% half-width b ln 20 with b = 1 / epsilon = 1 (the page: 2.996), and
    # Lee & Clifton's epsilon = ln((m - 1) rho / (1 - rho)) with m = 100, rho = 0.015 (0.4105)
    dp = namespace["dp"]
    sens = dp.sensitivity("count")
    half_width = dp.error_curve(7161, sens, mechanism="laplace").at(1.0).half_width
    assert half_width == pytest.approx(math.log(20)) and f"{math.log(20):.3f}" == "2.996"
    expected = math.log(99 * 0.015 / 0.985)
    assert dp.identifiability_epsilon(100, 0.015) == pytest.approx(expected)
    assert f"{expected:.4f}" == "0.4105"


def test_readme_people_example_runs_and_counts_people(tmp_path, monkeypatch, capsys):
    """The claims commands run, and their figures are those of a pandas count of each
    patient's set of QI tuples (and of the release, kept whole per patient)."""
    from riskcore.demo.claims import make_claims

    text = README.read_text(encoding="utf-8")
    (block,) = re.findall(r"<!-- cli-people -->\n```bash\n(.*?)```", text, flags=re.S)
    lines = block.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("riskcore ") for line in lines)
    monkeypatch.chdir(tmp_path)
    for line in lines:
        assert main(shlex.split(line)[1:]) == 0, line
    capsys.readouterr()
    claims = make_claims(2_500)
    qis = ["sex", "race", "zip"]
    key = claims[qis].astype(str).agg("|".join, axis=1)
    sig = key.groupby(claims["patient_id"].to_numpy()).agg(lambda s: tuple(sorted(set(s))))
    counts = sig.value_counts()
    unique, rows_unique = int((counts == 1).sum()), int((key.value_counts() == 1).sum())
    assert f"{unique:,} of the {len(sig):,} patients ({100 * unique / len(sig):.1f}%)" in text
    assert f"{rows_unique:,} of {len(claims):,}" in text
    release = pd.read_csv("visits.csv", dtype=str)
    rel_key = release[["age", "sex", "zip"]].astype(str).agg("|".join, axis=1)
    rel_sig = rel_key.groupby(release["patient_id"].to_numpy()).agg(lambda s: tuple(sorted(set(s))))
    assert rel_sig.value_counts().min() >= 5
    # each released patient is whole: the tokens recomputed apart from riskcore, HMAC-SHA256
    # under the key file, 16 hex characters (the claim ids are dropped, issue 37)
    key = bytes.fromhex(Path("visits.key").read_text().strip())
    token = {
        p: hmac.new(key, str(p).encode(), hashlib.sha256).hexdigest()[:16]
        for p in claims["patient_id"].unique()
    }
    rows = claims.groupby(claims["patient_id"].map(token)).size()
    kept = release.groupby("patient_id").size()
    assert len(kept) > 0 and set(kept.index) <= set(rows.index)
    assert (kept == rows.loc[kept.index]).all()
