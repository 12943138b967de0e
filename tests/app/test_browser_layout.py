"""At a 1024 px window (the sidebar open) no label is cut and no tab or table runs off.

Measured in Chromium: a text cut with an ellipsis, a tab row or a table wider
than the main column (its last columns hidden) is found by comparing each
element's scroll width with its client width (a table's by more than 16 px: a
dataframe whose columns all show is 9 px wider than its box, its scroll bar). Screenshots go to
``screenshots/`` (ignored by git): look at them.
"""

from __future__ import annotations

import pytest

from tests.browser_helpers import goto, new_page, shot, wait_idle

pytestmark = pytest.mark.browser

#: The elements whose text is cut when wider than their box, by Streamlit's test id.
LABELS = ["stMetricLabel", "stWidgetLabel", "stBaseButton-secondary", "stDownloadButton"]
CUT = """(ids) => {
  const out = [];
  for (const id of ids) {
    for (const box of document.querySelectorAll(`[data-testid="stMain"] [data-testid="${id}"]`)) {
      for (const e of [box, ...box.querySelectorAll('*')]) {
        if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1 && e.innerText.trim())
          out.push(`${id}: ${e.innerText.trim().slice(0, 60)}`);
      }
    }
  }
  return [...new Set(out)];
}"""
RUNS_OFF = """() => [...document.querySelectorAll(
    '[data-testid="stMain"] [role="tablist"], [data-testid="stMain"] [data-testid="stDataFrame"]')]
  .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 16)
  .map(e => (e.getAttribute('role') || 'table') + ': ' + e.innerText.trim().slice(0, 50))"""


def _page_1024(browser, server):
    external: list[str] = []
    ctx, page = new_page(browser, external)
    page.set_viewport_size({"width": 1024, "height": 1000})
    page.goto(server)
    wait_idle(page)
    page.get_by_text("Demo people (32,561 rows)").first.wait_for()
    return ctx, page


def test_the_dp_tabs_and_solver_table_fit_at_1024_px(server, browser):
    ctx, page = _page_1024(browser, server)
    goto(page, server, "Differential privacy")
    page.get_by_text("Solvers").first.wait_for()
    shot(page, "layout-1024-dp")
    assert page.evaluate(RUNS_OFF) == []  # the tab row (597 of 564 px) and the solver table
    assert page.evaluate(CUT, LABELS) == []
    ctx.close()


def test_the_report_downloads_are_not_cut_at_1024_px(server, browser):
    ctx, page = _page_1024(browser, server)
    goto(page, server, "Report")
    page.get_by_role("button", name="Build the report").click()
    wait_idle(page)
    page.get_by_text("Download the profile").first.wait_for(timeout=120_000)
    shot(page, "layout-1024-report")
    assert page.evaluate(CUT, LABELS) == []  # "Download the profile (reproduc..."

    ctx.close()
