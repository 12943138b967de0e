"""Homogeneity, differencing and two releases in people: hand-worked tables, pandas oracles."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from riskcore.attacks import (
    DifferencingResult,
    HomogeneityResult,
    TwoReleaseResult,
    differencing_attack,
    homogeneity_attack,
    two_release_attack,
    unique_target,
)
from riskcore.demo.claims import make_claims
from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError

# ------------------------------------------------------------------ homogeneity

# Eight people in twelve rows. Ann has flu and a cold; Cal flu twice; Fay's ZIP changes
# (3 then 4, a signature of two tuples); Gus's ZIP is missing (its own value); one row has
# no person id (a person of its own).
VISITS = pd.DataFrame(
    {
        "pid": ["ann", "ann", "bea", "cal", "cal", "dee", "eve", "fay", "fay", None, "gus", "gus"],
        "zip": ["1", "1", "1", "2", "2", "2", "3", "3", "4", "2", None, None],
        "dx": "flu cold flu flu flu cold hiv hiv flu flu hiv hiv".split(),
    }
)


def test_homogeneity_in_people_hand_worked():
    h = homogeneity_attack(VISITS, ["zip"], "dx", person="pid")
    # classes of people by signature: {1}: Ann, Bea; {2}: Cal, Dee, the lone row;
    # {3}: Eve; {3, 4}: Fay; {missing}: Gus
    assert h.n_classes == 5 and h.n_people == 8 and h.n_records == 12
    assert h.unit == "person" and h.person == "pid"
    # {1}: both hold flu (Ann has a cold besides): exposed, though on rows flu is 2 of 3.
    # {2}: flu 2 of 3 people, not exposed. Eve, Fay and Gus: classes of one person.
    # Exposed: 2 + 1 + 1 + 1 = 5 people in 3 + 1 + 2 + 2 = 8 rows
    assert h.exposed_classes == 4 and h.exposed_people == 5 and h.exposed_records == 8
    assert h.sizes.tolist()[0] == 2 and sorted(h.sizes.tolist()) == [1, 1, 1, 2]
    assert sorted(h.class_rows.tolist()) == [1, 2, 2, 3]
    first = h.top_value[0], h.top_share[0]
    assert first == ("flu", 1.0)
    # on rows the {1} class (flu, cold, flu) is not homogeneous
    rows = homogeneity_attack(VISITS, ["zip"], "dx")
    assert rows.exposed_records == 2 + 1 + 2  # zip 3 (hiv, hiv), zip 4, missing (hiv, hiv)
    crit = h.by_criterion.set_index(["criterion", "level"])
    # distinct l counts values held: {1} (flu, cold) and Fay (hiv, flu) are 2-diverse, yet
    # every person of them had flu: 3 exposed people in 5 rows survive l = 2
    assert crit.loc[("distinct l", 2.0), "exposed people left"] == 3
    assert crit.loc[("distinct l", 2.0), "exposed records left"] == 5
    assert crit.loc[("distinct l", 3.0), "exposed people left"] == 0


def test_the_criterion_figure_counts_people():
    from riskcore.report.figures import criterion_lines

    h = homogeneity_attack(VISITS, ["zip"], "dx", person="pid")
    distinct = next(t for t in criterion_lines(h.by_criterion).data if t.name == "distinct l")
    # l >= 1 keeps all 5 exposed people; l >= 2 the 3 of {1} and Fay (see above)
    assert list(distinct.y) == [5, 3, 0, 0, 0]


def test_homogeneity_in_people_round_trip_and_refusals():
    h = homogeneity_attack(VISITS, ["zip"], "dx", person="pid")
    back = HomogeneityResult.from_dict(h.to_dict())
    assert (back.n_people, back.exposed_people, back.person) == (8, 5, "pid")
    pd.testing.assert_frame_equal(back.by_criterion, h.by_criterion)
    with pytest.raises(RiskcoreError, match="cannot be a quasi-identifier"):
        homogeneity_attack(VISITS, ["zip", "pid"], "dx", person="pid")
    with pytest.raises(RiskcoreError, match="no person column"):
        homogeneity_attack(VISITS, ["zip"], "dx", person="who")


def _signature_classes(df: pd.DataFrame, qis: list[str]) -> pd.Series:
    """Each patient's class: patients grouped by the frozenset of their QI tuples (pandas)."""
    tuples = df[qis].astype(str).agg("|".join, axis=1)
    sig = tuples.groupby(df["patient_id"]).agg(lambda t: frozenset(t))
    return sig.map({s: i for i, s in enumerate(pd.unique(sig))})


@pytest.mark.parametrize("qis", [["sex", "race"], ["sex", "zip", "age"]])
def test_homogeneity_on_claims_against_a_pandas_oracle(qis):
    claims = make_claims(2500, seed=0)
    p = 0.5
    h = homogeneity_attack(claims, qis, "diagnosis", p=p, person="patient_id")
    cls = _signature_classes(claims, qis)
    people = cls.value_counts()
    holding = (
        claims.assign(cls=claims["patient_id"].map(cls))
        .groupby(["cls", "diagnosis"], observed=True)["patient_id"]
        .nunique()
    )
    share = holding.groupby(level="cls").max() / people
    exposed = share[share >= p].index
    assert h.n_people == 2500 and h.n_classes == len(people)
    assert h.exposed_classes == len(exposed)
    assert h.exposed_people == int(people[exposed].sum())
    rows_per_class = claims["patient_id"].map(cls).value_counts()
    assert h.exposed_records == int(rows_per_class[exposed].sum())


# ------------------------------------------------------------------ differencing

# Seven people. Ann: three visits at (1, F); Eve's ZIP changes (3, then 1: she holds Ann's
# tuple too); Cal: two visits at (2, F); Fay's ZIP is missing and so is her amount; one row
# has no person id.
CLAIMS = pd.DataFrame(
    {
        "pid": ["ann", "ann", "ann", "bea", "cal", "cal", "dee", None, "eve", "eve", "fay"],
        "zip": [1, 1, 1, 1, 2, 2, 1, 2, 3, 1, np.nan],
        "sex": ["F", "F", "F", "M", "F", "F", "M", "M", "F", "F", "F"],
        "dx": ["flu", "flu", "cold", "flu", "flu", "cold", "cold", "flu", "flu", "cold", "flu"],
        "amount": [10.0, 20, 5, 7, 3, 4, 8, 100, 1, 2, np.nan],
    }
)
KNOWN = ["zip", "sex"]
FLU = {"dx": "flu"}


def test_differencing_counts_people_hand_worked():
    # Cal (row 4) is the only person holding (2, F): people with flu are Ann, Bea, Cal, the
    # lone row, Eve and Fay (6); without Cal 5: the difference is Cal's flu
    r = differencing_attack(CLAIMS, 4, KNOWN, condition=FLU, person="pid")
    assert (r.q_all, r.q_rest, r.recovered, r.true_value) == (6, 5, 1, 1)
    assert r.exact and r.group_size == 1 and (r.n, r.rows) == (7, 11) and r.unit == "person"
    # on rows, Cal's two rows at (2, F) hide him in a group of two records
    rows = differencing_attack(CLAIMS, 4, KNOWN, condition=FLU)
    assert rows.group_size == 2 and not rows.exact
    # Ann (row 0): Eve holds (1, F) on one row: a group of two people, Ann and Eve, both
    # with flu; on rows, Ann's two flu rows would have counted twice
    a = differencing_attack(CLAIMS, 0, KNOWN, condition=FLU, person="pid")
    assert (a.group_size, a.q_all, a.q_rest, a.recovered, a.exact) == (2, 6, 4, 2, False)
    # Fay (missing ZIP): the only person holding (missing, F)
    f = differencing_attack(CLAIMS, 10, KNOWN, condition=FLU, person="pid")
    assert f.exact and f.recovered == 1


def test_differencing_sums_and_means_of_people_hand_worked():
    # flu rows' amounts: Ann 10 + 20, Bea 7, Cal 3, lone 100, Eve 1, Fay missing: 141 from
    # 5 contributing people; without Cal 138 from 4
    s = differencing_attack(
        CLAIMS, 4, KNOWN, aggregate="sum", column="amount", condition=FLU, person="pid"
    )
    assert (s.q_all, s.q_rest, s.recovered, s.true_value) == (141, 138, 3, 3)
    assert (s.contributors_all, s.contributors_rest) == (5, 4)
    m = differencing_attack(
        CLAIMS, 4, KNOWN, aggregate="mean", column="amount", condition=FLU, person="pid"
    )
    assert m.q_all == pytest.approx(141 / 5) and m.q_rest == pytest.approx(138 / 4)
    assert m.recovered == pytest.approx(3) and m.true_value == 3
    assert "average total amount per person" in m.queries()[0]
    # Ann's total over her flu rows: 30 is her value (her group also holds Eve's 1)
    a = differencing_attack(
        CLAIMS, 0, KNOWN, aggregate="sum", column="amount", condition=FLU, person="pid"
    )
    assert a.true_value == 30 and a.recovered == 31
    assert DifferencingResult.from_dict(a.to_dict()) == a


def test_one_row_per_person_gives_the_record_answers():
    one = CLAIMS.assign(pid=[f"p{i}" for i in range(len(CLAIMS))])
    for kw in ({"condition": FLU}, {"aggregate": "sum", "column": "amount"}):
        rows = differencing_attack(one, 3, KNOWN, **kw)
        people = differencing_attack(one, 3, KNOWN, person="pid", **kw)
        fields = ("q_all", "q_rest", "group_size", "contributors_all", "recovered", "n")
        assert [getattr(people, f) for f in fields] == [getattr(rows, f) for f in fields]


def test_unique_target_in_people():
    enc = EncodedTable(CLAIMS)
    # rows: (1, F) is held by Ann and Eve; (1, M) by Bea and Dee; (2, F) by Cal alone
    assert unique_target(enc, tuple(KNOWN), person="pid") == 4
    # on rows, Cal's two rows share (2, F): the first row alone is the lone row (2, M)
    assert unique_target(enc, tuple(KNOWN)) == 7


def test_differencing_refuses_the_person_column_in_a_query():
    with pytest.raises(RiskcoreError, match="links a person's rows"):
        differencing_attack(CLAIMS, 0, ["zip", "pid"], condition=FLU, person="pid")
    with pytest.raises(RiskcoreError, match="links a person's rows"):
        differencing_attack(CLAIMS, 0, KNOWN, condition={"pid": "ann"}, person="pid")


def test_differencing_on_claims_against_pandas():
    claims = make_claims(2500, seed=0)
    known = ("sex", "zip", "date_of_birth")
    target = unique_target(EncodedTable(claims), known, person="patient_id")
    row = claims.iloc[target]
    dx = row["diagnosis"]
    r = differencing_attack(claims, target, known, condition={"diagnosis": dx}, person="patient_id")
    holders = claims.loc[claims["diagnosis"] == dx, "patient_id"]
    group = claims.loc[(claims[list(known)] == row[list(known)]).all(axis=1), "patient_id"]
    assert group.nunique() == 1 and r.exact
    assert r.q_all == holders.nunique()
    assert r.q_rest == holders[~holders.isin(group)].nunique()
    assert r.recovered == 1 and r.n == 2500


# ------------------------------------------------------------------ two releases


def test_two_releases_count_people_with_a_recovered_value():
    bands = pd.DataFrame(
        {
            "pid": ["a", "a", "b", None],
            "r1": ["40-44", "40-44", "[30, 40)", "40-44"],
            "r2": ["44-48", "41-48", "35+", "44-48"],
        }
    )
    r = two_release_attack(bands, person="pid")
    # rows 0 and 3 are exact (44): person a (once, though row 1 is not) and the lone row
    assert r.exact.tolist() == [True, False, False, True]
    assert (r.n_exact, r.n_exact_people, r.n_people) == (2, 2, 3) and r.unit == "person"
    back = TwoReleaseResult.from_dict(r.to_dict())
    assert (back.n_exact_people, back.n_people) == (2, 3)
    plain = two_release_attack(bands[["r1", "r2"]])
    assert plain.n_exact_people == plain.n_exact == 2 and plain.person is None
    with pytest.raises(RiskcoreError, match="as a table that holds it"):
        two_release_attack([bands["r1"], bands["r2"]], person="pid")
