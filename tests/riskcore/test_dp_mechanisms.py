"""Mechanisms, validators, JSON round trips and import weight of riskcore.dp.

Expected values are worked from the formulas of shared/notes/formulas.md
(Dwork & Roth 2014; Balle & Wang 2018; Ghosh et al. 2012; Canonne, Kamath &
Steinke 2020) by hand or by an
independent computation written here (direct sums over the probability mass
function, bisection), never copied from the code's output.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from riskcore import dp
from riskcore._results import dumps
from riskcore._validation import (
    check_bounds,
    check_delta,
    check_epsilon,
    check_one_of,
    check_positive,
    check_positive_int,
    check_probability,
)
from riskcore.dp import Mechanism
from riskcore.dp import local as ldp

SUM = dp.sensitivity("sum", bounds=(-10.0, 100.0))  # add/remove: Delta_1 = Delta_2 = 100
Z975 = 1.959963984540054  # standard normal 97.5% quantile (tables)


# ------------------------------------------------------------------ the Mechanism enum


def test_mechanism_accepts_plain_strings_and_compares_equal():
    assert Mechanism("laplace") is Mechanism.LAPLACE
    assert Mechanism.DISCRETE_LAPLACE == "discrete_laplace"
    assert f"{Mechanism.GAUSSIAN}" == "gaussian"
    assert dp.as_mechanism("gaussian") is Mechanism.GAUSSIAN
    assert dp.MECHANISM_LABELS == {
        "laplace": "Laplace",
        "gaussian": "Gaussian (zCDP, OpenDP)",
        "discrete_laplace": "Discrete Laplace",
        "discrete_gaussian": "Discrete Gaussian (zCDP, OpenDP)",
    }
    assert Mechanism.DISCRETE_GAUSSIAN.is_gaussian and Mechanism.DISCRETE_GAUSSIAN.is_discrete
    assert not Mechanism.LAPLACE.is_gaussian and not Mechanism.LAPLACE.is_discrete


@pytest.mark.parametrize(
    "call",
    [
        lambda: dp.as_mechanism("laplcae"),
        lambda: dp.noise_error("laplcae", 1.0),
        lambda: dp.noise_scale("laplcae", SUM, 1.0),
        lambda: dp.error_curve(1.0, SUM, mechanism="laplcae"),
        lambda: dp.epsilon_for_accuracy(1.0, SUM, mechanism="laplcae"),
        lambda: dp.simulate_noise("laplcae", 1.0, 3, 0),
    ],
)
def test_unknown_mechanism_is_refused_with_the_bad_value(call):
    with pytest.raises(ValueError, match=r"^unknown mechanism 'laplcae'"):
        call()


# ------------------------------------------------------------------ scale (DR14 3.6, GRS12, CKS20)


@pytest.mark.parametrize("mechanism", ["laplace", "discrete_laplace", Mechanism.LAPLACE])
def test_laplace_scale_is_sensitivity_over_epsilon(mechanism):
    # b = Delta_1 / epsilon = 100 / 0.5
    assert dp.noise_scale(mechanism, SUM, 0.5) == pytest.approx(200.0, rel=1e-15)


def _cks20_delta(rho: float, eps: float) -> float:
    """delta of rho-zCDP at eps: inf over a > 1 of e^{(a-1)(a rho - eps)} (1 - 1/a)^a / (a - 1).

    Canonne, Kamath & Steinke 2020, Corollary 13, minimised over a = 1 + e^t.
    """
    from scipy import optimize

    def log_delta(t: float) -> float:
        a = 1.0 + math.exp(t)
        return (a - 1) * (a * rho - eps) - t + a * math.log1p(-1.0 / a)

    r = optimize.minimize_scalar(log_delta, bounds=(-20, 20), method="bounded")
    return math.exp(r.fun)


def _cks20_sigma(l2: float, eps: float, delta: float) -> float:
    """Smallest sigma whose zCDP rho = l2^2 / (2 sigma^2) is (eps, delta)-DP, by bisection."""
    lo, hi = 1e-3, 1e7
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if _cks20_delta(l2**2 / (2 * mid**2), eps) > delta else (lo, mid)
    return hi


@pytest.mark.parametrize("mechanism", ["gaussian", "discrete_gaussian"])
@pytest.mark.parametrize(
    ("sens", "eps", "delta"),
    [(SUM, 0.5, 1e-6), (dp.sensitivity("count"), 1.0, 1e-5), (dp.sensitivity("count"), 5.0, 1e-9)],
)
def test_gaussian_scale_is_opendps_zcdp_conversion(mechanism, sens, eps, delta):
    # the planned sigma is the one OpenDP certifies: rho-zCDP converted to (eps, delta)
    # by CKS20 Corollary 13, computed independently here
    sigma = dp.noise_scale(mechanism, sens, eps, delta=delta)
    assert sigma == pytest.approx(_cks20_sigma(sens.l2, eps, delta), rel=1e-9)
    # never below the analytic optimum of Balle & Wang (the reference)
    assert sigma > dp.gaussian_sigma_analytic(sens.l2, eps, delta)
    with pytest.raises(ValueError, match="needs delta"):
        dp.noise_scale(mechanism, sens, eps)
    with pytest.raises(ValueError, match="needs delta"):
        dp.error_curve(10.0, sens, mechanism=mechanism)
    with pytest.raises(ValueError, match="needs delta"):
        dp.epsilon_for_accuracy(10.0, sens, mechanism=mechanism)


def test_count_gaussian_at_epsilon_1_delta_1e5_hand_values():
    # the figures of issue 12: OpenDP needs sigma 4.045, the analytic optimum is 3.731
    count = dp.sensitivity("count")
    assert dp.noise_scale("gaussian", count, 1.0, delta=1e-5) == pytest.approx(4.0451, abs=1e-4)
    assert dp.gaussian_sigma_analytic(1.0, 1.0, 1e-5) == pytest.approx(3.7306, abs=1e-4)


@pytest.mark.parametrize("delta", [1e-5, 1e-9])
def test_gaussian_sigma_grid_follows_opendp(delta):
    # the plotted curve (interpolated on OpenDP's privacy profile) against the exact
    # calibration, at every fifth epsilon of the grid and for Delta_2 = sqrt 2
    grid = dp.epsilon_grid()[::5]
    curve = dp.opendp_gaussian_sigmas(math.sqrt(2.0), grid, delta)
    exact = [dp.opendp_gaussian_sigma(math.sqrt(2.0), float(e), delta) for e in grid]
    np.testing.assert_allclose(curve, exact, rtol=1e-6)
    # epsilons outside the profile are calibrated one by one
    far = dp.opendp_gaussian_sigmas(1.0, np.array([2000.0]), delta)
    assert far[0] == pytest.approx(dp.opendp_gaussian_sigma(1.0, 2000.0, delta))
    assert dp.opendp_gaussian_epsilon(exact[3], math.sqrt(2.0), delta) == pytest.approx(
        grid[3], rel=1e-9
    )


def test_analytic_gaussian_solves_balle_wang_theorem_8():
    sigma = dp.gaussian_sigma_analytic(100.0, 0.5, 1e-6)

    def phi(x: float) -> float:
        return 0.5 * math.erfc(-x / math.sqrt(2.0))

    a, b = 100.0 / (2 * sigma), 0.5 * sigma / 100.0
    assert phi(a - b) - math.exp(0.5) * phi(-a - b) == pytest.approx(1e-6, rel=1e-6)


def test_classic_gaussian_hand_value():
    # sqrt(2 ln(1.25 / 1e-5)) / 0.5: ln(125000) = 11.736069, sqrt(23.472139) = 4.844805
    assert dp.gaussian_sigma_classic(1.0, 0.5, 1e-5) == pytest.approx(2 * 4.844805, rel=1e-6)


# ------------------------------------------------------------------ accuracy of each mechanism


def test_laplace_error_closed_forms():
    # b = 2: P(|Y| >= t) = e^{-t/2} = 0.05 at t = 2 ln 20 = 5.991465; E|Y| = 2; sd = 2 sqrt 2
    e = dp.noise_error("laplace", 2.0)
    assert e.half_width == pytest.approx(5.991464547107982, rel=1e-12)
    assert math.exp(-e.half_width / 2.0) == pytest.approx(0.05)
    assert e.expected_abs == 2.0
    assert e.std == pytest.approx(2.0 * math.sqrt(2.0))
    assert dp.LAPLACE_95 == pytest.approx(2.995732273553991)  # ln 20
    assert dp.laplace_half_width(1.0) == dp.LAPLACE_95
    assert dp.laplace_half_width(3.0, 0.01) == pytest.approx(3.0 * math.log(100.0))


def test_gaussian_error_closed_forms():
    e = dp.noise_error("gaussian", 4.0)
    assert e.half_width == pytest.approx(Z975 * 4.0, rel=1e-12)
    assert e.expected_abs == pytest.approx(4.0 * math.sqrt(2.0 / math.pi))
    assert e.std == 4.0


@pytest.mark.parametrize("s", [0.7, 2.0, 9.0])
def test_discrete_laplace_error_against_direct_sums(s):
    # P(Y = y) = (1 - r)/(1 + r) r^|y|, r = e^{-1/s}: sum the mass function directly
    r = math.exp(-1.0 / s)
    y = np.arange(-4000, 4001)
    pmf = (1 - r) / (1 + r) * r ** np.abs(y)
    assert pmf.sum() == pytest.approx(1.0)
    e = dp.noise_error("discrete_laplace", s)
    assert e.expected_abs == pytest.approx(float((np.abs(y) * pmf).sum()), rel=1e-9)
    assert e.std == pytest.approx(math.sqrt(float((y * y * pmf).sum())), rel=1e-9)
    # the half-width t solves 2 r^t / (1 + r) = alpha; at the integer above it the
    # summed tail is at most alpha, at the integer below it is above alpha
    tail = lambda k: float(pmf[np.abs(y) >= k].sum())  # noqa: E731
    k_hi = math.ceil(e.half_width)
    assert tail(k_hi) <= 0.05 + 1e-12
    assert tail(k_hi - 1) > 0.05 or k_hi == 0
    assert 2 * r**e.half_width / (1 + r) == pytest.approx(0.05)


@pytest.mark.parametrize("s", [0.3, 1.0, 4.045, 37.5])
def test_discrete_gaussian_error_against_direct_sums(s):
    # P(Y = y) proportional to e^{-y^2 / (2 s^2)} (CKS20): sum the mass function directly
    y = np.arange(-4000, 4001)
    pmf = np.exp(-(y * y) / (2 * s * s))
    pmf /= pmf.sum()
    e = dp.noise_error("discrete_gaussian", s)
    assert e.expected_abs == pytest.approx(float((np.abs(y) * pmf).sum()), rel=1e-9)
    assert e.std == pytest.approx(math.sqrt(float((y * y * pmf).sum())), rel=1e-9)
    # the half-width is the smallest integer k with P(|Y| >= k) <= 5%
    tail = lambda k: float(pmf[np.abs(y) >= k].sum())  # noqa: E731
    k = int(e.half_width)
    assert k == e.half_width
    assert tail(k) <= 0.05 < tail(k - 1)
    assert dp.discrete_gaussian_tail(s, k) == pytest.approx(tail(k), rel=1e-9, abs=1e-300)


def test_discrete_gaussian_half_width_at_the_issues_scale():
    # sigma 4.045: P(|Y| >= 8) = 6.3% > 5% >= P(|Y| >= 9) = 3.5%, so +/- 9 (continuous 7.93)
    assert dp.noise_error("discrete_gaussian", 4.045130358292445).half_width == 9.0
    assert dp.noise_error("gaussian", 4.045130358292445).half_width == pytest.approx(
        7.928, abs=1e-3
    )


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian", "discrete_laplace"])
def test_accuracy_for_epsilon_matches_the_mechanism_formula(mechanism):
    a = dp.accuracy_for_epsilon(0.5, SUM, mechanism=mechanism, delta=1e-6)
    if mechanism == "gaussian":
        sigma = _cks20_sigma(100.0, 0.5, 1e-6)
        assert a == pytest.approx(Z975 * sigma, rel=1e-9)
    elif mechanism == "laplace":
        assert a == pytest.approx(200.0 * math.log(20.0), rel=1e-12)
    else:
        r = math.exp(-1.0 / 200.0)
        assert a == pytest.approx(200.0 * math.log(2.0 / (0.05 * (1.0 + r))), rel=1e-12)


def test_epsilon_grid_is_the_one_log_grid():
    g = dp.epsilon_grid()
    assert g.size == 61
    assert g[0] == pytest.approx(0.01) and g[-1] == pytest.approx(10.0)
    assert np.allclose(g[1:] / g[:-1], 10 ** (3 / 60))  # 3 decades in 60 equal steps
    assert dp.error_curve(5.0, SUM, simulations=2).epsilons.tolist() == g.tolist()


def test_sample_and_aggregate_half_width_is_laplace_95():
    sa = dp.sample_and_aggregate(np.arange(100.0), k=10, bounds=(0, 100), epsilon=0.5)
    assert sa.scale == pytest.approx(100.0 / (10 * 0.5))
    assert sa.half_width == pytest.approx(20.0 * math.log(20.0))


# ------------------------------------------------------------------ validators


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: check_epsilon(0), ValueError, r"^epsilon must be positive and finite, got 0$"),
        (lambda: check_epsilon(math.inf), ValueError, r"^epsilon must be positive and finite"),
        (lambda: check_epsilon(math.nan), ValueError, r"^epsilon must be positive and finite"),
        (lambda: check_epsilon("1"), TypeError, r"^epsilon must be a real number, got '1'$"),
        (lambda: check_epsilon(True), TypeError, r"^epsilon must be a real number, got True$"),
        (lambda: check_delta(1.0), ValueError, r"^delta must be strictly between 0 and 1, got 1.0"),
        (lambda: check_delta(0), ValueError, r"^delta must be strictly between 0 and 1, got 0$"),
        (lambda: check_probability("rho", -0.1), ValueError, r"^rho must be strictly between"),
        (lambda: check_positive("l2", 0.0), ValueError, r"^l2 must be positive, got 0.0$"),
        (lambda: check_positive("l2", math.inf), ValueError, r"^l2 must be finite, got inf$"),
        (lambda: check_positive("l2", None), TypeError, r"^l2 must be a real number, got None$"),
        (lambda: check_positive_int("k", 0), ValueError, r"^k must be an integer >= 1, got 0$"),
        (lambda: check_positive_int("k", 2.0), TypeError, r"^k must be an integer, got 2.0$"),
        (
            lambda: check_positive_int("m", 1, minimum=2),
            ValueError,
            r"^m must be an integer >= 2, got 1$",
        ),
        (
            lambda: check_bounds("bounds", (5, 5)),
            ValueError,
            r"^bounds must be finite with L < U, got \(5, 5\)$",
        ),
        (lambda: check_bounds("bounds", 5), TypeError, r"^bounds must be a pair \(L, U\), got 5$"),
        (
            lambda: check_one_of("accounting", "rdp", ("basic", "zcdp")),
            ValueError,
            r"^accounting must be one of 'basic', 'zcdp', got 'rdp'$",
        ),
    ],
)
def test_validators_refuse_with_the_bad_value(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_validators_return_plain_values():
    assert check_epsilon(np.float64(0.5)) == 0.5 and type(check_epsilon(np.float64(0.5))) is float
    assert check_positive_int("k", np.int64(3)) == 3
    assert check_bounds("b", (0, 1)) == (0.0, 1.0)
    assert check_delta(1e-6) == 1e-6


@pytest.mark.parametrize(
    "call",
    [
        lambda: dp.composition_curves(-1.0, 3),
        lambda: dp.PrivacyLedger(0.0),
        lambda: dp.PrivacyLedger(1.0, accounting="rdp"),
        lambda: dp.gaussian_sigma_analytic(1.0, 1.0, 1.5),
        lambda: dp.gaussian_sigma_classic(0.0, 0.5, 1e-5),
        lambda: dp.opendp_gaussian_sigma(1.0, 0.0, 1e-5),
        lambda: dp.gaussian_epsilon(1.0, -1.0, 1e-5),
        lambda: dp.opendp_gaussian_epsilon(0.0, 1.0, 1e-5),
        lambda: dp.sample_and_aggregate([1.0] * 20, k=2, bounds=(3, 1), epsilon=1.0),
        lambda: dp.identifiability_epsilon(1, 0.5),
        lambda: ldp.grr_probabilities(0.0, 3),
    ],
)
def test_dp_uses_the_validators(call):
    with pytest.raises(ValueError, match=r"got "):
        call()


# ------------------------------------------------------------------ JSON round trips


def _round_trip(result):
    text = dumps(result)
    back = type(result).from_dict(json.loads(text))
    assert dumps(back) == text
    return back


def test_every_dp_result_round_trips_through_strict_json():
    rng = np.random.default_rng(1)
    results = [
        dp.sensitivity("mean", bounds=(0, 10), n=4),
        dp.noise_error("discrete_laplace", 3.0),
        dp.error_curve(0.0, SUM, mechanism="gaussian", delta=1e-6, simulations=5),  # NaN rel
        dp.clipping_tradeoff(
            rng.normal(50, 10, 200), lower=0.0, uppers=np.array([60.0, 90.0]), epsilon=1.0
        ),
        dp.composition_curves(0.5, 4),
        dp.PrivacyLedger(2.0).charge(dp.LedgerEntry("a count", "laplace", 0.5, groups=3)),
        dp.identifiability(0.4, world_values=[1.0, 2.0, 5.0, 9.0]),
        dp.sample_and_aggregate(np.arange(60.0), k=6, bounds=(0, 60), epsilon=1.0),
        ldp.grr_simulate(pd.Series(list("aabbbc") * 20, name="x"), 1.0),
        ldp.laplace_ldp_simulate(np.arange(40.0), 1.0, bounds=(0, 40)),
    ]
    for result in results:
        _round_trip(result)
    curve = _round_trip(results[2])
    assert curve.mechanism is Mechanism.GAUSSIAN and np.isnan(curve.relative).all()
    ledger = _round_trip(results[5])
    assert ledger == results[5]
    assert ledger.entries[0].rho == pytest.approx(0.125)  # epsilon^2 / 2 filled in


def test_release_results_round_trip_and_carry_the_ledger():
    from riskcore.dp.release import Query, release, release_sample_aggregate

    data = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "g": list("abab")})
    ledger = dp.PrivacyLedger(5.0)
    q = Query("sum", column="x", bounds=(0, 5), filters=(("g", ("a",)),))
    r = release(data, q, epsilon=1.0, mechanism=Mechanism.LAPLACE, ledger=ledger)
    assert r.ledger is not None and r.ledger.entries == (r.entry,)
    assert r.entry.epsilon == r.epsilon and r.entry.mechanism == "laplace"
    back = _round_trip(r)
    assert back == r and back.ledger is None  # the ledger stays out of JSON
    assert back.query == q
    sa = dp.sample_and_aggregate(np.arange(60.0), k=6, bounds=(0, 60), epsilon=0.5)
    out = release_sample_aggregate(sa, ledger=r.ledger)
    assert out.ledger is not None and out.ledger.entries == (r.entry, out.entry)
    assert _round_trip(out) == out
    with pytest.raises(ValueError, match=r"^unknown mechanism 'gauss'"):
        release(data, q, epsilon=1.0, mechanism="gauss", ledger=ledger)  # type: ignore[arg-type]


# ------------------------------------------------------------------ import weight


@pytest.mark.parametrize("module", ["riskcore.dp", "riskcore.dp.release", "riskcore.dp.local"])
def test_importing_dp_loads_neither_scipy_nor_opendp(module):
    code = (
        f"import sys, {module}\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('scipy', 'opendp'))\n"
        "print(','.join(heavy))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert out.stdout.strip() == ""
