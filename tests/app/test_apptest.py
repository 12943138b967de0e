"""AppTest: every page, empty and seeded, against riskcore's own results."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st

from riskcore.criteria import Targets
from riskcore.demo import make_people
from riskcore.metrics import assess
from riskcore.roles import suggest_roles
from tests.app.helpers import (
    data_uploader,
    demo_roles,
    metrics,
    plotly_values,
    roles_of,
    run,
    seen,
    set_settings,
    static_table,
)
from tests.conftest import ROOT
from ui.core.safe import md


def test_every_page_file_is_registered():
    app = (ROOT / "app.py").read_text()
    pages = sorted(p.name for p in (ROOT / "pages").iterdir() if not p.name.startswith("."))
    assert pages, "no pages"
    for name in pages:
        assert name.endswith(".py"), f"pages/ holds a non-page file: {name}"
        assert f'"pages/{name}"' in app, f"pages/{name} is not registered in app.py"


def test_data_page_opens_on_demo_with_suggested_roles():
    at = run()
    assert md("Demo people: 32,561 rows x 14 columns") == at.subheader[0].value  # said once
    assert len(at.dataframe) >= 2, "no column summary or role editor"
    roles = roles_of(at)
    assert roles["name"] == "identifier" and roles["ssn"] == "identifier"
    assert roles["diagnosis"] == "sensitive" and roles["age"] == "quasi_identifier"
    # the demo starts from its release view: Safe Harbor identifiers are removed
    assert roles["zip"] == "identifier" and roles["date_of_birth"] == "identifier"
    # ... and that view is the rule every upload gets, not a list of its own
    expected = suggest_roles(make_people(32_561, seed=0))
    assert roles == {c: x.role for c, x in expected.items()}
    editor = at.dataframe[-1].value
    assert editor["why it was suggested"].tolist() == [x.reason for x in expected.values()]
    assert any("Safe Harbor" in r for r in editor["why it was suggested"])


COUNTRIES = ["United-States", "Mexico", "India"]


def adult_like(n: int = 3_000) -> pd.DataFrame:
    """A table with UCI Adult's 15 column names and kinds of values (education-num 1:1)."""
    people = make_people(n, seed=5)
    rng = np.random.default_rng(5)
    return pd.DataFrame(
        {
            "age": people["age"],
            "workclass": people["workclass"],
            "fnlwgt": rng.integers(12_285, 1_484_705, n),
            "education": people["education"],
            "education-num": people["education"].cat.codes + 1,
            "marital-status": people["marital_status"],
            "occupation": people["occupation"],
            "relationship": rng.choice(["Husband", "Wife", "Own-child", "Not-in-family"], n),
            "race": people["race"],
            "sex": people["sex"],
            "capital-gain": np.where(rng.random(n) < 0.9, 0, rng.integers(100, 99_999, n)),
            "capital-loss": np.where(rng.random(n) < 0.95, 0, rng.integers(100, 4_356, n)),
            "hours-per-week": people["hours_per_week"],
            "native-country": rng.choice(COUNTRIES, n, p=[0.9, 0.08, 0.02]),
            "income": people["income"],
        }
    )


def test_uploaded_adult_gets_a_small_qi_set_and_a_redundancy_note():
    at = run()
    buf = io.StringIO()
    adult_like().to_csv(buf, index=False)
    at.file_uploader(key="rc_upload").set_value(
        ("adult.csv", buf.getvalue().encode(), "text/csv")
    ).run()
    assert not at.exception
    roles = roles_of(at)
    qis = [c for c, r in roles.items() if r == "quasi_identifier"]
    assert len(qis) <= 6, qis
    assert {"age", "sex", "race", "education"} <= set(qis) and "education-num" not in qis
    notes = [i.value for i in at.info if "Redundant columns" in i.value]
    assert len(notes) == 1
    assert md("education-num is a function of education") in notes[0]
    assert md("(16 values, one-to-one)") in notes[0]
    editor = at.dataframe[-1].value
    why = dict(zip(editor["column"], editor["why it was suggested"], strict=True))
    assert why["education-num"].startswith("education-num is a function of education")
    # the full reasons, which the editor's cells may cut off, are listed below it
    text = " ".join(m.value for m in at.markdown)
    assert md(why["education-num"]) in text and md(why["fnlwgt"]) in text


def test_uniqueness_page_numbers_match_riskcore():
    qis = ["age", "sex", "zip"]
    at = run("pages/uniqueness.py", demo_roles(qis))
    a = assess(make_people(32_561, seed=0), quasi_identifiers=qis)
    m = metrics(at)
    assert m["Records"] == f"{a.n_records:,}"
    assert m["Equivalence classes"] == f"{a.n_classes:,}"
    assert m["Unique people"] == f"{a.unique_records:,}"
    assert m["k (smallest class)"] == f"{a.k:,}"
    captions = " ".join(c.value for c in at.caption)
    assert md(f"{a.unique_records:,} people") in captions
    charts = at.get("plotly_chart")
    specs = [json.loads(c.proto.spec) for c in charts]
    titles = [s["layout"]["title"]["text"] for s in specs]
    assert any("equivalence-class size" in t for t in titles)
    hist = next(s for s in specs if "equivalence-class size" in s["layout"]["title"]["text"])
    assert plotly_values(hist["data"][0]["y"])[0] == a.unique_records  # first bar: uniques
    for s in specs:
        assert s["layout"]["xaxis"]["title"]["text"] and s["layout"]["yaxis"]["title"]["text"]


def _failing(result, *, l, t):  # noqa: E741 - the papers' name
    """Return the classes with fewer than l distinct values or a distance above t (by hand)."""
    pc = result.per_class
    return np.flatnonzero((pc["distinct"] < l) | (pc["t"] > t + 1e-12))


def _with_l_and_t(at, page):
    set_settings(at, targets=Targets.of(k=11, threshold=1 / 11, l=2, t=0.2, max_suppression=0.02))
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def test_anonymity_page_targets_and_failing_classes():
    qis, sens = ["age", "sex", "race"], ["diagnosis", "income"]
    at = _with_l_and_t(run(None, demo_roles(qis, sens)), "pages/anonymity.py")
    a = assess(make_people(32_561, seed=0), quasi_identifiers=qis, sensitive=sens)
    m = metrics(at)
    assert m["k"] == f"{a.k:,}"
    at_risk = round(a.prosecutor.records_at_risk * a.n_records)
    assert m["records at risk (prosecutor)"] == f"{at_risk:,}"
    text = " ".join(x.value for x in at.markdown)
    failing = _failing(a.sensitive["income"], l=2, t=0.2)
    assert f"{len(failing):,} classes fail" in text
    checks = static_table(at, "required").set_index("target")  # integers, never "1.000"
    assert checks.loc["k-anonymity", ["achieved", "required"]].tolist() == [f"{a.k:,}", "11"]
    assert checks.loc["distinct l-diversity of diagnosis", ["achieved", "required"]].tolist() == [
        f"{a.sensitive['diagnosis'].distinct_l:,}",
        "2",
    ]
    assert checks.loc["highest record risk (prosecutor)", "required"] == "1/11 (0.09091)"

    # the k metric points the way of the risk: below its target, a red arrow down
    def arrow(m):
        fields = m.proto.DESCRIPTOR.fields_by_name
        return (
            fields["direction"].enum_type.values_by_number[m.proto.direction].name,
            fields["color"].enum_type.values_by_number[m.proto.color].name,
        )

    k_metric = next(x for x in at.metric if x.label == "k")
    assert (k_metric.delta, arrow(k_metric)) == ("below target", ("DOWN", "RED"))
    risk_metric = next(x for x in at.metric if x.label == "records at risk (prosecutor)")
    assert arrow(risk_metric) == ("NONE", "GRAY")  # a definition, not a change
    # raise the k target: the k check fails, in the verdict
    next(w for w in at.selectbox if w.label == "Targets").set_value("custom").run()
    next(n for n in at.number_input if n.label.startswith("k (")).set_value(10_000).run()
    assert not at.exception
    assert any("k-anonymity" in seen(e.value) and "against 10,000" in seen(e.value)
               for e in at.error)  # fmt: skip


def test_pages_without_qis_prompt_friendly():
    roles = {c: "other" for c in make_people(100).columns}
    for page in ("pages/uniqueness.py", "pages/anonymity.py"):
        at = run(page, roles)
        assert any("quasi-identifier" in i.value for i in at.info)


def test_upload_path_and_bad_upload():
    at = run()
    df = pd.DataFrame(
        {"zip": ["02139", "02139", "10001"], "sex": ["F", "F", "M"], "dx": ["flu", "hiv", "flu"]}
    )
    buf = io.StringIO()
    df.to_csv(buf, index=False)
    at.file_uploader(key="rc_upload").set_value(
        ("tiny.csv", buf.getvalue().encode(), "text/csv")
    ).run()
    assert not at.exception
    assert md("tiny.csv: 3 rows x 3 columns") in at.subheader[0].value
    # a 5-digit ZIP is a Safe Harbor identifier on uploads as on the demo
    assert roles_of(at)["zip"] == "identifier"
    assert roles_of(at)["sex"] == "quasi_identifier"
    at.switch_page("pages/uniqueness.py").run()
    assert metrics(at)["k (smallest class)"] == "1"
    at.switch_page("pages/data.py").run()
    # the uploader was renewed after the read: it no longer holds the file's bytes
    assert data_uploader(at).key == "rc_upload_1" and data_uploader(at).value is None
    data_uploader(at).set_value(("bad.csv", b"a,b\n1,2,3\n", "text/csv")).run()
    assert not at.exception
    assert any("more fields than the header" in e.value for e in at.error)
    # nothing is lost: the table loaded before the bad file is still the one in use
    assert md("tiny.csv: 3 rows x 3 columns") in at.subheader[0].value
    assert any(md("still tiny.csv") in c.value for c in at.caption)
    # the message goes with its cause: once the bad file is removed, no error remains
    data_uploader(at).set_value(None).run()
    assert not at.exception
    assert not any("more fields than the header" in e.value for e in at.error)
    assert md("tiny.csv: 3 rows x 3 columns") in at.subheader[0].value


def test_data_page_states_the_upload_limit_and_the_way_around_it():
    at = run()
    limit = st.get_option("server.maxUploadSize")
    assert f"up to {limit:,} MB" in at.file_uploader(key="rc_upload").label
    note = " ".join(c.value for c in at.caption)
    assert f"Files up to {limit:,} MB" in note and "riskcore assess" in note


def test_reset_forgets_every_widget_value():
    at = run("pages/anonymity.py", demo_roles(["age", "sex"]))
    box = next(n for n in at.number_input if n.label.startswith("sampling fraction"))
    default = box.value
    box.set_value(0.25).run()
    assert next(n for n in at.number_input if n.label.startswith("sampling fraction")).value == 0.25
    next(w for w in at.selectbox if w.label == "Targets").set_value("k = 5").run()
    at.switch_page("app.py").run()
    next(b for b in at.sidebar.button if b.label == "Reset session").click().run()
    at.switch_page("pages/anonymity.py").run()
    assert not at.exception
    assert next(n for n in at.number_input if n.label.startswith("sampling fraction")).value == (
        default
    )
    assert next(w for w in at.selectbox if w.label == "Targets").value == "k = 11"


def test_role_profile_round_trip(tmp_path: Path):
    at = run()
    profile = json.dumps({"quasi_identifiers": ["age", "sex"], "sensitive": ["income"]})
    at.file_uploader(key="rc_profile").set_value(
        ("roles.json", profile.encode(), "application/json")
    ).run()
    assert not at.exception
    roles = roles_of(at)
    assert roles["age"] == "quasi_identifier" and roles["zip"] == "other"
    bad = json.dumps({"quasi_identifiers": ["nope"]})
    at.file_uploader(key="rc_profile").set_value(
        ("r2.json", bad.encode(), "application/json")
    ).run()
    assert any("not in the table" in e.value for e in at.error)


def test_anonymity_page_says_how_many_failing_classes_it_shows_and_offers_them_all():
    qis = ["age", "sex", "race", "marital_status", "education"]
    at = _with_l_and_t(run(None, demo_roles(qis, ["diagnosis"])), "pages/anonymity.py")
    a = assess(make_people(32_561, seed=0), quasi_identifiers=qis, sensitive=["diagnosis"])
    n = len(_failing(a.sensitive["diagnosis"], l=2, t=0.2))
    assert n > 500
    text = " ".join(x.value for x in at.markdown)
    assert f"Showing 500 of {n:,}; the download below has them all." in text
    assert len(at.dataframe[-1].value) == 500
    buttons = at.get("download_button")
    assert len(buttons) == 1
    assert f"Download all {n:,} failing classes (CSV)" in str(buttons[0].proto)


def test_a_read_upload_leaves_streamlits_upload_store(monkeypatch):
    """The store keeps a session's files until the session shuts down (long after a tab
    closes): once parsed, the upload's bytes are dropped from it; a failed file stays."""
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

    removed: list[str] = []
    real = MemoryUploadedFileManager.remove_file

    def spy(self, session_id, file_id):
        removed.append(file_id)
        real(self, session_id, file_id)

    monkeypatch.setattr(MemoryUploadedFileManager, "remove_file", spy)
    at = run()
    data_uploader(at).set_value(("bad.csv", b"a,b\n1,2,3\n", "text/csv")).run()
    assert at.error and not removed  # the failed file stays, with its message
    csv = pd.DataFrame({"zip": ["02139", "10001"], "sex": ["F", "M"]}).to_csv(index=False)
    data_uploader(at).set_value(("t.csv", csv.encode(), "text/csv")).run()
    assert md("t.csv: 2 rows x 2 columns") in at.subheader[0].value
    assert len(removed) == 1


def test_an_upload_lives_in_the_session_cache_and_a_dropped_cache_says_so():
    """Streamlit drops session caches when the tab disconnects: the table goes with them."""

    at = run()
    csv = pd.DataFrame({"zip": ["02139", "10001"], "sex": ["F", "M"]}).to_csv(index=False)
    data_uploader(at).set_value(("t.csv", csv.encode(), "text/csv")).run()
    assert md("t.csv: 2 rows x 2 columns") in at.subheader[0].value
    assert "table" not in at.session_state["rc_dataset"]  # no data in session state
    st.cache_resource.clear()  # a disconnect drops the session caches (and more)
    at.run()
    assert not at.exception
    assert any(md("t.csv was released from memory") in w.value for w in at.warning)
    assert "Demo people" in at.subheader[0].value


def test_uniqueness_page_waits_for_a_button_on_a_large_table(monkeypatch):
    """Counting every QI combination takes seconds at 1M rows: not on page open."""
    from ui.core import state

    calls = []
    import ui.core.cached

    real = ui.core.cached.subset_uniqueness

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(state, "AUTO_RUN_ROWS", 1_000)
    monkeypatch.setattr(ui.core.cached, "subset_uniqueness", counting)
    at = run("pages/uniqueness.py", demo_roles(["age", "sex", "race"]))
    assert calls == [] and any("runs when you press" in i.value for i in at.info)
    assert "Records" in metrics(at)  # the one partition of the page is shown at once
    at.button(key="rc_subsets_run_button").click().run()
    assert not at.exception and len(calls) == 1
    assert any("combination" in c.value for c in at.caption)


def test_uniqueness_share_is_not_drawn_as_a_change():
    at = run("pages/uniqueness.py", demo_roles(["age", "sex", "race"]))
    m = next(x for x in at.metric if x.label == "Unique people")
    fields = m.proto.DESCRIPTOR.fields_by_name
    direction = fields["direction"].enum_type.values_by_number[m.proto.direction].name
    assert m.delta.endswith("of records") and direction == "NONE"  # no arrow on a share
