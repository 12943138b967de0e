"""The key of the tokens and date shifts (issue 27): downloaded once as a key file and
confirmed saved before any keyed table is exported, or read from a key file the user keeps;
named by its check value; never in a profile, recipe, report, the database or the page.

Before: the key was shown once in a code box and gone on the next click, each session made a
new one, and the export caption pointed to "the key shown on the Direct identifiers tab".
"""

from __future__ import annotations

import hashlib
import hmac
import sqlite3

import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

from riskcore.deidentify.masking import SecretKey
from riskcore.deidentify.recipe.base import key_check
from riskcore.demo import make_people
from tests.app.helpers import APP, data_uploader, seen

KEY = bytes(range(32))
KEY_HEX = KEY.hex()


def _ok(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def _tokens_page(raw: bytes | None = None) -> AppTest:
    """Choose keyed tokens for the SSNs of the demo, or of an upload ``raw``."""
    at = _ok(AppTest.from_file(APP, default_timeout=60))
    if raw is not None:  # uploaded under the router, which keeps the work (test_work_survives)
        _ok(at.switch_page("pages/data.py"))
        _ok(at.switch_page("app.py"))
        data_uploader(at).set_value(("people.csv", raw, "text/csv"))
        _ok(at)
    _ok(at.switch_page("pages/remediate.py"))
    at.selectbox(key="rc_rem_op_ssn").set_value("hmac_tokens")
    return _ok(at)


def _downloads(at: AppTest) -> dict[str, bool]:
    return {seen(b.proto.label): b.proto.disabled for b in at.get("download_button")}


def _captions(at: AppTest) -> str:
    return " ".join(seen(c.value) for c in at.caption)


def _upload_key(at: AppTest, raw: bytes) -> AppTest:
    state = at.session_state
    n = int(state["rc_rem_key_uploads"]) if "rc_rem_key_uploads" in state else 0
    at.file_uploader(key=f"rc_rem_key_upload_{n}").set_value(("mine.hex", raw, "text/plain"))
    return _ok(at)


def _page_text(node) -> str:
    """Return every element of the page (tabs, expanders, the sidebar) as its proto's text."""
    children = getattr(node, "children", {}) or {}
    return str(getattr(node, "proto", "")) + "".join(_page_text(c) for c in children.values())


def _ssn_tokens(at: AppTest) -> list[str]:
    return next(d.value for d in at.dataframe if "ssn" in d.value.columns)["ssn"].tolist()


def test_a_new_key_is_offered_once_as_a_file_and_keyed_tables_wait_for_its_confirmation():
    at = _tokens_page()
    key = at.session_state["rc_rem_secret"]
    labels = _downloads(at)
    assert labels["Download the key file (offered once)"] is False
    # the tables holding tokens wait; the recipe (check value only) does not
    assert labels["Download the table with these identifiers (CSV): save the key file first "
                  "(Direct identifiers tab)"] is True  # fmt: skip
    assert [v for k, v in labels.items() if k.startswith("Download the generalized table")] == [
        True
    ]
    assert labels["Download the recipe (JSON)"] is False
    assert f"check value {key_check(key)} (made in this session)" in _captions(at)
    assert not at.code  # the key is no longer printed on the page
    at.checkbox(key="rc_rem_key_confirm").check()
    _ok(at)
    labels = _downloads(at)
    assert "Download the key file (offered once)" not in labels  # offered once
    assert labels["Download the table with these identifiers (CSV)"] is False
    # the export caption names the key file and its check value, never the key
    assert (
        f"--key-file KEY (the key file downloaded or uploaded on the Direct identifiers "
        f"tab, check value {key_check(key)})" in _captions(at)
    )


def test_an_uploaded_key_file_gives_the_same_tokens_in_every_session():
    ssns = make_people(32_561, seed=0)["ssn"].head(5)
    expected = [hmac.new(KEY, s.encode(), hashlib.sha256).hexdigest()[:16] for s in ssns]
    for _ in range(2):  # two sessions (a reload, next month's release) with the same file
        at = _tokens_page()
        made = at.session_state["rc_rem_secret"]
        assert _ssn_tokens(at) != expected  # a key made here
        _upload_key(at, (KEY_HEX + "\n").encode())
        assert at.session_state["rc_rem_secret"] == SecretKey(KEY) != made
        assert _ssn_tokens(at) == expected
        assert f"check value {key_check(KEY)} (read from your key file)" in _captions(at)
        labels = _downloads(at)  # the user keeps the file: nothing waits
        assert labels["Download the table with these identifiers (CSV)"] is False
        assert "Download the key file (offered once)" not in labels


def test_a_file_that_is_not_a_key_is_refused_without_quoting_it():
    at = _tokens_page()
    made = at.session_state["rc_rem_secret"]
    _upload_key(at, b"Jane Doe 123-45-6789 not a key")
    assert at.session_state["rc_rem_secret"] == made
    (err,) = [seen(e.value) for e in at.error]
    assert err.startswith("Not a key file") and "Jane" not in err and "6789" not in err


def test_the_key_is_in_no_profile_recipe_report_database_or_page(database):
    at = _tokens_page(make_people(600, seed=2).to_csv(index=False).encode())
    _upload_key(at, KEY_HEX.encode())
    at.selectbox(key="rc_rem_op_name").set_value("reversible_tokens")
    _ok(at)
    at.button(key="rc_rem_search").click()
    _ok(at)
    at.button(key="rc_rem_use").click()
    _ok(at)
    remediate_page = _page_text(at._tree)  # the Direct identifiers tab with its key panel
    assert f"check value {key_check(KEY)}" in remediate_page
    recipe = at.session_state["rc_remediation"]["recipe"]
    assert recipe["key_check"] == key_check(KEY)
    _ok(at.switch_page("pages/report.py"))
    at.button(key="rc_report_build").click()
    _ok(at)
    at.button(key="rc_save").click()
    _ok(at)
    built = at.session_state["rc_report"]
    # the router keeps the work for a reload (ui.core.work): with the key's check value only
    _ok(at.switch_page("pages/data.py"))
    _ok(at.switch_page("app.py"))
    with sqlite3.connect(database) as con:
        (kept,) = con.execute("SELECT work FROM working_profiles").fetchone()
    assert key_check(KEY) in kept and '"ssn": "hmac_tokens"' in kept
    # the history of the steps is kept and saved too (ui.widgets.remediate.history): the keyed
    # steps by their
    # operator, never by their key
    assert '"history"' in kept and '"operator": "hmac_tokens"' in kept
    assert '"operator": "reversible_tokens"' in built["profile"].to_json()
    assert built["report"].to_json().count(key_check(KEY)) >= 1  # the check value is recorded
    found = {
        "recipe": str(recipe),
        "profile": built["profile"].to_json(),
        "kept work": kept,
        "report": built["report"].to_json(),
        "database": b"".join(p.read_bytes() for p in database.parent.iterdir()).hex(),
        "database text": b"".join(p.read_bytes() for p in database.parent.iterdir()).decode(
            "latin-1"
        ),
        "remediate page": remediate_page,
        "report page": _page_text(at._tree),
        "session": " ".join(repr(v) for v in at.session_state._state.filtered_state.values()),
    }
    leaked = [where for where, text in found.items() if KEY_HEX in text.lower()]
    assert leaked == []


@pytest.fixture
def files(monkeypatch) -> dict[str, bytes]:
    """The files the page offers for download, by name (as the browser would save them)."""
    offered: dict[str, bytes] = {}
    keep = MemoryMediaFileStorage.load_and_get_id

    def load(self, data, mimetype, kind, filename=None):
        if filename is not None and isinstance(data, bytes):
            offered[filename] = data
        return keep(self, data, mimetype, kind, filename)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", load)
    return offered


def test_the_key_downloads_under_the_name_the_script_reads_and_counts_as_saved(files):
    """Issue 38 item 15: the key downloaded as people_key.hex while the History's script read
    people.key, and downloading it left "I have saved the key file" unticked (the docs say
    the offer ends when it is downloaded: the keyed tables waited on)."""
    at = _tokens_page(make_people(600, seed=2).to_csv(index=False).encode())
    key = at.session_state["rc_rem_secret"]
    (name,) = [n for n, data in files.items() if data == (key.reveal_hex() + "\n").encode()]
    (script,) = [data.decode() for n, data in files.items() if n.endswith("_steps.sh")]
    assert f"--key-file {name}\n" in script and f'in "{name}"' in script
    assert at.checkbox(key="rc_rem_key_confirm").value is False
    at.download_button(key="rc_rem_key_download").click()
    _ok(at)
    assert at.checkbox(key="rc_rem_key_confirm").value is True
    labels = _downloads(at)
    assert "Download the key file (offered once)" not in labels  # offered once
    assert labels["Download the table with these identifiers (CSV)"] is False
