"""Ordered t-closeness needs a real order; missing values take the more conservative rank.

Every expected value is worked by hand from Li, Li, Venkatasubramanian (ICDE
2007): with the m values ranked lowest first and r_i = p_i - q_i,
D = (1/(m-1)) sum_i |sum_{j<=i} r_j|.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from riskcore.engine import Contingency
from riskcore.errors import RiskcoreError
from riskcore.metrics import assess, sensitive_metrics, t_closeness_per_class

EDU = ["HS-grad", "Bachelors", "Doctorate"]  # the real order, lowest first


def education_table() -> pd.DataFrame:
    # class 1: HS-grad x2, Bachelors; class 2: Bachelors, Doctorate x2. n = 6, q = 1/3 each.
    return pd.DataFrame(
        {
            "q": [1, 1, 1, 2, 2, 2],
            "edu": ["HS-grad", "HS-grad", "Bachelors", "Bachelors", "Doctorate", "Doctorate"],
        }
    )


def t_of(df, **kw):
    return assess(df, quasi_identifiers=["q"], sensitive=[kw.pop("col", "edu")], **kw)


def test_given_order_hand_worked():
    # order HS-grad < Bachelors < Doctorate, m = 3, Q = (1/3, 1/3, 1/3).
    # class 1: P = (2/3, 1/3, 0), r = (1/3, 0, -1/3), cumulative (1/3, 1/3, 0): 2/3 / 2 = 1/3.
    # class 2: P = (0, 1/3, 2/3), r = (-1/3, 0, 1/3), cumulative (-1/3, -1/3, 0): 1/3.
    r = t_of(education_table(), order={"edu": EDU}).sensitive["edu"]
    assert r.distance == "ordered"
    assert r.order_source == "given"
    assert r.t_closeness == pytest.approx(1 / 3)
    assert r.per_class["t"] == pytest.approx([1 / 3, 1 / 3])


def test_alphabetical_order_gives_another_t():
    # Alphabetical is Bachelors < Doctorate < HS-grad. class 1: P = (1/3, 0, 2/3),
    # r = (0, -1/3, 1/3), cumulative (0, -1/3, 0): 1/3 / 2 = 1/6; class 2 likewise 1/6.
    # The real order gives 1/3: sorting text would halve t here.
    alpha = t_of(education_table(), order={"edu": sorted(EDU)}).sensitive["edu"]
    real = t_of(education_table(), order={"edu": EDU}).sensitive["edu"]
    assert alpha.t_closeness == pytest.approx(1 / 6)
    assert real.t_closeness == pytest.approx(1 / 3)


def test_ordered_text_without_an_order_is_refused():
    with pytest.raises(RiskcoreError, match=r"ordered distance on 'edu' needs the order") as e:
        t_of(education_table(), distance="ordered")
    assert "order={'edu': [lowest, ..., highest]}" in str(e.value)
    assert "ordered pandas Categorical" in str(e.value)


def test_unordered_categorical_is_refused_too():
    # A categorical's categories are only an order when the categorical is ordered.
    df = education_table()
    df["edu"] = pd.Categorical(df["edu"], categories=EDU)
    with pytest.raises(RiskcoreError, match="'edu' needs the order"):
        t_of(df, distance="ordered")


def test_ordered_categorical_gives_its_order_and_the_ordered_distance():
    df = education_table()
    df["edu"] = pd.Categorical(df["edu"], categories=EDU, ordered=True)
    r = t_of(df).sensitive["edu"]
    assert (r.distance, r.order_source) == ("ordered", "categories")
    assert r.t_closeness == pytest.approx(1 / 3)
    # reversing the categories mirrors every distribution: the same t (hand: symmetric)
    df["edu"] = df["edu"].cat.reorder_categories(EDU[::-1], ordered=True)
    assert t_of(df).sensitive["edu"].t_closeness == pytest.approx(1 / 3)


def test_order_leaving_out_values_names_them():
    with pytest.raises(RiskcoreError, match=r"leaves out 1 of its values: 'Doctorate'"):
        t_of(education_table(), order={"edu": ["HS-grad", "Bachelors"]})
    with pytest.raises(RiskcoreError, match=r"lists 'HS-grad' twice"):
        t_of(education_table(), order={"edu": ["HS-grad", "HS-grad", *EDU[1:]]})
    with pytest.raises(RiskcoreError, match="must be a list of values"):
        t_of(education_table(), order={"edu": "HS-grad"})


def test_order_for_a_column_that_is_not_sensitive_or_with_equal_distance():
    with pytest.raises(RiskcoreError, match="'q', not a sensitive attribute"):
        t_of(education_table(), order={"q": [1, 2]})
    with pytest.raises(RiskcoreError, match="its distance is 'equal'"):
        t_of(education_table(), distance="equal", order={"edu": EDU})


def test_values_of_the_order_absent_from_the_table_do_not_count():
    # m counts the values observed (formulas.md): an extra 'Masters' changes nothing.
    r = t_of(education_table(), order={"edu": ["HS-grad", "Bachelors", "Masters", "Doctorate"]})
    assert r.sensitive["edu"].t_closeness == pytest.approx(1 / 3)
    assert r.sensitive["edu"].n_values == 3


def test_numbers_are_ordered_by_value_whatever_their_codes():
    # Codes in order of first appearance (30, 10, 20) must not be taken as value order.
    # Values 10 < 20 < 30, Q = (1/3, 1/3, 1/3); class 1 = {30}: P = (0,0,1),
    # cumulative r = (-1/3, -2/3, 0): 1 / 2 = 1/2.
    labels = np.array([30, 10, 20], dtype=object)
    cont = Contingency.from_cells(
        "s", [0, 1, 1], [0, 1, 2], [1, 1, 1], n_classes=2, labels=labels, ordered=False
    )
    t = t_closeness_per_class(cont, "ordered")
    assert t[0] == pytest.approx(0.5)
    # class 2 = {10, 20}: P = (1/2, 1/2, 0), cumulative r = (1/6, 1/3, 0): 1/2 / 2 = 1/4
    assert t[1] == pytest.approx(0.25)


@pytest.mark.parametrize(
    ("with_missing", "homogeneous", "rank"),
    [("low", "high", "lowest"), ("high", "low", "highest")],
)
def test_missing_is_ranked_at_the_end_that_gives_the_larger_t(with_missing, homogeneous, rank):
    # Class 1 = {x, missing}, class 2 = {y, y}; values low < high, n = 4, m = 3.
    # Case x = low: Q(missing, low, high) = (1/4, 1/4, 1/2).
    #  missing lowest: class 1 P = (1/2, 1/2, 0), r = (1/4, 1/4, -1/2), cumulative
    #   (1/4, 1/2, 0): 3/4 / 2 = 3/8; class 2 P = (0, 0, 1), cumulative (-1/4, -1/2, 0): 3/8.
    #  missing highest, Q(low, high, missing) = (1/4, 1/2, 1/4): class 1 P = (1/2, 0, 1/2),
    #   cumulative (1/4, -1/4, 0): 1/4; class 2 P = (0, 1, 0), cumulative (-1/4, 1/4, 0): 1/4.
    #  t = max(3/8, 1/4) = 3/8, from ranking missing lowest. Case x = high mirrors it.
    df = pd.DataFrame({"q": [1, 1, 2, 2], "s": [with_missing, None, homogeneous, homogeneous]})
    r = t_of(df, col="s", order={"s": ["low", "high"]}).sensitive["s"]
    assert r.t_closeness == pytest.approx(3 / 8)
    assert r.per_class["t"] == pytest.approx([3 / 8, 3 / 8])
    assert r.missing_rank == rank
    assert r.n_missing == 1


def test_missing_rule_on_numbers_takes_the_larger_t():
    # The same table with low = 1.0, high = 2.0: ranking NaN last alone would give 1/4.
    df = pd.DataFrame({"q": [1, 1, 2, 2], "s": [1.0, np.nan, 2.0, 2.0]})
    r = t_of(df, col="s").sensitive["s"]
    assert (r.distance, r.order_source, r.missing_rank) == ("ordered", "value", "lowest")
    assert r.t_closeness == pytest.approx(3 / 8)
    cont = Contingency.from_cells(
        "s", [0, 0, 1], [0, 2, 1], [1, 1, 2], n_classes=2, labels=[1.0, 2.0, None], ordered=True
    )
    assert t_closeness_per_class(cont) == pytest.approx([3 / 8, 3 / 8])


def test_missing_per_class_keeps_the_larger_of_the_two_ranks():
    # Order a < b, n = 6: class 1 = {a, a, missing}, class 2 = {b, b, b}; m = 3.
    # Q(missing, a, b) = (1/6, 2/6, 3/6). Missing lowest: class 1 P = (1/3, 2/3, 0):
    # cumulative r = (1/6, 1/2, 0): 2/3 / 2 = 1/3; class 2 P = (0,0,1): (-1/6, -1/2, 0): 1/3.
    # Missing highest, Q(a, b, missing) = (2/6, 3/6, 1/6): class 1 P = (2/3, 0, 1/3):
    # cumulative (1/3, -1/6, 0): 1/2 / 2 = 1/4; class 2 P = (0, 1, 0): (-1/3, 1/6, 0): 1/4.
    df = pd.DataFrame({"q": [1, 1, 1, 2, 2, 2], "s": ["a", "a", None, "b", "b", "b"]})
    r = t_of(df, col="s", order={"s": ["a", "b"]}).sensitive["s"]
    assert r.per_class["t"] == pytest.approx([1 / 3, 1 / 3])
    assert r.missing_rank == "lowest"


def test_equal_distance_counts_missing_as_its_own_category():
    # Q = (a 1/4, missing 1/4, b 1/2). Class 1 = {a, missing}: (1/4 + 1/4 + 1/2) / 2 = 1/2;
    # class 2 = {b, b}: (1/4 + 1/4 + 1/2) / 2 = 1/2. Dropping the NaN (groupby's default)
    # would give Q = (1/3, 2/3) and class 1 = {a}: (2/3 + 2/3) / 2 = 2/3.
    df = pd.DataFrame({"q": [1, 1, 2, 2], "s": ["a", None, "b", "b"]})
    r = t_of(df, col="s").sensitive["s"]
    assert r.distance == "equal"
    assert (r.n_values, r.n_missing, r.missing_rank, r.order_source) == (3, 1, None, None)
    assert r.per_class["t"] == pytest.approx([0.5, 0.5])


def test_two_missing_labels_are_one_missing_value():
    # A table from another engine may carry both None and NaN. They are one value:
    # class 1 = {1, None}, class 2 = {2, NaN}; Q(missing, 1, 2) = (1/2, 1/4, 1/4), m = 3.
    # Missing lowest: class 1 P = (1/2, 1/2, 0), cumulative r = (0, 1/4, 0): 1/4 / 2 = 1/8;
    # class 2 likewise 1/8. Missing highest, Q(1, 2, missing) = (1/4, 1/4, 1/2): class 1
    # P = (1/2, 0, 1/2), cumulative (1/4, 0, 0): 1/8; class 2 likewise. Both ends: 1/8.
    labels = np.array([1.0, None, 2.0, np.nan], dtype=object)
    cont = Contingency.from_cells(
        "s", [0, 0, 1, 1], [0, 1, 2, 3], [1, 1, 1, 1], n_classes=2, labels=labels, ordered=False
    )
    r = sensitive_metrics(cont, distance="ordered")
    assert r.per_class["t"] == pytest.approx([1 / 8, 1 / 8])
    assert (r.missing_rank, r.n_missing) == ("either", 2)
