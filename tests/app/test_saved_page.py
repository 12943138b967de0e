"""AppTest: save from the Report page; the Saved-assessments page lists, reopens (restoring
the roles only for the file assessed), compares, deletes, and shows and checks the audit log.

Every test has a database of its own (``RISKCORE_DB``, tests/conftest.py).
"""

from __future__ import annotations

import io
import re

import pandas as pd

from riskcore.criteria import Targets
from riskcore.demo import make_people
from riskcore.profile import Profile
from riskcore.review import review
from riskcore.roles import ColumnRoles
from riskcore.store import Store, default_path
from tests.app.helpers import (
    roles_of,
    run,
    seen,
    set_roles,
    set_settings,
    settings_of,
    static_table,
)


def csv_bytes(n: int, seed: int) -> bytes:
    buf = io.StringIO()
    make_people(n, seed=seed).to_csv(buf, index=False)
    return buf.getvalue().encode()


def missing(raw: bytes) -> int:
    """Return the missing cells of a CSV as pandas counts them."""
    return int(pd.read_csv(io.BytesIO(raw)).isna().sum().sum())


def frame_with(at, column: str) -> pd.DataFrame:
    """Return the page's table that has ``column``."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def upload_and_save(name: str, raw: bytes):
    """Upload ``raw`` on the Data page, build its report and save it; return the AppTest."""
    at = run()
    at.file_uploader(key="rc_upload").set_value((name, raw, "text/csv")).run()
    at.switch_page("pages/report.py").run()
    at.button(key="rc_report_build").click().run()
    assert not at.exception, at.exception
    at.text_input(key="rc_save_name").set_value("first look").run()
    at.session_state["rc_user"] = "ana"  # the sidebar's name, given once (test_audit_name)
    at.button(key="rc_save").click().run()
    assert not at.exception, at.exception
    return at


def test_the_suite_uses_a_database_of_its_own(database):
    assert default_path() == database
    assert "share/riskcore" not in str(database)


def test_save_list_and_reopen_the_same_file_restores_the_roles(database):
    raw = csv_bytes(400, 3)
    at = upload_and_save("people.csv", raw)
    assert any("Saved as #1 first look" in seen(s.value) for s in at.success)
    roles_saved = dict(roles_of(at))
    dataset_key = at.session_state["rc_dataset"]["key"]
    (item,) = Store(database).assessments()
    assert item.name == "first look" and item.user == "unauthenticated: ana"
    assert item.profile["roles"]["quasi_identifiers"] == [
        c for c, r in roles_saved.items() if r == "quasi_identifier"
    ]
    assert item.results["dataset"]["sha256"] == dataset_key.removeprefix("upload-")
    assert item.report.startswith("<!DOCTYPE html>")
    assert Store(database).data(item.id) is None  # the raw data only when ticked

    # the session moves on: back to the demo, other roles and targets
    set_settings(at, targets=Targets.of(k=3))
    at.session_state["rc_dataset"] = {
        "source": "demo",
        "name": "Demo people (32,561 rows)",
        "key": "demo-32561-0",
        "file_id": None,
    }
    at.switch_page("pages/saved.py").run()
    assert not at.exception, at.exception
    listed = frame_with(at, "verdict")
    assert listed["name"].tolist() == ["first look"]
    assert listed["user"].tolist() == ["unauthenticated: ana"]
    assert listed["verdict"].tolist() == ["fail"]
    assert listed["fingerprint"].tolist() == [item.fingerprint[:12]]
    assert listed["dataset"].tolist() == ["people.csv"]

    at.radio(key="rc_saved_source").set_value("a file (upload)").run()
    uploader = next(u for u in at.get("file_uploader") if u.key.startswith("rc_saved_upload"))
    uploader.set_value(("copy of people.csv", raw, "text/csv")).run()
    at.button(key="rc_saved_reopen").click().run()
    assert not at.exception, at.exception
    assert any(seen(s.value).startswith("Reopened 'first look'") for s in at.success)
    # the same bytes under another name: the upload is the dataset again, with its roles
    assert at.session_state["rc_dataset"]["key"] == dataset_key
    assert roles_of(at) == roles_saved
    assert at.session_state["rc_roles_for"] == dataset_key
    assert settings_of(at).targets.find("k-anonymity").k == 11
    actions = [(e.action, e.user) for e in Store(database).audit()]
    assert actions == [("save", "unauthenticated: ana"), ("reopen", "unauthenticated: ana")]
    assert Store(database).audit()[-1].changes["outcome"] == "restored"
    # and every page shows them: the Anonymity page assesses the restored QIs
    at.switch_page("pages/anonymity.py").run()
    assert not at.exception


def test_reopen_with_other_data_is_refused_and_the_difference_shown(database):
    first, other = csv_bytes(400, 3), csv_bytes(300, 4)
    at = upload_and_save("people.csv", first)
    roles_before = dict(roles_of(at))
    key_before = at.session_state["rc_dataset"]["key"]
    at.switch_page("pages/saved.py").run()
    at.radio(key="rc_saved_source").set_value("a file (upload)").run()
    uploader = next(u for u in at.get("file_uploader") if u.key.startswith("rc_saved_upload"))
    uploader.set_value(("people.csv", other, "text/csv")).run()
    at.button(key="rc_saved_reopen").click().run()
    assert not at.exception, at.exception
    (err,) = at.error
    assert seen(err.value).startswith("Refused: this is not the file 'first look' assessed")
    assert "rows 400 saved, 300 now" in seen(err.value)
    diff = frame_with(at, "same")
    assert diff.set_index("figure")["same"].to_dict() == {
        "SHA-256": "no",
        "rows": "no",
        "columns": "yes",
        "missing cells": "yes" if missing(first) == missing(other) else "no",
    }
    # nothing restored, nothing replaced
    assert at.session_state["rc_dataset"]["key"] == key_before
    assert roles_of(at) == roles_before
    last = Store(database).audit()[-1]
    assert (last.action, last.changes["outcome"]) == ("reopen", "refused")
    assert last.changes["differences"][:2] == ["sha256", "rows"]


def seed(database, names: tuple[str, str] = ("on q", "on g")) -> list[int]:
    """Save two reports of one table straight into the test's database: QIs q, then g."""
    df = pd.DataFrame({"q": list("aabbbc"), "g": list("xxyyyy"), "s": list("001101")})
    s = Store(database)
    out = []
    for name, qis in zip(names, (["q"], ["g"]), strict=True):
        p = Profile(roles=ColumnRoles(quasi_identifiers=tuple(qis), sensitive=("s",)))
        r = review(df, p, name="t.csv")
        out.append(s.save(name, fingerprint=r.dataset["sha256"], profile=p.to_dict(),
                          results=r.to_dict(), user="seed"))  # fmt: skip
    return out


def test_compare_two_side_by_side(database):
    a, b = seed(database)
    at = run("pages/saved.py")
    assert at.selectbox(key="rc_saved_a").value == a
    assert at.selectbox(key="rc_saved_b").value == b
    at.button(key="rc_saved_compare").click().run()
    assert not at.exception, at.exception
    # a static table, whose cells wrap: a dataframe cut the figure names at 1024 px
    assert not [d for d in at.dataframe if "safer" in d.value.columns]
    table = static_table(at, "safer")
    assert table.index.name == "figure"
    # on q: classes of 2, 3, 1 -> k 1; on g: classes of 2 and 4 -> k 2
    assert table.loc["k", "A: on q"] == "1" and table.loc["k", "B: on g"] == "2"
    assert table.loc["k", "B - A"] == "+1" and table.loc["k", "safer"] == "B"
    assert any("assess the same file" in seen(m.value) for m in at.markdown)
    last = Store(database).audit()[-1]
    assert last.action == "compare" and last.changes["ids"] == [a, b]


def test_the_comparison_shows_hostile_names_as_text(database):
    """The static table renders every cell and header as markdown: an assessment named as
    an image link made the viewer's browser fetch it. Each is escaped (ui.core.tables.escaped)
    and read as written."""
    hostile = "![p](http://127.0.0.9/p.png)"
    seed(database, (hostile, "<img src=http://127.0.0.9/c>"))
    at = run("pages/saved.py")
    at.button(key="rc_saved_compare").click().run()
    assert not at.exception, at.exception
    (raw,) = [t.value for t in at.table]
    sources = [*map(str, raw.columns), *map(str, raw.index), *raw.to_numpy().ravel().tolist()]
    assert not [x for x in sources if re.search(r"(?<!\\)[<\[\]!(]", x)]  # each escaped
    shown = static_table(at, "safer")
    assert f"A: {hostile}" in shown.columns and "B: <img src=http://127.0.0.9/c>" in shown.columns


def test_delete_asks_for_confirmation_and_is_logged(database):
    a, b = seed(database)
    at = run("pages/saved.py")
    at.selectbox(key="rc_saved_victim").set_value(a).run()
    assert at.button(key="rc_saved_delete").disabled
    at.checkbox(key="rc_saved_sure").check().run()
    at.button(key="rc_saved_delete").click().run()
    assert not at.exception, at.exception
    assert any(seen(s.value).startswith("Deleted #1 on q") for s in at.success)
    assert [x.id for x in Store(database).summaries()] == [b]
    assert frame_with(at, "verdict")["name"].tolist() == ["on g"]
    last = Store(database).audit()[-1]
    assert (last.action, last.changes["id"]) == ("delete", a)
    # the audit log is on the page, newest first, and its chain holds
    log = frame_with(at, "action")
    assert log["action"].tolist() == ["delete", "save", "save"]
    at.button(key="rc_saved_verify").click().run()
    assert any("The audit log is intact: 3 entries" in seen(s.value) for s in at.success)


def test_a_broken_chain_is_named_on_the_page(database):
    import sqlite3
    from contextlib import closing

    seed(database)
    with closing(sqlite3.connect(database, isolation_level=None)) as con:
        con.execute("DROP TRIGGER audit_no_update")
        con.execute("UPDATE audit SET user = 'eve' WHERE seq = 1")
    at = run("pages/saved.py")
    at.button(key="rc_saved_verify").click().run()
    assert any("BROKEN at entry 1" in seen(e.value) for e in at.error)


def test_an_empty_database_says_what_to_do():
    at = run("pages/saved.py")
    assert not at.exception
    assert any("Nothing is saved yet" in i.value for i in at.info)


def test_the_raw_data_are_stored_only_when_ticked(database):
    raw = csv_bytes(200, 5)
    at = upload_and_save("people.csv", raw)  # unticked: no data
    assert not at.checkbox(key="rc_save_raw").value
    at.checkbox(key="rc_save_raw").check().run()
    at.button(key="rc_save").click().run()
    assert any("with its raw data" in seen(s.value) for s in at.success)
    first, second = Store(database).summaries()
    assert (first.has_data, second.has_data) == (False, True)
    stored = Store(database).data(second.id)
    assert stored.shape == pd.read_csv(io.BytesIO(raw)).shape
    assert [e.changes["raw_data_stored"] for e in Store(database).audit()] == [False, True]


def test_reopen_with_the_data_loaded_now_restores_roles_targets_and_the_recipe(database):
    at = upload_and_save("people.csv", csv_bytes(300, 6))
    roles_saved = dict(roles_of(at))
    key = at.session_state["rc_dataset"]["key"]
    # the session moves on with the same data: other roles, other targets, a recipe
    set_roles(at, {c: "other" for c in roles_saved} | {"age": "quasi_identifier"})
    set_settings(at, targets=Targets.of(k=3, threshold=1 / 3))
    at.session_state["rc_remediation"] = {"for": key, "recipe": {"qis": ["age"]}}
    at.switch_page("pages/saved.py").run()
    assert at.radio(key="rc_saved_source").value == "the data loaded now"
    at.button(key="rc_saved_reopen").click().run()
    assert not at.exception, at.exception
    assert roles_of(at) == roles_saved
    # the saved profile's targets: the k = 11 preset (k 11, highest record risk exactly 1/11)
    assert settings_of(at).targets == Targets.of(k=11, threshold=1 / 11, max_suppression=0.02)
    assert "rc_remediation" not in at.session_state  # the saved profile had none
    at.switch_page("pages/uniqueness.py").run()
    assert not at.exception


def test_reopen_restores_the_missing_value_policy(database):
    # the report's profile carries the policy; reopening must not put it back to "own"
    at = run()
    at.file_uploader(key="rc_upload").set_value(("people.csv", csv_bytes(300, 6), "text/csv")).run()
    set_settings(at, missing="any")
    at.switch_page("pages/report.py").run()
    at.button(key="rc_report_build").click().run()
    at.text_input(key="rc_save_name").set_value("any policy").run()
    at.button(key="rc_save").click().run()
    assert not at.exception, at.exception
    set_settings(at, missing="own")
    at.switch_page("pages/saved.py").run()
    at.button(key="rc_saved_reopen").click().run()
    assert not at.exception, at.exception
    assert settings_of(at).missing == "any"


def test_a_missing_audit_key_is_said_on_the_page_not_raised(database):
    seed(database)
    (database.parent / "riskcore.db.key").unlink()
    at = run("pages/saved.py")
    assert not at.exception
    assert any("audit key" in seen(e.value) and "is missing" in seen(e.value) for e in at.error)
