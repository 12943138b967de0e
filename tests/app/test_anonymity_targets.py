"""AppTest: every edit of a target on the anonymity page is kept, and a reset restores defaults."""

from __future__ import annotations

from tests.app.test_apptest import clear_caches, demo_roles, run  # noqa: F401 - autouse fixture


def test_a_second_edit_of_a_target_is_kept():
    # Before: the widget's default followed its own last value, so its identity changed
    # after each edit and the next edit was dropped (k stayed 5).
    at = run("pages/anonymity.py", demo_roles(["age", "sex"], ["income"]))
    k_box = next(w for w in at.number_input if w.label == "target k")
    k_box.set_value(5).run()
    k_box = next(w for w in at.number_input if w.label == "target k")
    k_box.set_value(7).run()
    assert not at.exception
    assert next(w for w in at.number_input if w.label == "target k").value == 7
    checks = at.dataframe[0].value
    assert checks.loc[checks["criterion"] == "k-anonymity", "target"].iloc[0] == "7"
    assert at.session_state["rc_targets"]["k"] == 7
    # kept across a page switch
    at.switch_page("pages/uniqueness.py").run()
    at.switch_page("pages/anonymity.py").run()
    assert next(w for w in at.number_input if w.label == "target k").value == 7


def test_reset_session_restores_the_default_targets():
    at = run("pages/anonymity.py", demo_roles(["age", "sex"], ["income"]))
    next(w for w in at.number_input if w.label == "target k").set_value(5).run()
    at.switch_page("app.py").run()  # the router's default page, with the sidebar's button
    next(b for b in at.button if b.label == "Reset session").click().run()
    at.switch_page("pages/anonymity.py").run()
    assert not at.exception
    assert next(w for w in at.number_input if w.label == "target k").value == 11
