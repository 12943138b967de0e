"""The history in words: each kind of step, the table with its redo tail, where it stands."""

from __future__ import annotations

from riskcore.criteria import Targets
from riskcore.deidentify.history.base import STEP_KINDS, AppliedStep, History
from riskcore.deidentify.recipe.base import mask_step
from riskcore.report.readings.history import (
    _WORDS,
    history_reading,
    history_table,
    step_words,
    steps_list,
)

SH = {"steps": [{"column": "zip", "action": "zip3"}, {"column": "name", "action": "dropped"}]}
STEPS = [
    AppliedStep("safe_harbor", SH, risk=0.5),
    AppliedStep("masking", mask_step("ssn", "mask_digits"), risk=0.25, loss=0.1),
    AppliedStep("date_shift", {"person": "ssn", "columns": ["admitted"], "max_days": 30}),
    AppliedStep("hierarchy", {"column": "age", "hierarchy": {"kind": "interval", "params": {}}}),
    AppliedStep("levels", {"levels": {"age": 1}}),
    AppliedStep("search", {"levels": {"age": 2, "sex": 0}, "objective": "ncp"}),
    AppliedStep("steering", {"weights": {"age": 2.0}, "levels": {"sex": [0, 1]}}),
    AppliedStep("targets", Targets.of(k=5, max_suppression=0.02).to_dict()),
    AppliedStep(
        "perturb",
        {
            "method": "local_suppression",
            "columns": ["age", "sex"],
            "params": {"k": 3, "importance": {}},
            "seed": None,
        },
    ),
]


def test_every_kind_has_its_words():
    assert set(_WORDS) == set(STEP_KINDS)
    assert {s.kind for s in STEPS} == set(STEP_KINDS)


def test_each_step_reads_as_its_parameters_say():
    words = [step_words(s) for s in STEPS]
    assert words == [
        "zip: first 3 digits kept, 000 for areas of 20,000 people or fewer (Safe Harbor); "
        "name: column dropped (Safe Harbor)",
        "ssn: last 4 digits kept",
        "admitted: shifted by one keyed random number of days per ssn, at most 30 days either way",
        "age: new hierarchy (interval), back to level 0",
        "levels set: age level 1",
        "search result chosen (least normalized certainty penalty (NCP)): age level 2, sex level 0",
        "search steered: age weight 2, sex levels 0 to 1",
        "targets: k-anonymity 5; a remediation may suppress up to 2% of the records",
        "single cells of age, sex blanked until every record matches at least 3 records, a "
        "blank matching any value (local suppression)",
    ]


def test_the_table_marks_the_redo_tail_and_the_reading_says_where_it_stands():
    h = History()
    assert history_reading(h) == "No step applied yet."
    for s in STEPS[:3]:
        h = h.apply(s)
    h = h.undo()
    table = history_table(h)
    assert list(table["step"]) == [1, 2, 3]
    assert list(table["applied"]) == [True, True, False]
    assert list(table["kind"]) == ["Safe Harbor", "masking", "date shift"]
    assert table["highest risk"].tolist()[:2] == [0.5, 0.25]
    assert table["values changed"].isna().tolist() == [True, False, True]
    assert history_reading(h) == "2 of 3 steps applied; 1 can be redone."
    words = steps_list(h).split("\n")  # the panel's list under the table (issue 38)
    assert [w[:3] for w in words] == ["1. ", "2. ", "3. "]
    assert [w.endswith(" (undone)") for w in words] == [False, False, True]
    assert history_reading(h.redo()) == "3 of 3 steps applied."
