"""AppTest for the Differential privacy and Local DP pages, numbers checked against riskcore."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from riskcore import dp
from riskcore.demo import make_people
from riskcore.dp import local as ldp
from riskcore.store.ledgers import BudgetStore
from tests.app.helpers import (
    demo_roles,
    metrics,
    plotly_values,
    run,
    seen,
)


def _specs(at):
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def _error_spec(at):
    return next(s for s in _specs(at) if s["layout"]["title"]["text"].startswith("How far"))


def _text(at) -> str:
    return " ".join(seen(x.value) for x in at.markdown)


def test_dp_page_count_error_follows_epsilon():
    at = run("pages/dp.py")
    m = metrics(at)
    assert m["True count"] == "32,561"
    assert m["Laplace +/- at epsilon = 1"] == f"{math.log(20):.4g}"  # b ln 20, b = 1
    assert "At epsilon = 1 this count is 32,561 +/- 3" in _text(at)
    spec = _error_spec(at)
    names = [t.get("name", "") for t in spec["data"]]
    assert any("simulated" in n for n in names)
    assert any(n.startswith("Discrete Laplace") for n in names)
    laplace = next(t for t in spec["data"] if t.get("name") == "Laplace, closed form")
    x, y = plotly_values(laplace["x"]), plotly_values(laplace["y"])
    assert np.allclose(y, math.log(20) / np.asarray(x))
    at.select_slider(key="rc_dp_epsilon").set_value(0.01).run()
    assert not at.exception
    assert metrics(at)["Laplace +/- at epsilon = 0.01"] == f"{100 * math.log(20):.4g}"
    marker = next(t for t in _error_spec(at)["data"] if t.get("name") == "chosen epsilon")
    assert plotly_values(marker["x"]) == [0.01]


def test_dp_page_release_charges_ledger_and_refuses_beyond_budget():
    at = run("pages/dp.py")
    at.button(key="rc_dp_release").click().run()
    assert not at.exception
    m = metrics(at)
    assert m["Budget left"] == "0 of 1"
    released = next(v for k, v in m.items() if k.startswith("Released: count of rows"))
    assert abs(float(released.replace(",", "")) - 32_561) < 40  # P(|Laplace(1)| > 40) ~ 4e-18
    # a Laplace count is shown as a whole number, with the post-processing note
    assert "." not in released
    rel = at.session_state["rc_dp_last_release"]["release"]
    assert released == f"{round(rel.value):,}"
    assert any("rounding is post-processing" in seen(c.value) for c in at.caption)
    at.button(key="rc_dp_release").click().run()
    assert any(seen(e.value).startswith("Refused: this release costs epsilon 1") for e in at.error)
    (stored,) = BudgetStore().ledgers()  # the ledger is in the database (RISKCORE_DB)
    assert len(stored.ledger.entries) == 1


def test_dp_page_histogram_under_change_one_and_solver():
    at = run("pages/dp.py", demo_roles(["age", "sex", "race"], ["diagnosis"]))
    at.radio(key="rc_dp_neighbouring").set_value(dp.NEIGHBOURING_LABELS["change_one"]).run()
    at.selectbox(key="rc_dp_kind").set_value("histogram").run()
    assert not at.exception
    assert metrics(at)["Sensitivity (L1 / L2)"] == "2 / 1.414"
    assert any("rare value is revealed" in w.value for w in at.warning)
    at.number_input(key="rc_dp_target").set_value(10.0).run()
    table = at.dataframe[1].value
    eps_needed = table.iloc[0, 1]
    assert eps_needed == pytest.approx(2 * math.log(20) / 10)  # Delta_1 ln(1/alpha) / a


def test_dp_page_budget_tab_and_identifiability():
    at = run("pages/dp.py")
    m = metrics(at)
    # default candidates: 200 people drawn from the table, rho = 1.5%
    assert m["Epsilon (Theorem 1)"] == f"{dp.identifiability_epsilon(200, 0.015):.4g}"
    assert "composition allows 1 query," in _text(at)  # epsilon 1, budget 1
    at.number_input(key="rc_dp_m").set_value(50).run()
    assert any("is not above 1/m" in seen(e.value) for e in at.error)


def test_ldp_page_matches_riskcore():
    at = run("pages/ldp.py", demo_roles(["age", "sex"], ["diagnosis"]))
    df = make_people(32_561, seed=0)
    r = ldp.grr_simulate(df["diagnosis"], 1.0, seed=0)
    m = metrics(at)
    assert m["Categories k"] == str(r.k) == "14"
    assert m["Truthful report probability p"] == f"{r.p:.1%}"
    spec = next(s for s in _specs(at) if "Randomized response" in s["layout"]["title"]["text"])
    est = next(t for t in spec["data"] if t["name"].startswith("estimated"))
    assert np.allclose(plotly_values(est["x"]), r.estimated_counts)  # horizontal bars
    text = _text(at)
    assert "Optimized unary encoding would be more accurate here" in text  # 14 > 3e + 2
    # the planning starts from the answered column's 14 categories
    assert f"{ldp.respondents_needed(0.02, 1.0, 14):,} respondents" in text
    at.select_slider(key="rc_ldp_epsilon").set_value(5.0).run()
    assert (
        metrics(at)["Truthful report probability p"] == f"{ldp.grr_probabilities(5.0, 14)[0]:.1%}"
    )


def test_reset_session_keeps_the_privacy_ledger():
    # a budget that "Reset session" restores is no budget: the release stays charged
    at = run("pages/dp.py")
    at.button(key="rc_dp_release").click().run()
    assert metrics(at)["Budget left"] == "0 of 1"
    at.switch_page("app.py").run()  # the router's default page, with the sidebar's button
    next(b for b in at.button if b.label == "Reset session").click().run()
    assert not at.exception
    at.switch_page("pages/dp.py").run()
    assert metrics(at)["Budget left"] == "0 of 1"
    at.button(key="rc_dp_release").click().run()
    assert any(seen(e.value).startswith("Refused: this release costs epsilon 1") for e in at.error)


def _captions(at) -> list[str]:
    return [seen(c.value) for c in at.caption]


def test_dp_page_gaussian_plan_matches_its_release():
    # issue 12: the table's Gaussian +/- is the +/- of the Gaussian release
    at = run("pages/dp.py")
    table = next(d.value for d in at.dataframe if "noise scale" in d.value.columns)
    row = table.set_index("mechanism").loc["Gaussian (zCDP, OpenDP)"]
    assert "Discrete Gaussian (zCDP, OpenDP)" in set(table["mechanism"])
    at.selectbox(key="rc_dp_release_mech").set_value("gaussian").run()
    at.button(key="rc_dp_release").click().run()
    assert not at.exception
    rel = at.session_state["rc_dp_last_release"]["release"]
    assert rel.scale == pytest.approx(row["noise scale"], rel=1e-6)
    assert rel.half_width == pytest.approx(row["+/- (95%)"], rel=1e-6)
    assert rel.epsilon <= 1.0
    sigma = dp.gaussian_sigma_analytic(1.0, 1.0, 1e-6)
    assert any(
        "OpenDP certifies the Gaussian through zCDP" in c and f"sigma {sigma:,.3g} instead" in c
        for c in _captions(at)
    )


def test_sample_and_aggregate_slope_defaults_to_two_columns_with_units():
    # issue 12: the slope defaulted to age on age; now x = age, y = hours_per_week
    at = run("pages/dp.py")
    at.radio(key="rc_dp_sa_stat").set_value("slope").run()
    assert not at.exception
    x, y = at.selectbox(key="rc_dp_sa_x").value, at.selectbox(key="rc_dp_sa_y_slope").value
    assert (x, y) == ("age", "hours_per_week")
    assert "hours_per_week per year of age against" in _text(at)
    spec = next(s for s in _specs(at) if s["layout"]["title"]["text"].startswith("Sample"))
    # the figure wraps a long axis title at a word (<br>)
    y_title = spec["layout"]["yaxis"]["title"]["text"].replace("<br>", " ")
    assert y_title == "block slope (hours_per_week per year of age)"
    at.selectbox(key="rc_dp_sa_y_slope").set_value("age").run()
    assert any("two different columns" in seen(e.value) for e in at.error)


def _refused(at) -> bool:
    return any(seen(e.value).startswith("Refused:") for e in at.error)


def test_dp_refusal_disappears_when_the_budget_is_raised():
    # issue 12: a refusal stays after its cause is gone
    at = run("pages/dp.py")
    at.button(key="rc_dp_release").click().run()
    at.button(key="rc_dp_release").click().run()  # epsilon 1 of budget 1 spent: refused
    assert _refused(at)
    at.number_input(key="rc_dp_budget").set_value(5.0).run()
    at.text_input(key="rc_dp_budget_reason_1").input("a second analysis, approved").run()
    at.button(key="rc_dp_budget_apply").click().run()
    assert not at.exception
    assert not _refused(at)
    assert metrics(at)["Budget left"] == "4 of 5"  # the release tab sees the new budget at once
    at.button(key="rc_dp_release").click().run()
    assert not _refused(at)
    assert any(k.startswith("Released: count of rows") for k in metrics(at))


def test_dp_refusal_disappears_when_epsilon_or_query_changes():
    at = run("pages/dp.py")
    at.button(key="rc_dp_release").click().run()
    at.button(key="rc_dp_release").click().run()
    assert _refused(at)
    at.select_slider(key="rc_dp_epsilon").set_value(0.5).run()
    assert not _refused(at)
    at.select_slider(key="rc_dp_epsilon").set_value(1.0).run()
    assert _refused(at)  # the same settings and budget: the refusal still holds
    at.selectbox(key="rc_dp_kind").set_value("histogram").run()
    assert not _refused(at)


def test_dp_release_is_shown_only_with_its_settings():
    at = run("pages/dp.py")
    at.button(key="rc_dp_release").click().run()
    assert any(k.startswith("Released: count of rows") for k in metrics(at))
    for change in (
        lambda: at.selectbox(key="rc_dp_release_mech").set_value("discrete_laplace"),
        lambda: at.radio(key="rc_dp_neighbouring").set_value(dp.NEIGHBOURING_LABELS["change_one"]),
        lambda: at.selectbox(key="rc_dp_kind").set_value("histogram"),
    ):
        change().run()
        assert not at.exception
        assert not any(k.startswith("Released:") for k in metrics(at))
        note = " ".join(seen(i.value) for i in at.info)
        assert "The last release (count of rows, epsilon 1, Laplace" in note
        assert "see the ledger on the Budget tab" in note


def test_dp_solver_target_starts_from_the_new_query_default():
    # issue 12: a solver keeps the old input when the query (and its unit) changes
    at = run("pages/dp.py")
    at.number_input(key="rc_dp_target").set_value(10.0).run()  # 10 people, for the count
    at.selectbox(key="rc_dp_kind").set_value("mean").run()
    assert not at.exception
    column = at.selectbox(key="rc_dp_num_col").value
    df = make_people(32_561, seed=0)

    def expected(col):  # bounds default to the column's range (with the leak warning)
        bounds = (float(df[col].min()), float(df[col].max()))
        sens = dp.sensitivity("mean", neighbouring="add_remove", bounds=bounds, n=len(df))
        # the default is the Laplace 95% half-width at epsilon 1: Delta_1 ln 20 / epsilon
        return max(round(sens.l1 * math.log(20), 3), 1e-3)

    assert at.number_input(key="rc_dp_target").value == pytest.approx(expected(column))
    assert at.number_input(key="rc_dp_target").value != 10.0
    at.number_input(key="rc_dp_target").set_value(7.0).run()
    other = next(c for c in at.selectbox(key="rc_dp_num_col").options if c != column)
    at.selectbox(key="rc_dp_num_col").set_value(other).run()
    assert at.number_input(key="rc_dp_target").value == pytest.approx(expected(other))


def test_ldp_numeric_metrics_never_use_an_exponent():
    # issue 12: with U = 1,000,000 the local Laplace scale (U - L) / epsilon read "1e+06"
    at = run("pages/ldp.py")
    at.number_input(key="rc_ldp_lo").set_value(0.0).run()
    at.number_input(key="rc_ldp_hi").set_value(1_000_000.0).run()
    assert not at.exception
    m = metrics(at)
    assert m["Noise per report (Laplace scale)"] == "1,000,000"  # (1e6 - 0) / 1
    assert all("e+" not in v for v in m.values()), m


def test_ldp_numeric_tab_draws_one_report_against_the_average():
    """The numeric tab had metrics and a table but no chart."""
    at = run("pages/ldp.py")
    assert not at.exception
    titles = [
        json.loads(c.proto.spec)["layout"]["title"]["text"].replace("<br>", " ")  # wrapped
        for c in at.get("plotly_chart")
    ]
    column = at.selectbox(key="rc_ldp_num_col").value
    assert f"Local Laplace on {column} (epsilon = 1): one report against the average" in titles


def test_the_queries_to_plot_slider_sets_the_budget_chart_and_totals_are_not_spends():
    def chart(at):
        return next(s for s in _specs(at) if s["layout"]["title"]["text"].startswith("Total"))

    at = run("pages/dp.py")
    assert chart(at)["layout"]["xaxis"]["range"] == [1, 300]  # the slider's default
    at.slider(key="rc_dp_kmax").set_value(600).run()
    assert chart(at)["layout"]["xaxis"]["range"] == [1, 600]
    at.button(key="rc_dp_release").click().run()  # one release of epsilon 1
    assert not at.exception, at.exception
    said = " ".join(seen(c.value) for c in at.caption)
    assert "The 1 release so far would total epsilon 1 under basic composition" in said
    assert "only that is spent" in said
    assert "Advanced composition" not in metrics(at)


def test_dp_and_local_dp_defaults_come_from_the_chosen_column():
    df = make_people(32_561, seed=0)
    at = run("pages/dp.py")
    at.selectbox(key="rc_dp_kind").set_value("mean").run()
    col = at.selectbox(key="rc_dp_num_col").value
    lo, hi = float(df[col].min()), float(df[col].max())
    assert (at.number_input(key="rc_dp_lo").value, at.number_input(key="rc_dp_hi").value) == (
        lo,
        hi,
    )
    assert any("Privacy leak" in w.value for w in at.warning)  # the data's bounds leak
    # the solver's input shows its value as the chart does (2.996, not 3.00)
    assert at.number_input(key="rc_dp_target").proto.format == "%.4g"
    # sample and aggregate: the median's clamps are the column's range
    y = at.selectbox(key="rc_dp_sa_y").value
    assert at.number_input(key="rc_dp_sa_hi_median").value == float(df[y].max())
    ldp = run("pages/ldp.py")
    ncol = ldp.selectbox(key="rc_ldp_num_col").value
    assert ldp.number_input(key="rc_ldp_lo").value == float(df[ncol].min())
    assert ldp.number_input(key="rc_ldp_hi").value == float(df[ncol].max())
    rr = ldp.selectbox(key="rc_ldp_col").value
    assert ldp.number_input(key="rc_ldp_plan_k").value == df[rr].nunique()


def test_local_dp_asks_a_short_text_column_first_and_sorts_numbers_as_numbers():
    """Issue 38: the default question was a numeric column of 119 amounts (capital-gain),
    its categories sorted as text; now a text column of few values comes first, and a
    numeric column's categories run 2 before 10."""
    at = run("pages/ldp.py", demo_roles(["age", "sex"]))  # no sensitive attribute tagged
    assert not at.exception, at.exception
    box = next(w for w in at.selectbox if w.label == "Column each person answers")
    assert box.value == "sex"
    numeric = [c for c in box.options if c in ("age", "hours_per_week")]
    assert numeric and box.options.index(numeric[0]) > box.options.index("race")
    r = ldp.grr_simulate(np.array([10, 2, 2, 30, 10]), 1.0, seed=0)
    assert r.categories == ("2", "10", "30")
