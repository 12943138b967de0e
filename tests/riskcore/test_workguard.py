"""Runtime budgets (riskcore.workguard): the memory ceiling and the deadline of long work."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from riskcore import workguard
from riskcore.errors import RiskcoreError
from riskcore.workguard import (
    MIN_CEILING,
    Deadline,
    WorkTooLongError,
    available_memory,
    memory_ceiling,
    parse_size,
    time_limit,
)
from tests.conftest import ROOT


@pytest.mark.parametrize(
    ("text", "size"),
    [("6G", 6 * 2**30), ("512M", 512 * 2**20), ("1.5GiB", 3 * 2**29), ("2048", 2048),
     (" 4 gb ", 4 * 2**30), ("10k", 10_240)],
)  # fmt: skip
def test_sizes_are_read_in_binary_units(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "G", "six gigabytes", "-1G", "1X"])
def test_what_is_not_a_size_is_refused_with_the_text_named(text):
    with pytest.raises(RiskcoreError, match="is not a memory size"):
        parse_size(text)


def test_the_ceiling_is_the_operators_or_three_quarters_of_the_machine(monkeypatch):
    monkeypatch.setattr(workguard, "available_memory", lambda: 8 * 2**30)
    assert memory_ceiling({}) == 6 * 2**30
    assert memory_ceiling({"RISKCORE_MEMORY_LIMIT": "2G"}) == 2 * 2**30
    assert memory_ceiling({"RISKCORE_MEMORY_LIMIT": "off"}) is None
    with pytest.raises(RiskcoreError, match="too little"):
        memory_ceiling({"RISKCORE_MEMORY_LIMIT": "10M"})
    monkeypatch.setattr(workguard, "available_memory", lambda: None)
    assert memory_ceiling({}) is None


def test_a_cgroup_limit_below_the_machines_memory_is_the_one_available(tmp_path):
    physical = available_memory(tmp_path)  # no cgroup files: the machine's memory
    assert physical is not None and physical > MIN_CEILING
    (tmp_path / "memory.max").write_text(f"{MIN_CEILING}\n")
    assert available_memory(tmp_path) == MIN_CEILING
    (tmp_path / "memory.max").write_text("max\n")  # cgroup v2 without a limit
    assert available_memory(tmp_path) == physical


def test_past_the_ceiling_an_allocation_fails_and_the_process_goes_on():
    # in a child process: the ceiling cannot be raised again once lowered
    code = textwrap.dedent(
        """
        import numpy as np
        from riskcore.workguard import apply_memory_ceiling
        small = np.ones(200 * 2**20, dtype=np.uint8)  # fits before the ceiling
        print("limit", apply_memory_ceiling(600 * 2**20))
        try:
            big = np.ones(2 * 2**30, dtype=np.uint8)
            print("allocated")
        except MemoryError:
            print("refused")
        more = np.ones(100 * 2**20, dtype=np.uint8)  # the process still works
        print("alive", int(more.sum() + small.sum()))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split("\n")
    assert lines[0] == f"limit {600 * 2**20}"
    assert lines[1] == "refused"
    assert lines[2] == f"alive {300 * 2**20}"


def test_a_ceiling_is_never_raised_by_a_later_call():
    code = textwrap.dedent(
        """
        from riskcore.workguard import apply_memory_ceiling
        apply_memory_ceiling(700 * 2**20)
        print(apply_memory_ceiling(900 * 2**20), apply_memory_ceiling(None))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.stdout.split() == [str(700 * 2**20)] * 2, out.stderr


def test_the_time_limit_is_read_from_the_environment():
    assert time_limit({}) == workguard.DEFAULT_SECONDS
    assert time_limit({"RISKCORE_TIME_LIMIT": "2.5"}) == 2.5
    for bad in ("0", "-3", "soon", "nan"):
        with pytest.raises(RiskcoreError, match="not a positive number"):
            time_limit({"RISKCORE_TIME_LIMIT": bad})


def test_a_deadline_lets_work_run_until_its_budget_is_spent():
    now = [100.0]
    deadline = Deadline(30, "The least-loss search", "pin some levels", clock=lambda: now[0])
    calls: list[tuple[int, int]] = []
    step = deadline.watch(lambda done, total: calls.append((done, total)))
    now[0] = 130.0  # exactly the budget: still allowed
    step(1, 10)
    now[0] = 130.5
    with pytest.raises(WorkTooLongError) as err:
        step(65, 10)
    assert calls == [(1, 10)]  # the callback after the deadline never ran
    message = str(err.value)
    assert message.startswith("The least-loss search was stopped after its time budget of 30 s")
    assert "pin some levels" in message and "RISKCORE_TIME_LIMIT" in message
