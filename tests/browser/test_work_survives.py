"""In Chromium: the work survives a reload, and leaving with work asks first (issue 27).

The demo page says it is the demo and arms no guard; an upload that is only looked at arms
none either. Once a level is moved on Remediate the ``beforeunload`` guard is armed, and a
reload asks before leaving. The reload starts a new session on the demo; the same file
uploaded again offers "Restore your work from <time>", and the click brings the level back.
The key panel of the Direct identifiers tab offers the key file once and names the key by its
check value. Screenshots of each screen go to ``screenshots/``.
"""

from __future__ import annotations

import pytest

from riskcore.demo import make_people
from tests.browser_helpers import TIMEOUT, goto, shot, upload, wait_idle

pytestmark = pytest.mark.browser

ARMED = "() => window.__rcWork === true"
INSTALLED = "() => window.__rcGuard === true"


def _age(page):
    return page.locator('input[type="range"][aria-label="age"]')


def test_a_reload_asks_first_and_the_same_file_restores_the_work(server, browser, tmp_path):
    data = tmp_path / "people.csv"
    make_people(600, seed=2).to_csv(data, index=False)
    dialogs: list[str] = []
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT)
    page.on("dialog", lambda d: dialogs.append(d.type) or d.accept())
    page.goto(server)
    wait_idle(page)
    page.get_by_text("Showing the built-in demo data").first.wait_for()
    assert page.evaluate(INSTALLED) and not page.evaluate(ARMED)
    shot(page, "work-1-demo-notice")

    upload(page, data)
    page.get_by_text("people.csv:").first.wait_for()
    assert not page.get_by_text("Showing the built-in demo data").count()
    goto(page, server, "Remediate")
    page.get_by_text("Levels (re-scored as you move them)").first.wait_for()
    assert not page.evaluate(ARMED)  # looking is not work
    _age(page).focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    wait_idle(page)
    assert _age(page).get_attribute("aria-valuetext").startswith("2 of")
    page.wait_for_function(ARMED)

    # the key of the tokens: offered once as a file, named by its check value
    page.get_by_role("tab", name="Direct identifiers").click()
    page.get_by_role("combobox", name="ssn").click()
    page.get_by_role("option", name="keyed token (HMAC-SHA256)").click()
    wait_idle(page)
    page.get_by_role("button", name="Download the key file (offered once)").wait_for()
    page.get_by_text("(made in this session)").first.wait_for()
    shot(page, "work-2-key-panel")

    page.reload()  # the guard asks; the dialog is accepted
    wait_idle(page)
    assert dialogs == ["beforeunload"], dialogs
    page.get_by_text("Showing the built-in demo data").first.wait_for()  # on Remediate
    goto(page, server, "Data")
    upload(page, data)
    button = page.get_by_role("button", name="Restore your work from")
    button.wait_for()
    shot(page, "work-3-restore-offer")
    button.click()
    wait_idle(page)
    goto(page, server, "Remediate")
    page.get_by_text("Levels (re-scored as you move them)").first.wait_for()
    assert _age(page).get_attribute("aria-valuetext").startswith("2 of")
    shot(page, "work-4-remediate-restored")

    # the audit name: asked once, in the sidebar; the Report page says which name it logs
    name = page.get_by_role("textbox", name="Your name (for the audit log)")
    name.fill("ana")
    name.press("Enter")
    wait_idle(page)
    goto(page, server, "Report")
    page.get_by_role("button", name="Build the report").click()
    wait_idle(page)
    page.get_by_text("reports name you 'unauthenticated: ana'").first.wait_for()
    shot(page, "work-5-report-audit-name")
    ctx.close()
