"""Node classes rolled up from cached nodes equal the classes tabulated from the base classes.

The reference is independent of the roll-up: the rows generalized with
:func:`generalize_columns` and grouped by pandas.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riskcore.deidentify.hierarchy import grouping_hierarchy
from riskcore.deidentify.recipe.base import generalize_columns
from riskcore.deidentify.search import rollup
from riskcore.deidentify.search.lattice import Lattice
from tests.riskcore.cases import draw_qi_table


def _partition(ids: np.ndarray) -> set[frozenset[int]]:
    """Return the blocks of a labelling (which items share a label), numbering-free."""
    blocks: dict[int, set[int]] = {}
    for item, label in enumerate(ids.tolist()):
        blocks.setdefault(label, set()).add(item)
    return {frozenset(b) for b in blocks.values()}


@st.composite
def tables_and_orders(draw):
    cols, hiers = draw_qi_table(draw)
    df = pd.DataFrame(cols)
    nodes = list(itertools.product(*(range(h.height + 1) for h in hiers.values())))
    order = draw(st.permutations(nodes))
    return df, hiers, order


@settings(max_examples=max(settings().max_examples // 5, 4), deadline=None)  # 20 in CI
@given(tables_and_orders(), st.integers(1, 3), st.booleans())
def test_rolled_up_classes_are_the_rows_grouped(case, entries, sensitive):
    df, hiers, order = case
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(rollup, "CACHE_ENTRIES", entries)  # a tiny cache: entries dropped often
        lat = Lattice(df, hiers, sensitive=["s"] if sensitive else [])
        records = lat.record_base_classes()
        for node in order:
            classes = lat._tables.get(node)
            gen = generalize_columns(df, hiers, dict(zip(lat.quasi_identifiers, node, strict=True)))
            keys = (
                gen[list(lat.quasi_identifiers)]
                .astype(object)
                .where(gen[list(lat.quasi_identifiers)].notna(), "<NA>")
            )
            expected = pd.factorize(pd.MultiIndex.from_frame(keys))[0]
            ids = lat.classes(node)[0]
            assert _partition(ids[records]) == _partition(expected)
            assert sorted(classes.sizes.tolist()) == sorted(np.bincount(expected).tolist())
            if classes.ids is not None:
                assert _partition(classes.ids[records]) == _partition(expected)
            # each class's codes and size: the same as tabulated from the base classes
            _, direct = lat._tables.direct(node)
            assert _table(classes) == _table(direct)
            if classes.ids is not None:  # each base class's codes are its class's
                for i, x in enumerate(node):
                    assert np.array_equal(classes.codes[i][classes.ids], lat.base_codes(i, x))


def _table(classes: rollup.NodeClasses) -> list[tuple[tuple[int, ...], int]]:
    return sorted(zip(map(tuple, classes.codes.T.tolist()), classes.sizes.tolist(), strict=True))


def test_a_node_rolls_up_from_the_cached_node_below_it_with_fewest_classes():
    df = pd.DataFrame({"a": list("xxyyzz"), "b": list("pqpqpq")})
    hiers = {
        "a": grouping_hierarchy(df["a"], [{"x": "xy", "y": "xy", "z": "z"}]),
        "b": grouping_hierarchy(df["b"], [{"p": "pq", "q": "pq"}]),
    }
    lat = Lattice(df, hiers)
    tables = lat._tables
    tables.get((0, 0))  # 6 classes, tabulated from the base
    assert tables.rolled == 0
    tables.get((1, 0))  # {xy, z} x {p, q}: 4 classes, rolled up from (0, 0)
    top = tables.get((1, 1))  # rolled up from (1, 0), the fewer classes
    assert tables.rolled == 2
    assert sorted(top.sizes.tolist()) == [2, 4]
    assert tables.get((1, 1)) is top  # cached
