"""Safe Harbor and free text: never "Passes" while a text column is unscanned or holds a
finding; passes once the note is redacted or dropped and the rest is handled."""

from __future__ import annotations

import json
from dataclasses import replace

import pandas as pd

from riskcore._results import dumps
from riskcore.deidentify.masking import redact
from riskcore.deidentify.safe_harbor import (
    SafeHarborCheck,
    apply_safe_harbor,
    redact_text,
    run_safe_harbor,
    safe_harbor_check,
    safe_harbor_plan,
)
from riskcore.freetext import scan_text
from riskcore.roles import ColumnRoles, RoleSuggestion, RoleSuggestions, suggest_roles
from tests.hospital import hospital_table

YEAR = 2026


def _handled(df: pd.DataFrame) -> pd.DataFrame:
    """The hospital table with every identifier but the note handled, by hand (not by the
    module's plan): names, SSNs and MRNs dropped, dates to the year (birth years over 89
    grouped), ZIP codes to 3 digits (none of the table's areas is restricted)."""
    out = df.drop(columns=["name", "ssn", "mrn"])
    birth = out["date_of_birth"].str[:4].astype(int)
    out["date_of_birth"] = birth.astype(str).where(birth > YEAR - 90, f"{YEAR - 90} or earlier")
    out["admission_date"] = out["admission_date"].str[-4:]
    out["zip"] = out["zip"].str[:3]
    return out


def _note_as_other(sugg: RoleSuggestions) -> RoleSuggestions:
    """Suggestions in which the note is "other", as before the free-text rule existed."""
    note = RoleSuggestion("note", "other", "no identifying pattern in the name or the values")
    kept = tuple(note if s.column == "note" else s for s in sugg.values())
    return replace(sugg, suggestions=kept)


def test_the_note_left_as_other_holds_phone_numbers_and_never_passes():
    df = _handled(hospital_table())
    roles = ColumnRoles.from_mapping({c: "other" for c in df.columns})
    # the role rule's suggestion of the note, replaced by "other": the scan still finds it
    sugg = _note_as_other(suggest_roles(df))
    check = safe_harbor_check(df, roles, as_of=YEAR, suggestions=sugg)
    assert not check.passed
    by = {f.letter: f for f in check.findings}
    assert by["D"].columns == ("note",)
    n_phones = int(df["note"].str.contains(r"\(\d{3}\) \d{3}-\d{4}").sum())
    assert f"phone numbers, {n_phones:,} in {n_phones:,} of 5,000 cells" in by["D"].detected[0]
    assert [f.letter for f in check.findings if f.present] == ["D"]
    assert check.verdict == (
        "Does not pass Safe Harbor: 1 column still holds identifiers of 1 category (D): note (D)."
    )
    status = {s.column: s.status for s in check.text}
    assert status == {"date_of_birth": "clean", "zip": "clean", "admission_date": "clean",
                      "sex": "clean", "diagnosis": "clean", "note": "found"}  # fmt: skip


def test_unscanned_text_is_not_clean():
    df = _handled(hospital_table()).drop(columns=["note"])
    assert safe_harbor_check(df, as_of=YEAR).passed  # everything handled and read
    check = safe_harbor_check(df, as_of=YEAR, max_chars=0)  # nothing read
    assert not check.passed and not any(f.present for f in check.findings)
    assert {s.status for s in check.text} == {"not_scanned"}
    assert check.verdict.startswith("Does not pass Safe Harbor: the text of 5 columns")
    assert "was not fully scanned" in check.verdict
    assert check.remains[0].startswith("(free text) date_of_birth: not fully scanned")
    # a scan that does not cover a text column: that column is not scanned either
    partial_scan = scan_text(df, ["sex"])
    check = safe_harbor_check(df, as_of=YEAR, text=partial_scan)
    assert not check.passed
    assert [s.column for s in check.unchecked] == ["date_of_birth", "zip", "admission_date",
                                                   "diagnosis"]  # fmt: skip
    # suggestions made without a scan (older JSON): the check scans itself
    sugg = replace(suggest_roles(df), text=None)
    assert safe_harbor_check(df, as_of=YEAR, suggestions=sugg).passed


def test_a_partly_scanned_note_is_unchecked_even_without_findings():
    notes = [f"visit {i}, all well" for i in range(100)] * 3  # repeated: not a unique key
    df = pd.DataFrame({"note": notes, "sex": ["F"] * 300})
    assert safe_harbor_check(df, as_of=YEAR).passed
    check = safe_harbor_check(df, as_of=YEAR, max_chars=200)
    assert not check.passed and [s.column for s in check.unchecked] == ["note"]
    assert check.text[0].status == "partial" and check.text[0].findings == ()


def test_passes_once_the_note_is_redacted_or_dropped():
    df = _handled(hospital_table())
    assert not safe_harbor_check(df, as_of=YEAR).passed
    redacted = df.assign(note=redact(df["note"]))  # the masking operator
    check = safe_harbor_check(redacted, as_of=YEAR)
    assert check.passed and check.verdict.startswith("Passes the Safe Harbor checklist")
    assert "the text of the 6 text columns was scanned with nothing found" in check.verdict
    assert safe_harbor_check(df.drop(columns=["note"]), as_of=YEAR).passed
    # the module's own transforms, from the raw table: the note is dropped with the others
    raw = hospital_table()
    done = apply_safe_harbor(raw, as_of=YEAR)
    assert {s.column: s.action for s in done.steps}["note"] == "dropped"
    assert safe_harbor_check(done.data, as_of=YEAR).passed


def test_text_found_in_a_column_the_rule_keeps_is_redacted_in_place():
    df = pd.DataFrame(
        {
            "diagnosis": ["flu", "flu, seen 2024-03-14", "cold", "cold; call 212-555-0182"],
            "sex": ["F", "M", "F", "M"],
        }
    )
    assert suggest_roles(df)["diagnosis"].role == "sensitive"  # by its name
    check = safe_harbor_check(df, as_of=YEAR)
    assert [(f.letter, f.columns) for f in check.findings if f.present] == [
        ("C", ("diagnosis",)),
        ("D", ("diagnosis",)),
    ]
    plan = safe_harbor_plan(df, as_of=YEAR)
    assert plan == [{"column": "diagnosis", "action": "redact_text"}]
    done = run_safe_harbor(df, plan)
    assert done.data["diagnosis"].tolist() == ["flu", "flu, seen [DATE]", "cold",
                                               "cold; call [PHONE]"]  # fmt: skip
    assert done.steps[0].n_changed == 2 and "names and places" in done.steps[0].note
    assert safe_harbor_check(done.data, as_of=YEAR).passed
    _, step = redact_text(pd.Series(["fine"], name="x"))
    assert step.n_changed == 0 and step.note.startswith("No identifier was found")


def test_the_category_is_read_from_the_suggestion_not_from_its_sentence():
    df = pd.DataFrame({"code": ["a1", "b2", "c3"]})
    # a reason citing (G) while the suggestion's letters say (B): the field decides
    s = RoleSuggestion(
        "code",
        "identifier",
        "HIPAA Safe Harbor identifier (45 CFR 164.514(b)(2)(i)(G) Social Security number)",
        "zip",
        ("B",),
    )
    sugg = RoleSuggestions((s,), (), scan_text(df))
    check = safe_harbor_check(df, as_of=YEAR, suggestions=sugg)
    assert [f.letter for f in check.findings if f.present] == ["B"]
    # a direct identifier without letters is (R), whatever its sentence says
    s0 = replace(s, letters=())
    check = safe_harbor_check(df, as_of=YEAR, suggestions=RoleSuggestions((s0,), (), None))
    assert [f.letter for f in check.findings if f.present] == ["R"]


def test_check_with_text_round_trips_through_json_without_the_notes():
    check = safe_harbor_check(hospital_table(500, seed=2), as_of=YEAR)
    text = dumps(check)
    assert "Call back on" not in text and "***" not in text
    again = SafeHarborCheck.from_dict(json.loads(text))
    assert again == check and again.text[-1].column == "note"
