"""What a session holds after its tab closes: nothing that reaches its table."""

from __future__ import annotations

import ast

from tests.app.helpers import run
from tests.conftest import ROOT


def test_every_session_is_marked_to_end_with_its_tab(monkeypatch):
    """Streamlit keeps a disconnected session for a reconnect unless it is non-resumable;
    every session is marked once, so closing the tab shuts it down."""
    from ui.core import memory

    marked: list[str] = []

    class FakeRuntime:
        def mark_session_nonresumable(self, session_id: str) -> None:
            marked.append(session_id)

    monkeypatch.setattr(memory, "_runtime", FakeRuntime)
    at = run()
    at.run()
    at.switch_page("pages/uniqueness.py").run()
    assert marked == ["test session id"]  # once, for this session (AppTest's id)


CALLBACKS = {"format_func", "on_change", "on_click", "on_select"}


def test_no_page_hands_streamlit_a_function_of_its_own():
    """A function defined in a page script (a lambda or a def) holds the script's globals,
    and with them the page's table; Streamlit keeps widgets' format_funcs and callbacks
    until the session ends. Pages pass functions of imported modules only."""
    found = []
    for path in sorted((ROOT / "pages").glob("*.py")):
        tree = ast.parse(path.read_text())
        own = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            for kw in call.keywords:
                if kw.arg not in CALLBACKS:
                    continue
                v = kw.value
                if isinstance(v, ast.Lambda) or (isinstance(v, ast.Name) and v.id in own):
                    found.append(f"{path.name}:{kw.lineno} {kw.arg}={ast.unparse(v)[:60]}")
    message = "use a function from ui.core.formats (or another module):\n"
    assert not found, message + "\n".join(found)


def test_glibc_maps_large_arrays_on_their_own():
    """glibc's mmap threshold is pinned at 4 MiB (its dynamic rise kept a closed session's
    arrays in the heap arenas); mallopt returns 1 on success."""
    from ui.core import memory

    assert memory._fix_mmap_threshold() is True
    assert memory.MMAP_THRESHOLD == 4 << 20


def test_an_ended_sessions_state_lets_its_table_go(monkeypatch):
    """Streamlit's runtime loop keeps the last session it served reachable after the
    session ended (a loop variable of ``Runtime._loop_coroutine``), and with it the
    session's state: the Data page hands its context (the table, its codes) to a widget
    callback. Once the runtime says the session is no longer active, the memory thread's
    sweep empties that state, so nothing in it reaches the context; a live session is
    left alone."""
    import gc
    import weakref

    from ui.core import memory
    from ui.core.context import Context

    active = {"test session id": True}

    class FakeRuntime:
        def mark_session_nonresumable(self, session_id: str) -> None:
            pass

        def is_active_session(self, session_id: str) -> bool:
            return active.get(session_id, False)

    monkeypatch.setattr(memory, "_runtime", FakeRuntime)
    monkeypatch.setattr(memory, "_sessions", {})
    at = run()
    state, _ = memory._sessions["test session id"]
    held = [
        weakref.ref(arg)
        for meta in state._new_widget_state.widget_metadata.values()
        for arg in (meta.callback_args or ())
        if isinstance(arg, Context)
    ]
    assert held, "the Data page no longer hands a widget its context: pick another holder"

    assert memory.release_ended_sessions() == 0  # still active: nothing emptied
    assert "rc_dataset" in at.session_state
    del at
    gc.collect()
    assert any(ref() is not None for ref in held)  # the session's state still reaches it

    active["test session id"] = False  # the tab closed
    assert memory.release_ended_sessions() == 1
    assert all(ref() is None for ref in held)
    assert memory.release_ended_sessions() == 1  # emptied once more, then forgotten
    assert memory._sessions == {}
