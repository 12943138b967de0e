"""Every figure of an assessment in people, when rows share a person (issue 36).

The expected values are worked by hand (the table below), or computed apart: a pandas
count of each person's set of QI tuples, or the same assessment on one row per person.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from riskcore import assess
from riskcore._results import dumps
from riskcore.demo.claims import make_claims
from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError, RolesError
from riskcore.metrics import class_table

NAN = float("nan")

# P1 has two rows with one QI tuple; P3's age changes between rows; P5 has three rows and
# two diagnoses; P6's age is missing; the last row has no person id (a person of its own).
HAND = pd.DataFrame(
    {
        "pid": ["P1", "P1", "P2", "P3", "P3", "P4", "P5", "P5", "P5", "P6", None],
        "age": [30, 30, 30, 30, 31, 31, 31, 31, 31, NAN, 30],
        "sex": ["F"] * 11,
        "diag": [
            "flu", "cold", "flu", "flu", "flu", "cold", "cold", "cold", "asthma", "flu", "flu",
        ],
    }
)  # fmt: skip
# classes: {(30,F)}: P1, P2, the unnamed row (3 people); {(30,F),(31,F)}: P3 (1);
# {(31,F)}: P4, P5 (2); {(missing,F)}: P6 (1)


def _hand() -> object:
    return assess(
        HAND, quasi_identifiers=["age", "sex"], sensitive=["diag"], person="pid", threshold=0.4
    )


def test_k_classes_and_uniques_count_people() -> None:
    a = _hand()
    assert (a.n_people, a.n_records, a.n_classes, a.k) == (7, 11, 4, 1)
    assert a.unique_records == 2  # P3 and P6
    assert sorted(a.classes.sizes.tolist()) == [1, 1, 2, 3]
    assert sorted(a.classes.rows.tolist()) == [1, 2, 4, 4]
    assert a.missing_records == 1


def test_prosecutor_risk_in_people() -> None:
    pr = _hand().prosecutor
    assert pr.highest_risk == 1.0
    assert pr.records_at_risk == pytest.approx(4 / 7)  # 1/2 and 1 are above 0.4
    assert pr.success_rate == pytest.approx(4 / 7)  # J / n
    assert pr.mean_class_risk == pytest.approx((1 / 3 + 1 + 1 / 2 + 1) / 4)


def test_l_and_t_count_each_person_once_per_value() -> None:
    d = _hand().sensitive["diag"]
    assert d.distinct_l == 1
    assert d.homogeneous_classes == 2 and d.homogeneous_records == 2
    # Q: flu held by 5 people, cold by 3, asthma by 1; class {(31,F)}: cold 2, asthma 1
    assert d.t_closeness == pytest.approx(5 / 9)


def test_the_json_states_people_and_rows() -> None:
    out = json.loads(dumps(_hand().to_dict()))
    assert (out["n_records"], out["n_people"], out["person"], out["unit"]) == (
        11, 7, "pid", "person",
    )  # fmt: skip
    back = type(_hand()).from_dict(out)
    assert (back.n_records, back.n_people, back.k, back.person) == (11, 7, 1, "pid")


def test_the_class_table_lists_each_tuple_of_a_class() -> None:
    table = class_table(_hand())
    row = table[table["people"] == 1].set_index("age")
    assert set(table.columns) >= {"people", "rows", "risk"}
    assert "30.0 | 31.0" in [str(v) for v in table["age"]]  # age is float (a NaN)
    assert int(row["rows"].sum()) == 3  # P3's two rows and P6's one


def test_without_a_person_each_row_is_one() -> None:
    a = assess(HAND, quasi_identifiers=["age", "sex"], sensitive=["diag"])
    assert a.n_people == a.n_records == 11 and a.person is None and a.unit == "record"


def test_a_person_column_cannot_be_a_qi() -> None:
    with pytest.raises(RolesError, match="cannot be a quasi-identifier"):
        assess(HAND, quasi_identifiers=["pid", "age"], person="pid")
    with pytest.raises(RolesError, match="no person column"):
        assess(HAND, quasi_identifiers=["age"], person="patient")


def test_any_policy_refuses_people_whose_tuples_differ() -> None:
    with pytest.raises(RiskcoreError, match="different quasi-identifier values"):
        assess(HAND, quasi_identifiers=["age", "sex"], person="pid", missing="any")


def _same(a: object, b: object) -> bool:
    """Return True when two JSON values are equal, floats to 12 digits (summation order)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
    return a == b


def _one_row_each(df: pd.DataFrame) -> pd.DataFrame:
    return df.assign(pid=np.arange(len(df)))


tables = st.integers(1, 40).flatmap(
    lambda n: st.fixed_dictionaries(
        {
            "a": st.lists(st.sampled_from([1, 2, 3, None]), min_size=n, max_size=n),
            "b": st.lists(st.sampled_from(["x", "y"]), min_size=n, max_size=n),
            "s": st.lists(st.sampled_from(["u", "v", "w"]), min_size=n, max_size=n),
        }
    )
)


@given(tables)
def test_one_row_per_person_gives_the_row_figures(cols: dict[str, list[object]]) -> None:
    df = _one_row_each(pd.DataFrame(cols))
    rows = assess(df, quasi_identifiers=["a", "b"], sensitive=["s"]).to_dict()
    people = assess(df, quasi_identifiers=["a", "b"], sensitive=["s"], person="pid").to_dict()
    for key in ("person", "unit"):
        people.pop(key), rows.pop(key)
    assert _same(people, rows), (people, rows)


@given(tables, st.integers(2, 4))
def test_repeated_rows_of_one_person_count_once(cols: dict[str, list[object]], m: int) -> None:
    one = _one_row_each(pd.DataFrame(cols))
    many = pd.concat([one] * m, ignore_index=True).sample(frac=1.0, random_state=m)
    expected = assess(one, quasi_identifiers=["a", "b"], sensitive=["s"]).to_dict()
    got = assess(many, quasi_identifiers=["a", "b"], sensitive=["s"], person="pid").to_dict()
    assert got["n_records"] == m * len(one)
    for key in ("person", "unit", "n_records"):
        expected.pop(key), got.pop(key)
    assert _same(got, expected), (got, expected)


def _signatures(df: pd.DataFrame, qis: list[str], person: str) -> pd.Series:
    """Each person's set of QI tuples, counted apart from riskcore (pandas, text keys)."""
    text = df[qis].astype(str).agg("|".join, axis=1)
    return text.groupby(df[person].to_numpy()).agg(lambda s: tuple(sorted(set(s))))


def test_claims_k_and_people_equal_an_independent_count() -> None:
    df = make_claims(2_500, seed=0)
    qis = ["sex", "race", "zip", "age"]
    a = assess(df, quasi_identifiers=qis, person="patient_id")
    counts = _signatures(df, qis, "patient_id").value_counts()
    assert a.n_people == df["patient_id"].nunique() == int(counts.sum())
    assert a.k == int(counts.min())
    assert a.n_classes == len(counts)
    assert a.unique_records == int((counts == 1).sum())
    assert sorted(a.classes.sizes.tolist()) == sorted(counts.tolist())


def test_record_classes_give_each_row_its_person_class() -> None:
    df = make_claims(300, seed=2)
    enc = EncodedTable(df)
    cls = enc.record_classes(["sex", "age"], person="patient_id")
    per_person = pd.Series(cls).groupby(df["patient_id"].to_numpy()).nunique()
    assert int(per_person.max()) == 1
    sizes = enc.classes(["sex", "age"], person="patient_id").sizes
    people = pd.Series(df["patient_id"].to_numpy()).groupby(cls).nunique()
    assert people.sort_index().tolist() == sizes.tolist()
    assert math.isclose(float(sizes.sum()), df["patient_id"].nunique())


def test_suda_runs_on_one_record_per_person() -> None:
    from riskcore.metrics.special_uniques import suda

    df = make_claims(400, seed=8)
    qis = ["sex", "race", "zip"]  # constant on a person's rows
    people = suda(df, qis, person="patient_id")
    first = df.drop_duplicates("patient_id").reset_index(drop=True)
    alone = suda(first, qis)
    assert people.n_people == len(first) and people.n_records == len(df)
    assert (people.special_uniques, people.n_msus) == (alone.special_uniques, alone.n_msus)
    by_person = dict(zip(first["patient_id"], alone.score, strict=True))
    expected = df["patient_id"].map(by_person).to_numpy()
    np.testing.assert_array_equal(people.score, expected)
    row = int(np.flatnonzero(people.score > 0)[0])
    mine = first.index[first["patient_id"] == df["patient_id"].iloc[row]][0]
    assert people.msus_of(row) == alone.msus_of(int(mine))


def test_suda_refuses_people_whose_qis_change_and_the_records_table_leaves_it_empty() -> None:
    from riskcore.criteria.records import record_table
    from riskcore.metrics.special_uniques import suda

    with pytest.raises(RiskcoreError, match="different quasi-identifier values"):
        suda(HAND, ["age", "sex"], person="pid")
    table = record_table(HAND, ["age", "sex"], person="pid")
    assert table["msu_count"].isna().all() and table["suda_score"].isna().all()
    # each row carries its person's class (in people) and risk
    assert table["class_size"].tolist() == [3, 3, 3, 1, 1, 2, 2, 2, 2, 1, 3]
    assert table["prosecutor_risk"].iloc[3] == 1.0
