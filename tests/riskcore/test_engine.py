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
        population_model=Population(sampling_fraction=0.01),
    )
    text = dumps(a)  # allow_nan=False: NaN would raise
    back = Assessment.from_dict(json.loads(text))
    assert back.to_dict() == a.to_dict()
    assert back.k == 1 and back.n_records == 8 and back.classes is None
    assert back.sensitive["diagnosis"].per_class is None
    assert back.evidence is None  # nothing to judge targets on: assess the data again
    assert back.journalist is not None and math.isclose(
        back.journalist.success_rate,
        a.journalist.success_rate,  # type: ignore[union-attr]
    )


def test_unknown_column_is_a_roles_error_for_any_engine():
    from riskcore.errors import RolesError

    with pytest.raises(RolesError, match="no column 'zipcode'"):
        assess(GroupbyEngine(PEOPLE), quasi_identifiers=["zipcode"])


def _arrow_table(df: pd.DataFrame):
    import pyarrow as pa

    from riskcore.engine.columnar import ArrowTable

    return ArrowTable(pa.Table.from_pandas(df, preserve_index=False))


@pytest.mark.parametrize("make", [EncodedTable, _arrow_table], ids=["pandas", "arrow-table"])
def test_no_quasi_identifier_is_refused_by_every_in_memory_engine(make):
    table = make(PEOPLE)
    needed = r"^at least one quasi-identifier is needed to form equivalence classes$"
    with pytest.raises(ValueError, match=needed):
        table.class_sizes([])
    with pytest.raises(ValueError, match=needed):
        table.tabulate([], ["diagnosis"])
    assert sorted(table.class_sizes(["age"]).tolist()) == [1, 2, 2, 3]


def test_a_sensitive_attribute_that_is_a_qi_is_not_tabulated():
    from riskcore.engine.partition import tabulation_roles

    assert tabulation_roles(["age", "zip"], ["zip", "diagnosis"]) == (
        ("age", "zip"),
        ("diagnosis",),
    )
    with pytest.raises(ValueError, match=r"^at least one quasi-identifier"):
        tabulation_roles([], ["diagnosis"])


def _wide_frame(n: int, seed: int) -> pd.DataFrame:
    """Columns whose packed key space exceeds 8 n (the sort path), with missing values."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(
        {
            "a": rng.integers(0, 5_000, n),
            "b": rng.integers(0, 5_000, n).astype(float),
            "c": rng.choice(["x", "y", None], n),
        }
    )
    df.loc[rng.random(n) < 0.05, "b"] = np.nan
    return df


@pytest.mark.parametrize("qis", [["a"], ["c"], ["a", "b"], ["a", "b", "c"], ["c", "b"]])
def test_class_sizes_equal_an_independent_groupby(qis):
    df = _wide_frame(20_000, 3)
    mine = EncodedTable(df).class_sizes(qis)
    theirs = df.groupby(qis, dropna=False).size().to_numpy()
    assert sorted(mine.tolist()) == sorted(theirs.tolist())
    assert mine.sum() == len(df)


@pytest.mark.parametrize("qis", [["a", "b"], ["a", "b", "c"], ["c"]])
def test_partition_matches_numpy_unique_on_both_paths(qis):
    """Class ids, sizes and first rows equal np.unique's (an independent computation)."""
    df = _wide_frame(20_000, 4)
    enc = EncodedTable(df)
    part = enc.partition(qis)
    key = pd.MultiIndex.from_frame(df[qis].astype(str)).factorize()[0]  # same classes
    _, first, counts = np.unique(key, return_index=True, return_counts=True)
    # classes may be numbered differently: compare through the first row of each class
    assert sorted(part.first_row.tolist()) == sorted(first.tolist())
    by_first = dict(zip(first.tolist(), counts.tolist(), strict=True))
    assert [by_first[f] for f in part.first_row.tolist()] == part.sizes.tolist()
    # every record's class starts at the first row of a record with the same key
    assert np.array_equal(key[part.first_row[part.class_id]], key)
    assert np.array_equal(enc.class_sizes(qis), part.sizes)


def test_large_key_spaces_number_classes_in_key_order_as_numpy_unique():
    # issue 38, item 20: keys beyond bincount's range are hashed and only the distinct keys
    # sorted; the classes, their sizes and first records are np.unique's, in key order
    from riskcore.engine.partition import _dense_ids

    rng = np.random.default_rng(38)
    for n in (1, 7, 5_000):
        key = rng.choice(rng.integers(0, 10**15, 300), n)
        class_id, sizes, first = _dense_ids(key, 10**15)
        _, index, inverse, counts = np.unique(
            key, return_index=True, return_inverse=True, return_counts=True
        )
        assert np.array_equal(class_id, inverse)
        assert np.array_equal(sizes, counts)
        assert np.array_equal(first, index)
