"""AppTest: the search is steered on the Remediate page (objective, weights, level bounds)."""

from __future__ import annotations

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import default_hierarchy
from riskcore.deidentify.search.lattice import Lattice
from riskcore.deidentify.search.run import search
from riskcore.deidentify.search.steering import Steering
from riskcore.demo import make_people
from riskcore.report.readings import removed_column_warnings
from tests.app.helpers import run, seen

QIS = ["age", "education", "sex", "race", "marital_status"]  # the demo's suggested QIs


def levels(at) -> tuple[int, ...]:
    return tuple(at.select_slider(key=f"rc_rem_level_{q}").value for q in QIS)


def expected(steering: Steering, objective: str):
    df = make_people(32_561, seed=0)
    lat = Lattice(
        df,
        {q: default_hierarchy(df[q]) for q in QIS},
        targets=Targets.of(k=11, threshold=1 / 11, max_suppression=0.02),
        steering=steering,
    )
    return search(lat, objective=objective)  # type: ignore[arg-type]


def test_bounds_weights_and_objective_steer_the_search_and_go_into_the_recipe():
    at = run("pages/remediate.py")
    free = expected(Steering(), "ncp")
    assert free.best is not None
    # keep age at its first level at most, education counts double, precision as objective
    age_top = free.best.levels[0]
    bound = max(age_top - 1, 0)
    at.selectbox(key="rc_rem_objective").set_value("precision").run()
    at.select_slider(key="rc_rem_steer_bounds_age").set_value((0, bound)).run()
    at.number_input(key="rc_rem_steer_weight_education").set_value(2.0).run()
    at.button(key="rc_rem_search").click().run()
    assert not at.exception
    steering = Steering.of({"education": 2.0}, {"age": (0, bound)})
    found = expected(steering, "precision")
    assert found.best is not None
    assert levels(at) == found.best.levels and levels(at)[0] <= bound
    # the reading names the objective; every removed-column warning is shown
    text = " ".join(seen(m.value) for m in at.markdown)
    assert "precision" in text.lower()
    shown = [seen(w.value) for w in at.warning if "entirely" in seen(w.value)]
    assert len(shown) == len(removed_column_warnings(found, QIS)) == len(found.removed)
    for column, warning in zip(found.removed, shown, strict=True):
        assert warning.startswith(f"The least-loss release removes {column} entirely")
    # the recipe exported from the page carries the steering and the objective
    at.button(key="rc_rem_use").click().run()
    recipe = at.session_state["rc_remediation"]["recipe"]
    assert recipe["objective"] == "precision"
    assert recipe["steering"] == steering.to_dict()


def test_a_weight_of_zero_everywhere_is_refused_with_a_sentence():
    at = run("pages/remediate.py")
    for q in QIS:
        at.number_input(key=f"rc_rem_steer_weight_{q}").set_value(0.0)
    at.run()
    assert not at.exception
    assert any(
        "at least one quasi-identifier must weigh more than 0" in seen(e.value) for e in at.error
    )
    # the page goes on: the search runs unsteered
    at.button(key="rc_rem_search").click().run()
    assert not at.exception
    free = expected(Steering(), "ncp")
    assert free.best is not None and levels(at) == free.best.levels


def test_levels_picked_outside_the_bounds_leave_the_steering_out_of_the_recipe():
    at = run("pages/remediate.py")
    at.select_slider(key="rc_rem_steer_bounds_age").set_value((0, 1)).run()
    at.button(key="rc_rem_search").click().run()
    top = len(at.select_slider(key="rc_rem_level_age").options) - 1  # options 0..height
    at.select_slider(key="rc_rem_level_age").set_value(top).run()  # by hand, above 1
    at.button(key="rc_rem_use").click().run()
    assert not at.exception
    recipe = at.session_state["rc_remediation"]["recipe"]
    assert recipe["levels"][0] == top > 1
    assert recipe["steering"] is None  # apply would refuse levels outside the bounds
