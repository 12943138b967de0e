"""The hostile-file table (issue 17) at the command line: ``riskcore assess FILE --qi COL``.

Each file is refused with exit code 2 and its plain message on stderr (no traceback), or
assessed with exit code 0 and the figures worked out by hand in :mod:`tests.hostile_files`.
"""

from __future__ import annotations

import json
import re
import time

import pytest

from riskcore.cli import main
from tests.hostile_files import CASES, Case, bounded


def assess(case: Case, tmp_path, capsys) -> tuple[int, str, str]:
    path = tmp_path / case.file
    path.write_bytes(case.make())
    argv = ["assess", str(path), "--format", "json"]
    argv += [a for q in (case.qi or ("a",)) for a in ("--qi", q)]
    argv += [a for s in case.sensitive for a in ("--sensitive", s)]
    with bounded(seconds=60, mb=1_000):
        code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_cli_refuses_with_a_message_or_assesses_correctly(case, tmp_path, capsys):
    code, out, err = assess(case, tmp_path, capsys)
    assert "Traceback" not in out + err
    if case.error is not None:
        assert code == 2, (code, out, err)
        assert out == ""
        assert err.startswith(f"error: {case.file}"), err
        assert re.search(case.error, err), err
        return
    assert code == 0, err
    result = json.loads(out)
    assert result["quasi_identifiers"] == list(case.qi)
    figures = {k: v for k, v in result.items() if not isinstance(v, dict)}
    for s in case.sensitive:
        figures.update(result["sensitive"][s])
    assert {k: figures[k] for k in case.cli} == case.cli


def test_the_bounds_catch_a_slow_or_greedy_block():
    """Negative control of :func:`tests.hostile_files.bounded`: it sees time and memory."""
    with pytest.raises(AssertionError, match=r"took 0\.\d s \(bound 0\.05 s\)"):
        with bounded(seconds=0.05, mb=1_000):
            time.sleep(0.2)
    with pytest.raises(AssertionError, match=r"RSS grew by \d+ MB \(bound 100 MB\)"):
        with bounded(seconds=60, mb=100):
            block = bytearray(300_000_000)  # touched: 300 MB resident
            time.sleep(0.1)
            del block


def test_terminal_escape_codes_in_a_column_name_are_not_printed_raw(tmp_path, capsys):
    # a hostile file could print a green "PASS", move the cursor or hide a link (issue 26)
    green = "\x1b[32mPASS\x1b[0m"
    link = "\x1b]8;;http://127.0.0.9/\x1b\\x\x1b]8;;\x1b\\"
    name = f"age{green}{link}\r\u202e"
    path = tmp_path / "t.csv"
    path.write_text(f'"{name}",b\n1,2\n1,3\n', encoding="utf-8")
    code = main(["assess", str(path), "--qi", name])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    assert "age" in out
    for raw in ("\x1b", "\r", "\u202e"):
        assert raw not in out + err
    assert "\\x1b[32mPASS\\x1b[0m" in out  # shown, escaped
    code = main(["assess", str(path), "--qi", f"no{green}"])
    out, err = capsys.readouterr()
    assert code == 2 and "\x1b" not in err and "\\x1b[32mPASS" in err
