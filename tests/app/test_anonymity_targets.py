"""AppTest: every edit of a target on the anonymity page is kept, and a reset restores defaults."""

from __future__ import annotations

from riskcore.criteria import KAnonymity, Targets
from tests.app.helpers import demo_roles, run

K_BOX = "k (smallest class; 0: none)"


def _k_box(at):
    return next(w for w in at.number_input if w.label == K_BOX)


def test_a_second_edit_of_a_target_is_kept():
    # Before: the widget's default followed its own last value, so its identity changed
    # after each edit and the next edit was dropped (k stayed 5).
    at = run("pages/anonymity.py", demo_roles(["age", "sex"], ["income"]))
    next(w for w in at.selectbox if w.label == "Targets").set_value("custom").run()
    _k_box(at).set_value(5).run()
    _k_box(at).set_value(7).run()
    assert not at.exception
    assert _k_box(at).value == 7
    checks = at.dataframe[0].value
    assert checks.loc[checks["target"] == "k-anonymity", "required"].iloc[0] == "7"
    assert at.session_state["rc_targets"]["targets"].find("k-anonymity") == KAnonymity(k=7)
    # kept across a page switch, and the same on the Remediate page
    at.switch_page("pages/uniqueness.py").run()
    at.switch_page("pages/anonymity.py").run()
    assert _k_box(at).value == 7
    at.switch_page("pages/remediate.py").run()
    assert not at.exception
    assert _k_box(at).value == 7


def test_reset_session_restores_the_default_targets():
    at = run("pages/anonymity.py", demo_roles(["age", "sex"], ["income"]))
    next(w for w in at.selectbox if w.label == "Targets").set_value("k = 5").run()
    assert at.session_state["rc_targets"]["targets"].find("k-anonymity") == KAnonymity(k=5)
    at.switch_page("app.py").run()  # the router's default page, with the sidebar's button
    next(b for b in at.button if b.label == "Reset session").click().run()
    at.switch_page("pages/anonymity.py").run()
    assert not at.exception
    assert next(w for w in at.selectbox if w.label == "Targets").value == "k = 11"
    assert at.session_state["rc_targets"]["targets"] == Targets.of(
        k=11, threshold=1 / 11, max_suppression=0.02
    )
