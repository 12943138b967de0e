"""Utility of a remediation, against hand-worked values: per-column change, value counts,
Cramer's V, two-way tables, the naive Bayes's scores and accuracy; readings and figures."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from riskcore.deidentify.hierarchy.builders import interval_hierarchy
from riskcore.deidentify.recipe.base import generalize_columns
from riskcore.errors import RiskcoreError
from riskcore.report.figures.utility import (
    accuracy_bars,
    change_bars,
    two_way_heatmap,
    value_bars,
)
from riskcore.report.readings.utility import (
    change_reading,
    change_table,
    classification_reading,
    two_way_reading,
)
from riskcore.utility.tables import (
    classification_utility,
    column_change,
    cramers_v,
    naive_bayes_scores,
    two_way,
    value_counts,
)


def test_column_change_counts_unchanged_changed_and_suppressed():
    before = pd.DataFrame({"x": ["a", "b", "c", "d", None], "n": [39, 40, 41, 42, 43]})
    # record 2 removed; record 1 generalized; record 3 made '*'; record 4 stays missing
    after = pd.DataFrame(
        {"x": ["a", "ab", "*", None], "n": [39.0, "40", 42, 43]}, index=[0, 1, 3, 4]
    )
    c = column_change(before, after, "x")
    assert (c.records, c.unchanged, c.changed, c.suppressed) == (5, 2, 1, 2)
    assert (c.share_changed, c.share_suppressed) == (0.2, 0.4)
    # 39 and 39.0 and "40" and 40 read the same: only the removed record counts
    n = column_change(before, after, "n")
    assert (n.unchanged, n.changed, n.suppressed) == (4, 0, 1)
    assert change_reading(c) == (
        "x: 40% of the records keep their value, 20% have it generalized or masked, "
        "40% have it suppressed."
    )
    table = change_table([c, n])
    assert table["unchanged"].tolist() == [0.4, 0.8]
    with pytest.raises(RiskcoreError, match="keep the index"):
        column_change(before, after.set_axis([0, 1, 3, 9]), "x")
    with pytest.raises(RiskcoreError, match="column 'z'"):
        column_change(before, after, "z")


def test_value_counts_share_one_axis():
    before = pd.Series(["M", "M", "F", "F"], index=[0, 1, 2, 3])
    after = pd.Series(["M", "F"], index=[0, 2])
    got = value_counts(before, after)
    assert got.to_dict("list") == {"value": ["M", "F"], "before": [2, 2], "after": [1, 1]}
    # a generalized column: the values as recorded, then the labels found only after
    gen = value_counts(pd.Series(["a", "b", "b"]), pd.Series(["ab", "ab", "ab"]))
    assert gen.to_dict("list") == {
        "value": ["b", "a", "ab"],
        "before": [2, 1, 0],
        "after": [0, 0, 3],
    }
    # numbers with more distinct values than shown: shared bins, the last one closed
    x = pd.Series(np.arange(30, dtype=float))
    got = value_counts(x, x.iloc[:10], top=5, bins=3)
    assert got.to_dict("list") == {
        "value": ["[0, 9.667)", "[9.667, 19.33)", "[19.33, 29]"],
        "before": [10, 10, 10],
        "after": [10, 0, 0],
    }
    # beyond the top, one "other values" row holds the rest
    many = pd.Series(list("aaabbc"))
    got = value_counts(many, many, top=2)
    assert got["value"].tolist() == ["a", "b", "other values (1)"]
    assert got["before"].tolist() == [3, 2, 1]


def test_cramers_v_by_hand():
    assert cramers_v(np.array([[10, 0], [0, 10]])) == pytest.approx(1.0)
    assert cramers_v(np.array([[5, 5], [5, 5]])) == pytest.approx(0.0)
    # E = 7.5 in every cell: chi2 = 4 x 2.5^2 / 7.5 = 10/3; V = sqrt(10/3 / 30) = 1/3
    assert cramers_v(np.array([[10, 5], [5, 10]])) == pytest.approx(1 / 3)
    # 3 x 2, E = 5 everywhere: chi2 = 4 x 25 / 5 = 20; V = sqrt(20 / (30 x (min(3, 2) - 1)))
    assert cramers_v(np.array([[10, 0], [0, 10], [5, 5]])) == pytest.approx(math.sqrt(2 / 3))
    # an empty row is dropped; one value on a side has no association
    assert cramers_v(np.array([[10, 5], [0, 0], [5, 10]])) == pytest.approx(1 / 3)
    assert math.isnan(cramers_v(np.array([[3, 4]])))


def test_two_way_before_and_after():
    before = pd.DataFrame({"a": list("xxyy"), "b": list("pqpq")})
    after = pd.DataFrame({"a": ["*", "*", "*"], "b": list("pqp")}, index=[0, 1, 2])
    tw = two_way(before, after, "a", "b")
    assert tw.shape_before == (2, 2) and tw.cells_before == 4
    assert tw.shape_after == (1, 2) and tw.cells_after == 2
    assert tw.v_before == pytest.approx(0.0) and math.isnan(tw.v_after)
    assert tw.after.loc["*"].tolist() == [2, 1]
    assert two_way_reading(tw) == (
        "a against b: 2 x 2 values as recorded (4 non-empty cells), 1 x 2 released (2). "
        "Their association (Cramer's V, 0 none to 1 complete) was 0.00 and is undefined "
        "(one value on a side)."
    )
    with pytest.raises(RiskcoreError, match="two different columns"):
        two_way(before, after, "a", "a")
    big = pd.DataFrame({"a": [str(i) for i in range(20)], "b": ["p"] * 20})
    assert len(two_way(big, big, "a", "b", top=5).before) == 6  # 5 and "other (15)"


def test_naive_bayes_scores_by_hand():
    # class 1: x = a, a, a, b; class 0: x = b. N = 5, V = 2 (a, b)
    train = pd.DataFrame({"x": ["a", "a", "a", "b", "b"]})
    y = pd.Series(["1", "1", "1", "1", "0"])
    classes, scores = naive_bayes_scores(train, y, pd.DataFrame({"x": ["b", "a"]}))
    assert classes.tolist() == ["1", "0"]
    # P(1) = 4/5, P(b|1) = (1+1)/(4+2) = 1/3 -> 4/15; P(0) = 1/5, P(b|0) = (1+1)/(1+2) -> 2/15
    assert scores[0] == pytest.approx(np.log([4 / 15, 2 / 15]))
    # P(a|1) = (3+1)/6, P(a|0) = (0+1)/3
    assert scores[1] == pytest.approx(np.log([4 / 5 * 4 / 6, 1 / 5 * 1 / 3]))


def test_a_separable_toy_case_and_what_generalizing_the_feature_costs():
    n = 100
    before = pd.DataFrame(
        {"f": ["u", "v"] * (n // 2), "g": ["s"] * n, "y": ["yes", "no"] * (n // 2)}
    )
    # the feature that separates the classes removed (every value '*'), one record suppressed
    after = before.drop(index=[7]).assign(f="*")
    cu = classification_utility(before, after, "y", ["f", "g"], test_share=0.3, seed=1)
    assert (cu.train, cu.test) == (70, 30)
    assert cu.accuracy_before == 1.0
    held_out = np.random.default_rng(1).permutation(n)[:30]  # the documented split
    assert cu.test_released == 30 - (7 in held_out)
    # without the feature the model can only guess one class: the baseline's accuracy
    assert cu.accuracy_after == pytest.approx(cu.baseline_after)
    assert 0.3 <= cu.accuracy_after <= 0.7
    reading = classification_reading(cu)
    assert "right for 100.0% of 30 held-out records as recorded" in reading
    assert "costs the model" in reading
    with pytest.raises(RiskcoreError, match="cannot be a feature too"):
        classification_utility(before, after, "y", ["y"])
    with pytest.raises(RiskcoreError, match="at least one column"):
        classification_utility(before, after, "y", [])
    with pytest.raises(RiskcoreError, match="between 0 and 1"):
        classification_utility(before, after, "y", ["f"], test_share=1.0)


def test_figures_have_titles_axis_titles_and_the_data():
    before = pd.DataFrame({"a": list("xxyy"), "b": list("pqpq")})
    after = before.iloc[:3]
    counts = value_counts(before["a"], after["a"])
    fig = value_bars(counts, "a")
    assert fig.layout.barmode == "group" and list(fig.data[0].x) == [2, 2]
    assert "a" in fig.layout.title.text and fig.layout.xaxis.title.text == "records (people)"
    gen = value_bars(value_counts(before["a"], after["a"].map({"x": "*", "y": "*"})), "a")
    assert gen.layout.barmode == "overlay"
    ch = change_bars(change_table([column_change(before, after, "a")]))
    assert list(ch.data[2].x) == [25.0] and "%" in ch.layout.xaxis.title.text
    tw = two_way(before, after, "a", "b")
    heat = two_way_heatmap(tw, after=True, zmax=2)
    assert heat.data[0].zmax == 2 and "released" in heat.layout.title.text
    cu = classification_utility(before, after, "b", ["a"], test_share=0.5)
    acc = accuracy_bars(cu)
    assert acc.layout.yaxis.title.text.startswith("held-out records")
    assert [t.name for t in acc.data] == ["naive Bayes", "always the most common value"]


def test_the_report_states_the_remediation_utility_and_its_json_twin_holds_it():
    from riskcore.criteria import Targets
    from riskcore.deidentify.hierarchy import default_hierarchy, interval_hierarchy
    from riskcore.deidentify.recipe.apply import apply_recipe
    from riskcore.deidentify.recipe.base import Recipe
    from riskcore.demo import make_people
    from riskcore.profile import Profile
    from riskcore.report.render import render_html
    from riskcore.review import review
    from riskcore.review.results import Review

    people = make_people(2_000, seed=0)
    recipe = Recipe.of(
        {"age": interval_hierarchy(people["age"], [10, 20]),
         "sex": default_hierarchy(people["sex"])},
        {"age": 1, "sex": 0},
        Targets.of(k=5, max_suppression=0.05),
    ).to_dict()  # fmt: skip
    sens = [c for c in people.columns if c not in ("age", "sex", "name")][-1]
    profile = Profile.from_dict(
        {"quasi_identifiers": ["age", "sex"], "sensitive": [sens], "recipe": recipe,
         "targets": {"k": 5}}
    )  # fmt: skip
    r = review(people, profile)
    rem = r.remediation
    assert rem is not None
    released = apply_recipe(people, recipe).data
    assert [c.column for c in rem.column_changes] == ["age", "sex", sens]
    assert rem.column_changes[0] == column_change(people, released, "age")
    assert rem.classification == classification_utility(people, released, sens, ["age", "sex"])
    back = Review.from_dict(r.to_dict())
    assert back.remediation is not None and back.remediation.column_changes == rem.column_changes
    html = render_html(r, figures=False)
    assert "What the recipe did to each column" in html
    assert classification_reading(rem.classification) in html


def test_labels_read_in_the_order_of_their_numbers():
    from riskcore.utility.tables import natural_order

    assert natural_order(["20-39", "0-19", "other values (3)", "100-119", "(missing)"]) == [
        "0-19",
        "20-39",
        "100-119",
        "other values (3)",
        "(missing)",
    ]
    assert natural_order(["[20, 40)", "[0, 20)"]) == ["[0, 20)", "[20, 40)"]
    assert natural_order(["b", "a", "10"]) == ["b", "a", "10"]  # not all numbers: as given
    got = value_counts(pd.Series(["5", "30", "30"]), pd.Series(["20-39", "0-19", "20-39"]))
    assert got["value"].tolist() == ["5", "30", "0-19", "20-39"]


def test_numbers_generalized_into_bands_are_counted_in_those_bands_on_both_sides():
    # ages 17, 18, 25, 34, 35, 39, 91, 95 and one missing; released in bands of 10 with
    # bottom coding at 20 and top coding at 90, one record suppressed (*); the recorded
    # side is counted in the hierarchy's labels at the released level
    before = pd.Series([17, 18, 25, 34, 35, 39, 91, 95, np.nan])
    after = pd.Series(["<20", "<20", "20-29", "30-39", "30-39", "*", "90+", "90+", None])
    h = interval_hierarchy(before, [10], bottom=20, top=90, labels="range")
    released_as = generalize_columns(before.to_frame("age"), {"age": h}, {"age": 1})["age"]
    got = value_counts(before, after, released_as=released_as)
    assert got.to_dict("list") == {
        "value": ["<20", "20-29", "30-39", "90+", "(missing)", "*"],
        "before": [2, 1, 3, 2, 1, 0],
        "after": [2, 1, 2, 2, 1, 1],
    }
    # the order follows the recorded numbers, not the labels' text ("a" holds the smallest)
    odd = value_counts(pd.Series([5.0, 50.0]), pd.Series(["b", "a"]),
                       released_as=pd.Series(["b", "a"]))  # fmt: skip
    assert odd["value"].tolist() == ["b", "a"]
    # without the hierarchy's labels, a label is never read back as a number
    plain = value_counts(before, after)
    shown = plain.loc[plain["before"] > 0, "value"].tolist()
    assert plain["before"].sum() == 9 and "<20" not in shown
    with pytest.raises(RiskcoreError, match="one released label"):
        value_counts(before, after, released_as=released_as.iloc[:3])
