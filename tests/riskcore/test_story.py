"""The guided demo's narrative: readings of each step, and the story's dispatch to them."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from riskcore.attacks.linkage import LinkageResult, Rate
from riskcore.demo.story import guided_story
from riskcore.metrics import assess
from riskcore.report import readings as rd
from tests.riskcore.cases import differencing_case


def _linkage(rate: float, low: float, high: float, n: int = 1000) -> LinkageResult:
    return LinkageResult(
        n_targets=n,
        n_release=n,
        columns=(("dob", "dob"),),
        candidates=np.ones(n, dtype=np.int64),
        unique=Rate(int(rate * n), n, rate, low, high, 1 / n),
        correct=Rate(int(rate * n), n, rate, low, high, 1 / n),
        expected_correct=rate,
        in_candidates=None,
        attributes=(),
        notes=(),
    )


def test_titles_and_intros():
    assert len(rd.STORY_TITLES) == 6
    assert [t.split(".")[0] for t in rd.STORY_TITLES] == ["1", "2", "3", "4", "5", "6"]
    assert rd.STORY_CAPTION.startswith("Built-in demo data: 32,561 made-up people")
    # 1,234 of 32,561 people withheld: 3.8%
    assert "withhold the 1,234 people (3.8%) still in classes smaller than 11 (k = 11, the " in (
        rd.story_intro(2, suppressed=1234, n=32_561)
    )
    assert rd.story_intro(0, suppressed=0, n=1).startswith("The hospital drops names")
    with pytest.raises(ValueError, match="step must be 0 to 5, got 6"):
        rd.story_intro(6, suppressed=0, n=1)


def test_combos_caption():
    combos = pd.DataFrame({"columns": ["sex", "date_of_birth + zip"], "unique share": [0.0, 0.875]})
    assert rd.combos_caption(combos) == (
        "Sex alone singles out nobody; date of birth + ZIP singles out 87.5% of people."
    )


def test_linkage_caption():
    assert rd.linkage_caption(_linkage(0.873, 0.851, 0.892, n=32_561)) == (
        "87.3% of the 32,561 voters match exactly one record and it is theirs (95% CI "
        "85.1%-89.2%); picking one of the matching records at random, an attacker is right for "
        "an expected 87.3% of targets; a guess among all 32,561 released records is right 1 "
        "time in 32,561 (0.00307%)."
    )


def test_coarsening_caption():
    df = pd.DataFrame({"q": ["a", "b", "b", "c", "c", "c"]})
    before = assess(df, quasi_identifiers=["q"])  # k = 1, one unique
    after = assess(df.assign(q=["x"] * 6), quasi_identifiers=["q"])  # k = 6, none unique
    assert rd.coarsening_caption(before, after, _linkage(0.012, 0.01, 0.015)) == (
        "k rises from 1 to 6: people unique on q fall from 1 (16.7%) to 0 on their generalized "
        "values, and the voter-roll join now re-identifies 1.2% of voters."
    )
    # when the earlier steps counted another combination, the reading says so
    said = rd.coarsening_caption(before, after, _linkage(0.012, 0.01, 0.015), earlier=("p", 0.5))
    assert said.startswith(
        "Steps 1 and 2 used p (50.0% unique); this step counts q, as the release publishes "
        "them: 16.7% are unique on those. k rises from 1 to 6"
    )
    same = rd.coarsening_caption(before, after, _linkage(0.012, 0.01, 0.015), earlier=("q", 0.2))
    assert same.startswith("k rises from 1 to 6")


def test_homogeneity_caption():
    exposure = pd.DataFrame(
        {"p": [0.5, 0.6, 0.7, 0.8], "classes": [9, 7, 4, 2], "records": [4200, 1234, 500, 77]}
    )
    assert rd.homogeneity_caption(5, exposure) == (
        "At k = 5, 1,234 people sit in classes where at least 60% share one diagnosis and 77 "
        "where at least 80% do; l-diversity and t-closeness (Anonymity page) limit this."
    )


def test_differencing_caption_escapes_only_the_value():
    d = differencing_case(target=17, condition=(("diagnosis", "Type_2"),))
    assert rd.differencing_caption(d) == (
        "The difference is 1: the target (row 17, the only person with their date of birth, "
        "ZIP and sex) has Type_2."
    )
    assert rd.differencing_caption(d, escape=lambda v: f"<{v}>").endswith("has <Type_2>.")


def test_published_count_reading():
    assert rd.published_count_reading(7161.0, 0.000418) == (
        " The published count of 7,161 stays within 0.04% of the truth."
    )


@pytest.fixture(scope="module")
def story():
    return guided_story(3000, 0)


def test_story_dispatches_each_step_to_its_reading(story):
    s = story
    assert s.intro(2) == rd.story_intro(2, suppressed=s.suppressed, n=s.n)
    assert s.caption(0) == rd.combos_caption(s.combos)
    assert s.caption(1) == rd.linkage_caption(s.linkage)
    assert f"k rises from {s.before.k} to {s.after.k}" in s.caption(2)
    assert s.caption(3) == rd.homogeneity_caption(s.after.k, s.exposure)
    assert s.caption(4, escape=lambda v: f"[{v}]").endswith(f"[{s.differencing.condition[0][1]}].")
    with pytest.raises(ValueError, match="step must be 0 to 5, got 6"):
        s.caption(6)


def test_story_step_six_reads_the_noise_at_the_chosen_epsilon(story):
    s = story
    text = s.caption(5, epsilon=1.0)
    # epsilon = 1 is on the grid: the count's 95% error is ln 20 / 1 people
    rel = math.log(20) / s.differencing.q_all
    assert text.startswith("At epsilon = 1 per query, each answer is off by up to +/- 3.0 (95%)")
    assert text.endswith(
        f"The published count of {s.differencing.q_all:,.0f} stays within {rel:.2%} of the truth."
    )
    marked = s.caption(5, epsilon=1.0, escape=lambda v: f"<{v}>")
    assert marked.startswith("<At epsilon = 1") and "> The published count" in marked


def test_story_round_trips_through_strict_json(story):
    import json

    from riskcore._results import dumps
    from riskcore.demo.story import Story

    text = dumps(story.to_dict())
    back = Story.from_dict(json.loads(text))
    assert back.n == story.n and back.suppressed == story.suppressed
    assert back.combos.equals(story.combos) and back.exposure.equals(story.exposure)
    assert back.before.to_dict() == story.before.to_dict()
    assert back.after.k == story.after.k
    assert back.linkage.to_dict() == story.linkage.to_dict()
    assert back.differencing.to_dict() == story.differencing.to_dict()
    np.testing.assert_array_equal(back.epsilons, story.epsilons)
    np.testing.assert_array_equal(back.count_error, story.count_error)
    assert dumps(back.to_dict()) == text


def test_story_exposure_counts_nest_and_match_the_homogeneity_result(story):
    # at each confidence p the exposed classes are those whose top share >= p
    h = story.homogeneity
    for p, classes, records in zip(
        story.exposure_p, story.exposure_classes, story.exposure_records, strict=True
    ):
        hit = h.top_share >= p - 1e-12
        assert classes == int(hit.sum()) and records == int(h.sizes[hit].sum())
    assert list(story.exposure_classes) == sorted(story.exposure_classes, reverse=True)


def test_the_sidebar_names_the_demo_data_while_the_guided_demo_runs():
    assert rd.demo_data_note(None) == "Demo people (32,561 rows), the guided demo's own data"
    assert rd.demo_data_note("mine.csv").endswith("; mine.csv stays loaded for the other pages")
    assert rd.exposure_title(11).endswith("(k = 11 release)")


def test_step_three_says_when_it_withholds_more_than_the_suppression_limit():
    from riskcore.report.readings.story import story_intro

    over = story_intro(2, suppressed=1_257, n=32_561, k=11)
    assert "1,257 people (3.9%)" in over and "more than the 2% a remediation may suppress" in over
    under = story_intro(2, suppressed=300, n=32_561, k=11)
    assert "more than" not in under and under.endswith("the target every other page uses).")
