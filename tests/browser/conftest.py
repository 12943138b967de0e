"""Fixtures of the browser tests: a live server and Debian's Chromium, which must be there.

A missing Chromium fails these tests (``apt-get install chromium``), it never skips them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.test_browser import CHROMIUM, serve
from tests.app.test_browser import browser as browser  # the same Chromium fixture


@pytest.fixture(scope="module")
def server():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    with serve() as url:
        yield url
