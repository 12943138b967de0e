"""The central de-identification names are importable from ``riskcore.deidentify`` (as the
documentation shows), are the objects of their modules, and load on first use only."""

from __future__ import annotations

import subprocess
import sys

import pytest

import riskcore.deidentify as package


def test_central_names_are_importable_from_the_package():
    from riskcore.deidentify import apply_recipe
    from riskcore.deidentify.recipe.apply import apply_recipe as defined

    assert apply_recipe is defined
    for name in package.__all__:
        module = __import__(package._WHERE[name], fromlist=[name])
        assert getattr(package, name) is getattr(module, name)
        assert name in dir(package)


def test_the_search_module_keeps_its_name():
    import riskcore.deidentify.search.run as search_module

    assert hasattr(search_module, "search") and callable(search_module.search)


def test_an_unknown_name_is_a_plain_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'apply'"):
        package.apply  # noqa: B018


def test_importing_the_package_imports_no_submodule():
    code = (
        "import sys, riskcore.deidentify; "
        "print(sorted(m for m in sys.modules if m.startswith('riskcore.deidentify.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
