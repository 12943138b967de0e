"""At 1400 and 1024 px windows (the sidebar open) no label is cut, no tab row or table
runs off and no tick labels overlap, on every page (docs/layout.md).

Measured in Chromium: a text cut with an ellipsis or a tab row wider than the main
column is found by comparing each element's scroll width with its client width; a
dataframe by its grid's scroller (Glide's ``.dvn-scroller``), more than 16 px wider
than its box when its last columns are hidden; overlapping tick labels by their
boxes. Screenshots go to ``screenshots/`` (ignored by git): look at them.
"""

from __future__ import annotations

import json

import pytest

from tests.browser_helpers import goto, load_roles, new_page, wait_idle
from tests.layout_checks import measure

pytestmark = pytest.mark.browser


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
    found = measure(page, "dp")  # was: the tab row (597 of 564 px) and the solver table
    ctx.close()
    assert found == {1400: [], 1024: []}


def test_the_report_downloads_are_not_cut_at_1024_px(server, browser):
    ctx, page = _page_1024(browser, server)
    goto(page, server, "Report")
    page.get_by_role("button", name="Build the report").click()
    wait_idle(page)
    page.get_by_text("Download the profile").first.wait_for(timeout=120_000)
    found = measure(page, "report")  # was: "Download the profile (reproduc..."
    ctx.close()
    assert found == {1400: [], 1024: []}


#: Every page, by its link in the sidebar, with the text that says it has drawn its results.
PAGES = {
    "Data": "Upload a table",
    "Uniqueness": "People unique on each combination",
    "Anonymity (k / l / t)": "Re-identification risk",
    "Records": "Records",
    "Attacks": "Attacks",
    "Remediate": "Remediate",
    "Local DP": "Local",
    "Saved assessments": "Saved assessments",
    "Guided demo": "Guided demo",
}


@pytest.mark.parametrize("title", list(PAGES))
def test_no_label_is_cut_and_no_table_runs_off_at_1400_and_1024_px(server, browser, title):
    """Every page on the demo data, loaded once and measured at both widths (the DP and
    Report pages have their own tests above: they need a click first)."""
    external: list[str] = []
    ctx, page = new_page(browser, external)
    page.goto(server)
    wait_idle(page)
    page.get_by_text("Demo people (32,561 rows)").first.wait_for()
    goto(page, server, title)
    page.get_by_text(PAGES[title]).first.wait_for(timeout=120_000)
    found = measure(page, title.split(" ")[0].lower())
    ctx.close()
    assert found == {1400: [], 1024: []}


def test_the_uniqueness_page_of_the_hospital_table_fits(server, browser, tmp_path):
    """The hospital table's long column names (date_of_birth + admission_date + ...) wrap
    into two-line tick labels on "People unique on each combination": they lay over each
    other in rows of one-line height."""
    from tests.browser_helpers import upload
    from tests.hospital import hospital_csv

    path = tmp_path / "hospital.csv"
    path.write_bytes(hospital_csv())
    external: list[str] = []
    ctx, page = new_page(browser, external)
    page.goto(server)
    wait_idle(page)
    upload(page, path)
    page.get_by_text(f"{path.name}:").first.wait_for(timeout=60_000)
    # the dates and the ZIP code as quasi-identifiers (the suggestion makes them direct
    # identifiers: Safe Harbor), as a user who keeps them generalized would
    qis = ["date_of_birth", "admission_date", "zip", "sex"]
    profile = tmp_path / "roles.json"
    profile.write_text(json.dumps({"quasi_identifiers": qis, "sensitive": ["diagnosis"]}))
    load_roles(page, profile, "4 quasi-identifiers, 1 sensitive", data_name=path.name)
    goto(page, server, "Uniqueness")
    page.get_by_text("People unique on each combination").first.wait_for(timeout=120_000)
    found = measure(page, "uniqueness-hospital")
    ctx.close()
    assert found == {1400: [], 1024: []}
