"""k^m-anonymity as a target (:class:`riskcore.criteria.KmAnonymity`), judged by the one verdict.

Hand-worked tables (a class passing at exactly k, one failing at k - 1; a release that
fails once a class is suppressed, the supports counted again), and a brute force: each
person's itemsets of at most m visits enumerated with itertools, their supports counted
over Python sets, the classes read off the rows with pandas, the suppression and the
re-judgement of the release redone by hand.
"""

from __future__ import annotations

import itertools
import math

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from riskcore.criteria import KmAnonymity, Targets, criterion_from_dict, evaluate
from riskcore.errors import RiskcoreError, RolesError
from riskcore.metrics import assess


def _evidence(df: pd.DataFrame, *, events=("dx",), qis=("sex",)):
    a = assess(df, quasi_identifiers=list(qis), person="pid", events=list(events))
    assert a.evidence is not None
    return a.evidence


def _people(rows: dict[str, tuple[str, list[str]]]) -> pd.DataFrame:
    """Return one row per (person, diagnosis) from ``{person: (sex, diagnoses)}``."""
    out = [(p, sex, dx) for p, (sex, dxs) in rows.items() for dx in dxs]
    return pd.DataFrame(out, columns=["pid", "sex", "dx"])


# Class F = {a, b, c}, class M = {d, e}. Supports: E11 5; I10 2 (a, b); J45 2 (d, e);
# C50 1 (e); {E11, I10} 2; {E11, J45} 2; {E11, C50} 1; {J45, C50} 1. Least supports with
# m = 2: a 2, b 2, c 5, d 2, e 1. Class F's least is 2 (passes k = 2 exactly), class M's 1.
BOUNDARY = _people(
    {
        "a": ("F", ["E11", "I10"]),
        "b": ("F", ["I10", "E11"]),
        "c": ("F", ["E11"]),
        "d": ("M", ["E11", "J45"]),
        "e": ("M", ["J45", "C50", "E11"]),
    }
)


def test_a_class_passes_at_exactly_k_and_one_fails_at_k_minus_1():
    ev = _evidence(BOUNDARY)
    f, m_ = (0, 1) if ev.records.tolist() == [3, 2] else (1, 0)
    support = ev.event_support(2)
    assert (support[f], support[m_]) == (2.0, 1.0)
    (check,) = evaluate([KmAnonymity(k=2, m=2)], ev).checks
    assert (check.passed, check.achieved, check.failing_classes, check.failing_records) == (
        False,
        1.0,
        1,
        2,  # the people of class M (d and e), not their rows
    )
    failing = evaluate([KmAnonymity(k=2, m=2)], ev).failing
    assert failing.tolist() == [i == m_ for i in range(2)]
    # k = 3: class F's 2 is below it too; k = 1: everyone passes
    assert evaluate([KmAnonymity(k=3, m=2)], ev).failing.all()
    assert evaluate([KmAnonymity(k=1, m=2)], ev).passed


def test_suppressing_the_failing_class_releases_a_table_that_meets_k():
    # without d and e: E11 3, I10 2, {E11, I10} 2: every person's least support is >= 2
    v = evaluate(
        Targets(criteria=(KmAnonymity(k=2, m=2),), max_suppression=0.4),
        _evidence(BOUNDARY),
        suppress=True,
    )
    assert (v.passed, v.suppressed, v.released, v.checks[0].achieved) == (True, 2, 3, 2.0)


def test_the_release_is_judged_again_on_the_supports_of_the_people_left():
    # class F = {a, b, c}, class M = {d}; m = 1. X: a, d (2); Y: b, c (2); Z: d (1).
    # d fails and class M is suppressed; then X is held by a alone: a fails in the release.
    df = _people({"a": ("F", ["X"]), "b": ("F", ["Y"]), "c": ("F", ["Y"]), "d": ("M", ["X", "Z"])})
    targets = Targets(criteria=(KmAnonymity(k=2, m=1),), max_suppression=0.5)
    v = evaluate(targets, _evidence(df), suppress=True)
    assert (v.within_limit, v.suppressed, v.passed) == (True, 1, False)
    (check,) = v.checks
    assert (check.achieved, check.failing_classes, check.failing_records) == (1.0, 1, 3)


def test_m_is_the_attackers_knowledge():
    # the worked example of docs/concepts/people.md: b and c are at risk only with m = 2
    df = _people(
        {
            "a": ("F", ["E11", "I10"]),
            "b": ("F", ["E11", "J45"]),
            "c": ("F", ["I10", "J45"]),
            "d": ("F", ["E11", "I10"]),
        }
    )
    ev = _evidence(df)
    assert evaluate([KmAnonymity(k=2, m=1)], ev).passed
    (check,) = evaluate([KmAnonymity(k=2, m=2)], ev).checks
    assert (check.passed, check.achieved) == (False, 1.0)


def test_the_criterion_needs_the_events_and_names_them():
    plain = assess(BOUNDARY, quasi_identifiers=["sex"], person="pid").evidence
    assert plain is not None
    with pytest.raises(RiskcoreError, match="counts each person's events"):
        evaluate([KmAnonymity(k=2)], plain)
    with pytest.raises(RiskcoreError, match="names the event columns date; the assessment"):
        evaluate([KmAnonymity(k=2, events=("date",))], _evidence(BOUNDARY))
    with pytest.raises(RolesError, match="give the person column too"):
        assess(BOUNDARY, quasi_identifiers=["sex"], events=["dx"])
    with pytest.raises(RolesError, match="cannot be a quasi-identifier or sensitive"):
        assess(BOUNDARY, quasi_identifiers=["sex", "dx"], person="pid", events=["dx"])


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: KmAnonymity(k=0), "^k must be a whole number of at least 1, not 0$"),
        (lambda: KmAnonymity(m=0), "^m must be a whole number of at least 1, not 0$"),
        (
            lambda: KmAnonymity(events="dx"),
            "the event columns are a list of column names, not 'dx'",
        ),  # type: ignore[arg-type]
        (lambda: KmAnonymity(events=("dx", "dx")), "listed twice"),
    ],
)
def test_bad_parameters_are_refused(make, message):
    with pytest.raises(RiskcoreError, match=message):
        make()


def test_the_target_survives_json_and_reads_in_words():
    c = KmAnonymity(k=11, m=3, events=("visit_date", "dx"))
    assert criterion_from_dict(c.to_dict()) == c
    assert Targets.from_dict(Targets.of(km=11, m=3, events=c.events).to_dict()).criteria == (c,)
    assert (c.label, c.code(None), c.target) == ("k^m-anonymity (m = 3)", "k^3<11", 11.0)


# ------------------------------------------------------------------ the brute force


def _brute_supports(df: pd.DataFrame, m: int) -> dict[object, int]:
    """Return each person's least support over their itemsets of at most m visits (sets)."""
    sets: dict[object, set[object]] = {}
    for p, dx, day in df[["pid", "dx", "day"]].itertuples(index=False):
        sets.setdefault(p, set()).add((dx, day))
    every = list(sets.values())
    out = {}
    for p, held in sets.items():
        out[p] = min(
            sum(set(itemset) <= s for s in every)
            for j in range(1, min(m, len(held)) + 1)
            for itemset in itertools.combinations(sorted(held), j)
        )
    return out


def _brute_verdict(df: pd.DataFrame, k: int, m: int, limit: float) -> tuple[bool, set[object]]:
    """Return (the verdict with suppression, the people suppressed), by hand."""
    signature = df.groupby("pid")["sex"].agg(lambda s: tuple(sorted(set(s))))
    least = _brute_supports(df, m)
    at_risk = {p for p, s in least.items() if s < k}
    bad = {sig for p, sig in signature.items() if p in at_risk}
    gone = {p for p, sig in signature.items() if sig in bad}
    if len(gone) > limit * len(signature) + 1e-9:
        return False, gone
    left = df[~df["pid"].isin(gone)]
    if left.empty:
        return False, gone
    again = _brute_supports(left, m)
    return all(s >= k for s in again.values()), gone


rows = st.lists(
    st.tuples(
        st.integers(0, 7),  # person
        st.sampled_from(["F", "M"]),
        st.sampled_from(["A", "B", "C"]),
        st.integers(0, 1),
    ),
    min_size=2,
    max_size=30,
)


@given(rows, st.integers(1, 3), st.integers(1, 4), st.sampled_from([0.0, 0.3, 1.0]))
def test_the_verdict_equals_a_brute_force_judgement(rows, m, k, limit):
    df = pd.DataFrame(rows, columns=["pid", "sex", "dx", "day"])
    ev = _evidence(df, events=("dx", "day"))
    # per class, the least support of its people, by hand
    classes = df.groupby("pid")["sex"].agg(lambda s: tuple(sorted(set(s))))
    least = _brute_supports(df, m)
    by_class: dict[tuple[str, ...], int] = {}
    for p, sig in classes.items():
        by_class[sig] = min(by_class.get(sig, math.inf), least[p])  # type: ignore[arg-type]
    assert sorted(ev.event_support(m).tolist()) == sorted(float(v) for v in by_class.values())
    v = evaluate(Targets(criteria=(KmAnonymity(k=k, m=m),), max_suppression=limit), ev,
                 suppress=True)  # fmt: skip
    want, gone = _brute_verdict(df, k, m, limit)
    assert v.passed == want
    assert v.needed == len(gone)
    assert evaluate([KmAnonymity(k=k, m=m)], ev).passed == all(s >= k for s in least.values())
