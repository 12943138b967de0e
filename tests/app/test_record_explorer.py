"""AppTest: the record explorer of the Uniqueness page, checked against pandas on the same rows."""

from __future__ import annotations

import numpy as np
import pandas as pd

from riskcore.deidentify.hierarchy import default_hierarchy
from riskcore.deidentify.recipe.base import generalize_columns
from riskcore.demo import make_people
from riskcore.metrics.special_uniques import suda
from riskcore.roles import suggest_roles
from tests.app.helpers import (
    data_uploader,
    metrics,
    run,
    seen,
    set_roles,
    static_table,
)

PAGE = "pages/uniqueness.py"


def _class_sizes(df: pd.DataFrame, qis: list[str]) -> np.ndarray:
    return df.groupby(qis, dropna=False, observed=True, sort=False)[qis[0]].transform("size")


def _frame(at, column: str) -> pd.DataFrame:
    """Return the page's table that has ``column``."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def _explorer_markdown(at) -> list[str]:
    return [seen(x.value) for x in at.markdown]


def test_the_explorer_opens_on_the_riskiest_record_and_explains_it():
    at = run(PAGE)
    df = make_people(32_561, seed=0)
    qis = list(suggest_roles(df).roles.quasi_identifiers)
    size = _class_sizes(df, qis).to_numpy()
    s = suda(df, qis)
    # riskiest: smallest class, then highest DIS-SUDA, then the lowest row number (from 1)
    order = sorted(range(len(df)), key=lambda i: (size[i], -s.dis_score[i], i))
    first = order[0] + 1
    m = metrics(at)
    assert m["Row"] == f"{first:,}"
    assert m["Class size"] == f"{size[first - 1]:,}"
    texts = _explorer_markdown(at)
    assert any(t.startswith(f"Row {first:,} is the only record") for t in texts)
    msus = s.msus_of(first - 1)
    assert msus, "the riskiest demo record has a minimal sample unique"
    bullet = next(t for t in texts if t.startswith("- **unique by"))
    assert bullet.startswith(
        "- **unique by " + " + ".join(f"{q} = {df[q].iloc[first - 1]}" for q in msus[0])
    )
    values = _frame(at, "records with this value")
    assert values["quasi-identifier"].tolist() == qis  # QIs only: no name, no SSN
    assert not set(values["value"].astype(str)) & {df["name"].iloc[first - 1]}
    # each value alone: the records sharing it, counted by pandas
    for q, v, count in values[["quasi-identifier", "value", "records with this value"]].values:
        assert count == int((df[q].astype(str) == v).sum())
    subsets = _frame(at, "minimal sample unique")
    assert subsets["minimal sample unique"].iloc[: len(msus)].all()
    assert (subsets.loc[subsets["minimal sample unique"], "records sharing"] == 1).all()


def test_the_explorer_by_row_number_and_the_generalization_that_covers_it():
    at = run(PAGE)
    at.radio(key="rc_explore_how").set_value("By row number").run()
    df = make_people(32_561, seed=0)
    qis = list(suggest_roles(df).roles.quasi_identifiers)
    size = _class_sizes(df, qis).to_numpy()
    row = int(np.flatnonzero(size == 1)[0]) + 1  # the first unique record, numbered from 1
    at.number_input(key="rc_explore_row").set_value(row).run()
    assert not at.exception
    m = metrics(at)
    assert m["Row"] == f"{row:,}" and m["Class size"] == "1"
    values = _frame(at, "records with this value")
    assert values["value"].tolist() == [str(df[q].iloc[row - 1]) for q in qis]
    cover = static_table(at, "information loss (%)")  # a static table: every cell whole
    levels = [int(x) for x in cover["levels"].iloc[0].split(", ")]
    # the first generalization applied to every row by pandas: the record's class reaches k
    hs = {q: default_hierarchy(df[q]) for q in qis}
    gen = generalize_columns(df, hs, dict(zip(qis, levels, strict=True)))[qis].astype(str)
    shared = int((gen == gen.iloc[row - 1]).all(axis=1).sum())
    assert shared == int(cover["class size"].iloc[0]) >= 11
    assert cover["information loss (%)"].astype(float).is_monotonic_increasing
    texts = _explorer_markdown(at)
    assert any(
        t.startswith("Generalizing ") and f"puts row {row:,} in a class of {shared:,}" in t
        for t in texts
    )


def test_hostile_values_in_the_explorer_stay_text():
    hostile = "![p](http://127.0.0.9/px.png)"
    df = pd.DataFrame(
        {"age": [30, 31, 30, 31, 45], "city": ["a", "a", "b", "b", hostile], "sex": ["F"] * 5}
    )
    at = run()
    data_uploader(at).set_value(("h.csv", df.to_csv(index=False).encode(), "text/csv")).run()
    roles = {"age": "quasi_identifier", "city": "quasi_identifier", "sex": "other"}
    set_roles(at, roles)
    at.switch_page(PAGE).run()
    at.radio(key="rc_explore_how").set_value("By row number").run()
    at.number_input(key="rc_explore_row").set_value(5).run()
    assert not at.exception
    raw = [x.value for x in at.markdown]
    assert any(hostile in seen(v) for v in raw)  # shown, as text
    assert not any("](http" in v for v in raw)  # never as markup


def test_the_explorer_on_the_generalized_table_numbers_its_rows():
    at = run("pages/remediate.py")
    at.button(key="rc_rem_search").click().run()
    at.button(key="rc_rem_use").click().run()
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    assert any("Row numbers are the file's" in seen(i.value) for i in at.info)
    m = metrics(at)
    records = int(m["Records"].replace(",", ""))
    assert records < 32_561  # some were suppressed
    # every released class meets k = 11, so even the riskiest record is in a class of 11+
    assert int(m["Class size"].replace(",", "")) >= 11
    riskiest = m["Row"]  # the file's row number of the riskiest released record
    at.radio(key="rc_explore_how").set_value("By row number").run()
    at.number_input(key="rc_explore_row").set_value(int(riskiest.replace(",", ""))).run()
    assert not at.exception
    assert metrics(at)["Row"] == riskiest
    assert any(
        seen(x.value).startswith(f"Row {riskiest} is already in a class") for x in at.markdown
    )
    # the last row of the file exists (released or suppressed: said either way)
    at.number_input(key="rc_explore_row").set_value(32_561).run()
    assert not at.exception
    assert metrics(at).get("Row") == "32,561" or any(
        "Row 32,561 of the file is suppressed" in seen(i.value) for i in at.info
    )
