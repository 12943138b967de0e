"""The modules issue 40 moved still import from their old paths, with a DeprecationWarning."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings

import pytest

from riskcore._moved import MOVED


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_imports_the_new_module_s_objects_with_a_warning(old: str) -> None:
    new = importlib.import_module(MOVED[old])
    for name in [m for m in sys.modules if m == old or m.startswith(old + ".")]:
        del sys.modules[name]  # a stand-in another test imported: import it afresh
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        stand_in = importlib.import_module(old)
    assert any(
        issubclass(w.category, DeprecationWarning) and MOVED[old] in str(w.message) for w in caught
    ), [str(w.message) for w in caught]
    public = getattr(new, "__all__", None) or [n for n in vars(new) if not n.startswith("_")]
    assert public
    for name in public:
        assert getattr(stand_in, name) is getattr(new, name), name
    assert set(public) <= set(dir(stand_in))


def test_a_name_the_new_module_lacks_is_an_attribute_error() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        lattice = importlib.import_module("riskcore.deidentify.lattice")
    with pytest.raises(AttributeError):
        lattice.no_such_name  # noqa: B018


def test_the_packages_that_replaced_modules_keep_their_names() -> None:
    """``riskcore.deidentify.search`` / ``recipe`` / ``history`` were modules, now packages."""
    from riskcore.deidentify.history import History
    from riskcore.deidentify.history.base import History as HistoryBase
    from riskcore.deidentify.recipe import Recipe, apply_recipe, generalize_columns
    from riskcore.deidentify.recipe.apply import apply_recipe as apply_in_apply
    from riskcore.deidentify.recipe.base import Recipe as RecipeBase
    from riskcore.deidentify.recipe.base import generalize_columns as gen_base
    from riskcore.deidentify.search import Lattice, SearchResult, search
    from riskcore.deidentify.search.lattice import Lattice as LatticeClass
    from riskcore.deidentify.search.run import SearchResult as ResultClass
    from riskcore.deidentify.search.run import search as search_function

    assert History is HistoryBase and Recipe is RecipeBase and apply_recipe is apply_in_apply
    assert generalize_columns is gen_base and Lattice is LatticeClass
    assert SearchResult is ResultClass and search is search_function


def test_no_module_of_riskcore_imports_an_old_path() -> None:
    """The stand-ins are for callers outside riskcore: nothing inside warns."""
    import subprocess

    code = (
        "import warnings, pkgutil, importlib, riskcore\n"
        "warnings.simplefilter('error', DeprecationWarning)\n"
        "for m in ('riskcore.cli.entry', 'riskcore.deidentify.on_engine', "
        "'riskcore.deidentify.search.run', 'riskcore.deidentify.recipe.apply', "
        "'riskcore.deidentify.history.script', 'riskcore.review', 'riskcore.report.render'):\n"
        "    importlib.import_module(m)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


def test_no_file_of_the_project_names_an_old_path() -> None:
    """Code, docstrings and examples name the new paths (the stand-ins are for callers outside)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    old = re.compile(r"(?<![\w.])(" + "|".join(re.escape(k) for k in MOVED) + r")\b")
    mine = {root / "riskcore" / "_moved.py", Path(__file__).resolve()}
    found = [
        f"{path.relative_to(root)}:{n}"
        for folder in ("riskcore", "ui", "pages", "tests", "scripts", "benchmarks")
        for path in sorted((root / folder).rglob("*.py"))
        if path not in mine
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if old.search(line)
    ]
    assert not found, "old module paths: " + ", ".join(found[:20])


def test_the_warning_names_the_line_that_imports_the_old_path(tmp_path) -> None:
    """Shown under the default filters for a script: attributed to its import line (review)."""
    import os
    import subprocess
    from pathlib import Path

    script = tmp_path / "old_script.py"
    script.write_text("import riskcore.deidentify.lattice\n", encoding="utf-8")
    root = str(Path(__file__).resolve().parents[2])  # this checkout's riskcore
    env = {**os.environ, "PYTHONPATH": root, "PYTHONWARNINGS": ""}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert f"{script}:1: DeprecationWarning: riskcore.deidentify.lattice moved" in done.stderr


def test_a_leftover_folder_of_an_old_path_does_not_hide_the_stand_in(tmp_path, monkeypatch):
    """After an upgrade in place an old package's folder may stay (only __pycache__)."""
    import riskcore.deidentify as deidentify

    (tmp_path / "engines" / "__pycache__").mkdir(parents=True)
    monkeypatch.setattr(deidentify, "__path__", [*deidentify.__path__, str(tmp_path)])
    for name in [m for m in sys.modules if m.startswith("riskcore.deidentify.engines")]:
        monkeypatch.delitem(sys.modules, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        engines = importlib.import_module("riskcore.deidentify.engines")
    from riskcore.engine.source import SourceTable

    assert engines.SourceTable is SourceTable


def test_a_name_an_old_module_offered_from_elsewhere_still_reads() -> None:
    from riskcore._moved import MOVED_NAMES

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for old, names in MOVED_NAMES.items():
            stand_in = importlib.import_module(old)
            for name, where in names.items():
                module, _, new_name = where.partition(":")
                found = getattr(importlib.import_module(module), new_name or name)
                assert getattr(stand_in, name) is found
                assert name in dir(stand_in)


def test_the_ledger_reader_of_the_old_path_is_the_budget_store(monkeypatch) -> None:
    """``riskcore.store.ledger_reading.LedgerReader`` (the reading half of the budget store,
    folded into ``riskcore.store.ledgers``) still imports (review of issue 40)."""
    from riskcore.store.ledgers import BudgetStore

    monkeypatch.delitem(sys.modules, "riskcore.store.ledger_reading", raising=False)

    with pytest.warns(DeprecationWarning, match="riskcore.store.ledger_reading moved"):
        from riskcore.store.ledger_reading import LedgerReader  # type: ignore[attr-defined]
    assert LedgerReader is BudgetStore


def test_a_function_named_like_its_old_submodule_stays_the_function() -> None:
    """``riskcore.metrics.suda`` is the function; its module is ``special_uniques`` now, and
    importing the old module path (a stand-in) never re-binds the package's name."""
    code = (
        "import types, riskcore.metrics as m, riskcore.metrics.suda, riskcore.metrics.records; "
        "print(isinstance(m.suda, types.ModuleType), isinstance(m.records, types.ModuleType), "
        "m.suda is __import__('riskcore.metrics.special_uniques').metrics.special_uniques.suda)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # ``suda`` is the function though its old module path was imported; ``records`` (no
    # public name of that name) stays the submodule.
    assert out.stdout.split() == ["False", "True", "True"]


@pytest.mark.parametrize(
    ("name", "module"),
    [("identifiability", "reidentification_bound"), ("sensitivity", "global_sensitivity")],
)
def test_a_dp_function_stays_the_function_after_its_old_module_path_is_imported(
    name: str, module: str
) -> None:
    """``riskcore.dp`` binds its functions eagerly (not lazily as ``riskcore.metrics``):
    importing the old module path ``riskcore.dp.<name>`` still leaves the function."""
    code = (
        f"import sys, types, riskcore.dp as dp, riskcore.dp.{name}, riskcore.dp.{module} as new; "
        f"old = sys.modules['riskcore.dp.{name}']; "
        f"print(isinstance(dp.{name}, types.ModuleType), dp.{name} is new.{name}, "
        f"type(old).__name__, old.{name} is new.{name})"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "_Moved", "True"]


def test_no_package_exports_a_name_that_is_also_its_submodule() -> None:
    """``riskcore.cli.main`` was both the function and a module (review): one name, one thing."""
    import pkgutil

    import riskcore

    packages = ["riskcore"] + [
        info.name
        for info in pkgutil.walk_packages(riskcore.__path__, "riskcore.")
        if info.ispkg and not info.name.startswith("riskcore._")
    ]
    clashes = []
    for name in packages:
        package = importlib.import_module(name)
        subs = {m.name for m in pkgutil.iter_modules(package.__path__)}
        clashes += [f"{name}.{n}" for n in getattr(package, "__all__", ()) if n in subs]
    # none allowed: metrics.suda, hierarchy.preview, io.fingerprint, dp.identifiability and
    # dp.sensitivity became special_uniques, level_groups, digest, reidentification_bound
    # and global_sensitivity (their old paths are stand-ins in riskcore/_moved.py)
    assert clashes == []
