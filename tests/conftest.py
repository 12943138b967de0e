"""Shared fixtures: paths to the reference data beside the project, a database per test.

Also the markers given by rule (:func:`pytest_collection_modifyitems`): ``browser``,
``subprocess`` and ``slow`` (from ``tests/slow_tests.txt``), and the hypothesis profiles
``dev`` (fewer examples, the default outside CI) and ``ci`` (chosen when CI is set);
``HYPOTHESIS_PROFILE`` picks one by name.
"""

from __future__ import annotations

import atexit
import inspect
import os
import re
import shutil
import tempfile
import types
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

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
SHARED = Path(os.environ.get("RISKCORE_SHARED_DATA") or ROOT.parent / "shared" / "data")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

# hypothesis: ``ci`` runs hypothesis' default 100 examples a test (at least what each test
# asked before the profiles), ``dev`` a fifth of that for the inner loop; no deadline
# (the load of a shared machine makes timings meaningless)
settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "dev", max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if IN_CI else "dev"))

SLOW_LIST = ROOT / "tests" / "slow_tests.txt"
# fixtures that start a live server (and Chromium): their tests are browser tests
BROWSER_FIXTURES = frozenset({"server", "browser"})
# a call that starts a process: the CLI or Python through subprocess, or a live server
_STARTS_PROCESS = re.compile(r"\bsubprocess\.(run|Popen|check_output|check_call|call)\b|\bserve\(")


def slow_ids(path: Path = SLOW_LIST) -> dict[str, float]:
    """Return {node id: measured seconds} of ``tests/slow_tests.txt``.

    Each line is a node id relative to the project root, then ``# <seconds> s``; blank
    lines and lines starting with ``#`` are skipped. A test file's path alone (no ``::``)
    marks every test of the file (for a module whose shared fixture is the slow part: marking
    one test would only move that cost to the next).
    """
    out: dict[str, float] = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        node, _, comment = line.partition("#")  # a line without a comment is a node alone
        seconds = re.search(r"[0-9]+(?:\.[0-9]+)?", comment)
        out[node.strip()] = float(seconds.group()) if seconds else float("nan")
    return out


def starts_process(func: types.FunctionType, depth: int = 2) -> bool:
    """Whether ``func``, or a function of its module it calls (``depth`` levels down),
    starts a process (:data:`_STARTS_PROCESS` in its source)."""
    try:
        source = inspect.getsource(func)
    except (OSError, TypeError):
        return False
    if _STARTS_PROCESS.search(source):
        return True
    if depth == 0:
        return False
    module = inspect.getmodule(func)
    names: set[str] = set()
    stack = [func.__code__]
    while stack:  # the names of the function and of the functions nested in it
        code = stack.pop()
        names.update(code.co_names)
        stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    for name in names:
        obj = getattr(module, name, None)
        if (
            isinstance(obj, types.FunctionType)
            and obj is not func
            and obj.__module__ == func.__module__
            and starts_process(obj, depth - 1)
        ):
            return True
    return False


def pytest_collection_modifyitems(config, items):
    """Mark by rule: ``browser`` (under tests/browser, or using the live-server or
    Chromium fixtures), ``subprocess`` (starting the CLI, Python or a server in a
    process, or using the live-server fixture), ``slow`` (listed in slow_tests.txt); and
    the xdist groups that keep browser tests on one worker, Spark tests on one worker."""
    slow = slow_ids()
    browser_dir = ROOT / "tests" / "browser"
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        path = Path(item.path)
        if browser_dir in path.parents or fixtures & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
            # under ``--dist loadgroup`` (pyproject's addopts) one worker runs every browser
            # test in turn: one live server and one Chromium at a time, as without xdist
            item.add_marker(pytest.mark.xdist_group("browser"))
        elif item.get_closest_marker("spark") is not None:
            item.add_marker(pytest.mark.xdist_group("spark"))  # one Spark session at a time
        func = getattr(item, "function", None)
        if "server" in fixtures or (isinstance(func, types.FunctionType) and starts_process(func)):
            item.add_marker(pytest.mark.subprocess)
        if item.nodeid in slow or item.nodeid.partition("::")[0] in slow:
            item.add_marker(pytest.mark.slow)


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


@pytest.fixture(scope="module")
def server():
    """Run the app on a live server (:func:`tests.browser_helpers.serve`); yield its URL.

    A missing Chromium skips the test outside CI and fails it in CI
    (``tests/browser/conftest.py`` fails it everywhere).
    """
    from tests.browser_helpers import CHROMIUM, serve

    if not Path(CHROMIUM).exists():
        if IN_CI:
            pytest.fail("Chromium is not installed; .ci/run must install it")
        pytest.skip("Chromium not installed")
    with serve() as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    """Launch Debian's Chromium through Playwright; yield the browser."""
    from playwright.sync_api import sync_playwright

    from tests.browser_helpers import ARGS, CHROMIUM

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
