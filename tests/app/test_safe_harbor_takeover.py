"""AppTest: the Safe Harbor transforms after a generalization of the same column (issue 38
item 4).

A date hierarchy on the birth dates, applied; then "Apply the transforms": the step failed
("'date_of_birth': '1936 or earlier' is not a date") and said so only in the history panel
at the top of the page. Now the transforms take over that column's generalization (a
sentence by the button says so before the click), and a step that cannot be applied says
why next to the button.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from riskcore.deidentify.history.base import TAKEN_OVER, History
from tests.app.helpers import hospital_app, seen


def _ok(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def _history(at: AppTest) -> History:
    kept = at.session_state["rc_rem_history"] if "rc_rem_history" in at.session_state else None
    return History() if kept is None else kept["history"]


def _generalized_birth_dates() -> AppTest:
    """The hospital table on the Remediate page, its birth dates generalized to the decade."""
    at = hospital_app()
    _ok(at.switch_page("pages/remediate.py"))
    for q in ("zip", "sex"):  # their top, as tests/app/test_remediate_history.py does
        slider = at.select_slider(key=f"rc_rem_level_{q}")
        slider.set_value(len(slider.options) - 1)
        _ok(at)
    slider = at.select_slider(key="rc_rem_level_date_of_birth")
    slider.set_value(3)  # the decade: day, month, year, decade, then "*"
    _ok(at)
    at.button(key="rc_rem_use").click()
    _ok(at)
    recipe = at.session_state["rc_remediation"]["recipe"]
    assert recipe["hierarchies"]["date_of_birth"]["kind"] == "date"
    assert recipe["hierarchies"]["date_of_birth"]["params"]["levels"][1] == "year"
    return at


def _safe_harbor_tab(at: AppTest):
    return next(t for t in at.tabs if seen(t.label) == "HIPAA Safe Harbor")


def test_the_transforms_take_over_the_date_hierarchy_of_the_birth_dates():
    at = _generalized_birth_dates()
    tab = _safe_harbor_tab(at)
    said = [seen(c.value) for c in tab.caption if "take over" in seen(c.value)]
    # zip too: the levels step set it to its top, and the transforms keep its 3 digits
    assert said and said[0].startswith("The applied steps generalize date_of_birth, zip, which")
    at.button(key="rc_rem_sh_apply").click()
    _ok(at)
    assert [s.kind for s in _history(at).steps] == ["levels", "safe_harbor"]
    assert not at.error, [e.value for e in at.error]
    recipe = at.session_state["rc_remediation"]["recipe"]
    assert recipe["hierarchies"]["date_of_birth"] == recipe["hierarchies"]["zip"] == TAKEN_OVER
    # the Generalize tab shows the hierarchy the step took over
    assert at.session_state["rc_rem_store"]["hier"]["date_of_birth"] == TAKEN_OVER


def test_a_step_that_cannot_be_applied_says_why_next_to_the_button(monkeypatch):
    import ui.widgets.remediate.history

    def failing(*args, **kwargs):
        raise ValueError("the risk of the table could not be measured")

    at = _generalized_birth_dates()
    monkeypatch.setattr(ui.widgets.remediate.history, "step_scores", failing)
    at.button(key="rc_rem_sh_apply").click()
    _ok(at)
    assert [s.kind for s in _history(at).steps] == ["levels"]
    said = [seen(e.value) for e in _safe_harbor_tab(at).error]
    assert said == ["The step was not applied: the risk of the table could not be measured"], said
    assert len(at.error) == 1  # not in the history panel too, 2,000 px above the button
