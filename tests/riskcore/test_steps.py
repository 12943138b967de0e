"""One typed step (issue 40.3): recipe, masking, perturbation and history steps are one Step."""

from __future__ import annotations

import importlib
import json

import numpy as np
import pandas as pd
import pytest

from riskcore._steps import Step
from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import flat_hierarchy
from riskcore.deidentify.history.base import AppliedStep, History, steps_of
from riskcore.deidentify.masking import mask_digits, shift_dates
from riskcore.deidentify.recipe.apply import apply_recipe
from riskcore.deidentify.recipe.base import (
    MaskingStep,
    Recipe,
    key_check,
    mask_step,
    masking_steps,
)
from riskcore.deidentify.recipe.check import read_recipe
from riskcore.deidentify.recipe.seal import seal_of
from riskcore.deidentify.recipe.steps import RecipeStep, recipe_steps
from riskcore.deidentify.safe_harbor import (
    SafeHarborStep,
    TransformStep,
    dates_to_year,
    run_safe_harbor,
    zip_to_zip3,
)
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


# --- a recipe's Safe Harbor, date shift and masking steps are typed too ---------------------

KEY = b"a recipe key of thirty-two bytes"


def _identified() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "name": ["Ann Lee", "Bo Chan", "Cy Diaz", "Di Eng", "Ed Fox", "Flo Gray"],
            "ssn": ["123-45-6789", "234-56-7890", "345-67-8901", "123-45-6789", "456-78-9012",
                    "567-89-0123"],
            "zip": ["02139", "10001", "02139", "94110", "60614", "03601"],
            "dob": pd.to_datetime(["1931-02-03", "1960-07-08", "1985-11-12", "1931-02-03",
                                   "1972-04-05", "1999-09-09"]),
            "admitted": pd.to_datetime(["2026-01-05", "2026-02-10", "2026-03-15", "2026-04-20",
                                        "2026-05-25", "2026-06-30"]),
        }
    )  # fmt: skip


#: A recipe's steps as a version 7 or 8 recipe file writes them (spelled here by hand).
SAFE_HARBOR = [
    {"column": "name", "action": "dropped", "why": "a name"},
    {"column": "zip", "action": "zip3"},
    {"column": "dob", "action": "date_year", "birth": True, "as_of": 2026},
]
DATE_SHIFT = {"person": "ssn", "columns": ["admitted"], "max_days": 180}
MASKING = [{"column": "ssn", "operator": "mask_digits", "params": {"keep_last": 4}}]


#: The profile's fields of a recipe judged under the defaults, as a file writes them.
NO_PROFILE = {"missing": "own", "distances": {}, "orders": {}, "sampling_fraction": None,
              "weights": None, "steering": None, "objective": None}  # fmt: skip


def _old_file(version: int) -> dict:
    """A version 7 (``qis``) or 8 (``quasi_identifiers``) recipe with a Safe Harbor, a date
    shift and a masking step, as riskcore wrote it before its steps were typed."""
    spec = {
        "schema_version": 1,
        "qis" if version <= 7 else "quasi_identifiers": [],
        "levels": [],
        "hierarchies": {},
        "targets": {"k": 1},
        "sensitive": [],
        "suppression": "drop",
        "version": version,
        "safe_harbor": SAFE_HARBOR,
        "date_shift": DATE_SHIFT,
        "masking": MASKING,
        "key_check": key_check(KEY),
        **NO_PROFILE,
        "identifiers": ["ssn", "name"],
    }
    spec["seal"] = seal_of(spec, KEY)
    return spec


def _fields_are_steps(recipe: Recipe) -> None:
    steps = [*recipe.safe_harbor, recipe.date_shift, *recipe.masking, *recipe.perturb]
    assert steps and all(isinstance(s, Step) for s in steps), steps
    assert {type(s) for s in recipe.safe_harbor} == {SafeHarborStep}
    assert {type(s) for s in [recipe.date_shift, *recipe.masking]} == {MaskingStep}


def test_every_step_field_of_a_recipe_holds_typed_steps():
    given = {"safe_harbor": SAFE_HARBOR, "date_shift": DATE_SHIFT, "masking": MASKING,
             "perturb": [NOISE]}  # fmt: skip
    made = Recipe((), (), {}, {"k": 1}, **given)  # dicts given, as a caller always gave them
    of = Recipe.of({}, {}, Targets.of(k=1), key=KEY, **given)
    for recipe in (made, of, Recipe.from_dict(json.loads(json.dumps(of.to_dict())))):
        _fields_are_steps(recipe)
    (shift,) = masking_steps(made)[:1]
    assert (shift.kind, shift.operation, shift.columns) == ("date_shift", "shift_dates",
                                                           ("admitted",))  # fmt: skip
    assert shift.parameters == {"person": "ssn", "max_days": 180}
    dob = made.safe_harbor[2]
    assert (dob.kind, dob.column, dob.action, dob.columns) == ("safe_harbor", "dob", "date_year",
                                                               ("dob",))  # fmt: skip
    assert dob.parameters == {"birth": True, "as_of": 2026}
    # each is written as the recipe wrote its dict
    out = made.to_dict()
    assert (out["safe_harbor"], out["date_shift"], out["masking"]) == (SAFE_HARBOR, DATE_SHIFT,
                                                                       MASKING)  # fmt: skip


@pytest.mark.parametrize("version", [7, 8])
def test_an_old_recipe_with_safe_harbor_date_shift_and_masking_reads_and_writes_the_same(
    version, tmp_path
):
    spec = _old_file(version)
    path = tmp_path / "old.json"
    path.write_text(json.dumps(spec, indent=2))
    recipe = read_recipe(json.loads(path.read_text()), KEY)  # refused if its seal broke
    _fields_are_steps(recipe)
    assert json.dumps(recipe.to_dict(), indent=2) == path.read_text()  # byte for byte
    assert seal_of(json.loads(json.dumps(recipe.to_dict())), KEY) == spec["seal"]
    # it applies as its steps run by the transforms and operators themselves
    data = _identified()
    expected = data.drop(columns=["name"])
    expected["zip"] = zip_to_zip3(data["zip"])[0]
    expected["dob"] = dates_to_year(data["dob"], birth=True, as_of=2026)[0]
    expected = shift_dates(expected, person="ssn", columns=["admitted"], max_days=180, key=KEY)
    expected["ssn"] = mask_digits(expected["ssn"], keep_last=4)
    pd.testing.assert_frame_equal(apply_recipe(data, recipe, key=KEY).data, expected)
    # and its words are those of its steps
    check = key_check(KEY)
    assert [s.words for s in recipe_steps(recipe)] == [
        "name: column dropped (Safe Harbor)",
        "zip: first 3 digits kept, 000 for areas of 20,000 people or fewer (Safe Harbor)",
        'dob: year kept, birth years up to 1936 grouped as "1936 or earlier" (Safe Harbor)',
        "admitted: shifted by one keyed random number of days per ssn, at most 180 days either "
        f"way, key check {check}",
        "ssn: last 4 digits kept",
        f"the key is not recorded; its check value is {check}",
    ]


def test_a_recipe_step_read_as_a_dict_still_reads_with_a_warning():
    recipe = Recipe((), (), {}, {"k": 1}, safe_harbor=SAFE_HARBOR, date_shift=DATE_SHIFT,
                    masking=MASKING)  # fmt: skip
    with pytest.warns(DeprecationWarning, match="reading a masking step as a dict"):
        assert recipe.masking[0]["column"] == "ssn"
    with pytest.warns(DeprecationWarning, match=r"it is a SafeHarborStep; read .operation"):
        assert recipe.safe_harbor[2].get("as_of") == 2026
    with pytest.warns(DeprecationWarning):
        assert [dict(s) for s in recipe.safe_harbor] == SAFE_HARBOR
    with pytest.warns(DeprecationWarning):
        assert "max_days" in recipe.date_shift and dict(recipe.date_shift) == DATE_SHIFT


def test_a_bad_recipe_step_is_refused_with_a_sentence():
    with pytest.raises(RiskcoreError, match=r"^a recipe's step holds column, operator, params"):
        Recipe((), (), {}, {"k": 1}, masking=({**MASKING[0], "seed": 1},))
    with pytest.raises(RiskcoreError, match=r"^a recipe's masking holds a masking step, not a"):
        Recipe((), (), {}, {"k": 1}, masking=(DATE_SHIFT,))
    with pytest.raises(RiskcoreError, match=r"^a Safe Harbor step names its column and action"):
        Recipe((), (), {}, {"k": 1}, safe_harbor=({"column": "zip"},))
    with pytest.raises(RiskcoreError, match=r"^a recipe's step holds person, columns, max_days"):
        Recipe((), (), {}, {"k": 1}, date_shift={**DATE_SHIFT, "seed": 3})
    # a typed step the recipe's JSON could not hold is refused as it is made
    with pytest.raises(RiskcoreError, match=r"^a masking step masks one column, not "):
        MaskingStep("masking", "drop", ("ssn", "mrn"))
    with pytest.raises(RiskcoreError, match=r"^the date shift's operation is 'shift_dates', not"):
        MaskingStep("date_shift", "drop", ("admitted",), {"person": "ssn", "max_days": 9})
    with pytest.raises(RiskcoreError, match=r"^a date shift's parameters are its person and "):
        MaskingStep("date_shift", "shift_dates", ("admitted",), {"person": "ssn"})
    with pytest.raises(RiskcoreError, match=r"^a Safe Harbor step transforms one column, not"):
        SafeHarborStep("safe_harbor", "zip3", ())


def test_what_a_safe_harbor_run_did_is_a_step_written_as_before():
    done = run_safe_harbor(_identified(), SAFE_HARBOR).steps
    assert all(isinstance(s, Step) and isinstance(s, TransformStep) for s in done)
    assert [(s.kind, s.operation, s.columns) for s in done] == [
        ("safe_harbor", "dropped", ("name",)),
        ("safe_harbor", "zip3", ("zip",)),
        ("safe_harbor", "date_year", ("dob",)),
    ]
    step = TransformStep("name", "dropped", 6, "Dropped: a name.")  # made as it always was
    assert done[0] == step and (step.column, step.action, step.n_changed) == ("name", "dropped", 6)
    written = {"schema_version": 1, "column": "name", "action": "dropped", "n_changed": 6,
               "note": "Dropped: a name."}  # fmt: skip
    assert step.to_dict() == written and TransformStep.from_dict(written) == step
    # what a run did, given to a recipe, is the step alone (not its counts)
    recipe = Recipe((), (), {}, {"k": 1}, safe_harbor=done[:2])
    assert recipe.to_dict()["safe_harbor"] == [{"column": "name", "action": "dropped"},
                                               {"column": "zip", "action": "zip3"}]  # fmt: skip


def test_a_perturbation_step_reads_as_the_whole_dict_it_was_with_a_warning():
    """Every reading of a dict a recipe's perturbation step was (review of issue 40)."""
    step = PerturbStep.from_dict(NOISE)
    with pytest.warns(DeprecationWarning, match="reading a perturbation step as a dict"):
        assert list(step) == list(NOISE)  # for key in step (it was a KeyError: 0)
    with pytest.warns(DeprecationWarning, match=r"\(items\(\)\)"):
        assert dict(step.items()) == NOISE
    with pytest.warns(DeprecationWarning, match=r"\(values\(\)\)"):
        assert step.values() == list(NOISE.values())
    with pytest.warns(DeprecationWarning, match=r"\(len\(\)\)"):
        assert len(step) == len(NOISE)


def test_a_masking_step_indexes_as_the_tuple_it_was_with_a_warning():
    mask = masking_steps(Recipe((), (), {}, {"k": 1}, masking=MASKING))[0]
    with pytest.warns(DeprecationWarning, match="indexing a MaskingStep is deprecated"):
        assert mask[0] == "masking" and mask[1].name == "mask_digits"
    with pytest.warns(DeprecationWarning, match="reading a masking step as a dict"):
        assert mask["column"] == "ssn"  # a recipe's masking entry was a dict


@pytest.mark.parametrize(
    "line",
    [
        "from riskcore.deidentify.history import Step",
        "from riskcore.deidentify.masking.registry import get_operator; "
        "from riskcore.deidentify.recipe.base import MaskingStep; "
        "MaskingStep('masking', get_operator('mask_digits'), ('ssn',), {})",
    ],
)
def test_an_old_step_name_warns_at_the_caller_s_line_under_the_default_filters(tmp_path, line):
    """Python shows a DeprecationWarning by default only when it names the script's own
    line: the history's old ``Step`` and the masking step built as its tuple do so."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = tmp_path / "old_script.py"
    script.write_text(line + "\n", encoding="utf-8")
    root = str(Path(__file__).resolve().parents[2])  # this checkout's riskcore
    env = {**os.environ, "PYTHONPATH": root, "PYTHONWARNINGS": ""}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert f"{script}:1: DeprecationWarning" in done.stderr
