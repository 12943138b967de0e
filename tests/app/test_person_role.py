"""AppTest: the claims demo, its person column on the Data page, and the rows-not-people caution.

The Data page's second demo button opens the claims (make_claims(2500, seed=0): 1-10 rows
per patient); the role rule suggests patient_id as the person and the page says why, with
the facts. While no column is tagged as the person, the verdict on the Anonymity page and
the report's banner and limitations carry the caution; tagged, it goes.
"""

from __future__ import annotations

from riskcore.demo.claims import make_claims
from tests.app.helpers import roles_of, run, seen, set_roles

CLAIMS = make_claims(2_500, seed=0)
FACTS = f"2,500 people in {len(CLAIMS):,} rows, 1-10 rows each"
CAUTION = f"patient_id repeats ({FACTS}) but no column is tagged as the person"


def _claims(page: str | None = None):
    at = run("pages/data.py")
    at.button(key="rc_demo_claims").click().run()
    assert not at.exception, at.exception
    if page is not None:
        at.switch_page(page).run()
        assert not at.exception, at.exception
    return at


def _untag(at) -> None:
    """Tag patient_id as a direct identifier: no column is the person."""
    set_roles(at, {**roles_of(at), "patient_id": "identifier"})


def test_the_claims_demo_suggests_the_person_and_says_why():
    at = _claims()
    ds = at.session_state["rc_dataset"]
    assert (ds["source"], ds.get("demo")) == ("demo", "claims")
    assert roles_of(at)["patient_id"] == "person"
    assert roles_of(at)["claim_id"] == "identifier"
    assert roles_of(at)["household_id"] == "identifier"
    editor = at.dataframe[-1].value.set_index("column")
    assert editor.loc["patient_id", "role"] == "person (links the rows of one individual)"
    infos = [seen(x.value) for x in at.info]
    (note,) = [x for x in infos if x.startswith("patient_id: ")]
    assert note.startswith(f"patient_id: {FACTS} (median 2).")
    assert note.endswith("It is tagged as the person: each person, not each row, is the unit "
                         "of privacy.")  # fmt: skip
    heading = seen(at.subheader[0].value)
    assert heading == f"Demo claims (2,500 patients): {len(CLAIMS):,} rows x 14 columns"
    # tagged otherwise, the note says what to do; the people demo has no such note
    _untag(at)
    at.run()
    (note,) = [seen(x.value) for x in at.info if seen(x.value).startswith("patient_id: ")]
    assert note.endswith("Tag it as the person (the suggestion): until a column is, every "
                         "count is of rows, not people.")  # fmt: skip
    at.button(key="rc_demo_people").click().run()
    assert not at.exception
    assert "demo" not in at.session_state["rc_dataset"]
    assert not [x for x in at.info if "rows each" in x.value]


def test_the_verdict_carries_the_caution_until_the_person_is_tagged():
    at = _claims("pages/anonymity.py")
    assert not [w for w in at.warning if CAUTION in seen(w.value)]  # suggested: tagged
    _untag(at)
    at.run()
    assert not at.exception
    (caution,) = [seen(w.value) for w in at.warning if CAUTION in seen(w.value)]
    assert caution.endswith("Tag patient_id as the person on the Data page.")


def test_the_reports_banner_and_limitations_carry_the_caution_until_tagged():
    at = _claims("pages/report.py")
    _untag(at)
    at.run()
    at.button(key="rc_report_build").click().run()
    assert not at.exception, at.exception
    report = at.session_state["rc_report"]["report"]
    assert report.readiness.rows_not_people is not None
    assert report.readiness.rows_not_people.column == "patient_id"
    banner = [seen(e.value) for e in at.error]  # k fails on the demo's QIs: red
    assert any(
        f"patient_id repeats ({FACTS}) and no column is tagged as the person" in b for b in banner
    )
    limitations = [seen(m.value) for m in at.markdown if seen(m.value).startswith("- ")]
    assert any(x.startswith(f"- Rows, not people: {CAUTION}") for x in limitations)
    # the command names the table: the command line's "demo" is the people
    assert not report.command.startswith("python -m riskcore report demo ")
    # tagged as the person, the report built again has no caution
    set_roles(at, {**roles_of(at), "patient_id": "person"})
    at.run()
    at.button(key="rc_report_build").click().run()
    assert not at.exception
    report = at.session_state["rc_report"]["report"]
    assert report.readiness.rows_not_people is None
    assert not [m for m in at.markdown if "Rows, not people" in seen(m.value)]
    assert not [e for e in at.error if "no column is tagged as the person" in seen(e.value)]


def test_the_safe_harbor_tab_removes_the_person_column_as_a_direct_identifier():
    """The Safe Harbor check and plan know direct identifiers only: the person column is one
    (a record number, (H)), listed by the role rule and dropped, not only found as text."""
    at = _claims("pages/remediate.py")
    table = next(d.value for d in at.dataframe if "columns" in d.value.columns)
    (h,) = [r for _, r in table.iterrows() if "patient_id" in r["columns"].split(", ")]
    transforms = next(d.value for d in at.dataframe if "action" in d.value.columns)
    actions = dict(zip(transforms["column"], transforms["action"], strict=True))
    assert "each the rows of one person: " + FACTS in h["found by"]
    assert actions["patient_id"] == actions["claim_id"] == "dropped"
