"""Attack results on the Result base (strict JSON round trips) and the one class majority."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from riskcore._results import dumps
from riskcore.attacks import (
    DifferencingResult,
    HomogeneityResult,
    TwoReleaseResult,
    differencing_attack,
    homogeneity_attack,
    two_release_attack,
)
from riskcore.attacks.linkage import (
    LinkageCurve,
    LinkageResult,
    Rate,
    linkage_attack,
    linkage_curve,
)
from riskcore.engine import Contingency
from riskcore.metrics import class_majority, sensitive_metrics


def _json(result: object) -> dict:
    return json.loads(dumps(result))


def _round_trip(cls, result):
    """Write strict JSON, read it back, rebuild: the JSON-visible fields are equal."""
    data = _json(result)
    back = cls.from_dict(data)
    assert _json(back) == data
    return back


# ------------------------------------------------------------------ majority


def test_class_majority_ties_go_to_the_smallest_value_code():
    # class 0: values 2 and 1 both twice -> code 1; class 1: value 0 once, 3 three times;
    # class 2: no cell; class 3: a single value 2
    t = Contingency.from_cells(
        "s",
        [0, 0, 1, 1, 3, 0],
        [2, 1, 0, 3, 2, 2],
        [1, 2, 1, 3, 4, 1],
        n_classes=4,
        labels=np.array(["a", "b", "c", "d"], dtype=object),
        ordered=False,
    )
    count, code = class_majority(t)
    assert count.tolist() == [2, 3, 0, 4]
    assert code.tolist() == [1, 3, -1, 2]
    # the diversity summary reads the same majority
    top = sensitive_metrics(t).per_class["top_share"]
    assert top[[0, 1, 3]].tolist() == [0.5, 0.75, 1.0] and np.isnan(top[2])


def test_class_majority_equals_a_loop_over_classes():
    # random tables (many classes of one cell, some of several, ties, a class without cells)
    # against the definition: the largest count, the smallest code among ties
    rng = np.random.default_rng(8)
    for trial in range(20):
        n = int(rng.integers(1, 300)) if trial % 4 else 61
        # every fourth table: one cell per class (the case nearly every record is unique)
        cls_ = rng.integers(0, 60, n) if trial % 4 else rng.permutation(61)
        val = rng.integers(0, 6, n)
        cnt = rng.integers(1, 5, n)
        t = Contingency.from_cells(
            "s", cls_, val, cnt, n_classes=61, labels=np.arange(6), ordered=False
        )
        count, code = class_majority(t)
        for j in range(61):
            mine = t.cell_class == j
            if not mine.any():
                assert (count[j], code[j]) == (0, -1)
                continue
            top = t.cell_count[mine].max()
            assert count[j] == top
            assert code[j] == t.cell_value[mine][t.cell_count[mine] == top].min()


def test_homogeneity_and_linkage_break_ties_the_same_way():
    # one class (everyone "x"), sensitive values tied 2-2: "b" is coded before "a"
    # (order of appearance), so both attacks predict "b"
    df = pd.DataFrame({"q": ["x"] * 4, "s": ["b", "a", "a", "b"]})
    h = homogeneity_attack(df, ["q"], "s", p=0.5)
    assert h.top_value.tolist() == ["b"] and h.top_share.tolist() == [0.5]
    r = linkage_attack(df, df[["q"]].head(1), ["q"], truth=np.array([0]), sensitive=["s"], p=0.5)
    (a,) = r.attributes
    assert a.confident.successes == 1
    assert a.correct is not None and a.correct.successes == 1  # predicted "b", row 0 is "b"
    r1 = linkage_attack(df, df[["q"]].iloc[[1]], ["q"], truth=np.array([1]), sensitive=["s"], p=0.5)
    assert r1.attributes[0].correct is not None and r1.attributes[0].correct.successes == 0


def test_tolerance_windows_break_ties_the_same_way():
    # ages 30 and 31 are both within +/- 1 of 30: a 1-1 tie between "b" (code 0) and "a"
    rel = pd.DataFrame({"age": [30, 31], "s": ["b", "a"]})
    aux = pd.DataFrame({"age": [30, 30]})
    r = linkage_attack(
        rel, aux, ["age"], truth=np.array([0, 1]), sensitive=["s"], p=0.5, tolerance={"age": 1}
    )
    assert r.candidates.tolist() == [2, 2]
    (a,) = r.attributes
    # both targets are predicted "b": right for row 0, wrong for row 1
    assert a.confident.successes == 2 and a.correct is not None and a.correct.successes == 1


# ------------------------------------------------------------------ round trips


def test_rate_round_trip_keeps_the_interval_shape():
    r = Rate.of(3, 10, 0.1)
    d = _json(r)
    assert d["ci95"] == [r.low, r.high] and d["schema_version"] == 1
    assert _round_trip(Rate, r) == r


def _people() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "zip": ["1", "1", "2", "3", "3", "3"],
            "age": [30, 30, 40, 50, 51, 52],
            "dx": ["flu", "cold", "flu", "flu", "flu", "cold"],
        }
    )


def test_linkage_result_round_trip():
    df = _people()
    r = linkage_attack(df, df, ["zip", "age"], truth=np.arange(6), sensitive=["dx"])
    assert r.candidates.tolist() == [2, 2, 1, 1, 1, 1]
    back = _round_trip(LinkageResult, r)
    assert back.unique == r.unique and back.attributes == r.attributes
    assert back.no_match == 0 and back.candidate_histogram()["targets"].tolist()[:3] == [0, 4, 2]
    assert len(back.candidates) == 0  # the per-target array is not in JSON


def test_linkage_curve_round_trip():
    df = _people()
    c = linkage_curve(df, df, ["zip", "age"], truth=np.arange(6))
    back = _round_trip(LinkageCurve, c)
    assert back == c


def test_homogeneity_result_round_trip_and_table():
    df = _people()
    h = homogeneity_attack(df, ["zip"], "dx")
    # zip 2 alone (flu): the only homogeneous class
    assert h.exposed_classes == 1 and h.exposed_records == 1
    back = _round_trip(HomogeneityResult, h)
    assert back.criteria == h.criteria
    pd.testing.assert_frame_equal(back.by_criterion, h.by_criterion)
    assert list(h.by_criterion.columns) == [
        "criterion",
        "level",
        "classes satisfying it",
        "exposed classes left",
        "exposed records left",
    ]
    assert len(back.exposed) == 0  # per-class arrays are not in JSON


def test_differencing_result_round_trip():
    df = _people()
    r = differencing_attack(df, 2, ["zip"], condition={"dx": "flu"})
    assert (r.q_all, r.q_rest, r.recovered) == (4, 3, 1)
    d = _json(r)
    assert d["answers"] == [4, 3] and len(d["queries"]) == 2
    assert _round_trip(DifferencingResult, r) == r


def test_two_release_result_round_trip():
    r = two_release_attack(
        pd.DataFrame({"r1": ["40-44", "40-44", "[30, 40)"], "r2": ["44-48", "41-48", "35+"]})
    )
    back = _round_trip(TwoReleaseResult, r)
    assert back.exact.tolist() == [True, False, False]
    np.testing.assert_allclose(back.inferred, r.inferred)


@pytest.mark.parametrize("cls", [LinkageResult, Rate])
def test_from_dict_rejects_data_without_the_custom_fields(cls):
    with pytest.raises(ValueError):
        cls.from_dict({"schema_version": 1})


def test_unique_target_is_the_first_row_alone_on_the_known_columns():
    import pandas as pd

    from riskcore.attacks import unique_target
    from riskcore.engine import EncodedTable

    # rows 0 and 1 share (30, F); row 2 is alone on (age, sex); row 3 shares age 40 with 2
    df = pd.DataFrame({"age": [30, 30, 40, 40], "sex": ["F", "F", "M", "F"]})
    enc = EncodedTable(df)
    assert unique_target(enc, ("age", "sex")) == 2
    assert unique_target(enc, ("age",)) is None  # nobody is alone on age
    assert unique_target(enc, ()) is None
