"""``--hierarchy COL=SPEC``: a builder string gives the same hierarchy as the ARX file that
states it (files written by hand under tests/data/, see test_hierarchy_builders.py)."""

from __future__ import annotations

import json

import pandas as pd

from riskcore.cli import main
from tests.conftest import shared_file
from tests.riskcore.cases import AGE_CSV, COUNTRY_CSV, DATES_CSV


def _anonymize(tmp_path, name, src, qis, specs, k="2", more=()):
    out, recipe = tmp_path / f"{name}.csv", tmp_path / f"{name}.json"
    args = ["anonymize", str(src), *[a for q in qis for a in ("--qi", q)], "--k", k, *more]
    args += [a for s in specs for a in ("--hierarchy", s)]
    args += ["--out", str(out), "--recipe-out", str(recipe), "--format", "json"]
    assert main(args) == 0
    return out.read_bytes(), json.loads(recipe.read_text())


def test_adult_age_builder_string_and_hand_written_file_release_the_same_table(tmp_path):
    adult = pd.read_csv(shared_file("adult.csv"), nrows=3_000)  # a slice, under tmp_path
    src = tmp_path / "adult.csv"
    adult[["age", "native-country", "sex"]].to_csv(src, index=False)
    qis = ["age", "native-country"]
    by_string, rec_s = _anonymize(tmp_path, "s", src, qis,
                                  ["age=interval:5,10,20;top=90", f"native-country={COUNTRY_CSV}"],
                                  k="5")  # fmt: skip
    files = [f"age={AGE_CSV}", f"native-country={COUNTRY_CSV}"]
    by_file, rec_f = _anonymize(tmp_path, "f", src, qis, files, k="5")
    assert by_string == by_file
    assert rec_s["levels"] == rec_f["levels"]
    assert rec_s["levels"][0] < 4  # age kept in bands, not removed: the bands matter
    # the recipe keeps the builder (rebuilt on new data), the file's table as a table
    assert rec_s["hierarchies"]["age"]["kind"] == "interval"
    assert rec_f["hierarchies"]["age"]["kind"] == "table"


def test_us_dates_builder_string_and_hand_written_file_release_the_same_table(tmp_path):
    values = [line.split(";")[0] for line in DATES_CSV.read_text().splitlines()]
    src = tmp_path / "dates.csv"
    pd.DataFrame({"admitted": values}).to_csv(src, index=False)
    spec = "admitted=date:day,week,month,quarter,year,5y,10y"
    more = ("--max-suppression", "0.4")
    by_string, recipe = _anonymize(tmp_path, "s", src, ["admitted"], [spec], k="2", more=more)
    by_file, _ = _anonymize(tmp_path, "f", src, ["admitted"], [f"admitted={DATES_CSV}"], k="2",
                            more=more)  # fmt: skip
    assert by_string == by_file
    # by hand: at quarter (level 4) 1985-Q3, 2024-Q1 and 2024-Q2 hold 2 records each; the
    # 3 single ones (1999-Q4, 2019-Q4, 2020-Q1) are suppressed, 3 / 9 within 0.4
    assert recipe["levels"] == [4]
    released = pd.read_csv(tmp_path / "s.csv", dtype=str)["admitted"]
    assert sorted(released) == ["1985-Q3", "1985-Q3", "2024-Q1", "2024-Q1", "2024-Q2",
                                "2024-Q2"]  # fmt: skip


def test_a_bad_builder_string_is_refused_with_the_column_and_the_part(tmp_path, capsys):
    src = tmp_path / "d.csv"
    pd.DataFrame({"age": [30, 40, 50]}).to_csv(src, index=False)
    outs = ["--out", str(tmp_path / "o.csv"), "--recipe-out", str(tmp_path / "r.json")]
    code = main(["anonymize", str(src), "--qi", "age", "--hierarchy", "age=interval:5,x", *outs])
    assert code == 2
    err = capsys.readouterr().err
    assert "--hierarchy age: in the hierarchy 'interval:5,x', the width 'x' is not a number" in err
    code = main(["anonymize", str(src), "--qi", "age", "--hierarchy", "age=nowhere.csv", *outs])
    assert code == 2
    assert "a builder string starts with interval:, date:, mask or flat" in capsys.readouterr().err
