"""The work kept for a reload (riskcore.store.working): per file and session, newest offered,
another session's only, a few kept, nothing written by a look, never a key."""

from __future__ import annotations

import pytest

from riskcore.deidentify.masking import SecretKey
from riskcore.errors import RiskcoreError
from riskcore.store.working import KEEP, KeptWork, WorkStore, holds_work

FP = "a" * 64


def test_looking_makes_no_database(tmp_path):
    path = tmp_path / "riskcore.db"
    assert WorkStore(path).latest(FP) is None
    assert not holds_work(path) and not path.exists()


@pytest.mark.parametrize("name", ["work#1.db", "work%41.db", "work?.db"])
def test_a_database_whose_name_has_uri_characters_is_read(tmp_path, name):
    """A path was pasted into an SQLite URI: '#' opened (and made) another file, '%' failed."""
    ws = WorkStore(tmp_path / name)
    ws.keep(FP, "s1", {"roles": 1})
    assert holds_work(tmp_path / name)
    assert ws.latest(FP).work == {"roles": 1}
    # no other file was made ("work#1.db" made "work"): only the database's own
    assert all(p.name.startswith(name) for p in tmp_path.iterdir())


def test_the_newest_work_of_another_session_is_offered(tmp_path):
    ws = WorkStore(tmp_path / "riskcore.db")
    ws.keep(FP, "s1", {"roles": 1})
    ws.keep(FP, "s2", {"roles": 2})
    ws.keep("b" * 64, "s3", {"roles": 3})  # another file
    assert ws.latest(FP).work == {"roles": 2}
    assert ws.latest(FP, other_than="s2").work == {"roles": 1}  # never a session's own
    ws.keep(FP, "s1", {"roles": 4})  # a session's later change replaces its row
    got = ws.latest(FP)
    assert (got.session, got.work) == ("s1", {"roles": 4})
    assert KeptWork.from_dict(got.to_dict()) == got
    assert ws.latest("c" * 64) is None


def test_only_the_newest_few_are_kept(tmp_path):
    ws = WorkStore(tmp_path / "riskcore.db")
    for i in range(KEEP + 3):
        ws.keep(FP, f"s{i}", {"n": i})
    import sqlite3

    with sqlite3.connect(tmp_path / "riskcore.db") as con:
        rows = con.execute("SELECT work FROM working_profiles ORDER BY saved").fetchall()
    assert [r[0] for r in rows] == [f'{{"n": {i}}}' for i in range(3, KEEP + 3)]


def test_a_key_or_anything_not_plain_json_is_refused(tmp_path):
    ws = WorkStore(tmp_path / "riskcore.db")
    key = SecretKey.generate()
    with pytest.raises(RiskcoreError, match="not plain JSON") as err:
        ws.keep(FP, "s1", {"recipe": {"key": key}})
    assert key.reveal_hex() not in str(err.value)
    with pytest.raises(RiskcoreError):
        ws.keep(FP, "s1", {"x": float("nan")})
    assert ws.latest(FP) is None
