"""A real OpenID Connect login in Chromium: two people, the approval rule, the audit log.

The tests start a real provider on loopback (``oidc-provider-mock``, Authlib's
server: discovery, authorization code flow, signed ID tokens, RP-initiated
logout) and the app with a ``secrets.toml`` of their own (``[auth]`` pointing
at it, ``[riskcore.roles]`` naming the reviewer), then: Ana (roles claim
``analyst`` and ``reviewer``) logs in, saves an assessment and is refused its
approval (her own, whatever her roles); she logs out; Rev (a reviewer by the
secrets' list, no roles claim) logs in and approves it. The audit log names
both subjects, read back from the database. No request of the app leaves
loopback (the provider's own pages link a stylesheet on a CDN: refused, and
the only outside request allowed to be attempted). A second test withdraws a
reviewer role at the provider after a day-old login (issue 37.9).
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from riskcore.demo import make_people
from riskcore.store import Store
from tests import live
from tests.browser_helpers import CHROMIUM, TIMEOUT, goto, shot, upload, wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.subprocess]

ANA = {
    "sub": "ana",
    "name": "Ana Analyst",
    "email": "ana@example.org",
    "roles": ["analyst", "reviewer"],
}
REV = {"sub": "rev", "name": "Rev Iewer", "email": "rev@example.org"}
# the provider's pages (not the app's) link this stylesheet; it is refused like any other
PROVIDER_CSS = "https://cdn.jsdelivr.net/npm/@picocss/"


def _wait(url: str, timeout: float = 30.0) -> None:
    t0 = time.perf_counter()
    while True:
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            if time.perf_counter() - t0 > timeout:
                pytest.fail(f"{url} did not answer within {timeout:g} s")
            time.sleep(0.1)


@pytest.fixture(scope="module")
def provider():
    """Start oidc-provider-mock on a free loopback port; yield its issuer URL."""
    port = live.free_port()
    command = [sys.executable, "-m", "oidc_provider_mock", "--port", str(port)]
    for user in (ANA, REV):
        command += ["--user-claims", json.dumps(user)]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    issuer = f"http://127.0.0.1:{port}"
    try:
        _wait(f"{issuer}/.well-known/openid-configuration")
        yield issuer
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@pytest.fixture(scope="module")
def login_app(provider, tmp_path_factory):
    """Start the app with a login at ``provider``; yield (URL, database path)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    folder = tmp_path_factory.mktemp("login")
    port = live.free_port()
    conf = folder / "secrets.toml"
    conf.write_text(
        "[auth]\n"
        f'redirect_uri = "http://localhost:{port}/oauth2callback"\n'
        f'cookie_secret = "{secrets.token_hex(32)}"\n'
        'client_id = "riskcore-test"\n'
        'client_secret = "not-a-secret"\n'
        f'server_metadata_url = "{provider}/.well-known/openid-configuration"\n'
        "\n[riskcore.roles]\n"
        'reviewers = ["rev"]\n'
        f'issuer = "{provider}"\n',
        encoding="utf-8",
    )
    db = folder / "r.db"
    try:
        with live.serve(
            port=port, env={"RISKCORE_DB": str(db)}, options=["--secrets.files", str(conf)]
        ) as (url, _, _):
            yield url, db
    except RuntimeError as exc:
        pytest.fail(str(exc))


def _people(folder: Path) -> Path:
    path = folder / "people.csv"
    make_people(400, seed=7).to_csv(path, index=False)
    return path


def _log_in(page, url: str, sub: str) -> None:
    page.goto(url)
    wait_idle(page)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/oauth2/authorize**", wait_until="commit")  # the provider's form
    page.get_by_role("button", name=sub, exact=True).click()
    page.wait_for_url(f"{url}/**")
    wait_idle(page)
    page.get_by_text("Logged in as").first.wait_for()


def _log_out(page, url: str) -> None:
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url("**/oauth2/end_session**", wait_until="commit")  # RP-initiated logout
    page.get_by_role("button", name="End session").click()
    page.wait_for_url(f"{url}/**")
    wait_idle(page)
    page.get_by_role("button", name="Log in").wait_for()


def _approve_tab(page, url: str) -> None:
    goto(page, url, "Saved assessments")
    page.get_by_role("tab", name="Approve").click()
    wait_idle(page)


def test_two_logins_show_the_approval_rule(login_app, provider, browser):
    url, db = login_app
    outside: list[str] = []

    def route(r):
        host = r.request.url.split("/")[2].split(":")[0]
        if host in ("localhost", "127.0.0.1") or r.request.url.startswith(("data:", "blob:")):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT)
    page.route("**/*", route)
    try:
        # nobody logged in: the login page alone, no page of the app, no name box
        page.goto(url)
        wait_idle(page)
        page.get_by_role("button", name="Log in").wait_for()
        assert page.get_by_text("Your name (for the audit log)").count() == 0
        assert page.locator('[data-testid="stFileUploader"]').count() == 0
        shot(page, "login_required")

        # Ana saves an assessment of a small table (the demo's 32,561 rows take a minute)
        _log_in(page, url, "ana")
        upload(page, _people(db.parent))
        page.get_by_text("people.csv").first.wait_for()
        goto(page, url, "Report")
        page.get_by_role("button", name="Build the report").click()
        wait_idle(page)
        page.get_by_text("Logged in as Ana Analyst").first.wait_for()
        page.get_by_role("button", name="Save this assessment").click()
        wait_idle(page)
        page.get_by_text("Saved as #1").wait_for()
        shot(page, "login_report_saved")

        # ... and cannot approve it, reviewer though she is
        _approve_tab(page, url)
        page.get_by_text("cannot approve their own work").wait_for()
        assert page.get_by_role("button", name="Approve", exact=True).is_disabled()
        shot(page, "login_own_refused")
        _log_out(page, url)

        # Rev, a reviewer by the secrets' list, approves it
        _log_in(page, url, "rev")
        _approve_tab(page, url)
        page.get_by_text("Saved by Ana Analyst").wait_for()
        page.get_by_role("button", name="Approve", exact=True).click()
        wait_idle(page)
        page.get_by_text("Approved #1").wait_for()
        shot(page, "login_reviewer_approved")
        page.get_by_role("tab", name="Audit log").click()
        wait_idle(page)
        shot(page, "login_audit_log")
    finally:
        ctx.close()

    assert {u for u in outside if not u.startswith(PROVIDER_CSS)} == set()
    entries = Store(db).audit()
    who = {(e.action, e.changes["identity"]["subject"]) for e in entries if "identity" in e.changes}
    assert ("save", "ana") in who and ("approve", "rev") in who
    approve = next(e for e in entries if e.action == "approve")
    assert approve.changes["identity"]["issuer"] == provider  # the token's iss, proven
    assert approve.changes["identity"]["roles"] == ["reviewer"]
    assert approve.changes["author"].startswith("Ana Analyst <ana@example.org> (subject ana at")
    saved = Store(db).load(1)
    assert saved.user.startswith("Ana Analyst") and saved.results["built_by"] == saved.user
    assert Store(db).verify().ok


def _provider_sets(provider: str, sub: str, claims: dict) -> None:
    """Set a user's claims at the provider (oidc-provider-mock's PUT /users/SUB)."""
    req = urllib.request.Request(
        f"{provider}/users/{sub}",
        data=json.dumps(claims).encode(),
        method="PUT",
        headers={"Content-Type": "application/json"},
    )
    urllib.request.urlopen(req, timeout=10).read()


def _authorize_as(page, url: str, sub: str) -> None:
    """On the provider's form, log in as ``sub`` (typed: not one of the predefined users)."""
    page.wait_for_url("**/oauth2/authorize**", wait_until="commit")
    page.get_by_placeholder("sub").fill(sub)
    page.get_by_role("button", name="Authorize").click()
    page.wait_for_url(f"{url}/**")
    wait_idle(page)
    page.get_by_text("Logged in as").first.wait_for()


def test_a_reviewer_role_withdrawn_since_the_login_no_longer_approves(login_app, provider, browser):
    """Issue 37.9: Streamlit keeps a login's roles in its cookie for 30 days. Old logs in as a
    reviewer (the roles claim) with a token issued a day ago: the app asks for a new login
    before approving. The provider withdraws the role meanwhile; the new login reads that,
    and Old is refused as no reviewer. Without the age limit, Old would have approved."""
    from riskcore.store.identity import Identity

    url, db = login_app
    author = Identity.from_claims({"sub": "ana2", "iss": provider, "name": "Ana Two"})
    aid = Store(db).save("for Old", fingerprint="cd" * 32, profile={}, results={}, user=author)
    day_ago = int(time.time()) - 86_400
    _provider_sets(provider, "old", {"name": "Old Reviewer", "roles": ["reviewer"], "iat": day_ago})
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT)
    try:
        page.goto(url)
        wait_idle(page)
        page.get_by_role("button", name="Log in").click()
        _authorize_as(page, url, "old")
        page.get_by_text("roles: reviewer").first.wait_for()
        _approve_tab(page, url)  # the newest assessment, Ana Two's, is chosen first
        page.get_by_text("Saved by Ana Two").wait_for()
        page.get_by_text("Log in again to approve").wait_for()
        assert page.get_by_role("button", name="Approve", exact=True).is_disabled()
        shot(page, "login_stale_refused")
        # the Report page's Sign control is closed to it too, with the same way out
        goto(page, url, "Data")
        upload(page, _people(db.parent))
        page.get_by_text("people.csv").first.wait_for()
        goto(page, url, "Report")
        page.get_by_role("button", name="Build the report").click()
        wait_idle(page)
        page.get_by_text("Log in again to sign").wait_for()
        assert page.get_by_role("button", name="Sign the PDF and the JSON twin").is_disabled()
        page.get_by_text("Log in again to sign").scroll_into_view_if_needed()
        shot(page, "login_stale_sign")
        _approve_tab(page, url)
        # the provider withdraws the role; the new login reads the provider's current claims
        _provider_sets(provider, "old", {"name": "Old Reviewer"})
        page.get_by_role("button", name="Log in again").click()
        _authorize_as(page, url, "old")
        page.get_by_text("roles: no role").first.wait_for()
        _approve_tab(page, url)
        page.get_by_text("Only a reviewer approves").wait_for()
        assert page.get_by_role("button", name="Approve", exact=True).is_disabled()
        shot(page, "login_role_withdrawn")
    finally:
        ctx.close()
    assert not [e for e in Store(db).audit() if e.action == "approve" and e.changes["id"] == aid]
