"""The privacy models, one by one, on hand-worked tables; the one verdict with suppression."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from riskcore.criteria import (
    REGISTRY,
    AverageRisk,
    DeltaPresence,
    DistinctLDiversity,
    EntropyLDiversity,
    Evidence,
    KAnonymity,
    KMap,
    RecordRisk,
    RecursiveCLDiversity,
    Targets,
    TCloseness,
    criterion_from_dict,
    evaluate,
    threshold_meaning,
)
from riskcore.errors import RiskcoreError
from riskcore.metrics import Population, assess


def _evidence(df, qis=("q",), sensitive=("s",), **kw):
    return assess(df, quasi_identifiers=list(qis), sensitive=list(sensitive), **kw).evidence


def _check(criterion, evidence, attribute=None):
    (check,) = [c for c in evaluate([criterion], evidence).checks if c.attribute == attribute]
    return check


# ------------------------------------------------------------------ k and record risk

SIZES_2_5 = pd.DataFrame({"q": ["a"] * 2 + ["b"] * 5, "s": ["x", "y", "x", "x", "x", "y", "z"]})


def test_k_anonymity_by_hand():
    ev = _evidence(SIZES_2_5)
    assert _check(KAnonymity(k=2), ev).passed
    c = _check(KAnonymity(k=3), ev)
    assert (c.passed, c.achieved, c.failing_classes, c.failing_records) == (False, 2.0, 1, 2)


def test_the_k_11_preset_accepts_a_class_of_exactly_11():
    df = pd.DataFrame({"q": ["a"] * 11 + ["b"] * 12, "s": ["x"] * 23})
    ev = _evidence(df)
    assert _check(RecordRisk(threshold=1 / 11), ev).passed  # 1/11 <= 1/11
    assert not _check(RecordRisk(threshold=0.09), ev).passed  # 1/11 = 0.0909 > 0.09
    assert threshold_meaning(1 / 11).startswith("k = 11")
    assert threshold_meaning(0.09) == "a custom threshold"
    # the legacy 0.09 of older profiles stood for k = 11
    legacy = Targets.from_dict({"k": 11, "threshold": 0.09})
    assert legacy.find("record-risk").threshold == 1 / 11
    assert evaluate(legacy, ev).passed


def test_journalist_record_risk_from_weights_by_hand():
    # one class of one record standing for 45.5 people: E[1/F | f = 1] = (1/44.5) ln 45.5
    df = pd.DataFrame({"q": ["a", "b", "b"], "w": [45.5, 1.0, 1.0], "s": ["x", "y", "z"]})
    ev = _evidence(df, population_model=Population(weights="w"))
    risk = ev.record_risk("journalist")
    assert risk[0] == pytest.approx(math.log(45.5) / 44.5, rel=1e-9)
    assert _check(RecordRisk(threshold=0.09, model="journalist"), ev).passed is False  # class b
    only_a = ev.restrict(np.asarray([True, False]))
    assert _check(RecordRisk(threshold=0.09, model="journalist"), only_a).passed
    assert not _check(RecordRisk(threshold=0.08, model="journalist"), only_a).passed


def test_average_risk_is_classes_per_record_without_a_population():
    ev = _evidence(SIZES_2_5)
    c = _check(AverageRisk(threshold=0.3), ev)
    assert c.achieved == pytest.approx(2 / 7)
    assert c.passed and c.failing_classes == 0
    c = _check(AverageRisk(threshold=0.25), ev)
    assert not c.passed and c.failing_classes == 0 and "average risk" in c.note


# ------------------------------------------------------------------ l and t


def test_recursive_cl_diversity_of_counts_5_1_1():
    # the table: two classes with sensitive counts (5, 1, 1), c = 2
    df = pd.DataFrame({"q": ["a"] * 7 + ["b"] * 7, "s": (["x"] * 5 + ["y", "z"]) * 2})
    ev = _evidence(df)
    # r1 = 5 < 2 (r2 + r3) = 4 is false: not (2,2)-diverse; l = 1 is trivially met
    c = _check(RecursiveCLDiversity(c=2, l=2), ev, "s")
    assert (c.passed, c.achieved, c.failing_records) == (False, 1.0, 14)
    assert c.label == "recursive (2,l)-diversity"
    # (c, 3) holds only for c > 5 (formulas.md's hand check): 5 < 5.5 * 1
    assert _check(RecursiveCLDiversity(c=5.5, l=3), ev, "s").passed
    assert not _check(RecursiveCLDiversity(c=5, l=3), ev, "s").passed


def test_entropy_l_of_m_equal_values_is_m():
    df = pd.DataFrame({"q": ["a"] * 6, "s": ["x", "y", "z"] * 2})
    c = _check(EntropyLDiversity(l=3), _evidence(df), "s")
    assert c.passed and c.achieved == pytest.approx(3.0)
    assert not _check(EntropyLDiversity(l=3.01), _evidence(df), "s").passed


def test_distinct_l_and_t_closeness_by_hand():
    ev = _evidence(SIZES_2_5)
    assert _check(DistinctLDiversity(l=2), ev, "s").passed
    d = _check(DistinctLDiversity(l=3), ev, "s")
    assert (d.passed, d.failing_records) == (False, 2)
    # class a: P = (1/2, 1/2, 0), Q = (4/7, 2/7, 1/7): D = (1/14 + 3/14 + 2/14) / 2 = 3/14
    t = _check(TCloseness(t=0.2), ev, "s")
    assert t.achieved == pytest.approx(3 / 14) and not t.passed
    assert t.label == "t-closeness (equal distance)"
    assert _check(TCloseness(t=3 / 14), ev, "s").passed  # at the limit: passes


def test_an_l_target_without_a_sensitive_attribute_is_not_applicable():
    ev = _evidence(SIZES_2_5, sensitive=())
    v = evaluate(Targets.of(k=2, l=2), ev)
    assert v.passed and v.not_applicable == ("distinct l-diversity",)
    assert [c.kind for c in v.checks] == ["k-anonymity"]


# ------------------------------------------------------------------ suppression


def test_suppression_within_the_limit_and_beyond():
    ev = _evidence(SIZES_2_5)
    v = evaluate(Targets.of(k=3, max_suppression=2 / 7), ev, suppress=True)
    assert (v.passed, v.suppressed, v.released, v.within_limit) == (True, 2, 5, True)
    assert v.checks[0].achieved == 5.0  # the release's smallest class
    v = evaluate(Targets.of(k=3, max_suppression=0.2), ev, suppress=True)
    assert (v.passed, v.suppressed, v.needed, v.within_limit) == (False, 0, 2, False)
    # judged as it is, nothing is suppressed whatever the limit
    v = evaluate(Targets.of(k=3, max_suppression=1.0), ev)
    assert (v.passed, v.suppressed, v.needed) == (False, 0, 2)


def test_t_closeness_is_judged_again_on_the_release():
    # A: x x y, B: y y y y, C: x (breaks k = 2). Before suppression Q = (3/8, 5/8):
    # t_A = 7/24, t_B = 3/8, t_C = 5/8. After suppressing C, Q = (2/7, 5/7): t_A = 8/21 > 0.38.
    df = pd.DataFrame(
        {"q": ["A"] * 3 + ["B"] * 4 + ["C"], "s": ["x", "x", "y"] + ["y"] * 4 + ["x"]}
    )
    ev = _evidence(df)
    targets = Targets.of(k=2, t=0.38, max_suppression=0.2)
    before = evaluate(targets, ev)
    assert [c.achieved for c in before.checks] == [1.0, pytest.approx(5 / 8)]
    v = evaluate(targets, ev, suppress=True)
    assert v.within_limit and v.suppressed == 1
    t = v.checks[1]
    assert t.achieved == pytest.approx(8 / 21) and not t.passed and not v.passed
    assert evaluate(Targets.of(k=2, t=0.39, max_suppression=0.2), ev, suppress=True).passed


def test_compatible_sets_are_judged_again_on_the_release():
    # missing matches any value: A x2, B x1, C (missing) x1 -> f_k = 3, 2, 4.
    # k = 4 suppresses A and B (3 of 4 records); the release is C alone, f_k = 1.
    df = pd.DataFrame({"q": ["A", "A", "B", None], "s": ["x", "y", "x", "y"]})
    ev = _evidence(df, missing="any")
    assert ev.sizes.tolist() == [3, 2, 4]
    v = evaluate(Targets.of(k=4, max_suppression=0.75), ev, suppress=True)
    assert v.within_limit and v.suppressed == 3
    assert v.checks[0].achieved == 1.0 and not v.passed
    assert evaluate(Targets.of(k=2, max_suppression=0.75), ev, suppress=True).passed


# ------------------------------------------------------------------ population table


def _population_evidence(records, counts):
    return Evidence(
        records=np.asarray(records, dtype=np.int64),
        population_counts=np.asarray(counts, dtype=np.int64),
    )


def test_k_map_and_delta_presence_by_hand():
    ev = _population_evidence([2, 3], [4, 3])
    assert _check(KMap(k=3), ev).passed and _check(KMap(k=3), ev).achieved == 3
    assert not _check(KMap(k=4), ev).passed
    d = _check(DeltaPresence(delta_min=0.0, delta_max=0.5), ev)
    assert (d.achieved, d.achieved_high, d.passed, d.failing_records) == (0.5, 1.0, False, 3)
    assert _check(DeltaPresence(delta_min=0.5, delta_max=1.0), ev).passed


def test_a_population_class_with_no_released_record_fails_delta_min():
    ev = _population_evidence([2, 3, 0], [4, 3, 5])  # nobody of the third class is released
    d = _check(DeltaPresence(delta_min=0.1, delta_max=1.0), ev)
    assert d.achieved == 0.0 and not d.passed
    assert (d.failing_classes, d.failing_records) == (1, 0)
    assert "cannot be suppressed" in d.note
    # k-map judges the released classes only
    assert _check(KMap(k=3), ev).passed and _check(KMap(k=3), ev).achieved == 3
    # no suppression can help: the release fails whatever the limit
    v = evaluate(Targets(criteria=(DeltaPresence(delta_min=0.1, delta_max=1.0),),
                         max_suppression=1.0), ev, suppress=True)  # fmt: skip
    assert not v.passed
    assert _check(DeltaPresence(delta_min=0.0, delta_max=1.0), ev).passed


def test_population_models_need_the_table():
    with pytest.raises(RiskcoreError, match="population table"):
        evaluate([KMap(k=2)], _evidence(SIZES_2_5))


# ------------------------------------------------------------------ JSON and validation


@pytest.mark.parametrize(
    "criterion",
    [
        KAnonymity(k=5),
        DistinctLDiversity(l=3, attribute="s"),
        EntropyLDiversity(l=2.5),
        RecursiveCLDiversity(c=3, l=2),
        TCloseness(t=0.15, distance="ordered"),
        RecordRisk(threshold=0.2, model="journalist"),
        AverageRisk(threshold=0.05),
        KMap(k=5),
        DeltaPresence(delta_min=0.1, delta_max=0.6),
    ],
)
def test_every_criterion_survives_json(criterion):
    assert criterion_from_dict(criterion.to_dict()) == criterion
    targets = Targets(criteria=(criterion,), max_suppression=0.05)
    assert Targets.from_dict(targets.to_dict()) == targets


def test_the_registry_holds_every_model():
    assert set(REGISTRY) == {
        "k-anonymity", "distinct-l-diversity", "entropy-l-diversity", "recursive-cl-diversity",
        "t-closeness", "record-risk", "average-risk", "k-map", "delta-presence",
        "km-anonymity", "beta-likeness", "delta-disclosure", "sample-uniqueness",
        "population-uniqueness",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: KAnonymity(k=0), "^k must be a whole number of at least 1, not 0$"),
        (lambda: KAnonymity(k=2.5), "^k must be a whole number"),
        (lambda: TCloseness(t=1.5), r"^t must lie in \[0, 1\], not 1.5$"),
        (lambda: RecordRisk(threshold=0), r"^threshold must lie in \(0, 1\]"),
        (lambda: RecordRisk(model="marketer"), "marketer"),
        (lambda: DeltaPresence(delta_min=0.6, delta_max=0.5), "delta_min cannot be above"),
        (lambda: criterion_from_dict({"kind": "k-magic"}), "unknown privacy model 'k-magic'"),
        (lambda: Targets.from_dict({"k": 5, "z": 1}), "unknown target 'z'"),
        (lambda: Targets.of(k=2, max_suppression=2), r"suppression limit must lie in \[0, 1\]"),
        (lambda: Targets(criteria=(KAnonymity(k=2), KAnonymity(k=2))), "listed twice"),
    ],
)
def test_bad_targets_are_refused_with_a_message(make, message):
    with pytest.raises(RiskcoreError, match=message):
        make()


def test_a_model_s_words_come_from_its_title_mark_and_target_name():
    """A new model states its words as data; Criterion fills them with its parameters."""
    from dataclasses import dataclass
    from typing import ClassVar

    from riskcore.criteria import Criterion

    @dataclass(frozen=True)
    class Toy(Criterion):  # no kind: not registered
        title: ClassVar[str] = "toy ({c:g})"
        mark: ClassVar[str] = "toy<{k} ({attribute})"
        target_name: ClassVar[str] = "k"
        k: int = 3
        c: float = 0.5
        attribute: str | None = None  # a field of the same name as the judged attribute

    toy = Toy(k=4, attribute="ignored")
    assert (toy.label, toy.code("dx"), toy.target) == ("toy (0.5)", "toy<4 (dx)", 4.0)
    assert "Toy" not in {type(c).__name__ for c in REGISTRY.values()}

    @dataclass(frozen=True)
    class Wordless(Criterion):
        k: int = 2

    wordless = Wordless()
    for read in (lambda: wordless.label, lambda: wordless.code(None), lambda: wordless.target):
        with pytest.raises(NotImplementedError):
            read()
