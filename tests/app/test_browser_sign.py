"""Browser: the Report page's Sign control, from a .p12 upload to a signed PDF that verifies.

Separate from ``test_browser.py`` (its own server): Playwright and Debian's Chromium.
"""

from __future__ import annotations

import pytest

from riskcore.report.sign import verify_report
from tests.browser_helpers import (
    TIMEOUT,
    goto,
    open_app,
    shot,
    wait_idle,
)
from tests.layout_checks import measure
from tests.riskcore.signing import PASSPHRASE, make_key

pytestmark = pytest.mark.browser


def test_a_reviewer_signs_the_report_in_the_browser(server, browser, tmp_path):
    external: list[str] = []
    ctx, page = open_app(browser, server, external)
    try:
        goto(page, server, "Report")
        page.get_by_role("button", name="Build the report").click()
        wait_idle(page)
        page.get_by_text("Sign (reviewer)").first.wait_for(timeout=4 * TIMEOUT)
        p12, _, _ = make_key("Rita Reviewer")
        key = tmp_path / "reviewer.p12"
        key.write_bytes(p12)
        sign_box = page.locator('[data-testid="stFileUploader"]').filter(
            has_text="Key and certificate"
        )
        sign_box.locator('input[type="file"]').set_input_files(str(key))
        wait_idle(page)
        box = page.get_by_label("Passphrase of the key file")
        box.fill(PASSPHRASE)
        box.press("Enter")
        wait_idle(page)
        page.get_by_role("button", name="Sign the PDF and the JSON twin").click()
        page.get_by_text("Signed by Common Name: Rita Reviewer").first.wait_for(timeout=4 * TIMEOUT)
        wait_idle(page)
        shot(page, "report-sign")
        with page.expect_download() as got:
            page.get_by_role("button", name="Download the signed PDF").click()
        got.value.save_as(tmp_path / "signed.pdf")
        pdf = (tmp_path / "signed.pdf").read_bytes()
        check = verify_report(pdf)
        assert check.valid and check.signer == "Common Name: Rita Reviewer", check
        # the passphrase box shows dots, never the text
        assert PASSPHRASE not in page.locator('[data-testid="stMain"]').inner_text()
        # the report's downloads, the signed ones too, are whole at both widths (issue 38:
        # the three signed downloads in a row were all cut at 1024 px)
        found = measure(page, "report-signed")
        assert found == {1400: [], 1024: []}
    finally:
        ctx.close()
    assert external == [], f"requests left localhost: {external}"
