"""Rows, not people: a table holding a person column, none tagged as the person.

The caution is data (:class:`~riskcore.roles.persons.RowsNotPeople`): a ``rows-not-people``
limitation of the review, the readiness's ``rows_not_people`` (the release is not ready:
the targets were judged on rows), carried by the JSON twin; every sentence is derived from
it in :mod:`riskcore.report.readings`. Tagging the person column takes it away.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

from riskcore.criteria import Targets
from riskcore.profile import Profile
from riskcore.report.readings import person_reading, roles_reading, roles_summary
from riskcore.report.readings.criteria import rows_not_people_reading
from riskcore.report.readings.review import limitation_text, release_banner
from riskcore.report.render import render_html
from riskcore.review import Readiness, Review, review
from riskcore.roles import ColumnRoles, PersonCandidate, RowsNotPeople

#: 20 patients on 3 rows each (60 rows); sex is the one QI: classes of 30 rows, k = 30.
TABLE = pd.DataFrame(
    {
        "patient_id": [f"P{i // 3:03d}" for i in range(60)],
        "sex": ["F" if (i // 3) % 2 == 0 else "M" for i in range(60)],
        "visit": [f"V{i:03d}" for i in range(60)],
    }
)
TARGETS = Targets.of(k=2, threshold=0.5)
CAUTION = RowsNotPeople("patient_id", 20, 60, 3, 3)


def _review(person: bool) -> Review:
    roles = ColumnRoles(
        identifiers=() if person else ("patient_id",),
        persons=("patient_id",) if person else (),
        quasi_identifiers=("sex",),
        other=("visit",),
    )
    return review(TABLE, Profile(roles=roles, targets=TARGETS))


@pytest.fixture(scope="module")
def untagged() -> Review:
    return _review(person=False)


def test_the_caution_is_a_limitation_and_holds_the_release(untagged):
    rev = untagged
    assert rev.verdict.passed is True  # k = 30 on rows: the criteria are not judged again
    (lim,) = [x for x in rev.limitations if x.kind == "rows-not-people"]
    assert lim.facts == {
        "column": "patient_id",
        "n_people": 20,
        "n_rows": 60,
        "min_rows": 3,
        "max_rows": 3,
    }
    assert rev.readiness == Readiness(
        targets_met=True, of="the table as recorded", rows_not_people=CAUTION
    )
    assert rev.readiness.ready is False
    banner = release_banner(rev)
    assert (banner.state, banner.mark) == ("hold", "NOT READY")
    assert banner.text == (
        "Targets met; not ready to release: patient_id repeats (20 people in 60 rows, 3 rows "
        "each) and no column is tagged as the person. The table as recorded meets both "
        "targets. The targets were judged on rows, not people; tag patient_id as the person "
        "and judge them again (see Limitations)."
    )
    assert limitation_text(lim) == "Rows, not people: " + rows_not_people_reading(CAUTION)


def test_tagging_the_person_takes_the_caution_away():
    rev = _review(person=True)
    assert [x for x in rev.limitations if x.kind == "rows-not-people"] == []
    assert rev.readiness.rows_not_people is None and rev.readiness.ready is True
    assert release_banner(rev).state == "pass"
    # the person column is a direct identifier: not listed among the columns released and
    # assumed unknown to the attacker
    attacker = next(x for x in rev.limitations if x.kind == "attacker")
    assert attacker.facts["unknown_to_attacker"] == ["visit"]


def test_a_failing_table_names_the_caution_after_the_failure():
    roles = ColumnRoles(identifiers=("patient_id",), quasi_identifiers=("sex", "visit"))
    rev = review(TABLE, Profile(roles=roles, targets=TARGETS))
    banner = release_banner(rev)
    assert banner.state == "fail"
    assert banner.text.endswith(
        "patient_id repeats (20 people in 60 rows, 3 rows each) and no column is tagged as "
        "the person: the targets were judged on rows, not people; tag patient_id as the "
        "person and judge them again (see Limitations)."
    )


def test_the_json_twin_carries_the_caution_and_round_trips(untagged):
    twin = json.loads(untagged.to_json())
    assert twin["readiness"]["rows_not_people"] == {"schema_version": 1, **CAUTION.to_dict()}
    assert twin["readiness"]["ready"] is False
    assert Readiness.from_dict(twin["readiness"]) == untagged.readiness
    assert Review.from_dict(twin).readiness == untagged.readiness
    # without a caution the twin's readiness is as before the caution existed
    assert "rows_not_people" not in json.loads(_review(person=True).to_json())["readiness"]


def test_the_html_report_states_the_caution(untagged):
    html = render_html(untagged, figures=False)
    assert "Rows, not people: patient_id repeats (20 people in 60 rows, 3 rows each)" in html
    assert "NOT READY" in html


def test_the_caution_reading_is_derived_from_its_facts():
    assert rows_not_people_reading(RowsNotPeople("pid", 2_500, 8_098, 1, 10)) == (
        "pid repeats (2,500 people in 8,098 rows, 1-10 rows each) but no column is tagged as "
        "the person: every count here is of rows, and a class of k rows can hold fewer than k "
        "people, so k overstates how many people share a class and the risks understate "
        "theirs. Tag pid as the person on the Data page."
    )


def _candidate(**kw) -> PersonCandidate:
    facts = {
        "column": "patient_id", "n_people": 2_500, "n_rows": 8_098, "n_missing": 0,
        "min_rows": 1, "median_rows": 2.0, "max_rows": 10, "repeated": 0.7, "varying": 1.0,
        "same_person": 1.0, "traits": ("date_of_birth", "sex"), "groups_checked": 1_750,
        "named": True, "kind": "record_id",
    }  # fmt: skip
    return PersonCandidate(**{**facts, **kw})


def test_the_data_pages_person_reading():
    lead = (
        "patient_id: 2,500 people in 8,098 rows, 1-10 rows each (median 2). The rows of each "
        "repeated value differ in other columns and agree on date_of_birth and sex: each "
        "value is the rows of one person. "
    )
    assert person_reading(_candidate(), None) == lead + (
        "Tag it as the person (the suggestion): until a column is, every count is of rows, "
        "not people."
    )
    assert person_reading(_candidate(), "patient_id") == lead + (
        "It is tagged as the person: each person, not each row, is the unit of privacy."
    )
    assert person_reading(_candidate(), "ssn").endswith("one person. ssn is tagged as the person.")
    some = person_reading(_candidate(same_person=0.97, n_missing=12, median_rows=2.5), None)
    assert some.startswith(
        "patient_id: 2,500 people in 8,098 rows, 1-10 rows each (median 2.5), and 12 rows "
        "without a value. The rows of each repeated value differ in other columns, and those "
        "of 97% of them agree on date_of_birth and sex: "
    )
    bare = person_reading(_candidate(same_person=None, traits=()), None)
    assert "differ in other columns: each value is the rows of one person." in bare


def test_roles_reading_counts_the_person_column():
    one = roles_reading(ColumnRoles(quasi_identifiers=("a",), persons=("p",)))
    assert one.endswith(" **1** person column: it links the rows of one individual.")
    two = roles_reading(ColumnRoles(persons=("p", "q")))
    assert two.endswith(
        " **2** person columns: only one can link the rows of one individual, so tag the "
        "others as direct identifiers."
    )


def test_the_sidebars_role_counts_count_the_person_column():
    roles = ColumnRoles(identifiers=("a", "b"), quasi_identifiers=("q",), persons=("p",))
    assert (
        roles_summary(roles) == "2 identifiers, 1 person, 1 quasi-identifier,\n0 sensitive, 0 other"
    )
