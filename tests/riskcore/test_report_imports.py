"""The report package's import contract: readings never load plotly; only figures do."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _loaded_after(statement: str, modules: list[str]) -> dict[str, bool]:
    code = f"import sys\n{statement}\nprint(','.join(str(m in sys.modules) for m in {modules!r}))\n"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return dict(zip(modules, (v == "True" for v in out.stdout.strip().split(",")), strict=True))


def test_importing_the_readings_does_not_load_plotly():
    got = _loaded_after(
        "import riskcore.report.readings", ["plotly", "riskcore.report.figures", "streamlit"]
    )
    assert got == {"plotly": False, "riskcore.report.figures": False, "streamlit": False}


def test_importing_riskcore_report_loads_neither_readings_nor_figures():
    got = _loaded_after(
        "import riskcore.report", ["plotly", "riskcore.report.figures", "riskcore.report.readings"]
    )
    assert not any(got.values()), got


def test_the_figures_load_plotly():
    assert _loaded_after("import riskcore.report.figures", ["plotly"]) == {"plotly": True}
