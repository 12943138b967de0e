"""The masking registry: a common test over every operator (in the manner of scikit-learn's
``test_common.py``), each operator's words, parameter checks, and the consumers that read it.

Adding an operator to :data:`OPERATORS` without an example here fails
``test_every_operator_has_an_example``; one without words (or with empty or
machine-like words) fails :func:`check_operator`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac

import pandas as pd
import pytest

from riskcore.deidentify.masking import (
    MENU,
    OPERATORS,
    SURROGATE_KINDS,
    MaskOperator,
    SecretKey,
    choice_label,
    get_operator,
    make_step,
    parse_choice,
    registry,
    spelled_operators,
    step_words,
)
from riskcore.deidentify.recipe.apply import apply_recipe
from riskcore.deidentify.recipe.base import DATE_SHIFT, Recipe, key_check
from riskcore.deidentify.recipe.steps import recipe_steps
from riskcore.errors import RiskcoreError

KEY = bytes(range(64))  # 64 bytes: HMAC and AES-256-SIV alike

#: A table with missing values, a non-range index and two visits of one person.
SAMPLE = pd.DataFrame(
    {
        "col": ["123-45-6789", None, "Ada Lovelace", "123-45-6789", "00012"],
        "person": ["p1", "p2", None, "p1", "p3"],
        "date": ["2020-01-01", "2020-02-03", None, "2020-03-04", "2021-05-06"],
        "other": [1, 2, 3, 4, 5],
    },
    index=[10, 13, 16, 19, 22],
)

#: Per operator: the parameters of one configured step, and the columns it masks in SAMPLE.
EXAMPLES: dict[str, tuple[dict, list[str]]] = {
    "drop": ({}, ["col"]),
    "redact": ({}, ["col"]),
    "redact_found": ({"found": "removed"}, ["col"]),
    "mask_digits": ({"keep_last": 2}, ["col"]),
    "keep_initials": ({}, ["col"]),
    "substitute": ({}, ["col"]),
    "hmac_tokens": ({"length": 20}, ["col"]),
    "reversible_tokens": ({}, ["col"]),
    "surrogates": ({"kind": "name", "seed": 3}, ["col"]),
    "shift_dates": ({"person": "person", "max_days": 30}, ["date"]),
}


def _recipe(op: MaskOperator, params: dict, columns: list[str]) -> Recipe:
    """The recipe of one step of ``op``: the date shift has its own field in a recipe."""
    if op is DATE_SHIFT:
        shift = {"person": params["person"], "columns": columns, "max_days": params["max_days"]}
        return Recipe((), (), {}, {"k": 1}, date_shift=shift, key_check=key_check(KEY))
    steps = tuple({"column": c, "operator": op.name, "params": params} for c in columns)
    check = key_check(KEY) if op.needs_key else None
    return Recipe((), (), {}, {"k": 1}, masking=steps, key_check=check)


def check_operator(op: MaskOperator) -> None:
    """Fail (AssertionError) when one registered operator misses something every operator has."""
    assert op.name in EXAMPLES, f"{op.name}: no example in EXAMPLES"
    params, columns = EXAMPLES[op.name]
    # who it is: a label for a menu, one line on its strength and weakness
    assert op.label and not op.label.endswith("."), op.name
    assert op.note.endswith(".") and 40 < len(op.note) < 250, op.name
    # its words: derived from its parameters, for people (no machine name, no template left)
    assert callable(op.describe), f"{op.name}: no describer"
    words = op.words(params)
    assert isinstance(words, str) and words.strip(), f"{op.name}: no words"
    assert words != op.name and not any(t in words for t in ("_", "{", "None", "\n")), words
    assert op.words(params) == words  # a pure function of the parameters
    # its parameters: defaults filled in, unknown ones refused, each checked
    full = op.configure(params)
    assert list(full) == [p.name for p in op.params]
    with pytest.raises(RiskcoreError, match="takes no parameter 'no_such'"):
        op.configure({**params, "no_such": 1})
    # it runs on a table with missing values and a non-range index, under the key if keyed
    if op.needs_key:
        with pytest.raises(RiskcoreError, match="needs the key"):
            op.run(SAMPLE, columns, params)
    done = op.run(SAMPLE, columns, params, KEY if op.needs_key else None)
    assert done.data.index.equals(SAMPLE.index)
    untouched = [c for c in SAMPLE.columns if c not in columns]
    pd.testing.assert_frame_equal(done.data[untouched], SAMPLE[untouched])
    for c in columns:
        if c in done.data:  # missing stays missing
            assert done.data[c].isna().equals(SAMPLE[c].isna()), op.name
    assert SAMPLE["col"].iloc[0] == "123-45-6789"  # the input is never changed
    # the recipe re-applies it identically, and lists it in the operator's words
    rec = _recipe(op, params, columns)
    again = apply_recipe(SAMPLE, Recipe.from_dict(rec.to_dict()), key=KEY)
    pd.testing.assert_frame_equal(again.data, done.data)
    effects = [s.effect for s in recipe_steps(rec) if s.column in columns]
    assert len(effects) == len(columns) and all(e.startswith(words) for e in effects)


@pytest.mark.parametrize("name", list(OPERATORS))
def test_every_operator_meets_the_common_checks(name):
    check_operator(OPERATORS[name])


def test_every_operator_has_an_example():
    assert set(EXAMPLES) == set(OPERATORS)


def test_an_operator_without_words_fails_the_common_checks(monkeypatch):
    base = OPERATORS["redact"]
    for bad in (
        dataclasses.replace(base, describe=None),  # no describer
        dataclasses.replace(base, describe=lambda p: ""),  # empty words
        dataclasses.replace(base, describe=lambda p: "redact"),  # the machine name
        dataclasses.replace(base, describe=lambda p: str(dict(p))),  # data, not words
    ):
        monkeypatch.setattr(registry, "OPERATORS", {**OPERATORS, "redact": bad})
        with pytest.raises((AssertionError, TypeError)):
            for op in registry.OPERATORS.values():
                check_operator(op)
    # an operator registered without an example fails too
    new = dataclasses.replace(base, name="scramble")
    monkeypatch.setattr(registry, "OPERATORS", {**OPERATORS, "scramble": new})
    with pytest.raises(AssertionError, match="scramble: no example"):
        for op in registry.OPERATORS.values():
            check_operator(op)


# ------------------------------------------------------------------ words, by hand


@pytest.mark.parametrize(
    ("name", "params", "words"),
    [
        ("drop", {}, "column dropped"),
        ("redact", {}, "redacted"),
        ("redact", {"text": "gone"}, "redacted (every value 'gone')"),
        ("mask_digits", {}, "last 4 digits kept"),
        ("mask_digits", {"keep_last": 1}, "last digit kept"),
        ("mask_digits", {"keep_last": 0}, "every digit masked"),
        ("keep_initials", {}, "initials kept"),
        ("substitute", {}, "a number per distinct value (Person 00001, ...)"),
        ("substitute", {"prefix": "P", "width": 2}, "a number per distinct value (P 01, ...)"),
        ("hmac_tokens", {}, "keyed HMAC-SHA256 token (16 hex characters, 64 bits)"),
        (
            "hmac_tokens",
            {"length": 10, "encoding": "base32"},
            "keyed HMAC-SHA256 token (10 base32 characters, 50 bits)",
        ),
        ("reversible_tokens", {}, "reversible AES-SIV token (the key holder can decrypt it)"),
        ("surrogates", {"kind": "name"}, "surrogate names (Faker)"),
        ("surrogates", {"kind": "ssn", "locale": "de_DE"}, "surrogate SSNs (Faker, de_DE)"),
        (
            "shift_dates",
            {"person": "mrn"},
            "shifted by one keyed random number of days per mrn, at most 180 days either way",
        ),
        (
            "shift_dates",
            {"person": "mrn", "max_days": 1},
            "shifted by one keyed random number of days per mrn, at most 1 day either way",
        ),
    ],
)
def test_each_operator_says_what_it_does(name, params, words):
    assert OPERATORS[name].words(params) == words
    if name != "shift_dates":
        assert step_words({"column": "c", "operator": name, "params": params}) == words


# ------------------------------------------------------------------ parameters and choices


def test_parameters_are_checked_with_a_sentence():
    with pytest.raises(
        RiskcoreError,
        match=r"^the masking operator 'mask_digits': keep_last must be an integer >= 0, got -1$",
    ):
        OPERATORS["mask_digits"].configure({"keep_last": -1})
    with pytest.raises(RiskcoreError, match=r"length must be from 1 to 64 for hex, got 99$"):
        OPERATORS["hmac_tokens"].configure({"length": 99})
    with pytest.raises(RiskcoreError, match=r"encoding must be one of 'hex', 'base32'"):
        OPERATORS["hmac_tokens"].configure({"encoding": "b64"})
    with pytest.raises(RiskcoreError, match=r"^the masking operator 'shift_dates' needs 'person'$"):
        OPERATORS["shift_dates"].configure({})
    with pytest.raises(RiskcoreError, match=r"takes no parameter 'size' \(it takes: text\)$"):
        OPERATORS["redact"].configure({"size": 3})
    # a recipe with a bad parameter is refused with the sentence, not a traceback
    bad = Recipe((), (), {}, {"k": 1}, masking=({"column": "col", "operator": "mask_digits",
                                                 "params": {"keep_last": "4"}},))  # fmt: skip
    with pytest.raises(RiskcoreError, match="keep_last must be an integer"):
        apply_recipe(SAMPLE, bad)


def test_menu_choices_parse_and_steps_record_the_same_json_as_before():
    assert list(MENU) == [
        "drop", "redact", "redact_found", "redact_found:removed", "mask_digits",
        "keep_initials", "substitute", "hmac_tokens",
        "reversible_tokens", "surrogates:name", "surrogates:ssn", "surrogates:email",
    ]  # fmt: skip
    assert choice_label("surrogates:ssn") == "realistic surrogate SSN (Faker)"
    assert len(set(MENU.values())) == len(MENU)
    for choice in MENU:
        op, params = parse_choice(choice)
        assert op.words(params)  # every choice is a complete configuration
    # the parameters a recipe records, as recipes have recorded them since version 2
    assert make_step("s", "mask_digits") == {
        "column": "s", "operator": "mask_digits", "params": {"keep_last": 4}}  # fmt: skip
    assert make_step("s", "hmac_tokens")["params"] == {"length": 16, "encoding": "hex"}
    assert make_step("n", "surrogates:name", seed=5)["params"] == {"kind": "name", "seed": 5}
    assert make_step("n", "redact", seed=5)["params"] == {}
    with pytest.raises(RiskcoreError, match=r"^surrogates need a kind \(name, first_name,"):
        parse_choice("surrogates")
    with pytest.raises(RiskcoreError, match=r"^the operator 'redact' takes no kind$"):
        parse_choice("redact:x")
    with pytest.raises(RiskcoreError, match=r"^unknown masking operator 'shift_dates': use one"):
        parse_choice("shift_dates")  # the date shift is the recipe's own step, not a choice
    with pytest.raises(RiskcoreError, match=r"^unknown masking operator 'hash': use one of drop,"):
        get_operator("hash")
    assert spelled_operators()[-1] == "surrogates:KIND"
    assert set(SURROGATE_KINDS) >= {c.split(":")[1] for c in MENU if c.startswith("surrogates:")}
    assert "redact_found[:removed]" in spelled_operators()  # its variant is optional


def test_the_command_line_names_every_operator_one_column_can_take(capsys):
    from riskcore.cli import main

    with pytest.raises(SystemExit):
        main(["anonymize", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for spelled in spelled_operators():
        assert spelled in text, spelled


def test_keyed_operators_run_under_the_key_only():
    key = SecretKey(KEY)
    out = OPERATORS["hmac_tokens"].run(SAMPLE, ["col"], {}, key).data["col"]
    expected = hmac.new(KEY, b"123-45-6789", hashlib.sha256).hexdigest()[:16]
    assert out.iloc[0] == out.iloc[3] == expected and pd.isna(out.iloc[1])
    keyed = {name for name, op in OPERATORS.items() if op.needs_key}
    assert keyed == {"hmac_tokens", "reversible_tokens", "shift_dates"}
    shifted = OPERATORS["shift_dates"].run(SAMPLE, ["date"], {"person": "person"}, key).data
    moved = pd.to_datetime(shifted["date"]) - pd.to_datetime(SAMPLE["date"])
    assert moved.iloc[0] == moved.iloc[3] and moved.abs().max() <= pd.Timedelta(days=180)
    assert pd.isna(moved.iloc[2]) and (moved.dropna() != pd.Timedelta(0)).all()
