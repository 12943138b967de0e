"""The HTML report opened in Chromium from a file: it draws its figures and asks for nothing else.

Every request that is not the file itself (or a data: / blob: URL) is refused and
recorded; the test needs none to be attempted. A missing Chromium fails the test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from riskcore.demo import make_people
from riskcore.profile import Profile
from riskcore.report.render import render_html
from riskcore.review import review
from tests.browser_helpers import ARGS, CHROMIUM

pytestmark = pytest.mark.browser

PROFILE = {
    "identifiers": ["name", "ssn"],
    "quasi_identifiers": ["age", "sex", "race"],
    "sensitive": ["diagnosis"],
    "targets": {"k": 5},
}


def _open(path: Path) -> tuple[list[str], int]:
    """Open ``path``; return the requests refused and the number of plotly figures drawn."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    refused: list[str] = []

    def route(r):
        url = r.request.url
        if url.startswith(("file:", "data:", "blob:")):
            r.continue_()
        else:
            refused.append(url)
            r.abort()

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            page.set_default_timeout(30_000)
            page.route("**/*", route)
            page.on(
                "request",
                lambda req: None
                if req.url.startswith(("file:", "data:", "blob:"))
                else refused.append(req.url),
            )
            page.goto(path.as_uri())
            page.wait_for_load_state("load")
            page.locator(".js-plotly-plot .main-svg").first.wait_for()
            drawn = page.locator(".js-plotly-plot").count()
        finally:
            browser.close()
    return sorted(set(refused)), drawn


def test_the_report_opens_offline_and_draws_its_figures(tmp_path):
    report = review(make_people(1500), Profile.read(PROFILE), name="demo:1500")
    path = tmp_path / "report.html"
    path.write_text(render_html(report), encoding="utf-8")
    refused, drawn = _open(path)
    assert refused == []
    assert drawn == 2


def test_the_check_sees_a_request_to_another_host(tmp_path):
    report = review(make_people(300), Profile.read(PROFILE), name="demo:300")
    page = render_html(report).replace(
        "</body>", '<img src="http://127.0.0.9/p.png" alt=""></body>'
    )
    path = tmp_path / "leaky.html"
    path.write_text(page, encoding="utf-8")
    refused, _ = _open(path)
    assert refused == ["http://127.0.0.9/p.png"]
