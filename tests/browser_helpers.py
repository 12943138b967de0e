"""Helpers of the browser tests: Debian's Chromium, a live server, a page driven by
Playwright (open, wait until the run is over, read a metric, screenshot, upload).

The ``server`` and ``browser`` fixtures are in ``tests/conftest.py``.
"""

from __future__ import annotations

import re
import shutil
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests import live

ROOT = Path(__file__).resolve().parents[1]

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = ROOT / "screenshots"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT = 30_000
#: The roles of the claims (``make_claims``) as a role profile, patient_id the person: the
#: how-to's screenshots (scripts/docs_screenshots.py) and the browser test of the claims. The
#: age at the visit changes across birthdays, so some patients hold several QI tuples.
CLAIMS_ROLES = {
    "riskcore_roles": 1,
    "identifiers": ["claim_id", "household_id", "name", "ssn", "date_of_birth", "visit_date"],
    "persons": ["patient_id"],
    "quasi_identifiers": ["sex", "race", "age", "zip"],
    "sensitive": ["diagnosis"],
}


@contextmanager
def serve():
    """Run the app (:func:`tests.live.serve`); yield its URL."""
    try:
        with live.serve() as (url, _, _):
            yield url
    except RuntimeError as exc:
        pytest.fail(str(exc))


def new_page(browser, external: list[str], scheme: str = "light"):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme=scheme)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT)
    page.on("dialog", lambda d: external.append(f"dialog: {d.message}") or d.dismiss())

    def check(req):
        host = urlparse(req.url).hostname
        if req.url.startswith(("data:", "blob:")):
            return
        if host not in ("localhost", "127.0.0.1"):
            external.append(req.url)

    page.on("request", check)
    return ctx, page


def open_app(browser, server, external: list[str], scheme: str = "light"):
    """Open the app in a new browser context and wait until the router has run."""
    ctx, page = new_page(browser, external, scheme)
    page.goto(server)
    wait_idle(page)
    page.get_by_text("Demo people (32,561 rows)").first.wait_for()
    return ctx, page


def wait_idle(page):
    """Wait until the run is over (:data:`tests.live.BUSY` turns false)."""
    page.wait_for_selector('[data-testid="stApp"]')
    page.wait_for_timeout(300)  # let a rerun (st.rerun after an upload) begin
    page.wait_for_function(f"() => !({live.BUSY})()", timeout=TIMEOUT)
    page.wait_for_timeout(300)


def goto(page, url, title):
    page.get_by_role("link", name=title).first.click()
    wait_idle(page)


def metric(page, label: str) -> str:
    """Return the value of the metric labelled exactly ``label``."""
    name = re.compile(f"^{re.escape(label)}$")
    exact = page.locator('[data-testid="stMetricLabel"]', has_text=name)
    box = page.locator('[data-testid="stMetric"]').filter(has=exact).first
    return box.locator('[data-testid="stMetricValue"]').inner_text()


def page_height(page) -> int:
    """Return the height of the whole page once it stops growing (elements stream in):
    Streamlit scrolls inside its main container, whose height this is."""
    measure = (
        "() => Math.max(...['stMain', 'stAppViewContainer', 'stMainBlockContainer']"
        '.map(t => document.querySelector(`[data-testid="${t}"]`))'
        ".filter(Boolean).map(e => e.scrollHeight), document.body.scrollHeight)"
    )
    height, previous = page.evaluate(measure), -1
    for _ in range(20):
        if height == previous:
            break
        page.wait_for_timeout(400)
        previous, height = height, page.evaluate(measure)
    return int(height)


def shot(page, name):
    """Screenshot the whole page: the viewport is stretched to the page's height first
    (:func:`page_height`), then restored."""
    SHOTS.mkdir(exist_ok=True)
    size = page.viewport_size
    height = page_height(page)
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], height + 40)})
    page.wait_for_timeout(700)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    page.set_viewport_size(size)


def upload(page, path: Path, nth: int = 0):
    page.locator('[data-testid="stFileUploader"] input[type="file"]').nth(nth).set_input_files(
        str(path)
    )
    wait_idle(page)


def load_roles(page, path: Path, applied: str | re.Pattern[str], data_name: str | None = None):
    """Load a role profile on the Data page and wait until the sidebar shows it applied.

    The profile goes to the uploader labelled "Load a role profile" (never the n-th
    uploader of the page), once the run that follows a data upload is over: the data
    uploader is re-mounted by that run (a fresh key), and a file set while it is being
    drawn can be lost. ``data_name``, when given, is waited for in the sidebar first: the
    sidebar is drawn last, so it names the new table only once that run is over.
    """
    if data_name is not None:
        sidebar = page.locator('[data-testid="stSidebar"]')
        sidebar.get_by_text(data_name, exact=True).first.wait_for(timeout=60_000)
    wait_idle(page)
    box = page.locator('[data-testid="stFileUploader"]').filter(has_text="Load a role profile")
    box.locator('input[type="file"]').set_input_files(str(path))
    wait_idle(page)
    page.get_by_text(applied).first.wait_for(timeout=60_000)
    wait_idle(page)


def open_expander(page, title: str):
    """Open the expander titled ``title`` (when closed) once the run is over; return it.

    A click while the page is being redrawn (the run after an upload) can land on an
    expander that the redraw then shows closed: the state is checked after each click.
    """
    box = page.locator('[data-testid="stExpander"]').filter(has_text=title).first
    box.wait_for(timeout=60_000)
    for _ in range(3):
        wait_idle(page)
        if box.locator("details[open]").count():
            return box
        box.locator("summary").first.click()
    wait_idle(page)
    assert box.locator("details[open]").count(), f"the expander {title!r} did not open"
    return box


def choose(page, combobox: str, option: str) -> None:
    """Choose ``option`` in the select box labelled ``combobox``, and wait for the rerun."""
    for _ in range(3):  # the list may close while the page reruns: open it again
        page.get_by_role("combobox", name=combobox, exact=True).click()
        try:
            page.get_by_role("option", name=option, exact=True).click(timeout=5_000)
            break
        except Exception:  # playwright's TimeoutError: try again
            page.keyboard.press("Escape")
            wait_idle(page)
    wait_idle(page)
