"""One vocabulary (issue 40, item 3): ``quasi_identifiers`` in every result and JSON.

The JSON below is written by hand in the shape riskcore wrote before the rename (``qis``,
recipe version 7, result schema version 1), never from the new code's output: files saved
before the change must still load, and old recipes keep their seals.
"""

from __future__ import annotations

import json
import math
import warnings

import pandas as pd
import pytest

from riskcore.deidentify.recipe import Recipe, apply_recipe
from riskcore.deidentify.recipe.check import read_recipe
from riskcore.deidentify.recipe.seal import canonical, seal_of
from riskcore.deidentify.search.candidates import CandidateTable, Comparison
from riskcore.deidentify.search.run import SearchResult
from riskcore.errors import RiskcoreError
from riskcore.report.compare import normalized

AGE = {"kind": "interval", "params": {"widths": [10.0], "start": 0.0, "bottom": None, "top": 90}}
TARGETS = {
    "schema_version": 1,
    "criteria": [{"kind": "k-anonymity", "k": 2}],
    "max_suppression": 0.0,
}


def _old_recipe() -> dict:
    """A version 7 recipe as riskcore wrote it before the rename, sealed over that content."""
    spec = {
        "schema_version": 1,
        "qis": ["age"],
        "levels": [1],
        "hierarchies": {"age": AGE},
        "targets": TARGETS,
        "sensitive": [],
        "suppression": "drop",
        "version": 7,
        "safe_harbor": [],
        "date_shift": None,
        "masking": [],
        "key_check": None,
        "missing": "own",
        "distances": {},
        "orders": {},
        "sampling_fraction": None,
        "weights": None,
        "steering": None,
        "objective": None,
        "identifiers": [],
    }
    return {**spec, "seal": seal_of(spec, None)}


def test_a_recipe_written_before_the_rename_reads_and_keeps_its_seal():
    old = json.loads(json.dumps(_old_recipe()))  # as read back from its file
    rec = read_recipe(old)  # refused if the seal no longer matched
    assert rec.quasi_identifiers == ("age",) and rec.levels == (1,) and rec.version == 7
    again = rec.to_dict()
    assert "qis" in again and "quasi_identifiers" not in again
    assert canonical(again) == canonical(old) and again["seal"] == old["seal"]


def test_an_old_recipe_applies_as_the_same_recipe_written_today():
    data = pd.DataFrame({"age": [31, 35, 44, 47, 52], "sex": list("FMFMF")})
    renamed = {k: v for k, v in _old_recipe().items() if k not in ("qis", "seal")}
    new = Recipe.from_dict({**renamed, "quasi_identifiers": ["age"], "version": 8})
    before = apply_recipe(data, _old_recipe()).data
    pd.testing.assert_frame_equal(before, apply_recipe(data, new).data)
    assert before["age"].tolist() != data["age"].tolist()  # generalized, not passed through


def test_an_edited_old_recipe_is_still_refused():
    old = _old_recipe()
    old["levels"] = [0]
    with pytest.raises(RiskcoreError, match="seal does not match"):
        read_recipe(old)


def test_a_new_recipe_says_quasi_identifiers_and_version_8():
    rec = Recipe.from_dict({k: v for k, v in _old_recipe().items() if k != "seal"} | {"version": 8})
    out = rec.to_dict()
    assert out["quasi_identifiers"] == ["age"] and "qis" not in out and out["version"] == 8


def test_the_old_attribute_still_reads_with_a_warning():
    rec = read_recipe(_old_recipe())
    with pytest.warns(
        DeprecationWarning, match=r"Recipe\.qis is deprecated; use Recipe\.quasi_identifiers"
    ):
        assert rec.qis == ("age",)
    with pytest.raises(AttributeError):
        rec.qis = ("sex",)  # read-only
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert rec.quasi_identifiers == ("age",)


def _old_candidate(levels: list[int]) -> dict:
    return {
        "schema_version": 1,
        "levels": levels,
        "words": ["10-year bands"],
        "losses": {"ncp": 0.25},
        "suppressed": 0,
        "classes": 3,
        "smallest_class": 2,
        "average_risk": 0.5,
        "achieved": {},
        "records_at_risk": None,
        "best": False,
    }


def test_search_results_saved_before_the_rename_still_read():
    table = CandidateTable.from_dict(
        {
            "schema_version": 1,
            "qis": ["age", "zip"],
            "objective": "ncp",
            "threshold": 0.2,
            "evaluated": 4,
            "anonymous": 2,
            "matching": 2,
            "front_only": False,
            "limit": 50,
            "filters": {"age": [1, 2]},
            "rows": [_old_candidate([1, 0])],
        }
    )
    assert table.quasi_identifiers == ("age", "zip") and table.rows[0].levels == (1, 0)
    assert table.to_dict()["schema_version"] == 2 and "qis" not in table.to_dict()
    cmp = Comparison.from_dict(
        {
            "schema_version": 1,
            "qis": ["age"],
            "a": _old_candidate([1]),
            "b": _old_candidate([2]),
            "column_ncp_a": {"age": 0.25},
            "column_ncp_b": {"age": 0.5},
        }
    )
    assert cmp.quasi_identifiers == ("age",) and cmp.b.levels == (2,)
    found = SearchResult.from_dict(
        {
            "schema_version": 1,
            "qis": ["age"],
            "heights": [3],
            "targets": TARGETS,
            "objective": "ncp",
            "best": None,
            "lattice_size": 4,
            "seconds": None,
            "needed": 4,
        }
    )
    assert found.quasi_identifiers == ("age",) and found.lattice_size == 4
    assert math.isnan(found.seconds)


def test_a_newer_schema_than_known_is_still_refused():
    with pytest.raises(ValueError, match="schema version 3"):
        Comparison.from_dict({"schema_version": 3, "quasi_identifiers": []})


def test_a_saved_report_with_an_old_recipe_compares_by_its_levels():
    saved = {
        "schema": "riskcore-report/2",
        "remediation": {"recipe": {"qis": ["age", "zip"], "levels": [2, 1]}, "suppressed": 0},
    }
    assert normalized(saved)["remediation"]["levels"] == {"age": 2, "zip": 1}


def test_a_review_saved_before_the_rename_words_its_suda_limits():
    from riskcore.report.readings.review import limitation_text
    from riskcore.review.results import Limitation

    old = {"kind": "suda-skipped", "facts": {"qis": 60, "limit": 50}}
    capped = {"kind": "suda-capped", "facts": {"qis": 20, "max_size": 3, "limit": 10_000}}
    assert "the profile has 60 quasi-identifiers" in limitation_text(Limitation.from_dict(old))
    assert "of the 20 quasi-identifiers only" in limitation_text(Limitation.from_dict(capped))


def test_dp_says_sensitivity_and_still_takes_sens_with_a_warning():
    from riskcore.dp import sensitivity
    from riskcore.dp.accuracy import epsilon_for_accuracy, noise_scale

    count = sensitivity("count")
    with pytest.warns(DeprecationWarning, match="'sens' is deprecated; use 'sensitivity'"):
        old = noise_scale("laplace", sens=count, epsilon=0.5)
    assert old == noise_scale("laplace", sensitivity=count, epsilon=0.5) == 2.0  # 1 / 0.5
    with pytest.warns(DeprecationWarning, match="epsilon_for_accuracy"):
        assert epsilon_for_accuracy(10, sens=count) == epsilon_for_accuracy(10, count)


def test_no_public_function_of_dp_or_the_readings_names_a_parameter_sens():
    """Sensitivity is never abbreviated: every public function of riskcore.dp and
    riskcore.report.readings takes ``sensitivity`` (``sens`` still read, with a warning)."""
    import inspect

    from riskcore import dp
    from riskcore.report import readings
    from riskcore.report.readings import sensitivity_reading

    found = []
    for package in (dp, readings):
        for name in package.__all__:
            f = getattr(package, name)
            if callable(f) and not inspect.isclass(f):
                if "sens" in inspect.signature(f).parameters:
                    found.append(f"{package.__name__}.{name}")
    assert not found, found
    count = dp.sensitivity("count")
    with pytest.warns(DeprecationWarning, match="'sens' is deprecated; use 'sensitivity'"):
        assert sensitivity_reading(sens=count) == sensitivity_reading(count)


# --- perturbation methods in one registry (riskcore.perturb.steps.METHODS) ---------------

#: One step per registered method, as a user would ask for it (a new method needs one here).
ASKED = {
    "microaggregation": {"columns": ["age", "income"], "params": {"k": 3, "method": "mdav"}},
    "noise": {"columns": ["income"], "params": {"percent": {"income": 20.0}}, "seed": 11},
    "pram": {"columns": ["sex"], "params": {"pd": 0.7}, "seed": 5},
    "local_suppression": {"columns": ["sex", "zip", "age"], "params": {"k": 2}},
}


def _table() -> pd.DataFrame:
    import numpy as np

    rng = np.random.default_rng(3)
    return pd.DataFrame(
        {
            "age": rng.integers(20, 80, 60),
            "income": rng.normal(40_000, 9_000, 60).round(2),
            "sex": rng.choice(["F", "M", "X"], 60),
            "zip": rng.choice(["02139", "02140", "02141", "02142"], 60),
        }
    )


def test_every_registered_method_replays_byte_for_byte():
    from riskcore.io.export import to_csv_bytes
    from riskcore.perturb.steps import METHODS, record_step, run_step

    assert set(ASKED) == set(METHODS)  # a method added to the registry needs a case here
    data = _table()
    for name, asked in ASKED.items():
        first = run_step(data, {"method": name, **asked})
        assert isinstance(first, METHODS[name].outcome)
        recorded = json.loads(json.dumps(record_step(first).to_dict()))  # as a recipe file holds it
        assert recorded["method"] == name and (recorded["seed"] is not None) == METHODS[name].seeded
        again = run_step(data, recorded)
        assert to_csv_bytes(again.data) == to_csv_bytes(first.data), name
        assert not first.data.equals(data), name  # it did change something
        assert METHODS[name].describe(recorded["columns"], recorded["params"], recorded["seed"])


def test_a_method_missing_from_the_registry_is_refused_everywhere():
    from riskcore.deidentify.history.base import AppliedStep
    from riskcore.deidentify.recipe.steps import recipe_steps
    from riskcore.perturb.steps import run_step

    swap = {"method": "swap", "columns": ["sex"], "params": {}, "seed": 1}
    with pytest.raises(RiskcoreError, match="unknown perturbation method 'swap'; known: "):
        run_step(_table(), swap)
    old = {k: v for k, v in _old_recipe().items() if k != "seal"}
    with pytest.raises(RiskcoreError, match="unknown perturbation method 'swap'"):
        recipe_steps({**old, "perturb": [swap]})
    with pytest.raises(RiskcoreError, match="unknown perturbation method 'swap'"):
        apply_recipe(_table(), {**old, "perturb": [swap]})
    with pytest.raises(RiskcoreError, match="a perturb step's method is 'swap'"):
        AppliedStep("perturb", swap)


def test_a_step_without_a_parameter_it_needs_is_refused_before_it_runs():
    from riskcore.perturb.steps import run_step

    with pytest.raises(RiskcoreError, match="the pram step lacks 'seed'"):
        run_step(_table(), {"method": "pram", "columns": ["sex"], "params": {"pd": 0.7}})
    with pytest.raises(RiskcoreError, match="the local_suppression step lacks 'k'"):
        run_step(_table(), {"method": "local_suppression", "columns": ["sex"], "params": {}})


def test_the_report_names_every_registered_method():
    from riskcore.perturb.steps import METHODS
    from riskcore.report.readings.perturb import METHOD_NOTES
    from riskcore.report.readings.review import perturbed_limitation

    assert set(METHOD_NOTES) == set(METHODS)
    for name, method in METHODS.items():
        assert method.changed in perturbed_limitation([{"method": name, "columns": ["c"]}])


def test_a_population_table_is_named_so_and_the_old_keyword_still_works():
    from riskcore.metrics.presence import population_match

    released = pd.DataFrame({"zip": ["a", "a", "b"]})
    table = pd.DataFrame({"zip": ["a", "a", "a", "b", "b"]})
    new = population_match(released, population_table=table, quasi_identifiers=["zip"])
    with pytest.warns(
        DeprecationWarning, match="'population' is deprecated; use 'population_table'"
    ):
        old = population_match(released, population=table, quasi_identifiers=["zip"])
    assert (old.k_map, old.n_population) == (new.k_map, new.n_population) == (2, 5)
