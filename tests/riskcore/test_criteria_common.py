"""Every consumer of the targets gives the same decision, for every privacy model (a common test).

In the manner of scikit-learn's ``test_common.py``: a registry of every
criterion (:data:`FACTORIES`, one random instance maker per kind of
:data:`riskcore.criteria.REGISTRY`) and of every consumer (:data:`CONSUMERS`:
the assessment judged by :func:`riskcore.criteria.evaluate`, the lattice the
Remediate page and ``anonymize`` search, the records table, the review the
report files, the command line's ``assess``, a saved-assessment comparison,
and the Records page's population tab). Random tables with missing values,
sampling weights, numeric and categorical sensitive attributes, both
missing-value policies; every consumer must give the same per-record and
overall decision as :func:`~riskcore.criteria.evaluate` on the assessment.

A criterion added to the registry without a factory fails
:func:`test_every_criterion_has_a_factory`; a consumer that ignores a
criterion (or judges it by another rule) disagrees on some table and fails.
The Anonymity page, the one consumer drawn by Streamlit, has its own test in
``tests/app/test_one_verdict.py`` over the same factories.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from riskcore.cli import main
from riskcore.criteria import (
    REGISTRY,
    Criterion,
    DeltaPresence,
    KMap,
    Targets,
)
from riskcore.criteria.population import judge_population
from riskcore.criteria.records import record_table
from riskcore.deidentify.hierarchy import flat_hierarchy
from riskcore.deidentify.search.lattice import Lattice, NodeResult
from riskcore.engine import EncodedTable
from riskcore.metrics.presence import population_match
from riskcore.profile import Profile
from riskcore.report.compare import key_figures
from riskcore.review import review
from tests.riskcore.criteria_cases import (
    EVENT_KINDS,
    FACTORIES,
    POPULATION_KINDS,
    Decision,
    baseline,
    event_case,
    random_case,
    random_table,
)

#: The number of random cases each consumer is checked on.
CASES = 40


def test_every_criterion_has_a_factory():
    # a new privacy model must be added here, and so to every consumer's test
    assert set(FACTORIES) == set(REGISTRY)


# ------------------------------------------------------------------ random cases


# ------------------------------------------------------------------ the consumers
# Each returns (per-record failing or None when it has none, overall passed or None).


def lattice(df: pd.DataFrame, profile: Profile) -> Decision:
    """The Remediate page's and ``anonymize``'s lattice, at the bottom node, nothing to suppress."""
    qis = profile.roles.quasi_identifiers
    lat = Lattice(
        df,
        {q: flat_hierarchy(df[q]) for q in (*qis, *profile.events)},
        sensitive=profile.roles.sensitive,
        targets=profile.targets,
        distance=profile.distances,  # type: ignore[arg-type]
        missing=profile.missing,
        sampling_fraction=profile.sampling_fraction,
        weights=profile.roles.weight,
        person=profile.roles.person,
        events=profile.events,
        sensitive_hierarchies=profile.sensitive_hierarchies,
    )
    bottom = [0] * len(lat.quasi_identifiers)
    ids, _, bad = lat.failing(bottom)
    return bad[ids][lat.record_base_classes()], lat.evaluate(bottom).anonymous


def records_table(df: pd.DataFrame, profile: Profile) -> Decision:
    """The Records page's and ``riskcore records``' table: each record's failing targets."""
    out = record_table(
        df,
        profile.roles.quasi_identifiers,
        targets=profile.targets,
        sensitive=profile.roles.sensitive,
        weights=profile.roles.weight,
        sampling_fraction=profile.sampling_fraction,
        missing=profile.missing,
        distance=profile.distances,
        person=profile.roles.person,
        events=profile.events,
        hierarchy=profile.sensitive_hierarchies,
    )
    return (out["failing_targets"] != "").to_numpy(), None


def reviewed(df: pd.DataFrame, profile: Profile) -> Decision:
    """The report's review: its verdict on the table as recorded."""
    r = review(df, profile, name="t.csv")
    v = r.verdict_before
    enc = EncodedTable(df)
    rows = enc.record_classes(profile.roles.quasi_identifiers, person=profile.roles.person)
    return v.failing[rows], v.passed


def compared(df: pd.DataFrame, profile: Profile) -> Decision:
    """A saved assessment's verdict as the comparison of the Saved page reads it."""
    fig = key_figures(json.loads(review(df, profile, name="t.csv").to_json()))
    return None, {"pass": True, "fail": False}[fig["verdict"]]


def cli_assess(df: pd.DataFrame, profile: Profile, tmp: Path, capsys) -> Decision:
    """``riskcore assess --profile P --format json`` on the table written as CSV."""
    data, prof = tmp / "t.csv", tmp / "p.json"
    df.to_csv(data, index=False)
    prof.write_text(profile.to_json())
    capsys.readouterr()
    code = main(["assess", str(data), "--profile", str(prof), "--format", "json",
                 "--fail-on-targets"])  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    passed = bool(out["verdict"]["passed"])
    assert code == (0 if passed else 1)  # --fail-on-targets follows the verdict
    return None, passed


CONSUMERS = {
    "lattice": lattice,
    "records table": records_table,
    "review": reviewed,
    "saved comparison": compared,
}


def _agree(consumer: str, case: Callable[[int], tuple[pd.DataFrame, Profile]]) -> None:
    """Check that ``consumer`` gives the baseline's decisions on :data:`CASES` cases."""
    decide = CONSUMERS[consumer]
    outcomes = set()
    for seed in range(CASES):
        df, profile = case(seed)
        want_rows, want = baseline(df, profile)
        got_rows, got = decide(df, profile)
        if got_rows is not None:
            np.testing.assert_array_equal(
                got_rows, want_rows, err_msg=f"{consumer}, case {seed}: {profile.targets}"
            )
        if got is not None:
            assert got == want, f"{consumer}, case {seed}: {profile.targets}"
        outcomes.add(want)
    assert outcomes == {True, False}  # the cases exercise both outcomes


@pytest.mark.parametrize("person", [False, True], ids=["rows", "people"])
@pytest.mark.parametrize("consumer", sorted(CONSUMERS))
def test_every_consumer_gives_the_assessment_s_decision(consumer, person):
    """Each consumer against the criteria; with ``person``, on tables of people of several
    rows (some whose QIs change between rows) with the person column tagged."""
    _agree(consumer, functools.partial(random_case, person=person))


#: The consumers of a table with several rows per person and event columns.
EVENT_CONSUMERS = ("lattice", "records table", "review", "saved comparison")


@pytest.mark.parametrize("consumer", EVENT_CONSUMERS)
def test_every_consumer_judges_a_person_s_events_alike(consumer):
    """The k^m-anonymity target among others, on people with visits: the same decision."""
    _agree(consumer, event_case)


def test_the_command_line_judges_a_person_s_events_alike(tmp_path, capsys):
    for seed in range(0, CASES, 4):
        df, profile = event_case(seed)
        _, want = baseline(df, profile)
        _, got = cli_assess(df, profile, tmp_path, capsys)
        assert got == want, f"case {seed}: {profile.targets}"


@pytest.mark.parametrize("person", [False, True], ids=["rows", "people"])
def test_the_command_line_gives_the_assessment_s_decision(tmp_path, capsys, person):
    for seed in range(0, CASES, 4):  # a process-free run per case; a tenth of them suffices
        df, profile = random_case(seed, person=person)
        _, want = baseline(df, profile)
        _, got = cli_assess(df, profile, tmp_path, capsys)
        assert got == want, f"case {seed}: {profile.targets}"


@pytest.mark.parametrize("person", [False, True], ids=["rows", "people"])
def test_a_generalization_with_suppression_is_judged_alike_by_remediate_and_the_report(person):
    """Remediate's "meets the targets" (the lattice node, ARX's suppression) is the report's
    verdict on the table the recipe of that node releases (in people, with ``person``)."""
    from riskcore.deidentify.recipe.base import Recipe

    outcomes = set()
    for seed in range(CASES):
        df, profile = random_case(seed, person=person)
        r = np.random.default_rng(500 + seed)
        targets = Targets(
            criteria=profile.targets.criteria,
            max_suppression=float(r.choice([0.0, 0.1, 0.3])),
        )
        profile = profile.with_(targets=targets)
        qis = profile.roles.quasi_identifiers
        hier = {q: flat_hierarchy(df[q]) for q in qis}
        levels = {q: int(r.integers(0, 2)) for q in qis}
        if all(levels.values()):  # keep one QI as recorded: a release of one class says little
            levels[qis[0]] = 0
        lat = Lattice(
            df,
            hier,
            sensitive=profile.roles.sensitive,
            targets=targets,
            distance=profile.distances,  # type: ignore[arg-type]
            missing=profile.missing,
            sampling_fraction=profile.sampling_fraction,
            weights=profile.roles.weight,
            person=profile.roles.person,
            sensitive_hierarchies=profile.sensitive_hierarchies,
        )
        node = lat.evaluate([levels[q] for q in qis])
        if node.suppressed == lat.n:
            continue  # nothing released: the report refuses to assess an empty table
        recipe = Recipe.of(
            hier,
            levels,
            targets,
            sensitive=profile.roles.sensitive,
            missing=profile.missing,
            distances=profile.distances,
            sampling_fraction=profile.sampling_fraction,
            weights=profile.roles.weight,
            person=profile.roles.person,
            sensitive_hierarchies=profile.sensitive_hierarchies,
        )
        _the_report_agrees(df, profile.with_(recipe=recipe), node, f"case {seed}: {levels}")
        outcomes.add(node.anonymous)
    assert outcomes == {True, False}


def _the_report_agrees(df: pd.DataFrame, profile: Profile, node: NodeResult, case: str) -> None:
    """Check the report's verdict on the recipe's release against the lattice node's."""
    after = review(df, profile, name="t.csv").verdict_after
    assert after is not None
    assert after.passed == node.anonymous, f"{case}: {profile.targets}"
    assert after.suppressed == node.suppressed, case


def test_a_generalization_of_events_is_judged_alike_by_the_search_and_the_report():
    """A lattice node over QIs and event columns (the k^m target judged on the visits
    generalized to its levels, suppression of whole people) is the report's verdict on the
    table its recipe releases."""
    from riskcore.deidentify.recipe.base import Recipe

    outcomes = set()
    for seed in range(CASES):
        df, profile = event_case(seed)
        r = np.random.default_rng(700 + seed)
        targets = Targets(
            criteria=profile.targets.criteria, max_suppression=float(r.choice([0.0, 0.2, 0.5]))
        )
        profile = profile.with_(targets=targets)
        dims = (*profile.roles.quasi_identifiers, *profile.events)
        hier = {q: flat_hierarchy(df[q]) for q in dims}
        levels = {q: int(r.integers(0, 2)) for q in dims}
        lat = Lattice(
            df,
            hier,
            sensitive=profile.roles.sensitive,
            targets=targets,
            person="pid",
            events=profile.events,
            sensitive_hierarchies=profile.sensitive_hierarchies,
        )
        node = lat.evaluate([levels[q] for q in lat.quasi_identifiers])
        if node.suppressed == lat.n:
            continue  # nothing released: the report refuses to assess an empty table
        recipe = Recipe.of(
            hier, levels, targets, sensitive=profile.roles.sensitive, person="pid",
            events=profile.events, sensitive_hierarchies=profile.sensitive_hierarchies,
        )  # fmt: skip
        _the_report_agrees(df, profile.with_(recipe=recipe), node, f"case {seed}: {levels}")
        outcomes.add(node.anonymous)
    assert outcomes == {True, False}


@pytest.mark.parametrize("kind", sorted(FACTORIES))
def test_each_model_fails_and_passes_somewhere(kind):
    # a consumer ignoring a model must disagree on some case: each model is decisive
    r = np.random.default_rng(99)
    outcomes = set()
    for seed in range(CASES):
        if kind in POPULATION_KINDS:
            released, population, qis = population_case(seed)
            judged = judge_population(
                population_match(released, population, qis),
                **_population_kwargs(FACTORIES[kind](r)),
            )
            outcomes.add(judged.verdict.passed)
        elif kind in EVENT_KINDS:
            df, profile = event_case(seed)
            crit = FACTORIES[kind](r)
            one = profile.with_(targets=Targets(criteria=(crit,)), m=getattr(crit, "m", 2))
            outcomes.add(baseline(df, one)[1])
        else:
            df, profile = random_case(seed)
            one = dataclass_replace_targets(profile, FACTORIES[kind](r))
            outcomes.add(baseline(df, one)[1])
    assert outcomes == {True, False}


def dataclass_replace_targets(profile: Profile, crit: Criterion) -> Profile:
    return profile.with_(targets=Targets(criteria=(crit,)))


# ------------------------------------------------------------------ population tables


def population_case(seed: int) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """Return a release drawn from a population table (some population classes unreleased)."""
    r = np.random.default_rng(1000 + seed)
    pop = random_table(r)[["a", "b", "c"]].reset_index(drop=True)
    take = r.random(len(pop)) < float(r.choice([0.3, 0.6, 0.9]))
    return pop[take].reset_index(drop=True), pop, ["a", "b"]


def _population_kwargs(crit: Criterion) -> dict[str, object]:
    if isinstance(crit, KMap):
        return {"k": crit.k}
    assert isinstance(crit, DeltaPresence)
    return {"delta_min": crit.delta_min, "delta_max": crit.delta_max}


@pytest.mark.parametrize("kind", sorted(POPULATION_KINDS))
def test_the_population_tab_judges_by_the_criteria(kind):
    """The Records page's population tab against k-map and delta-presence read off the rows."""
    r = np.random.default_rng(7)
    for seed in range(CASES):
        released, population, qis = population_case(seed)
        crit = FACTORIES[kind](r)
        m = population_match(released, population, qis)
        judged = judge_population(m, **_population_kwargs(crit))
        # the same classes, read straight off the rows of both tables (no riskcore code)
        key = ["a", "b"]
        f = released.fillna("NA").groupby(key).size()
        big_f = population.fillna("NA").groupby(key).size()
        both = pd.concat([f.rename("f"), big_f.rename("F")], axis=1).fillna(0)
        if isinstance(crit, KMap):
            bad = (both["f"] > 0) & (both["F"] < crit.k)
        else:
            d = both["f"] / both["F"]
            bad = (d < crit.delta_min - 1e-12) | (d > crit.delta_max + 1e-12)
        assert int(judged.failing.sum()) == int(bad.sum()), f"case {seed}: {crit}"
        assert judged.verdict.passed == (not bad.any()), f"case {seed}: {crit}"


def _a_recipe_that_suppresses_within_its_limit() -> tuple[pd.DataFrame, Profile]:
    """Return the first random case whose recipe meets its targets by suppressing records."""
    from riskcore.deidentify.recipe.base import Recipe

    for seed in range(CASES):
        df, profile = random_case(seed)
        targets = Targets(criteria=profile.targets.criteria, max_suppression=0.3)
        qis = profile.roles.quasi_identifiers
        hier = {q: flat_hierarchy(df[q]) for q in qis}
        levels = {q: 0 for q in qis}
        lat = Lattice(
            df,
            hier,
            sensitive=profile.roles.sensitive,
            targets=targets,
            sensitive_hierarchies=profile.sensitive_hierarchies,
        )
        node = lat.evaluate([0] * len(qis))
        if node.anonymous and 0 < node.suppressed < lat.n:
            recipe = Recipe.of(
                hier,
                levels,
                targets,
                sensitive=profile.roles.sensitive,
                sensitive_hierarchies=profile.sensitive_hierarchies,
            )
            return df, profile.with_(targets=targets, recipe=recipe)
    raise AssertionError("no random case suppresses within its limit")


def test_the_report_judges_the_suppression_limit_by_the_targets(monkeypatch):
    """A mutation check: the report's verdict on a recipe follows ``Targets.within_limit``.

    A consumer that restates the limit (``suppressed <= limit * n``) keeps its
    own answer when the rule changes, and fails here.
    """
    df, profile = _a_recipe_that_suppresses_within_its_limit()
    after = review(df, profile, name="t.csv").verdict_after
    assert after is not None and after.within_limit and after.suppressed > 0
    monkeypatch.setattr(Targets, "within_limit", lambda self, suppressed, units: False)
    after = review(df, profile, name="t.csv").verdict_after
    assert after is not None and not after.within_limit and not after.passed


def test_the_homogeneity_attack_judges_l_and_t_by_the_criteria(monkeypatch):
    """A mutation check: the attack's "classes satisfying l / t" follow the criteria's rule.

    With every criterion made to fail every class, no class satisfies any
    level; an attack that judges l and t with its own tolerances does not
    notice, and fails here.
    """
    from riskcore.attacks import homogeneity_attack

    df = pd.DataFrame(
        {
            "a": [1, 1, 1, 2, 2, 2, 3, 3],
            "s": ["x", "y", "z", "x", "x", "y", "z", "z"],
        }
    )
    levels = homogeneity_attack(df, ["a"], "s").criteria
    assert any(level.classes_satisfying for level in levels)
    monkeypatch.setattr(
        Criterion, "breaks", lambda self, evidence, attribute: np.ones(evidence.n_classes, bool)
    )
    after = homogeneity_attack(df, ["a"], "s").criteria
    assert {level.classes_satisfying for level in after} == {0}


@pytest.mark.parametrize("value", [None, np.nan, pd.NaT, pd.NA, np.datetime64("NaT")])
def test_every_module_reads_missing_values_alike(value):
    """One rule for "is missing": the engines' class labels and the differencing attack's
    conditions read NaT and pd.NA as the assessment does (``riskcore._lazy.missing_mask``)."""
    from riskcore._lazy import missing_mask
    from riskcore.attacks import differencing
    from riskcore.engine import source as table

    assert bool(missing_mask([value])[0])
    assert table.is_missing(value)
    assert differencing.is_missing(value)


def test_the_guided_demo_reads_the_suppression_limit_from_the_targets(monkeypatch):
    """A mutation check: the story's "more than the limit" follows ``Targets.within_limit``."""
    from riskcore.report.readings import story_intro

    assert "more than the 2%" in story_intro(2, suppressed=50, n=100)
    monkeypatch.setattr(Targets, "within_limit", lambda self, suppressed, units: True)
    assert "more than" not in story_intro(2, suppressed=50, n=100)
