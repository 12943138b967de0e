"""AppTest: the anonymity page asks for the order of a text attribute before an ordered t."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from riskcore.demo import make_people
from riskcore.metrics import assess
from tests.app.helpers import demo_roles, run, static_table

QIS = ["age", "sex", "race"]


def distance_box(at, attribute):
    return next(w for w in at.selectbox if plain(w.label).startswith(f"{attribute}: distance"))


def order_box(at, attribute):
    return next(w for w in at.multiselect if plain(w.label).startswith(f"Order of {attribute}"))


def plain(text: str) -> str:
    """Undo the markdown escaping of ui.core.safe.md."""
    return re.sub(r"\\(.)", r"\1", text)


def texts(at) -> str:
    return plain(" ".join(x.value for x in (*at.markdown, *at.caption, *at.warning)))


def test_ordered_text_without_an_order_is_refused_not_sorted():
    at = run("pages/anonymity.py", demo_roles(QIS, ["income"]))
    box = distance_box(at, "income")
    assert box.value == "equal"  # text: the equal distance until an order is given
    box.set_value("ordered").run()
    assert not at.exception
    warnings = [plain(w.value) for w in at.warning]
    assert any(
        "t-closeness of income is not computed yet" in w and "Still to place: 2 of 2" in w
        for w in warnings
    ), warnings
    # no t for income anywhere: not in the targets table, not in a reading
    checks = static_table(at, "required")
    assert not any("income" in str(x) for x in checks.iloc[:, 0])
    assert "(ordered distance)" not in texts(at)
    assert "No l or t for income yet" in texts(at)
    # half an order is still refused; the second pick is kept (not dropped by a widget reset)
    order_box(at, "income").set_value(["<=50K"]).run()
    assert "Still to place: 1 of 2 ('>50K')" in texts(at)
    order_box(at, "income").set_value(["<=50K", ">50K"]).run()
    assert order_box(at, "income").value == ["<=50K", ">50K"]
    assert not at.warning
    assert "t = " in texts(at)


def test_the_order_given_is_the_order_used():
    at = run("pages/anonymity.py", demo_roles(QIS, ["income"]))
    distance_box(at, "income").set_value("ordered").run()
    order_box(at, "income").set_value([">50K", "<=50K"]).run()
    assert not at.exception
    assert not at.warning
    df = make_people(32_561, seed=0)
    a = assess(df, quasi_identifiers=QIS, sensitive=["income"], order={"income": [">50K", "<=50K"]})
    t = a.sensitive["income"].t_closeness
    text = texts(at)
    assert f"t = {t:.3f} (ordered distance). The values are ranked in the order given." in text
    # a hand check of that t from the class counts: with two values, m - 1 = 1 and
    # D_j = |p_j(>50K) - q(>50K)|, the largest over classes
    high = (df["income"] == ">50K").groupby([df[q] for q in QIS], observed=True).mean()
    q = (df["income"] == ">50K").mean()
    assert t == pytest.approx((high - q).abs().max())


def test_missing_values_rule_is_stated_on_the_page():
    # workclass has missing values in the demo (as in Adult); its values are text
    at = run("pages/anonymity.py", demo_roles(QIS, ["workclass"]))
    distance_box(at, "workclass").set_value("ordered").run()
    values = list(make_people(32_561, seed=0)["workclass"].cat.categories)
    order_box(at, "workclass").set_value(values).run()
    assert not at.exception and not at.warning
    text = texts(at)
    n_missing = int(make_people(32_561, seed=0)["workclass"].isna().sum())
    assert (
        f"Missing workclass ({n_missing:,} records) has no rank: t is computed with it below "
        "the lowest value and again above the highest, and the larger is kept" in text
    )


def test_distance_and_order_survive_a_page_switch():
    at = run("pages/anonymity.py", demo_roles(QIS, ["income"]))
    distance_box(at, "income").set_value("ordered").run()
    order_box(at, "income").set_value([">50K", "<=50K"]).run()
    at.switch_page("pages/uniqueness.py").run()
    at.switch_page("pages/anonymity.py").run()
    assert not at.exception
    assert distance_box(at, "income").value == "ordered"
    assert order_box(at, "income").value == [">50K", "<=50K"]


def test_numbers_need_no_order():
    at = run("pages/anonymity.py", demo_roles(QIS, ["hours_per_week"]))
    assert distance_box(at, "hours_per_week").value == "ordered"
    assert not [w for w in at.multiselect if w.label.startswith("Order of")]
    assert "The values are ranked by value." in texts(at)
    assert isinstance(static_table(at, "required"), pd.DataFrame)
