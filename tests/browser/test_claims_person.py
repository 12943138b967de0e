"""In Chromium: the claims demo on the Data page, its person note, and the caution.

The Data page's second demo button opens the claims (2,500 patients, 1-10 rows each); the
page says why patient_id is suggested as the person. A role profile tagging it as a direct
identifier instead (no column the person) brings the rows-not-people caution beside the
Anonymity page's verdict. The Data page on the claims fits at 1400 and 1024 px.
Screenshots go to ``RISKCORE_SHOTS`` (default /tmp/shots-claims), outside the repository.
Nothing may leave localhost.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import tests.browser_helpers as tb
from riskcore.demo.claims import make_claims
from tests.browser_helpers import goto, load_roles, new_page, open_expander, wait_idle
from tests.layout_checks import measure

pytestmark = pytest.mark.browser
SHOTS = Path(os.environ.get("RISKCORE_SHOTS", "/tmp/shots-claims"))


def test_claims_demo_person_note_and_caution(server, browser, tmp_path, monkeypatch):
    monkeypatch.setattr(tb, "SHOTS", SHOTS)  # screenshots outside the repository
    claims = make_claims(2_500, seed=0)
    facts = f"2,500 people in {len(claims):,} rows, 1-10 rows each"
    external: list[str] = []
    ctx, page = new_page(browser, external)
    page.goto(server)
    wait_idle(page)
    goto(page, server, "Data")
    page.get_by_role("button", name="Use the claims demo (many rows per person)").click()
    wait_idle(page)
    sidebar = page.locator('[data-testid="stSidebar"]')
    name = "Demo claims (2,500 patients)"
    sidebar.get_by_text(name, exact=True).first.wait_for(timeout=60_000)
    note = page.locator('[data-testid="stAlert"]').filter(has_text=f"patient_id: {facts}").first
    note.wait_for()
    assert note.inner_text().strip().endswith("each person, not each row, is the unit of privacy.")
    assert "1 person" in sidebar.inner_text()
    tb.shot(page, "data-claims")
    # no label cut, no table running off, at 1400 and 1024 px (docs/layout.md)
    assert measure(page, "data-claims") == {1400: [], 1024: []}
    page.set_viewport_size({"width": 1400, "height": 1000})
    # patient_id tagged as a direct identifier: no column is the person
    profile = tmp_path / "roles.json"
    roles = {
        "identifiers": ["claim_id", "patient_id", "household_id", "name", "ssn",
                        "date_of_birth", "zip", "visit_date"],
        "quasi_identifiers": ["sex", "race", "age"],
        "sensitive": ["diagnosis"],
    }  # fmt: skip
    profile.write_text(json.dumps(roles))
    open_expander(page, "Save or load a role profile")
    load_roles(page, profile, "3 quasi-identifiers, 1 sensitive attribute, 8 direct identifiers.")
    assert not page.get_by_text("1 person column").count()
    goto(page, server, "Anonymity (k / l / t)")
    caution = page.locator('[data-testid="stAlert"]').filter(
        has_text=f"patient_id repeats ({facts}) but no column is tagged as the person"
    )
    caution.first.wait_for(timeout=60_000)
    tb.shot(page, "anonymity-claims-caution")
    assert not external, external
    ctx.close()
    assert (SHOTS / "data-claims.png").exists()
    assert (SHOTS / "anonymity-claims-caution.png").exists()
