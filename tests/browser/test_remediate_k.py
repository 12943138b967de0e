"""In Chromium: a generalization applied on the Remediate page raises k on the Anonymity page.

The demo's k is 1 (sample uniques). On Remediate, the age slider is moved by the keyboard,
the least-loss search sets every level, the generalized table is put in use; the Anonymity
page then shows the k of that table, computed here independently from riskcore's lattice
and assessment. Nothing may leave localhost.
"""

from __future__ import annotations

import pytest

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import default_hierarchy
from riskcore.deidentify.search.lattice import Lattice
from riskcore.deidentify.search.run import search
from riskcore.demo import make_people
from riskcore.metrics import assess
from tests.browser_helpers import goto, metric, new_page, shot, wait_idle

pytestmark = pytest.mark.browser

QIS = ["age", "education", "sex", "race", "marital_status"]  # the demo's suggested QIs
ANONYMITY = "Anonymity (k / l / t)"


def test_a_generalization_on_remediate_raises_k_on_the_anonymity_page(server, browser):
    df = make_people(32_561, seed=0)
    lat = Lattice(df, {q: default_hierarchy(df[q]) for q in QIS},
                  targets=Targets.of(k=11, max_suppression=0.02))  # fmt: skip
    best = search(lat).best
    assert best is not None
    expected = assess(lat.apply(df, best.levels), quasi_identifiers=QIS).k
    external: list[str] = []
    ctx, page = new_page(browser, external)
    page.goto(server)
    wait_idle(page)
    goto(page, server, ANONYMITY)
    assert metric(page, "k") == "1"
    goto(page, server, "Remediate")
    page.get_by_text("Levels (re-scored as you move them)").first.wait_for()
    # one level of age by the keyboard: the what-if re-scores at once
    # the accessible name is the column's name, without markdown escapes (marital\_status)
    assert page.locator('input[type="range"][aria-label="marital_status"]').count() == 1
    age = page.locator('input[type="range"][aria-label="age"]')
    age.focus()
    page.keyboard.press("ArrowRight")
    wait_idle(page)
    assert age.get_attribute("aria-valuetext") == "1 of 5"
    assert metric(page, "Smallest released class") == f"{lat.evaluate((1, 0, 0, 0, 0)).k:,}"
    page.get_by_role("button", name="Find the least-loss generalization").click()
    wait_idle(page)
    assert metric(page, "Smallest released class") == f"{lat.evaluate(best.levels).k:,}"
    page.get_by_role("button", name="Apply these levels (a step in the history)").click()
    wait_idle(page)
    shot(page, "remediate-generalized-in-use")
    goto(page, server, ANONYMITY)
    page.get_by_text("This page assesses the generalized table").first.wait_for()
    k = metric(page, "k")
    shot(page, "anonymity-after-remediation")
    assert k == f"{expected:,}" and expected >= 11
    assert not external, external
    ctx.close()
