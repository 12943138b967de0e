"""The README's Python examples run as written (documentation that cannot drift)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_blocks_run_in_order():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) >= 2, "README lost its Python API examples"
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)  # our own README
    # the figures the README states beside the calls, from their formulas:
    # Laplace 95% half-width b ln 20 with b = 1 / epsilon = 1 (README: 2.996), and
    # Lee & Clifton's epsilon = ln((m - 1) rho / (1 - rho)) with m = 100, rho = 0.015 (0.4105)
    dp = namespace["dp"]
    sens = dp.sensitivity("count")
    half_width = dp.error_curve(7161, sens, mechanism="laplace").at(1.0).half_width
    assert half_width == pytest.approx(math.log(20)) and f"{math.log(20):.3f}" == "2.996"
    expected = math.log(99 * 0.015 / 0.985)
    assert dp.identifiability_epsilon(100, 0.015) == pytest.approx(expected)
    assert f"{expected:.4f}" == "0.4105"
