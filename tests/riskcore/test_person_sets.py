"""The set-grouping kernel of the person partition (:mod:`riskcore.engine.people`).

Every grouping is checked against an independent one: Python frozensets of each owner's
items, compared pair by pair.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from riskcore.demo.claims import make_claims
from riskcore.engine import people
from riskcore.engine.people import group_sets, person_codes


def _sets(owner: np.ndarray, item: np.ndarray, n_owners: int) -> list[frozenset[int]]:
    return [frozenset(item[owner == p].tolist()) for p in range(n_owners)]


def _check(owner: np.ndarray, item: np.ndarray, n_owners: int, n_items: int) -> None:
    g = group_sets(owner, item, n_owners=n_owners, n_items=n_items)
    sets = _sets(owner, item, n_owners)
    cls = g.owner_class
    for a in range(n_owners):
        for b in range(n_owners):
            assert (sets[a] == sets[b]) == (cls[a] == cls[b])
    assert g.sizes.tolist() == np.bincount(cls, minlength=g.n_classes).tolist()
    for j in range(g.n_classes):
        holder = int(np.flatnonzero(cls == j)[0])
        members = g.members[g.offsets[j] : g.offsets[j + 1]]
        assert members.tolist() == sorted(sets[holder])


@given(
    st.integers(1, 12).flatmap(
        lambda p: st.tuples(
            st.just(p),
            st.integers(1, 6),
            st.lists(st.tuples(st.integers(0, p - 1), st.integers(0, 5)), max_size=50),
        )
    )
)
def test_groups_equal_sets_and_only_them(case: tuple[int, int, list[tuple[int, int]]]) -> None:
    n_owners, n_items, extra = case
    rng = np.random.default_rng(len(extra))
    owner = np.r_[np.arange(n_owners), [o for o, _ in extra]].astype(np.int64)
    item = np.r_[rng.integers(0, n_items, n_owners), [i % n_items for _, i in extra]]
    _check(owner, item.astype(np.int64), n_owners, n_items)


def test_the_exact_refinement_groups_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fallback taken when a hash summary is shared gives the same classes."""
    rng = np.random.default_rng(7)
    owner = np.r_[np.arange(40), rng.integers(0, 40, 120)]
    item = rng.integers(0, 5, len(owner))
    fast = group_sets(owner, item, n_owners=40, n_items=5)
    monkeypatch.setattr(people, "_verified", lambda *a: False)
    slow = group_sets(owner, item, n_owners=40, n_items=5)
    # the same partition (classes of several items may be numbered apart: by hash, by rank)
    pairs = set(zip(slow.owner_class.tolist(), fast.owner_class.tolist(), strict=True))
    assert len(pairs) == slow.n_classes == fast.n_classes
    _check(owner, item, 40, 5)
    monkeypatch.undo()


def test_a_shared_summary_of_different_sets_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hashes that collide (every item hashing to 0) still give exact classes."""
    monkeypatch.setattr(
        people, "_hashes", lambda n: (np.zeros(n, np.uint64), np.zeros(n, np.uint64))
    )
    owner = np.array([0, 0, 1, 1, 2, 2])
    item = np.array([0, 1, 0, 2, 0, 1])  # {0,1}, {0,2}, {0,1}: same first item and length
    g = group_sets(owner, item, n_owners=3, n_items=3)
    assert g.owner_class[0] == g.owner_class[2] != g.owner_class[1]


def test_one_item_each_is_numbered_in_item_order() -> None:
    g = group_sets(np.arange(5), np.array([3, 1, 3, 0, 1]), n_owners=5, n_items=4)
    assert g.owner_class.tolist() == [2, 1, 2, 0, 1]
    assert g.sizes.tolist() == [1, 2, 2]


def test_weights_add_up_per_class() -> None:
    g = group_sets(
        np.array([0, 1, 2]),
        np.array([0, 0, 1]),
        n_owners=3,
        n_items=2,
        weights=np.array([2, 5, 1]),
    )
    assert g.sizes.tolist() == [7, 1]


def test_an_owner_without_items_is_refused() -> None:
    with pytest.raises(ValueError, match="every owner must hold at least one item"):
        group_sets(np.array([0]), np.array([0]), n_owners=2, n_items=1)


def test_a_missing_person_is_a_person_of_each_row() -> None:
    codes = np.array([0, 2, 1, 2, 0, 2])  # code 2 is the missing value
    person, n = person_codes(codes, 2)
    assert n == 2 + 3
    assert person[0] == person[4]
    assert len({int(person[i]) for i in (1, 3, 5)}) == 3


def test_claims_people_by_hand_count() -> None:
    """On the claims demo, the classes over sex and race equal a pandas count of signatures."""
    df = make_claims(300, seed=3)
    sig = (
        df.assign(t=df["sex"].astype(str) + "/" + df["race"].astype(str))
        .groupby("patient_id")["t"]
        .agg(lambda s: tuple(sorted(set(s))))
    )
    expected = sorted(sig.value_counts().tolist())
    codes, _ = pd_factorize(df["sex"].astype(str) + "/" + df["race"].astype(str))
    person, n = person_codes(pd_factorize(df["patient_id"])[0], None)
    g = group_sets(person, codes, n_owners=n, n_items=int(codes.max()) + 1)
    assert sorted(g.sizes.tolist()) == expected


def pd_factorize(s: object) -> tuple[np.ndarray, object]:
    import pandas as pd

    codes, uniq = pd.factorize(s)  # type: ignore[call-overload]
    return codes.astype(np.int64), uniq


@given(
    st.lists(st.one_of(st.none(), st.integers(0, 6)), min_size=1, max_size=40),
    st.booleans(),
)
def test_person_numbers_tell_people_apart_dense_or_not(values: list[int | None], gap: bool) -> None:
    """Same number iff same known id; each missing id a person of its own (dense codes or not)."""
    known = sorted({v for v in values if v is not None})
    code_of = {v: (2 * i if gap else i) for i, v in enumerate(known)}  # gap: unused codes
    missing = 2 * len(known) if gap else len(known)
    codes = np.array([missing if v is None else code_of[v] for v in values], dtype=np.int64)
    person, n = person_codes(codes, missing if None in values else None)
    assert n == len(known) + values.count(None)
    assert sorted(set(person.tolist())) == list(range(n))
    for a, va in enumerate(values):
        for b, vb in enumerate(values):
            same = (va is not None and va == vb) or a == b
            assert (person[a] == person[b]) == same


@pytest.mark.parametrize("presence", [0, 8, 10**9])
def test_distinct_pairs_by_presence_or_by_sort(
    monkeypatch: pytest.MonkeyPatch, presence: int
) -> None:
    monkeypatch.setattr(people, "PRESENCE_PER_PAIR", presence)
    rng = np.random.default_rng(presence)
    owner, item = rng.integers(0, 300, 2000), rng.integers(0, 50, 2000)
    o, i = people.distinct_pairs(owner, item, 50)
    want = sorted(set(zip(owner.tolist(), item.tolist(), strict=True)))
    assert list(zip(o.tolist(), i.tolist(), strict=True)) == want


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("n_classes", [5, 10**6])  # counted by bincount, then by a sort
def test_count_cells_adds_up_every_entry(weighted: bool, n_classes: int) -> None:
    from collections import Counter

    from riskcore.engine.partition import count_cells

    rng = np.random.default_rng(n_classes)
    cls, val = rng.integers(0, 5, 300) * (n_classes // 5), rng.integers(0, 4, 300)
    w = rng.integers(1, 9, 300) if weighted else None
    cc, cv, cn = count_cells(cls, val, n_classes, 4, w)
    want: Counter[tuple[int, int]] = Counter()
    for j, (c, v) in enumerate(zip(cls.tolist(), val.tolist(), strict=True)):
        want[(c, v)] += 1 if w is None else int(w[j])
    assert list(zip(cc.tolist(), cv.tolist(), strict=True)) == sorted(want)
    assert cn.tolist() == [want[k] for k in sorted(want)]


def test_count_cells_refuses_a_key_beyond_int64_before_counting() -> None:
    from riskcore.engine.partition import count_cells

    with pytest.raises(ValueError, match="do not fit an int64 cell key"):
        count_cells(np.array([0]), np.array([0]), 2**62, 4)
