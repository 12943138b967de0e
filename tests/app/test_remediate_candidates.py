"""AppTest: the Remediate page's candidate solutions and utility views (issue 29, items 3-4).

On the hospital table (5,000 rows, 3 QIs): the page's table is riskcore's candidate table of
the session's own search result, "Apply B's levels" sets the level controls, a filter narrows
the table, and the utility views draw with their titles and readings.
"""

from __future__ import annotations

import json

from riskcore.deidentify.hierarchy import default_hierarchy
from riskcore.deidentify.search.candidates import candidate_table
from riskcore.io import load_table
from tests.app.helpers import hospital_app, plotly_values, seen
from tests.hospital import HOSPITAL_QIS, hospital_csv


def _searched():
    at = hospital_app()
    at.switch_page("pages/remediate.py").run()
    at.button(key="rc_rem_search").click().run()
    assert not at.exception, at.exception
    return at


def _expected(at, **kw):
    (found,) = at.session_state["rc_rem_searches"].values()
    data = load_table(hospital_csv()).data
    hier = {q: default_hierarchy(data[q]) for q in HOSPITAL_QIS}
    return candidate_table(found, hier, threshold=1 / 11, **kw)


def _shown(at):
    return next(d.value for d in at.dataframe if "smallest class" in d.value.columns)


def test_the_candidate_table_filters_and_use_sets_the_levels():
    at = _searched()
    table = _expected(at)
    shown = _shown(at)
    assert len(shown) == len(table.rows) > 2
    assert shown["search's choice"].iloc[0] == "yes"
    assert shown["suppressed"].tolist() == [r.suppressed for r in table.rows]
    # the levels as numbers (their words were cut: "3: decad"), the words in each tooltip
    assert shown["zip"].tolist() == [r.levels[1] for r in table.rows]
    box = next(d for d in at.dataframe if "smallest class" in d.value.columns)
    help_zip = json.loads(box.proto.columns)["zip"]["help"]
    first = table.rows[0]
    assert seen(help_zip).startswith("Levels of zip: ")
    assert f"{first.levels[1]} {first.words[1]}" in seen(help_zip)
    # B (the second candidate) put in the level controls, as the search's button does
    at.button(key="rc_rem_cand_use_b").click().run()
    assert not at.exception
    levels = tuple(at.select_slider(key=f"rc_rem_level_{q}").value for q in HOSPITAL_QIS)
    assert levels == table.rows[1].levels
    assert at.session_state["rc_rem_store"]["level_zip"] == table.rows[1].levels[1]
    # a filter: ZIP at most level 2
    at.select_slider(key="rc_rem_cand_filter_zip").set_value((0, 2)).run()
    assert not at.exception
    narrow = _expected(at, filters={"zip": (0, 2)})
    assert 0 < len(_shown(at)) == len(narrow.rows) < len(table.rows)
    assert all(str(v).split(":")[0] in ("0", "1", "2") for v in _shown(at)["zip"])
    # the comparison names both candidates' figures
    text = " ".join(seen(m.value) for m in at.markdown)
    assert "A loses" in text and "B" in text


def test_the_utility_views_draw_with_titles_and_readings():
    at = _searched()
    assert not any("accuracy" in json.loads(c.proto.spec)["layout"]["title"]["text"]
                   for c in at.get("plotly_chart"))  # fmt: skip
    at.toggle(key="rc_rem_util_show").set_value(True).run()
    assert not at.exception, at.exception
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    titles = [c["layout"]["title"]["text"] for c in charts]
    for words in ("each column", "as recorded and released", "against", "accuracy",
                  "per quasi-identifier"):  # fmt: skip
        assert any(words in t for t in titles), words
    for c in charts:
        assert c["layout"]["xaxis"]["title"]["text"] and c["layout"]["yaxis"]["title"]["text"]
    captions = " ".join(seen(c.value) for c in at.caption)
    assert "naive Bayes" in captions and "Cramer" in captions and "keep their value" in captions
    # a generalized QI is counted in its released labels on both sides (one axis)
    lv = dict(zip(HOSPITAL_QIS, (at.session_state["rc_rem_store"][f"level_{q}"]
                                 for q in HOSPITAL_QIS), strict=True))  # fmt: skip
    col = next(q for q in HOSPITAL_QIS if lv[q] > 0)
    at.selectbox(key="rc_rem_util_column").set_value(col).run()
    assert not at.exception, at.exception
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    chart = next(c for c in specs if "as recorded and released" in c["layout"]["title"]["text"])
    (by, bx), (ay, ax) = ((plotly_values(t["y"]), plotly_values(t["x"])) for t in chart["data"][:2])
    recorded = {y for y, x in zip(by, bx, strict=True) if x > 0}
    released = {y for y, x in zip(ay, ax, strict=True) if x > 0}
    assert recorded and recorded <= released | {"(missing)"}
    assert sum(bx) == 5000 and 0 < sum(ax) <= 5000  # every recorded record; the released ones
