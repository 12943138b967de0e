"""No import cycle in riskcore, imports inside functions included (issue 40).

grimp reads every ``import`` statement of every module, those inside functions too
(an import deferred into a function hides a cycle from Python, not from the
reader); ``if TYPE_CHECKING:`` imports are left out, as they never run. A cycle is
a strongly connected component of more than one module in that graph, found by
Tarjan's algorithm. The layers contract in ``pyproject.toml`` (import-linter)
orders the packages; this test also covers the modules inside one package.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import grimp
import pytest


def import_cycles(package: str) -> list[list[str]]:
    """Return every import cycle among ``package``'s modules (each sorted), largest first."""
    graph = grimp.build_graph(package, exclude_type_checking_imports=True, cache_dir=None)
    edges = {
        m: sorted(i for i in graph.find_modules_directly_imported_by(m) if i in graph.modules)
        for m in sorted(graph.modules)
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in edges:  # Tarjan's algorithm, iterative (no recursion limit)
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(edges[succ])))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        cycles.append(sorted(component))
    return sorted(cycles, key=len, reverse=True)


def test_riskcore_has_no_import_cycle() -> None:
    cycles = import_cycles("riskcore")
    assert cycles == [], "import cycles (imports inside functions count):\n" + "\n".join(
        " <-> ".join(c) for c in cycles
    )


@pytest.fixture
def cyclic_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A package whose two modules import each other, one of them inside a function."""
    root = tmp_path / "cyclepkg"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "sub" / "__init__.py").write_text("")
    (root / "a.py").write_text("from cyclepkg.sub import b\n")
    (root / "sub" / "b.py").write_text(
        textwrap.dedent(
            """
            from typing import TYPE_CHECKING
            if TYPE_CHECKING:
                from cyclepkg import c  # never runs: not a cycle
            def late():
                from cyclepkg import a  # hidden from Python, not from the check
                return a
            """
        )
    )
    (root / "c.py").write_text("from cyclepkg.sub import b\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "cyclepkg"
    for name in [m for m in sys.modules if m.startswith("cyclepkg")]:
        del sys.modules[name]


def test_a_cycle_made_on_purpose_is_found(cyclic_package: str) -> None:
    assert import_cycles(cyclic_package) == [["cyclepkg.a", "cyclepkg.sub.b"]]
