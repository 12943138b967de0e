"""AppTest: the Uniqueness, Anonymity, Records, Remediate and Report pages in people (issue 36).

The claims table (make_claims(2500, seed=0): 2,500 patients in 8,177 rows, the age at each
visit changing across birthdays) is uploaded and patient_id tagged as the person. Every
figure checked is computed apart: riskcore on the same loaded table (``assess``, ``suda``,
the lattice and its search with ``person=``), or pandas over each person's set of QI tuples.
Without the person role the same pages show the row figures.
"""

from __future__ import annotations

import functools
import json

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from riskcore import assess
from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import default_hierarchy
from riskcore.deidentify.search.lattice import Lattice
from riskcore.deidentify.search.run import search
from riskcore.demo.claims import make_claims
from riskcore.errors import RiskcoreError
from riskcore.io import load_table
from riskcore.metrics.presence import population_match
from riskcore.metrics.special_uniques import suda
from tests.app.helpers import metrics, plotly_values, run, seen, set_roles, static_table

QIS = ["sex", "race", "age", "zip"]  # age changes between a patient's visits
STEADY = ["sex", "race", "zip", "date_of_birth"]  # the same on every row of a patient


@functools.cache
def _csv() -> bytes:
    return make_claims(2500, seed=0).to_csv(index=False).encode()


@functools.cache
def _table() -> pd.DataFrame:
    """The claims as the app reads the upload (zip codes kept as text)."""
    return load_table(_csv(), name="claims.csv").data


def _roles(qis: list[str], *, person: bool) -> dict[str, str]:
    roles = {str(c): "other" for c in _table().columns}
    roles.update({"name": "identifier", "ssn": "identifier", "diagnosis": "sensitive"})
    roles.update({q: "quasi_identifier" for q in qis})
    roles["patient_id"] = "person" if person else "identifier"
    return roles


def _claims_app(page: str, qis: list[str] = QIS, *, person: bool = True) -> AppTest:
    at = run()
    at.file_uploader(key="rc_upload").set_value(("claims.csv", _csv(), "text/csv"))
    at.run()
    assert not at.exception, at.exception
    set_roles(at, _roles(qis, person=person))
    at.session_state["rc_roles_for"] = at.session_state["rc_dataset"]["key"]
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def _signatures(qis: list[str]) -> pd.Series:
    """Per patient, their set of QI tuples (a pandas count; no value is missing here)."""
    df = _table()
    return df[qis].apply(tuple, axis=1).groupby(df["patient_id"]).agg(frozenset)


def _signature_sizes(qis: list[str]) -> pd.Series:
    """Per patient, the patients holding the same set of QI tuples."""
    sig = _signatures(qis)
    return sig.map(sig.value_counts())


def _captions(at: AppTest) -> list[str]:
    return [seen(c.value) for c in at.caption]


UNIT = "The unit of privacy is one person: 2,500 people in 8,177 rows, linked by patient_id"


def test_uniqueness_counts_people_in_the_headline_figures_and_the_histogram():
    at = _claims_app("pages/uniqueness.py")
    sizes = _signature_sizes(QIS)
    a = assess(_table(), quasi_identifiers=QIS, person="patient_id")
    assert int((sizes == 1).sum()) == a.unique_records  # two counts apart agree
    m = metrics(at)
    assert m["People"] == "2,500"
    people = next(x for x in at.metric if x.label == "People")
    assert people.delta == "in 8,177 rows"
    assert m["Unique people"] == f"{a.unique_records:,}"
    assert m["Equivalence classes"] == f"{_signatures(QIS).nunique():,}"
    assert m["k (people)"] == f"{int(sizes.min()):,}"
    assert any(c.startswith(UNIT) for c in _captions(at))
    hist = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert sum(plotly_values(hist["data"][0]["y"])) == 2_500
    assert hist["layout"]["title"]["text"].startswith("People by equivalence-class size")
    assert hist["layout"]["yaxis"]["title"]["text"] == "people"
    share = a.unique_records / 2_500
    assert any(c.startswith(f"{a.unique_records:,} people ({share:.1%}) are unique")
               for c in _captions(at))  # fmt: skip


def test_uniqueness_without_the_person_counts_rows():
    at = _claims_app("pages/uniqueness.py", person=False)
    a = assess(_table(), quasi_identifiers=QIS)
    m = metrics(at)
    assert m["Records"] == "8,177" and "People" not in m
    assert m["Unique people"] == f"{a.unique_records:,}"
    assert m["k (smallest class)"] == f"{a.k:,}"
    assert not any(c.startswith("The unit of privacy") for c in _captions(at))
    hist = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert sum(plotly_values(hist["data"][0]["y"])) == 8_177


def test_anonymity_judges_k_and_the_risk_in_people():
    at = _claims_app("pages/anonymity.py")
    a = assess(_table(), quasi_identifiers=QIS, sensitive=["diagnosis"], person="patient_id")
    m = metrics(at)
    assert m["k"] == f"{a.k:,}"
    at_risk = round(a.prosecutor.records_at_risk * a.n_people)
    assert m["people at risk (prosecutor)"] == f"{at_risk:,}"
    assert any(c.startswith(UNIT) for c in _captions(at))
    checks = static_table(at, "required")
    assert "people failing" in checks.columns
    k_row = checks.set_index("target").loc["k-anonymity"]
    failing = int((_signature_sizes(QIS) < 11).sum())  # people in classes under 11
    assert k_row["people failing"].startswith(f"{failing:,} people")
    risks = next(d.value for d in at.dataframe if "attacker model" in d.value.columns)
    assert f"people with risk > {a.threshold:g}" in risks.columns
    verdict = seen(at.error[0].value)
    assert f"failing {failing:,} people" in verdict


def test_anonymity_without_the_person_judges_rows():
    at = _claims_app("pages/anonymity.py", person=False)
    a = assess(_table(), quasi_identifiers=QIS, sensitive=["diagnosis"])
    m = metrics(at)
    assert m["k"] == f"{a.k:,}"
    assert m["records at risk (prosecutor)"] == f"{round(a.prosecutor.records_at_risk * 8177):,}"
    assert "records failing" in static_table(at, "required").columns


def test_records_gives_every_row_its_persons_class_and_says_why_suda_is_not_searched():
    at = _claims_app("pages/records.py")
    assert not at.exception, at.exception
    changing = int(_table().groupby("patient_id")["age"].nunique().gt(1).sum())
    info = " ".join(seen(x.value) for x in at.info)
    assert "Special uniques (SUDA) not searched" in info
    assert f"{changing:,} people have rows with different quasi-identifier values" in info
    assert "Special uniques" not in metrics(at)
    table = at.dataframe[0].value
    assert "dis_suda" not in table.columns
    person = _table()["patient_id"]
    sizes = _signature_sizes(QIS)
    expected = person.iloc[table["row"] - 1].map(sizes).to_numpy()
    assert table["class_size"].tolist() == expected.tolist()
    assert any(c.startswith("The 200 riskiest of 8,177 rows (2,500 people") for c in _captions(at))


def test_records_searches_special_uniques_per_person_when_their_qis_are_steady():
    qis = ["sex", "race", "zip"]
    at = _claims_app("pages/records.py", qis)
    s = suda(_table(), qis, person="patient_id")
    m = metrics(at)
    assert m["Special uniques"] == f"{s.special_uniques:,}"
    assert s.n_people == 2_500
    text = " ".join(seen(x.value) for x in at.markdown)
    assert f"{s.special_uniques:,} of 2,500 people (one record per person, in 8,177 rows)" in text


def test_records_without_the_person_scores_rows():
    qis = ["sex", "race", "zip"]
    at = _claims_app("pages/records.py", qis, person=False)
    s = suda(_table(), qis)
    assert metrics(at)["Special uniques"] == f"{s.special_uniques:,}"
    assert any(c.startswith("The 200 riskiest of 8,177 records;") for c in _captions(at))


def _lattice(qis: list[str], person: str | None) -> Lattice:
    df = _table()
    return Lattice(
        df,
        {q: default_hierarchy(df[q]) for q in qis},
        sensitive=("diagnosis",),
        targets=Targets.of(k=11, threshold=1 / 11, max_suppression=0.02),
        person=person,
    )


def test_remediate_searches_in_people_and_suppresses_people_with_their_rows():
    at = _claims_app("pages/remediate.py", STEADY)
    at.button(key="rc_rem_search").click().run()
    assert not at.exception, at.exception
    best = search(_lattice(STEADY, "patient_id")).best
    assert best is not None and best.suppressed_rows is not None
    m = metrics(at)
    assert m["People suppressed"] == f"{best.suppressed:,}"
    shown = next(x for x in at.metric if x.label == "People suppressed")
    assert shown.delta.endswith(f"their {best.suppressed_rows:,} rows")
    assert m["Smallest released class"] == f"{best.k:,}"
    text = " ".join(seen(x.value) for x in at.markdown)
    assert f"suppresses {best.suppressed:,} people (their {best.suppressed_rows:,} rows)" in text
    assert "As recorded, 2,500 of 2,500 people in 8,177 rows" in text
    cands = next(d.value for d in at.dataframe if "people suppressed" in d.value.columns)
    assert int(cands["people suppressed"].iloc[0]) == best.suppressed


def test_remediate_without_the_person_suppresses_records():
    at = _claims_app("pages/remediate.py", STEADY, person=False)
    at.button(key="rc_rem_search").click().run()
    best = search(_lattice(STEADY, None)).best
    assert best is not None
    assert metrics(at)["Records suppressed"] == f"{best.suppressed:,}"


def test_report_states_the_unit_and_its_figures_in_people():
    at = _claims_app("pages/report.py")
    at.button(key="rc_report_build").click().run()
    assert not at.exception, at.exception
    a = assess(_table(), quasi_identifiers=QIS, sensitive=["diagnosis"], person="patient_id")
    assert any(c.startswith(UNIT) for c in _captions(at))
    limits = [seen(x.value) for x in at.markdown if seen(x.value).startswith("- ")]
    assert any(x.startswith("- " + UNIT) for x in limits)
    assert any("Special uniques (SUDA) not computed: they are found per person" in x
               for x in limits)  # fmt: skip
    figures = static_table(at, "figure")  # a static table: every name whole at 1024 px
    cells = dict(zip(figures["figure"], figures["as recorded"], strict=True))
    assert cells["people"] == "2,500 (in 8,177 rows)"
    share = a.unique_records / a.n_people
    assert cells["people unique on the quasi-identifiers"] == (
        f"{a.unique_records:,} people ({share:.1%})"
    )
    assert cells["k (smallest class, people)"] == f"{a.k:,}"
    assert "people failing" in static_table(at, "required").columns


def test_report_without_the_person_counts_records():
    at = _claims_app("pages/report.py", person=False)
    at.button(key="rc_report_build").click().run()
    figures = static_table(at, "figure")  # a static table: every name whole at 1024 px
    cells = dict(zip(figures["figure"], figures["as recorded"], strict=True))
    assert cells["records"] == "8,177" and "people" not in cells


def _population(qis: list[str]) -> pd.DataFrame:
    """One row per patient (their first row's QIs) and 500 more people of the same values."""
    people = _table().drop_duplicates("patient_id")[qis]
    return pd.concat([people, people.sample(500, random_state=0)], ignore_index=True)


def _match(at: AppTest, population: pd.DataFrame) -> AppTest:
    up = next(u for u in at.get("file_uploader") if u.label.startswith("Population"))
    up.set_value(("pop.csv", population.to_csv(index=False).encode(), "text/csv")).run()
    assert not at.exception, at.exception
    return at


def test_the_population_tab_matches_each_patient_once():
    qis = ["sex", "race", "zip"]
    pop = _population(qis)
    at = _match(_claims_app("pages/records.py", qis), pop)
    m = population_match(_table(), load_table(pop.to_csv(index=False).encode()).data, qis,
                         person="patient_id")  # fmt: skip
    assert (m.n_released, m.released_rows) == (2_500, 8_177)
    shown = metrics(at)
    assert shown["k-map"] == f"{m.k_map:,}"
    assert shown["delta max"] == f"{m.delta_max:.3f}"
    text = " ".join(seen(x.value) for x in at.markdown)
    assert "The release is matched as its 2,500 people (in 8,177 rows;" in text
    # in rows the release is no subset: a patient's 1-10 rows against their one row there
    with pytest.raises(RiskcoreError, match="more released records than population members"):
        population_match(_table(), pop, qis)


def test_the_population_tab_refuses_people_whose_qis_change():
    pop = _population(QIS)
    at = _match(_claims_app("pages/records.py"), pop)
    errors = " ".join(seen(x.value) for x in at.error)
    changing = int(_table().groupby("patient_id")["age"].nunique().gt(1).sum())
    assert "The tables could not be matched: k-map and delta-presence match a population" in errors
    assert f"{changing:,} people have rows with different quasi-identifier values" in errors


def test_levels_applied_on_remediate_release_whole_patients_on_every_page():
    at = _claims_app("pages/remediate.py", STEADY)
    at.button(key="rc_rem_search").click().run()
    at.button(key="rc_rem_use").click().run()
    assert not at.exception, at.exception
    best = search(_lattice(STEADY, "patient_id")).best
    assert best is not None and best.suppressed_rows is not None
    at.switch_page("pages/uniqueness.py").run()
    assert not at.exception, at.exception
    m = metrics(at)
    assert m["People"] == f"{2_500 - best.suppressed:,}"  # whole patients suppressed
    people = next(x for x in at.metric if x.label == "People")
    assert people.delta == f"in {8_177 - best.suppressed_rows:,} rows"
    assert int(m["k (people)"]) >= 11
    # the report states the table as recorded and after the recipe, both in people
    at.switch_page("pages/report.py").run()
    at.button(key="rc_report_build").click().run()
    assert not at.exception, at.exception
    figures = static_table(at, "figure")  # a static table: every name whole at 1024 px
    cells = figures.set_index("figure")
    assert cells.loc["people", "as recorded"] == "2,500 (in 8,177 rows)"
    assert cells.loc["people", "after remediation"] == (
        f"{2_500 - best.suppressed:,} (in {8_177 - best.suppressed_rows:,} rows)"
    )
    assert cells.loc["k (smallest class, people)", "after remediation"] == f"{best.k:,}"


def test_two_columns_tagged_as_the_person_stop_the_page_with_a_message():
    at = run()
    at.file_uploader(key="rc_upload").set_value(("claims.csv", _csv(), "text/csv"))
    at.run()
    roles = _roles(QIS, person=True)
    roles["household_id"] = "person"
    set_roles(at, roles)
    at.session_state["rc_roles_for"] = at.session_state["rc_dataset"]["key"]
    for page in ("pages/uniqueness.py", "pages/anonymity.py", "pages/records.py"):
        at.switch_page(page).run()
        assert not at.exception, at.exception
        errors = " ".join(seen(x.value) for x in at.error)
        assert "only one column can link the rows of one person" in errors, page
        assert not at.metric, page


def test_the_utility_views_split_the_model_by_patient():
    at = _claims_app("pages/remediate.py", STEADY)
    at.button(key="rc_rem_search").click().run()
    at.toggle(key="rc_rem_util_show").set_value(True).run()
    assert not at.exception, at.exception
    best = search(_lattice(STEADY, "patient_id")).best
    assert best is not None and best.suppressed_rows is not None
    captions = " ".join(_captions(at))
    assert f"loses the {best.suppressed_rows:,} rows of the suppressed people" in captions
    assert "split by patient_id, no person on both sides" in captions
