"""The linkage attack in people: hand-worked tables, a naive reference, the claims table."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riskcore.attacks.linkage import (
    linkage_attack,
    linkage_counts,
    linkage_curve,
    simulate_auxiliary,
)
from riskcore.demo.claims import make_claims
from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError

# Five people in nine rows. Ann's age changes between her visits (34, then 35); Bea and
# Dee share Ann's first tuple (34, F); Cal has two rows with one tuple; the last row has
# no person id, so it is a person of its own; Eli's ZIP is missing on one of his rows.
RELEASE = pd.DataFrame(
    {
        "pid": ["ann", "ann", "bea", "cal", "cal", "dee", None, "eli", "eli"],
        "age": [34, 35, 34, 50, 50, 34, 60, 70, 70],
        "sex": ["F", "F", "F", "M", "M", "F", "M", "M", "M"],
        "zip": ["1", "1", "1", "2", "2", "1", "3", "4", None],
        "dx": ["flu", "cold", "flu", "flu", "hiv", "cold", "flu", "cold", "flu"],
    }
)
ON = ["age", "sex", "zip"]


def test_hand_worked_people_linkage():
    aux = pd.DataFrame(
        {
            "age": [34, 35, 50, 60, np.nan, 70],
            "sex": ["F", "F", "M", "M", "F", "M"],
            "zip": ["1", "1", "2", "3", "1", np.nan],
        }
    )
    # truth by release row: Ann (rows 0 and 1, two rows of the attacker's table), Cal,
    # the person without id, Dee (age unknown), Eli (ZIP unknown)
    truth = np.array([0, 1, 3, 6, 5, 7])
    r = linkage_attack(RELEASE, aux, ON, person="pid", truth=truth, sensitive=["dx"], p=0.6)
    # Ann's two rows are one target: (34, F, 1) is held by Ann, Bea and Dee, (35, F, 1) by
    # Ann alone: she is the one person holding both. Cal's (50, M, 2) is on two rows of
    # one person: one candidate. Dee, age unknown: Ann, Bea, Dee (Ann once for both her
    # ages). Eli, ZIP unknown: Eli (his rows with ZIP 4 and missing are one person).
    assert r.candidates.tolist() == [1, 1, 1, 3, 1]
    assert (r.n_targets, r.n_release, r.release_rows, r.auxiliary_rows) == (5, 6, 9, 6)
    assert r.unit == "person" and r.person == "pid"
    assert r.unique.successes == 4 and r.correct.successes == 4
    assert r.unique.baseline == pytest.approx(1 / 6)  # a guess among six people
    assert r.expected_correct == pytest.approx((1 + 1 + 1 + 1 / 3 + 1) / 5)
    assert r.in_candidates.successes == 5
    (dx,) = r.attributes
    # people holding each value: flu = Ann, Bea, Cal, the lone row, Eli (5 of 6);
    # cold = Ann, Dee, Eli; hiv = Cal
    assert dx.base_value == "flu" and dx.base_rate == pytest.approx(5 / 6)
    # Ann (flu and cold, a tie to the first code: flu, held), Cal (flu, hiv: flu), the lone
    # row (flu), Dee's candidates Ann, Bea, Dee: flu 2 of 3 and cold 2 of 3, a tie to flu,
    # confident at 0.6 but Dee never had flu; Eli: flu and cold, flu, held
    assert dx.confident.successes == 5 and dx.correct.successes == 4


def test_without_ground_truth_every_row_of_the_attacker_is_a_target():
    aux = pd.DataFrame({"age": [34, 35], "sex": ["F", "F"], "zip": ["1", "1"]})
    r = linkage_attack(RELEASE, aux, ON, person="pid")
    assert r.candidates.tolist() == [3, 1] and r.n_targets == 2
    assert r.correct is None and r.expected_correct is None


def test_one_row_per_person_gives_the_record_figures():
    one = RELEASE.drop_duplicates("pid").assign(pid=lambda d: d["pid"].fillna("lone"))
    aux, truth = simulate_auxiliary(one, ON, missing_rate=0.3, seed=4)
    rows = linkage_attack(one, aux, ON, truth=truth, sensitive=["dx"], p=0.5)
    people = linkage_attack(one, aux, ON, truth=truth, sensitive=["dx"], p=0.5, person="pid")
    assert people.candidates.tolist() == rows.candidates.tolist()
    assert people.unique == rows.unique and people.correct == rows.correct
    assert people.expected_correct == pytest.approx(rows.expected_correct)
    assert people.attributes == rows.attributes


def test_shared_ids_as_ground_truth_may_repeat_within_a_person_only():
    rel = RELEASE.assign(token=RELEASE["pid"].str.upper())
    aux = pd.DataFrame({"age": [34, 50], "sex": ["F", "M"], "zip": ["1", "2"], "id": ["ann", "x"]})
    r = linkage_attack(rel, aux, ON, person="pid", truth=("id", "token"))
    assert r.candidates.tolist() == [3, 1]
    assert r.in_candidates.successes == 1  # Ann among her three; "x" is nobody released
    two = rel.assign(token=["A", "A", "A", "C", "C", "D", "L", "E", "E"])  # Bea shares Ann's id
    with pytest.raises(RiskcoreError, match="gives one value to two people"):
        linkage_attack(two, aux, ON, person="pid", truth=("id", "token"))


def test_the_person_column_is_checked():
    aux = RELEASE[ON]
    with pytest.raises(RiskcoreError, match="no person column 'who'"):
        linkage_attack(RELEASE, aux, ON, person="who")
    with pytest.raises(RiskcoreError, match="links a person's rows"):
        linkage_attack(RELEASE, RELEASE, ["pid", "age"], person="pid")
    with pytest.raises(RiskcoreError, match="links a person's rows"):
        linkage_attack(RELEASE, aux, ON, person="pid", sensitive=["pid"])


def test_a_tolerance_counts_a_person_once_however_many_of_their_ages_match():
    aux = pd.DataFrame({"age": [34.5, 36], "sex": ["F", "F"]})
    r = linkage_attack(RELEASE, aux, ["age", "sex"], person="pid", tolerance={"age": 1})
    # 34.5 +/- 1: ages 34 and 35 -> Ann (both), Bea, Dee; 36 +/- 1: 35 -> Ann
    assert r.candidates.tolist() == [3, 1]
    rows = linkage_attack(RELEASE, aux, ["age", "sex"], tolerance={"age": 1})
    assert rows.candidates.tolist() == [4, 1]  # rows: Ann counted twice


def test_engine_counts_of_people_match_the_rows():
    aux = pd.DataFrame(
        {"age": [34, 35, np.nan, 70, 34.4], "sex": ["F", "F", "F", "M", "F"], "zip": list("11141")}
    )
    for tol in ({}, {"age": 1}):
        rows = linkage_attack(RELEASE, aux, ON, person="pid", tolerance=tol)
        counts = linkage_counts(EncodedTable(RELEASE), aux, ON, person="pid", tolerance=tol)
        assert counts.candidates.tolist() == rows.candidates.tolist()
        assert (counts.n_release, counts.release_rows) == (6, 9)


def test_too_many_pairs_are_refused_before_any_is_built(monkeypatch):
    import riskcore.attacks.linkage.people as people

    monkeypatch.setattr(people, "MAX_PAIRS", 2)
    aux = pd.DataFrame({"age": [34, 35], "sex": ["F", "F"], "zip": ["1", "1"]})
    # windows of 3 units (Ann, Bea, Dee at 34) and 1 (Ann at 35): 4 pairs to expand
    with pytest.raises(RiskcoreError, match=r"compare 4 \(target, person\) pairs, more than 2"):
        linkage_attack(RELEASE, aux, ON, person="pid", tolerance={"age": 0.5})


# ------------------------------------------------------------------ naive reference


def _matches(row: pd.Series, target: pd.Series, cols: list[str], tol: float) -> bool:
    for c in cols:
        if pd.isna(target[c]):
            continue  # unknown: a wildcard
        if pd.isna(row[c]):
            return False  # a missing released value is its own value
        if c == "a" and tol:
            if abs(row[c] - target[c]) > tol:
                return False
        elif row[c] != target[c]:
            return False
    return True


def _naive(release, aux, cols, true_row, tol, sensitive, p):
    """Every target against every released row: people, their rows, intersections."""
    who = [("id", v) if pd.notna(v) else ("row", i) for i, v in enumerate(release["p"])]
    people = list(dict.fromkeys(who))
    groups: dict = {}
    for i, t in enumerate(true_row):
        groups.setdefault(who[t] if t >= 0 else ("aux", i), []).append(i)
    codes = {v: k for k, v in enumerate(pd.unique(release[sensitive]))}
    values = release[sensitive].tolist()
    held = {q: {codes[v] for v, w in zip(values, who, strict=True) if w == q} for q in people}
    out = []
    for key, rows in groups.items():
        cand = [
            q
            for q in people
            if all(
                any(
                    who[i] == q and _matches(release.iloc[i], aux.iloc[j], cols, tol)
                    for i in range(len(release))
                )
                for j in rows
            )
        ]
        own = key if key[0] != "aux" else None
        counts = {v: sum(v in held[q] for q in cand) for v in codes.values()}
        best = max(counts.values()) if cand else 0
        value = min(v for v, n in counts.items() if n == best) if cand else -1
        confident = bool(cand) and best / len(cand) >= p - 1e-12
        hit = confident and own in held and value in held[own]
        out.append((len(cand), own in cand, confident, hit))
    return out


people_tables = st.integers(4, 24).flatmap(
    lambda n: st.tuples(
        st.lists(st.one_of(st.integers(0, 3), st.just(np.nan)), min_size=n, max_size=n),
        st.lists(st.sampled_from(["x", "y"]), min_size=n, max_size=n),
        st.lists(
            st.one_of(st.sampled_from(["p1", "p2", "p3", "p4", "p5"]), st.none()),
            min_size=n,
            max_size=n,
        ),
        st.lists(st.sampled_from(["flu", "cold", "hiv"]), min_size=n, max_size=n),
    )
)


@settings(max_examples=60, deadline=None)
@given(people_tables, st.floats(0, 0.5), st.sampled_from([0.0, 1.0]), st.integers(0, 10_000))
def test_matches_the_naive_reference(cols, missing, tol, seed):
    a, b, who, s = cols
    df = pd.DataFrame({"a": a, "b": b, "p": who, "s": s})
    aux, truth = simulate_auxiliary(df, ["a", "b"], missing_rate=missing, seed=seed, person="p")
    # the attacker also holds a second row of some people (merged by the ground truth)
    rng = np.random.default_rng(seed)
    extra = rng.integers(0, len(df), size=3)
    aux = pd.concat([aux, df.iloc[extra][["a", "b"]]], ignore_index=True)
    truth = np.concatenate([truth, extra])
    tolerance = {"a": tol} if tol else None
    r = linkage_attack(
        df, aux, ["a", "b"], truth=truth, sensitive=["s"], p=0.6, person="p", tolerance=tolerance
    )
    ref = _naive(df, aux, ["a", "b"], truth, tol, "s", 0.6)
    assert r.candidates.tolist() == [n for n, *_ in ref]
    assert r.in_candidates.successes == sum(own for _, own, *_ in ref) == r.n_targets
    (dx,) = r.attributes
    assert dx.confident.successes == sum(c for *_, c, _ in ref)
    assert dx.correct.successes == sum(hit for *_, hit in ref)
    expected = np.mean([own / n if n else 0.0 for n, own, *_ in ref])
    assert r.expected_correct == pytest.approx(expected)


@settings(max_examples=40, deadline=None)
@given(people_tables, st.integers(0, 10_000))
def test_both_paths_of_the_join_agree(cols, seed):
    """The difference of prefix sums and the expansion into (target, person) pairs."""
    from riskcore.attacks._people import person_ids, value_sets
    from riskcore.attacks.linkage.matching import _encode_pair
    from riskcore.attacks.linkage.people import Owners, join_people
    from riskcore.engine import encode_column

    a, b, who, s = cols
    df = pd.DataFrame({"a": a, "b": b, "p": who, "s": s})
    aux, _ = simulate_auxiliary(df, ["a", "b"], missing_rate=0.3, seed=seed)
    pairs = [_encode_pair(aux[c], df[c]) for c in ("a", "b")]
    ids, n = person_ids(df["p"])
    enc = encode_column(df["s"])
    sets = (value_sets(ids, n, enc.codes, enc.n_values),)
    owners = Owners(ids, np.ones(n, dtype=np.int64))
    truth = ids[np.random.default_rng(seed).integers(0, len(df), size=len(aux))]
    t = np.arange(len(aux))
    fast = join_people(pairs, owners, t, len(aux), true_owner=truth, values=sets)
    slow = join_people(pairs, owners, t, len(aux), true_owner=truth, values=sets, expand_all=True)
    assert fast.candidates.tolist() == slow.candidates.tolist()
    assert fast.in_set.tolist() == slow.in_set.tolist()
    np.testing.assert_allclose(fast.confidence[0], slow.confidence[0])
    assert fast.predicted[0].tolist() == slow.predicted[0].tolist()


# ------------------------------------------------------------------ claims


DEMOGRAPHICS = ["sex", "race", "zip", "date_of_birth"]


@pytest.fixture(scope="module")
def claims() -> pd.DataFrame:
    return make_claims(2500, seed=0)


def _people_holding(df: pd.DataFrame, aux: pd.DataFrame, cols: list[str]) -> np.ndarray:
    """An independent count: distinct patients per QI tuple, joined to the attacker's rows."""
    per_tuple = df.groupby(cols, dropna=False, observed=True)["patient_id"].nunique()
    joined = aux[cols].merge(per_tuple.rename("n").reset_index(), on=cols, how="left")
    return joined["n"].fillna(0).to_numpy(dtype=np.int64)


def test_claims_targets_are_the_patients_and_candidates_a_pandas_count(claims):
    aux, truth = simulate_auxiliary(claims, DEMOGRAPHICS, person="patient_id", seed=1)
    assert len(aux) == claims["patient_id"].nunique() == 2500
    assert claims["patient_id"].iloc[truth].nunique() == 2500  # one row of each patient
    r = linkage_attack(claims, aux, DEMOGRAPHICS, truth=truth, person="patient_id")
    assert r.n_targets == 2500 and r.n_release == 2500 and r.release_rows == len(claims)
    assert r.candidates.tolist() == _people_holding(claims, aux, DEMOGRAPHICS).tolist()
    assert r.in_candidates.successes == 2500  # an error-free attacker: always among them
    # the age at one visit changes across birthdays: still counted in patients
    known = [*DEMOGRAPHICS, "age"]
    aux, truth = simulate_auxiliary(claims, known, person="patient_id", seed=2)
    r = linkage_attack(claims, aux, known, truth=truth, person="patient_id")
    assert r.candidates.tolist() == _people_holding(claims, aux, known).tolist()
    counts = linkage_counts(EncodedTable(claims), aux, known, person="patient_id")
    assert counts.candidates.tolist() == r.candidates.tolist()
    # on rows, the same attacker's targets would be matched to visits, not patients
    rows = linkage_attack(claims, aux, ["sex", "race"], truth=truth)
    assert rows.candidates.sum() > r.n_release


def test_claims_curve_in_people_never_falls(claims):
    aux, truth = simulate_auxiliary(claims, ["sex", "zip", "date_of_birth"], person="patient_id")
    curve = linkage_curve(
        claims, aux, ["sex", "zip", "date_of_birth"], truth=truth, person="patient_id"
    )
    rates = [r.rate for r in curve.unique]
    assert rates == sorted(rates) and curve.unique[0].n == 2500


def test_a_person_is_released_while_any_of_their_rows_is():
    from riskcore.attacks.linkage import released_positions

    recorded = RELEASE.assign(pid=RELEASE["pid"].fillna("lone"))
    kept = np.array([1, 2, 3, 4, 7, 8])  # Ann's first row, Dee and the lone row suppressed
    release = recorded.iloc[kept].reset_index(drop=True)
    drawn = np.array([0, 5, 3])  # Ann's suppressed row, Dee's only row, Cal's first row
    assert released_positions(drawn, kept, len(recorded)).tolist() == [-1, -1, 2]
    truth = released_positions(drawn, kept, len(recorded), person=recorded["pid"])
    assert truth.tolist() == [0, -1, 2]  # Ann through her kept row (release row 0)
    aux = recorded.iloc[drawn][ON].reset_index(drop=True)
    r = linkage_attack(release, aux, ON, truth=truth, person="pid")
    # Ann's known (34, F, 1) and Dee's are held by Bea alone now (Ann released at 35 only):
    # one candidate each, neither their own; Cal's (50, M, 2) by Cal alone
    assert r.candidates.tolist() == [1, 1, 1]
    assert r.in_candidates.successes == 1 and r.correct.successes == 1
