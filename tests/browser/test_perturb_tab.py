"""In Chromium: the Remediate page's Perturb tab runs local suppression and PRAM on the demo.

Screenshots (screenshots/remediate-perturb-*.png) are looked at by a person; the test checks
that the re-scoring says nobody is below k after local suppression, and that the PRAM matrix
is shown. Nothing may leave localhost.
"""

from __future__ import annotations

import pytest

from tests.browser_helpers import goto, new_page, shot, wait_idle

pytestmark = pytest.mark.browser


def test_perturb_tab_suppresses_cells_and_shows_the_pram_matrix(server, browser):
    external: list[str] = []
    ctx, page = new_page(browser, external)
    page.goto(server)
    wait_idle(page)
    goto(page, server, "Remediate")
    page.get_by_role("tab", name="Perturb").click()
    page.get_by_text("Suppressed first to last").first.wait_for()
    page.get_by_role("button", name="Perturb", exact=True).click()
    wait_idle(page)
    page.get_by_text("of 32,561 before, 0 after").first.wait_for()
    shot(page, "remediate-perturb-local-suppression")
    page.get_by_text("PRAM", exact=True).click()
    wait_idle(page)
    page.get_by_role("button", name="Perturb", exact=True).click()
    wait_idle(page)
    page.get_by_text("PRAM of ").first.wait_for()
    shot(page, "remediate-perturb-pram")
    ctx.close()
    assert external == []
