"""The markers given by rule in tests/conftest.py: the slow list names tests that exist, and
the rule that finds a test starting a process finds it through a helper too."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from tests.conftest import ROOT, SLOW_LIST, slow_ids, starts_process


def _test_exists(node: str) -> str | None:
    """Return why ``node`` (a node id of tests/slow_tests.txt) names no test, or None."""
    path, _, rest = node.partition("::")
    if not (ROOT / path).is_file() or not path.endswith(".py"):
        return f"{path} is not a test file"
    module = importlib.import_module(path[:-3].replace("/", "."))
    if not rest:
        return None  # the whole file
    name, bracket, _ = rest.partition("[")
    obj: object = module
    for part in name.split("::"):
        obj = getattr(obj, part, None)
        if obj is None:
            return f"{path} has no {name}"
    if bracket and not any(m.name == "parametrize" for m in getattr(obj, "pytestmark", [])):
        return f"{name} is not parametrized, so {node} names no test"
    return None


def test_every_listed_slow_test_exists():
    listed = slow_ids()
    missing = [f"{node}: {why}" for node in listed if (why := _test_exists(node))]
    assert not missing, f"{SLOW_LIST.name} lists tests that are gone: {missing}"


def test_the_slow_list_reader_and_a_gone_test(tmp_path):
    listed = tmp_path / "slow.txt"
    listed.write_text("# header\n\ntests/test_markers.py::test_a  # 1.25 s\n")
    assert slow_ids(listed) == {"tests/test_markers.py::test_a": 1.25}
    assert _test_exists("tests/test_markers.py::test_a") is not None
    assert _test_exists("tests/test_markers.py::test_every_listed_slow_test_exists") is None
    assert _test_exists("tests/nowhere.py::test_x") is not None
    assert _test_exists("tests/test_markers.py") is None
    assert _test_exists("tests/nowhere.py") is not None


def _cli_help() -> str:
    return subprocess.run([sys.executable, "-c", "pass"], check=True).stdout


def _through_a_helper():
    return _cli_help()


def _in_process():
    return sorted([3, 1, 2])


@pytest.mark.parametrize(
    ("func", "expected"),
    [(_cli_help, True), (_through_a_helper, True), (_in_process, False)],
)
def test_a_process_is_found_in_the_test_or_its_helpers(func, expected):
    assert starts_process(func) is expected
