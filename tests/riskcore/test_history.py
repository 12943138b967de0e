"""A session's history: undo / redo / go back, JSON, the recipe it folds into, and the
shell script that reproduces the table (run for real); keys stay out of all of them."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import default_hierarchy, interval_hierarchy
from riskcore.deidentify.history.base import MAX_STEPS, AppliedStep, History, steps_of
from riskcore.deidentify.history.script import command_script
from riskcore.deidentify.masking import SecretKey
from riskcore.deidentify.recipe.apply import apply_recipe
from riskcore.deidentify.recipe.base import Recipe, mask_step
from riskcore.deidentify.search.steering import Steering
from riskcore.errors import RiskcoreError
from riskcore.io import load_table
from riskcore.io.export import write_table
from riskcore.profile import Profile

ROOT = Path(__file__).resolve().parents[2]
KEY = bytes(range(32))
AT = "2026-11-26T21:00:00+00:00"


def _patients() -> pd.DataFrame:
    n = 12
    return pd.DataFrame(
        {
            "name": [f"Patient {chr(65 + i)} O'Neil" for i in range(n)],
            "ssn": [f"{100 + i // 2:03d}-45-{6789 + i // 2:04d}" for i in range(n)],
            "phone": [f"617-555-{100 + i:04d}" for i in range(n)],
            "admitted": [f"2024-0{1 + i % 9}-1{i % 10}" for i in range(n)],
            "age": [23, 27, 31, 35, 44, 48, 52, 57, 61, 66, 71, 75],
            "sex": ["F", "M"] * 6,
            "dx": ["flu", "asthma", "flu", "gout"] * 3,
        }
    )


def _mask(column: str, operator: str, risk: float | None = None) -> AppliedStep:
    return AppliedStep("masking", mask_step(column, operator), risk=risk, loss=None, at=AT)


def _base() -> Recipe:
    return Recipe.of({}, {}, Targets.of(k=2, max_suppression=0.5), sensitive=("dx",))


def _session() -> tuple[History, dict[str, object]]:
    """Six steps applied, one undone (phone's mask), and what each set (by hand)."""
    data = _patients()
    age = interval_hierarchy(data["age"], [10, 20])
    sex = default_hierarchy(data["sex"])
    targets = Targets.of(k=3, max_suppression=0.5)
    shift = {"person": "ssn", "columns": ["admitted"], "max_days": 30}
    steps = [
        _mask("name", "drop", risk=1.0),
        _mask("ssn", "hmac_tokens", risk=1.0),
        AppliedStep("date_shift", shift, at=AT),
        AppliedStep("hierarchy", {"column": "age", "hierarchy": age.recipe()}, at=AT),
        AppliedStep("hierarchy", {"column": "sex", "hierarchy": sex.recipe()}, at=AT),
        AppliedStep("levels", {"levels": {"age": 1}}, at=AT),
        _mask("name", "redact"),  # replaces name's drop, in its place
        AppliedStep("targets", targets.to_dict(), at=AT),
        AppliedStep(
            "search", {"levels": {"age": 2, "sex": 1}, "objective": "ncp"}, risk=0.25, loss=0.6
        ),
        _mask("phone", "mask_digits"),
    ]
    h = History()
    for s in steps:
        h = h.apply(s)
    expected = {
        "hierarchies": {"age": age, "sex": sex},
        "levels": {"age": 2, "sex": 1},
        "targets": targets,
        "masking": [mask_step("name", "redact"), mask_step("ssn", "hmac_tokens")],
        "date_shift": shift,
    }
    return h.undo(), expected


def test_undo_redo_and_go_to_move_the_cursor_and_apply_drops_the_redo_tail():
    a, b, c, d, e = (_mask(col, "redact") for col in ("name", "ssn", "phone", "dx", "sex"))
    h = History().apply(a).apply(b).apply(c).apply(d)
    assert (h.position, h.can_undo, h.can_redo) == (4, True, False)
    h = h.undo().undo()
    assert h.current_steps() == (a, b) and h.current is b
    assert h.steps == (a, b, c, d) and h.can_redo
    h = h.redo()
    assert h.current_steps() == (a, b, c)
    h = h.apply(e)  # d, undone, is gone for good
    assert h.steps == (a, b, c, e) and h.position == 4 and not h.can_redo
    back = h.go_to(1)  # "go back to here" on entry 0
    assert back.current_steps() == (a,) and back.steps == h.steps
    assert back.go_to(4) == h
    start = h.go_to(0)
    assert start.current_steps() == () and start.current is None and not start.can_undo
    with pytest.raises(RiskcoreError, match=r"^there is no step to undo$"):
        start.undo()
    with pytest.raises(RiskcoreError, match=r"^there is no step to redo$"):
        h.redo()
    with pytest.raises(RiskcoreError, match=r"^there is no step 5: the history holds 4 steps$"):
        h.go_to(5)
    with pytest.raises(RiskcoreError, match="position is 3"):
        History((a, b), 3)


def test_a_history_round_trips_through_json():
    h, _ = _session()
    back = History.from_dict(json.loads(json.dumps(h.to_dict())))
    assert back == h
    assert back.position == 9 and len(back.steps) == 10
    assert back.steps[8].risk == 0.25 and back.steps[8].loss == 0.6 and back.steps[3].risk is None
    assert back.steps[8].at != AT and back.steps[0].at == AT  # the default time is now


def test_to_recipe_is_the_recipe_built_by_hand_for_the_same_steps():
    h, want = _session()
    expected = Recipe.of(
        want["hierarchies"],  # type: ignore[arg-type]
        want["levels"],  # type: ignore[arg-type]
        want["targets"],
        sensitive=("dx",),
        masking=want["masking"],  # type: ignore[arg-type]
        date_shift=want["date_shift"],  # type: ignore[arg-type]
        key=KEY,
        objective="ncp",
    )
    got = h.to_recipe(_base(), key=KEY)
    assert got == expected
    # the undone phone mask is not in it; after redo it is, at the end
    again = h.redo().to_recipe(_base(), key=KEY)
    assert [m.columns for m in again.masking] == [("name",), ("ssn",), ("phone",)]
    with pytest.raises(RiskcoreError, match="needs a key"):
        h.to_recipe(_base())


def test_a_recipe_becomes_a_history_that_folds_back_into_it():
    h, _ = _session()
    steering = Steering({"age": 2.0}, {"sex": (0, 1)})
    recipe = h.apply(AppliedStep("steering", steering.to_dict())).to_recipe(_base(), key=KEY)
    assert recipe.steering == steering.to_dict()
    again = History.of_recipe(recipe).to_recipe(_base(), key=KEY)
    assert again == recipe
    kinds = [s.kind for s in steps_of(recipe)]
    assert kinds == [
        *("date_shift", "masking", "masking", "hierarchy", "hierarchy", "search"),
        *("steering", "targets"),
    ]


def test_a_levels_step_needs_the_hierarchy_first():
    h = History().apply(AppliedStep("levels", {"levels": {"age": 1}}))
    with pytest.raises(RiskcoreError, match=r"^the levels step sets the level of 'age', which"):
        h.to_recipe(_base())


@pytest.mark.parametrize(
    ("kind", "params", "message"),
    [
        ("rename", {}, "^unknown kind of step 'rename'"),
        ("levels", {"levels": {"age": -1}}, "^the levels step's level of 'age' is -1"),
        ("search", {"levels": {"age": 1}, "objective": "x"}, "^a search step's objective is 'x'"),
        ("masking", {"column": "ssn", "operator": "nope"}, "nope"),
        (
            "masking",
            {"column": "ssn", "operator": "mask_digits", "params": {"keep": 3}},
            "takes no parameter 'keep'",
        ),
        ("date_shift", {"person": "p", "columns": ["d"], "max_days": 0}, "'max_days' is 0"),
        ("safe_harbor", {"steps": [{"column": "zip", "action": "zip9"}]}, "action 'zip9'"),
        ("levels", {"levels": {"age": float("nan")}}, "finite numbers$"),
    ],
)
def test_bad_steps_are_refused_with_a_sentence(kind, params, message):
    with pytest.raises(RiskcoreError, match=message):
        AppliedStep(kind, params)


def test_the_history_is_bounded_and_says_so():
    s = _mask("ssn", "redact")
    full = History((s,) * MAX_STEPS, MAX_STEPS)
    with pytest.raises(RiskcoreError, match=f"^the history holds at most {MAX_STEPS} steps: save"):
        full.apply(s)
    assert full.undo().apply(s).position == MAX_STEPS  # below the bound, a step fits
    with pytest.raises(RiskcoreError, match="at most 500 steps, not 501"):
        History((s,) * (MAX_STEPS + 1), 0)


def test_keys_never_enter_a_step_the_history_its_json_or_the_script():
    with pytest.raises(RiskcoreError, match="never holds a key"):
        AppliedStep("masking", {**mask_step("ssn", "hmac_tokens"), "params": {"key": KEY.hex()}})
    with pytest.raises(RiskcoreError, match="is a key: a step never holds a key"):
        AppliedStep("masking", {**mask_step("ssn", "hmac_tokens"), "params": {"k": SecretKey(KEY)}})
    h, _ = _session()
    texts = [
        json.dumps(h.to_dict()),
        json.dumps(h.to_recipe(_base(), key=KEY).to_dict()),
        command_script(h, "p.csv", base=_base(), key=KEY),
    ]
    for text in texts:
        assert KEY.hex() not in text and KEY.hex().upper() not in text


def test_the_script_reproduces_the_table_byte_for_byte(tmp_path):
    h, _ = _session()
    data = tmp_path / "my data's.csv"  # a space and a quote: the script quotes them
    _patients().to_csv(data, index=False)
    key_file = tmp_path / "the key.hex"
    key_file.write_text(KEY.hex() + "\n")
    out = tmp_path / "out put.csv"
    script = command_script(
        h,
        str(data),
        base=_base(),
        key=KEY,
        recipe_name=str(tmp_path / "recipe.json"),
        out_name=str(out),
        key_file=str(key_file),
        command=(sys.executable, "-m", "riskcore"),
        allowed=("phone",),  # its mask undone: the session's table carries it (issue 37)
    )
    assert script.startswith("#!/bin/sh\n") and KEY.hex() not in script
    assert "# Direct identifiers no step masks, written as they are: phone." in script
    (tmp_path / "run.sh").write_text(script)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    sh = shutil.which("sh") or "/bin/sh"
    done = subprocess.run(
        [sh, str(tmp_path / "run.sh")], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    expected = tmp_path / "expected.csv"
    recipe = h.to_recipe(_base(), key=KEY)
    write_table(apply_recipe(load_table(str(data)).data, recipe, key=KEY).data, str(expected))
    assert out.read_bytes() == expected.read_bytes()
    released = pd.read_csv(out, dtype=str)
    assert "617-555-0100" in set(released["phone"])  # the undone mask is not redone
    assert not set(released["ssn"]) & set(_patients()["ssn"])  # the kept ones are


def test_a_new_hierarchy_puts_its_column_back_to_level_0():
    age = {"kind": "interval", "params": {"widths": [10.0, 20.0]}}
    h = History().apply(AppliedStep("hierarchy", {"column": "age", "hierarchy": age}))
    h = h.apply(AppliedStep("levels", {"levels": {"age": 2}}))
    assert h.to_recipe(_base()).levels == (2,)
    coarser = {"kind": "interval", "params": {"widths": [5.0]}}
    got = h.apply(AppliedStep("hierarchy", {"column": "age", "hierarchy": coarser})).to_recipe(
        _base()
    )
    assert got.levels == (0,) and got.hierarchies == {"age": coarser}


_OPS = st.lists(
    st.one_of(
        st.tuples(st.just("apply"), st.integers(0, 4)),
        st.tuples(st.just("undo"), st.just(0)),
        st.tuples(st.just("redo"), st.just(0)),
        st.tuples(st.just("go_to"), st.integers(0, 12)),
    ),
    max_size=25,
)
_STEPS = [_mask(col, "redact") for col in ("a", "b", "c", "d", "e")]


@given(_OPS)
@example([("apply", 0), ("apply", 1), ("apply", 2), ("undo", 0), ("undo", 0), ("redo", 0)])
def test_the_cursor_moves_as_a_plain_list_and_index_model_says(ops):
    """A list and an index, worked by the editor's rules, against the History."""
    h, model, pos = History(), [], 0
    for op, arg in ops:
        if op == "apply":
            model, pos = [*model[:pos], _STEPS[arg]], pos + 1
            h = h.apply(_STEPS[arg])
        elif op == "undo" and pos > 0:
            pos, h = pos - 1, h.undo()
        elif op == "redo" and pos < len(model):
            pos, h = pos + 1, h.redo()
        elif op == "go_to" and arg <= len(model):
            pos, h = arg, h.go_to(arg)
        assert h.steps == tuple(model) and h.position == pos
        assert h.current_steps() == tuple(model[:pos])
        assert (h.can_undo, h.can_redo) == (pos > 0, pos < len(model))


def test_the_script_quotes_names_the_shell_would_expand():
    name = "data $(touch x); `id` *.csv"
    script = command_script(History(), name, base=_base(), out_name="out & more.csv")
    assert shlex.split(script.splitlines()[-1]) == [
        *("riskcore", "apply", name, "--recipe", "recipe.json", "--out", "out & more.csv"),
    ]
    with pytest.raises(RiskcoreError, match="not starting with '-'"):
        command_script(History(), "--out=/etc/passwd", base=_base())


def test_the_profile_keeps_the_history_and_reads_it_back():
    h, _ = _session()
    profile = Profile().with_(history=h)
    back = Profile.read(profile.to_json())
    assert back.history == h and back == profile
    assert "history" not in Profile().to_dict()  # a profile without one is written as before
    assert Profile.read(Profile().to_json()).history is None
    spec = {**profile.to_dict(), "history": {"steps": [], "position": 2}}
    with pytest.raises(RiskcoreError, match="position is 2"):
        Profile.read(spec)
    with pytest.raises(RiskcoreError, match=r"^'history' in the profile must be an object$"):
        Profile.read({**profile.to_dict(), "history": [1]})


def test_perturbation_steps_fold_in_order_and_come_back_from_the_recipe():
    from riskcore.deidentify.history.base import AppliedStep, History, steps_of
    from riskcore.deidentify.recipe.base import Recipe
    from riskcore.report.readings.history import step_words

    noise = {"method": "noise", "columns": ["age"], "params": {"percent": {"age": 150.0}},
             "seed": 1}  # fmt: skip
    pram = {"method": "pram", "columns": ["sex"], "params": {"pd": 0.8}, "seed": 2}
    base = Recipe.from_dict(
        {"qis": [], "levels": [], "hierarchies": {}, "targets": {}, "version": 4}
    )
    h = History().apply(AppliedStep("perturb", noise)).apply(AppliedStep("perturb", pram))
    rec = h.to_recipe(base)
    assert [x.to_dict() for x in rec.perturb] == [noise, pram]  # both, in the order applied
    assert [x.to_dict() for x in h.undo().to_recipe(base).perturb] == [noise]
    back = [s for s in steps_of(rec) if s.kind == "perturb"]
    assert [s.parameters for s in back] == [noise, pram]
    assert step_words(back[0]).startswith("age: ")
    with pytest.raises(RiskcoreError, match="a perturb step's method is 'shuffle'"):
        AppliedStep("perturb", {"method": "shuffle", "columns": ["age"]})


def test_safe_harbor_takes_over_the_hierarchy_of_a_column_it_transforms():
    """Issue 38 item 4: a date hierarchy on birth dates, then the Safe Harbor transforms. The
    transforms run first, so the date hierarchy met "1936 or earlier" and the step failed
    ("'birth_date': '1936 or earlier' is not a date"); now the transform is that column's
    generalization (the flat hierarchy at level 0), and a column it drops leaves the QIs."""
    from riskcore.deidentify.safe_harbor import safe_harbor_plan

    df = pd.DataFrame(
        {
            "birth_date": ["1930-02-03", "1975-07-08", "1975-09-10", "1930-05-06"] * 3,
            "mrn": [f"MRN{i:05d}" for i in range(12)],
            "sex": ["F", "M"] * 6,
            "dx": ["flu", "gout", "flu"] * 4,
        }
    )
    dates = {"kind": "date", "params": {"levels": ["month", "year", "decade"]}}
    h = History().apply(AppliedStep("hierarchy", {"column": "birth_date", "hierarchy": dates}))
    h = h.apply(
        AppliedStep("hierarchy", {"column": "mrn", "hierarchy": {"kind": "flat", "params": {}}})
    )
    h = h.apply(AppliedStep("levels", {"levels": {"birth_date": 2, "mrn": 0}}))
    plan = safe_harbor_plan(df, as_of=2026)
    assert {s["column"]: s["action"] for s in plan} == {"birth_date": "date_year", "mrn": "dropped"}
    rec = h.apply(AppliedStep("safe_harbor", {"steps": plan})).to_recipe(_base())
    assert rec.hierarchies == {"birth_date": {"kind": "flat", "params": {}}}
    assert rec.levels == (0,)
    out = apply_recipe(df, rec).data
    assert sorted(set(out["birth_date"])) == ["1936 or earlier", "1975"]
    assert "mrn" not in out.columns
    # undone, the date hierarchy and its level come back
    assert h.to_recipe(_base()).hierarchies["birth_date"] == dates
