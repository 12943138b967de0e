"""Shared fixtures: paths to the reference data beside the project."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def shared_file(relative: str) -> Path:
    """Return a file of ../shared/data; skip outside CI when it is absent, fail in CI."""
    path = SHARED / relative
    if not path.exists():
        if IN_CI:
            pytest.fail(f"reference data {path} is missing in CI")
        pytest.skip(f"reference data {path} not present")
    return path


@pytest.fixture
def seed_dir() -> Path:
    """Return the folder of the worked seed tables."""
    return shared_file("seed_examples")
