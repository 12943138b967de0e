"""User-given hierarchies (edited tables, ARX files) are checked with clear messages; numeric
bands clip outliers (bottom and top coding)."""

from __future__ import annotations

import pandas as pd
import pytest

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import (
    banded_hierarchy,
    hierarchy_from_spec,
    hierarchy_from_table,
    read_arx_hierarchy,
)
from riskcore.deidentify.recipe.apply import apply_recipe
from riskcore.deidentify.recipe.base import Recipe
from riskcore.deidentify.search.lattice import Lattice
from riskcore.errors import RiskcoreError

EDU = pd.Series(["HS", "BA", "MA", "BA", "PhD"], name="edu")


def _table(rows):
    return pd.DataFrame(rows, columns=[f"level {i}" for i in range(len(rows[0]))])


def test_an_edited_table_becomes_the_hierarchy_and_the_recipe_keeps_it():
    rows = [["HS", "School", "*"], ["BA", "College", "*"], ["MA", "College", "*"],
            ["PhD", "College", "*"]]  # fmt: skip
    h = hierarchy_from_table(_table(rows), EDU)
    assert h.height == 2 and h.kind == "table"
    assert list(h.levels[1]) == ["School", "College", "College", "College"]
    # at level 1 the classes are School (1) and College (4): k = 1, counted by hand
    lat = Lattice(EDU.to_frame(), {"edu": h}, targets=Targets.of(k=1))
    assert lat.evaluate((1,)).k == 1 and lat.evaluate((1,)).n_classes == 2
    rec = Recipe.of({"edu": h}, {"edu": 1}, Targets.of(k=1))
    out = apply_recipe(EDU.to_frame(), rec.to_dict()).data
    assert out["edu"].tolist() == ["School", "College", "College", "College", "College"]
    again = hierarchy_from_spec(EDU, rec.hierarchies["edu"])
    assert [list(x) for x in again.levels] == [list(x) for x in h.levels]
    # ARX's format, written and read back
    back = read_arx_hierarchy(h.to_arx_csv(), "edu")
    assert [list(x) for x in back.levels] == [list(x) for x in h.levels]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([["HS", "School", "*"], ["BA", "College", "*"]],
         r"no row for 2 values of the column \('MA', 'PhD'\): every value needs a row"),
        ([["HS", "School", "*"], ["BA", "College", "*"], ["MA", "College", "*"],
          ["PhD", "College", "Top"]],
         r"'College' at level 1 has 2 parents at level 2 \('\*', 'Top'\)"),
        ([["HS", "School", "*"], ["BA", "", "*"], ["MA", "College", "*"], ["PhD", "College", "*"]],
         r"an empty label at level 1 \(the row of 'BA'\)"),
        ([["HS", "School", "*"], ["BA", "College", "*"], ["BA", "College", "*"],
          ["MA", "College", "*"], ["PhD", "College", "*"]],
         "lists the value 'BA' twice"),
        ([["HS"], ["BA"], ["MA"], ["PhD"]], "needs at least two levels"),
    ],
)  # fmt: skip
def test_a_bad_table_is_refused_with_a_message_naming_what_is_wrong(rows, message):
    with pytest.raises(RiskcoreError, match=message):
        hierarchy_from_table(_table(rows), EDU)


def test_numbers_in_a_table_match_a_numeric_column():
    ages = pd.Series([30, 35, 41, 30], name="age")
    rows = [["30", "30-39", "*"], ["35", "30-39", "*"], ["41", "40-49", "*"]]
    h = hierarchy_from_table(_table(rows), ages)
    assert h.numeric and h.leaf_index(ages).tolist() == [0, 1, 2, 0]
    with pytest.raises(RiskcoreError, match="'age' holds numbers, and the hierarchy's value 'x'"):
        hierarchy_from_table(_table([["x", "a", "*"], *rows]), ages)


def test_outliers_are_clipped_by_bottom_and_top_coding():
    ages = pd.Series([3, 25, 27, 34, 38, 95, 101], name="age")
    h = banded_hierarchy(ages, 10, bottom=18, top=90)
    # by hand: bands of 10 from 10 (widest 80 -> start 0), below 18 "<18", 90 and over "90+"
    assert list(h.levels[1]) == ["<18", "20-29", "20-29", "30-39", "30-39", "90+", "90+"]
    assert h.params["bottom"] == 18 and h.params["top"] == 90
    # the two oldest now share a class at level 1 instead of being unique
    lat = Lattice(ages.to_frame(), {"age": h}, targets=Targets.of(k=1))
    sizes = pd.Series(h.levels[1]).value_counts()
    assert sizes["90+"] == 2 and lat.evaluate((1,)).k == 1
    with pytest.raises(RiskcoreError, match="bottom coding must lie below top coding"):
        banded_hierarchy(ages, 10, bottom=90, top=18)


def test_to_frame_sorts_numbers_by_value_for_editing():
    h = banded_hierarchy(pd.Series([35, 4, 120, 27], name="age"), 10)
    assert h.to_frame(sort=True)["level 0"].tolist() == [4, 27, 35, 120]
    assert h.to_frame()["level 0"].tolist() == [35, 4, 120, 27]  # first appearance


@pytest.mark.parametrize(
    ("values", "month"),
    [
        (["03/04/1985", "12/31/1990", "01/15/2001"], "1985-03"),  # US MM/DD/YYYY
        (["03/04/1985", "31/12/1990", "15/01/2001"], "1985-04"),  # a day above 12: DD/MM
        (["03.04.1985", "31.12.1990", "15.01.2001"], "1985-04"),  # DD.MM.YYYY
        (["1985-03-04", "1990-12-31", "2001-01-15"], "1985-03"),  # ISO
    ],
)
def test_common_date_forms_get_a_date_hierarchy(values, month):
    from riskcore.deidentify.hierarchy import default_hierarchy

    h = default_hierarchy(pd.Series([*values, None], name="admitted"))
    assert h.kind == "date" and h.height == 4  # month, year, decade, *
    rows = zip(*[lv.tolist() for lv in h.levels], strict=True)
    labels = dict(zip(h.leaves.tolist(), rows, strict=True))
    assert labels[values[0]][1:4] == (month, "1985", "1980s")
    assert labels[values[1]][2:4] == ("1990", "1990s")
    # a recipe rebuilds the same hierarchy on the same text
    recipe = Recipe.of({"admitted": h}, {"admitted": 2}, Targets.of(k=1))
    out = apply_recipe(pd.DataFrame({"admitted": values}), recipe).data
    assert out["admitted"].tolist() == ["1985", "1990", "2001"]


def test_leaf_index_looks_each_distinct_value_up_once(monkeypatch):
    # issue 38: a million-row column was converted to objects and looked up row by row;
    # the positions are those of a row-by-row lookup: 30 and 30.0 one leaf, -1 unheld, -2 missing
    ages = pd.Series([30, 35.0, 41, None, 30, 77, 35], name="age", dtype=object)
    rows = [["30", "30-39", "*"], ["35", "30-39", "*"], ["41", "40-49", "*"]]
    h = hierarchy_from_table(_table(rows), pd.Series([30, 35, 41], name="age"))
    looked_up: list[int] = []
    original = pd.Index.get_indexer

    def counting(self: pd.Index, target: object, *args: object, **kwargs: object) -> object:
        looked_up.append(len(target))  # type: ignore[arg-type]
        return original(self, target, *args, **kwargs)

    monkeypatch.setattr(pd.Index, "get_indexer", counting)
    assert h.leaf_index(ages).tolist() == [0, 1, 2, -2, 0, -1, 1]
    assert looked_up == [4]  # 30, 35, 41, 77
    codes = pd.Series(pd.Categorical(["41", "30", None, "41"]))
    assert h.leaf_index(codes).tolist() == [2, 0, -2, 2]


def test_a_categorical_is_looked_up_from_its_codes_as_its_values_are(monkeypatch):
    # issue 38, item 20: a categorical column's leaves come from its categories and codes (no
    # hash of a million codes); the same positions as its values as objects, unused
    # categories, unheld values, missing cells and 30 against "30" of a numeric hierarchy too
    rows = [["30", "30-39", "*"], ["35", "30-39", "*"], ["41", "40-49", "*"]]
    h = hierarchy_from_table(_table(rows), pd.Series([30, 35, 41], name="age"))
    values = [41.0, 30.0, None, 77.0, 41.0, 35.0]
    cat = pd.Series(pd.Categorical(values, categories=[30.0, 35.0, 41.0, 77.0, 99.0]))
    as_objects = pd.Series(values, dtype=object)
    assert h.leaf_index(cat).tolist() == h.leaf_index(as_objects).tolist() == [2, 0, -2, -1, 2, 1]
    text = pd.Series(pd.Categorical(["41", "x", None, "30"], categories=["30", "41", "x", "y"]))
    assert h.leaf_index(text).tolist() == [2, -1, -2, 0]

    def no_hash(*args: object, **kwargs: object) -> object:
        raise AssertionError("a categorical's codes were hashed")

    monkeypatch.setattr(pd, "factorize", no_hash)
    assert h.leaf_index(cat).tolist() == [2, 0, -2, -1, 2, 1]
