"""Fixtures of the browser tests: a live server, with Debian's Chromium, which must be there
(the ``browser`` fixture is in ``tests/conftest.py``).

A missing Chromium fails these tests (``apt-get install chromium``), it never skips them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser_helpers import CHROMIUM, serve


@pytest.fixture(scope="module")
def server():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    with serve() as url:
        yield url
