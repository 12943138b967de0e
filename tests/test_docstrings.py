"""riskcore's public API has numpydoc docstrings (scripts/check_docstrings.py, also in .ci/run):
a one-line summary, Parameters matching the signature, Returns when something is returned."""

from __future__ import annotations

import importlib.util
import inspect
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _checker():
    spec = importlib.util.spec_from_file_location(
        "check_docstrings", ROOT / "scripts" / "check_docstrings.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("check_docstrings", module)
    spec.loader.exec_module(module)
    return module


CHECK = _checker()


def test_every_public_function_of_riskcore_is_documented():
    problems = CHECK.problems()
    assert not problems, "\n".join(problems)


def _undocumented(data, quasi_identifiers, *, seed=0):
    """Return a count.

    Parameters
    ----------
    data : pandas.DataFrame
    seed : int, optional
    extra : int
    """
    return 0


def _documented(data, *args, **kwargs) -> None:
    """Do nothing.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    *args, **kwargs
        Ignored.
    """


class _Thing:
    """A thing.

    Parameters
    ----------
    size : int
        Its size.
    """

    def __init__(self, size: int) -> None:
        self.size = size

    def grow(self, by: int) -> int:
        """Return the size after growing by ``by``
        (a run-on summary)."""
        return self.size + by


def test_the_checker_finds_each_kind_of_fault():
    found = {
        (code, message)
        for _, code, message in CHECK.check_callable("f", _undocumented, bound=False)
    }
    assert ("PARAMS", "parameters not documented: quasi_identifiers") in found
    assert ("PARAMS", "documented but not in the signature: extra") in found
    assert not any(code == "RETURNS" for code, _ in found)  # no return annotation
    assert not list(CHECK.check_callable("g", _documented, bound=False))
    faults = {(name, code) for name, code, _ in CHECK.check_class("T", _Thing)}
    assert faults == {("T.grow", "SUMMARY"), ("T.grow", "PARAMS"), ("T.grow", "RETURNS")}


def test_an_allowed_fault_that_passes_must_leave_the_list():
    allowed = CHECK.allowlist() | {("riskcore.metrics.assessment.assess", "PARAMS")}
    lines = CHECK.problems(allowed=allowed)
    assert lines == [
        "riskcore.metrics.assessment.assess: PARAMS: passes now; remove it from "
        "scripts/docstring_allowlist.txt"
    ]


def test_every_public_module_exports_what_it_names():
    """Each public module with public functions or classes has an ``__all__``, and every name
    of it (and of riskcore's own) is importable from there, as the API reference shows."""
    import importlib

    missing, broken = [], []
    for name in CHECK.public_modules():
        module = importlib.import_module(name)
        defined = [
            attr
            for attr, value in vars(module).items()
            if not attr.startswith("_")
            and getattr(value, "__module__", None) == name
            and (inspect.isfunction(value) or inspect.isclass(value))
        ]
        if defined and not hasattr(module, "__all__"):
            missing.append(name)
        broken += [f"{name}.{a}" for a in getattr(module, "__all__", []) if not hasattr(module, a)]
    assert not missing, f"public modules without __all__: {missing}"
    assert not broken, f"names in __all__ that do not import: {broken}"
