"""Saved assessments and the audit log: triggers refuse edits, the chain finds edits below them,
parallel writers lose nothing."""

from __future__ import annotations

import hashlib
import hmac
import io
import itertools
import json
import multiprocessing
import sqlite3
import sys
from contextlib import closing

import pytest

from riskcore.cli import main
from riskcore.errors import RiskcoreError
from riskcore.store import DB_ENV, GENESIS, Store, default_path, entry_hash

FP = "ab" * 32


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "r.db")
    for i in range(4):
        s.log("roles", user="ana", fingerprint=FP, changes={"step": i})
    return s


def _raw(store):
    return closing(sqlite3.connect(store.path, isolation_level=None))


def test_the_chain_links_each_entry_to_the_previous(store):
    entries = store.audit()
    assert [e.seq for e in entries] == [1, 2, 3, 4]
    assert entries[0].prev_hash == GENESIS
    for before, after in itertools.pairwise(entries):
        assert after.prev_hash == before.hash
    e = entries[2]
    text = json.dumps(e.changes, sort_keys=True)
    # h_i is HMAC-SHA256 (stdlib hmac, computed here apart) under the key beside the file
    key = bytes.fromhex((store.path.parent / "r.db.key").read_text().strip())
    msg = json.dumps(
        [e.seq, e.time, e.user, e.action, e.fingerprint, text, "[]", e.prev_hash],
        separators=(",", ":"),
    ).encode()
    assert e.hash == hmac.new(key, msg, hashlib.sha256).hexdigest()
    assert e.hash != entry_hash(e.seq, e.time, e.user, e.action, e.fingerprint, text, e.prev_hash)
    assert store.verify().ok


@pytest.mark.parametrize(
    ("sql", "word"),
    [
        ("UPDATE audit SET user = 'eve' WHERE seq = 2", "UPDATE refused"),
        ("DELETE FROM audit WHERE seq = 2", "DELETE refused"),
    ],
)
def test_the_triggers_refuse_edits(store, sql, word):
    with _raw(store) as con, pytest.raises(sqlite3.DatabaseError, match=word):
        con.execute(sql)
    assert store.verify().ok


def _below_the_triggers(store, sql):
    with _raw(store) as con:
        con.execute("DROP TRIGGER audit_no_update")
        con.execute("DROP TRIGGER audit_no_delete")
        con.execute(sql)
    Store(store.path)  # re-creates the triggers


def test_an_entry_changed_below_the_triggers_is_found(store):
    _below_the_triggers(store, """UPDATE audit SET changes = '{"step": 99}' WHERE seq = 2""")
    with _raw(store) as con, pytest.raises(sqlite3.DatabaseError):
        con.execute("DELETE FROM audit")  # the triggers are back
    v = store.verify()
    assert (v.ok, v.first_broken) == (False, 2)
    assert "changed" in v.reason


def test_an_entry_rehashed_with_plain_sha256_below_the_triggers_is_found(store):
    # the old chain's attack: re-hash the edited entry (no key needed for SHA-256)
    e = store.audit()[1]
    text = '{"step": 99}'
    h = entry_hash(e.seq, e.time, e.user, e.action, e.fingerprint, text, e.prev_hash)
    _below_the_triggers(store, f"UPDATE audit SET changes = '{text}', hash = '{h}' WHERE seq = 2")
    v = store.verify()
    assert (v.ok, v.first_broken) == (False, 2)


def test_an_entry_deleted_below_the_triggers_is_found(store):
    _below_the_triggers(store, "DELETE FROM audit WHERE seq = 3")
    v = store.verify()
    assert (v.ok, v.first_broken) == (False, 4)
    assert v.reason == "entry 3 is missing (the next is 4)"


def _writer(path: str, worker: int, n: int) -> None:
    s = Store(path)
    for i in range(n):
        s.log("write", user=f"w{worker}", changes={"worker": worker, "i": i})


@pytest.fixture
def clean_main(monkeypatch):
    """A spawned process re-imports the parent's __main__; after an AppTest that is the
    last Streamlit script run (Streamlit sets it), and the child would run a page."""
    import types

    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))


def test_eight_parallel_writer_processes_lose_nothing(tmp_path, clean_main):
    path = str(tmp_path / "p.db")
    Store(path)
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(path, w, 25)) for w in range(8)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0] * 8
    s = Store(path)
    got = {(e.changes["worker"], e.changes["i"]) for e in s.audit()}
    assert got == {(w, i) for w in range(8) for i in range(25)}
    assert s.verify().ok and s.verify().entries == 200
    with _raw(s) as con:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert con.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_save_load_delete_and_the_deletion_is_logged(tmp_path):
    s = Store(tmp_path / "a.db")
    profile = {"quasi_identifiers": ["age"], "targets": {"k": 5}}
    aid = s.save("March", fingerprint=FP, profile=profile, results={"k": 3}, user="ana")
    got = s.load(aid)
    assert (got.name, got.fingerprint, got.profile, got.results) == ("March", FP, profile, {"k": 3})
    s.delete(aid, user="bob")
    with pytest.raises(RiskcoreError, match=f"no saved assessment has the id {aid}"):
        s.load(aid)
    actions = [(e.action, e.user, e.changes.get("id")) for e in s.audit()]
    assert actions == [("save", "ana", aid), ("delete", "bob", aid)]
    assert s.verify().ok


def test_a_failed_save_leaves_neither_row_nor_entry(tmp_path):
    s = Store(tmp_path / "a.db")
    with pytest.raises(ValueError):
        s.save("x", fingerprint=FP, profile={"bad": float("nan")}, results={})
    assert s.assessments() == [] and s.audit() == []


def test_riskcore_db_overrides_the_path(tmp_path, monkeypatch):
    monkeypatch.setenv(DB_ENV, str(tmp_path / "env.db"))
    assert default_path() == tmp_path / "env.db"
    assert Store().path == tmp_path / "env.db"


def test_cli_verify_and_export(store, capsys, tmp_path):
    assert main(["audit", "verify", "--db", str(store.path)]) == 0
    assert "4 entries" in capsys.readouterr().out
    out = tmp_path / "audit.jsonl"
    assert main(["audit", "export", "--db", str(store.path), "--out", str(out)]) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["seq"] for x in lines] == [1, 2, 3, 4]
    assert lines[3]["hash"] == store.audit()[3].hash
    _below_the_triggers(store, "UPDATE audit SET user = 'eve' WHERE seq = 1")
    assert main(["audit", "verify", "--db", str(store.path)]) == 1
    assert "BROKEN at entry 1" in capsys.readouterr().err
    assert main(["audit", "verify", "--db", str(tmp_path / "none.db")]) == 2


def test_export_writes_json_lines(store):
    buf = io.StringIO()
    assert store.export(buf) == 4
    assert json.loads(buf.getvalue().splitlines()[0])["changes"] == {"step": 0}


def _endless_writer(path: str) -> None:
    s = Store(path)
    i = 0
    while True:
        s.log("write", changes={"i": i, "pad": "x" * 2000})
        i += 1


def test_a_writer_killed_mid_write_leaves_an_intact_chain(tmp_path, clean_main):
    import time

    path = str(tmp_path / "k.db")
    Store(path)
    p = multiprocessing.get_context("spawn").Process(target=_endless_writer, args=(path,))
    p.start()
    s = Store(path)
    deadline = time.monotonic() + 60
    while len(s.audit()) < 50 and time.monotonic() < deadline:
        time.sleep(0.05)
    p.kill()  # SIGKILL: no clean-up, possibly inside a transaction
    p.join(30)
    assert p.exitcode is not None and p.exitcode < 0
    v = s.verify()
    assert v.ok and v.entries >= 50
    assert [e.changes["i"] for e in s.audit()] == list(range(v.entries))
    s.log("after", user="ana")  # the database still takes writes
    assert s.verify().ok
    with _raw(s) as con:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)


DF = {"q": list("aabbbc"), "g": list("xxyyyy"), "s": list("001101")}


def _review(qis, targets=None):
    import pandas as pd

    from riskcore.profile import Profile
    from riskcore.review import review

    profile = {"quasi_identifiers": qis, "sensitive": ["s"]}
    if targets is not None:
        profile["targets"] = targets
    return review(pd.DataFrame(DF), Profile.read(profile), sha256=FP, name="d.csv")


def _saved_pair(tmp_path):
    """Two reports of one table saved: on q (k = 1) and on nothing coarser (k = 2 after a merge)."""
    import pandas as pd

    df = pd.DataFrame(DF)
    s = Store(tmp_path / "r.db")
    reports = [_review(qis) for qis in (["q"], ["g"])]
    ids = [
        s.save(
            n,
            fingerprint=FP,
            profile=r.profile.to_dict(),
            results=r.to_dict(),
            report="<html>",
            user="ana",
        )
        for n, r in zip(("on q", "on g"), reports, strict=True)
    ]
    return s, df, ids


def test_raw_data_are_stored_only_when_given(tmp_path):
    import pandas as pd

    s = Store(tmp_path / "r.db")
    df = pd.DataFrame({"zip": ["02139", "10001"], "age": [30, 41]})
    without = s.save("plain", fingerprint=FP, profile={}, results={"verdict": {"pass": True}})
    with_data = s.save("full", fingerprint=FP, profile={}, results={}, data=df)
    failed = s.save("v2", fingerprint=FP, profile={}, results={"verdict": {"passed": False}})
    assert s.data(without) is None
    pd.testing.assert_frame_equal(s.data(with_data), df)  # leading zeros kept
    listed = {x.name: x for x in s.summaries()}
    assert (listed["plain"].has_data, listed["full"].has_data) == (False, True)
    # the verdict of a riskcore-report/1 twin ("pass") and of a /2 twin ("passed")
    assert (listed["plain"].verdict, listed["full"].verdict, listed["v2"].verdict) == (
        True,
        None,
        False,
    )
    entries = [(e.changes["raw_data_stored"], e.changes["verdict"]) for e in s.audit()]
    assert entries == [(False, "pass"), (True, None), (False, "fail")]
    s.delete(failed)
    s.delete(with_data)
    with _raw(s) as con:
        assert con.execute("SELECT COUNT(*) FROM assessment_data").fetchone()[0] == 0


def test_reopen_accepts_the_same_file_and_refuses_another_both_logged(tmp_path):
    from riskcore.review import dataset_facts

    s, df, (first, _) = _saved_pair(tmp_path)
    saved, ok = s.reopen(first, dataset_facts(df, sha256=FP), columns=list(df.columns), user="bo")
    assert ok.matches and saved.profile["roles"]["quasi_identifiers"] == ["q"]
    other = df.iloc[:4]
    _, refused = s.reopen(
        first, dataset_facts(other, sha256="cd" * 32), columns=list(other.columns), user="bo"
    )
    assert not refused.matches and refused.differences == ("sha256", "rows")
    log = [e for e in s.audit() if e.action == "reopen"]
    assert [e.changes["outcome"] for e in log] == ["restored", "refused"]
    assert log[1].changes["differences"] == ["sha256", "rows"]
    assert log[1].changes["file_sha256"] == "cd" * 32 and log[1].user == "bo"
    assert s.verify().ok


def test_compare_two_saved_assessments_is_logged(tmp_path):
    s, _, (a, b) = _saved_pair(tmp_path)
    cmp = s.compare(a, b, user="cy")
    by = {f.figure: f for f in cmp.figures}
    # on q: classes a (2), b (3), c (1) -> k 1; on g: x (2), y (4) -> k 2
    assert (by["k"].a, by["k"].b, by["k"].safer) == (1, 2, "b")
    (entry,) = [e for e in s.audit() if e.action == "compare"]
    assert entry.changes["ids"] == [a, b] and "k" in entry.changes["figures_differing"]
    assert entry.fingerprint == FP


def test_an_empty_name_is_refused(tmp_path):
    s = Store(tmp_path / "r.db")
    with pytest.raises(RiskcoreError, match="give the assessment a name"):
        s.save("  ", fingerprint=FP, profile={}, results={})
    assert s.audit() == []


def test_reopen_refuses_a_file_without_a_column_the_saved_profile_names(tmp_path):
    # the same bytes' fingerprint, but the saved profile (version 2: its roles under "roles")
    # names the sensitive column s, which the file given now lacks
    from riskcore.review import dataset_facts

    s, df, (first, _) = _saved_pair(tmp_path)
    _, refused = s.reopen(first, dataset_facts(df, sha256=FP), columns=["q", "g"], user="bo")
    assert not refused.matches and refused.missing_columns == ("s",)
    (entry,) = [e for e in s.audit() if e.action == "reopen"]
    assert entry.changes["outcome"] == "refused" and entry.changes["missing_columns"] == ["s"]


def _v1_twin():
    """A riskcore-report/1 twin as the old report module saved it, written out by hand.

    The table of :data:`DF` on q: classes a (2, s = 0 0), b (3, s = 1 1 0), c (1, s = 1):
    k = 1, 3 classes, 1 unique record; prosecutor risks 1/2, 1/3, 1 are all above 0.09, so
    every record is at risk; expected re-identified J / n = 3/6; distinct l 1 (a and c);
    t (equal distance) max(|1 - 1/2|, |1/3 - 1/2|, |0 - 1/2|) = 1/2; linkage: only c's record
    is unique and its own (1 of 6); homogeneity: a and c, 3 people.
    """
    return {
        "schema": "riskcore-report/1",
        "schema_version": 1,
        "dataset": {"name": "d.csv", "sha256": FP, "fingerprint_of": "the file's bytes",
                    "rows": 6, "columns": 3, "missing": 0},
        "roles": {"identifiers": [], "quasi_identifiers": ["q"], "sensitive": ["s"],
                  "weights": [], "other": []},
        "reasons": {"q": "chosen", "s": "chosen"},
        "targets": {"k": 2, "l": None, "t": None, "threshold": 0.09,
                    "meanings": {"k": "smallest equivalence class allowed (Sweeney 2002)"}},
        "assessment": {
            "k": 1, "n_classes": 3, "unique_records": 1,
            "prosecutor": {"highest_risk": 1.0, "records_at_risk": 1.0, "success_rate": 0.5},
            "sensitive": {"s": {"distinct_l": 1, "t_closeness": 0.5}},
        },
        "checks": [{"criterion": "k-anonymity", "attribute": "the quasi-identifiers",
                    "target": 2, "achieved": 1, "pass": False}],
        "readings": [],
        "verdict": {"pass": False, "threshold": 0.09, "highest_risk": 1.0,
                    "records_at_risk": 1.0, "of": "the table as given",
                    "reason": "not met: k-anonymity on the quasi-identifiers"},
        "methods": [], "software": {"riskcore": "0.1.0"}, "parameters": {"c": 2.0},
        "command": "python -m riskcore report d.csv --profile profile.json",
        "remediation": None, "after": None, "privacy_budget": None, "checks_after": [],
        "special_uniques": None,
        "attacks": {
            "of": "the table as given",
            "linkage": {"settings": {"known": ["q"]},
                        "result": {"n_targets": 6, "correct": {"successes": 1, "n": 6,
                                                               "rate": 1 / 6}}},
            "homogeneity": [{"attribute": "s", "exposed_classes": 2, "exposed_records": 3}],
        },
        "attacks_after": None,
        "view": "the table as recorded (no remediation recipe applied)",
    }  # fmt: skip


def test_an_old_report_1_twin_still_lists_and_compares_with_a_new_one(tmp_path):
    s = Store(tmp_path / "r.db")
    old = _v1_twin()
    new = _review(["q"], {"k": 2}).to_dict()
    assert new["schema"] == "riskcore-report/2"
    id_old = s.save("old", fingerprint=FP, profile=old["roles"], results=old, user="ana")
    id_new = s.save("new", fingerprint=FP, profile={}, results=new, user="ana")
    listed = {x.name: x for x in s.summaries()}
    assert (listed["old"].dataset, listed["old"].verdict) == ("d.csv", False)
    assert (listed["new"].dataset, listed["new"].verdict) == ("d.csv", False)
    cmp = s.compare(id_old, id_new, user="cy")
    assert cmp.same_data and cmp.roles == {}
    by = {f.figure: f for f in cmp.figures}
    # the same table on the same QIs: every figure of the table reads alike from /1 and /2
    for figure, value in [
        ("k", 1), ("equivalence classes", 3), ("unique records", 1),
        ("prosecutor: highest record risk", 1.0), ("prosecutor: records at risk", 1.0),
        ("prosecutor: expected re-identified", 0.5), ("distinct l (s)", 1), ("t (s)", 0.5),
        ("linkage: re-identified correctly", 1 / 6), ("homogeneity: people exposed (s)", 3),
        ("verdict", "fail"), ("quasi-identifiers", "q"),
    ]:  # fmt: skip
        assert (by[figure].a, by[figure].b, by[figure].changed) == (value, value, False), figure
    # the targets, one row per privacy model: k alike; the old 0.09 is now the exact 1/11
    assert by["target: k-anonymity"].changed is False
    risk = by["target: record-risk"]
    assert "0.09," in risk.a and str(1 / 11) in risk.b and risk.changed
    assert not [f for f in cmp.figures if f.figure.startswith("target:") and None in (f.a, f.b)]
    (entry,) = [e for e in s.audit() if e.action == "compare"]
    assert entry.changes["figures_differing"] == ["target: record-risk"]
