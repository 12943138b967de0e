"""The report with event columns and households: the review, its JSON twin and the HTML.

k^m-anonymity and the household risk of the table as recorded and of the release, beside
the other risks; the rarest sets of visits as a table; their definitions among the methods
and their assumptions among the limitations, only when the profile uses them; column names
escaped.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

from riskcore.criteria import KAnonymity, KmAnonymity, Targets
from riskcore.deidentify.hierarchy import default_hierarchy, flat_hierarchy
from riskcore.deidentify.recipe.base import Recipe, mask_step
from riskcore.demo.claims import make_claims
from riskcore.metrics.longitudinal import km_anonymity
from riskcore.profile import Profile
from riskcore.report.render import document_context, render_html
from riskcore.review import Review, review
from riskcore.roles import ColumnRoles

ROLES = ColumnRoles(quasi_identifiers=("sex", "age"), persons=("patient_id",))
TARGETS = Targets(
    criteria=(KAnonymity(k=3), KmAnonymity(k=3, m=2, events=("diagnosis",))),
    max_suppression=0.1,
)


@pytest.fixture(scope="module")
def claims() -> pd.DataFrame:
    return make_claims(300, seed=3)


@pytest.fixture(scope="module")
def profile() -> Profile:
    return Profile(roles=ROLES, targets=TARGETS, events=("diagnosis",), household="household_id")


def test_the_review_holds_km_anonymity_and_the_household_risk(claims, profile):
    r = review(claims, profile, name="claims.csv")
    km = r.before.km_anonymity
    assert km is not None and r.before.household is not None
    direct = km_anonymity(claims, "patient_id", ["diagnosis"], k=3, m=2)
    assert (km.k_achieved, km.people_at_risk) == (direct.k_achieved, direct.people_at_risk)
    (check,) = [c for c in r.verdict_before.checks if c.kind == "km-anonymity"]
    assert check.achieved == direct.k_achieved
    twin = json.loads(r.to_json())
    assert twin["before"]["km_anonymity"]["k_achieved"] == direct.k_achieved
    assert twin["before"]["household"]["household"] == "household_id"
    back = Review.from_dict(twin)
    assert back.before.km_anonymity == km and back.before.household == r.before.household


def test_the_html_states_the_section_the_methods_and_the_limitations(claims, profile):
    r = review(claims, profile, name="claims.csv")
    html = render_html(r, figures=False)
    assert "<h2>Many rows per person: visits and households</h2>" in html
    assert "The rarest sets of visits behind the people at risk" in html
    assert "k^m-anonymity of a person&#39;s visits" in html  # the method note
    assert "<td>household risk</td>" in html
    assert "Events (diagnosis): an attacker is assumed to know at most 2" in html
    assert "Households (household_id): the members (people)" in html
    ctx = document_context(r)
    figures = {row[0]["text"] for row in ctx["figures"]["rows"]}
    assert "k^m-anonymity (m = 2): fewest people holding a set of visits" in figures
    assert "households: global risk (sdcMicro's hier_risk)" in figures
    plain = review(claims, profile.with_(events=(), targets=Targets.of(k=3), household=None))
    plain_html = render_html(plain, figures=False)
    assert "Many rows per person" not in plain_html
    assert "household risk" not in plain_html and "Events (" not in plain_html


def test_the_release_is_judged_on_its_visits_and_its_households_as_recorded(claims, profile):
    hier = {q: default_hierarchy(claims[q]) for q in ("sex", "age")}
    hier["diagnosis"] = flat_hierarchy(claims["diagnosis"])
    recipe = Recipe.of(
        hier,
        {"sex": 0, "age": 3, "diagnosis": 0},
        TARGETS,
        person="patient_id",
        events=("diagnosis",),
        masking=[mask_step("household_id", "drop")],
    )
    r = review(claims, profile.with_(recipe=recipe), name="claims.csv")
    assert r.after is not None and r.verdict_after is not None
    released = r.after.km_anonymity
    assert released is not None
    # the release, rebuilt: the kept people's rows with their age as released
    rem = r.remediation
    assert rem is not None and rem.people_after is not None
    assert released.n_people == rem.people_after
    # the household column was dropped by the recipe: judged with the links as recorded
    hh = r.after.household
    assert hh is not None and hh.n_members == rem.people_after
    html = render_html(r, figures=False)
    assert "<h3>After remediation</h3>" in html.split("Many rows per person")[1]


def test_column_names_are_escaped(claims):
    df = claims.rename(columns={"diagnosis": "<b>dx</b>", "household_id": "h&h"})
    p = Profile(
        roles=ROLES,
        targets=Targets.of(k=2, km=2, events=("<b>dx</b>",)),
        events=("<b>dx</b>",),
        household="h&h",
    )
    html = render_html(review(df, p, name="c.csv"), figures=False)
    assert "<b>dx</b>" not in html
    assert "&lt;b&gt;dx&lt;/b&gt;" in html and "h&amp;h" in html


def test_the_household_figure_is_sdcmicro_s_product_over_people(claims, profile):
    r = review(claims, profile, name="claims.csv")
    hh = r.before.household
    assert hh is not None
    # by pandas: each person's risk 1 / the people sharing their signature (no population
    # model), each household's 1 - prod(1 - r) over its people, summed over the people
    tuples = claims["sex"].astype(str) + "|" + claims["age"].astype(str)
    sig = tuples.groupby(claims["patient_id"]).agg(lambda t: tuple(sorted(set(t))))
    risk = 1.0 / sig.map(sig.value_counts())
    home = claims.groupby("patient_id")["household_id"].first()
    r_h = (1 - risk).groupby(home).prod().rsub(1)
    assert hh.expected_reidentifications == pytest.approx(float(r_h.loc[home].sum()))
    assert hh.individual_expected == pytest.approx(float(risk.sum()))


def test_the_recipe_steps_name_the_event_columns(claims):
    from riskcore.deidentify.recipe.steps import recipe_steps

    hier = {"sex": flat_hierarchy(claims["sex"]), "diagnosis": flat_hierarchy(claims["diagnosis"])}
    recipe = Recipe.of(
        hier, {"sex": 0, "diagnosis": 1}, TARGETS, person="patient_id", events=("diagnosis",)
    )
    words = {s.column: s.words for s in recipe_steps(recipe)}
    assert words["diagnosis"].endswith("(an event column: its visits judged by k^m-anonymity)")
    assert "event" not in words["sex"]
