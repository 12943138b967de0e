"""A reload keeps the user's work (issue 27): the working profile is kept under the file's
SHA-256 once something changed (looking writes nothing), and the same file uploaded in a new
session offers "Restore your work from <time>"; restoring is a click. Never the data, never the
key. A page without an upload says it shows the demo.

AppTest runs a page alone after ``switch_page``; the router (app.py), which keeps the work
after each page, runs after :func:`_router`.
"""

from __future__ import annotations

import io
import sqlite3

from streamlit.testing.v1 import AppTest

from riskcore.criteria import Targets
from riskcore.demo import make_people
from riskcore.store.working import holds_work
from tests.app.helpers import (
    APP,
    data_uploader,
    roles_of,
    seen,
    set_roles,
    set_settings,
    settings_of,
)

QIS = ("age", "sex", "race", "marital_status", "education")


def _csv(n: int = 600, seed: int = 2) -> bytes:
    buf = io.StringIO()
    make_people(n, seed=seed).to_csv(buf, index=False)
    return buf.getvalue().encode()


def _ok(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def _router(at: AppTest) -> AppTest:
    _ok(at.switch_page("pages/data.py"))
    return _ok(at.switch_page("app.py"))


def _session(raw: bytes) -> AppTest:
    """A new browser session (a reload) that uploads ``raw`` on the Data page."""
    at = _router(_ok(AppTest.from_file(APP, default_timeout=60)))
    data_uploader(at).set_value(("people.csv", raw, "text/csv"))
    return _ok(at)


def _restore_buttons(at: AppTest) -> list:
    return [b for b in at.button if seen(b.label).startswith("Restore your work from ")]


def _rows(database) -> list[tuple]:
    with sqlite3.connect(database) as con:
        return con.execute("SELECT session, work FROM working_profiles").fetchall()


def test_looking_keeps_nothing(database):
    raw = _csv()
    at = _session(raw)
    for page in ("pages/uniqueness.py", "pages/anonymity.py", "pages/remediate.py"):
        _ok(at.switch_page(page))
        _router(at)
    assert not holds_work(database)
    assert not _restore_buttons(_session(raw))


def test_a_reload_offers_the_work_back_and_restores_it_on_a_click(database):
    raw = _csv()
    at = _session(raw)
    # the user's work: a role, the targets, Remediate levels and a masking choice
    roles = dict(roles_of(at))
    roles["workclass"] = "quasi_identifier"
    set_roles(at, roles)
    set_settings(at, targets=Targets.of(k=5))
    _ok(at.switch_page("pages/remediate.py"))
    at.select_slider(key="rc_rem_level_age").set_value(2)
    _ok(at)
    at.selectbox(key="rc_rem_op_ssn").set_value("mask_digits")
    _ok(at)
    _router(at)
    ((_, kept),) = _rows(database)
    people = make_people(600, seed=2)
    for col in ("name", "ssn", "date_of_birth"):  # never the data
        assert not [v for v in people[col].astype(str) if v in kept], col
    assert '"ssn": "mask_digits"' in kept and '"age": 2' in kept

    again = _session(raw)  # the reload: a new session, the same file
    assert roles_of(again) != roles  # nothing restored without a click
    (button,) = _restore_buttons(again)
    assert any("Work on this same file (same SHA-256) was kept on" in seen(i.value)
               for i in again.info)  # fmt: skip
    button.click()
    _ok(again)
    assert roles_of(again) == roles
    assert settings_of(again).targets == Targets.of(k=5)
    assert not _restore_buttons(again)  # offered once
    _ok(again.switch_page("pages/remediate.py"))
    assert again.select_slider(key="rc_rem_level_age").value == 2
    assert again.selectbox(key="rc_rem_op_ssn").value == "mask_digits"
    _router(again)
    assert len(_rows(database)) == 2  # the new session keeps its own; the first stays

    other = _session(_csv(seed=3))  # another file: nothing to offer
    assert not _restore_buttons(other)


def test_a_page_without_an_upload_says_it_shows_the_demo():
    at = _ok(AppTest.from_file(APP, default_timeout=60))
    for page in ("pages/data.py", "pages/report.py", "pages/uniqueness.py"):
        _ok(at.switch_page(page))
        assert any(seen(c.value).startswith("Showing the built-in demo data") for c in at.caption)
    at = _session(_csv())
    assert not any(seen(c.value).startswith("Showing the built-in demo") for c in at.caption)
