"""In Chromium at 1400 px: the Remediate page's candidate table, the comparison of two
candidates and the utility views, on the demo table after the least-loss search.

Three screenshots under ``screenshots/`` (ignored by git), each clipped to its section:
``remediate-candidates``, ``remediate-comparison``, ``remediate-utility``. The test asserts
that each section drew (its table, its charts with titles) and that nothing left localhost;
the screenshots are for a person to look at.
"""

from __future__ import annotations

import pytest

from tests.browser_helpers import SHOTS, goto, new_page, wait_idle

pytestmark = pytest.mark.browser


def _stretch(page) -> None:
    """Make the viewport as tall as the page (Streamlit scrolls inside its main container)."""
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
    page.set_viewport_size({"width": 1400, "height": height + 40})
    page.wait_for_timeout(800)


def _clip(page, name: str, top: str, bottom: str) -> None:
    """Screenshot from the heading ``top`` to just above the text ``bottom``."""
    _stretch(page)
    a = page.get_by_role("heading", name=top).first.bounding_box()
    b = page.get_by_text(bottom).first.bounding_box()
    assert a and b and b["y"] > a["y"], (top, bottom)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(
        path=str(SHOTS / f"{name}.png"),
        clip={"x": 0, "y": a["y"] - 10, "width": 1400, "height": b["y"] - a["y"]},
    )
    page.set_viewport_size({"width": 1400, "height": 1000})


def test_candidates_comparison_and_utility_render_at_1400_px(server, browser):
    external: list[str] = []
    ctx, page = new_page(browser, external)
    page.goto(server)
    wait_idle(page)
    goto(page, server, "Remediate")
    page.get_by_role("button", name="Find the least-loss generalization").click()
    wait_idle(page)
    page.get_by_role("heading", name="Candidate solutions").first.wait_for()
    assert page.get_by_text("meet the targets").first.is_visible()
    assert page.locator('[data-testid="stDataFrame"]').count() >= 3
    _clip(page, "remediate-candidates", "Candidate solutions", "Candidate A")
    _clip(page, "remediate-comparison", "Candidate solutions", "The same released records")
    page.get_by_text("Show the utility views").first.click()
    wait_idle(page)
    page.get_by_text("Predicting").first.wait_for()
    # a wrapped title is one text per line: compare without spaces
    titles = "".join(page.locator(".gtitle").evaluate_all("es => es.map(e => e.textContent)"))
    for words in ("each column", "as recorded and released", "against", "accuracy"):
        assert words.replace(" ", "") in titles.replace(" ", ""), (words, titles)
    _clip(page, "remediate-utility", "Utility: what the release keeps", "Use and export")
    assert not external, external
    ctx.close()
