"""The classifier's split by person (:func:`riskcore.utility.tables.held_out_rows`):
no person on both sides, and the accuracy a row split inflates with a person's near-copies."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from riskcore.demo.claims import make_claims
from riskcore.errors import RiskcoreError
from riskcore.report.readings.utility import classification_reading
from riskcore.utility.tables import ClassificationUtility, classification_utility, held_out_rows


def test_no_person_is_on_both_sides():
    df = make_claims(300, seed=4)
    held, people, everyone = held_out_rows(df, test_share=0.3, seed=2, person="patient_id")
    test_people = set(df.loc[held, "patient_id"])
    train_people = set(df.loc[~held, "patient_id"])
    assert not test_people & train_people
    assert (people, everyone) == (len(test_people), 300) and people == 90  # round(0.3 * 300)
    assert len(train_people) == 210
    # another seed holds out other people
    other, _, _ = held_out_rows(df, test_share=0.3, seed=3, person="patient_id")
    assert set(df.loc[other, "patient_id"]) != test_people


def test_a_row_without_a_person_is_a_person_of_its_own():
    df = pd.DataFrame({"who": ["a", "a", None, None, "b", "b"]})
    held, people, everyone = held_out_rows(df, test_share=0.5, seed=0, person="who")
    assert everyone == 4 and people == 2
    # a's rows (0, 1) and b's (4, 5) go together; the two rows without a person need not
    assert held[0] == held[1] and held[4] == held[5]


def _near_copies(n_people: int, rows_each: int, seed: int) -> pd.DataFrame:
    """Each person: a ZIP of their own, a random label, rows differing in one noisy column."""
    rng = np.random.default_rng(seed)
    person = np.repeat(np.arange(n_people), rows_each)
    return pd.DataFrame(
        {
            "pid": [f"P{i:04d}" for i in person],
            "zip": [f"Z{i:04d}" for i in rng.permutation(n_people)[person]],
            "noise": rng.choice(["x", "y", "z"], len(person)),
            "label": rng.choice(["yes", "no"], n_people)[person],
        }
    )


def test_a_row_split_is_inflated_by_a_persons_near_copies_and_the_person_split_is_not():
    df = _near_copies(400, 5, seed=1)
    rows = classification_utility(df, df, "label", ["zip", "noise"], seed=0)
    people = classification_utility(df, df, "label", ["zip", "noise"], seed=0, person="pid")
    # by row, a held-out record's ZIP is in training unless all 5 of its person's rows are
    # held out (0.3^5 = 0.24%): the model recalls the person's label
    assert rows.accuracy_before > 0.95
    # by person, every held-out ZIP is new: the label is a coin the features do not show
    assert people.accuracy_before < 0.65
    assert people.accuracy_before < rows.accuracy_before - 0.3
    assert (people.test_people, people.train_people) == (120, 280)
    assert people.test == 600 and people.train == 1400  # 120 and 280 people of 5 rows


def test_one_row_per_person_gives_the_row_split():
    df = _near_copies(200, 1, seed=2)
    rows = classification_utility(df, df.iloc[:150], "label", ["zip", "noise"], seed=5)
    people = classification_utility(df, df.iloc[:150], "label", ["zip", "noise"], seed=5,
                                    person="pid")  # fmt: skip
    assert people.person == "pid" and rows.person is None and rows.test_people is None
    same = ("train", "test", "test_released", "accuracy_before", "accuracy_after")
    assert {f: getattr(rows, f) for f in same} == {f: getattr(people, f) for f in same}


def test_the_person_column_need_not_be_released_and_must_exist():
    df = _near_copies(50, 2, seed=3)
    cu = classification_utility(df, df.drop(columns="pid"), "label", ["zip"], person="pid")
    assert cu.test_people == 15 and cu.test == 30
    assert ClassificationUtility.from_dict(cu.to_dict()) == cu
    with pytest.raises(RiskcoreError, match="no person column 'who'"):
        classification_utility(df, df, "label", ["zip"], person="who")
    one = df.assign(pid="same")
    with pytest.raises(RiskcoreError, match="at least 2 people"):
        classification_utility(one, one, "label", ["zip"], person="pid")


def test_the_reading_says_the_split_is_by_person():
    df = _near_copies(50, 2, seed=3)
    cu = classification_utility(df, df, "label", ["zip"], person="pid")
    text = classification_reading(cu)
    assert "trained on 70 records of 35 people" in text
    assert "30 held-out records (of 15 other people: split by pid, no person on both sides)" in text
    plain = classification_reading(classification_utility(df, df, "label", ["zip"]))
    assert "people" not in plain and "trained on 70 records is right" in plain
