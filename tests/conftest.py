"""Shared fixtures: paths to the reference data beside the project."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.fixture(scope="session", autouse=True)
def session_database(tmp_path_factory) -> Iterator[Path]:
    """Point RISKCORE_DB at a file of the test session before anything starts (a module's
    live server inherits it): no test writes the user's real database."""
    from riskcore.store import DB_ENV

    path = tmp_path_factory.mktemp("session-db") / "riskcore.db"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(DB_ENV, str(path))
        yield path


@pytest.fixture(autouse=True)
def private_database(session_database, tmp_path_factory, monkeypatch) -> Path:
    """Point RISKCORE_DB at a fresh file for every test (AppTests, spawned processes and
    servers started by the test inherit it), so no privacy ledger or audit entry leaks from
    one test into another."""
    from riskcore.store import DB_ENV

    path = tmp_path_factory.mktemp("db") / "riskcore.db"
    monkeypatch.setenv(DB_ENV, str(path))
    return path


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
