"""The session's profile settings and roles are frozen, typed values (issue 40, item 4).

The widgets keep what they set in one :class:`ui.core.profile.SessionSettings` and the
roles in a :class:`riskcore.roles.ColumnRoles`; they replace them through
:mod:`ui.core.profile`, never change them in place. The checks below read every page and
``ui`` module (a widget that writes into the settings fails them), the values themselves
(assigning raises), and the app (a widget's change is a new value; a profile reopened or
targets set elsewhere show in the target widgets).
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from riskcore.criteria import Targets
from riskcore.roles import ColumnRoles
from tests.app.helpers import demo_roles, run, seen, set_settings, settings_of
from tests.conftest import ROOT
from ui.core import keys
from ui.core import profile as session_profile
from ui.core.profile import SessionSettings

#: Methods that change a dict (or a list) in place.
MUTATING = frozenset({"setdefault", "pop", "popitem", "update", "clear", "__setitem__", "append"})
#: The session keys only ui/core/profile.py writes.
OWNED = frozenset({"TARGETS", "ROLES", "ROLES_FOR"})
PROFILE_MODULE = ROOT / "ui" / "core" / "profile.py"


def _sources() -> list[Path]:
    return [*sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "ui").rglob("*.py"))]


def _is_settings_call(node: ast.AST) -> bool:
    """``settings()``, ``profile.settings()`` or ``session_profile.settings()``."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    return (isinstance(f, ast.Name) and f.id == "settings") or (
        isinstance(f, ast.Attribute) and f.attr == "settings"
    )


def _owned_key(node: ast.AST) -> str | None:
    """The name of ``keys.<NAME>`` (or a bare ``NAME``) when it is a key only profile writes."""
    if isinstance(node, ast.Attribute) and node.attr in OWNED:
        return node.attr
    if isinstance(node, ast.Name) and node.id in OWNED:
        return node.id
    return None


def in_place_writes(source: str) -> list[tuple[int, str]]:
    """Return (line, text) of every change made in place to the session's settings: a
    subscript or attribute assigned, deleted or augmented, or a mutating method called, on
    ``settings()`` or on a name bound to it (its own fields included: ``tg.distances[...]``).
    """
    tree = ast.parse(source)
    bound = {  # names bound to settings(), anywhere in the module
        t.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign | ast.AnnAssign) and n.value is not None
        and _is_settings_call(n.value)
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
        if isinstance(t, ast.Name)
    }  # fmt: skip

    def is_settings(node: ast.AST) -> bool:
        while isinstance(node, ast.Attribute | ast.Subscript):  # tg.distances[...] is tg's
            node = node.value
        return _is_settings_call(node) or (isinstance(node, ast.Name) and node.id in bound)

    found = []
    for node in ast.walk(tree):
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        for t in targets:
            if isinstance(t, ast.Subscript | ast.Attribute) and is_settings(t.value):
                found.append((node.lineno, ast.unparse(node)))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in MUTATING
            and is_settings(node.func.value)
        ):
            found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


def owned_key_writes(source: str) -> list[tuple[int, str]]:
    """Return (line, text) of every write of ``st.session_state[keys.TARGETS / ROLES /
    ROLES_FOR]`` (assigned, deleted, ``setdefault`` or ``pop``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign | ast.Delete):
            targets = node.targets
        elif isinstance(node, ast.AugAssign):
            targets = [node.target]
        for t in targets:
            if isinstance(t, ast.Subscript) and _owned_key(t.slice):
                found.append((node.lineno, ast.unparse(node)))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in {"setdefault", "pop", "__setitem__", "update"}
            and node.args
            and _owned_key(node.args[0])
        ):
            found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


def test_the_checks_find_every_kind_of_write_in_place():
    src = (
        "tg = profile.settings()\n"
        'tg["missing"] = "any"\n'
        'settings()["targets"] = new\n'
        'settings().setdefault("hierarchy", {})["a:b"] = rows\n'
        'tg.pop("context", None)\n'
        'tg.distances["a:b"] = "ordered"\n'
        "tg.missing = 'any'\n"
        'del tg["context"]\n'
        "st.session_state[keys.ROLES] = mapping\n"
        "st.session_state.setdefault(TARGETS, {})\n"
        "st.session_state.pop(keys.ROLES_FOR, None)\n"
        'now = profile.settings().distances.get("a:b")\n'  # reads are fine
        "profile.update(missing='any')\n"
        "st.session_state[keys.PROFILE] = p\n"
    )
    assert [line for line, _ in in_place_writes(src)] == [2, 3, 4, 5, 6, 7, 8]
    assert [line for line, _ in owned_key_writes(src)] == [9, 10, 11]


@pytest.mark.parametrize("path", _sources(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_page_or_ui_module_changes_the_session_settings_in_place(path):
    found = in_place_writes(path.read_text(encoding="utf-8"))
    assert not found, (
        f"{path.relative_to(ROOT)} changes the session's settings in place; replace them "
        "through ui.core.profile (update, set_targets, set_distance, set_order):\n"
        + "\n".join(f"  line {line}: {text}" for line, text in found)
    )


@pytest.mark.parametrize(
    "path",
    [p for p in _sources() if p != PROFILE_MODULE],
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_only_the_profile_module_writes_the_settings_and_the_roles(path):
    found = owned_key_writes(path.read_text(encoding="utf-8"))
    assert not found, (
        f"{path.relative_to(ROOT)} writes the session's settings or roles itself; use "
        "ui.core.profile (update, set_roles, restore):\n"
        + "\n".join(f"  line {line}: {text}" for line, text in found)
    )


def test_the_session_settings_are_frozen():
    given = {"demo:income": "ordered"}
    s = SessionSettings(distances=given, orders={"demo:income": ["a", "b"]})
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.missing = "any"  # type: ignore[misc]
    with pytest.raises(TypeError):
        s.distances["demo:income"] = "equal"  # type: ignore[index]
    with pytest.raises(TypeError):
        s.hierarchies["demo:income"] = ()  # type: ignore[index]
    given["demo:income"] = "equal"  # the caller's dict is copied, not kept
    assert s.distances["demo:income"] == "ordered"
    assert s.orders["demo:income"] == ("a", "b")
    with pytest.raises(TypeError, match="Targets"):
        SessionSettings(targets={"k": 5})  # type: ignore[arg-type]


def test_update_replaces_the_settings_and_keeps_them_when_nothing_changed(monkeypatch):
    session: dict = {}
    monkeypatch.setattr(session_profile.st, "session_state", session)
    first = session_profile.settings()
    assert session[keys.TARGETS] is first and first.missing == "own"
    assert session_profile.update(missing="own") is first  # nothing changed: the same object
    session_profile.set_distance("demo", "income", "ordered")
    session_profile.set_order("demo", "income", ["low", "high"])
    now = session_profile.update(missing="any")
    assert now is session[keys.TARGETS] and now is not first
    assert (first.missing, dict(first.distances), dict(first.orders)) == ("own", {}, {})
    assert now.missing == "any" and now.widget_token == first.widget_token
    assert now.attributes("demo", ("income",)) == (
        {"income": "ordered"},
        {"income": ("low", "high")},
        {},
    )
    roles = session_profile.set_roles("demo", {"age": "quasi_identifier", "x": "other"})
    assert isinstance(roles, ColumnRoles) and session[keys.ROLES_FOR] == "demo"
    assert session_profile.set_roles("demo", {"age": "quasi_identifier", "x": "other"}) is roles
    assert session_profile.roles("demo") is roles and session_profile.roles("other") is None


def test_the_session_keeps_typed_values_and_a_widget_replaces_them():
    at = run("pages/anonymity.py", demo_roles(["age", "sex"], ["income"]))
    assert not at.exception, at.exception
    before = at.session_state[keys.TARGETS]
    assert isinstance(before, SessionSettings)
    assert isinstance(at.session_state[keys.ROLES], ColumnRoles)
    radio = next(r for r in at.radio if seen(r.label) == "a missing quasi-identifier value is")
    radio.set_value("any").run()
    assert not at.exception, at.exception
    after = settings_of(at)
    assert after is not before and (before.missing, after.missing) == ("own", "any")


def test_targets_set_elsewhere_show_in_the_target_widgets():
    """A reopened assessment or the release context sets the targets: the editor's widgets
    start again from them (a new widget token), on either page."""
    at = run("pages/anonymity.py", demo_roles(["age", "sex"], ["income"]))
    preset = next(w for w in at.selectbox if w.label == "Targets")
    assert preset.value == "k = 11"
    set_settings(at, targets=Targets.of(k=20, threshold=1 / 20, max_suppression=0.02))
    at.run()
    assert not at.exception, at.exception
    assert next(w for w in at.selectbox if w.label == "Targets").value == "k = 20"
    assert settings_of(at).targets.find("k-anonymity").k == 20
    at.switch_page("pages/remediate.py").run()
    assert next(w for w in at.selectbox if w.label == "Targets").value == "k = 20"


def test_a_reopened_profile_shows_in_the_widgets_of_its_settings(database):
    """Reopening a saved assessment makes its settings the session's: the policy and the
    sampling fraction widgets show the saved values, not the ones the session had set since
    (and the page does not write those back over them)."""
    from tests.app.test_saved_page import csv_bytes

    at = run()
    at.file_uploader(key=keys.uploader(0)).set_value(("people.csv", csv_bytes(300, 6), "text/csv"))
    at.run()
    at.switch_page("pages/anonymity.py").run()
    policy = "a missing quasi-identifier value is"
    fraction = "sampling fraction n/N of a sample (0 when the table is the whole population)"
    next(r for r in at.radio if seen(r.label) == policy).set_value("any").run()
    next(n for n in at.number_input if seen(n.label) == fraction).set_value(0.05).run()
    at.switch_page("pages/report.py").run()
    at.button(key=keys.REPORT_BUILD).click().run()
    at.text_input(key=keys.SAVE_NAME).set_value("any, 5%").run()
    at.button(key=keys.SAVE).click().run()
    assert not at.exception, at.exception
    at.switch_page("pages/anonymity.py").run()  # the session moves on
    next(r for r in at.radio if seen(r.label) == policy).set_value("own").run()
    next(n for n in at.number_input if seen(n.label) == fraction).set_value(0.0).run()
    assert (settings_of(at).missing, settings_of(at).sampling_fraction) == ("own", 0.0)
    at.switch_page("pages/saved.py").run()
    at.button(key=keys.SAVED_REOPEN).click().run()
    assert not at.exception, at.exception
    at.switch_page("pages/anonymity.py").run()
    assert not at.exception, at.exception
    assert next(r for r in at.radio if seen(r.label) == policy).value == "any"
    assert next(n for n in at.number_input if seen(n.label) == fraction).value == 0.05
    assert (settings_of(at).missing, settings_of(at).sampling_fraction) == ("any", 0.05)
