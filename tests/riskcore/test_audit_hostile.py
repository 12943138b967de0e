"""The audit log against someone who can write the database but not read the key (issue 37,
items 2, 3, 12, 14, 15, 17): each attack of the issue, reproduced, and what now finds it."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from riskcore import dp
from riskcore.cli import main
from riskcore.errors import RiskcoreError
from riskcore.store import AuditUnreadableError, Store, verify_file
from riskcore.store import database as store_database
from riskcore.store.chain import trigger_sql
from riskcore.store.database import head_path
from riskcore.store.identity import Identity
from riskcore.store.working import WorkStore
from tests.riskcore.test_audit_chain import FP, _book, _raw, _rehash_plain, _verify

ISS = "https://idp.example.org"
ZZ = "CREATE TRIGGER zz BEFORE INSERT ON dp_ledger_entries BEGIN SELECT RAISE(IGNORE); END"


def _login(sub: str, roles: tuple[str, ...] = (), iss: str = ISS) -> Identity:
    """A login issued now (its ID token's iat): approving needs one minutes old at most."""
    claims = {"sub": sub, "iss": iss, "roles": list(roles), "iat": int(time.time())}
    return Identity.from_claims(claims)


@pytest.fixture
def spent(tmp_path):
    """A ledger with a budget of 0.9 and 0.6 spent (two releases of 0.3), as in the issue."""
    s = Store(tmp_path / "r.db")
    book, src = _book(s)
    book.set_budget(src, 0.9, 1e-6)
    book.reserve(src, dp.LedgerEntry("count", "laplace", 0.3))
    book.reserve(src, dp.LedgerEntry("mean age", "laplace", 0.3))
    return s, book, src


def _releases(s: Store) -> tuple[int, int]:
    """Return (dp_release entries, release rows)."""
    with _raw(s.path) as con:
        rows = con.execute("SELECT count(*) FROM dp_ledger_entries").fetchone()[0]
    return sum(e.action == "dp_release" for e in s.audit()), rows


# -- item 2: a trigger hides DP releases ------------------------------------------------------
def test_a_trigger_that_hides_releases_is_refused_by_the_writer(spent, capsys):
    s, book, src = spent
    with _raw(s.path) as con:
        con.execute(ZZ)
    passed = 0
    for i in range(10):  # 10 releases of 0.25 against a budget of 0.9, 0.6 spent
        try:
            book.reserve(src, dp.LedgerEntry(f"q{i}", "laplace", 0.25))
            passed += 1
        except RiskcoreError as exc:
            assert "trigger zz" in str(exc) and "riskcore did not make" in str(exc)
    assert passed == 0
    assert book.lookup(src).budget.spent()[0] == pytest.approx(0.6)
    assert _releases(s) == (2, 2)
    assert _verify(s.path) == 1
    assert "trigger zz, which riskcore did not make" in capsys.readouterr().err


def test_a_trigger_named_like_riskcores_is_still_foreign(spent):
    s, book, src = spent
    with _raw(s.path) as con:  # riskcore's name, another body: it swallows every insert
        con.execute("DROP TRIGGER dp_ledger_entries_no_update")
        con.execute(ZZ.replace("zz", "dp_ledger_entries_no_update"))
        con.execute("CREATE VIEW v AS SELECT 1")
    with pytest.raises(RiskcoreError, match="trigger dp_ledger_entries_no_update"):
        book.reserve(src, dp.LedgerEntry("q", "laplace", 0.25))
    v = verify_file(s.path)
    assert not v.ok and "trigger dp_ledger_entries_no_update, view v" in v.reason


def test_a_release_hidden_by_a_conflict_clause_is_refused(spent):
    # no trigger at all: the table rebuilt so that an insert is silently ignored
    s, book, src = spent
    with _raw(s.path) as con:
        con.execute("DROP TRIGGER dp_ledger_entries_no_update")
        con.execute("DROP TRIGGER dp_ledger_entries_no_delete")
        con.execute("ALTER TABLE dp_ledger_entries RENAME TO old_entries")
        con.execute(
            "CREATE TABLE dp_ledger_entries (seq INTEGER PRIMARY KEY AUTOINCREMENT, ledger "
            "INTEGER NOT NULL, fingerprint TEXT NOT NULL, time TEXT NOT NULL, user TEXT NOT "
            "NULL, entry TEXT NOT NULL, UNIQUE (ledger) ON CONFLICT IGNORE)"
        )
        con.execute("INSERT INTO dp_ledger_entries SELECT * FROM old_entries WHERE seq = 1")
    Store(s.path)  # restores the dropped triggers (logged)
    with pytest.raises(RiskcoreError, match=r"'dp_release' entry's row .* was not written"):
        book.reserve(src, dp.LedgerEntry("q", "laplace", 0.25))
    assert _releases(s)[0] == 2


def test_verify_finds_releases_an_older_writer_let_a_trigger_hide(spent, monkeypatch):
    # the writer as it was before issue 37: no schema check, no vouching check
    s, book, src = spent
    monkeypatch.setattr(store_database, "refuse_foreign", lambda con, path: None, raising=False)
    monkeypatch.setattr(store_database, "unvouched", lambda *a: None, raising=False)
    with _raw(s.path) as con:
        con.execute(ZZ)
    for i in range(10):
        book.reserve(src, dp.LedgerEntry(f"q{i}", "laplace", 0.25))
    assert book.lookup(src).budget.spent()[0] == pytest.approx(0.6)  # the attack, reproduced
    assert _releases(s) == (12, 2)
    first = next(e.seq for e in s.audit() if e.action == "dp_release" and not e.records)
    v = verify_file(s.path)
    assert (v.ok, v.first_broken) == (False, first)
    assert "'dp_release' entry that vouches for no row" in v.reason and "trigger zz" in v.reason
    with _raw(s.path) as con:
        con.execute("DROP TRIGGER zz")  # the trigger gone: the entries still say it
    v = verify_file(s.path)
    assert (v.ok, v.first_broken) == (False, first)


# -- item 3: an emptied, downgraded log is re-keyed silently ----------------------------------
def _empty_and_downgrade(path: Path, *, meta: bool = True) -> None:
    with _raw(path) as con:
        for table in ("audit", "dp_ledger_entries", "dp_ledger_budgets"):
            con.execute(f"DROP TRIGGER {table}_no_delete")
            con.execute(f"DELETE FROM {table}")
        if meta:
            con.execute("DELETE FROM audit_meta")
        con.execute(
            "INSERT INTO dp_ledger_budgets (ledger, time, user, epsilon_budget, delta_budget, "
            "accounting, reason) VALUES (1, '2026-01-01', 'eve', 1000, 1e-6, 'basic', '')"
        )
        con.execute("PRAGMA user_version = 1")


def test_an_emptied_downgraded_log_is_not_keyed_again_by_a_writer(spent, capsys):
    s, book, src = spent
    head = s.head()
    _empty_and_downgrade(s.path)
    with pytest.raises(RiskcoreError, match="rewritten to look old or emptied"):
        Store(s.path)
    with pytest.raises(RiskcoreError, match="no longer at schema version 2"):
        book.reserve(src, dp.LedgerEntry("q", "laplace", 0.25))  # nor by a writer already open
    # asked for explicitly: keyed, and the keying entry says so
    assert main(["audit", "migrate", "--db", str(s.path)]) == 0
    assert "its head is 1:" in capsys.readouterr().out
    (keyed,) = Store(s.path).audit()
    assert keyed.action == "audit_keyed" and keyed.changes["explicit"] is True
    assert keyed.changes["rows_adopted"] >= 1
    # the head file beside it still names the entry the log held before
    assert _verify(s.path) == 1
    assert f"before the head {head.seq} kept in 'r.db.head'" in capsys.readouterr().err


def test_a_downgraded_log_whose_meta_held_a_key_check_is_refused_without_a_key(spent):
    s = spent[0]
    _empty_and_downgrade(s.path, meta=False)
    Path(str(s.path) + ".key").unlink()  # no key at all: a new one would hide the old
    with pytest.raises(RiskcoreError, match="its key check shows it was keyed before"):
        Store(s.path)
    assert not Path(str(s.path) + ".key").exists()


def test_a_new_database_beside_an_existing_key_is_still_made(tmp_path):
    Store(tmp_path / "a.db").log("x")
    shutil.copy(tmp_path / "a.db.key", tmp_path / "b.db.key")
    s = Store(tmp_path / "b.db")  # a new file (no table yet): its key is the one there
    s.log("x")
    assert s.verify().ok


# -- item 12: tracebacks ----------------------------------------------------------------------
def test_audit_migrate_of_a_file_that_is_not_a_database_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"not a database at all " * 100)
    assert main(["audit", "migrate", "--db", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: cannot read the audit log") and "\n" not in err


@pytest.mark.parametrize("value", ["x", "", "-1", "0", "9" * 40])
def test_a_keyed_from_that_is_not_an_entry_number_exits_2(spent, capsys, value):
    s = spent[0]
    with _raw(s.path) as con:
        con.execute("UPDATE audit_meta SET value = ? WHERE name = 'keyed_from'", (value,))
    assert _verify(s.path) == 2
    err = capsys.readouterr().err.strip()
    assert "is not an entry number" in err and "\n" not in err
    with pytest.raises(AuditUnreadableError):
        verify_file(s.path)


def test_a_keyed_from_moved_past_a_forged_log_is_broken(spent):
    # every entry re-hashed with plain SHA-256 and keyed_from moved past them, the guarded
    # rows deleted: all entries would be checked as old unkeyed ones, and nothing vouched
    s = spent[0]
    with _raw(s.path) as con:
        tables = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        n = _rehash_plain(con)
        con.execute("UPDATE audit_meta SET value = ? WHERE name = 'keyed_from'", (n + 1,))
        for t in tables:
            if t.startswith(("dp_", "assessment")):
                con.execute(f"DROP TABLE {t}")
    head_path(s.path).unlink(missing_ok=True)
    v = verify_file(s.path)
    assert not v.ok and "not the entry that keyed it" in v.reason


# -- item 14: kept work -----------------------------------------------------------------------
def test_kept_work_is_the_logins_and_in_the_chain(tmp_path, capsys):
    path = tmp_path / "r.db"
    ws = WorkStore(path)
    ana, eve = _login("ana"), _login("eve")
    ws.keep(FP, "s1", {"roles": "ana's"}, user=ana)
    assert ws.latest(FP, other_than="s2", user=eve) is None  # another login: not offered
    assert ws.latest(FP, other_than="s2") is None  # nor to a session without a login
    assert ws.latest(FP, other_than="s2", user=_login("ana")).work == {"roles": "ana's"}
    assert ws.latest(FP, other_than="s2", user=_login("ana", iss="https://other")) is None
    entries = Store(path).audit()
    assert [e.action for e in entries] == ["work_guarded", "work_kept"]
    assert entries[-1].records[0][0] == "working_profiles"
    assert _verify(path) == 0
    with _raw(path) as con:  # a document planted outside riskcore, offered to ana
        con.execute(
            "INSERT INTO working_profiles (fingerprint, session, saved, work, owner) "
            "VALUES (?, 'x', '2099-01-01', '{}', ?)",
            (FP, json.dumps([ISS, "ana"])),
        )
    assert _verify(path) == 1
    assert "kept work row" in capsys.readouterr().err


def test_work_kept_by_an_earlier_version_is_adopted_once(tmp_path):
    path = tmp_path / "r.db"
    Store(path).log("x")
    with _raw(path) as con:  # the table as an earlier riskcore wrote it, outside the chain
        con.execute(
            "CREATE TABLE working_profiles (fingerprint TEXT NOT NULL, session TEXT NOT NULL, "
            "saved TEXT NOT NULL, work TEXT NOT NULL, PRIMARY KEY (fingerprint, session))"
        )
        con.execute(f"INSERT INTO working_profiles VALUES ('{FP}', 'old', '2026', '{{}}')")
    assert verify_file(path).ok  # not under the chain yet: not counted
    ws = WorkStore(path)
    assert ws.latest(FP).session == "old"  # read before any write of this version
    ws.keep(FP, "s1", {"n": 1})
    actions = [e.action for e in Store(path).audit()]
    assert actions == ["x", "work_guarded", "work_kept"]
    assert verify_file(path).ok
    ws.keep(FP, "s1", {"n": 2})
    assert [e.action for e in Store(path).audit()].count("work_guarded") == 1


# -- item 15: approval's author, reviewer lists -----------------------------------------------
def test_the_author_is_the_entry_that_wrote_the_row_not_one_naming_its_id(tmp_path, monkeypatch):
    s = Store(tmp_path / "r.db")
    bob, mallory = _login("bob"), _login("mallory", ("reviewer",))
    with monkeypatch.context() as m, s._transaction() as con:
        # a 'save' entry naming the next id, written before the row exists (the writer as
        # it was: nothing checked that a save vouches for its row)
        m.setattr(store_database, "unvouched", lambda *a: None, raising=False)
        Store._append(con, "save", user=mallory, fingerprint=FP, changes={"id": 1})
        m.setattr(store_database, "unvouched", lambda *a: None, raising=False)
    aid = s.save("March", fingerprint=FP, profile={}, results={}, user=bob)
    assert aid == 1
    assert s.author(aid) == bob  # the entry that wrote the row, not the first naming id 1
    assert s.approval(aid, mallory).allowed  # so mallory is another person than the author
    assert s.approval(aid, _login("bob", ("reviewer",))).reason == "own"
    rev = _login("rev", ("reviewer",))
    assert s.approve(aid, rev) > 0 and s.approvals(aid) == [rev]
    with _raw(s.path) as con:  # the row changed outside riskcore: nobody wrote it as it is
        con.execute("UPDATE assessments SET name = 'April'")
    assert s.author(aid) is None and s.approvals(aid) == []


def test_a_reviewer_list_names_subjects_of_its_issuer_only():
    from riskcore.store.identity import RoleConfig

    conf = RoleConfig.from_mapping({"reviewers": ["rev"], "issuer": ISS})
    assert Identity.from_claims({"sub": "rev", "iss": ISS}, conf).roles == ("reviewer",)
    other = Identity.from_claims({"sub": "rev", "iss": "https://evil.example"}, conf)
    assert other.roles == ()
    with pytest.raises(RiskcoreError, match="no issuer"):
        RoleConfig.from_mapping({"reviewers": ["rev"]})


# -- item 17: the head, easy to keep ----------------------------------------------------------
def test_every_write_leaves_the_head_beside_the_database(spent, capsys):
    s = spent[0]
    assert head_path(s.path).read_text() == f"{s.head()}\n"
    s.log("roles", user="ana")
    assert head_path(s.path).read_text() == f"{s.head()}\n"
    head_path(s.path).write_text("garbage")
    assert _verify(s.path) == 2
    assert "does not hold SEQ:HASH" in capsys.readouterr().err


def test_later_writes_do_not_overwrite_a_head_the_log_no_longer_holds(spent):
    s = spent[0]
    s.log("roles", user="ana")  # an entry that vouches for no row: cut, it leaves no trace
    head = s.head()
    with _raw(s.path) as con:
        con.execute("DROP TRIGGER audit_no_delete")
        con.execute("DELETE FROM audit WHERE seq = ?", (head.seq,))
        con.execute(trigger_sql("audit", "DELETE"))  # put back as it was
    s.log("roles", user="ana")  # riskcore writes on, twice: the head file keeps the evidence
    s.log("roles", user="ana")
    assert head_path(s.path).read_text() == f"{head}\n"
    v = verify_file(s.path)
    assert not v.ok and f"entry {head.seq} does not have the head's hash" in v.reason


def test_where_the_head_is_shown_it_says_what_only_a_head_kept_elsewhere_finds(
    spent, tmp_path, capsys
):
    s = spent[0]
    only = "replaced together with its key file"
    assert _verify(s.path) == 0
    assert only in capsys.readouterr().out  # the command line, with the head
    assert main(["audit", "migrate", "--db", str(s.path)]) == 0
    assert only in capsys.readouterr().out  # the one write of the command line
    from riskcore.demo import make_people

    data, profile = tmp_path / "people.csv", tmp_path / "p.json"
    make_people(200).to_csv(data, index=False)
    profile.write_text(
        json.dumps({"riskcore_roles": 1, "quasi_identifiers": ["age", "sex"], "targets": {"k": 2}})
    )
    html = tmp_path / "r.html"
    args = ["report", str(data), "--profile", str(profile), "--out", str(html), "--no-figures"]
    assert main([*args, "--db", str(s.path)]) == 0
    assert only in html.read_text()  # every report
