"""The examples in riskcore's docstrings run as written (numpydoc ``Examples`` sections,
shown on the site's API reference): every module holding a ``>>>`` example is run by doctest."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(
    ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for p in (ROOT / "riskcore").rglob("*.py")
    if ">>> " in p.read_text(encoding="utf-8")
)
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def test_the_central_functions_have_examples():
    for name in (
        "riskcore.metrics.assessment",
        "riskcore.dp.reidentification_bound",
        "riskcore.dp.local",
    ):
        assert name in MODULES, f"{name} lost its docstring examples"


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=FLAGS, verbose=False, report=True)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed"
