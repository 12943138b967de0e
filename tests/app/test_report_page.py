"""AppTest: the Report page builds the document of the session's assessment."""

from __future__ import annotations

from riskcore.criteria import Targets
from riskcore.demo import make_people
from riskcore.metrics import assess
from riskcore.roles import suggest_roles
from tests.app.helpers import data_uploader, run, seen, set_roles, set_settings


def test_report_page_builds_the_sessions_report():
    at = run("pages/report.py")
    assert not at.exception
    assert not at.get("download_button")  # nothing before the click
    at.button(key="rc_report_build").click().run()
    assert not at.exception
    report = at.session_state["rc_report"]["report"]
    df = make_people(32_561, seed=0)
    roles = suggest_roles(df).roles
    expected = assess(df, quasi_identifiers=roles.quasi_identifiers, sensitive=roles.sensitive)
    assert report.before.k == expected.k
    assert report.before.prosecutor.records_at_risk == expected.prosecutor.records_at_risk
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels[:3] == [
        "Download the report (HTML)",
        "Download the JSON twin",
        "Download the PDF (PDF/A-3b)",
    ]
    # a failing target is red (st.error), never the amber of a warning
    assert any(
        seen(e.value).startswith("Does not pass: the table as recorded does not meet")
        for e in at.error
    )
    assert not any(seen(w.value).startswith("Does not pass") for w in at.warning)
    assert report.command in [c.value for c in at.code]
    (box,) = [c for c in at.code if c.value == report.command]
    assert box.proto.wrap_lines  # the long command wraps in its box, not run off it
    # the printed command runs: the demo is "demo" on the command line, not its title
    assert report.command.startswith("python -m riskcore report demo --profile")
    # a change of targets makes the report stale, and the page says so
    set_settings(at, targets=Targets.of(k=3))
    at.run()
    assert any("changed since this report was built" in w.value for w in at.warning)
    # its downloads and the save wait for a new build
    assert all(b.proto.disabled for b in at.get("download_button"))
    assert at.button(key="rc_save").disabled


def test_the_report_and_its_save_record_the_audit_head(database):
    from riskcore.store import Store

    store = Store(database)
    store.log("roles", user="ana", changes={"step": 0})
    head = store.head()
    at = run("pages/report.py")
    at.button(key="rc_report_build").click().run()
    assert not at.exception
    report = at.session_state["rc_report"]["report"]
    assert report.audit_head == {"seq": head.seq, "hash": head.hash}
    at.button(key="rc_save").click().run()
    assert not at.exception
    (saved,) = store.assessments()
    assert saved.results["audit_head"] == {"seq": 1, "hash": head.hash}
    assert saved.audit_head == f"1:{head.hash}" and store.verify().ok


def _small_csv() -> bytes:
    """Two classes on q ({a} x 4, {b} x 4): k = 4; ``ref`` holds an SSN in 3 of 8 rows."""
    ssns = ["123-45-6789", "none", "234-56-7890", "none", "345-67-8901", "none", "none", "none"]
    rows = [f"{q},{s},{r}" for q, s, r in zip("aaaabbbb", "xyxyxyxy", ssns, strict=True)]
    return ("q,s,ref\n" + "\n".join(rows) + "\n").encode()


def test_the_banner_is_amber_while_ssns_are_left_in_an_other_column_green_once_not():
    at = run("pages/data.py")
    data_uploader(at).set_value(("small.csv", _small_csv(), "text/csv")).run()
    assert not at.exception, at.exception
    set_roles(at, {"q": "quasi_identifier", "s": "sensitive", "ref": "other"})
    at.session_state["rc_roles_for"] = at.session_state["rc_dataset"]["key"]
    at.switch_page("pages/report.py").run()
    set_settings(at, targets=Targets.of(k=4))  # met: both classes hold 4
    at.button(key="rc_report_build").click().run()
    assert not at.exception, at.exception
    assert at.session_state["rc_report"]["report"].verdict.passed is True
    (said,) = [seen(w.value) for w in at.warning if "not ready" in w.value]
    assert said.startswith(
        "Targets met; not ready to release: identifiers remain in released columns "
        "(ref: Social Security numbers, 3 cells)."
    )
    assert not at.success  # no green while identifiers remain
    assert sum("ref: Social Security numbers, 3 cells)" in seen(w.value) for w in at.warning) == 1
    # a target failing: red, the identifiers left named in the same banner
    set_settings(at, targets=Targets.of(k=5))
    at.button(key="rc_report_build").click().run()
    (red,) = [seen(e.value) for e in at.error if e.value.startswith("Does not pass")]
    assert "Identifiers remain in released columns (ref: Social" in red
    # tagged a direct identifier, the column leaves the release: ready, green
    set_roles(at, {"q": "quasi_identifier", "s": "sensitive", "ref": "identifier"})
    set_settings(at, targets=Targets.of(k=4))
    at.button(key="rc_report_build").click().run()
    assert not at.exception, at.exception
    (green,) = [seen(s.value) for s in at.success]
    assert green.startswith("Passes: the table as recorded meets its one target.")
    assert not any("not ready" in w.value for w in at.warning)
