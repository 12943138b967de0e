"""Identity: who an entry names, roles from a claim or a list, and the four-eyes approval rule."""

from __future__ import annotations

import json
import sqlite3
import time
from contextlib import closing
from datetime import UTC, datetime, timedelta

import pytest

from riskcore.errors import RiskcoreError
from riskcore.report.readings.identity import (
    APPROVAL_SENTENCES,
    approval_reading,
    approval_status_reading,
    identity_reading,
)
from riskcore.store import Store
from riskcore.store.database import user_name
from riskcore.store.identity import (
    APPROVAL_REASONS,
    MAX_LOGIN_AGE_MINUTES,
    ApprovalRefusedError,
    Identity,
    RoleConfig,
    clean,
    may_approve,
    may_sign,
)

ISS = "http://127.0.0.1:9400"
FP = "ab" * 32
#: When the logins below were issued (their ID tokens' iat); the clock is held a minute later.
IAT = int(time.time())
NOW = datetime.fromtimestamp(IAT + 60, UTC)


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    """Hold the rule's clock a minute after the logins: the session may run long."""
    monkeypatch.setattr("riskcore.store.identity._now", lambda: NOW)


def login(sub, roles=(), iss=ISS, **claims):
    claims = {"sub": sub, "iss": iss, "roles": list(roles), "iat": IAT, **claims}
    return Identity.from_claims(claims)


ANA = login("ana", ["analyst"], name="Ana Analyst", email="ana@example.org")
REV = login("rev", ["reviewer"], name="Rev Iewer")
BOTH = login("ana", ["analyst", "reviewer"])  # Ana, also a reviewer
NOBODY = Identity.unauthenticated("Ana")


# ---- the rule: every branch, in the order it is checked ----


@pytest.mark.parametrize(
    ("approver", "author", "done", "reason"),
    [
        (REV, ANA, [], "allowed"),
        (NOBODY, ANA, [], "unauthenticated"),
        (Identity.unauthenticated(None), ANA, [], "unauthenticated"),
        (ANA, REV, [], "not_reviewer"),  # an analyst approves nobody's
        (login("x"), ANA, [], "not_reviewer"),  # a login without a role
        (BOTH, ANA, [], "own"),  # a reviewer who saved it: their own, whatever the roles
        (REV, REV, [], "own"),
        (REV, None, [], "author_unproven"),
        (REV, NOBODY, [], "author_unproven"),
        (REV, ANA, [REV], "already"),
        (REV, ANA, [login("other", ["reviewer"])], "allowed"),
    ],
)
def test_the_approval_rule(approver, author, done, reason):
    d = may_approve(approver, author, done)
    assert (d.allowed, d.reason) == (reason == "allowed", reason)


def test_the_same_subject_at_another_issuer_is_another_person():
    # OIDC Core 2: sub is unique within its issuer only; the pair is the identity
    elsewhere = login("ana", ["reviewer"], iss="https://idp.other.example")
    assert may_approve(elsewhere, ANA).allowed
    assert not may_approve(login("ana", ["reviewer"]), ANA).allowed


def test_every_reason_has_a_sentence():
    assert set(APPROVAL_SENTENCES) == set(APPROVAL_REASONS)
    assert "own" in approval_reading("own")


# ---- identities, labels and roles ----


def test_labels_say_proven_or_not():
    assert ANA.label == f"Ana Analyst <ana@example.org> (subject ana at {ISS})"
    assert login("s").label == f"subject s at {ISS}"
    assert NOBODY.label == "unauthenticated: Ana"
    assert Identity.unauthenticated("  ").label == "unauthenticated"
    assert user_name(NOBODY) == "unauthenticated: Ana"
    assert user_name(None).startswith("unauthenticated")  # blank: never a bare system name
    assert user_name(" bo ") == "bo"  # a library caller's own name, kept as given


def test_a_login_needs_subject_and_issuer():
    with pytest.raises(RiskcoreError, match="sub"):
        Identity.from_claims({"iss": ISS})
    with pytest.raises(RiskcoreError, match="iss"):
        Identity.from_claims({"sub": "x"})


def test_claims_lose_control_and_bidi_characters():
    evil = login("x", name="Eve\u202efdp.exe\x1b[32m PASS\nline")
    assert evil.name == "Evefdp.exe[32m PASS line"
    assert clean("a" * 500) == "a" * 200


@pytest.mark.parametrize(
    ("claims", "config", "roles"),
    [
        ({"roles": ["reviewer", "other"]}, RoleConfig(), ("reviewer",)),
        ({"roles": "analyst, reviewer"}, RoleConfig(), ("analyst", "reviewer")),
        ({"groups": ["reviewer"]}, RoleConfig(claim="groups"), ("reviewer",)),
        ({"roles": ["reviewer"]}, RoleConfig(claim="groups"), ()),  # another claim is ignored
        ({}, RoleConfig(reviewers=("s1",), issuer=ISS), ("reviewer",)),  # listed by subject
        (
            {"email": "r@x.org", "email_verified": True},
            RoleConfig(reviewers=("r@x.org",), issuer=ISS),
            ("reviewer",),
        ),
        # an e-mail the provider did not verify is anyone's claim: it gives no role
        ({"email": "r@x.org"}, RoleConfig(reviewers=("r@x.org",), issuer=ISS), ()),
        (
            {"email": "r@x.org", "email_verified": "true"},
            RoleConfig(reviewers=("r@x.org",), issuer=ISS),
            (),
        ),
        ({}, RoleConfig(analysts=("s1",), issuer=ISS), ("analyst",)),
    ],
)
def test_roles_from_a_claim_or_a_list(claims, config, roles):
    assert config.roles({"sub": "s1", "iss": ISS, **claims}) == roles


def test_role_config_from_secrets():
    conf = RoleConfig.from_mapping(
        {"claim": "groups", "reviewers": ["a", " "], "analysts": [], "issuer": f" {ISS} "}
    )
    assert conf == RoleConfig("groups", (), ("a",), ISS)
    assert RoleConfig.from_mapping(None) == RoleConfig()
    for bad, word in [
        ({"reviewer": ["a"]}, "unknown"),
        ({"reviewers": "a"}, "list"),
        ({"reviewers": [1]}, "list"),
        ({"claim": ""}, "claim"),
        ({"issuer": 1}, "issuer"),
    ]:
        with pytest.raises(RiskcoreError, match=word):
            RoleConfig.from_mapping(bad)


def test_identity_round_trips():
    assert Identity.from_dict(json.loads(json.dumps(ANA.to_dict()))) == ANA


def test_readings():
    assert "Logged in as" in identity_reading(REV.label, True, ["reviewer"])
    assert "no role" in identity_reading("x", True, [])
    assert "proves nobody" in identity_reading(NOBODY.label, False, [])
    assert approval_status_reading(None, []).startswith("Saved without")
    assert approval_status_reading("A", ["B", "C"]) == "Saved by A. Approved by B; C."


# ---- the store: entries carry the identity, approvals are logged ----


def _save(s, who):
    return s.save("March", fingerprint=FP, profile={"qis": ["q"]}, results={"k": 3}, user=who)


def test_every_entry_carries_the_identity_in_its_mac(tmp_path):
    s = Store(tmp_path / "r.db")
    aid = _save(s, ANA)
    s.log("roles", user=NOBODY)
    save, other = s.audit()
    assert save.user == ANA.label and s.load(aid).user == ANA.label
    assert save.changes["identity"]["subject"] == "ana"
    assert save.changes["identity"]["issuer"] == ISS
    assert save.changes["identity"]["roles"] == ["analyst"]
    assert other.user == "unauthenticated: Ana"
    assert other.changes["identity"]["authenticated"] is False
    # the identity is inside the keyed chain: making the author someone else is found
    with closing(sqlite3.connect(s.path)) as con:
        con.execute("DROP TRIGGER audit_no_update")
        changes = json.loads(con.execute("SELECT changes FROM audit WHERE seq = 1").fetchone()[0])
        changes["identity"]["subject"] = "mallory"
        con.execute("UPDATE audit SET changes = ? WHERE seq = 1", (json.dumps(changes),))
        con.commit()
    v = s.verify()
    assert not v.ok and v.first_broken == 1


def test_approve_follows_the_rule_and_logs_both_outcomes(tmp_path):
    s = Store(tmp_path / "r.db")
    aid = _save(s, ANA)
    assert s.author(aid) == ANA
    assert s.approval(aid, BOTH).reason == "own"
    with pytest.raises(ApprovalRefusedError, match="own work") as refused:
        s.approve(aid, BOTH)
    assert refused.value.decision.reason == "own"
    seq = s.approve(aid, REV)
    with pytest.raises(ApprovalRefusedError):
        s.approve(aid, REV)  # once per reviewer
    log = s.audit()
    assert [e.action for e in log] == ["save", "approve_refused", "approve", "approve_refused"]
    assert log[2].seq == seq and log[2].user == REV.label
    assert log[2].changes["author"] == ANA.label and log[3].changes["reason"] == "already"
    assert s.approvals(aid) == [REV]
    assert s.verify().ok


def test_an_assessment_saved_without_a_login_cannot_be_approved(tmp_path):
    s = Store(tmp_path / "r.db")
    typed = _save(s, "ana")  # a name given by a caller: no identity recorded
    nobody = _save(s, NOBODY)
    assert s.author(typed) is None
    for aid in (typed, nobody):
        with pytest.raises(ApprovalRefusedError, match="without a login"):
            s.approve(aid, REV)
    with pytest.raises(RiskcoreError, match="no saved assessment"):
        s.approve(99, REV)


def test_a_reviewer_whose_login_is_a_day_old_neither_approves_nor_signs(tmp_path):
    """Issue 37.9: the roles of a login are those of its ID token, kept in Streamlit's cookie
    for 30 days; a reviewer role withdrawn at the provider since went on approving. A login
    older than MAX_LOGIN_AGE_MINUTES is sent to log in again (which reads the current roles)."""
    s = Store(tmp_path / "r.db")
    aid = _save(s, ANA)
    day_old = login("rev", ["reviewer"], iat=IAT - 86_400)
    with pytest.raises(ApprovalRefusedError, match="Log in again") as refused:
        s.approve(aid, day_old)
    assert refused.value.decision.reason == "login_stale"
    assert s.audit()[-1].action == "approve_refused"
    assert s.audit()[-1].changes["reason"] == "login_stale"
    assert may_sign(day_old, login_required=True).reason == "login_stale"
    assert may_sign(day_old, login_required=False).allowed  # no login: the key file decides
    # the same reviewer logged in again: allowed, and the entry records the login's time
    s.approve(aid, REV)
    assert s.audit()[-1].changes["identity"]["login_at"] == REV.login_at


def test_the_login_age_limit_and_its_edges():
    limit = MAX_LOGIN_AGE_MINUTES * 60
    at = datetime.fromtimestamp(IAT, UTC)
    rev = login("rev", ["reviewer"])
    assert rev.login_at == at.isoformat(timespec="seconds")
    for age, fresh in [(0, True), (limit, True), (limit + 1, False), (-300, True), (-301, False)]:
        now = at + timedelta(seconds=age)
        assert rev.fresh(now) is fresh, age
        assert (may_approve(rev, ANA, now=now).reason == "allowed") is fresh, age
    # a token without a usable issue time is never fresh: its roles' age is unknown
    for iat in (None, "yesterday", True, float("nan"), 1e300):
        who = login("rev", ["reviewer"], iat=iat)
        assert who.login_at is None and not who.fresh(), iat
    assert not Identity.unauthenticated("Rev").fresh()
    forged = Identity.from_dict({**REV.to_dict(), "login_at": "not a time"})
    assert not forged.fresh()
    # a refused analyst is told the role, not to log in again (which would not help)
    assert may_approve(login("x", ["analyst"], iat=IAT - 86_400), ANA).reason == "not_reviewer"
    from riskcore.report.readings.identity import sign_refused_reading

    for said in (approval_reading("login_stale"), sign_refused_reading("login_stale")):
        assert f"more than {MAX_LOGIN_AGE_MINUTES} minutes old" in said


# ---- the report: HTML and JSON twin say who built it, proven or not ----


def _report(**who):
    import pandas as pd

    from riskcore.profile import Profile
    from riskcore.report.render import render_html
    from riskcore.review import review
    from riskcore.roles import ColumnRoles

    df = pd.DataFrame({"q": list("aabbbc"), "s": list("001101")})
    p = Profile(roles=ColumnRoles(quasi_identifiers=("q",), sensitive=("s",)))
    r = review(df, p, name="t.csv", **who)
    return r, render_html(r, figures=False)


def test_the_report_says_who_built_it_and_whether_a_login_proves_it():
    r, text = _report(built_by=REV.label, identity=REV.to_dict())
    assert r.to_dict()["identity"]["subject"] == "rev"
    assert type(r).from_dict(r.to_dict()).identity == REV.to_dict()
    assert "(logged in; roles: reviewer)" in text and "subject rev at" in text
    _, typed = _report(built_by=NOBODY.label, identity=NOBODY.to_dict())
    assert "unauthenticated: Ana" in typed and "logged in" not in typed
    _, cli = _report(built_by="Dana")  # a name on the command line: no login checked it
    assert "by Dana (unauthenticated) &middot;" in cli
    _, blank = _report()
    assert "by unauthenticated &middot;" in blank


def test_a_built_by_that_looks_like_a_login_is_marked_unauthenticated_in_the_json_twin(
    tmp_path, capsys
):
    """Issue 37.13: ``report --built-by`` copied into the twin's ``built_by`` a name written as
    a login's label, with nothing in the JSON saying no login checked it."""
    import pandas as pd

    from riskcore.cli import main

    pd.DataFrame({"q": list("aabbbc"), "s": list("001101")}).to_csv(tmp_path / "t.csv")
    (tmp_path / "p.json").write_text(
        json.dumps({"quasi_identifiers": ["q"], "sensitive": ["s"], "targets": {"k": 2}})
    )
    forged = f"Rev Iewer <rev@example.org> (subject rev at {ISS})"
    assert forged == REV.label.replace("(subject", "<rev@example.org> (subject")
    twin = tmp_path / "r.json"
    argv = ["report", str(tmp_path / "t.csv"), "--profile", str(tmp_path / "p.json")]
    argv += ["--no-figures", "--out", str(tmp_path / "r.html"), "--json", str(twin)]
    assert main([*argv, "--built-by", forged + "\u202e"]) in (0, 1), capsys.readouterr().err
    got = json.loads(twin.read_text())
    assert got["built_by"] == f"unauthenticated: {forged}"  # marked, the bidi override dropped
    assert got["identity"]["authenticated"] is False and got["identity"]["subject"] == ""
    assert "logged in" not in (tmp_path / "r.html").read_text()
    assert main(argv) in (0, 1)  # no --built-by: the twin still says nobody was proven
    got = json.loads(twin.read_text())
    assert got["built_by"] == "unauthenticated" and got["identity"]["authenticated"] is False


def test_a_budget_release_carries_the_identity(tmp_path):
    import numpy as np
    import pandas as pd

    from riskcore import dp
    from riskcore.dp.release import Query, release
    from riskcore.store.ledgers import BudgetStore

    book = BudgetStore(Store(tmp_path / "r.db"))
    source = dp.DataSource("adult.csv", "a" * 64, ("age",), 100)
    data = pd.DataFrame({"age": np.arange(100)})
    release(data, Query("count"), epsilon=0.5, ledger=book.handle(source, user=ANA))
    entry = book.store.audit()[-1]
    assert entry.action == "dp_release" and entry.user == ANA.label
    assert entry.changes["identity"]["subject"] == "ana"
    with closing(sqlite3.connect(book.store.path)) as con:  # the release row's own user column
        users = {r[0] for r in con.execute("SELECT user FROM dp_ledger_entries")}
    assert users == {ANA.label}


def test_with_a_login_only_a_logged_in_reviewer_signs_without_one_the_key_holder_does():
    from riskcore.store.identity import ApprovalDecision, may_sign

    analyst = login("a", ["analyst"], iss="https://idp")
    reviewer = login("r", ["reviewer"], iss="https://idp")
    typed = Identity.unauthenticated("Rita")
    assert may_sign(reviewer, login_required=True) == ApprovalDecision(True, "allowed")
    assert may_sign(analyst, login_required=True).reason == "not_reviewer"
    assert may_sign(typed, login_required=True).reason == "unauthenticated"
    for who in (analyst, reviewer, typed):
        assert may_sign(who, login_required=False).allowed
