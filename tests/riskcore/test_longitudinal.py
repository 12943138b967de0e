"""k^m-anonymity over a person's events (:mod:`riskcore.metrics.longitudinal`).

Every figure is checked against an independent count: Python sets of each person's items
and, for every itemset of at most m of them (itertools.combinations), the number of
people whose set holds it; or, for m = 1, pandas' count of distinct people per value.
"""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riskcore.demo.claims import make_claims
from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError, RolesError
from riskcore.metrics import longitudinal
from riskcore.metrics.longitudinal import (
    KmAnonymity,
    event_items,
    itemset_occurrences,
    itemset_support,
    km_anonymity,
)

# ------------------------------------------------------------------ the brute-force reference


def _person_sets(
    df: pd.DataFrame, person: str, events: list[str], items: str, missing: str
) -> tuple[list[object], dict[object, set[object]]]:
    """Return each row's person key and each person's set of items, by plain Python."""
    keys: list[object] = []
    sets: dict[object, set[object]] = {}
    for i, row in enumerate(df.to_dict("records")):
        p = row[person]
        key = ("row", i) if pd.isna(p) else ("person", p)
        keys.append(key)
        held = sets.setdefault(key, set())
        values = [None if pd.isna(row[e]) else row[e] for e in events]
        if items == "visit":
            if not (missing == "skip" and None in values):
                held.add(tuple(values))
        else:
            held.update(
                (e, v)
                for e, v in zip(events, values, strict=True)
                if not (missing == "skip" and v is None)
            )
    return keys, sets


def _brute(sets: dict[object, set[object]], m: int) -> dict[object, tuple[int, int]]:
    """Return per person (least support, size of the smallest itemset with it); (0, 0): no item."""
    out = {}
    for p, held in sets.items():
        best = (0, 0)
        for j in range(1, min(m, len(held)) + 1):
            for combo in itertools.combinations(list(held), j):
                s = sum(1 for q in sets.values() if set(combo) <= q)
                if best == (0, 0) or s < best[0]:
                    best = (s, j)
        out[p] = best
    return out


def _levels(sets: dict[object, set[object]], m: int, k: int) -> list[tuple[int, int, int, int]]:
    """Return per size j: (distinct itemsets, occurrences, least support, rare itemsets)."""
    out = []
    width = min(m, max((len(s) for s in sets.values()), default=0))
    for j in range(1, width + 1):
        occurrences = [frozenset(c) for s in sets.values() for c in itertools.combinations(s, j)]
        support = {c: sum(1 for s in sets.values() if c <= s) for c in set(occurrences)}
        out.append(
            (
                len(support),
                len(occurrences),
                min(support.values()),
                sum(v < k for v in support.values()),
            )
        )
    return out


# ------------------------------------------------------------------ hand-worked cases


def _claims(rows: list[tuple[object, ...]], columns: str = "patient dx") -> pd.DataFrame:
    return pd.DataFrame(rows, columns=columns.split())


def test_a_person_with_several_rows_and_a_repeated_diagnosis_counts_it_once():
    # a: E11 twice and I10; b: E11, I10; c: E11
    df = _claims(
        [("a", "E11"), ("a", "E11"), ("b", "E11"), ("a", "I10"), ("b", "I10"), ("c", "E11")]
    )
    r1 = km_anonymity(df, "patient", ["dx"], k=3, m=1)
    # E11 is held by a, b, c (3 people, not 4 rows); I10 by a, b (2)
    assert r1.person_support.tolist() == [2, 2, 3]
    assert (r1.k_achieved, r1.people_at_risk) == (2, 2)
    assert [(lv.size, lv.itemsets, lv.occurrences, lv.least_support) for lv in r1.itemsets] == [
        (1, 2, 5, 2)
    ]
    r2 = km_anonymity(df, "patient", ["dx"], k=3, m=2)
    # {E11, I10} is held by a and b: 2; c holds one item only, its least support stays 3
    assert r2.person_support.tolist() == [2, 2, 3]
    assert [(lv.size, lv.occurrences, lv.least_support) for lv in r2.itemsets] == [
        (1, 5, 2),
        (2, 2, 2),
    ]
    assert r2.record_support().tolist() == [2, 2, 2, 2, 2, 3]
    assert r2.person_values.tolist() == ["a", "b", "c"]


def test_m_larger_than_a_persons_items_judges_their_whole_set():
    # a: {x, y, z}; b: {x, y}; c: {x}
    df = _claims([("a", "x"), ("a", "y"), ("a", "z"), ("b", "x"), ("b", "y"), ("c", "x")])
    r = km_anonymity(df, "patient", ["dx"], k=2, m=5)
    # a: {z} is theirs alone (1); b: {x, y} held by a and b (2); c: {x} by all three (3)
    assert r.person_support.tolist() == [1, 2, 3]
    assert r.m == 5 and [lv.size for lv in r.itemsets] == [1, 2, 3]
    # C(3,1)+C(2,1)+C(1,1) = 6; C(3,2)+C(2,2) = 4; C(3,3) = 1
    assert [lv.occurrences for lv in r.itemsets] == [6, 4, 1]
    # a's smallest itemset of least support is {z}, not a pair holding it
    assert [(x.items, x.size, x.support, x.people) for x in r.rarest] == [
        (((("dx", "z"),),), 1, 1, 1)
    ]


def test_a_visit_is_the_tuple_of_one_rows_events_and_a_value_is_one_cell():
    # a: (d1, A), (d2, B); b: (d1, B), (d2, A): the same values, other visits
    df = _claims([("a", "d1", "A"), ("a", "d2", "B"), ("b", "d1", "B"), ("b", "d2", "A")],
                 "patient date dx")  # fmt: skip
    visits = km_anonymity(df, "patient", ["date", "dx"], k=2, m=2)
    assert visits.person_support.tolist() == [1, 1] and visits.n_items == 4
    assert visits.rarest[0].items == ((("date", "d1"), ("dx", "A")),)
    values = km_anonymity(df, "patient", ["date", "dx"], k=2, m=2, items="value")
    # both hold {date d1, date d2, dx A, dx B}: every itemset is held by both
    assert values.person_support.tolist() == [2, 2] and values.n_items == 4
    assert (values.k_achieved, values.people_at_risk, values.rarest) == (2, 0, ())


def test_missing_event_values_are_a_value_of_their_own_or_nothing_known():
    df = _claims([("a", None), ("a", "E11"), ("b", None), ("c", "E11")])
    own = km_anonymity(df, "patient", ["dx"], k=2, m=2)
    # missing: a, b; E11: a, c; {missing, E11}: a alone
    assert own.person_support.tolist() == [1, 2, 2]
    assert set(own.rarest[0].items) == {(("dx", None),), (("dx", "E11"),)}
    skip = km_anonymity(df, "patient", ["dx"], k=2, m=2, missing="skip")
    # a holds {E11}, b nothing, c {E11}
    assert skip.person_support.tolist() == [2, 0, 2]
    assert (skip.k_achieved, skip.people_without_items, skip.people_at_risk) == (2, 1, 0)
    with pytest.raises(RiskcoreError, match="every event value is missing"):
        km_anonymity(df.assign(dx=None), "patient", ["dx"], missing="skip")


def test_a_visit_with_a_missing_value_is_no_item_when_skipped():
    df = _claims([("a", "d1", None), ("a", "d2", "B"), ("b", "d2", "B")], "patient date dx")
    skip = km_anonymity(df, "patient", ["date", "dx"], k=2, m=2, missing="skip")
    assert skip.person_support.tolist() == [2, 2]  # both hold {(d2, B)} only
    values = km_anonymity(df, "patient", ["date", "dx"], k=2, m=1, items="value", missing="skip")
    assert values.person_support.tolist() == [1, 2]  # a's date d1 is still known


def test_rows_without_a_person_are_each_a_person():
    df = _claims([(None, "x"), (None, "x"), ("a", "x")])
    r = km_anonymity(df, "patient", ["dx"], k=2, m=1)
    assert r.n_people == 3 and r.person_support.tolist() == [3, 3, 3]
    assert r.person_values[r.row_person].tolist() == [None, None, "a"]
    assert len(set(r.row_person.tolist())) == 3


def test_m_1_is_the_count_of_people_per_value():
    df = make_claims(300, seed=3)
    r = km_anonymity(df, "patient_id", ["diagnosis"], k=11, m=1)
    people = df.groupby("diagnosis", observed=True)["patient_id"].nunique()
    least = df["diagnosis"].map(people).astype(int).groupby(df["patient_id"]).min()
    got = pd.Series(r.record_support(), index=df["patient_id"]).groupby(level=0).min()
    assert got.sort_index().tolist() == least.sort_index().tolist()
    assert r.k_achieved == int(people.min())
    assert r.people_at_risk == int((least < 11).sum())
    assert r.itemsets[0].itemsets == df["diagnosis"].nunique()


# ------------------------------------------------------------------ against brute force


def _check(df: pd.DataFrame, events: list[str], m: int, k: int, items: str, missing: str) -> None:
    keys, sets = _person_sets(df, "patient", events, items, missing)
    if not any(sets.values()):
        with pytest.raises(RiskcoreError, match="no event value"):
            km_anonymity(df, "patient", events, k=k, m=m, items=items, missing=missing)
        return
    r = km_anonymity(df, "patient", events, k=k, m=m, items=items, missing=missing)
    brute = _brute(sets, m)
    assert r.n_people == len(sets)
    assert r.record_support().tolist() == [brute[key][0] for key in keys]
    held = [s for s, _ in brute.values() if s]
    assert r.k_achieved == min(held)
    assert r.people_at_risk == sum(s < k for s in held)
    assert r.people_without_items == sum(not s for s in sets.values())
    assert [(lv.itemsets, lv.occurrences, lv.least_support, lv.rare) for lv in r.itemsets] == (
        _levels(sets, m, k)
    )
    # each listed itemset: its support counted again, and it is the smallest of some person's
    for x in r.rarest:
        items_ = {_item_key(it, items) for it in x.items}
        holders = [p for p, s in sets.items() if items_ <= s]
        assert len(holders) == x.support < k
        assert sum(brute[p] == (x.support, x.size) for p in holders) >= x.people >= 1


def _item_key(item: tuple[tuple[str, str | None], ...], items: str) -> object:
    if items == "visit":
        return tuple(v for _, v in item)
    return item[0]


_values = st.sampled_from(["u", "v", "w", None])


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(
        st.tuples(st.sampled_from(["a", "b", "c", "d", "e", None]), _values, _values),
        min_size=1,
        max_size=22,
    ),
    m=st.integers(1, 4),
    k=st.integers(1, 4),
    items=st.sampled_from(["visit", "value"]),
    missing=st.sampled_from(["own", "skip"]),
    two=st.booleans(),
)
def test_every_figure_equals_a_brute_force_count(rows, m, k, items, missing, two):
    df = pd.DataFrame(rows, columns=["patient", "dx", "date"])
    _check(df, ["dx", "date"] if two else ["dx"], m, k, items, missing)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 7)), min_size=1, max_size=30),
    m=st.integers(1, 5),
)
def test_own_missing_values_never_raise_a_persons_support_and_m_never_helps(rows, m):
    df = pd.DataFrame(
        [(p, None if v == 0 else f"x{v % 4}") for p, v in rows], columns=["patient", "dx"]
    )
    own = km_anonymity(df, "patient", ["dx"], m=m).record_support()
    if df["dx"].notna().any():
        skip = km_anonymity(df, "patient", ["dx"], m=m, missing="skip").record_support()
        assert (own[skip > 0] <= skip[skip > 0]).all()
    more = km_anonymity(df, "patient", ["dx"], m=m + 1).record_support()
    assert (more <= own).all()


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 9)), min_size=1, max_size=30),
    m=st.integers(1, 3),
    cut=st.integers(1, 5),
)
def test_generalizing_an_event_never_lowers_a_persons_support(rows, m, cut):
    df = pd.DataFrame(rows, columns=["patient", "dx"])
    fine = km_anonymity(df, "patient", ["dx"], m=m)
    coarse = km_anonymity(df, "patient", ["dx"], m=m, generalized={"dx": df["dx"] // cut})
    assert (coarse.record_support() >= fine.record_support()).all()
    assert coarse.generalized == ("dx",) and fine.generalized == ()


# ------------------------------------------------------------------ the kernel


@settings(max_examples=100, deadline=None)
@given(
    pairs=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 5)), max_size=40),
    m=st.integers(1, 4),
)
def test_the_kernels_witness_is_a_smallest_itemset_of_least_support(pairs, m):
    person = np.array([p for p, _ in pairs], dtype=np.int64)
    item = np.array([i for _, i in pairs], dtype=np.int64)
    s = itemset_support(person, item, n_people=7, n_items=6, m=m, k=2)
    sets = {p: {i for q, i in pairs if q == p} for p in range(7)}
    brute = _brute(sets, m)
    assert list(zip(s.person_support.tolist(), s.witness_size.tolist(), strict=True)) == [
        brute[p] for p in range(7)
    ]
    assert s.items_held.tolist() == [len(sets[p]) for p in range(7)]
    for p in range(7):
        w = [i for i in s.witness[p].tolist() if i >= 0]
        assert len(w) == s.witness_size[p] and w == sorted(set(w))
        assert set(w) <= sets[p]
        assert sum(set(w) <= q for q in sets.values()) == (s.person_support[p] if w else 7)


def test_the_occurrences_are_binomial_sums():
    # L = 1, 3, 4; j = 1: 8; j = 2: 0 + 3 + 6; j = 3: 0 + 1 + 4; j = 4: 1
    got = itemset_occurrences(np.array([1, 3, 4]), 4).tolist()
    assert got == [8, 9, 5, 1]
    assert itemset_occurrences(np.array([60]), 3)[2] == math.comb(60, 3)


def test_a_count_above_the_limit_is_refused_before_any_itemset_is_made(monkeypatch):
    # one person with 30 distinct diagnoses: C(30,1) + C(30,2) + C(30,3) = 30 + 435 + 4060
    df = pd.DataFrame({"patient": ["a"] * 30, "dx": [f"d{i}" for i in range(30)]})
    assert km_anonymity(df, "patient", ["dx"], m=3, max_itemsets=4525).k_achieved == 1

    def no_itemsets(last, pair_end):
        raise AssertionError("itemsets were generated")

    monkeypatch.setattr(longitudinal, "_extend", no_itemsets)
    with pytest.raises(AssertionError, match="generated"):  # the patch is in the way below it
        km_anonymity(df, "patient", ["dx"], m=3, max_itemsets=4525)
    with pytest.raises(RiskcoreError, match=r"4,525 itemset occurrences.*limit of 4,524 "
                       r"\(MAX_ITEMSET_OCCURRENCES\); choose a smaller m"):  # fmt: skip
        km_anonymity(df, "patient", ["dx"], m=3, max_itemsets=4524)
    assert longitudinal.MAX_ITEMSET_OCCURRENCES == 20_000_000


def test_event_items_of_both_kinds():
    table = EncodedTable(pd.DataFrame({"d": ["1", "1", None], "x": ["A", "B", "A"]}))
    cols = [table.column("d"), table.column("x")]
    visit = event_items(cols)
    assert visit.item.tolist() == [0, 1, 2] and visit.n_items == 3
    assert visit.codes.tolist() == [[0, 0], [0, 1], [1, 0]]  # the missing date has code 1
    skipped = event_items(cols, missing="skip")
    assert skipped.row.tolist() == [0, 1] and skipped.n_items == 2
    value = event_items(cols, items="value", missing="skip")
    # d: "1" (rows 0, 1); x: A, B, A; the missing date is no item
    assert value.row.tolist() == [0, 1, 0, 1, 2] and value.item.tolist() == [0, 0, 1, 2, 1]
    assert value.codes.tolist() == [[0, -1], [-1, 0], [-1, 1]]


# ------------------------------------------------------------------ the public boundary


def test_the_result_is_the_same_for_shuffled_rows_and_any_index():
    df = make_claims(200, seed=5)
    r = km_anonymity(df, "patient_id", ["diagnosis", "provider"], k=5, m=2)
    shuffled = df.sample(frac=1, random_state=1).set_axis(np.arange(len(df)) * 7 + 3)
    s = km_anonymity(EncodedTable(shuffled), "patient_id", ["diagnosis", "provider"], k=5, m=2)
    keep = ("k_achieved", "people_at_risk", "n_people", "n_items", "itemsets")
    assert {f: getattr(r, f) for f in keep} == {f: getattr(s, f) for f in keep}
    by_person = dict(zip(df["patient_id"], r.record_support(), strict=True))
    assert [by_person[p] for p in shuffled["patient_id"]] == s.record_support().tolist()


def test_generalized_values_equal_a_table_holding_them():
    df = make_claims(150, seed=2)
    month = df["visit_date"].str[:7]
    r = km_anonymity(
        df,
        "patient_id",
        ["visit_date", "diagnosis"],
        k=5,
        generalized={"visit_date": month.to_numpy()},
    )
    same = km_anonymity(df.assign(visit_date=month), "patient_id", ["visit_date", "diagnosis"], k=5)
    assert r.record_support().tolist() == same.record_support().tolist()
    assert r.rarest == same.rarest and r.generalized == ("visit_date",)
    with pytest.raises(RolesError, match="number 3; the table has"):
        km_anonymity(df, "patient_id", ["visit_date"], generalized={"visit_date": ["a", "b", "c"]})
    with pytest.raises(RolesError, match="not an event column"):
        km_anonymity(df, "patient_id", ["visit_date"], generalized={"diagnosis": month})


def test_bad_columns_and_options_are_refused():
    df = _claims([("a", "x")])
    with pytest.raises(RolesError, match="no person column 'who'"):
        km_anonymity(df, "who", ["dx"])
    with pytest.raises(RolesError, match="cannot be an event column too"):
        km_anonymity(df, "patient", ["patient"])
    with pytest.raises(RolesError, match="listed twice"):
        km_anonymity(df, "patient", ["dx", "dx"])
    with pytest.raises(RolesError, match="at least one event column"):
        km_anonymity(df, "patient", "dx")
    with pytest.raises(RolesError, match="no column 'nope'"):
        km_anonymity(df, "patient", ["nope"])
    with pytest.raises(ValueError, match="m must be an integer >= 1, got 0"):
        km_anonymity(df, "patient", ["dx"], m=0)
    with pytest.raises(ValueError, match="items must be one of"):
        km_anonymity(df, "patient", ["dx"], items="row")  # type: ignore[arg-type]
    with pytest.raises(RiskcoreError, match="no rows"):
        km_anonymity(df.iloc[:0], "patient", ["dx"])


def test_the_result_goes_to_json_and_back():
    df = make_claims(120, seed=1)
    r = km_anonymity(df, "patient_id", ["diagnosis", "provider"], k=5, m=2, items="value", top=3)
    d = json.loads(json.dumps(r.to_dict(), allow_nan=False))
    assert len(d["rarest"]) == len(r.rarest) <= 3 and "person_support" not in d
    back = KmAnonymity.from_dict(d)
    assert back == r and back.rarest == r.rarest and back.itemsets == r.itemsets
