"""The lock check fails when the pinned installs drift from pyproject.toml."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from security import lockcheck

ROOT = Path(__file__).resolve().parents[1]
FILES = ("pyproject.toml", "requirements.txt", "requirements-dev.txt")


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    for name in FILES:
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def pin(path: Path, package: str) -> str:
    return next(
        line for line in path.read_text(encoding="utf-8").splitlines()
        if line.lower().startswith(f"{package}==")
    )


def test_the_project_files_pass(capsys) -> None:
    assert lockcheck.main([]) == 0
    assert "follow pyproject.toml" in capsys.readouterr().out


def test_every_app_pin_is_in_the_dev_install_and_the_app_install_is_lean() -> None:
    app = {n for n, _ in lockcheck.read_pins(ROOT / "requirements.txt")}
    dev = {n for n, _ in lockcheck.read_pins(ROOT / "requirements-dev.txt")}
    assert app < dev
    lean = {lockcheck.normalize(n) for n in app}
    # the engines, the browser tests and the tools stay out of the app's install
    for heavy in ("pyspark", "duckdb", "playwright", "mypy", "ruff", "pytest", "weasyprint"):
        assert heavy not in lean, heavy
    assert {"streamlit", "pandas", "pyarrow", "opendp", "jinja2"} <= lean


def test_a_declared_range_the_pin_leaves_is_found(copy: Path) -> None:
    edit(copy / "pyproject.toml", '"pandas>=2.2"', '"pandas>=99"')
    found = lockcheck.problems(copy)
    assert any("pandas" in p and "outside the declared" in p for p in found), found
    assert lockcheck.main(["--root", str(copy)]) == 1


def test_a_new_dependency_that_is_not_pinned_is_found(copy: Path) -> None:
    edit(copy / "pyproject.toml", '"Faker>=30",', '"Faker>=30",\n  "left-pad-never>=1",')
    found = lockcheck.problems(copy)
    assert found == [f"{f}: left-pad-never is required (left-pad-never>=1) but not pinned"
                     for f in ("requirements.txt", "requirements-dev.txt")]


def test_the_app_and_dev_installs_must_agree(copy: Path) -> None:
    line = pin(copy / "requirements-dev.txt", "numpy")
    edit(copy / "requirements-dev.txt", line, "numpy==2.0.0")
    found = lockcheck.problems(copy)
    assert any(p.startswith("requirements-dev.txt pins numpy at 2.0.0") for p in found), found


def test_a_file_generated_by_another_command_is_found(copy: Path) -> None:
    edit(copy / "requirements.txt", "--extra app ", "")
    found = lockcheck.problems(copy)
    assert any("its header names" in p for p in found), found


def test_an_unreadable_file_exits_2(copy: Path) -> None:
    (copy / "requirements-dev.txt").unlink()
    assert lockcheck.main(["--root", str(copy)]) == 2
