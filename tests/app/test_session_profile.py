"""AppTest: the session keeps one frozen ``Profile`` (issue 40, item 4), never remade, written or
read again as JSON on a rerun that changes nothing, and replaced when a setting changes."""

from __future__ import annotations

import pytest

from riskcore.criteria import Targets
from riskcore.profile import Profile
from tests.app.helpers import (
    demo_roles,
    hospital_app,
    run,
    seen,
    set_roles,
    set_settings,
    settings_of,
)
from ui.core import keys

QIS = ["age", "sex"]


@pytest.fixture
def profile_calls(monkeypatch):
    """Count the profiles made (``Profile.__init__``) and read (``Profile.from_dict``)."""
    calls = {"made": 0, "read": 0}
    made, read = Profile.__init__, Profile.from_dict.__func__

    def counted_init(self, *args, **kwargs):
        calls["made"] += 1
        made(self, *args, **kwargs)

    def counted_read(cls, data):
        calls["read"] += 1
        return read(cls, data)

    monkeypatch.setattr(Profile, "__init__", counted_init)
    monkeypatch.setattr(Profile, "from_dict", classmethod(counted_read))
    return calls


def test_the_data_page_leaves_the_session_its_profile_object():
    at = run("pages/data.py")
    set_roles(at, demo_roles(QIS, ["income"]))  # as the role editor writes
    at.run()
    assert not at.exception, at.exception
    prof = at.session_state[keys.PROFILE]
    assert isinstance(prof, Profile)
    assert prof.roles.quasi_identifiers == tuple(QIS)
    assert prof.roles.sensitive == ("income",)
    # the same object on the next page: nothing it is made of changed
    at.switch_page("pages/uniqueness.py").run()
    assert not at.exception, at.exception
    assert at.session_state[keys.PROFILE] is prof


def test_a_rerun_that_changes_nothing_makes_and_reads_no_profile(profile_calls):
    at = run("pages/anonymity.py", demo_roles(QIS))
    prof = at.session_state[keys.PROFILE]
    key = prof.cache_key
    profile_calls.update(made=0, read=0)
    at.run()
    at.run()
    assert not at.exception, at.exception
    assert profile_calls == {"made": 0, "read": 0}
    assert at.session_state[keys.PROFILE] is prof and prof.cache_key == key


def test_a_rerun_on_an_upload_writes_no_profile_json(profile_calls, monkeypatch):
    """On an upload the router keeps the session's work after each page (ui.core.work): it takes
    the profile's values, not its JSON written and parsed again."""
    written = []
    to_json = Profile.to_json
    monkeypatch.setattr(Profile, "to_json", lambda self: written.append(1) or to_json(self))
    at = hospital_app()
    at.switch_page("pages/data.py").run()
    at.switch_page("app.py").run()  # the router: the page, then the work kept (its first look)
    assert not at.exception, at.exception
    assert "hospital.csv" in [t.value for t in at.sidebar.text]
    written.clear()
    profile_calls.update(made=0, read=0)
    at.run()
    assert not at.exception, at.exception
    assert at.session_state[keys.work("base")]["for"] == at.session_state[keys.DATASET]["key"]
    assert (len(written), profile_calls["made"], profile_calls["read"]) == (0, 0, 0)


def test_a_setting_replaces_the_profile_with_an_updated_copy():
    at = run("pages/anonymity.py", demo_roles(QIS))
    before = at.session_state[keys.PROFILE]
    radio = next(r for r in at.radio if seen(r.label) == "a missing quasi-identifier value is")
    radio.set_value("any").run()
    assert not at.exception, at.exception
    after = at.session_state[keys.PROFILE]
    assert (before.missing, after.missing) == ("own", "any")
    assert after.roles == before.roles and after.targets == before.targets
    assert after.cache_key != before.cache_key


@pytest.mark.parametrize("page", ["pages/records.py", "pages/remediate.py"])
def test_the_cached_wrappers_take_the_profile_not_its_json(page, profile_calls):
    """The per-record table (Records) and the lattice (Remediate) are computed here, their
    caches empty: neither reads a profile from JSON."""
    at = run(page, demo_roles(QIS))
    assert not at.exception, at.exception
    assert profile_calls["read"] == 0


@pytest.fixture
def written(monkeypatch):
    """Count the profiles written out (``Profile.to_dict``: its JSON and its ``cache_key``)."""
    calls = []
    to_dict = Profile.to_dict
    monkeypatch.setattr(Profile, "to_dict", lambda self: calls.append(1) or to_dict(self))
    return calls


def test_a_report_rerun_that_changes_nothing_writes_no_profile(profile_calls, written):
    """The Report page keeps the Profile it built from and judges staleness by its cache key:
    its JSON is written for the download and the save only."""
    at = run("pages/report.py", demo_roles(QIS))
    at.button(key=keys.REPORT_BUILD).click().run()
    assert not at.exception, at.exception
    assert at.session_state[keys.REPORT]["profile"] is at.session_state[keys.PROFILE]
    written.clear()
    profile_calls.update(made=0, read=0)
    at.run()
    at.run()
    assert not at.exception, at.exception
    assert (len(written), profile_calls["made"], profile_calls["read"]) == (0, 0, 0)
    assert not any("changed since this report was built" in w.value for w in at.warning)


def test_a_report_is_stale_after_a_target_change_and_fresh_once_it_is_undone():
    at = run("pages/report.py", demo_roles(QIS))
    at.button(key=keys.REPORT_BUILD).click().run()
    targets = settings_of(at).targets
    set_settings(at, targets=Targets.of(k=3))
    at.run()
    assert any("changed since this report was built" in w.value for w in at.warning)
    assert at.button(key=keys.SAVE).disabled
    set_settings(at, targets=targets)  # equal profiles, equal cache keys
    at.run()
    assert not at.exception, at.exception
    assert not any("changed since this report was built" in w.value for w in at.warning)
    assert not at.button(key=keys.SAVE).disabled


def test_a_uniqueness_rerun_that_changes_nothing_makes_no_profile(profile_calls, written):
    """The record explorer's cover judges by a k-only profile kept in the session: a rerun
    neither makes it again nor writes it for its cache key."""
    at = run("pages/uniqueness.py", demo_roles(QIS))
    assert not at.exception, at.exception
    assert any("in a class of" in seen(m.value) for m in at.markdown)  # the cover, judged
    profile_calls.update(made=0, read=0)
    written.clear()
    at.run()
    at.run()
    assert not at.exception, at.exception
    assert (len(written), profile_calls["made"], profile_calls["read"]) == (0, 0, 0)
