"""AppTest: the Records page's population tab (k-map, delta-presence) on hand-made tables."""

from __future__ import annotations

import json

import pandas as pd

from tests.app.helpers import (
    data_uploader,
    metrics,
    plotly_values,
    run,
    set_roles,
)

# The release T and the population P it was drawn from (QIs age, sex):
#   class     f_j(T)  F_j(P)  delta_j = f/F
#   30 F        2       4       0.5
#   41 M        1       1       1.0
#   52 F        1       2       0.5
#   60 M        0       3       0   (no released record)
# k-map = min F_j over released classes = 1; (delta_min, delta_max) = (0, 1.0): 60 M puts
# delta_min at 0. With a k-map target of 2 and delta in [0, 0.5] only 41 M fails (F = 1 < 2,
# delta 1 > 0.5); with delta in [0.1, 0.5] 60 M fails too (delta 0 < 0.1; k-map does not judge it).
RELEASE = pd.DataFrame({"age": [30, 30, 41, 52], "sex": ["F", "F", "M", "F"]})
POPULATION = pd.DataFrame(
    {
        "Name": [f"p{i}" for i in range(10)],
        "AGE": [30, 30, 30, 30, 41, 52, 52, 60, 60, 60],
        "Sex": ["F", "F", "F", "F", "M", "F", "F", "M", "M", "M"],
    }
)


def _open_tab():
    at = run()
    data_uploader(at).set_value(("t.csv", RELEASE.to_csv(index=False).encode(), "text/csv")).run()
    set_roles(at, {"age": "quasi_identifier", "sex": "quasi_identifier"})
    at.switch_page("pages/records.py").run()
    assert not at.exception, at.exception
    return at


def _population_uploader(at):
    return next(u for u in at.get("file_uploader") if u.label.startswith("Population"))


def test_k_map_and_delta_presence_by_hand():
    at = _open_tab()
    pop = POPULATION.to_csv(index=False).encode()
    _population_uploader(at).set_value(("pop.csv", pop, "text/csv")).run()
    assert not at.exception, at.exception
    # the columns are found whatever their case
    assert at.selectbox(key="rc_pop_map_age").value == "AGE"
    assert at.selectbox(key="rc_pop_map_sex").value == "Sex"
    at.number_input(key="rc_pop_k").set_value(2).run()
    m = metrics(at)
    assert m["k-map"] == "1"
    assert m["delta min"] == "0.000"
    assert m["delta max"] == "1.000"
    assert m["Failing classes"] == "1"
    spec = next(
        json.loads(c.proto.spec)
        for c in at.get("plotly_chart")
        if "population member"
        in json.loads(c.proto.spec)["layout"]["title"]["text"].replace("<br>", " ")
    )
    # the classes with no released record first, then ten bins of 10 points
    assert plotly_values(spec["data"][0]["y"]) == [1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1]
    assert spec["layout"]["xaxis"]["title"]["text"] and spec["layout"]["yaxis"]["title"]["text"]
    failing = next(d.value for d in at.dataframe if "delta" in d.value.columns)
    assert failing[["age", "sex", "released", "population"]].values.tolist() == [[41, "M", 1, 1]]
    captions = " ".join(c.value for c in at.caption).replace("\\", "")
    assert "1 of 4 population classes has delta above 50%" in captions
    text = " ".join(x.value for x in at.markdown).replace("\\", "")
    assert "1 of 4 population classes has no released record (3 people known to be absent)" in text
    assert "puts delta min at 0" in text
    at.number_input(key="rc_pop_dmin").set_value(0.1).run()
    assert metrics(at)["Failing classes"] == "2"
    failing = next(d.value for d in at.dataframe if "delta" in d.value.columns)
    assert failing[["age", "sex", "released", "population"]].values.tolist() == [
        [41, "M", 1, 1],
        [60, "M", 0, 3],
    ]
    captions = " ".join(c.value for c in at.caption).replace("\\", "")
    assert "have delta 0 and fail a lowest delta of 0.1" in captions


def test_a_population_missing_a_released_class_is_a_clear_error():
    at = _open_tab()
    pop = POPULATION[POPULATION["AGE"] != 41].to_csv(index=False).encode()
    _population_uploader(at).set_value(("pop.csv", pop, "text/csv")).run()
    assert not at.exception
    errors = " ".join(e.value for e in at.error).replace("\\", "")
    assert "not in the population table" in errors
