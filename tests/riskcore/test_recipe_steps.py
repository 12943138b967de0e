"""Recipes record every step (Safe Harbor, date shift, masking, generalization, suppression)
and re-apply them; keys stay out of every output."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import zipfile

import pandas as pd
import pytest

from riskcore.cli import main
from riskcore.deidentify.masking import SecretKey
from riskcore.deidentify.recipe.apply import apply_recipe
from riskcore.deidentify.recipe.base import Recipe, key_check, mask_step
from riskcore.errors import RiskcoreError

KEY = bytes(range(32))


def _patients() -> pd.DataFrame:
    n = 12
    return pd.DataFrame(
        {
            "name": [f"Patient {chr(65 + i)} Smith" for i in range(n)],
            "ssn": [f"{100 + i // 2:03d}-45-{6789 + i // 2:04d}" for i in range(n)],  # 2 visits
            "phone": [f"617-555-{100 + i:04d}" for i in range(n)],
            "admitted": [f"2024-0{1 + i % 9}-1{i % 10}" for i in range(n)],
            "discharged": [f"2024-0{1 + i % 9}-2{i % 10}" for i in range(n)],
            "age": [23, 27, 31, 35, 44, 48, 52, 57, 61, 66, 71, 75],
            "sex": ["F", "M"] * 6,
            "dx": ["flu", "asthma", "flu", "gout"] * 3,
        }
    )


def _anonymize(tmp_path, key_file, extra=(), out_name="anon.csv"):
    src = tmp_path / "p.csv"
    _patients().to_csv(src, index=False)
    out, recipe = tmp_path / out_name, tmp_path / "recipe.json"
    args = ["anonymize", str(src), "--qi", "age", "--qi", "sex", "--k", "2"]
    args += ["--max-suppression", "0.5", "--out", str(out), "--recipe-out", str(recipe)]
    args += ["--mask", "name=surrogates:name", "--mask", "ssn=hmac_tokens"]
    args += ["--mask", "phone=mask_digits", "--shift-dates", "admitted"]
    args += ["--shift-dates", "discharged", "--person", "ssn", "--key-file", str(key_file)]
    return main([*args, *extra]), src, out, recipe


def test_anonymize_then_apply_with_masking_gives_the_identical_table(tmp_path, capsys):
    key_file = tmp_path / "key.hex"
    key_file.write_text(KEY.hex() + "\n")
    code, src, out, recipe = _anonymize(
        tmp_path, key_file, ["--lookup-out", str(tmp_path / "l.csv")]
    )
    assert code == 0, capsys.readouterr().err
    spec = json.loads(recipe.read_text())
    # every operator with its parameters, in the order applied, and the key's check only
    assert spec["version"] == 8
    assert spec["masking"] == [
        {"column": "name", "operator": "surrogates", "params": {"kind": "name", "seed": 0}},
        {"column": "ssn", "operator": "hmac_tokens", "params": {"length": 16, "encoding": "hex"}},
        {"column": "phone", "operator": "mask_digits", "params": {"keep_last": 4}},
    ]
    assert spec["date_shift"] == {"person": "ssn", "columns": ["admitted", "discharged"],
                                  "max_days": 180}  # fmt: skip
    assert spec["key_check"] == hmac.new(KEY, b"riskcore recipe key check",
                                         hashlib.sha256).hexdigest()[:16]  # fmt: skip
    table = pd.read_csv(out, dtype=str, keep_default_na=False)
    raw = _patients()
    kept = raw[raw["ssn"].map(lambda s: hmac.new(KEY, s.encode(), hashlib.sha256).hexdigest()[:16])
                  .isin(table["ssn"])]  # fmt: skip
    # tokens are HMAC-SHA256 under the key, computed here with the standard library
    expected = {hmac.new(KEY, s.encode(), hashlib.sha256).hexdigest()[:16] for s in raw["ssn"]}
    assert set(table["ssn"]) <= expected and len(kept) == len(table)
    assert all(p.startswith("***-***-") for p in table["phone"])
    assert not set(table["name"]) & set(raw["name"])
    # the shift keeps each stay's length: 10 days for everyone, in the input and the output
    stay = pd.to_datetime(table["discharged"]) - pd.to_datetime(table["admitted"])
    assert (stay == pd.Timedelta(days=10)).all()
    assert not (table["admitted"].isin(raw["admitted"])).all()
    lookup = pd.read_csv(tmp_path / "l.csv", dtype=str)
    assert list(lookup.columns) == ["column", "original", "surrogate"]
    again = tmp_path / "again.csv"
    args = ["apply", str(src), "--recipe", str(recipe), "--out", str(again)]
    assert main([*args, "--key-file", str(key_file)]) == 0
    assert again.read_bytes() == out.read_bytes()


def test_apply_asks_for_the_key_and_refuses_another(tmp_path, capsys):
    key_file = tmp_path / "key.hex"
    code, src, _, recipe = _anonymize(tmp_path, key_file)  # a new key is written there
    assert code == 0 and len(bytes.fromhex(key_file.read_text())) == 32
    assert key_file.read_text().strip() not in capsys.readouterr().err
    args = ["apply", str(src), "--recipe", str(recipe), "--out", str(tmp_path / "o.csv")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "the date shift of 'admitted', 'discharged' needs a key: give --key-file" in err
    other = tmp_path / "other.hex"
    other.write_text(SecretKey.generate().reveal_hex())
    assert main([*args, "--key-file", str(other)]) == 2
    assert "not the one the recipe was made with" in capsys.readouterr().err


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_the_key_never_appears_in_any_output(tmp_path, capsys, caplog, suffix):
    from riskcore.profile import Profile
    from riskcore.report.render import render_html
    from riskcore.review import review

    caplog.set_level(logging.DEBUG)
    key_file = tmp_path / "key.hex"
    key_file.write_text(KEY.hex())
    extra = ["--mask", "dx=reversible_tokens"]
    code, src, out, recipe = _anonymize(tmp_path, key_file, extra, out_name="anon" + suffix)
    assert code == 0
    again = tmp_path / ("again" + suffix)
    assert main(["apply", str(src), "--recipe", str(recipe), "--out", str(again), "--key-file",
                 str(key_file), "--format", "json"]) == 0  # fmt: skip
    forms = {KEY.hex(), KEY.hex().upper(), base64.b64encode(KEY).decode(),
             base64.b32encode(KEY).decode().rstrip("=")}  # fmt: skip
    texts = [recipe.read_text(), *capsys.readouterr(), caplog.text]
    for path in (out, again):
        if suffix == ".xlsx":
            with zipfile.ZipFile(path) as z:
                texts += [z.read(n).decode("utf-8", "replace") for n in z.namelist()]
        else:
            texts.append(path.read_text(encoding="utf-8-sig"))
    # the report of the recipe: it has no key, so it assesses the QIs and names the keyed steps
    spec = json.loads(recipe.read_text())
    profile = {"quasi_identifiers": ["age", "sex"], "targets": {"k": 2}, "recipe": spec}
    report = review(_patients(), Profile.read(profile))
    assert report.remediation is not None
    assert report.remediation.not_reapplied == (
        "the date shift of 'admitted', 'discharged'",
        "hmac tokens of 'ssn'",
        "reversible tokens of 'dx'",
    )
    # the keyed steps are listed in words with the key's check value, and said to be not redone
    html = render_html(report)
    check = key_check(KEY)
    assert f"ssn: keyed HMAC-SHA256 token (16 hex characters, 64 bits), key check {check}" in html
    keyed = [x for x in report.limitations if x.kind == "keyed-steps"]
    assert keyed and keyed[0].facts["steps"] == list(report.remediation.not_reapplied)
    texts += [html, report.to_json(), Profile.read(profile).to_json()]
    for text in texts:
        for form in forms:
            assert form not in text


def test_safe_harbor_steps_are_recorded_and_reapplied():
    from riskcore.criteria import Targets
    from riskcore.deidentify.safe_harbor import apply_safe_harbor, safe_harbor_plan

    df = pd.DataFrame(
        {
            "zip": ["02139", "03601", "10001", "02139"],
            "age": [34, 91, 45, 95],
            "date_of_birth": ["1990-04-01", "1930-02-02", "1980-05-05", "1929-01-01"],
            "name": ["A B", "C D", "E F", "G H"],
            "dx": ["x", "y", "x", "y"],
        }
    )
    plan = safe_harbor_plan(df, as_of=2026)
    assert [(s["column"], s["action"]) for s in plan] == [
        ("zip", "zip3"), ("age", "age_90_plus"), ("date_of_birth", "date_year"), ("name", "dropped")
    ]  # fmt: skip
    rec = Recipe.of({}, {}, Targets.of(k=1), safe_harbor=plan)
    again = apply_recipe(df, Recipe.from_dict(json.loads(json.dumps(rec.to_dict())))).data
    pd.testing.assert_frame_equal(again, apply_safe_harbor(df, as_of=2026).data)
    # by hand: 036 is a restricted 3-digit area (000), ages over 89 and their birth years grouped
    assert again["zip"].tolist() == ["021", "000", "100", "021"]
    assert again["age"].astype(str).tolist() == ["34", "90+", "45", "90+"]
    assert again["date_of_birth"].tolist() == ["1990", "1936 or earlier", "1980", "1936 or earlier"]
    assert "name" not in again.columns


def test_a_keyed_recipe_needs_its_key_and_a_version_1_recipe_still_reads():
    from riskcore.criteria import Targets

    df = pd.DataFrame({"ssn": ["1", "2"], "sex": ["F", "M"]})
    with pytest.raises(RiskcoreError, match="hmac tokens of 'ssn' needs a key"):
        Recipe.of({}, {}, Targets.of(k=1), masking=[mask_step("ssn", "hmac_tokens")])
    rec = Recipe.of({}, {}, Targets.of(k=1), masking=[mask_step("ssn", "hmac_tokens")], key=KEY)
    assert rec.key_check == key_check(KEY) and KEY.hex() not in json.dumps(rec.to_dict())
    with pytest.raises(RiskcoreError, match="give the key they were made with"):
        apply_recipe(df, rec)
    assert apply_recipe(df, rec, skip_keyed=True).data["ssn"].tolist() == ["1", "2"]
    with pytest.raises(RiskcoreError, match="unknown masking operator 'hash'"):
        mask_step("ssn", "hash")
    old = {"qis": [], "levels": [], "hierarchies": {}, "targets": {"k": 1}, "version": 1}
    assert apply_recipe(df, old).data.equals(df)


def test_recipe_table_lists_every_step_in_order_and_no_key():
    from riskcore.criteria import Targets
    from riskcore.deidentify.hierarchy import interval_hierarchy
    from riskcore.report.readings import recipe_table

    ages = pd.Series([30, 41], name="age")
    rec = Recipe.of(
        {"age": interval_hierarchy(ages, [10], top=90)},
        {"age": 1},
        Targets.of(k=5, max_suppression=0.02),
        safe_harbor=[{"column": "zip", "action": "zip3"}],
        date_shift={"person": "ssn", "columns": ["admitted"], "max_days": 30},
        masking=[mask_step("ssn", "hmac_tokens"), mask_step("name", "drop")],
        key=KEY,
    )
    t = recipe_table(rec)
    check = key_check(KEY)
    # the words are recipe_steps' (tested in test_recipe_words.py); the table shows them
    assert t.values.tolist() == [
        ["Safe Harbor", "zip", "zip3", "",
         "first 3 digits kept, 000 for areas of 20,000 people or fewer (Safe Harbor)"],
        ["date shift", "admitted", "shift_dates", "person ssn, max_days 30",
         f"shifted by one keyed random number of days per ssn, at most 30 days either way, "
         f"key check {check}"],
        ["masking", "ssn", "hmac_tokens", "length 16, encoding hex",
         f"keyed HMAC-SHA256 token (16 hex characters, 64 bits), key check {check}"],
        ["masking", "name", "drop", "", "column dropped"],
        ["generalization", "age", "interval", "level 1, widths [10.0], start 0.0, top 90",
         "bands of 10, 90 and over in one band"],
        ["suppression", "", "drop", "max_suppression 0.02",
         "records of classes that break the targets removed, up to 2% allowed"],
        ["key", "", "key_check", f"key_check {check}",
         f"the key is not recorded; its check value is {check}"],
    ]  # fmt: skip
    assert KEY.hex() not in t.to_string()


def test_report_view_reading_names_the_table_described():
    from riskcore.report.readings import report_view_reading

    assert "before / after side by side" in report_view_reading(chosen=True, shown=True)
    off = report_view_reading(chosen=True, shown=False)
    assert off.startswith("This report describes the table as recorded, as the sidebar's switch")
    assert report_view_reading(chosen=False, shown=False).endswith(
        "(no generalization was chosen on the Remediate page)."
    )
