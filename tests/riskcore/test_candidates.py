"""Candidate solutions on a table of six records, every figure worked by hand.

Records (x, y): (a,p) (a,p) (b,p) (b,q) (c,q) (c,q). Hierarchies: x: a, b, c -> ab, ab, c
-> *; y: p, q -> *. Targets k = 2, suppression up to 2 records. Every node is anonymous:

node   classes before suppression       suppressed  released  k  NCP x   NCP y   NCP    risk
(0,0)  ap2 bp1 bq1 cq2                  2 (b's)     ap2 cq2   2  2/6     2/6     1/3    2/4
(1,0)  ABp3 ABq1 cq2                    1 (b,q)     ABp3 cq2  2  2.5/6   1/6     7/24   2/5
(2,0)  *p3 *q3                          0           2         3  1       0       1/2    2/6
(0,1)  a*2 b*2 c*2                      0           3         2  0       1       1/2    3/6
(1,1)  AB*4 c*2                         0           2         2  2/6     1       2/3    2/6
(2,1)  **6                              0           1         6  1       1       1      1/6

(NCP of a categorical value grouped with u of the U values present: (u-1)/(U-1); a
suppressed record costs 1; x's U = 3, y's U = 2.) By NCP then risk: (1,0) (0,0) (2,0) (0,1)
(1,1) (2,1). The Pareto front of NCP against risk: (1,0), (2,0) (risk 1/3 < 2/5), (2,1);
(1,1) ties (2,0)'s risk at a higher loss and is off it.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import Hierarchy
from riskcore.deidentify.search.candidates import (
    candidate_table,
    column_ncp,
    compare_candidates,
    pareto_mask,
    records_at_risk,
)
from riskcore.deidentify.search.lattice import Lattice
from riskcore.deidentify.search.run import evaluate_all, search
from riskcore.errors import RiskcoreError
from riskcore.report.readings.candidates import (
    candidate_display,
    candidate_level_help,
    candidates_reading,
    comparison_reading,
    comparison_table,
)

DATA = pd.DataFrame({"x": ["a", "a", "b", "b", "c", "c"], "y": ["p", "p", "p", "q", "q", "q"]})
OBJ = object


def _hierarchies():
    x = Hierarchy(
        "x",
        np.array(["a", "b", "c"], dtype=OBJ),
        (np.array(["a", "b", "c"], dtype=OBJ), np.array(["ab", "ab", "c"], dtype=OBJ),
         np.array(["*", "*", "*"], dtype=OBJ)),
    )  # fmt: skip
    y = Hierarchy(
        "y",
        np.array(["p", "q"], dtype=OBJ),
        (np.array(["p", "q"], dtype=OBJ), np.array(["*", "*"], dtype=OBJ)),
    )
    return {"x": x, "y": y}


@pytest.fixture(scope="module")
def setup():
    hier = _hierarchies()
    lat = Lattice(DATA, hier, targets=Targets.of(k=2, max_suppression=2 / 6))
    found = search(lat)
    found = dataclasses.replace(found, visited=evaluate_all(lat, known=found.visited))
    return hier, lat, found


BY_LOSS = [(1, 0), (0, 0), (2, 0), (0, 1), (1, 1), (2, 1)]


def test_every_anonymous_node_by_hand(setup):
    hier, lat, found = setup
    t = candidate_table(found, hier, lattice=lat, threshold=0.5)
    assert (t.evaluated, t.anonymous, t.matching, t.front_only) == (6, 6, 6, False)
    assert [r.levels for r in t.rows] == BY_LOSS
    by = {r.levels: r for r in t.rows}
    assert by[(1, 0)].losses["ncp"] == pytest.approx(7 / 24)
    assert by[(0, 0)].losses["ncp"] == pytest.approx(1 / 3)
    assert by[(1, 1)].losses["ncp"] == pytest.approx(2 / 3)
    assert [by[n].suppressed for n in BY_LOSS] == [1, 2, 0, 0, 0, 0]
    assert [by[n].classes for n in BY_LOSS] == [2, 2, 2, 3, 2, 1]
    assert [by[n].smallest_class for n in BY_LOSS] == [2, 2, 3, 2, 2, 6]
    assert [by[n].average_risk for n in BY_LOSS] == pytest.approx(
        [2 / 5, 2 / 4, 2 / 6, 3 / 6, 2 / 6, 1 / 6]
    )
    # k achieved: the verdict's check, not judged here
    assert [by[n].achieved["k-anonymity"] for n in BY_LOSS] == [2, 2, 3, 2, 2, 6]
    assert by[(1, 0)].words == ("grouped into 2 groups", "kept as recorded")
    assert by[(2, 1)].words == ("removed (*)", "removed (*)")
    assert [r.best for r in t.rows] == [True] + [False] * 5
    # threshold 1/2: a risk above it needs a class of 1; every class released has 2 or more
    assert all(r.records_at_risk == 0 for r in t.rows)


def test_records_at_risk_counted_by_the_record_risk_criterion(setup):
    hier, lat, found = setup
    # threshold 0.4: classes of 2 records (risk 1/2) are at risk, of 3 (1/3) are not
    t = candidate_table(found, hier, lattice=lat, threshold=0.4)
    got = {r.levels: r.records_at_risk for r in t.rows}
    assert got == {(0, 0): 4, (1, 0): 2, (2, 0): 0, (0, 1): 6, (1, 1): 2, (2, 1): 0}
    assert records_at_risk(lat, (0, 1), 0.4) == 6
    # without the lattice, a node that would need one is "not counted", never a guess
    t = candidate_table(found, hier, threshold=0.4)
    assert {r.levels: r.records_at_risk for r in t.rows}[(0, 0)] is None
    assert {r.levels: r.records_at_risk for r in t.rows}[(2, 0)] == 0


def test_above_the_limit_only_the_pareto_front_is_listed(setup):
    hier, lat, found = setup
    t = candidate_table(found, hier, lattice=lat, limit=2)
    assert t.front_only and t.matching == 6
    assert [r.levels for r in t.rows] == [(1, 0), (2, 0), (2, 1)]
    assert "best trade-offs" in candidates_reading(t) and "3 best" in candidates_reading(t)
    t = candidate_table(found, hier, lattice=lat, limit=6)  # at the limit: all listed
    assert not t.front_only and len(t.rows) == 6


def test_filters_keep_the_levels_within_them(setup):
    hier, lat, found = setup
    t = candidate_table(found, hier, lattice=lat, filters={"x": (0, 1), "y": (0, 0)})
    assert [r.levels for r in t.rows] == [(1, 0), (0, 0)]
    assert t.matching == 2
    reading = candidates_reading(t)
    assert reading.startswith("6 of the 6 combinations") and "2 of them are within" in reading
    none = candidate_table(found, hier, filters={"x": (2, 2), "y": (0, 0)})
    assert [r.levels for r in none.rows] == [(2, 0)]
    with pytest.raises(RiskcoreError, match="'z' is filtered but is not a quasi-identifier"):
        candidate_table(found, hier, filters={"z": (0, 1)})
    with pytest.raises(RiskcoreError, match=r"lowest level of 'x' \(2\) is above its highest"):
        candidate_table(found, hier, filters={"x": (2, 1)})
    with pytest.raises(RiskcoreError, match="limit of rows"):
        candidate_table(found, hier, limit=0)


def test_the_frame_sorts_by_any_column(setup):
    hier, lat, found = setup
    t = candidate_table(found, hier, lattice=lat)
    f = t.frame()
    assert f["x"].tolist() == [n[0] for n in BY_LOSS]
    assert f.sort_values("suppressed", ascending=False)["suppressed"].iloc[0] == 2
    shown = candidate_display(t)
    assert shown["x"].iloc[0] == "1: grouped into 2 groups"
    assert shown["NCP"].iloc[0] == pytest.approx(7 / 24)
    assert shown["search's choice"].tolist()[:2] == ["yes", ""]


def test_the_screen_shows_level_numbers_with_the_words_in_the_tooltips(setup):
    # "3: decad": the words were cut at 1024 px; on screen the numbers, the words in the help
    hier, lat, found = setup
    t = candidate_table(found, hier, lattice=lat, filters={"x": (1, 2)})  # x at 1 or 2 only
    numbers = candidate_display(t, levels="numbers")
    assert numbers["x"].tolist() == [1, 2, 1, 2]  # BY_LOSS within the filter
    assert numbers["y"].tolist() == [0, 0, 1, 1]
    words = candidate_display(t)
    assert words["x"].tolist()[:2] == ["1: grouped into 2 groups", "2: removed (*)"]
    assert list(numbers.columns) == list(words.columns)  # the download has the same columns
    assert candidate_level_help(t) == {
        "x": "Levels of x: 1 grouped into 2 groups; 2 removed (*)",  # the levels listed only
        "y": "Levels of y: 0 kept as recorded; 1 removed (*)",
    }


def test_pareto_mask_keeps_the_first_of_equal_points():
    loss = np.array([1.0, 1.0, 2.0, 0.5, 3.0])
    risk = np.array([0.5, 0.5, 0.1, 0.9, 0.1])
    assert pareto_mask(loss, risk).tolist() == [True, False, True, True, False]


def test_comparison_by_hand(setup):
    _, lat, _ = setup
    cmp = compare_candidates(lat, DATA, (0, 0), (1, 0), threshold=0.4, sample=2)
    assert cmp.column_ncp_a == pytest.approx({"x": 2 / 6, "y": 2 / 6})
    assert cmp.column_ncp_b == pytest.approx({"x": 2.5 / 6, "y": 1 / 6})
    assert (cmp.a.suppressed, cmp.b.suppressed) == (2, 1)
    assert (cmp.a.records_at_risk, cmp.b.records_at_risk) == (4, 2)
    # released under both: records 0, 1, 4, 5; two of them, the first and the last, numbered
    # as the file's rows (the first data row is 1)
    assert cmp.sample["row"].tolist() == [1, 6]
    assert cmp.sample["x (A)"].tolist() == ["a", "c"]
    assert cmp.sample["x (B)"].tolist() == ["ab", "c"]
    table = comparison_table(cmp)
    row = table.set_index("figure").loc["x: NCP"]
    assert (row["A"], row["B"]) == ("33.3%", "41.7%")
    text = comparison_reading(cmp)
    assert "A loses 33.3%" in text and "B 29.2%" in text
    assert "differ most in y: B keeps more of it (NCP 16.7% against 33.3%)" in text
    with pytest.raises(RiskcoreError, match="rows"):
        compare_candidates(lat, DATA.head(3), (0, 0), (1, 0))


def test_column_ncp_averages_to_the_node_ncp(setup):
    _, lat, found = setup
    for node in found.visited:
        per = column_ncp(lat, node.levels)
        assert np.mean(list(per.values())) == pytest.approx(node.ncp)


def test_the_table_round_trips_through_json(setup):
    hier, lat, found = setup
    t = candidate_table(found, hier, lattice=lat)
    assert type(t).from_dict(t.to_dict()) == t
