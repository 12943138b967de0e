"""The report's utility views: each released column's values before and after, a two-way table.

The review holds them as plain values (:mod:`riskcore.review.utility`); they must equal
:func:`riskcore.utility.tables.value_counts` and :func:`~riskcore.utility.tables.two_way`
computed apart, survive the JSON twin (older twins without them still load), and the
document states each reading, with its figure before it.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from markupsafe import escape
from scipy.stats.contingency import association

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import default_hierarchy, interval_hierarchy
from riskcore.deidentify.recipe.apply import apply_recipe
from riskcore.deidentify.recipe.base import Recipe, generalize_columns
from riskcore.demo import make_people
from riskcore.profile import Profile
from riskcore.report.readings.utility import two_way_reading, values_reading
from riskcore.report.render import figure_objects, render_html
from riskcore.review import review
from riskcore.review.results import Review
from riskcore.review.utility import REPORT_TOP_VALUES
from riskcore.utility.tables import two_way, value_counts

SENS = "income"


@pytest.fixture(scope="module")
def people() -> pd.DataFrame:
    return make_people(800, seed=1)


def _recipe(people: pd.DataFrame) -> dict:
    return Recipe.of(
        {"age": interval_hierarchy(people["age"], [10, 20]),
         "sex": default_hierarchy(people["sex"])},
        {"age": 1, "sex": 0},
        Targets.of(k=5, max_suppression=0.1),
    ).to_dict()  # fmt: skip


def _review(people: pd.DataFrame, sensitive: list[str]) -> Review:
    profile = Profile.from_dict(
        {"quasi_identifiers": ["age", "sex"], "sensitive": sensitive,
         "recipe": _recipe(people), "targets": {"k": 5}}
    )  # fmt: skip
    return review(people, profile)


@pytest.fixture(scope="module")
def reviewed(people: pd.DataFrame) -> Review:
    return _review(people, [SENS])


@pytest.fixture(scope="module")
def released(people: pd.DataFrame) -> pd.DataFrame:
    return apply_recipe(people, _recipe(people)).data


def test_the_review_holds_each_columns_values_as_value_counts_gives_them(
    people, reviewed, released
):
    rem = reviewed.remediation
    assert rem is not None
    assert [v.column for v in rem.value_counts] == ["age", "sex", SENS]
    # age is released in bands of 10: its recorded values are counted in those bands
    h = interval_hierarchy(people["age"], [10, 20])
    as_bands = generalize_columns(people[["age"]], {"age": h}, {"age": 1})["age"]
    apart = {
        "age": value_counts(people["age"], released["age"], released_as=as_bands,
                            top=REPORT_TOP_VALUES, bins=REPORT_TOP_VALUES),
        "sex": value_counts(people["sex"], released["sex"], top=REPORT_TOP_VALUES),
        SENS: value_counts(people[SENS], released[SENS], top=REPORT_TOP_VALUES),
    }  # fmt: skip
    for v in rem.value_counts:
        pd.testing.assert_frame_equal(v.frame(), apart[v.column], check_dtype=False)
        assert sum(v.before) == len(people) and sum(v.after) == len(released)
    age = rem.value_counts[0]
    thirties = int(((people["age"] >= 30) & (people["age"] < 40)).sum())  # by hand
    assert age.before[age.values.index("30-39")] == thirties


def test_the_two_way_table_is_the_first_qi_against_the_first_sensitive_attribute(
    people, reviewed, released
):
    rem = reviewed.remediation
    assert rem is not None and rem.two_way is not None
    tw = two_way(people, released, "age", SENS)
    assert rem.two_way.two_way == tw
    full = rem.two_way.full()
    for got, want in ((full.before, tw.before), (full.after, tw.after)):
        assert got.to_numpy().tolist() == want.to_numpy().tolist()
        assert list(got.index) == [str(x) for x in want.index]
        assert list(got.columns) == [str(x) for x in want.columns]
    # Cramer's V of the released table, by scipy (no correction)
    table = pd.crosstab(released["age"], released[SENS]).to_numpy()
    assert rem.two_way.two_way.v_after == pytest.approx(association(table, method="cramer"))


def test_without_a_sensitive_attribute_the_two_way_table_is_of_the_first_two_qis(people):
    rem = _review(people, []).remediation
    assert rem is not None and rem.two_way is not None
    assert (rem.two_way.two_way.rows, rem.two_way.two_way.columns) == ("age", "sex")
    assert [v.column for v in rem.value_counts] == ["age", "sex"]


def test_the_json_twin_holds_the_counts_and_an_older_twin_still_loads(reviewed):
    rem = reviewed.remediation
    assert rem is not None and rem.two_way is not None
    back = Review.from_dict(json.loads(reviewed.to_json()))
    assert back.remediation is not None
    assert back.remediation.value_counts == rem.value_counts
    assert back.remediation.two_way == rem.two_way
    assert back.remediation.two_way is not None
    assert np.array_equal(back.remediation.two_way.full().after, rem.two_way.full().after)
    older = reviewed.to_dict()
    del older["remediation"]["value_counts"], older["remediation"]["two_way"]
    old = Review.from_dict(older)
    assert old.remediation is not None
    assert old.remediation.value_counts == () and old.remediation.two_way is None
    html = render_html(old, figures=False)
    assert "Each column's values" not in html and "Two columns together" not in html


def test_the_document_states_each_reading_with_its_figure_before_it(reviewed):
    rem = reviewed.remediation
    assert rem is not None and rem.two_way is not None
    changes = {c.column: c for c in rem.column_changes}
    readings = [escape(values_reading(changes[v.column], v.frame())) for v in rem.value_counts]
    tw_reading = escape(two_way_reading(rem.two_way.two_way))
    plain = render_html(reviewed, figures=False)
    for text in [*readings, tw_reading]:
        assert text in plain
    html = render_html(reviewed)
    titles = [f"Values of {v.column}, as recorded and released" for v in rem.value_counts]
    start = html.index("Each column's values, as recorded and released")
    for title, text in zip(titles, readings, strict=True):
        at, pos = html.index(title, start), html.index(text, start)
        assert at < pos  # the figure after the previous reading, then its own reading
        start = pos
    assert start < html.index("age against income, as recorded", start) < html.index(tw_reading)
    assert html.index("age against income, released", start) < html.index(tw_reading)
    n = len(figure_objects(reviewed))
    assert n == 4 + len(rem.value_counts) + 2  # class sizes and candidates, before and after


def test_the_columns_charted_and_their_bars_are_bounded_and_the_rest_named(
    people, released, monkeypatch
):
    import riskcore.review.utility as ru

    monkeypatch.setattr(ru, "REPORT_MAX_VALUE_COLUMNS", 4)
    r = _review(people, ["education", "hours_per_week", SENS])
    rem = r.remediation
    assert rem is not None
    assert [v.column for v in rem.value_counts] == ["age", "sex", "education", "hours_per_week"]
    education, hours = rem.value_counts[2], rem.value_counts[3]
    # 16 educations: the 12 largest and one "other values (4)" bar
    assert len(education.values) == REPORT_TOP_VALUES + 1
    assert "other values (4)" in education.values
    # 57 numbers of hours: counted in at most 12 bins
    assert len(hours.values) == REPORT_TOP_VALUES
    got = value_counts(people["hours_per_week"], released["hours_per_week"],
                       top=REPORT_TOP_VALUES, bins=REPORT_TOP_VALUES)  # fmt: skip
    pd.testing.assert_frame_equal(hours.frame(), got, check_dtype=False)
    html = render_html(r, figures=False)
    assert "at most; 1 more is not charted: income." in html
