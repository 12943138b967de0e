"""Journalist and marketer risk from sampling weights: population sizes are the weight sums.

Hand-worked example (Benedetti-Franconi, F_j - f_j ~ NegBin(f_j, p_j), p_j = f_j / F^_j):

  class  records  weights  f  F^ = sum w  p     r_j = E[1/F | f]
  A      1        4        1  4           1/4   (p/q) ln(1/p)            = (1/3) ln 4
  B      2        1, 1     2  2           1     1/f (the class is its population) = 1/2
  C      2        3, 5     2  8           1/4   p/q - (p/q)^2 ln(1/p)    = 1/3 - (1/9) ln 4

n = 5, J = 3, sum F^ = 14. With tau = 0.3 (r_A = 0.462, r_B = 0.5, r_C = 0.179):
  highest risk          = 0.5
  records at risk       = (1 + 2) / 5 = 0.6
  marketer success      = (1 r_A + 2 r_B + 2 r_C) / 5
  journalist success    = max(J / sum F^ = 3/14, marketer success)
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError, RolesError
from riskcore.metrics import Population, assess

R_A = (1 / 3) * math.log(4)
R_B = 0.5
R_C = 1 / 3 - (1 / 9) * math.log(4)
TABLE = pd.DataFrame(
    {
        "age": [30, 40, 40, 50, 50],
        "sex": ["F", "M", "M", "F", "F"],
        "w": [4.0, 1.0, 1.0, 3.0, 5.0],
    }
).sample(frac=1, random_state=3)  # row order and index do not matter


def test_journalist_and_marketer_risk_use_the_weights():
    a = assess(
        TABLE,
        quasi_identifiers=["age", "sex"],
        threshold=0.3,
        population_model=Population(weights="w"),
    )
    marketer = (R_A + 2 * R_B + 2 * R_C) / 5
    assert a.journalist is not None and a.marketer is not None
    assert a.journalist.highest_risk == pytest.approx(R_B)
    assert a.journalist.records_at_risk == pytest.approx(0.6)
    assert a.marketer.success_rate == pytest.approx(marketer)
    assert a.journalist.success_rate == pytest.approx(max(3 / 14, marketer))
    assert "sampling weights in w" in a.population_note
    assert a.population_uniqueness is None  # the estimators need a sampling fraction
    # the prosecutor is unchanged: 1 / f_j
    assert a.prosecutor.highest_risk == 1.0


def test_weights_all_one_give_the_prosecutor_figures():
    ones = TABLE.assign(w=1.0)
    a = assess(ones, quasi_identifiers=["age", "sex"], population_model=Population(weights="w"))
    assert a.journalist is not None
    assert a.journalist.success_rate == pytest.approx(a.prosecutor.success_rate)
    assert a.journalist.records_at_risk == pytest.approx(a.prosecutor.records_at_risk)


def test_bad_weights_and_roles_are_clear_errors():
    with pytest.raises(RolesError, match="below 1"):
        assess(
            TABLE.assign(w=0.5), quasi_identifiers=["age"], population_model=Population(weights="w")
        )
    with pytest.raises(RolesError, match="cannot also be a quasi-identifier"):
        assess(TABLE, quasi_identifiers=["age", "w"], population_model=Population(weights="w"))
    with pytest.raises(ValueError, match="exactly one of"):
        Population(sampling_fraction=0.1, weights="w")


class _Delegating:
    """An engine that is not the in-memory one: it only forwards the contract's methods."""

    name = "other"

    def __init__(self, df: pd.DataFrame) -> None:
        self._enc = EncodedTable(df)

    @property
    def columns(self):
        return self._enc.columns

    @property
    def n_records(self):
        return self._enc.n_records

    def class_sizes(self, quasi_identifiers):
        return self._enc.class_sizes(quasi_identifiers)

    def tabulate(self, quasi_identifiers, sensitive=(), *, ordered=None):
        return self._enc.tabulate(quasi_identifiers, sensitive, ordered=ordered)


def test_weights_on_an_engine_without_record_classes_are_refused():
    from riskcore.engine import Engine

    other = _Delegating(TABLE)
    assert isinstance(other, Engine)
    with pytest.raises(RiskcoreError, match="in-memory engine"):
        assess(other, quasi_identifiers=["age"], population_model=Population(weights="w"))


def test_the_report_uses_the_weight_role():
    from riskcore.profile import Profile
    from riskcore.report.readings.review import limitation_text
    from riskcore.report.render import render_html
    from riskcore.review import review

    profile = {"quasi_identifiers": ["age", "sex"], "weights": ["w"], "targets": {"k": 2}}
    r = review(TABLE, Profile.read(profile))
    assert r.before.journalist is not None
    assert r.before.marketer is not None
    assert r.before.marketer.success_rate == pytest.approx((R_A + 2 * R_B + 2 * R_C) / 5)
    assert r.parameters["weights"] == "w"
    (population,) = [x for x in r.limitations if x.kind == "population"]
    assert population.facts == {"model": "weights", "column": "w"}
    assert "sampling weights in w" in limitation_text(population)
    assert "sampling weights in w" in render_html(r, figures=False)


def test_the_command_line_takes_a_weight_column(tmp_path, capsys):
    import json

    from riskcore.cli import main

    p = tmp_path / "w.csv"
    TABLE.to_csv(p, index=False)
    assert main(["assess", str(p), "--qi", "age", "--qi", "sex", "--weights", "w",
                 "--format", "json"]) == 0  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert out["marketer"]["success_rate"] == pytest.approx((R_A + 2 * R_B + 2 * R_C) / 5)
    assert main(["assess", str(p), "--qi", "age", "--weights", "w",
                 "--sampling-fraction", "0.5"]) == 2  # fmt: skip
    assert "not both" in capsys.readouterr().err
