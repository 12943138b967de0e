"""Special uniques: MSUs, SUDA and DIS-SUDA scores (riskcore.metrics.special_uniques).

Every expected value here comes from outside riskcore: a brute-force
enumeration of all QI subsets written below in plain Python, the worked
examples of the SDC Practice Guide and of sdcMicro's own tests, and the
published formulas (worked by hand in the comments).
"""

from __future__ import annotations

import importlib
import itertools
import json
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riskcore._results import dumps
from riskcore.engine import EncodedTable
from riskcore.errors import RolesError
from riskcore.metrics import SudaResult, msu_weight, suda

# ---------------------------------------------------------------- brute force


def _missing(v: object) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def brute_msus(rows: list[tuple], max_size: int) -> list[list[tuple[int, ...]]]:
    """Return, per record, its MSUs as tuples of column indices: all subsets, no pruning.

    A subset S of record r's columns (none missing in r) is unique when no other
    record has r's values on every column of S (a missing value equals nothing);
    it is an MSU when unique and no proper non-empty subset is unique.
    """
    n = len(rows)
    m = len(rows[0]) if rows else 0

    def unique(r: int, cols: tuple[int, ...]) -> bool:
        return not any(
            all(rows[o][c] == rows[r][c] and not _missing(rows[o][c]) for c in cols)
            for o in range(n)
            if o != r
        )

    out: list[list[tuple[int, ...]]] = []
    for r in range(n):
        usable = [c for c in range(m) if not _missing(rows[r][c])]
        found: list[tuple[int, ...]] = []
        for k in range(1, min(max_size, m) + 1):
            for cols in itertools.combinations(usable, k):
                if not unique(r, cols):
                    continue
                proper = (sub for j in range(1, k) for sub in itertools.combinations(cols, j))
                if not any(unique(r, sub) for sub in proper):
                    found.append(cols)
        out.append(found)
    return out


def brute_scores(rows: list[tuple], msus: list[list[tuple[int, ...]]], pi: float = 0.01):
    """Return (score, contribution, dis_score) from the published formulas.

    SUDA: sum over MSUs of (M - k)!, M = max(m, 3) as sdcMicro pads to three
    columns. Contribution of column v: the score of MSUs containing v / score.
    DIS-SUDA (sdcMicro src/Suda2.h): dis = U pi / (U pi + P (1 - pi)), U the
    sample uniques on all columns and P the records in classes of exactly two
    (a missing value counts as a value of its own there), Q = 1 + (8 - M)/20,
    A = sum over scoring records of S^-Q, DIS_i = 1 / (1 + (U/dis - U) / (S_i^Q A)).
    """
    n = len(rows)
    m = len(rows[0])
    big_m = max(m, 3)

    def key(row):
        return tuple("<NA>" if _missing(v) else v for v in row)

    counts: dict[tuple, int] = {}
    for row in rows:
        counts[key(row)] = counts.get(key(row), 0) + 1
    u = sum(1 for c in counts.values() if c == 1)
    p = sum(c for c in counts.values() if c == 2)
    score = [sum(math.factorial(big_m - len(s)) for s in msus[r]) for r in range(n)]
    contribution = [
        [
            sum(math.factorial(big_m - len(s)) for s in msus[r] if v in s) / score[r]
            if score[r]
            else 0.0
            for v in range(m)
        ]
        for r in range(n)
    ]
    q = 1 + (8 - big_m) / 20
    adj = sum(s**-q for s in score if s > 0)
    dis_score = [0.0] * n
    if u:
        dis = u * pi / (u * pi + p * (1 - pi))
        for r in range(n):
            if score[r] > 0:
                dis_score[r] = 1 / (1 + (u / dis - u) / (score[r] ** q * adj))
    return score, contribution, dis_score


def _as_rows(df: pd.DataFrame) -> list[tuple]:
    return [tuple(None if pd.isna(v) else v for v in row) for row in df.itertuples(index=False)]


def _compare(df: pd.DataFrame, max_size: int | None, pi: float = 0.01) -> SudaResult:
    qis = list(df.columns)
    res = suda(df, qis, max_size=max_size, dis_fraction=pi)
    rows = _as_rows(df)
    msus = brute_msus(rows, len(qis) if max_size is None else max_size)
    for r in range(len(df)):
        expected = sorted(tuple(qis[c] for c in s) for s in msus[r])
        assert sorted(res.msus_of(r)) == expected, (r, df)
    assert res.msu_count.tolist() == [len(x) for x in msus]
    assert res.min_msu_size.tolist() == [min((len(s) for s in x), default=0) for x in msus]
    score, contribution, dis_score = brute_scores(rows, msus, pi)
    np.testing.assert_allclose(res.score, score, rtol=0, atol=0)
    np.testing.assert_allclose(res.contribution, np.array(contribution).reshape(len(df), -1))
    np.testing.assert_allclose(res.dis_score, dis_score, rtol=1e-12, atol=1e-15)
    assert res.n_msus == sum(len(x) for x in msus)
    return res


# ---------------------------------------------------------------- property tests


@st.composite
def _tables(draw):
    m = draw(st.integers(1, 5))
    n = draw(st.integers(1, 12))
    with_nan = draw(st.booleans())
    values = st.integers(0, draw(st.integers(0, 3)))
    cell = st.one_of(values, st.just(float("nan"))) if with_nan else values
    data = {f"q{j}": [draw(cell) for _ in range(n)] for j in range(m)}
    df = pd.DataFrame(data, dtype=float)
    max_size = draw(st.one_of(st.none(), st.integers(1, m)))
    return df, max_size


@settings(max_examples=3 * settings().max_examples)  # 300 in CI
@given(_tables())
def test_msus_and_scores_match_brute_force(case):
    df, max_size = case
    _compare(df, max_size)


@given(_tables(), st.randoms(use_true_random=False))
def test_row_order_and_index_play_no_role(case, rnd):
    df, max_size = case
    perm = list(range(len(df)))
    rnd.shuffle(perm)
    shuffled = df.iloc[perm].set_axis([f"r{i}" for i in range(len(df))])
    a = suda(df, list(df.columns), max_size=max_size)
    b = suda(shuffled, list(df.columns), max_size=max_size)
    np.testing.assert_array_equal(b.score, a.score[perm])
    np.testing.assert_allclose(b.dis_score, a.dis_score[perm], rtol=1e-12)
    for new, old in enumerate(perm):
        assert b.msus_of(new) == a.msus_of(old)


def test_seeded_wider_tables_with_text_and_missing_values():
    """More columns and rows than hypothesis draws, with text values and NaN."""
    rng = np.random.default_rng(15)
    for _ in range(25):
        n, m = int(rng.integers(8, 30)), int(rng.integers(3, 7))
        df = pd.DataFrame(
            {
                f"c{j}": rng.choice(["a", "b", "c", None], size=n, p=[0.5, 0.3, 0.1, 0.1])
                for j in range(m)
            }
        )
        _compare(df, None)
        _compare(df, 2)


# ---------------------------------------------------------------- edge cases


def test_one_record_every_value_is_an_msu():
    # One record: each single value is unique and has no non-empty proper subset.
    # M = 4, so each 1-MSU scores 3! = 6; U = 1, P = 0, dis = 1 and DIS-SUDA = 1.
    df = pd.DataFrame({"a": [1], "b": ["x"], "c": [2.5], "d": ["y"]})
    res = _compare(df, None)
    assert res.score.tolist() == [24.0]
    assert res.msu_count.tolist() == [4]
    assert res.dis_score.tolist() == [1.0]
    assert res.dis == 1.0


def test_identical_records_have_no_msu():
    df = pd.DataFrame({"a": [1, 1, 1], "b": ["x", "x", "x"], "c": [None, None, None]})
    res = _compare(df, None)
    assert res.score.tolist() == [0.0, 0.0, 0.0]
    assert res.n_msus == 0 and res.special_uniques == 0
    assert res.sample_uniques == 0 and math.isnan(res.dis)
    assert res.qi_contribution == (0.0, 0.0, 0.0)


def test_missing_value_is_never_part_of_an_msu():
    # Record 0 differs from record 1 only by a missing b: it is a sample unique
    # (missing is a value of its own) but has no MSU, since its other values
    # (a = 1, c = 0) are shared. Record 1 is unique on a = 1 with b = "x" (record 0's
    # missing b does not match "x"), though a = 1 and b = "x" are each shared.
    # Record 2 is unique on a = 2 alone.
    df = pd.DataFrame({"a": [1, 1, 2], "b": [None, "x", "x"], "c": [0, 0, 0]})
    res = _compare(df, None)
    assert res.msus_of(0) == ()
    assert res.msus_of(1) == (("a", "b"),)
    assert res.msus_of(2) == (("a",),)
    assert res.sample_uniques == 3


def test_max_size_drops_larger_msus_only():
    # Book example (below), record 8 (index 7): MSUs {age} and {gender, education}.
    res = suda(BOOK, list(BOOK.columns), max_size=1)
    assert res.msus_of(7) == (("age",),)
    assert res.score[7] == 6.0  # (4 - 1)!, the weight does not depend on max_size
    assert res.msus_by_size == (2,)  # age 60s and education middleschool


def test_many_constant_columns_are_pruned_not_enumerated():
    # 40 QIs: a scan of all 2^40 subsets would never end. 38 columns hold one value
    # (in every record: pruned), so the MSUs are those of the two varying columns.
    n = 50
    rng = np.random.default_rng(3)
    data = {f"k{j}": np.zeros(n, dtype=int) for j in range(38)}
    data["x"] = rng.integers(0, 6, n)
    data["y"] = rng.integers(0, 6, n)
    df = pd.DataFrame(data)
    res = suda(df, list(df.columns))
    small = suda(df, ["x", "y"])
    for r in range(n):
        assert res.msus_of(r) == small.msus_of(r)
    expected = brute_msus(_as_rows(df[["x", "y"]]), 2)
    assert [len(x) for x in expected] == res.msu_count.tolist()


def test_empty_table():
    res = suda(pd.DataFrame({"a": [], "b": []}), ["a", "b"])
    assert res.n_records == 0 and res.n_msus == 0 and len(res.score) == 0


# ---------------------------------------------------------------- worked examples

# SDC Practice Guide (Benschop, Machingauta and Welch, "Statistical Disclosure
# Control for Microdata: A Practice Guide", IHSN / World Bank, section "Calculating
# SUDA scores", table "Illustrating the calculation of SUDA and DIS-SUDA scores"),
# also sdcMicro's tests/testthat/test_suda2.R, "suda2 sdc guideline".
GUIDE = pd.DataFrame(
    {
        "Residence": ["Urban"] * 4 + ["Rural"] + ["Urban"] * 5,
        "Gender": [
            "Female",
            "Female",
            "Female",
            "Male",
            "Female",
            "Male",
            "Female",
            "Male",
            "Female",
            "Female",
        ],
        "Education": [
            "Secondary incomplete",
            "Secondary incomplete",
            "Primary incomplete",
            "Secondary complete",
            "Secondary complete",
            "Secondary complete",
            "Primary complete",
            "Post-secondary",
            "Secondary incomplete",
            "Secondary incomplete",
        ],
        "Labor": [
            "Employed",
            "Employed",
            "Non-LF",
            "Employed",
            "Unemployed",
            "Employed",
            "Non-LF",
            "Unemployed",
            "Non-LF",
            "Non-LF",
        ],
    }
)


def test_practice_guide_scores_and_msus():
    res = suda(GUIDE, list(GUIDE.columns))
    # The guide: SUDA scores 0, 0, 6, 0, 12, 0, 6, 10, 0, 0.
    assert res.score.tolist() == [0, 0, 6, 0, 12, 0, 6, 10, 0, 0]
    # The guide: record 5 has four MSUs, {Rural} scoring (4-1)! = 6 and three pairs
    # scoring (4-2)! = 2 each: 6 + 2 + 2 + 2 = 12.
    assert res.msus_of(4) == (
        ("Residence",),
        ("Gender", "Education"),
        ("Gender", "Labor"),
        ("Education", "Labor"),
    )
    assert res.min_msu_size.tolist() == [0, 0, 1, 0, 1, 0, 1, 1, 0, 0]


def test_practice_guide_dis_suda_worked_by_hand():
    # U = 4 sample uniques (records 3, 5, 7, 8); pairs: (1,2), (4,6), (9,10), so
    # P = 6 records. pi = 0.01: dis = 0.04 / (0.04 + 6 * 0.99) = 0.04 / 5.98.
    # U/dis - U = 5.98 * 100 - 4 = 594 (= P (1 - pi) / pi).
    # M = 4: Q = 1 + (8 - 4)/20 = 1.2; A = 2 * 6^-1.2 + 12^-1.2 + 10^-1.2.
    # DIS(6) = 1 / (1 + 594 / (6^1.2 A)) = 0.0049868 (by hand: 6^1.2 = 8.5858,
    # A = 0.34673, 594 / 2.9770 = 199.53). sdcMicro's C++ (src/Suda2.h, built
    # with a stub of Rcpp) prints 0.0049867976611432, 0.011383006514236 and
    # 0.0091666788691625 for scores 6, 12 and 10. (The guide's own DIS-SUDA
    # column, 0.0051 / 0.0107 / 0.0088, fits no M = 4 setting of this formula.)
    res = suda(GUIDE, list(GUIDE.columns), dis_fraction=0.01)
    a = 2 * 6**-1.2 + 12**-1.2 + 10**-1.2
    expected = {s: 1 / (1 + 594 / (s**1.2 * a)) for s in (6, 12, 10)}
    assert res.sample_uniques == 4 and res.pair_records == 6
    assert res.dis == pytest.approx(0.04 / 5.98, rel=1e-12)
    for i, s in [(2, 6), (4, 12), (6, 6), (7, 10)]:
        assert res.dis_score[i] == pytest.approx(expected[s], rel=1e-12)
    np.testing.assert_allclose(
        res.dis_score[[2, 4, 7]],
        [0.0049867976611432099, 0.011383006514236068, 0.0091666788691624687],
        rtol=1e-7,  # sdcMicro computes dis in single precision
    )
    assert res.dis_score[[0, 1, 3, 5, 8, 9]].tolist() == [0.0] * 6


# Templ (2017), Statistical Disclosure Control for Microdata, Springer, the SUDA
# example; sdcMicro's tests/testthat/test_suda2.R, "suda2 book example":
# su$score[5:8] == c(4, 2, 6, 8).
BOOK = pd.DataFrame(
    {
        "age": ["20s"] * 7 + ["60s"],
        "gender": ["male"] * 4 + ["female"] * 3 + ["male"],
        "income": ["50k+", "50k+"] + ["50k-"] * 6,
        "education": ["highschool"] * 4
        + ["university", "highschool", "middleschool", "university"],
    }
)


def test_book_example_scores():
    res = suda(BOOK, list(BOOK.columns))
    assert res.score[4:8].tolist() == [4, 2, 6, 8]
    # formulas.md hand check: M = 4, unique on one value (age 60s) and on one pair
    # not containing it (male + university): 3! + 2! = 8.
    assert res.msus_of(7) == (("age",), ("gender", "education"))
    assert res.score[:4].tolist() == [0, 0, 0, 0]


def test_sdcmicro_attribute_contributions():
    # sdcMicro tests/testthat/test_suda2.R, "suda2 simple example contrubtion":
    # a = (2,1,1), b = (0,3,0), c = (0,6,0) gives contributions 50, 37.5, 37.5 (%).
    # By hand (M = 3): record 1 {a} scores 2; record 2 {b}, {c} score 2 + 2; record 3
    # {a,b}, {a,c} score 1 + 1. Total 8; a: 2 + 2 = 4, b: 2 + 1 = 3, c: 3.
    df = pd.DataFrame({"a": [2, 1, 1], "b": [0, 3, 0], "c": [0, 6, 0]})
    res = suda(df, ["a", "b", "c"])
    assert res.qi_contribution == (0.5, 0.375, 0.375)
    assert res.score.tolist() == [2, 4, 2]
    np.testing.assert_allclose(res.contribution, [[1, 0, 0], [0, 0.5, 0.5], [1, 0.5, 0.5]])
    # Column order does not matter ("contrubtion 3": c, a, b gives 37.5, 50, 37.5).
    assert suda(df, ["c", "a", "b"]).qi_contribution == (0.375, 0.5, 0.375)


def test_weights_are_factorials():
    # (M - k)! for M = 5; sdcMicro pads fewer than three QIs to three columns.
    assert [msu_weight(k, 5) for k in range(1, 6)] == [24, 6, 2, 1, 1]
    assert [msu_weight(k, 2) for k in (1, 2)] == [2, 1]
    with pytest.raises(ValueError, match="impossible"):
        msu_weight(6, 5)


# ---------------------------------------------------------------- API


def test_engine_and_dataframe_agree_and_result_round_trips():
    table = EncodedTable(GUIDE)
    a = suda(table, list(GUIDE.columns))
    b = suda(GUIDE, list(GUIDE.columns))
    np.testing.assert_array_equal(a.score, b.score)
    data = json.loads(dumps(a))
    # Size 1: Primary incomplete, Rural, Primary complete, Post-secondary; size 2: the
    # three pairs of record 5 and {Male, Unemployed}, {Urban, Unemployed} of record 8.
    assert data["msus_by_size"] == [4, 5, 0, 0]
    assert "score" not in data  # per-record arrays stay out of JSON
    back = SudaResult.from_dict(data)
    assert back.msus_by_size == a.msus_by_size and back.dis == a.dis
    empty = SudaResult.from_dict(json.loads(dumps(suda(BOOK.iloc[:2], ["age", "gender"]))))
    assert math.isnan(empty.dis)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"quasi_identifiers": []}, RolesError, "^choose at least one quasi-identifier$"),
        ({"quasi_identifiers": ["age", "age"]}, RolesError, "^a quasi-identifier is listed twice$"),
        ({"quasi_identifiers": ["nope"]}, RolesError, "no column 'nope'"),
        ({"max_size": 0}, ValueError, "^max_size must be an integer >= 1, got 0$"),
        ({"dis_fraction": 0.0}, ValueError, r"^dis_fraction must be in \(0, 1\], got 0.0$"),
        ({"dis_fraction": "x"}, TypeError, "dis_fraction"),
    ],
)
def test_bad_input(kwargs, error, message):
    args = {"quasi_identifiers": ["age", "gender"], **kwargs}
    with pytest.raises(error, match=message):
        suda(BOOK, **args)


def test_search_in_small_blocks_gives_the_same_msus(monkeypatch):
    # The search builds its (node, item, record) triples in blocks of whole nodes;
    # tiny blocks (one node each, or a node longer than a block) change nothing.
    search = importlib.import_module("riskcore.metrics._suda_search")

    rng = np.random.default_rng(7)
    for block in (1, 5, 16):
        monkeypatch.setattr(search, "_BLOCK", block)
        for _ in range(5):
            n, m = int(rng.integers(5, 25)), int(rng.integers(2, 6))
            df = pd.DataFrame({f"c{j}": rng.integers(0, 3, n) for j in range(m)})
            _compare(df, None)


def test_sample_uniques_that_suda_skips_for_a_missing_value_are_counted():
    from riskcore.engine import EncodedTable
    from riskcore.metrics.missing import count_unique_missing

    # r0, r1 share (1, x); r2 (2, missing) is unique only through its missing b, and a = 2
    # is shared with r3: SUDA never uses a missing value, so r2 has no MSU. r3 (2, y) is
    # unique on both values (an MSU of size 2), r4 on a = 3 alone (size 1).
    df = pd.DataFrame({"a": [1, 1, 2, 2, 3], "b": ["x", "x", None, "y", "y"]})
    s = suda(df, ["a", "b"])
    assert (s.sample_uniques, s.special_uniques, s.unique_missing) == (3, 2, 1)
    assert count_unique_missing(EncodedTable(df).classes(("a", "b"))) == 1
    # searched up to one value: r3's MSU of two is not searched; r2 is still the missing one
    s1 = suda(df, ["a", "b"], max_size=1)
    assert (s1.sample_uniques, s1.special_uniques, s1.unique_missing) == (3, 1, 1)
    # no missing value: nothing skipped for one
    full = suda(df.fillna("z"), ["a", "b"])
    assert full.unique_missing == 0 and full.special_uniques == full.sample_uniques == 3
    assert SudaResult.from_dict(s.to_dict()).unique_missing == 1


def test_the_gap_between_sample_and_special_uniques_is_said_with_its_reasons():
    from riskcore.report import readings as rd

    df = pd.DataFrame({"a": [1, 1, 2, 2, 3], "b": ["x", "x", None, "y", "y"]})
    text = rd.suda_gap_reading(suda(df, ["a", "b"]))
    assert text.startswith("3 records are unique on all the quasi-identifiers")
    assert "1 more than the special uniques: 1 has a missing value, which SUDA never uses" in text
    assert "largest combination" not in text
    text1 = rd.suda_gap_reading(suda(df, ["a", "b"], max_size=1))
    assert "2 more than the special uniques" in text1
    assert "1 is unique only on more than 1 value (the largest combination searched)" in text1
    assert rd.suda_gap_reading(suda(df.fillna("z"), ["a", "b"])) == ""
    # the Uniqueness page's side: unique people with a missing value
    said = rd.unique_missing_reading(3, 1)
    assert said.startswith("1 of the 3 unique people has a missing quasi-identifier value")
    assert "up to 1 lower" in said and rd.unique_missing_reading(3, 0) == ""
    exact = rd.unique_missing_reading(3, 1, suda(df, ["a", "b"]).unique_missing)
    assert exact.endswith(": 1 of them is not a special unique there (its known values are "
                          "shared), so Records counts 1 fewer.")  # fmt: skip
    assert rd.unique_missing_reading(3, 1, 0).endswith("the counts agree.")
