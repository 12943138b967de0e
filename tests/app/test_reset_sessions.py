"""Reset session forgets this session's cached results and never another user's (issue 18).

AppTest gives every app the same session id, so two sessions are made here by giving
Streamlit's session-scoped resource cache the id of the session that is running; a call
counter on the function behind ``ui.core.cached.suggestions`` then shows whose entries a reset
dropped. ``st.cache_resource.clear()`` in the reset would drop both sessions' entries.
"""

from __future__ import annotations

import ast
from collections import Counter

import pytest
from streamlit.runtime.caching import cache_resource_api
from streamlit.testing.v1 import AppTest

import ui.core.cached
from tests.app.helpers import APP, data_uploader
from tests.conftest import ROOT

CSV = b"age,sex,zip\n30,F,021\n31,M,022\n30,F,021\n45,M,023\n"


@pytest.fixture
def sessions(monkeypatch):
    """Return (run, calls): ``run(name, at)`` runs ``at`` as session ``name``, ``calls``
    counts the role suggestions each session computed (a cache miss)."""
    current = ["?"]
    calls: Counter[str] = Counter()
    monkeypatch.setattr(cache_resource_api, "get_session_id_or_throw", lambda: current[0])
    suggest = ui.core.cached.suggest_roles

    def counted(df, **options):
        calls[current[0]] += 1
        return suggest(df, **options)

    monkeypatch.setattr(ui.core.cached, "suggest_roles", counted)

    def run(name: str, at: AppTest) -> AppTest:
        current[0] = name
        at.run()
        assert not at.exception, at.exception
        return at

    return run, calls


def _upload(run, name: str) -> AppTest:
    at = run(name, AppTest.from_file(APP, default_timeout=60))
    data_uploader(at).set_value(("t.csv", CSV, "text/csv"))
    return run(name, at)


def _reset(run, name: str, at: AppTest) -> None:
    at.switch_page("app.py")
    run(name, at)
    next(b for b in at.sidebar.button if b.label == "Reset session").click()
    run(name, at)


def test_reset_keeps_the_other_sessions_cache_and_drops_its_own(sessions):
    run, calls = sessions
    a, b = _upload(run, "A"), _upload(run, "B")
    assert calls == {"A": 2, "B": 2}  # the demo and the upload, once each
    run("B", b)
    assert calls["B"] == 2  # a rerun is served from B's cache
    _reset(run, "A", a)
    run("B", b)
    assert calls["B"] == 2, "A's reset dropped B's cached results"
    # A forgot its upload: the same file again is computed again, not served from a cache
    assert calls["A"] == 3  # the demo after the reset
    data_uploader(a).set_value(("t.csv", CSV, "text/csv"))
    run("A", a)
    assert calls["A"] == 4, "A's reset left A's cached results of the upload behind"


def test_every_cached_wrapper_is_session_scoped_and_bounded():
    """A global cache would share one user's results with another; an unbounded one grows."""
    for path in [ROOT / "app.py", *(ROOT / "ui").rglob("*.py"), *(ROOT / "pages").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and ast.unparse(node.func) in (
                "st.cache_resource",
                "st.cache_data",
            ):
                kw = {k.arg: k.value for k in node.keywords}
                assert ast.literal_eval(kw["scope"]) == "session", (path.name, node.lineno)
                assert "max_entries" in kw, (path.name, node.lineno)
            if isinstance(node, ast.Attribute) and node.attr == "clear":
                # st.cache_resource.clear() / st.cache_data.clear() empty every user's cache
                assert ast.unparse(node.value) not in ("st.cache_resource", "st.cache_data")
