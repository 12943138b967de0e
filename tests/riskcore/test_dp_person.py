"""Differential privacy with a person as the unit (issue 36, item 7).

A person can be many rows; every release keeps at most c rows of each person (a seeded
per-person sample) and calibrates its noise to c times a row's sensitivity. The tables
here are small and worked by hand: person A has 5 rows, B 2, C 1, and one row has no
person.
"""

from __future__ import annotations

import math

import numpy as np
import opendp.prelude as odp
import pandas as pd
import pytest

from riskcore import dp
from riskcore.dp import local as ldp
from riskcore.dp.contributions import (
    ONE_ROW,
    PrivacyUnit,
    bound_rows,
    bound_tradeoff,
    bounded_sensitivity,
    person_ranks,
    rows_per_person,
)
from riskcore.dp.release import Query, release, release_sample_aggregate
from riskcore.errors import RiskcoreError

odp.enable_features("contrib")


def hand_table() -> pd.DataFrame:
    """A: 5 rows of diagnosis x, amount 10; B: 2 rows of y, 20; C: 1 row of x, 5; 1 row
    without a person (x, 7). Each row has its own visit number."""
    return pd.DataFrame(
        {
            "pid": ["A", "B", "A", "C", "A", None, "B", "A", "A"],
            "visit": [1, 2, 3, 4, 5, 6, 7, 8, 9],
            "diagnosis": ["x", "y", "x", "x", "x", "x", "y", "x", "x"],
            "amount": [10.0, 20.0, 10.0, 5.0, 10.0, 7.0, 20.0, 10.0, 10.0],
        }
    )


ROWS = {"A": 5, "B": 2, "C": 1}


def _ledger() -> dp.PrivacyLedger:
    return dp.PrivacyLedger(1_000.0, 1e-3)


# ------------------------------------------------------------------ the unit


def test_a_unit_is_one_row_or_one_person_with_at_most_c_rows():
    assert ONE_ROW == PrivacyUnit() and not ONE_ROW.is_person and ONE_ROW.factor == 1
    unit = PrivacyUnit("pid", 4)
    assert unit.is_person and unit.factor == 4
    assert PrivacyUnit.from_dict(unit.to_dict()) == unit
    assert odp.unit_of(contributions=4) == unit.opendp_unit("add_remove")
    # changing one person's at most 4 rows: 4 removed and 4 added
    assert unit.opendp_unit("change_one")[1] == 8


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"max_rows": 3}, ValueError, "^without a person column each row is a person"),
        ({"person": "pid", "max_rows": 0}, ValueError, "^max_rows must be an integer >= 1, got 0$"),
        ({"person": "pid", "max_rows": 1001}, ValueError, "^max_rows must be at most 1,000"),
        ({"person": "pid", "max_rows": 2.5}, TypeError, "^max_rows must be an integer, got 2.5$"),
        ({"person": "", "max_rows": 2}, TypeError, "^person must be a column name"),
    ],
)
def test_a_bad_unit_is_refused_with_its_value(kwargs, error, message):
    with pytest.raises(error, match=message):
        PrivacyUnit(**kwargs)


def test_an_unknown_person_column_is_a_clear_error():
    with pytest.raises(RiskcoreError, match=r"^the person column 'patient' is not in the table$"):
        bound_rows(hand_table(), PrivacyUnit("patient", 2))


# ------------------------------------------------------------------ the per-person sample


def _kept_visits(data: pd.DataFrame, c: int, seed: int = 0) -> dict[str, set[int]]:
    kept, _ = bound_rows(data, PrivacyUnit("pid", c), seed=seed)
    return {p: set(g["visit"]) for p, g in kept.groupby("pid")}


@pytest.mark.parametrize("c", [1, 2, 3, 5, 10])
def test_every_person_keeps_min_of_their_rows_and_c_a_subset_of_their_rows(c):
    data = hand_table()
    kept, bounded = bound_rows(data, PrivacyUnit("pid", c), seed=3)
    visits = _kept_visits(data, c, seed=3)
    for person, m in ROWS.items():
        assert len(visits[person]) == min(m, c)
        assert visits[person] <= set(data.loc[data["pid"] == person, "visit"])
    # by hand: A keeps min(5, c), B min(2, c), C 1; the row without a person never
    expected = min(5, c) + min(2, c) + 1
    assert (bounded.rows, bounded.kept, bounded.people) == (9, expected, 3)
    assert (bounded.without_person, bounded.beyond_bound) == (1, 8 - expected)
    assert kept["visit"].is_monotonic_increasing  # in the table's order


def test_the_sample_is_seeded_and_reproducible():
    data = hand_table()
    assert _kept_visits(data, 2, seed=7) == _kept_visits(data, 2, seed=7)
    ranks = person_ranks(data, "pid", seed=7)
    assert np.array_equal(ranks, person_ranks(data, "pid", seed=7))
    # by hand: each person's ranks are 0 .. m - 1, the row without a person -1
    assert ranks[5] == -1
    for person, m in ROWS.items():
        assert sorted(ranks[(data["pid"] == person).to_numpy()]) == list(range(m))
    # other seeds draw other rows of A
    assert len({frozenset(_kept_visits(data, 2, seed=s)["A"]) for s in range(20)}) > 3


def test_each_row_of_a_person_is_kept_with_probability_c_over_m():
    # A has 5 rows, c = 2: each is kept with probability 2/5 over seeds; 600 seeds give a
    # standard error of sqrt(0.4 * 0.6 / 600) = 0.02, the tolerance is five of them
    data = hand_table()
    of_a = (data["pid"] == "A").to_numpy()
    kept = sum((person_ranks(data, "pid", seed=seed)[of_a] < 2).astype(int) for seed in range(600))
    share = np.asarray(kept) / 600
    assert share == pytest.approx(np.full(5, 0.4), abs=0.1)


def test_adding_a_person_or_reordering_the_rows_leaves_everyone_elses_sample():
    # the guarantee: bounded tables of neighbouring tables differ by at most c rows
    data = hand_table()
    before = _kept_visits(data, 2, seed=5)
    d = pd.DataFrame(
        {"pid": ["D"] * 4, "visit": [10, 11, 12, 13], "diagnosis": ["x"] * 4, "amount": [1.0] * 4}
    )
    grown = pd.concat([d.iloc[:2], data, d.iloc[2:]], ignore_index=True)
    after = _kept_visits(grown, 2, seed=5)
    assert {p: after[p] for p in ROWS} == before
    assert len(after["D"]) == 2
    shuffled = data.sample(frac=1.0, random_state=1).set_index(np.arange(100, 109))
    assert _kept_visits(shuffled, 2, seed=5) == before


def test_one_row_unit_keeps_every_row():
    data = hand_table()
    kept, bounded = bound_rows(data, ONE_ROW)
    assert kept is data and (bounded.kept, bounded.beyond_bound) == (9, 0)


def test_rows_per_person_by_hand():
    r = rows_per_person(hand_table(), "pid")
    assert (r.people, r.rows, r.without_person, r.most_rows) == (3, 8, 1, 5)
    assert r.people_by_rows.tolist() == [0, 1, 1, 0, 0, 1]  # one person each with 1, 2, 5 rows
    assert [r.kept(c) for c in (1, 2, 3, 5, 9)] == [3, 5, 6, 8, 8]
    assert [r.people_within(c) for c in (1, 2, 4, 5)] == [1, 2, 2, 3]


# ------------------------------------------------------------------ sensitivity scaled by c


@pytest.mark.parametrize(
    ("kind", "neighbouring", "bounds", "n", "l1", "l2"),
    [
        ("count", "add_remove", None, None, 4.0, 4.0),
        ("count", "change_one", None, None, 4.0, 4.0),
        # all 4 rows of a person may fall in one bar: L2 = 4, not sqrt(4)
        ("histogram", "add_remove", None, None, 4.0, 4.0),
        ("histogram", "change_one", None, None, 8.0, 4.0 * math.sqrt(2.0)),
        ("sum", "add_remove", (-2.0, 5.0), None, 20.0, 20.0),  # 4 max(|L|, |U|)
        ("sum", "change_one", (-2.0, 5.0), None, 28.0, 28.0),  # 4 (U - L)
        ("mean", "add_remove", (0.0, 100.0), 10, 40.0, 40.0),  # 4 (U - L) / n
    ],
)
def test_sensitivity_is_c_times_a_rows(kind, neighbouring, bounds, n, l1, l2):
    row = dp.sensitivity(kind, neighbouring=neighbouring, bounds=bounds, n=n)
    sens = bounded_sensitivity(row, PrivacyUnit("pid", 4))
    assert (sens.l1, sens.l2, sens.max_rows) == (pytest.approx(l1), pytest.approx(l2), 4)
    assert sens.reason.endswith("a person contributes at most 4 rows, so 4 times that")
    assert bounded_sensitivity(row, ONE_ROW) == row


@pytest.mark.parametrize("c", [1, 3, 7])
def test_scaled_sensitivity_agrees_with_opendps_stability_maps(c):
    # OpenDP's own transformations, at the unit "c contributions" (symmetric distance c)
    sym = odp.symmetric_distance()
    unit = PrivacyUnit("pid", c)
    count = odp.t.make_count(odp.vector_domain(odp.atom_domain(T=str)), sym)
    assert count.map(c) == bounded_sensitivity(dp.sensitivity("count"), unit).l1
    strings = odp.vector_domain(odp.atom_domain(T=str))
    hist = bounded_sensitivity(dp.sensitivity("histogram"), unit)
    for mo, toa, expected in (
        ("L1Distance<i64>", "i64", hist.l1),
        ("L2Distance<f64>", "f64", hist.l2),
    ):
        by_bar = odp.t.make_count_by_categories(strings, sym, categories=["a", "b"], MO=mo, TOA=toa)
        assert by_bar.map(c) == pytest.approx(expected)
    floats = odp.vector_domain(odp.atom_domain(T=float, nan=False))
    total = odp.t.make_clamp(floats, sym, bounds=(0.0, 50.0)) >> odp.t.then_sum()
    summed = bounded_sensitivity(dp.sensitivity("sum", bounds=(0.0, 50.0)), unit)
    assert total.map(c) == pytest.approx(summed.l1, rel=1e-6)  # plus float rounding


# ------------------------------------------------------------------ releases


def test_a_laplace_count_has_scale_c_over_epsilon():
    r = release(
        hand_table(), Query("count"), epsilon=0.5, ledger=_ledger(), unit=PrivacyUnit("pid", 3)
    )
    assert r.scale == pytest.approx(3 * 1.0 / 0.5, rel=1e-9)  # c Delta_1 / epsilon
    assert r.sensitivity.l1 == 3.0
    assert r.epsilon == pytest.approx(0.5, rel=1e-6) and r.epsilon <= 0.5 + 1e-12
    assert r.unit == PrivacyUnit("pid", 3)
    assert r.bounded is not None
    assert (r.bounded.kept, r.bounded.beyond_bound, r.bounded.without_person) == (6, 2, 1)


def test_a_laplace_sum_has_scale_c_times_the_bound_over_epsilon():
    q = Query("sum", column="amount", bounds=(0.0, 10.0))
    r = release(hand_table(), q, epsilon=2.0, ledger=_ledger(), unit=PrivacyUnit("pid", 3))
    # 3 rows x max(|0|, |10|) / 2; OpenDP adds a little for rounding in the float sum
    assert 15.0 <= r.scale <= 15.0 * (1 + 1e-6)
    assert r.sensitivity.l1 == 30.0


@pytest.mark.parametrize("kind", ["count", "histogram"])
def test_the_gaussian_sigma_is_calibrated_to_the_scaled_l2(kind):
    c, eps, delta = 4, 1.0, 1e-6
    q = (
        Query("count")
        if kind == "count"
        else Query("histogram", column="diagnosis", categories=("x", "y"))
    )
    r = release(
        hand_table(),
        q,
        epsilon=eps,
        mechanism="gaussian",
        delta=delta,
        ledger=_ledger(),
        unit=PrivacyUnit("pid", c),
    )
    assert r.sensitivity.l2 == c  # all c rows may fall in one bar
    assert r.scale == pytest.approx(dp.opendp_gaussian_sigma(float(c), eps, delta), rel=1e-6)
    # OpenDP's certified cost depends on Delta_2 / sigma only: c times a row's sigma
    assert r.scale == pytest.approx(c * dp.opendp_gaussian_sigma(1.0, eps, delta), rel=1e-6)
    assert r.rho == pytest.approx(c**2 / (2 * r.scale**2), rel=1e-6)  # zCDP of the Gaussian


def test_a_large_l2_is_calibrated_where_opendps_search_overflowed():
    # a sum clipped to [0, 500] with 4 rows per person: Delta_2 = 2,000; OpenDP's unbracketed
    # search overflowed ("inf_exp() is not finite") from about Delta_2 = 300
    q = Query("sum", column="amount", bounds=(0.0, 500.0))
    r = release(
        hand_table(), q, epsilon=1.0, mechanism="gaussian", delta=1e-6, ledger=_ledger(),
        unit=PrivacyUnit("pid", 4),
    )  # fmt: skip
    assert r.scale == pytest.approx(2_000 * dp.opendp_gaussian_sigma(1.0, 1.0, 1e-6), rel=1e-6)


def _exact(kind: str, c: int, **query) -> float | tuple[float, ...]:
    """Release at epsilon 700 with the discrete Laplace: scale c / 700, so the noise is 0
    except with probability 2 e^{-700 / c} / (1 + e^{-700 / c})."""
    r = release(
        hand_table(),
        Query(kind, **query),
        epsilon=700.0,
        mechanism="discrete_laplace",
        ledger=_ledger(),
        unit=PrivacyUnit("pid", c),
    )
    return r.value


@pytest.mark.parametrize(("c", "count"), [(1, 3), (2, 5), (3, 6), (5, 8), (9, 8)])
def test_rows_beyond_the_bound_are_dropped_before_the_query(c, count):
    # by hand: min(5, c) + min(2, c) + min(1, c); the row without a person never counts
    assert _exact("count", c) == count
    # a filter first, then the bound: A's and C's rows of x
    assert _exact("count", c, filters=(("diagnosis", ("x",)),)) == min(5, c) + 1
    # histogram of x and y: (A's min(5, c) + C's 1, B's min(2, c))
    bars = _exact("histogram", c, column="diagnosis", categories=("x", "y"))
    assert bars == (min(5, c) + 1, min(2, c))


def test_a_bounded_sum_reads_the_kept_rows():
    q = Query("sum", column="amount", bounds=(0.0, 100.0))
    r = release(hand_table(), q, epsilon=700.0, ledger=_ledger(), unit=PrivacyUnit("pid", 2))
    # 2 x 10 + 2 x 20 + 5 = 65; Laplace scale 2 x 100 / 700: P(|noise| > 5) = e^-17.5
    assert abs(float(r.value) - 65.0) < 5.0


def test_the_ledger_entry_records_the_unit():
    r = release(
        hand_table(), Query("count"), epsilon=0.5, ledger=_ledger(), unit=PrivacyUnit("pid", 3)
    )
    assert r.entry.unit == PrivacyUnit("pid", 3)
    assert r.ledger is not None and r.ledger.entries[-1].unit == PrivacyUnit("pid", 3)
    row = release(hand_table(), Query("count"), epsilon=0.5, ledger=_ledger())
    assert row.entry.unit == ONE_ROW and row.bounded is None


def test_a_ledger_entry_without_a_unit_reads_as_one_row():
    old = {"schema_version": 1, "query": "count of rows", "mechanism": "laplace", "epsilon": 1.0}
    assert dp.LedgerEntry.from_dict(old).unit == ONE_ROW
    new = dp.LedgerEntry("count of rows", "laplace", 1.0, unit=PrivacyUnit("pid", 4))
    assert new.to_dict()["unit"] == {"schema_version": 1, "person": "pid", "max_rows": 4}
    assert dp.LedgerEntry.from_dict(new.to_dict()) == new


# ------------------------------------------------------------------ what the bound costs


def test_bound_tradeoff_by_hand():
    data = hand_table()
    sens = dp.sensitivity("count")
    t = bound_tradeoff(data, Query("count"), sens, person="pid", epsilon=0.5, chosen=2, max_bound=6)
    # all 9 rows; bound c keeps min(5, c) + min(2, c) + 1, never the row without a person
    assert t.truth == 9.0
    assert t.answer.tolist() == [3, 5, 6, 7, 8, 8]
    assert t.dropped_error.tolist() == [-6, -4, -3, -2, -1, -1]
    assert t.rows_left_out.tolist() == [6, 4, 3, 2, 1, 1]
    assert t.noise == pytest.approx(np.arange(1, 7) * math.log(20) / 0.5)  # c ln 20 / epsilon
    assert t.total == pytest.approx(np.abs(t.dropped_error) + t.noise)
    assert t.keeps_all is None  # the row without a person is always left out
    assert t.best == 1 and t.chosen == 2


def test_bound_tradeoff_of_a_mean_and_a_histogram_by_hand():
    data = hand_table().dropna(subset=["pid"])
    q = Query("mean", column="amount", bounds=(0.0, 100.0))
    t = bound_tradeoff(
        data, q, dp.sensitivity("mean", bounds=(0.0, 100.0), n=8), person="pid", epsilon=1.0,
        chosen=1, max_bound=5,
    )  # fmt: skip
    # c = 1: (10 + 20 + 5) / 3; c = 2: (20 + 40 + 5) / 5; ...; all: (50 + 40 + 5) / 8
    assert t.answer == pytest.approx([35 / 3, 65 / 5, 75 / 6, 85 / 7, 95 / 8])
    assert t.truth == pytest.approx(95 / 8) and t.keeps_all == 5
    h = Query("histogram", column="diagnosis", categories=("x", "y"))
    t = bound_tradeoff(
        data, h, dp.sensitivity("histogram"), person="pid", epsilon=1.0, chosen=1, max_bound=3
    )
    assert t.truth == 6.0  # the largest bar: x, A's 5 rows and C's 1
    assert t.answer.tolist() == [2, 3, 4]


def test_bound_tradeoff_refuses_a_grid_beyond_its_limit():
    with pytest.raises(ValueError, match=r"^max_bound must be at most 1,000, got 1001$"):
        bound_tradeoff(
            hand_table(), Query("count"), dp.sensitivity("count"), person="pid", epsilon=1.0,
            chosen=1, max_bound=1001,
        )  # fmt: skip


# ------------------------------------------------------------------ sample and aggregate, local DP


def test_sample_and_aggregate_puts_all_of_a_persons_rows_in_one_block():
    # 40 people with 1 .. 4 rows each; person i's rows are all equal to i
    people = np.repeat(np.arange(40), np.arange(40) % 4 + 1)
    values = people.astype(float)
    persons = pd.Series([f"P{i:02d}" for i in people], name="pid")
    sa = dp.sample_and_aggregate(values, k=8, bounds=(0, 40), epsilon=1.0, seed=2, persons=persons)
    assert sa.unit == PrivacyUnit("pid", None) and sa.block_size == 5  # 40 people / 8 blocks
    assert sa.sensitivity == 5.0  # (hi - lo) / k, whatever the rows per person
    # the blocks by an independent computation: the seeded permutation of the 40 people
    order = np.random.default_rng(2).permutation(40)
    medians = [np.median(np.repeat(order[5 * b : 5 * b + 5], order[5 * b : 5 * b + 5] % 4 + 1))
               for b in range(8)]  # fmt: skip
    assert sa.block_values == pytest.approx(medians)
    rel = release_sample_aggregate(sa, ledger=_ledger())
    assert rel.entry.unit == PrivacyUnit("pid", None)


def test_local_dp_sends_at_most_c_reports_at_epsilon_over_c():
    data = hand_table()
    r = ldp.grr_simulate(data["diagnosis"], 1.5, persons=data["pid"], max_rows=3, seed=1)
    # reports: min(5, 3) + min(2, 3) + 1 = 6; the row without a person is not sent
    assert (r.n, r.left_out, r.true_counts.tolist()) == (6, 3, [4.0, 2.0])
    assert r.report_epsilon == pytest.approx(0.5)
    assert (r.p, r.q) == pytest.approx(ldp.grr_probabilities(0.5, 2))
    lr = ldp.laplace_ldp_simulate(
        data["amount"], 1.5, bounds=(0.0, 30.0), persons=data["pid"], max_rows=3
    )
    assert lr.scale == pytest.approx(3 * 30.0 / 1.5)  # c (U - L) / epsilon
    assert (lr.n, lr.left_out) == (6, 3)
    assert lr.clipped_mean == pytest.approx((30 + 40 + 5) / 6)
    plain = ldp.grr_simulate(data["diagnosis"], 1.5)
    assert (plain.n, plain.report_epsilon, plain.unit) == (9, 1.5, ONE_ROW)


# ------------------------------------------------------------------ the persisted ledger


def test_the_persisted_ledger_keeps_each_releases_unit(tmp_path):
    from riskcore.store import Store
    from riskcore.store.ledgers import BudgetStore

    book = BudgetStore(Store(tmp_path / "r.db"))
    source = dp.DataSource("claims.csv", "c" * 64, tuple(hand_table().columns), 9)
    book.set_budget(source, 10.0, 1e-6)
    data = hand_table()
    release(data, Query("count"), epsilon=0.5, ledger=book.handle(source),
            unit=PrivacyUnit("pid", 4))  # fmt: skip
    release(data, Query("count"), epsilon=0.25, ledger=book.handle(source))
    # another store on the same file reads the units back
    entries = BudgetStore(Store(book.path)).lookup(source).budget.entries
    assert [e.unit for e in entries] == [PrivacyUnit("pid", 4), ONE_ROW]
    audit = [e.changes for e in book.store.audit() if e.action == "dp_release"]
    assert [a["unit"] for a in audit] == [
        {"person": "pid", "max_rows": 4},
        {"person": None, "max_rows": 1},
    ]


def test_an_older_ledger_entry_without_a_unit_still_loads_as_one_row(tmp_path):
    import json
    import sqlite3
    from contextlib import closing

    from riskcore.store import Store
    from riskcore.store.ledgers import BudgetStore

    book = BudgetStore(Store(tmp_path / "r.db"))
    source = dp.DataSource("claims.csv", "d" * 64, ("pid",), 9)
    book.reserve(source, dp.LedgerEntry("count of rows", "laplace", 0.5))
    # an entry as written before units were kept: no "unit" in its JSON
    old = {"schema_version": 1, "query": "sum of amount", "mechanism": "laplace",
           "epsilon": 0.25, "delta": 0.0, "rho": 0.03125, "groups": 1}  # fmt: skip
    with closing(sqlite3.connect(book.path)) as con, con:
        con.execute(
            "INSERT INTO dp_ledger_entries (ledger, fingerprint, time, user, entry) "
            "SELECT ledger, fingerprint, time, user, ? FROM dp_ledger_entries",
            (json.dumps(old),),
        )
    entries = book.lookup(source).budget.entries
    assert [e.query for e in entries] == ["count of rows", "sum of amount"]
    assert entries[1].unit == ONE_ROW
    assert book.lookup(source).budget.spent()[0] == pytest.approx(0.75)


@pytest.mark.parametrize("l2", [1.0, 40.0, 2_000.0, 30_000.0])
@pytest.mark.parametrize(("eps", "delta"), [(0.01, 1e-9), (1.0, 1e-6), (10.0, 1e-5)])
def test_the_gaussian_search_bracket_holds_opendps_sigma(l2, eps, delta):
    # below the bracket OpenDP refuses (epsilon, delta); above it, it certifies them
    from riskcore.dp.gaussian import gaussian_search_bounds

    low, high = gaussian_search_bounds(l2, eps, delta)
    space = odp.vector_domain(odp.atom_domain(T=float, nan=False)), odp.l2_distance(T=float)

    def certified(sigma: float) -> bool:
        meas = odp.c.make_zCDP_to_approxDP(odp.m.make_gaussian(*space, scale=sigma))
        return bool(odp.c.make_fix_delta(meas, delta).check(l2, (eps, delta)))

    assert not certified(low) and certified(high)
    assert low < dp.opendp_gaussian_sigma(l2, eps, delta) <= high


def test_the_release_the_plot_and_the_exact_answer_read_the_same_sample():
    # A's five rows have different diagnoses, so which two are kept matters
    data = hand_table().assign(diagnosis=["x", "y", "y", "x", "z", "x", "y", "x", "y"])
    q = Query("histogram", column="diagnosis", categories=("x", "y", "z"))
    for seed in range(4):
        labels, exact = dp.bounded_answer(data, q, PrivacyUnit("pid", 2), seed=seed)
        r = release(
            data, q, epsilon=700.0, mechanism="discrete_laplace", ledger=_ledger(),
            unit=PrivacyUnit("pid", 2), seed=seed,
        )  # fmt: skip
        assert labels == ("x", "y", "z") and r.value == tuple(float(v) for v in exact)
        assert sum(exact) == 5  # A 2, B 2, C 1
    # the trade-off's answers are the bounded answers, c by c
    count = Query("count", filters=(("diagnosis", ("y",)),))
    t = bound_tradeoff(
        data, count, dp.sensitivity("count"), person="pid", epsilon=1.0, chosen=1, max_bound=5
    )
    assert t.answer.tolist() == [
        dp.bounded_answer(data, count, PrivacyUnit("pid", c)) for c in range(1, 6)
    ]
    # y: A has 2 such rows, B 2, C none: min(2, c) + min(2, c)
    assert t.answer.tolist() == [2, 4, 4, 4, 4]


def test_rows_equal_on_the_hashed_columns_are_ordered_as_in_the_table():
    data = hand_table()
    # the count hashes no column: each person's rows keep the table's order
    ranks = person_ranks(data, "pid", columns=())
    assert ranks.tolist() == [0, 0, 1, 0, 2, -1, 1, 3, 4]
    assert not np.array_equal(ranks, person_ranks(data, "pid", columns=("visit",)))
