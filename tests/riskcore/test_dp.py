"""riskcore.dp against hand-worked values from the sources (cited per test)."""

from __future__ import annotations

import json
import math

import numpy as np
import opendp.prelude as odp
import pytest
from scipy import integrate, stats

from riskcore import dp
from riskcore.errors import PrivacyLeakWarning

odp.enable_features("contrib")
COUNT = dp.sensitivity("count")


# ------------------------------------------------------------------ sensitivity (DR14 3.3)


@pytest.mark.parametrize(
    ("kind", "neighbouring", "bounds", "n", "l1", "l2"),
    [
        ("count", "add_remove", None, None, 1.0, 1.0),
        ("count", "change_one", None, None, 1.0, 1.0),
        ("histogram", "add_remove", None, None, 1.0, 1.0),
        ("histogram", "change_one", None, None, 2.0, math.sqrt(2)),
        ("sum", "add_remove", (-10.0, 100.0), None, 100.0, 100.0),
        ("sum", "change_one", (-10.0, 100.0), None, 110.0, 110.0),
        ("mean", "add_remove", (0.0, 100.0), 50, 2.0, 2.0),
        ("mean", "change_one", (0.0, 100.0), 50, 2.0, 2.0),
    ],
)
def test_sensitivity_table(kind, neighbouring, bounds, n, l1, l2):
    s = dp.sensitivity(kind, neighbouring=neighbouring, bounds=bounds, n=n)
    assert s.l1 == pytest.approx(l1)
    assert s.l2 == pytest.approx(l2)
    assert s.to_dict()["l1"] == pytest.approx(l1)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": "sum"}, "^a sum needs clipping bounds"),
        ({"kind": "mean", "bounds": (0, 1)}, "^a mean needs the public row count"),
        ({"kind": "sum", "bounds": (5, 5)}, "^clipping bounds must be finite with L < U"),
        ({"kind": "count", "neighbouring": "swap"}, "^neighbouring must be"),
    ],
)
def test_sensitivity_rejects(kwargs, message):
    with pytest.raises(ValueError, match=message):
        dp.sensitivity(**kwargs)


def test_data_bounds_warns():
    with pytest.warns(PrivacyLeakWarning, match="not differentially private"):
        assert dp.data_bounds([3.0, np.nan, 9.0]) == (3.0, 9.0)


# ------------------------------------------------------------------ Laplace error (DR14 Fact 3.7)


def test_laplace_count_error_issue_example():
    # b = 1/eps; 95% half-width = b ln 20 = 2.9957 at eps 1 and 299.57 at eps 0.01
    curve = dp.error_curve(7161, COUNT, mechanism="laplace", epsilons=np.array([0.01, 1.0]))
    assert curve.half_width == pytest.approx([299.5732, 2.995732], rel=1e-6)
    assert curve.expected_abs == pytest.approx([100.0, 1.0])
    assert curve.relative[1] == pytest.approx(2.995732 / 7161, rel=1e-6)  # 0.04%
    assert curve.at(1.0).std == pytest.approx(math.sqrt(2))


def test_discrete_laplace_error_hand_value():
    # s = 1, r = 1/e: P(|Y| >= k) = 2 r^k / (1 + r); half-width ln(2 / (0.05 (1 + 1/e)))
    e = dp.noise_error("discrete_laplace", 1.0)
    assert e.half_width == pytest.approx(math.log(2 / (0.05 * (1 + math.exp(-1)))))
    assert e.half_width == pytest.approx(3.37562, abs=1e-5)
    # E|Y| = 2r / (1 - r^2) = 0.85092; check against the pmf summed directly
    r = math.exp(-1)
    y = np.arange(-200, 201)
    pmf = (1 - r) / (1 + r) * r ** np.abs(y)
    assert pmf.sum() == pytest.approx(1.0)
    assert e.expected_abs == pytest.approx(float((np.abs(y) * pmf).sum()))
    assert e.std**2 == pytest.approx(float((y**2 * pmf).sum()))
    assert e.half_width == pytest.approx(odp.discrete_laplacian_scale_to_accuracy(1.0, 0.05))


def test_gaussian_half_width_matches_opendp():
    e = dp.noise_error("gaussian", 2.0)
    assert e.half_width == pytest.approx(odp.gaussian_scale_to_accuracy(2.0, 0.05))
    assert e.half_width == pytest.approx(1.959964 * 2.0, rel=1e-6)


@pytest.mark.parametrize("alpha", [0.1, 0.05, 0.01])
def test_discrete_gaussian_half_width_matches_opendp(alpha):
    # OpenDP's helper is what a release reports: same integer at every scale tried,
    # including the continuity-corrected normal tail above scale 2e5
    for s in [*np.geomspace(0.05, 3000.0, 300), 3e5, 1e6]:
        planned = dp.noise_error("discrete_gaussian", float(s), alpha=alpha).half_width
        assert planned == odp.discrete_gaussian_scale_to_accuracy(float(s), alpha), s


# ------------------------------------------------------------------ Gaussian calibration (BW18)


def _delta_by_integration(sigma: float, eps: float) -> float:
    """delta(eps) = E[(1 - e^{eps - L})_+], L ~ N(mu, 2 mu), mu = 1 / (2 sigma^2)."""
    mu = 1.0 / (2.0 * sigma**2)
    sd = math.sqrt(2 * mu)
    f = lambda x: (1.0 - math.exp(eps - x)) * stats.norm.pdf(x, mu, sd)  # noqa: E731
    return integrate.quad(f, eps, mu + 40 * sd, limit=200)[0]


@pytest.mark.parametrize(("eps", "delta"), [(1.0, 1e-5), (0.5, 1e-5), (4.0, 1e-6)])
def test_analytic_gaussian_against_privacy_loss_integral(eps, delta):
    sigma = dp.gaussian_sigma_analytic(1.0, eps, delta)
    assert _delta_by_integration(sigma, eps) == pytest.approx(delta, rel=1e-4)
    assert dp.gaussian_epsilon(sigma, 1.0, delta) == pytest.approx(eps, rel=1e-8)


def test_analytic_gaussian_hand_values():
    # BW18 report sigma ~= 3.73 at eps = 1, delta = 1e-5 (classical: 4.84)
    assert dp.gaussian_sigma_analytic(1.0, 1.0, 1e-5) == pytest.approx(3.73, abs=0.01)
    # classical: sqrt(2 ln(1.25e5)) / 0.5 = 2 * 4.8448 = 9.6896
    assert dp.gaussian_sigma_classic(1.0, 0.5, 1e-5) == pytest.approx(9.6896, abs=1e-3)
    assert dp.gaussian_sigma_analytic(1.0, 0.5, 1e-5) < 9.6896
    with pytest.raises(ValueError, match=r"^the classical Gaussian calibration holds only"):
        dp.gaussian_sigma_classic(1.0, 2.0, 1e-5)
    # sigma scales with the L2 sensitivity: solve BW18 Theorem 8 for Delta = 3 by
    # bisection here, independently of the code's own root finder
    assert dp.gaussian_sigma_analytic(3.0, 1.0, 1e-5) == pytest.approx(
        _bw18_sigma_by_bisection(3.0, 1.0, 1e-5), rel=1e-6
    )


def _bw18_sigma_by_bisection(l2: float, eps: float, delta: float) -> float:
    """Smallest sigma with Phi(D/2s - e s/D) - e^eps Phi(-D/2s - e s/D) <= delta (BW18 Thm 8)."""

    def phi(x: float) -> float:
        return 0.5 * math.erfc(-x / math.sqrt(2.0))

    def delta_of(sigma: float) -> float:
        a, b = l2 / (2 * sigma), eps * sigma / l2
        return phi(a - b) - math.exp(eps) * phi(-a - b)

    lo, hi = 1e-3 * l2, 1e3 * l2  # delta_of decreases in sigma
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if delta_of(mid) > delta else (lo, mid)
    return hi


# ------------------------------------------------------------------ solvers


def test_epsilon_for_accuracy_laplace_hand():
    # a = 3 at 95%: eps = ln(20) / 3 = 0.998577
    assert dp.epsilon_for_accuracy(3.0, COUNT) == pytest.approx(math.log(20) / 3)


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian", "discrete_laplace"])
@pytest.mark.parametrize("accuracy", [0.5, 3.0, 250.0])
def test_solvers_are_inverse(mechanism, accuracy):
    eps = dp.epsilon_for_accuracy(accuracy, COUNT, mechanism=mechanism, delta=1e-6)
    back = dp.accuracy_for_epsilon(eps, COUNT, mechanism=mechanism, delta=1e-6)
    assert back == pytest.approx(accuracy, rel=1e-6)


@pytest.mark.parametrize("accuracy", [3.0, 9.5, 250.0])
def test_discrete_gaussian_solver_gives_the_smallest_epsilon(accuracy):
    # the half-width is an integer: the epsilon found buys +/- floor(a) at most, and
    # any smaller epsilon buys more than a
    kw = {"mechanism": "discrete_gaussian", "delta": 1e-6}
    eps = dp.epsilon_for_accuracy(accuracy, COUNT, **kw)
    assert dp.accuracy_for_epsilon(eps, COUNT, **kw) == math.floor(accuracy)
    assert dp.accuracy_for_epsilon(eps * (1 - 1e-4), COUNT, **kw) > accuracy
    assert dp.epsilon_for_accuracy(0.5, COUNT, **kw) == math.inf  # +/- 0 is impossible


def test_solver_agrees_with_opendp_laplace():
    scale = odp.accuracy_to_laplacian_scale(10.0, 0.05)
    assert dp.epsilon_for_accuracy(10.0, COUNT) == pytest.approx(1.0 / scale)


# ------------------------------------------------------------------ simulation (seeded, labelled)


@pytest.mark.parametrize(
    ("mechanism", "variance"),
    [
        ("laplace", 2 * 4.0),
        ("gaussian", 4.0),
        ("discrete_laplace", 2 * math.exp(-0.5) / (1 - math.exp(-0.5)) ** 2),
    ],
)
def test_simulated_noise_variance(mechanism, variance):
    draws = dp.simulate_noise(mechanism, 2.0, 20_000, 7)
    assert draws.mean() == pytest.approx(0.0, abs=0.1)
    assert draws.var() == pytest.approx(variance, rel=0.06)


def test_simulated_band_covers_closed_form():
    curve = dp.error_curve(100, COUNT, mechanism="laplace", simulations=4000, seed=3)
    # the 97.5% quantile of Laplace(b) is b ln(20) / ... = b ln(1 / 0.05): the
    # two-sided 95% band is +/- b ln(20) exactly (P(|Y| >= t) = e^{-t/b})
    assert curve.sim_high == pytest.approx(curve.half_width, rel=0.15)
    assert curve.sim_low == pytest.approx(-curve.half_width, rel=0.15)


def test_discrete_laplace_dp_inequality():
    # neighbouring counts 10 and 11 under scale s = 1/eps: P(out)/P'(out) <= e^eps
    eps, n = 0.7, 200_000
    a = 10 + dp.simulate_noise("discrete_laplace", 1 / eps, n, 11)
    b = 11 + dp.simulate_noise("discrete_laplace", 1 / eps, n, 12)
    bins = np.arange(0, 22)
    pa = np.array([(a == v).mean() for v in bins])
    pb = np.array([(b == v).mean() for v in bins])
    ok = (pa * n > 500) & (pb * n > 500)
    ratio = pa[ok] / pb[ok]
    assert ok.sum() > 8
    assert ratio.max() <= math.exp(eps) * 1.15
    assert ratio.min() >= math.exp(-eps) / 1.15
    # and the bound is attained (the mechanism is not over-noised)
    assert ratio.max() >= math.exp(eps) * 0.85


# ------------------------------------------------------------------ clipped mean


def test_clipping_tradeoff_matches_naive():
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.lognormal(10, 1, 3000), [np.nan]])
    uppers = np.geomspace(5e3, 5e5, 25)
    t = dp.clipping_tradeoff(x, lower=1000.0, uppers=uppers, epsilon=0.5)
    xf = x[np.isfinite(x)]
    for u, bias, samp, noise in zip(uppers, t.bias, t.sampling_sd, t.noise_sd, strict=True):
        c = np.clip(xf, 1000.0, u)
        assert bias == pytest.approx(c.mean() - xf.mean(), abs=1e-6 * xf.mean())
        assert samp == pytest.approx(c.std(ddof=1) / math.sqrt(xf.size), rel=1e-6)
        assert noise == pytest.approx(math.sqrt(2) * (u - 1000) / (xf.size * 0.5))
    assert uppers[0] < t.best_upper < uppers[-1]  # an interior optimum
    assert t.rmse.min() == pytest.approx(
        np.sqrt(t.bias**2 + t.sampling_sd**2 + t.noise_sd**2).min()
    )


# ------------------------------------------------------------------ composition


def test_advanced_composition_hand_value():
    # DRV10: 0.1 sqrt(2 * 100 * ln 1e6) + 100 * 0.1 (e^0.1 - 1) = 5.2565 + 1.0517
    assert dp.advanced_composition(0.1, 100, delta_prime=1e-6) == pytest.approx(6.3082, abs=1e-4)
    # the heterogeneous form reduces to the homogeneous one
    assert dp.advanced_composition([0.1] * 100, delta_prime=1e-6) == pytest.approx(6.3082, abs=1e-4)


def test_zcdp_hand_values():
    assert dp.zcdp_of_pure(0.1) == pytest.approx(0.005)
    assert dp.zcdp_of_gaussian(1.0, 2.0) == pytest.approx(0.125)
    # rho = 100 * 0.005 = 0.5: 0.5 + 2 sqrt(0.5 ln 1e6) = 0.5 + 5.2565
    assert dp.zcdp_to_approx(0.5, 1e-6) == pytest.approx(5.7565, abs=1e-4)


def test_composition_curves_cross_over():
    c = dp.composition_curves(0.1, 2000, delta_prime=1e-6)
    assert c.basic[99] == pytest.approx(10.0)
    assert c.best[0] == pytest.approx(0.1)  # one release: basic is best
    assert c.zcdp[-1] < c.advanced[-1] < c.basic[-1]  # many releases: zCDP wins
    assert np.all(c.best <= c.basic)


def test_ledger_refuses_and_parallel_composition():
    ledger = dp.PrivacyLedger(1.0)
    ledger = ledger.charge(dp.LedgerEntry("histogram of race", "laplace", 0.5, groups=5))
    t = ledger.totals()
    assert t.basic == (0.5, 0.0)
    assert t.parallel_saving == pytest.approx(2.0)  # 5 bars cost 0.5, not 2.5
    ledger = ledger.charge(dp.LedgerEntry("count", "laplace", 0.5))
    assert ledger.remaining() == pytest.approx(0.0)
    with pytest.raises(dp.BudgetExceededError, match=r"^Refused: this release costs epsilon 0\.01"):
        ledger.charge(dp.LedgerEntry("count", "laplace", 0.01))
    assert len(ledger.entries) == 2  # the ledger is a value: unchanged by the refusal


def test_a_ledger_whose_budget_was_lowered_below_its_spending_is_overspent_in_delta_too():
    """The one budget rule: a delta spent above a lowered delta budget is overspent (the DP
    page's warning read epsilon only)."""
    spent = dp.PrivacyLedger(1.0, 1e-5).charge(dp.LedgerEntry("count", "gaussian", 0.5, 1e-5))
    lowered = dp.PrivacyLedger(1.0, 1e-6, "basic", spent.entries)
    assert lowered.exceeds(*lowered.spent()) == "delta"
    assert dp.PrivacyLedger(0.25, 1e-5, "basic", spent.entries).exceeds(*spent.spent()) == "epsilon"
    assert spent.exceeds(*spent.spent()) is None
    with pytest.raises(dp.BudgetExceededError, match="total delta"):
        lowered.charge(dp.LedgerEntry("count", "laplace", 0.1))


def test_a_ledger_has_no_restart_and_a_looser_budget_after_spending_needs_a_reason():
    # issue 17: "Start a new ledger" undid the budget; a ledger now only grows
    assert not hasattr(dp.PrivacyLedger, "restart")
    fresh = dp.PrivacyLedger(1.0, 1e-6)
    spent = fresh.charge(dp.LedgerEntry("count", "laplace", 0.5))

    def with_budget(led, eps, delta=1e-6, acc="basic"):
        return dp.PrivacyLedger(eps, delta, acc, led.entries)

    # before any release every setting is free
    assert not dp.change_needs_reason(fresh, with_budget(fresh, 5.0, 1e-5, "zcdp"))
    # after one: raising epsilon or delta, or another accounting, needs a reason
    assert dp.change_needs_reason(spent, with_budget(spent, 1.5))
    assert dp.change_needs_reason(spent, with_budget(spent, 1.0, 1e-5))
    assert dp.change_needs_reason(spent, with_budget(spent, 1.0, 1e-6, "zcdp"))
    # lowering never does, even below what is spent
    assert not dp.change_needs_reason(spent, with_budget(spent, 0.25, 1e-7))


def test_ledger_zcdp_accounting_allows_more_small_releases():
    basic = dp.PrivacyLedger(1.0, 1e-6, "basic")
    zcdp = dp.PrivacyLedger(1.0, 1e-6, "zcdp")
    entry = dp.LedgerEntry("count", "laplace", 0.01)
    n_basic = n_zcdp = 0
    with pytest.raises(dp.BudgetExceededError):
        while True:
            basic = basic.charge(entry)
            n_basic += 1
    with pytest.raises(dp.BudgetExceededError):
        while True:
            zcdp = zcdp.charge(entry)
            n_zcdp += 1
    # basic: 100 * 0.01 = 1. zCDP: rho + 2 sqrt(rho ln 1e6) = 1 with u = sqrt(rho):
    # u^2 + 7.4339 u - 1 = 0, u = 0.13220, rho = 0.017477, k = rho / 5e-5 = 349.5 -> 349
    assert n_basic == 100
    assert n_zcdp == 349


# ------------------------------------------------------------------ sample and aggregate (NRS07)


def test_sample_and_aggregate_median_matches_blocks():
    rng = np.random.default_rng(2)
    x = rng.exponential(50_000, 1003)
    sa = dp.sample_and_aggregate(x, k=10, bounds=(0, 100_000), epsilon=1.0, seed=4)
    order = np.random.default_rng(4).permutation(1003)[:1000]
    blocks = [np.median(x[order[i * 100 : (i + 1) * 100]]) for i in range(10)]
    assert sa.block_values == pytest.approx(blocks)
    assert sa.aggregate == pytest.approx(np.mean(np.clip(blocks, 0, 100_000)))
    assert sa.sensitivity == pytest.approx(10_000)
    assert sa.scale == pytest.approx(10_000)  # (hi - lo) / (k eps)


def test_sample_and_aggregate_slope_exact_on_a_line():
    x = np.arange(600, dtype=float)
    sa = dp.sample_and_aggregate(
        3 * x + 2, x=x, statistic="slope", k=20, bounds=(-10, 10), epsilon=1
    )
    assert sa.block_values == pytest.approx(np.full(20, 3.0))
    assert sa.full_data_value == pytest.approx(3.0)


def test_sample_and_aggregate_too_few_records():
    with pytest.raises(ValueError, match="cannot fill k = 10 blocks"):
        dp.sample_and_aggregate([1.0, 2.0], k=10, bounds=(0, 1), epsilon=1)


# ------------------------------------------------------------------ identifiability (LC12)


def test_identifiability_epsilon_hand_value():
    # m = 100, rho = 1.5%: ln(99 * 0.015 / 0.985) = ln(1.507614) = ln 1.5 + ln 1.005076 = 0.410528
    assert dp.identifiability_epsilon(100, 0.015) == pytest.approx(0.410528, abs=1e-6)


@pytest.mark.parametrize(("m", "rho"), [(50, 0.015), (100, 0.01), (2, 0.5)])
def test_identifiability_epsilon_refuses_rho_at_or_below_prior(m, rho):
    with pytest.raises(ValueError, match=r"is not above 1/m.*no finite amount of noise"):
        dp.identifiability_epsilon(m, rho)


def test_identifiability_risk_two_worlds_and_tiny_scale():
    # worlds f = 0 (true) and 1, lambda = 1, R = 0: 1 / (1 + e^-1) = 0.731059
    assert dp.identifiability_risk(0.0, [0.0, 1.0], 0.0, 1.0) == pytest.approx(0.731059, abs=1e-6)
    r = dp.identifiability_risk(0.0, [0.0, 1.0], np.array([0.4, 0.6]), 1e-9)
    assert np.all(np.isfinite(r))
    assert r == pytest.approx([1.0, 0.0])


def test_theorem_1_is_tight_when_all_other_worlds_are_at_range():
    m, rho, s = 100, 0.015, 7.0
    worlds = np.r_[0.0, np.full(m - 1, s)]
    eps = dp.identifiability_epsilon(m, rho)
    lam = dp.identifiability_scale(s, m, rho)
    assert dp.identifiability_risk(0.0, worlds, 0.0, lam) == pytest.approx(rho)
    assert dp.tight_identifiability_epsilon(worlds, rho) == pytest.approx(eps, rel=1e-8)


def test_worst_case_risk_matches_brute_force_and_tight_epsilon_beats_bound():
    rng = np.random.default_rng(9)
    worlds = np.round(rng.normal(50, 10, 60), 1)
    worlds[:3] = worlds[3]  # ties
    lam = 4.0
    grid = np.linspace(worlds.min() - 20, worlds.max() + 20, 4001)
    grid = np.union1d(grid, worlds)
    brute = max(
        float(np.max(dp.identifiability_risk(t, worlds, grid, lam))) for t in np.unique(worlds)
    )
    assert dp.worst_case_identifiability_risk(worlds, lam) == pytest.approx(brute, rel=1e-9)
    res = dp.identifiability(0.1, world_values=worlds)
    assert res.tight_epsilon >= res.epsilon
    assert res.worst_risk <= 0.1 + 1e-12
    s = worlds.max() - worlds.min()
    at_tight = dp.worst_case_identifiability_risk(worlds, s / res.tight_epsilon)
    assert at_tight == pytest.approx(0.1, rel=1e-6)


def test_to_dict_is_json_ready():
    json.dumps(dp.error_curve(10, COUNT, simulations=10).to_dict())
    json.dumps(dp.composition_curves(1.0, 3).to_dict())
    json.dumps(dp.identifiability(0.4, world_values=[1.0, 2.0, 5.0, 9.0]).to_dict())
    json.dumps(dp.PrivacyLedger(1.0).charge(dp.LedgerEntry("q", "laplace", 0.1)).to_dict())
