"""Realistic inputs for every figure builder: the hospital and demo tables, as pages build them.

Each case is a name and a function returning the figure, built the way the
page or the report builds it: the generated hospital table
(:mod:`tests.hospital`, 5,000 patients) as recorded (k = 1: all 5,000 records
in the "1" bin) and generalized to decade of birth, ZIP3 and sex (k = 11
after about 2% suppression), the same table with long column names, and the
demo table (:func:`riskcore.demo.make_people`, 32,561 people as UCI Adult)
as recorded and generalized. Counts run to 5,000 and 32,561, axes are
linear and log.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from riskcore import dp
from riskcore.attacks import differencing_attack, homogeneity_attack, simulate_noisy_difference
from riskcore.attacks.linkage.attack import linkage_attack, linkage_curve
from riskcore.attacks.linkage.auxiliary import simulate_auxiliary
from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import default_hierarchy, interval_hierarchy
from riskcore.deidentify.recipe.apply import apply_recipe
from riskcore.deidentify.recipe.base import Recipe
from riskcore.deidentify.search.lattice import Lattice
from riskcore.deidentify.search.run import evaluate_all, search
from riskcore.demo import make_people
from riskcore.demo.story import guided_story
from riskcore.dp.local import grr_simulate, laplace_ldp_simulate
from riskcore.engine import EncodedTable
from riskcore.metrics import assess
from riskcore.metrics.presence import population_match
from riskcore.metrics.special_uniques import suda
from riskcore.metrics.uniqueness import subset_uniqueness
from riskcore.report import figures as fg
from riskcore.report import readings as rd
from riskcore.report.readings import utility as rdu
from tests.hospital import HOSPITAL_QIS, hospital_table

Case = tuple[str, Callable[[], go.Figure]]

#: The hospital's quasi-identifiers under long names (a data dictionary's, not a coder's).
LONG = {
    "date_of_birth": "patient_date_of_birth_as_recorded_at_admission",
    "zip": "residential_zip_code_of_the_patient_at_admission",
    "sex": "administrative_sex_recorded_at_registration",
    "diagnosis": "principal_discharge_diagnosis_category",
}
HOSPITAL_LEVELS = {"date_of_birth": 3, "zip": 2, "sex": 0}  # decade, ZIP3, sex
PEOPLE_QIS = ("age", "sex", "zip")


@functools.cache
def hospital(long: bool = False) -> pd.DataFrame:
    """Return the 5,000-patient table, with :data:`LONG` names when ``long``."""
    df = hospital_table()
    return df.rename(columns=LONG) if long else df


def qis(long: bool = False) -> list[str]:
    return [LONG[q] if long else q for q in HOSPITAL_QIS]


@functools.cache
def hospital_generalized(long: bool = False) -> pd.DataFrame:
    """Return the hospital table at decade of birth, ZIP3 and sex, k = 11 with 2% suppressed."""
    df = hospital(long)
    names = qis(long)
    h = {n: default_hierarchy(df[n]) for n in names}
    levels = dict(zip(names, HOSPITAL_LEVELS.values(), strict=True))
    recipe = Recipe.of(h, levels, Targets.of(k=11, max_suppression=0.02))
    return apply_recipe(df, recipe).data


def hospital_profile() -> dict[str, object]:
    """Return the report profile of the issue's walk-through: names, SSNs and MRNs direct
    identifiers, diagnosis sensitive, k = 11, and the recipe of :func:`hospital_generalized`."""
    df = hospital()
    h = {q: default_hierarchy(df[q]) for q in HOSPITAL_QIS}
    recipe = Recipe.of(h, HOSPITAL_LEVELS, Targets.of(k=11, max_suppression=0.02))
    return {
        "identifiers": ["name", "ssn", "mrn"],
        "quasi_identifiers": list(HOSPITAL_QIS),
        "sensitive": ["diagnosis"],
        "targets": {"k": 11},
        "recipe": recipe.to_dict(),
    }


@functools.cache
def people() -> pd.DataFrame:
    """Return the demo table at its default size, 32,561 people."""
    return make_people()


@functools.cache
def people_generalized() -> pd.DataFrame:
    """Return the demo table at 10-year age bands, ZIP3 and sex, k = 5 with 2% suppressed."""
    df = people()
    h = {
        "age": interval_hierarchy(df["age"], [10, 20]),
        "sex": default_hierarchy(df["sex"]),
        "zip": default_hierarchy(df["zip"]),
    }
    recipe = Recipe.of(h, {"age": 1, "sex": 0, "zip": 2}, Targets.of(k=5, max_suppression=0.02))
    return apply_recipe(df, recipe).data


@functools.cache
def _assessed(which: str):
    tables = {
        "hospital as recorded": (lambda: hospital(), qis()),
        "hospital generalized": (lambda: hospital_generalized(), qis()),
        "hospital long names as recorded": (lambda: hospital(True), qis(True)),
        "hospital long names generalized": (lambda: hospital_generalized(True), qis(True)),
        "demo 32,561 as recorded": (people, list(PEOPLE_QIS)),
        "demo 32,561 generalized": (people_generalized, list(PEOPLE_QIS)),
    }
    data, names = tables[which]
    sens = [LONG["diagnosis"]] if "long" in which else ["diagnosis"]
    return assess(data(), quasi_identifiers=names, sensitive=sens)


#: The tables of the report's figures (each as recorded and after generalization).
REPORT_TABLES = (
    "hospital as recorded",
    "hospital generalized",
    "hospital long names as recorded",
    "hospital long names generalized",
    "demo 32,561 as recorded",
    "demo 32,561 generalized",
)


def _suffix(which: str) -> str:
    """Return the report's title suffix for a generalized table ("" as recorded)."""
    return " (after remediation)" if "generalized" in which else ""


def _hist(which: str) -> go.Figure:
    a = _assessed(which)
    hist = rd.size_histogram(a.anonymity.distribution)
    qis_label = rd.join_names(list(a.quasi_identifiers))
    return fg.class_size_histogram(hist, qis_label, suffix=_suffix(which))


def _curve(which: str, k: int | None = None) -> go.Figure:
    cand = rd.candidate_table(_assessed(which).anonymity.distribution)
    return fg.candidates_curve(cand, k=k, suffix=_suffix(which))


def report_cases() -> dict[str, list[Case]]:
    """Return the cases of the builders the report draws (drawn at the PDF's 900 x 420)."""
    p = functools.partial
    return {
        "class_size_histogram": [(w, p(_hist, w)) for w in REPORT_TABLES],
        "candidates_curve": [(w, p(_curve, w)) for w in REPORT_TABLES]
        + [
            ("hospital long names generalized, target k = 11", p(_curve, REPORT_TABLES[3], 11)),
            ("demo 32,561 generalized, target k = 5", p(_curve, REPORT_TABLES[5], 5)),
        ],
    }


# ------------------------------------------------------------------ the app's builders


@functools.cache
def _uniq(long: bool) -> object:
    return subset_uniqueness(EncodedTable(hospital(long)), qis(long), max_size=3, budget=120)


@functools.cache
def _uniq_people() -> object:
    cols = [
        "age",
        "sex",
        "race",
        "marital_status",
        "education",
        "workclass",
        "occupation",
        "hours_per_week",
    ]
    return subset_uniqueness(EncodedTable(people()), cols, max_size=3, budget=120)


def _suda_share(long: bool) -> go.Figure:
    s = suda(EncodedTable(hospital(long)), qis(long), max_size=3)
    return fg.share_bars(
        rd.suda_contribution_table(s),
        "column",
        "share",
        "Each quasi-identifier's share of the SUDA scores",
        "share of the total SUDA score (%)",
        y_title="quasi-identifier",
    )


@functools.cache
def _story():
    return guided_story(5_000, 0)


def _story_share() -> go.Figure:
    return fg.share_bars(
        _story().combos,
        "columns",
        "unique share",
        "People unique on each combination of ordinary facts",
        "people unique on the combination (%)",
        y_title="combination of columns",
    )


def _delta() -> go.Figure:
    pop = hospital_generalized()
    released = pop.sample(frac=0.2, random_state=0)
    m = population_match(released, pop, qis())
    from riskcore.criteria.population import judge_population

    outside = judge_population(m, delta_min=0.0, delta_max=0.5).delta_failing
    return fg.delta_bars(rd.delta_table(m, outside))


def _diversity(which: str) -> go.Figure:
    a = _assessed(which)
    name = next(iter(a.sensitive))
    return fg.diversity_bars(rd.diversity_distribution(a, name), name)


@functools.cache
def _linkage(long: bool):
    df = hospital_generalized(long)
    known = qis(long)
    aux, truth = simulate_auxiliary(df, known, n=1_000, error_rate=0.1, seed=0)
    return linkage_attack(df[known], aux, known, truth=truth)


def _linkage_curve(long: bool) -> go.Figure:
    df = hospital(long)
    order = [*qis(long), "admission_date"]
    aux, truth = simulate_auxiliary(df, order, n=len(df), seed=0)
    curve = linkage_curve(df[order], aux, order, truth=truth)
    return fg.linkage_curve_chart(curve.to_frame())


def _exposure() -> go.Figure:
    return fg.exposure_bars(
        _story().exposure,
        "p",
        "attacker's confidence p (share of the class with the commonest diagnosis)",
        "People whose diagnosis is exposed at confidence p (k = 5 release)",
    )


def _criterion(long: bool) -> go.Figure:
    df = hospital_generalized(long)
    h = homogeneity_attack(df, qis(long), LONG["diagnosis"] if long else "diagnosis", p=0.9)
    return fg.criterion_lines(h.by_criterion)


def _differencing(aggregate: str) -> go.Figure:
    df = people()
    column = None if aggregate == "count" else "hours_per_week"
    condition = {"diagnosis": df["diagnosis"].iloc[17]} if column is None else None
    d = differencing_attack(
        df,
        17,
        ["date_of_birth", "zip", "sex"],
        aggregate=aggregate,
        column=column,
        condition=condition,
    )
    return fg.two_queries(
        ["everyone", "everyone but the target's group", "difference"],
        [d.q_all, d.q_rest, d.recovered],
        "Two published answers and what their difference reveals",
        "answer (people)" if column is None else f"answer ({column} units)",
    )


def _noise(epsilon: float | None, within: float, sens: float) -> go.Figure:
    c = rd.noise_curve(within, sens)
    return fg.noise_success(
        c["epsilon"], c["p within"], c["error95"], within, epsilon=epsilon, sensitivity=sens
    )


def _estimate() -> go.Figure:
    draws = simulate_noisy_difference(1.0, 0.1, sensitivity=1.0, seed=0)
    return fg.estimate_histogram(
        draws, 1.0, "Attacker's estimate at epsilon = 0.1 (simulation, 10,000 draws)", unit="people"
    )


def _error(relative: bool) -> go.Figure:
    n = len(people())
    sens = dp.sensitivity("count", n=n)
    curves = {
        m: dp.error_curve(float(n), sens, mechanism=m, delta=1e-6)
        for m in rd.mechanisms_for("count")
    }
    return fg.error_vs_epsilon(curves, 1.0, unit="people", what="count", relative=relative)


def _clipping() -> go.Figure:
    values = people()["hours_per_week"].to_numpy(dtype=float)
    top = float(values.max())
    t = dp.clipping_tradeoff(
        values, lower=0.0, uppers=np.geomspace(top / 1000, top, 120), epsilon=1.0
    )
    return fg.clipping_chart(t, "hours_per_week units")


def _posterior() -> go.Figure:
    worlds, _ = rd.identifiability_worlds(
        EncodedTable(people()), "hours_per_week", source="sample", m=200
    )
    res = dp.identifiability(0.1, world_values=worlds)
    true_value = dp.most_exposed_world(worlds, res.scale)
    r, g = dp.posterior_curve(true_value, worlds, res.scale)
    return fg.posterior_chart(r, g, 0.1, true_value, "hours_per_week units")


def _blocks() -> go.Figure:
    sa = dp.sample_and_aggregate(
        people()["age"].to_numpy(dtype=float), k=50, bounds=(0.0, 100.0), epsilon=1.0
    )
    return fg.blocks_chart(sa, "age units")


@functools.cache
def claims() -> pd.DataFrame:
    """Return the seeded claims table: 2,500 patients, 1 to 10 visits each."""
    from riskcore.demo.claims import make_claims

    return make_claims(2_500, seed=0)


def _rows_per_person(c: int, max_visits: int = 10) -> go.Figure:
    from riskcore.demo.claims import make_claims

    data = claims() if max_visits == 10 else make_claims(2_500, seed=0, max_visits=max_visits)
    return fg.rows_per_person_chart(dp.rows_per_person(data, "patient_id"), c)


def _bound_tradeoff(kind: str) -> go.Figure:
    from riskcore.dp.release import Query

    query = Query("count") if kind == "count" else Query("sum", column="amount", bounds=(0, 500))
    sens = dp.sensitivity(kind, bounds=query.bounds)
    t = dp.bound_tradeoff(
        claims(), query, sens, person="patient_id", epsilon=1.0, chosen=4, max_bound=10
    )
    return fg.bound_tradeoff_chart(t, unit="rows" if kind == "count" else "amount units")


def _grr(column: str) -> go.Figure:
    df = people() if column == "occupation" else hospital(True)
    return fg.grr_bars(rd.grr_table(grr_simulate(df[column], 1.0, seed=0)), column)


def _laplace_ldp() -> go.Figure:
    col = "usual_hours_worked_per_week_in_the_main_job_last_year"
    values = people()["hours_per_week"].to_numpy(dtype=float)
    return fg.laplace_ldp_chart(laplace_ldp_simulate(values, 1.0, bounds=(0.0, 100.0), column=col))


def _margin() -> go.Figure:
    grid = np.geomspace(0.1, 10, 60)
    return fg.margin_chart(rd.ldp_planning(4, grid, (1_000, 10_000, 32_561, 100_000)), 1.0)


def _claims_clipping(c: int) -> go.Figure:
    """The claims' amount at c rows per person: the bound moves the mean (a line at the shift)."""
    t = dp.column_clipping_tradeoff(
        claims(), "amount", lower=0.0, uppers=np.geomspace(0.2, 200, 120), epsilon=1.0,
        unit=dp.PrivacyUnit("patient_id", c),
    )  # fmt: skip
    return fg.clipping_chart(t, "amount units")


def _claims_margin() -> go.Figure:
    """The claims' planning: 2,500 patients sending at most 3 reports each."""
    unit = dp.PrivacyUnit("patient_id", 3)
    sent = int(np.minimum(claims().groupby("patient_id").size(), 3).sum())
    grid = np.geomspace(0.1, 10, 60)
    plan = rd.ldp_planning(
        14, grid, (1_000, 2_500, 10_000, 100_000), unit=unit, reports={2_500: sent}
    )
    return fg.margin_chart(plan, 1.0, unit=unit)


def _claims_laplace_ldp() -> go.Figure:
    persons = claims()["patient_id"]
    r = laplace_ldp_simulate(
        claims()["amount"], 1.0, bounds=(0.0, 500.0), column="amount", persons=persons,
        max_rows=3,
    )  # fmt: skip
    return fg.laplace_ldp_chart(r)


def _risk_loss(long: bool) -> go.Figure:
    df = hospital(long)
    names = qis(long)
    lat = Lattice(
        EncodedTable(df),
        {n: default_hierarchy(df[n]) for n in names},
        targets=Targets.of(k=11, max_suppression=0.02),
    )
    found = search(lat)
    nodes = evaluate_all(lat, known=found.visited)
    return fg.risk_loss_chart(nodes, tuple(HOSPITAL_LEVELS.values()), names)


def _utility(long: bool) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """Return the hospital table, generalized, and its QIs and diagnosis (the utility views)."""
    diagnosis = LONG["diagnosis"] if long else "diagnosis"
    return hospital(long), hospital_generalized(long), [*qis(long), diagnosis]


def _change(long: bool) -> go.Figure:
    from riskcore.utility.tables import column_change

    before, after, cols = _utility(long)
    return fg.change_bars(rdu.change_table([column_change(before, after, c) for c in cols]))


def _values(long: bool, which: int) -> go.Figure:
    from riskcore.utility.tables import value_counts

    before, after, cols = _utility(long)
    return fg.value_bars(value_counts(before[cols[which]], after[cols[which]]), cols[which])


def _demo_age() -> go.Figure:
    from riskcore.utility.tables import value_counts

    return fg.value_bars(value_counts(people()["age"], people_generalized()["age"]), "age")


def _two_way(long: bool, after: bool) -> go.Figure:
    from riskcore.utility.tables import two_way

    before, released, cols = _utility(long)
    tw = two_way(before, released, cols[1], cols[-1])
    return fg.two_way_heatmap(tw, after=after, zmax=float(tw.before.to_numpy().max()))


def _accuracy(long: bool) -> go.Figure:
    from riskcore.utility.tables import classification_utility

    before, after, cols = _utility(long)
    return fg.accuracy_bars(classification_utility(before, after, cols[-1], cols[:-1]))


def _ncp_bars(long: bool) -> go.Figure:
    from riskcore.deidentify.search.candidates import compare_candidates

    df = hospital(long)
    names = qis(long)
    lat = Lattice(EncodedTable(df), {n: default_hierarchy(df[n]) for n in names},
                  targets=Targets.of(k=11, max_suppression=0.02))  # fmt: skip
    best = search(lat).best
    assert best is not None
    other = tuple(min(lv + 1, h) for lv, h in zip(best.levels, lat.heights, strict=True))
    return fg.column_ncp_bars(compare_candidates(lat, df, best.levels, other))


def app_cases() -> dict[str, list[Case]]:
    """Return the cases of the builders the app's pages draw (drawn 900 px wide)."""
    p = functools.partial
    return {
        "subset_bars": [
            ("hospital long names", lambda: fg.subset_bars(rd.subset_table(_uniq(True)))),
            ("demo 8 QIs, top 25", lambda: fg.subset_bars(rd.subset_table(_uniq_people()))),
        ],
        "contribution_bars": [
            (
                "hospital long names",
                lambda: fg.contribution_bars(rd.contribution_table(_uniq(True))),
            ),
            ("demo 8 QIs", lambda: fg.contribution_bars(rd.contribution_table(_uniq_people()))),
        ],
        "share_bars": [
            ("SUDA, hospital long names", p(_suda_share, True)),
            ("guided demo combinations", _story_share),
        ],
        "delta_bars": [("hospital generalized, 20% released", _delta)],
        "diversity_bars": [
            (w, p(_diversity, w))
            for w in ("hospital generalized", "hospital long names generalized")
        ],
        "candidates_bars": [
            (
                "hospital generalized",
                lambda: fg.candidates_bars(
                    _linkage(False).candidate_histogram(), "Possible identities per target"
                ),
            ),
            (
                "guided demo",
                lambda: fg.candidates_bars(
                    _story().linkage.candidate_histogram(),
                    "Possible identities per voter after the join",
                ),
            ),
        ],
        "linkage_curve_chart": [
            ("hospital", p(_linkage_curve, False)),
            ("hospital long names", p(_linkage_curve, True)),
        ],
        "exposure_bars": [("guided demo", _exposure)],
        "criterion_lines": [
            ("hospital generalized", p(_criterion, False)),
            ("hospital long names generalized", p(_criterion, True)),
        ],
        "two_queries": [
            ("demo count", p(_differencing, "count")),
            ("demo hours sum", p(_differencing, "sum")),
        ],
        "noise_success": [
            ("no epsilon", p(_noise, None, 0.5, 1.0)),
            ("epsilon 0.1", p(_noise, 0.1, 0.5, 1.0)),
            ("epsilon 5, sum", p(_noise, 5.0, 1.0, 50.0)),
        ],
        "estimate_histogram": [("epsilon 0.1", _estimate)],
        "error_vs_epsilon": [("count of 32,561", p(_error, False)), ("relative", p(_error, True))],
        "clipping_chart": [
            ("demo hours per week", _clipping),
            ("claims amount, c = 4 per person", p(_claims_clipping, 4)),
        ],
        "composition_chart": [
            (
                "epsilon 0.1, linear",
                lambda: fg.composition_chart(
                    dp.composition_curves(0.1, 300, delta_prime=1e-6), 1.0
                ),
            ),
            (
                "epsilon 10, log",
                lambda: fg.composition_chart(
                    dp.composition_curves(10.0, 300, delta_prime=1e-6), 10.0
                ),
            ),
        ],
        "posterior_chart": [("demo hours, m = 200", _posterior)],
        "blocks_chart": [("demo age median", _blocks)],
        "grr_bars": [
            ("demo occupation", p(_grr, "occupation")),
            ("hospital diagnosis, long name", p(_grr, LONG["diagnosis"])),
        ],
        "laplace_ldp_chart": [
            ("demo hours, long name", _laplace_ldp),
            ("claims amount, c = 3 per person", _claims_laplace_ldp),
        ],
        "rows_per_person_chart": [
            ("claims, c = 4", p(_rows_per_person, 4)),
            ("claims up to 60 visits, c = 1", p(_rows_per_person, 1, 60)),
        ],
        "bound_tradeoff_chart": [
            ("claims count", p(_bound_tradeoff, "count")),
            ("claims sum of amount", p(_bound_tradeoff, "sum")),
        ],
        "margin_chart": [("k = 4", _margin), ("claims, c = 3 reports per person", _claims_margin)],
        "risk_loss_chart": [
            ("hospital", p(_risk_loss, False)),
            ("hospital long names", p(_risk_loss, True)),
        ],
        "change_bars": [("hospital", p(_change, False)), ("hospital long names", p(_change, True))],
        "value_bars": [
            ("hospital date of birth by decade", p(_values, False, 0)),
            ("hospital ZIP3, long names", p(_values, True, 1)),
            ("hospital diagnosis, suppression only", p(_values, False, 3)),
            ("demo age binned, then bands", _demo_age),
        ],
        "two_way_heatmap": [
            ("hospital ZIP against diagnosis, as recorded", p(_two_way, False, False)),
            ("hospital long names, released", p(_two_way, True, True)),
        ],
        "accuracy_bars": [
            ("hospital diagnosis", p(_accuracy, False)),
            ("hospital long names", p(_accuracy, True)),
        ],
        "column_ncp_bars": [
            ("hospital", p(_ncp_bars, False)),
            ("hospital long names", p(_ncp_bars, True)),
        ],
    }


#: Names in ``figures.__all__`` that are not figure builders, and why.
NOT_BUILDERS = {
    "ACCENT": "a colour",
    "NEUTRAL": "a colour",
    "MECH_COLORS": "colours of the noise mechanisms",
    "pareto_front": "returns node positions, not a figure (its figure is risk_loss_chart)",
}
