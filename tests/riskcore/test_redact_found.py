"""Free text kept, the identifiers found in it removed (issue 38, item 17).

Free text could only be dropped or redacted whole. The masking operator ``redact_found``
keeps the note and replaces each identifier the built-in patterns find by its placeholder
(``[PHONE]``), or removes it (``redact_found:removed``); the recipe records it, ``riskcore
apply`` replays it byte for byte, the identifier check counts a free-text column so masked
as treated (a column of names it is not), and the report's free-text limitation reads the
released note again and finds nothing the patterns know.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

from riskcore.cli import main
from riskcore.criteria import Targets
from riskcore.deidentify.masking import OPERATORS, make_step, step_words
from riskcore.deidentify.recipe.base import Recipe, mask_step
from riskcore.deidentify.recipe.identifiers import DetectedIdentifier, untreated_identifiers
from riskcore.errors import RiskcoreError
from riskcore.freetext import scan_text

# the identifiers written inside each note, as written
FOUND = [
    ["(212) 555-0182", "2024-03-14"],
    ["fatima.lópez52@gmail.com", "123-45-6789"],
    ["10.0.0.1", "March 14, 2024"],
    ["müller.jörg@straße.de", "+44 20 7946 0958"],
    [],
]
NOTES = [
    "Call back on (212) 555-0182 about the 2024-03-14 visit.",
    "Wrote from fatima.lópez52@gmail.com, SSN 123-45-6789 on file.",
    "Logged in from 10.0.0.1 on March 14, 2024; no change.",
    "Mail müller.jörg@straße.de or ring +44 20 7946 0958 today.",
    "Nothing to report.",
]


def _notes() -> pd.DataFrame:
    return pd.DataFrame({"note": [*NOTES, None], "sex": ["F", "M", "F", "M", "F", "M"]})


def _run(op: str, data: pd.DataFrame) -> pd.Series:
    step = make_step("note", op)
    return OPERATORS[step["operator"]].run(data, ["note"], step["params"]).data["note"]


def test_the_identifiers_found_become_placeholders_and_the_note_stays():
    out = _run("redact_found", _notes())
    assert out.tolist()[:5] == [
        "Call back on [PHONE] about the [DATE] visit.",
        "Wrote from [EMAIL], SSN [SSN] on file.",
        "Logged in from [IP] on [DATE]; no change.",
        "Mail [EMAIL] or ring [PHONE] today.",
        "Nothing to report.",
    ]
    assert pd.isna(out.iloc[5])


def test_removed_leaves_the_note_without_the_identifiers():
    out = _run("redact_found:removed", _notes())
    for note, found, got in zip(NOTES, FOUND, out.tolist()[:5], strict=True):
        expected = note
        for text in found:
            expected = expected.replace(text, "")
        assert got == expected
        assert not any(text in got for text in found)
    released = pd.DataFrame({"note": out})
    assert scan_text(released).get("note").status == "clean"


def test_the_operator_is_in_words_and_checks_its_parameter():
    assert step_words(make_step("note", "redact_found:removed")) == (
        "identifiers found in the text removed, the rest of the text kept"
    )
    with pytest.raises(RiskcoreError, match=r"found must be one of"):
        OPERATORS["redact_found"].configure({"found": "erased"})


def test_a_text_longer_than_the_limit_is_refused_before_it_is_read(monkeypatch):
    from riskcore.deidentify.masking import registry

    monkeypatch.setattr(registry, "MAX_CHARS", 100)
    long = pd.DataFrame({"note": [f"note {i} rings 212-555-{1000 + i}" for i in range(10)]})
    with pytest.raises(RiskcoreError, match=r"more than the 100 the removal of identifiers"):
        _run("redact_found", long)


def test_it_treats_a_free_text_column_but_not_a_column_of_names():
    rec = Recipe.of({}, {}, Targets.of(k=1), masking=[mask_step("note", "redact_found")])
    note = DetectedIdentifier("note", "free_text", "free text holding identifiers")
    name = DetectedIdentifier("note", "name", "person names")
    assert untreated_identifiers(rec, [note]) == ()
    assert untreated_identifiers(rec, [name]) == (name,)


def test_older_recipes_load_unchanged():
    old = {"qis": [], "levels": [], "hierarchies": {}, "targets": {"k": 1}, "version": 3,
           "masking": [{"column": "ssn", "operator": "redact", "params": {}}]}  # fmt: skip
    rec = Recipe.from_dict(old)
    assert rec.masking[0].operation == "redact"


def test_the_recipe_records_the_step_and_apply_replays_it_byte_for_byte(tmp_path, capsys):
    src, recipe, first, again = (tmp_path / n for n in ("d.csv", "r.json", "o.csv", "p.csv"))
    table = pd.DataFrame({"note": NOTES * 4, "sex": ["F", "M"] * 10})
    table.to_csv(src, index=False)
    code = main(["anonymize", str(src), "--qi", "sex", "--k", "2",
                 "--mask", "note=redact_found:removed",
                 "--out", str(first), "--recipe-out", str(recipe)])  # fmt: skip
    _, err = capsys.readouterr()
    assert code == 0, err
    spec = json.loads(recipe.read_text())
    assert spec["masking"] == [
        {"column": "note", "operator": "redact_found", "params": {"found": "removed"}}
    ]
    written = first.read_text(encoding="utf-8")
    assert "Nothing to report." in written and "Call back on  about the  visit." in written
    assert not any(text in written for found in FOUND for text in found)
    assert main(["apply", str(src), "--recipe", str(recipe), "--out", str(again)]) == 0
    assert again.read_bytes() == first.read_bytes()


def test_a_column_of_names_masked_so_is_still_refused(tmp_path, capsys):
    src = tmp_path / "d.csv"
    names = ["Maria Garcia", "James Smith", "Li Wei", "Anna Kowalska"] * 5
    pd.DataFrame({"name": names, "sex": ["F", "M"] * 10}).to_csv(src, index=False)
    code = main(["anonymize", str(src), "--qi", "sex", "--k", "2",
                 "--mask", "name=redact_found", "--out", str(tmp_path / "o.csv"),
                 "--recipe-out", str(tmp_path / "r.json")])  # fmt: skip
    _, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in err
    assert "whose masking keeps the text and removes only identifiers found in it" in err


def test_the_report_reads_the_kept_note_again_and_finds_nothing_left():
    from riskcore.profile import Profile
    from riskcore.review.limitations import free_text_limitation
    from riskcore.roles import ColumnRoles

    roles = ColumnRoles(identifiers=("note",), quasi_identifiers=("sex",))
    data = _notes()
    for op, left in (("redact_found", []), ("redact", [])):
        rec = Recipe.of({}, {}, Targets.of(k=1), masking=[mask_step("note", op)])
        released = data.assign(note=_run(op, data))
        facts = free_text_limitation(released, Profile(roles=roles, recipe=rec)).facts
        scanned = ["note"] if op == "redact_found" else []
        assert facts["scanned"] == scanned and facts["found"] == left
    # the same step on a note the patterns read whole is re-read, and what stays is said
    raw = Recipe.of({}, {}, Targets.of(k=1), masking=[mask_step("note", "redact_found")])
    facts = free_text_limitation(data, Profile(roles=roles, recipe=raw)).facts
    assert facts["found"][0]["column"] == "note"
