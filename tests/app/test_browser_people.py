"""Real browser: the claims uploaded, patient_id tagged as the person by a role profile, and
the Uniqueness and Anonymity pages counting people (issue 36).

In CI (CI=true) a missing Chromium fails this test; elsewhere it skips (``tests/conftest.py``).
"""

from __future__ import annotations

import json

import pytest

from riskcore import assess
from riskcore.demo.claims import make_claims
from tests.browser_helpers import (
    CLAIMS_ROLES,
    goto,
    load_roles,
    metric,
    open_app,
    open_expander,
    shot,
    upload,
    wait_idle,
)

pytestmark = pytest.mark.browser


def test_the_claims_in_people_through_a_real_upload(server, browser, tmp_path):
    data = make_claims(2500, seed=0)
    path, roles = tmp_path / "claims.csv", tmp_path / "roles.json"
    data.to_csv(path, index=False)
    roles.write_text(json.dumps(CLAIMS_ROLES))
    expected = assess(
        data.astype({"zip": str}),
        quasi_identifiers=CLAIMS_ROLES["quasi_identifiers"],
        person="patient_id",
    )
    external: list[str] = []
    ctx, page = open_app(browser, server, external)
    goto(page, server, "Data")
    upload(page, path)
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("claims.csv", exact=True).first.wait_for(timeout=60_000)
    wait_idle(page)  # the run after the upload is over: the expander stays open
    open_expander(page, "Save or load a role profile")
    load_roles(page, roles, "quasi-identifiers, 1 sensitive attribute, 6 direct")
    sidebar.get_by_text("1 person").first.wait_for()
    goto(page, server, "Uniqueness")
    page.get_by_text("People by equivalence-class size").first.wait_for()
    page.get_by_text(
        "The unit of privacy is one person: 2,500 people in 8,177 rows"
    ).first.wait_for()
    assert metric(page, "People") == "2,500"
    assert metric(page, "Unique people") == f"{expected.unique_records:,}"
    assert metric(page, "k (people)") == f"{expected.k:,}"
    shot(page, "people-uniqueness")
    goto(page, server, "Anonymity (k / l / t)")
    page.get_by_text("Re-identification risk", exact=True).first.wait_for()
    at_risk = round(expected.prosecutor.records_at_risk * expected.n_people)
    assert metric(page, "people at risk (prosecutor)") == f"{at_risk:,}"
    assert not external, external
    ctx.close()
