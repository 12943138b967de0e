"""k-map and delta-presence against a population table (riskcore.metrics.presence).

Hand-worked tables (the working in the comments) and an independent pandas
group-by on random populations with random released subsets.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from riskcore._results import dumps
from riskcore.errors import RiskcoreError, RolesError
from riskcore.metrics.presence import delta_presence, k_map, population_match

# Population P (10 people) and release T (6 of them), QIs age band and sex:
#   class          F(P)  f(T)  delta
#   30-39, F        4     2    0.5
#   30-39, M        3     3    1.0
#   40-49, F        2     1    0.5
#   40-49, M        1     0    -    (absent from the release: not judged)
# k-map = min(4, 3, 2) = 2; (delta_min, delta_max) = (0.5, 1.0)
POP = pd.DataFrame(
    {
        "age": ["30-39"] * 7 + ["40-49"] * 3,
        "sex": ["F"] * 4 + ["M"] * 3 + ["F", "F", "M"],
        "name": [f"p{i}" for i in range(10)],
    }
)
REL = POP.iloc[[0, 2, 4, 5, 6, 8]].drop(columns="name")


def test_hand_worked_population():
    m = population_match(REL, POP, ["age", "sex"])
    assert (m.k_map, m.delta_min, m.delta_max) == (2, 0.5, 1.0)
    assert (m.n_released, m.n_population, m.n_classes) == (6, 10, 3)
    assert (m.absent_classes, m.absent_records) == (1, 1)
    assert m.classes.to_dict("records")[0] == {
        "age": "30-39",
        "sex": "M",
        "released": 3,
        "population": 3,
        "delta": 1.0,
    }
    np.testing.assert_array_equal(m.record_k_map, [4, 4, 3, 3, 3, 2])
    assert k_map(REL, POP, ["age", "sex"]) == 2
    assert delta_presence(REL, POP, ["age", "sex"]) == (0.5, 1.0)
    # failing classes: k-map 3 fails (40-49, F); delta_max 0.6 fails (30-39, M)
    assert m.failing(k=3)[["age", "sex"]].values.tolist() == [["40-49", "F"]]
    assert m.failing(delta_max=0.6)[["age", "sex"]].values.tolist() == [["30-39", "M"]]
    assert len(m.failing(k=2, delta_min=0.5, delta_max=1.0)) == 0
    d = json.loads(dumps(m))
    assert d["k_map"] == 2 and "classes" not in d


def test_missing_value_is_a_class_of_its_own():
    pop = pd.DataFrame({"zip": ["021", None, None, "021", "022"]})
    rel = pd.DataFrame({"zip": [None, "021"]})
    m = population_match(rel, pop, ["zip"])
    # classes: missing F=2 f=1 (0.5); 021 F=2 f=1 (0.5); 022 absent
    assert (m.k_map, m.delta_min, m.delta_max, m.absent_classes) == (2, 0.5, 0.5, 1)


def test_release_classes_absent_from_the_population_are_named():
    rel = pd.concat([REL, pd.DataFrame({"age": ["50-59"], "sex": ["F"]})])
    with pytest.raises(
        RiskcoreError,
        match=r"^1 class\(es\) of the release are not in the population.*age='50-59', sex='F'",
    ):
        population_match(rel, POP, ["age", "sex"])
    rel = pd.DataFrame({"age": ["40-49", "40-49"], "sex": ["M", "M"]})  # 2 released, 1 in P
    with pytest.raises(RiskcoreError, match=r"more released records than population members"):
        population_match(rel, POP, ["age", "sex"])


def test_bad_columns_are_clear_errors():
    with pytest.raises(RolesError, match=r"^the population table has no column 'zip'"):
        population_match(REL.assign(zip=1), POP, ["age", "zip"])
    with pytest.raises(RolesError, match=r"'age' is numeric in the release and text in the pop"):
        population_match(pd.DataFrame({"age": [30]}), pd.DataFrame({"age": ["30"]}), ["age"])
    with pytest.raises(RolesError, match=r"at least one"):
        population_match(REL, POP, [])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_populations_match_a_groupby(seed):
    rng = np.random.default_rng(seed)
    n = 2_000
    pop = pd.DataFrame(
        {
            "a": rng.integers(0, 6, n),
            "b": rng.choice(["x", "y", None], n),
            "c": rng.integers(0, 4, n).astype(float),
        }
    )
    pop.loc[rng.choice(n, 50, replace=False), "c"] = np.nan
    rel = pop.sample(frac=0.3, random_state=seed).set_index(pd.Index(rng.permutation(600)))
    qis = ["a", "b", "c"]
    big = pop.groupby(qis, dropna=False).size().rename("population")
    small = rel.groupby(qis, dropna=False).size().rename("released")
    joined = pd.concat([small, big], axis=1, join="inner")
    delta = joined["released"] / joined["population"]
    m = population_match(rel, pop, qis)
    assert m.k_map == joined["population"].min()
    assert m.delta_min == pytest.approx(delta.min()) and m.delta_max == pytest.approx(delta.max())
    assert m.n_classes == len(small)
    assert m.absent_classes == len(big) - len(small)
    per_record = rel.merge(big.reset_index(), on=qis, how="left")["population"]
    np.testing.assert_array_equal(m.record_k_map, per_record.to_numpy())


def test_population_readings_by_hand():
    """Release (age): 30, 30, 41, 52; population: 30 x4, 41, 52 x2, 60 x3.
    delta: 30 -> 2/4, 41 -> 1/1, 52 -> 1/2; k-map per record: 4, 4, 1, 2."""
    from riskcore.metrics.presence import population_match
    from riskcore.report.readings import delta_reading, delta_table, record_kmap_table

    released = pd.DataFrame({"age": [30, 30, 41, 52]})
    population = pd.DataFrame({"age": [30, 30, 30, 30, 41, 52, 52, 60, 60, 60]})
    m = population_match(released, population, ["age"])
    assert record_kmap_table(m).to_dict("list") == {"row": [1, 2, 3, 4], "k_map": [4, 4, 1, 2]}
    t = delta_table(m, 0.0, 0.5)
    assert t["classes"].tolist() == [0, 0, 0, 0, 0, 2, 0, 0, 0, 1]
    assert t["records"].tolist() == [0, 0, 0, 0, 0, 3, 0, 0, 0, 1]
    assert t["outside"].tolist() == [0] * 9 + [1]
    assert t["delta"].iloc[5] == "50-60%"
    assert delta_reading(m, k=2, delta_min=0.6, delta_max=0.9) == (
        "1 of 3 released classes has delta above 90% (a person of the population with those "
        "values is in this table with a higher probability); 2 below 60%; 1 matches fewer than "
        "2 people of the population (k-map)."
    )
