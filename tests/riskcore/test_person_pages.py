"""Uniqueness per QI subset, one record explained and the population match, in people (issue 36).

What the Uniqueness, Records and Remediate pages show in people, worked by hand on a small
table (a person with several rows, a person whose QIs change between rows, a missing value,
a row with no person id), or computed apart (a pandas count of each person's set of QI
tuples); on one row per person every figure equals the row figure.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from riskcore import assess
from riskcore.criteria.records import record_table
from riskcore.demo.claims import make_claims
from riskcore.errors import RiskcoreError, RolesError
from riskcore.metrics.explain import explain_record, record_subsets, riskiest_rows
from riskcore.metrics.presence import people_of_release, population_match
from riskcore.metrics.special_uniques import suda, suda_not_searched
from riskcore.metrics.uniqueness import subset_uniqueness
from riskcore.report.figures import candidates_curve, class_size_histogram, delta_bars, subset_bars
from riskcore.report.readings import (
    candidate_table,
    delta_table,
    histogram_reading,
    node_reading,
    node_table,
    population_match_reading,
    record_reading,
    record_subset_table,
    record_subsets_caption,
    record_values_table,
    risk_table,
    roles_summary,
    size_histogram,
    subset_table,
    suda_reading,
)
from riskcore.report.readings.review import _risk_cells

NAN = float("nan")

# a: two rows whose age changes (30, 31); b: one row at 30; c: two rows at (40, 100); d one;
# e: age missing; the last row has no person id (a person of its own, the same tuple as d)
T = pd.DataFrame(
    {
        "pid": ["a", "a", "b", "c", "c", "d", "e", None],
        "age": [30, 31, 30, 40, 40, 40, NAN, 40],
        "zip": ["021", "021", "021", "100", "100", "100", "100", "100"],
    }
)
# people and their signatures over (age, zip):
#   a {(30,021), (31,021)}   b {(30,021)}   c, d, the unnamed row {(40,100)}   e {(NaN,100)}
QIS = ["age", "zip"]


def _signatures(data: pd.DataFrame, qis: list[str], person: str) -> pd.Series:
    """Return each person's set of QI tuples (a missing person: each row its own person)."""
    who = data[person].astype(object).where(data[person].notna(), pd.Series(
        [f"row {i}" for i in range(len(data))], index=data.index))  # fmt: skip
    tuples = data[qis].astype(object).where(data[qis].notna(), "<NA>").apply(tuple, axis=1)
    return tuples.groupby(who).agg(frozenset)


# ------------------------------------------------------------------ uniqueness per subset


def test_uniqueness_counts_people_by_their_set_of_tuples() -> None:
    r = subset_uniqueness(T, QIS, person="pid")
    assert (r.n_records, r.n_people, r.n_units, r.person) == (8, 6, 6, "pid")
    full = r.all_quasi_identifiers
    assert (full.unique_records, full.n_classes, full.k) == (3, 4, 1)  # a, b, e
    assert full.unique_share == pytest.approx(3 / 6)
    by = {s.columns: s for s in r.subsets}
    assert by[("age",)].unique_records == 3  # a {30, 31}, b {30}, e {NaN}; c, d, row 8 {40}
    assert (by[("zip",)].unique_records, by[("zip",)].k) == (0, 2)  # {021}: a, b; {100}: 4
    drop = {c.column: (c.drop, c.unique_without) for c in r.contributions}
    assert drop == {"zip": (0, 3), "age": (3, 0)}
    rows = subset_uniqueness(T, QIS)  # the rows: (31,021) and (NaN,100) alone
    assert (rows.all_quasi_identifiers.unique_records, rows.person, rows.n_people) == (
        2,
        None,
        None,
    )


def test_uniqueness_in_people_equals_a_count_of_each_persons_tuples() -> None:
    df = make_claims(300, seed=2)
    qis = ["sex", "race", "age"]
    r = subset_uniqueness(df, qis, person="patient_id")
    for s in r.subsets:
        sig = _signatures(df, list(s.columns), "patient_id")
        sizes = sig.map(sig.value_counts())
        assert s.unique_records == int((sizes == 1).sum()), s.columns
        assert s.k == int(sizes.min())
    assert r.n_people == df["patient_id"].nunique()


def test_uniqueness_on_one_row_per_person_equals_the_rows() -> None:
    one = make_claims(300, seed=1).drop_duplicates("patient_id")
    a = subset_uniqueness(one, ["sex", "race", "zip"], person="patient_id")
    b = subset_uniqueness(one, ["sex", "race", "zip"])
    assert [s.unique_records for s in a.subsets] == [s.unique_records for s in b.subsets]
    assert a.contributions == b.contributions


def test_uniqueness_refuses_matching_any_value_when_qis_change() -> None:
    with pytest.raises(RiskcoreError, match="1 people have rows with different"):
        subset_uniqueness(T, QIS, person="pid", missing="any")
    with pytest.raises(RolesError, match="cannot be a quasi-identifier"):
        subset_uniqueness(T, ["pid", "age"], person="pid")


# ------------------------------------------------------------------ one record explained


def test_a_row_is_explained_as_its_person() -> None:
    s = suda_not_searched(T, QIS, person="pid")
    e = explain_record(T, QIS, 2, suda_result=s, person="pid")  # a at 31
    assert (e.class_size, e.person_rows, e.person_tuples, e.searched) == (1, 2, 2, False)
    assert e.value_counts == (1, 2)  # age 31: a; zip 021: a and b (3 rows)
    assert e.msus == () and np.isnan(e.dis_suda) and e.top_basis == "rarest value"
    c = explain_record(T, QIS, 4, suda_result=s, person="pid")  # c at (40, 100)
    assert (c.class_size, c.person_rows, c.person_tuples) == (3, 2, 1)  # c, d, row 8
    assert c.value_counts == (3, 4)  # age 40: c, d, row 8 (4 rows); zip 100: and e
    rows = explain_record(T, QIS, 4, suda_result=suda(T, QIS))
    assert (rows.class_size, rows.value_counts) == (4, (4, 5))


def test_combinations_are_shared_by_people_each_counted_once() -> None:
    # row 3 (b: 30, 021): a holds 30 + 021 on one row and 021 on another, b holds both
    sub = record_subsets(T, QIS, 3, person="pid").set_index("columns")["sharing"]
    assert sub.to_dict() == {("age",): 2, ("zip",): 2, ("age", "zip"): 2}
    rows = record_subsets(T, QIS, 3).set_index("columns")["sharing"]
    assert rows.to_dict() == {("age",): 2, ("zip",): 3, ("age", "zip"): 2}
    four = record_subsets(T, QIS, 4, person="pid").set_index("columns")["sharing"]
    assert four.to_dict() == {("age",): 3, ("zip",): 4, ("age", "zip"): 3}


def test_combinations_in_people_equal_a_pandas_count() -> None:
    df = make_claims(200, seed=4)
    qis = ["sex", "race", "age"]
    for row in (1, 57, 301):
        got = record_subsets(df, qis, row, person="patient_id").set_index("columns")["sharing"]
        target = df.iloc[row - 1]
        for cols, n in got.items():
            hit = (df[list(cols)] == target[list(cols)]).all(axis=1)
            assert n == df.loc[hit, "patient_id"].nunique(), cols


def test_riskiest_rows_rank_by_their_persons_class() -> None:
    s = suda_not_searched(T, QIS, person="pid")
    # class sizes in people per row: a 1, a 1, b 1, c 3, c 3, d 3, e 1, row 8 3
    assert riskiest_rows(T, QIS, s, person="pid").tolist() == [1, 2, 3, 7, 4, 5, 6, 8]
    with pytest.raises(RiskcoreError, match="other QIs or another table"):
        riskiest_rows(T, QIS, s)  # a SUDA result in people for rows


def test_explanations_on_one_row_per_person_equal_the_rows() -> None:
    one = make_claims(200, seed=3).drop_duplicates("patient_id").reset_index(drop=True)
    qis = ["sex", "race", "zip"]
    sp, sr = suda(one, qis, person="patient_id"), suda(one, qis)
    for row in (1, 10, 100):
        p = explain_record(one, qis, row, suda_result=sp, person="patient_id")
        r = explain_record(one, qis, row, suda_result=sr)
        assert (p.class_size, p.value_counts, p.msus) == (r.class_size, r.value_counts, r.msus)
    assert (
        riskiest_rows(one, qis, sp, person="patient_id").tolist()
        == riskiest_rows(one, qis, sr).tolist()
    )


def test_the_records_table_without_special_uniques_leaves_them_missing() -> None:
    s = suda_not_searched(T, QIS, person="pid")
    with pytest.raises(RiskcoreError, match="special uniques are found per person"):
        suda(T, QIS, person="pid")
    table = record_table(T, QIS, suda_result=s, person="pid")
    assert table["class_size"].tolist() == [1, 1, 1, 3, 3, 3, 1, 3]
    assert table["msu_count"].isna().all() and table["dis_suda"].isna().all()
    assert str(table["msu_count"].dtype) == "Int64"


# ------------------------------------------------------------------ the population match

# a has three rows of (021, F), b one, c one of (100, M): three people in five rows
RELEASE = pd.DataFrame(
    {"pid": ["a", "a", "a", "b", "c"], "zip": ["021", "021", "021", "021", "100"],
     "sex": ["F", "F", "F", "F", "M"]}
)  # fmt: skip
POPULATION = pd.DataFrame(
    {"zip": ["021", "021", "021", "100", "100", "100"], "sex": ["F", "F", "F", "M", "F", "F"]}
)


def test_presence_in_people_matches_each_person_once() -> None:
    m = population_match(RELEASE, POPULATION, ["zip", "sex"], person="pid")
    assert (m.n_released, m.released_rows, m.person) == (3, 5, "pid")
    assert (m.k_map, m.n_classes, m.n_population_classes) == (1, 2, 3)  # (100, M): 1 member
    assert (m.delta_min, m.delta_max) == (0.0, 1.0)  # (100, F) absent; (100, M) 1 of 1
    by = {(z, s): d for z, s, d in m.classes[["zip", "sex", "delta"]].itertuples(index=False)}
    assert by[("021", "F")] == pytest.approx(2 / 3)  # a and b of 3 members
    assert m.record_k_map.tolist() == [3, 3, 3, 3, 1]  # each row its person's F_j
    assert (m.absent_classes, m.absent_records) == (1, 2)


def test_presence_in_rows_refuses_what_people_allow() -> None:
    # four rows of (021, F) against three members: not a subset in rows, a subset in people
    with pytest.raises(RiskcoreError, match="more released records than population members"):
        population_match(RELEASE, POPULATION, ["zip", "sex"])


def test_presence_refuses_people_whose_qis_change() -> None:
    moved = RELEASE.assign(zip=["021", "021", "100", "021", "100"])  # a moves
    with pytest.raises(RiskcoreError, match="1 person has rows with different"):
        population_match(moved, POPULATION, ["zip", "sex"], person="pid")
    blank = RELEASE.assign(sex=["F", None, "F", "F", "M"])  # a: a missing value on one row
    with pytest.raises(RiskcoreError, match="one row per person"):
        population_match(blank, POPULATION, ["zip", "sex"], person="pid")
    with pytest.raises(RolesError, match="no person column 'who'"):
        population_match(RELEASE, POPULATION, ["zip", "sex"], person="who")


def test_a_row_without_a_person_is_a_person_of_its_own() -> None:
    r = RELEASE.assign(pid=["a", "a", "a", None, "c"])
    one, who = people_of_release(r, ["zip", "sex"], "pid")
    assert who.tolist() == [0, 0, 0, 2, 1]  # a, then c, then the row with no person id
    m = population_match(r, POPULATION, ["zip", "sex"], person="pid")
    assert m.n_released == 3 and len(one) == 3


def test_presence_on_one_row_per_person_equals_the_rows() -> None:
    one = RELEASE.drop_duplicates("pid")
    a = population_match(one, POPULATION, ["zip", "sex"], person="pid")
    b = population_match(one, POPULATION, ["zip", "sex"])
    assert (a.k_map, a.delta_min, a.delta_max, a.n_released) == (
        b.k_map,
        b.delta_min,
        b.delta_max,
        b.n_released,
    )
    assert a.record_k_map.tolist() == b.record_k_map.tolist()


# ------------------------------------------------------------------ the readings say people


def test_readings_and_figures_of_an_assessment_in_people() -> None:
    a = assess(T, quasi_identifiers=QIS, person="pid")
    dist = a.anonymity.distribution
    hist = size_histogram(dist, people=True)
    assert int(hist["people"].sum()) == 6 and "records" not in hist
    fig = class_size_histogram(hist, "age + zip")
    assert fig.layout.title.text.startswith("People by equivalence-class size")
    assert fig.layout.yaxis.title.text == "people"
    rows_fig = class_size_histogram(size_histogram(dist), "age + zip")
    assert rows_fig.layout.title.text.startswith("Records by equivalence-class size")
    curve = candidates_curve(candidate_table(dist, people=True))
    assert "candidates per person" in curve.layout.xaxis.title.text
    # 3 of the 6 people are unique (not 3 of the 8 rows)
    assert histogram_reading(a).startswith("3 people (50.0%) are unique on age + zip")
    assert "people with risk > " in "".join(risk_table(a).columns)
    cells = dict(_risk_cells(a))
    assert cells["people"] == "6 (in 8 rows)"
    assert cells["people unique on the quasi-identifiers"] == "3 people (50.0%)"
    u = subset_table(subset_uniqueness(T, QIS, person="pid"))
    assert "unique people" in u.columns
    assert subset_bars(u).layout.xaxis.title.text.startswith("people unique")


def test_record_readings_name_the_person_not_the_row() -> None:
    s = suda_not_searched(T, QIS, person="pid")
    e = explain_record(T, QIS, 2, suda_result=s, person="pid")
    text = record_reading(e)
    assert text.startswith("Row 2 belongs to a person with 2 rows, carrying 2 different sets")
    assert "special uniques (SUDA) were not searched" in text
    assert list(record_values_table(e).columns)[-1] == "people with this value"
    sub = record_subset_table(record_subsets(T, QIS, 2, person="pid"), e)
    assert "people sharing" in sub.columns


def test_suda_reading_in_people_counts_people() -> None:
    one_tuple = T[T["pid"] != "a"]  # every person left holds one tuple
    s = suda(one_tuple, QIS, person="pid")
    assert (s.n_people, s.n_records) == (5, 6)
    assert " of 5 people (one record per person, in 6 rows)" in suda_reading(s)


def test_population_readings_in_people() -> None:
    m = population_match(RELEASE, POPULATION, ["zip", "sex"], person="pid")
    text = population_match_reading(m)
    assert text.startswith("The release is matched as its 3 people (in 5 rows;")
    assert "every released person matches at least 1 person" in text
    table = delta_table(m, np.zeros(len(m.classes), dtype=bool))
    assert int(table["people"].sum()) == 3
    assert "released people" in delta_bars(table).layout.xaxis.title.text


def test_node_readings_count_people_with_their_rows() -> None:
    from types import SimpleNamespace as N

    before = N(suppressed=6, suppressed_rows=8, n_classes=4, k=1, success_rate=4 / 6, ncp=0.0,
               precision=0.0, discernibility=0.0, avg_class_size=0.0, distortion={})  # fmt: skip
    after = N(suppressed=2, suppressed_rows=3, n_classes=1, k=4, success_rate=0.25, ncp=0.5,
              precision=0.5, discernibility=16.0, avg_class_size=2.0, distortion={},
              anonymous=True)  # fmt: skip
    text = node_reading(before, after, 6, 4 / 6, person="pid", n_rows=8)
    assert text.startswith("As recorded, 6 of 6 people in 8 rows (100.0%) sit in classes")
    assert "2 (33.3%) do, and are suppressed with their 3 rows" in text
    assert "have at least 4 people" in text
    table = node_table(before, after, 4).set_index("figure")
    assert table.loc["people suppressed", "generalized"] == "2"
    assert table.loc["their rows suppressed", "generalized"] == "3"


def test_a_table_of_combinations_has_no_msu_column_when_none_was_searched() -> None:
    s = suda_not_searched(T, QIS, person="pid")
    e = explain_record(T, QIS, 2, suda_result=s, person="pid")
    sub = record_subset_table(record_subsets(T, QIS, 2, person="pid"), e)
    assert "minimal sample unique" not in sub.columns
    assert record_subsets_caption("pid", searched=False).endswith("fewest values first.")
    searched = explain_record(T, QIS, 2, suda_result=suda(T, QIS))
    assert "minimal sample unique" in record_subset_table(record_subsets(T, QIS, 2), searched)


def test_the_sidebar_counts_the_person_column_and_the_search_plot_says_person() -> None:
    from riskcore.deidentify.hierarchy import default_hierarchy
    from riskcore.deidentify.search.lattice import Lattice
    from riskcore.deidentify.search.run import evaluate_all
    from riskcore.report.figures import risk_loss_chart
    from riskcore.roles import ColumnRoles

    roles = ColumnRoles.from_mapping({"pid": "person", "age": "quasi_identifier"})
    assert roles_summary(roles).startswith("0 identifiers, 1 person, 1 quasi-identifier,")
    assert "person" not in roles_summary(ColumnRoles.from_mapping({"age": "quasi_identifier"}))
    steady = T[T["pid"] != "a"]
    for person, unit in (("pid", "person"), (None, "record")):
        lattice = Lattice(steady, {"zip": default_hierarchy(steady["zip"])}, person=person)
        fig = risk_loss_chart(evaluate_all(lattice), None, ["zip"])
        assert fig.layout.yaxis.title.text.replace("<br>", " ").endswith(f"of a released {unit}")
