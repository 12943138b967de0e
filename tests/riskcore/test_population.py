"""Population uniqueness models: exact limits and a simulation with known truth."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from riskcore._results import dumps
from riskcore.demo import make_people
from riskcore.engine import EncodedTable
from riskcore.metrics import Population, assess
from riskcore.metrics.population import (
    PopulationUniqueness,
    _shlosser_k,
    pitman_uniques,
    population_uniqueness,
    snb_uniques,
    zayatz_uniques,
)

# A sample class-size histogram (size -> number of classes) used by the
# independent checks below: n = 60*1 + 20*2 + 8*3 + 4*4 + 2*6 + 1*10 = 162.
HISTOGRAM = {1: 60, 2: 20, 3: 8, 4: 4, 6: 2, 10: 1}
SIZES = np.repeat(list(HISTOGRAM), list(HISTOGRAM.values()))


def test_full_sample_zayatz_equals_sample_uniques():
    # pi = 1: the hypergeometric H(1; n, i, n) is 1 for i = 1 and 0 otherwise,
    # so every sample unique is a population unique.
    sizes = np.array([1, 1, 1, 2, 3, 5])
    assert zayatz_uniques(sizes, 1.0) == pytest.approx(3.0)
    assert snb_uniques(sizes, 1.0) == 3.0


def test_no_sample_uniques_means_no_estimate_of_uniques():
    sizes = np.array([2, 3, 4])
    r = population_uniqueness(sizes, 0.2)
    assert r.sample_uniques == 0
    assert r.zayatz == 0.0 and r.pitman == 0.0 and r.snb == 0.0


def test_shlosser_hand_example():
    # c_1 = 2, c_2 = 1, f = 0.5: u = 3;
    # var1 = 1*.25*1*2 + 2*.25*.75*1 = 0.875; var2 = (.75-.5)*2 + (.5625-.25)*1 = 0.8125
    # var3 = .5*2 + .25*1 = 1.25; var4 = 1*.5*1*2 + 2*.5*.5*1 = 1.5
    # K = 3 + 2 * (0.875/0.8125) * (1.25/1.5)^2
    i, c = np.array([1.0, 2.0]), np.array([2.0, 1.0])
    assert _shlosser_k(i, c, 0.5) == pytest.approx(3 + 2 * (0.875 / 0.8125) * (1.25 / 1.5) ** 2)


@pytest.fixture(scope="module")
def population():
    pop = make_people(300_000, seed=11)
    part = EncodedTable(pop).partition(["age", "sex", "race", "education"])
    return part


@pytest.mark.parametrize("pi", [0.05, 0.3])
def test_dankar_estimate_tracks_the_true_population_uniques(population, pi):
    true_uniques = int((population.sizes == 1).sum())
    rng = np.random.default_rng(7)
    keep = rng.random(population.n_records) < pi
    _, sizes = np.unique(population.class_id[keep], return_counts=True)
    r = population_uniqueness(sizes, float(keep.mean()))
    # Dankar et al. (2012): pi <= 0.1 -> Pitman; otherwise the smaller of Zayatz and SNB
    if pi <= 0.1:
        assert r.model == "Pitman" and r.uniques == r.pitman
    else:
        expected = min((r.zayatz, "Zayatz"), (r.snb, "SNB"))
        assert (r.uniques, r.model) == expected
    assert not math.isnan(r.uniques)
    # these models are estimates; within a factor of 3 of the truth on this population
    assert true_uniques / 3 < r.uniques < true_uniques * 3
    assert r.uniqueness == pytest.approx(r.uniques / r.population_size)


def test_assessment_reports_population_uniqueness():
    df = make_people(5000, seed=2)
    a = assess(
        df,
        quasi_identifiers=["age", "sex", "race"],
        population_model=Population(sampling_fraction=0.05),
    )
    d = a.to_dict()
    assert d["population_uniqueness"]["model"] in ("Pitman", "Zayatz")
    assert d["journalist"]["success_rate"] <= d["prosecutor"]["success_rate"]


def test_bad_sampling_fraction():
    with pytest.raises(ValueError, match=r"^sampling_fraction must be in \(0, 1\], got 0$"):
        population_uniqueness(np.array([1, 2]), 0)


def test_zayatz_against_the_hypergeometric_written_with_binomials():
    # H(1; N, i, n) = C(i, 1) C(N - i, n - 1) / C(N, n), written out with math.comb.
    pi = 0.25
    n = int(SIZES.sum())
    big_n = round(n / pi)

    def h(i: int) -> float:
        return i * math.comb(big_n - i, n - 1) / math.comb(big_n, n)

    u = sum(HISTOGRAM.values())
    c1 = HISTOGRAM[1]
    p_unique = (c1 / u) * h(1) / sum(c / u * h(i) for i, c in HISTOGRAM.items())
    assert zayatz_uniques(SIZES, pi) == pytest.approx(c1 * p_unique / pi, rel=1e-9)


def test_pitman_against_a_direct_maximisation_of_the_sampling_formula():
    # Pitman's sampling formula (Hoshino 2001, eq. 2): the probability of a
    # sample with u classes of sizes f_j is
    #   prod_{i=1}^{u-1} (theta + i alpha) / prod_{i=1}^{n-1} (theta + i)
    #   * prod_j prod_{m=1}^{f_j - 1} (m - alpha).
    # Maximise its logarithm numerically (no score equations) and plug the
    # estimates into Gamma(theta + 1) / Gamma(theta + alpha) N^alpha.
    from scipy import optimize, special

    n, u = int(SIZES.sum()), len(SIZES)
    within = np.concatenate([np.arange(1, f) for f in SIZES if f > 1])

    def minus_log_likelihood(x: np.ndarray) -> float:
        theta, alpha = x
        if not 0 < alpha < 1 or theta <= -alpha:
            return 1e300
        return -float(
            np.log(theta + alpha * np.arange(1, u)).sum()
            - np.log(theta + np.arange(1, n)).sum()
            + np.log(within - alpha).sum()
        )

    best = optimize.minimize(
        minus_log_likelihood,
        x0=[50.0, 0.5],
        method="Nelder-Mead",
        options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 20_000},
    )
    theta, alpha = best.x
    pi = 0.05
    expected = math.exp(
        special.gammaln(theta + 1) - special.gammaln(theta + alpha) + alpha * math.log(n / pi)
    )
    assert pitman_uniques(SIZES, pi) == pytest.approx(expected, rel=1e-4)


def test_pitman_survives_a_histogram_whose_moment_start_divides_by_zero():
    # three uniques and one class of 4: n = 7, u = 4, c_1 = 3, c_2 = 0 (read as 1), so
    # c_1 (c_1 - 1) / c_2 = 6 and ARX's start (theta_0) has 2 c_1 u + 6 c_1 - 6 n = 0 below
    # its line; the other starts are tried (a ZeroDivisionError ended assess before)
    value = pitman_uniques(np.array([1, 1, 1, 4]), 0.1)
    assert math.isnan(value) or 0 <= value <= 70
    table = pd.DataFrame({"q": ["a", "b", "c", "d", "d", "d", "d"]})
    a = assess(table, quasi_identifiers=["q"], population_model=Population(sampling_fraction=0.1))
    assert a.to_dict()["population_uniqueness"]["model"]


def test_snb_against_probabilities_summed_directly_from_the_model():
    # SNB (Chen & Keller-McNulty 1998): population class size F = 1 + X,
    # X ~ NegBin(alpha, beta); each record kept with probability f. Compute
    # P(sample count = k) = sum_x P(X = x) Binom(k; 1 + x, f) by direct
    # summation (no generating function), solve K P(1) = c_1, K P(2) = c_2
    # for (alpha, beta) and return K beta^alpha.
    from scipy import optimize, special, stats

    f = 0.1
    i = np.array(list(HISTOGRAM), dtype=float)
    c = np.array(list(HISTOGRAM.values()), dtype=float)
    k = _shlosser_k(i, c, f)
    x = np.arange(0, 20_000)

    def sample_count_probability(alpha: float, beta: float, count: int) -> float:
        return float((stats.nbinom.pmf(x, alpha, beta) * stats.binom.pmf(count, x + 1, f)).sum())

    def equations(z: np.ndarray) -> list[float]:
        alpha, beta = math.exp(z[0]), float(special.expit(z[1]))
        return [
            k * sample_count_probability(alpha, beta, 1) / HISTOGRAM[1] - 1,
            k * sample_count_probability(alpha, beta, 2) / HISTOGRAM[2] - 1,
        ]

    z = optimize.fsolve(equations, x0=[0.0, 0.0], xtol=1e-12)
    assert max(abs(e) for e in equations(z)) < 1e-8
    alpha, beta = math.exp(z[0]), float(special.expit(z[1]))
    assert snb_uniques(SIZES, f) == pytest.approx(k * beta**alpha, rel=1e-5)


def test_population_uniqueness_round_trips_through_strict_json():
    import json

    r = population_uniqueness(SIZES, 0.3)
    back = PopulationUniqueness.from_dict(json.loads(dumps(r.to_dict())))
    assert back == r
    assert r.to_dict()["schema_version"] == 1


def test_a_failed_model_is_written_as_null_and_read_back_as_nan():
    import json

    r = PopulationUniqueness(
        sampling_fraction=0.5,
        population_size=8.0,
        sample_uniques=2,
        zayatz=1.0,
        pitman=float("nan"),
        snb=float("nan"),
        model="Zayatz",
        uniques=1.0,
        uniqueness=0.125,
    )
    text = dumps(r.to_dict())
    assert '"pitman": null' in text
    back = PopulationUniqueness.from_dict(json.loads(text))
    assert math.isnan(back.pitman) and back.zayatz == 1.0


def test_population_models_load_scipy_only_when_called():
    import subprocess
    import sys

    code = (
        "import sys, riskcore.metrics.population as p\n"
        "print('before', 'scipy' in sys.modules)\n"
        "p.population_uniqueness([1, 1, 2, 3], 0.5)\n"
        "print('after', 'scipy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["before", "False", "after", "True"]


@pytest.mark.parametrize(
    ("big_n", "n"), [(100_000, 30_162), (500_000, 30_162), (1000, 50), (10, 3)]
)
def test_one_drawn_is_the_hypergeometric_probability_in_exact_arithmetic(big_n, n):
    from fractions import Fraction

    from riskcore.metrics.population import one_drawn

    sizes = np.array([1, 2, 7, 50, big_n - n + 1, big_n - n + 2])
    sizes = sizes[(sizes >= 1) & (sizes <= big_n)]
    got = one_drawn(big_n, sizes, n)
    for i, value in zip(sizes, got, strict=True):
        exact = float(Fraction(int(i) * math.comb(big_n - int(i), n - 1), math.comb(big_n, n)))
        # a sum of up to i logarithms: about 1e-15 each (1e-13 in a tail of 1e-82)
        assert value == pytest.approx(exact, rel=1e-12, abs=1e-300), (big_n, n, i)


def test_population_of_chooses_the_model_in_one_place():
    """``Population.of`` is the one choice of population model (issue 40): weights first (the
    fraction then unused), else the fraction, else none; a bad fraction is refused as the class
    refuses it."""
    assert Population.of(weights="w", sampling_fraction=0.25) == Population(weights="w")
    assert Population.of(sampling_fraction=0.25) == Population(sampling_fraction=0.25)
    assert Population.of() is None
    with pytest.raises(ValueError, match="sampling_fraction"):
        Population.of(sampling_fraction=1.5)


def test_no_consumer_chooses_the_population_model_itself():
    """The command line, the review, the records criteria and the pages build the model through
    ``Population.of`` only, never by their own if / else over weights and fraction."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    own = re.compile(r"\bPopulation\(\s*(weights|sampling_fraction)=")
    found = [
        str(path.relative_to(root))
        for folder in ("riskcore", "ui", "pages")
        for path in sorted((root / folder).rglob("*.py"))
        if path.name != "population_model.py" and own.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []
