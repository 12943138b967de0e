"""t-closeness with the hierarchical ground distance (Li, Li and Venkatasubramanian 2007, 4.3).

Checked by hand on a small disease table, at the boundary of the criterion, and against
ARX 3.9.2's own algorithm (``HierarchicalDistanceTCloseness.isAnonymous`` over the tree of
``DataManager.getTree``) written out here as a loop over the inner nodes, on random
hierarchies and tables.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riskcore.cli import main
from riskcore.criteria import Targets, TCloseness, evaluate
from riskcore.engine import EncodedTable
from riskcore.errors import RiskcoreError
from riskcore.metrics import assess
from riskcore.metrics import closeness as closeness_module
from riskcore.metrics.closeness import t_closeness_per_class

STOMACH = ("gastric ulcer", "gastritis", "stomach cancer")
RESPIRATORY = ("flu", "bronchitis", "pneumonia")
#: Height 2: the diseases, their system, the top.
DISEASES = tuple(
    [(d, "stomach diseases", "*") for d in STOMACH]
    + [(d, "respiratory infections", "*") for d in RESPIRATORY]
)


def _disease_table() -> pd.DataFrame:
    # the Disease column of Li et al.'s Table 3, grouped three by three as in their Table 4;
    # the hierarchy here has height 2 (the paper's figure has more levels), and every D below
    # is worked out by hand in the docstrings, not quoted from the paper
    return pd.DataFrame(
        {
            "zip": ["476**"] * 3 + ["4790*"] * 3 + ["47**"] * 3,
            "disease": [
                "gastric ulcer", "gastritis", "stomach cancer",
                "gastritis", "flu", "bronchitis",
                "bronchitis", "pneumonia", "stomach cancer",
            ],
        }
    )  # fmt: skip


def test_the_hierarchical_distance_by_hand():
    """Q over the 9 records: gastric ulcer 1/9, gastritis 2/9, stomach cancer 2/9, flu 1/9,
    bronchitis 2/9, pneumonia 1/9. H = 2; two diseases of one system are 1/2 apart, of two
    systems 2/2 = 1 apart. D = sum over the inner nodes N of level(N)/H min(pos, neg), pos and
    neg the positive and negative extras (p - q summed below each child) of N's children.

    Class 1 {gastric ulcer, gastritis, stomach cancer}: p - q = +2/9, +1/9, +1/9 on the
    stomach diseases and -1/9, -2/9, -1/9 on the respiratory ones. Each system node has
    children of one sign only (min 0); at the top, pos = neg = 4/9: D = 2/2 x 4/9 = 4/9
    (all the excess mass moves between systems, distance 1).

    Class 2 {gastritis, flu, bronchitis}: p - q = -1/9, +1/9, -2/9 (stomach), +2/9, +1/9,
    -1/9 (respiratory). Stomach: pos 1/9, neg 3/9, min 1/9 at level 1: 1/2 x 1/9 = 1/18;
    respiratory: pos 3/9, neg 1/9: 1/18; top: the stomach node's extra is -2/9, the
    respiratory one's +2/9: 2/2 x 2/9. D = 1/18 + 1/18 + 2/9 = 1/3.

    Class 3 {bronchitis, pneumonia, stomach cancer}: p - q = -1/9, -2/9, +1/9 (stomach),
    -1/9, +1/9, +2/9 (respiratory). Stomach: pos 1/9, neg 3/9: 1/18; respiratory: pos 3/9,
    neg 1/9: 1/18; top: 2/9. D = 1/3.
    """
    df = _disease_table()
    table = EncodedTable(df).tabulate(["zip"], ["disease"]).sensitive["disease"]
    d = t_closeness_per_class(table, "hierarchical", hierarchy=DISEASES)
    by_zip = dict(zip(EncodedTable(df).tabulate(["zip"], []).classes.labels[0], d, strict=True))
    assert by_zip["476**"] == pytest.approx(4 / 9)
    assert by_zip["4790*"] == pytest.approx(1 / 3)
    assert by_zip["47**"] == pytest.approx(1 / 3)
    # the equal distance of class 1 is also 4/9 (its whole excess crosses systems), but the
    # equal distance of class 2 is (1/9 + 1/9 + 2/9 + 2/9 + 1/9 + 1/9) / 2 = 4/9, not 1/3:
    # moving mass within a system is cheaper under the hierarchy
    equal = t_closeness_per_class(table, "equal")
    assert sorted(equal) == pytest.approx([4 / 9, 4 / 9, 4 / 9])


def test_the_criterion_passes_and_fails_at_the_boundary():
    """t = max_j D_j = 4/9 (class 1, by hand above): a class passes when D_j <= t."""
    df = _disease_table()
    a = assess(
        df,
        quasi_identifiers=["zip"],
        sensitive=["disease"],
        distance="hierarchical",
        hierarchy={"disease": DISEASES},
    )
    assert a.sensitive["disease"].t_closeness == pytest.approx(4 / 9)
    assert a.sensitive["disease"].distance == "hierarchical"
    for t, passed, failing_classes in ((0.445, True, 0), (0.444, False, 1), (0.333, False, 3)):
        v = evaluate(Targets(criteria=(TCloseness(t=t),)), a.evidence)
        assert v.passed is passed
        assert int(v.failing.sum()) == failing_classes
    # the model asks for the hierarchical distance of an attribute assessed with the equal one
    b = assess(
        df, quasi_identifiers=["zip"], sensitive=["disease"], hierarchy={"disease": DISEASES}
    )
    assert b.sensitive["disease"].distance == "equal"
    check = TCloseness(t=0.34, distance="hierarchical").check(b.evidence, "disease")
    assert check.achieved == pytest.approx(4 / 9) and check.failing_classes == 1
    assert check.label == "t-closeness (hierarchical distance)"


def test_three_levels_charge_the_level_of_the_lowest_common_ancestor():
    """H = 3: a and b share a parent (level 1 apart: 1/3), c is their cousin (level 2: 2/3),
    d meets them at the top (level 3: 1). Q = a 3/8, b 2/8, c 2/8, d 1/8; class {a, a} has
    extras +5/8 on a, -2/8 on b, -2/8 on c, -1/8 on d, so 2/8 moves a -> b at 1/3, 2/8
    a -> c at 2/3 and 1/8 a -> d at 1: D = 2/24 + 4/24 + 3/24 = 9/24 (the equal distance:
    5/8). With Q = (2/5, 1/5, 1/5, 1/5), class {a, a} moves 1/5 to each: D = (1/3 + 2/3 + 1)/5.
    """
    rows = [
        ("a", "ab", "abc", "*"),
        ("b", "ab", "abc", "*"),
        ("c", "c", "abc", "*"),
        ("d", "d", "d", "*"),
    ]
    df = pd.DataFrame({"q": [1, 1, 2, 2, 3, 3, 4, 4], "s": list("aaabbccd")})
    table = EncodedTable(df).tabulate(["q"], ["s"]).sensitive["s"]
    d = t_closeness_per_class(table, "hierarchical", hierarchy=rows)
    assert d[0] == pytest.approx(9 / 24)
    assert t_closeness_per_class(table, "equal")[0] == pytest.approx(5 / 8)
    even = pd.DataFrame({"q": [1, 1, 2, 3, 4], "s": list("aabcd")})
    t2 = EncodedTable(even).tabulate(["q"], ["s"]).sensitive["s"]
    assert t_closeness_per_class(t2, "hierarchical", hierarchy=rows)[0] == pytest.approx(
        (1 / 3 + 2 / 3 + 1) / 5
    )


def test_a_hierarchy_of_one_level_is_the_equal_distance():
    df = pd.DataFrame({"q": [1, 1, 1, 2, 2, 3], "s": ["x", "y", "z", "x", "x", "w"]})
    table = EncodedTable(df).tabulate(["q"], ["s"]).sensitive["s"]
    flat = [(v, "*") for v in "wxyz"]
    np.testing.assert_allclose(
        t_closeness_per_class(table, "hierarchical", hierarchy=flat),
        t_closeness_per_class(table, "equal"),
    )


def _arx_emd(p_counts, q_counts, rows):
    """ARX 3.9.2's tree walk: cost = sum over inner nodes of level/H min(pos_e, neg_e)."""
    height = len(rows[0]) - 1
    n_p, n_q = sum(p_counts.values()), sum(q_counts.values())
    extra = {(0, r[0]): p_counts.get(r[0], 0) / n_p - q_counts.get(r[0], 0) / n_q for r in rows}
    cost = 0.0
    for level in range(1, height + 1):
        children: dict[object, set] = {}
        for r in rows:
            children.setdefault(r[level], set()).add(r[level - 1])
        for node, kids in children.items():
            parts = [extra[(level - 1, c)] for c in kids]
            pos = sum(x for x in parts if x > 0)
            neg = -sum(x for x in parts if x < 0)
            cost += level / height * min(pos, neg)
            extra[(level, node)] = pos - neg
    return cost


@st.composite
def _hierarchy_case(draw):
    n_values = draw(st.integers(2, 7))
    height = draw(st.integers(1, 4))
    values = [f"v{i}" for i in range(n_values)]
    # each level groups the groups of the one below
    rows = [[v] for v in values]
    groups = list(range(n_values))
    for level in range(1, height):
        n_groups = draw(st.integers(1, max(1, len(set(groups)))))
        parent = {g: draw(st.integers(0, n_groups - 1)) for g in sorted(set(groups))}
        groups = [parent[g] for g in groups]
        for r, g in zip(rows, groups, strict=True):
            r.append(f"L{level}g{g}")
    for r in rows:
        r.append("*")
    n = draw(st.integers(1, 30))
    s = draw(st.lists(st.sampled_from(values), min_size=n, max_size=n))
    q = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    return [tuple(r) for r in rows], pd.DataFrame({"q": q, "s": s})


@settings(max_examples=60, deadline=None)
@given(_hierarchy_case())
def test_the_vectorized_distance_is_arx_s_tree_walk(case):
    rows, df = case
    tab = EncodedTable(df).tabulate(["q"], ["s"])
    table = tab.sensitive["s"]
    got = t_closeness_per_class(table, "hierarchical", hierarchy=rows)
    q_counts = df["s"].value_counts().to_dict()
    keys = tab.classes.keys[0]
    labels = tab.classes.labels[0]
    for j in range(len(tab.classes.sizes)):
        members = df["s"][df["q"] == labels[keys[j]]]
        want = _arx_emd(members.value_counts().to_dict(), q_counts, rows)
        assert got[j] == pytest.approx(want, abs=1e-12)


def test_a_missing_value_meets_the_others_at_the_top_only():
    """A missing disease is its own leaf, joined at the top: 1 from every value."""
    df = pd.DataFrame({"q": [1, 1, 2, 2], "s": ["a", "a", None, "b"]})
    rows = [("a", "ab", "*"), ("b", "ab", "*")]
    table = EncodedTable(df).tabulate(["q"], ["s"]).sensitive["s"]
    d = t_closeness_per_class(table, "hierarchical", hierarchy=rows)
    # Q = a 1/2, b 1/4, missing 1/4; class 1 = {a, a}: 1/4 a -> b at 1/2, 1/4 a -> missing at 1
    assert d[0] == pytest.approx(1 / 8 + 1 / 4)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (None, "needs the attribute's hierarchy"),
        ([("a", "*")], "leaves out 1 of its values: 'b'"),
        ([("a", "g1"), ("b", "g2")], "2 labels at its top level"),
        ([("a",), ("b",)], "no level above its values"),
        ([("a", "x", "*"), ("b", "y")], "needs 3 labels"),
        ([("a", "*"), ("a", "*"), ("b", "*")], "lists the value 'a' twice"),
        ([("a", "g", "h1", "*"), ("b", "g", "h2", "*")], "gives 'g' at level 1 two parents"),
    ],
)
def test_bad_hierarchies_get_a_sentence(rows, message):
    df = pd.DataFrame({"q": [1, 2], "s": ["a", "b"]})
    table = EncodedTable(df).tabulate(["q"], ["s"]).sensitive["s"]
    with pytest.raises(RiskcoreError, match=message):
        t_closeness_per_class(table, "hierarchical", hierarchy=rows)


def test_the_limits_are_checked_before_the_work(monkeypatch):
    df = pd.DataFrame({"q": [1, 2], "s": ["a", "b"]})
    monkeypatch.setattr(closeness_module, "MAX_HIERARCHY_HEIGHT", 2)
    with pytest.raises(RiskcoreError, match="3 levels above its values, more than the 2"):
        assess(
            df,
            quasi_identifiers=["q"],
            sensitive=["s"],
            distance="hierarchical",
            hierarchy={"s": [("a", "x", "y", "*"), ("b", "x", "y", "*")]},
        )
    monkeypatch.setattr(closeness_module, "MAX_HIERARCHY_VALUES", 1)
    with pytest.raises(RiskcoreError, match="lists 2 values, more than the 1"):
        assess(
            df,
            quasi_identifiers=["q"],
            sensitive=["s"],
            distance="hierarchical",
            hierarchy={"s": [("a", "*"), ("b", "*")]},
        )
    with pytest.raises(RiskcoreError, match="not a sensitive attribute"):
        assess(df, quasi_identifiers=["q"], sensitive=["s"], hierarchy={"q": [("a", "*")]})


def _files(tmp_path):
    data, tree = tmp_path / "d.csv", tmp_path / "h.csv"
    _disease_table().to_csv(data, index=False)
    tree.write_text("".join(f"{';'.join(row)}\n" for row in DISEASES), encoding="utf-8")
    return str(data), str(tree)


def test_the_command_line_assesses_with_the_hierarchy_and_keeps_it_in_the_profile(tmp_path, capsys):
    data, tree = _files(tmp_path)
    prof = tmp_path / "p.json"
    args = ["assess", data, "--qi", "zip", "--sensitive", "disease", "--t", "0.4"]
    code = main([*args, "--distance", "disease=hierarchical", "--hierarchy", f"disease={tree}",
                 "--profile-out", str(prof), "--format", "json"])  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["sensitive"]["disease"]["distance"] == "hierarchical"
    assert out["sensitive"]["disease"]["t_closeness"] == pytest.approx(4 / 9)
    assert out["verdict"]["passed"] is False  # 4/9 > 0.4
    # the profile re-judges alike without the options
    assert main(["assess", data, "--profile", str(prof), "--format", "json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["sensitive"]["disease"]["t_closeness"] == pytest.approx(4 / 9)
    assert again["verdict"] == out["verdict"]
    # bad input: one sentence each
    assert main([*args, "--distance", "disease=hierarchical"]) == 2
    assert "needs its hierarchy" in capsys.readouterr().err
    assert main([*args, "--distance", "disease=tree"]) == 2
    assert "COLUMN=hierarchical" in capsys.readouterr().err
    assert main([*args, "--hierarchy", f"zip={tree}"]) == 2
    assert "hierarchy of a --sensitive column" in capsys.readouterr().err


def test_anonymize_takes_the_distance_and_the_sensitive_hierarchy(tmp_path, capsys):
    """Generalizing zip to one class leaves every D = 0; the bottom has t = 4/9 (by hand)."""
    data, tree = _files(tmp_path)
    zips = tmp_path / "zip.csv"
    zips.write_text("476**;*\n4790*;*\n47**;*\n", encoding="utf-8")
    recipe = tmp_path / "r.json"
    base = ["anonymize", data, "--qi", "zip", "--sensitive", "disease", "--k", "1",
            "--hierarchy", f"zip={zips}", "--out", str(tmp_path / "o.csv"),
            "--recipe-out", str(recipe), "--format", "json",
            "--allow-identifiers", "zip"]  # fmt: skip (a ZIP5 left raw)
    # t = 0.45 > 4/9: the bottom node meets it under the hierarchical distance
    code = main([*base, "--t", "0.45", "--distance", "disease=hierarchical",
                 "--hierarchy", f"disease={tree}"])  # fmt: skip
    assert code == 0
    assert json.loads(capsys.readouterr().out)["levels"] == {"zip": 0}
    saved = json.loads(recipe.read_text())
    assert saved["distances"] == {"disease": "hierarchical"}
    assert [tuple(r) for r in saved["sensitive_hierarchies"]["disease"]] == list(DISEASES)
    # t = 0.44 < 4/9: only the top meets it
    assert main([*base, "--t", "0.44", "--distance", "disease=hierarchical",
                 "--hierarchy", f"disease={tree}"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["levels"] == {"zip": 1}


def test_the_profile_keeps_the_hierarchy_and_older_profiles_still_load():
    from riskcore.profile import Profile

    roles = {"quasi_identifiers": ["zip"], "sensitive": ["disease"], "other": []}
    old = {"riskcore_profile": 3, "roles": roles, "distances": {"disease": "equal"}}
    assert Profile.from_dict(old).sensitive_hierarchies == {}
    assert "sensitive_hierarchies" not in Profile.from_dict(old).to_dict()  # older readers
    new = {**old, "distances": {"disease": "hierarchical"},
           "sensitive_hierarchies": {"disease": [list(r) for r in DISEASES]}}  # fmt: skip
    p = Profile.from_dict(new)
    assert p.sensitive_hierarchies == {"disease": DISEASES}
    assert Profile.from_dict(json.loads(p.to_json())).sensitive_hierarchies == {"disease": DISEASES}
    with pytest.raises(RiskcoreError, match="needs its hierarchy"):
        Profile.from_dict({**old, "distances": {"disease": "hierarchical"}})
    with pytest.raises(RiskcoreError, match="2 labels at its top level"):
        Profile.from_dict({**new, "sensitive_hierarchies": {"disease": [["a", "x"], ["b", "y"]]}})
