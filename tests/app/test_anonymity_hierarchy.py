"""AppTest: the Anonymity page's hierarchical t-closeness distance asks for the hierarchy."""

from __future__ import annotations

import pytest

from riskcore.demo import make_people
from riskcore.metrics import assess
from tests.app.helpers import demo_roles, run
from tests.app.test_anonymity_order import QIS, distance_box, plain, texts


def test_the_hierarchical_distance_waits_for_its_hierarchy_then_uses_it():
    at = run("pages/anonymity.py", demo_roles(QIS, ["education"]))
    distance_box(at, "education").set_value("hierarchical").run()
    assert not at.exception
    assert any("needs its hierarchy" in plain(w.value) for w in at.warning)
    assert "(hierarchical distance)" not in texts(at)
    assert "No l or t for education yet: its hierarchical distance waits for its" in texts(at)
    people = make_people(32_561, seed=0)
    values = sorted(people["education"].dropna().unique())
    school = {"Preschool", "1st-4th", "5th-6th", "7th-8th", "9th", "10th", "11th", "12th"}
    csv = "".join(f"{v};{'school' if v in school else 'beyond'};*\n" for v in values)
    key = at.session_state["rc_dataset"]["key"]
    at.file_uploader(key=f"rc_t_hierarchy:{key}:education").set_value(
        ("education.csv", csv.encode(), "text/csv")
    )
    at.run()
    assert not at.exception, at.exception
    assert not at.warning
    rows = tuple((v, "school" if v in school else "beyond", "*") for v in values)
    a = assess(
        people,
        quasi_identifiers=QIS,
        sensitive=["education"],
        distance="hierarchical",
        hierarchy={"education": rows},
    )
    shown = texts(at)
    assert "(hierarchical distance)" in shown
    assert f"t = {a.sensitive['education'].t_closeness:.3f}" in shown
    assert a.sensitive["education"].t_closeness != pytest.approx(
        assess(people, quasi_identifiers=QIS, sensitive=["education"])
        .sensitive["education"]
        .t_closeness
    )
