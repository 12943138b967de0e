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


def _says_something(data, quasi_identifiers, *, k=2) -> int:
    """Return the number of records in classes smaller than ``k``.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    quasi_identifiers : list of str
        The columns an attacker may know.
    k : int, optional
        The smallest class size that passes.

    Returns
    -------
    int
        0 when every class has ``k`` or more records; never more than ``len(data)``.
    """
    return 0


def _bare_parameter(data, seed=0) -> int:
    """Return a count.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.
    seed : int, optional

    Returns
    -------
    int
    """
    return 0


def _repeating(data) -> int:
    """Return the number of unique records in ``data``.

    Parameters
    ----------
    data : pandas.DataFrame
        The table.

    Returns
    -------
    int
        The number of unique records in ``data``.
    """
    return 0


def _codes(found):
    return {code for _, code, _ in found}


def test_a_docstring_that_says_something_passes():
    assert not list(CHECK.check_callable("f", _says_something, bound=False))


def test_a_parameter_without_a_description_fails():
    found = list(CHECK.check_callable("f", _bare_parameter, bound=False))
    assert [(c, m) for _, c, m in found] == [
        ("PARAMDESC", "parameters without a description: seed")
    ]


def test_a_parameter_of_a_class_without_a_description_fails():
    class Bare:
        """A thing.

        Parameters
        ----------
        size : int
        """

        def __init__(self, size: int) -> None:
            self.size = size

    assert _codes(CHECK.check_class("Bare", Bare)) == {"PARAMDESC"}


def test_a_returns_that_repeats_the_summary_fails():
    found = list(CHECK.check_callable("f", _repeating, bound=False))
    assert _codes(found) == {"REPEAT"}


def test_what_counts_as_a_repeat():
    summary = "Return the counts of unique records, by class."
    # the same words, the plural, markup and articles aside: a repeat
    assert CHECK.repeats(summary, "The count of unique records, by class.")
    assert CHECK.repeats(summary, "A ``count`` of the unique records.")
    assert CHECK.repeats(summary, "Unique records by class.")
    # a description that adds a unit, a shape or what an edge case gives: not a repeat
    assert not CHECK.repeats(summary, "Unique records; 0 for an empty table.")
    assert not CHECK.repeats(summary, "Indexed by class code, in increasing order.")
    assert not CHECK.repeats(summary, "Sorted.")
    assert not CHECK.repeats(summary, "")  # a type alone
    # 4 of 5 words said is a repeat (80%); 3 of 5 is not
    assert CHECK.repeats("Return the v w x y.", "v w x y z")
    assert not CHECK.repeats("Return the v w x.", "v w x y z")


def test_an_entry_point_without_an_example_fails():
    points = ((__name__, "_says_something"), ("riskcore", "assess"))
    found = list(CHECK.check_entry_points(points))
    assert [(q, c) for q, c, _ in found] == [(f"{__name__}._says_something", "EXAMPLE")]


def test_a_todo_package_counts_its_faults_and_must_leave_once_it_passes():
    lines = CHECK.problems(todo=(*CHECK.TODO, "riskcore.errors"))
    assert lines == [
        "riskcore.errors: PARAMDESC / REPEAT pass now; remove it from TODO in "
        "scripts/check_docstrings.py"
    ]
    assert all(CHECK.PENDING[p] > 0 for p in CHECK.TODO)


def test_the_checkers_own_examples_run():
    import doctest

    result = doctest.testmod(CHECK, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
