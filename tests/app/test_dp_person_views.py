"""AppTest: the clipped mean, epsilon from risk and the Local DP planning on the claims table
with ``patient_id`` as the person (issue 36, item 7, the views left).

The expected figures are computed here with pandas, apart from the page and riskcore:
at c = 10 (the most rows a claims patient has) every row is kept, so a person's
contribution is a plain group-by sum and the clustered standard error a group-by of
scores; at c = 4 the kept rows are counted as sum(min(rows, c)) per patient.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from tests.app.helpers import metrics, plotly_values
from tests.app.test_dp_person_pages import _spec, _text, claims, claims_app

Z975 = 1.959963984540054


def _rows_per_patient() -> pd.Series:
    return claims().groupby("patient_id", sort=False).size()


def _trace(spec: dict, prefix: str) -> tuple[np.ndarray, np.ndarray]:
    t = next(t for t in spec["data"] if t.get("name", "").startswith(prefix))
    return np.asarray(plotly_values(t["x"]), float), np.asarray(plotly_values(t["y"]), float)


def test_the_clipped_mean_reads_at_most_c_rows_per_person():
    at = claims_app("pages/dp.py")
    at.number_input(key="rc_dp_max_rows").set_value(4).run()
    at.selectbox(key="rc_dp_clip_col").set_value("amount").run()
    assert not at.exception, at.exception
    kept = int(np.minimum(_rows_per_patient(), 4).sum())  # at most 4 rows per patient
    spec = _spec(at, "Error of the DP mean against the upper clipping bound U")
    assert (
        spec["layout"]["title"]["text"]
        .replace("<br>", " ")
        .endswith("(epsilon = 1 per person, at most 4 rows each)")
    )
    # the noise: sensitivity 4 (U - L) / n with the n kept rows, Laplace sd sqrt(2) times it
    u, noise = _trace(spec, "privacy noise (sd, for 4 rows per person)")
    np.testing.assert_allclose(noise, math.sqrt(2) * 4 * u / kept, rtol=1e-9)
    text = _text(at)
    assert f"per person over the {kept:,} values of 2,500 people kept (at most 4 rows" in text
    every = claims()["amount"].mean()
    assert f"moved the mean from {every:,.4g} (every row)" in text
    # the noise tab's count counts rows (visits), not people
    left = len(claims()) - kept
    assert f"leaving out the rows beyond it changes the count by -{left:,} rows" in text
    cost = _spec(at, "Rows left out against noise")
    assert cost["layout"]["yaxis"]["title"]["text"] == "error (rows, log scale)"
    # c = 10 keeps every row: the sampling noise is the standard error clustered by patient
    at.number_input(key="rc_dp_max_rows").set_value(10).run()
    assert not at.exception, at.exception
    u, sampling = _trace(_spec(at, "Error of the DP mean"), "sampling noise (sd, by person)")
    n, g = len(claims()), claims()["patient_id"].nunique()
    for i in (0, 60, 119):
        y = claims()["amount"].clip(0, u[i])
        scores = y.groupby(claims()["patient_id"]).sum() - y.mean() * _rows_per_patient()
        se = math.sqrt(g / (g - 1) * float((scores**2).sum()) / n**2)
        assert sampling[i] == pytest.approx(se, rel=1e-9)
    assert "left out" in _text(at) and "moved the mean" not in _text(at)


def _person_sums() -> pd.Series:
    return claims().groupby("patient_id", sort=False)["amount"].sum()


def test_epsilon_from_risk_draws_people_and_a_world_adds_a_persons_rows():
    at = claims_app("pages/dp.py")
    at.number_input(key="rc_dp_max_rows").set_value(10).run()
    at.selectbox(key="rc_dp_di_col").set_value("amount").run()
    assert not at.exception, at.exception
    # 200 people drawn from the 2,500, in the order they first appear, with seed 0
    people = pd.unique(claims()["patient_id"])
    chosen = people[np.random.default_rng(0).choice(people.size, size=200, replace=False)]
    worlds = _person_sums()[chosen]
    eps = math.log(199 * 0.015 / 0.985)  # Theorem 1, m = 200 people, rho = 1.5%
    m = metrics(at)
    assert m["Epsilon (Theorem 1)"] == f"{eps:.4g}"
    assert m["Laplace scale lambda"] == f"{(worlds.max() - worlds.min()) / eps:,.4g}"
    text = _text(at)
    assert "Candidates: 200 people (patient_id) drawn at random from the table's 2,500" in text
    assert "which of m = 200 candidate people is in the data" in text


def test_epsilon_from_risk_takes_a_class_of_people_by_their_signatures():
    at = claims_app("pages/dp.py")
    at.number_input(key="rc_dp_max_rows").set_value(10).run()
    at.selectbox(key="rc_dp_di_col").set_value("amount").run()
    at.radio(key="rc_dp_msrc").set_value("class").run()
    at.number_input(key="rc_dp_rho").set_value(90.0).run()
    assert not at.exception, at.exception
    # people grouped by the set of their rows' (zip, sex, age): the smallest group of 2 or more
    tuples = claims()[["zip", "sex", "age"]].astype(str).agg("|".join, axis=1)
    signature = tuples.groupby(claims()["patient_id"]).agg(lambda s: tuple(sorted(set(s))))
    sizes = signature.value_counts()
    size = int(sizes[sizes >= 2].min())
    text = _text(at)
    assert f"the {size:,} people (patient_id) of the smallest class with 2 or more people" in text
    eps = math.log((size - 1) * 0.9 / 0.1)  # Theorem 1 with m = size people, rho = 90%
    assert metrics(at)["Epsilon (Theorem 1)"] == f"{eps:.4g}"
    # the class the page took is one of the smallest: lambda is the spread of its people's
    # sums over epsilon
    spreads = []
    for sig in sizes.index[sizes == size]:
        sums = _person_sums()[signature.index[signature == sig]]
        spreads.append((sums.max() - sums.min()) / eps)
    scale = float(metrics(at)["Laplace scale lambda"].replace(",", ""))
    assert any(scale == pytest.approx(v, rel=1e-3) for v in spreads)


def test_the_local_dp_planning_plans_people_sending_c_reports():
    at = claims_app("pages/ldp.py")
    at.number_input(key="rc_ldp_max_rows").set_value(3).run()
    assert not at.exception, at.exception
    k = claims()["diagnosis"].nunique()
    assert at.number_input(key="rc_ldp_plan_k").value == k
    reports = int(np.minimum(_rows_per_patient(), 3).sum())
    spec = _spec(at, "Local DP: accuracy of one category's share of the reports")
    assert spec["layout"]["xaxis"]["title"]["text"] == "epsilon per person (log scale)"
    eps, margin = _trace(spec, f"2,500 people, {reports:,} reports")
    e = np.exp(eps / 3)  # each report at epsilon / 3
    np.testing.assert_allclose(margin, 100 * Z975 * np.sqrt((e + k - 2) / (reports * (e - 1) ** 2)))
    e1 = math.exp(1 / 3)
    needed = math.ceil(Z975**2 * (e1 + k - 2) / (0.02**2 * (e1 - 1) ** 2 * 3))
    text = _text(at)
    assert (
        f"each person sending 3 reports at epsilon 0.333 each, {needed:,} people "
        f"({3 * needed:,} reports) give each share of the reports" in text
    )
    grr = _spec(at, "Randomized response on diagnosis")
    assert grr["layout"]["xaxis"]["title"]["text"] == "reports"
