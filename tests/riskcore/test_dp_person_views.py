"""The clipped mean, differential identifiability and local DP planning with a person as the
unit (issue 36, item 7, the views left).

Every expected value is worked by hand in the comments, or computed another way (a
pandas group-by, a sandwich matrix, OpenDP's release). The small table: A has 5 rows
of 10, B 2 rows of 20, C 1 row of 5, and one row of 7 has no person.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from riskcore import dp
from riskcore._results import dumps
from riskcore.dp import local as ldp
from riskcore.dp.contributions import PrivacyUnit, person_mean_variance
from riskcore.dp.release import Query, release
from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError

Z975 = 1.959963984540054


def amounts() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "pid": ["A", "B", "A", "C", "A", None, "B", "A", "A"],
            "amount": [10.0, 20.0, 10.0, 5.0, 10.0, 7.0, 20.0, 10.0, 10.0],
        }
    )


# ------------------------------------------------------------------ the clustered variance


def test_person_mean_variance_by_hand():
    # A holds 1 and 3, B holds 8: mean 4, scores (1 - 4) + (3 - 4) = -4 and 8 - 4 = 4;
    # G / (G - 1) = 2, so 2 (16 + 16) / 3^2
    v = person_mean_variance(np.array([1.0, 3.0, 8.0]), np.array([0, 0, 1]))
    assert v == pytest.approx(2 * (16 + 16) / 9)
    # one person: no variance between people to estimate
    assert person_mean_variance(np.array([1.0, 3.0]), np.array([0, 0])) == 0.0


def test_person_mean_variance_is_the_sandwich_and_s2_over_n_for_one_row_each():
    rng = np.random.default_rng(3)
    y = rng.normal(10, 3, 60)
    person = rng.integers(0, 12, 60)
    # the cluster-robust sandwich of a regression on a constant, in matrices:
    # (X'X)^-1 (sum_g X_g' u_g u_g' X_g) (X'X)^-1 times G / (G - 1)
    x = np.ones((60, 1))
    u = y - y.mean()
    z = (person[:, None] == np.arange(12)[None, :]).astype(float)  # n x G indicators
    bread = np.linalg.inv(x.T @ x)
    scores = z.T @ (x * u[:, None])  # G x 1
    g = int((z.sum(axis=0) > 0).sum())
    sandwich = g / (g - 1) * bread @ (scores.T @ scores) @ bread
    assert person_mean_variance(y, person) == pytest.approx(float(sandwich[0, 0]), rel=1e-12)
    # one row per person: the usual s^2 / n
    alone = person_mean_variance(y, np.arange(60))
    assert alone == pytest.approx(y.var(ddof=1) / 60, rel=1e-12)


# ------------------------------------------------------------------ the clipped mean


def test_the_clipped_mean_of_people_by_hand():
    # c = 2 keeps A's 10, 10, B's 20, 20 and C's 5 (A's and B's rows are equal, so any
    # seed keeps the same values); the row without a person is left out: n = 5 values
    # of 3 people, mean 65 / 5 = 13, and the 9 rows' mean is 102 / 9
    uppers = np.array([8.0, 15.0, 30.0])
    t = dp.column_clipping_tradeoff(
        amounts(), "amount", lower=0.0, uppers=uppers, epsilon=0.5, unit=PrivacyUnit("pid", 2)
    )
    assert (t.n, t.people, t.rows_left_out) == (5, 3, 4)
    assert t.true_mean == 13.0 and t.every_row_mean == pytest.approx(102 / 9)
    assert t.bound_shift == pytest.approx(13 - 102 / 9)
    # U = 8: A 8 + 8, B 8 + 8, C 5 -> 37 / 5 = 7.4; U = 15: (20 + 30 + 5) / 5 = 11
    np.testing.assert_allclose(t.bias, [7.4 - 13, 11 - 13, 0.0])
    # sums per person at U = 8: 16, 16, 5; scores 16 - 2 x 7.4 = 1.2, 1.2, 5 - 7.4 = -2.4
    # U = 15: 20, 30, 5 around 11: -2, 8, -6; U = 30: 20, 40, 5 around 13: -6, 14, -8
    hand = [
        1.5 * (1.2**2 + 1.2**2 + 2.4**2) / 25,
        1.5 * (2**2 + 8**2 + 6**2) / 25,
        1.5 * (6**2 + 14**2 + 8**2) / 25,
    ]
    np.testing.assert_allclose(t.sampling_sd, np.sqrt(hand))
    # sensitivity c (U - L) / n = 2 U / 5, Laplace scale that over epsilon 0.5
    np.testing.assert_allclose(t.noise_sd, math.sqrt(2) * 2 * uppers / 5 / 0.5)
    assert t.unit == PrivacyUnit("pid", 2)


def test_the_clipped_mean_noise_is_what_opendp_releases_the_mean_with():
    # the release of the same mean (public n = 5, the same c): OpenDP's Laplace scale is
    # the trade-off's noise sd / sqrt(2), 2 x 30 / (5 x 0.5) = 24
    unit = PrivacyUnit("pid", 2)
    t = dp.column_clipping_tradeoff(
        amounts(), "amount", lower=0.0, uppers=np.array([30.0]), epsilon=0.5, unit=unit
    )
    rel = release(
        amounts(),
        Query("mean", column="amount", bounds=(0.0, 30.0), n_public=5),
        epsilon=0.5,
        ledger=dp.PrivacyLedger(100.0),
        unit=unit,
    )
    assert rel.scale == pytest.approx(float(t.noise_sd[0]) / math.sqrt(2), rel=1e-6)
    assert rel.scale == pytest.approx(2 * 30 / (5 * 0.5), rel=1e-6)
    # and it reads the same rows: the bounded mean is the trade-off's mean
    bounded = dp.bounded_answer(amounts(), Query("mean", column="amount", bounds=(0, 30)), unit)
    assert bounded == t.true_mean


def test_one_row_per_person_gives_the_rows_trade_off():
    rng = np.random.default_rng(8)
    x = rng.lognormal(3, 1, 400)
    uppers = np.geomspace(5, 500, 30)
    rows = dp.clipping_tradeoff(x, lower=0.0, uppers=uppers, epsilon=1.0)
    people = dp.clipping_tradeoff(
        x, lower=0.0, uppers=uppers, epsilon=1.0, persons=np.arange(400), unit=PrivacyUnit("p", 1)
    )
    np.testing.assert_allclose(people.sampling_sd, rows.sampling_sd, rtol=1e-9)
    np.testing.assert_allclose(people.noise_sd, rows.noise_sd)
    np.testing.assert_allclose(people.bias, rows.bias)
    assert people.people == 400 and rows.people == 0


def test_without_a_person_the_column_trade_off_is_the_values_trade_off():
    uppers = np.array([8.0, 15.0])
    t = dp.column_clipping_tradeoff(amounts(), "amount", lower=0.0, uppers=uppers, epsilon=1.0)
    same = dp.clipping_tradeoff(amounts()["amount"], lower=0.0, uppers=uppers, epsilon=1.0)
    assert t.to_dict() == same.to_dict()
    assert t.n == 9 and t.unit == dp.ONE_ROW and t.bound_shift == 0.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"persons": ["A", "B"]}, "^give the persons of the values with a person unit"),
        ({"unit": PrivacyUnit("p", 2)}, "^give the persons of the values with a person unit"),
        (
            {"persons": ["A", None], "unit": PrivacyUnit("p", 2)},
            "^every value needs its person",
        ),
        ({"persons": ["A"], "unit": PrivacyUnit("p", 2)}, "^persons has 1 values for 2 values$"),
    ],
)
def test_a_clipped_mean_refuses_persons_that_do_not_match_the_unit(kwargs, message):
    with pytest.raises(ValueError, match=message):
        dp.clipping_tradeoff([1.0, 2.0], lower=0.0, uppers=np.array([3.0]), epsilon=1.0, **kwargs)


def test_a_person_column_missing_from_the_table_is_a_clear_error():
    with pytest.raises(RiskcoreError, match=r"^the column 'who' is not in the table$"):
        dp.column_clipping_tradeoff(
            amounts(), "amount", lower=0.0, uppers=np.array([3.0]), epsilon=1.0,
            unit=PrivacyUnit("who", 2),
        )  # fmt: skip


# ------------------------------------------------------------------ differential identifiability


def visits() -> pd.DataFrame:
    """A: 3 rows of zip 1 (10 each); B: 2 of zip 1 (5 each); C: 1 of zip 1 (7); D: 2 of
    zip 2 (1, 2); E: zip 1 (100) and zip 2 (200); F: zip 1 (4), zip 2 (6, 8); a row of
    zip 1 (50) without a person."""
    rows = [
        ("A", "1", 10.0), ("A", "1", 10.0), ("A", "1", 10.0),
        ("B", "1", 5.0), ("B", "1", 5.0),
        ("C", "1", 7.0),
        ("D", "2", 1.0), ("D", "2", 2.0),
        ("E", "1", 100.0), ("E", "2", 200.0),
        ("F", "1", 4.0), ("F", "2", 6.0), ("F", "2", 8.0),
        (None, "1", 50.0),
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=["pid", "zip", "amount"])


def test_the_candidates_of_a_class_are_people_and_a_world_adds_a_persons_rows():
    # signatures: A, B, C {1} (3 people); D {2} (1); E, F {1, 2} (2): the smallest class
    # with 2 or more people is {E, F}; at c = 3 every row is kept, E adds 300, F 18
    w = dp.candidate_worlds(
        EncodedTable(visits()), "amount", source="class", quasi_identifiers=("zip",),
        unit=PrivacyUnit("pid", 3),
    )  # fmt: skip
    assert sorted(w.values) == [18.0, 300.0]
    assert (w.m, w.candidates, w.rows, w.population, w.without_number) == (2, 2, 5, 6, 0)
    # m counts people: the rows' smallest class (zip 2) has 5 records
    rows = dp.candidate_worlds(
        EncodedTable(visits()), "amount", source="class", quasi_identifiers=("zip",)
    )
    assert sorted(rows.values) == [1.0, 2.0, 6.0, 8.0, 200.0] and rows.m == 5
    # Theorem 1 with m = 2 people and rho = 0.6: epsilon = ln(1 x 0.6 / 0.4), S(f) = 282
    res = dp.identifiability(0.6, world_values=w.values)
    assert res.m == 2 and res.epsilon == pytest.approx(math.log(1.5))
    assert res.sensitive_range == 282.0


def test_a_world_adds_at_most_c_rows_of_its_person():
    # c = 2: A adds 10 + 10, B 5 + 5, C 7, D 1 + 2, E 100 + 200, F two of 4, 6 and 8
    w = dp.candidate_worlds(
        EncodedTable(visits()), "amount", source="sample", m=50, unit=PrivacyUnit("pid", 2)
    )
    assert w.m == 6 and w.population == 6 and w.rows == 2 + 2 + 1 + 2 + 2 + 2
    rest = list(w.values)
    for value in (20.0, 10.0, 7.0, 3.0, 300.0):
        rest.remove(value)
    assert len(rest) == 1 and rest[0] in (4 + 6, 4 + 8, 6 + 8)  # F
    # the people's contributions add up to what a release of the sum reads (the same sample)
    total = dp.bounded_answer(
        visits(), Query("sum", column="amount", bounds=(0.0, 1000.0)), PrivacyUnit("pid", 2)
    )
    assert sum(w.values) == pytest.approx(total)


def test_a_sample_draws_m_people_not_m_rows():
    w = dp.candidate_worlds(
        EncodedTable(visits()), "amount", source="sample", m=3, seed=4, unit=PrivacyUnit("pid", 3)
    )
    people = {"A": 30.0, "B": 10.0, "C": 7.0, "D": 3.0, "E": 300.0, "F": 18.0}
    assert w.m == 3 and set(w.values) <= set(people.values())
    chosen = np.random.default_rng(4).choice(6, size=3, replace=False)  # people in order seen
    assert sorted(w.values) == sorted(people["ABCDEF"[i]] for i in chosen)


def test_a_person_without_a_number_is_no_world():
    data = visits()
    data.loc[data["pid"] == "C", "amount"] = np.nan
    w = dp.candidate_worlds(
        EncodedTable(data), "amount", source="sample", m=50, unit=PrivacyUnit("pid", 3)
    )
    assert (w.candidates, w.without_number, w.m) == (6, 1, 5)
    assert sorted(w.values) == [3.0, 10.0, 18.0, 30.0, 300.0]
    # E alone is left of the class {E, F} once E has no number: no candidate set
    data.loc[data["pid"] == "E", "amount"] = np.nan
    with pytest.raises(RiskcoreError, match=r"^the candidates have fewer than 2 numeric values"):
        dp.candidate_worlds(
            EncodedTable(data), "amount", source="class", quasi_identifiers=("zip",),
            unit=PrivacyUnit("pid", 3),
        )  # fmt: skip


def test_every_class_a_single_person_is_refused():
    data = pd.DataFrame({"pid": ["A", "A", "B"], "zip": ["1", "1", "2"], "amount": [1.0, 2, 3]})
    with pytest.raises(RiskcoreError, match=r"^every class is a single person"):
        dp.candidate_worlds(
            EncodedTable(data), "amount", source="class", quasi_identifiers=("zip",),
            unit=PrivacyUnit("pid", 2),
        )  # fmt: skip


# ------------------------------------------------------------------ local DP planning


def test_the_share_margin_uses_epsilon_over_c_per_report():
    # epsilon 1 per person, c = 4 reports of epsilon 1/4, k = 4, 4,000 reports; at f = 0 the
    # variance of a share is q (1 - q) / (n (p - q)^2) with p, q of GRR at 1/4
    p, q = ldp.grr_probabilities(0.25, 4)
    hand = Z975 * math.sqrt(q * (1 - q) / (4_000 * (p - q) ** 2))
    assert ldp.share_margin(1.0, 4, 4_000, max_rows=4) == pytest.approx(hand, rel=1e-12)
    # c = 1 is the one-report design
    one = Z975 * math.sqrt(ldp.grr_variance(1.0, 4, 4_000))
    assert ldp.share_margin(1.0, 4, 4_000) == pytest.approx(one)


def test_people_needed_when_each_sends_c_reports():
    # z^2 (e' + 2) / (0.02^2 (e' - 1)^2 4) people, e' = e^(1/4)
    e = math.exp(0.25)
    hand = math.ceil(Z975**2 * (e + 2) / (0.02**2 * (e - 1) ** 2 * 4))
    needed = ldp.respondents_needed(0.02, 1.0, 4, max_rows=4)
    assert needed == hand
    # the margin of those people's 4 reports each is within 0.02, and one person fewer is not
    assert ldp.share_margin(1.0, 4, needed * 4, max_rows=4) <= 0.02
    assert ldp.share_margin(1.0, 4, (needed - 1) * 4, max_rows=4) > 0.02
    # several reports per person at epsilon / c need more people than one report at epsilon
    assert needed > ldp.respondents_needed(0.02, 1.0, 4)


def test_the_local_laplace_interval_is_clustered_by_person():
    # A sends 1 and 3, B sends 8 (c = 2), bounds [0, 10], epsilon 1: b = 2 x 10 / 1 = 20;
    # sampling variance 64 / 9 (test_person_mean_variance_by_hand), noise 2 b^2 / 3
    values = pd.Series([1.0, 8.0, 3.0])
    persons = pd.Series(["A", "B", "A"], name="pid")
    r = ldp.laplace_ldp_simulate(values, 1.0, bounds=(0, 10), persons=persons, max_rows=2)
    assert r.scale == 20.0 and r.n == 3
    assert r.half_width == pytest.approx(Z975 * math.sqrt(64 / 9 + 2 * 20**2 / 3))


def test_the_person_results_round_trip_through_strict_json():
    unit = PrivacyUnit("pid", 2)
    results = [
        dp.column_clipping_tradeoff(
            amounts(), "amount", lower=0.0, uppers=np.array([8.0, 30.0]), epsilon=1.0, unit=unit
        ),
        dp.candidate_worlds(EncodedTable(visits()), "amount", source="sample", m=4, unit=unit),
    ]
    for result in results:
        text = dumps(result)
        back = type(result).from_dict(json.loads(text))
        assert dumps(back) == text and back.unit == unit


def test_the_clustered_clipping_trade_off_checks_its_limit_first(monkeypatch) -> None:
    import numpy as np
    import pytest

    from riskcore.dp import accuracy
    from riskcore.dp.contributions import PrivacyUnit
    from riskcore.errors import RiskcoreError

    monkeypatch.setattr(accuracy, "MAX_CLIPPING_CELLS", 99)
    values, persons = np.arange(10.0), np.repeat(np.arange(5), 2)
    with pytest.raises(RiskcoreError, match="past its limit of 99"):
        accuracy.clipping_tradeoff(
            values, lower=0.0, uppers=np.arange(1.0, 11.0), epsilon=1.0,
            unit=PrivacyUnit("p", 2), persons=persons,
        )  # fmt: skip
    accuracy.clipping_tradeoff(  # within: 10 values x 9 bounds
        values, lower=0.0, uppers=np.arange(1.0, 10.0), epsilon=1.0,
        unit=PrivacyUnit("p", 2), persons=persons,
    )  # fmt: skip
