"""Subset uniqueness, QI contributions, population tables and failing classes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from riskcore.criteria import Targets, evaluate
from riskcore.engine import EncodedTable
from riskcore.errors import RolesError
from riskcore.metrics import Population, assess, class_table
from riskcore.metrics.uniqueness import subset_uniqueness

# Hand-worked table: 6 people.
#   zip    sex  age  dx
#   02139  F    30   flu
#   02139  F    30   hiv
#   02139  M    30   flu
#   02140  M    40   flu
#   02140  M    40   flu
#   02141  F    40   cold
HAND = pd.DataFrame(
    {
        "zip": ["02139", "02139", "02139", "02140", "02140", "02141"],
        "sex": ["F", "F", "M", "M", "M", "F"],
        "age": [30, 30, 30, 40, 40, 40],
        "dx": ["flu", "hiv", "flu", "flu", "flu", "cold"],
    }
)


def test_subset_uniqueness_hand_example():
    r = subset_uniqueness(EncodedTable(HAND), ["zip", "sex", "age"])
    # all three: classes {F,02139,30}x2, {M,02139,30}, {M,02140,40}x2, {F,02141,40} -> 2 unique
    assert r.all_quasi_identifiers.unique_records == 2
    by = {s.columns: s for s in r.subsets}
    assert by[("zip",)].unique_records == 1  # 02141
    assert by[("sex",)].unique_records == 0
    assert by[("age",)].unique_records == 0
    assert by[("zip", "sex")].unique_records == 2  # (02139,M), (02141,F)
    assert by[("sex", "age")].unique_records == 2  # (M,30) and (F,40)
    assert r.complete


def test_contributions_hand_example():
    r = subset_uniqueness(EncodedTable(HAND), ["zip", "sex", "age"])
    c = {x.column: x for x in r.contributions}
    # without zip: (F,30)x2 (M,30)x1 (M,40)x2 (F,40)x1 -> 2 unique, drop 0
    assert c["zip"].unique_without == 2 and c["zip"].drop == 0
    # without sex: (02139,30)x3 (02140,40)x2 (02141,40)x1 -> 1 unique, drop 1 (half)
    assert c["sex"].unique_without == 1 and c["sex"].drop_share == pytest.approx(0.5)
    # without age: same classes as all three -> drop 0
    assert c["age"].drop == 0
    assert r.contributions[0].column == "sex"


def test_budget_stops_enumeration():
    r = subset_uniqueness(EncodedTable(HAND), ["zip", "sex", "age"], budget=4)
    assert len(r.subsets) == 4 and not r.complete
    with pytest.raises(RolesError):
        subset_uniqueness(EncodedTable(HAND), [])


def test_population_table_gives_journalist_risk():
    pop = pd.DataFrame(
        {
            "sex": ["F", "M", "F"],
            "age": [30, 30, 40],
            "count": [20, 3, 1],  # (M,40) missing from the table
        }
    )
    a = assess(HAND, quasi_identifiers=["sex", "age"], population_model=Population(table=pop))
    # sample classes: (F,30) f=2 F=20; (M,30) f=1 F=3; (M,40) f=2 F missing -> 2; (F,40) f=1 F=1
    assert a.journalist is not None and a.marketer is not None
    assert a.journalist.highest_risk == pytest.approx(1.0)
    assert a.marketer.success_rate == pytest.approx((2 / 20 + 1 / 3 + 2 / 2 + 1 / 1) / 6)
    assert "1 class(es) absent" in a.population_note


def test_failing_classes_and_class_table():
    a = assess(HAND, quasi_identifiers=["zip", "sex", "age"], sensitive=["dx"])
    dx = a.sensitive["dx"]
    failing = np.flatnonzero(evaluate(Targets.of(l=2), a.evidence).failing)
    t = class_table(a, failing)
    # classes with one distinct dx: (M,02139,30), (M,02140,40), (F,02141,40)
    assert len(t) == 3
    assert set(t["records"]) == {1, 2}
    assert (t["dx: distinct"] == 1).all()
    assert list(t.columns[:4]) == ["class", "zip", "sex", "age"]
    assert dx.homogeneous_classes == 3 and dx.homogeneous_records == 4
    assert not evaluate(Targets.of(t=1.0), a.evidence).failing.any()


def test_qi_with_100000_distinct_values():
    n = 100_000
    df = pd.DataFrame({"id_like": np.arange(n), "sex": np.tile(["F", "M"], n // 2)})
    a = assess(df, quasi_identifiers=["id_like", "sex"])
    assert a.k == 1 and a.unique_records == n


def test_uniqueness_result_round_trips_through_json():
    import json

    from riskcore._results import dumps
    from riskcore.metrics.uniqueness import UniquenessResult

    r = subset_uniqueness(HAND, list(HAND.columns[:3]))
    back = UniquenessResult.from_dict(json.loads(dumps(r)))
    assert back == r
