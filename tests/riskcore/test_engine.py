"""The engine contract: tabulation, per-record classes, and an independent second engine."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from riskcore._results import dumps
from riskcore.engine import Contingency, EncodedTable, Engine
from riskcore.metrics import Assessment, Population, assess
from tests.riskcore.reference import GroupbyEngine

# 8 people, hand-made: classes on (age, zip) with a missing ZIP kept as a value
PEOPLE = pd.DataFrame(
    {
        "age": [30, 30, 30, 41, 41, 52, 52, 60],
        "zip": ["02139", "02139", "02139", None, None, "10001", "10001", "10001"],
        "diagnosis": ["flu", "flu", "cold", "flu", "flu", "cold", "asthma", "flu"],
    },
    index=[10, 3, 7, 1, 0, 99, 5, 2],  # a shuffled, non-range index plays no role
)


def test_groupby_engine_satisfies_the_protocol():
    assert isinstance(GroupbyEngine(PEOPLE), Engine)
    assert isinstance(EncodedTable(PEOPLE), Engine)


def test_tabulation_by_hand():
    tab = EncodedTable(PEOPLE).tabulate(["age", "zip"], ["diagnosis"])
    classes = tab.classes
    vals = classes.values()
    got = sorted(zip(vals["age"], vals["zip"].fillna("<missing>"), classes.sizes, strict=True))
    assert got == [(30, "02139", 3), (41, "<missing>", 2), (52, "10001", 2), (60, "10001", 1)]
    assert classes.n_records == 8 and classes.n_classes == 4
    ct = tab.sensitive["diagnosis"]
    assert ct.n_records == 8 and sorted(ct.value_totals.tolist()) == [1, 2, 5]
    # class (52, 10001) holds one cold and one asthma: two cells of count 1
    j = int(np.flatnonzero((classes.values()["age"] == 52).to_numpy())[0])
    assert sorted(ct.cell_count[ct.cell_class == j].tolist()) == [1, 1]


def test_record_classes_are_numbered_as_the_tabulation():
    enc = EncodedTable(PEOPLE)
    ids = enc.record_classes(["age", "zip"])
    classes = enc.classes(["age", "zip"])
    assert np.bincount(ids).tolist() == classes.sizes.tolist()
    rows = classes.values(ids)
    assert rows["age"].tolist() == PEOPLE["age"].tolist()
    assert rows["zip"].fillna("-").tolist() == PEOPLE["zip"].fillna("-").tolist()


def test_contingencies_add_up_across_parts():
    whole = EncodedTable(PEOPLE).tabulate(["age"], ["diagnosis"]).sensitive["diagnosis"]
    enc = EncodedTable(PEOPLE)
    ids = enc.record_classes(["age"])
    sens = enc.column("diagnosis")
    parts = [slice(0, 3), slice(3, 8)]
    cells = [
        pd.DataFrame({"c": ids[p], "v": sens.codes[p]}).value_counts().reset_index() for p in parts
    ]
    both = pd.concat(cells)
    merged = Contingency.from_cells(
        "diagnosis",
        both["c"],
        both["v"],
        both["count"],
        n_classes=len(whole.class_sizes),
        labels=sens.labels,
        ordered=False,
    )
    for name in ("cell_class", "cell_value", "cell_count", "class_sizes", "value_totals"):
        assert getattr(merged, name).tolist() == getattr(whole, name).tolist(), name


@pytest.mark.parametrize("qis", [["age"], ["age", "zip"], ["zip"]])
def test_every_figure_is_the_same_from_an_independent_engine(qis):
    ours = assess(PEOPLE, quasi_identifiers=qis, sensitive=["diagnosis"])
    theirs = assess(GroupbyEngine(PEOPLE), quasi_identifiers=qis, sensitive=["diagnosis"])
    assert theirs.engine == "groupby" and ours.engine == "memory"
    a, b = ours.to_dict(), theirs.to_dict()
    a.pop("engine"), b.pop("engine")
    assert a == b


def test_assessment_round_trips_through_strict_json():
    a = assess(
        PEOPLE,
        quasi_identifiers=["age", "zip"],
        sensitive=["diagnosis"],
        population=Population(sampling_fraction=0.01),
    )
    text = dumps(a)  # allow_nan=False: NaN would raise
    back = Assessment.from_dict(json.loads(text))
    assert back.to_dict() == a.to_dict()
    assert back.k == 1 and back.n_records == 8 and back.classes is None
    assert back.sensitive["diagnosis"].per_class is None
    with pytest.raises(ValueError, match="read back from JSON"):
        back.sensitive["diagnosis"].failing_classes(l=2)
    assert back.journalist is not None and math.isclose(
        back.journalist.success_rate,
        a.journalist.success_rate,  # type: ignore[union-attr]
    )


def test_unknown_column_is_a_roles_error_for_any_engine():
    from riskcore.errors import RolesError

    with pytest.raises(RolesError, match="no column 'zipcode'"):
        assess(GroupbyEngine(PEOPLE), quasi_identifiers=["zipcode"])
