"""Shared fixtures: paths to the reference data beside the project, a database per test."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from riskcore.store import DB_ENV, KEY_ENV, KEY_FILE_ENV

ROOT = Path(__file__).resolve().parents[1]
# The suite never writes to the user's data directory: every process it starts (a live
# server in a module fixture, a CLI run) finds RISKCORE_DB pointing at a temporary folder,
# and each test gets its own database below (:func:`database`).
_SESSION_DB = tempfile.mkdtemp(prefix="riskcore-tests-")
atexit.register(shutil.rmtree, _SESSION_DB, ignore_errors=True)  # no folder left behind
os.environ[DB_ENV] = str(Path(_SESSION_DB) / "riskcore.db")
os.environ.pop(KEY_ENV, None)  # so the audit key is the one beside the database, there too
os.environ.pop(KEY_FILE_ENV, None)
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


@pytest.fixture(autouse=True)
def database(tmp_path_factory, monkeypatch) -> Path:
    """Point RISKCORE_DB at a fresh database of this test's own; return its path."""
    path = tmp_path_factory.mktemp("db") / "riskcore.db"
    monkeypatch.setenv(DB_ENV, str(path))
    # the audit key beside that database, never one of the environment's
    monkeypatch.delenv(KEY_ENV, raising=False)
    monkeypatch.delenv(KEY_FILE_ENV, raising=False)
    return path
