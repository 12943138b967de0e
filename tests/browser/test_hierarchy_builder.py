"""In Chromium: the hierarchy builder panel on the Remediate page
(ui/widgets/remediate/hierarchy_builder.py).

On the demo, age's panel builds 5-, 10- and 20-year bands with top coding at 90; the
preview's groups at level 1 are the table's ages counted in 5-year bands (computed here
from the data); "Use this hierarchy" puts it in use. The panel is photographed
(screenshots/hierarchy-builder-age.png). Nothing may leave localhost.
"""

from __future__ import annotations

import re

import pytest

from riskcore.demo import make_people
from tests.browser_helpers import SHOTS, goto, new_page, wait_idle

pytestmark = pytest.mark.browser


def test_the_builder_panel_previews_bands_with_top_coding_and_puts_them_in_use(server, browser):
    ages = make_people(32_561, seed=0)["age"]
    external: list[str] = []
    ctx, page = new_page(browser, external)
    page.goto(server)
    wait_idle(page)
    goto(page, server, "Remediate")
    page.get_by_text("Hierarchies: how each quasi-identifier can be generalized").first.click()
    wait_idle(page)
    widths = page.get_by_label("Band width at each level (each a multiple of the one before)")
    widths.fill("5,10,20")
    widths.press("Enter")
    wait_idle(page)
    top = page.get_by_label("Top coding: at or above")
    top.fill("90")
    top.press("Enter")
    wait_idle(page)
    # the innermost block holding the panel's first and last widgets: the bordered panel
    panel = (
        page.locator('[data-testid="stVerticalBlock"]')
        .filter(has_text="Kind of hierarchy")
        .filter(has_text="Use this hierarchy")
        .last
    )
    banded = (ages // 5 * 5).where(ages < 90)
    groups = banded.nunique() + int((ages >= 90).any())
    page.get_by_text(re.compile(f"Level 1 makes {groups:,} groups")).first.wait_for()
    assert page.get_by_text("--hierarchy 'age=interval:5,10,20;top=90'").count() == 1
    SHOTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1400, "height": 3000})  # the whole panel in view
    wait_idle(page)
    panel.scroll_into_view_if_needed()
    panel.screenshot(path=str(SHOTS / "hierarchy-builder-age.png"))
    page.set_viewport_size({"width": 1400, "height": 1000})
    panel.get_by_role("button", name="Use this hierarchy").click()
    wait_idle(page)
    page.get_by_text("age: interval, 4 levels above the value (yours)").first.wait_for()
    assert not external, external
    ctx.close()
