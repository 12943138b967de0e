"""Every package that lists its names through ``riskcore._exports.lazy_exports``: importing
it imports none of the modules it names, each name is its module's object, and ``dir()``
lists them (issue 40: one lazy-export helper instead of a loader per ``__init__``)."""

from __future__ import annotations

import ast
import importlib
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGES = [
    "riskcore",
    "riskcore.demo",
    "riskcore.metrics",
    "riskcore.roles",
    "riskcore.report.readings",
    "riskcore.deidentify",
    "riskcore.deidentify.search",
    "riskcore.deidentify.recipe",
    "riskcore.deidentify.history",
    "riskcore.utility",
]


def _module_path(package: str, module: str) -> str:
    return module if "." in module else f"{package}.{module}"


def _lazy_modules(package: str) -> list[str]:
    where = importlib.import_module(package)._WHERE
    return sorted({_module_path(package, module) for module in where.values()})


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_uses_the_one_helper(package):
    source = inspect.getsource(importlib.import_module(package))
    assert "lazy_exports(__name__, _WHERE" in source
    assert "def __getattr__" not in source and "def __dir__" not in source


@pytest.mark.parametrize("package", PACKAGES)
def test_importing_the_package_imports_none_of_the_modules_it_names(package):
    lazy = _lazy_modules(package)
    code = f"import sys, {package}; print(sorted(m for m in {lazy!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("package", PACKAGES)
def test_every_listed_name_is_its_modules_object_and_in_dir(package):
    mod = importlib.import_module(package)
    assert set(mod.__all__) >= set(mod._WHERE)
    listed = dir(mod)
    for name, module in mod._WHERE.items():
        defined = importlib.import_module(_module_path(package, module))
        assert getattr(mod, name) is getattr(defined, name), name
        assert name in listed, name


@pytest.mark.parametrize("package", PACKAGES)
def test_an_unknown_name_is_a_plain_attribute_error(package):
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        importlib.import_module(package).no_such_name  # noqa: B018


def test_the_readings_names_are_listed_once():
    """The readings package lists each name only in ``_WHERE``; the type checker reads each
    module's ``__all__`` through a star import, so the two must name the same things."""
    import riskcore.report.readings as readings

    tree = ast.parse(Path(readings.__file__).read_text(encoding="utf-8"))
    starred = {
        node.module.rsplit(".", 1)[1]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and [a.name for a in node.names] == ["*"]
    }
    assert starred == set(readings._WHERE.values())
    exported = set()
    for module in starred:
        exported |= set(importlib.import_module(f"riskcore.report.readings.{module}").__all__)
    assert exported == set(readings._WHERE)
    assert readings.__all__ == sorted(readings._WHERE)
    source = Path(readings.__file__).read_text(encoding="utf-8")
    assert source.count('"format_number"') == 1
