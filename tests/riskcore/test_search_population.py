"""k-map and delta-presence as search targets, against an identified population table.

F_j is checked at every node against the population table generalized by
:func:`generalize_columns` and counted by pandas (independent of the
lattice's codes); the search's optimum against an exhaustive scan of the
nodes by the documented rule (as in test_search).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import grouping_hierarchy
from riskcore.deidentify.recipe.base import generalize_columns
from riskcore.deidentify.search.lattice import Lattice
from riskcore.deidentify.search.run import search
from riskcore.errors import RiskcoreError
from tests.riskcore.cases import draw_qi_table


def _reference(lat, objective):
    every = [lat.evaluate(node) for node in lat.nodes()]
    ok = [r for r in every if r.anonymous]
    if not ok:
        return None
    low = min(r.loss(objective) for r in ok)
    tied = [r for r in ok if abs(r.loss(objective) - low) <= 1e-12 * abs(low) + 1e-15]
    return min(tied, key=lambda r: (r.suppressed, -r.k, r.discernibility, r.levels))


def _key(frame: pd.DataFrame, qis: list[str]) -> pd.Series:
    return frame[qis].astype(object).where(frame[qis].notna(), "<NA>").apply(tuple, axis=1)


@st.composite
def drawn_with_population(draw):
    cols, hiers = draw_qi_table(draw)
    df = pd.DataFrame(cols)
    # the population: the data's people and up to 12 more drawn from the data's values
    extra = draw(st.lists(st.integers(0, len(df) - 1), max_size=12))
    shuffled = {q: draw(st.permutations(list(df[q]))) for q in hiers}
    more = pd.DataFrame({q: [shuffled[q][i] for i in extra] for q in hiers})
    population = pd.concat([df[list(hiers)], more], ignore_index=True)
    kind = draw(st.sampled_from(["k-map", "delta", "both", "k-map+l"]))
    sup = draw(st.sampled_from([0.0, 0.1, 0.3]))
    kmap = draw(st.integers(1, 5))
    delta = (draw(st.sampled_from([0.0, 0.2])), draw(st.sampled_from([0.5, 0.8, 1.0])))
    targets = {
        "k-map": Targets.of(k_map=kmap, max_suppression=sup),
        "delta": Targets.of(delta=delta, max_suppression=sup),
        "both": Targets.of(k=2, k_map=kmap, delta=delta, max_suppression=sup),
        "k-map+l": Targets.of(k=2, l=2, k_map=kmap, max_suppression=sup),
    }[kind]
    return df, population, hiers, targets


@settings(deadline=None)  # the profile's examples: 100 in CI, 20 in dev
@given(drawn_with_population(), st.sampled_from(["precision", "ncp", "dm_star"]))
def test_search_with_k_map_and_delta_presence_finds_the_exhaustive_optimum(case, objective):
    df, population, hiers, targets = case
    lat = Lattice(df, hiers, sensitive=["s"], targets=targets, population_table=population)
    result = search(lat, objective=objective)
    expected = _reference(lat, objective)
    if expected is None:
        assert result.best is None
    else:
        assert result.best is not None and result.best.levels == expected.levels
    qis = list(lat.quasi_identifiers)
    for node in lat.nodes():  # F_j of every class, counted from the rows by pandas
        ids, ev = lat.evidence(node)
        levels = dict(zip(qis, node, strict=True))
        gen_data = _key(generalize_columns(df, hiers, levels), qis)
        gen_pop = _key(generalize_columns(population, hiers, levels), qis)
        members = gen_pop.value_counts()
        record_class = ids[lat.record_base_classes()]
        counts = ev.population_counts
        for j, value in zip(record_class, gen_data, strict=True):
            assert counts[j] == members[value]
        released = set(gen_data)
        judged_absent = len(counts) - (int(ids.max()) + 1)
        if any(c.judges_empty_classes for c in targets.criteria):  # absent classes judged
            assert judged_absent == sum(1 for v in members.index if v not in released)
        else:
            assert judged_absent == 0


def _small():
    df = pd.DataFrame({"a": ["x", "x", "y", "z"], "b": ["p", "q", "p", "p"]})
    pop = pd.DataFrame({"a": ["x", "x", "x", "y", "y", "z", "z", "z"],
                        "b": ["p", "q", "q", "p", "q", "p", "p", "q"]})  # fmt: skip
    hiers = {
        "a": grouping_hierarchy(pop["a"], [{"x": "xy", "y": "xy", "z": "z"}]),
        "b": grouping_hierarchy(pop["b"], []),
    }
    return df, pop, hiers


def test_k_map_and_delta_presence_by_hand():
    df, pop, hiers = _small()
    lat = Lattice(
        df, hiers, targets=Targets.of(k_map=2, max_suppression=0.25), population_table=pop
    )
    # (0, 0): classes (x,p) F=1, (x,q) F=2, (y,p) F=1, (z,p) F=2: k-map 2 suppresses the
    # records of (x,p) and (y,p): 2 of 4 > 25%
    bottom = lat.evaluate((0, 0))
    assert not bottom.anonymous and bottom.suppressed == 2
    # (1, 0): (xy,p) F=2 [x p, y p], (xy,q) F=3, (z,p) F=2: nothing to suppress
    assert lat.evaluate((1, 0)).anonymous and lat.evaluate((1, 0)).suppressed == 0
    # (0, 1): x F=3, y F=2, z F=3 passes too, at precision (0 + 1/1) / 2 = 1/2; (1, 0) costs
    # (1/2 + 0) / 2 = 1/4 (a's hierarchy has 2 levels above the values, b's one)
    assert lat.evaluate((0, 1)).anonymous
    assert lat.evaluate((1, 0)).precision == pytest.approx(0.25)
    assert search(lat, objective="precision").best.levels == (1, 0)
    # delta-presence in [0.2, 0.6]: at (1, 1) the classes (xy, *) 3/5 = 0.6 and (z, *) 1/3
    # pass; at (1, 0) the population class (z, q) has no record: delta 0 < 0.2, which no
    # suppression mends
    dp = Lattice(df, hiers, targets=Targets.of(delta=(0.2, 0.6)), population_table=pop)
    assert not dp.evaluate((1, 0)).anonymous
    assert dp.evaluate((1, 1)).anonymous
    assert search(dp, objective="precision").best.levels == (1, 1)


def test_k_map_prunes_and_finds_the_same_node_as_without_tagging():
    rng = np.random.default_rng(5)
    pop = pd.DataFrame({f"q{j}": rng.integers(0, 8, 600).astype(str) for j in range(3)})
    df = pop.sample(200, random_state=1)
    groups = [{str(v): f"g{v // 2}" for v in range(8)}, {f"g{v}": f"h{v // 2}" for v in range(4)}]
    hiers = {q: grouping_hierarchy(pop[q], groups) for q in pop}
    lat = Lattice(
        df, hiers, targets=Targets.of(k_map=6, max_suppression=0.02), population_table=pop
    )
    tagged = search(lat, objective="precision")
    plain = search(lat, objective="precision", tagging=False)
    assert tagged.best.levels == plain.best.levels
    assert tagged.needed < plain.needed


def test_population_targets_need_the_table_and_a_subset():
    df, pop, hiers = _small()
    with pytest.raises(RiskcoreError, match="population table"):
        Lattice(df, hiers, targets=Targets.of(k_map=2))
    with pytest.raises(RiskcoreError, match="not a subset"):
        Lattice(df, hiers, targets=Targets.of(k_map=2), population_table=pop.iloc[:3])
    with pytest.raises(RiskcoreError, match="does not hold the population table's value"):
        Lattice(df, hiers, targets=Targets.of(k_map=2), population_table=pop.assign(a="w"))
    with pytest.raises(RiskcoreError, match="no column 'b'"):
        Lattice(df, hiers, targets=Targets.of(k_map=2), population_table=pop[["a"]])
    with pytest.raises(RiskcoreError, match="'own'"):
        Lattice(df, hiers, targets=Targets.of(k_map=2), population_table=pop, missing="any")
