"""The least-loss search against an exhaustive scan; ties, steering, removed columns, size limit.

The exhaustive scan evaluates every node and picks the optimum by the rule
written out here (least loss within 1e-12 relative, then fewer suppressed
records, a larger smallest class, lower discernibility, the smaller levels),
independently of the search's pruning.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riskcore.criteria import DistinctLDiversity, KAnonymity, KMap, Targets, TCloseness
from riskcore.criteria.base import REGISTRY
from riskcore.deidentify.hierarchy import Hierarchy, grouping_hierarchy
from riskcore.deidentify.search.lattice import Lattice
from riskcore.deidentify.search.run import greedy_search, search
from riskcore.deidentify.search.steering import MAX_NODES, Steering
from riskcore.errors import RiskcoreError
from riskcore.utility.loss import OBJECTIVES
from tests.riskcore.cases import draw_qi_table

#: The sensitive attribute's hierarchy (values x, y, z of ``draw_qi_table``) for the
#: hierarchical t-closeness: x and y are siblings, z meets them at the top.
S_HIERARCHY = (("x", "xy", "*"), ("y", "xy", "*"), ("z", "z", "*"))


def _reference(lat, objective):
    """The optimum of a full scan of the nodes within the bounds, by the documented rule."""
    every = [lat.evaluate(node) for node in lat.nodes()]
    ok = [r for r in every if r.anonymous]
    if not ok:
        return None, every
    low = min(r.loss(objective) for r in ok)
    tied = [r for r in ok if abs(r.loss(objective) - low) <= 1e-12 * abs(low) + 1e-15]
    tied.sort(key=lambda r: (r.suppressed, -r.k, r.discernibility, r.levels))
    return tied[0], every


@st.composite
def small_tables(draw):
    cols, hiers = draw_qi_table(draw)
    kind = draw(
        st.sampled_from(
            ["k", "distinct", "entropy", "recursive", "t", "risk", "avg", "beta", "enhanced",
             "delta-disclosure", "beta-alone", "sample", "population", "t-hierarchical",
             "enhanced-input", "delta-input"]
        )
    )  # fmt: skip
    k = draw(st.integers(1, 4))
    sup = draw(st.sampled_from([0.0, 0.1, 0.3]))
    targets = {
        "k": Targets.of(k=k, max_suppression=sup),
        "distinct": Targets.of(k=k, l=2, max_suppression=sup),
        "entropy": Targets.of(k=k, l=1.5, l_kind="entropy", max_suppression=sup),
        "recursive": Targets.of(l=2, l_kind="recursive", c=2.0, max_suppression=sup),
        "t": Targets.of(k=k, t=0.4, max_suppression=sup),
        "risk": Targets.of(threshold=0.5, max_suppression=sup),
        "avg": Targets.of(k=k, average_risk=0.4, max_suppression=sup),
        "beta": Targets.of(k=k, beta=1.0, max_suppression=sup),
        "enhanced": Targets.of(k=k, beta=1.5, beta_kind="enhanced", max_suppression=sup),
        "delta-disclosure": Targets.of(k=k, delta_disclosure=1.0, max_suppression=sup),
        "beta-alone": Targets.of(beta=0.5, max_suppression=sup),  # no k: a model searched alone
        "enhanced-input": Targets.of(
            beta=1.5, beta_kind="enhanced", likeness_reference="input", max_suppression=sup
        ),
        "delta-input": Targets.of(
            delta_disclosure=1.0, likeness_reference="input", max_suppression=sup
        ),
        "sample": Targets.of(sample_uniqueness=0.1, max_suppression=sup),
        "population": Targets.of(
            k=k, population_uniqueness=0.05, sampling_fraction=0.3, max_suppression=sup
        ),
        "t-hierarchical": Targets(
            criteria=(KAnonymity(k=k), TCloseness(t=0.2, distance="hierarchical")),
            max_suppression=sup,
        ),
    }[kind]
    weights = {q: draw(st.sampled_from([0.0, 0.5, 1.0, 3.0])) for q in hiers}
    if all(w == 0 for w in weights.values()):
        weights = {}
    levels = {}
    for q, h in hiers.items():
        if draw(st.booleans()):
            lo = draw(st.integers(0, h.height))
            levels[q] = (lo, draw(st.integers(lo, h.height)))
    steering = Steering(weights if draw(st.booleans()) else {}, levels)
    missing = draw(st.sampled_from(["own", "any"]))
    return pd.DataFrame(cols), hiers, targets, steering, missing


@settings(max_examples=round(1.2 * settings().max_examples))  # 120 in CI
@given(small_tables(), st.sampled_from(sorted(OBJECTIVES)))
def test_search_finds_the_exhaustive_optimum_and_its_tie_winner(case, objective):
    df, hiers, targets, steering, missing = case
    lat = Lattice(
        df,
        hiers,
        sensitive=["s"],
        targets=targets,
        steering=steering,
        missing=missing,
        sensitive_hierarchies={"s": S_HIERARCHY},
    )
    result = search(lat, objective=objective)
    expected, every = _reference(lat, objective)
    if expected is None:
        assert result.best is None
    else:
        assert result.best is not None and result.best.anonymous
        assert result.best.loss(objective) == pytest.approx(expected.loss(objective), abs=1e-12)
        assert result.best.levels == expected.levels  # the tie rule, exactly
    # the bound never exceeds the loss, for every node and objective
    for r in every:
        for name in OBJECTIVES:
            assert lat.lower_bound(r.levels, name) <= lat.key(name, r.loss(name)) + 1e-9
            assert lat.node_bound(r, name) <= lat.key(name, r.loss(name)) + 1e-9
    assert result.needed <= lat.size
    # every node searched lies within the bounds
    for r in result.visited:
        for x, (lo, hi) in zip(r.levels, lat.bounds, strict=True):
            assert lo <= x <= hi


def _tie_table():
    # two QIs, each a value pair grouped to "*"; a, b both have height 1.
    # rows: (a0,b0) x2, (a0,b1) x2, (a1,b0) x1, (a1,b1) x3
    a = ["a0", "a0", "a0", "a0", "a1", "a1", "a1", "a1"]
    b = ["b0", "b0", "b1", "b1", "b0", "b1", "b1", "b1"]
    df = pd.DataFrame({"a": a, "b": b})
    hiers = {
        "a": grouping_hierarchy(df["a"], []),
        "b": grouping_hierarchy(df["b"], []),
    }
    return df, hiers


def test_ties_go_to_fewer_suppressed_then_larger_class_then_lower_discernibility():
    df, hiers = _tie_table()
    assert all(h.height == 1 for h in hiers.values())
    lat = Lattice(df, hiers, targets=Targets.of(k=2, max_suppression=0.5))
    # by hand, k = 2, precision (level / height averaged, suppressed records cost 1):
    # (1,0): classes b0 = 3, b1 = 5: nothing suppressed, precision 1/2, smallest class 3.
    # (0,1): classes a0 = 4, a1 = 4: nothing suppressed, precision 1/2, smallest class 4.
    # (0,0): the class (a1,b0) of 1 record is suppressed: ((8-1)*0 + 1*2)/16 = 1/8.
    bottom = lat.evaluate([0, 0])
    assert bottom.anonymous and bottom.suppressed == 1
    assert bottom.precision == pytest.approx(1 / 8)
    # under a weight of 0 on both... the precision of (1,0) and (0,1) ties at 1/2:
    tied = Lattice(df, hiers, targets=Targets.of(k=2, max_suppression=0.0))
    one, two = tied.evaluate([1, 0]), tied.evaluate([0, 1])
    assert one.precision == two.precision == pytest.approx(0.5)
    assert (one.suppressed, one.k) == (0, 3) and (two.suppressed, two.k) == (0, 4)
    result = search(tied, objective="precision")
    assert result.best is not None and result.best.levels == (0, 1)  # the larger class wins
    # DM breaks a tie of equal smallest class: discernibility 3^2+5^2 = 34 against 4^2+4^2 = 32
    assert one.discernibility == 34 and two.discernibility == 32


def test_ties_of_equal_class_sizes_go_to_lower_discernibility_then_smaller_levels():
    # a table where (1,0) and (0,1) both release classes of 2 and 6, then 4 and 4
    df = pd.DataFrame(
        {
            "a": ["a0"] * 4 + ["a1"] * 4,
            "b": ["b0", "b1", "b1", "b1", "b0", "b1", "b1", "b1"],
        }
    )
    hiers = {q: grouping_hierarchy(df[q], []) for q in ("a", "b")}
    lat = Lattice(df, hiers, targets=Targets.of(k=2, max_suppression=0.0))
    one, two = lat.evaluate([1, 0]), lat.evaluate([0, 1])
    # (1,0): b0 = 2, b1 = 6 -> smallest 2, DM 40; (0,1): a0 = 4, a1 = 4 -> smallest 4, DM 32
    assert (one.k, one.discernibility) == (2, 40) and (two.k, two.discernibility) == (4, 32)
    assert search(lat, objective="precision").best.levels == (0, 1)
    # a symmetric table: (1,0) and (0,1) equal in every respect but the levels
    sym = pd.DataFrame({"a": ["a0", "a0", "a1", "a1"], "b": ["b0", "b1", "b0", "b1"]})
    hs = {q: grouping_hierarchy(sym[q], []) for q in ("a", "b")}
    lat2 = Lattice(sym, hs, targets=Targets.of(k=2, max_suppression=0.0))
    assert search(lat2, objective="precision").best.levels == (0, 1)  # lexicographically first


def test_only_k_distinct_l_and_k_map_are_monotone_under_generalization():
    monotone = {kind for kind, cls in REGISTRY.items() if cls.monotone_under_generalization}
    assert monotone == {KAnonymity.kind, DistinctLDiversity.kind, KMap.kind}


def test_tagging_evaluates_fewer_nodes_and_finds_the_same_node():
    rng = np.random.default_rng(3)
    n = 400
    df = pd.DataFrame({f"q{j}": rng.integers(0, 8, n).astype(str) for j in range(4)})
    groups = [{str(v): f"g{v // 2}" for v in range(8)}, {f"g{v}": f"h{v // 2}" for v in range(4)}]
    hiers = {q: grouping_hierarchy(df[q], groups) for q in df}
    lat = Lattice(df, hiers, targets=Targets.of(k=5, max_suppression=0.0))
    tagged = search(lat, objective="precision")
    plain = search(lat, objective="precision", tagging=False)
    assert tagged.best.levels == plain.best.levels
    assert tagged.needed < plain.needed


# ------------------------------------------------------------------ steering


def test_level_bounds_restrict_the_search_and_weights_steer_it():
    df, hiers = _tie_table()
    targets = Targets.of(k=2, max_suppression=0.0)
    # keep b: its highest level 0 -> only (x, 0) nodes; (1,0) is the optimum there
    kept = search(Lattice(df, hiers, targets=targets, steering=Steering(levels={"b": (0, 0)})))
    assert kept.best.levels == (1, 0) and kept.lattice_size == 2
    # NCP of (1,0) is 1/2 (a: 2 values to "*" cost 1 each, b: 0), of (0,1) also 1/2: a weight
    # of 3 on a makes (1,0) cost 3/4 and (0,1) 1/4 (weighted mean: (3*1 + 1*0) / 4)
    lat = Lattice(df, hiers, targets=targets, steering=Steering(weights={"a": 3}))
    assert lat.evaluate([1, 0]).loss("ncp") == pytest.approx(3 / 4)
    assert lat.evaluate([0, 1]).loss("ncp") == pytest.approx(1 / 4)
    assert lat.evaluate([1, 0]).ncp == pytest.approx(1 / 2)  # the standard NCP, unweighted
    assert search(lat).best.levels == (0, 1)


@pytest.mark.parametrize(
    ("steering", "message"),
    [
        (lambda: Steering(weights={"zz": 1}), "'zz' is given a weight but is not a quasi"),
        (lambda: Steering(levels={"a": (1, 0)}), r"lowest level of 'a' \(1\) is above"),
        (lambda: Steering(levels={"a": (0, 2)}), "highest level of 'a' is 2, above the height"),
        (lambda: Steering(weights={"a": -1}), "weight of 'a' must be a finite number of at"),
        (lambda: Steering(weights={"a": float("nan")}), "weight of 'a' must be a finite"),
        (lambda: Steering(weights={"a": 0, "b": 0}), "at least one quasi-identifier must weigh"),
        (lambda: Steering(levels={"a": (0, 1.5)}), "a level of 'a' must be a whole number"),
    ],
)
def test_bad_steering_is_refused_with_a_sentence(steering, message):
    df, hiers = _tie_table()
    with pytest.raises(RiskcoreError, match=message):
        Lattice(df, hiers, steering=steering())


def test_steering_round_trips_through_json():
    s = Steering(weights={"a": 0.5}, levels={"b": (0, 1)})
    assert Steering.from_dict(s.to_dict()) == s


def test_a_removed_column_is_flagged_with_the_best_node_that_keeps_it():
    df, hiers = _tie_table()
    lat = Lattice(df, hiers, targets=Targets.of(k=2, max_suppression=0.0))
    result = search(lat, objective="precision")
    # the optimum (0,1) removes b; no anonymous node keeps b but (1,0), which removes a
    assert result.removed == ("b",)
    assert result.keeping["b"] is not None and result.keeping["b"].levels == (1, 0)
    assert result.keeping["b"].anonymous
    # with b kept by its bounds, nothing keeps a and b both: none
    lat2 = Lattice(df, hiers, targets=Targets.of(k=2), steering=Steering(levels={"b": (0, 0)}))
    r2 = search(lat2, objective="precision")
    assert r2.removed == ("a",) and r2.keeping == {"a": None}


def test_greedy_search_stays_within_bounds():
    df, hiers = _tie_table()
    lat = Lattice(df, hiers, targets=Targets.of(k=2), steering=Steering(levels={"a": (0, 0)}))
    node = greedy_search(lat)
    assert node is not None and node.levels == (0, 1)


# ------------------------------------------------------------------ the size limit


def test_a_lattice_over_the_limit_is_refused_before_allocation_and_bounds_bring_it_under():
    values = pd.Series([str(v) for v in range(40)], dtype=object)
    leaves = np.asarray(values, dtype=object)
    # 39 levels that keep every value, then "*": height 39, 40 levels per QI
    h = Hierarchy("q", leaves, tuple([leaves] * 39 + [np.full(40, "*", dtype=object)]))
    assert h.height == 39
    qis = [f"q{j}" for j in range(4)]  # 40^4 = 2,560,000 nodes
    df = pd.DataFrame({q: values for q in qis})
    hiers = {q: dataclasses.replace(h, column=q) for q in qis}
    assert 40**4 > MAX_NODES
    with pytest.raises(RiskcoreError, match=r"2,560,000 nodes .* more than the 1,000,000"):
        Lattice(df, hiers)
    with pytest.raises(RiskcoreError, match=r"fewer quasi-identifiers.*level bounds"):
        Lattice(df, hiers)
    bounded = Lattice(df, hiers, steering=Steering(levels={"q0": (0, 9)}))
    assert bounded.size == 10 * 40**3


@pytest.mark.parametrize("tagging", [None, False])
def test_a_tie_winner_visited_after_the_first_tied_node_still_wins(tagging):
    df, hiers = _tie_table()
    # the QIs in the order (b, a): (0, 1) generalizes a (classes b0 = 3, b1 = 5) and is
    # visited first; (1, 0) generalizes b (classes a0 = 4, a1 = 4) and wins the tie
    lat = Lattice(df[["b", "a"]], {"b": hiers["b"], "a": hiers["a"]}, targets=Targets.of(k=2))
    result = search(lat, objective="precision", tagging=tagging)
    assert result.best is not None and result.best.levels == (1, 0)
