"""Why is this record risky: the combinations of its values and the generalization covering it.

Hand-worked examples (the working in the comments) and an independent
computation: every node of the lattice applied to the rows with pandas, the
record's class counted on the generalized rows.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import Hierarchy
from riskcore.deidentify.search.cover import RecordCover, cover_record
from riskcore.deidentify.search.lattice import Lattice
from riskcore.errors import RiskcoreError
from riskcore.metrics.explain import record_subsets


def _hierarchy(column: str, rows: list[list[object]]) -> Hierarchy:
    levels = tuple(np.asarray(c, dtype=object) for c in zip(*rows, strict=True))
    return Hierarchy(column, levels[0], levels)


# age: 30, 31, 32 -> "30-39"; 45 -> "40-49"; then "*" (height 2)
AGE = _hierarchy(
    "age", [[30, "30-39", "*"], [31, "30-39", "*"], [32, "30-39", "*"], [45, "40-49", "*"]]
)
# zip: 0213x -> "0213*", 02141 -> "0214*", all 021xx -> "021**"; then "*" (height 3)
ZIP = _hierarchy(
    "zip",
    [
        ["02139", "0213*", "021**", "*"],
        ["02138", "0213*", "021**", "*"],
        ["02141", "0214*", "021**", "*"],
        ["10001", "1000*", "100**", "*"],
    ],
)
PEOPLE = pd.DataFrame(
    {
        "age": [30, 31, 32, 30, 45, 31],
        "zip": ["02139", "02139", "02138", "02141", "10001", "02138"],
    }
)


def _lattice(df: pd.DataFrame, k: int = 3) -> Lattice:
    return Lattice(df, {"age": AGE, "zip": ZIP}, targets=Targets.of(k=k))


def test_the_least_generalization_covering_row_1_by_hand():
    # Row 1 is (30, 02139), alone. Its class under each node (age level, zip level):
    #   (1,0) 30-39 & 02139: rows 1, 2          -> 2
    #   (0,1) 30 & 0213*:    row 1              -> 1
    #   (0,2) 30 & 021**:    rows 1, 4          -> 2
    #   (0,3) 30 & *:        rows 1, 4          -> 2
    #   (2,0) * & 02139:     rows 1, 2          -> 2
    #   (1,1) 30-39 & 0213*: rows 1, 2, 3, 6    -> 4   the only minimal node reaching 3
    # Precision loss of (1,1): (1/2 + 1/3) / 2 = 5/12. No QI alone reaches 3.
    c = cover_record(_lattice(PEOPLE), 1, objective="precision")
    assert isinstance(c, RecordCover)
    assert c.class_size == 1
    assert c.values == ("30", "02139")
    assert c.levels == (1, 1)
    assert c.covered_size == 4
    assert c.generalized == ("30-39", "0213*")
    assert c.loss == pytest.approx(5 / 12)
    assert c.minimal_nodes == 1
    # covering nodes: (1,1) 4, (1,2) 5, (1,3) 5, (2,1) 4, (2,2) 5, (2,3) 6 -> 6 of 12
    assert c.covering_nodes == 6
    assert c.single_levels == (None, None)


def test_with_k_2_two_minimal_nodes_and_the_cheaper_wins():
    # k = 2: (1,0) and (0,2) are minimal; precision (1/2)/2 = 0.25 against (2/3)/2 = 1/3.
    c = cover_record(_lattice(PEOPLE), 1, k=2, objective="precision")
    assert c.levels == (1, 0)
    assert c.generalized == ("30-39", "02139")
    assert c.minimal == ((1, 0), (0, 2))
    assert c.minimal_loss == pytest.approx((0.25, 1 / 3))
    assert c.minimal_size == (2, 2)
    assert c.minimal_labels == (("30-39", "02139"), ("30", "021**"))
    assert c.single_levels == (1, 2)
    assert c.single_loss == pytest.approx((0.25, 1 / 3))


def test_a_record_already_in_a_big_enough_class_needs_nothing():
    # row 2 (31, 02139) with k = 1: level 0 everywhere, loss 0
    c = cover_record(_lattice(PEOPLE), 2, k=1)
    assert c.levels == (0, 0) and c.loss == 0 and c.covered_size == 1


def test_no_node_covers_when_the_table_is_smaller_than_k():
    c = cover_record(_lattice(PEOPLE), 5, k=7)
    assert c.levels is None and c.covering_nodes == 0 and c.generalized == ()
    assert np.isnan(c.loss)
    assert c.to_dict()["levels"] is None


def test_a_missing_value_matches_only_missing_values():
    df = pd.DataFrame({"age": [30, 31, 32, 30], "zip": ["02139", None, None, "02139"]})
    # row 2 (31, missing): zip stays missing at every level, so only rows 2 and 3 can
    # join it, at age level 1 (30-39): size 2
    c = cover_record(_lattice(df, k=2), 2, objective="precision")
    assert c.levels == (1, 0)
    assert c.generalized == ("30-39", None)
    assert c.covered_size == 2
    assert cover_record(_lattice(df, k=3), 2).levels is None


@pytest.mark.parametrize("row", [0, 7, True, 1.0])
def test_a_bad_row_number_is_a_clear_error(row):
    with pytest.raises(RiskcoreError, match="row must be a row number from 1 to 6"):
        cover_record(_lattice(PEOPLE), row)


@pytest.mark.parametrize("k", [0, 2.5, True])
def test_a_bad_k_is_a_clear_error(k):
    with pytest.raises(RiskcoreError, match="k must be a whole number of at least 1"):
        cover_record(_lattice(PEOPLE), 1, k=k)


def _brute_force(df: pd.DataFrame, hs: dict[str, Hierarchy], lattice: Lattice, row: int, k: int):
    """The record's class size under every node, from the generalized rows."""
    best = None
    sizes = {}
    for node in itertools.product(*(range(h.height + 1) for h in hs.values())):
        gen = pd.DataFrame(
            {
                q: df[q].map(dict(zip(h.levels[0], h.levels[x], strict=True)))
                for (q, h), x in zip(hs.items(), node, strict=True)
            }
        )
        same = np.ones(len(df), dtype=bool)
        for q in hs:
            mine = gen[q].iloc[row - 1]
            same &= gen[q].isna().to_numpy() if pd.isna(mine) else (gen[q] == mine).to_numpy()
        sizes[node] = int(same.sum())
        if sizes[node] >= k:
            key = (round(lattice.lower_bound(node), 12), sum(node), node)
            best = key if best is None or key < best else best
    return sizes, None if best is None else best[2]


@pytest.mark.parametrize("seed", range(12))
def test_the_cover_equals_every_node_applied_to_the_rows(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 60))
    a_leaves = [f"a{i}" for i in range(6)]
    b_leaves = [f"b{i}" for i in range(8)]
    ha = _hierarchy("a", [[v, f"A{i // 2}", f"AA{i // 4}", "*"] for i, v in enumerate(a_leaves)])
    hb = _hierarchy("b", [[v, f"B{i // 3}", "*"] for i, v in enumerate(b_leaves)])
    hc = _hierarchy("c", [["x", "*"], ["y", "*"], ["z", "*"]])
    df = pd.DataFrame(
        {
            "a": rng.choice(a_leaves, n),
            "b": rng.choice([*b_leaves, None], n),
            "c": rng.choice(["x", "y", "z"], n),
        }
    )
    hs = {"a": ha, "b": hb, "c": hc}
    k = int(rng.integers(2, 8))
    lattice = Lattice(df, hs, targets=Targets.of(k=k))
    for row in rng.choice(np.arange(1, n + 1), size=min(n, 5), replace=False):
        c = cover_record(lattice, int(row))
        sizes, best = _brute_force(df, hs, lattice, int(row), k)
        assert c.levels == best
        assert c.covering_nodes == sum(s >= k for s in sizes.values())
        assert c.class_size == sizes[(0, 0, 0)]
        if best is not None:
            assert c.covered_size == sizes[best]
            for node, size in zip(c.minimal, c.minimal_size, strict=True):
                assert sizes[node] == size >= k


# ------------------------------------------------------------------ record_subsets


def test_subsets_of_row_1_by_hand():
    # row 1 = (30, 02139): age 30 is shared by rows 1, 4 (2); zip 02139 by rows 1, 2 (2);
    # both by row 1 only (1), its minimal sample unique
    t = record_subsets(PEOPLE, ("age", "zip"), 1, msus=(("age", "zip"),))
    assert t.to_dict("list") == {
        "columns": [("age",), ("zip",), ("age", "zip")],
        "size": [1, 1, 2],
        "sharing": [2, 2, 1],
        "msu": [False, False, True],
    }


@pytest.mark.parametrize("seed", range(8))
def test_subsets_count_the_rows_sharing_the_values(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 80))
    df = pd.DataFrame(
        {
            "a": rng.integers(0, 3, n),
            "b": rng.choice(["x", "y", None], n),
            "c": rng.integers(0, 2, n),
            "d": rng.choice(["p", "q", "r", "s"], n),
        }
    ).sample(frac=1, random_state=seed)  # a shuffled, non-range index
    qis = ("a", "b", "c", "d")
    row = int(rng.integers(1, n + 1))
    t = record_subsets(df, qis, row).set_index("columns")
    assert len(t) == 15
    mine = df.iloc[row - 1]
    for size in range(1, 5):
        for cols in itertools.combinations(qis, size):
            same = np.ones(n, dtype=bool)
            for q in cols:
                col = df[q]
                same &= col.isna().to_numpy() if pd.isna(mine[q]) else (col == mine[q]).to_numpy()
            assert t.loc[[cols], "sharing"].iloc[0] == same.sum()


def test_subsets_above_ten_qis_keep_the_small_ones_the_msus_and_all():
    rng = np.random.default_rng(0)
    qis = tuple(f"q{i}" for i in range(12))
    df = pd.DataFrame({q: rng.integers(0, 2, 40) for q in qis})
    msu = ("q0", "q3", "q5", "q7")
    t = record_subsets(df, qis, 1, msus=(msu,))
    expected = 12 + 66 + 220 + 1 + 1  # sizes 1-3, the MSU of 4, all 12
    assert len(t) == expected
    assert t.loc[t["msu"], "columns"].tolist() == [msu]
    assert t["columns"].iloc[-1] == qis


def test_subsets_refuse_an_msu_of_another_column():
    with pytest.raises(RiskcoreError, match="not a QI"):
        record_subsets(PEOPLE, ("age", "zip"), 1, msus=(("name",),))


# ------------------------------------------------------------------ readings


def test_cover_reading_and_table_by_hand():
    from riskcore.report.readings import (
        cover_caption,
        cover_columns_help,
        cover_reading,
        cover_table,
    )

    c = cover_record(_lattice(PEOPLE), 1, k=2, objective="precision")
    text = cover_reading(c, escape=lambda x: f"<{x}>")
    assert text.startswith(
        "Generalizing <age> <30> to <30-39> (the other quasi-identifiers as recorded) puts "
        "row 1 in a class of 2 (k = 2)"
    )
    assert "losing 25% of the table's detail (precision loss" in text
    # zip alone (level 2, 021**) also covers it, at 1/3
    assert text.endswith(
        "One column generalized alone would also do: <zip> alone to <021**> (33%)."
    )
    table = cover_table(c)
    # one short column per QI generalized, blank where kept (a sentence per row was cut)
    assert list(table.columns) == ["age", "zip", "levels", "class size", "information loss (%)"]
    assert table["age"].tolist() == ["30-39", ""]
    assert table["zip"].tolist() == ["", "021**"]
    assert table["levels"].tolist() == ["1, 0", "0, 2"]
    assert table["information loss (%)"].tolist() == pytest.approx([25, 100 / 3])
    tips = cover_columns_help(c)
    assert tips["age"] == (
        "age of row 1 under each generalization (as recorded: 30; blank: kept as recorded)"
    )
    assert set(tips) == {"age", "zip", "levels", "class size"}
    # the caption of the static table on the Uniqueness page (no tooltips there)
    assert cover_caption(c, escape=lambda x: f"<{x}>") == (
        "Each row is one generalization: a quasi-identifier's column holds row 1's value "
        "under it, blank where it is kept as recorded (<age> <30>, <zip> <02139>); levels: "
        "one per quasi-identifier (<age>, <zip>), 0 = as recorded; class size: the records "
        "sharing the row's generalized values."
    )


def test_a_qi_named_like_a_cover_column_gets_its_own_name():
    from riskcore.report.readings import cover_table

    people = PEOPLE.rename(columns={"age": "levels"})
    lattice = Lattice(people, {"levels": AGE, "zip": ZIP}, targets=Targets.of(k=3))
    table = cover_table(cover_record(lattice, 1, k=2))
    assert list(table.columns)[:2] == ["levels (generalized)", "zip"]
    assert table["levels (generalized)"].tolist() == ["30-39", ""]


def test_cover_reading_when_nothing_or_everything_covers():
    from riskcore.report.readings import cover_reading

    none = cover_reading(cover_record(_lattice(PEOPLE), 1, k=7))
    assert none.startswith("No generalization within the hierarchies puts row 1 in a class of 7")
    done = cover_reading(cover_record(_lattice(PEOPLE), 2, k=1))
    assert done == "Row 2 is already in a class of 1 (k = 1): no generalization is needed for it."
    both = cover_reading(cover_record(_lattice(PEOPLE), 1, k=3))
    assert both.endswith("No single quasi-identifier generalized alone is enough.")


def test_subset_table_puts_msus_first_and_leaves_out_their_supersets():
    from riskcore.metrics.explain import explain_record
    from riskcore.report.readings import msu_list, record_subset_table

    df = pd.DataFrame({"a": [1, 1, 2, 2], "b": ["x", "y", "x", "y"], "c": [0, 0, 0, 1]})
    # row 4 (2, y, 1): c = 1 alone is unique; (a, b) = (2, y) is unique too, and minimal
    e = explain_record(df, ("a", "b", "c"), 4)
    assert e.msus == (("c",), ("a", "b"))
    t = record_subset_table(record_subsets(df, ("a", "b", "c"), 4, msus=e.msus), e)
    # one column per QI, the record's value where the combination holds it ("c = 1",
    # "a = 2 + b = y", "a = 2", "b = y"): a sentence a row was cut at 1024 px
    assert list(t.columns[:3]) == ["a", "b", "c"]
    assert t["a"].tolist() == ["", "2", "2", ""]
    assert t["b"].tolist() == ["", "y", "", "y"]
    assert t["c"].tolist() == ["1", "", "", ""]
    assert t["records sharing"].tolist() == [1, 1, 2, 2]
    assert t["minimal sample unique"].tolist() == [True, True, False, False]
    assert msu_list(e, escape=lambda x: f"<{x}>") == (
        "- **unique by <c> = <1> alone**\n- **unique by <a> = <2> + <b> = <y> alone**"
    )


@pytest.mark.parametrize("seed", range(6))
def test_the_minimal_unique_combinations_of_the_counts_are_the_suda_msus(seed):
    """Two independent routes to a record's MSUs: SUDA2's search over the whole table, and the
    minimal combinations that record_subsets counts as shared by the record alone."""
    from riskcore.metrics.special_uniques import suda

    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 60))
    qis = ("a", "b", "c", "d")
    df = pd.DataFrame({q: rng.integers(0, int(rng.integers(2, 5)), n) for q in qis})
    s = suda(df, qis)
    for row in range(1, n + 1):
        t = record_subsets(df, qis, row)
        unique = [set(c) for c, k in zip(t["columns"], t["sharing"], strict=True) if k == 1]
        minimal = {
            tuple(q for q in qis if q in u) for u in unique if not any(v < u for v in unique)
        }
        assert minimal == set(s.msus_of(row - 1))
