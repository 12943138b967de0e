"""AppTest: the Remediate page's search judges k-map against the population table matched on
the Records page, and says where to match one when there is none."""

from __future__ import annotations

import pandas as pd

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import default_hierarchy
from riskcore.deidentify.search.lattice import Lattice
from riskcore.deidentify.search.run import search
from riskcore.demo import make_people
from riskcore.report.readings.remediation import POPULATION_FIRST
from tests.app.helpers import run, seen, set_settings

QIS = ["age", "education", "sex", "race", "marital_status"]  # the demo's suggested QIs


def test_k_map_targets_search_against_the_matched_population_or_say_where_to_match_one():
    at = run()
    targets = Targets.of(k=2, k_map=20, max_suppression=0.02)
    set_settings(at, targets=targets)
    at.switch_page("pages/remediate.py").run()
    assert not at.exception, at.exception
    assert any(seen(i.value) == POPULATION_FIRST for i in at.info)
    assert not [b for b in at.button if b.key == "rc_rem_search"]  # no search without it

    # the population: the demo's people and as many again (the data are a subset of it)
    data = make_people(32_561, seed=0)
    population = pd.concat([data[QIS], make_people(32_561, seed=1)[QIS]], ignore_index=True)
    at.session_state["rc_pop_matched"] = {
        "for": at.session_state["rc_dataset"]["key"],
        "key": "test-population",
        "table": population,
    }
    at.run()
    assert not at.exception, at.exception
    assert not any(seen(i.value) == POPULATION_FIRST for i in at.info)
    at.button(key="rc_rem_search").click().run()
    assert not at.exception, at.exception
    chosen = tuple(at.select_slider(key=f"rc_rem_level_{q}").value for q in QIS)
    expected = search(
        Lattice(
            data, {q: default_hierarchy(data[q]) for q in QIS}, targets=targets,
            population_table=population,
        )
    )  # fmt: skip
    assert expected.best is not None and chosen == expected.best.levels
    # k-map binds: k = 2 alone is met by a finer node
    k_only = Targets.of(k=2, max_suppression=0.02)
    hierarchies = {q: default_hierarchy(data[q]) for q in QIS}
    finer = search(Lattice(data, hierarchies, targets=k_only)).best
    assert finer is not None and finer.levels != chosen
