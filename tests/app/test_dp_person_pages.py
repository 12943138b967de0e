"""AppTest: the DP and Local DP pages on the claims table with a person column (issue 36.7).

With ``patient_id`` tagged as the person, the pages state the unit ("one person, at most
c rows each"), offer the bound c, and every release, plot and ledger entry uses it.
"""

from __future__ import annotations

import functools
import json
import math

import numpy as np
import pandas as pd
import pytest

from riskcore import dp
from riskcore.demo.claims import make_claims
from riskcore.report import readings as rd
from tests.app.helpers import metrics, plotly_values, run, seen, set_roles


@functools.cache
def claims() -> pd.DataFrame:
    return make_claims(2_500, seed=0)


def claims_app(page: str, *, person: bool = True):
    """Return the app with the claims table uploaded, ``patient_id`` the person, on ``page``."""
    at = run()
    csv = claims().to_csv(index=False).encode()
    at.file_uploader(key="rc_upload").set_value(("claims.csv", csv, "text/csv")).run()
    assert not at.exception, at.exception
    roles = {c: "other" for c in claims().columns}
    roles.update({"name": "identifier", "ssn": "identifier", "claim_id": "identifier"})
    roles.update({"zip": "quasi_identifier", "sex": "quasi_identifier", "age": "quasi_identifier"})
    roles["diagnosis"] = "sensitive"
    if person:
        roles["patient_id"] = "person"
    set_roles(at, roles)
    at.session_state["rc_roles_for"] = at.session_state["rc_dataset"]["key"]
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def _text(at) -> str:
    return " ".join(seen(x.value) for x in at.markdown)


def _spec(at, title: str) -> dict:
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    titles = [s["layout"]["title"]["text"].replace("<br>", " ") for s in specs]
    return next(s for s, t in zip(specs, titles, strict=True) if t.startswith(title))


def test_the_dp_page_states_the_unit_and_releases_with_the_bound():
    at = claims_app("pages/dp.py")
    text = _text(at)
    assert "Unit of privacy: one person, at most 1 row each, linked by patient_id." in text
    at.number_input(key="rc_dp_max_rows").set_value(4).run()
    assert not at.exception, at.exception
    text = _text(at)
    assert "Unit of privacy: one person, at most 4 rows each, linked by patient_id." in text
    # a count's sensitivity is c = 4; its Laplace 95% error 4 ln 20 at epsilon 1
    m = metrics(at)
    assert m["Sensitivity (L1 / L2)"] == "4 / 4"
    assert m["Laplace +/- at epsilon = 1"] == f"{4 * math.log(20):.4g}"
    # the rows per person, read from the data: 2,500 people, 8,177 rows
    per = dp.rows_per_person(claims(), "patient_id")
    assert f"{per.people:,} people have 1 to {per.most_rows} rows each" in text
    assert f"leaves out {per.rows - per.kept(4):,} of the {per.rows:,} rows" in text
    hist = _spec(at, "How many rows each person has")
    assert sum(sum(plotly_values(t["y"])) for t in hist["data"]) == per.people
    # what the bound costs: rows left out against the noise, c = 1 .. 10
    cost = _spec(at, "Rows left out against noise, by the bound on rows per person")
    left = next(t for t in cost["data"] if t["name"].startswith("|error from rows left out|"))
    assert plotly_values(left["y"])[3] == per.rows - per.kept(4)  # a count: the rows left out
    noise = next(t for t in cost["data"] if t["name"].startswith("Laplace noise"))
    assert np.allclose(plotly_values(noise["y"]), np.arange(1, 11) * math.log(20))
    assert cost["layout"]["xaxis"]["title"]["text"] == "c, the most rows kept per person"
    assert "At c = 4 rows per person, leaving out the rows beyond it" in text
    # the release: scale c / epsilon, the rows beyond 4 left out, the unit in the ledger
    at.button(key="rc_dp_release").click().run()
    assert not at.exception, at.exception
    rel = at.session_state["rc_dp_last_release"]["release"]
    assert rel.scale == pytest.approx(4.0) and rel.unit == dp.PrivacyUnit("patient_id", 4)
    assert rel.bounded.kept == per.kept(4)
    assert f"{per.rows - per.kept(4):,} of the query's {per.rows:,} rows" in _text(at)
    ledger = next(d.value for d in at.dataframe if "unit" in d.value.columns)
    assert list(ledger["unit"]) == ["one person, at most 4 rows each"]


def test_without_a_person_column_the_unit_is_one_row():
    at = claims_app("pages/dp.py", person=False)
    assert "Unit of privacy: one row (each row is taken to be a different person)." in _text(at)
    assert metrics(at)["Sensitivity (L1 / L2)"] == "1 / 1"
    at.button(key="rc_dp_release").click().run()
    rel = at.session_state["rc_dp_last_release"]["release"]
    assert rel.unit == dp.ONE_ROW and rel.scale == pytest.approx(1.0)


def test_the_local_dp_page_sends_at_most_c_reports_per_person():
    at = claims_app("pages/ldp.py")
    at.number_input(key="rc_ldp_max_rows").set_value(3).run()
    assert not at.exception, at.exception
    text = _text(at)
    assert "Unit of privacy: one person, at most 3 rows each, linked by patient_id." in text
    sent = dp.rows_per_person(claims(), "patient_id").kept(3)
    assert "Each person sends at most 3 reports, each randomized at epsilon 1 / 3" in text
    assert f"{sent:,} reports were sent" in text
    lo, hi = at.number_input(key="rc_ldp_lo").value, at.number_input(key="rc_ldp_hi").value
    scale = metrics(at)["Noise per report (Laplace scale)"]
    assert scale == rd.format_number(3 * (hi - lo) / 1.0, digits=4)  # c (U - L) / epsilon
