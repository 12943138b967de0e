"""Browser: the privacy budget survives a page reload and a server restart (issue 14, 17).

Its own servers (one killed, one started on the same database, RISKCORE_DB set per test by
tests/conftest.py): Playwright and Debian's Chromium.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from riskcore.store import Store
from tests.browser_helpers import (
    CHROMIUM,
    goto,
    metric,
    open_app,
    serve,
    shot,
    wait_idle,
)
from tests.conftest import IN_CI

pytestmark = pytest.mark.browser


@pytest.fixture
def chromium():
    if not Path(CHROMIUM).exists():
        if IN_CI:
            pytest.fail("Chromium is not installed; .ci/run must install it")
        pytest.skip("Chromium not installed")


def _metric_becomes(page, label: str, value: str, timeout: float = 60.0) -> str:
    """Return the metric once it reads ``value`` (or what it reads after ``timeout`` seconds):
    a release's rerun may still be drawing when the page first looks idle on a loaded machine."""
    deadline = time.monotonic() + timeout
    shown = metric(page, label)
    while shown != value and time.monotonic() < deadline:
        page.wait_for_timeout(250)
        shown = metric(page, label)
    return shown


def _release_on_dp_page(chrome, url, external, left_before: str):
    """Open the app in a new context, check the budget left, release a count; return the page."""
    ctx, page = open_app(chrome, url, external)
    goto(page, url, "Differential privacy")
    assert metric(page, "Budget left") == left_before
    page.get_by_role("button", name="Release this count at epsilon = 1").click()
    wait_idle(page)
    return ctx, page


def test_the_budget_survives_a_reload_and_a_server_restart(chromium, browser, database):
    external: list[str] = []
    with serve() as url:
        ctx, page = _release_on_dp_page(browser, url, external, "1 of 1")
        assert _metric_becomes(page, "Budget left", "0 of 1") == "0 of 1"
        page.reload()  # a new session
        wait_idle(page)
        goto(page, url, "Differential privacy")
        assert metric(page, "Budget left") == "0 of 1"
        ctx.close()
    # the server is killed (SIGKILL to its process group); a new one on the same database
    with serve() as url:
        ctx, page = _release_on_dp_page(browser, url, external, "0 of 1")
        page.get_by_text("Refused: this release costs epsilon 1").first.wait_for()
        page.get_by_role("tab", name="Budget").click()
        wait_idle(page)
        page.get_by_text("nothing in the app resets it").first.wait_for()
        assert metric(page, "Spent (this accounting)") == "1"
        shot(page, "25-dp-budget-after-restart")
        ctx.close()
    assert [e.action for e in Store(database).audit()] == ["dp_ledger_new", "dp_release"]
    assert external == [], f"requests left localhost: {external}"
