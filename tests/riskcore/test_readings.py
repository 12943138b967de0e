"""Readings of uniqueness, k, risk, targets, diversity, population and the Data page.

Every expected number is worked out by hand from the small tables below.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from riskcore.metrics import Population, assess
from riskcore.metrics.population import PopulationUniqueness
from riskcore.metrics.uniqueness import subset_uniqueness
from riskcore.report import readings as rd
from riskcore.roles import ColumnRoles, RedundantPair, RoleSuggestion, RoleSuggestions
from tests.riskcore.cases import AB, PEOPLE

# Eight people, QIs age + zip, sensitive diag. Classes (hand-counted):
#   (30, 100): flu flu cold  size 3, 2 distinct
#   (40, 200): flu flu       size 2, homogeneous
#   (50, 300): cold          size 1, unique and homogeneous
#   (60, 400): flu cold      size 2, 2 distinct
# Whole table: flu 5/8, cold 3/8.


@pytest.fixture(scope="module")
def a():
    return assess(PEOPLE, quasi_identifiers=["age", "zip"], sensitive=["diag"], threshold=0.4)


# ------------------------------------------------------------------ formatting


def test_join_names_and_short_share():
    assert rd.join_names(("a", "b", "c")) == "a + b + c"
    assert rd.short_share(0.0) == "0%"
    assert rd.short_share(0.25) == "25%"
    assert rd.short_share(0.05) == "5.0%"
    assert rd.short_share(0.0004) == "0.04%"


# ------------------------------------------------------------------ class sizes and k


def test_size_histogram_bins_records_by_class_size(a):
    h = rd.size_histogram(a.anonymity.distribution)
    assert list(h["class size"]) == [b[0] for b in rd.SIZE_BINS]
    # size 1: 1 record in 1 class; size 2: 4 records in 2 classes; size 3: 3 records in 1 class
    assert list(h["records"]) == [1, 4, 3, 0, 0, 0, 0, 0]
    assert list(h["classes"]) == [1, 2, 1, 0, 0, 0, 0, 0]
    np.testing.assert_allclose(h["share"], [1 / 8, 4 / 8, 3 / 8, 0, 0, 0, 0, 0])


def test_candidate_table_is_cumulative(a):
    c = rd.candidate_table(a.anonymity.distribution)
    assert list(c["candidates"]) == [1, 2, 3]
    assert list(c["records"]) == [1, 4, 3]
    np.testing.assert_allclose(c["cumulative share"], [0.125, 0.625, 1.0])


def test_histogram_reading(a):
    assert rd.histogram_reading(a) == (
        "1 people (12.5%) are unique on age + zip; 8 (100.0%) share their values with fewer "
        "than 10 others (class size under 11, the US public-release cell-size rule). k = 1."
    )


def test_candidates_reading(a):
    text = rd.candidates_reading(a)
    assert "knows someone's age + zip" in text
    assert "fewer than 11 candidates for 100.0% of people" in text
    assert "exactly one for 12.5%." in text


def test_risk_table_and_reading(a):
    t = rd.risk_table(a)
    assert list(t["attacker model"]) == ["prosecutor"]  # no sampling fraction
    row = t.iloc[0]
    assert row["highest record risk"] == pytest.approx(1.0)  # the unique record
    assert row["records with risk > 0.4"] == pytest.approx(5 / 8)  # sizes 1 and 2: 1/f > 0.4
    assert row["expected share re-identified"] == pytest.approx(4 / 8)  # classes / records
    assert row["mean class risk"] == pytest.approx((1 / 3 + 1 / 2 + 1 + 1 / 2) / 4)
    text = rd.risk_reading(a)
    assert "exceeds 0.4 (a custom threshold; El Emam 2013)." in text
    assert text.endswith(
        "Give a sampling fraction or a sampling-weight column for journalist and marketer risk."
    )


def test_risk_reading_names_the_model_behind_journalist_risk():
    b = assess(
        PEOPLE, quasi_identifiers=["age", "zip"], population_model=Population(sampling_fraction=0.1)
    )
    assert rd.risk_reading(b).endswith(
        "Journalist and marketer: record risk E[1/F | f] from the individual-risk model of "
        "Benedetti and Franconi with sampling weights 1/0.1: model-based estimates, not "
        "measured population sizes."
    )


def test_risk_reading_names_a_cited_threshold():
    b = assess(PEOPLE, quasi_identifiers=["age", "zip"], threshold=0.2)
    assert "exceeds 0.2 (k = 5: common cell-size rule for shared data; El Emam 2013)" in (
        rd.risk_reading(b)
    )


# ------------------------------------------------------------------ diversity


def test_diversity_distribution(a):
    d = rd.diversity_distribution(a, "diag")
    assert list(d["distinct values"]) == [1, 2]
    assert list(d["classes"]) == [2, 2]
    assert list(d["records"]) == [3, 5]


def test_diversity_reading(a):
    # t: the class of one "cold" is 1 - 3/8 = 0.625 from the table (half the L1 distance)
    assert rd.diversity_reading(a, "diag") == (
        "3 people (37.5%) are in 2 classes where everyone has the same diag: anyone who knows "
        "their age + zip learns it. Distinct l = 1, entropy l = 1.00, recursive (2,l) l = 1, "
        "t = 0.625 (equal distance)."
    )


def test_failing_reading():
    both = ["distinct l-diversity of income", "t-closeness (equal distance) of income"]
    assert rd.failing_reading(1234, targets=both) == (
        "**1,234 classes fail** distinct l-diversity of income or t-closeness (equal distance) "
        "of income (highest risk first: smallest classes first; homogeneous classes have 1 "
        "distinct value)."
    )
    assert rd.failing_reading(1, targets=both[:1]).startswith("**1 class fails** distinct")
    capped = rd.failing_reading(6539, targets=both, shown=500)
    assert capped.endswith(" Showing 500 of 6,539; the download below has them all.")
    assert "Showing" not in rd.failing_reading(300, targets=both, shown=300)
    none = rd.failing_reading(0, targets=both[:1])
    assert none == "No class fails distinct l-diversity of income."
    assert rd.failing_reading(0, targets=[]).startswith("No target reads this attribute")


# ------------------------------------------------------------------ population


def test_population_reading():
    pu = PopulationUniqueness(
        sampling_fraction=0.01,
        population_size=100_000.0,
        sample_uniques=40,
        zayatz=1500.4,
        pitman=1234.4,
        snb=987.6,
        model="Pitman",
        uniques=1234.4,
        uniqueness=0.012344,
    )
    assert rd.population_reading(pu) == (
        "Population uniques estimated with the Pitman model (Dankar et al. 2012 rule): "
        "1,234 of about 100,000 people (1.23%); Zayatz 1,500, Pitman 1,234, SNB 988. These are "
        "model-based estimates, not counts: the models disagree, and at small sampling "
        "fractions any of them can be off by a factor of two or more."
    )


# ------------------------------------------------------------------ uniqueness per subset

# a, b: unique on (a, b): (x,2) (y,2) (y,3) (y,4) -> 4 of 6; on b alone: 3 and 4 -> 2;
# on a alone: nobody. Removing b leaves 0 unique (drop 4, 100%); removing a leaves 2 (drop 2).


@pytest.fixture(scope="module")
def u():
    return subset_uniqueness(AB, ["a", "b"])


def test_contribution_table_and_reading(u):
    t = rd.contribution_table(u)
    assert list(t["column"]) == ["b", "a"]
    assert list(t["drop"]) == [4, 2]
    np.testing.assert_allclose(t["drop %"], [100.0, 50.0])
    assert list(t["unique without"]) == [0, 2]
    assert rd.contribution_matters(u)
    assert rd.contribution_reading(u) == (
        "4 people (66.7%) are unique on a + b; removing b would make 100% of them non-unique "
        "(4 people), more than any other column."
    )


def test_contribution_reading_when_nobody_is_unique():
    none = subset_uniqueness(pd.DataFrame({"a": ["x", "x"], "b": [1, 1]}), ["a", "b"])
    assert rd.contribution_reading(none).startswith("Nobody is unique")


def test_contribution_when_every_record_stays_unique_without_any_one_column():
    # a and b are each unique on their own: removing either leaves all 3 people unique
    df = pd.DataFrame({"a": ["x", "y", "z"], "b": [1, 2, 3]})
    every = subset_uniqueness(df, ["a", "b"])
    assert [c.drop for c in every.contributions] == [0, 0]
    assert not rd.contribution_matters(every)
    assert rd.contribution_reading(every) == (
        "3 people (100.0%) are unique on a + b, and every one of them stays unique when any "
        "single column is removed: no one column drives uniqueness, the columns do it together "
        "(see the combinations below)."
    )


def test_subset_table_and_reading(u):
    t = rd.subset_table(u)
    assert list(t["columns"]) == ["a + b", "b", "a"]
    assert list(t["size"]) == [2, 1, 1]
    assert list(t["unique records"]) == [4, 2, 0]
    np.testing.assert_allclose(t["unique %"], [400 / 6, 200 / 6, 0.0])
    assert list(t["k"]) == [1, 1, 3]
    assert rd.subset_reading(t, complete=True) == (
        "The most identifying combination tested is a + b: 66.7% of people (4) are unique on it."
    )
    assert rd.subset_reading(t, complete=False).endswith(
        " (Only the first 120 combinations were tested.)"
    )


# ------------------------------------------------------------------ data page


def test_column_summary_and_numeric_columns():
    df = pd.DataFrame({"n": [1.0, None, 3.0, 3.0], "t": ["a", "b", None, None], "f": [True] * 4})
    sugg = {"t": RoleSuggestion(column="t", role="sensitive", reason="looks private", kind="x")}
    s = rd.column_summary(df, sugg)
    assert list(s["column"]) == ["n", "t", "f"]
    assert list(s["missing"]) == [1, 2, 0]
    np.testing.assert_allclose(s["missing %"], [0.25, 0.5, 0.0])
    assert list(s["distinct"]) == [2, 2, 1]
    assert list(s["suggested role"]) == ["other", "sensitive", "other"]
    assert list(s["reason"]) == ["", "looks private", ""]
    assert rd.numeric_columns(df, ["n", "t", "f"]) == ["n"]  # booleans are not numeric


def test_redundancy_reading_lists_each_pair_with_its_reason():
    edu = RoleSuggestion("edu", "quasi_identifier", "education", "education")
    num = RoleSuggestion("num", "other", "num is a function of edu (4 values, one-to-one)", "")
    pair = RedundantPair(
        "num", "edu", 4, 4, True, "num is a function of edu (4 values, one-to-one)"
    )
    assert rd.redundancy_reading(RoleSuggestions((edu, num), ())) is None
    lead, lines = rd.redundancy_reading(RoleSuggestions((edu, num), (pair,)))
    assert lead.startswith("Redundant columns: a column that is a function of another")
    assert lines == ["num is a function of edu (4 values, one-to-one)."]


def test_table_heading_and_roles_reading():
    assert rd.table_heading("people.csv", 12345, 7) == "people.csv: 12,345 rows x 7 columns"
    roles = ColumnRoles.from_mapping(
        {"name": "identifier", "age": "quasi_identifier", "zip": "quasi_identifier", "d": "other"}
    )
    assert rd.roles_reading(roles) == (
        "**2** quasi-identifiers, **0** sensitive attributes, **1** direct identifier."
    )
    weighted = ColumnRoles.from_mapping({"age": "quasi_identifier", "w": "weight"})
    assert rd.roles_reading(weighted).endswith(
        "**0** direct identifiers. **1** sampling-weight column."
    )


def test_classes_intro_escapes_only_the_names():
    text = rd.classes_intro(("age", "zip"), escape=lambda v: f"<{v}>")
    assert text.startswith("People who share the same values on every quasi-identifier")
    assert text.endswith("anyone who knows their <age + zip> can pick out their record.")


def test_nobody_unique_on_any_combination_is_said_in_words():
    # every (a, b) pair appears twice: no combination of one or both columns is unique
    df = pd.DataFrame({"a": [1, 1, 2, 2], "b": ["x", "x", "y", "y"]})
    table = rd.subset_table(subset_uniqueness(df, ["a", "b"]))
    assert len(table) == 3 and not rd.anyone_unique(table)
    text = rd.subset_reading(table, complete=True)
    assert text == (
        "Nobody is unique on any of the 3 combinations of quasi-identifiers tested: everyone "
        "shares their values of each with at least one other person."
    )
    single = rd.subset_table(subset_uniqueness(df, ["a"]))
    assert rd.subset_reading(single, complete=True).startswith(
        "Nobody is unique on the one combination of quasi-identifiers tested (a): everyone"
    )
    assert "0.0%" not in text
    one = rd.subset_table(subset_uniqueness(pd.concat([df, df.head(1).assign(a=3)]), ["a", "b"]))
    assert rd.anyone_unique(one)
    assert rd.subset_reading(one, complete=True).startswith("The most identifying combination")


def test_counts_agree_with_their_nouns():
    from riskcore.deidentify.hierarchy import flat_hierarchy

    h = flat_hierarchy(pd.Series(["F", "M"], name="sex"))
    assert rd.hierarchy_heading(h, own=False) == (
        "sex: flat, 1 level above the value (the default)"
    )
    assert rd.table_heading("Demo people (32,561 rows)", 32_561, 14) == (
        "Demo people: 32,561 rows x 14 columns"
    )
    assert rd.table_heading("t.csv", 1, 1) == "t.csv: 1 row x 1 column"
    one = rd.roles_reading(ColumnRoles(quasi_identifiers=("a",), weights=("w",)))
    assert one == (
        "**1** quasi-identifier, **0** sensitive attributes, **0** direct identifiers. "
        "**1** sampling-weight column."
    )
    two = rd.roles_reading(ColumnRoles(weights=("w", "v")))
    assert two.endswith("**2** sampling-weight columns: only one can be used, so tag the "
                        "others as other.")  # fmt: skip
    assert "(s)" not in one + two


def test_the_sidebar_counts_roles_without_parentheses():
    roles = ColumnRoles.from_mapping({"n": "identifier", "a": "quasi_identifier", "d": "other"})
    assert rd.roles_summary(roles) == "1 identifier, 1 quasi-identifier,\n0 sensitive, 1 other"
