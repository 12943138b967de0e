"""The download buttons' table (``ui.core.downloads``): a file's media type from its name."""

from __future__ import annotations

import pytest

from riskcore.report.sign import TWIN_SIGNATURE_SUFFIX
from ui.core.downloads import Download


@pytest.mark.parametrize(
    ("file_name", "mime"),
    [
        ("demo_report.html", "text/html"),
        ("demo_report.json", "application/json"),
        ("demo_report_signed.PDF", "application/pdf"),  # the extension read in any case
        (f"demo_report.json{TWIN_SIGNATURE_SUFFIX}", "application/pkcs7-signature"),
        ("record_k_map.csv", "text/csv"),
        ("demo_steps.sh", "text/x-shellscript"),
        ("no_extension", "application/octet-stream"),
    ],
)
def test_a_downloads_media_type_is_told_by_its_extension(file_name, mime):
    assert Download("Download it", b"", file_name, "download_key").mime == mime
