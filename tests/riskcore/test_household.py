"""Household risk (:mod:`riskcore.metrics.household`): r_h = 1 - prod_i (1 - r_i).

Checked by hand, and against a second reading of sdcMicro 5.8.1's exact routine
(``measure_hierachical``, Boole's inclusion-exclusion formula, in
:mod:`tests.riskcore.sdc_reference`) on random households and on sdcMicro's ``testdata2``
with its household ids.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riskcore.errors import RiskcoreError, RolesError
from riskcore.metrics.household import HouseholdRisk, combine_risks, household_risk
from riskcore.metrics.records import record_individual_risk
from tests.riskcore.sdc_reference import measure_hierachical

SDC = Path(__file__).resolve().parents[1] / "data" / "sdcmicro"


def test_a_household_of_two_and_one_alone():
    df = pd.DataFrame({"hh": ["H1", "H1", "H2"]})
    r = household_risk(df, "hh", np.array([0.5, 0.2, 0.1]))
    # H1: 1 - 0.5 * 0.8 = 0.6 for both members; H2: 0.1
    assert r.risk.tolist() == pytest.approx([0.6, 0.6, 0.1])
    assert r.expected_reidentifications == pytest.approx(1.3)  # 0.6 + 0.6 + 0.1
    assert r.global_risk == pytest.approx(1.3 / 3)
    assert r.individual_expected == pytest.approx(0.8)
    assert (r.n_households, r.largest_household, r.n_members) == (2, 2, 3)
    assert r.highest_risk == pytest.approx(0.6)
    assert (r.members_above, r.share_above) == (3, 1.0)  # 0.1 > 1/11
    assert r.household_size.tolist() == [2, 2, 1]


def test_a_person_with_many_records_is_one_member():
    # H1: person A (three claims, risk 0.5) and B (0.2); H2: C (0.1)
    df = pd.DataFrame({"hh": ["H1", "H1", "H1", "H1", "H2"], "who": ["A", "A", "B", "A", "C"]})
    risk = [0.5, 0.5, 0.2, 0.5, 0.1]
    by_person = household_risk(df, "hh", risk, person="who")
    assert by_person.risk.tolist() == pytest.approx([0.6, 0.6, 0.6, 0.6, 0.1])
    assert (by_person.n_members, by_person.largest_household) == (3, 2)
    assert by_person.expected_reidentifications == pytest.approx(0.6 + 0.6 + 0.1)
    assert by_person.global_risk == pytest.approx(1.3 / 3)
    # as records, A's three claims would be three members: 1 - 0.5^3 * 0.8 = 0.9
    by_record = household_risk(df, "hh", risk)
    assert by_record.risk[0] == pytest.approx(0.9)


def test_a_persons_risk_is_one_or_the_highest_of_their_records():
    df = pd.DataFrame({"hh": ["H1", "H1", "H1"], "who": ["A", "A", "B"]})
    with pytest.raises(RiskcoreError, match=r"1 people have records with different individual "
                       r"risks \(the person of record 1, 'A': from 0.3 to 0.5\)"):  # fmt: skip
        household_risk(df, "hh", [0.3, 0.5, 0.2], person="who")
    r = household_risk(df, "hh", [0.3, 0.5, 0.2], person="who", person_risk="highest")
    assert r.risk[0] == pytest.approx(1 - 0.5 * 0.8)
    assert r.member_risk.tolist() == [0.5, 0.5, 0.2]


def test_a_missing_household_is_a_household_alone():
    df = pd.DataFrame({"hh": ["H1", None, "H1", None]})
    r = household_risk(df, "hh", [0.5, 0.3, 0.5, 0.2])
    assert r.risk.tolist() == pytest.approx([0.75, 0.3, 0.75, 0.2])
    assert r.n_households == 3
    # with people: A's record without a household joins A's household; B has none
    df = pd.DataFrame({"hh": ["H1", None, None], "who": ["A", "A", "B"]})
    r = household_risk(df, "hh", [0.5, 0.5, 0.2], person="who")
    assert r.risk.tolist() == pytest.approx([0.5, 0.5, 0.2]) and r.n_households == 2


def test_a_person_in_two_households_is_refused():
    df = pd.DataFrame({"hh": ["H1", "H2", "H2"], "who": ["A", "A", "B"]})
    with pytest.raises(RolesError, match="1 people belong to more than one household"):
        household_risk(df, "hh", [0.1, 0.1, 0.2], person="who")


def test_tiny_and_certain_risks():
    r = combine_risks(np.zeros(3, dtype=np.int64), np.full(3, 1e-12), 1)
    # 1 - (1 - e)^3 = 3e - 3e^2 + e^3; 1 - prod in float64 would keep 4 digits of it
    assert r[0] == pytest.approx(3e-12 - 3e-24, rel=1e-13)
    assert combine_risks(np.array([0, 0, 1]), np.array([1.0, 0.3, 0.0]), 3).tolist() == [
        1.0,
        0.0,
        0.0,
    ]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.floats(0, 1, allow_nan=False)), min_size=1, max_size=14
    )
)
def test_equals_sdcmicros_inclusion_exclusion(rows):
    hid = [h for h, _ in rows]
    risk = [r for _, r in rows]
    expected, er, share = measure_hierachical(hid, risk)
    got = household_risk(pd.DataFrame({"hh": hid}), "hh", risk)
    assert got.risk == pytest.approx(expected, abs=1e-9)
    assert got.expected_reidentifications == pytest.approx(er, abs=1e-9)
    assert got.global_risk == pytest.approx(share, abs=1e-9)


def test_sdcmicros_testdata2_with_its_household_ids():
    data = pd.read_csv(SDC / "testdata2.csv")
    keys = ["urbrur", "roof", "walls", "water", "sex"]  # measure_risk's example, hid = "ori_hid"
    ir = record_individual_risk(data, keys, weights="sampling_weight", method="approx")
    expected, er, share = measure_hierachical(data["ori_hid"].tolist(), ir.risk.tolist())
    got = household_risk(data, "ori_hid", ir.risk)
    assert got.risk == pytest.approx(expected, rel=1e-12)
    assert got.expected_reidentifications == pytest.approx(er, rel=1e-12)
    assert got.global_risk == pytest.approx(share, rel=1e-12)
    assert got.n_households == data["ori_hid"].nunique()
    # households only add risk: no member is safer than alone
    assert (got.risk >= ir.risk - 1e-15).all() and got.expected_reidentifications > sum(ir.risk)


def test_bad_input_is_refused():
    df = pd.DataFrame({"hh": ["H1", "H2"], "who": ["A", "B"]})
    with pytest.raises(RiskcoreError, match="3 risks for 2 records"):
        household_risk(df, "hh", [0.1, 0.2, 0.3])
    with pytest.raises(RiskcoreError, match=r"1 individual risk\(s\) are not between 0 and 1 "
                       r"\(record 2: nan\)"):  # fmt: skip
        household_risk(df, "hh", [0.1, float("nan")])
    with pytest.raises(RiskcoreError, match=r"record 1: 1\.5\)"):
        household_risk(df, "hh", pd.Series([1.5, 0.1], index=[9, 3]))
    with pytest.raises(RolesError, match="no household column 'house'"):
        household_risk(df, "house", [0.1, 0.2])
    with pytest.raises(RolesError, match="no person column 'p'"):
        household_risk(df, "hh", [0.1, 0.2], person="p")
    with pytest.raises(RolesError, match="both the household and the person"):
        household_risk(df, "hh", [0.1, 0.2], person="hh")
    with pytest.raises(ValueError, match="person_risk must be one of"):
        household_risk(df, "hh", [0.1, 0.2], person="who", person_risk="mean")  # type: ignore[arg-type]
    with pytest.raises(RiskcoreError, match="no records"):
        household_risk(df.iloc[:0], "hh", [])


def test_the_result_goes_to_json_and_back():
    df = pd.DataFrame({"hh": ["H1", "H1", "H2"]})
    r = household_risk(df, "hh", [0.5, 0.2, 0.1])
    d = json.loads(json.dumps(r.to_dict(), allow_nan=False))
    assert "risk" not in d and d["household"] == "hh"
    assert HouseholdRisk.from_dict(d) == r
