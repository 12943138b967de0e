"""Command line: anonymize's perturbative options (issue 30 item 7) and apply replaying them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from riskcore.cli import main
from riskcore.deidentify.recipe.seal import seal_of
from tests.riskcore.sdc_reference import fk_any

DATA = Path(__file__).resolve().parents[1] / "data" / "sdcmicro" / "testdata2.csv"
KEYS = ["urbrur", "roof", "walls", "water", "electcon", "relat", "sex"]
QI_ARGS = [a for q in KEYS for a in ("--qi", q)]
# expenditures, every one different: the Data page's rule takes them for a unique key (a
# direct identifier); they are amounts, released as they are by choice (issue 37)
ALLOW = ["--allow-identifiers", "expend"]


def _run(tmp_path, extra, name="o"):
    out, recipe = tmp_path / f"{name}.csv", tmp_path / f"{name}.json"
    code = main(["anonymize", str(DATA), *extra, *ALLOW, "--out", str(out), "--recipe-out",
                 str(recipe)])  # fmt: skip
    return code, out, recipe


def _apply_matches(tmp_path, out, recipe):
    again = tmp_path / "again.csv"
    assert main(["apply", str(DATA), "--recipe", str(recipe), "--out", str(again), *ALLOW]) == 0
    assert again.read_bytes() == out.read_bytes()


def test_local_suppression_blanks_cells_only(tmp_path, capsys):
    code, out, recipe = _run(tmp_path, [*QI_ARGS, "--local-suppression", "--k", "2"])
    assert code == 0, capsys.readouterr().err
    src = pd.read_csv(DATA, dtype=str, keep_default_na=False)
    got = pd.read_csv(out, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    assert list(got.columns) == list(src.columns) and len(got) == len(src)
    others = [c for c in src.columns if c not in KEYS]
    pd.testing.assert_frame_equal(got[others], src[others])  # same rows, same order
    blank = got[KEYS] == ""
    assert ((got[KEYS] == src[KEYS]) | blank).all().all()  # a QI cell is kept or blanked
    from riskcore.perturb import local_suppression

    # the library's cells, and no more than sdcMicro's own test (97)
    assert int(blank.sum().sum()) == local_suppression(src, KEYS, 2).total_suppressed <= 97
    values = got[KEYS].replace("", np.nan).astype(float).to_numpy()
    assert fk_any(values).min() >= 2
    spec = json.loads(recipe.read_text())
    assert spec["version"] == 8 and spec["perturb"][0]["method"] == "local_suppression"
    assert spec["perturb"][0]["params"]["importance"]["water"] == 7
    _apply_matches(tmp_path, out, recipe)


def test_k_anonymous_columns_come_back_unchanged(tmp_path, capsys):
    code, out, _ = _run(tmp_path, ["--qi", "urbrur", "--local-suppression", "--k", "2"])
    assert code == 0
    src = pd.read_csv(DATA, dtype=str, keep_default_na=False)
    got = pd.read_csv(out, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    pd.testing.assert_frame_equal(got, src)
    assert "0 cells blanked" in capsys.readouterr().out


def test_microaggregation_noise_and_pram_with_drisk_and_il1s(tmp_path, capsys):
    num = ["expend", "income", "savings"]
    extra = ["--microaggregate", ",".join(num), "--aggregation-k", "3", "--noise", "age=20"]
    extra += ["--pram", "water", "--pram-p", "0.6", "--seed", "5", "--format", "json"]
    code, out, recipe = _run(tmp_path, extra)
    assert code == 0, capsys.readouterr().err
    summary = json.loads(capsys.readouterr().out)
    src = pd.read_csv(DATA)
    got = pd.read_csv(out, encoding="utf-8-sig")
    cols = [*num, "age"]
    x, xm = src[cols].to_numpy(float), got[cols].to_numpy(float)
    # dRisk and IL1s recomputed from the files, dRisk as sdcMicro 5.8.1's dRiskWORK writes
    # it (R/dRisk.R at cf32510): sds <- apply(xm, 2, sd, na.rm = TRUE);
    # w <- rowSums(x < mi | x > ma, na.rm = TRUE) == 0; mean(w)
    half = 0.05 * xm.std(axis=0, ddof=1)
    outside = ((x < xm - half) | (x > xm + half)).sum(axis=1)
    assert summary["drisk"] == np.mean(outside == 0)
    assert summary["drisk"] < np.mean(outside <= 1)  # not the rule of 5.5.1 and before
    il1s = (np.abs(x - xm) / (x.std(axis=0, ddof=1) * np.sqrt(2))).sum()
    assert np.isclose(summary["il1s"], il1s, rtol=1e-9)
    assert summary["before"] == {"drisk": 1.0, "il1s": 0.0}
    steps = json.loads(recipe.read_text())["perturb"]
    assert [s["method"] for s in steps] == ["microaggregation", "noise", "pram"]
    # each method's step and its result reach the JSON (they were once overwritten by "steps")
    ran = summary["perturbation"]
    assert [s["method"] for s in ran] == ["microaggregation", "noise", "pram"]
    assert ran[0]["result"]["k"] == 3 and ran[2]["result"]["column"] == "water"
    assert {s["kind"] for s in summary["steps"]} >= {"perturbation"}
    matrix = np.array(steps[2]["params"]["matrix"])
    np.testing.assert_allclose(matrix.sum(axis=1), 1.0)
    assert steps[2]["seed"] == 5 and steps[1]["seed"] == 5
    _apply_matches(tmp_path, out, recipe)


def test_a_version_3_recipe_still_applies(tmp_path, capsys):
    df = pd.DataFrame({"sex": ["F", "F", "M", "M"], "age": ["30", "31", "40", "41"]})
    src = tmp_path / "d.csv"
    df.to_csv(src, index=False)
    out, recipe = tmp_path / "o.csv", tmp_path / "r.json"
    args = ["anonymize", str(src), "--qi", "sex", "--qi", "age", "--k", "2"]
    assert main([*args, "--out", str(out), "--recipe-out", str(recipe)]) == 0
    spec = json.loads(recipe.read_text())
    assert "perturb" not in spec  # nothing perturbed: the version 3 content
    spec = {("qis" if k == "quasi_identifiers" else k): v for k, v in spec.items()}
    spec["version"] = 3  # as riskcore wrote it then: the QIs under "qis"
    spec["seal"] = seal_of(spec, None)
    recipe.write_text(json.dumps(spec))
    again = tmp_path / "again.csv"
    assert main(["apply", str(src), "--recipe", str(recipe), "--out", str(again)]) == 0
    assert again.read_bytes() == out.read_bytes()


def test_bad_options_have_a_sentence(tmp_path, capsys):
    code, _, _ = _run(tmp_path, ["--pram", "water"])
    assert code == 2 and "give --seed S" in capsys.readouterr().err
    code, _, _ = _run(tmp_path, [*QI_ARGS, "--local-suppression"])
    err = capsys.readouterr().err
    assert code == 2 and "--local-suppression needs --k K" in err
    code, _, _ = _run(
        tmp_path, [*QI_ARGS, "--local-suppression", "--k", "2", "--importance", "sex=x"]
    )
    assert code == 2 and "--importance sex: write a whole number" in capsys.readouterr().err
    code, _, _ = _run(tmp_path, ["--microaggregate", "nope", "--aggregation-k", "3"])
    assert code == 2 and "no column 'nope'" in capsys.readouterr().err


def test_the_recipe_steps_in_words(tmp_path, capsys):
    from riskcore.deidentify.recipe.steps import recipe_steps

    extra = [*QI_ARGS, "--local-suppression", "--k", "2", "--microaggregate", "income,savings"]
    extra += ["--noise", "age=20", "--pram", "water", "--seed", "3"]
    code, _, recipe = _run(tmp_path, extra)
    assert code == 0, capsys.readouterr().err
    words = [s.words for s in recipe_steps(json.loads(recipe.read_text()))]
    mdav = "replaced by the means of groups of at least 3 records (MDAV over income, savings)"
    assert words == [
        "expend: released as it is, a direct identifier allowed by --allow-identifiers",
        f"income: {mdav}",
        f"savings: {mdav}",
        "age: normal noise of 20.0% of its standard deviation added (seed 3)",
        "water: randomized by invariant PRAM (pd 0.8, alpha 0.5, seed 3; matrix recorded)",
        "single cells of urbrur, roof, walls, water, electcon, relat, sex blanked until every "
        "record matches at least 2 records, a blank matching any value (local suppression)",
    ]


def test_the_report_says_which_values_were_perturbed(tmp_path, capsys):
    from riskcore.profile import Profile
    from riskcore.report.readings.review import limitation_text
    from riskcore.review import review

    prof = tmp_path / "p.json"
    extra = [*QI_ARGS, "--k", "2", "--local-suppression", "--noise", "age=20", "--seed", "1"]
    code, _, _ = _run(tmp_path, [*extra, "--profile-out", str(prof)])
    assert code == 0, capsys.readouterr().err
    r = review(pd.read_csv(DATA), Profile.read(prof))
    (lim,) = [x for x in r.limitations if x.kind == "perturbed"]
    text = limitation_text(lim)
    assert "age: noise added" in text and "cells blanked (a blank matches any value)" in text
    (missing,) = [x for x in r.limitations if x.kind == "missing"]
    assert missing.facts == {"policy": "any"}  # k after local suppression: the "any" convention
    assert r.after is not None and r.after.k >= 2


def test_local_suppression_stops_at_the_dashboards_time_budget(tmp_path, capsys, monkeypatch):
    # Issue 37.16: the command line had no deadline (just under its cell limit local
    # suppression ran past 400 s); it now gets the app's budget, RISKCORE_TIME_LIMIT,
    # checked before each round. testdata2 at k = 2 needs rounds, so a budget of a
    # nanosecond is spent before the first.
    monkeypatch.setenv("RISKCORE_TIME_LIMIT", "1e-9")
    code, out, recipe = _run(tmp_path, [*QI_ARGS, "--local-suppression", "--k", "2"])
    err = capsys.readouterr().err
    assert code == 2
    assert "Local suppression was stopped after its time budget of 1e-09 s" in err
    assert "use fewer quasi-identifiers" in err and "RISKCORE_TIME_LIMIT" in err
    assert "Traceback" not in err and not out.exists() and not recipe.exists()


def test_local_suppression_s_time_budget_starts_when_it_starts(tmp_path, monkeypatch):
    """A slow microaggregation before it does not use up local suppression's budget."""
    import time

    import riskcore.perturb.steps as steps

    real = steps.microaggregate

    def slow(*args, **kwargs):
        time.sleep(1.5)  # longer than the whole budget below
        return real(*args, **kwargs)

    monkeypatch.setenv("RISKCORE_TIME_LIMIT", "1")
    monkeypatch.setattr(steps, "microaggregate", slow)
    masks = [a for c in ("name", "ssn", "date_of_birth", "zip") for a in ("--mask", f"{c}=drop")]
    code = main(
        ["anonymize", "demo:300", "--qi", "age", "--qi", "sex", *masks,
         "--microaggregate", "hours_per_week", "--local-suppression", "--k", "3",
         "--out", str(tmp_path / "out.csv"), "--recipe-out", str(tmp_path / "r.json")]
    )  # fmt: skip
    assert code == 0


def test_a_perturbed_release_writes_the_surrogates_lookup_table(tmp_path, capsys):
    """``--lookup-out`` was ignored with a perturbative option: the surrogates' table was lost."""
    key, lookup, out = tmp_path / "k.hex", tmp_path / "lookup.csv", tmp_path / "out.csv"
    drops = [a for c in ("ssn", "date_of_birth", "zip") for a in ("--mask", f"{c}=drop")]
    code = main(
        ["anonymize", "demo:200", "--qi", "age", "--qi", "sex", *drops,
         "--mask", "name=surrogates:name", "--key-file", str(key), "--noise", "age=5",
         "--seed", "1", "--lookup-out", str(lookup), "--out", str(out),
         "--recipe-out", str(tmp_path / "r.json")]
    )  # fmt: skip
    assert code == 0, capsys.readouterr().err
    table = pd.read_csv(lookup, dtype=str, encoding="utf-8-sig")
    released = pd.read_csv(out, dtype=str, encoding="utf-8-sig")
    from riskcore.demo import load_demo

    names = set(load_demo("demo:200")["name"].astype(str))
    # each original name beside the surrogate written in its place
    assert set(table["original"]) == names and set(table["column"]) == {"name"}
    assert set(table["surrogate"]) == set(released["name"])


def test_the_cli_helpers_still_take_their_old_arguments_with_a_warning(tmp_path):
    """``profile_from_args(qis=)`` and ``before_steps(args, raw, person, targets)`` are
    documented API of riskcore.cli (review of issue 40)."""
    import pytest

    from riskcore.cli.args import profile_from_args
    from riskcore.cli.entry import build_parser
    from riskcore.cli.release import before_steps
    from riskcore.roles import ColumnRoles

    raw = pd.DataFrame({"pid": ["a", "a", "b"], "age": ["30", "31", "40"]})
    args = build_parser().parse_args(["anonymize", "t.csv", "--qi", "age", "--person", "pid",
                                      "--out", str(tmp_path / "o.csv"), "--recipe-out",
                                      str(tmp_path / "r.json"), "--key-file",
                                      str(tmp_path / "k.key")])  # fmt: skip
    new = profile_from_args(args, quasi_identifiers=["age"])
    with pytest.warns(DeprecationWarning, match="'qis' is deprecated; use 'quasi_identifiers'"):
        assert profile_from_args(args, qis=["age"]) == new
    with pytest.warns(DeprecationWarning, match=r"before_steps\(args, raw, person, targets\)"):
        old = before_steps(args, raw, "pid", new.targets)
    now = before_steps(args, raw, ColumnRoles(quasi_identifiers=("age",), persons=("pid",)),
                       new.targets)  # fmt: skip
    assert old.recipe == now.recipe  # the person kept as keyed tokens either way
    assert [m.columns for m in old.recipe.masking] == [("pid",)]
