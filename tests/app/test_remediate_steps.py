"""AppTest: the Remediate page's own hierarchies, outlier clipping, date shifting, the
free-text scan, the recipe's steps, and the report's view."""

from __future__ import annotations

import hashlib
import hmac

import pandas as pd

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import (
    default_hierarchy,
    hierarchy_from_table,
    interval_hierarchy,
)
from riskcore.deidentify.search.lattice import Lattice
from riskcore.deidentify.search.run import search
from riskcore.demo import make_people
from riskcore.freetext import presidio_available
from tests.app.helpers import metrics, run, seen


def level_sliders(at):
    """The Remediate page's level sliders (not the search's steering inputs)."""
    return [s for s in at.select_slider if s.key.startswith("rc_rem_level_")]


QIS = ["age", "education", "sex", "race", "marital_status"]  # the demo's suggested QIs
EDIT = "rc_rem_hedit_education_0"


def _lattice(df, **own):
    hier = {q: own.get(q) or default_hierarchy(df[q]) for q in QIS}
    return Lattice(df, hier, targets=Targets.of(k=11, max_suppression=0.02))


def _edits(frame: pd.DataFrame, column: str, old: str, new: str) -> dict:
    rows = {int(i): {column: new} for i in frame.index[frame[column] == old]}
    return {"edited_rows": rows, "added_rows": [], "deleted_rows": []}


def test_an_edited_hierarchy_is_checked_then_used_by_the_levels_and_the_search():
    df = make_people(32_561, seed=0)
    frame = default_hierarchy(df["education"]).to_frame(sort=True).astype(str)
    at = run("pages/remediate.py")
    at.selectbox(key="rc_rem_hq").set_value("education").run()
    # one row of "Graduate or professional" moved to another level-2 group: two parents
    first = int(frame.index[frame["level 1"] == "Graduate or professional"][0])
    bad = {"edited_rows": {first: {"level 2": "High school or less"}}}
    at.session_state[EDIT] = {**bad, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    (err,) = [e.value for e in at.error]
    assert "'Graduate or professional' at level 1 has 2 parents at level 2" in seen(err)
    assert not [b for b in at.button if b.key == "rc_rem_huse_education"]
    # Bachelor's joins the graduate group at level 1: consistent, and used on the click
    at.session_state[EDIT] = _edits(frame, "level 1", "Bachelor's", "Graduate or professional")
    at.run()
    assert not at.error and any("consistent" in s.value for s in at.success)
    at.button(key="rc_rem_huse_education").click().run()
    assert not at.exception
    spec = at.session_state["rc_rem_store"]["hier"]["education"]
    assert spec["kind"] == "table"
    edited = frame.copy()
    edited.loc[edited["level 1"] == "Bachelor's", "level 1"] = "Graduate or professional"
    assert [r[1] for r in spec["rows"]] == edited["level 1"].tolist()
    # the levels use it: education at level 1 costs the edited hierarchy's loss, not the default's
    at.select_slider(key="rc_rem_level_education").set_value(1).run()
    own = hierarchy_from_table(edited, df["education"])
    node = _lattice(df, education=own).evaluate((0, 1, 0, 0, 0))
    default = _lattice(df).evaluate((0, 1, 0, 0, 0))
    assert node.ncp != default.ncp
    assert metrics(at)["Information lost (NCP)"] == f"{node.ncp:.1%}"
    # and so does the search
    at.button(key="rc_rem_search").click().run()
    best = search(_lattice(df, education=own)).best
    assert tuple(s.value for s in level_sliders(at)) == best.levels
    # back to the default
    at.button(key="rc_rem_hreset_education").click().run()
    assert "education" not in at.session_state["rc_rem_store"]["hier"]


def test_an_uploaded_arx_hierarchy_is_checked_then_used():
    at = run("pages/remediate.py")
    at.selectbox(key="rc_rem_hq").set_value("sex").run()
    at.file_uploader(key="rc_rem_hup_sex_0").set_value(("sex.csv", b"Male;*\n", "text/csv")).run()
    assert not at.exception
    assert any("has no row for 1 value of the column ('Female')" in seen(e.value) for e in at.error)
    arx = b"\xef\xbb\xbfMale;Person;*\nFemale;Person;*\n"  # with a byte-order mark
    at.file_uploader(key="rc_rem_hup_sex_0").set_value(("sex.csv", arx, "text/csv")).run()
    assert not at.exception and not at.error
    spec = at.session_state["rc_rem_store"]["hier"]["sex"]
    assert spec["rows"] == [["Male", "Person", "*"], ["Female", "Person", "*"]]
    assert "sex: grouping, 2 levels above the value (yours)" in [t.value for t in at.text]


def test_top_coding_clips_the_oldest_ages_into_one_band():
    df = make_people(32_561, seed=0)
    at = run("pages/remediate.py")
    # the hierarchy builder's bands (ui/widgets/remediate/hierarchy_builder.py), age being the
    # first QI
    at.number_input(key="rc_rem_hhi_age_0").set_value(90).run()
    at.number_input(key="rc_rem_hlo_age_0").set_value(18).run()
    at.button(key="rc_rem_hb_use_age_0").click().run()
    assert not at.exception
    params = at.session_state["rc_rem_store"]["hier"]["age"]["params"]
    assert (params["bottom"], params["top"]) == (18, 90)
    at.select_slider(key="rc_rem_level_age").set_value(1).run()
    clipped = interval_hierarchy(df["age"], params["widths"], start=params["start"], bottom=18,
                                 top=90)  # fmt: skip
    assert set(clipped.levels[1]) >= {"90+", "<18"} if (df["age"] < 18).any() else {"90+"}
    node = _lattice(df, age=clipped).evaluate((1, 0, 0, 0, 0))
    assert metrics(at)["Information lost (NCP)"] == f"{node.ncp:.1%}"
    assert metrics(at)["Smallest released class"] == f"{node.k:,}"


def test_dates_shift_per_person_with_the_session_key_and_the_recipe_records_every_step():
    df = make_people(32_561, seed=0)
    at = run("pages/remediate.py")
    at.selectbox(key="rc_rem_op_ssn").set_value("hmac_tokens").run()
    shown = at.session_state["rc_rem_secret"].reveal_hex()  # offered as a key file (test_key_file)
    key = bytes.fromhex(shown)
    at.multiselect(key="rc_rem_shift_cols").set_value(["date_of_birth"]).run()
    at.selectbox(key="rc_rem_shift_person").set_value("ssn").run()
    assert not at.exception
    preview = next(d.value for d in at.dataframe if "date_of_birth" in d.value.columns)
    moved = pd.to_datetime(preview["date_of_birth"]) - pd.to_datetime(df["date_of_birth"].head(5))
    assert moved.abs().max() <= pd.Timedelta(days=180) and (moved != pd.Timedelta(0)).all()
    # the shift of each person is HMAC-SHA256(key, "person:" + ssn), as riskcore documents it
    for ssn, d in zip(df["ssn"].head(5), moved, strict=True):
        u = int.from_bytes(hmac.new(key, b"person:" + ssn.encode(), hashlib.sha256).digest()[:8],
                           "big") % 360  # fmt: skip
        assert d.days == (u - 180 if u < 180 else u - 179)
    steps = next(d.value for d in at.dataframe if "operation" in d.value.columns)
    rows = steps[["step", "column", "operation"]].values.tolist()
    assert ["date shift", "date_of_birth", "shift_dates"] in rows
    assert ["masking", "ssn", "hmac_tokens"] in rows and ["masking", "name", "drop"] in rows
    assert steps["step"].tolist()[-1] == "key" and shown not in steps.to_string()


def test_free_text_scan_says_whether_presidio_is_installed():
    at = run("pages/remediate.py")
    assert not at.exception
    if presidio_available():
        at.button(key="rc_rem_pii").click().run()
        assert not at.exception
        assert any("Presidio found" in seen(m.value) for m in at.markdown)
    else:
        (note,) = [i.value for i in at.info if "Not installed" in seen(i.value)]
        assert "pip install 'presidio-analyzer>=2.2,<2.3'" in seen(note)
        assert not [b for b in at.button if b.key == "rc_rem_pii"]


def test_the_report_says_which_view_it_describes():
    at = run("pages/remediate.py")
    at.button(key="rc_rem_search").click().run()
    at.button(key="rc_rem_use").click().run()
    at.switch_page("pages/report.py").run()
    said = [seen(c.value) for c in at.caption]
    assert any("the recipe in use (every step)" in c and "side by side" in c for c in said)
    at.button(key="rc_report_build").click().run()
    report = at.session_state["rc_report"]["report"]
    assert report.remediation is not None and report.remediation.information_loss["ncp"] > 0
    assert report.of == "the remediated table"
    # the sidebar's switch changes what the pages show, not what the report files: the recipe
    # in use is still the report's
    at.session_state["rc_view_after"] = False
    at.run()
    assert not any("changed since this report was built" in w.value for w in at.warning)
    # back to the table as recorded on the Remediate page: no recipe, and the report says so
    at.switch_page("pages/remediate.py").run()
    at.button(key="rc_rem_clear").click().run()
    at.switch_page("pages/report.py").run()
    assert any("changed since this report was built" in w.value for w in at.warning)
    assert any("no recipe is in use" in seen(c.value) for c in at.caption)
    at.button(key="rc_report_build").click().run()
    report = at.session_state["rc_report"]["report"]
    assert report.remediation is None and report.of == "the table as recorded"


def test_the_plain_hash_demonstration_offers_only_ssn_and_birth_date_columns():
    from tests.app.helpers import data_uploader

    at = run()
    csv = pd.DataFrame(
        {"name": [f"P {i}" for i in range(12)], "sex": ["F", "M"] * 6,
         "ssn": [f"123-45-{6789 + i}" for i in range(12)],
         "date_of_birth": [f"1980-01-{10 + i}" for i in range(12)]}
    ).to_csv(index=False)  # fmt: skip
    data_uploader(at).set_value(("t.csv", csv.encode(), "text/csv")).run()
    at.switch_page("pages/remediate.py").run()
    assert not at.exception
    # the role rule's reason for "sex" cites "date of birth": it is not a birth date
    assert at.selectbox(key="rc_rem_enum_col").options == ["ssn", "date_of_birth"]


def test_identifier_choices_notes_and_words_come_from_the_masking_registry():
    from riskcore.deidentify.masking import MENU, OPERATORS, choice_label

    at = run("pages/remediate.py")
    box = at.selectbox(key="rc_rem_op_ssn")
    assert list(box.options) == [choice_label(c) for c in MENU]
    box.set_value("mask_digits").run()
    at.selectbox(key="rc_rem_op_name").set_value("surrogates:name").run()
    assert not at.exception
    captions = [seen(c.value) for c in at.caption]
    assert OPERATORS["mask_digits"].note in captions and OPERATORS["surrogates"].note in captions
    preview = next(d.value for d in at.dataframe if "ssn" in d.value.columns)
    assert preview["ssn"].str.fullmatch(r"\*\*\*-\*\*-\d{4}").all()
    steps = next(d.value for d in at.dataframe if "operation" in d.value.columns)
    words = dict(zip(steps["column"], steps["in words"], strict=True))
    # the demo's sex is a tagged quasi-identifier: the name surrogates follow it
    assert words["ssn"] == "last 4 digits kept"
    assert words["name"] == "surrogate names (Faker, following sex)"
    assert any(b.key == "rc_rem_id_lookup" for b in at.get("download_button"))
