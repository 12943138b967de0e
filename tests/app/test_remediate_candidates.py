"""AppTest: the Remediate page's candidate solutions and utility views (issue 29, items 3-4)."""

from __future__ import annotations

import json

from riskcore.criteria import Targets
from riskcore.deidentify.candidates import candidate_table
from riskcore.deidentify.hierarchy import default_hierarchy
from riskcore.deidentify.lattice import Lattice
from riskcore.deidentify.search import evaluate_all, search
from riskcore.demo import make_people
from tests.app.helpers import run

QIS = ["age", "education", "sex", "race", "marital_status"]  # the demo's suggested QIs


def _searched():
    at = run("pages/remediate.py")
    at.button(key="rc_rem_search").click().run()
    assert not at.exception, at.exception
    return at


def _expected(**kw):
    df = make_people(32_561, seed=0)
    hier = {q: default_hierarchy(df[q]) for q in QIS}
    lat = Lattice(df, hier, targets=Targets.of(k=11, threshold=1 / 11, max_suppression=0.02))
    found = search(lat)
    import dataclasses

    found = dataclasses.replace(found, visited=evaluate_all(lat, known=found.visited))
    return df, lat, candidate_table(found, hier, lattice=lat, threshold=1 / 11, **kw)


def _frame(at, first_column):
    return next(d.value for d in at.dataframe if first_column in d.value.columns)


def test_the_candidate_table_lists_the_anonymous_nodes_and_use_sets_the_levels():
    at = _searched()
    _, _, table = _expected()
    shown = _frame(at, "smallest class")
    assert len(shown) == len(table.rows)
    assert shown["best"].iloc[0] == "search's choice"
    # B (the second candidate) put in the level controls, as the search's button does
    at.button(key="rc_rem_cand_use_b").click().run()
    assert not at.exception
    levels = tuple(at.select_slider(key=f"rc_rem_level_{q}").value for q in QIS)
    assert levels == table.rows[1].levels
    assert at.session_state["rc_rem_store"]["level_age"] == table.rows[1].levels[0]


def test_a_filter_keeps_only_the_candidates_within_it():
    at = _searched()
    at.select_slider(key="rc_rem_cand_filter_age").set_value((0, 1)).run()
    assert not at.exception
    _, _, table = _expected(filters={"age": (0, 1)})
    shown = _frame(at, "smallest class")
    assert len(shown) == len(table.rows)
    assert all(str(v).split(":")[0] in ("0", "1") for v in shown["age"])


def test_the_utility_views_draw_with_titles_and_readings():
    at = _searched()
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    titles = [c["layout"]["title"]["text"] for c in charts]
    assert any("each column" in t for t in titles)
    assert any("accuracy" in t for t in titles)
    assert any("against" in t for t in titles)
    captions = " ".join(c.value for c in at.caption)
    assert "naive Bayes" in captions and "Cramer" in captions
