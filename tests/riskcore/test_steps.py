"""One typed step (issue 40.3): recipe, masking, perturbation and history steps are one Step."""

from __future__ import annotations

import importlib
import json

import numpy as np
import pandas as pd
import pytest

from riskcore._steps import Step
from riskcore.deidentify.hierarchy import flat_hierarchy
from riskcore.deidentify.history.base import AppliedStep, History, steps_of
from riskcore.deidentify.recipe.apply import apply_recipe
from riskcore.deidentify.recipe.base import MaskingStep, Recipe, mask_step, masking_steps
from riskcore.deidentify.recipe.check import read_recipe
from riskcore.deidentify.recipe.seal import seal_of
from riskcore.deidentify.recipe.steps import RecipeStep, recipe_steps
from riskcore.errors import RiskcoreError
from riskcore.perturb import add_noise, microaggregate, pram
from riskcore.perturb.steps import PerturbStep, record_step, step_of

NOISE = {"method": "noise", "columns": ["income"], "params": {"percent": {"income": 20.0}},
         "seed": 11}  # fmt: skip


def _table() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    return pd.DataFrame(
        {
            "ssn": [f"{i:09d}" for i in range(40)],
            "income": rng.normal(40_000, 9_000, 40).round(2),
            "savings": rng.normal(9_000, 2_000, 40).round(2),
            "sex": rng.choice(["F", "M"], 40),
        }
    )


def _recipe() -> Recipe:
    sex = flat_hierarchy(pd.Series(["F", "M"], name="sex"))
    return Recipe(
        ("sex",),
        (0,),
        {"sex": sex.recipe()},
        {"k": 2},
        masking=(mask_step("ssn", "mask_digits"),),
        perturb=(NOISE,),
    )


def _every_step() -> list[Step]:
    recipe = _recipe()
    return [
        *recipe_steps(recipe),
        *masking_steps(recipe),
        *recipe.perturb,
        *steps_of(recipe, at="2026-12-07T00:00:00+00:00"),
        record_step(pram(_table(), "sex", seed=1)),
    ]


def test_recipe_masking_perturbation_and_history_steps_are_one_type():
    recipe = _recipe()
    assert all(isinstance(s, Step) for s in _every_step())
    assert {type(s) for s in _every_step()} == {RecipeStep, MaskingStep, PerturbStep, AppliedStep}
    # a recipe's dicts are read as typed steps, its perturbation steps among them
    (step,) = recipe.perturb
    assert (step.kind, step.operation, step.columns) == ("perturbation", "noise", ("income",))
    assert step.parameters == {"percent": {"income": 20.0}, "seed": 11}
    (mask,) = masking_steps(recipe)
    assert (mask.kind, mask.operation, mask.columns) == ("masking", "mask_digits", ("ssn",))
    assert mask.operator.name == "mask_digits"  # looked up in the registry by its operation
    # the history's step says what it does and to which columns, from its parameters
    history = {s.kind: s for s in steps_of(recipe)}
    assert (history["masking"].operation, history["masking"].columns) == ("mask_digits", ("ssn",))
    assert (history["perturb"].operation, history["perturb"].columns) == ("noise", ("income",))
    assert history["levels"].columns == ("sex",)


def test_every_step_round_trips_through_its_json():
    for step in _every_step():
        back = type(step).from_dict(json.loads(json.dumps(step.to_dict())))
        assert back == step and type(back) is type(step), step
    plain = Step("generalization", "interval", ("age",), {"level": 1})
    assert Step.from_dict(json.loads(json.dumps(plain.to_dict()))) == plain
    # a perturbation step is written as a recipe has always written it
    assert PerturbStep.from_dict(NOISE).to_dict() == NOISE
    with pytest.raises(RiskcoreError, match="kind is 'perturbation', not 'generalization'"):
        PerturbStep.from_dict({**plain.to_dict(), "kind": "generalization"})


def test_an_old_recipe_file_with_dict_steps_reads_keeps_its_seal_and_applies_the_same(tmp_path):
    """A version-4 recipe (``qis``, ``perturb`` as dicts, a deterministic step written with
    no seed) reads, its seal still matches what it writes, and it applies as its steps run
    by the methods themselves."""
    spec = {
        "schema_version": 1,
        "qis": [],
        "levels": [],
        "hierarchies": {},
        "targets": {"k": 1},
        "sensitive": [],
        "suppression": "drop",
        "version": 4,
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
        "perturb": [
            {"method": "microaggregation", "columns": ["income", "savings"],
             "params": {"k": 3, "method": "mdav"}},
            NOISE,
            {"method": "pram", "columns": ["sex"], "params": {"pd": 0.7}, "seed": 5},
        ],
    }  # fmt: skip
    spec["seal"] = seal_of(spec, None)
    path = tmp_path / "old.json"
    path.write_text(json.dumps(spec))
    recipe = read_recipe(json.loads(path.read_text()))  # refused if its content changed
    assert all(isinstance(s, PerturbStep) for s in recipe.perturb)
    assert recipe.to_dict()["perturb"] == spec["perturb"]  # no seed added to the first
    data = _table()
    expected = microaggregate(data, ["income", "savings"], 3).data
    expected = add_noise(expected, {"income": 20.0}, seed=11).data
    expected = pram(expected, "sex", diagonal=0.7, seed=5).data
    pd.testing.assert_frame_equal(apply_recipe(data, recipe).data, expected)
    # code that read a recipe's steps as dicts still does, told to read the typed step
    with pytest.warns(DeprecationWarning, match="read .operation, .columns, .parameters"):
        assert recipe.perturb[1]["seed"] == 11
    with pytest.warns(DeprecationWarning):
        assert [dict(s) for s in recipe.perturb] == spec["perturb"]


def test_the_old_names_still_work_with_a_warning():
    result = pram(_table(), "sex", seed=2)
    with pytest.warns(DeprecationWarning, match=r"step_of\(\) is deprecated; use record_step"):
        assert step_of(result) == record_step(result).to_dict()
    base = importlib.import_module("riskcore.deidentify.history.base")
    with pytest.warns(DeprecationWarning, match="history.Step is deprecated; use AppliedStep"):
        old = base.Step
    assert old is AppliedStep
    step = old("perturb", NOISE, risk=0.5)  # made as it always was
    assert History().apply(step).current == step
    (mask,) = masking_steps(_recipe())
    with pytest.warns(DeprecationWarning, match="MaskingStep.section is deprecated"):
        assert mask.section == "masking"
    with pytest.warns(DeprecationWarning, match="MaskingStep.params is deprecated"):
        assert mask.params == mask.parameters == {"keep_last": 4}
    with pytest.warns(DeprecationWarning, match="unpacking a MaskingStep is deprecated"):
        section, operator, columns, params = mask
    assert (section, operator.name, columns, params) == ("masking", "mask_digits", ("ssn",),
                                                         {"keep_last": 4})  # fmt: skip
    with pytest.warns(DeprecationWarning, match=r"MaskingStep\(section, operator, ...\)"):
        assert MaskingStep("masking", operator, ("ssn",), params) == mask


def test_a_bad_perturbation_step_is_refused_with_a_sentence():
    with pytest.raises(RiskcoreError, match=r"^unknown perturbation method None; known: "):
        PerturbStep.from_dict({"columns": ["a"], "params": {}})
    with pytest.raises(RiskcoreError, match=r"^a perturbation step holds method, columns, "):
        PerturbStep.from_dict({**NOISE, "result": {}})
    with pytest.raises(RiskcoreError, match=r"^the noise step has a seed in its params and "):
        PerturbStep.from_dict({**NOISE, "params": {"percent": {}, "seed": 1}})
    with pytest.raises(RiskcoreError, match=r"^unknown masking operator 'sha256'"):
        MaskingStep("masking", "sha256", ("a",))
    with pytest.raises(RiskcoreError, match=r"^a perturbation step's columns are a list, not 5"):
        PerturbStep.from_dict({**NOISE, "columns": 5})
    with pytest.raises(RiskcoreError, match=r"^a perturb step's columns are a list, not 5"):
        AppliedStep("perturb", {**NOISE, "columns": 5})  # a sentence, not a TypeError
