"""The report states sdcMicro's dRisk and IL1s of a recipe's numeric perturbation."""

from __future__ import annotations

import numpy as np

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import default_hierarchy
from riskcore.deidentify.recipe.apply import apply_recipe
from riskcore.deidentify.recipe.base import Recipe
from riskcore.demo import make_people
from riskcore.perturb import add_noise, microaggregate, numeric_risk_utility, unperturbed
from riskcore.perturb.steps import numeric_columns, record_step
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
        record_step(microaggregate(people, ["age"], 3)).to_dict(),
        record_step(add_noise(people, {"hours_per_week": 50}, seed=4)).to_dict(),
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


def test_the_reproduce_section_names_every_seed_the_recipe_draws_with():
    # Issue 38.10: the report said "No random numbers are drawn: no seed is needed" beside a
    # recipe whose PRAM step draws with seed 0; the sentence now comes from the recipe's steps
    from riskcore.perturb import pram

    people = make_people(600, seed=1)
    steps = [
        record_step(add_noise(people, {"hours_per_week": 50}, seed=4)).to_dict(),
        record_step(pram(people, "race", seed=0)).to_dict(),
    ]
    recipe = _recipe(people, steps)
    profile = Profile.from_dict(
        {"quasi_identifiers": ["sex"], "sensitive": ["diagnosis"], "recipe": recipe}
    )
    r = review(people, profile)
    assert r.remediation is not None and r.remediation.classification is not None
    split = r.remediation.classification.seed
    assert r.parameters["seeds"] == [
        {"step": "noise", "columns": ["hours_per_week"], "seed": 4},
        {"step": "pram", "columns": ["race"], "seed": 0},
        {"step": "classification split", "columns": ["diagnosis"], "seed": split},
    ]
    html = render_html(r, figures=False)
    assert "no seed is needed" not in html
    assert "noise on hours_per_week, seed 4; PRAM of race, seed 0; the held-out split" in html
    assert f"(predicting diagnosis), seed {split}." in html
    # a review read back from its JSON twin says the same
    assert render_html(Review.from_dict(r.to_dict()), figures=False).count("PRAM of race, seed 0")
    # without a recipe nothing is drawn
    plain = review(people, Profile.from_dict({"quasi_identifiers": ["sex"]}))
    assert plain.parameters["seeds"] == []
    assert "No random numbers are drawn: no seed is needed." in render_html(plain, figures=False)


def test_seeds_used_reads_surrogates_and_skips_what_does_not_draw():
    from types import SimpleNamespace

    from riskcore.deidentify.recipe.base import mask_step
    from riskcore.perturb import local_suppression
    from riskcore.review.seeds import seeds_used

    people = make_people(200, seed=3)
    recipe = SimpleNamespace(
        masking=(mask_step("name", "surrogates:name", seed=7), mask_step("ssn", "mask_digits")),
        perturb=(record_step(local_suppression(people, ["sex", "race"], 2)).to_dict(),),
    )
    rem = SimpleNamespace(recipe=recipe, classification=None)
    assert seeds_used(rem) == [{"step": "surrogates", "columns": ["name"], "seed": 7}]
    assert seeds_used(None) == []


def test_issue38_perturbation_runs_on_the_release_and_its_blanks_count_toward_the_limit():
    """Issue 38 item 1: a recipe's perturbation runs on the release its generalization gives
    (the table the dashboard's Perturb tab starts from), and the records local suppression
    blanks count with those the generalization removed against the suppression limit: the
    applied recipe's verdict and the report's both fail past it."""
    from riskcore.perturb import local_suppression

    people = make_people(600, seed=1)
    qis = ["sex", "race"]
    hierarchies = {q: default_hierarchy(people[q]) for q in qis}
    targets = Targets.of(k=2, max_suppression=0.05)
    plain = Recipe.of(hierarchies, dict.fromkeys(qis, 0), targets)
    release = apply_recipe(people, plain)
    assert release.within_limit and release.verdict is not None and release.verdict.passed
    k = 40  # the release's classes below 40 records lose a cell
    blanks = local_suppression(release.data, qis, k)
    assert blanks.records_touched > 0.05 * len(people) - release.suppressed
    recipe = Recipe.of(
        hierarchies, dict.fromkeys(qis, 0), targets, perturb=[record_step(blanks).to_dict()]
    )
    done = apply_recipe(people, recipe)
    # the blanks are those of the release (the same cells; before, they were of the table
    # as recorded and the generalization judged them after)
    assert done.data.equals(blanks.data)
    assert done.blanked == blanks.records_touched and done.suppressed == release.suppressed
    assert not done.within_limit and not done.verdict.passed
    assert done.verdict.suppressed == release.suppressed + blanks.records_touched
    profile = Profile.from_dict(
        {"quasi_identifiers": qis, "missing": "any", "recipe": recipe.to_dict()}
    )
    r = review(people, profile)
    assert r.remediation.blanked == blanks.records_touched
    assert not r.verdict_after.passed and not r.verdict_after.within_limit


def test_issue38_with_a_person_column_the_blanks_count_people():
    """The blanked units of a person-linked recipe are people (every row of a person kept
    together), of the people in the table: the unit the suppression limit is a share of."""
    import pandas as pd

    from riskcore.perturb import local_suppression

    people = make_people(300, seed=3)
    rows = pd.concat([people, people], ignore_index=True)  # each person on two rows
    rows["pid"] = list(range(300)) * 2
    qis = ["sex", "race"]
    hierarchies = {q: default_hierarchy(rows[q]) for q in qis}
    targets = Targets.of(k=2, max_suppression=0.05)
    plain = Recipe.of(hierarchies, dict.fromkeys(qis, 0), targets, person="pid")
    release = apply_recipe(rows, plain)
    blanks = local_suppression(release.data, qis, 30, person="pid")
    assert blanks.people_touched is not None and blanks.people_touched > 0
    recipe = Recipe.of(
        hierarchies,
        dict.fromkeys(qis, 0),
        targets,
        person="pid",
        perturb=[record_step(blanks).to_dict()],
    )
    done = apply_recipe(rows, recipe)
    touched = done.data["pid"][(done.data[qis].isna() & release.data[qis].notna()).any(axis=1)]
    assert done.blanked == touched.nunique() == blanks.people_touched  # people, not rows
    assert done.verdict.n_records == 300
    assert done.verdict.suppressed == release.suppressed + done.blanked
