"""Command line: ``--decimal`` on every command that loads a table (issue 38 item 5)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from riskcore.cli import main

#: ';'-separated, UTF-8 with a BOM, amounts with a decimal comma and dots between thousands.
ROWS = [
    f"C{i};{'FM'[i % 2]};{30 + i % 5};{i % 9 + 1}.{100 + i:03d},{i % 100:02d}" for i in range(60)
]
AMOUNTS = [float(f"{i % 9 + 1}{100 + i:03d}.{i % 100:02d}") for i in range(60)]


@pytest.fixture
def claims(tmp_path):
    path = tmp_path / "claims.csv"
    path.write_bytes("\ufeff".encode() + "\n".join(["claim_id;sex;age;amount", *ROWS, ""]).encode())
    return path


def test_microaggregation_reads_decimal_comma_amounts(tmp_path, claims, capsys):
    out, recipe = tmp_path / "o.csv", tmp_path / "r.json"
    args = ["anonymize", str(claims), "--qi", "sex", "--qi", "age", "--microaggregate", "amount",
            "--mask", "claim_id=drop"]  # fmt: skip
    assert main([*args, "--out", str(out), "--recipe-out", str(recipe)]) == 0, (
        capsys.readouterr().err
    )
    got = pd.read_csv(out, encoding="utf-8-sig")
    # groups of 3 share their mean: the column's total is kept
    assert got["amount"].sum() == pytest.approx(sum(AMOUNTS))
    assert json.loads(recipe.read_text())["perturb"][0]["method"] == "microaggregation"
    again = tmp_path / "again.csv"
    assert main(["apply", str(claims), "--recipe", str(recipe), "--out", str(again)]) == 0
    assert again.read_bytes() == out.read_bytes()
    # told the file writes decimal points, the amounts are text: one sentence, exit 2
    capsys.readouterr()
    code = main([*args, "--decimal", ".", "--out", str(out), "--recipe-out", str(recipe)])
    assert code == 2
    assert capsys.readouterr().err.startswith("error: microaggregation needs numbers in 'amount'")


@pytest.mark.parametrize("command", ["assess", "records", "anonymize", "apply", "report"])
def test_every_command_that_loads_a_table_takes_decimal(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "--decimal {auto,.,,}" in capsys.readouterr().out


def test_assess_reads_the_amounts_as_numbers_with_decimal_comma(claims, capsys):
    args = ["assess", str(claims), "--qi", "sex", "--sensitive", "amount", "--format", "json"]
    assert main([*args, "--t", "0.5"]) in (0, 1)
    numeric = capsys.readouterr().out
    assert main([*args, "--t", "0.5", "--decimal", "."]) in (0, 1)
    text = capsys.readouterr().out
    # t-closeness: numbers take the ordered distance, text the equal one
    assert '"distance": "ordered"' in numeric and '"distance": "equal"' in text
