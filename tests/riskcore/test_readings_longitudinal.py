"""The readings of k^m-anonymity and household risk, on hand-made results."""

from __future__ import annotations

from riskcore.metrics.household import HouseholdRisk
from riskcore.metrics.longitudinal import ItemsetLevel, KmAnonymity, RareItemset
from riskcore.report import readings


def _km(**changes) -> KmAnonymity:
    values = dict(
        person="patient",
        events=("visit_date", "diagnosis"),
        items="visit",
        missing="own",
        generalized=(),
        k=11,
        m=2,
        n_records=1000,
        n_people=400,
        n_items=700,
        people_without_items=0,
        k_achieved=1,
        people_at_risk=36,
        share_at_risk=36 / 400,
        itemsets=(ItemsetLevel(1, 700, 1000, 400, 1, 650),),
        rarest=(
            RareItemset(((("visit_date", "2023-05"), ("diagnosis", "B20")),), 1, 1, 1),
            RareItemset(((("diagnosis", "C50"),), (("diagnosis", None),)), 2, 3, 2),
        ),
    )
    values.update(changes)
    return KmAnonymity(**values)


def test_the_km_reading_states_k_m_and_the_people_at_risk():
    text = readings.km_reading(_km())
    assert text.startswith(
        "An attacker who knows up to 2 of a person's visits (visit_date + diagnosis of one row "
        "together) finds at least 1 person holding them: the data are k^m-anonymous for k = 1 "
        "and m = 2. 36 of 400 people (9.0%) hold a set of at most 2 that fewer than 11 people "
        "hold."
    )
    assert text.endswith("A missing value counts as a value of its own.")
    values = readings.km_reading(
        _km(items="value", missing="skip", people_without_items=3, generalized=("visit_date",))
    )
    assert "values of visit_date + diagnosis, from any of their rows" in values
    assert "3 people have no known event" in values
    assert "Generalized before counting: visit_date." in values
    assert values.endswith("A missing value is taken as unknown to an attacker.")
    safe = readings.km_reading(_km(k_achieved=12, people_at_risk=0, share_at_risk=0.0, k=11))
    assert "at least 12 people" in safe
    assert "No one of 400 people holds a set of at most 2 that fewer than 11 hold." in safe
    one = readings.km_reading(_km(events=("diagnosis",)))
    assert "2 of a person's values of diagnosis finds" in one


def test_the_rare_itemset_table_reads_each_set_of_events():
    table = readings.rare_itemset_table(_km(), escape=lambda v: f"<{v}>")
    assert list(table.columns) == list(readings.RARE_COLUMNS)
    assert table.iloc[0].tolist() == ["(<visit_date> = <2023-05>, <diagnosis> = <B20>)", 1, 1, 1]
    assert table.iloc[1].tolist() == [
        "<diagnosis> = <C50> and <diagnosis> = <(missing)>",
        2,
        3,
        2,
    ]
    assert readings.rare_itemset_table(_km(rarest=())).empty


def test_the_household_reading():
    r = HouseholdRisk(
        household="household_id",
        person="patient_id",
        person_risk="constant",
        n_records=5,
        n_members=3,
        n_households=2,
        largest_household=2,
        expected_reidentifications=1.3,
        global_risk=1.3 / 3,
        individual_expected=0.8,
        highest_risk=0.6,
        threshold=1 / 11,
        members_above=3,
        share_above=1.0,
    )
    assert readings.household_reading(r) == (
        "Counting households (household_id), where a household is re-identified when any of "
        "its members is (r_h = 1 - prod(1 - r_i), sdcMicro's household risk): the expected "
        "re-identifications rise from 0.8 to 1.3 of 3 people (global risk 43.3%); 3 of them "
        "are in a household whose risk is above 0.0909 (highest 0.6). 2 households, the "
        "largest with 2 members."
    )
