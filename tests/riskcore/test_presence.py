"""k-map and delta-presence against a population table (riskcore.metrics.presence).

Hand-worked tables (the working in the comments), one with population
classes that have no released record (delta 0, so delta_min is 0) and one
where every class is released, and an independent count over rows in plain
Python on random tables with missing values.
"""

from __future__ import annotations

import json
import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from riskcore._results import dumps
from riskcore.criteria.population import judge_population
from riskcore.errors import RiskcoreError, RolesError
from riskcore.metrics.presence import (
    PopulationCounts,
    PopulationMatch,
    delta_presence,
    k_map,
    population_counts,
    population_match,
)

# Population P (10 people) and release T (6 of them), QIs age band and sex:
#   class          F(P)  f(T)  delta
#   30-39, F        4     2    0.5
#   30-39, M        3     3    1.0
#   40-49, F        2     1    0.5
#   40-49, M        1     0    0     (no released record: delta 0)
# k-map = min F over released classes = min(4, 3, 2) = 2 (40-49 M, F = 1, is not judged)
# (delta_min, delta_max) = (0, 1.0): the absent class puts delta_min at 0;
# over released classes alone the lowest delta is 0.5.
POP = pd.DataFrame(
    {
        "age": ["30-39"] * 7 + ["40-49"] * 3,
        "sex": ["F"] * 4 + ["M"] * 3 + ["F", "F", "M"],
        "name": [f"p{i}" for i in range(10)],
    }
)
REL = POP.iloc[[0, 2, 4, 5, 6, 8]].drop(columns="name")
QIS = ["age", "sex"]


def test_a_population_class_with_no_released_record_puts_delta_min_at_zero():
    m = population_match(REL, POP, QIS)
    assert (m.k_map, m.delta_min, m.delta_max, m.delta_min_released) == (2, 0.0, 1.0, 0.5)
    assert (m.n_released, m.n_population, m.n_classes, m.n_population_classes) == (6, 10, 3, 4)
    assert (m.absent_classes, m.absent_records) == (1, 1)
    assert m.classes.to_dict("records")[0] == {
        "age": "30-39",
        "sex": "M",
        "released": 3,
        "population": 3,
        "delta": 1.0,
    }
    assert m.classes.to_dict("records")[-1] == {
        "age": "40-49",
        "sex": "M",
        "released": 0,
        "population": 1,
        "delta": 0.0,
    }
    np.testing.assert_array_equal(m.record_k_map, [4, 4, 3, 3, 3, 2])
    assert k_map(REL, POP, QIS) == 2
    assert delta_presence(REL, POP, QIS) == (0.0, 1.0)
    # a delta_min target above 0 fails on the absent class (and the 0.5 classes below 0.6)
    assert failing(m, delta_min=0.1)[QIS].values.tolist() == [["40-49", "M"]]
    assert failing(m, delta_min=0.6)[QIS].values.tolist() == [
        ["30-39", "F"],
        ["40-49", "F"],
        ["40-49", "M"],
    ]
    # k-map 3 fails 40-49 F (F = 2); 40-49 M (F = 1) has no released record: not judged
    assert failing(m, k=3)[QIS].values.tolist() == [["40-49", "F"]]
    assert failing(m, delta_max=0.6)[QIS].values.tolist() == [["30-39", "M"]]
    assert len(failing(m, k=2, delta_min=0.0, delta_max=1.0)) == 0
    d = json.loads(dumps(m))
    assert d["k_map"] == 2 and d["delta_min"] == 0.0 and "classes" not in d
    assert d["schema_version"] == 2
    assert PopulationMatch.from_dict(d).delta_min_released == 0.5


def failing(m, **targets):
    """Return the population classes the criteria judge failing (KMap, DeltaPresence)."""
    judged = judge_population(m, **targets)
    return m.classes[judged.failing].reset_index(drop=True)


def test_every_population_class_released():
    # release rows 1, 4, 6, 7, 9 of POP:
    #   30-39 F 1/4 = 0.25; 30-39 M 2/3; 40-49 F 1/2; 40-49 M 1/1
    # k-map = min(4, 3, 2, 1) = 1; (delta_min, delta_max) = (0.25, 1.0)
    rel = POP.iloc[[1, 4, 6, 7, 9]].drop(columns="name")
    m = population_match(rel, POP, QIS)
    assert (m.k_map, m.delta_min, m.delta_max) == (1, 0.25, 1.0)
    assert m.delta_min_released == m.delta_min
    assert (m.n_classes, m.n_population_classes, m.absent_classes, m.absent_records) == (
        4,
        4,
        0,
        0,
    )
    assert failing(m, delta_min=0.3)[QIS].values.tolist() == [["30-39", "F"]]
    assert len(failing(m, delta_min=0.25)) == 0
    assert failing(m, k=2)[QIS].values.tolist() == [["40-49", "M"]]


def test_population_counts_hold_every_class_of_both_tables():
    c = population_counts(REL, POP, QIS)
    assert isinstance(c, PopulationCounts)
    assert (c.n_released, c.n_population, c.n_classes) == (6, 10, 4)
    got = {
        (a, s): (int(f), int(big_f), float(d))
        for (a, s), f, big_f, d in zip(
            c.values()[QIS].itertuples(index=False),
            c.released,
            c.population,
            c.delta(),
            strict=True,
        )
    }
    assert got == {
        ("30-39", "F"): (2, 4, 0.5),
        ("30-39", "M"): (3, 3, 1.0),
        ("40-49", "F"): (1, 2, 0.5),
        ("40-49", "M"): (0, 1, 0.0),
    }
    assert c.released.dtype == c.population.dtype == c.record_class.dtype == np.int64
    # each released record's class carries its QI values
    assert c.values(c.record_class)[QIS].values.tolist() == REL[QIS].values.tolist()
    np.testing.assert_array_equal(c.record_k_map(), [4, 4, 3, 3, 3, 2])
    d = json.loads(dumps(c))
    assert d["n_classes"] == 4 and "released" not in d and "table" not in d
    back = PopulationCounts.from_dict(d)
    assert back.n_classes == 4 and back.table is None
    with pytest.raises(RiskcoreError, match="read back without their classes"):
        back.values()


def test_population_counts_without_the_subset_check():
    rel = pd.DataFrame({"age": ["30-39", "50-59"], "sex": ["F", "F"]})
    c = population_counts(rel, POP, QIS, require_subset=False)
    assert c.n_classes == 5
    j = int(c.record_class[1])
    assert (c.released[j], c.population[j]) == (1, 0) and math.isnan(c.delta()[j])
    # an empty release: every population class has f = 0
    c = population_counts(REL.iloc[:0], POP, QIS)
    assert c.n_classes == 4 and c.released.sum() == 0 and (c.delta() == 0).all()


def test_missing_value_is_a_class_of_its_own():
    pop = pd.DataFrame({"zip": ["021", None, None, "021", "022"]})
    rel = pd.DataFrame({"zip": [None, "021"]})
    m = population_match(rel, pop, ["zip"])
    # classes: missing F=2 f=1 (0.5); 021 F=2 f=1 (0.5); 022 F=1 f=0 (0)
    assert (m.k_map, m.delta_min, m.delta_max, m.absent_classes) == (2, 0.0, 0.5, 1)
    assert m.delta_min_released == 0.5


def test_release_classes_absent_from_the_population_are_named():
    rel = pd.concat([REL, pd.DataFrame({"age": ["50-59"], "sex": ["F"]})])
    with pytest.raises(
        RiskcoreError,
        match=r"^1 class\(es\) of the release are not in the population.*age='50-59', sex='F'",
    ):
        population_match(rel, POP, QIS)
    rel = pd.DataFrame({"age": ["40-49", "40-49"], "sex": ["M", "M"]})  # 2 released, 1 in P
    with pytest.raises(RiskcoreError, match=r"more released records than population members"):
        population_match(rel, POP, QIS)
    with pytest.raises(RiskcoreError, match=r"^the release has no records$"):
        population_match(REL.iloc[:0], POP, QIS)


def test_bad_columns_are_clear_errors():
    with pytest.raises(RolesError, match=r"^the population table has no column 'zip'"):
        population_match(REL.assign(zip=1), POP, ["age", "zip"])
    with pytest.raises(RolesError, match=r"'age' is numeric in the release and text in the pop"):
        population_match(pd.DataFrame({"age": [30]}), pd.DataFrame({"age": ["30"]}), ["age"])
    with pytest.raises(RolesError, match=r"at least one"):
        population_match(REL, POP, [])
    with pytest.raises(RolesError, match=r"listed twice"):
        population_counts(REL, POP, ["age", "age"])


def _key(row: tuple) -> tuple:
    """A row's QI values with every missing value made one value (NaN != NaN)."""
    return tuple(None if v is None or (isinstance(v, float) and math.isnan(v)) else v for v in row)


@pytest.mark.parametrize(
    ("seed", "frac", "every_class"),
    [(0, 0.3, False), (1, 0.05, False), (2, 0.9, False), (3, 0.2, True), (4, 1.0, False)],
)
def test_random_populations_match_a_count_over_rows(seed, frac, every_class):
    """Brute force: count every row's key in plain Python, then delta over every population key.

    ``every_class``: the release holds one record of every population class
    plus a random share of the rest, so no class is absent.
    """
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
    rel = pop.sample(frac=frac, random_state=seed)
    if every_class:
        first = pop.drop_duplicates(["a", "b", "c"])  # NaN equals NaN here
        rel = pd.concat([first, rel.drop(index=first.index, errors="ignore")])
    rel = rel.set_index(pd.Index(rng.permutation(len(rel)) + 7))  # a non-range index
    qis = ["a", "b", "c"]
    rel_keys = [_key(r) for r in rel[qis].itertuples(index=False)]
    big = Counter(_key(r) for r in pop[qis].itertuples(index=False))
    small = Counter(rel_keys)
    delta = {key: small.get(key, 0) / big[key] for key in big}  # every population class

    m = population_match(rel, pop, qis)
    assert m.k_map == min(big[key] for key in small)
    assert m.delta_min == pytest.approx(min(delta.values()))
    assert m.delta_max == pytest.approx(max(delta.values()))
    assert m.delta_min_released == pytest.approx(min(delta[key] for key in small))
    assert (m.n_classes, m.n_population_classes) == (len(small), len(big))
    assert m.absent_classes == len(big) - len(small)
    assert m.absent_records == sum(big[key] for key in big if key not in small)
    np.testing.assert_array_equal(m.record_k_map, [big[key] for key in rel_keys])
    got = {
        _key(tuple(r[:3])): (r[3], r[4], r[5]) for r in m.classes.itertuples(index=False)
    }
    assert got == pytest.approx({key: (small.get(key, 0), big[key], delta[key]) for key in big})
    # a delta_min target above 0 fails exactly when a population class has no released record
    assert (len(failing(m, delta_min=1e-9)) > 0) == (len(small) < len(big))
    if every_class:
        assert len(small) == len(big) and 0 < m.delta_min < m.delta_max

    c = population_counts(rel, pop, qis)
    counted = {
        _key(tuple(v)): (int(f), int(big_f))
        for v, f, big_f in zip(
            c.values().itertuples(index=False), c.released, c.population, strict=True
        )
    }
    assert counted == {key: (small.get(key, 0), big[key]) for key in big}
    assert [_key(tuple(v)) for v in c.values(c.record_class).itertuples(index=False)] == rel_keys


def test_population_readings_by_hand():
    """Release (age): 30, 30, 41, 52; population: 30 x4, 41, 52 x2, 60 x3.
    delta: 30 -> 2/4, 41 -> 1/1, 52 -> 1/2, 60 -> 0 (none released); k-map per record: 4, 4, 1, 2.
    """
    from riskcore.report.readings import (
        delta_reading,
        delta_table,
        population_failing_caption,
        population_match_reading,
        record_kmap_table,
    )

    released = pd.DataFrame({"age": [30, 30, 41, 52]})
    population = pd.DataFrame({"age": [30, 30, 30, 30, 41, 52, 52, 60, 60, 60]})
    m = population_match(released, population, ["age"])
    assert record_kmap_table(m).to_dict("list") == {"row": [1, 2, 3, 4], "k_map": [4, 4, 1, 2]}
    t = delta_table(m, judge_population(m, delta_min=0.0, delta_max=0.5).delta_failing)
    assert t["delta"].iloc[0] == "none released" and t["delta"].iloc[6] == "50-60%"
    assert t["classes"].tolist() == [1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1]
    assert t["records"].tolist() == [0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 1]
    assert t["outside"].tolist() == [0] * 10 + [1]
    outside = judge_population(m, delta_min=0.1, delta_max=1.0).delta_failing
    assert delta_table(m, outside)["outside"].tolist() == [1] + [0] * 10
    judged = judge_population(m, k=2, delta_min=0.6, delta_max=0.9)
    assert delta_reading(m, judged, k=2, delta_min=0.6, delta_max=0.9) == (
        "1 of 4 population classes has delta above 90% (a person of the population with those "
        "values is in this table with a higher probability); 3 below 60% (1 with no released "
        "record); 1 of 3 released classes matches fewer than 2 people of the population (k-map)."
    )
    assert population_match_reading(m) == (
        "k-map 1: every released record matches at least 1 person of the population table. "
        "delta-presence (0, 1): a member of a population class is in the release with "
        "probability between 0% and 100%. 1 of 4 population classes has no released record "
        "(3 people known to be absent): its delta is 0, which puts delta min at 0, so any "
        "lowest delta above 0 fails and suppressing records cannot mend it (the lowest delta "
        "among released classes is 50%)."
    )
    assert population_failing_caption(
        m, k=2, delta_min=0.1, delta_max=0.5, shown=500, failing=2
    ) == (
        "Released classes matching fewer than 2 people of the population, or population classes "
        "with delta outside [0.1, 0.5]; the population classes with no released record have "
        "delta 0 and fail a lowest delta of 0.1; the first 2 of 2, highest delta first."
    )


def test_a_version_1_match_reads_as_version_2():
    """A match as riskcore wrote it before delta_min covered every population class (version 1,
    written by hand): its delta_min, over the released classes, is today's delta_min_released;
    the class with no released record puts delta_min at 0."""
    v1 = {
        "schema_version": 1,
        "quasi_identifiers": ["age", "sex"],
        "n_released": 6,
        "n_population": 10,
        "n_classes": 3,
        "k_map": 2,
        "delta_min": 0.5,
        "delta_max": 1.0,
        "absent_classes": 1,
        "absent_records": 1,
    }
    back = PopulationMatch.from_dict(json.loads(json.dumps(v1)))
    assert (back.delta_min, back.delta_min_released, back.n_population_classes) == (0.0, 0.5, 4)
    assert back.to_dict() == population_match(REL, POP, QIS).to_dict()
    every = {**v1, "n_classes": 4, "delta_min": 0.25, "absent_classes": 0, "absent_records": 0}
    back = PopulationMatch.from_dict(every)
    assert (back.delta_min, back.delta_min_released, back.n_population_classes) == (0.25, 0.25, 4)
