"""Hand-worked and published examples for every metric."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from riskcore.engine import (
    Contingency,
    EncodedTable,
    build_partition,
    class_value_counts,
    encode_column,
)
from riskcore.metrics import (
    assess,
    k_anonymity,
    recursive_l_per_class,
    reidentification_risk,
    t_closeness_per_class,
)


def one_class(counts, ordered=False):
    labels = list(range(len(counts)))
    return Contingency.from_cells(
        "s", [0] * len(counts), labels, counts, n_classes=1, labels=labels, ordered=ordered
    )


def test_recursive_cl_hand_check_551():
    # formulas.md: counts (5,1,1) satisfy (c,3) only for c > 5.
    t = one_class([5, 1, 1])
    assert recursive_l_per_class(t, 5.0)[0] == 2  # 5 < 5*(1+1) but not 5 < 5*1
    assert recursive_l_per_class(t, 5.01)[0] == 3
    assert recursive_l_per_class(t, 2.0)[0] == 1  # 5 < 2*7 only at l = 1


def test_recursive_cl_order_of_counts_does_not_matter():
    # pycanon sorted the counts the wrong way; the cells may come in any order.
    a = recursive_l_per_class(one_class([1, 5, 1]), 5.01)
    b = recursive_l_per_class(one_class([1, 1, 5]), 5.01)
    assert a[0] == b[0] == 3


def test_entropy_l_of_uniform_class_is_m():
    # Machanavajjhala et al. 2007: m equally frequent values give entropy l = m (not m - 1).
    df = pd.DataFrame({"q": ["a"] * 6, "s": ["x", "y", "z"] * 2})
    r = assess(df, quasi_identifiers=["q"], sensitive=["s"]).sensitive["s"]
    assert r.entropy_l == pytest.approx(3.0)
    assert r.distinct_l == 3


def test_iq_limbs_table(seed_dir):
    # seed_examples README: 3-anonymous on (Age, Limbs) yet everyone in their 50s with
    # 3 limbs has Low IQ. Class (50,3): 3 records, IQ all Low; class (40,4): 2 records.
    df = pd.read_csv(seed_dir / "iq_limbs_3anonymous.csv")
    a = assess(df, quasi_identifiers=["Age", "Limbs"], sensitive=["IQ", "Mobility"])
    assert a.n_classes == 2
    assert a.k == 2
    iq = a.sensitive["IQ"]
    assert iq.distinct_l == 1 and iq.homogeneous_classes == 1 and iq.homogeneous_records == 3
    # Q = (Low 3/5, High 1/5, Medium 1/5). Class (50,3): P = Low 1 -> D = (0.4+0.2+0.2)/2 = 0.4.
    # Class (40,4): P = High 1/2, Medium 1/2 -> D = (0.6+0.3+0.3)/2 = 0.6. t = 0.6.
    assert iq.t_closeness == pytest.approx(0.6)
    assert iq.distance == "equal"
    mob = a.sensitive["Mobility"]
    # ordered values 23,34,41,46,52, q = 0.2 each. Class (40,4) holds 23 and 46:
    # r = (.3,-.2,-.2,.3,-.2), cumulative (.3,.1,-.1,.2,0), sum 0.7, / (m-1)=4 -> 0.175.
    # Class (50,3) holds 34,41,52: r = (-.2,.133,.133,-.2,.133), cumulative
    # (-.2,-.067,.067,-.133,0), sum 0.4667 / 4 = 0.1167.
    assert mob.distance == "ordered"
    assert mob.t_closeness == pytest.approx(0.175)
    assert sorted(mob.per_class["t"]) == pytest.approx([0.7 / 6, 0.175])


def test_t_closeness_published_salary_example():
    # Li, Li, Venkatasubramanian (ICDE 2007), section 4: Q = {3k,...,11k} uniform,
    # P1 = {3k,4k,5k} -> D = 0.375; P2 = {6k,8k,11k} -> D = 0.167.
    salary = [3, 4, 5, 6, 7, 8, 9, 10, 11]
    group = ["P1", "P1", "P1", "P2", "x", "P2", "y", "z", "P2"]
    df = pd.DataFrame({"g": group, "salary": salary})
    part = build_partition({"g": encode_column(df["g"])}, ["g"])
    t = t_closeness_per_class(class_value_counts(part, encode_column(df["salary"])))
    by_group = dict(zip(df["g"].iloc[part.first_row], t, strict=True))
    assert by_group["P1"] == pytest.approx(0.375)
    assert by_group["P2"] == pytest.approx(0.1667, abs=5e-4)


def test_t_closeness_equal_distance_absent_cells():
    # Q = (a 0.5, b 0.25, c 0.25); class with only c: (0.5 + 0.25 + 0.75)/2 = 0.75
    df = pd.DataFrame({"q": [1, 1, 2, 3], "s": ["a", "a", "b", "c"]})
    r = assess(df, quasi_identifiers=["q"], sensitive=["s"]).sensitive["s"]
    assert sorted(r.per_class["t"]) == pytest.approx([0.5, 0.75, 0.75])


def test_k_and_uniques():
    k = k_anonymity(np.array([1, 1, 3, 5]))
    assert (k.k, k.n_records, k.n_classes, k.unique_records) == (1, 10, 4, 2)
    assert k.distribution.size == (1, 3, 5)
    assert k.distribution.n_records == (2, 3, 5)


def test_prosecutor_risk_hand_example():
    # sizes 1, 2, 5, 12 (n = 20, J = 4); threshold 0.2: risks 1, .5, .2, .083
    # records at risk: 1/f > 0.2 -> classes of size 1 and 2 -> 3/20 = 0.15
    r = reidentification_risk(np.array([1, 2, 5, 12]), threshold=0.2)
    assert r.highest_risk == 1.0
    assert r.records_at_risk == pytest.approx(3 / 20)
    assert r.success_rate == pytest.approx(4 / 20)
    assert r.mean_class_risk == pytest.approx((1 + 0.5 + 0.2 + 1 / 12) / 4)


def test_journalist_and_marketer_hand_example():
    # f = (1, 2), F = (4, 2), n = 3. Journalist: highest 1/2; at risk (tau .3):
    # 1/4 no, 1/2 yes -> 2/3; success max(2/6, (1/4 + 2/2)/3 = 0.4167) = 0.4167.
    f, big_f = np.array([1, 2]), np.array([4, 2])
    j = reidentification_risk(f, population_sizes=big_f, threshold=0.3, model="journalist")
    assert j.highest_risk == 0.5
    assert j.records_at_risk == pytest.approx(2 / 3)
    assert j.success_rate == pytest.approx((0.25 + 1.0) / 3)
    m = reidentification_risk(f, population_sizes=big_f, model="marketer")
    assert m.success_rate == pytest.approx((0.25 + 1.0) / 3)
    # journalist success takes J / sum F when that is larger: f=(2,2), F=(2,3)
    j2 = reidentification_risk(
        np.array([2, 2]), population_sizes=np.array([2, 3]), model="journalist"
    )
    assert j2.success_rate == pytest.approx(max(2 / 5, (1 + 2 / 3) / 4))


def test_without_population_all_models_equal_prosecutor():
    f = np.array([1, 3, 3, 7])
    p = reidentification_risk(f)
    for model in ("journalist", "marketer"):
        r = reidentification_risk(f, model=model)
        assert r.highest_risk == p.highest_risk
        assert r.records_at_risk == p.records_at_risk


def test_missing_qi_values_form_their_own_class():
    df = pd.DataFrame({"zip": ["02139", None, None, "02139", np.nan], "s": list("abcab")})
    a = assess(df, quasi_identifiers=["zip"], sensitive=["s"])
    assert a.n_records == 5  # nobody dropped
    assert a.n_classes == 2
    assert a.k == 2


def test_health_toy_differencing_neighbour_is_unique(seed_dir):
    # health_toy: the neighbour (Single, Male, 2138, White) is unique on the four QIs.
    df = pd.read_csv(seed_dir / "health_toy.csv", dtype={"Zip": str})
    a = assess(df, quasi_identifiers=["Marital status", "Sex", "Zip", "Ethnicity"])
    assert a.n_records == 10
    enc = EncodedTable(df)
    sizes = a.classes.sizes[enc.record_classes(a.quasi_identifiers)]
    assert sizes[9] == 1


@pytest.mark.parametrize(
    ("kwargs", "exc", "msg"),
    [
        ({"threshold": 1.5}, ValueError, r"^threshold must be in \[0, 1\], got 1.5$"),
        ({"threshold": "x"}, TypeError, r"^threshold must be a real number, got 'x'$"),
        (
            {"model": "nope"},
            ValueError,
            r"^model must be one of 'prosecutor', 'journalist', 'marketer', got 'nope'$",
        ),
    ],
)
def test_risk_rejects_bad_arguments(kwargs, exc, msg):
    with pytest.raises(exc, match=msg):
        reidentification_risk(np.array([1, 2]), **kwargs)


def test_recursive_rejects_bad_c():
    with pytest.raises(ValueError, match=r"^c must be positive, got -1$"):
        recursive_l_per_class(one_class([1, 1]), -1)


def test_entropy_l_is_exp_of_min_entropy():
    # class A: (2,1,1) H = -(.5 ln .5 + 2 * .25 ln .25) = 1.0397; class B: (1,1) H = ln 2
    df = pd.DataFrame({"q": list("AAAABB"), "s": list("xxyzxy")})
    r = assess(df, quasi_identifiers=["q"], sensitive=["s"]).sensitive["s"]
    assert r.entropy_l == pytest.approx(2.0)
    h_a = -(0.5 * math.log(0.5) + 2 * 0.25 * math.log(0.25))
    assert sorted(r.per_class["entropy"]) == pytest.approx(sorted([h_a, math.log(2)]))


def test_class_count_order_is_the_same_packed_or_lexsorted() -> None:
    # recursive l sorts cells by (class, count descending): the packed sort and the lexsort
    # it falls back to (when class x count outgrows int64) give the same order
    from riskcore.metrics.diversity import _by_class_count_descending

    rng = np.random.default_rng(5)
    cls_ = np.sort(rng.integers(0, 50, 400))
    cnt = rng.integers(1, 30, 400)
    want = sorted(zip(cls_.tolist(), (-cnt).tolist(), strict=True))
    for shift in (0, 1 << 40):  # 2**40 classes x 2**30 counts does not fit one int64
        got_c, got_n = _by_class_count_descending(cls_ + shift, cnt + (shift >> 10))
        pairs = zip(got_c.tolist(), got_n.tolist(), strict=True)
        back = [(c - shift, -(n - (shift >> 10))) for c, n in pairs]
        assert back == want


def test_closeness_of_a_table_with_a_class_without_cells() -> None:
    # a class with no records has no distribution: both distances answer for the others
    from riskcore.metrics import t_closeness_per_class

    with_empty = Contingency.from_cells(
        "s", [0, 0, 2], [0, 2, 1], [1, 1, 2], n_classes=3, labels=[1, 2, 3], ordered=True
    )
    without = Contingency.from_cells(
        "s", [0, 0, 1], [0, 2, 1], [1, 1, 2], n_classes=2, labels=[1, 2, 3], ordered=True
    )
    for distance in ("equal", "ordered"):
        got = t_closeness_per_class(with_empty, distance)  # type: ignore[arg-type]
        want = t_closeness_per_class(without, distance)  # type: ignore[arg-type]
        assert got[[0, 2]].tolist() == pytest.approx(want.tolist())
    no_cells = Contingency.from_cells("s", [], [], [], n_classes=2, labels=[1, 2, 3], ordered=True)
    for distance in ("equal", "ordered"):
        assert len(t_closeness_per_class(no_cells, distance)) == 2  # type: ignore[arg-type]
