"""OpenDP releases: calibration, certified cost, ledger refusal, sampler statistics.

OpenDP's samplers cannot be seeded (they draw from the OS), so the
statistical checks use the mean absolute error, whose relative standard
error is 1/sqrt(draws), with tolerances of about five standard errors.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import opendp.prelude as odp
import pandas as pd
import pytest

from riskcore import dp
from riskcore.dp.release import Query, release, release_sample_aggregate, true_answer
from riskcore.errors import PrivacyLeakWarning, RiskcoreError

odp.enable_features("contrib")


@pytest.fixture
def table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "sex": ["F", "M", "F", "F", None, "M"],
            "zip": ["02139", "02139", "02140", "02141", "02139", "02140"],
            "income": [10.0, 250.0, np.nan, 40.0, 60.0, 80.0],
        }
    )


def _ledger(eps: float = 100.0) -> dp.PrivacyLedger:
    return dp.PrivacyLedger(eps, 1e-5)


def test_count_with_filter_and_missing_text(table):
    q = Query("count", filters=(("sex", ("F",)),))
    assert true_answer(table, q) == 3
    q2 = Query("count", filters=(("sex", ("(missing)", "M")),))
    assert true_answer(table, q2) == 3


@pytest.mark.parametrize(
    ("mechanism", "scale"),
    [("laplace", 2.0), ("discrete_laplace", 2.0)],
)
def test_count_release_scale_and_certified_cost(table, mechanism, scale):
    r = release(table, Query("count"), epsilon=0.5, mechanism=mechanism, ledger=_ledger())
    ledger = r.ledger
    assert ledger is not None
    assert r.scale == pytest.approx(scale, rel=1e-6)  # Delta / eps = 1 / 0.5
    assert r.epsilon <= 0.5 + 1e-12
    assert r.epsilon == pytest.approx(0.5, rel=1e-6)
    assert ledger.spent()[0] == pytest.approx(r.epsilon)
    if mechanism == "discrete_laplace":
        assert float(r.value).is_integer()


def test_gaussian_release_certified_by_opendp_zcdp(table):
    r = release(
        table, Query("count"), epsilon=1.0, mechanism="gaussian", delta=1e-6, ledger=_ledger()
    )
    ledger = r.ledger
    assert ledger is not None
    assert r.epsilon <= 1.0 + 1e-9 and r.delta == pytest.approx(1e-6)
    # OpenDP accounts through zCDP: rho = 1 / (2 sigma^2), and its conversion is at
    # least as conservative as the analytic calibration of Balle & Wang
    assert r.rho == pytest.approx(1.0 / (2 * r.scale**2), rel=1e-6)
    assert r.scale >= dp.gaussian_sigma_analytic(1.0, 1.0, 1e-6)
    assert ledger.entries[0].zcdp == pytest.approx(r.rho)


@pytest.mark.parametrize(
    ("neighbouring", "l1", "scale"),
    [("add_remove", 1.0, 4.0), ("change_one", 2.0, 8.0)],
)
def test_histogram_costs_one_epsilon_for_all_bars(table, neighbouring, l1, scale):
    q = Query("histogram", column="zip", categories=("02139", "02140"))
    r = release(
        table, q, epsilon=0.25, neighbouring=neighbouring, mechanism="laplace", ledger=_ledger()
    )
    ledger = r.ledger
    assert ledger is not None
    assert r.labels == ("02139", "02140", "(other)")
    assert r.sensitivity.l1 == l1
    assert r.scale == pytest.approx(scale, rel=1e-6)
    assert ledger.totals().basic[0] == pytest.approx(0.25, rel=1e-6)  # parallel composition
    assert ledger.entries[0].groups == 3
    _, counts = true_answer(table, q)
    assert counts.tolist() == [3, 2, 1]


def test_histogram_categories_from_data_warn(table):
    with pytest.warns(PrivacyLeakWarning, match="categories were read from the data"):
        r = release(table, Query("histogram", column="sex"), epsilon=1, ledger=_ledger())
    assert r.labels == ("(missing)", "F", "M")
    assert "categories were read from the data (not private)" in r.notes


@pytest.mark.parametrize(("neighbouring", "l1"), [("add_remove", 250.0), ("change_one", 250.0)])
def test_sum_release_through_opendp_pipeline(table, neighbouring, l1):
    q = Query("sum", column="income", bounds=(0.0, 250.0))
    r = release(table, q, epsilon=1.0, neighbouring=neighbouring, ledger=_ledger())
    assert r.sensitivity.l1 == l1
    # OpenDP adds a little for floating-point rounding in the sum: the scale is
    # at least Delta / eps and within a millionth of it
    assert l1 <= r.scale <= l1 * (1 + 1e-6)
    assert r.epsilon <= 1.0 + 1e-12
    note = (
        "1 rows without a number were left out" if neighbouring == "add_remove" else "midpoint 125"
    )
    assert any(note in n for n in r.notes)
    assert true_answer(table, q) == pytest.approx(440.0)


def test_mean_under_add_remove_needs_public_n(table):
    q = Query("mean", column="income", bounds=(0.0, 100.0))
    with pytest.warns(PrivacyLeakWarning, match="row count was read from the data"):
        r = release(table, q, epsilon=1.0, ledger=_ledger())
    assert r.sensitivity.l1 == pytest.approx(20.0)  # (U - L) / n = 100 / 5
    q2 = Query("mean", column="income", bounds=(0.0, 100.0), n_public=10)
    with warnings.catch_warnings():
        warnings.simplefilter("error", PrivacyLeakWarning)
        r2 = release(table, q2, epsilon=1.0, ledger=_ledger())
    assert r2.scale == pytest.approx(10.0, rel=1e-6)  # 100 / 10 / 1


def test_refused_release_draws_nothing_and_keeps_the_ledger(table):
    ledger = _ledger(1.0)
    ledger = release(table, Query("count"), epsilon=0.75, ledger=ledger).ledger
    with pytest.raises(dp.BudgetExceededError, match=r"^Refused: .*Only 0\.25 is left"):
        release(table, Query("count"), epsilon=0.5, ledger=ledger)
    assert len(ledger.entries) == 1


@pytest.mark.parametrize(
    ("query", "kwargs", "message"),
    [
        (
            Query("sum", column="income", bounds=(0, 1)),
            {"mechanism": "discrete_laplace"},
            "^discrete",
        ),
        (
            Query("count", filters=(("nope", ("x",)),)),
            {},
            "filter column 'nope' is not in the table",
        ),
        (Query("sum", column="sex", bounds=(0, 1)), {}, "no numeric values of 'sex'"),
    ],
)
def test_release_rejects_with_a_clear_message(table, query, kwargs, message):
    with pytest.raises(RiskcoreError, match=message):
        release(table, query, epsilon=1.0, ledger=_ledger(), **kwargs)


def test_opendp_laplace_sampler_statistics():
    # The scale the release path calibrates, sampled 20,000 times by OpenDP:
    # E|Y| = b = 2 and P(|Y| >= b ln 20) = 5%.
    r = release(pd.DataFrame({"a": range(7)}), Query("count"), epsilon=0.5, ledger=_ledger())
    meas = odp.m.make_laplace(
        odp.vector_domain(odp.atom_domain(T=float, nan=False)),
        odp.l1_distance(T=float),
        scale=r.scale,
    )
    draws = np.asarray(meas([0.0] * 20_000))
    assert np.abs(draws).mean() == pytest.approx(2.0, rel=5 / math.sqrt(20_000))
    assert (np.abs(draws) >= r.half_width).mean() == pytest.approx(0.05, abs=0.01)


def test_release_errors_have_the_closed_form_size():
    data = pd.DataFrame({"a": range(50)})
    errs = np.array(
        [
            release(data, Query("count"), epsilon=1.0, ledger=_ledger()).value - 50
            for _ in range(300)
        ]
    )
    # E|error| = 1 for Laplace(1); 300 draws: relative standard error 5.8%
    assert np.abs(errs).mean() == pytest.approx(1.0, rel=0.3)


def test_sample_and_aggregate_release(table):
    sa = dp.sample_and_aggregate(np.arange(100.0), k=10, bounds=(0, 100), epsilon=0.5)
    out = release_sample_aggregate(sa, ledger=_ledger())
    value, eps, ledger = out.value, out.epsilon, out.ledger
    assert ledger is not None
    assert eps == pytest.approx(0.5, rel=1e-6) and eps <= 0.5 + 1e-12
    assert math.isfinite(value)
    assert ledger.entries[0].query == "sample-and-aggregate median (k = 10)"
