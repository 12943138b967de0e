"""Hierarchies, full-domain generalization with suppression, loss and the least-loss search.

Every expected figure is worked by hand in the comments or computed here
independently (pandas groupby on the generalized table, an exhaustive scan of
the lattice); none is copied from riskcore's output.
"""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import (
    Hierarchy,
    builtin_hierarchy,
    date_hierarchy,
    default_hierarchy,
    flat_hierarchy,
    grouping_hierarchy,
    interval_hierarchy,
    prefix_hierarchy,
    read_arx_hierarchy,
)
from riskcore.deidentify.recipe.apply import apply_recipe
from riskcore.deidentify.recipe.base import Recipe, generalize_columns
from riskcore.deidentify.search.lattice import Lattice
from riskcore.deidentify.search.run import greedy_search, search
from riskcore.errors import RiskcoreError
from tests.conftest import shared_file
from tests.riskcore.cases import AGES, ages_lattice, draw_qi_table

# ------------------------------------------------------------------ hierarchies


def test_interval_hierarchy_nests_bands_and_codes_the_ends():
    s = pd.Series([17, 23, 38, 41, 95, None], name="age")
    h = interval_hierarchy(s, [10, 20], bottom=18, top=90)
    assert h.height == 3
    by_value = dict(zip(h.leaves, zip(*h.levels[1:], strict=True), strict=True))
    assert by_value[23] == ("20-29", "20-39", "*")
    assert by_value[38] == ("30-39", "20-39", "*")
    assert by_value[41] == ("40-49", "40-59", "*")
    assert by_value[17] == ("<18", "<18", "*")  # bottom coding at every level
    assert by_value[95] == ("90+", "90+", "*")  # top coding, HIPAA's "90 or older"
    assert None not in list(h.leaves)  # a missing value is no leaf: it stays missing
    with pytest.raises(RiskcoreError, match="whole multiples"):
        interval_hierarchy(s, [10, 15])
    floats = interval_hierarchy(pd.Series([1.5, 2.5], name="x"), [1])
    assert list(floats.levels[1]) == ["[1, 2)", "[2, 3)"]


def test_prefix_hierarchy_keeps_leading_zeros_and_pads_lost_ones():
    text = prefix_hierarchy(pd.Series(["02139", "02142", "10001"], name="zip"))
    assert [list(lv) for lv in text.levels[1:3]] == [
        ["0213*", "0214*", "1000*"],
        ["021**", "021**", "100**"],
    ]
    assert list(text.levels[-1]) == ["*", "*", "*"]
    # a ZIP read as a number lost its zero: padded back to 5 digits
    num = prefix_hierarchy(pd.Series([2139, 10001], name="zip"))
    assert list(num.levels[2]) == ["021**", "100**"]


def test_date_hierarchy_month_year_decade():
    h = date_hierarchy(pd.Series(["1985-03-07", "1989-12-31"], name="dob"))
    assert [list(lv) for lv in h.levels[1:]] == [
        ["1985-03", "1989-12"],
        ["1985", "1989"],
        ["1980s", "1980s"],
        ["*", "*"],
    ]
    with pytest.raises(RiskcoreError, match="is not a date"):
        date_hierarchy(pd.Series(["1985-03-07", "soon"], name="dob"))


def test_grouping_names_a_value_it_does_not_place_and_refuses_a_non_nested_table():
    s = pd.Series(["a", "b", "c"], name="x")
    with pytest.raises(RiskcoreError, match="do not place 'c'"):
        grouping_hierarchy(s, [{"a": "ab", "b": "ab"}])
    with pytest.raises(
        RiskcoreError, match=r"'g' at level 1 has 2 parents at level 2 \('h1', 'h2'\)"
    ):
        Hierarchy(
            "x",
            np.array(["a", "b"], dtype=object),
            (
                np.array(["a", "b"], dtype=object),
                np.array(["g", "g"], dtype=object),
                np.array(["h1", "h2"], dtype=object),  # g splits: not a coarsening
            ),
        )


def test_arx_csv_round_trip():
    s = pd.Series(["Bachelors", "Masters", "HS-grad"], name="education")
    h = grouping_hierarchy(s, [{"Bachelors": "Higher", "Masters": "Higher", "HS-grad": "School"}])
    text = h.to_arx_csv()
    assert text.splitlines()[0] == "Bachelors;Higher;*"
    back = read_arx_hierarchy(text, "education")
    assert [list(a) for a in back.levels] == [list(a) for a in h.levels]
    with pytest.raises(RiskcoreError, match="line 2 has 2 fields"):
        read_arx_hierarchy("a;x;*\nb;*\n", "e")


def test_builtin_adult_hierarchies_cover_the_census_categories():
    df = pd.read_csv(shared_file("adult.csv"))
    for col in ("workclass", "education", "marital-status", "occupation", "native-country"):
        h = builtin_hierarchy(df[col])
        assert h is not None and h.height >= 2, col
        assert set(h.leaves) == set(df[col].dropna().unique()), col
    assert builtin_hierarchy(pd.Series(["x", "y"], name="education")) is None


# ------------------------------------------------------------------ evaluation


def test_ncp_and_suppression_by_hand():
    lat = ages_lattice(k=2, max_suppression=0.5)
    # age to decades (20-29, 30-39, 40-49), sex kept: classes (20s, F) x2, (30s, M) x1,
    # (40s, M) x2, (40s, F) x1 -> the two singletons are suppressed: 2 of 6 records
    node = lat.evaluate([1, 0])
    assert (node.suppressed, node.n_classes, node.k) == (2, 2, 2)
    assert node.anonymous  # 2 <= 0.5 * 6
    # NCP: age range R = 41 - 20 = 21. Kept cells: ages 20, 25 in 20-29 cost (25-20)/21 each,
    # ages 40, 40 in 40-49 (the data's 40s are 40, 41) cost (41-40)/21; sex costs 0.
    # Suppressed records cost 1 per cell: 2 records x 2 QIs.
    kept = 2 * 5 / 21 + 2 * 1 / 21
    assert node.ncp == pytest.approx((kept + 2 * 2) / (6 * 2))
    # precision: kept records at level 1 of 3 for age, 0 for sex; suppressed cost 1
    assert node.precision == pytest.approx((4 * (1 / 3 + 0) + 2 * 2) / (6 * 2))
    # discernibility: released classes 2^2 + 2^2, plus n = 6 per suppressed record
    assert node.discernibility == 2**2 + 2**2 + 2 * 6
    assert node.success_rate == pytest.approx(2 / 4)
    assert node.lower_bound == pytest.approx((2 * 5 / 21 + 3 * 1 / 21) / 12)
    assert not ages_lattice(k=2, max_suppression=0.3).evaluate([1, 0]).anonymous  # 2 > 0.3 * 6


def test_l_diversity_and_t_targets_suppress_the_classes_that_fail():
    # decades and sex: (20s, F) holds flu and hiv (2 values), (40s, M) only flu
    lat = ages_lattice(k=1, l=2, max_suppression=1.0)
    node = lat.evaluate([1, 0])
    # fails distinct 2-diversity: (30s, M) [flu], (40s, M) [flu, flu], (40s, F) [hiv]
    assert node.suppressed == 4 and node.n_classes == 1
    # t-closeness, equal distance: whole table flu 4/6, hiv 2/6. Class (20s, F) is
    # 1/2, 1/2: D = (|1/2 - 2/3| + |1/2 - 1/3|) / 2 = 1/6; (40s, M) flu only: D = 1/3
    lat_t = ages_lattice(k=1, t=0.2, max_suppression=1.0)
    _, sizes, bad = lat_t.failing([1, 0])
    groups = generalize_columns(AGES, lat_t.hierarchies, {"age": 1, "sex": 0})
    d = groups.groupby(["age", "sex"])["dx"].apply(
        lambda v: 0.5 * (abs((v == "flu").mean() - 4 / 6) + abs((v == "hiv").mean() - 2 / 6))
    )
    assert sorted(sizes[bad].tolist()) == sorted(
        groups.groupby(["age", "sex"]).size()[d > 0.2].tolist()
    )


def test_apply_drops_or_masks_the_suppressed_records():
    lat = ages_lattice(k=2, max_suppression=0.5)
    out = lat.apply(AGES, [1, 0])
    assert out.index.tolist() == [0, 1, 3, 4]  # the 30-year-old man and the 41-year-old woman
    assert out["age"].tolist() == ["20-29", "20-29", "40-49", "40-49"]
    masked = lat.apply(AGES, [1, 0], suppression="mask")
    assert masked.loc[[2, 5], "age"].tolist() == ["*", "*"]
    assert masked.loc[[2, 5], "sex"].tolist() == ["*", "*"]


# ------------------------------------------------------------------ search


@st.composite
def small_tables(draw):
    cols, hiers = draw_qi_table(draw)
    targets = Targets.of(
        k=draw(st.integers(1, 4)),
        l=draw(st.sampled_from([None, 2])),
        t=draw(st.sampled_from([None, 0.4])),
        max_suppression=draw(st.sampled_from([0.0, 0.1, 0.3])),
    )
    return pd.DataFrame(cols), hiers, targets


@given(small_tables(), st.sampled_from(["ncp", "precision"]))
def test_search_finds_the_exhaustive_optimum(case, objective):
    df, hiers, targets = case
    lat = Lattice(df, hiers, sensitive=["s"], targets=targets)
    result = search(lat, objective=objective)
    every = [lat.evaluate(node) for node in itertools.product(*(range(h + 1) for h in lat.heights))]
    ok = [r.loss(objective) for r in every if r.anonymous]
    if not ok:
        assert result.best is None
    else:
        assert result.best is not None and result.best.anonymous
        assert result.best.loss(objective) == pytest.approx(min(ok), abs=1e-12)
    # the bound never exceeds the loss, for every node
    assert all(r.lower_bound <= r.ncp + 1e-12 for r in every)
    assert result.evaluated <= lat.size


@given(small_tables())
def test_generalizing_a_qi_never_lowers_k_and_sizes_match_groupby(case):
    df, hiers, _ = case
    lat = Lattice(df, hiers)
    for node in itertools.product(*(range(h + 1) for h in lat.heights)):
        _, sizes = lat.classes(node)
        gen = generalize_columns(df, hiers, dict(zip(lat.quasi_identifiers, node, strict=True)))
        expected = gen.groupby(list(lat.quasi_identifiers), dropna=False).size()  # NaN keys kept
        assert sorted(sizes.tolist()) == sorted(expected.tolist())
        for i in range(len(node)):
            if node[i] < lat.heights[i]:
                up = list(node)
                up[i] += 1
                assert lat.classes(up)[1].min() >= sizes.min()


def test_adult_eight_qis_optimum_beats_the_greedy_baseline():
    df = pd.read_csv(shared_file("adult.csv"))
    qis = ["age", "workclass", "education", "marital-status", "occupation", "race", "sex",
           "native-country"]  # fmt: skip
    hiers = {
        q: interval_hierarchy(df[q], [5, 10, 20, 40])
        if q == "age"
        else builtin_hierarchy(df[q]) or flat_hierarchy(df[q])
        for q in qis
    }
    lat = Lattice(df, hiers, targets=Targets.of(k=5, max_suppression=0.02))
    result = search(lat)
    greedy = greedy_search(lat)
    assert result.best is not None and greedy is not None
    assert result.best.anonymous and result.best.k >= 5
    assert result.best.suppressed <= 0.02 * len(df)
    assert result.best.ncp <= greedy.ncp
    assert result.evaluated < lat.size  # pruned, not exhaustive


# ------------------------------------------------------------------ recipes


def test_recipe_round_trip_gives_the_identical_table_and_reports_new_values():
    lat = ages_lattice(k=2, max_suppression=0.5)
    best = search(lat).best
    assert best is not None
    table = lat.apply(AGES, best.levels)
    recipe = Recipe.of(
        lat.hierarchies, dict(zip(lat.quasi_identifiers, best.levels, strict=True)), lat.targets,
        sensitive=("dx",),
    )  # fmt: skip
    text = json.dumps(recipe.to_dict())
    again = apply_recipe(AGES, json.loads(text))
    pd.testing.assert_frame_equal(again.data, table)
    assert again.unknown_values == {} and again.within_limit
    # next month: a new sex value; ages are rebuilt by the interval rule
    nxt = pd.concat(
        [AGES, pd.DataFrame({"age": [99], "sex": ["X"], "dx": ["flu"]})], ignore_index=True
    )
    sex_table = Recipe.of(
        {"age": lat.hierarchies["age"], "sex": grouping_hierarchy(AGES["sex"], [])},
        {"age": 1, "sex": 0},
        Targets.of(k=1),
    )
    applied = apply_recipe(nxt, sex_table.to_dict())
    assert applied.unknown_values == {"sex": ["X"]} and applied.n_unknown == {"sex": 1}
    assert applied.data["age"].iloc[-1] == "90-99"
    with pytest.raises(RiskcoreError, match="has no column 'sex'"):
        apply_recipe(AGES.drop(columns="sex"), recipe)
    assert math.isfinite(best.ncp)


def test_distortion_of_a_sensitive_attribute_by_suppression():
    lat = ages_lattice(k=2, max_suppression=0.5)
    node = lat.evaluate([1, 0])
    # suppressed: the 30-year-old man (flu) and the 41-year-old woman (hiv); the release
    # keeps flu 3, hiv 1 of 4 where the table has flu 4, hiv 2 of 6
    p, q = [3 / 4, 1 / 4], [4 / 6, 2 / 6]
    expected = sum(a * math.log(a / b) for a, b in zip(p, q, strict=True))
    assert node.distortion == {"dx": pytest.approx(expected)}
    assert lat.evaluate([3, 1]).distortion == {"dx": 0.0}  # nothing suppressed
    assert lat.as_recorded().distortion == {"dx": 0.0}
    # the field survives JSON
    from riskcore.deidentify.search.lattice import NodeResult

    assert NodeResult.from_dict(json.loads(json.dumps(node.to_dict()))) == node


def test_a_quasi_identifier_of_only_missing_values_generalizes():
    # issue 17: an uploaded column of only missing values (read as numbers) has a hierarchy
    # with no leaves; the lattice, its loss and the generalized table took leaf 0 of none
    df = pd.DataFrame({"a": [1, 2, 3], "b": [np.nan] * 3})
    h = {q: default_hierarchy(df[q]) for q in ("a", "b")}
    assert len(h["b"].leaves) == 0
    lat = Lattice(df, h, targets=Targets.of(k=1))
    for level in range(h["b"].height + 1):
        node = lat.evaluate([0, level])
        # the missing values are one more value: a's three values make three classes
        assert (node.n_classes, node.k, node.suppressed) == (3, 1, 0)
        assert node.ncp == 0.0  # a kept as it is, and a missing value costs nothing
    out = generalize_columns(df, h, {"b": h["b"].height})
    assert out["b"].isna().all() and out["a"].tolist() == [1, 2, 3]
