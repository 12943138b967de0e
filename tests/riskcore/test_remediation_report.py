"""Readings and the figure of a remediation, on the hand-worked table of test_lattice."""

from __future__ import annotations

import math

import pandas as pd

from riskcore.deidentify.search.lattice import NodeResult
from riskcore.report import figures as fg
from riskcore.report import readings as rd
from tests.riskcore.cases import ages_lattice


def node(levels, anonymous, ncp, risk, n_classes=3):
    return NodeResult(levels, anonymous, 0, n_classes, 2, ncp, ncp, 0.0, 1.0, risk, ncp)


def test_node_reading_and_table_by_hand():
    lat = ages_lattice(k=2, max_suppression=0.5)
    before, after = lat.evaluate([0, 0]), lat.evaluate([1, 0])
    text = rd.node_reading(before, after, 6, lat.base.n_classes / 6)
    # as recorded every (age, sex) pair is its own class but (40, M): 4 of 6 break k = 2;
    # at decades the (30s, M) and (40s, F) singletons break it: 2 of 6 (test_lattice)
    assert text.startswith("As recorded, 4 of 6 records (66.7%) sit in classes that break")
    assert "With these levels, 2 (33.3%) do, and are suppressed; the 2 released classes" in text
    assert "at least 2 records" in text
    # released: 2 classes of 4 records; as recorded 5 classes of 6 records
    assert "probability 50.00% on average (was 83.33%)" in text
    table = rd.node_table(lat.as_recorded(), after, 2).set_index("figure")
    assert table.loc["records suppressed"].tolist() == ["0", "2"]
    # as recorded: classes of sizes 1, 1, 1, 2, 1 -> k 1, 5 classes; generalized: k 2
    assert table.loc["smallest released class (k)"].tolist() == ["1", "2"]
    assert table.loc["classes released"].tolist() == ["5", "2"]
    assert table.loc["discernibility"].tolist() == [str(1 + 1 + 1 + 4 + 1), str(4 + 4 + 2 * 6)]
    assert table.loc["average re-identification risk"].tolist() == ["83.33%", "50.00%"]
    # dx: the release keeps flu 3 / hiv 1 of a table's 4 / 2 (test_lattice)
    kl = 0.75 * math.log(0.75 / (4 / 6)) + 0.25 * math.log(0.25 / (2 / 6))
    assert table.loc["shift of dx's distribution (KL, nats)"].tolist() == ["0.0000", f"{kl:.4f}"]
    assert "more suppression than the limit" in rd.node_reading(
        before, ages_lattice(k=3, max_suppression=0.0).evaluate([1, 0]), 6, 5 / 6
    )


def test_level_label_shows_examples_of_the_level():
    lat = ages_lattice()
    h = lat.hierarchies["age"]
    assert rd.level_label(h, 1) == "level 1 of 3: bands of 10 (20-29, 30-39, 40-49)"
    assert rd.level_label(h, 1, unit="year") == "level 1 of 3: 10-year bands (20-29, 30-39, 40-49)"
    assert rd.level_label(h, 0).startswith("level 0 of 3: kept as recorded (20, 25, 30, 40, ...")


def test_pareto_front_and_chart():
    nodes = [
        node((0, 0), False, 0.0, 0.5),  # breaks the targets: never on the front
        node((1, 0), True, 0.2, 0.10),
        node((0, 1), True, 0.3, 0.20),  # beaten by (1, 0) on both axes
        node((1, 1), True, 0.4, 0.05),
        node((2, 1), True, 0.5, 0.05),  # same risk as (1, 1), more loss
    ]
    assert fg.pareto_front(nodes) == [1, 3]
    fig = fg.risk_loss_chart(nodes, (1, 1), ["age", "sex"])
    names = [d.name for d in fig.data]
    assert names[:2] == ["breaks the targets (too much suppression)", "meets the targets"]
    assert list(fig.data[1].customdata) == [1, 2, 3, 4]  # a click gives back the node
    assert list(fig.data[2].x) == [0.2, 0.4]  # the front's line
    assert (fig.data[3].x[0], fig.data[3].y[0]) == (0.4, 0.05)  # the chosen levels
    assert fig.layout.title.text.startswith("Re-identification risk against information loss")


def test_visited_table_lists_levels_by_qi():
    from riskcore.deidentify.search.run import search

    lat = ages_lattice(k=2, max_suppression=0.5)
    result = search(lat)
    table = rd.visited_table(result, lat.quasi_identifiers)
    assert list(table.columns[:2]) == ["age", "sex"] and len(table) == result.evaluated
    assert isinstance(rd.search_reading(result), str)
    assert rd.search_reading(result).startswith(
        f"Searched {result.evaluated:,} of the {lat.size:,} combinations of levels"
    )
    assert pd.api.types.is_bool_dtype(table["meets the targets"])


def test_search_reading_when_every_node_is_shown():
    import dataclasses

    from riskcore.deidentify.search.run import evaluate_all, search

    lat = ages_lattice(k=2, max_suppression=0.5)
    found = search(lat)
    every = evaluate_all(lat, known=found.visited)
    assert len(every) == lat.size == 8  # age 0..3 x sex 0..1
    assert [r.levels for r in every] == lat.nodes()
    assert all(a == lat.evaluate(a.levels) for a in every)  # reused nodes are the same
    shown = dataclasses.replace(found, visited=every)
    empty = sum(1 for r in every if r.n_classes == 0)
    head = "All 8 combinations of levels were evaluated"
    head += (
        f" ({8 - empty} shown; {empty} release no record and have no point)"
        if empty
        else (" and are shown")
    )
    assert rd.search_reading(shown).startswith(f"{head}; the search needed {found.needed} of them")


def test_a_node_that_releases_nothing_reads_n_a_not_nan():
    # k = 7 on 6 records: every class breaks it, everything is suppressed, nothing released
    lat = ages_lattice(k=7, max_suppression=1.0)
    after = lat.evaluate([0, 0])
    assert after.n_classes == 0 and math.isnan(after.success_rate)
    table = rd.node_table(lat.as_recorded(), after, 7).set_index("figure")
    cells = table["generalized"].tolist()
    assert not any("nan" in c for c in cells), cells
    assert table.loc["average re-identification risk", "generalized"] == rd.NOTHING_RELEASED
    c_avg = "LeFevre's C_avg: average class size / k (7)"
    assert table.loc[c_avg, "generalized"] == rd.NOTHING_RELEASED
    assert rd.NOTHING_RELEASED == "n/a: nothing released"
    assert rd.average_risk_text(after) == rd.NOTHING_RELEASED
    # released: 2 classes of 4 records (test_node_reading_and_table_by_hand)
    assert rd.average_risk_text(ages_lattice(k=2, max_suppression=0.5).evaluate([1, 0])) == "50.00%"


def test_a_dis_probability_without_sample_uniques_reads_n_a():
    assert rd.dis_text(float("nan")) == "n/a: no sample unique"
    assert rd.dis_text(0.25) == "0.250"
