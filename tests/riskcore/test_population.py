"""Population uniqueness models: exact limits and a simulation with known truth."""

from __future__ import annotations

import math

import numpy as np
import pytest

from riskcore.demo import make_people
from riskcore.engine import EncodedTable
from riskcore.metrics import Population, assess
from riskcore.metrics.population import (
    _shlosser_k,
    population_uniqueness,
    snb_uniques,
    zayatz_uniques,
)


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
    assert r.model == ("Pitman" if pi <= 0.1 else r.model)
    assert r.model in ("Pitman", "Zayatz", "SNB")
    assert not math.isnan(r.uniques)
    # these models are estimates; within a factor of 3 of the truth on this population
    assert true_uniques / 3 < r.uniques < true_uniques * 3
    assert r.uniqueness == pytest.approx(r.uniques / r.population_size)


def test_assessment_reports_population_uniqueness():
    df = make_people(5000, seed=2)
    a = assess(
        df, quasi_identifiers=["age", "sex", "race"], population=Population(sampling_fraction=0.05)
    )
    d = a.to_dict()
    assert d["population_uniqueness"]["model"] in ("Pitman", "Zayatz")
    assert d["journalist"]["success_rate"] <= d["prosecutor"]["success_rate"]


def test_bad_sampling_fraction():
    with pytest.raises(ValueError, match=r"^sampling_fraction must be in \(0, 1\], got 0$"):
        population_uniqueness(np.array([1, 2]), 0)
