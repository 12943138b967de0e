"""Readings of the order and the missing-value rule of t-closeness, and the order refusal."""

from __future__ import annotations

import pandas as pd
import pytest

from riskcore.metrics import DiversityResult, assess, order_choices
from riskcore.report import readings as rd


def result(**kw) -> DiversityResult:
    base = dict(
        attribute="edu",
        n_values=4,
        distinct_l=2,
        entropy_l=2.0,
        recursive_l=2,
        c=2.0,
        t_closeness=0.25,
        distance="ordered",
        homogeneous_classes=0,
        homogeneous_records=0,
    )
    return DiversityResult(**{**base, **kw})


def test_t_rule_reading_states_the_order_and_the_missing_rule():
    r = result(order_source="given", n_missing=12, missing_rank="lowest")
    assert rd.t_rule_reading(r) == (
        " The values are ranked in the order given. Missing edu (12 records) has no rank: "
        "t is computed with it below the lowest value and again above the highest, and the "
        "larger is kept (ranking it lowest gives the larger t)."
    )
    tie = rd.t_rule_reading(result(order_source="value", n_missing=1, missing_rank="either"))
    assert tie.startswith(" The values are ranked by value. Missing edu (1 record) has no rank")
    assert tie.endswith("(both give the same t).")
    cats = rd.t_rule_reading(result(order_source="categories"))
    assert cats == " The values are ranked in the column's category order."


def test_t_rule_reading_equal_distance():
    assert rd.t_rule_reading(result(distance="equal")) == ""
    assert rd.t_rule_reading(result(distance="equal", n_missing=3)) == (
        " Missing edu (3 records) counts as one more value."
    )


def test_diversity_reading_ends_with_the_rule():
    # class 1 = {a, missing}, class 2 = {b, b}; order a < b; t = 3/8 with missing lowest
    # (hand-worked in tests/riskcore/test_t_closeness_order.py)
    df = pd.DataFrame({"q": [1, 1, 2, 2], "s": ["a", None, "b", "b"]})
    a = assess(df, quasi_identifiers=["q"], sensitive=["s"], order={"s": ["a", "b"]})
    assert rd.diversity_reading(a, "s").endswith(
        "t = 0.375 (ordered distance). The values are ranked in the order given. Missing s "
        "(1 record) has no rank: t is computed with it below the lowest value and again above "
        "the highest, and the larger is kept (ranking it lowest gives the larger t)."
    )


def test_order_refusal_until_every_value_is_placed():
    values = ["Bachelors", "Doctorate", "HS-grad"]
    text = rd.order_refusal("edu", values, [])
    assert text is not None
    assert text.startswith("t-closeness of edu is not computed yet")
    assert "Still to place: 3 of 3 ('Bachelors', 'Doctorate', 'HS-grad')." in text
    assert "Still to place: 1 of 3 ('Doctorate')" in rd.order_refusal(
        "edu", values, ["HS-grad", "Bachelors"]
    )
    assert rd.order_refusal("edu", values, ["HS-grad", "Bachelors", "Doctorate"]) is None
    many = [f"v{i}" for i in range(rd.MAX_HAND_ORDER + 1)]
    assert "too many to order by hand" in rd.order_refusal("x", many, many)
    assert "and 2 more" in rd.order_refusal("x", many[:7], [])


def test_order_prompt_and_pending():
    assert rd.order_prompt("edu", 16) == "Order of edu: pick all 16 values, lowest first"
    assert rd.order_pending("edu").startswith("No l or t for edu yet: its ordered distance waits")


@pytest.mark.parametrize(
    ("series", "kind", "values"),
    [
        (pd.Series([3, 1, 2]), "value", []),
        (pd.Series([1.5, None]), "value", []),
        (pd.Series(pd.to_datetime(["2020-01-02", "2020-01-01"])), "value", []),
        (pd.Series(["b", None, "a", "c"]), "needed", ["a", "b", "c"]),
        (pd.Series(pd.Categorical(["x", "y"], categories=["y", "x"])), "needed", ["y", "x"]),
        (pd.Series(["x", "y"], dtype=pd.CategoricalDtype(["y", "x"], True)), "categories", []),
    ],
)
def test_order_choices(series, kind, values):
    labels = pd.unique(series)
    assert order_choices(series.dtype, labels) == (kind, values)
