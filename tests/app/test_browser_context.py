"""The Context step of the Anonymity page in Chromium: open, answered and set, no label is cut
and nothing runs off at 1400 and 1024 px (docs/layout.md's measure), and the answers show."""

from __future__ import annotations

import pytest

from tests.browser_helpers import goto, new_page, open_expander, wait_idle
from tests.layout_checks import measure

pytestmark = pytest.mark.browser

CONTEXT = "Context: the threshold from the release"


def test_the_context_step_fits_and_sets_the_targets(server, browser):
    external: list[str] = []
    ctx, page = new_page(browser, external)
    page.goto(server)
    wait_idle(page)
    page.get_by_text("Demo people (32,561 rows)").first.wait_for()
    goto(page, server, "Anonymity (k / l / t)")
    page.get_by_text("Re-identification risk").first.wait_for(timeout=120_000)
    box = open_expander(page, CONTEXT)
    box.get_by_role("button", name="Set the targets from this context").click()
    wait_idle(page)
    page.get_by_text("The likeliest attack is").first.wait_for(timeout=60_000)
    open_expander(page, CONTEXT)
    found = measure(page, "anonymity-context")
    ctx.close()
    assert not external
    # the targets editor's beta-likeness / delta-disclosure toggles are cut at 1024 px
    # before this step existed (the page's own layout test); only this step's are judged
    ours = {w: [x for x in cut if "likeness" not in x and "disclosure" not in x]
            for w, cut in found.items()}  # fmt: skip
    assert ours == {1400: [], 1024: []}
