"""The audit log proves what it says (issue 26, "A log that proves"): every attack of the issue
now gives a non-zero exit, verify reads only, the key stays outside the file and out of sight,
old files are keyed once, newer ones refused."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import stat
import sys
import threading
from contextlib import closing
from pathlib import Path

import pytest

from riskcore.cli import main
from riskcore.errors import RiskcoreError
from riskcore.store import (
    KEY_ENV,
    KEY_FILE_ENV,
    SCHEMA_VERSION,
    AuditHead,
    AuditKeyError,
    Store,
    entry_hash,
    verify_file,
)
from riskcore.store.database import head_path

FP = "ab" * 32


def _raw(path):
    return closing(sqlite3.connect(path, isolation_level=None))


def _verify(path, *extra) -> int:
    return main(["audit", "verify", "--db", str(path), *extra])


def _book(store):
    from riskcore import dp
    from riskcore.store.ledgers import BudgetStore

    book = BudgetStore(store)
    src = dp.DataSource("people.csv", "c" * 64, ("age", "zip"), 400)
    return book, src


@pytest.fixture
def store(tmp_path):
    """A log with entries, a saved assessment, a ledger with two releases."""
    from riskcore import dp

    s = Store(tmp_path / "r.db")
    s.log("roles", user="ana", fingerprint=FP, changes={"step": 0})
    s.save("March", fingerprint=FP, profile={"k": 5}, results={"k": 3}, report="<p>r</p>")
    book, src = _book(s)
    book.reserve(src, dp.LedgerEntry("count", "laplace", 0.4))
    book.reserve(src, dp.LedgerEntry("mean age", "laplace", 0.4))
    s.log("roles", user="ana", fingerprint=FP, changes={"step": 1})
    return s


def _rehash_plain(con) -> int:
    """Re-hash every entry with plain SHA-256 (no key), as the attacker can; return how many."""
    con.execute("DROP TRIGGER audit_no_update")
    rows = con.execute(
        "SELECT seq, time, user, action, fingerprint, changes FROM audit ORDER BY seq"
    ).fetchall()
    prev = "0" * 64
    for seq, time, user, action, fp, changes in rows:
        h = entry_hash(seq, time, user, action, fp, changes, prev)
        con.execute("UPDATE audit SET prev_hash = ?, hash = ? WHERE seq = ?", (prev, h, seq))
        prev = h
    return len(rows)


def _snapshot(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.parent.iterdir()) if p.is_file()}


# -- the attacks of the issue: each one now ends in exit 1 ------------------------------------
def test_an_intact_log_exits_0_and_prints_its_head(store, capsys):
    assert _verify(store.path) == 0
    out = capsys.readouterr().out
    head = store.head()
    assert "The audit log is intact: 6 entries" in out
    assert f"Audit log head: {head.seq}:{head.hash}" in out
    assert (head.seq, len(head.hash)) == (6, 64)
    assert _verify(store.path, "--expect-head", str(head)) == 0


def test_deleting_the_last_entries_after_dropping_the_trigger_is_found_by_the_head(store, capsys):
    head = store.head()
    with _raw(store.path) as con:
        con.execute("DROP TRIGGER audit_no_delete")
        con.execute("DELETE FROM audit WHERE seq >= 6")  # a log-only entry: no row vouched
        con.execute(
            "CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN SELECT "
            "RAISE(ABORT, 'the audit log is append-only: DELETE refused'); END"
        )
    # a cut at an entry that vouched for no row leaves a consistent prefix: the head file
    # beside the database shows it (issue 37, item 17) ...
    assert _verify(store.path) == 1
    assert "before the head 6 kept in 'r.db.head'" in capsys.readouterr().err
    # ... and once that is removed too, only the head kept elsewhere (SECURITY.md says so)
    head_path(store.path).unlink()
    assert _verify(store.path) == 0
    capsys.readouterr()
    assert _verify(store.path, "--expect-head", str(head)) == 1
    err = capsys.readouterr().err
    assert "BROKEN" in err and "before the expected head 6" in err


def test_deleting_entries_that_vouch_for_releases_is_found_without_the_head(store, capsys):
    with _raw(store.path) as con:
        con.execute("DROP TRIGGER audit_no_delete")
        con.execute("DELETE FROM audit WHERE seq >= 5")
    assert _verify(store.path) == 1
    assert "in no audit entry" in capsys.readouterr().err


def test_replacing_the_whole_file_with_an_older_copy_is_found_by_the_head(store, tmp_path):
    old = tmp_path / "old.db"
    shutil.copy(store.path, old)  # a backup with 6 entries, same key, and its head file
    shutil.copy(head_path(store.path), head_path(old))
    store.log("roles", user="ana", changes={"step": 2})
    head = store.head()
    for suffix in ("-wal", "-shm"):
        Path(str(store.path) + suffix).unlink(missing_ok=True)
    shutil.copy(old, store.path)
    assert _verify(store.path) == 1  # the head file beside it holds entry 7
    shutil.copy(head_path(old), head_path(store.path))  # put back with it
    assert _verify(store.path) == 0  # a valid log of its own ...
    assert _verify(store.path, "--expect-head", str(head)) == 1  # ... but not this one


def test_replacing_the_whole_file_with_another_log_is_found(store, tmp_path, capsys):
    other = Store(tmp_path / "forged" / "r.db")  # another log, made under its own key
    other.log("roles", user="eve", changes={"step": 0})
    head = store.head()
    shutil.copy(other.path, store.path)
    assert _verify(store.path) == 1
    assert "not written under this key" in capsys.readouterr().err
    # the attacker also swaps the key file: only the head kept elsewhere shows it
    shutil.copy(Path(str(other.path) + ".key"), Path(str(store.path) + ".key"))
    shutil.copy(head_path(other.path), head_path(store.path))
    assert _verify(store.path) == 0
    assert _verify(store.path, "--expect-head", str(head)) == 1


def test_an_entry_edited_and_rehashed_with_plain_sha256_is_found(store, capsys):
    e = store.audit()[0]
    text = '{"step": 99}'
    h = entry_hash(e.seq, e.time, e.user, e.action, e.fingerprint, text, e.prev_hash)
    with _raw(store.path) as con:
        con.execute("DROP TRIGGER audit_no_update")
        con.execute("UPDATE audit SET changes = ?, hash = ? WHERE seq = 1", (text, h))
    assert _verify(store.path) == 1
    assert "BROKEN at entry 1" in capsys.readouterr().err


def test_rehashing_every_entry_with_sha256_without_the_key_is_found(store):
    with _raw(store.path) as con:
        _rehash_plain(con)
    assert _verify(store.path) == 1


def test_deleting_release_rows_restores_no_budget(store, capsys):
    book, src = _book(store)
    assert book.lookup(src).budget.spent()[0] == pytest.approx(0.8)
    with _raw(store.path) as con:
        con.execute("DROP TRIGGER dp_ledger_entries_no_delete")
        con.execute("DELETE FROM dp_ledger_entries")
    assert book.lookup(src).budget.spent()[0] == 0  # the attack "worked" on the table ...
    assert _verify(store.path) == 1  # ... and verify says so
    err = capsys.readouterr().err
    assert "release row" in err and "is missing: it was deleted outside riskcore" in err


def test_inserting_a_budget_of_1000_is_found(store, capsys):
    book, src = _book(store)
    with _raw(store.path) as con:
        con.execute(
            "INSERT INTO dp_ledger_budgets (ledger, time, user, epsilon_budget, delta_budget, "
            "accounting, reason) VALUES (1, '2026-01-01', 'eve', 1000, 1e-6, 'basic', '')"
        )
    assert book.lookup(src).budget.epsilon_budget == 1000
    assert _verify(store.path) == 1
    err = capsys.readouterr().err
    assert "privacy budget row" in err and "in no audit entry" in err


def test_a_saved_assessment_edited_or_deleted_outside_riskcore_is_found(store, tmp_path):
    copy = tmp_path / "c" / "r.db"
    copy.parent.mkdir()
    shutil.copy(store.path, copy)
    shutil.copy(Path(str(store.path) + ".key"), Path(str(copy) + ".key"))
    with _raw(store.path) as con:
        con.execute("""UPDATE assessments SET results = '{"k": 12}'""")
    v = verify_file(store.path)
    assert not v.ok and "saved assessment row 1" in v.reason and "changed" in v.reason
    with _raw(copy) as con:
        con.execute("DELETE FROM assessments")
    v = verify_file(copy)
    assert not v.ok and "is missing" in v.reason


def test_a_deletion_through_the_store_keeps_the_log_intact(store):
    aid = store.save("x", fingerprint=FP, profile={}, results={}, data=None)
    store.delete(aid, user="bob")
    v = store.verify()
    assert v.ok, v.reason
    assert store.audit()[-1].records == [["assessments", aid, None]]


def test_a_write_without_an_entry_is_rolled_back(store):
    with pytest.raises(RiskcoreError, match="without an audit entry"), store._transaction() as con:
        con.execute("DELETE FROM assessments")
    assert len(store.assessments()) == 1 and store.verify().ok


# -- verify reads only, and says when it cannot read ------------------------------------------
def test_verify_changes_nothing_and_restores_no_trigger(store, capsys):
    with _raw(store.path) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.execute("DROP TRIGGER audit_no_update")
    before = _snapshot(store.path)
    assert _verify(store.path) == 1
    assert "trigger audit_no_update is missing" in capsys.readouterr().err
    assert _snapshot(store.path) == before
    with _raw(store.path) as con:
        names = {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
    assert "audit_no_update" not in names


def test_reopening_for_writing_restores_a_dropped_trigger_and_logs_it(store):
    with _raw(store.path) as con:
        con.execute("DROP TRIGGER dp_ledger_entries_no_delete")
    s = Store(store.path)
    last = s.audit()[-1]
    assert last.action == "audit_triggers_restored"
    assert last.changes == {"missing": ["dp_ledger_entries_no_delete"]}
    assert s.verify().ok


def _one_error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: cannot ") and "\n" not in err
    return err


def test_an_empty_file_is_not_an_audit_log_and_stays_empty(tmp_path, capsys):
    empty = tmp_path / "empty.db"
    empty.touch()
    assert _verify(empty) == 2
    assert "is empty" in _one_error(capsys)
    assert empty.stat().st_size == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["empty.db"]


def test_a_missing_file_is_not_made(tmp_path, capsys):
    assert _verify(tmp_path / "none.db") == 2
    assert "there is no file" in _one_error(capsys)
    assert main(["audit", "migrate", "--db", str(tmp_path / "none.db")]) == 2
    assert main(["audit", "export", "--db", str(tmp_path / "none.db")]) == 2
    assert list(tmp_path.iterdir()) == []


def test_a_file_that_is_not_sqlite_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"not a database at all " * 100)
    assert _verify(bad) == 2
    assert "not a database" in _one_error(capsys)
    (tmp_path / "dir.db").mkdir()
    assert _verify(tmp_path / "dir.db") == 2
    assert "is not a file" in _one_error(capsys)


def test_a_database_without_an_audit_table_exits_2(tmp_path, capsys):
    other = tmp_path / "other.db"
    with _raw(other) as con:
        con.execute("CREATE TABLE t (a)")
    assert _verify(other) == 2
    assert "holds no audit log" in _one_error(capsys)


def test_a_file_sqlite_cannot_open_read_only_exits_2(store, monkeypatch, capsys):
    # what a WAL file in a read-only folder without its -shm gives (root cannot be refused)
    real = sqlite3.connect

    def refuse(target, *args, **kwargs):
        if kwargs.get("uri"):
            raise sqlite3.OperationalError("unable to open database file")
        return real(target, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", refuse)
    assert _verify(store.path) == 2
    assert "unable to open database file" in _one_error(capsys)


def test_a_missing_key_exits_2_and_refuses_writes(store, capsys):
    key = Path(str(store.path) + ".key")
    key.rename(key.with_suffix(".away"))
    assert _verify(store.path) == 2
    assert "its key is missing" in _one_error(capsys)
    with pytest.raises(AuditKeyError, match=r"audit key .* is missing"):
        Store(store.path)  # never a new key for a keyed log
    assert not key.exists()


def test_another_key_refuses_writes(store, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "11" * 32)
    with pytest.raises(AuditKeyError, match="not the key the database"):
        Store(store.path)
    assert not verify_file(store.path).ok


# -- the key: outside the file, made once with mode 0600, never shown ---------------------------
def test_the_key_is_made_beside_the_database_with_mode_0600(tmp_path):
    Store(tmp_path / "r.db")
    key = tmp_path / "r.db.key"
    text = key.read_text()
    assert len(text.strip()) == 64 and int(text, 16) >= 0
    if os.name == "posix":
        assert stat.S_IMODE(key.stat().st_mode) == 0o600
    with _raw(tmp_path / "r.db") as con:  # the key is not in the file
        blob = b"".join(str(r).encode() for r in con.execute("SELECT * FROM audit_meta").fetchall())
    assert text.strip().encode() not in blob and text.strip().encode() not in (
        (tmp_path / "r.db").read_bytes()
    )


def test_the_key_file_and_the_key_variable_are_honoured(tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_FILE_ENV, str(tmp_path / "keys" / "audit.key"))
    s = Store(tmp_path / "a.db")
    s.log("x")
    assert (tmp_path / "keys" / "audit.key").is_file() and not (tmp_path / "a.db.key").exists()
    assert s.verify().ok
    monkeypatch.delenv(KEY_FILE_ENV)
    monkeypatch.setenv(KEY_ENV, "ab" * 32)
    s = Store(tmp_path / "b.db")
    s.log("x")
    assert not (tmp_path / "b.db.key").exists() and s.verify().ok
    monkeypatch.setenv(KEY_ENV, "not hex")
    with pytest.raises(AuditKeyError, match="RISKCORE_AUDIT_KEY is not 64 hexadecimal"):
        Store(tmp_path / "c.db")


def test_a_fifo_or_a_huge_file_is_refused_as_the_key_file(tmp_path, monkeypatch):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = tmp_path / "fifo.key"
    os.mkfifo(fifo)
    monkeypatch.setenv(KEY_FILE_ENV, str(fifo))
    done: list[BaseException] = []

    def open_it():
        try:
            Store(tmp_path / "f.db")
        except BaseException as exc:
            done.append(exc)

    t = threading.Thread(target=open_it, daemon=True)
    t.start()
    t.join(10)
    assert not t.is_alive(), "reading a FIFO as the key hung"
    assert isinstance(done[0], AuditKeyError) and "not a regular file" in str(done[0])
    big = tmp_path / "big.key"
    big.write_text("a" * 5000)
    monkeypatch.setenv(KEY_FILE_ENV, str(big))
    with pytest.raises(AuditKeyError, match="larger than 1024 bytes"):
        Store(tmp_path / "g.db")


def test_the_key_appears_in_no_output(store, tmp_path, capsys):
    key = Path(str(store.path) + ".key").read_text().strip()
    runs = [
        ["audit", "verify", "--db", str(store.path)],
        ["audit", "migrate", "--db", str(store.path)],
        ["audit", "export", "--db", str(store.path)],
    ]
    for args in runs:
        main(args)
    shown = capsys.readouterr()
    Path(str(store.path) + ".key").write_text(key[:-1] + "\n")  # a damaged key: the message
    with pytest.raises(AuditKeyError) as caught:
        Store(store.path)
    for text in (shown.out, shown.err, str(caught.value), repr(store.audit())):
        assert key not in text and key[:-1] not in text and key.upper() not in text


# -- schema versions --------------------------------------------------------------------------
_OLD_SCHEMA = """
CREATE TABLE assessments (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,
    created TEXT NOT NULL, user TEXT NOT NULL, fingerprint TEXT NOT NULL, profile TEXT NOT NULL,
    results TEXT NOT NULL, report TEXT);
CREATE TABLE assessment_data (id INTEGER PRIMARY KEY, format TEXT NOT NULL, bytes BLOB NOT NULL);
CREATE TABLE audit (seq INTEGER PRIMARY KEY, time TEXT NOT NULL, user TEXT NOT NULL,
    action TEXT NOT NULL, fingerprint TEXT, changes TEXT NOT NULL, prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL);
CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: UPDATE refused'); END;
CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: DELETE refused'); END;
CREATE TABLE dp_ledger_entries (seq INTEGER PRIMARY KEY AUTOINCREMENT, ledger INTEGER NOT NULL,
    fingerprint TEXT NOT NULL, time TEXT NOT NULL, user TEXT NOT NULL, entry TEXT NOT NULL);
"""


def _old_file(path: Path, n: int = 3) -> list[str]:
    """Write a file as the riskcore before this issue did: unkeyed SHA-256, user_version 0."""
    hashes, prev = [], "0" * 64
    with _raw(path) as con:
        con.executescript(_OLD_SCHEMA)
        con.execute(
            "INSERT INTO assessments (name, created, user, fingerprint, profile, results) "
            "VALUES ('old', '2026-01-01', 'ana', ?, '{}', '{}')",
            (FP,),
        )
        con.execute(
            "INSERT INTO dp_ledger_entries (ledger, fingerprint, time, user, entry) "
            "VALUES (1, ?, '2026-01-01', 'ana', '{}')",
            (FP,),
        )
        for i in range(1, n + 1):
            fields = [i, f"2026-01-0{i}", "ana", "roles", FP, f'{{"step":{i}}}', prev]
            text = json.dumps(fields, separators=(",", ":"))
            h = hashlib.sha256(text.encode()).hexdigest()
            con.execute("INSERT INTO audit VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (*fields, h))
            hashes.append(h)
            prev = h
    return hashes


def test_an_old_unkeyed_file_is_not_proven_until_keyed_once(tmp_path, capsys):
    path = tmp_path / "old.db"
    hashes = _old_file(path)
    before = _snapshot(path)
    assert _verify(path) == 1
    err = capsys.readouterr().err
    assert "NOT PROVEN" in err and "old unkeyed format" in err and "audit migrate" in err
    assert _snapshot(path) == before  # verify did not migrate it
    assert main(["audit", "migrate", "--db", str(path)]) == 0
    assert "now keyed (schema version 0 to 2" in capsys.readouterr().out
    s = Store(path)
    entries = s.audit()
    assert [e.action for e in entries] == ["roles"] * 3 + ["audit_keyed"]
    keyed = entries[-1]
    assert keyed.prev_hash == hashes[-1]  # continues the old chain
    assert keyed.changes["unkeyed_chain"] == "intact" and keyed.changes["rows_adopted"] == 2
    assert _verify(path) == 0
    Store(path)
    assert main(["audit", "migrate", "--db", str(path)]) == 0
    assert "already keyed" in capsys.readouterr().out
    assert len(Store(path).audit()) == 4  # migrated once
    with _raw(path) as con:
        assert con.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


def test_the_old_entries_and_rows_are_anchored_by_the_keyed_entry(tmp_path):
    path = tmp_path / "old.db"
    _old_file(path)
    Store(path)
    with _raw(path) as con:  # the old chain's own attack: edit and re-hash an old entry
        con.execute("DROP TRIGGER audit_no_update")
        row = con.execute(
            "SELECT seq, time, user, action, fingerprint, prev_hash FROM audit WHERE seq = 3"
        ).fetchone()
        h = entry_hash(*row[:5], '{"step":99}', row[5])
        con.execute("UPDATE audit SET changes = '{\"step\":99}', hash = ? WHERE seq = 3", (h,))
    v = verify_file(path)
    assert (v.ok, v.first_broken) == (False, 4)  # the keyed entry no longer links
    path2 = tmp_path / "old2.db"
    _old_file(path2)
    Store(path2)
    with _raw(path2) as con:  # a release row from before the migration, deleted after it
        con.execute("DROP TRIGGER dp_ledger_entries_no_delete")
        con.execute("DELETE FROM dp_ledger_entries")
    assert not verify_file(path2).ok


def test_a_keyed_log_rewritten_to_look_old_is_not_keyed_again_silently(store, capsys):
    # the downgrade: every entry re-hashed with plain SHA-256, the key check and version gone
    with _raw(store.path) as con:
        _rehash_plain(con)
        con.execute("DROP TABLE audit_meta")
        con.execute("PRAGMA user_version = 0")
    assert _verify(store.path) == 1
    assert "NOT PROVEN" in capsys.readouterr().err
    with pytest.raises(RiskcoreError, match="may have been rewritten to look old"):
        Store(store.path)  # the app does not launder it
    assert main(["audit", "migrate", "--db", str(store.path)]) == 0  # only when asked


def test_a_file_of_a_newer_schema_is_refused(store, capsys):
    with _raw(store.path) as con:
        con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(RiskcoreError, match=r"newer riskcore \(schema version 3; this one knows "):
        Store(store.path)
    assert _verify(store.path) == 2
    assert "newer riskcore" in _one_error(capsys)


# -- secure delete -----------------------------------------------------------------------------
def test_secure_delete_is_on_and_a_deleted_report_leaves_the_file(tmp_path):
    s = Store(tmp_path / "r.db")
    with s._connect() as con:
        assert con.execute("PRAGMA secure_delete").fetchone() == (1,)
    marker = "UNMISTAKABLE-REPORT-TEXT-" * 400
    aid = s.save("x", fingerprint=FP, profile={}, results={}, report=marker)
    with s._connect() as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert marker[:50].encode() in s.path.read_bytes()
    s.delete(aid)
    with s._connect() as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert b"UNMISTAKABLE-REPORT-TEXT" not in s.path.read_bytes()


# -- the head in reports and saved assessments --------------------------------------------------
def test_a_saved_assessment_keeps_the_head_before_its_save(store):
    head = store.head()
    aid = store.save("April", fingerprint=FP, profile={}, results={})
    assert store.load(aid).audit_head == str(head)
    save_entry = store.audit()[-1]
    assert save_entry.prev_hash == head.hash and save_entry.changes["audit_head"] == str(head)


def test_the_report_records_the_audit_head(store, tmp_path, capsys):
    from riskcore.demo import make_people

    data, profile = tmp_path / "people.csv", tmp_path / "p.json"
    make_people(200).to_csv(data, index=False)
    profile.write_text(
        json.dumps({"riskcore_roles": 1, "quasi_identifiers": ["age", "sex"], "targets": {"k": 2}})
    )
    html, twin = tmp_path / "r.html", tmp_path / "r.json"
    args = ["report", str(data), "--profile", str(profile), "--out", str(html), "--no-figures"]
    assert main([*args, "--json", str(twin), "--db", str(store.path)]) == 0, capsys.readouterr().err
    head = store.head()
    assert json.loads(twin.read_text())["audit_head"] == {"seq": head.seq, "hash": head.hash}
    assert f"Audit log head: {head.seq}:{head.hash}" in html.read_text()
    assert main([*args, "--db", str(tmp_path / "none.db")]) == 0
    assert "no audit head is recorded" in html.read_text()
    assert not (tmp_path / "none.db").exists()


def test_expect_head_must_be_seq_colon_hash(store, capsys):
    assert _verify(store.path, "--expect-head", "7:abc") == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the expected head must be SEQ:HASH") and err.count("\n") == 1
    assert AuditHead.parse(f" 3:{'A' * 64} ") == AuditHead(3, "a" * 64)


@pytest.mark.skipif(sys.platform == "win32", reason="posix modes")
def test_verify_of_a_log_being_written_reads_it_all(store):
    # a writer holding the WAL open: verify reads through it (mode=ro), and sees every entry
    with store._connect() as con:
        con.execute("BEGIN")
        con.execute("SELECT count(*) FROM audit").fetchone()
        v = verify_file(store.path)
        con.execute("COMMIT")
    assert v.ok and v.entries == 6


def test_twelve_racing_threads_never_overspend_and_the_chain_holds(tmp_path):
    from riskcore import dp

    s = Store(tmp_path / "t.db")
    book, src = _book(s)
    won: list[int] = []

    def spend(worker: int) -> None:
        for i in range(3):
            try:
                book.reserve(src, dp.LedgerEntry(f"w{worker} q{i}", "laplace", 0.1))
                won.append(worker)
            except dp.BudgetExceededError:
                pass

    threads = [threading.Thread(target=spend, args=(w,)) for w in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert len(won) == 10  # 36 attempts of 0.1 against a budget of 1: exactly 10 fit
    assert book.lookup(src).budget.spent()[0] == pytest.approx(1.0)
    v = s.verify()
    assert v.ok, v.reason
    releases = [e for e in s.audit() if e.action == "dp_release"]
    assert len(releases) == 10 and all(len(e.records) == 1 for e in releases)
