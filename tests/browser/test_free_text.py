"""In Chromium: the hospital upload's note on the Data page and the Safe Harbor tab.

The generated hospital table (latin-1 CSV, phone numbers in about 70% of the notes) is
uploaded; the Data page suggests the note as a direct identifier because of its phone
numbers, and the Safe Harbor tab does not pass and lists the note under (D) with its
status. Screenshots of both go to ``RISKCORE_SHOTS`` (default /tmp/shots-freetext), outside
the repository. Nothing may leave localhost.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import tests.browser_helpers as tb
from tests.browser_helpers import goto, new_page, open_expander, upload, wait_idle
from tests.hospital import hospital_csv, hospital_table

pytestmark = pytest.mark.browser
SHOTS = Path(os.environ.get("RISKCORE_SHOTS", "/tmp/shots-freetext"))


def test_hospital_note_on_the_data_page_and_the_safe_harbor_tab(server, browser, tmp_path,
                                                                monkeypatch):  # fmt: skip
    monkeypatch.setattr(tb, "SHOTS", SHOTS)  # screenshots outside the repository
    n = int(hospital_table()["note"].str.startswith("Call back on (").sum())
    path = tmp_path / "hospital.csv"
    path.write_bytes(hospital_csv())
    external: list[str] = []
    ctx, page = new_page(browser, external)
    page.goto(server)
    wait_idle(page)
    goto(page, server, "Data")
    upload(page, path)
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("hospital.csv", exact=True).first.wait_for(timeout=60_000)  # run over
    reasons = open_expander(page, "Why each role was suggested").locator("li")
    reason = reasons.filter(has_text=f"phone numbers, {n:,} in {n:,} of 5,000 cells").first
    reason.wait_for()
    assert reason.inner_text().startswith("note: direct identifier. free text holding")
    tb.shot(page, "data-hospital")
    goto(page, server, "Remediate")
    page.get_by_role("tab", name="HIPAA Safe Harbor").click()
    wait_idle(page)
    page.get_by_text("Identifiers written inside text").first.wait_for()
    verdict = page.locator('[data-testid="stAlert"]').filter(has_text="Safe Harbor").first
    assert verdict.inner_text().startswith("Does not pass Safe Harbor")
    tb.shot(page, "safe-harbor-hospital")
    assert not external, external
    ctx.close()
    assert (SHOTS / "data-hospital.png").exists() and (SHOTS / "safe-harbor-hospital.png").exists()
