"""Raw direct identifiers do not leave by default (issue 37, item 1): the attacks as tests.

Each test replays one way a release once carried every name, SSN, full date of birth and
5-digit ZIP code as they were, with exit code 0: ``anonymize`` of the demo with two QIs;
``apply`` of a recipe made on a table without identifiers to a table with them; a recipe
stripped of its masking and re-sealed with SHA-256 (no key involved); the perturbative
options, which ignored ``--mask``; the engines; a QI the search keeps at level 0. Each
run now stops with exit code 2, names the columns and writes nothing, unless
``--allow-identifiers`` says so, which the recipe and the printed steps then record.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from riskcore.cli import main
from riskcore.deidentify.recipe.seal import seal_of
from riskcore.demo import load_demo

IDENTIFIERS = ["name", "ssn", "date_of_birth", "zip"]
DEMO = "demo:600"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def _refused(code: int, err: str, columns: list[str], out: Path) -> None:
    assert code == 2, err
    assert "direct identifiers that no step masks, drops or transforms" in err, err
    for c in columns:
        assert f"{c!r} (" in err, (c, err)
        assert f"--allow-identifiers {c}" in err
    assert not out.exists()  # nothing written, raw identifiers least of all


def _demo() -> pd.DataFrame:
    return load_demo(DEMO)


def test_anonymize_of_the_demo_stops_naming_every_raw_identifier(tmp_path, capsys):
    out = tmp_path / "o.csv"
    code, _, err = _run(["anonymize", DEMO, "--qi", "age", "--qi", "sex", "--k", "5",
                         "--out", str(out), "--recipe-out", str(tmp_path / "r.json")],
                        capsys)  # fmt: skip
    _refused(code, err, IDENTIFIERS, out)
    assert not (tmp_path / "r.json").exists()


def test_anonymize_with_the_identifiers_masked_or_allowed_says_so(tmp_path, capsys):
    out, recipe = tmp_path / "o.csv", tmp_path / "r.json"
    code, printed, err = _run(
        ["anonymize", DEMO, "--qi", "age", "--qi", "sex", "--k", "5", "--mask", "name=drop",
         "--mask", "ssn=redact", "--mask", "date_of_birth=drop", "--allow-identifiers", "zip",
         "--out", str(out), "--recipe-out", str(recipe)],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    spec = json.loads(recipe.read_text())
    assert spec["allowed_identifiers"] == ["zip"] and spec["version"] == 8
    # the steps applied, printed one a line; the allowed column named as released as it is
    steps = printed.split("Steps applied:\n", 1)[1].splitlines()
    assert steps[:4] == [
        "  - name: column dropped",
        "  - ssn: redacted",
        "  - date_of_birth: column dropped",
        "  - zip: released as it is, a direct identifier allowed by --allow-identifiers",
    ]
    assert "warning: 'zip' looks like a direct identifier" in err
    released = pd.read_csv(out, dtype=str)
    demo = _demo()
    assert "name" not in released and "date_of_birth" not in released
    assert not set(released["ssn"]) & set(demo["ssn"])
    assert set(released["zip"]) <= set(demo["zip"])  # allowed: as recorded


def test_an_identifier_the_search_keeps_at_level_0_stops_the_run(tmp_path, capsys):
    # the ZIP code as a QI: k = 1 is met at level 0, the raw ZIP5 would be written
    out = tmp_path / "o.csv"
    code, _, err = _run(
        ["anonymize", DEMO, "--qi", "zip", "--k", "1", "--mask", "name=drop", "--mask",
         "ssn=drop", "--mask", "date_of_birth=drop", "--out", str(out), "--recipe-out",
         str(tmp_path / "r.json")],
        capsys,
    )  # fmt: skip
    _refused(code, err, ["zip"], out)
    assert "'zip' (5-digit ZIP / postcode, a quasi-identifier kept at level 0)" in err
    # held above level 0, it is generalized, and nothing is refused
    code, _, err = _run(
        ["anonymize", DEMO, "--qi", "zip", "--k", "1", "--levels", "zip=1:5", "--mask",
         "name=drop", "--mask", "ssn=drop", "--mask", "date_of_birth=drop", "--out", str(out),
         "--recipe-out", str(tmp_path / "r.json")],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    assert not set(pd.read_csv(out, dtype=str)["zip"]) & set(_demo()["zip"])


def test_apply_of_a_recipe_made_without_identifiers_stops_on_a_table_with_them(tmp_path, capsys):
    clean = tmp_path / "clean.csv"
    _demo().drop(columns=IDENTIFIERS).to_csv(clean, index=False)
    full = tmp_path / "full.csv"
    _demo().to_csv(full, index=False)
    recipe = tmp_path / "r.json"
    code, _, err = _run(["anonymize", str(clean), "--qi", "age", "--qi", "sex", "--k", "5",
                         "--out", str(tmp_path / "c.csv"), "--recipe-out", str(recipe)],
                        capsys)  # fmt: skip
    assert code == 0, err
    out = tmp_path / "o.csv"
    code, _, err = _run(["apply", str(full), "--recipe", str(recipe), "--out", str(out)], capsys)
    _refused(code, err, IDENTIFIERS, out)
    assert "apply a recipe that masks them" in err
    # allowed on the command line of apply: written, and the run says which and why
    allow = [a for c in IDENTIFIERS for a in ("--allow-identifiers", c)]
    code, printed, err = _run(
        ["apply", str(full), "--recipe", str(recipe), "--out", str(out), *allow], capsys
    )
    assert code == 0, err
    assert all(f"warning: {c!r} looks like a direct identifier" in err for c in IDENTIFIERS)
    assert "Steps applied:\n  - age: " in printed


@pytest.fixture
def plain_recipe(tmp_path, capsys):
    """A recipe of ``anonymize`` masking the SSNs and names without a key (SHA-256 sealed)."""
    src = tmp_path / "d.csv"
    _demo().to_csv(src, index=False)
    recipe = tmp_path / "r.json"
    code, _, err = _run(
        ["anonymize", str(src), "--qi", "age", "--qi", "sex", "--k", "5", "--mask", "ssn=redact",
         "--mask", "name=drop", "--mask", "date_of_birth=drop", "--mask", "zip=drop",
         "--out", str(tmp_path / "first.csv"), "--recipe-out", str(recipe)],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    return src, json.loads(recipe.read_text())


def _resealed(spec: dict, path: Path) -> Path:
    spec["seal"] = seal_of(spec, None)  # what anyone holding the file can recompute
    path.write_text(json.dumps(spec))
    return path


def test_a_stripped_and_resealed_recipe_cannot_write_raw_ssns(plain_recipe, tmp_path, capsys):
    src, spec = plain_recipe
    spec.update(masking=[], identifiers=[])
    edited = _resealed(spec, tmp_path / "edited.json")
    out = tmp_path / "o.csv"
    code, _, err = _run(["apply", str(src), "--recipe", str(edited), "--out", str(out)], capsys)
    _refused(code, err, IDENTIFIERS, out)


def test_a_recipe_cannot_allow_identifiers_by_itself(plain_recipe, tmp_path, capsys):
    # the attacker also writes the allowance into the recipe and re-seals it
    src, spec = plain_recipe
    spec.update(masking=[], identifiers=[], allowed_identifiers=IDENTIFIERS)
    edited = _resealed(spec, tmp_path / "edited.json")
    out = tmp_path / "o.csv"
    code, _, err = _run(["apply", str(src), "--recipe", str(edited), "--out", str(out)], capsys)
    _refused(code, err, IDENTIFIERS, out)
    assert "a recipe file cannot allow a column by itself" in err


def test_older_recipes_still_load_and_keep_their_seals(plain_recipe, tmp_path, capsys):
    src, spec = plain_recipe
    assert "allowed_identifiers" not in spec  # none allowed: left out, the seal unchanged
    out = tmp_path / "o.csv"
    path = tmp_path / "v7.json"
    path.write_text(json.dumps(spec))
    code, _, err = _run(["apply", str(src), "--recipe", str(path), "--out", str(out)], capsys)
    assert code == 0, err
    for version in (3, 4, 5, 6):  # as an older riskcore wrote and sealed it
        shape = {("qis" if k == "quasi_identifiers" else k): v for k, v in spec.items()}
        old = _resealed({**shape, "version": version}, tmp_path / f"v{version}.json")
        code, _, err = _run(["apply", str(src), "--recipe", str(old), "--out", str(out)], capsys)
        assert code == 0, (version, err)
        assert not set(pd.read_csv(out, dtype=str)["ssn"]) & set(_demo()["ssn"])


def test_the_allowance_is_sealed_with_the_recipe(tmp_path, capsys):
    src = tmp_path / "d.csv"
    _demo().to_csv(src, index=False)
    recipe = tmp_path / "r.json"
    code, _, err = _run(
        ["anonymize", str(src), "--qi", "age", "--qi", "sex", "--k", "5", "--mask", "ssn=redact",
         "--mask", "name=drop", "--mask", "date_of_birth=drop", "--allow-identifiers", "zip",
         "--out", str(tmp_path / "o.csv"), "--recipe-out", str(recipe)],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    spec = json.loads(recipe.read_text())
    spec.pop("allowed_identifiers")  # the record erased: the seal no longer matches
    path = tmp_path / "erased.json"
    path.write_text(json.dumps(spec))
    argv = ["apply", str(src), "--recipe", str(path), "--out", str(tmp_path / "x.csv"),
            "--allow-identifiers", "zip"]  # fmt: skip
    code, _, err = _run(argv, capsys)
    assert code == 2 and "seal does not match" in err


def test_perturbation_masks_what_mask_names_and_stops_on_the_rest(tmp_path, capsys):
    # --mask was once ignored by the perturbative options: raw SSNs with exit code 0
    out, recipe = tmp_path / "o.csv", tmp_path / "r.json"
    base = ["anonymize", DEMO, "--qi", "sex", "--qi", "race", "--local-suppression", "--k", "2",
            "--out", str(out), "--recipe-out", str(recipe)]  # fmt: skip
    code, _, err = _run([*base, "--mask", "ssn=redact"], capsys)
    _refused(code, err, ["name", "date_of_birth", "zip"], out)
    masks = ["--mask", "ssn=redact", "--mask", "name=drop", "--mask", "date_of_birth=drop",
             "--mask", "zip=drop"]  # fmt: skip
    code, printed, err = _run([*base, *masks], capsys)
    assert code == 0, err
    released = pd.read_csv(out, dtype=str)
    assert set(released["ssn"]) == {"[REDACTED]"}
    assert not {"name", "date_of_birth", "zip"} & set(released.columns)
    assert "  - ssn: redacted" in printed
    again = tmp_path / "again.csv"  # apply redoes the masking, then the perturbation
    code, _, err = _run(["apply", DEMO, "--recipe", str(recipe), "--out", str(again)], capsys)
    assert code == 0, err
    assert again.read_bytes() == out.read_bytes()


def test_the_engines_stop_before_writing_raw_identifiers(tmp_path, capsys):
    src = tmp_path / "demo.parquet"
    table = pa.Table.from_pandas(_demo(), preserve_index=False)
    pq.write_table(table, src)
    out = tmp_path / "o.parquet"
    code, _, err = _run(["anonymize", str(src), "--engine", "arrow", "--qi", "age", "--qi",
                         "sex", "--k", "5", "--out", str(out), "--recipe-out",
                         str(tmp_path / "r.json")], capsys)  # fmt: skip
    _refused(code, err, IDENTIFIERS, out)
    # an identifier QI the engine's search keeps at level 0: stopped before writing
    code, _, err = _run(
        ["anonymize", str(src), "--engine", "duckdb", "--qi", "zip", "--k", "1",
         *[a for c in ("name", "ssn", "date_of_birth") for a in ("--allow-identifiers", c)],
         "--out", str(out), "--recipe-out", str(tmp_path / "r.json")],
        capsys,
    )  # fmt: skip
    _refused(code, err, ["zip"], out)


def test_an_allowance_names_a_column_of_the_table_and_the_json_says_what_was_found(
    tmp_path, capsys
):
    base = ["anonymize", DEMO, "--qi", "age", "--qi", "sex", "--k", "5", "--out",
            str(tmp_path / "o.csv"), "--recipe-out", str(tmp_path / "r.json")]  # fmt: skip
    allow = [a for c in IDENTIFIERS for a in ("--allow-identifiers", c)]
    code, _, err = _run([*base, *allow, "--allow-identifiers", "nope"], capsys)
    assert code == 2 and "--allow-identifiers nope: the table has no such column" in err
    kept_raw = ["name", "date_of_birth", "zip"]
    allow = [a for c in kept_raw for a in ("--allow-identifiers", c)]
    code, printed, err = _run([*base, "--mask", "ssn=redact", *allow, "--format", "json"], capsys)
    assert code == 0, err
    summary = json.loads(printed)
    found = summary["identifiers"]
    assert [d["column"] for d in found["detected"]] == IDENTIFIERS
    assert found["treated"] == ["ssn"] and found["allowed"] == kept_raw
    assert [s["column"] for s in summary["steps"] if s["kind"] == "kept"] == kept_raw
