"""Recipes that cannot be stripped (issue 26, item 5): the seal and the checks of ``apply``.

Each case edits a recipe written by ``anonymize`` the way the issue did (``masking``
deleted: raw SSNs written with exit code 0; ``key_check`` deleted: any key accepted;
version -5 accepted) and runs ``riskcore apply`` on it.
"""

from __future__ import annotations

import hashlib
import hmac
import json

import pandas as pd
import pytest

from riskcore.cli import main

SSNS = [f"{100 + i:03d}-55-{1000 + i:04d}" for i in range(12)]


@pytest.fixture
def made(tmp_path, capsys):
    df = pd.DataFrame({"ssn": SSNS, "name": [f"P{i}" for i in range(12)], "sex": ["F", "M"] * 6})
    src = tmp_path / "d.csv"
    df.to_csv(src, index=False)
    key = tmp_path / "k.hex"
    paths = {"src": src, "key": key, "out": tmp_path / "o.csv"}
    for name, op in (("keyed", "hmac_tokens"), ("plain", "redact")):
        recipe = tmp_path / f"{name}.json"
        argv = ["anonymize", str(src), "--qi", "sex", "--k", "2", "--mask", f"ssn={op}",
                "--mask", "name=drop", "--out", str(tmp_path / f"{name}.csv"),
                "--recipe-out", str(recipe)]  # fmt: skip
        if op == "hmac_tokens":
            argv += ["--key-file", str(key)]
        assert main(argv) == 0
        paths[name] = recipe
    capsys.readouterr()
    return paths


def _apply(made, spec, capsys, *, key=True):
    path = made["src"].parent / "edited.json"
    path.write_text(json.dumps(spec))
    argv = ["apply", str(made["src"]), "--recipe", str(path), "--out", str(made["out"])]
    if key:
        argv += ["--key-file", str(made["key"])]
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, err


def test_the_recipe_is_sealed_by_an_hmac_under_the_key_and_recorded(made):
    spec = json.loads(made["keyed"].read_text())
    assert spec["version"] == 8 and spec["identifiers"] == ["ssn", "name"]
    assert spec["seal"]["kind"] == "hmac-sha256"
    # recomputed independently: HMAC-SHA256(HMAC-SHA256(key, label), canonical JSON)
    raw = bytes.fromhex(made["key"].read_text().strip())
    sub = hmac.new(raw, b"riskcore recipe seal", hashlib.sha256).digest()
    body = {k: v for k, v in spec.items() if k != "seal"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    assert spec["seal"]["value"] == hmac.new(sub, text, hashlib.sha256).hexdigest()
    plain = json.loads(made["plain"].read_text())
    body = {k: v for k, v in plain.items() if k != "seal"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    assert plain["seal"] == {"kind": "sha256", "value": hashlib.sha256(text).hexdigest()}


def test_an_intact_recipe_applies(made, capsys):
    for name in ("keyed", "plain"):
        spec = json.loads(made[name].read_text())
        code, err = _apply(made, spec, capsys, key=name == "keyed")
        assert code == 0, err
        written = made["out"].read_text()
        assert not any(s in written for s in SSNS)


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (lambda s: s.pop("masking"), "'ssn' as a direct identifier but has no masking step"),
        (lambda s: s.update(masking=[], identifiers=[]), "seal does not match"),
        (lambda s: s.pop("key_check"), "no key_check"),
        (lambda s: s.update(version=-5), "version -5"),
        (lambda s: s.update(version=99), "version 99"),
        (lambda s: s.update(version="3"), "version '3'"),
        (lambda s: s.pop("seal"), "no seal"),
        (lambda s: s["seal"].update(value="0" * 64), "seal does not match"),
        (lambda s: s.update(levels=[1]), "seal does not match"),
    ],
)
def test_a_stripped_or_edited_keyed_recipe_is_refused(made, capsys, edit, said):
    spec = json.loads(made["keyed"].read_text())
    edit(spec)
    code, err = _apply(made, spec, capsys)
    assert code == 2, err
    assert said in err
    assert not made["out"].exists()  # nothing written, raw SSNs least of all


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (lambda s: s.pop("masking"), "'ssn' as a direct identifier but has no masking step"),
        (lambda s: s.update(masking=[], identifiers=[]), "seal does not match"),
        (lambda s: s.pop("seal"), "no seal"),
    ],
)
def test_a_stripped_plain_recipe_is_refused(made, capsys, edit, said):
    spec = json.loads(made["plain"].read_text())
    edit(spec)
    code, err = _apply(made, spec, capsys, key=False)
    assert code == 2, err
    assert said in err


def test_a_keyed_recipe_rewritten_without_its_keyed_steps_is_refused_with_the_key(made, capsys):
    # an attacker who cannot recompute the HMAC rewrites the recipe unkeyed and re-hashes it
    from riskcore.deidentify.recipe.seal import seal_of

    spec = json.loads(made["keyed"].read_text())
    spec.update(masking=[], identifiers=[], key_check=None)
    spec["seal"] = seal_of(spec, None)
    code, err = _apply(made, spec, capsys)
    assert code == 2 and "not sealed with one" in err


def test_the_report_records_the_recipe_s_seal():
    from riskcore.criteria import Targets
    from riskcore.deidentify.recipe.base import Recipe, mask_step
    from riskcore.demo import make_people
    from riskcore.profile import Profile
    from riskcore.report.render import render_html
    from riskcore.review import review
    from riskcore.roles import ColumnRoles

    people = make_people(300, seed=1)
    rec = Recipe.of({}, {}, Targets.of(k=1), masking=[mask_step("ssn", "drop")])
    assert rec.seal is not None and rec.seal["kind"] == "sha256"
    roles = ColumnRoles(identifiers=("ssn",), quasi_identifiers=("age", "sex"))
    r = review(people, Profile(roles=roles, recipe=rec))
    twin = json.loads(r.to_json())
    assert twin["remediation"]["recipe"]["seal"] == rec.seal
    assert rec.seal["value"] in render_html(r, figures=False)
