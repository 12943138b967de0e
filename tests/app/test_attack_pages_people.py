"""AppTest: the Attacks page on a claims table with a person column counts people."""

from __future__ import annotations

import json

import numpy as np
import pytest

from riskcore.attacks import differencing_attack, homogeneity_attack, unique_target
from riskcore.attacks.linkage import linkage_attack, simulate_auxiliary
from riskcore.demo.claims import make_claims
from riskcore.engine import EncodedTable
from riskcore.io import load_table
from tests.app.helpers import metrics, plotly_values, run, seen, set_roles

QIS = ["sex", "race", "zip", "date_of_birth"]
ROLES = {
    "claim_id": "identifier",
    "patient_id": "person",
    "household_id": "identifier",
    "name": "identifier",
    "ssn": "identifier",
    "date_of_birth": "quasi_identifier",
    "zip": "quasi_identifier",
    "sex": "quasi_identifier",
    "race": "quasi_identifier",
    "age": "other",
    "visit_date": "other",
    "provider": "other",
    "diagnosis": "sensitive",
    "amount": "other",
}


@pytest.fixture(scope="module")
def claims_csv() -> bytes:
    return make_claims(2500, seed=0).to_csv(index=False).encode()


def _claims_page(csv: bytes):
    at = run()
    at.file_uploader(key="rc_upload").set_value(("claims.csv", csv, "text/csv")).run()
    assert not at.exception, at.exception
    set_roles(at, dict(ROLES))
    at.session_state["rc_roles_for"] = at.session_state["rc_dataset"]["key"]
    at.switch_page("pages/attacks.py").run()
    assert not at.exception, at.exception
    return at


def test_the_attacks_page_counts_patients_not_visits(claims_csv):
    at = _claims_page(claims_csv)
    data = load_table(claims_csv, name="claims.csv").data  # the table as the page reads it
    n_people, n_rows = data["patient_id"].nunique(), len(data)
    assert (n_people, n_rows) == (2500, 8177)
    captions = " ".join(seen(c.value) for c in at.caption)
    assert "patient_id links a person's rows, 2,500 people in 8,177 rows" in captions
    # linkage: one target per patient, matched to patients (riskcore on the same table)
    aux, truth = simulate_auxiliary(data, QIS, person="patient_id", seed=0)
    released = [c for c, r in ROLES.items() if r not in ("identifier", "person")]
    r = linkage_attack(
        data[[*released, "patient_id"]],
        aux,
        QIS,
        truth=truth,
        sensitive=["diagnosis"],
        p=0.9,
        person="patient_id",
    )
    m = metrics(at)
    assert m["Targets (people)"] == "2,500" == f"{r.n_targets:,}"
    assert m["Re-identified uniquely"] == f"{r.unique.rate:.1%}"
    assert m["Re-identified correctly"] == f"{r.correct.rate:.1%}"
    assert m["Expected correct, random pick"] == f"{r.expected_correct:.1%}"
    assert "a guess among all 2,500 released people (in 8,177 rows)" in captions
    assert "match exactly one released person" in captions
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    hist = next(s for s in specs if "identities" in s["layout"]["title"]["text"])
    assert np.allclose(plotly_values(hist["data"][0]["y"]), r.candidate_histogram()["share"] * 100)
    # the patient id is no column the attacker can know, nor one the target row shows
    known = next(ms for ms in at.multiselect if ms.label == "Columns the attacker knows")
    assert "patient_id" not in known.options
    # homogeneity in patients: the metric is people, the rows are said in the caption
    h = homogeneity_attack(data, QIS, "diagnosis", p=1.0, person="patient_id")
    assert metrics(at)["People exposed"] == f"{h.exposed_people:,}"
    assert f"of {n_rows:,} rows" in captions


def test_the_differencing_target_is_the_first_patient_alone_on_the_known_values(claims_csv):
    at = _claims_page(claims_csv)
    data = load_table(claims_csv, name="claims.csv").data
    target = unique_target(EncodedTable(data), tuple(QIS), person="patient_id")
    box = next(n for n in at.number_input if n.label == "Target row (position, from 0)")
    assert box.value == target
    d = differencing_attack(
        data,
        target,
        QIS,
        condition={"diagnosis": data["diagnosis"].iloc[target]},
        person="patient_id",
    )
    # an independent count: patients with that diagnosis on any visit
    holders = data.loc[data["diagnosis"] == data["diagnosis"].iloc[target], "patient_id"]
    assert d.q_all == holders.nunique() and d.exact and d.recovered == 1
    text = " ".join(x.value for x in at.markdown)
    assert f"**{d.q_all:,.6g}**" in text and f"**{d.q_rest:,.6g}**" in text
    shown = next(t.value for t in at.dataframe if "date_of_birth" in t.value.columns)
    assert "patient_id" not in shown.columns
