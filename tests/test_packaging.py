"""riskcore installs as a package with a console script, and starts fast."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_wheel_holds_every_module_and_the_console_script(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    (wheel,) = tmp_path.glob("riskcore-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "riskcore").rglob("*.py")}
    assert sources <= names, sorted(sources - names)
    assert "riskcore/py.typed" in names
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry).decode()
    assert "riskcore = riskcore.cli:run" in text
    assert not any(n.startswith(("ui/", "pages/", "tests/")) for n in names)


def test_console_script_is_installed_by_the_readme_command():
    script = Path(sys.executable).with_name("riskcore")
    assert script.exists(), "the README commands install riskcore (-e .)"
    out = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "assess" in out.stdout


def test_help_and_import_do_not_load_heavy_modules():
    code = (
        "import sys, runpy\n"
        "sys.argv = ['riskcore', '--help']\n"
        "try:\n"
        "    runpy.run_module('riskcore', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = [m for m in ('pandas', 'numpy', 'scipy', 'opendp', 'plotly', 'pyarrow')\n"
        "         if m in sys.modules]\n"
        "print('HEAVY', heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert "HEAVY []" in out.stdout, out.stdout + out.stderr


def test_assessment_path_does_not_import_scipy_plotly_or_opendp():
    code = (
        "import sys\n"
        "from riskcore.cli import main\n"
        "main(['assess', 'demo:200', '--qi', 'age', '--qi', 'sex', '--sensitive', 'diagnosis'])\n"
        "print('HEAVY', [m for m in ('scipy', 'opendp', 'plotly', 'streamlit')"
        " if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert "HEAVY []" in out.stdout, out.stdout + out.stderr


def test_riskcore_app_says_what_is_missing_instead_of_failing(monkeypatch, tmp_path, capsys):
    from riskcore.cli import app as _cli_app
    from riskcore.cli import main

    monkeypatch.setattr(_cli_app, "app_path", lambda: tmp_path / "app.py")  # a wheel install
    assert main(["app", "--server.port", "1"]) == 2
    assert "pip install -e ." in capsys.readouterr().err
    out = subprocess.run(
        [sys.executable, "-m", "riskcore", "app", "--help"], capture_output=True, text=True
    )
    assert out.returncode == 0 and "passed to Streamlit" in out.stdout
