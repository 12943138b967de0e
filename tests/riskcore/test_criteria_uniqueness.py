"""Sample and population uniqueness and the average risk as targets, and ARX's enforcement.

ARX 3.9.2's risk-based criteria (``SampleUniqueness``, ``PopulationUniqueness``,
``AverageReidentificationRisk``) are whole-release conditions that a release judged with
suppression meets by suppressing its smallest classes (``HashGroupifyDistribution
.suppressWhileNotFulfilledBinary``). The hand-worked table has classes of 1, 1, 2, 3 and 3
records (n = 10): 2 sample uniques (0.2 of the records), 5 classes (average risk 5/10).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from riskcore.cli import main
from riskcore.criteria import (
    AverageRisk,
    KAnonymity,
    PopulationUniqueness,
    SampleUniqueness,
    Targets,
    evaluate,
)
from riskcore.errors import RiskcoreError
from riskcore.metrics import assess
from riskcore.metrics.population import pitman_uniques, snb_uniques, zayatz_uniques

TABLE = pd.DataFrame({"q": ["a", "b", "c", "c", "d", "d", "d", "e", "e", "e"]})


def _evidence(df=TABLE):
    return assess(df, quasi_identifiers=["q"]).evidence


def _verdict(criteria, limit, df=TABLE):
    return evaluate(Targets(criteria=tuple(criteria), max_suppression=limit), _evidence(df),
                    suppress=True)  # fmt: skip


def test_sample_uniqueness_by_hand_at_its_boundary():
    (at,) = evaluate([SampleUniqueness(threshold=0.2)], _evidence()).checks
    assert at.passed and at.achieved == pytest.approx(0.2)
    (below,) = evaluate([SampleUniqueness(threshold=0.19)], _evidence()).checks
    assert not below.passed and below.failing_classes == 0  # no class breaks it alone


def test_a_release_meets_a_uniqueness_target_by_suppressing_its_smallest_classes():
    # threshold 0.12, limit 10% (1 record): suppress one unique, 1 of 9 = 0.111 <= 0.12
    v = _verdict([SampleUniqueness(threshold=0.12)], 0.1)
    assert v.passed and v.suppressed == 1 and v.released == 9
    # threshold 0.1 needs both uniques out (1/9 > 0.1): 2 records, above the 10% limit
    v = _verdict([SampleUniqueness(threshold=0.1)], 0.1)
    assert not v.passed and v.suppressed == 0
    v = _verdict([SampleUniqueness(threshold=0.0)], 0.2)  # both: 0 of 8 unique
    assert v.passed and v.suppressed == 2


def test_the_average_risk_is_met_by_suppressing_the_fewest_smallest_classes():
    # 5 classes of 10 records: 0.5; without one unique 4/9 = 0.444; without both 3/8 = 0.375
    v = _verdict([AverageRisk(threshold=0.4)], 0.3)
    assert v.passed and v.suppressed == 2
    (check,) = v.checks
    assert check.achieved == pytest.approx(3 / 8)
    v = _verdict([AverageRisk(threshold=0.45)], 0.3)
    assert v.passed and v.suppressed == 1
    v = _verdict([AverageRisk(threshold=0.3)], 0.3)  # 2/6 = 0.333 after 4 records: above
    assert not v.passed
    # with k: the classes k fails go first, then the smallest of the rest
    v = _verdict([KAnonymity(k=2), AverageRisk(threshold=0.34)], 0.5)
    assert v.passed and v.suppressed == 4  # a, b (k), then c (2 records): 2 classes of 6


def _least_prefix_by_scan(sizes: np.ndarray, failing: np.ndarray, ok, most: float) -> int | None:
    """The fewest of the smallest classes left whose suppression makes ``ok`` hold (a scan)."""
    left = [j for j in np.argsort(sizes, kind="stable") if not failing[j]]
    for m in range(len(left) + 1):
        gone = set(left[:m]) | set(np.flatnonzero(failing))
        if sum(sizes[j] for j in gone) > most:
            return None
        if ok([sizes[j] for j in range(len(sizes)) if j not in gone]):
            return m
    return None


def test_the_binary_search_finds_the_least_prefix_a_linear_scan_finds():
    r = np.random.default_rng(5)
    for case in range(60):
        n = int(r.integers(8, 60))
        df = pd.DataFrame({"q": r.integers(0, int(r.integers(3, 25)), n).astype(str)})
        tau, limit = float(r.choice([0.05, 0.1, 0.2, 0.4])), float(r.choice([0.05, 0.2, 0.5]))
        ev = _evidence(df)
        sizes = ev.records
        v = evaluate(Targets(criteria=(SampleUniqueness(tau),), max_suppression=limit), ev,
                     suppress=True)  # fmt: skip

        def ok(kept: list[int], tau: float = tau) -> bool:
            return not kept or sum(s for s in kept if s == 1) / sum(kept) <= tau + 1e-12

        m = _least_prefix_by_scan(sizes, np.zeros(len(sizes), bool), ok, limit * n + 1e-9)
        if m is None:
            assert not v.passed or v.suppressed == 0, case
        else:
            expected = int(np.sort(sizes, kind="stable")[:m].sum())
            assert v.suppressed == expected and v.passed == (expected < n), case


def test_population_uniqueness_by_its_estimators_and_arx_s_decision():
    r = np.random.default_rng(0)  # a long-tailed table: every model has an estimate
    df = pd.DataFrame({"q": np.minimum(r.zipf(1.6, 1000), 400).astype(str)})
    ev = _evidence(df)
    sizes = ev.records
    big_n = 1000 / 0.05
    u = {"zayatz": zayatz_uniques(sizes, 0.05), "pitman": pitman_uniques(sizes, 0.05),
         "snb": snb_uniques(sizes, 0.05)}  # fmt: skip
    u["dankar"] = u["pitman"]  # pi = 0.05 <= 0.1: Dankar et al. take Pitman
    for model, value in u.items():
        assert value > 0, model
        at = PopulationUniqueness(threshold=value / big_n, population_size=big_n, model=model)
        (check,) = evaluate([at], ev).checks
        assert check.passed and check.achieved == pytest.approx(value / big_n), model
        below = PopulationUniqueness(threshold=0.99 * value / big_n, population_size=big_n,
                                     model=model)  # fmt: skip
        assert not evaluate([below], ev).passed, model
    # a sampling fraction fixes N = n / pi on the table before suppression
    by_fraction = PopulationUniqueness(threshold=0.001, sampling_fraction=0.05)
    by_size = PopulationUniqueness(threshold=0.001, population_size=big_n)
    for limit in (0.0, 0.3):
        a = evaluate(Targets(criteria=(by_fraction,), max_suppression=limit), ev, suppress=True)
        b = evaluate(Targets(criteria=(by_size,), max_suppression=limit), ev, suppress=True)
        assert (a.passed, a.suppressed) == (b.passed, b.suppressed)
        assert a.checks[0].achieved == pytest.approx(b.checks[0].achieved)


def test_population_uniqueness_without_sample_uniques_passes_and_a_failed_model_fails():
    no_uniques = pd.DataFrame({"q": ["a", "a", "b", "b", "b"]})
    crit = PopulationUniqueness(threshold=0.0, population_size=100)
    assert evaluate([crit], _evidence(no_uniques)).passed
    # all sample uniques: Pitman has no admissible solution (u = n), so U = 0 with uniques
    all_unique = pd.DataFrame({"q": [str(i) for i in range(20)]})
    assert np.isnan(pitman_uniques(np.ones(20), 0.01))
    pitman = PopulationUniqueness(threshold=1.0, population_size=2000, model="pitman")
    v = evaluate([pitman], _evidence(all_unique))
    assert not v.passed and "gives no estimate" in v.checks[0].note


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: PopulationUniqueness(threshold=0.1), "population size or the sampling fraction"),
        (
            lambda: PopulationUniqueness(threshold=0.1, population_size=10, sampling_fraction=0.1),
            "one of them",
        ),
        (lambda: PopulationUniqueness(threshold=0.1, population_size=10, model="x"), "dankar"),
        (lambda: SampleUniqueness(threshold=1.5), r"must lie in \[0, 1\]"),
    ],
)
def test_bad_uniqueness_targets_are_refused(make, message):
    with pytest.raises(RiskcoreError, match=message):
        make()


def _cli(tmp_path, capsys, *extra):
    path = tmp_path / "t.csv"
    TABLE.to_csv(path, index=False)
    code = main(["assess", str(path), "--qi", "q", "--format", "json", *extra])
    return code, capsys.readouterr()


def test_the_command_line_takes_the_risk_models(tmp_path, capsys):
    code, out = _cli(tmp_path, capsys, "--k", "1", "--sample-uniqueness", "0.2",
                     "--average-risk", "0.5", "--population-uniqueness", "0.5",
                     "--population-size", "100", "--population-model", "zayatz")  # fmt: skip
    assert code == 0, out.err
    checks = json.loads(out.out)["verdict"]["checks"]
    assert [(c["kind"], c["passed"]) for c in checks] == [
        ("sample-uniqueness", True),
        ("population-uniqueness", True),
        ("average-risk", True),
    ]
    for bad, message in (
        (["--population-uniqueness", "0.1"], "give --population-size N or --sampling-fraction"),
        (["--population-size", "100"], "go with --population-uniqueness"),
        (["--sample-uniqueness", "2"], "--sample-uniqueness must be a share"),
    ):
        code, out = _cli(tmp_path, capsys, *bad)
        assert code != 0 and message in out.err, bad
