"""AppTest: the hierarchy builder on the Remediate page
(ui/widgets/remediate/hierarchy_builder.py), on the
generated hospital table (US-format admission dates, ZIP codes with leading zeros)."""

from __future__ import annotations

import pandas as pd

from riskcore.deidentify.hierarchy import date_hierarchy
from tests.app.helpers import HOSPITAL_ROLES, hospital_app, seen, set_roles
from tests.hospital import hospital_table


def _app(qi: str):
    at = hospital_app()
    set_roles(at, {**HOSPITAL_ROLES, "admission_date": "quasi_identifier"})
    at.switch_page("pages/remediate.py").run()
    assert not at.exception, at.exception
    at.selectbox(key="rc_rem_hq").set_value(qi).run()
    assert not at.exception, at.exception
    return at


def _summary(at) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "what it does" in d.value.columns)


def _groups(at) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if list(d.value.columns) == ["group", "records"])


def test_us_dates_are_detected_stated_previewed_and_used():
    at = _app("admission_date")
    assert at.radio(key="rc_rem_hb_kind_admission_date_0").value == "date"
    said = [seen(i.value) for i in at.info]
    assert "admission_date is read as US MM/DD/YYYY dates (03/04/2024 is 4 March 2024)." in said
    at.multiselect(key="rc_rem_hb_levels_admission_date_0").set_value(
        ["quarter", "month", "year"]  # in any order: used fine to coarse
    ).run()
    assert not at.exception and not at.error
    # the groups per level, counted independently from the table
    dates = pd.to_datetime(hospital_table()["admission_date"], format="%m/%d/%Y")
    expected = [dates.nunique(), dates.dt.to_period("M").nunique(),
                dates.dt.to_period("Q").nunique(), dates.dt.year.nunique(), 1]  # fmt: skip
    summary = _summary(at)
    assert summary["groups"].tolist() == expected
    assert summary["what it does"].tolist()[1:] == ["year and month", "quarter", "year",
                                                    "removed (*)"]  # fmt: skip
    at.selectbox(key="rc_rem_hb_level_admission_date_0").set_value(2).run()
    quarters = _groups(at)
    counts = dates.dt.year.astype(str) + "-Q" + dates.dt.quarter.astype(str)
    assert dict(zip(quarters["group"], quarters["records"], strict=True)) == (
        counts.value_counts().to_dict()
    )
    assert "--hierarchy 'admission_date=date:month,quarter,year'" in [t.value for t in at.text]
    at.button(key="rc_rem_hb_use_admission_date_0").click().run()
    assert not at.exception
    spec = at.session_state["rc_rem_store"]["hier"]["admission_date"]
    assert spec == {"kind": "date", "params": {"levels": ["month", "quarter", "year"]}}
    # the levels slider now has month, quarter, year and the top
    at.select_slider(key="rc_rem_level_admission_date").set_value(2).run()
    assert not at.exception


def test_zip_codes_are_masked_from_the_right_with_their_leading_zeros():
    at = _app("zip")
    assert at.radio(key="rc_rem_hb_kind_zip_0").value == "prefix"
    at.text_input(key="rc_rem_hb_masked_zip_0").set_value("2,3").run()
    assert not at.exception and not at.error
    assert _summary(at)["what it does"].tolist()[1:] == [
        "first 3 characters kept", "first 2 characters kept", "removed (*)"]  # fmt: skip
    at.selectbox(key="rc_rem_hb_level_zip_0").set_value(1).run()
    groups = _groups(at)
    zips = hospital_table()["zip"].dropna()
    expected = (zips.str[:3] + "**").value_counts().to_dict()
    assert dict(zip(groups["group"], groups["records"], strict=True)) == expected
    assert "021**" in expected  # the leading zero is kept
    # a bad order is a sentence, not a traceback; nothing can be used
    at.text_input(key="rc_rem_hb_masked_zip_0").set_value("3,2").run()
    assert not at.exception
    assert any("must mask more characters than the one below" in seen(e.value) for e in at.error)
    assert not [b for b in at.button if b.key == "rc_rem_hb_use_zip_0"]


def test_zip_codes_can_keep_their_first_characters_or_be_masked_from_the_left():
    # issue 38: "keep the first N characters" (codes of any length) and masking from the left
    at = _app("zip")
    zips = hospital_table()["zip"].dropna()
    at.radio(key="rc_rem_hb_way_zip_0").set_value("keep").run()
    assert not at.exception and not at.error
    assert at.text_input(key="rc_rem_hb_kept_zip_0").value == "3"  # ZIP5: 5 keeps it all
    assert _summary(at)["what it does"].tolist()[1:] == ["first 3 characters kept",
                                                         "removed (*)"]  # fmt: skip
    at.selectbox(key="rc_rem_hb_level_zip_0").set_value(1).run()
    groups = _groups(at)
    expected = (zips.str[:3] + "*").value_counts().to_dict()
    assert dict(zip(groups["group"], groups["records"], strict=True)) == expected
    assert "--hierarchy 'zip=keep:3'" in [t.value for t in at.text]
    at.radio(key="rc_rem_hb_way_zip_0").set_value("left").run()
    at.text_input(key="rc_rem_hb_masked_zip_0").set_value("2").run()
    assert not at.exception and not at.error
    groups = _groups(at)
    expected = ("**" + zips.str[2:]).value_counts().to_dict()
    assert dict(zip(groups["group"], groups["records"], strict=True)) == expected
    assert "--hierarchy 'zip=mask:2;from=left'" in [t.value for t in at.text]


def test_categories_are_grouped_in_a_mapping_table():
    at = _app("sex")
    assert at.radio(key="rc_rem_hb_kind_sex_0").value == "grouping"
    key = "rc_rem_hb_groups1_sex_0"
    # both values into one group "person" at level 1 (rows sorted: F, M)
    at.session_state[key] = {"edited_rows": {0: {"level 1": "person"}, 1: {"level 1": "person"}},
                             "added_rows": [], "deleted_rows": []}  # fmt: skip
    at.run()
    assert not at.exception and not at.error
    assert _summary(at)["groups"].tolist() == [2, 1, 1]
    at.button(key="rc_rem_hb_use_sex_0").click().run()
    spec = at.session_state["rc_rem_store"]["hier"]["sex"]
    assert spec["kind"] == "table"
    assert spec["rows"] == [["F", "person", "*"], ["M", "person", "*"]]


def test_the_preview_of_us_dates_lists_their_groups_by_date_not_by_month():
    """Issue 38 item 18: the values (MM/DD/YYYY text) and their quarters were listed by
    the text's month first, every January of every year before any February."""
    at = _app("admission_date")
    at.multiselect(key="rc_rem_hb_levels_admission_date_0").set_value(["quarter"]).run()
    for level, first_day in ((0, lambda g: pd.to_datetime(g, format="%m/%d/%Y")),
                             (1, lambda g: pd.PeriodIndex(g.str.replace("-", ""), freq="Q")
                              .start_time)):  # fmt: skip
        at.selectbox(key="rc_rem_hb_level_admission_date_0").set_value(level).run()
        groups = _groups(at)["group"]
        starts = pd.Series(first_day(groups))
        assert len(starts) > 4 and starts.is_monotonic_increasing, groups.head(8).tolist()
    # the hierarchy's table (the mapping shown with the levels) is in the same order
    built = date_hierarchy(hospital_table()["admission_date"], ["quarter"])
    leaves = built.to_frame(sort=True)["level 0"]
    assert pd.to_datetime(leaves, format="%m/%d/%Y").is_monotonic_increasing
