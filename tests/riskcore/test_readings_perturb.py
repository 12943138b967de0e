"""Readings of the perturbative methods (riskcore.report.readings.perturb)."""

from __future__ import annotations

import pandas as pd

from riskcore.perturb import (
    add_noise,
    local_suppression,
    microaggregate,
    numeric_risk_utility,
    pram,
)
from riskcore.perturb.steps import PERTURB_METHODS
from riskcore.report.readings.perturb import METHOD_NOTES, perturb_lines


def test_every_method_has_a_strength_and_a_weakness():
    assert set(METHOD_NOTES) == set(PERTURB_METHODS)
    for name, strength, weakness in METHOD_NOTES.values():
        assert name and strength.endswith(".") and weakness.endswith(".")


def test_lines_say_what_each_run_did():
    df = pd.DataFrame(
        {
            "a": [1, 1, 2, 2, 1],
            "b": [1, 1, 2, 2, 2],
            "x": [1.0, 2.0, 3.0, 4.0, 5.0],
            "c": list("ppqqp"),
        }
    )
    runs = [
        microaggregate(df, ["x"], 2),
        add_noise(df, {"x": 10}, seed=1),
        pram(df, "c", seed=2),
        local_suppression(df, ["a", "b"], 2, importance={"a": 1, "b": 2}),
    ]
    after = numeric_risk_utility(df, runs[1].data, ["x"])
    before = numeric_risk_utility(df, df, ["x"])
    lines = perturb_lines(runs, before, after)
    assert (
        lines[0] == "Microaggregation (single) of x: 2 groups of 2 to 3 records share their means."
    )
    assert lines[1].startswith("Noise added to x 10% of each column's standard deviation (seed 1)")
    assert lines[2].startswith("PRAM of c: ")
    assert lines[3].startswith("Local suppression: 1 cells blanked in 1 records (b 1)")
    assert "100.0% of records before" in lines[4] and "IL1s 0.00 before" in lines[4]


def test_pram_line_gives_the_chance_a_value_stays_itself_from_the_matrix_applied():
    # Issue 38.13: pd (0.8) is the least diagonal drawn for the basic matrix P; the matrix
    # applied, alpha R + (1 - alpha) I with R = P Q, keeps a rare category less often.
    df = pd.DataFrame({"c": list("a" * 90 + "b" * 6 + "c" * 3 + "d")})
    res = pram(df, "c", diagonal=0.8, seed=1)
    diag = [res.matrix[i][i] for i in range(len(res.categories))]
    assert min(diag) < 0.8  # the rare "d": below pd
    line = perturb_lines([res])[0]
    assert f"stays itself with probability {min(diag):.2f} to {max(diag):.2f}" in line
    assert "pd 0.8 is the least diagonal drawn for the basic matrix" in line
    assert "can fall below pd" in line
