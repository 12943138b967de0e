"""The report states sdcMicro's dRisk and IL1s of a recipe's numeric perturbation."""

from __future__ import annotations

import numpy as np

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import default_hierarchy
from riskcore.deidentify.recipe import Recipe
from riskcore.deidentify.recipe_apply import apply_recipe
from riskcore.demo import make_people
from riskcore.perturb import add_noise, microaggregate, numeric_risk_utility, unperturbed
from riskcore.perturb.steps import numeric_columns, step_of
from riskcore.profile import Profile
from riskcore.report.render import render_html
from riskcore.review import review
from riskcore.review.results import Review


def _recipe(people, perturb):
    return Recipe.of(
        {"sex": default_hierarchy(people["sex"])},
        {"sex": 0},
        Targets.of(k=2, max_suppression=0.5),
        perturb=perturb,
    ).to_dict()


def test_the_report_and_its_json_twin_state_drisk_and_il1s_of_the_perturbed_columns():
    people = make_people(600, seed=1)
    steps = [
        step_of(microaggregate(people, ["age"], 3)),
        step_of(add_noise(people, {"hours_per_week": 50}, seed=4)),
    ]
    assert numeric_columns(steps) == ["age", "hours_per_week"]
    recipe = _recipe(people, steps)
    profile = Profile.from_dict(
        {"quasi_identifiers": ["sex"], "sensitive": ["diagnosis"], "recipe": recipe}
    )
    r = review(people, profile)
    rem = r.remediation
    assert rem is not None and rem.numeric is not None
    # recomputed apart: the two steps run by hand on the table, then sdcMicro 5.8.1's rule
    # (both values inside k = 0.05 perturbed standard deviations; R/dRisk.R at cf32510)
    x = people[["age", "hours_per_week"]].to_numpy(float)
    aggregated = microaggregate(people, ["age"], 3).data
    noisy = add_noise(aggregated, {"hours_per_week": 50}, seed=4).data
    xm = noisy[["age", "hours_per_week"]].to_numpy(float)
    half = 0.05 * xm.std(axis=0, ddof=1)
    outside = ((x < xm - half) | (x > xm + half)).sum(axis=1)
    assert rem.numeric.drisk == np.mean(outside == 0)
    assert 0 < rem.numeric.drisk < np.mean(outside <= 1) < 1  # not the rule of 5.5.1
    assert rem.numeric == apply_recipe(people, recipe).numeric
    # the JSON twin holds it, and reads back equal
    back = Review.from_dict(r.to_dict())
    assert back.remediation is not None and back.remediation.numeric == rem.numeric
    html = render_html(r, figures=False)
    assert "sdcMicro&#39;s dRisk" in html or "sdcMicro's dRisk" in html
    assert f"{rem.numeric.drisk:.1%} after" in html
    assert "records with every value inside its interval" in html


def test_no_numeric_step_no_numeric_section():
    people = make_people(300, seed=2)
    recipe = _recipe(people, [])
    profile = Profile.from_dict({"quasi_identifiers": ["sex"], "recipe": recipe})
    r = review(people, profile)
    assert r.remediation is not None and r.remediation.numeric is None
    assert "dRisk" not in render_html(r, figures=False)


def test_unperturbed_is_a_table_against_itself():
    people = make_people(200, seed=3)
    cols = ["age", "hours_per_week"]
    assert unperturbed(cols) == numeric_risk_utility(people, people, cols)
