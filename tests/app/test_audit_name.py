"""The audit name is asked once per session, in the sidebar, and kept (issue 27).

After a "Reset session" the reopening and the comparison were logged under the system user
("root"): each page had its own name box, and the reset emptied them. Here the name is typed
once, before anything else, and every audit entry of every page carries it: the saves (Report),
a reset, the reopening, the comparison and the deletion (Saved assessments), and the privacy
ledger's creation, release and budget change (Differential privacy).
"""

from __future__ import annotations

import io

from streamlit.testing.v1 import AppTest

from riskcore.demo import make_people
from riskcore.store import Store
from tests.app.helpers import APP, data_uploader, seen


def _csv() -> bytes:
    buf = io.StringIO()
    make_people(300, seed=5).to_csv(buf, index=False)
    return buf.getvalue().encode()


def _ok(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def _router(at: AppTest) -> AppTest:
    """Run the router (app.py, with its sidebar) from now on: AppTest runs a page alone after
    ``switch_page``, and "app.py" can be switched to only from such a page."""
    _ok(at.switch_page("pages/data.py"))
    return _ok(at.switch_page("app.py"))


def _save(at: AppTest, name: str) -> None:
    _ok(at.switch_page("pages/report.py"))
    at.button(key="rc_report_build").click()
    _ok(at)
    at.text_input(key="rc_save_name").set_value(name)
    _ok(at)
    at.button(key="rc_save").click()
    _ok(at)
    assert any("Saved as" in seen(s.value) for s in at.success)


def test_the_name_given_once_is_on_every_audit_entry_of_every_page(database):
    raw = _csv()
    at = _router(_ok(AppTest.from_file(APP, default_timeout=60)))
    assert [t.label for t in at.sidebar.text_input] == ["Your name (for the audit log)"]
    at.sidebar.text_input[0].set_value("ana")
    _ok(at)
    data_uploader(at).set_value(("people.csv", raw, "text/csv"))
    _ok(at)
    _save(at, "first")
    # the report page asks for no name of its own; it says which one the log gets
    assert not [t for t in at.main.text_input if "name" in t.label.lower() and "audit" in t.label]
    assert any("name you 'unauthenticated: ana'" in seen(c.value) for c in at.caption)

    # a reset forgets the data, the roles and the targets, not who you are
    _router(at)
    next(b for b in at.sidebar.button if b.label == "Reset session").click()
    _ok(at)
    assert at.sidebar.text_input[0].value == "ana"
    data_uploader(at).set_value(("people.csv", raw, "text/csv"))
    _ok(at)
    _save(at, "second")

    _ok(at.switch_page("pages/saved.py"))
    at.button(key="rc_saved_reopen").click()
    _ok(at)
    at.button(key="rc_saved_compare").click()
    _ok(at)
    at.checkbox(key="rc_saved_sure").check()
    _ok(at)
    at.button(key="rc_saved_delete").click()
    _ok(at)

    _ok(at.switch_page("pages/dp.py"))
    at.button(key="rc_dp_release").click()
    _ok(at)
    at.number_input(key="rc_dp_budget").set_value(0.5)
    _ok(at)

    entries = Store(database).audit()
    actions = {e.action for e in entries}
    assert {"save", "reopen", "compare", "delete", "dp_release", "dp_budget"} <= actions, actions
    assert {(e.action, e.user) for e in entries if e.user != "unauthenticated: ana"} == set()


def test_a_name_typed_later_names_the_actions_after_it(database):
    at = _ok(AppTest.from_file(APP, default_timeout=60))
    _ok(at.switch_page("pages/dp.py"))
    at.button(key="rc_dp_release").click()
    _ok(at)
    _router(at)
    at.sidebar.text_input[0].set_value("bo")
    _ok(at)
    _ok(at.switch_page("pages/dp.py"))
    at.number_input(key="rc_dp_budget").set_value(0.5)
    _ok(at)
    users = [(e.action, e.user) for e in Store(database).audit()]
    assert users[-1] == ("dp_budget", "unauthenticated: bo")
    # the release came before the name
    assert all(u != "unauthenticated: bo" for _, u in users[:-1])
