"""The risk and loss a history records after a step (hand-worked), and the fold's rules that
the Remediate page relies on: a levels step carrying its hierarchies (one step, one undo), and
a Safe Harbor drop and a masking of the same column replacing each other."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from riskcore.criteria import Targets
from riskcore.deidentify.history.base import AppliedStep, History
from riskcore.deidentify.history.measure import StepScores, step_scores
from riskcore.deidentify.recipe.base import Recipe, mask_step
from riskcore.errors import RiskcoreError
from riskcore.report.readings.history import position_label

QIS = ["age", "sex"]


def _data() -> pd.DataFrame:
    return pd.DataFrame(
        {"age": [30, 30, 41, 41, 52, np.nan], "sex": ["F", "F", "M", "M", "F", "M"],
         "dx": list("abcdef")}
    )  # fmt: skip


def test_nothing_changed_costs_nothing_and_the_smallest_class_is_the_risk():
    d = _data()
    # classes (30,F) x2, (41,M) x2, (52,F) x1, (NaN,M) x1: the smallest is 1
    assert step_scores(d, d, QIS, range(6)) == StepScores(1.0, 0.0)
    # the two singletons suppressed: classes of 2 left; their 4 QI values of 12 are lost
    kept = d.iloc[:4]
    assert step_scores(d, kept, QIS, range(4)) == StepScores(0.5, 4 / 12)


def test_changed_values_count_once_each_and_a_missing_value_that_stays_missing_is_kept():
    d = _data()
    released = d.copy()
    released["age"] = ["30-39", "30-39", "40-49", "40-49", "50-59", np.nan]  # 5 changed
    # classes (30-39,F) x2, (40-49,M) x2, (50-59,F), (NaN,M): risk 1; 5 of 12 values changed
    assert step_scores(d, released, QIS, range(6)) == StepScores(1.0, 5 / 12)


def test_the_any_convention_lets_a_blank_match_every_value():
    d = _data().iloc[:5]
    released = d.copy()
    released.loc[4, "age"] = np.nan  # local suppression blanked 52: (NaN,F) matches (30,F) x2
    own = step_scores(d, released, QIS, range(5))
    anyway = step_scores(d, released, QIS, range(5), missing="any")
    assert own == StepScores(1.0, 1 / 10)
    # (30,F) rows match themselves and the blank: 3; (41,M) 2; the blank matches both F rows: 3
    assert anyway == StepScores(0.5, 1 / 10)


def test_a_dropped_qi_is_wholly_lost_and_no_qi_measures_nothing():
    d = _data()
    assert step_scores(d, d.drop(columns=["age"]), QIS, range(6)).loss == 0.5
    assert step_scores(d, d.drop(columns=["age", "sex"]), QIS, range(6)) == StepScores(1 / 6, 1.0)
    assert step_scores(d, d.iloc[:0], QIS, []) == StepScores(0.0, 1.0)
    assert step_scores(d, d, [], range(6)) == StepScores(None, None)


def test_bad_positions_and_columns_are_refused_with_a_sentence():
    d = _data()
    with pytest.raises(RiskcoreError, match=r"^the release needs one position .* \(6 rows, 5 "):
        step_scores(d, d, QIS, range(5))
    with pytest.raises(RiskcoreError, match=r"^'zip' is not a column of the table as recorded$"):
        step_scores(d, d, ["zip"], range(6))


def _base() -> Recipe:
    return Recipe.of({}, {}, Targets.of(k=2), masking=[mask_step("ssn", "drop")])


def test_a_levels_step_may_carry_its_hierarchies_and_one_undo_takes_both_back():
    age = {"kind": "interval", "params": {"widths": [10.0, 20.0]}}
    step = AppliedStep("levels", {"levels": {"age": 2}, "hierarchies": {"age": age}})
    h = History().apply(step)
    rec = h.to_recipe(_base())
    assert (
        rec.quasi_identifiers == ("age",) and rec.levels == (2,) and rec.hierarchies == {"age": age}
    )
    assert h.undo().to_recipe(_base()).quasi_identifiers == ()
    search = AppliedStep(
        "search", {"levels": {"age": 1}, "objective": "ncp", "hierarchies": {"age": age}}
    )
    assert History().apply(search).to_recipe(_base()).objective == "ncp"
    with pytest.raises(RiskcoreError, match=r"^the levels step's hierarchy of 'age' has no kind$"):
        AppliedStep("levels", {"levels": {"age": 1}, "hierarchies": {"age": {"widths": [10]}}})


def test_a_safe_harbor_drop_and_a_masking_of_the_same_column_replace_each_other():
    sh = AppliedStep("safe_harbor", {"steps": [{"column": "ssn", "action": "dropped"}]})
    masked = AppliedStep("masking", mask_step("ssn", "mask_digits"))
    h = History().apply(sh)
    rec = h.to_recipe(_base())
    assert rec.masking == () and rec.identifiers == ("ssn",)  # dropped: its base mask is gone
    rec = h.apply(masked).to_recipe(_base())
    assert rec.safe_harbor == ()
    assert [m.to_dict() for m in rec.masking] == [mask_step("ssn", "mask_digits")]
    # a Safe Harbor step that does not drop the column leaves its masking alone
    zip3 = AppliedStep("safe_harbor", {"steps": [{"column": "zip", "action": "zip3"}]})
    kept = History().apply(zip3).to_recipe(_base()).masking
    assert [m.to_dict() for m in kept] == [mask_step("ssn", "drop")]


def test_a_position_in_words():
    h = History().apply(AppliedStep("masking", mask_step("ssn", "redact")))
    assert position_label(h, 0) == "Before any step (the table as recorded)"
    assert position_label(h, 1).startswith("After step 1: masking (ssn: ")


def test_a_search_step_may_carry_its_steering_and_an_empty_one_removes_it():
    age = {"kind": "interval", "params": {"widths": [10.0, 20.0]}}
    steer = {"weights": {"age": 2.0}, "levels": {"age": [0, 2]}, "schema_version": 1}
    params = {"levels": {"age": 1}, "objective": "ncp", "hierarchies": {"age": age}}
    h = History().apply(AppliedStep("search", {**params, "steering": steer}))
    assert h.to_recipe(_base()).steering == steer
    h = h.apply(AppliedStep("search", {"levels": {"age": 2}, "objective": "ncp", "steering": {}}))
    assert h.to_recipe(_base()).steering is None
    assert h.undo().to_recipe(_base()).steering == steer
    with pytest.raises(RiskcoreError, match=r"^the steering step's parameters are not valid"):
        AppliedStep("search", {**params, "steering": {"weights": {"age": "x"}}})
