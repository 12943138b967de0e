"""AppTest: the login gate, the sidebar's identity and the Approve tab, with and without a
login configured (``[auth]`` in the secrets; ``st.user`` seeded as AppTest allows).

The real login against a real OpenID Connect provider is the browser test
(tests/browser/test_login.py); these check the pages' branches quickly.
"""

from __future__ import annotations

import time

from streamlit.testing.v1 import AppTest

from riskcore.store import Store
from riskcore.store.identity import Identity
from tests.app.helpers import APP, seen

ISS = "http://127.0.0.1:9400"
AUTH = {
    "redirect_uri": "http://localhost:8501/oauth2callback",
    "cookie_secret": "x" * 32,
    "client_id": "riskcore",
    "client_secret": "s",
    "server_metadata_url": f"{ISS}/.well-known/openid-configuration",
}
ANA = {"sub": "ana", "iss": ISS, "name": "Ana", "roles": ["analyst"]}
REV = {"sub": "rev", "iss": ISS, "name": "Rev", "roles": ["reviewer"]}


def seed(database, claims=ANA) -> int:
    """Save one assessment as the login ``claims`` (an analyst by default)."""
    who = Identity.from_claims(claims)
    return Store(database).save("march", fingerprint="ab" * 32, profile={}, results={}, user=who)


def app(user=None, secrets=None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    if secrets is not None:
        at.secrets.update(secrets)
    if user is not None:  # a login just made (its ID token issued now) unless user says when
        fresh = {"is_logged_in": True, "iat": int(time.time())}
        at.user = {**fresh, **user} if user else {"is_logged_in": False}
    return at


def approve_tab(at: AppTest) -> AppTest:
    """Run the router (its sidebar is checked on this run), then the Saved page alone."""
    at.run()
    assert not at.exception, at.exception
    at.sidebar_seen = [seen(c.value) for c in at.sidebar.caption] + [  # type: ignore[attr-defined]
        t.label for t in at.sidebar.text_input
    ]
    at.switch_page("pages/saved.py").run()
    assert not at.exception, at.exception
    return at


def test_without_a_login_nobody_approves_and_the_page_says_why(database):
    seed(database)
    at = approve_tab(app())
    assert at.button(key="rc_saved_approve").disabled
    assert any("Nobody can approve without a login" in seen(i.value) for i in at.info)
    assert any("Not logged in" in seen(c.value) for c in at.caption)
    assert "Your name (for the audit log)" in at.sidebar_seen


def test_with_a_login_configured_nothing_runs_before_it(database):
    at = app(user={}, secrets={"auth": AUTH}).run()
    assert not at.exception, at.exception
    assert [b.label for b in at.button] == ["Log in"]
    assert not at.file_uploader and not at.sidebar.text_input  # no page, no name box
    assert not database.exists()  # nothing was written


def test_a_reviewer_approves_an_analysts_assessment(database):
    aid = seed(database)
    at = approve_tab(app(user=REV, secrets={"auth": AUTH}))
    assert "Your name (for the audit log)" not in at.sidebar_seen  # a login: no name to type
    assert any(c.startswith("Logged in as Rev (subject rev at") for c in at.sidebar_seen)
    assert not at.button(key="rc_saved_approve").disabled
    at.button(key="rc_saved_approve").click().run()
    assert not at.exception, at.exception
    assert any("Approved #" in seen(s.value) for s in at.success)
    last = Store(database).audit()[-1]
    assert (last.action, last.changes["id"]) == ("approve", aid)
    assert last.changes["identity"]["subject"] == "rev"
    assert last.changes["identity"]["roles"] == ["reviewer"]


def test_the_analyst_cannot_approve_their_own(database):
    seed(database, {**ANA, "roles": ["analyst", "reviewer"]})  # a reviewer too: still refused
    at = approve_tab(app(user={**ANA, "roles": ["analyst", "reviewer"]}, secrets={"auth": AUTH}))
    assert at.button(key="rc_saved_approve").disabled
    assert any("cannot approve their own" in seen(i.value) for i in at.info)


def test_the_reviewers_list_of_the_secrets_gives_the_role(database):
    seed(database)
    who = {"sub": "rev", "iss": ISS}  # no role claim at all
    conf = {"auth": AUTH, "riskcore": {"roles": {"reviewers": ["rev"], "issuer": ISS}}}
    assert not approve_tab(app(user=who, secrets=conf)).button(key="rc_saved_approve").disabled
    plain = approve_tab(app(user=who, secrets={"auth": AUTH}))
    assert plain.button(key="rc_saved_approve").disabled
    assert any("Only a reviewer approves" in seen(i.value) for i in plain.info)


def test_with_a_login_only_a_reviewer_may_sign_the_report():
    from tests.riskcore.signing import make_key

    p12, _, _ = make_key("Rita Reviewer")
    for claims, allowed in ((ANA, False), (REV, True)):
        at = app(user=claims, secrets={"auth": AUTH})
        at.run()
        at.switch_page("pages/report.py").run()
        at.button(key="rc_report_build").click().run()
        assert not at.exception, at.exception
        at.file_uploader(key="rc_sign_key_file").set_value(
            ("reviewer.p12", p12, "application/x-pkcs12")
        ).run()
        assert at.button(key="rc_sign").disabled is (not allowed)
        refused = [seen(i.value) for i in at.info if "Only a reviewer signs" in seen(i.value)]
        assert bool(refused) is (not allowed)


def test_a_reviewer_logged_in_a_day_ago_is_asked_to_log_in_again(database):
    """Issue 37.9: the cookie keeps a login's roles for 30 days; approving and signing need a
    login at most MAX_LOGIN_AGE_MINUTES old, so a role withdrawn since is read afresh."""
    from tests.riskcore.signing import make_key

    seed(database)
    day_old = {**REV, "iat": int(time.time()) - 86_400}
    at = approve_tab(app(user=day_old, secrets={"auth": AUTH}))
    assert at.button(key="rc_saved_approve").disabled
    assert any("Log in again to approve" in seen(i.value) for i in at.info)
    assert at.button(key="rc_login_again").label == "Log in again"
    assert [e.action for e in Store(database).audit()] == ["save"]  # nothing approved
    # the Report page's Sign control: closed too, with the same way out
    p12, _, _ = make_key("Rita Reviewer")
    at = app(user=day_old, secrets={"auth": AUTH})
    at.run()
    at.switch_page("pages/report.py").run()
    at.button(key="rc_report_build").click().run()
    at.file_uploader(key="rc_sign_key_file").set_value(
        ("reviewer.p12", p12, "application/x-pkcs12")
    ).run()
    assert not at.exception, at.exception
    assert at.button(key="rc_sign").disabled
    assert any("Log in again to sign" in seen(i.value) for i in at.info)
    assert at.button(key="rc_login_again").label == "Log in again"


def test_the_cookie_lifetime_the_docs_state_is_streamlits():
    """SECURITY.md and docs/identity.md explain the login age limit by Streamlit's fixed 30-day
    login cookie: when Streamlit changes it, the explanation must change too."""
    from streamlit.web.server.starlette.starlette_server_config import (
        AUTH_COOKIE_MAX_AGE_SECONDS,
    )

    from tests.conftest import ROOT

    assert AUTH_COOKIE_MAX_AGE_SECONDS == 30 * 24 * 3600
    for doc in ("SECURITY.md", "docs/identity.md"):
        assert "30 days" in (ROOT / doc).read_text(encoding="utf-8"), doc
