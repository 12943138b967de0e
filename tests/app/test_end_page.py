"""A page that ends early keeps the sidebar and its "Reset session" button.

``st.stop()`` ended the whole script run, so the sidebar, which the router (``app.py``)
draws after the page, was missing on the Report page until a report was built, on every
assessment page while no quasi-identifier is tagged, and on Records above 200,000 rows
(found by the browser load test, ``tests/browser/test_load.py``). Pages now end with
``ui.core.context.end_page()``, which the router catches.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

import ui.core.context
from tests.app.helpers import APP


def test_a_page_that_ends_early_keeps_the_sidebar(monkeypatch) -> None:
    # AppTest runs the router only for its default page (Data): make it end early there
    monkeypatch.setattr(ui.core.context, "context", lambda **kwargs: None)
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception, at.exception
    assert [b.label for b in at.sidebar.button] == ["Reset session"]
    assert not at.subheader  # the page did end: nothing after the early end was drawn


def test_end_page_outside_the_router_stops_like_st_stop() -> None:
    # a page run on its own (AppTest's switch_page) has no router to catch EndPage
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("pages/report.py").run()  # no report built yet: the page ends early
    assert not at.exception, at.exception
    assert [t.value for t in at.title] == ["Report"]
    assert [b.label for b in at.button] == ["Build the report"]
