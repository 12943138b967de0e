"""Every recipe step in words: each hierarchy kind's levels, each step kind, a recipe written by
``riskcore anonymize`` with masking, and the JSON twin. Expected words are written by hand."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from riskcore.cli import main
from riskcore.criteria import Targets
from riskcore.deidentify.hierarchy import (
    LEVEL_WORDS,
    REBUILDERS,
    banded_hierarchy,
    builtin_hierarchy,
    date_hierarchy,
    flat_hierarchy,
    grouping_hierarchy,
    hierarchy_from_table,
    interval_hierarchy,
    level_words,
    prefix_hierarchy,
    read_arx_hierarchy,
)
from riskcore.deidentify.recipe.base import Recipe, key_check, mask_step
from riskcore.deidentify.recipe.steps import STEP_KINDS, RecipeStep, recipe_steps
from riskcore.errors import RiskcoreError
from tests.hospital import hospital_csv

KEY = bytes(range(32))
AGES = pd.Series([17, 23, 35, 47, 61, 92], name="age")
DOB = pd.Series(["1985-03-02", "1990-11-30", None, "1962-07-14"], name="date_of_birth")
ZIP = pd.Series(["02139", "10001", "02141"], name="zip")
SEX = pd.Series(["F", "M", None], name="sex")
ARX_AGES = "17;<20;*\n23;20-39;*\n35;20-39;*\n47;40-59;*\n61;60+;*\n92;60+;*\n"


def _words(h, unit=None):
    """The words of every level, from the hierarchy and from its recipe spec read from JSON."""
    spec = json.loads(json.dumps(h.recipe()))
    from_spec = [level_words(spec, lv, unit=unit) for lv in range(h.height + 1)]
    assert from_spec == [level_words(h, lv, unit=unit) for lv in range(h.height + 1)]
    return from_spec


def test_interval_levels_in_words_with_and_without_a_unit():
    h = interval_hierarchy(AGES, [5, 10], bottom=18, top=90)
    assert _words(h) == [
        "kept as recorded",
        "bands of 5, under 18 in one band, 90 and over in one band",
        "bands of 10, under 18 in one band, 90 and over in one band",
        "removed (*)",
    ]
    assert _words(h, unit="year")[1:3] == [
        "5-year bands, under 18 in one band, 90 and over in one band",
        "10-year bands, under 18 in one band, 90 and over in one band",
    ]
    half = interval_hierarchy(pd.Series([0.2, 1.7], name="dose"), [0.5, 1])
    assert _words(half, unit="mg") == ["kept as recorded", "0.5-mg bands", "1-mg bands",
                                       "removed (*)"]  # fmt: skip


def test_banded_levels_in_words():
    # 20..80: a span of 60 cut into at most 16 bands is a width of 5 (60 / 5 = 12), doubling
    # while twice the widest is below 65: 5, 10, 20, 40; then "*"
    h = banded_hierarchy(pd.Series([20, 47, 80], name="age"))
    assert _words(h, unit="year") == [
        "kept as recorded", "5-year bands", "10-year bands", "20-year bands", "40-year bands",
        "removed (*)",
    ]  # fmt: skip
    clipped = banded_hierarchy(AGES, 10, bottom=18, top=90)
    assert _words(clipped)[1] == "bands of 10, under 18 in one band, 90 and over in one band"


def test_date_levels_in_words():
    assert _words(date_hierarchy(DOB)) == [
        "kept as recorded", "year and month", "year", "decade", "removed (*)",
    ]  # fmt: skip
    assert _words(date_hierarchy(DOB, ["year"])) == ["kept as recorded", "year", "removed (*)"]


def test_prefix_levels_in_words():
    assert _words(prefix_hierarchy(ZIP)) == [
        "kept as recorded", "first 4 characters kept", "first 3 characters kept",
        "first 2 characters kept", "first character kept", "removed (*)",
    ]  # fmt: skip
    numeric = prefix_hierarchy(pd.Series([2139, 10001], name="zip"))  # 02139 lost its zero
    assert _words(numeric)[2] == "first 3 characters kept"


def test_flat_and_grouped_levels_in_words():
    assert _words(flat_hierarchy(SEX)) == ["kept as recorded", "removed (*)"]
    edu = pd.Series(["Bachelors", "HS-grad", "Masters", "9th", "Doctorate"], name="education")
    # level 1: Bachelor's, High school, Graduate or professional, No high-school diploma;
    # level 2: Some college or more, High school or less
    assert _words(builtin_hierarchy(edu)) == [
        "kept as recorded", "grouped into 4 groups", "grouped into 2 groups", "removed (*)",
    ]  # fmt: skip
    groups = [{"F": "person", "M": "person"}]
    assert _words(grouping_hierarchy(SEX, groups)) == [
        "kept as recorded", "removed (person)", "removed (*)",
    ]  # fmt: skip


def test_arx_csv_and_edited_table_levels_in_words():
    arx = read_arx_hierarchy(ARX_AGES, "age", numeric=True)
    assert _words(arx) == ["kept as recorded", "grouped into 4 groups", "removed (*)"]
    table = pd.DataFrame({"value": ["F", "M"], "level 1": ["person", "person"],
                          "level 2": ["*", "*"]})  # fmt: skip
    assert _words(hierarchy_from_table(table, SEX.dropna())) == [
        "kept as recorded", "removed (person)", "removed (*)",
    ]  # fmt: skip


def test_every_hierarchy_kind_has_words_and_bad_levels_are_refused():
    # the kinds a recipe can rebuild are the kinds that have words (a new kind needs both)
    assert set(LEVEL_WORDS) == set(REBUILDERS)
    with pytest.raises(RiskcoreError, match=r"^level must be from 0 to 3, got 4$"):
        level_words(date_hierarchy(DOB, ["year", "decade"]), 4)
    with pytest.raises(RiskcoreError, match=r"^level must be from 0 to 5, got -1$"):
        level_words(prefix_hierarchy(ZIP).recipe(), -1)
    with pytest.raises(RiskcoreError, match=r"^unknown hierarchy kind 'spiral'"):
        level_words({"kind": "spiral", "params": {}}, 1)


def _recipe():
    return Recipe.of(
        {
            "age": interval_hierarchy(AGES, [10], top=90),
            "date_of_birth": date_hierarchy(DOB),
            "zip": prefix_hierarchy(ZIP),
            "sex": flat_hierarchy(SEX),
        },
        {"age": 1, "date_of_birth": 4, "zip": 2, "sex": 0},
        Targets.of(k=5, max_suppression=0.02),
        safe_harbor=[
            {"column": "zip5", "action": "zip3"},
            {"column": "years", "action": "age_90_plus"},
            {"column": "birth", "action": "date_year", "birth": True, "as_of": 2026},
            {"column": "visit", "action": "date_year", "birth": False, "as_of": 2026},
            {"column": "street", "action": "dropped", "why": "a street address"},
        ],
        date_shift={"person": "mrn", "columns": ["admitted", "discharged"], "max_days": 30},
        masking=[
            mask_step("ssn", "mask_digits"),
            mask_step("mrn", "hmac_tokens"),
            mask_step("name", "surrogates:name"),
            mask_step("note", "redact"),
            mask_step("fax", "drop"),
            mask_step("email", "reversible_tokens"),
            mask_step("nick", "keep_initials"),
            mask_step("id", "substitute"),
        ],
        key=KEY,
    )


def test_every_step_of_a_recipe_in_order_and_in_words():
    check = key_check(KEY)
    steps = recipe_steps(_recipe(), units={"age": "year"})
    assert [s.words for s in steps] == [
        "zip5: first 3 digits kept, 000 for areas of 20,000 people or fewer (Safe Harbor)",
        "years: ages over 89 grouped as 90+ (Safe Harbor)",
        'birth: year kept, birth years up to 1936 grouped as "1936 or earlier" (Safe Harbor)',
        "visit: year kept (Safe Harbor)",
        "street: column dropped (Safe Harbor)",
        "admitted: shifted by one keyed random number of days per mrn, at most 30 days either "
        f"way, key check {check}",
        "discharged: shifted by one keyed random number of days per mrn, at most 30 days "
        f"either way, key check {check}",
        "ssn: last 4 digits kept",
        f"mrn: keyed HMAC-SHA256 token (16 hex characters, 64 bits), key check {check}",
        "name: surrogate names (Faker)",
        "note: redacted",
        "fax: column dropped",
        f"email: reversible AES-SIV token (the key holder can decrypt it), key check {check}",
        "nick: initials kept",
        "id: a number per distinct value (Person 00001, ...)",
        "age: 10-year bands, 90 and over in one band",
        "date_of_birth: removed (*)",
        "zip: first 3 characters kept",
        "sex: kept as recorded",
        "records of classes that break the targets removed, up to 2% allowed",
        f"the key is not recorded; its check value is {check}",
    ]
    kinds = [s.kind for s in steps]
    assert kinds == sorted(kinds, key=list(STEP_KINDS).index)  # in the order applied
    assert steps[7].parameters == {"keep_last": 4, "mask": "*"}  # every parameter, filled in
    assert steps[15].parameters == {"level": 1, "widths": [10.0], "start": 0.0, "bottom": None,
                                    "top": 90}  # fmt: skip
    assert (steps[15].operation, steps[16].operation, steps[19].operation) == (
        "interval", "date", "drop")  # fmt: skip
    assert KEY.hex() not in json.dumps([s.to_dict() for s in steps])


def test_steps_are_json_ready_and_read_from_a_recipe_json():
    steps = recipe_steps(_recipe())
    text = json.dumps([s.to_dict() for s in steps])
    back = tuple(RecipeStep.from_dict(d) for d in json.loads(text))
    assert back == steps
    # the recipe's own JSON (as written by anonymize or the Remediate page) gives the same steps
    assert recipe_steps(json.loads(json.dumps(_recipe().to_dict()))) == steps


def test_suppression_words_follow_the_limit_and_the_mode():
    base = Recipe(("sex",), (0,), {"sex": flat_hierarchy(SEX).recipe()}, {"k": 2})
    assert recipe_steps(base)[-1].words == (
        "records of classes that break the targets removed, none allowed"
    )
    masked = Recipe(("sex",), (1,), base.hierarchies, {"k": 2, "max_suppression": 0.005},
                    suppression="mask")  # fmt: skip
    assert recipe_steps(masked)[-1].words == (
        "quasi-identifiers of the records of classes that break the targets replaced by *, "
        "up to 0.5% allowed"
    )
    assert [s.words for s in recipe_steps(masked)] == [
        "sex: removed (*)", recipe_steps(masked)[-1].words]  # fmt: skip
    # a recipe without quasi-identifiers suppresses nothing and says nothing of it
    assert recipe_steps(Recipe((), (), {}, {"k": 1}, masking=(mask_step("a", "drop"),))) == (
        RecipeStep("masking", "a", "drop", {}, "column dropped", "a: column dropped"),
    )


def test_an_unknown_step_is_refused_with_a_sentence():
    bad = Recipe((), (), {}, {"k": 1}, safe_harbor=({"column": "x", "action": "blur"},))
    with pytest.raises(RiskcoreError, match=r"^unknown Safe Harbor action 'blur' in the recipe$"):
        recipe_steps(bad)
    # a typed masking step refuses its unknown operator as the recipe is read (issue 40.3)
    with pytest.raises(RiskcoreError, match=r"^unknown masking operator 'sha256'"):
        recipe_steps(Recipe((), (), {}, {"k": 1}, masking=({"column": "x", "operator": "sha256"},)))


def test_a_recipe_from_anonymize_lists_every_masking_step(tmp_path, capsys):
    # the issue's hospital table: surrogate names, SSNs' last 4 digits kept, keyed MRN tokens,
    # redacted notes; k = 11 with 2% suppression on date of birth, ZIP and sex
    src, out, recipe = tmp_path / "h.csv", tmp_path / "out.csv", tmp_path / "r.json"
    src.write_bytes(hospital_csv())
    (tmp_path / "key.hex").write_text(KEY.hex() + "\n")
    args = ["anonymize", str(src), "--qi", "date_of_birth", "--qi", "zip", "--qi", "sex",
            "--k", "11", "--max-suppression", "0.02", "--out", str(out), "--recipe-out",
            str(recipe), "--key-file", str(tmp_path / "key.hex"),
            "--mask", "name=surrogates:name", "--mask", "ssn=mask_digits",
            "--mask", "mrn=hmac_tokens", "--mask", "note=redact",
            "--allow-identifiers", "admission_date"]  # fmt: skip
    assert main(args) == 0, capsys.readouterr().err
    spec = json.loads(recipe.read_text())
    steps = recipe_steps(spec)
    # a full date no step treats, released as it is by choice (issue 37), said so
    assert spec["allowed_identifiers"] == ["admission_date"]
    assert [s.words for s in steps if s.kind == "kept"] == [
        "admission_date: released as it is, a direct identifier allowed by --allow-identifiers"
    ]
    masking = [s.words for s in steps if s.kind == "masking"]
    assert masking == [
        "name: surrogate names (Faker)",
        "ssn: last 4 digits kept",
        f"mrn: keyed HMAC-SHA256 token (16 hex characters, 64 bits), key check {key_check(KEY)}",
        "note: redacted",
    ]
    # the levels the search chose, each in the words of its hierarchy's kind (by hand)
    by_level = {
        "date": ["kept as recorded", "year and month", "year", "decade", "removed (*)"],
        "prefix": ["kept as recorded", "first 4 characters kept", "first 3 characters kept",
                   "first 2 characters kept", "first character kept", "removed (*)"],
        "flat": ["kept as recorded", "removed (*)"],
    }  # fmt: skip
    general = [s for s in steps if s.kind == "generalization"]
    assert [s.column for s in general] == ["date_of_birth", "zip", "sex"]
    for s, lv in zip(general, spec["levels"], strict=True):
        assert s.effect == by_level[spec["hierarchies"][s.column]["kind"]][lv]
    assert steps[-2].words == "records of classes that break the targets removed, up to 2% allowed"
    assert steps[-1].kind == "key" and KEY.hex() not in json.dumps([s.to_dict() for s in steps])
