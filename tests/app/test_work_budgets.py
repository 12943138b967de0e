"""AppTest: a request past its time or memory budget gets a message; the page and sidebar stay."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP, run, seen


def test_a_search_past_its_time_budget_is_stopped_and_the_page_stays(monkeypatch):
    monkeypatch.setenv("RISKCORE_TIME_LIMIT", "0.000001")
    at = run("pages/remediate.py")
    before = {s.key: s.value for s in at.select_slider if s.key and "rem_level" in s.key}
    at.button(key="rc_rem_search").click().run()
    assert not at.exception
    errors = [seen(e.value) for e in at.error]
    assert any(
        e.startswith("The least-loss search was stopped after its time budget of 1e-06 s")
        and "RISKCORE_TIME_LIMIT" in e
        for e in errors
    ), errors
    # the levels are left as they were and can still be moved by hand
    after = {s.key: s.value for s in at.select_slider if s.key and "rem_level" in s.key}
    assert after == before and after
    monkeypatch.setenv("RISKCORE_TIME_LIMIT", "600")
    at.button(key="rc_rem_search").click().run()
    assert not [e for e in at.error if "time budget" in seen(e.value)]


def test_a_search_that_runs_out_of_memory_says_so_and_the_page_stays(monkeypatch):
    import ui.core.cached

    def too_much(*args, **kwargs):
        raise MemoryError

    at = run("pages/remediate.py")
    monkeypatch.setattr(ui.core.cached, "lattice_search", too_much)
    at.button(key="rc_rem_search").click().run()
    assert not at.exception
    errors = [seen(e.value) for e in at.error]
    assert any("more memory than the server's budget" in e for e in errors), errors
    assert [s for s in at.select_slider if s.key and "rem_level" in s.key]  # the page went on


def test_the_router_shows_any_page_running_out_of_memory_and_draws_the_sidebar(monkeypatch):
    import ui.widgets.data.encoding

    def too_much(*args, **kwargs):
        raise MemoryError

    # the Data page, run by app.py's router (AppTest's switch_page would bypass it)
    monkeypatch.setattr(ui.widgets.data.encoding, "encoding_choice", too_much)
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception
    errors = [seen(e.value) for e in at.error]
    assert any("more memory than the server's budget" in e for e in errors), errors
    assert any(b.label == "Reset session" for b in at.sidebar.button)
