"""Hand-worked tables shared by several test modules of riskcore."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from riskcore.attacks import DifferencingResult
from riskcore.attacks.linkage import AttributeDisclosure, LinkageResult, Rate
from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import (
    Hierarchy,
    flat_hierarchy,
    grouping_hierarchy,
    interval_hierarchy,
)
from riskcore.deidentify.search.lattice import Lattice

#: ARX hierarchy files kept in tests/data (the builders' and the CLI's hierarchy tests).
DATA = Path(__file__).resolve().parents[1] / "data"
AGE_CSV = DATA / "adult_age_hierarchy.csv"
COUNTRY_CSV = DATA / "adult_native_country_hierarchy.csv"
DATES_CSV = DATA / "us_dates_hierarchy.csv"

#: The direct identifiers of :func:`riskcore.demo.claims.make_claims` (the detection of
#: :func:`riskcore.deidentify.recipe.identifiers.detect_identifiers`), patient_id apart.
CLAIMS_IDENTIFIERS = ("claim_id", "household_id", "name", "ssn", "date_of_birth", "zip",
                      "visit_date")  # fmt: skip


def allow(*columns: str) -> list[str]:
    """Return ``--allow-identifiers COL`` for each column (issue 37).

    A test of another feature on a table holding direct identifiers releases them as
    they are by choice, as ``anonymize`` and ``apply`` now require.
    """
    return [a for c in columns for a in ("--allow-identifiers", c)]


AGES = pd.DataFrame(
    {
        "age": [20, 25, 30, 40, 40, 41],
        "sex": ["F", "F", "M", "M", "M", "F"],
        "dx": ["flu", "hiv", "flu", "flu", "flu", "hiv"],
    }
)


def ages_lattice(df: pd.DataFrame = AGES, **targets: object) -> Lattice:
    """The lattice of ``df`` (:data:`AGES`): age by 10 then 20 years, sex kept or hidden."""
    h = {
        "age": interval_hierarchy(df["age"], [10, 20]),
        "sex": flat_hierarchy(df["sex"]),
    }
    return Lattice(df, h, sensitive=["dx"], targets=Targets.of(**targets))


# the 8 people of the readings tests (test_readings, test_figures)
PEOPLE = pd.DataFrame(
    {
        "age": [30, 30, 30, 40, 40, 50, 60, 60],
        "zip": ["100", "100", "100", "200", "200", "300", "400", "400"],
        "diag": ["flu", "flu", "cold", "flu", "flu", "cold", "flu", "cold"],
    }
)

AB = pd.DataFrame({"a": ["x", "x", "x", "y", "y", "y"], "b": [1, 1, 2, 2, 3, 4]})


def linkage_case(correct: bool = True) -> LinkageResult:
    """A hand-made linkage result: 10 targets against 8 released records."""
    # 10 targets against 8 released records; candidates per target:
    # 0 twice (no match), 1 four times, 2 twice, 3 once, 5 once
    return LinkageResult(
        n_targets=10,
        n_release=8,
        columns=(("dob", "dob"),),
        candidates=np.array([1, 1, 1, 0, 2, 2, 3, 5, 1, 0]),
        unique=Rate(4, 10, 0.4, 0.168, 0.687, 0.125),
        correct=Rate(3, 10, 0.3, 0.108, 0.603, 0.125) if correct else None,
        expected_correct=0.45,
        in_candidates=None,
        attributes=(
            AttributeDisclosure(
                attribute="diag",
                p=0.9,
                confident=Rate(5, 10, 0.5, 0.237, 0.763, 0.6),
                correct=Rate(4, 10, 0.4, 0.168, 0.687, 0.6),
                base_rate=0.6,
                base_value="flu",
            ),
        ),
        notes=(),
    )


def differencing_case(**kw: object) -> DifferencingResult:
    """A hand-made differencing result (exact count of one target); ``kw`` replaces fields."""
    base: dict[str, object] = {
        "target": 3,
        "known": ("age", "zip"),
        "aggregate": "count",
        "column": None,
        "condition": (("diag", "flu"),),
        "n": 200,
        "group_size": 1,
        "q_all": 120.0,
        "q_rest": 119.0,
        "contributors_all": 200,
        "contributors_rest": 199,
        "recovered": 1.0,
        "true_value": 1.0,
        "exact": True,
        "min_cell": 11,
        "passes_cell_rule": True,
    }
    base.update(kw)
    return DifferencingResult(**base)  # type: ignore[arg-type]


def draw_qi_table(draw) -> tuple[dict[str, pd.Series], dict[str, Hierarchy]]:
    """Draw (columns, hierarchies) of a small random table for the exhaustive-scan tests.

    One to three QIs ``q0..`` of 4 to 30 rows with up to 6 values each, some missing, each
    with 0 to 2 nested grouping levels (integer division of the value's number), and a
    sensitive column ``s`` of x / y / z. ``draw`` is a Hypothesis ``draw``.
    """
    from hypothesis import strategies as st

    n = draw(st.integers(4, 30))
    cols: dict[str, pd.Series] = {}
    hiers: dict[str, Hierarchy] = {}
    for j in range(draw(st.integers(1, 3))):
        card = draw(st.integers(1, 6))
        vals = draw(st.lists(st.integers(0, card - 1), min_size=n, max_size=n))
        name = f"q{j}"
        values = pd.Series([f"v{v}" for v in vals], name=name, dtype=object)
        if draw(st.booleans()):  # some missing values
            values[draw(st.integers(0, n - 1))] = None
        cols[name] = values
        leaves = sorted(values.dropna().unique())
        level1 = {v: f"a{int(v[1:]) // 2}" for v in leaves}
        level2 = {g: f"b{int(g[1:]) // 2}" for g in set(level1.values())}
        depth = draw(st.integers(0, 2))
        hiers[name] = grouping_hierarchy(values, [level1, level2][:depth])
    cols["s"] = pd.Series(draw(st.lists(st.sampled_from("xyz"), min_size=n, max_size=n)))
    return cols, hiers
