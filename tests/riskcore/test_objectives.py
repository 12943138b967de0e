"""Every objective of the search against values worked by hand on a four-row table.

The definitions are ARX's (org.deidentifier.arx.metric.v2): MetricMDNMLoss
(share of the hierarchy's domain, normalized per QI, arithmetic or geometric
mean), MetricSDAECS, MetricSDNMDiscernability, MetricSDDiscernability (DM*),
MetricMDNUEntropyPrecomputed; NCP is Xu et al. 2006, precision Sweeney 2002
and C_avg LeFevre et al. 2006.

The table: rows (x, p), (x, p), (y, q), (z, q). QI a has the hierarchy
x, y -> "xy", z -> "z", then "*" (D = 3 leaves); QI b is flat: p, q -> "*"
(D = 2). The node (1, 0) groups the records into (xy, p) x 2, (xy, q) x 1,
(z, q) x 1.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import grouping_hierarchy
from riskcore.deidentify.search.lattice import Lattice
from riskcore.deidentify.search.steering import Steering
from riskcore.errors import RiskcoreError
from riskcore.utility.loss import OBJECTIVES, check_objective

ENTROPY_A = 2 * math.log2(3 / 2) + math.log2(3)  # x: 2 records of 3 "xy"; y: 1 of 3; z: 1 of 1


def _lattice(targets: Targets, steering: Steering | None = None) -> Lattice:
    df = pd.DataFrame({"a": ["x", "x", "y", "z"], "b": ["p", "p", "q", "q"]})
    hiers = {
        "a": grouping_hierarchy(df["a"], [{"x": "xy", "y": "xy", "z": "z"}]),
        "b": grouping_hierarchy(df["b"], []),
    }
    return Lattice(df, hiers, targets=targets, steering=steering)


def test_every_objective_without_suppression_by_hand():
    node = _lattice(Targets.of(k=1)).evaluate([1, 0])
    assert node.suppressed == 0 and node.all_classes == 3
    # ARX's Loss of a: shares 2/3 (x, y under "xy") and 1/3 (z): sum 3 * 2/3 + 1/3 = 7/3;
    # normalized (7/3 - n/D) / (n - n/D) = (7/3 - 4/3) / (4 - 4/3) = 3/8. Of b at level 0:
    # shares 1/2 sum to 2 = n/D: 0.
    assert node.loss_arithmetic == pytest.approx((3 / 8 + 0) / 2)
    assert node.loss_geometric == pytest.approx(math.sqrt((1 + 3 / 8) * 1) - 1)
    assert node.aecs == pytest.approx(4 / 3)  # three classes, nothing suppressed
    assert node.dm_star == 2**2 + 1 + 1
    assert node.discernibility == 6
    assert node.entropy == pytest.approx(ENTROPY_A)
    assert node.avg_class_size == pytest.approx(4 / 3 / 1)  # C_avg divides by k = 1
    # NCP of a at level 1: "xy" covers 2 of the 3 values: (2 - 1) / (3 - 1) = 1/2 for 3 cells
    assert node.ncp == pytest.approx(3 * 0.5 / 8)
    # a's hierarchy has height 2 (x -> xy -> *): level 1 is half its height; b is at 0
    assert node.precision == pytest.approx((1 / 2 + 0) / 2)


def test_every_objective_with_suppression_by_hand():
    node = _lattice(Targets.of(k=2, max_suppression=0.5)).evaluate([1, 0])
    # the two classes of one record are suppressed: 2 of 4 records, within 50%
    assert node.anonymous and node.suppressed == 2 and node.n_classes == 1
    # Loss of a: released 2 x 2/3 + suppressed 2 x 1 = 10/3 -> (10/3 - 4/3) / (8/3) = 3/4;
    # of b: released 2 x 1/2 + 2 = 3 -> (3 - 2) / (4 - 2) = 1/2
    assert node.loss_arithmetic == pytest.approx((3 / 4 + 1 / 2) / 2)
    assert node.loss_geometric == pytest.approx(math.sqrt((7 / 4) * (3 / 2)) - 1)
    # AECS: n / (released classes + 1 for the suppressed records) = 4 / 2
    assert node.aecs == pytest.approx(2.0)
    assert node.dm_star == 6  # suppression ignored
    assert node.discernibility == 2**2 + 2 * 4  # a suppressed record costs n
    assert node.entropy == pytest.approx(ENTROPY_A)  # suppression ignored (precomputed)
    assert node.avg_class_size == pytest.approx((2 / 1) / 2)  # LeFevre's C_avg: / k = 2
    # NCP: a's cells 2 x 1/2 + 2 suppressed x 1, b's 0 + 2: (1 + 2 + 2) / 8
    assert node.ncp == pytest.approx(5 / 8)
    # precision: a at level 1 of 2, b at 0: ((4 - 2) * (1/2 + 0) + 2 * 2) / 8
    assert node.precision == pytest.approx(5 / 8)


def test_weights_follow_arx_for_arx_metrics_and_a_weighted_mean_for_ncp():
    node = _lattice(
        Targets.of(k=2, max_suppression=0.5), Steering(weights={"a": 2.0, "b": 1.0})
    ).evaluate([1, 0])
    # ARX divides the weights by their largest: a 1, b 1/2
    assert node.loss("loss") == pytest.approx((1 * 3 / 4 + 0.5 * 1 / 2) / 2)
    assert node.loss("loss_geometric") == pytest.approx(
        math.sqrt((1 + 3 / 4) * (1 + 0.5 * 1 / 2)) - 1
    )
    assert node.loss("entropy") == pytest.approx(ENTROPY_A)
    # NCP per QI: a (1 + 2) / 4 = 3/4, b (0 + 2) / 4 = 1/2; weighted mean (2 * 3/4 + 1/2) / 3
    assert node.loss("ncp") == pytest.approx(2 / 3)
    assert node.loss("precision") == pytest.approx((2 * (2 * 0.5 + 2) / 4 + 1 * 2 / 4) / 3)
    # single-dimensional objectives ignore the weights
    assert node.loss("aecs") == node.aecs and node.loss("dm_star") == node.dm_star


def test_the_objectives_are_listed_with_labels_and_sources():
    assert set(OBJECTIVES) == {
        "ncp",
        "precision",
        "loss",
        "loss_geometric",
        "aecs",
        "discernibility",
        "dm_star",
        "entropy",
    }
    for info in OBJECTIVES.values():
        assert info.label and info.source
    with pytest.raises(RiskcoreError, match=r"^unknown objective 'kl': one of 'ncp'"):
        check_objective("kl")
