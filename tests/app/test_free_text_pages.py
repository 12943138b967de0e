"""AppTest: the hospital upload's free-text note on the Data page and the Safe Harbor tab.

The note column holds phone numbers in about 70% of rows. The Data page suggests it as a
direct identifier with a reason naming the count; the Safe Harbor tab never says "Passes"
for the table as uploaded, states the note's status, and does not pass either when the
note is tagged "other".
"""

from __future__ import annotations

from tests.app.helpers import data_uploader, roles_of, run, seen, set_roles
from tests.hospital import hospital_csv, hospital_table


def _phones() -> int:
    """Notes holding a phone number, counted from the generator's own sentence."""
    return int(hospital_table()["note"].str.startswith("Call back on (").sum())


def _upload():
    at = run("pages/data.py")
    data_uploader(at).set_value(("hospital.csv", hospital_csv(), "text/csv")).run()
    assert not at.exception, at.exception
    assert at.session_state["rc_dataset"]["name"] == "hospital.csv"
    return at


def test_data_page_suggests_the_note_as_a_direct_identifier_from_its_phone_numbers():
    at = _upload()
    n = _phones()
    reasons = seen("\n".join(m.value for m in at.markdown))
    expected = (
        "- **note**: direct identifier. free text holding HIPAA Safe Harbor identifiers "
        f"(45 CFR 164.514(b)(2)(i)(D)): phone numbers, {n:,} in {n:,} of 5,000 cells."
    )
    assert expected in reasons
    assert roles_of(at)["note"] == "identifier"
    notes = [seen(c.value) for c in at.caption]
    assert any("Identifiers are written inside 5 columns: ssn, mrn, date_of_birth, "
               "admission_date, note." in c for c in notes)  # fmt: skip


def test_safe_harbor_tab_does_not_pass_the_hospital_upload_and_states_the_note():
    at = _upload()
    at.switch_page("pages/remediate.py").run()
    assert not at.exception, at.exception
    verdicts = [seen(w.value) for w in at.warning if "Safe Harbor" in w.value]
    assert verdicts and verdicts[0].startswith("Does not pass Safe Harbor")
    assert not any(seen(s.value).startswith("Passes") for s in at.success)
    checklist = next(d.value for d in at.dataframe if "category" in d.value.columns)
    found = dict(zip(checklist[""], checklist["columns"], strict=True))
    assert found["(D)"] == "note"
    text = next(d.value for d in at.dataframe if "status" in d.value.columns)
    row = text[text["column"] == "note"].iloc[0]
    n = _phones()
    assert row["status"] == "scanned: identifiers found"
    assert row["found"] == f"phone numbers (D): {n:,} in {n:,} cells, {n:,} distinct values"
    assert row["example"].startswith("(***) ***-")
    # the transforms drop the note with the other identifiers: only then does it pass
    after = [seen(s.value) for s in at.success if "After the transforms" in s.value]
    assert after and after[0].startswith("After the transforms: Passes")


def test_tagging_the_note_other_does_not_make_safe_harbor_pass():
    at = _upload()
    roles = dict(roles_of(at))
    roles["note"] = "other"
    set_roles(at, roles)
    at.switch_page("pages/remediate.py").run()
    assert not at.exception, at.exception
    verdicts = [seen(w.value) for w in at.warning if "Safe Harbor" in w.value]
    assert verdicts[0].startswith("Does not pass Safe Harbor")
    checklist = next(d.value for d in at.dataframe if "category" in d.value.columns)
    assert dict(zip(checklist[""], checklist["columns"], strict=True))["(D)"] == "note"


def test_a_partly_scanned_note_is_unchecked_until_all_of_it_is_read():
    """A character limit of 200 (set for this dataset, as the page's button does) leaves the
    note partly read: the tab says so and does not pass; its button reads all of it."""
    at = run("pages/data.py")
    notes = [f"visit {i % 50}: all well" for i in range(200)]  # repeated: not a unique key
    raw = ("sex,note\n" + "\n".join(f"F,{n}" for n in notes)).encode()
    data_uploader(at).set_value(("visits.csv", raw, "text/csv")).run()
    assert not at.exception, at.exception
    assert at.session_state["rc_dataset"]["name"] == "visits.csv"
    key = at.session_state["rc_dataset"]["key"]
    at.session_state["rc_rem_sh_limit"] = {key: 200}
    at.switch_page("pages/remediate.py").run()
    assert not at.exception, at.exception
    verdict = next(seen(w.value) for w in at.warning if "Safe Harbor" in w.value)
    assert verdict == (
        "Does not pass Safe Harbor: the text of 1 column (note) was not fully scanned, so "
        "identifiers written in it may remain."
    )
    text = next(d.value for d in at.dataframe if "status" in d.value.columns)
    assert text.set_index("column").loc["note", "status"] == "scanned partly: unchecked"
    total = sum(len(f"visit {i}: all well") for i in range(50))
    button = at.button(key="rc_rem_sh_scan_all")
    assert seen(button.label) == f"Scan all of the text ({total:,} characters, about 1 s)"
    button.click().run()
    assert not at.exception, at.exception
    assert any(seen(s.value).startswith("Passes the Safe Harbor checklist") for s in at.success)
