"""Browser: a refused file keeps the session usable, the encoding can be changed, and the
tables offer no built-in CSV download (it writes formula cells unchanged).

Separate from ``test_browser.py`` (its own server): Playwright and Debian's Chromium.
"""

from __future__ import annotations

import pytest

from tests.browser_helpers import (
    goto,
    open_app,
    shot,
    upload,
    wait_idle,
)

pytestmark = pytest.mark.browser


def test_bad_upload_encoding_and_no_table_download(server, browser, tmp_path):
    external: list[str] = []
    ctx, page = open_app(browser, server, external)
    try:
        # a file the loader refuses: its message, and the uploader and sidebar stay
        bad = tmp_path / "bad.csv"
        bad.write_bytes(b"a,b\n1,2,3,4\n5,6\n")
        upload(page, bad)
        page.get_by_text("more fields than the header").first.wait_for()
        assert page.locator('[data-testid="stException"]').count() == 0
        assert page.get_by_role("button", name="Reset session").count() == 1
        assert page.locator('[data-testid="stFileUploader"]').count() >= 1
        shot(page, "loader-1-bad-upload")
        goto(page, server, "Uniqueness")
        page.get_by_text("Records by equivalence-class size").first.wait_for()
        goto(page, server, "Data")

        # a latin-1 file with a formula cell: read as cp1252, and its encoding can be changed
        names = tmp_path / "names.csv"
        names.write_bytes(
            'name,city,note\nMuñoz,São Paulo,"=HYPERLINK(""http://x"",""click"")"\n'
            "Åsa,Zoë,=1+2\nØrsted,Köln,ok\n".encode("latin-1")
        )
        upload(page, names)
        page.get_by_text("names.csv: 3 rows x 3 columns").first.wait_for()
        page.get_by_text("Text encoding: Windows-1252 (Western European), assumed").wait_for()
        picker = page.locator('[data-testid="stSelectbox"]').filter(
            has_text="Text encoding of the file"
        )
        picker.first.wait_for()  # drawn after the caption above: wait, then count it
        wait_idle(page)
        assert picker.count() == 1
        page.get_by_text("Preview the first 100 rows").click()
        wait_idle(page)
        shot(page, "loader-2-encoding")
        # hovering a table shows its toolbar, without "Download as CSV"
        table = page.locator('[data-testid="stDataFrame"]').last
        table.hover()
        page.wait_for_timeout(500)
        toolbar = page.locator('[data-testid="stElementToolbar"]')
        assert toolbar.count() >= 1
        assert page.get_by_role("button", name="Download as CSV").count() == 0
        assert not external, external
    finally:
        ctx.close()
