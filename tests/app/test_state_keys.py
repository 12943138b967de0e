"""Session-state and widget keys are names in one namespace (``ui.core.keys``), never literals.

A key written out as ``"rc_..."`` on a page drifts from the same key written on another
(a typo makes a second, silent key); so pages, ``ui`` modules and ``app.py`` name every
key through :mod:`ui.core.keys`, and the cached wrappers split over ``ui/cached*.py`` stay
reachable as ``cached.<name>``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT
from ui.core import cached, keys, state
from ui.core.cached import attacks as cached_attacks
from ui.core.cached import dp as cached_dp
from ui.core.cached import remediation as cached_remediation

# ui.core.keys, and the part of it kept in its own file (re-exported by ui.core.keys)
KEYS_MODULES = (
    ROOT / "ui" / "core" / "keys" / "__init__.py",
    ROOT / "ui" / "core" / "keys" / "report.py",
    ROOT / "ui" / "core" / "keys" / "workbench.py",
)
PREFIX = "rc_"


def _sources() -> list[Path]:
    files = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]
    return files + sorted(p for p in (ROOT / "ui").rglob("*.py") if p not in KEYS_MODULES)


def literal_keys(source: str) -> list[tuple[int, str]]:
    """Return (line, text) of every string constant starting with ``rc_`` in ``source``,
    and of every f-string whose head does (its first literal part)."""
    found = []
    heads = set()
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and node.values:
            head = node.values[0]
            if isinstance(head, ast.Constant) and str(head.value).startswith(PREFIX):
                heads.add(id(head))
                found.append((node.lineno, ast.unparse(node)))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value.startswith(PREFIX)
            and id(node) not in heads
        ):
            found.append((node.lineno, repr(node.value)))
    return sorted(found)


def test_the_check_finds_a_plain_key_an_f_string_key_and_a_key_passed_along():
    src = (
        'st.button("Go", key="rc_go")\n'
        'st.session_state[f"rc_level_{q}"] = 1\n'
        'run_gate(n, s, "Run", "rc_run")\n'
        'st.write("a prefix counts only at the start: not rc_this")\n'
        'st.write(f"{x} rc_not_a_head")\n'
    )
    assert [line for line, _ in literal_keys(src)] == [1, 2, 3]


@pytest.mark.parametrize("path", _sources(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_page_or_ui_module_writes_a_key_as_a_literal(path):
    found = literal_keys(path.read_text(encoding="utf-8"))
    assert not found, (
        f"{path.relative_to(ROOT)}: name these keys in ui/core/keys/ and use keys.<NAME> "
        "(or a function there for a key built from a pattern):\n"
        + "\n".join(f"  line {line}: {text}" for line, text in found)
    )


def test_every_key_constant_is_one_rc_string_of_its_own():
    """One name per key: two names for one string would be two homes again."""
    values: dict[str, str] = {}
    body = [n for m in KEYS_MODULES for n in ast.parse(m.read_text(encoding="utf-8")).body]
    for node in body:
        if isinstance(node, ast.Assign):
            (target,) = node.targets
            assert isinstance(target, ast.Name) and target.id.isupper(), ast.unparse(node)
            assert isinstance(node.value, ast.Constant), ast.unparse(node)
            value = node.value.value
            assert isinstance(value, str) and value.startswith(PREFIX), target.id
            assert value not in values.values(), (target.id, value)
            values[target.id] = value
        else:  # only constants, functions, the docstring and the future import
            assert isinstance(node, ast.FunctionDef | ast.Expr | ast.ImportFrom), ast.unparse(node)
    assert len(values) > 150


def test_keys_keep_their_strings():
    """The strings tests and saved sessions rely on (written as the app always wrote them)."""
    assert keys.DATASET == "rc_dataset"
    assert keys.REM_SECRET == "rc_rem_secret"  # noqa: S105 - a key name
    assert keys.VIEW_AFTER == "rc_view_after"
    assert keys.uploader(0) == "rc_upload"
    assert keys.uploader(2) == "rc_upload_2"
    assert keys.gate_button("rc_link_run") == "rc_link_run_button"
    assert keys.rem_level("age") == "rc_rem_level_age"
    assert keys.rem_widget("level_age") == keys.rem_level("age")
    assert keys.rem_operator("ssn") == "rc_rem_op_ssn"
    assert keys.rem_download("csv") == "rc_rem_csv"
    assert keys.rem_band_width("age", 3) == "rc_rem_hw_age_3"
    assert keys.rem_hierarchy_download("age") == "rc_rem_h_age"
    assert keys.target_widget("remediate", "k", "ab12") == "rc_tg_remediate_k:ab12"
    assert keys.t_distance("demo-1:diagnosis") == "rc_t_distance:demo-1:diagnosis"
    assert keys.roles_editor("0123456789abcdef-tail") == "rc_roles_editor_0123456789abcdef"
    assert keys.dp_source_name("f" * 64) == "rc_dp_source_" + "f" * 16
    assert keys.dp_sa_low("median") == "rc_dp_sa_lo_median"
    assert keys.saved_upload(1) == "rc_saved_upload_1"
    assert keys.story_chart(5) == "rc_story_5"


def test_ui_state_re_exports_the_session_keys():
    for name in ("DATASET", "UPLOADS", "ROLES", "ROLES_FOR", "TARGETS", "LAST_RELEASE"):
        assert getattr(state, name) == getattr(keys, name)


@pytest.mark.parametrize("module", [cached_attacks, cached_dp, cached_remediation])
def test_every_split_wrapper_is_reached_through_ui_cached(module):
    """Pages call ``cached.<name>``; ``cached.clear_session`` must drop each module's entries."""
    public = [n for n in vars(module) if not n.startswith("_")]
    wrappers = [n for n in public if callable(getattr(getattr(module, n), "clear", None))]
    assert wrappers and set(wrappers) <= set(module.__all__)
    for name in module.__all__:
        assert getattr(cached, name) is getattr(module, name), name
        assert name in cached.__all__, name


def test_clear_session_clears_every_wrapper_of_every_cached_module(monkeypatch):
    """A reset forgets the session's results in every module, each wrapper once."""
    cleared: list[str] = []
    everything = {}
    for module in (cached, cached_attacks, cached_dp, cached_remediation):
        for name, obj in vars(module).items():
            if hasattr(obj, "__wrapped__") and callable(getattr(obj, "clear", None)):
                everything[id(obj)] = name
    for module in (cached, cached_attacks, cached_dp, cached_remediation):
        for name, obj in vars(module).items():
            if id(obj) in everything:
                monkeypatch.setattr(obj, "clear", lambda name=name: cleared.append(name))
    cached.clear_session()
    assert len(everything) > 35
    assert sorted(cleared) == sorted(everything.values())


def test_ui_keys_re_exports_every_key_of_its_split_part():
    from ui.core.keys import report as keys_report

    public = [n for n in vars(keys_report) if not n.startswith("_") and n != "annotations"]
    assert len(public) > 20
    for name in public:
        assert getattr(keys, name) is getattr(keys_report, name), name
