"""Command line: anonymize, apply, and formula-safe export of the remediated table."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from openpyxl import load_workbook

from riskcore.cli import main
from riskcore.io import load_table
from riskcore.io.export import to_xlsx_bytes, write_table
from tests.conftest import shared_file

QIS = ["age", "workclass", "education", "marital-status", "occupation", "race", "sex",
       "native-country"]  # fmt: skip


def test_anonymize_then_apply_gives_the_identical_table(tmp_path, capsys):
    path = shared_file("adult.csv")
    out, recipe = tmp_path / "anon.csv", tmp_path / "recipe.json"
    args = ["anonymize", str(path), *[a for q in QIS for a in ("--qi", q)]]
    args += ["--k", "5", "--max-suppression", "0.02", "--out", str(out)]
    args += ["--recipe-out", str(recipe), "--format", "json"]
    assert main(args) == 0
    summary = json.loads(capsys.readouterr().out)
    table = pd.read_csv(out, dtype=str, keep_default_na=False)
    best = summary["best"]
    # the written table meets the target, checked on the file by an independent groupby
    sizes = table.groupby(QIS, dropna=False).size()
    assert sizes.min() >= 5
    assert best["suppressed"] == 32_561 - len(table) <= 0.02 * 32_561
    assert summary["evaluated"] < summary["lattice_size"] == 7_776
    # the recipe names every QI's level and no key
    spec = json.loads(recipe.read_text())
    assert spec["levels"] == [summary["levels"][q] for q in QIS]
    again = tmp_path / "again.csv"
    assert main(["apply", str(path), "--recipe", str(recipe), "--out", str(again)]) == 0
    assert again.read_bytes() == out.read_bytes()
    text = capsys.readouterr().out
    assert "within the recipe's limit" in text


def test_apply_reports_new_categories(tmp_path, capsys):
    df = pd.DataFrame({"sex": ["F", "F", "M", "M"], "dx": ["a", "b", "a", "b"]})
    src = tmp_path / "d.csv"
    df.to_csv(src, index=False)
    recipe = tmp_path / "r.json"
    out = tmp_path / "o.csv"
    hierarchy = tmp_path / "sex.csv"
    hierarchy.write_text("F;*\nM;*\n")  # ARX's format: a table, kept as is by the recipe
    code = main(["anonymize", str(src), "--qi", "sex", "--k", "2", "--out", str(out),
                 "--recipe-out", str(recipe), "--hierarchy", f"sex={hierarchy}"])  # fmt: skip
    assert code == 0
    pd.concat([df, pd.DataFrame({"sex": ["X"], "dx": ["a"]})]).to_csv(src, index=False)
    code = main(["apply", str(src), "--recipe", str(recipe), "--out", str(out)])
    text = capsys.readouterr().out
    assert "sex: 1 record holds a value the recipe's hierarchy does not know ('X')" in text
    assert code == 1  # the new value's class of 1 is suppressed: beyond a 0% limit


def test_anonymize_says_when_nothing_meets_the_targets(tmp_path, capsys):
    df = pd.DataFrame({"sex": ["F", "M", "M"]})
    src = tmp_path / "d.csv"
    df.to_csv(src, index=False)
    code = main(["anonymize", str(src), "--qi", "sex", "--k", "5", "--out",
                 str(tmp_path / "o.csv"), "--recipe-out", str(tmp_path / "r.json")])  # fmt: skip
    assert code == 2
    assert "no generalization meets the targets" in capsys.readouterr().err


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_remediated_table_cannot_carry_a_formula(tmp_path, suffix):
    df = pd.DataFrame({"note": ['=HYPERLINK("http://x","click")', "+1", "ok"], "n": [1, -2, 3]})
    path = tmp_path / f"t{suffix}"
    write_table(df, path)
    if suffix == ".csv":
        back = pd.read_csv(path, dtype={"note": str})
        assert back["note"].tolist() == ['\'=HYPERLINK("http://x","click")', "'+1", "ok"]
        assert back["n"].tolist() == [1, -2, 3]  # numbers stay numbers
        return
    ws = load_workbook(path).active
    cells = [ws.cell(row=r, column=1) for r in (2, 3, 4)]
    assert [c.data_type for c in cells] == ["s", "s", "s"]  # text, never a formula
    assert [c.value for c in cells] == ['=HYPERLINK("http://x","click")', "+1", "ok"]
    assert [ws.cell(row=r, column=2).value for r in (2, 3, 4)] == [1, -2, 3]
    # and the loader reads the text back unchanged
    assert load_table(to_xlsx_bytes(df), name="t.xlsx").data["note"].tolist()[0].startswith("=")


def test_anonymize_writes_control_characters_to_xlsx_without_a_traceback(tmp_path, capsys):
    # issue 37: a control character in a column name ended the .xlsx export in an
    # IllegalCharacterError traceback that printed the raw escape sequence
    note = "note\x1b[31m"
    df = pd.DataFrame({"sex": ["F", "F", "M", "M"], note: ["a\x07", "b", "c", "d\x0b"]})
    src, out = tmp_path / "d.csv", tmp_path / "o.xlsx"
    df.to_csv(src, index=False)
    code = main(["anonymize", str(src), "--qi", "sex", "--k", "2", "--out", str(out),
                 "--recipe-out", str(tmp_path / "r.json")])  # fmt: skip
    printed = "".join(capsys.readouterr())
    assert code == 0, printed
    assert "Traceback" not in printed and "\x1b" not in printed
    back = load_table(out).data
    assert list(back.columns) == ["sex", note]
    assert back[note].tolist() == ["a\x07", "b", "c", "d\x0b"]


def test_clip_codes_the_outliers_of_a_numeric_qi(tmp_path, capsys):
    ages = [3, 25, 27, 34, 38, 95, 101, 26, 35, 24]
    df = pd.DataFrame({"age": ages, "dx": list("abababcabc")})
    src, out, recipe = tmp_path / "d.csv", tmp_path / "o.csv", tmp_path / "r.json"
    df.to_csv(src, index=False)
    args = ["anonymize", str(src), "--qi", "age", "--k", "2", "--out", str(out), "--recipe-out",
            str(recipe), "--intervals", "age=10,20", "--clip", "age=18,90"]  # fmt: skip
    assert main(args) == 0, capsys.readouterr().err
    spec = json.loads(recipe.read_text())["hierarchies"]["age"]
    assert spec["params"]["bottom"] == 18 and spec["params"]["top"] == 90
    # by hand: the 3-year-old is alone in "<18" at levels 1 and 2 (codes hold at every level),
    # and no record may be suppressed, so only level 3 ("*") gives k = 2
    table = pd.read_csv(out, dtype=str)
    assert table["age"].tolist() == ["*"] * 10
    # without bottom coding, one record (10%) may go: "0-9" is suppressed, the rest is banded
    assert main([*args[:-1], "age=,90", "--max-suppression", "0.1"]) == 0
    table = pd.read_csv(out, dtype=str)
    assert table["age"].tolist() == ["20-29", "20-29", "30-39", "30-39", "90+", "90+", "20-29",
                                     "30-39", "20-29"]  # fmt: skip
    code = main([*args[:-1], "age=x,90"])
    assert code == 2 and "--clip age: LOW and HIGH must be numbers" in capsys.readouterr().err


# ------------------------------------------------------------------ steering (issue 28)


def _small(tmp_path):
    # a: 4 values grouped in pairs then "*"; b: 2 values then "*". k = 2 without suppression.
    df = pd.DataFrame(
        {
            "a": ["a0", "a0", "a1", "a1", "a2", "a3", "a2", "a3"],
            "b": ["b0", "b1", "b0", "b1", "b0", "b0", "b1", "b1"],
        }
    )
    src = tmp_path / "d.csv"
    df.to_csv(src, index=False)
    ha = tmp_path / "a.csv"
    ha.write_text("a0;g0;*\na1;g0;*\na2;g1;*\na3;g1;*\n")
    return src, ["--qi", "a", "--qi", "b", "--k", "2", "--hierarchy", f"a={ha}"]


def test_weights_and_levels_steer_the_search_and_go_into_the_recipe(tmp_path, capsys):
    src, base = _small(tmp_path)
    out, recipe = tmp_path / "o.csv", tmp_path / "r.json"
    args = ["anonymize", str(src), *base, "--out", str(out), "--recipe-out", str(recipe)]
    args += ["--objective", "precision", "--format", "json"]
    assert main([*args, "--levels", "b=0:0", "--weight", "a=0.5"]) == 0
    summary = json.loads(capsys.readouterr().out)
    # b kept at level 0: classes (a, b) of 1 record at a level 0; a at level 1 gives classes
    # (g0, b0) = 2, (g0, b1) = 2, (g1, b0) = 2, (g1, b1) = 2: k = 2
    assert summary["levels"] == {"a": 1, "b": 0}
    assert summary["steering"] == {
        "schema_version": 1,
        "weights": {"a": 0.5},
        "levels": {"b": [0, 0]},
    }
    spec = json.loads(recipe.read_text())
    assert spec["steering"]["levels"] == {"b": [0, 0]} and spec["objective"] == "precision"
    assert main(["apply", str(src), "--recipe", str(recipe), "--out", str(tmp_path / "x.csv")]) == 0
    # a recipe whose level lies outside its bounds is refused by apply
    spec["levels"] = [1, 1]
    recipe.write_text(json.dumps(spec))  # an edited recipe: its seal no longer matches ...
    assert main(["apply", str(src), "--recipe", str(recipe), "--out", str(tmp_path / "y.csv")]) == 2
    assert "was changed after it was written" in capsys.readouterr().err
    from riskcore.deidentify.recipe.seal import seal_of

    spec["seal"] = seal_of(spec, None)  # ... and re-sealed (no key here): the bounds refuse it
    recipe.write_text(json.dumps(spec))
    capsys.readouterr()
    assert main(["apply", str(src), "--recipe", str(recipe), "--out", str(tmp_path / "y.csv")]) == 2
    err = capsys.readouterr().err
    assert "the recipe's level 1 of 'b' lies outside its level bounds 0..0" in err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--weight", "zz=1"], "'zz' is given a weight but is not a quasi-identifier"),
        (["--weight", "a=-1"], "the weight of 'a' must be a finite number of at least 0"),
        (["--weight", "a=nan"], "the weight of 'a' must be a finite number of at least 0"),
        (["--weight", "a=heavy"], "--weight a: the weight must be a number, not 'heavy'"),
        (["--levels", "a=2:1"], "the lowest level of 'a' (2) is above its highest level (1)"),
        (["--levels", "a=0:5"], "the highest level of 'a' is 5, above the height of its"),
        (["--levels", "a=1"], "--levels a: write COL=MIN:MAX"),
        (["--levels", "zz=0:1"], "'zz' is given level bounds but is not a quasi-identifier"),
    ],
)
def test_bad_steering_is_refused_with_a_sentence(tmp_path, capsys, extra, message):
    src, base = _small(tmp_path)
    args = ["anonymize", str(src), *base, "--out", str(tmp_path / "o.csv")]
    args += ["--recipe-out", str(tmp_path / "r.json"), *extra]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "Traceback" not in err


def test_a_removed_column_is_warned_about_with_the_best_node_that_keeps_it(tmp_path, capsys):
    src, base = _small(tmp_path)
    args = ["anonymize", str(src), *base, "--out", str(tmp_path / "o.csv")]
    args += ["--recipe-out", str(tmp_path / "r.json"), "--objective", "precision"]
    args += ["--weight", "a=10"]  # a costs 10 times b: b goes to "*" first
    assert main(args) == 0
    captured = capsys.readouterr()
    # b to "*" (precision 1/2 weighted 1/11) beats a to its groups (1/2 weighted 10/11):
    # (0, 1) releases classes a0..a3 of 2 records each
    assert "Levels: a 0 of 2, b 1 of 1" in captured.out
    assert "warning: The least-loss release removes b entirely" in captured.err
    assert "The best combination that keeps it (a 1, b 0)" in captured.err
    assert "--levels b=0:0" in captured.err


def test_k_map_and_delta_against_a_population_table_through_anonymize_and_apply(tmp_path, capsys):
    src, base = _small(tmp_path)
    base[base.index("--k") + 1] = "1"  # k-map alone (k = 1 replaces the preset k = 11)
    # the population: the 8 people and 4 more, (a0, b0) x 3 and (a1, b1)
    pop = pd.concat(
        [pd.read_csv(src), pd.DataFrame({"a": ["a0", "a0", "a0", "a1"],
                                         "b": ["b0", "b0", "b0", "b1"]})]
    )  # fmt: skip
    population = tmp_path / "pop.csv"
    pop.to_csv(population, index=False)
    out, recipe = tmp_path / "o.csv", tmp_path / "r.json"
    args = ["anonymize", str(src), *base, "--out", str(out), "--recipe-out", str(recipe)]
    args += ["--objective", "precision", "--format", "json", "--max-suppression", "0"]
    # k-map 2 with nothing suppressed: at (0, 0) most classes match one person; at (0, 1),
    # b removed: a0 F=5, a1 F=3, a2 F=2, a3 F=2 (precision (0 + 1) / 2 = 1/2); at (1, 0):
    # (g0, b0) F=5, (g0, b1) F=3, (g1, b0) F=2, (g1, b1) F=2 (precision (1/2 + 0) / 2 = 1/4)
    assert main([*args, "--k-map", "2", "--population", str(population)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["levels"] == {"a": 1, "b": 0}
    spec = json.loads(recipe.read_text())
    assert spec["population"]["name"] == "pop.csv"
    assert any(c["kind"] == "k-map" for c in spec["targets"]["criteria"])
    again = tmp_path / "again.csv"
    code = main(["apply", str(src), "--recipe", str(recipe), "--out", str(again),
                 "--population", str(population)])  # fmt: skip
    assert code == 0 and again.read_bytes() == out.read_bytes()
    capsys.readouterr()
    # apply needs the same table; anonymize needs one for --k-map
    other = tmp_path / "other.csv"
    pop.iloc[::-1].to_csv(other, index=False)
    code = main(["apply", str(src), "--recipe", str(recipe), "--out", str(again),
                 "--population", str(other)])  # fmt: skip
    assert code == 2 and "not the one the profile or recipe names" in capsys.readouterr().err
    assert main([*args, "--k-map", "2"]) == 2
    assert "population table" in capsys.readouterr().err
    # delta-presence [0, 0.5]: every person of a2 and a3 is released (delta 1 while a is
    # below its top), and at a's top (*, b0) has 4 of 7 released, (*, *) 8 of 12: with no
    # suppression allowed, no node meets it
    assert main([*args, "--delta", "0:0.5", "--population", str(population)]) == 2
    assert "no generalization meets the targets" in capsys.readouterr().err
    assert main([*args, "--delta", "0.5", "--population", str(population)]) == 2
    assert "MIN:MAX" in capsys.readouterr().err


def test_a_release_of_formula_like_labels_is_written_as_pandas_writes_its_text(tmp_path, capsys):
    # issue 38, item 20: anonymize writes the generalized columns from their category codes;
    # the file is the formula-safe CSV pandas writes of the release as text (apostrophes,
    # quotes, missing cells), and apply (object columns) writes the same bytes
    from riskcore.deidentify.hierarchy import read_arx_hierarchy
    from riskcore.deidentify.recipe import generalize_columns
    from riskcore.io.export import formula_safe

    bands = ["=cmd", "+1", 'a "b", c', "Lyon", "-x", None] * 4
    df = pd.DataFrame({"band": bands, "sex": ["F", "M"] * 12, "note": ["@n", "ok"] * 12})
    src = tmp_path / "t.csv"
    df.to_csv(src, index=False)
    hier = tmp_path / "band.csv"
    hier.write_text('=cmd;=North;*\n+1;=North;*\n"a ""b"", c";South, "x";*\nLyon;South, "x";*\n'
                    '-x;=North;*\n', encoding="utf-8")  # fmt: skip
    out, recipe = tmp_path / "out.csv", tmp_path / "r.json"
    args = ["anonymize", str(src), "--qi", "band", "--hierarchy", f"band={hier}", "--qi", "sex"]
    args += ["--k", "4", "--levels", "band=1:2", "--out", str(out), "--recipe-out", str(recipe)]
    args += ["--format", "json"]
    assert main(args) == 0
    levels = json.loads(capsys.readouterr().out)["levels"]
    assert levels["band"] == 1  # the labels are written, not the values
    loaded = load_table(str(src)).data
    h = read_arx_hierarchy(hier.read_text(encoding="utf-8"), "band", numeric=False)
    text = generalize_columns(loaded, {"band": h}, {"band": 1})
    expected = formula_safe(text).to_csv(index=False).encode("utf-8-sig")
    assert out.read_bytes() == expected
    assert b"'=North" in expected and b'"South, ""x"""' in expected
    again = tmp_path / "again.csv"
    assert main(["apply", str(src), "--recipe", str(recipe), "--out", str(again)]) == 0
    assert again.read_bytes() == out.read_bytes()
