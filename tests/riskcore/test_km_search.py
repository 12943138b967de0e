"""The search with event columns against an exhaustive scan judged by brute force (issue 36).

Every node of small lattices (QIs sex and age, event columns diagnosis and day, each with a
grouping hierarchy) is judged without riskcore: the table generalized by dictionaries
written here, each person's signature and set of visits as Python sets, every itemset of
at most m visits counted with itertools, ARX's suppression of the classes that fail and
the release judged again on the people left, and the normalized certainty penalty (Xu et
al. 2006) of every cell summed by hand. The lattice must agree on every node, and the
search's optimum must be the least-loss node the brute force finds anonymous.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from riskcore.criteria import KAnonymity, KmAnonymity, Targets
from riskcore.deidentify.hierarchy import flat_hierarchy, grouping_hierarchy
from riskcore.deidentify.search.lattice import Lattice
from riskcore.deidentify.search.run import search

#: Per column, its value at each level (level 0: as recorded; None stays None).
GROUPS: dict[str, list[dict[object, object]]] = {
    "sex": [{"F": "F", "M": "M"}, {"F": "*", "M": "*"}],
    "age": [
        {"30": "30", "35": "35", "50": "50"},
        {"30": "30-39", "35": "30-39", "50": "50-59"},
        {"30": "*", "35": "*", "50": "*"},
    ],
    "dx": [
        {"A": "A", "B": "B", "C": "C", "D": "D"},
        {"A": "AB", "B": "AB", "C": "CD", "D": "CD"},
        {"A": "*", "B": "*", "C": "*", "D": "*"},
    ],
    "day": [
        {"d0": "d0", "d1": "d1", "d2": "d2", "d3": "d3"},
        {"d0": "early", "d1": "early", "d2": "late", "d3": "late"},
        {"d0": "*", "d1": "*", "d2": "*", "d3": "*"},
    ],
}
QIS, EVENTS = ("sex", "age"), ("dx", "day")


def _table(seed: int) -> pd.DataFrame:
    r = np.random.default_rng(seed)
    n_people = int(r.integers(6, 15))
    pid = np.repeat(np.arange(n_people), r.integers(1, 5, n_people))
    n = len(pid)
    df = pd.DataFrame(
        {
            "pid": [f"p{i}" for i in pid],
            "sex": r.choice(["F", "M"], n_people)[pid],
            "age": r.choice(["30", "35", "50"], n_people)[pid],
            "dx": r.choice(["A", "B", "C", "D"], n, p=[0.4, 0.3, 0.2, 0.1]).astype(object),
            "day": r.choice(["d0", "d1", "d2", "d3"], n),
        }
    )
    df.loc[r.random(n) < 0.05, "dx"] = None
    return df


def _hierarchies(df: pd.DataFrame) -> dict[str, object]:
    out: dict[str, object] = {"sex": flat_hierarchy(df["sex"])}
    for col in ("age", "dx", "day"):
        present = set(df[col].dropna())
        groups = [{k: v for k, v in GROUPS[col][1].items() if k in present}]
        out[col] = grouping_hierarchy(df[col], groups)
    return out


def _label(col: str, level: int, value: object) -> object:
    return None if value is None or value != value else GROUPS[col][level][value]


def _brute_node(
    df: pd.DataFrame, levels: dict[str, int], targets: tuple[int, int, int], limit: float
) -> tuple[bool, int, float]:
    """Return (anonymous, people suppressed, NCP) of one node, by hand."""
    k_anon, k, m = targets
    cols = (*QIS, *EVENTS)
    gen = {c: [_label(c, levels[c], v) for v in df[c]] for c in cols}
    sig: dict[str, set[tuple[object, ...]]] = {}
    held: dict[str, set[tuple[object, ...]]] = {}
    for i, p in enumerate(df["pid"]):
        sig.setdefault(p, set()).add(tuple(gen[c][i] for c in QIS))
        held.setdefault(p, set()).add(tuple(gen[c][i] for c in EVENTS))
    cls = {p: frozenset(s) for p, s in sig.items()}

    def failing(people: set[str]) -> set[frozenset[tuple[object, ...]]]:
        size: dict[frozenset[tuple[object, ...]], int] = {}
        for p in people:
            size[cls[p]] = size.get(cls[p], 0) + 1
        bad = {c for c, n in size.items() if n < k_anon}
        sets = [held[p] for p in people]
        for p in people:
            items = sorted(held[p], key=repr)
            least = min(
                sum(set(itemset) <= s for s in sets)
                for j in range(1, min(m, len(items)) + 1)
                for itemset in itertools.combinations(items, j)
            )
            if least < k:
                bad.add(cls[p])
        return bad

    everyone = set(sig)
    bad = failing(everyone)
    gone = {p for p in everyone if cls[p] in bad}
    if not bad:
        anonymous = True
    elif len(gone) > limit * len(everyone) + 1e-9 or gone == everyone:
        anonymous = False
    else:
        anonymous = not failing(everyone - gone)
    # NCP: a value covering u of the U leaves the data hold costs (u - 1) / (U - 1), a
    # missing value 0, a suppressed row's cell 1; the mean over the dimensions of the mean
    # over the rows
    suppressed = [p in gone and bool(bad) and anonymous for p in df["pid"]]
    per_dim = []
    for c in cols:
        leaves = sorted(set(df[c].dropna()))
        cost = 0.0
        for i, v in enumerate(df[c]):
            if suppressed[i]:
                cost += 1.0
            elif v is not None and v == v and len(leaves) > 1:
                u = sum(_label(c, levels[c], x) == gen[c][i] for x in leaves)
                cost += (u - 1) / (len(leaves) - 1)
        per_dim.append(cost / len(df))
    return anonymous, len(gone) if anonymous else 0, float(np.mean(per_dim))


@pytest.mark.parametrize("seed", range(16))
def test_the_search_finds_the_least_loss_node_brute_force_judges_anonymous(seed):
    r = np.random.default_rng(100 + seed)
    df = _table(seed)
    k_anon, k, m = int(r.integers(1, 3)), int(r.integers(2, 4)), int(r.integers(1, 3))
    limit = float(r.choice([0.0, 0.2, 0.5]))
    targets = Targets(
        criteria=(KAnonymity(k=k_anon), KmAnonymity(k=k, m=m, events=EVENTS)),
        max_suppression=limit,
    )
    lattice = Lattice(df, _hierarchies(df), targets=targets, person="pid", events=EVENTS)
    assert lattice.quasi_identifiers == (*QIS, *EVENTS)
    brute = {}
    for node in lattice.nodes():
        levels = dict(zip(lattice.quasi_identifiers, node, strict=True))
        anonymous, suppressed, ncp = _brute_node(df, levels, (k_anon, k, m), limit)
        got = lattice.evaluate(node)
        assert got.anonymous == anonymous, f"seed {seed}, node {node}"
        if anonymous:
            assert got.suppressed == suppressed, f"seed {seed}, node {node}"
            assert math.isclose(got.ncp, ncp, abs_tol=1e-12), f"seed {seed}, node {node}"
        brute[node] = (anonymous, ncp)
    best = search(lattice).best
    passing = {n: ncp for n, (ok, ncp) in brute.items() if ok}
    if not passing:
        assert best is None
        return
    assert best is not None and brute[best.levels][0]
    assert math.isclose(best.ncp, min(passing.values()), abs_tol=1e-12)


def test_the_scan_meets_both_outcomes():
    # the seeds above hold nodes that pass and nodes that fail, and a search that finds one
    outcomes = set()
    for seed in range(10):
        df = _table(seed)
        targets = Targets(criteria=(KmAnonymity(k=2, m=2),), max_suppression=0.2)
        lattice = Lattice(df, _hierarchies(df), targets=targets, person="pid", events=EVENTS)
        outcomes |= {lattice.evaluate(n).anonymous for n in lattice.nodes()}
    assert outcomes == {True, False}


def test_itemsets_above_the_limit_are_refused_before_the_search(monkeypatch):
    # one person with 30 distinct diagnoses: C(30,1) + C(30,2) + C(30,3) = 4,525 occurrences
    # at the finest events; the lattice counts them when it is built, before any node
    from riskcore.errors import RiskcoreError
    from riskcore.metrics import longitudinal

    df = pd.DataFrame(
        {"pid": ["a"] * 30 + ["b"], "sex": ["F"] * 31, "dx": [f"d{i}" for i in range(31)]}
    )
    hier = {"sex": flat_hierarchy(df["sex"]), "dx": flat_hierarchy(df["dx"])}
    targets = Targets(criteria=(KmAnonymity(k=2, m=3),))
    monkeypatch.setattr(longitudinal, "MAX_ITEMSET_OCCURRENCES", 4_526)
    Lattice(df, hier, targets=targets, person="pid", events=["dx"])
    monkeypatch.setattr(longitudinal, "MAX_ITEMSET_OCCURRENCES", 4_525)
    with pytest.raises(RiskcoreError, match=r"4,526 itemset occurrences.*limit of 4,525"):
        Lattice(df, hier, targets=targets, person="pid", events=["dx"])
