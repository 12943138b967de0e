"""AppTest: the Context step of the Anonymity page sets the targets from the release context,
shows the answers and why, keeps them in the profile, and says so when the targets change."""

from __future__ import annotations

from riskcore.criteria import AverageRisk, RecordRisk
from riskcore.criteria.context import Context
from tests.app.helpers import demo_roles, run, settings_of, static_table

SUBMIT = "Set the targets from this context"


def _radio(at, label):
    return next(w for w in at.radio if w.label == label)


def _refused(at):  # an error of the step (the verdict's failing is an error box too)
    return [x.value for x in at.error if "does not meet" not in x.value]


def _submit(at):
    next(b for b in at.button if b.label == SUBMIT).click().run()


def test_the_context_sets_the_targets_and_the_profile_carries_it():
    at = run("pages/anonymity.py", demo_roles(["age", "sex"], ["income"]))
    _radio(at, "The release is").set_value("non-public")
    _radio(at, "Invasion of privacy, were the data identified").set_value("high")
    _radio(at, "Privacy and security controls").set_value("high")
    _radio(at, "Motives and capacity of the recipient").set_value("low")
    next(w for w in at.number_input if w.label.startswith("Share of the population")).set_value(
        0.0001
    )
    _submit(at)
    assert not at.exception and not _refused(at)
    tg = settings_of(at)
    c = tg.context
    assert isinstance(c, Context) and c.invasion == "high" and c.release == "non-public"
    # the breach (0.27, the default) outweighs the deliberate attack (0.05, high controls)
    assert c.attack == 0.27 and c.attack_of == "breach"
    t = tg.targets
    assert AverageRisk(threshold=0.05 / 0.27) in t.criteria
    assert RecordRisk(threshold=1 / 3) in t.criteria and t.find("k-anonymity") is None
    assert any("The likeliest attack is the breach one" in x.value for x in at.info)
    answers = " ".join(x.value.replace("\\", "") for x in at.markdown)
    assert "Pr(breach)**: 0.27" in answers and "IPC Ontario 2016, step 5, attack 3" in answers
    checks = static_table(at, "required")
    assert "average record risk (marketer)" in set(checks["target"])
    # a target changed afterwards: the step says the targets no longer hold the bound
    next(w for w in at.selectbox if w.label == "Targets").set_value("k = 5").run()
    assert any("no longer hold its bound" in x.value for x in at.warning)
    next(b for b in at.button if b.label == "Clear the context").click().run()
    assert settings_of(at).context is None


def test_a_public_release_drops_the_attack_answers_and_holds_the_maximum():
    at = run("pages/anonymity.py", demo_roles(["age", "sex"], ["income"]))
    _radio(at, "The release is").set_value("public")
    _radio(at, "Invasion of privacy, were the data identified").set_value("low")
    _submit(at)
    assert not at.exception and not _refused(at)
    tg = settings_of(at)
    assert tg.context.attack == 1.0
    assert tg.targets.find("record-risk") == RecordRisk(threshold=0.1)


def test_a_bad_answer_is_a_sentence_not_a_traceback():
    at = run("pages/anonymity.py", demo_roles(["age", "sex"], ["income"]))
    _radio(at, "The release is").set_value("public")
    next(w for w in at.number_input if w.label == "Threshold (0: the table's)").set_value(0.09)
    _submit(at)  # a threshold over the table's needs its reason
    assert not at.exception
    assert any("give 'threshold_reason'" in x.value.replace("\\", "") for x in at.error)
    assert settings_of(at).context is None


def test_a_saved_assessment_reopens_with_its_context():
    import io

    from streamlit.testing.v1 import AppTest

    from riskcore.demo import make_people
    from tests.app.helpers import APP, data_uploader

    buf = io.StringIO()
    make_people(400, seed=3).to_csv(buf, index=False)
    raw = buf.getvalue().encode()

    def session() -> AppTest:
        at = AppTest.from_file(APP, default_timeout=60).run()
        data_uploader(at).set_value(("people.csv", raw, "text/csv")).run()
        assert not at.exception
        return at

    at = session()
    at.switch_page("pages/anonymity.py").run()
    _radio(at, "The release is").set_value("public")
    _radio(at, "Invasion of privacy, were the data identified").set_value("high")
    _submit(at)
    made = settings_of(at).context
    at.switch_page("pages/report.py").run()
    at.button(key="rc_report_build").click().run()
    at.button(key="rc_save").click().run()
    assert not at.exception

    again = session()  # a new session: a reload, or another day
    assert settings_of(again).context is None
    again.switch_page("pages/saved.py").run()
    again.button(key="rc_saved_reopen").click().run()
    assert not again.exception
    assert settings_of(again).context == made
    assert settings_of(again).targets.find("record-risk") == RecordRisk(threshold=0.05)
