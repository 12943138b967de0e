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


def test_issue38_local_suppression_after_the_search_is_judged_on_the_table_in_use(
    server, browser, tmp_path
):
    """Issue 38 item 1: after the search's levels are applied, the Perturb tab starts from
    the release in use (its records, not the file's) and its blanks count toward the
    suppression limit: past it the tab says the table in use does not meet the targets, and
    the download button says so (the AppTest of tests/app/test_perturb_tab.py checks the
    records counted). Screenshots: screenshots/remediate-perturb-in-use.png and
    remediate-generalize-in-use.png (the Generalize tab judges the same release)."""
    from riskcore.demo import make_people
    from tests.browser_helpers import upload

    data = tmp_path / "people.csv"
    make_people(600, seed=2).to_csv(data, index=False)
    external: list[str] = []
    ctx, page = new_page(browser, external)
    page.goto(server)
    wait_idle(page)
    upload(page, data)
    page.get_by_text("people.csv:").first.wait_for()
    goto(page, server, "Remediate")
    page.get_by_role("button", name="Find the least-loss generalization").click()
    wait_idle(page)
    page.get_by_role("button", name="Apply these levels (a step in the history)").click()
    wait_idle(page)
    page.get_by_text("History: 1 of 1 step applied.").first.wait_for()
    page.get_by_role("tab", name="Perturb").click()
    page.get_by_text("Perturbation works on the table in use").first.wait_for()
    k = page.get_by_label("k", exact=True)
    k.fill("100")
    k.press("Enter")
    wait_idle(page)
    page.get_by_role("button", name="Perturb", exact=True).click()
    wait_idle(page)
    page.get_by_text("History: 2 of 2 steps applied.").first.wait_for()
    page.get_by_text("The table in use does not meet the targets").first.wait_for()
    page.get_by_role(
        "button", name="Download the perturbed table (CSV): it does not meet the targets"
    ).wait_for()
    shot(page, "remediate-perturb-in-use")
    page.get_by_role("tab", name="Generalize and suppress").click()  # judged by the same verdict
    page.get_by_text("The table in use (perturbed after its levels) does not meet").first.wait_for()
    page.get_by_role(
        "button", name="Download the generalized table (CSV): it does not meet the targets"
    ).wait_for()
    shot(page, "remediate-generalize-in-use")
    ctx.close()
    assert external == []
