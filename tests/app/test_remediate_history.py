"""AppTest: the Remediate page's history (issue 29 item 2, issue 30 item 6).

Every step the user applies is one entry of the history panel: a masking choice, the Safe
Harbor transforms, a perturbation, levels, a search result, a candidate. Undo / Redo / Go
back to here move the table every page sees (the recipe the applied steps fold into, checked
against :meth:`History.to_recipe` computed here), and the page's controls follow. The history
is in the working profile, so a reload restores it with the rest of the work.
"""

from __future__ import annotations

import io
import json

import pandas as pd
from streamlit.testing.v1 import AppTest

from riskcore.deidentify.history.base import History
from riskcore.demo import make_people
from riskcore.profile import Profile
from tests.app.helpers import APP, data_uploader, hospital_app, seen

PANEL = "History: "


def _ok(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def _history(at: AppTest) -> History:
    kept = at.session_state["rc_rem_history"] if "rc_rem_history" in at.session_state else None
    return History() if kept is None else kept["history"]


def _in_use(at: AppTest) -> dict | None:
    rem = at.session_state["rc_remediation"] if "rc_remediation" in at.session_state else None
    return None if rem is None else rem["recipe"]


def _panel_title(at: AppTest) -> str:
    return next(seen(e.label) for e in at.expander if seen(e.label).startswith(PANEL))


def _table(at: AppTest) -> pd.DataFrame:
    return next(
        d.value for d in at.dataframe if list(d.value.columns)[:3] == ["step", "when", "kind"]
    )


def _words(at: AppTest) -> list[str]:
    """Return the list under the history's table: what each step did, one line a step."""
    return next(seen(m.value) for m in at.markdown if seen(m.value).startswith("1. ")).split("\n")


def _texts(at: AppTest) -> str:
    return "\n".join(seen(x.value) for x in [*at.markdown, *at.caption, *at.info])


def test_each_kind_of_step_is_one_entry_and_undo_redo_go_back_move_the_table():
    at = hospital_app()
    _ok(at.switch_page("pages/remediate.py"))
    assert _panel_title(at) == "History: No step applied yet."
    assert at.button(key="rc_rem_history_undo").disabled
    assert _in_use(at) is None

    # 1. a masking choice of the Direct identifiers tab
    at.selectbox(key="rc_rem_op_ssn").set_value("mask_digits")
    _ok(at)
    # 2. a perturbation: local suppression to k = 2
    at.number_input(key="rc_rem_perturb_k").set_value(2)
    _ok(at)
    at.button(key="rc_rem_perturb_run").click()
    _ok(at)
    # 3. levels of the Generalize tab (the top of each hierarchy: they meet the targets)
    for q in ("date_of_birth", "zip", "sex"):
        slider = at.select_slider(key=f"rc_rem_level_{q}")
        slider.set_value(len(slider.options) - 1)
        _ok(at)
    at.button(key="rc_rem_use").click()
    _ok(at)
    # 4. another masking choice
    at.selectbox(key="rc_rem_op_name").set_value("redact")
    _ok(at)

    h = _history(at)
    assert [s.kind for s in h.steps] == ["masking", "perturb", "levels", "masking"]
    assert h.position == 4 and _panel_title(at) == "History: 4 of 4 steps applied."
    table = _table(at)
    assert table["kind"].tolist() == ["masking", "perturbation", "levels", "masking"]
    assert table["applied"].tolist() == [True] * 4
    # a masking changes no quasi-identifier; blanking cells loses some, the top levels all
    loss, risk = table["values changed"].tolist(), table["highest risk"].tolist()
    assert loss[0] == 0.0 < loss[1] < 0.99 < loss[2] == loss[3]  # all but missing ones
    assert risk[0] == 1.0 and risk[1] <= 0.5  # k = 2 after the local suppression
    # the table every page sees: the recipe of the four steps, the perturbation with them
    in_use = _in_use(at)
    assert in_use is not None and in_use["perturb"][0]["method"] == "local_suppression"
    assert in_use["levels"][in_use["quasi_identifiers"].index("sex")] == 1  # sex has one level: "*"
    masks = {m["column"]: m["operator"] for m in in_use["masking"]}
    assert masks == {"name": "redact", "ssn": "mask_digits", "mrn": "drop"}
    # the "in use" view of the Generalize tab: the recipe's table names the perturbation
    recipe_rows = next(d.value for d in at.dataframe if "operation" in d.value.columns)
    assert "local_suppression" in recipe_rows["operation"].tolist()

    at.button(key="rc_rem_history_undo").click()
    _ok(at)
    at.button(key="rc_rem_history_undo").click()
    _ok(at)
    assert _history(at).position == 2 and _panel_title(at) == (
        "History: 2 of 4 steps applied; 2 can be redone."
    )
    assert _table(at)["applied"].tolist() == [True, True, False, False]
    assert _in_use(at)["perturb"] and _in_use(at)["quasi_identifiers"] == []
    assert at.select_slider(key="rc_rem_level_sex").value == 0  # the controls follow
    assert at.selectbox(key="rc_rem_op_name").value == "drop"
    at.button(key="rc_rem_history_redo").click()
    _ok(at)
    assert _history(at).position == 3 and _in_use(at)["quasi_identifiers"] == [
        "date_of_birth",
        "zip",
        "sex",
    ]
    assert at.select_slider(key="rc_rem_level_sex").value == 1

    # go back to here: after the first step
    at.selectbox(key="rc_rem_history_goto_4_3").set_value(1)
    _ok(at)
    at.button(key="rc_rem_history_go").click()
    _ok(at)
    assert _history(at).position == 1 and "perturb" not in _in_use(at)
    assert at.selectbox(key="rc_rem_op_ssn").value == "mask_digits"
    # a new step drops the redo tail
    at.selectbox(key="rc_rem_op_mrn").set_value("redact")
    _ok(at)
    h = _history(at)
    assert [s.kind for s in h.steps] == ["masking", "masking"] and h.position == 2
    # back to the table as recorded: nothing in use, every page sees the file
    at.button(key="rc_rem_clear").click()
    _ok(at)
    assert _history(at).position == 0 and _in_use(at) is None
    assert at.selectbox(key="rc_rem_op_ssn").value == "drop"  # the tab's default again


def test_the_safe_harbor_transforms_are_one_step_and_replace_the_masking_of_what_they_drop():
    at = hospital_app()
    _ok(at.switch_page("pages/remediate.py"))
    at.selectbox(key="rc_rem_op_ssn").set_value("mask_digits")
    _ok(at)
    at.button(key="rc_rem_sh_apply").click()
    _ok(at)
    h = _history(at)
    assert [s.kind for s in h.steps] == ["masking", "safe_harbor"]
    in_use = _in_use(at)
    actions = {s["column"]: s["action"] for s in in_use["safe_harbor"]}
    assert actions["ssn"] == "dropped" and actions["zip"] == "zip3"
    assert "ssn" not in {m["column"] for m in in_use["masking"]}  # dropped, not masked
    assert _words(at)[1].startswith("2. name: ")
    at.button(key="rc_rem_history_undo").click()
    _ok(at)
    assert _in_use(at)["safe_harbor"] == []


def test_a_perturbation_is_a_step_in_the_history_and_in_the_table_every_page_sees():
    at = hospital_app()
    _ok(at.switch_page("pages/remediate.py"))
    at.radio(key="rc_rem_perturb_method").set_value("pram")
    _ok(at)
    at.selectbox(key="rc_rem_perturb_pram_col").set_value("diagnosis")
    _ok(at)
    at.button(key="rc_rem_perturb_run").click()
    _ok(at)
    (step,) = _history(at).steps
    assert step.kind == "perturb" and step.parameters["method"] == "pram"
    assert _words(at)[0].startswith("1. diagnosis: ")
    in_use = _in_use(at)
    assert [p["method"] for p in in_use["perturb"]] == ["pram"]
    # the "in use" view of every other page: the table as the recipe gives it
    _ok(at.switch_page("pages/anonymity.py"))
    assert any("generalized" in seen(i.value).lower() or "remediated" in seen(i.value).lower()
               for i in at.info)  # fmt: skip
    # the generalize tab's recipe table lists the perturbation
    _ok(at.switch_page("pages/remediate.py"))
    recipe_rows = next(d.value for d in at.dataframe if "operation" in d.value.columns)
    assert recipe_rows["operation"].tolist() == ["drop", "drop", "drop", "pram"]  # ids dropped


def test_a_search_result_and_a_candidate_are_search_steps_with_their_objective():
    at = hospital_app()
    _ok(at.switch_page("pages/remediate.py"))
    at.button(key="rc_rem_search").click()
    _ok(at)
    at.button(key="rc_rem_use").click()
    _ok(at)
    (step,) = _history(at).steps
    assert step.kind == "search" and step.parameters["objective"] == "ncp"
    # the hierarchies ride along in the step (one step, one undo) and are in the recipe
    assert set(step.parameters["hierarchies"]) == {"date_of_birth", "zip", "sex"}
    assert at.button(key="rc_rem_use").disabled  # these levels are the ones applied
    at.button(key="rc_rem_cand_use_b").click()
    _ok(at)
    h = _history(at)
    assert [s.kind for s in h.steps] == ["search", "search"]
    assert "hierarchies" not in h.steps[1].parameters  # the same as the step before
    levels = h.steps[1].parameters["levels"]
    assert {q: at.select_slider(key=f"rc_rem_level_{q}").value for q in levels} == levels
    in_use = _in_use(at)
    assert dict(zip(in_use["quasi_identifiers"], in_use["levels"], strict=True)) == levels


def _csv() -> bytes:
    buf = io.StringIO()
    make_people(600, seed=2).to_csv(buf, index=False)
    return buf.getvalue().encode()


def _session(raw: bytes) -> AppTest:
    at = _ok(AppTest.from_file(APP, default_timeout=60))
    _ok(at.switch_page("pages/data.py"))
    _ok(at.switch_page("app.py"))
    data_uploader(at).set_value(("people.csv", raw, "text/csv"))
    return _ok(at)


def test_the_history_survives_a_reload_and_is_saved_with_the_profile(database):
    raw = _csv()
    at = _session(raw)
    _ok(at.switch_page("pages/remediate.py"))
    at.selectbox(key="rc_rem_op_ssn").set_value("mask_digits")
    _ok(at)
    at.selectbox(key="rc_rem_op_name").set_value("redact")
    _ok(at)
    at.button(key="rc_rem_history_undo").click()
    _ok(at)
    kept_history = _history(at)
    assert kept_history.position == 1 and len(kept_history.steps) == 2
    _ok(at.switch_page("pages/data.py"))
    _ok(at.switch_page("app.py"))  # the router keeps the work

    again = _session(raw)
    (button,) = [b for b in again.button if seen(b.label).startswith("Restore your work from ")]
    button.click()
    _ok(again)
    assert _history(again) == kept_history  # the steps, their times and the redo tail
    _ok(again.switch_page("pages/remediate.py"))
    assert again.selectbox(key="rc_rem_op_ssn").value == "mask_digits"
    again.button(key="rc_rem_history_redo").click()
    _ok(again)
    assert _history(again).position == 2 and again.selectbox(key="rc_rem_op_name").value == (
        "redact"
    )
    # the saved assessment's profile holds the history (Profile.history)
    _ok(again.switch_page("pages/report.py"))
    again.button(key="rc_report_build").click()
    _ok(again)
    built = again.session_state["rc_report"]["profile"]  # the Profile; saved as its JSON
    profile = Profile.read(json.loads(built.to_json()))
    assert profile.history == _history(again)


def test_the_history_and_the_page_name_their_two_different_figures():
    """Issue 38 item 16: the History said "loss after 75.41%" while the page said
    "Information lost (NCP) 26.8%" for the same table; they are two measures (the share of
    QI values changed, the normalized certainty penalty), so each is named."""
    at = hospital_app()
    _ok(at.switch_page("pages/remediate.py"))
    at.button(key="rc_rem_search").click()  # the least-loss levels that meet the targets
    _ok(at)
    at.button(key="rc_rem_use").click()
    _ok(at)
    (ncp,) = [seen(m.value) for m in at.metric if seen(m.label) == "Information lost (NCP)"]
    table = _table(at)
    changed = float(table["values changed"].iloc[-1])
    assert abs(changed - float(ncp.rstrip("%")) / 100) > 0.05  # the same table, two figures
    assert "loss after" not in table.columns and "highest risk" in table.columns
    note = _texts(at)
    assert "not the page's average risk" in note
    assert "not the page's information lost (NCP)" in note
